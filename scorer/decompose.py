"""Every reading of a hand: sets and a pair, seven pairs, thirteen orphans, knitted shapes.

Counts are 34-tuples (m 0-8, p 9-17, s 18-26, z 27-33), as in the 34-array of the riichi world.
The sets and a pair are found suit by suit by ``scorer.suits``, which keeps each suit's ways.
Wild tiles (Fuzhou's gold) are passed as a number; a set made only of wilds has the index ``WILD``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from itertools import permutations
from typing import Final

from . import suits
from .hand import Hand, Meld, MeldKind
from .tiles import Tile, format_tiles, tile_from_index

Counts = tuple[int, ...]
Block = tuple[MeldKind, int]  # (chow, first index) or (pung, index); a pair is kept apart
WILD: Final = suits.WILD

KNITTED_SEQUENCES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(9 * suit + rank for suit, start in zip(order, (0, 1, 2), strict=True) for rank in range(start, 9, 3))
    for order in permutations(range(3))
)
ORPHANS: Final[tuple[int, ...]] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONORS: Final = range(27, 34)


class Shape(StrEnum):
    REGULAR = "regular"  # sets and a pair
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONORS_AND_KNITTED = "honors_and_knitted"  # 全不靠 / 七星不靠
    KNITTED_STRAIGHT = "knitted_straight"  # 组合龙 with a set and a pair


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a hand.

    ``sets`` holds the hand's melds first (as laid down), then the concealed sets found;
    ``pair`` the pair of a regular or knitted-straight reading; ``pairs`` the seven pairs;
    ``loose`` the single tiles of thirteen orphans, honours-and-knitted or the knitted straight.
    """

    shape: Shape
    sets: tuple[Meld, ...] = ()
    pair: Meld | None = None
    pairs: tuple[Meld, ...] = ()
    loose: tuple[Tile, ...] = ()

    def groups(self) -> list[str]:
        """The reading as the contract prints it: ``["[555z]", "123p", "789s", "5s5s"]``."""
        out = [str(meld) for meld in self.sets]
        if self.loose:
            out.insert(0, format_tiles(self.loose))
        out.extend(_pair_text(p) for p in self.pairs)
        if self.pair is not None:
            out.append(_pair_text(self.pair))
        return out


def _pair_text(pair: Meld) -> str:
    return "".join(str(t) for t in pair.tiles)


def counts_of(tiles: tuple[Tile, ...] | list[Tile]) -> Counts:
    """The 34-count of tiles (flowers must be left out).

    >>> counts_of([Tile.parse("1m"), Tile.parse("1m"), Tile.parse("7z")])[0]
    2
    """
    counts: list[int] = [0] * 34
    for tile in tiles:
        counts[tile.index] += 1
    return tuple(counts)


def divide(counts: Counts, sets: int, wilds: int = 0) -> tuple[tuple[tuple[Block, ...], int], ...]:
    """All ways to split ``counts`` (plus ``wilds``) into ``sets`` sets and one pair.

    Each way is ``(blocks, pair_index)``, blocks sorted (chows, then pungs); ways in the order of
    ``scorer.suits`` (each suit walked lowest tile first: pung, chow, then the pair), which settles exact
    ties between readings.

    >>> [(b, pair) for b, pair in divide(counts_of([Tile.parse(t) for t in "1m 1m 1m 2m 3m".split()]), 1)]
    [(((<MeldKind.CHOW: 'chow'>, 0),), 0)]
    """
    if sum(counts) + wilds != 3 * sets + 2:
        return ()
    if wilds:
        return tuple((tuple((_CHOW if s[0] else _PUNG, s[1]) for s in found), pair)
                     for found, pair in suits.wild_ways(counts, sets, wilds))
    return tuple((tuple((_CHOW, c) for c in chows) + tuple((_PUNG, p) for p in pungs), pair)
                 for _, pair, chows, pungs in suits.ways(counts))


_CHOW, _PUNG = MeldKind.CHOW, MeldKind.PUNG


