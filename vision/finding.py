"""Where the finders look at a photo (``Finding.find``): the whole photo, then the region holding its tiles; a
close-up shrunk; a set laid out by the set finder; a photo lying tilted turned straight; a whole table at a finer
size, then in slices. The detector names what they box (``vision/detector.py``); the finders run in ONNX Runtime
(``vision/finder.py``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.config import DetectorConfig
from vision.crops import boxes_turned_back, photo_tilt, shrunk_into, turned_straight
from vision.finder import Finder, finer_asked, finer_taken, median_side, nms, with_lost

# a photo whose first look finds fewer than FEW tiles, or tiles whose median side is more than CLOSE of the photo's
# long side (synthetic hand photos: at most 0.155; camerash's close-ups of touching tiles 0.21 to 0.36), is a
# close-up, and is looked at again shrunk into a canvas of FELT (``DetectorConfig.zoom_out``). That look is taken
# when the finder is surer of it, its surest box FAR_SURE at least (held-out real close-ups 0.65 and more; 4 of 60
# empty tables gave boxes, the surest 0.33, 0.53, 0.58 and 0.76), and surer on average than of the first look. When
# it shows several tiles, or the first look found many big ones, the set finder (which learnt tiles that touch) looks
# at the photo shrunk CLOSE_ZOOMS times instead, and its surest look on average is taken
FEW, CLOSE, FAR_SURE, FELT = 10, 0.2, 0.6, (60, 90, 60)
CLOSE_ZOOMS = (2.0, 3.0, 4.0)
# those rules were measured on the finder's look at ``imgsz``: a first look at ``first_imgsz`` that finds fewer than
# FEW tiles or tiles with a median side above this share of the long side is taken again at ``imgsz`` (at 512 the
# largest of 360 synthetic hand photos, held-out and training styles, is 0.153; camerash's 1-5.jpg, 20 touching
# tiles, 0.186, a close-up at 416 only: 0.215)
CLOSE_HINT = 0.15
# a photo whose looks find SET_PROBE tiles or more, but fewer than ``DetectorConfig.set_tiles``, and of which the
# finder is unsure (its mean confidence below SET_UNSURE) may be a set of small touching tiles that the finder boxes
# poorly: the set finder looks once, and when it finds ``set_tiles`` or more the photo is a set (camerash's 3.png, a
# whole set: 28 tiles found at 0.466, the set finder 143; of 500 training-style hand photos 12 are probed, none
# routed; of the 60 held-out ones none is probed, the least sure at 0.637)
SET_PROBE, SET_UNSURE = 20, 0.55
# the photo's tilt (``DetectorConfig.turn_at``) is read from the squares of this many of the first look's surest boxes
TILT_PROBES = 16
# a photo of ``set_tiles`` tiles or more whose boxes cover less than TABLE_FILL of the region holding them (a whole
# table: walls around the discards; ``covered``) is looked at in ``table_slices`` slices a side, each TABLE_OVERLAP
# of its side over the next (several tiles: a tile cut by a slice's inner edge, within EDGE px, is its neighbour's),
# and those boxes are taken where they find ``set_tiles`` or more whose median side is below TABLE_SIDE of a slice's
# pixels: tiles small in the region's look. A set laid out fills its region, and is left to the set finder: camerash's
# sets cover 0.99 and more, 20 generated ones (``bench.eval_vision``) 0.54 to 1.0, 80 generated tables 0.14 to 0.73;
# at 0.55, 0.6 and 0.7 those sets read 0.9675, 0.9631 and 0.9527 of their tiles right against 0.9705, at 0.5 alike,
# and the tables' hands exact 53 -> 63 of 80 at 0.5, 62 at 0.55 to 1.0. Slices' median sides: camerash's sets 69 to
# 164 px, the tables 32 to 61
TABLE_FILL, TABLE_OVERLAP, TABLE_SIDE, EDGE = 0.5, 0.15, 64, 2


@dataclass(frozen=True)
class Finding:
    """The finders' looks at a photo, by ``config``: ``finder`` boxes every tile; ``set_finder`` (None: ``finder``
    alone) the tiles of a set laid out. Each answers ``boxes(rgb, imgsz, conf, iou, max_det)`` as
    ``vision.finder.Finder`` does."""

    finder: Finder
    set_finder: Finder | None
    config: DetectorConfig

    def find(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (N, 4, xyxy px of ``rgb``) and the finder's confidences (N,).

        Two passes: the whole photo at ``first_imgsz`` (the set finder: ``imgsz``) shows where the tiles lie; that
        region (with a margin of ``zoom_margin`` tile sizes) is looked at again at ``zoom_imgsz`` when that gives its
        tiles ``zoom_gain`` times the pixels, so that small tiles in a big photo get more pixels (on 100 held-out
        photos, hands with every tile found: 69 in one pass, 92 in two; the first finder).
        When the first finds fewer tiles than a hand has, or big ones, the photo is a close-up and is also looked at
        shrunk (its tiles are bigger than any the finder learnt, and it boxes their parts or two at a time), and those
        boxes are taken when they are the surer (``_close_up``). When the two looks find ``set_tiles`` or more (or
        the set finder does, asked when they find ``SET_PROBE`` or more unsurely), the photo is a set laid out, and
        the set finder looks at it again, twice, and its boxes are taken.
        A photo of fewer tiles that lie tilted ``turn_at`` degrees or more is looked at again turned straight, as
        above, and those boxes are taken, turned back (the box of each turned box's corners), when they are the
        surer on average. A photo of more, a whole table maybe, is looked at in slices (``_table``).
        """
        boxes, conf = self._find_as_it_lies(rgb, fine=True)
        c = self.config
        if c.set_tiles and len(boxes) >= c.set_tiles:
            return self._table(rgb, boxes, conf)
        if not c.turn_at or len(boxes) < 3:
            return boxes, conf
        tilt = photo_tilt(rgb, boxes[np.argsort(-conf)[:TILT_PROBES]])
        if abs(tilt) < np.radians(c.turn_at):
            return boxes, conf
        turned, back = turned_straight(rgb, tilt, FELT)
        boxes2, conf2 = self._find_as_it_lies(turned)
        boxes2, inside = boxes_turned_back(boxes2, back, rgb.shape)
        boxes2, conf2 = boxes2[inside], conf2[inside]
        if len(boxes2) and conf2.mean() > conf.mean():
            return with_lost(boxes, conf, boxes2, conf2, c.first_kept)
        return boxes, conf

    def _table(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The tiles found (``boxes``, ``conf``: ``set_tiles`` or more); or, where they are a whole table's (they
        cover less than TABLE_FILL of their region), the finder's boxes on the region holding them (a margin of
        ``zoom_margin`` tile sizes) cut into ``table_slices`` slices a side, each seen at ``zoom_imgsz``, with the
        tiles found surely (``first_kept``) that those lost: in the region's one look a table's tiles get some 25 px.
        Taken where the slices find ``set_tiles`` or more, small (``TABLE_SIDE``)."""
        c = self.config
        if c.table_slices < 2 or not c.zoom_imgsz or covered(boxes) >= TABLE_FILL:
            return boxes, conf
        table, table_conf, side = self._sliced(rgb, self._holding(boxes, rgb.shape), c.table_slices)
        if len(table) < c.set_tiles or median_side(table) * c.zoom_imgsz / side >= TABLE_SIDE:
            return boxes, conf  # not a table: a set laid out, its tiles big enough in one look
        return with_lost(boxes, conf, table, table_conf, c.first_kept)

    def _sliced(self, rgb: np.ndarray, region: tuple[int, int, int, int], n: int
                ) -> tuple[np.ndarray, np.ndarray, float]:
        """The finder's boxes (M, 4, px of ``rgb``) and confidences (M,) on ``region`` (x0, y0, x1, y1) cut into
        ``n`` x ``n`` slices, each TABLE_OVERLAP over the next and seen at ``zoom_imgsz``: a box cut by a slice's inner
        edge (within EDGE px) is left to its neighbour, the rest kept by NMS. And a slice's long side (px)."""
        c = self.config
        x0, y0, x1, y1 = region
        side_x, side_y = ((x1 - x0) / (n - (n - 1) * TABLE_OVERLAP), (y1 - y0) / (n - (n - 1) * TABLE_OVERLAP))
        found, found_conf = [], []
        for i in range(n):
            for j in range(n):
                sx, sy = int(x0 + i * side_x * (1 - TABLE_OVERLAP)), int(y0 + j * side_y * (1 - TABLE_OVERLAP))
                ex, ey = min(x1, int(sx + side_x) + 1), min(y1, int(sy + side_y) + 1)
                b, p = self._predict(rgb[sy:ey, sx:ex], c.zoom_imgsz, self.finder)
                whole = ((sx == x0) | (b[:, 0] > EDGE)) & ((sy == y0) | (b[:, 1] > EDGE)) & \
                        ((ex == x1) | (b[:, 2] < ex - sx - EDGE)) & ((ey == y1) | (b[:, 3] < ey - sy - EDGE))
                found.append(b[whole] + [sx, sy, sx, sy])
                found_conf.append(p[whole])
        boxes, conf = np.concatenate(found), np.concatenate(found_conf)
        keep = nms(boxes, conf, c.iou)
        return boxes[keep], conf[keep], max(side_x, side_y)

    def _find_as_it_lies(self, rgb: np.ndarray, fine: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``find``'s looks at ``rgb`` as it lies; with ``fine``, the fine look too where it may gain (``_fine``)."""
        size = self._first_size(rgb)
        first = self._predict(rgb, size, self.finder)
        boxes, conf = self._usual_looks(rgb, size, first)
        if fine:
            return self._fine(rgb, first, boxes, conf) or (boxes, conf)
        return boxes, conf

    def _usual_looks(self, rgb: np.ndarray, size: int, first: tuple[np.ndarray, np.ndarray]
                     ) -> tuple[np.ndarray, np.ndarray]:
        """The looks that follow the ``first`` at ``size``: a close-up's, the region's, the set finder's."""
        c = self.config
        h, w = rgb.shape[:2]
        if size != c.imgsz and _close(first[0], CLOSE_HINT * max(h, w)):
            size, first = c.imgsz, None  # perhaps a close-up: seen as the close-up rules were measured
        boxes, conf = self._looks(rgb, self.finder, size, first)
        if self.set_finder is None or not c.set_tiles:
            return boxes, conf
        if len(boxes) >= c.set_tiles:
            return self._looks(rgb, self.set_finder, c.imgsz)
        if len(boxes) >= SET_PROBE and conf.mean() < SET_UNSURE:  # perhaps small touching tiles, boxed poorly
            first = self._predict(rgb, c.imgsz, self.set_finder)
            if len(first[0]) >= c.set_tiles:
                return self._looks(rgb, self.set_finder, c.imgsz, first)
        return boxes, conf

    def _fine(self, rgb: np.ndarray, first: tuple[np.ndarray, np.ndarray], boxes: np.ndarray, conf: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray] | None:
        """The finder's look at the whole photo at ``fine_imgsz``, when asked after the ``first`` look and the usual
        looks (``boxes``, ``conf``) and taken in their place (``finder.finer_asked``, ``finer_taken``); else None."""
        c = self.config
        scale = c.fine_imgsz / max(rgb.shape[:2]) if c.fine_imgsz else 0.0  # the fine look's pixels a photo's pixel
        if not 0 < scale <= 1 or not finer_asked(first[1], boxes, conf, scale, FEW):
            return None
        fine, fine_conf = self._predict(rgb, c.fine_imgsz, self.finder)
        return (fine, fine_conf) if finer_taken(first[1], boxes, conf, fine, fine_conf, scale, FEW, c.set_tiles) \
            else None

    def _first_size(self, rgb: np.ndarray) -> int:
        """The size of the finder's first look at ``rgb``: ``first_imgsz``, or less for a small photo (enlarged, it
        shows nothing more)."""
        c = self.config
        return min(c.first_imgsz, max(c.imgsz, *rgb.shape[:2]))

    def _looks(self, rgb: np.ndarray, finder: Finder, size: int,
               first: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``find``'s looks by ``finder``, the first at ``size`` (``first``: that look, when taken already)."""
        c = self.config
        boxes, conf = first if first is not None else self._predict(rgb, size, finder)
        h, w = rgb.shape[:2]
        if c.zoom_out > 1 and _close(boxes, CLOSE * max(h, w)):  # a close-up: tiles bigger than any the finder learnt
            far, far_conf = self._close_up(rgb, finder, many_big=len(boxes) >= FEW)
            if len(far) and far_conf.max() >= FAR_SURE and (len(boxes) == 0 or far_conf.mean() > conf.mean()):
                return far, far_conf
        region = self._region(boxes, rgb.shape, size)
        if region is None:
            return boxes, conf
        x0, y0, x1, y1 = region
        boxes2, conf2 = self._predict(rgb[y0:y1, x0:x1], c.zoom_imgsz, finder)
        return with_lost(boxes, conf, boxes2 + np.array([x0, y0, x0, y0], np.float64), conf2, c.first_kept)

    def _region(self, boxes: np.ndarray, shape: tuple[int, ...], size: int) -> tuple[int, int, int, int] | None:
        """The region (x0, y0, x1, y1 px) holding ``boxes``, found by a look at ``size``, with a margin of
        ``zoom_margin`` tile sizes: looked at again at ``zoom_imgsz`` when that gives its tiles ``zoom_gain`` times
        the pixels (None: not)."""
        c = self.config
        if not c.zoom_imgsz or len(boxes) < 3:
            return None
        x0, y0, x1, y1 = self._holding(boxes, shape)
        if c.zoom_imgsz * max(shape[:2]) < c.zoom_gain * size * max(x1 - x0, y1 - y0):  # the region fills the photo
            return None
        return x0, y0, x1, y1

    def _holding(self, boxes: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """The region (x0, y0, x1, y1 px of a photo of ``shape``) holding ``boxes``, with a margin of ``zoom_margin``
        tile sizes."""
        h, w = shape[:2]
        pad = self.config.zoom_margin * median_side(boxes)
        x0, y0 = (max(0, int(v - pad)) for v in boxes[:, :2].min(0))
        return x0, y0, int(min(w, boxes[:, 2].max() + pad)), int(min(h, boxes[:, 3].max() + pad))

    def _close_up(self, rgb: np.ndarray, finder: Finder, many_big: bool) -> tuple[np.ndarray, np.ndarray]:
        """A close-up seen from further away: ``finder``'s look at it shrunk ``zoom_out`` times; or, when that look
        shows several tiles or the first look found ``many_big`` ones, the set finder's surest look on average shrunk
        ``CLOSE_ZOOMS`` times (of those whose surest box is ``FAR_SURE`` at least; the first of equals). On camerash's
        close-ups of 8, 8, 16 and 20 touching tiles (1-3 to 1-6) the finder boxed them in pairs, or some of them, at
        every zoom; the set finder boxes each, at 3 or 4 times. A single tile stays with ``finder``: the set finder
        boxes parts of some (held-out real close-ups named right 0.844 against 0.915)."""
        far = self.zoomed_out(rgb, finder, self.config.zoom_out)
        if self.set_finder is None or not (many_big or len(far[0]) >= 2):
            return far
        looks = [self.zoomed_out(rgb, self.set_finder, k) for k in CLOSE_ZOOMS]
        looks = [(b, p) for b, p in looks if len(b) and p.max() >= FAR_SURE]
        return max(looks, key=lambda look: look[1].mean()) if looks else far

    def zoomed_out(self, rgb: np.ndarray, finder: Finder, times: float) -> tuple[np.ndarray, np.ndarray]:
        """``finder``'s boxes on ``rgb`` shrunk ``times`` times into the middle of a canvas of felt green (unlike
        any tile's face; ``crops.shrunk_into``), mapped back to ``rgb`` and cut to it."""
        canvas, (left, top, sx, sy) = shrunk_into(rgb, times, self.config.imgsz, FELT)
        boxes, conf = self._predict(canvas, self.config.imgsz, finder)
        h, w = rgb.shape[:2]
        return np.clip((boxes - [left, top, left, top]) * [sx, sy, sx, sy], 0, [w, h, w, h]), conf

    def _predict(self, rgb: np.ndarray, imgsz: int, finder: Finder) -> tuple[np.ndarray, np.ndarray]:
        c = self.config
        return finder.boxes(rgb, imgsz, c.conf, c.iou, c.max_det)

    def unsure(self, rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The boxes (M, 4) the finder is unsure of (``unsure_backs`` to ``conf``) and their confidences (M,), looking
        again as ``find`` looked: at the region holding the tiles (``boxes``) where that gains, else at the whole
        photo."""
        c = self.config
        size = self._first_size(rgb)
        region = self._region(boxes, rgb.shape, size)
        if region is None:
            low, low_conf = self.finder.boxes(rgb, size, c.unsure_backs, c.iou, c.max_det)
        else:
            x0, y0, x1, y1 = region
            low, low_conf = self.finder.boxes(rgb[y0:y1, x0:x1], c.zoom_imgsz, c.unsure_backs, c.iou, c.max_det)
            low = low + np.array([x0, y0, x0, y0], np.float64)
        unsure = low_conf < c.conf
        return low[unsure], low_conf[unsure]


def covered(boxes: np.ndarray, cells: int = 4, most: int = 1024) -> float:
    """The share of the region holding ``boxes`` (N, 4 xyxy) that they cover, measured on a grid of ``cells`` cells
    a tile side (the boxes' median short side), ``most`` cells a side at most.

    >>> grid = np.array([[x, y, x + 10, y + 10] for x in range(0, 30, 10) for y in range(0, 30, 10)], float)
    >>> covered(grid), round(covered(np.array([[0.0, 0, 10, 10], [90, 90, 100, 100]])), 2)
    (1.0, 0.02)
    >>> round(covered(np.array([[0.0, 0, 1e-6, 1e-6], [0, 0, 5000, 5000]]), most=100), 2)  # a degenerate box
    1.0
    """
    x0, y0 = boxes[:, :2].min(0)
    side = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    scale = min(cells / max(side, 1e-9), most / max(float(np.ptp(boxes[:, [0, 2]])), float(np.ptp(boxes[:, [1, 3]])),
                                                     1e-9))
    cols, rows = (int(np.ceil((boxes[:, k + 2].max() - v) * scale)) for k, v in ((0, x0), (1, y0)))
    grid = np.zeros((max(rows, 1), max(cols, 1)), bool)
    for b in np.round((boxes - [x0, y0, x0, y0]) * scale).astype(int):
        grid[b[1]:b[3], b[0]:b[2]] = True
    return float(grid.mean())


def _close(boxes: np.ndarray, big: float) -> bool:
    """A look that may be a close-up: fewer tiles than a hand has (FEW), or tiles whose median side is above ``big``
    pixels."""
    return len(boxes) < FEW or median_side(boxes) > big
