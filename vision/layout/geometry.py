"""From boxes to a turned frame: duplicates merged, the row direction, the tile size ``u``, rows and groups.

Every length is relative to ``u``. The row direction is the most common direction from each tile to its nearest
neighbour, so a photo turned or tilted reads the same; coordinates are turned so that rows run along x.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from vision.layout.tuning import (
    BOX_DEPTH,
    DUP_IOU,
    DUP_SHIFT,
    FLAT,
    GROUP_GAP,
    GROWTH,
    GROWTH_HIGH,
    LINE_PAIRS,
    MIN_FIT,
    MIN_ROW,
    NEARER,
    OVERLAP,
    OVERLAP_LOW,
    PERSPECTIVE,
    ROW_GAP,
    SHAPE_TOL,
    SHORT,
    SIDEWAYS,
    STANDS,
    STEADY,
    U_FLOOR,
)


def median(values: Sequence[float] | np.ndarray) -> float:
    """The median of a few values, as ``np.median`` gives it (the mean of the middle two of an even count), without
    its overhead: the layout takes thousands of medians of a row's handful of tiles per photo.

    >>> median([3.0, 1.0, 2.0]), median(np.array([4.0, 1.0, 3.0, 2.0]))
    (2.0, 2.5)
    """
    v = sorted(values.tolist() if isinstance(values, np.ndarray) else values)
    h = len(v) // 2
    return float(v[h]) if len(v) % 2 else (v[h - 1] + v[h]) / 2


class DetectionLike(Protocol):
    """What the layout reads of a detection (``vision.Detection`` has it): a name, a box xyxy, a sideways flag."""

    label: str
    confidence: float
    box: Sequence[float]
    sideways: bool


@dataclass
class Tiles:
    """The kept detections measured in the turned frame (local indices 0..n-1)."""

    labels: list[str]
    side: np.ndarray  # bool
    conf: np.ndarray
    xy: np.ndarray  # centres in the turned frame: x along rows, y across
    wh: np.ndarray  # box width, height (image axes)
    u: float
    angle: float
    shape_tol: float = SHAPE_TOL
    ref: np.ndarray | None = None  # box size of the hand's upright tiles (at scale 1)
    size: np.ndarray = field(default_factory=lambda: np.ones(0))  # each box's size relative to the median box
    perspective: bool = False  # some row is shot in perspective (``fit_scale``)
    nn: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # each tile's nearest neighbour
    # each tile's size relative to u: 1 in a photo taken from above; in a row shot in perspective, the near tiles'
    # size grows along the row (``fit_scale``)
    scale: np.ndarray = field(default_factory=lambda: np.ones(0))
    # each tile's probability of standing on its edge (``Detection.stands``; NaN: not known)
    stands: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        if len(self.scale) != len(self.labels):
            self.scale = np.ones(len(self.labels))
        if len(self.stands) != len(self.labels):
            self.stands = np.full(len(self.labels), np.nan)

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        if name in ("scale", "xy", "u", "side"):  # the lists that gaps are measured from (``gap_between``)
            object.__setattr__(self, "_lists", None)
        object.__setattr__(self, "segments", {})  # runs of tiles split into melds (``melds.segment``), as they are
        object.__setattr__(self, "row_reads", {})  # each row read one way (``reading.read_rows``), as it is

    def sized(self, i: int) -> float:
        """Tile ``i``'s size relative to ``u``."""
        return self._gaps()[2][i]

    def _gaps(self) -> tuple[list[float], list[float], list[float]]:
        """Each tile's place along its row, half its width there and its size, as lists (read one at a time)."""
        lists = getattr(self, "_lists", None)
        if lists is None:
            half = self.u * np.where(self.side, SIDEWAYS, 1.0) * self.scale / 2
            lists = (self.xy[:, 0].tolist(), half.tolist(), self.scale.astype(float).tolist())
            object.__setattr__(self, "_lists", lists)
        return lists


