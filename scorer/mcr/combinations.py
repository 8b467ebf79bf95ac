"""Fans made by combining sets, counted by the 1998 rules' scoring principles.

不拆移 (no splitting): once sets form a fan, they are not split to form another from themselves;
不得相同 (no repeating): sets that formed a fan do not form the same fan again with another set;
套算一次 (count once): a set not yet combined may be combined once with one that was.

Applied as the reference calculator applies them: a fan of four chows (or pungs) takes all four;
a fan of three takes three and the fourth set may add one pairwise fan; otherwise pairwise fans
count, at most one fewer than the sets that take part in any, the commonest trimmed first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

_PAIR_PRIORITY: Final[tuple[str, ...]] = (
    "pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows")


def four_chows_fan(c: tuple[int, ...]) -> str | None:
    """一色四步高 or 一色四同顺 from four chow starts (sorted)."""
    if len({x // 9 for x in c}) != 1:
        return None
    steps = {c[i + 1] - c[i] for i in range(3)}
    if steps == {1} or steps == {2}:
        return "four_pure_shifted_chows"
    if steps == {0}:
        return "quadruple_chow"
    return None


def three_chows_fan(a: int, b: int, c: int) -> str | None:
    """A fan of three chows (starts sorted), or None."""
    suits = {a // 9, b // 9, c // 9}
    ranks = sorted((a % 9, b % 9, c % 9))
    if len(suits) == 3:
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return "mixed_shifted_chows"
        if ranks[0] == ranks[2]:
            return "mixed_triple_chow"
        if ranks == [0, 3, 6]:
            return "mixed_straight"
        return None
    if len(suits) == 1:
        if b == a + 3 and c == b + 3:
            return "pure_straight"
        if (b == a + 2 and c == b + 2) or (b == a + 1 and c == b + 1):
            return "pure_shifted_chows"
        if a == b == c:
            return "pure_triple_chow"
    return None


def two_chows_fan(a: int, b: int) -> str | None:
    """A fan of two chows, or None."""
    if a // 9 != b // 9:
        return "mixed_double_chow" if a % 9 == b % 9 else None
    if abs(a - b) == 3:
        return "short_straight"
    if {a % 9, b % 9} == {0, 6}:
        return "two_terminal_chows"
    if a == b:
        return "pure_double_chow"
    return None


def _trim(found: list[str | None], limit: int) -> dict[str, int]:
    """Keep at most ``limit`` pairwise fans: trim repeats first, the least valued kind first."""
    table = {name: found.count(name) for name in _PAIR_PRIORITY}
    count = sum(table.values())
    keep_each = 1
    while count > limit and keep_each >= 0:
        for name in reversed(_PAIR_PRIORITY):
            while table[name] > keep_each and count > limit:
                table[name] -= 1
                count -= 1
        keep_each -= 1
    return {name: n for name, n in table.items() if n}


@lru_cache(maxsize=8192)
def chow_fans(chows: tuple[int, ...]) -> dict[str, int]:
    """The fans of a reading's chows (starts sorted), by the principles above."""
    n = len(chows)
    if n < 2:
        return {}
    if n == 4:
        four = four_chows_fan(chows)
        if four:
            return {four: 1}
        for a, b, c, rest in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            three = three_chows_fan(chows[a], chows[b], chows[c])
            if three:
                out = {three: 1}
                extras = {two_chows_fan(chows[x], chows[rest]) for x in (a, b, c)}
                for name in _PAIR_PRIORITY:
                    if name in extras:
                        out[name] = out.get(name, 0) + 1
                        break
                return out
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
        found = [two_chows_fan(chows[i], chows[j]) for i, j in pairs]
        taking_part = {k for (i, j), fan in zip(pairs, found, strict=True) if fan for k in (i, j)}
        return _trim(found, len(taking_part) - 1) if taking_part else {}
    if n == 3:
        three = three_chows_fan(*chows)
        if three:
            return {three: 1}
        return _trim([two_chows_fan(chows[0], chows[1]), two_chows_fan(chows[0], chows[2]),
                      two_chows_fan(chows[1], chows[2])], 2)
    fan = two_chows_fan(chows[0], chows[1])
    return {fan: 1} if fan else {}


def four_pungs_fan(p: tuple[int, ...]) -> str | None:
    if p[0] < 27 and len({x // 9 for x in p}) == 1 and all(p[i + 1] == p[i] + 1 for i in range(3)):
        return "four_pure_shifted_pungs"
    if p == (27, 28, 29, 30):
        return "big_four_winds"
    return None


def three_pungs_fan(a: int, b: int, c: int) -> str | None:
    if a < 27 and b < 27 and c < 27:
        suits = {a // 9, b // 9, c // 9}
        ranks = sorted((a % 9, b % 9, c % 9))
        if len(suits) == 3:
            if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
                return "mixed_shifted_pungs"
            if ranks[0] == ranks[2]:
                return "triple_pung"
        elif len(suits) == 1 and b == a + 1 and c == b + 1:
            return "pure_shifted_pungs"
        return None
    if all(27 <= x <= 30 for x in (a, b, c)):
        return "big_three_winds"
    if (a, b, c) == (31, 32, 33):
        return "big_three_dragons"
    return None


def two_pungs_fan(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return "double_pung" if a % 9 == b % 9 else None
    if a >= 31 and b >= 31:
        return "two_dragons_pungs"
    return None


@lru_cache(maxsize=8192)
def pung_fans(pungs: tuple[int, ...]) -> dict[str, int]:
    """The fans of a reading's pungs and kongs (indices sorted), by the principles above."""
    n = len(pungs)
    out: dict[str, int] = {}
    if n == 4:
        four = four_pungs_fan(pungs)
        if four:
            return {four: 1}
        for a, b, c, rest in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            three = three_pungs_fan(pungs[a], pungs[b], pungs[c])
            if three:
                out[three] = 1
                for x in (a, b, c):
                    two = two_pungs_fan(pungs[x], pungs[rest])
                    if two:
                        out[two] = out.get(two, 0) + 1
                        break
                return out
    elif n == 3:
        three = three_pungs_fan(*pungs)
        if three:
            return {three: 1}
    for i in range(n):
        for j in range(i + 1, n):
            two = two_pungs_fan(pungs[i], pungs[j])
            if two:
                out[two] = out.get(two, 0) + 1
    return out
