"""Hands per second: mjscore's Riichi scorer against the ``mahjong`` library, on the same hands.

    python bench/score_riichi.py [--hands 3000] [--rounds 7] [--seed 1]

Both score the same seeded random legal hands (tests/scorer/riichi/randhands.py), each from its own
ready-made input (mjscore: Hand, WinContext, RiichiContext; mahjong: 136-tile ids, melds, HandConfig),
with the library's rules on both sides. Rounds alternate the two, so that a busy machine slows both
alike; each round starts mjscore with its caches empty (the per-suit reading cache, the settings
tables). The median of the rounds is printed, and the median of the per-round ratios.
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

    def run_ours() -> float:
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

    rates_ours, rates_theirs, ratios = [], [], []
    for _ in range(args.rounds):
        a = run_ours()
        b = run_theirs()
        rates_ours.append(len(ours) / a)
        rates_theirs.append(len(theirs) / b)
        ratios.append(b / a)
    n = len(ours)
    print(f"hands: {n} (seed {args.seed}), rounds: {args.rounds}")
    print(f"mjscore riichi: {statistics.median(rates_ours):10.0f} hands/s")
    print(f"mahjong 2.1.0:  {statistics.median(rates_theirs):10.0f} hands/s")
    print(f"ratio (median of rounds): {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