def dedupe(dets: Sequence[DetectionLike]) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """Indices kept and dropped, and the pairs (kept, dropped) that decided it: a box overlapping a more confident
    one by ``DUP_IOU`` (IoU), or lying mostly inside it (0.85 of the smaller box) with its centre near the other's
    (within ``DUP_SHIFT`` of the smaller box's sides: in a row shot low, the box of a near tile holds much of the
    far tile beside it), is the same tile. Every pair is measured at once (numpy); then the boxes are taken most
    confident first (``dedupe_key``), each dropped when it is the same tile as one already kept."""
    n = len(dets)
    if n == 0:
        return [], [], []
    boxes = np.array([d.box for d in dets], float).reshape(-1, 4)
    order = sorted(range(n), key=lambda i: dedupe_key(dets, i))
    # every pair at once: whether the two boxes are the same tile
    area = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1e-9)
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    sides = boxes[:, 2:] - boxes[:, :2]
    iw = np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(boxes[:, None, 0], boxes[None, :, 0])
    ih = np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(boxes[:, None, 1], boxes[None, :, 1])
    inter = np.where((iw > 0) & (ih > 0), iw * ih, 0.0)
    iou = inter / (area[:, None] + area[None, :] - inter)
    inside = inter / np.minimum(area[:, None], area[None, :])
    near = np.all(np.abs(centre[:, None] - centre[None, :]) <= DUP_SHIFT * np.minimum(sides[:, None], sides[None, :]),
                  axis=2)
    same = (inter > 0) & ((iou > DUP_IOU) | ((inside > 0.85) & near))
    np.fill_diagonal(same, False)
    partners = [np.flatnonzero(row).tolist() for row in same]
    kept: list[int] = []
    is_kept = [False] * n
    dropped: list[int] = []
    decided: list[tuple[int, int]] = []
    for i in order:
        by = [j for j in partners[i] if is_kept[j]]
        if by:
            dropped.append(i)
            decided += [(j, i) for j in by]
            continue
        kept.append(i)
        is_kept[i] = True
    return sorted(kept), sorted(dropped), decided


def dedupe_key(dets: Sequence[DetectionLike], i: int) -> tuple:
    """The order in which ``dedupe`` takes the boxes: the most confident first."""
    return (-float(dets[i].confidence), tuple(float(v) for v in dets[i].box), i)


def overlap_key(t: Tiles, i: int) -> tuple[float, int]:
    """Of two boxes overlapping in a row (``drop_overlaps``), the one with the greater key is kept."""
    return (float(t.conf[i]), -i)


def _nearest(c: np.ndarray) -> np.ndarray:
    """Each point's nearest other point (itself when alone)."""
    if len(c) < 2:
        return np.zeros(len(c), int)
    d = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    return d.argmin(1)


def _direction(c: np.ndarray, nn: np.ndarray) -> float:
    """Row direction (radians, in (-pi/2, pi/2]) from nearest-neighbour vectors, by a histogram mode refined by a
    mean of doubled angles."""
    if len(c) < 2:
        return 0.0
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


def measure(dets: Sequence[DetectionLike], idx: list[int], like: Tiles | None = None) -> Tiles:
    """The detections ``idx`` of ``dets`` in the turned frame, with the tile size ``u``. ``like``: the same boxes
    measured before (other sideways flags): its row direction and nearest neighbours are taken again."""
    boxes = np.array([dets[i].box for i in idx], float).reshape(-1, 4)
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    wh = np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]], 1)
    side = np.array([bool(dets[i].sideways) for i in idx], bool)
    # each box's size relative to the median box (in a photo shot in perspective, a near tile is bigger)
    area = np.sqrt(np.maximum(wh[:, 0] * wh[:, 1], 1e-9))
    size = area / median(area) if len(idx) else area
    # the nearest neighbours are the same in the turned frame (turning keeps distances)
    nn = _nearest(centres) if like is None else like.nn
    theta = _direction(centres, nn) if like is None else math.radians(like.angle)
    rot = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
    xy = centres @ rot.T
    # u: the median along-row spacing of nearest upright neighbours lying along the row
    u = 0.0
    if len(idx) >= 2:
        v = xy[nn] - xy
        along = np.abs(v[:, 1]) < 0.35 * np.abs(v[:, 0])
        widths = np.where(side, SIDEWAYS, 1.0)
        if along.any():
            u = median(np.abs(v[along, 0]) / ((widths + widths[nn]) / 2)[along])
    # tiles in a row cannot stand closer than their width: a lower bound from the upright boxes' size, as
    # W + H = (a + b)(|cos| + |sin|) for a tile a wide along the row and b deep across it (b about 1.45 a with
    # its side showing); it guards against spacings halved by extra boxes
    upright_wh = wh[~side] if (~side).any() else wh
    if len(upright_wh):
        c, s = abs(math.cos(theta)), abs(math.sin(theta))
        a = median(upright_wh.sum(1)) / ((c + s) * (1 + BOX_DEPTH))
        u = max(u, U_FLOOR * a)
    if u <= 0:
        u = median(np.sqrt(wh[:, 0] * wh[:, 1])) / 1.25 if len(idx) else 1.0
    stands = np.array([np.nan if getattr(dets[i], "stands", None) is None else dets[i].stands for i in idx], float)
    return Tiles([dets[i].label for i in idx], side, np.array([dets[i].confidence for i in idx], float),
                 xy, wh, max(u, 1e-6), math.degrees(theta), size=size, nn=nn, stands=stands)


