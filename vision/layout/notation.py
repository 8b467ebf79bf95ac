"""Tile names as notation: canonical runs (``tiles_notation``), red fives as fives, the mpsz sort key."""

from __future__ import annotations

from collections.abc import Iterable


def plain_name(label: str) -> str:
    """A red five's name as the plain five's (``0m`` -> ``5m``)."""
    return "5" + label[1] if label[0] == "0" else label


def tiles_notation(tiles: Iterable[str]) -> str:
    """Canonical mpsz: suits in m, p, s, z, f order, digits sorted, one letter per suit.

    >>> tiles_notation(["5z", "1m", "3m", "2m", "6f"])
    '123m5z6f'
    """
    tiles = list(tiles)
    out = []
    for s in "mpszf":
        digits = sorted((t[0] for t in tiles if t[1] == s), key=lambda d: (int(d) if d != "0" else 5, d))
        if digits:
            out.append("".join(digits) + s)
    return "".join(out)


def tile_key(label: str) -> tuple[int, int]:
    """The mpsz sort key of a name: suit (m, p, s, z, f, then ``back``), then rank (a red five as a five)."""
    s = "mpszfb".find(label[1] if len(label) == 2 else "b")
    d = label[0]
    return (s, int(d) if d.isdigit() and d != "0" else 5)
