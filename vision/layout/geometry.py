"""From boxes to a turned frame: duplicates merged, the row direction, the tile size ``u``, rows and groups.

Every length is relative to ``u``. The row direction is the most common direction from each tile to its nearest
neighbour, so a photo turned or tilted reads the same; coordinates are turned so that rows run along x.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from vision.layout.tuning import BOX_DEPTH, DUP_IOU, GROUP_GAP, OVERLAP, ROW_GAP, SHAPE_TOL, SIDEWAYS, U_FLOOR


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
    ref: np.ndarray | None = None  # box size of the hand's upright tiles


def dedupe(dets: Sequence[DetectionLike]) -> tuple[list[int], list[int]]:
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


def measure(dets: Sequence[DetectionLike], idx: list[int]) -> Tiles:
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
    return Tiles([dets[i].label for i in idx], side, np.array([dets[i].confidence for i in idx], float),
                  xy, wh, max(u, 1e-6), math.degrees(theta))


def split_rows(t: Tiles) -> list[list[int]]:
    """Local indices split into rows (by the across-row coordinate), each sorted along the row."""
    order = np.argsort(t.xy[:, 1], kind="stable")
    rows: list[list[int]] = []
    for k, i in enumerate(order):
        if k == 0 or t.xy[i, 1] - t.xy[order[k - 1], 1] > ROW_GAP * t.u:
            rows.append([])
        rows[-1].append(int(i))
    return [sorted(r, key=lambda i: (t.xy[i, 0], i)) for r in rows]


def drop_overlaps(t: Tiles, rows: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    """Tiles in a row never overlap: of two neighbours overlapping by more than ``OVERLAP`` of a tile width (a
    second box over the same tile, or a box over the seam of two), keep the more confident."""
    dropped: list[int] = []
    out = []
    for row in rows:
        row = list(row)
        while True:
            worst, k = min(((gap_between(t, row[j], row[j + 1]), j) for j in range(len(row) - 1)), default=(0.0, -1))
            if worst >= -OVERLAP * t.u:
                break
            a, b = row[k], row[k + 1]
            lose = a if (t.conf[a], -a) < (t.conf[b], -b) else b
            row.remove(lose)
            dropped.append(lose)
        out.append(row)
    return [r for r in out if r], sorted(dropped)


def _width(t: Tiles, i: int) -> float:
    return t.u * (SIDEWAYS if t.side[i] else 1.0)


def gap_between(t: Tiles, i: int, j: int) -> float:
    return abs(float(t.xy[j, 0] - t.xy[i, 0])) - (_width(t, i) + _width(t, j)) / 2


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
    return bool(np.all(np.abs(t.wh[i] - ref) <= slack * t.shape_tol * ref))


def single_loose(t: Tiles, i: int, ref: np.ndarray | None, slack: float = 1.0) -> bool:
    """A tile alone in its group is loose when its box is not shaped like the hand's upright tiles; one said to
    be sideways is loose too, unless its box clearly looks upright (the flag is then taken as wrong)."""
    if not t.side[i]:
        return not _shape_ok(t, i, ref, slack)
    distinct = ref is not None and abs(ref[0] - ref[1]) > 0.15 * max(ref)
    return not (distinct and _shape_ok(t, i, ref))
