"""The tile finder at detection: the YOLO finder trained with ultralytics, exported to ONNX (``python -m training
export``) and run by ONNX Runtime, with ultralytics' own steps around it (letterbox to a multiple of the stride,
class-agnostic non-maximum suppression), so it boxes as ultralytics does.

Why not ultralytics itself: PyTorch ran this small network in 51 ms a photo (two looks), ONNX Runtime in 29 ms, with
the same tiles found (``models/README.md``); and detection no longer imports PyTorch.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.errors import ModelNotFoundError

STRIDE = 32  # the network's largest stride: the letterboxed input's sides are multiples of it
PAD = 114  # ultralytics' letterbox grey
# a tile the first look found surely is lost by a later look that covers at most this share of it
# (``DetectorConfig.first_kept``)
LOST_COVER = 0.3
# a first look whose mean confidence is below FINE_UNSURE may have seen many small tiles poorly (a whole table: the
# finder, at 512, boxes blocks of them or few): the photo is looked at whole at ``DetectorConfig.fine_imgsz``
# (``finer_asked``), and that look is taken (``finer_taken``) when it finds more tiles than the usual looks, whose
# median side in its pixels is below FINE_SIDE, surer on average than the first look by FINE_GAIN_FIRST and than the
# usual looks by FINE_GAIN (a hand in a big photo is seen better by the region's look: of 500 generated hand photos
# 13 are looked at so, none taken; six of them, taken with no gain asked, lost their hand; a hand of picture flowers,
# boxed in parts at 1024 and less sure than the first look, was taken before the first look's gain was asked; at 0.05
# a table of tight discard grids, its first look 0.58 and the finer 0.62, was not); or, where the usual looks took a
# table for a close-up and kept fewer than FEW tiles (``vision/detector.py``), when it finds ``set_tiles`` or more,
# however sure (the first look's few boxes were blocks of tiles: of 80 generated tables, 9 boxed whole as one tile
# by the usual looks, the fine look 53 to 172 boxes, 0.50 to 0.69, and not taken while it had to be surer than them)
FINE_UNSURE, FINE_SIDE, FINE_GAIN, FINE_GAIN_FIRST = 0.62, 56, 0.02, 0.03
# a photo that one tile fills, seen close, may be boxed as many parts of its face (circles, sticks, strokes: 34 of
# camerash's 628 photos of one tile, 10 to 42 boxes), most of them named a blank white dragon: where FEW tiles or more
# are found and more than PARTS_SHARE of them given one face's name (a set holds four of each; of 500 generated hand
# photos the most so named is 11 of 29 boxes; of the 21 such real photos still boxed in parts, 19 over 0.5), the photo
# is looked at again shrunk, as a close-up is, and that look is taken when it boxes fewer than a hand's tiles, surely,
# surer on average, and holds the middles of PARTS_HELD of the parts (``parts_asked``, ``parts_taken``)
PARTS_SHARE, PARTS_HELD = 0.5, 0.8
# a box lies within a tile as its part when PART_INSIDE or more of its area is inside the tile's box and its area is
# under PART_AREA of the tile's (``parts_held``); the tiles counted are those boxed WHOLE_SURE or more
PART_INSIDE, PART_AREA, WHOLE_SURE = 0.8, 0.5, 0.5
# one finder's look is the surer of two when its boxes' median confidence is the higher, or it boxes more of them
# SURER_BOX or more (``surer``)
SURER_BOX = 0.4


class Finder:
    """``Finder(session, path).boxes(rgb, imgsz, conf, iou, max_det)``: tile boxes and confidences; ``session``: an
    ONNX Runtime session of the exported finder, loaded from ``path``."""

    def __init__(self, session: object, path: Path) -> None:
        inputs, outputs = session.get_inputs(), session.get_outputs()
        if len(inputs) != 1 or len(inputs[0].shape) != 4 or len(outputs) != 1 or len(outputs[0].shape) != 3:
            msg = (f"{path} is no tile finder: it takes {[i.shape for i in inputs]} and gives "
                   f"{[o.shape for o in outputs]}, a finder takes one image and gives boxes (export a finder run: "
                   f"python -m training export --name RUN)")
            raise ModelNotFoundError(msg)
        self._session, self._input = session, inputs[0].name

    def boxes(self, rgb: np.ndarray, imgsz: int, conf: float, iou: float, max_det: int) -> tuple[np.ndarray, ...]:
        """Boxes (N, 4, xyxy px of ``rgb``, best first) and their confidences (N,), ``rgb`` seen with its long side
        ``imgsz``."""
        x, scale, (left, top) = letterbox(rgb, imgsz)
        out = self._session.run(None, {self._input: x})[0][0]  # (5, anchors): centre x, y, width, height, confidence
        keep = np.flatnonzero(out[4] > conf)
        cx, cy, w, h, score = out[:, keep]
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1).astype(np.float64)
        order = nms(xyxy, score, iou)[:max_det]
        xyxy = (xyxy[order] - [left, top, left, top]) * np.tile(scale, 2)
        hi = [rgb.shape[1], rgb.shape[0]] * 2
        return np.clip(xyxy, 0, hi), score[order].astype(np.float64)


def letterbox(rgb: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """``rgb`` as the network takes it, resized and padded as ultralytics' letterbox does: the long side ``imgsz``
    (linear interpolation), each side padded to a multiple of ``STRIDE``, centred; returns the (1, 3, H, W) float
    input, the scale back to ``rgb``'s pixels (x, y) and the padding's left and top.

    >>> x, scale, pad = letterbox(np.zeros((300, 500, 3), np.uint8), 416)
    >>> x.shape, scale.round(4).tolist(), pad
    ((1, 3, 256, 416), [1.2019, 1.2], (0, 3))
    """
    import cv2

    h, w = rgb.shape[:2]
    k = min(imgsz / h, imgsz / w)
    size = (max(round(w * k), 1), max(round(h * k), 1))
    small = rgb if size == (w, h) else cv2.resize(rgb, size, interpolation=cv2.INTER_LINEAR)
    dw, dh = (-size[0] % STRIDE) / 2, (-size[1] % STRIDE) / 2
    left, top = round(dw - 0.1), round(dh - 0.1)
    canvas = np.full((size[1] + round(dh * 2), size[0] + round(dw * 2), 3), PAD, np.uint8)
    canvas[top:top + size[1], left:left + size[0]] = small
    x = np.ascontiguousarray(canvas.transpose(2, 0, 1)[None], np.float32) / 255
    return x, np.array([w / size[0], h / size[1]]), (left, top)


def lost(first: np.ndarray, conf: np.ndarray, later: np.ndarray, sure: float, covered: float) -> np.ndarray:
    """The indices of the boxes ``first`` (N, 4) that one look found with ``sure`` or more (``conf``, N) and that the
    boxes ``later`` (M, 4) of a later look cover by at most ``covered`` of their area (the later boxes' overlaps
    summed): tiles the later look lost.

    >>> first = np.array([[0, 0, 10, 10], [50, 0, 60, 10], [80, 0, 90, 10], [20, 0, 40, 10]], float)
    >>> later = np.array([[1, 0, 11, 10], [20, 0, 30, 10], [30, 0, 40, 10]], float)
    >>> lost(first, np.array([0.9, 0.6, 0.3, 0.9]), later, 0.5, 0.3).tolist()
    [1]
    """
    inter = overlaps(first, later).sum(1)
    return np.flatnonzero((conf >= sure) & (inter / np.maximum(areas(first), 1e-6) <= covered))


def nms(xyxy: np.ndarray, score: np.ndarray, iou: float) -> np.ndarray:
    """Greedy non-maximum suppression: the indices of the boxes kept, best first; a box goes when it overlaps a better
    kept one by more than ``iou``.

    >>> nms(np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 0, 30, 10]], float), np.array([0.8, 0.9, 0.7]), 0.5)
    array([1, 2])
    """
    order = np.argsort(-score, kind="stable")
    area = areas(xyxy)
    keep = []
    while len(order):
        i, rest = order[0], order[1:]
        keep.append(i)
        lo = np.maximum(xyxy[i, :2], xyxy[rest, :2])
        hi = np.minimum(xyxy[i, 2:], xyxy[rest, 2:])
        inter = np.prod(np.clip(hi - lo, 0, None), axis=1)
        order = rest[inter / (area[i] + area[rest] - inter) <= iou]
    return np.array(keep, int)


def with_lost(first: np.ndarray, conf: np.ndarray, later: np.ndarray, later_conf: np.ndarray,
              sure: float) -> tuple[np.ndarray, np.ndarray]:
    """A later look's boxes and confidences, with the tiles the first look found with ``sure`` or more and the later
    one lost (``lost``)."""
    keep = lost(first, conf, later, sure, LOST_COVER)
    return np.concatenate([later, first[keep]]), np.concatenate([later_conf, conf[keep]])


def finer_asked(first_conf: np.ndarray, usual: np.ndarray, usual_conf: np.ndarray, scale: float, few: int) -> bool:
    """Whether the finer look is asked: the first look was unsure (``first_conf``: its mean below FINE_UNSURE), and
    the usual looks did not find ``few`` or more big tiles surely (``usual`` and ``usual_conf``; a tile is big at
    FINE_SIDE of the finer look's pixels, ``scale`` of the photo's: a set laid out, which a finer look shows no more
    of)."""
    if len(first_conf) and first_conf.mean() >= FINE_UNSURE:
        return False
    return not (len(usual) >= few and usual_conf.mean() >= FINE_UNSURE and median_side(usual) * scale >= FINE_SIDE)


def finer_taken(first_conf: np.ndarray, usual: np.ndarray, usual_conf: np.ndarray, fine: np.ndarray,
                fine_conf: np.ndarray, scale: float, few: int, many: int) -> bool:
    """Whether the finer look's boxes (``fine``, ``fine_conf``; its pixels ``scale`` of the photo's) are taken in
    place of the usual looks' (``usual``, ``usual_conf``): more of them, small (below FINE_SIDE), surer on average than
    the first look (``first_conf``) by FINE_GAIN_FIRST and than the usual looks by FINE_GAIN, or, where these kept
    fewer than ``few`` (a table taken for a close-up), ``many`` or more (0: never so), however sure.

    >>> usual, fine = np.array([[0.0, 0, 100, 100]] * 12), np.array([[0.0, 0, 20, 30]] * 40)
    >>> finer_taken(np.full(8, 0.5), usual, np.full(12, 0.6), fine, np.full(40, 0.7), 1.0, 10, 32)
    True
    >>> finer_taken(np.full(8, 0.5), usual, np.full(12, 0.69), fine, np.full(40, 0.7), 1.0, 10, 32)
    False
    >>> finer_taken(np.full(8, 0.6), usual[:1], np.full(1, 0.8), fine, np.full(40, 0.55), 1.0, 10, 32)  # boxed whole
    True
    """
    if len(fine) <= len(usual) or median_side(fine) * scale >= FINE_SIDE:
        return False
    if len(usual) < few and 0 < many <= len(fine):  # the first look's few boxes (a table boxed whole) say nothing
        return True
    return bool(fine_conf.mean() >= _mean(first_conf) + FINE_GAIN_FIRST and
                fine_conf.mean() >= _mean(usual_conf) + FINE_GAIN)


def parts_asked(cls: np.ndarray, back: int, few: int) -> bool:
    """Whether a photo's tiles, named ``cls`` (``back``: a back's name), may be the parts of one tile seen close:
    ``few`` or more, more than PARTS_SHARE of them given one face's name.

    >>> parts_asked(np.array([42, 3, 3, 3, 3, 3, 3, 4, 5, 6]), 42, 10), parts_asked(np.array([3] * 5 + [4] * 5), 42, 10)
    (True, False)
    """
    face = cls[cls != back]
    return len(cls) >= few and len(face) > 0 and int(np.bincount(face).max()) > PARTS_SHARE * len(cls)


def parts_taken(boxes: np.ndarray, conf: np.ndarray, far: np.ndarray, far_conf: np.ndarray, few: int,
                sure: float) -> bool:
    """Whether the look at the photo shrunk (``far``, ``far_conf``) is taken in place of ``boxes`` (``conf``), the
    parts of a tile seen close: it boxes fewer than ``few`` tiles, the surest ``sure`` or more, surer on average, and
    its boxes hold the middles of PARTS_HELD of the parts.

    >>> parts = np.array([[10.0, 10, 20, 20], [30, 10, 40, 20], [10, 40, 20, 50], [30, 40, 40, 50]])
    >>> tile = np.array([[5.0, 5, 45, 55]])
    >>> parts_taken(parts, np.full(4, 0.5), tile, np.array([0.8]), 3, 0.6)
    True
    >>> parts_taken(parts, np.full(4, 0.5), tile - [0, 0, 0, 30], np.array([0.8]), 3, 0.6)  # holds two of four
    False
    """
    if not 0 < len(far) < few or far_conf.max() < sure or far_conf.mean() <= conf.mean():
        return False
    middle = (boxes[:, None, :2] + boxes[:, None, 2:]) / 2
    held = ((middle >= far[None, :, :2]) & (middle <= far[None, :, 2:])).all(2).any(1)
    return bool(held.mean() >= PARTS_HELD)


def parts_held(boxes: np.ndarray, wholes: np.ndarray, wholes_conf: np.ndarray) -> float:
    """The share of ``wholes`` (boxed WHOLE_SURE or more by their finder, ``wholes_conf``) that hold one of ``boxes``
    as a part of them: PART_INSIDE of its area or more inside, and under PART_AREA of their area (0 when either finder
    boxed nothing). A finder that boxed a face's characters, circles or sticks instead of its tiles holds a part in
    most of them; two finders that boxed the same tiles, none.

    >>> tiles = np.array([[0.0, 0, 30, 40], [30, 0, 60, 40], [60, 0, 90, 40]])
    >>> parts_held(np.array([[5.0, 5, 25, 20], [35, 20, 55, 35]]), tiles, np.full(3, 0.8))  # two of three
    0.6666666666666666
    >>> parts_held(tiles + 1, tiles, np.full(3, 0.8)), parts_held(tiles[:1] / 2, tiles, np.array([0.8, 0.4, 0.4]))
    (0.0, 1.0)
    """
    wholes = wholes[wholes_conf >= WHOLE_SURE]
    if len(boxes) == 0 or len(wholes) == 0:
        return 0.0
    area = areas(boxes)[:, None]
    part = (overlaps(boxes, wholes) >= PART_INSIDE * np.maximum(area, 1e-9)) & (area < PART_AREA * areas(wholes))
    return float(part.any(0).mean())


def surer(conf: np.ndarray, other: np.ndarray) -> bool:
    """Whether a look whose boxes' confidences are ``conf`` is surer than one of ``other``: their median is the
    higher, or more of its boxes are boxed SURER_BOX or more (False where it boxed nothing).

    >>> surer(np.array([0.6, 0.7, 0.8]), np.array([0.5, 0.6, 0.9]))  # the higher median
    True
    >>> surer(np.array([0.5, 0.5, 0.45]), np.array([0.9, 0.1, 0.55]))  # three boxed 0.4 or more against two
    True
    >>> surer(np.array([0.3, 0.6]), np.array([0.6, 0.5, 0.2])), surer(np.zeros(0), np.array([0.5]))
    (False, False)
    """
    if len(conf) == 0:
        return False
    median = float(np.median(other)) if len(other) else 0.0
    return float(np.median(conf)) > median or int((conf >= SURER_BOX).sum()) > int((other >= SURER_BOX).sum())


def areas(boxes: np.ndarray) -> np.ndarray:
    """Each box's area (N, 4 xyxy -> N)."""
    return np.prod(np.maximum(boxes[:, 2:] - boxes[:, :2], 0), axis=1)


def overlaps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area each box of ``a`` (N, 4) shares with each of ``b`` (M, 4): (N, M)."""
    lo, hi = np.maximum(a[:, None, :2], b[None, :, :2]), np.minimum(a[:, None, 2:], b[None, :, 2:])
    return np.prod(np.clip(hi - lo, 0, None), axis=2)


def median_side(boxes: np.ndarray) -> float:
    """The median of the boxes' longer sides."""
    return float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))


def _mean(conf: np.ndarray) -> float:
    return float(conf.mean()) if len(conf) else 0.0
