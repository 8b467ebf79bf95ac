"""A photo taken from a player's seat, seen as from above: turned so its tiles stand upright, stretched along their
length, and each tile's box cut to its face.

Tiles lying seen from a seat (30 to 55 degrees off straight down) show their faces shortened along the line of sight and
their near sides as a band below the faces, which the finder's boxes hold. The classifier learnt faces seen from above
filling their crops. Turned so the photo's commonest up direction is up (``upright.upright_turns``), the near sides lie
below the faces; stretched up-down (``rectified``), the faces regain their length; and each box, cut at its top to the
length a face of its width has, holds the face alone. Which stretch is right is not known: the detector has the
classifier name the tiles at each of a few, names the surest look in full, and averages that reading in where it is
surer than the photo's own (``TileDetector._seen_from_above``, ``DetectorConfig.stretches``, ``docs/photo.md``).
"""

from __future__ import annotations

import numpy as np

from vision.crops import FACE, tile_sides

ACROSS = 1.15  # a tile this many times wider than the photo's median (turned upright) lies across: its face is wide
# the canvas is drawn only around the faces, this many times the longest tile's length beyond them on each side: every
# crop cut of them (at most 1.15 times a tile's longer side, turned) lies inside it
REACH = 2.0


def rectified(rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, angle: float,
              stretch: float) -> tuple[np.ndarray, np.ndarray]:
    """``rgb`` turned by ``angle`` (``upright.upright_turns``) and stretched up-down ``stretch`` times, on a canvas that
    holds all of it (edges replicated), drawn only where the tiles are (``REACH`` beyond their faces: the crops cut
    of them are those of the whole canvas, within OpenCV's rounding of a grey level); and the faces' boxes in it
    (N, 4): each tile of ``boxes`` (its own sides from its ``tilt``, ``crops.tile_sides``) centred where its box's
    middle goes, cut at its top to the length of a face of its width (upright: width / ``FACE``; one lying across,
    ``ACROSS``: width * ``FACE``), and no longer than the tile.

    >>> rgb = np.zeros((1000, 2000, 3), np.uint8)
    >>> img, faces = rectified(rgb, np.array([[10.0, 10.0, 40.0, 70.0]]), np.zeros(1), 0.0, 1.5)
    >>> img.shape, faces.round(1).tolist()  # of the canvas 1500 x 2000, its top left corner: to 2 * 90 past the face
    ((235, 220, 3), [[10.0, 15.0, 40.0, 55.0]])
    """
    import cv2

    h, w = rgb.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[1] *= stretch
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ m.T
    m[:, 2] -= corners.min(0)
    size = np.ceil(corners.max(0) - corners.min(0) - 1e-6).astype(int)
    sides = tile_sides(boxes, tilt)
    if int(round(angle / 90)) % 2:  # turned a quarter: the tile's width lies up-down
        sides = sides[:, ::-1]
    across, length = sides[:, 0], sides[:, 1] * stretch
    middle = np.c_[(boxes[:, :2] + boxes[:, 2:]) / 2, np.ones(len(boxes))] @ m.T
    wide = across > ACROSS * np.median(across) if len(boxes) else np.zeros(0, bool)
    face = np.minimum(np.where(wide, across * FACE, across / FACE), length)
    top = middle[:, 1] - length / 2
    faces = np.c_[middle[:, 0] - across / 2, top, middle[:, 0] + across / 2, top + face]
    x0, y0, x1, y1 = 0, 0, int(size[0]), int(size[1])
    if len(boxes):  # the canvas drawn where the tiles are (the rest is never cut), a pixel at least
        reach = REACH * float(np.maximum(across, length).max())
        x0, y0 = (max(0, int(np.floor(v - reach))) for v in faces[:, :2].min(0))
        x1, y1 = (min(lim, int(np.ceil(v + reach))) for v, lim in zip(faces[:, 2:].max(0), size, strict=True))
        x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
        m[:, 2] -= (x0, y0)
    img = cv2.warpAffine(rgb, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return img, faces - (x0, y0, x0, y0)
