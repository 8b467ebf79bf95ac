"""Hands per second: mjscore's Riichi scorer against the ``mahjong`` library, on the same hands.

    python bench/score_riichi.py [--hands 3000] [--rounds 7] [--seed 1]

Both score the same seeded random legal hands (tests/scorer/riichi/randhands.py), each from its own
ready-made input (mjscore: Hand, WinContext, RiichiContext; mahjong: 136-tile ids, melds, HandConfig),
with the library's rules on both sides. Rounds alternate the two, so that a busy machine slows both
alike. mjscore runs twice per round: cold (its caches emptied first: the per-suit reading cache and
the settings tables) and warm (those caches kept from the round before, as in a running service; no
whole hand is ever cached). The medians of the rounds are printed, and the medians of the ratios.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scorer" / "riichi"))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from randhands import library_args, random_case  # noqa: E402

import scorer.riichi as riichi  # noqa: E402
from scorer.errors import ScorerError  # noqa: E402
from scorer.riichi.divide import _ways  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    configs = {aka: dataclasses.replace(riichi.LIBRARY, has_aka_dora=aka) for aka in (False, True)}
    ours, theirs = [], []
    while len(ours) < args.hands:
        case = dataclasses.replace(random_case(rng), options=())
        try:
            lib = library_args(case)
        except ValueError:
            continue
        ours.append((case.hand, case.ctx, configs[case.aka], case.rc))
        theirs.append(lib)

    def run_ours(cold: bool) -> float:
        if cold:
            _ways.cache_clear()
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

    def run_theirs() -> float:
        estimate = HandCalculator.estimate_hand_value
        start = time.perf_counter()
        for kwargs in theirs:
            estimate(**kwargs)
        return time.perf_counter() - start

    cold, warm, lib, cold_ratio, warm_ratio = [], [], [], [], []
    n = len(ours)
    for _ in range(args.rounds):
        a = run_ours(cold=True)
        b = run_theirs()
        c = run_ours(cold=False)
        cold.append(n / a)
        lib.append(n / b)
        warm.append(n / c)
        cold_ratio.append(b / a)
        warm_ratio.append(b / c)
    print(f"hands: {n} (seed {args.seed}), rounds: {args.rounds}")
    print(f"mjscore riichi, cold caches: {statistics.median(cold):8.0f} hands/s")
    print(f"mjscore riichi, warm caches: {statistics.median(warm):8.0f} hands/s")
    print(f"mahjong 2.1.0:               {statistics.median(lib):8.0f} hands/s")
    print(f"ratio cold: {statistics.median(cold_ratio):.2f}x   ratio warm: {statistics.median(warm_ratio):.2f}x")


if __name__ == "__main__":
    main()
