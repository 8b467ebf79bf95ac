"""A soft or dim photo's crops made clearer: how sharp and how contrasted a photo's tiles are, measured on their crops;
the crops with an unsharp mask, or their levels stretched.

A phone photo taken in dim light or focused past the hand is soft: a blur of 0.1% of the photo's long side (4 px at
12 MP) takes the held-out hands' tiles named right on their true boxes from 0.996 to 0.974, 0.15% to 0.883. The
classifier learnt crops blurred by at most a pixel or two. Its crops are cut at one size a tile (``vision/crops.py``),
so their sharpness, the variance of their Laplacian over their own variance, compares photos of any size; where the
median crop is soft (``DetectorConfig.sharpen_below``), the detector names the crops sharpened by each of
``DetectorConfig.sharpen`` too. A photo taken in a third of the light shows its faces' strokes and ground close
together (their crops' median range of grey, 2nd to 98th percentile: 0.19 to 0.30, against 0.54 and more in daylight);
where it is below ``DetectorConfig.dim_below``, the detector names the crops with their levels stretched too. It keeps
the crops its classifier names most surely on average, when surer by ``DetectorConfig.clearer_gain`` than as cut
(``clearest``, ``docs/photo.md``). A photo out of focus, softer still (``too_soft``), is named by a
classifier that learnt crops out of focus (``DetectorConfig.soft_below``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

MEASURED = 8  # crops a photo's sharpness and contrast are read from, at most (evenly among its tiles)


def _some(crops: np.ndarray) -> np.ndarray:
    """At most MEASURED of ``crops``, evenly spread."""
    return crops if len(crops) <= MEASURED else crops[np.linspace(0, len(crops) - 1, MEASURED).round().astype(int)]


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


def too_soft(boxes: np.ndarray, crops: np.ndarray, below: float, side: float) -> bool:
    """Whether a photo's crops (``crops``, of its tiles at ``boxes``, xyxy px) are softer than ``below`` (0: never),
    its tiles' median long side ``side`` pixels or more: a smaller tile's crop is soft from its enlarging, as the
    shipped classifier learnt them (the parts of one tile seen close, 9 to 48 px, measure 0.0005 to 0.0072)."""
    if not below or len(boxes) == 0:
        return False
    long_sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    return bool(np.median(long_sides) >= side and sharpness(crops) < below)


def sureness(p: np.ndarray) -> float:
    """How surely tiles are named (``p``, N x names): the mean of their likeliest names' probabilities; the detector
    takes the view of a photo's crops it names most surely (here, and seen from above: ``vision/rectify.py``)."""
    return float(p.max(1).mean())


def clearest(crops: np.ndarray, look: Callable[[np.ndarray], tuple], config: object) -> tuple[np.ndarray, tuple]:
    """``crops`` and ``look(crops)`` (a classifier's names, up directions and looks of them); or, where they are soft
    (``config.sharpen_below``) or dim (``config.dim_below``), those of them sharpened by each of ``config.sharpen`` or
    levelled that it names most surely on average (the first of equals), when surer by ``config.clearer_gain``."""
    c = config
    looked = look(crops)
    views = [sharpened(crops, *k) for k in c.sharpen] if c.sharpen_below and sharpness(crops) < c.sharpen_below else []
    views += [levelled(crops)] if c.dim_below and contrast(crops) < c.dim_below else []
    if not views:
        return crops, looked
    clear, again = max(((v, look(v)) for v in views), key=lambda view: sureness(view[1][0]))
    if sureness(again[0]) < sureness(looked[0]) + c.clearer_gain:
        return crops, looked
    return clear, again
