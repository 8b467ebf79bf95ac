"""Sets and a pair, suit by suit: the regular readings of a concealed part, with a cache per suit.

Each suit (and the honours) is split on its own and the ways are cached on that suit's nine counts,
which repeat far more often than whole hands do; the readings of the hand are the products of the
ways of its suits, the pair in exactly one of them. Same readings as ``scorer.decompose.divide``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

Block = tuple[bool, int, bool, bool]  # (is a chow, first 34-kind index, claimed, kong): a concealed set
Way = tuple[tuple[Block, ...], int, tuple[int, ...], tuple[int, ...]]  # sets, pair (-1: none), chows, pungs


def divide(counts: tuple[int, ...]) -> list[Way]:
    """Every way to split 34-counts into sets and exactly one pair: (sets, pair, chows, pungs), the
    chows and pungs as sorted first indices.

    >>> divide((3, 1, 1, 1) + (0,) * 27 + (2, 0, 0))
    [(((False, 0, False, False), (True, 1, False, False)), 31, (1,), (0,))]
    """
    per_suit = []
    pairs = 0
    for base, end in _SEGMENTS:
        segment = counts[base:end]
        if segment == _EMPTY[base]:
            continue
        with_pair, ways = _suit(segment, base)
        if not ways:
            return []
        pairs += with_pair
        per_suit.append(ways)
    if pairs != 1:
        return []
    if len(per_suit) == 1:
        return list(per_suit[0])
    out = []
    for combo in product(*per_suit):
        blocks: tuple[Block, ...] = ()
        chows: tuple[int, ...] = ()
        pungs: tuple[int, ...] = ()
        pair = -1
        for suit_blocks, suit_pair, suit_chows, suit_pungs in combo:  # suits in order: the lists stay sorted
            blocks += suit_blocks
            chows += suit_chows
            pungs += suit_pungs
            if suit_pair >= 0:
                pair = suit_pair
        out.append((blocks, pair, chows, pungs))
    return out


_SEGMENTS = ((0, 9), (9, 18), (18, 27), (27, 34))
_EMPTY = {0: (0,) * 9, 9: (0,) * 9, 18: (0,) * 9, 27: (0,) * 7}


@lru_cache(maxsize=16384)
def _suit(segment: tuple[int, ...], base: int) -> tuple[bool, tuple[Way, ...]]:
    """(holds the pair, the ways) of one suit; no ways when its count is 1 more than a multiple of 3."""
    rest = sum(segment) % 3
    if rest == 1:
        return False, ()
    return rest == 2, _ways(segment, base, rest == 2)


def _ways(segment: tuple[int, ...], base: int, with_pair: bool) -> tuple[Way, ...]:
    """The ways to split one suit's counts into sets (chows only in the numbered suits) and, when
    ``with_pair``, one pair; indices are absolute (``base`` + rank - 1)."""
    work = list(segment)
    size = len(work)
    chows_ok = base < 27
    found: dict[Way, None] = {}
    blocks: list[Block] = []

    def walk(i: int, pair: int) -> None:
        while i < size and not work[i]:
            i += 1
        if i == size:
            if (pair >= 0) == with_pair:
                sets = tuple(blocks)
                chows = tuple(b[1] for b in sets if b[0])
                pungs = tuple(b[1] for b in sets if not b[0])
                found[(sets, pair, chows, pungs)] = None
            return
        n = work[i]
        if n >= 3:
            work[i] = n - 3
            blocks.append((False, base + i, False, False))
            walk(i, pair)
            blocks.pop()
            work[i] = n
        if chows_ok and i < 7 and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            blocks.append((True, base + i, False, False))
            walk(i, pair)
            blocks.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1
        if with_pair and pair < 0 and n >= 2:
            work[i] = n - 2
            walk(i, base + i)
            work[i] = n

    walk(0, -1)
    return tuple(found)
