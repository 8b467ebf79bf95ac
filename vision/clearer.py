"""A soft, dim, dark or shaken photo read clearer: how sharp, how contrasted and how streaked a photo's tiles are,
measured on their crops; the crops with an unsharp mask, or their levels stretched; the photo brightened; the
classifier of its faults.

A photo taken in too little light, its brightest parts far from white, is brightened first (``brightened``,
``DetectorConfig.dark_below``): its exposure raised, as a phone's gain would have. A phone photo taken in dim light or
focused past the hand is soft: a blur of 0.1% of the photo's long side (4 px at 12 MP) takes the held-out hands' tiles
named right on their true boxes from 0.996 to 0.974, 0.15% to 0.883. The classifier learnt crops blurred by at most a
pixel or two. Its crops are cut at one size a tile (``vision/crops.py``), so their sharpness, the variance of their
Laplacian over their own variance, compares photos of any size; where the median crop is soft
(``DetectorConfig.sharpen_below``), the detector names the crops sharpened by each of ``DetectorConfig.sharpen`` too. A
photo taken in a third of the light shows its faces' strokes and ground close together (their crops' median range of
grey, 2nd to 98th percentile: 0.19 to 0.30, against 0.54 and more in daylight); where it is below
``DetectorConfig.dim_below``, the detector names the crops with their levels stretched too. It keeps the crops its
classifier names most surely on average, when surer by ``DetectorConfig.clearer_gain`` than as cut (``clearest``,
``docs/photo.md``). A photo out of focus, softer still (``too_soft``), is named by a classifier that learnt crops out
of focus (``DetectorConfig.soft_below``); a photo shaken as it was taken, its crops sharp across the shake and soft
along it (``streak``, ``too_shaken``), by one that learnt shaken crops (``DetectorConfig.shaken_below``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.finder import median_side

MEASURED = 8  # crops a photo's sharpness and contrast are read from, at most (evenly among its tiles)
BRIGHTEST = 99.9  # the percentile of a photo's grey taken as its brightest (a few hot pixels aside)
STREAK_EDGE = 8  # pixels of a crop's border left out of its streak (the crop's edge, replicated, is soft every way)
# the four directions a streak is measured along (rows, columns, both diagonals): a step of one pixel each
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _some(crops: np.ndarray) -> np.ndarray:
    """At most MEASURED of ``crops``, evenly spread."""
    return crops if len(crops) <= MEASURED else crops[np.linspace(0, len(crops) - 1, MEASURED).round().astype(int)]


def brightened(rgb: np.ndarray, below: float, to: float = 250.0) -> np.ndarray:
    """``rgb`` (H, W, 3, uint8) brightened where it is dark: where its brightest grey (the BRIGHTEST percentile of its
    luma, of every eighth pixel each way) is below ``below`` (0: never), its values multiplied so that it is ``to``
    (colours kept, nothing but the few brightest pixels clipped); else ``rgb`` itself. Sound photos' brightest are the
    tiles' faces, 182 and more; a photo in a third of the light, 75 to 94.

    >>> dark = np.full((8, 8, 3), 40, np.uint8); dark[0, 0] = 100
    >>> int(brightened(dark, 128.0)[0, 0, 0]), int(brightened(dark, 128.0)[1, 1, 0]), brightened(dark, 0.0) is dark
    (250, 100, True)
    """
    import cv2

    if not below:
        return rgb
    h, w = rgb.shape[:2]
    some = cv2.resize(rgb, (max(w // 8, 1), max(h // 8, 1)), interpolation=cv2.INTER_NEAREST)
    grey = cv2.cvtColor(some, cv2.COLOR_RGB2GRAY).ravel()
    top = float(np.searchsorted(np.cumsum(np.bincount(grey, minlength=256)), BRIGHTEST / 100 * len(grey)))
    if top >= below:
        return rgb
    return np.clip(np.rint(rgb * np.float32(to / max(top, 1.0))), 0, 255).astype(np.uint8)


def sharpness(crops: np.ndarray) -> float:
    """The median over crops (N, 3, S, S: the networks' input, 0 to 1; MEASURED of them) of the variance of each
    one's grey Laplacian (four neighbours, within the crop) over its grey variance: high for sharp strokes and edges,
    near 0 for a blurred crop (held-out hand photos: 0.2 to 1.1 for nine in ten; blurred by 0.1% of their long side,
    0.01 to 0.1).

    >>> crops = np.zeros((1, 3, 32, 32), np.float32); crops[0, :, :, 16:] = 1.0
    >>> import cv2; soft = cv2.GaussianBlur(crops[0, 0], (0, 0), 3)[None, None].repeat(3, 1)
    >>> sharpness(crops) > 10 * sharpness(soft)
    True
    """
    if len(crops) == 0:
        return float("inf")
    g = _some(crops).mean(1, dtype=np.float32) * 255
    laplacian = g[:, :-2, 1:-1] + g[:, 2:, 1:-1] + g[:, 1:-1, :-2] + g[:, 1:-1, 2:] - 4 * g[:, 1:-1, 1:-1]
    n = len(g)
    return float(np.median(laplacian.reshape(n, -1).var(1) / np.maximum(g.reshape(n, -1).var(1), 1e-3)))


def sharpened(crops: np.ndarray, amount: float, sigma: float) -> np.ndarray:
    """Crops (N, 3, S, S, 0 to 1) with an unsharp mask: each plus ``amount`` times itself less its Gaussian blur of
    ``sigma`` pixels, kept within 0 to 1 and to 8-bit steps (as crops cut from a photo are).

    >>> crops = np.full((1, 3, 8, 8), 0.4, np.float32); crops[0, :, :, 4:] = 0.6
    >>> out = sharpened(crops, 1.0, 1.0); float(out[0, 0, 4, 3]) < 0.4 < 0.6 < float(out[0, 0, 4, 4])
    True
    """
    import cv2

    if len(crops) == 0:
        return crops
    n, c, s, _ = crops.shape
    planes = crops.reshape(n * c, s, s)
    blurred = np.stack([cv2.GaussianBlur(p, (0, 0), sigma) for p in planes]).reshape(crops.shape)
    return np.round(np.clip(crops + amount * (crops - blurred), 0.0, 1.0) * 255).astype(np.float32) / 255


def contrast(crops: np.ndarray) -> float:
    """The median over crops (N, 3, S, S, 0 to 1; MEASURED of them) of each one's range of grey, its 2nd to its 98th
    percentile (read from every third pixel each way).

    >>> crops = np.zeros((3, 3, 12, 12), np.float32); crops[0, :, :, 6:], crops[1, :, :, 6:] = 0.6, 0.3
    >>> round(contrast(crops), 2)
    0.3
    """
    if len(crops) == 0:
        return float("inf")
    some = _some(crops)
    lo, hi = np.percentile(some[:, :, ::3, ::3].mean(1).reshape(len(some), -1), [2, 98], axis=1)
    return float(np.median(hi - lo))


def levelled(crops: np.ndarray) -> np.ndarray:
    """Crops (N, 3, S, S, 0 to 1), each with its levels stretched: its grey's 2nd percentile to 0, its 98th to 1 (a
    range under 0.05 stretched as 0.05), in 8-bit steps.

    >>> crops = np.zeros((1, 3, 10, 10), np.float32); crops[0, :, :, 5:] = 0.3
    >>> out = levelled(crops + 0.1); float(out.min()), float(out.max())
    (0.0, 1.0)
    """
    if len(crops) == 0:
        return crops
    lo, hi = np.percentile(crops.mean(1).reshape(len(crops), -1), [2, 98], axis=1)
    lo, span = lo[:, None, None, None], np.maximum(hi - lo, 0.05)[:, None, None, None]
    return np.round(np.clip((crops - lo) / span, 0.0, 1.0) * 255).astype(np.float32) / 255


def streak(crops: np.ndarray) -> float:
    """The median over crops (N, 3, S, S, 0 to 1; MEASURED of them, their borders left out) of how sharp each is along
    its softest direction against its sharpest: the mean squared second difference of its grey along rows, columns
    and both diagonals, the least over the most. A shake smears a crop along one direction and leaves it sharp across:
    near 0; held-out hands as drawn 0.106 and more, shaken by 0.6% of the long side 0.014 to 0.20 (median 0.063).

    >>> import cv2; crops = np.random.default_rng(0).random((1, 3, 48, 48)).astype(np.float32)
    >>> shaken = np.stack([cv2.blur(c, (9, 1)) for c in crops[0]])[None]  # a level streak of 9 px
    >>> streak(shaken) < 0.1 < 0.5 < streak(crops)
    True
    """
    if len(crops) == 0:
        return 1.0
    e = STREAK_EDGE
    g = _some(crops).mean(1, dtype=np.float32)[:, e:-e, e:-e]
    h, w = g.shape[1:]

    def shifted(dy: int, dx: int) -> np.ndarray:
        return g[:, 2 + dy:h - 2 + dy, 2 + dx:w - 2 + dx]

    energy = np.array([((2 * shifted(dy, dx) - shifted(0, 0) - shifted(2 * dy, 2 * dx)) ** 2).mean((1, 2))
                       for dy, dx in DIRECTIONS])
    return float(np.median(energy.min(0) / np.maximum(energy.max(0), 1e-12)))


def _big_enough(boxes: np.ndarray, side: float) -> bool:
    """Whether the tiles at ``boxes`` (xyxy px) have a median long side of ``side`` pixels or more: a smaller tile's
    crop is soft from its enlarging, as the shipped classifier learnt them (the parts of one tile seen close, 9 to 48
    px, measure 0.0005 to 0.0072)."""
    return bool(len(boxes)) and median_side(boxes) >= side


def too_soft(boxes: np.ndarray, crops: np.ndarray, below: float, side: float, sharp: float | None = None) -> bool:
    """Whether a photo's crops (``crops``, of its tiles at ``boxes``, xyxy px) are softer than ``below`` (0: never),
    its tiles big enough (``side``, ``_big_enough``); ``sharp``: their ``sharpness``, where measured already."""
    return bool(below) and _big_enough(boxes, side) and (sharpness(crops) if sharp is None else sharp) < below


def too_shaken(boxes: np.ndarray, crops: np.ndarray, below: float, side: float) -> bool:
    """Whether a photo's crops (``crops``, of its tiles at ``boxes``, xyxy px) are streaked by a shake, their
    ``streak`` below ``below`` (0: never), its tiles big enough (``side``, ``_big_enough``)."""
    return bool(below) and _big_enough(boxes, side) and streak(crops) < below


def for_faults(boxes: np.ndarray, crops: np.ndarray, config: object, soft: object, shaken: object,
               sharp: float | None = None) -> object:
    """The classifier of a photo's faults, where its crops (``crops``, of its tiles at ``boxes``) show one: ``soft``
    where they are out of focus (``config.soft_below``), else ``shaken`` where a shake streaked them
    (``config.shaken_below``); None for neither (or where that classifier is None). ``sharp``: the crops'
    ``sharpness``, where measured already."""
    c = config
    if soft is not None and too_soft(boxes, crops, c.soft_below, c.soft_side, sharp):
        return soft
    if shaken is not None and too_shaken(boxes, crops, c.shaken_below, c.soft_side):
        return shaken
    return None


def sureness(p: np.ndarray) -> float:
    """How surely tiles are named (``p``, N x names): the mean of their likeliest names' probabilities; the detector
    takes the view of a photo's crops it names most surely (here, and seen from above: ``vision/rectify.py``)."""
    return float(p.max(1).mean())


def clearest(crops: np.ndarray, look: Callable[[np.ndarray], tuple], config: object,
             sharp: float | None = None) -> tuple[np.ndarray, tuple]:
    """``crops`` and ``look(crops)`` (a classifier's names, up directions and looks of them); or, where they are soft
    (``config.sharpen_below``) or dim (``config.dim_below``), those of them sharpened by each of ``config.sharpen`` or
    levelled that it names most surely on average (the first of equals), when surer by ``config.clearer_gain``.
    ``sharp``: the crops' ``sharpness``, where measured already."""
    c = config
    looked = look(crops)
    soft = c.sharpen_below and (sharpness(crops) if sharp is None else sharp) < c.sharpen_below
    views = [sharpened(crops, *k) for k in c.sharpen] if soft else []
    views += [levelled(crops)] if c.dim_below and contrast(crops) < c.dim_below else []
    if not views:
        return crops, looked
    clear, again = max(((v, look(v)) for v in views), key=lambda view: sureness(view[1][0]))
    if sureness(again[0]) < sureness(looked[0]) + c.clearer_gain:
        return crops, looked
    return clear, again
