"""Hands per second for mjscore's MCR scorer and PyMahjongGB (C++) on the same 2000 random hands.

    python -m bench.score_mcr [--hands 2000] [--seed 1] [--repeat 3]

Both score the same hands in this one process; the figure is the best of ``--repeat`` passes.
mjscore's caches are cleared before each pass, so every pass is a cold one.
"""

from __future__ import annotations

import argparse
import random
import time

from bench.gb import gb_args
from bench.mcr_hands import random_hand
from scorer.decompose import _complete, _divide, waits
from scorer.mcr import combinations, score


def _clear_caches() -> None:
    for cached in (_divide, _complete, waits, combinations.chow_fans, combinations.pung_fans):
        cached.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from MahjongGB import MahjongFanCalculator

    rng = random.Random(args.seed)
    hands = [random_hand(rng) for _ in range(args.hands)]
    gb = [gb_args(h, c) for h, c in hands]

    ours = theirs = float("inf")
    for _ in range(args.repeat):
        _clear_caches()
        start = time.perf_counter()
        for hand, ctx in hands:
            score(hand, ctx)
        ours = min(ours, time.perf_counter() - start)
        start = time.perf_counter()
        for kwargs in gb:
            MahjongFanCalculator(**kwargs)
        theirs = min(theirs, time.perf_counter() - start)
    n = len(hands)
    print(f"hands: {n} (seed {args.seed}), best of {args.repeat} cold passes")
    print(f"mjscore     {n / ours:10.0f} hands/s")
    print(f"PyMahjongGB {n / theirs:10.0f} hands/s")
    print(f"ratio mjscore/PyMahjongGB: {theirs / ours:.3f} (target >= 0.333)")


if __name__ == "__main__":
    main()
