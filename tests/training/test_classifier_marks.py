"""The classifier's training crops: random index marks land on the tile, in a corner, and only where asked."""

from __future__ import annotations

import numpy as np

from training.classifier import add_marks
from vision.crops import CROP, MARGIN


def _crops(n: int) -> np.ndarray:
    return np.full((n, CROP, CROP, 3), 235, np.uint8)


def test_marks_land_in_a_corner_of_the_tile() -> None:
    boxes = np.array([[100.0, 100.0, 130.0, 140.0]] * 200)  # an upright 30 x 40 tile
    crops = _crops(len(boxes))
    add_marks(crops, boxes, 1.0, np.random.default_rng(0))
    s = CROP / (40 * MARGIN)
    tw, th = 30 * s, 40 * s
    x0, y0 = CROP / 2 - tw / 2, CROP / 2 - th / 2
    marked = 0
    for c in crops:
        ys, xs = np.nonzero(np.abs(c.astype(int) - 235).sum(2) > 60)
        if len(xs) == 0:
            continue
        marked += 1
        assert xs.min() >= x0 - 1 and xs.max() <= x0 + tw + 1 and ys.min() >= y0 - 1 and ys.max() <= y0 + th + 1
        # in one corner: within the outer 40% of the tile on both axes
        assert xs.max() < x0 + 0.4 * tw or xs.min() > x0 + 0.6 * tw
        assert ys.max() < y0 + 0.4 * th or ys.min() > y0 + 0.6 * th
    assert marked == len(crops)


def test_marks_only_on_the_share_asked() -> None:
    boxes = np.array([[0.0, 0.0, 30.0, 40.0]] * 400)
    untouched = _crops(len(boxes))
    add_marks(untouched, boxes, 0.0, np.random.default_rng(1))
    assert (untouched == 235).all()
    some = _crops(len(boxes))
    add_marks(some, boxes, 0.3, np.random.default_rng(1))
    share = (some != 235).any(axis=(1, 2, 3)).mean()
    assert 0.22 < share < 0.38