def split_rows(t: Tiles) -> list[list[int]]:
    """Local indices split into rows (by the across-row coordinate, relative to the smaller of the two tiles'
    sizes), each sorted along the row."""
    order = np.argsort(t.xy[:, 1], kind="stable")
    rows: list[list[int]] = []
    for k, i in enumerate(order):
        if k == 0 or t.xy[i, 1] - t.xy[order[k - 1], 1] > ROW_GAP * t.u * min(t.size[i], t.size[order[k - 1]]):
            rows.append([])
        rows[-1].append(int(i))
    return [sorted(r, key=lambda i: (t.xy[i, 0], i)) for r in rows]


def fit_scale(t: Tiles, rows: list[list[int]], by_height: bool = True) -> np.ndarray:
    """Each tile's width along its row relative to ``u``: 1 in a photo from above. In a row shot in perspective a
    tile's inverse depth changes linearly along the row's image, and the spacing of touching neighbours goes with
    its square: so each row of ``MIN_FIT`` tiles or more gets the straight line that the square roots of most
    spacings of neighbours lie near (within ``PERSPECTIVE`` of the spacing; ``_line``: touching tiles, not the gaps
    between groups), when most do, it changes the width by more than ``PERSPECTIVE`` along the row and the boxes
    grow the same way by more than ``GROWTH``: in size, or (``by_height``: a photo of a hand, not a whole table's
    discards) in height across the row, for the near tiles of a row standing, seen from in front and to one side,
    turn their faces from the camera and their boxes grow higher, not wider. When some row does, the photo is one in
    perspective, and the tiles of every other row take their boxes' own sizes."""
    scale = np.ones(len(t.labels))
    widths = np.where(t.side, SIDEWAYS, 1.0)
    high = _heights(t) if by_height else None
    fitted: set[int] = set()
    for r, row in enumerate(rows):
        if len(row) < MIN_FIT:
            continue
        x = t.xy[row, 0]
        # the boxes must grow along the row (a tile's height goes with its inverse depth): spacings alone, gaps
        # between groups and sideways tiles among them, can fall near a line that is no perspective
        grows = _growth(x, _theil_sen(x, t.size[row]))
        steep = abs(math.log(grows)) > math.log(1 + GROWTH)
        if not steep and high is not None:  # (heights scattered about their line, as boxes noisy from above, do not)
            line = _theil_sen(x, high[row])
            higher = _growth(x, line)
            if abs(math.log(higher)) > math.log(1 + GROWTH_HIGH) and _steadiness(x, high[row], line) >= STEADY:
                grows, steep = higher, True
        if not steep:
            continue
        mid = (x[1:] + x[:-1]) / 2
        spacing = np.diff(x) / ((widths[row][1:] + widths[row][:-1]) / 2) / t.u
        line = _line(mid, np.sqrt(np.maximum(spacing, 0.0)), PERSPECTIVE / 2)
        if line is None:
            continue
        fit = np.maximum(line[0] + line[1] * x, 0.45) ** 2
        if fit.max() / fit.min() > 1 + PERSPECTIVE and (grows > 1) == (fit[-1] > fit[0]):
            scale[row] = fit
            fitted.add(r)
    if fitted:
        for r, row in enumerate(rows):
            if r not in fitted:
                scale[row] = t.size[row]
    return scale


