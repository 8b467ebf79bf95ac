"""Sets and a pair, suit by suit: the one decomposition engine of every rule set.

A hand's counts are 34 numbers (m 0-8, p 9-17, s 18-26, z 27-33). Sets never cross suits, so each
suit (nine counts; the honours' seven, which make no chows) splits on its own, and its ways are kept
once found: a suit's counts repeat far more often than whole hands do. The ways of a hand are the
products of the ways of its suits, its one pair in the one suit whose count is 2 more than a multiple
of 3. Wild tiles (Fuzhou's golds) are spread over the suits, a suit's ways found once per number of
wilds it may use.

Within a suit the ways come in the order of a walk that takes the lowest tile left as a pung, then as
the first of a chow, then as the pair; a hand's ways in the order of the products of its suits' ways.

>>> [(sets, pair) for sets, pair, _, _ in ways((3, 1, 1, 1) + (0,) * 27 + (2, 0, 0))]
[(((False, 0, False, False), (True, 1, False, False)), 31)]
"""

from __future__ import annotations

from itertools import product
from typing import Any, Final

Counts = tuple[int, ...]
Set = tuple[bool, int, bool, bool]  # (a chow, first 34-kind index, claimed, a kong): found sets are neither
Way = tuple[tuple[Set, ...], int, tuple[int, ...], tuple[int, ...]]  # sets, pair (-1: none), chow firsts, pung firsts
WildWay = tuple[tuple[Set, ...], int, int]  # sets, pair (-1: none), wilds used; a wild stands in for any tile

NO_PAIR: Final = -1  # a suit's way without the pair
WILD: Final = -1  # the index of a set of wilds alone, and of a hand's pair of wilds alone (every hand has a pair)
SEGMENTS: Final[tuple[tuple[int, int], ...]] = ((0, 9), (9, 18), (18, 27), (27, 34))
_EMPTY: Final[tuple[Counts, ...]] = ((0,) * 9, (0,) * 9, (0,) * 9, (0,) * 7)
_LIMIT: Final = 1 << 16  # entries a memo keeps before it starts again


def _room(memo: dict[Any, Any]) -> dict[Any, Any]:
    """A memo with room for one more entry: emptied once it holds ``_LIMIT``."""
    if len(memo) >= _LIMIT:
        memo.clear()
    return memo


def suit_ways(segment: Counts, base: int) -> tuple[Way, ...]:
    """The ways one suit (its counts from index ``base``) splits into sets, and a pair when its count
    is 2 more than a multiple of 3; none when it is 1 more, or when no way exists.

    >>> [(sets, pair) for sets, pair, _, _ in suit_ways((1, 1, 1, 0, 0, 0, 0, 2, 0), 9)]
    [(((True, 9, False, False),), 16)]
    """
    found = _WAYS.get((segment, base))
    if found is None:
        found = _room(_WAYS)[(segment, base)] = _placed(segment, base)
    return found


def _placed(segment: Counts, base: int) -> tuple[Way, ...]:
    """A suit's ways from those of its shape (its counts without the zeros around them), moved to its place."""
    low, shape = _shape(segment)
    if not shape:
        return ()
    shift = base + low
    out = []
    for sets, pair, chows, pungs in _shape_ways(shape, base < 27):
        out.append((tuple((is_chow, first + shift, False, False) for is_chow, first, _, _ in sets),
                    pair + shift if pair >= 0 else NO_PAIR,
                    tuple(c + shift for c in chows), tuple(p + shift for p in pungs)))
    return tuple(out)


def _shape(segment: Counts) -> tuple[int, Counts]:
    """The first rank held, and the counts from it to the last rank held."""
    low = 0
    high = len(segment)
    while low < high and not segment[low]:
        low += 1
    while high > low and not segment[high - 1]:
        high -= 1
    return low, segment[low:high]


def _shape_ways(shape: Counts, chows: bool) -> tuple[Way, ...]:
    """The ways of a shape, its first rank 0; the same for every place the shape stands."""
    found = _SHAPES.get((shape, chows))
    if found is None:
        found = _room(_SHAPES)[(shape, chows)] = _walk(shape, chows)
    return found


