"""A back's top shows where the finder did not box a back at all, or boxed two backs of a kong as one: a flat patch
of the set's back colour as big as a back's top (``colour_regions``). Each such patch named back surely and of the
set's colour is a back (``regions_taken``), where no tile found matches it; a box named back that the finder doubted
and that lies over two of them is dropped for them. The set's colour is the one the photo's backs show
(``backs.backs_to_look_for``) or a learnt set's (``TileDetector._missed_backs``): a photo of white backs is not
looked at, nor one whose backs the finder was sure of.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.backs import BACK, CHROMA_FLOOR, OVERLAP, SURE_BACK, _alike, _chroma, _sides, shown_backs, tops

# ``colour_regions``: the photo, within REGION_NEAR tile sides (a side: the square root of a box's area) of the tiles
# found, is shrunk so that a side spans REGION_PX pixels. A pixel is of the backs' colour where its channels' shares
# lie within REGION_CHROMA of theirs and its brightness within a factor of REGION_LIGHT (stricter than ``_alike``:
# bench.learn's dr_58 on a purple check, whose purple lay 0.039 and 1.36 times from the backs'), and flat where its
# brightness changes by less than FLAT a pixel (the seams between a kong's backs do not). After an opening of 3 x 3
# pixels these fall into patches; a patch not cut by the edge of what is looked at, of REGION_MIN to REGION_MOST
# sides squared, that fills REGION_FILL of its turned rectangle, is as many backs side by side as its area holds one
# back's top (REGION_MOST at most), and each part is one where it is REGION_SHAPE times as long as wide (a cloth's
# check is square) and its long side REGION_LONG of a side. The backs' tops of bench.learn's dr_58 and layout_eval's
# kongs were 0.77 to 1.04 of a side long and 1.24 to 1.46 times as long as wide; two side by side, 1.6 long and 1.55
# times. A part's box is widened by REGION_EDGE of a side each way (a back's box holds its white body too)
REGION_PX, FLAT, REGION_MIN, REGION_FILL, REGION_MOST, REGION_EDGE = 24, 0.04, 0.25, 0.7, 4, 0.12
REGION_NEAR, REGION_CHROMA, REGION_LIGHT = 3.0, 0.025, 1.25
REGION_SHAPE, REGION_LONG = (1.1, 1.75), (0.5, 1.2)
# ... one back's top is the median patch of those shaped as one (REGION_TOP of a side squared where none is), unless
# that is larger than REGION_ONE of it (those tops were 0.46 to 0.8 of it, two side by side 0.92 to 1.6): then it holds
# two backs or more, of REGION_TOP each
REGION_ONE, REGION_TOP = 0.85, 0.62
# ... a back found tells its top's shape, however nearly square (the fresh seated photo 000048's teal backs' tops,
# seen from the seat, were 1.0 to 1.1 times as long as wide); but where more than SQUARE_MOST patches are shaped as a
# top only so (as square as such a top, squarer than REGION_SHAPE's least), they are a cloth's check: eval_cases'
# seated 000007, a grey and purple check under a grey cloth square named back surely, showed 115; fr_seat 000048's
# face-down kong 4 (and its kong's two ends)
SQUARE_MOST = 12
# ``regions_taken``: a box named back over two backs' tops is dropped for them only where the finder was less sure of
# it than REGION_DOUBT (bench.learn's dr_58, seed 3: such boxes at 0.19 and 0.41; layout_eval's 436, a back at 0.84
# split by the patches of a kong's backs shaded unevenly)
REGION_DOUBT = 0.5
# ... and a patch is a face's, not a back, where a face found covers REGION_COVER of it, not OVERLAP (a row shot
# askew has its tiles' upright boxes half over each other: layout_eval's 419)
REGION_COVER = 0.5


def colour_regions(rgb: np.ndarray, colour: np.ndarray, tiles: np.ndarray, backs: np.ndarray | None = None
                   ) -> np.ndarray:
    """Boxes (K, 4, xyxy px of ``rgb``) of the flat patches of the backs' ``colour`` (3, 0..1) in the photo ``rgb``
    (H, W, 3 uint8), one for each back they hold, near the ``tiles`` found (N, 4): within REGION_NEAR of a tile's side
    (the median square root of their boxes' areas) of the box holding them all (``REGION_PX`` and the rest above).
    A patch centred in the box of one of the ``backs`` found (M, 4) is that back's top: a patch as nearly square as
    such a top (under REGION_SHAPE's least) is shaped as one back's too (seen from a seat, a back's top is shortened
    along the line of sight), unless more than SQUARE_MOST are: a cloth's check.

    >>> img = np.full((200, 300, 3), 200, np.uint8); img[50:110, 40:85] = img[50:110, 87:132] = (100, 50, 130)
    >>> img[150:190, 200:240] = (100, 50, 130)  # a square (a cloth's check): no back
    >>> tiles, purple = np.array([[40.0, 40, 100, 100], [140, 40, 200, 100]]), np.array([100, 50, 130]) / 255
    >>> colour_regions(img, purple, tiles).round().tolist()  # a kong's two backs, a seam between
    [[35.0, 45.0, 87.0, 112.0], [83.0, 45.0, 132.0, 112.0]]
    >>> img[50:110, 85:87] = (100, 50, 130); img[50:110, 140:185] = (100, 50, 130)  # no seam; and a third back
    >>> colour_regions(img, purple, tiles).round().tolist()  # the two told apart by their area
    [[35.0, 45.0, 91.0, 112.0], [77.0, 45.0, 132.0, 112.0], [135.0, 45.0, 187.0, 112.0]]
    >>> colour_regions(img, purple, np.array([[299.0, 0, 299, 0]])).shape  # a box of no size: nothing looked at
    (0, 4)
    """
    import cv2

    side = float(np.median(_sides(tiles)))
    pad = REGION_NEAR * side
    x0, y0 = np.maximum(tiles[:, :2].min(0) - pad, 0).astype(int)
    x1, y1 = np.minimum(tiles[:, 2:].max(0) + pad, rgb.shape[1::-1]).astype(int)
    scale = min(1.0, REGION_PX / max(side, 1e-6))
    if side < 2 or min(x1 - x0, y1 - y0) * scale < 3:
        return np.zeros((0, 4))  # no tile to measure a back by, or nothing to look at
    small = cv2.resize(rgb[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    channels = [small[..., k].astype(np.float32) / 255 for k in range(3)]  # (a channel at a time: quicker)
    light = channels[0] + channels[1] + channels[2]
    steep = np.hypot(cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)) / 24
    like = (light > colour.sum() / REGION_LIGHT) & (light < colour.sum() * REGION_LIGHT) & (steep < FLAT)
    shares = light + 3 * CHROMA_FLOOR
    for channel, share in zip(channels, _chroma(colour[None])[0], strict=True):  # as ``_alike``, more strictly
        like &= np.abs((channel + CHROMA_FLOOR) / shares - share) < REGION_CHROMA
    like = cv2.morphologyEx(like.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, label, stats, _ = cv2.connectedComponentsWithStats(like, connectivity=4)
    unit = side * scale
    patches = []
    for k in np.flatnonzero((stats[:, 4] >= REGION_MIN * unit * unit) & (stats[:, 4] <= REGION_MOST * unit * unit)):
        if k == 0:
            continue  # the background
        x, y, w, h = stats[k, :4]
        if x == 0 or y == 0 or x + w == like.shape[1] or y + h == like.shape[0]:
            continue  # cut by the edge of what is looked at
        ys, xs = np.nonzero(label[y:y + h, x:x + w] == k)
        rect = cv2.minAreaRect(np.stack([xs + x, ys + y], 1).astype(np.float32))
        if stats[k, 4] >= REGION_FILL * rect[1][0] * rect[1][1]:
            patches.append((rect, int(stats[k, 4])))
    # the tops of the backs found, shaped as one back's however nearly square: the least of their shapes is a top's
    backs = np.zeros((0, 4)) if backs is None else backs
    known = [max(sides) / max(min(sides), 1e-6) for (centre, sides, _), _ in patches
             if _within(np.array(centre) / scale + [x0, y0], backs) and _shaped(sorted(sides), unit, 1.0)]
    least = min([REGION_SHAPE[0], *known])
    squarer = sum(_shaped(sorted(sides), unit, least) and not _shaped(sorted(sides), unit)
                  for (_, sides, _), _ in patches)
    if squarer > SQUARE_MOST:  # a cloth's check repeats; a hand's backs are few
        least = REGION_SHAPE[0]
    # one back's top: the median of the patches shaped as one, unless that is larger than one can be
    ones = [area for (_, sides, _), area in patches if _shaped(sorted(sides), unit, least)]
    one = float(np.median(ones)) if ones else REGION_TOP * unit * unit
    if one > REGION_ONE * unit * unit:  # two backs or more each, their seams not seen
        one /= max(2, round(one / (REGION_TOP * unit * unit)))
    boxes = []
    for ((cx, cy), (a, b), angle), area in patches:
        n = int(min(max(round(area / one), 1), REGION_MOST))
        t = np.radians(angle)
        along = np.array([np.cos(t), np.sin(t)]) if a >= b else np.array([-np.sin(t), np.cos(t)])
        long, short = max(a, b), min(a, b)
        if not _shaped(sorted((long / n, short)), unit, least):
            continue
        for j in range(n):  # n parts side by side along the patch's long side
            centre = np.array([cx, cy]) + along * long * ((j + 0.5) / n - 0.5)
            part = cv2.boxPoints((tuple(centre), (long / n, short), float(np.degrees(np.arctan2(along[1], along[0])))))
            lo, hi = part.min(0) - REGION_EDGE * unit, part.max(0) + REGION_EDGE * unit
            boxes.append(np.r_[lo, hi] / scale + [x0, y0, x0, y0])
    return np.clip(np.array(boxes).reshape(-1, 4), 0, [rgb.shape[1], rgb.shape[0]] * 2)


def _shaped(sides: list[float], unit: float, least: float = REGION_SHAPE[0]) -> bool:
    """Whether a patch's sides (short, long) are a back's top's where a tile's side is ``unit``: ``least`` to
    REGION_SHAPE's most times as long as wide, and REGION_LONG long."""
    return (least <= sides[1] / max(sides[0], 1e-6) <= REGION_SHAPE[1]
            and REGION_LONG[0] * unit <= sides[1] <= REGION_LONG[1] * unit)


def _within(point: np.ndarray, boxes: np.ndarray) -> bool:
    """Whether ``point`` (2,) lies in any of ``boxes`` (M, 4)."""
    return bool(((boxes[:, :2] <= point) & (point <= boxes[:, 2:])).all(1).any())


def regions_known(found: np.ndarray, p: np.ndarray, regions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which ``regions`` (K, 4) are known already, and which are to be named: a region a tile ``found`` (N, 4) named
    back by ``p`` matches (IoU 0.5) is that back; one a face found covers REGION_COVER of is that face; the rest are
    named.

    >>> found, p = np.array([[0.0, 0, 60, 80], [0, 100, 60, 180]]), np.eye(BACK + 1)[[BACK, 3]]
    >>> known, ask = regions_known(found, p, np.array([[2.0, 0, 60, 80], [60, 0, 120, 80], [0, 90, 60, 170]]))
    >>> known.tolist(), ask.tolist()
    ([True, False, False], [False, True, False])
    """
    backs = p.argmax(1) == BACK
    iou, covered = _overlaps(found, regions)
    known, faced = (iou[backs] >= 0.5).any(0), (covered[~backs] > REGION_COVER).any(0)
    return known, ~known & ~faced


def regions_taken(found: np.ndarray, p: np.ndarray, conf: np.ndarray, regions: np.ndarray, q: np.ndarray,
                  region_tops: np.ndarray, colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which of the tiles ``found`` (N, 4, named ``p``, the finder's confidences ``conf``) are kept, and which of the
    ``regions`` (K, 4, ``colour_regions``'; named ``q``, with tops ``region_tops``) are taken as backs. A region may be
    a back: named back surely (SURE_BACK) and of the set's ``colour``. A tile found named back with less than
    REGION_DOUBT that matches none of those (IoU 0.5) and covers OVERLAP of two of them is a box over two backs of a
    kong, and is dropped for them. A region is taken where no tile found matches it, and no tile kept that matches
    none covers OVERLAP of it, if a back, or REGION_COVER, if a face (a box one back matches lies a little over the
    next, a kong's boxes shifted; a row shot askew has its tiles' upright boxes half over each other).

    >>> found, p = np.array([[0.0, 0, 60, 80], [90, 0, 150, 80], [0, 100, 60, 180]]), np.eye(BACK + 1)[[BACK, BACK, 3]]
    >>> regions = np.array([[0.0, 0, 60, 80], [60, 0, 120, 80], [120, 0, 180, 80], [0, 100, 60, 180]])
    >>> purple = np.array([0.4, 0.2, 0.5]); q = np.eye(BACK + 1)[[BACK] * 4]
    >>> keep, take = regions_taken(found, p, np.full(3, 0.3), regions, q, np.tile(purple, (4, 1)), purple)
    >>> keep.tolist(), take.tolist()  # the box over two backs dropped for them; the face stands
    ([True, False, True], [False, True, True, False])
    >>> regions_taken(found, p, np.full(3, 0.8), regions, q, np.tile(purple, (4, 1)), purple)[0].tolist()  # sure
    [True, True, True]
    >>> keep, take = regions_taken(found[:2], p[:2], np.full(2, 0.3), np.array([[0.0, 0, 150, 80]]), q[:1],
    ...                            purple[None], purple)
    >>> keep.tolist(), take.tolist()  # a region over two backs found: they stand
    ([True, True], [False])
    >>> beside = np.array([[150.0, 0, 210, 80]])  # a tile's upright box half over a back's top, as in a row askew
    >>> [regions_taken(beside, np.eye(BACK + 1)[[k]], np.full(1, 0.9), regions[2:3], q[:1], purple[None], purple)[1]
    ...  .tolist() for k in (3, BACK)]  # a face: the back is taken; a back: it is that back, shifted
    [[True], [False]]
    """
    take = (q.argmax(1) == BACK) & (q.max(1) >= SURE_BACK) & _alike(region_tops, colour[None])[:, 0]
    keep = np.ones(len(found), bool)
    if not take.any():
        return keep, take
    iou, covered = _overlaps(found, regions)
    matched = (iou[:, take] >= 0.5).any(1)  # a tile found that is one of the backs
    over, backs = (covered[:, take] > OVERLAP).sum(1), p.argmax(1) == BACK
    keep = ~(backs & (conf < REGION_DOUBT) & (over >= 2) & ~matched)
    lie = keep & ~matched  # the tiles kept that are none of these backs
    return keep, take & ~(iou >= 0.5).any(0) & ~(covered[lie & backs] > OVERLAP).any(0) & ~(
        covered[lie & ~backs] > REGION_COVER).any(0)


def _overlaps(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, M) each: the IoU of each box of ``a`` (N, 4) with each of ``b`` (M, 4), and the share of each box of ``b``
    that each of ``a`` covers."""
    lo, hi = np.maximum(a[:, None, :2], b[None, :, :2]), np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=2)
    area_a, area_b = _sides(a)[:, None] ** 2, _sides(b)[None] ** 2
    return inter / np.maximum(area_a + area_b - inter, 1e-6), inter / np.maximum(area_b, 1e-6)


def with_regions(rgb: np.ndarray, colour: np.ndarray, boxes: np.ndarray, conf: np.ndarray, p: np.ndarray,
                 up: np.ndarray, named: Callable, floor: float) -> tuple[np.ndarray, ...]:
    """``boxes``, ``conf`` and their names ``p`` and up directions ``up`` (the tiles found in the photo ``rgb``), with
    the backs of ``colour`` found by it (``colour_regions``, ``regions_taken``) and the boxes they replace dropped;
    ``named(boxes)`` names boxes as the photo's tiles were (its ``p``, ``up`` and ``crops``). A back so found takes
    the median confidence of the backs shown (``floor``, the finder's threshold, where none is)."""
    shown = shown_backs(p)
    regions = colour_regions(rgb, colour, boxes, boxes[shown]) if len(boxes) else np.zeros((0, 4))
    known, ask = regions_known(boxes, p, regions)
    if not ask.any():
        return boxes, conf, p, up
    q = named(regions[ask])
    k = len(regions)
    rp, rup, rtop = np.zeros((k, p.shape[1])), np.zeros((k, 4)), np.tile(colour, (k, 1))
    rp[known, BACK], rp[ask], rup[ask], rtop[ask] = 1.0, q.p, q.up, tops(q.crops)
    keep, take = regions_taken(boxes, p, conf, regions, rp, rtop, colour)
    found = float(np.median(conf[shown])) if shown.any() else floor
    return (np.r_[boxes[keep], regions[take]], np.r_[conf[keep], np.full(take.sum(), found)],
            np.r_[p[keep], rp[take]], np.r_[up[keep], rup[take]])
