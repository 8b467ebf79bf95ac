"""Hands per second: mjscore's Riichi scorer against the ``mahjong`` library, on the same hands.

    python -m bench.score_riichi [--hands 3000] [--rounds 7] [--seed 1]

Both score the same seeded random legal hands (``bench/riichi_hands.py``) with the library's
rules on both sides, in two ways:

- scoring only: each from its own ready-made objects (mjscore: Hand, WinContext, RiichiContext;
  mahjong: 136-tile ids, Meld objects, HandConfig), built before the clock starts;
- per hand from a description: the objects a caller must make for each hand are made inside the clock
  (mjscore parses the hand's notation and builds its two contexts; mahjong builds its Meld objects,
  OptionalRules and HandConfig, from 136 ids prepared beforehand).

Rounds alternate the two libraries, so that a busy machine slows both alike. mjscore's caches (the
per-suit reading cache and the settings tables; never a whole hand) are emptied before each scoring-
only round ("cold") and kept for the next run ("warm", as in a running service). Medians of the rounds
are printed, and medians of the per-round ratios.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

import scorer.riichi as riichi
from bench.riichi_hands import build_library_args, library_spec, random_case
from scorer.errors import ScorerError
from scorer.hand import WinContext, parse_hand
from scorer.riichi.divide import _suit
from scorer.tiles import format_tiles, parse_tiles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    configs = {aka: dataclasses.replace(riichi.LIBRARY, has_aka_dora=aka) for aka in (False, True)}
    ours, theirs, ours_text, theirs_spec = [], [], [], []
    hand_indicators: dict[int, tuple[Any, Any]] = {}
    while len(ours) < args.hands:
        case = dataclasses.replace(random_case(rng), options=())
        try:
            spec = library_spec(case)
        except ValueError:
            continue
        ours.append((case.hand, case.ctx, configs[case.aka], case.rc))
        theirs.append(build_library_args(spec))
        ctx = {f.name: getattr(case.ctx, f.name) for f in dataclasses.fields(case.ctx)}
        rc = {f.name: getattr(case.rc, f.name) for f in dataclasses.fields(case.rc)}
        rc["dora_indicators"] = format_tiles(case.rc.dora_indicators)
        rc["ura_indicators"] = format_tiles(case.rc.ura_indicators)
        ours_text.append((str(case.hand), ctx, configs[case.aka], rc))
        hand_indicators[id(rc)] = (case.rc.dora_indicators, case.rc.ura_indicators)
        theirs_spec.append(spec)

    def run_ours(cold: bool) -> float:
        if cold:
            _suit.cache_clear()
            riichi._TABLES.clear()
            riichi._BY_VALUE.clear()
        score = riichi.score
        start = time.perf_counter()
        for hand, ctx, config, rc in ours:
            try:
                score(hand, ctx, config, rc)
            except ScorerError:
                pass
        return time.perf_counter() - start

    def run_ours_text() -> float:
        score, context = riichi.score, riichi.RiichiContext
        start = time.perf_counter()
        for text, ctx, config, rc in ours_text:
            try:
                fields: dict[str, Any] = dict(rc)
                fields["dora_indicators"] = parse_tiles(rc["dora_indicators"])
                fields["ura_indicators"] = parse_tiles(rc["ura_indicators"])
                score(parse_hand(text), WinContext(**ctx), config, context(**fields))
            except ScorerError:
                pass
        return time.perf_counter() - start

    def run_theirs() -> float:
        estimate = HandCalculator.estimate_hand_value
        start = time.perf_counter()
        for kwargs in theirs:
            estimate(**kwargs)
        return time.perf_counter() - start

    def run_ours_flags() -> float:
        score, context = riichi.score, riichi.RiichiContext
        start = time.perf_counter()
        for (hand, _, config, _), (_, ctx, _, rc) in zip(ours, ours_text, strict=True):
            try:
                fields: dict[str, Any] = dict(rc)
                fields["dora_indicators"] = hand_indicators[id(rc)][0]
                fields["ura_indicators"] = hand_indicators[id(rc)][1]
                score(hand, WinContext(**ctx), config, context(**fields))
            except ScorerError:
                pass
        return time.perf_counter() - start

    def run_theirs_flags() -> float:
        estimate = HandCalculator.estimate_hand_value
        start = time.perf_counter()
        for kwargs, spec in zip(theirs, theirs_spec, strict=True):
            config = HandConfig(**spec["config"], options=OptionalRules(**spec["options"]))
            estimate(**{**kwargs, "config": config})
        return time.perf_counter() - start

    def run_theirs_spec() -> float:
        estimate = HandCalculator.estimate_hand_value
        start = time.perf_counter()
        for spec in theirs_spec:
            estimate(**build_library_args(spec))
        return time.perf_counter() - start

    n = len(ours)
    rows: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "lib", "flags", "lib_flags", "text", "lib_spec")}
    ratios: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "flags", "text")}
    for _ in range(args.rounds):
        cold, lib, warm = run_ours(cold=True), run_theirs(), run_ours(cold=False)
        flags, lib_flags = run_ours_flags(), run_theirs_flags()
        text, lib_spec = run_ours_text(), run_theirs_spec()
        for key, seconds in (("cold", cold), ("warm", warm), ("lib", lib), ("flags", flags), ("lib_flags", lib_flags),
                             ("text", text), ("lib_spec", lib_spec)):
            rows[key].append(n / seconds)
        ratios["cold"].append(lib / cold)
        ratios["warm"].append(lib / warm)
        ratios["flags"].append(lib_flags / flags)
        ratios["text"].append(lib_spec / text)

    def med(key: str) -> float:
        return statistics.median(rows[key])

    def ratio(key: str) -> str:
        return f"ratio {statistics.median(ratios[key]):.2f}x"

    print(f"hands: {n} (seed {args.seed}), rounds: {args.rounds}")
    print("scoring only (ready-made inputs):")
    print(f"  mjscore riichi, cold caches: {med('cold'):8.0f} hands/s  {ratio('cold')}")
    print(f"  mjscore riichi, warm caches: {med('warm'):8.0f} hands/s  {ratio('warm')}")
    print(f"  mahjong 2.1.0:               {med('lib'):8.0f} hands/s")
    print("per hand with its flags (tiles ready-made, the flag objects built per hand):")
    print(f"  mjscore riichi:              {med('flags'):8.0f} hands/s  {ratio('flags')}")
    print(f"  mahjong 2.1.0:               {med('lib_flags'):8.0f} hands/s")
    print("per hand from a description (each side's input objects built per hand):")
    print(f"  mjscore riichi:              {med('text'):8.0f} hands/s  {ratio('text')}")
    print(f"  mahjong 2.1.0:               {med('lib_spec'):8.0f} hands/s")


if __name__ == "__main__":
    main()
