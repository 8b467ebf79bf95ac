"""From tile detections to a hand: rows, groups, melds, the winning tile and flowers. Pure and deterministic.

``group_melds(detections) -> Layout``; ``layout.hand`` is the contract's notation (or None when the tiles make no
legal hand, with ``layout.problem`` saying which count is wrong).

How it reads a photo (every length is relative to the tile size ``u``, so the photo's resolution does not matter):

1. Duplicate boxes (the same tile found twice) are merged, keeping the most confident.
2. The row direction is the most common direction from each tile to its nearest neighbour (tiles in a row touch,
   rows are further apart), so a photo turned 90 or 180 degrees or tilted reads the same. Coordinates are turned
   so rows run along x; ``u`` is the median spacing of neighbouring upright tiles along a row.
3. Rows: tiles sorted across the row direction, split where consecutive centres are more than ``ROW_GAP * u``
   apart. Groups: tiles along a row, split where the free space between two tiles (their centre distance less
   their widths, a sideways tile being ``SIDEWAYS`` times as wide) is more than ``GROUP_GAP * u``.
4. The hand is the row with the most tiles in groups, alone or with one neighbouring row (the melds' row);
   every way of reading it (which row is the concealed one, which way round it reads, an end tile left out as a
   loose tile) is tried, and the reading that makes a legal hand (14 or 17 tiles, kongs counted as 3) and a
   complete one wins.
5. Groups of 3 or 4 with a sideways tile are exposed melds (chow, pung or kong by their tiles); 4 with 2 or 4
   ``back`` tiles are concealed kongs (4 backs: the tile is unknown). In the concealed row, the winning tile is a
   single tile set apart after the concealed tiles (3k+1 of them); groups beyond it are exposed melds shown
   without a sideways tile. Flowers (``f``) are set aside wherever they lie, in the hand's rows or in their own row
   near it; a flower lying askew, alone, away from the hand is a loose tile.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Protocol

import numpy as np

ROW_GAP = 0.6  # rows: split where centres across the row direction are this many tile sizes apart
GROUP_GAP = 0.14  # groups: split where the free space along a row exceeds this many tile widths
BOX_DEPTH = 1.45  # an upright tile's box across the row, in tile widths (face 1.36 and some of its side)
U_FLOOR = 0.9  # the tile size is at least this share of the width its box implies
SIDEWAYS = 1.36  # a sideways tile's width along the row, in upright tile widths
NEAR_ROW = 3.6  # a second hand row lies within this many tile sizes of the main row
FAR_GAP = 2.6  # a single tile this far from the rest of its row is loose
SHAPE_TOL = 0.13  # a loose-looking single tile must match the hand's box shape within this share
DUP_IOU = 0.6  # boxes overlapping this much are the same tile
BORDER = 0.3  # the winning tile and the melds are set apart by at least this gap; a narrower border costs
NEAR_GAP = 0.6  # a lone tile nearer than this to a group is not judged loose before the reading
WIN_GAP = 1.5  # a winning tile is set apart by at most this much
OVERLAP = 0.35  # neighbours in a row overlapping by this share of a tile width are one tile
HAND_SIZES = (14, 17)  # tiles in a hand, each kong counted as 3 (17: Fuzhou)
SUITS = "mps"


class DetectionLike(Protocol):
    label: str
    confidence: float
    box: Sequence[float]
    sideways: bool


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table: ``kind`` is chow, pung, kong or concealed_kong; ``tiles`` empty when unknown."""

    kind: str
    tiles: tuple[str, ...]
    detections: tuple[int, ...]

    @property
    def exposed(self) -> bool:
        return self.kind != "concealed_kong"

    @property
    def known(self) -> bool:
        return bool(self.tiles)

    def notation(self, tile: str | None = None) -> str:
        tiles = self.tiles or ((tile,) * 4 if tile else ("?",) * 4)
        body = tiles_notation(tiles) if tiles[0] != "?" else "????"
        return f"[{body}]" if self.exposed else f"({body})"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": list(self.tiles), "exposed": self.exposed,
                "notation": self.notation(), "detections": list(self.detections)}