def _growth(x: np.ndarray, line: tuple[float, float]) -> float:
    """How much a size grows along the row at ``x``: its Theil-Sen ``line``'s last value over its first."""
    a, b = line
    return max((a + b * x[-1]) / max(a + b * x[0], 1e-9), 1e-9)


def _steadiness(x: np.ndarray, size: np.ndarray, line: tuple[float, float]) -> float:
    """How steadily ``size`` grows along the row at ``x``: its Theil-Sen ``line``'s rise along the row over the
    sizes' scatter about it (their MAD, as a standard deviation).

    >>> x = np.arange(8.0)
    >>> noisy = np.array([1, 1.1, 0.9, 1.05, 1.2, 0.95, 1.1, 1.25])
    >>> steady = 1 + 0.05 * x
    >>> bool(_steadiness(x, steady, _theil_sen(x, steady)) > 100), round(float(_steadiness(x, noisy,
    ...                                                                                   _theil_sen(x, noisy))), 1)
    (True, 1.0)
    """
    a, b = line
    off = size - (a + b * x)
    scatter = 1.4826 * median(np.abs(off - median(off)))
    return abs(b * (x[-1] - x[0])) / max(scatter, 1e-9)


def _across(t: Tiles) -> int:
    """The side of a box (0: its width, 1: its height in the photo) that lies across the rows."""
    return int(abs(math.cos(math.radians(t.angle))) >= abs(math.sin(math.radians(t.angle))))


def _heights(t: Tiles) -> np.ndarray:
    """Each box's height across the row relative to the upright boxes' median (a sideways tile's as an upright
    one's: its height across the row is a tile's width)."""
    high = t.wh[:, _across(t)] * np.where(t.side, SIDEWAYS, 1.0)
    return high / max(median(high), 1e-9)


def nearer_rows(t: Tiles, rows: list[list[int]]) -> np.ndarray:
    """Each tile's size relative to ``u`` in a photo not shot in perspective: 1, but in a row of ``MIN_ROW`` tiles or
    more whose boxes are ``NEARER`` times the photo's median box or more (or as much smaller), that row's median box
    size. Melds lying before a hand standing, seen from in front, lie nearer the camera than its standing tiles: they
    show bigger and lie farther apart, and measured at the photo's one size their spacing reads as gaps between
    groups. The photo is not called one in perspective for it (``Tiles.perspective``: the rules for rows shot low)."""
    scale = np.ones(len(t.labels))
    for row in rows:
        if len(row) >= MIN_ROW:
            size = median(t.size[row])
            if size >= NEARER or size <= 1 / NEARER:
                scale[row] = size
    return scale


