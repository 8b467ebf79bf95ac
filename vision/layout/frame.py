"""The geometry of a photo's boxes, measured once: duplicates merged, the turned frame, rows, each tile's size,
overlapping boxes dropped, groups and the hand's box shape. The tiles' names are not looked at, so that the same
photo read with other names (``vision.relabel``) reuses it: ``reframe`` hands it back with the new names while
the boxes, the sideways flags and the confidences that decided a duplicate or an overlap are what they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.layout.geometry import (
    DetectionLike,
    Tiles,
    dedupe,
    dedupe_key,
    drop_overlaps,
    fit_scale,
    measure,
    median,
    nearer_rows,
    split_groups,
    split_rows,
)
from vision.layout.table import wall_tiles, walls_of
from vision.layout.tuning import SHAPE_TOL, TABLE_TILES
from vision.names import BACK, WHITE


@dataclass(frozen=True)
class Frame:
    """The boxes measured: the detections ``kept`` by ``dedupe`` and its ``duplicates``, the ``tiles`` in the turned
    frame (local indices into ``kept``), their rows split into ``groups``, and the tiles ``overlapped`` (local); the
    detections of the table's ``walls`` (``table.wall_tiles``) are not measured."""

    kept: tuple[int, ...]
    duplicates: tuple[int, ...]
    tiles: Tiles | None
    groups: tuple[tuple[tuple[int, ...], ...], ...]
    overlapped: tuple[int, ...]
    boxes: tuple[tuple[float, ...], ...]  # what it was measured from: each detection's box and sideways flag,
    sideways: tuple[bool, ...]
    duplicate_pairs: tuple[tuple[int, int], ...]  # and the pairs (kept, dropped) that decided a duplicate or an
    overlap_pairs: tuple[tuple[int, int], ...]  # overlap (detection indices)
    walls: tuple[int, ...] = ()  # detection indices
    labels: tuple[str, ...] = ()  # each detection's name as measured
    by_backs: frozenset[int] = frozenset()  # the backs and the tiles touching them (``table.walls_of``): only
    # renaming one of them, or a tile a back, may change the walls

    @property
    def rows(self) -> list[list[int]]:
        return [[i for g in gs for i in g] for gs in self.groups]

    @property
    def merged(self) -> list[int]:
        """The detections left out: duplicates, and boxes overlapping a neighbour in a row."""
        return sorted([*self.duplicates, *(self.kept[i] for i in self.overlapped)])


def frame_of(dets: Sequence[DetectionLike], deduped: Frame | None = None, turned: bool = False) -> Frame:
    """Measure the boxes of ``dets`` (their duplicates, row direction and neighbours as ``deduped``, the same boxes
    measured with other sideways flags, found them, when given). ``turned``: the rows run a quarter turn from the
    direction measured (a whole table's tiles lie both ways, and its hand along either)."""
    if deduped is None:
        kept, duplicates, dup_pairs = dedupe(dets)
        walls, by_backs = walls_of(dets)
        walled = set(walls)
        kept = [i for i in kept if i not in walled]
    else:
        kept, duplicates, dup_pairs = list(deduped.kept), list(deduped.duplicates), list(deduped.duplicate_pairs)
        walls, by_backs = deduped.walls, deduped.by_backs
    boxes = tuple(tuple(float(v) for v in d.box) for d in dets)
    sideways = tuple(bool(d.sideways) for d in dets)
    labels = tuple(d.label for d in dets)
    if not kept:
        return Frame((), tuple(duplicates), None, (), (), boxes, sideways, tuple(dup_pairs), (), walls, labels,
                     by_backs)
    t = measure(dets, kept, deduped.tiles if deduped is not None else None)
    if turned:
        t = measure(dets, kept, replace(t, angle=t.angle + 90.0))
    rows = split_rows(t)
    t.scale = fit_scale(t, rows, by_height=len(kept) < TABLE_TILES)
    t.perspective = bool(np.any(t.scale != 1.0))
    if not t.perspective and len(kept) < TABLE_TILES:  # (a whole table's rows are its walls, hands and discards)
        t.scale = nearer_rows(t, rows)
    rows, overlapped, overlap_pairs = drop_overlaps(t, rows)
    groups = [split_groups(t, r) for r in rows]
    # a reference box shape: the upright tiles of the biggest groups; the shape tolerance grows with the boxes'
    # own scatter (a noisier detector)
    upright = [i for gs in groups for g in gs if len(g) >= 3 for i in g if not t.side[i]]
    if upright:
        wh = t.wh[upright] / t.scale[upright, None]
        t.ref = np.array([median(wh[:, 0]), median(wh[:, 1])])
        t.shape_tol = max(SHAPE_TOL, 3.5 * 1.4826 * median(np.abs(wh / t.ref - 1).ravel()))
    return Frame(tuple(kept), tuple(duplicates), t, tuple(tuple(tuple(g) for g in gs) for gs in groups),
                 tuple(overlapped), boxes, sideways, tuple(dup_pairs),
                 tuple((kept[a], kept[b]) for a, b in overlap_pairs), walls, labels, by_backs)


def reframe(frame: Frame, dets: Sequence[DetectionLike]) -> Frame:
    """``frame`` for ``dets``, the same boxes with other names: reused as it is unless a sideways flag changed
    (measured again from its duplicates) or a confidence changed so much that a duplicate or an overlap goes the
    other way, or a box changed (measured anew)."""
    if len(dets) != len(frame.boxes) or any(tuple(float(v) for v in d.box) != b
                                            for d, b in zip(dets, frame.boxes, strict=True)):
        return frame_of(dets)
    renamed = [i for i, d in enumerate(dets) if not frame.labels or d.label != frame.labels[i]]
    walls_may_change = any(i in frame.by_backs or dets[i].label in (BACK, WHITE) for i in renamed)
    if any(dedupe_key(dets, a) > dedupe_key(dets, b) for a, b in frame.duplicate_pairs) or \
            (walls_may_change and wall_tiles(dets) != frame.walls):
        return frame_of(dets)
    if any(bool(d.sideways) != s for d, s in zip(dets, frame.sideways, strict=True)) or \
            any((float(dets[a].confidence), -a) < (float(dets[b].confidence), -b) for a, b in frame.overlap_pairs):
        return frame_of(dets, deduped=frame)
    if frame.tiles is None:
        return frame
    t = replace(frame.tiles, labels=[dets[i].label for i in frame.kept],
                conf=np.array([dets[i].confidence for i in frame.kept], float))
    return replace(frame, tiles=t)