@dataclass(frozen=True, slots=True)
class Row:
    """One row of tiles in reading order, split into groups; ``role``: concealed, melds, flowers or loose."""

    role: str
    groups: tuple[tuple[int, ...], ...]

    @property
    def detections(self) -> tuple[int, ...]:
        return tuple(i for g in self.groups for i in g)

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "detections": list(self.detections), "groups": [list(g) for g in self.groups]}


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the tiles make no legal hand: ``code`` (tile_count, fifth_copy, bad_group, no_tiles) and a message."""

    code: str
    message: str
    count: int | None = None
    expected: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.count is not None:
            out["count"] = self.count
            out["expected"] = list(self.expected)
        return out


@dataclass(frozen=True)
class Layout:
    """The hand read from the detections. Indices refer to the detection list given to ``group_melds``."""

    rows: tuple[Row, ...] = ()
    melds: tuple[Meld, ...] = ()
    concealed: tuple[str, ...] = ()  # the concealed part without the winning tile, in reading order
    concealed_detections: tuple[int, ...] = ()
    win_tile: str | None = None
    win_detection: int | None = None
    win_tile_assumed: bool = False
    win_candidates: tuple[str, ...] = ()  # when no tile is set apart: each tile the hand may have won on
    flowers: tuple[str, ...] = ()
    flower_detections: tuple[int, ...] = ()
    loose: tuple[int, ...] = ()  # tiles that are not part of the hand
    merged: tuple[int, ...] = ()  # duplicate boxes dropped
    notes: tuple[str, ...] = ()
    problem: Problem | None = None
    angle: float = 0.0  # row direction in the image, degrees
    tile_size: float = 0.0  # u, pixels
    renamed: tuple[int, ...] = ()  # detections read by a second name to make a complete hand (vision.relabel)

    @property
    def unknown_kongs(self) -> int:
        return sum(not m.known for m in self.melds)

    @property
    def hand(self) -> str | None:
        """The contract's notation, or None (no legal hand, or a concealed kong of four backs)."""
        if self.problem is not None or self.unknown_kongs:
            return None
        return self.hand_with()

    def hand_with(self, win: str | None = None, kong_tiles: Sequence[str] = ()) -> str | None:
        """The notation with ``win`` as the winning tile (default: the one read or assumed) and the tiles of the
        four-back concealed kongs in reading order; None when a tile is still unknown or the hand is illegal."""
        if self.problem is not None:
            return None
        kongs = list(kong_tiles)
        if len(kongs) < self.unknown_kongs:
            return None
        concealed = list(self.concealed)
        win_tile = self.win_tile
        if win is not None and win != win_tile:
            if win_tile is not None:
                concealed.append(win_tile)
            if win not in concealed:
                return None
            concealed.remove(win)
            win_tile = win
        if win_tile is None:
            return None
        parts = []
        for m in self.melds:
            parts.append(m.notation(None if m.known else kongs.pop(0)))
        parts.append(tiles_notation(concealed))
        parts.append("+" + win_tile)
        if self.flowers:
            parts.append(tiles_notation(self.flowers))
        return " ".join(p for p in parts if p)

    def reading(self) -> str:
        """Best-effort notation even when illegal (unknown tiles as ``?``), for messages."""
        parts = [m.notation() for m in self.melds] + [tiles_notation(self.concealed)]
        if self.win_tile:
            parts.append("+" + self.win_tile)
        if self.flowers:
            parts.append(tiles_notation(self.flowers))
        return " ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        """The contract's ``layout`` object (rows, melds, win_tile_assumed, notes) and the rest of the reading."""
        return {
            "rows": [r.to_dict() for r in self.rows],
            "melds": [m.to_dict() for m in self.melds],
            "concealed": list(self.concealed),
            "concealed_detections": list(self.concealed_detections),
            "win_tile": self.win_tile,
            "win_detection": self.win_detection,
            "win_tile_assumed": self.win_tile_assumed,
            "win_candidates": list(self.win_candidates),
            "flowers": list(self.flowers),
            "flower_detections": list(self.flower_detections),
            "loose": list(self.loose),
            "merged": list(self.merged),
            "unknown_kongs": self.unknown_kongs,
            "reading": self.reading(),
            "problem": self.problem.to_dict() if self.problem else None,
            "notes": list(self.notes),
            "renamed": list(self.renamed),
            "angle": round(self.angle, 1),
            "tile_size": round(self.tile_size, 1),
        }


# ------------------------------------------------------------------------------------------------- notation ----
def _plain(label: str) -> str:
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


def meld_kind(tiles: Sequence[str]) -> str | None:
    """chow, pung or kong for a valid set of tiles, else None.

    >>> meld_kind(["3p", "1p", "2p"]), meld_kind(["7z"] * 4), meld_kind(["7z", "8z", "9z"]), meld_kind(["1m", "1m"])
    ('chow', 'kong', None, None)
    """
    plain = [_plain(t) for t in tiles]
    if any(len(t) != 2 or t[1] not in "mpsz" for t in plain):
        return None
    if len(plain) in (3, 4) and len(set(plain)) == 1:
        return "pung" if len(plain) == 3 else "kong"
    if len(plain) == 3 and len({t[1] for t in plain}) == 1 and plain[0][1] in SUITS:
        n = sorted(int(t[0]) for t in plain)
        if n[1] == n[0] + 1 and n[2] == n[1] + 1:
            return "chow"
    return None


_ORDER = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
_INDEX = {t: i for i, t in enumerate(_ORDER)}
_ORPHANS = {_INDEX[t] for t in ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z")}


# the six knitted straights (147, 258, 369 spread over the three suits), as tile indices
_KNITTED = tuple(tuple(9 * s + d for s, start in zip(range(3), perm, strict=True) for d in range(start, 9, 3))
                 for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))