def _theil_sen(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Intercept and slope of the Theil-Sen line through the points (x, y): the median of the pairwise slopes, then
    the median intercept (robust to outliers, deterministic).

    >>> _theil_sen(np.array([0.0, 1, 2, 3, 4]), np.array([1.0, 3, 5, 7, 40]))
    (1.0, 2.0)
    """
    dx = x[None, :] - x[:, None]
    upper = np.triu(np.abs(dx) > 1e-9, 1)
    slope = median((y[None, :] - y[:, None])[upper] / dx[upper]) if upper.any() else 0.0
    return median(y - slope * x), slope


def _line(x: np.ndarray, y: np.ndarray, tol: float) -> tuple[float, float] | None:
    """The line (intercept, slope) through two of the points that the most points lie within ``tol`` (a share) of
    (every pair tried, so no randomness, or beyond ``LINE_PAIRS`` points those a quarter, a third and half the row
    apart; ties to the smaller sum of misfits), fitted again by least squares to those points; None unless they
    are three or more and over half of all.

    >>> _line(np.array([0.0, 1, 2, 3, 4]), np.array([1.0, 1.1, 9, 1.3, 1.4]), 0.1)
    (1.0, 0.1)
    """
    n = len(x)
    if n < 3:
        return None
    if n <= LINE_PAIRS:
        i, j = np.triu_indices(n, 1)
    else:  # a long row (a photo of a whole table): the pairs a quarter, a third and half the row apart
        i = np.concatenate([np.arange(n - k) for k in (n // 4, n // 3, n // 2)])
        j = np.concatenate([np.arange(k, n) for k in (n // 4, n // 3, n // 2)])
    ok = np.abs(x[j] - x[i]) > 1e-9
    i, j = i[ok], j[ok]
    slope = (y[j] - y[i]) / (x[j] - x[i])
    icpt = y[i] - slope * x[i]
    pred = icpt[:, None] + slope[:, None] * x[None, :]  # (pairs, points)
    miss = np.abs(y[None, :] - pred) / np.maximum(np.abs(pred), 1e-9)
    inside = miss <= tol
    count = inside.sum(1)
    cost = np.where(inside, miss, 0).sum(1)
    k = int(np.lexsort((cost, -count))[0])
    keep = inside[k]
    if keep.sum() < 3 or keep.sum() * 2 <= n:
        return None
    xs, ys = x[keep], y[keep]
    b = float(((xs - xs.mean()) * (ys - ys.mean())).sum() / max(((xs - xs.mean()) ** 2).sum(), 1e-12))
    return round(float(ys.mean()) - b * float(xs.mean()), 9), round(b, 9)


def drop_overlaps(t: Tiles, rows: list[list[int]]) -> tuple[list[list[int]], list[int], list[tuple[int, int]]]:
    """Tiles in a row never overlap: of two neighbours overlapping by more than ``OVERLAP`` of a tile width (a
    second box over the same tile, or a box over the seam of two), keep the more confident. In a photo shot in
    perspective, where a box holds the sides a tile shows, ``OVERLAP_LOW``. Returns the rows, the tiles dropped and
    the pairs (kept, dropped) that decided it; each drop measures again only the gaps beside it."""
    limit = -(OVERLAP_LOW if t.perspective else OVERLAP) * t.u
    dropped: list[int] = []
    decided: list[tuple[int, int]] = []
    out = []
    for row in rows:
        row = list(row)
        gaps = [gap_between(t, row[j], row[j + 1]) for j in range(len(row) - 1)]
        while gaps:
            k = gaps.index(min(gaps))  # the first of the narrowest
            if gaps[k] >= limit:
                break
            a, b = row[k], row[k + 1]
            at = k if overlap_key(t, a) < overlap_key(t, b) else k + 1
            dropped.append(row.pop(at))
            decided.append((b, a) if at == k else (a, b))
            # the gaps either side of the tile dropped become one
            del gaps[min(at, len(gaps) - 1)]
            for j in (at - 1, at):
                if 0 <= j < len(gaps):
                    gaps[j] = gap_between(t, row[j], row[j + 1])
        out.append(row)
    return [r for r in out if r], sorted(dropped), decided


def gap_between(t: Tiles, i: int, j: int) -> float:
    """The free space between tiles ``i`` and ``j`` along the row, in pixels of a tile of size 1 (a gap between
    near tiles, bigger in the photo, counts as much as the same gap between far ones)."""
    x, half, size = t._gaps()
    return (abs(x[j] - x[i]) - half[i] - half[j]) / ((size[i] + size[j]) / 2)


def split_groups(t: Tiles, row: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for k, i in enumerate(row):
        if k == 0 or gap_between(t, row[k - 1], i) > GROUP_GAP * t.u:
            groups.append([])
        groups[-1].append(i)
    return groups


def _shape_ok(t: Tiles, i: int, ref: np.ndarray | None, slack: float = 1.0) -> bool:
    """Whether tile ``i``'s box has the shape of the hand's upright tiles (it lies square with the rows)."""
    if ref is None:
        return True
    ref = ref * t.sized(i)
    return bool(np.all(np.abs(t.wh[i] - ref) <= slack * t.shape_tol * ref))


def turned_square(t: Tiles, i: int, ref: np.ndarray | None, most: float) -> bool:
    """Whether tile ``i``'s box is an upright tile's turned by at most ``most`` degrees from the row (a winning tile
    set down askew): the box of the hand's tile, as ``ref`` gives it, turned by each whole degree up to ``most``.
    False where the rows lie near 45 degrees (their boxes then hardly tell a tile's sides apart)."""
    if ref is None:
        return False
    phi = math.radians(t.angle)
    c, s = abs(math.cos(phi)), abs(math.sin(phi))
    det = c * c - s * s
    if abs(det) < 0.5:
        return False
    w, h = ref * t.sized(i)
    a, b = (c * w - s * h) / det, (c * h - s * w) / det  # the tile's sides along and across the photo's x
    turns = phi + np.radians(np.arange(-most, most + 1.0))
    cos, sin = np.abs(np.cos(turns)), np.abs(np.sin(turns))
    boxes = np.stack([a * cos + b * sin, a * sin + b * cos], 1)
    return bool(np.any(np.all(np.abs(t.wh[i] - boxes) <= t.shape_tol * boxes, 1)))


def seen_low(t: Tiles) -> bool:
    """Whether the hand stands and is seen from low: a row shot in perspective; most of its tiles standing, as the
    face network judged them (``Detection.stands``: ``STANDS`` of them or more known, besides flowers); or two
    flowers or more lying flat, their boxes far flatter than the hand's upright tiles' (their height across the row
    over their width along it; from above, a tile lying is shaped as the hand's; one flower alone may be a loose tile
    lying sideways)."""
    if t.perspective:
        return True
    known = [float(p) for name, p in zip(t.labels, t.stands, strict=True) if not name.endswith("f") and p == p]
    if len(known) >= STANDS and median(known) > 0.5:
        return True
    flowers = [i for i, name in enumerate(t.labels) if name.endswith("f") and not t.side[i]]
    if t.ref is None or len(flowers) < 2:
        return False
    across = _across(t)
    shape = t.wh[flowers, across] / np.maximum(t.wh[flowers, 1 - across], 1e-6)
    return median(shape) < FLAT * t.ref[across] / max(float(t.ref[1 - across]), 1e-6)


def shows_side(t: Tiles, i: int, ref: np.ndarray | None, slack: float = 1.0) -> bool:
    """Whether tile ``i``'s box is an upright tile's with its side showing: as high as the hand's upright tiles,
    and up to half as wide again (a tile standing at the end of a row seen from in front shows its side; a tile lying
    askew or sideways is not as high)."""
    if ref is None or t.side[i]:
        return False
    w, h = t.wh[i] / (ref * t.sized(i))
    return bool(abs(h - 1) <= slack * t.shape_tol and 1 <= w <= 1.5)


def cut_short(t: Tiles, i: int, ref: np.ndarray | None) -> bool:
    """Whether tile ``i``'s box is an upright tile's cut short: one side as the hand's upright tiles', the other from
    ``SHORT`` of theirs up to it (a tile partly hidden behind the hand's, or boxed short). False where the rows lie
    near 45 degrees (their boxes then hardly tell a tile's sides apart, nor one lying askew)."""
    phi = math.radians(t.angle)
    if ref is None or t.side[i] or abs(math.cos(phi) ** 2 - math.sin(phi) ** 2) < 0.5:
        return False
    r = t.wh[i] / (ref * t.sized(i))
    fits = np.abs(r - 1) <= t.shape_tol
    short = (r >= SHORT) & (r <= 1)
    return bool(fits.any() and np.all(fits | short))


def single_loose(t: Tiles, i: int, ref: np.ndarray | None, slack: float = 1.0, askew: float = 0.0) -> bool:
    """A tile alone in its group is loose when its box is not shaped like the hand's upright tiles, nor like one
    turned up to ``askew`` degrees (``turned_square``); one said to be sideways is loose too, unless its box clearly
    looks upright (the flag is then taken as wrong)."""
    if not t.side[i]:
        return not (_shape_ok(t, i, ref, slack) or (askew > 0 and turned_square(t, i, ref, askew)))
    distinct = ref is not None and abs(ref[0] - ref[1]) > 0.15 * max(ref)
    return not (distinct and _shape_ok(t, i, ref))