def ways(counts: Counts) -> list[Way]:
    """Every way to split 34-counts into sets and exactly one pair, in the order of the products of the
    suits' ways (m p s z); the sets of each way by suit, its chow and pung firsts sorted."""
    parts = _held(counts)
    if parts is None:
        return []
    if len(parts) == 1:
        return list(parts[0])
    if all(len(found) == 1 for found in parts):
        return [_join([found[0] for found in parts])]
    return [_join(combo) for combo in product(*parts)]


def _held(counts: Counts) -> list[tuple[Way, ...]] | None:
    """The ways of each suit held, in index order; None unless each splits and one holds the pair."""
    parts = []
    pairs = 0
    for suit, (start, end) in enumerate(SEGMENTS):
        segment = counts[start:end]
        if segment == _EMPTY[suit]:
            continue
        found = suit_ways(segment, start)
        if not found:
            return None
        pairs += found[0][1] >= 0
        parts.append(found)
    return parts if pairs == 1 else None


def _join(parts: list[Way] | tuple[Way, ...]) -> Way:
    """One way of a hand from one way of each of its suits, in index order."""
    sets: tuple[Set, ...] = ()
    chows: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()
    pair = NO_PAIR
    for part_sets, part_pair, part_chows, part_pungs in parts:
        sets += part_sets
        chows += part_chows
        pungs += part_pungs
        if part_pair >= 0:
            pair = part_pair
    return sets, pair, chows, pungs


def complete(counts: Counts) -> bool:
    """Whether 34-counts split into sets and exactly one pair (any number of sets).

    >>> complete((3, 1, 1, 1) + (0,) * 27 + (2, 0, 0)), complete((3, 1, 1, 0, 1) + (0,) * 29)
    (True, False)
    """
    return _held(counts) is not None


def wait_tiles(before: Counts) -> frozenset[int]:
    """The tiles that complete ``before`` (3n+1 tiles) as sets and a pair.

    Adding a tile changes one suit: the others must split as they are, and the changed one with it.

    >>> sorted(wait_tiles((0, 1, 1) + (0,) * 6 + (0, 0, 0, 0, 2) + (0,) * 20))
    [0, 3]
    """
    rest = [0, 0, 0, 0]  # per suit: its count modulo 3, or -1 when it cannot stand as it is
    for suit, (start, end) in enumerate(SEGMENTS):
        segment = before[start:end]
        mod = sum(segment) % 3
        rest[suit] = -1 if mod != 1 and any(segment) and not suit_ways(segment, start) else mod
    out: set[int] = set()
    for suit, (start, end) in enumerate(SEGMENTS):
        others = rest[:suit] + rest[suit + 1 :]
        if -1 in others or 1 in others or others.count(2) + (rest[suit] == 1) != 1:
            continue
        out.update(start + rank for rank in suit_waits(before[start:end], start))
    return frozenset(out)


def suit_waits(segment: Counts, base: int) -> tuple[int, ...]:
    """The ranks (0-based) whose tile, added to one suit, lets it split into sets (and a pair when its
    count is then 2 more than a multiple of 3)."""
    found = _WAITS.get((segment, base))
    if found is None:
        low, shape = _shape(segment)
        size = len(segment)
        found = _room(_WAITS)[(segment, base)] = tuple(
            low + at for at in _shape_waits(shape, base < 27) if 0 <= low + at < size)
    return found


def _shape_waits(shape: Counts, chows: bool) -> tuple[int, ...]:
    """The places (from 2 before the shape's first rank to 2 after its last) where one more tile lets the
    shape split; a tile further away would stand alone."""
    found = _SHAPE_WAITS.get((shape, chows))
    if found is None:
        out = []
        rest = (sum(shape) + 1) % 3
        if rest != 1:
            work: list[int] = [0, 0, *shape, 0, 0]
            for at in range(len(work)):
                work[at] += 1
                if _can_split(work, 0, rest == 2, chows):
                    out.append(at - 2)
                work[at] -= 1
        found = _room(_SHAPE_WAITS)[(shape, chows)] = tuple(out)
    return found


def _can_split(work: list[int], i: int, pair: bool, chows: bool) -> bool:
    """Whether ``work`` from tile ``i`` on splits into sets and, when ``pair``, one pair."""
    last = len(work)
    while i < last and not work[i]:
        i += 1
    if i == last:
        return not pair
    n = work[i]
    if n >= 3:
        work[i] = n - 3
        done = _can_split(work, i, pair, chows)
        work[i] = n
        if done:
            return True
    if pair and n >= 2:
        work[i] = n - 2
        done = _can_split(work, i, False, chows)
        work[i] = n
        if done:
            return True
    if chows and i + 2 < last and work[i + 1] and work[i + 2]:
        work[i] = n - 1
        work[i + 1] -= 1
        work[i + 2] -= 1
        done = _can_split(work, i, pair, chows)
        work[i] = n
        work[i + 1] += 1
        work[i + 2] += 1
        return done
    return False