def waits(before: Counts) -> frozenset[int]:
    """The tiles that would complete ``before`` (3n+1 tiles) as sets and a pair.

    >>> sorted(waits(counts_of([Tile.parse(t) for t in "2m 3m 5p 5p".split()])))
    [0, 3]
    """
    if sum(before) % 3 != 1:
        return frozenset()
    return suits.wait_tiles(before)


def is_complete(counts: Counts, sets: int) -> bool:
    """Whether ``counts`` split into ``sets`` sets and a pair.

    >>> is_complete(counts_of([Tile.parse(t) for t in "1m 1m 1m 2m 3m".split()]), 1)
    True
    """
    return sum(counts) == 3 * sets + 2 and suits.complete(counts)


def decompose(hand: Hand, *, sets: int = 4, wilds: int = 0, wild_tile: Tile | None = None) -> tuple[Decomposition, ...]:
    """Every regular reading (sets and a pair) of a hand whose melds stay as laid down.

    ``wilds`` wild tiles join the concealed part (the caller leaves them out of ``hand``); in a
    reading they stand for the tiles they complete, and a set or pair of wilds alone shows ``wild_tile``.
    """
    concealed = list(hand.concealed)
    concealed.append(hand.win_tile)
    counts = counts_of(concealed)
    free = sets - len(hand.melds)
    out = []
    for blocks, pair in divide(counts, free, wilds):
        found = tuple(_block_meld(kind, index, wild_tile) for kind, index in blocks)
        out.append(Decomposition(Shape.REGULAR, sets=hand.melds + found, pair=_pair(pair, wild_tile)))
    return tuple(out)


def _block_meld(kind: MeldKind, index: int, wild_tile: Tile | None) -> Meld:
    if kind is MeldKind.CHOW:
        tiles = (tile_from_index(index), tile_from_index(index + 1), tile_from_index(index + 2))
    else:
        tile = _tile(index, wild_tile)
        tiles = (tile, tile, tile)
    return Meld(kind, tiles, concealed=True)


def _tile(index: int, wild_tile: Tile | None) -> Tile:
    if index != WILD:
        return tile_from_index(index)
    if wild_tile is None:
        msg = "a set of wild tiles alone needs wild_tile to show it"
        raise ValueError(msg)
    return wild_tile


def _pair(index: int, wild_tile: Tile | None = None) -> Meld:
    tile = _tile(index, wild_tile)
    return Meld(MeldKind.PAIR, (tile, tile), concealed=True)


def seven_pairs(counts: Counts) -> tuple[int, ...] | None:
    """The pair indices of a seven-pairs reading (four of a kind is two pairs), or None."""
    if sum(counts) != 14 or any(c % 2 for c in counts):
        return None
    return tuple(i for i, c in enumerate(counts) for _ in range(c // 2))


def is_thirteen_orphans(counts: Counts) -> bool:
    """One of each terminal and honour, and one of them twice."""
    return sum(counts) == 14 and all(counts[i] >= 1 for i in ORPHANS) and sum(counts[i] for i in ORPHANS) == 14


def honors_and_knitted(counts: Counts) -> tuple[bool, bool] | None:
    """全不靠 reading: ``(all seven honours, all nine knitted tiles)`` or None.

    Fourteen different tiles: honours and numbered tiles of one knitted pattern
    (147, 258, 369 each in its own suit).
    """
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return None
    numbered = {i for i in range(27) if counts[i]}
    for sequence in KNITTED_SEQUENCES:
        if numbered <= set(sequence):
            honors = sum(counts[i] for i in HONORS)
            return honors == 7, len(numbered) == 9
    return None


def knitted_straight_rests(counts: Counts) -> list[tuple[tuple[int, ...], Counts]]:
    """For each knitted straight (组合龙) the counts hold, the counts left once it is taken out."""
    out = []
    for sequence in KNITTED_SEQUENCES:
        if all(counts[i] for i in sequence):
            rest = list(counts)
            for i in sequence:
                rest[i] -= 1
            out.append((sequence, tuple(rest)))
    return out
