"""Hands per second: mjscore's Riichi scorer against the ``mahjong`` library, on the same seeded hands.

    python -m bench.score_riichi [--hands 3000] [--rounds 7] [--seed 1]

Both score the same random legal hands (``bench/riichi_hands.py``) with the library's rules on both
sides, in two comparisons, the sides alternating round by round in this one process (``bench/timing.py``):

- in-process: each from its own ready objects (mjscore: Hand, WinContext, RiichiConfig, RiichiContext;
  mahjong: 136-tile ids, Meld objects, HandConfig with its OptionalRules), built before the clock starts;
- JSON in and out: ``mjscore batch`` (``api.cli.run_batch``) reading JSON Lines of requests and writing
  JSON Lines of results, against a loop that reads each hand as a JSON line of the library's arguments
  (136 ids, melds, the HandConfig and OptionalRules fields), builds the library's objects, scores the
  hand and writes han, fu, cost and yaku as a JSON line.

Every round scores hands of its own (``--hands`` each), so no hand is scored twice; mjscore's tables
(per-suit readings, settings per options) fill as they are met and are never keyed by whole hands.
Printed: the medians of the rounds and the median of the per-round ratios (target: 3 and more).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import random
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator

import scorer.riichi as riichi
from api.cli import run_batch
from scorer.errors import ScorerError

from .riichi_hands import Case, build_library_args, library_spec, random_case, request
from .timing import compare


def reference_batch(lines: str, out: io.StringIO) -> None:
    """The library with JSON in and out: one line of its arguments in, one line of its answer out."""
    estimate = HandCalculator.estimate_hand_value
    for line in lines.splitlines():
        result = estimate(**build_library_args(json.loads(line)))
        answer = {"error": result.error} if result.error else {
            "han": result.han, "fu": result.fu, "cost": result.cost, "yaku": [y.name for y in result.yaku]}
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")


def _cases(rng: random.Random, n: int) -> list[tuple[Case, dict[str, Any]]]:
    """``n`` cases with the library's settings (no random options), each with its library spec."""
    out = []
    while len(out) < n:
        case = dataclasses.replace(random_case(rng), options=())
        try:
            out.append((case, library_spec(case)))
        except ValueError:  # four plain fives with red fives on: the library's ids cannot say it
            continue
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    configs = {aka: dataclasses.replace(riichi.LIBRARY, has_aka_dora=aka) for aka in (False, True)}
    cases = [_cases(rng, args.hands) for _ in range(args.rounds + 1)]
    ours_in = [[(c.hand, c.ctx, configs[c.aka], c.rc) for c, _ in round_cases] for round_cases in cases]
    theirs_in = [[build_library_args(spec) for _, spec in round_cases] for round_cases in cases]
    requests = ["\n".join(json.dumps(request(c)) for c, _ in round_cases) + "\n" for round_cases in cases]
    specs = ["\n".join(json.dumps(spec) for _, spec in round_cases) + "\n" for round_cases in cases]

    def ours(number: int) -> None:
        score = riichi.score
        for hand, ctx, config, rc in ours_in[number]:
            try:
                score(hand, ctx, config, rc)
            except ScorerError:
                pass

    def theirs(number: int) -> None:
        estimate = HandCalculator.estimate_hand_value
        for kwargs in theirs_in[number]:
            estimate(**kwargs)

    def ours_batch(number: int) -> None:
        run_batch(io.StringIO(requests[number]), io.StringIO())

    def theirs_batch(number: int) -> None:
        reference_batch(specs[number], io.StringIO())

    sides = {"ours": ours, "theirs": theirs, "ours_batch": ours_batch, "theirs_batch": theirs_batch}
    compare(sides, args.hands, args.rounds, args.seed, ("mjscore", "mahjong 2.1.0"), 3)


if __name__ == "__main__":
    main()