def is_complete(tiles: Sequence[str]) -> bool:
    """Whether the tiles (concealed part and winning tile) are sets and one pair, seven pairs, thirteen orphans, or
    one of MCR's knitted hands (honors and knitted tiles; a knitted straight with a set and a pair).

    >>> is_complete(["1m", "2m", "3m", "5z", "5z"]), is_complete(["1m", "2m", "4m", "5z", "5z"])
    (True, False)
    >>> is_complete(["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "2z", "2z", "2z", "5z", "5z"])
    True
    >>> is_complete(["1m", "4m", "7m", "2p", "8p", "3s", "6s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"])
    True
    """
    counts = [0] * 34
    for t in tiles:
        i = _INDEX.get(_plain(t))
        if i is None:
            return False
        counts[i] += 1
    n = len(tiles)
    if n % 3 != 2:
        return False
    if n == 14:
        if all(c in (0, 2) for c in counts) or (set(np.nonzero(counts)[0]) == _ORPHANS and max(counts) == 2):
            return True
        if _knitted(counts):
            return True
    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = _sets(counts)
            counts[p] += 2
            if ok:
                return True
    return False


def _knitted(counts: list[int]) -> bool:
    """14 tiles: honors and knitted tiles (14 different ones) or a knitted straight, a set and a pair."""
    for straight in _KNITTED:
        if max(counts) == 1 and all(counts[i] == 0 for i in range(27) if i not in straight):
            return True
        if all(counts[i] for i in straight):
            rest = list(counts)
            for i in straight:
                rest[i] -= 1
            for p in range(34):
                if rest[p] >= 2:
                    rest[p] -= 2
                    if _sets(rest):
                        return True
                    rest[p] += 2
    return False


def _sets(counts: list[int]) -> bool:
    c = list(counts)
    for i in range(34):
        while c[i] > 0:
            if c[i] >= 3:
                c[i] -= 3
                continue
            if i < 27 and i % 9 <= 6 and c[i + 1] > 0 and c[i + 2] > 0:
                c[i] -= 1
                c[i + 1] -= 1
                c[i + 2] -= 1
                continue
            return False
    return True


# ------------------------------------------------------------------------------------------------- geometry ----
@dataclass
class _Tiles:
    labels: list[str]
    side: np.ndarray  # bool
    conf: np.ndarray
    xy: np.ndarray  # centres in the turned frame: x along rows, y across
    wh: np.ndarray  # box width, height (image axes)
    u: float
    angle: float
    shape_tol: float = SHAPE_TOL
    ref: np.ndarray | None = None  # box size of the hand's upright tiles


def _dedupe(dets: Sequence[DetectionLike]) -> tuple[list[int], list[int]]:
    """Indices kept and dropped: a box overlapping a more confident one by ``DUP_IOU`` (IoU or the smaller box's
    share) is the same tile."""
    order = sorted(range(len(dets)), key=lambda i: (-float(dets[i].confidence), tuple(dets[i].box), i))
    kept: list[int] = []
    dropped: list[int] = []
    for i in order:
        b = dets[i].box
        a_i = max((b[2] - b[0]) * (b[3] - b[1]), 1e-9)
        dup = False
        for k in kept:
            c = dets[k].box
            iw = min(b[2], c[2]) - max(b[0], c[0])
            ih = min(b[3], c[3]) - max(b[1], c[1])
            if iw <= 0 or ih <= 0:
                continue
            inter = iw * ih
            a_k = max((c[2] - c[0]) * (c[3] - c[1]), 1e-9)
            if inter / (a_i + a_k - inter) > DUP_IOU or inter / min(a_i, a_k) > 0.85:
                dup = True
                break
        (dropped if dup else kept).append(i)
    return sorted(kept), sorted(dropped)


def _direction(c: np.ndarray) -> float:
    """Row direction (radians, in (-pi/2, pi/2]) from nearest-neighbour vectors, by a histogram mode refined by a
    mean of doubled angles."""
    if len(c) < 2:
        return 0.0
    d = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    nn = d.argmin(1)
    v = c[nn] - c
    phi = np.arctan2(v[:, 1], v[:, 0]) % math.pi
    bins = 36
    hist = np.bincount((phi / math.pi * bins).astype(int) % bins, minlength=bins).astype(float)
    smooth = hist + 0.5 * (np.roll(hist, 1) + np.roll(hist, -1))
    best = (int(np.argmax(smooth)) + 0.5) * math.pi / bins
    for _ in range(2):
        diff = (phi - best + math.pi / 2) % math.pi - math.pi / 2
        near = np.abs(diff) < math.radians(20)
        if not near.any():
            break
        best = best + float(np.arctan2(np.sin(2 * diff[near]).mean(), np.cos(2 * diff[near]).mean())) / 2
    best = (best + math.pi / 2) % math.pi - math.pi / 2
    return best if best > -math.pi / 2 + 1e-9 else best + math.pi


