"""Square crops around tile boxes, the tile classifier's input (the same code in training and in detection), and a
tile's tilt: the angle its edges make with the photo's axes, which detection turns away before it names the tile;
and the photo's tilt, by which a row lying near 45 degrees is turned straight for the finder (``photo_tilt``,
``turned_straight``, ``boxes_turned_back``); and a close-up shrunk onto a canvas for the finder (``shrunk_into``).

A tile lying at 40 degrees fills its axis-aligned box poorly: cut square around that box it is small in its crop, and
what names it (the numeral of 八萬, the index 8 in its corner, a caption) smaller still. Cut turned straight (its
tilt estimated from its crop's gradients, its own sides solved from its box) it fills the crop as an untilted tile
does. On the held-out style's true boxes 11 -> 6 mistakes, the training styles' 116 -> 66 (``models/README.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

CROP = 64  # classifier input side, pixels
MARGIN = 1.15  # crop side = MARGIN * the box's longer side (of a straightened tile: the tile's longer side)
PROBE = 96  # the side of the square a tile's tilt is read from
PHOTO_PROBE = 48  # ... and the photo's (``photo_tilt``: its 16 boxes' edges together; 3.4 ms at 96, 1 ms at 48)
# a tilt under this is taken as none: such a tile fills its box nearly as a straight one does (held-out real photos of
# one tile, upright: their tilts read 0.3 degrees at the median, 2.1 at the 99th percentile)
SLIGHT = np.radians(3.0)
# ... or where its crop's gradients do not show one direction clearly: less than this share of their strength within 5
# degrees of the commonest (evenly spread: 0.11; the held-out style's true boxes tilted 3 degrees or more: 0.26 and
# above in 95 of 100, 0.22 in 99; two real close-ups of dots, no edge in sight, read tilted 43 degrees: 0.15, 0.17)
CLEAR = 0.2
FACE = 0.75  # a tile's width over its height, where its box does not tell them apart (tilted near 45 degrees)


def crop_tiles(image: np.ndarray, boxes: np.ndarray, size: int = CROP, margin: float = MARGIN,
               tilt: np.ndarray | None = None) -> np.ndarray:
    """Cut one ``size`` x ``size`` RGB crop per xyxy box (N, 4), centred, edges replicated; returns (N, size, size, 3).
    With ``tilt`` (N, radians, ``tilts``), each is cut turned by its tilt, its side ``margin`` times the longer of the
    tile's own sides (``tile_sides``).

    >>> img = np.zeros((100, 200, 3), np.uint8); img[40:60, 90:110] = 255
    >>> crop_tiles(img, np.array([[90.0, 40.0, 110.0, 60.0]]), size=8, margin=1.0)[0, 4, 4].tolist()
    [255, 255, 255]
    """
    import cv2

    out = np.empty((len(np.reshape(boxes, (-1, 4))), size, size, 3), np.uint8)
    for i, m in enumerate(crop_matrices(boxes, size, margin, tilt)):
        interp = cv2.INTER_AREA if np.hypot(*m[0, :2]) < 1 else cv2.INTER_LINEAR
        out[i] = cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return out


def crop_matrices(boxes: np.ndarray, size: int = CROP, margin: float = MARGIN,
                  tilt: np.ndarray | None = None) -> np.ndarray:
    """The affine maps (N, 2, 3) from the photo's pixels to each box's crop as ``crop_tiles`` cuts it.

    >>> m = crop_matrices(np.array([[90.0, 40.0, 110.0, 60.0]]), size=8, margin=1.0)[0]
    >>> (m @ [100.0, 50.0, 1.0]).tolist(), (m @ [90.0, 40.0, 1.0]).tolist()  # the box's middle, its corner
    ([4.0, 4.0], [0.0, 0.0])
    """
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    turn = np.zeros(len(boxes)) if tilt is None else np.asarray(tilt, np.float64)
    s = size / (tile_sides(boxes, turn).max(1) * margin)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    c, n = s * np.cos(turn), s * np.sin(turn)  # (OpenCV's getRotationMatrix2D: t counter-clockwise as shown)
    return np.stack([np.stack([c, n, size / 2 - c * cx - n * cy], 1),
                     np.stack([-n, c, size / 2 + n * cx - c * cy], 1)], 1)


def more_turns(turns: int, upright: int) -> list[int]:
    """The quarter turns (1 to 3) of an unsurely named crop seen again, ``turns`` - 1 of them: its ``upright`` turn
    first (0: none known), then 1, 2, 3.

    >>> more_turns(2, 0), more_turns(2, 3), more_turns(3, 1), more_turns(4, 2)
    ([1], [3], [1, 2], [2, 1, 3])
    """
    return list(dict.fromkeys([k for k in (upright, 1, 2, 3) if k]))[: turns - 1]


def network_input(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) uint8 crops -> (N, 3, S, S) float32 in 0..1, as the tile networks take them."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255


def quarter_turned(crops: np.ndarray, turns: Sequence[int] | np.ndarray) -> np.ndarray:
    """(N, 3, S, S) network crops, each turned by its number of quarter turns (counter-clockwise: bin k of the up head
    turned k times is upright).

    >>> x = np.arange(12, dtype=np.float32).reshape(3, 1, 2, 2)
    >>> quarter_turned(x, [0, 1, 2])[:, 0].tolist()
    [[[0.0, 1.0], [2.0, 3.0]], [[5.0, 7.0], [4.0, 6.0]], [[11.0, 10.0], [9.0, 8.0]]]
    """
    turns = np.asarray(turns, int) % 4
    out = np.empty_like(crops)
    for k in np.unique(turns):  # (each turn once for all its crops: a crop's sides are equal)
        out[turns == k] = np.rot90(crops[turns == k], int(k), axes=(2, 3))
    return out


def tilts(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Each tile's tilt (N,): the angle, in radians from -pi/4 to pi/4 and counter-clockwise as shown, by which its
    edges lie off the photo's axes; turning its crop by it sets them straight. Read from the gradients of its tight
    crop: the commonest direction among them taken four times over (a rectangle's four edges agree modulo a quarter
    turn), weighed by their strength (``_commonest``); none where that direction is not clear (``CLEAR``) or the
    tilt is slight (``SLIGHT``). The mean direction was led astray by a face's strokes: held-out real photos of one
    tile named right 0.962 cut as they lie, 0.774 cut turned by it.

    >>> import cv2; img = np.full((400, 400, 3), 90, np.uint8); img[120:280, 140:260] = 230  # a face 120 x 160
    >>> turned = cv2.warpAffine(img, cv2.getRotationMatrix2D((200, 200), 20, 1.0), (400, 400))  # shown turned 20
    >>> box = np.array([[116.0, 105.0, 283.0, 296.0]])  # its box
    >>> tilt = tilts(turned, box); round(float(np.degrees(tilt[0])))  # turned back about 20 degrees it is straight
    -21
    >>> tile_sides(box, tilt).round().tolist()
    [[117.0, 159.0]]
    """
    strength, direction = _gradients(image, boxes)
    peak, share = _commonest(4 * direction, strength)
    out = np.where(share >= CLEAR, peak / 4, 0.0)
    return np.where(np.abs(out) < SLIGHT, 0.0, out)