def sole_wait(counts: Counts, win: int) -> bool:
    """Whether ``win`` is the one tile that completes ``counts`` less one ``win``, where ``counts`` split
    into sets and a pair (a concealed part with its winning tile).

    Only the winning tile's suit changes: it takes the tile back, or, when the pair stands in another
    suit and the winning suit less the tile holds a pair of its own, the pair's suit takes one.

    >>> sole_wait((1, 1, 1) + (0,) * 6 + (2,) + (0,) * 24, 2), sole_wait((0, 1, 1, 1) + (0,) * 5 + (2,) + (0,) * 24, 3)
    (True, False)
    """
    suit = 3 if win >= 27 else win // 9
    start, end = SEGMENTS[suit]
    segment = counts[start:end]
    rank = win - start
    before = segment[:rank] + (segment[rank] - 1,) + segment[rank + 1 :]
    if suit_waits(before, start) != (rank,):
        return False
    if sum(segment) % 3 == 2 or not suit_ways(before, start):
        return True  # the pair is in the winning suit, or the rest of that suit cannot stand as it is
    for other, (low, high) in enumerate(SEGMENTS):
        held = counts[low:high]
        if other != suit and sum(held) % 3 == 2:
            return not suit_waits(held, low)
    return True


def _walk(shape: Counts, chows: bool) -> tuple[Way, ...]:
    """The ways of a shape, in the order of the walk; indices from 0."""
    rest = sum(shape) % 3
    if rest == 1:
        return ()
    found: list[Way] = []
    _split(list(shape), 0, _PUNG, NO_PAIR, [], chows, rest == 2, found)
    return tuple(found)


_PUNG, _CHOW, _PAIR = 0, 1, 2  # what may be taken at a tile, in this order; once one is, none before it


def _split(work: list[int], i: int, least: int, pair: int, sets: list[Set], chows: bool, with_pair: bool,
           found: list[Way]) -> None:
    """Take sets (and the pair) off ``work`` from tile ``i`` on, each way once: at one tile, pungs come
    before chows and chows before the pair (``least`` is the first still allowed at tile ``i``)."""
    last = len(work)
    while i < last and not work[i]:
        i += 1
        least = _PUNG
    if i == last:
        if (pair >= 0) == with_pair:
            way = tuple(sets)
            found.append((way, pair, tuple(s[1] for s in way if s[0]), tuple(s[1] for s in way if not s[0])))
        return
    n = work[i]
    if least == _PUNG and n >= 3:
        work[i] = n - 3
        sets.append((False, i, False, False))
        _split(work, i, _PUNG, pair, sets, chows, with_pair, found)
        sets.pop()
        work[i] = n
    if least <= _CHOW and chows and i + 2 < last and work[i + 1] and work[i + 2]:
        work[i] = n - 1
        work[i + 1] -= 1
        work[i + 2] -= 1
        sets.append((True, i, False, False))
        _split(work, i, _CHOW, pair, sets, chows, with_pair, found)
        sets.pop()
        work[i] = n
        work[i + 1] += 1
        work[i + 2] += 1
    if with_pair and pair < 0 and n >= 2:
        work[i] = n - 2
        _split(work, i, _PAIR, i, sets, chows, with_pair, found)
        work[i] = n


_WAYS: Final[dict[tuple[Counts, int], tuple[Way, ...]]] = {}
_SHAPES: Final[dict[tuple[Counts, bool], tuple[Way, ...]]] = {}
_WAITS: Final[dict[tuple[Counts, int], tuple[int, ...]]] = {}
_SHAPE_WAITS: Final[dict[tuple[Counts, bool], tuple[int, ...]]] = {}


# --- wild tiles --------------------------------------------------------------------------------------


