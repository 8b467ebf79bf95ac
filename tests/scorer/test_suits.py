"""The decomposition engine against brute force: the same ways, waits and wild ways, and regular readings
in the order of the MCR reference calculator (which settles its ties)."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from scorer.suits import WILD, complete, sole_wait, wait_tiles, ways, wild_ways

CHOW, PUNG = True, False


def _counts(rng: random.Random, size: int, kinds: list[int]) -> tuple[int, ...]:
    counts = [0] * 34
    while sum(counts) < size:
        k = rng.choice(kinds)
        if counts[k] < 4:
            counts[k] += 1
    return tuple(counts)


def _built(rng: random.Random, sets: int, kinds: list[int]) -> tuple[int, ...]:
    """Sets and a pair drawn from ``kinds``: a complete hand (with few kinds, one that splits several ways)."""
    while True:
        counts = [0] * 34
        for _ in range(sets):
            k = rng.choice(kinds)
            chow = k < 27 and k % 9 <= 6 and rng.random() < 0.6
            for t in (k, k + 1, k + 2) if chow else (k, k, k):
                counts[t] += 1
        counts[rng.choice(kinds)] += 2
        if max(counts) <= 4:
            return tuple(counts)


def _hand(rng: random.Random, sets: int) -> tuple[int, ...]:
    """Half the time a complete hand, else any tiles."""
    kinds = _kinds(rng)
    return _built(rng, sets, kinds) if rng.random() < 0.5 else _counts(rng, 3 * sets + 2, kinds)


def _kinds(rng: random.Random) -> list[int]:
    """A few ranks of one or two suits and some honours: hands that split several ways."""
    suits = rng.sample(range(3), rng.choice((1, 2)))
    low = rng.randrange(5)
    return [9 * s + r for s in suits for r in range(low, low + 5)] + rng.sample(range(27, 34), 2)


def _sets_of(counts: tuple[int, ...]) -> list[tuple[bool, int]]:
    pungs = [(PUNG, i) for i in range(34) if counts[i] >= 3]
    chows = [(CHOW, i) for i in range(27) if i % 9 <= 6 and counts[i] and counts[i + 1] and counts[i + 2]]
    return pungs + chows


def brute_ways(counts: tuple[int, ...]) -> set[tuple[tuple[tuple[bool, int], ...], int]]:
    """Every (sets, pair) by trying every multiset of candidate sets and every pair."""
    n = (sum(counts) - 2) // 3
    out = set()
    for chosen in combinations_with_replacement(sorted(_sets_of(counts)), n):
        rest = list(counts)
        for is_chow, first in chosen:
            for t in (first, first + 1, first + 2) if is_chow else (first,) * 3:
                rest[t] -= 1
        if min(rest) >= 0 and sum(rest) == 2 and max(rest) == 2:
            out.add((tuple(sorted(chosen)), rest.index(2)))
    return out


def test_ways_are_those_of_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(1500):
        counts = _hand(rng, rng.randint(0, 4))
        found = {(tuple(sorted((s[0], s[1]) for s in sets)), pair) for sets, pair, _, _ in ways(counts)}
        assert found == brute_ways(counts), counts
        assert complete(counts) == bool(found)


def test_waits_are_the_tiles_that_complete() -> None:
    rng = random.Random(6)
    for _ in range(600):
        held = list(_hand(rng, rng.randint(0, 4)))
        held[rng.choice([i for i in range(34) if held[i]])] -= 1
        before = tuple(held)
        expected = set()
        for t in range(34):
            grown = before[:t] + (before[t] + 1,) + before[t + 1:]
            if brute_ways(grown):
                expected.add(t)
        assert wait_tiles(before) == expected, before
        for win in expected:
            grown = before[:win] + (before[win] + 1,) + before[win + 1:]
            assert sole_wait(grown, win) == (expected == {win})


def test_wild_ways_rebuild_the_tiles() -> None:
    rng = random.Random(7)
    for _ in range(600):
        sets, wilds = rng.randint(1, 5), rng.randint(1, 3)
        real = list(_hand(rng, sets))
        for _ in range(wilds):  # tiles the wilds stand for
            real[rng.choice([i for i in range(34) if real[i]])] -= 1
        counts = tuple(real)
        found = wild_ways(counts, sets, wilds)
        assert len(set(found)) == len(found)
        for chosen, pair in found:
            assert len(chosen) == sets
            held = [0] * 34
            used = 0
            for is_chow, first, _, _ in chosen:
                if first == WILD:
                    used += 3
                    continue
                for t in (first, first + 1, first + 2) if is_chow else (first,) * 3:
                    held[t] += 1
            if pair == WILD:
                used += 2
            else:
                held[pair] += 2
            missing = [h - c for h, c in zip(held, counts, strict=True)]
            assert min(missing) >= 0 and sum(missing) + used == wilds  # wilds stand in for what is not held


# The MCR reference calculator (its fan_calculator.cpp) takes sets one after another, each scanned from the
# lowest tile in its order (characters, bamboo, dots, honours), a pung before a chow at one tile and never a
# set that sorts before the one taken last; what is left is the pair. Its readings come in that order, which
# is ours: fourteen tiles hold at most one suit that splits more than one way (that takes 8 tiles with the
# pair or 9 without), so the order of the suits never shows, and within a suit both walk alike.
_REFERENCE_ORDER = [*range(0, 9), *range(18, 27), *range(9, 18), *range(27, 34)]


def reference_order(counts: tuple[int, ...]) -> list[tuple[tuple[tuple[bool, int], ...], int]]:
    out: list[tuple[tuple[tuple[bool, int], ...], int]] = []
    work = list(counts)
    n = (sum(counts) - 2) // 3

    def key(s: tuple[bool, int]) -> tuple[int, int]:
        return _REFERENCE_ORDER.index(s[1]), s[0]

    def walk(taken: list[tuple[bool, int]]) -> None:
        if len(taken) == n:
            if sum(work) == 2 and max(work) == 2:
                found = (tuple(sorted(taken)), work.index(2))
                if found not in out:
                    out.append(found)
            return
        for t in _REFERENCE_ORDER:
            for s in ((PUNG, t), (CHOW, t)):
                is_chow, first = s
                tiles = (first, first + 1, first + 2) if is_chow else (first,) * 3
                if is_chow and (first >= 27 or first % 9 > 6):
                    continue
                if taken and key(s) < key(taken[-1]) or (taken and s == taken[-1] and not is_chow):
                    continue
                if all(work[x] >= tiles.count(x) for x in tiles):
                    for x in tiles:
                        work[x] -= 1
                    walk([*taken, s])
                    for x in tiles:
                        work[x] += 1

    walk([])
    return out


def test_mcr_order_is_the_reference_calculators() -> None:
    rng = random.Random(8)
    several = 0
    for _ in range(2000):
        counts = _built(rng, rng.randint(2, 4), _kinds(rng))
        found = [(tuple(sorted((s[0], s[1]) for s in sets)), pair) for sets, pair, _, _ in ways(counts)]
        expected = reference_order(counts)
        assert found == expected, counts
        several += len(found) > 1
    assert several > 60  # enough of the hands drawn read several ways