def photo_tilt(image: np.ndarray, boxes: np.ndarray) -> float:
    """The tilt (radians, -pi/4 to pi/4, as ``tilts``) of the photo's tiles as a whole: the commonest direction of the
    gradients of all their boxes' squares together, taken four times over; 0 where it is not clear (``CLEAR``). A
    row lying near 45 degrees is boxed poorly (a box holds parts of its neighbours, and a look may box two at once),
    yet the edges of what it boxes still share the row's direction.

    >>> import cv2; img = np.full((400, 400, 3), 90, np.uint8); img[120:280, 140:260] = 230
    >>> turned = cv2.warpAffine(img, cv2.getRotationMatrix2D((200, 200), 40, 1.0), (400, 400))
    >>> round(float(np.degrees(photo_tilt(turned, np.array([[90.0, 90, 310, 310], [150.0, 150, 250, 250]])))))
    -40
    """
    if len(boxes) == 0:
        return 0.0
    strength, direction = _gradients(image, boxes, PHOTO_PROBE)
    peak, share = _commonest(4 * direction.reshape(1, -1), strength.reshape(1, -1))
    return float(peak[0] / 4) if share[0] >= CLEAR else 0.0


def turned_straight(rgb: np.ndarray, tilt: float, fill: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``rgb`` turned by ``tilt`` (radians, as ``tilts``: turned by it, tiles so tilted lie straight) on a canvas of
    ``fill`` that holds all of it (edges replicated, the finder boxed their streaks: a held-out hand 27 degrees off,
    3 boxes); and the affine map (2, 3) from the turned photo's pixels back to ``rgb``'s."""
    import cv2

    h, w = rgb.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(np.degrees(tilt)), 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    size = (round(w * c + h * s), round(w * s + h * c))
    m[:, 2] += (size[0] - w) / 2, (size[1] - h) / 2
    turned = cv2.warpAffine(rgb, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    return turned, cv2.invertAffineTransform(m)


def shrunk_into(rgb: np.ndarray, times: float, side: int, fill: tuple[int, int, int]
                ) -> tuple[np.ndarray, tuple[int, int, float, float]]:
    """``rgb`` shrunk ``times`` times into the middle of a canvas of ``fill`` whose long side is ``side`` px (a photo a
    pixel wide stays a pixel wide); and how a box on the canvas maps back to ``rgb``: the photo's left and top on the
    canvas, and its scale in x and y (``(box - [left, top] * 2) * [sx, sy] * 2``).

    >>> canvas, back = shrunk_into(np.zeros((100, 200, 3), np.uint8), 4.0, 400, (60, 90, 60))
    >>> canvas.shape, back
    ((200, 400, 3), (150, 75, 2.0, 2.0))
    """
    import cv2

    h, w = rgb.shape[:2]
    k = side / (times * max(h, w))
    small = cv2.resize(rgb, (max(round(w * k), 1), max(round(h * k), 1)), interpolation=cv2.INTER_AREA)
    canvas = np.empty((max(round(times * h * k), small.shape[0]), max(round(times * w * k), small.shape[1]), 3),
                      np.uint8)
    canvas[:] = fill
    top, left = (canvas.shape[0] - small.shape[0]) // 2, (canvas.shape[1] - small.shape[1]) // 2
    canvas[top:top + small.shape[0], left:left + small.shape[1]] = small
    return canvas, (left, top, w / small.shape[1], h / small.shape[0])


def boxes_turned_back(boxes: np.ndarray, back: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (N, 4, xyxy) of a turned photo as boxes of the photo: each the box of its four corners mapped ``back``,
    cut to the photo (``shape``); and which of them have their middle in the photo (the others lie on the canvas).

    >>> back = np.array([[0.0, -1.0, 100.0], [1.0, 0.0, 0.0]])  # a quarter turn
    >>> boxes, inside = boxes_turned_back(np.array([[10.0, 20.0, 30.0, 60.0], [10, 120, 30, 160]]), back, (200, 200))
    >>> boxes.tolist(), inside.tolist()
    ([[40.0, 10.0, 80.0, 30.0], [0.0, 10.0, 0.0, 30.0]], [True, False])
    """
    corners = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], 1)
    mapped = corners @ back[:, :2].T + back[:, 2]
    h, w = shape[:2]
    middle = mapped.mean(1)
    inside = (middle >= 0).all(1) & (middle[:, 0] < w) & (middle[:, 1] < h)
    return np.clip(np.concatenate([mapped.min(1), mapped.max(1)], 1), 0, [w, h, w, h]), inside


