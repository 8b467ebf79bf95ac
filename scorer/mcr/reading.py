"""The facts of one reading of an MCR hand that the fan detectors look at, computed once.

Tile indices are the 34-kind ones (m 0-8, p 9-17, s 18-26, z 27-33: E S W N, White Green Red).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..decompose import Counts, Shape, waits
from ..hand import MeldKind

WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 bamboo and Green dragon
REVERSIBLE = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31})  # 1234589p 245689s White


@dataclass(frozen=True, slots=True)
class SetInfo:
    """A set of a reading: ``first`` is the lowest tile's index; ``exposed`` a claimed meld."""

    kind: MeldKind
    first: int
    exposed: bool
    concealed_kong: bool


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of one hand with its win context, as the detectors need it."""

    shape: Shape
    sets: tuple[SetInfo, ...]
    chows: tuple[int, ...]  # first indices, sorted
    pungs: tuple[int, ...]  # pungs and kongs, indices sorted
    pair: int | None
    counts: Counts  # every tile of the hand, melds included
    kinds: frozenset[int]
    suits: frozenset[int]  # numbered suits present: 0 m, 1 p, 2 s
    honors: bool  # any honour tile
    win: int
    self_draw: bool
    last_tile: bool
    kong_replacement: bool
    robbing_kong: bool
    last_of_kind: bool
    seat_wind: int
    round_wind: int
    exposed_melds: int
    concealed_pungs: int  # concealed pungs and concealed kongs, after the discard rule
    melded_kongs: int
    concealed_kongs: int
    wait: str | None  # "edge", "closed", "single" or None
    greater_honors: bool = False
    knitted_in_honors: bool = False
    knitted: tuple[int, ...] = ()  # the nine tiles of a knitted straight reading


def concealed_pung_count(sets: tuple[SetInfo, ...], win: int, self_draw: bool) -> int:
    """Concealed pungs and kongs; on a discard, a pung of the winning tile is not concealed.

    Unless the winning tile can be read into a concealed chow of the same reading.
    """
    count = sum(1 for s in sets if s.kind is not MeldKind.CHOW and not s.exposed)
    if not self_draw:
        in_chow = any(s.kind is MeldKind.CHOW and not s.exposed and s.first <= win <= s.first + 2 for s in sets)
        if not in_chow and any(s.kind is MeldKind.PUNG and not s.exposed and s.first == win for s in sets):
            count -= 1
    return count


def only_wait(before: Counts, win: int) -> bool:
    """Whether ``win`` is the one tile that completes ``before`` (the concealed part before the win):
    as sets and a pair, or as seven pairs when all thirteen tiles are concealed, as the reference does."""
    found = waits(before)
    if sum(before) == 13 and sum(c // 2 for c in before) == 6:
        found = found | {i for i, c in enumerate(before) if c % 2}
    return found == {win}


def wait_kind(sets: tuple[SetInfo, ...], pair: int | None, win: int) -> str | None:
    """边张, 坎张 or 单钓将 by where the winning tile stands in the concealed sets (edge first)."""
    edge = closed = single = False
    for s in sets:
        if s.exposed or s.concealed_kong:
            continue
        if s.kind is MeldKind.CHOW:
            if s.first + 1 == win:
                closed = True
            elif s.first == win or s.first + 2 == win:
                edge = True
    if pair == win:
        single = True
    if edge:
        return "edge"
    if closed:
        return "closed"
    return "single" if single else None
