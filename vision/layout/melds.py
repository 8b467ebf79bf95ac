"""Melds: which tiles make a chow, pung or kong, how a group shows its meld (a sideways tile, backs), and how a
run of tiles splits into melds where the gaps are widest."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from vision.layout.geometry import Tiles, gap_between
from vision.layout.notation import plain_name
from vision.layout.result import Meld
from vision.layout.tuning import GROUP_GAP, TABLE_TILES
from vision.names import BACK, SUITS

# in a photo of a hand (fewer than TABLE_TILES tiles), a run of this many backs is a concealed kong of four backs whose
# fourth the finder missed (a dark back on a dark cloth): no meld shows three backs, nor a hand three tiles face down
# otherwise. At a whole table it is a wall's piece (2 of ``eval_cases``' 80 tables lost so). ``docs/photo.md``
MISSED_BACK = 3


def meld_kind(tiles: Sequence[str]) -> str | None:
    """chow, pung or kong for a valid set of tiles, else None.

    >>> meld_kind(["3p", "1p", "2p"]), meld_kind(["7z"] * 4), meld_kind(["7z", "8z", "9z"]), meld_kind(["1m", "1m"])
    ('chow', 'kong', None, None)
    """
    return _meld_kind(tuple(tiles))


@functools.lru_cache(maxsize=4096)  # the reading search asks of the same few tiles again and again
def _meld_kind(tiles: tuple[str, ...]) -> str | None:
    plain = [plain_name(t) for t in tiles]
    if any(len(t) != 2 or t[1] not in "mpsz" for t in plain):
        return None
    if len(plain) in (3, 4) and len(set(plain)) == 1:
        return "pung" if len(plain) == 3 else "kong"
    if len(plain) == 3 and len({t[1] for t in plain}) == 1 and plain[0][1] in SUITS:
        n = sorted(int(t[0]) for t in plain)
        if n[1] == n[0] + 1 and n[2] == n[1] + 1:
            return "chow"
    return None


def classify(t: Tiles, g: list[int]) -> str | None:
    """An exposed or concealed meld shown as such (sideways tile, backs), else None (a free group)."""
    labels = [t.labels[i] for i in g]
    backs = labels.count(BACK)
    if len(g) == 4 and backs in (2, 4):
        faces = [lb for lb in labels if lb != BACK]
        if backs == 4 or (len(set(faces)) == 1 and meld_kind(faces * 2) == "kong"):
            return "concealed_kong"
    if len(g) in (3, 4) and t.side[g].any() and backs == 0:
        return meld_kind(labels)
    return None


def chunk_kind(t: Tiles, chunk: Sequence[int]) -> str | None:
    """The meld a run of tiles shows: a concealed kong (4 with 2 or 4 backs; or, in a photo of a hand, 3 backs:
    ``MISSED_BACK``), else chow, pung or kong, or None."""
    labels = [t.labels[i] for i in chunk]
    backs = labels.count(BACK)
    if backs:
        faces = [lb for lb in labels if lb != BACK]
        ok = len(labels) == 4 and backs in (2, 4) and len(set(faces)) <= 1 and all(not f.endswith("f") for f in faces)
        missed = backs == len(labels) == MISSED_BACK and len(t.labels) < TABLE_TILES
        return "concealed_kong" if ok or missed else None
    return meld_kind(labels)


def segment(t: Tiles, groups: Sequence[Sequence[int]]) -> list[tuple[str, list[int]]] | None:
    """Split the tiles of consecutive groups into melds of 3 or 4, cutting where the gaps are widest: a cut where
    tiles touch and a wide gap inside a meld both cost (so a meld split by a noisy gap, or two melds shown
    without a gap, still read). None when the tiles make no melds."""
    seq = [i for g in groups for i in g]
    n = len(seq)
    if n == 0:
        return []
    key = tuple(seq)
    if key not in t.segments:  # (the reading search splits the same runs again for each way it reads)
        t.segments[key] = _segment(t, seq)
    out = t.segments[key]
    return None if out is None else [(kind, list(chunk)) for kind, chunk in out]


def _segment(t: Tiles, seq: list[int]) -> list[tuple[str, list[int]]] | None:
    n = len(seq)
    gaps = [gap_between(t, seq[k], seq[k + 1]) / t.u for k in range(n - 1)]
    best = [math.inf] * (n + 1)
    prev: list[tuple[int, str]] = [(-1, "")] * (n + 1)
    best[0] = 0.0
    for i in range(3, n + 1):
        for size in (3, 4):
            j = i - size
            if j < 0 or best[j] == math.inf:
                continue
            kind = chunk_kind(t, seq[j:i])
            if kind is None:
                continue
            cost = best[j] + sum(5 * max(0.0, gaps[k] - GROUP_GAP) for k in range(j, i - 1))
            if j > 0:
                cost += min(max(GROUP_GAP - gaps[j - 1], -0.5), 0.5)
            if cost < best[i]:
                best[i], prev[i] = cost, (j, kind)
    if best[n] == math.inf:
        return None
    out = []
    i = n
    while i > 0:
        j, kind = prev[i]
        out.append((kind, seq[j:i]))
        i = j
    return out[::-1]


def kong_tiles(m: Meld) -> tuple[str, ...]:
    faces = [x for x in m.tiles if x != BACK]
    return (faces[0],) * 4 if faces else ()


def back_apart(labels: Sequence[str], group: Sequence[int]) -> list[list[int]]:
    """A group (``labels`` of its tiles' indices ``group``) with a lone back at either end of its faces split off:
    a concealed kong shows two backs or four, so one back touching faces is no part of them (a box over the cloth, a
    wall's end), and the reading may leave it out as it leaves out a loose tile in line.

    >>> back_apart(["1m", "2m", "3m", "back"], [0, 1, 2, 3]), back_apart(["back", "1m", "1m", "back"], [0, 1, 2, 3])
    ([[0, 1, 2], [3]], [[0, 1, 2, 3]])
    """
    backs = [k for k, i in enumerate(group) if labels[i] == BACK]
    if len(backs) != 1 or len(group) < 2 or backs[0] not in (0, len(group) - 1):
        return [list(group)]
    k = backs[0]
    return [[group[0]], list(group[1:])] if k == 0 else [list(group[:-1]), [group[-1]]]