def _geometry(dets: Sequence[DetectionLike], idx: list[int]) -> _Tiles:
    boxes = np.array([dets[i].box for i in idx], float).reshape(-1, 4)
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    wh = np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]], 1)
    side = np.array([bool(dets[i].sideways) for i in idx], bool)
    theta = _direction(centres)
    rot = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
    xy = centres @ rot.T
    # u: the median along-row spacing of nearest upright neighbours lying along the row
    u = 0.0
    if len(idx) >= 2:
        d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
        np.fill_diagonal(d, np.inf)
        nn = d.argmin(1)
        v = xy[nn] - xy
        along = np.abs(v[:, 1]) < 0.35 * np.abs(v[:, 0])
        widths = np.where(side, SIDEWAYS, 1.0)
        if along.any():
            u = float(np.median(np.abs(v[along, 0]) / ((widths + widths[nn]) / 2)[along]))
    # tiles in a row cannot stand closer than their width: a lower bound from the upright boxes' size, as
    # W + H = (a + b)(|cos| + |sin|) for a tile a wide along the row and b deep across it (b about 1.45 a with
    # its side showing); it guards against spacings halved by extra boxes
    upright_wh = wh[~side] if (~side).any() else wh
    if len(upright_wh):
        c, s = abs(math.cos(theta)), abs(math.sin(theta))
        a = float(np.median(upright_wh.sum(1))) / ((c + s) * (1 + BOX_DEPTH))
        u = max(u, U_FLOOR * a)
    if u <= 0:
        u = float(np.median(np.sqrt(wh[:, 0] * wh[:, 1]))) / 1.25 if len(idx) else 1.0
    return _Tiles([dets[i].label for i in idx], side, np.array([dets[i].confidence for i in idx], float),
                  xy, wh, max(u, 1e-6), math.degrees(theta))


def _rows(t: _Tiles) -> list[list[int]]:
    """Local indices split into rows (by the across-row coordinate), each sorted along the row."""
    order = np.argsort(t.xy[:, 1], kind="stable")
    rows: list[list[int]] = []
    for k, i in enumerate(order):
        if k == 0 or t.xy[i, 1] - t.xy[order[k - 1], 1] > ROW_GAP * t.u:
            rows.append([])
        rows[-1].append(int(i))
    return [sorted(r, key=lambda i: (t.xy[i, 0], i)) for r in rows]


