"""Rounds that alternate the sides of a comparison in one process, and their medians.

Each round runs every side once, one after the other, on that round's own inputs; a busy machine
then slows both sides of a ratio alike. The first round warms up (imports, caches) and is not counted.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

Side = Callable[[int], None]  # runs one round's inputs, given the round number


def alternate(sides: dict[str, Side], rounds: int) -> dict[str, list[float]]:
    """Seconds per side and counted round (rounds 1..``rounds``; round 0 warms up)."""
    seconds: dict[str, list[float]] = {name: [] for name in sides}
    for number in range(rounds + 1):
        for name, side in sides.items():
            start = time.perf_counter()
            side(number)
            if number:
                seconds[name].append(time.perf_counter() - start)
    return seconds


def rate(seconds: Sequence[float], items: int) -> float:
    """Items per second, the median of the rounds."""
    return items / statistics.median(seconds)


def ratio(ours: Sequence[float], theirs: Sequence[float]) -> float:
    """The median of the per-round ratios of our rate to theirs."""
    return statistics.median(t / o for o, t in zip(ours, theirs, strict=True))


def show(heading: str, items: int, ours: Sequence[float], theirs: Sequence[float], names: tuple[str, str],
         target: float) -> None:
    """One comparison: both sides' rates and the ratio of ours to theirs."""
    print(heading)
    print(f"  {names[0]:15} {rate(ours, items):9.0f} hands/s")
    print(f"  {names[1]:15} {rate(theirs, items):9.0f} hands/s")
    print(f"  ratio {names[0]}/{names[1]}: {ratio(ours, theirs):.3f} (target >= {target})")


def compare(sides: dict[str, Side], hands: int, rounds: int, seed: int, names: tuple[str, str],
            target: float) -> dict[str, list[float]]:
    """Run the four sides (``ours``, ``theirs``, ``ours_batch``, ``theirs_batch``) alternately and print the two
    comparisons: in-process, and JSON in and out. Returns the seconds per side and round."""
    seconds = alternate(sides, rounds)
    print(f"hands: {hands} per round, {rounds} rounds (seed {seed}); medians")
    show("in-process (ready objects):", hands, seconds["ours"], seconds["theirs"], names, target)
    show("JSON in and out (mjscore batch):", hands, seconds["ours_batch"], seconds["theirs_batch"], names, target)
    return seconds
