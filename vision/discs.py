"""Round things on the table boxed as tiles: coins, chips and counters lie beside the hand at a real table, and the
finder, which learnt the backs of many colours, boxes a plain coloured disc as a back. No tile is round: a tile's
outline, face up or down, seen from above or in perspective, is a quadrilateral (or, its sides showing, a hexagon),
while a disc's is an ellipse whichever way it is seen.

``round_boxes`` cuts each box with a margin around it, takes the table's colour from that margin, marks what is unlike
it, and keeps the largest piece marked: where that piece lies wholly within the cut, fills ``FILLS`` of the box or
more, and matches the ellipse fitted to its outline (``ELLIPSE``, as intersection over union) far better than its
least rectangle (a disc matches its least rectangle, a square, by pi / 4; a tile's outline its ellipse by some 0.85 to
0.92), the box holds a round thing, not a tile. A box among other tiles (a back in a row, a wall) takes the
neighbours into its margin: its piece reaches the cut's edge, or is no ellipse, and it stays a tile.
"""

from __future__ import annotations

import numpy as np

MARGIN = 0.2  # the cut around a box: this share of its width and height beyond each side
SIDE = 64  # each cut is read at most this many pixels on its longer side
LEAST_CONTRAST = 20.0  # a pixel unlike the table by this much (CIELAB distance) or more is marked ...
TEXTURE = 1.5  # ... and by this many times the 90th percentile of the margin's own distances (a grained table)
FILLS = 0.2  # the piece's share of the box, at least
ELLIPSE = 0.96  # the piece's match with its fitted ellipse, at least ...
ROUNDER = 0.12  # ... and by this much more than with its least rectangle


def round_boxes(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Which of ``boxes`` (N, 4 xyxy, pixels of ``rgb``) hold a round thing, not a tile (N, bool).

    >>> import cv2
    >>> img = np.full((200, 300, 3), (40, 90, 40), np.uint8)  # green felt
    >>> _ = cv2.circle(img, (60, 100), 30, (200, 40, 40), -1)  # a red chip
    >>> _ = cv2.rectangle(img, (180, 70), (224, 130), (30, 110, 200), -1)  # a blue back
    >>> round_boxes(img, np.array([[29.0, 69, 91, 131], [178, 68, 226, 132]])).tolist()
    [True, False]
    """
    return np.array([_round(rgb, box) for box in np.asarray(boxes, np.float64).reshape(-1, 4)], bool)


def _round(rgb: np.ndarray, box: np.ndarray) -> bool:
    import cv2

    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    if bw < 4 or bh < 4:
        return False
    cut = [max(0, int(x0 - MARGIN * bw)), max(0, int(y0 - MARGIN * bh)),
           min(w, int(np.ceil(x1 + MARGIN * bw))), min(h, int(np.ceil(y1 + MARGIN * bh)))]
    crop = rgb[cut[1]:cut[3], cut[0]:cut[2]]
    scale = min(1.0, SIDE / max(crop.shape[:2]))
    if scale < 1.0:
        crop = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                          interpolation=cv2.INTER_AREA)
    inner = np.zeros(crop.shape[:2], bool)
    inner[round((y0 - cut[1]) * scale):round((y1 - cut[1]) * scale),
          round((x0 - cut[0]) * scale):round((x1 - cut[0]) * scale)] = True
    if (~inner).sum() < 20 or inner.sum() < 16:  # no margin to take the table's colour from (the photo's edge)
        return False
    lab = cv2.cvtColor(np.ascontiguousarray(crop, np.uint8), cv2.COLOR_RGB2LAB).astype(np.float32)
    far = np.linalg.norm(lab - np.median(lab[~inner], 0), axis=2)
    marked = (far > max(LEAST_CONTRAST, TEXTURE * float(np.percentile(far[~inner], 90)))).astype(np.uint8)
    marked = cv2.morphologyEx(marked, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, pieces, stats, _ = cv2.connectedComponentsWithStats(marked)
    if n < 2:
        return False
    piece = (pieces == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
    if piece[0].any() or piece[-1].any() or piece[:, 0].any() or piece[:, -1].any():
        return False  # it reaches the cut's edge: a neighbour, a wall, the photo's edge
    if piece.sum() < FILLS * inner.sum():
        return False
    outline = max(cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    if len(outline) < 5:
        return False
    ellipse, rectangle = np.zeros_like(piece), np.zeros_like(piece)
    cv2.ellipse(ellipse, cv2.fitEllipse(outline), 1, -1)
    cv2.fillPoly(rectangle, [np.round(cv2.boxPoints(cv2.minAreaRect(outline))).astype(np.int32)], 1)
    to_ellipse, to_rectangle = _iou(piece, ellipse), _iou(piece, rectangle)
    return to_ellipse >= ELLIPSE and to_ellipse >= to_rectangle + ROUNDER


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))