def _drop_overlaps(t: _Tiles, rows: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    """Tiles in a row never overlap: of two neighbours overlapping by more than ``OVERLAP`` of a tile width (a
    second box over the same tile, or a box over the seam of two), keep the more confident."""
    dropped: list[int] = []
    out = []
    for row in rows:
        row = list(row)
        while True:
            worst, k = min(((_gap(t, row[j], row[j + 1]), j) for j in range(len(row) - 1)), default=(0.0, -1))
            if worst >= -OVERLAP * t.u:
                break
            a, b = row[k], row[k + 1]
            lose = a if (t.conf[a], -a) < (t.conf[b], -b) else b
            row.remove(lose)
            dropped.append(lose)
        out.append(row)
    return [r for r in out if r], sorted(dropped)


def _width(t: _Tiles, i: int) -> float:
    return t.u * (SIDEWAYS if t.side[i] else 1.0)


def _gap(t: _Tiles, i: int, j: int) -> float:
    return abs(float(t.xy[j, 0] - t.xy[i, 0])) - (_width(t, i) + _width(t, j)) / 2


def _groups(t: _Tiles, row: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for k, i in enumerate(row):
        if k == 0 or _gap(t, row[k - 1], i) > GROUP_GAP * t.u:
            groups.append([])
        groups[-1].append(i)
    return groups


# ---------------------------------------------------------------------------------------------------- parse ----
@dataclass
class _Parse:
    melds: list[tuple[str, list[int]]] = field(default_factory=list)  # (kind, local indices)
    concealed: list[int] = field(default_factory=list)
    win: int | None = None
    flowers: list[int] = field(default_factory=list)
    bad_groups: list[list[int]] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)
    rows: list[tuple[str, list[list[int]]]] = field(default_factory=list)
    conc_row: int = -1
    deficit: float = 0.0  # how far the borders between concealed tiles, winning tile and melds are from gaps


def _classify(t: _Tiles, g: list[int]) -> str | None:
    """An exposed or concealed meld shown as such (sideways tile, backs), else None (a free group)."""
    labels = [t.labels[i] for i in g]
    backs = labels.count("back")
    if len(g) == 4 and backs in (2, 4):
        faces = [lb for lb in labels if lb != "back"]
        if backs == 4 or (len(set(faces)) == 1 and meld_kind(faces * 2) == "kong"):
            return "concealed_kong"
    if len(g) in (3, 4) and t.side[g].any() and backs == 0:
        return meld_kind(labels)
    return None


def _chunk_kind(t: _Tiles, chunk: Sequence[int]) -> str | None:
    """The meld a run of tiles shows: a concealed kong (4 with 2 or 4 backs), else chow, pung or kong, or None."""
    labels = [t.labels[i] for i in chunk]
    backs = labels.count("back")
    if backs:
        faces = [lb for lb in labels if lb != "back"]
        ok = len(labels) == 4 and backs in (2, 4) and len(set(faces)) <= 1 and all(not f.endswith("f") for f in faces)
        return "concealed_kong" if ok else None
    return meld_kind(labels)


def _segment(t: _Tiles, groups: Sequence[Sequence[int]]) -> list[tuple[str, list[int]]] | None:
    """Split the tiles of consecutive groups into melds of 3 or 4, cutting where the gaps are widest: a cut where
    tiles touch and a wide gap inside a meld both cost (so a meld split by a noisy gap, or two melds shown
    without a gap, still read). None when the tiles make no melds."""
    seq = [i for g in groups for i in g]
    n = len(seq)
    if n == 0:
        return []
    gaps = [_gap(t, seq[k], seq[k + 1]) / t.u for k in range(n - 1)]
    best = [math.inf] * (n + 1)
    prev: list[tuple[int, str]] = [(-1, "")] * (n + 1)
    best[0] = 0.0
    for i in range(3, n + 1):
        for size in (3, 4):
            j = i - size
            if j < 0 or best[j] == math.inf:
                continue
            kind = _chunk_kind(t, seq[j:i])
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


def _parse(t: _Tiles, rows: list[list[list[int]]], conc: int, reverse: bool, drops: Sequence[int]) -> _Parse | None:
    """One way of reading the hand rows: ``conc`` the concealed row, read backwards when ``reverse``; ``drops``
    per row: 0 none, 1 leave out its first group, 2 its last, when a single tile (a loose tile in line with the
    hand); None when that group is no single tile."""
    p = _Parse(conc_row=conc)
    for r, groups in enumerate(rows):
        groups = [list(g) for g in groups]
        if r == conc and reverse:
            groups = [g[::-1] for g in groups[::-1]]
        if drops[r] and groups:
            k = 0 if drops[r] == 1 else len(groups) - 1
            if len(groups[k]) != 1:
                return None
            p.dropped += groups[k]
            groups = groups[:k] + groups[k + 1:]
        flowers = [i for g in groups for i in g if t.labels[i].endswith("f")]
        p.flowers += flowers
        groups = [[i for i in g if i not in flowers] for g in groups]
        groups = [g for g in groups if g]
        p.rows.append(("concealed" if r == conc else "melds", groups))
        kinds = [_classify(t, g) for g in groups]
        if r != conc:
            seg = _segment(t, groups)
            if seg is not None:
                p.melds += seg
                continue
            for g, kind in zip(groups, kinds, strict=True):
                kind = kind or _chunk_kind(t, g)
                if kind is None:
                    p.bad_groups.append(g)
                else:
                    p.melds.append((kind, g))
            continue
        # the concealed row: concealed tiles (3k+1), the winning tile alone, then melds; of the tiles that can be
        # the winning one, the one whose borders (concealed | winning tile | melds) are the widest gaps
        win_at, after, best_def = None, None, math.inf
        before = 0
        for k, g in enumerate(groups):
            if kinds[k] is not None:
                continue
            if len(g) == 1 and before % 3 == 1 and t.labels[g[0]] != "back" and not _single_loose(t, g[0], t.ref, 2.0):
                seg = _segment(t, groups[k + 1:])
                if seg is not None:
                    borders = [(groups[k - 1][-1], g[0], BORDER)] if k > 0 else []
                    borders += [(g[0], seg[0][1][0], BORDER)] if seg else []
                    borders += [(a[1][-1], b[1][0], GROUP_GAP) for a, b in zip(seg, seg[1:], strict=False)]
                    deficit = sum(max(0.0, w - _gap(t, a, b) / t.u) for a, b, w in borders)
                    if deficit < best_def - 1e-9:
                        win_at, after, best_def = k, seg, deficit
            before += len(g)
        if win_at is None:
            p.melds += [(kind, g) for g, kind in zip(groups, kinds, strict=True) if kind is not None]
            p.concealed += [i for g, kind in zip(groups, kinds, strict=True) if kind is None for i in g]
        else:
            head = list(zip(groups[:win_at], kinds[:win_at], strict=True))
            p.melds += [(kind, g) for g, kind in head if kind is not None]
            p.concealed += [i for g, kind in head if kind is None for i in g]
            p.win = groups[win_at][0]
            p.melds += after or []
            p.deficit += best_def
    if p.dropped and p.win is None:  # leaving a tile out is only believable when a winning tile is set apart
        return None
    return p


def _count(p: _Parse) -> int:
    return len(p.concealed) + (p.win is not None) + 3 * len(p.melds)


def _score(t: _Tiles, p: _Parse) -> tuple:
    """How good a reading is, to compare readings: a legal hand first, then a complete one, with a winning tile
    set apart, using the most tiles; among illegal readings, the one nearest a legal count that shows the most
    detected tiles (so that a client sees them all)."""
    n = _count(p)
    tiles = [t.labels[i] for i in p.concealed] + ([t.labels[p.win]] if p.win is not None else [])
    backs = any(t.labels[i] == "back" for i in p.concealed + ([p.win] if p.win is not None else []))
    legal = n in HAND_SIZES and not p.bad_groups and not backs
    used = len(tiles) + sum(len(g) for _, g in p.melds)
    if legal:
        return (1, is_complete(tiles), 0, p.win is not None, used, -round(p.deficit, 6), len(p.melds),
                -len(p.dropped))
    shown = used + sum(len(g) for g in p.bad_groups)
    return (0, False, -min(abs(n - s) for s in HAND_SIZES), shown, -len(p.bad_groups), p.win is not None,
            -len(p.dropped))


def _shape_ok(t: _Tiles, i: int, ref: np.ndarray | None, slack: float = 1.0) -> bool:
    """Whether tile ``i``'s box has the shape of the hand's upright tiles (it lies square with the rows)."""
    if ref is None:
        return True
    return bool(np.all(np.abs(t.wh[i] - ref) <= slack * t.shape_tol * ref))


def _single_loose(t: _Tiles, i: int, ref: np.ndarray | None, slack: float = 1.0) -> bool:
    """A tile alone in its group is loose when its box is not shaped like the hand's upright tiles; one said to
    be sideways is loose too, unless its box clearly looks upright (the flag is then taken as wrong)."""
    if not t.side[i]:
        return not _shape_ok(t, i, ref, slack)
    distinct = ref is not None and abs(ref[0] - ref[1]) > 0.15 * max(ref)
    return not (distinct and _shape_ok(t, i, ref))


def group_melds(dets: Sequence[DetectionLike]) -> Layout:
    """Read the hand from ``dets`` (objects with label, confidence, box xyxy, sideways)."""
    kept, merged = _dedupe(dets)
    notes: list[str] = []
    if merged:
        notes.append(f"{len(merged)} duplicate box(es) merged")
    if not kept:
        return Layout(merged=tuple(merged), notes=(*notes, "no tiles found"),
                      problem=Problem("no_tiles", "no tiles were found in the photo", 0, HAND_SIZES))
    t = _geometry(dets, kept)
    rows = _rows(t)
    rows, overlapped = _drop_overlaps(t, rows)
    if overlapped:
        merged = sorted(merged + [kept[i] for i in overlapped])
        notes.append(f"{len(overlapped)} box(es) overlapping a neighbour in a row by more than "
                     f"{OVERLAP:.0%} of a tile dropped")
    row_groups = [_groups(t, r) for r in rows]
    is_flower = [lb.endswith("f") for lb in t.labels]

    # a reference box shape: the upright tiles of the biggest groups
    upright = [i for gs in row_groups for g in gs if len(g) >= 3 for i in g if not t.side[i]]
    ref = np.median(t.wh[upright], axis=0) if upright else None
    t.ref = ref
    if ref is not None:  # the shape tolerance grows with the boxes' own scatter (a noisier detector)
        spread = 1.4826 * float(np.median(np.abs(t.wh[upright] / ref - 1)))
        t.shape_tol = max(SHAPE_TOL, 3.5 * spread)

    # single tiles that cannot be part of the hand: askew, sideways alone, a back alone, or far from their row
    loose: set[int] = set()
    for gs in row_groups:
        for k, g in enumerate(gs):
            if len(g) != 1:
                continue
            i = g[0]
            gaps, near = [], []  # gaps to the neighbours; to neighbouring groups of two or more
            if k > 0:
                gaps.append(_gap(t, gs[k - 1][-1], i))
                if len(gs[k - 1]) > 1:
                    near.append(gaps[-1])
            if k + 1 < len(gs):
                gaps.append(_gap(t, i, gs[k + 1][0]))
                if len(gs[k + 1]) > 1:
                    near.append(gaps[-1])
            far = bool(gaps) and min(gaps) > FAR_GAP * t.u and not is_flower[i]
            # a tile close to a group may belong to a meld split by a noisy gap: the reading decides
            apart = not near or min(near) > NEAR_GAP * t.u
            # near the hand (a winning tile set apart), a noisy box may be off by twice the tolerance
            close = bool(near) and min(near) <= WIN_GAP * t.u and not is_flower[i]
            # a flower beside the end of the hand: twice the tolerance too
            beside = is_flower[i] and bool(gaps) and min(gaps) <= 1.8 * t.u
            slack = 2.0 if close or beside else 1.0
            if (apart and (t.labels[i] == "back" or _single_loose(t, i, ref, slack))) or far:
                loose.add(i)
    row_groups = [[g for g in gs if not (len(g) == 1 and g[0] in loose)] for gs in row_groups]

    # the main row: most tiles in groups of two or more (flowers aside)
    def weight(gs: list[list[int]]) -> tuple[int, int]:
        return (sum(len(g) for g in gs if len(g) >= 2 and not all(is_flower[i] for i in g)),
                sum(len(g) for g in gs))

    ymid = [float(np.median(t.xy[[i for g in gs for i in g], 1])) if gs else 0.0 for gs in row_groups]
    main = max(range(len(rows)), key=lambda r: (weight(row_groups[r]), -r))
    candidates: list[list[int]] = [[main]]
    for r in range(len(rows)):
        if r != main and row_groups[r] and abs(ymid[r] - ymid[main]) < NEAR_ROW * t.u \
                and not all(is_flower[i] for g in row_groups[r] for i in g):
            candidates.append(sorted([main, r]))

    best: tuple | None = None
    best_parse: _Parse | None = None
    best_set: list[int] = []
    for rset in candidates:
        sub = [row_groups[r] for r in rset]
        drop_opts = [(0, 1, 2) if len(gs) > 1 else (0,) for gs in sub]
        for conc in range(len(rset)):
            for reverse in (False, True):
                for drops in product(*drop_opts):
                    p = _parse(t, sub, conc, reverse, drops)
                    if p is None:
                        continue
                    s = _score(t, p)
                    if best is None or s > best:
                        best, best_parse, best_set = s, p, rset
    assert best_parse is not None and best is not None
    p = best_parse

    flowers = _flowers(t, p, best_set, row_groups, ymid)
    flower_rows = [r for r in range(len(row_groups)) if r not in best_set
                   and any(i in flowers for g in row_groups[r] for i in g)]
    used = set(p.concealed) | {i for _, g in p.melds for i in g} | set(flowers)
    if p.win is not None:
        used.add(p.win)
    loose_all = sorted(i for i in range(len(kept)) if i not in used)

    g_idx = kept  # local -> original index
    melds = tuple(Meld(kind, tuple(sorted((t.labels[i] for i in g), key=_tile_key))
                       if not all(t.labels[i] == "back" for i in g) else (), tuple(g_idx[i] for i in g))
                  for kind, g in p.melds)
    melds = tuple(Meld(m.kind, _kong_tiles(m), m.detections) if m.kind == "concealed_kong" else m for m in melds)
    # a stable order, whichever way the photo is turned: exposed melds, then concealed kongs, each in mpsz order
    melds = tuple(sorted(melds, key=lambda m: (not m.exposed, _tile_key(m.tiles[0]) if m.tiles else (9, 0),
                                               len(m.tiles), m.tiles)))
    concealed = tuple(_plain(t.labels[i]) for i in p.concealed)
    win = _plain(t.labels[p.win]) if p.win is not None else None

    problem = _problem(t, p, melds, concealed, win)
    conc_dets = [g_idx[i] for i in p.concealed]
    win_det = g_idx[p.win] if p.win is not None else None
    candidates_w: tuple[str, ...] = ()
    assumed = False
    if problem is None and win is None:
        assumed = True
        candidates_w = tuple(sorted(set(concealed), key=lambda s: (_tile_key(s), s)))
        win = concealed[-1]  # the default assumption: the last tile in reading order
        concealed = concealed[:-1]
        win_det = conc_dets.pop()
        notes.append("no tile is set apart as the winning tile: each concealed tile is a candidate "
                     f"({', '.join(candidates_w)}); {win} assumed")
    for m in melds:
        if not m.known:
            notes.append("a concealed kong shows four backs: its tile is unknown; give it in the request "
                         "(\"concealed_kongs\": [\"9p\"]) or write the hand yourself")
    if p.dropped:
        notes.append(f"{len(p.dropped)} tile(s) in line with the hand left out as loose")
    if loose_all:
        notes.append(f"{len(loose_all)} loose tile(s) ignored")

    local_rows = []
    conc_r = best_set[p.conc_row] if best_set else -1
    for r in sorted(set(best_set) | set(flower_rows), key=lambda r: ymid[r]):
        if r in flower_rows:
            gs = [g for g in row_groups[r] if all(is_flower[i] for i in g)]
            local_rows.append(Row("flowers", tuple(tuple(g_idx[i] for i in g) for g in gs)))
            continue
        role, gs = p.rows[best_set.index(r)]
        if r != conc_r:
            role = "melds"
        local_rows.append(Row(role, tuple(tuple(g_idx[i] for i in g) for g in gs)))
    return Layout(
        rows=tuple(local_rows), melds=melds, concealed=concealed,
        concealed_detections=tuple(conc_dets), win_tile=win, win_detection=win_det,
        win_tile_assumed=assumed, win_candidates=candidates_w,
        flowers=tuple(sorted((t.labels[i] for i in flowers), key=_tile_key)),
        flower_detections=tuple(g_idx[i] for i in flowers), loose=tuple(g_idx[i] for i in loose_all),
        merged=tuple(merged), notes=tuple(notes), problem=problem, angle=t.angle, tile_size=t.u)


def _flowers(t: _Tiles, p: _Parse, hand_rows: list[int], row_groups: list[list[list[int]]],
             ymid: list[float]) -> list[int]:
    """The hand's flowers: runs of flower tiles at the end of a hand row (beside the hand) or in a row of their own
    just above or below it, over the hand's span. The biggest such run is taken, and every other run of two or
    more; a single flower elsewhere is a loose tile."""
    used = p.concealed + [i for _, g in p.melds for i in g] + ([p.win] if p.win is not None else [])
    if not used:
        return []
    xs = t.xy[used, 0]
    lo, hi = float(xs.min()), float(xs.max())
    u = t.u
    # which side is up (away from the player): melds lie above the concealed row; the winning tile lies to the
    # right of the concealed tiles, so its side tells whether the photo is turned round
    up = 0.0
    hand = p.concealed + ([p.win] if p.win is not None else [])
    conc_y = [t.xy[i, 1] for i in hand]
    meld_y = [t.xy[i, 1] for _, g in p.melds for i in g]
    row_melds = [i for _, g in p.melds for i in g if abs(t.xy[i, 1] - np.median(conc_y)) < ROW_GAP * u] \
        if conc_y else []
    if len(hand_rows) == 2 and conc_y and meld_y:
        up = float(np.sign(np.median(meld_y) - np.median(conc_y)))
    elif row_melds and hand:
        up = -float(np.sign(np.median(t.xy[row_melds, 0]) - np.median(t.xy[hand, 0])))
    elif p.win is not None and p.concealed:
        up = -float(np.sign(t.xy[p.win, 0] - np.median(t.xy[p.concealed, 0])))
    right = -up
    runs: list[tuple[int, float, list[int]]] = []  # (size, distance, run)
    for r, gs in enumerate(row_groups):
        raw: list[list[int]] = []  # runs of flowers along the row; a run split by a noisy gap is joined again
        for g in gs:
            run: list[int] = []
            for i in [*g, -1]:
                if i >= 0 and t.labels[i].endswith("f"):
                    run.append(i)
                    continue
                if run:
                    if raw and _gap(t, raw[-1][-1], run[0]) < NEAR_GAP * u and _adjacent(gs, raw[-1][-1], run[0]):
                        raw[-1] += run
                    else:
                        raw.append(run)
                run = []
        for run in raw:
            x0, x1 = float(t.xy[run, 0].min()), float(t.xy[run, 0].max())
            if r in hand_rows:  # beside the hand: past its right end (either end if unknown)
                after = x0 - hi if up <= 0 else -1e9
                before = lo - x1 if up >= 0 else -1e9
                gap = max(after, before) - u
                if 0 <= gap + 0.5 * u and gap <= 1.8 * u:
                    runs.append((len(run), gap, run))
            else:
                dy = [ymid[r] - ymid[h] for h in hand_rows]
                d = min(dy, key=abs)
                side_ok = up == 0 or np.sign(d) == up or len(run) >= 2
                # a row of flowers above the hand starts within its span, short of its right end
                starts = [x0] if right > 0 else [x1] if right < 0 else [x0, x1]
                over = any(lo - 0.3 * u <= x <= hi - 2.2 * u if x == x0 and right >= 0
                           else lo + 2.2 * u <= x <= hi + 0.3 * u for x in starts)
                if 1.2 * u <= abs(d) <= 3.4 * u and side_ok and over:
                    runs.append((len(run), abs(d), run))
    if not runs:
        return []
    runs.sort(key=lambda r: (-r[0], r[1], r[2]))
    out = list(runs[0][2])
    for size, _, run in runs[1:]:
        if size >= 2:
            out += run
    return out


def _adjacent(gs: list[list[int]], a: int, b: int) -> bool:
    """Whether tiles ``a`` and ``b`` stand next to each other in the row ``gs`` (no tile between them)."""
    seq = [i for g in gs for i in g]
    return abs(seq.index(a) - seq.index(b)) == 1


def _tile_key(label: str) -> tuple[int, int]:
    s = "mpszfb".find(label[1] if len(label) == 2 else "b")
    d = label[0]
    return (s, int(d) if d.isdigit() and d != "0" else 5)


def _kong_tiles(m: Meld) -> tuple[str, ...]:
    faces = [x for x in m.tiles if x != "back"]
    return (faces[0],) * 4 if faces else ()


def _problem(t: _Tiles, p: _Parse, melds: tuple[Meld, ...], concealed: tuple[str, ...],
             win: str | None) -> Problem | None:
    if p.bad_groups:
        g = p.bad_groups[0]
        names = " ".join(t.labels[i] + ("*" if t.side[i] else "") for i in g)
        return Problem("bad_group", f"the group {names} ({len(g)} tiles) among the melds is no chow, pung or kong: "
                       "a meld has 3 or 4 tiles (a missed or extra tile?)")
    n = _count(p)
    if n not in HAND_SIZES:
        want = min(HAND_SIZES, key=lambda s: abs(n - s))
        diff = n - want
        what = f"{abs(diff)} tile(s) {'missing' if diff < 0 else 'too many'}"
        hand = len(p.concealed) + (p.win is not None)
        needs = [s - 3 * len(p.melds) for s in HAND_SIZES if s - 3 * len(p.melds) > 0]
        where = (f"; beside {len(p.melds)} meld(s) the concealed tiles and the winning tile number {hand}, "
                 f"where a hand has {' or '.join(str(x) for x in needs)}") if needs else ""
        return Problem("tile_count", f"read {n} tiles (kongs counted as 3) but a hand has 14 (17 in Fuzhou): "
                       f"{what}{where}; check for a tile the camera missed or a loose tile taken for the hand", n,
                       HAND_SIZES)
    bad = [i for i in p.concealed if t.labels[i] == "back"]
    if bad or (p.win is not None and t.labels[p.win] == "back"):
        return Problem("bad_group", "a face-down tile lies among the concealed tiles")
    every = Counter([*concealed, *([win] if win else []), *(x for m in melds for x in m.tiles)])
    fifth = sorted(k for k, v in every.items() if v > 4)
    if fifth:
        return Problem("fifth_copy", f"{fifth[0]} is read {every[fifth[0]]} times; there are only 4 of each tile")
    return None