def wild_ways(counts: Counts, sets: int, wilds: int) -> list[tuple[tuple[Set, ...], int]]:
    """Every way to split ``counts`` and ``wilds`` wild tiles into ``sets`` sets and one pair, suits in
    index order: (the sets, the pair); a set or pair made of wilds alone has the index ``WILD``.

    The order is a walk's: the lowest real tile as a pung (with 0, 1 or 2 wilds), as the lowest real
    tile of a chow (the others real or wild), then as the pair (with 0 or 1 wild); the sets and pair
    of wilds alone last.

    >>> wild_ways((0,) * 8 + (1,) + (0,) * 25, 1, 4)  # 9m and four wilds: 999m, 789m or wilds, and a pair
    [(((False, 8, False, False),), -1), (((True, 6, False, False),), -1), (((False, -1, False, False),), 8)]
    """
    out: dict[tuple[tuple[Set, ...], int], None] = {}
    segments = [(counts[start:end], start) for suit, (start, end) in enumerate(SEGMENTS)
                if counts[start:end] != _EMPTY[suit]]

    def combine(k: int, left: int, taken: tuple[Set, ...], pair: int) -> None:
        if k == len(segments):
            _finish(taken, pair, left, sets, out)
            return
        segment, base = segments[k]
        for suit_sets, suit_pair, used in _wild_suit(segment, base, left):
            if suit_pair != NO_PAIR and pair != NO_PAIR:
                continue
            combine(k + 1, left - used, taken + suit_sets, pair if suit_pair == NO_PAIR else suit_pair)

    combine(0, wilds, (), NO_PAIR)
    return list(out)


def _finish(taken: tuple[Set, ...], pair: int, left: int, sets: int,
            out: dict[tuple[tuple[Set, ...], int], None]) -> None:
    if pair == NO_PAIR:
        if left < 2:
            return
        left -= 2
        pair = WILD
    if left % 3:
        return
    all_sets = taken + ((False, WILD, False, False),) * (left // 3)
    if len(all_sets) == sets:
        out[(tuple(sorted(all_sets, key=_set_order)), pair)] = None


def _set_order(s: Set) -> tuple[bool, int]:
    return not s[0], s[1]  # chows first, then pungs; each by index


def _wild_suit(segment: Counts, base: int, wilds: int) -> tuple[WildWay, ...]:
    """The ways of one suit with at most ``wilds`` wilds: each set holds a real tile of the suit."""
    key = (segment, base, wilds)
    found = _WILD_WAYS.get(key)
    if found is None:
        found = _room(_WILD_WAYS)[key] = _wild_walk(segment, base, wilds)
    return found


def _wild_walk(segment: Counts, base: int, wilds: int) -> tuple[WildWay, ...]:
    work = list(segment)
    last = len(work)
    chows_ok = base < 27
    found: dict[tuple[tuple[Set, ...], int], int] = {}
    sets: list[Set] = []

    def walk(i: int, wild: int, pair: int) -> None:
        while i < last and work[i] == 0:
            i += 1
        if i == last:
            key = (tuple(sorted(sets, key=_set_order)), pair)
            if key not in found:
                found[key] = wilds - wild
            return
        n = work[i]
        for real in (3, 2, 1) if wild else (3,):  # a pung, wilds filling in
            if n >= real and 3 - real <= wild:
                work[i] -= real
                sets.append((False, base + i, False, False))
                walk(i, wild - (3 - real), pair)
                sets.pop()
                work[i] += real
        if chows_ok:  # chows in which tile i is the lowest real tile
            for low in (i, i - 1, i - 2) if wild else (i,):
                if low < 0 or low > 6:
                    continue
                others = [t for t in (low, low + 1, low + 2) if t != i]
                missing = [t for t in others if t < i or work[t] == 0]
                if len(missing) > wild:
                    continue
                taken = [t for t in others if t not in missing]
                work[i] -= 1
                for t in taken:
                    work[t] -= 1
                sets.append((True, base + low, False, False))
                walk(i, wild - len(missing), pair)
                sets.pop()
                for t in taken:
                    work[t] += 1
                work[i] += 1
        if pair == NO_PAIR:  # the pair
            for real in (2, 1) if wild else (2,):
                if n >= real and 2 - real <= wild:
                    work[i] -= real
                    walk(i, wild - (2 - real), base + i)
                    work[i] += real

    walk(0, wilds, NO_PAIR)
    return tuple((suit_sets, pair, used) for (suit_sets, pair), used in found.items())


_WILD_WAYS: Final[dict[tuple[Counts, int, int], tuple[WildWay, ...]]] = {}