def _gradients(image: np.ndarray, boxes: np.ndarray, probe: int = PROBE) -> tuple[np.ndarray, np.ndarray]:
    """The gradients' strength and direction (N, probe * probe each) of each box's square, shrunk to ``probe``."""
    import cv2

    h, w = image.shape[:2]
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    strength = np.empty((len(boxes), probe * probe), np.float32)
    direction = np.empty_like(strength)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        # the box's square, shrunk by area (a crop_tiles crop, shrunk by sampling, shows a slanted edge as steps: a
        # rectangle turned 20 degrees read 14)
        half = max(x1 - x0, y1 - y0, 1.0) / 2
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        c0, r0, c1, r1 = (round(v) for v in (cx - half, cy - half, cx + half, cy + half))
        top, left = min(max(r0, 0), h - 1), min(max(c0, 0), w - 1)  # at least a pixel of the photo, edges replicated
        bottom, right = max(min(r1, h), top + 1), max(min(c1, w), left + 1)
        square = image[top:bottom, left:right]
        if (top, left, bottom, right) != (r0, c0, r1, c1):
            square = cv2.copyMakeBorder(square, max(top - r0, 0), max(r1 - bottom, 0), max(left - c0, 0),
                                        max(c1 - right, 0), cv2.BORDER_REPLICATE)
        grey = cv2.cvtColor(cv2.resize(square, (probe, probe), interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY)
        grey = grey.astype(np.float32)
        s, d = cv2.cartToPolar(cv2.Scharr(grey, cv2.CV_32F, 1, 0), cv2.Scharr(grey, cv2.CV_32F, 0, 1))
        strength[i], direction[i] = s.ravel(), d.ravel()
    return strength, direction


def _commonest(angles: np.ndarray, weights: np.ndarray, bins: int = 90,
               near: float = np.radians(20)) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ``angles`` (N, M; radians, taken round the circle), weighed by ``weights``: its commonest angle,
    from -pi to pi (the peak of their weighted histogram, smoothed, then the weighted mean of the angles within
    ``near`` of it), and the share of the weight within ``near`` of it; (N,) each.

    >>> peak, share = _commonest(np.radians([[29.0, 30.0, 30.0, 31.0, 100.0, -150.0]]), np.ones((1, 6)))
    >>> np.degrees(peak).round(3).tolist(), share.round(3).tolist()
    ([30.0], [0.667])
    """
    n, turn = len(angles), np.float32(2 * np.pi)  # (float32 throughout, and no np.mod: both slow here)
    angles, weights = np.asarray(angles, np.float32), np.asarray(weights, np.float32)
    k = np.floor(angles * np.float32(bins / turn)).astype(np.int32) % bins
    h = np.bincount((k + bins * np.arange(n, dtype=np.int32)[:, None]).ravel(), weights.ravel(), n * bins)
    h = h.reshape(n, bins)
    h = np.concatenate([h[:, -2:], h, h[:, :2]], 1)  # round the circle, smoothed by 1 4 6 4 1
    h = (h[:, :-4] + 4 * h[:, 1:-3] + 6 * h[:, 2:-2] + 4 * h[:, 3:-1] + h[:, 4:]) / 16
    peak = (h.argmax(1) + 0.5) * (2 * np.pi / bins)
    off = angles - peak[:, None].astype(np.float32)
    off -= turn * np.rint(off / turn)
    close = np.where(np.abs(off) < np.float32(near), weights, np.float32(0))
    near_weight = np.maximum(close.sum(1, np.float64), 1e-12)
    peak += (close * off).sum(1, np.float64) / near_weight
    return np.mod(peak + np.pi, 2 * np.pi) - np.pi, near_weight / np.maximum(weights.sum(1, np.float64), 1e-12)


def tile_sides(boxes: np.ndarray, tilt: np.ndarray) -> np.ndarray:
    """The width and height (N, 2) of each tile turned straight by its ``tilt`` (``tilts``): solved from its box, whose
    sides are w cos t + h sin t and w sin t + h cos t; near 45 degrees, where that tells the two apart poorly, taken as
    a face ``FACE`` as wide as high (or as high as wide, as the box is).

    >>> tile_sides(np.array([[0.0, 0.0, 30.0, 40.0]]), np.zeros(1)).tolist()
    [[30.0, 40.0]]
    >>> w, h = 30, 40; t = np.radians(20); c, s = np.cos(t), np.sin(t)
    >>> tile_sides(np.array([[0.0, 0.0, w * c + h * s, w * s + h * c]]), np.array([t])).round(6).tolist()
    [[30.0, 40.0]]
    """
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    bw, bh = (np.maximum(boxes[:, 2:] - boxes[:, :2], 1.0)).T  # (a box of no width is taken a pixel wide)
    c, s = np.abs(np.cos(tilt)), np.abs(np.sin(tilt))
    d = c * c - s * s
    safe = np.where(d > 0.5, d, 1.0)
    w, h = (c * bw - s * bh) / safe, (c * bh - s * bw) / safe
    solved = (s == 0) | (d > 0.5) & (np.minimum(w, h) > 0.3 * np.maximum(bw, bh))  # (untilted: the box's sides)
    long = (bw + bh) / ((c + s) * (1 + FACE))
    guess_w, guess_h = np.where(bw < bh, FACE * long, long), np.where(bw < bh, long, FACE * long)
    return np.stack([np.where(solved, w, guess_w), np.where(solved, h, guess_h)], 1)
