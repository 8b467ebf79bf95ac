"""Whether tile names make a complete hand under some rule set: the question the photo reader asks of each reading.

``is_complete_tiles(names)`` takes the concealed part and the winning tile as names (``"5m"``, red fives ``"0m"``)
and answers with the decomposition's own checks: sets and a pair, seven pairs, thirteen orphans, and MCR's knitted
hands (honours and knitted tiles; a knitted straight with a set and a pair). ``vision`` never imports the scorer:
``api`` hands this function to the layout stage; ``complete_with_gold(gold)`` makes its Fuzhou twin, for a photo
whose gold (金) the request names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from .decompose import (
    Counts,
    divide,
    honors_and_knitted,
    is_complete,
    is_thirteen_orphans,
    knitted_straight_rests,
    seven_pairs,
)
from .tiles import Tile, tile_from_index

# every tile with a 34-kind index by its name, red fives as fives (flowers and unknown names have none)
_INDEX: dict[str, int] = {
    name: Tile.parse(name).index for name in (*(str(tile_from_index(i)) for i in range(34)), "0m", "0p", "0s")
}


def is_complete_tiles(names: Iterable[str]) -> bool:
    """Whether ``names`` (a concealed part and its winning tile, melds left out) form sets and a pair, seven
    distinct pairs, thirteen orphans or one of MCR's knitted hands. A flower or an unknown name gives False.

    >>> is_complete_tiles(["1m", "2m", "3m", "5z", "5z"]), is_complete_tiles(["1m", "2m", "4m", "5z", "5z"])
    (True, False)
    >>> is_complete_tiles("1m 4m 7m 2p 5p 8p 3s 6s 9s 2z 2z 2z 5z 5z".split())
    True
    >>> is_complete_tiles("1m 4m 7m 2p 8p 3s 6s 1z 2z 3z 4z 5z 6z 7z".split()), is_complete_tiles(["0p", "5p"])
    (True, True)
    """
    counts = _counts(names)
    return counts is not None and _complete_counts(tuple(counts))


def _counts(names: Iterable[str]) -> list[int] | None:
    """How many of each of the 34 tiles ``names`` hold (red fives as fives), or None where one names no tile."""
    counts = [0] * 34
    for name in names:
        index = _INDEX.get(name)
        if index is None:
            return None
        counts[index] += 1
    return counts


@lru_cache(maxsize=65536)
def _complete_counts(counts: Counts) -> bool:
    n = sum(counts)
    if n % 3 != 2:
        return False
    if n == 14:
        if max(counts) <= 2 and seven_pairs(counts) is not None:  # seven different pairs
            return True
        if is_thirteen_orphans(counts) or honors_and_knitted(counts) is not None:
            return True
        if any(is_complete(rest, 1) for _, rest in knitted_straight_rests(counts)):
            return True
    return is_complete(counts, (n - 2) // 3)


def complete_with_gold(gold: str) -> Callable[[Iterable[str]], bool]:
    """A judge, like ``is_complete_tiles``, of a Fuzhou hand whose gold is ``gold`` (a tile name): its concealed part
    and winning tile form sets and a pair with the golds wild, or hold three golds (三金倒). Raises ``KeyError`` for
    a ``gold`` that names no tile.

    >>> judge = complete_with_gold("9p")
    >>> judge("1m 2m 9p 5z 5z".split()), judge("1m 2m 4m 5z 5z".split()), judge("1m 4m 9p 9p 9p".split())
    (True, False, True)
    """
    wild = _INDEX[gold]

    def judge(names: Iterable[str]) -> bool:
        counts = _counts(names)
        if counts is None:
            return False
        golds, counts[wild] = counts[wild], 0
        n = sum(counts) + golds
        return golds >= 3 or (n % 3 == 2 and bool(divide(tuple(counts), (n - 2) // 3, golds)))

    return judge
