"""Hands per second: mjscore's MCR scorer against PyMahjongGB (C++), on the same seeded random hands.

    python -m bench.score_mcr [--hands 2000] [--rounds 7] [--seed 1]

Two comparisons, the two sides alternating round by round in this one process (``bench/timing.py``):

- in-process: ``scorer.mcr.score(hand, ctx)`` on ready Hand and WinContext objects, against
  ``MahjongFanCalculator(**kwargs)`` on its ready keyword arguments;
- JSON in and out: ``mjscore batch`` (``api.cli.run_batch``) reading JSON Lines of requests and writing
  JSON Lines of results, against a loop that reads the same hands as JSON lines of PyMahjongGB's
  arguments, calls it and writes its fans as a JSON line.

Every round scores hands of its own (``bench/mcr_hands.py``, ``--hands`` each), so no hand is scored
twice; mjscore's tables of per-suit shapes fill as they are met and are never keyed by whole hands.
Printed: the medians of the rounds and the median of the per-round ratios (target: 0.33 and more), and
for scale mjscore's batch against PyMahjongGB in-process.
"""

from __future__ import annotations

import argparse
import io
import json
import random
from typing import Any

from MahjongGB import MahjongFanCalculator

from api.cli import run_batch
from scorer.mcr import score

from .mcr_hands import gb_args, random_hand, request
from .timing import compare, ratio


def reference_batch(lines: str, out: io.StringIO) -> None:
    """PyMahjongGB with JSON in and out: one line of its arguments in, one line of its fans out."""
    for line in lines.splitlines():
        args: dict[str, Any] = json.loads(line)
        args["pack"] = tuple(tuple(p) for p in args["pack"])
        args["hand"] = tuple(args["hand"])
        out.write(json.dumps(MahjongFanCalculator(**args), ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    hands = [[random_hand(rng) for _ in range(args.hands)] for _ in range(args.rounds + 1)]
    kwargs = [[gb_args(h, c) for h, c in round_hands] for round_hands in hands]
    requests = ["\n".join(json.dumps(request(h, c)) for h, c in round_hands) + "\n" for round_hands in hands]
    gb_lines = ["\n".join(json.dumps(a) for a in round_args) + "\n" for round_args in kwargs]

    def ours(number: int) -> None:
        for hand, ctx in hands[number]:
            score(hand, ctx)

    def theirs(number: int) -> None:
        for kw in kwargs[number]:
            MahjongFanCalculator(**kw)

    def ours_batch(number: int) -> None:
        out = io.StringIO()
        if run_batch(io.StringIO(requests[number]), out):
            raise SystemExit("mjscore batch refused a hand")

    def theirs_batch(number: int) -> None:
        reference_batch(gb_lines[number], io.StringIO())

    sides = {"ours": ours, "theirs": theirs, "ours_batch": ours_batch, "theirs_batch": theirs_batch}
    seconds = compare(sides, args.hands, args.rounds, args.seed, ("mjscore", "PyMahjongGB"), 0.33)
    print(f"  for scale, mjscore batch/PyMahjongGB in-process: {ratio(seconds['ours_batch'], seconds['theirs']):.3f}")


if __name__ == "__main__":
    main()
