"""A tile the finder missed in a row of tiles: a gap one tile long between two tiles, the row going on beyond each
(``row_gaps``), where the finder, looking again down to ``unsure_backs``, boxed a tile of their size (``gap_boxes``).

A winning tile set apart leaves a gap too, but at the row's end: nothing lies beyond it. Between two groups of a row
the gap is a fraction of a tile, or two tiles and more; one tile long, with the finder's box in it, is a tile.
"""

from __future__ import annotations

import numpy as np

from vision.finder import areas, overlaps

# two tiles of a row with a tile missing between them stand two tiles' widths apart (a tile's width: its box's
# shorter side); ``row_gaps`` takes them GAP_LOW to GAP_HIGH widths apart, each as big as the other within SIZE, no
# box's centre within MIDDLE widths of their midpoint, and beyond each, in line, a tile within BEYOND widths of where
# the next would stand
GAP_LOW, GAP_HIGH, SIZE, MIDDLE, BEYOND = 1.7, 2.4, 1.25, 0.6, 0.45
# ``gap_boxes``: a box the finder was unsure of fills a gap when its centre lies within MIDDLE widths of the gap's
# midpoint, it is as big as the gap's tiles within SIZE, and at most OVERLAP of its area covers a box found
OVERLAP = 0.4


def row_gaps(boxes: np.ndarray) -> np.ndarray:
    """The midpoints (K, 2) of the one-tile gaps in the rows of ``boxes`` (N, 4 xyxy): two tiles ``GAP_LOW`` to
    ``GAP_HIGH`` of their widths apart, alike in size, nothing between them, and the row going on beyond both.

    >>> row = np.array([[x, 0.0, x + 60, 80] for x in (0, 60, 180, 240)])  # a tile missing at 120
    >>> row_gaps(row).tolist()
    [[150.0, 40.0]]
    >>> row_gaps(row[1:]).tolist(), row_gaps(row[[0, 1, 2]]).tolist()  # the gap at the row's end: a tile set apart
    ([], [])
    """
    if len(boxes) < 4:
        return np.zeros((0, 2))
    centres, width = (boxes[:, :2] + boxes[:, 2:]) / 2, _widths(boxes)
    step = centres[None] - centres[:, None]  # (i, j): from i to j
    apart = np.linalg.norm(step, axis=2) / np.maximum((width[:, None] + width[None]) / 2, 1e-9)
    alike = np.maximum(width[:, None], width[None]) <= SIZE * np.minimum(width[:, None], width[None])
    gaps = []
    for i, j in zip(*np.nonzero(np.triu((apart >= GAP_LOW) & (apart <= GAP_HIGH) & alike, 1)), strict=True):
        middle, half = (centres[i] + centres[j]) / 2, step[i, j] / 2
        w = (width[i] + width[j]) / 2
        if (np.linalg.norm(centres - middle, axis=1) < MIDDLE * w).any():
            continue
        # beyond i, a tile where the next would stand (a step of a tile back from i), and beyond j likewise
        unit = half / max(float(np.linalg.norm(half)), 1e-9) * w
        if _near(centres, centres[i] - unit, w) and _near(centres, centres[j] + unit, w):
            gaps.append(middle)
    return np.array(gaps, float).reshape(-1, 2)


def gap_boxes(gaps: np.ndarray, boxes: np.ndarray, low: np.ndarray) -> np.ndarray:
    """Which of ``low`` (M, 4: the boxes the finder was unsure of) fill one of ``gaps`` (K, 2) of ``boxes`` (N, 4):
    centred in it, as big as the tiles found, and covering little of them; one box a gap, the nearest.

    >>> found = np.array([[x, 0.0, x + 60, 80] for x in (0, 60, 180, 240)])
    >>> low = np.array([[121.0, 2, 179, 80], [125, 0, 150, 30], [60, 0, 120, 80]])
    >>> gap_boxes(row_gaps(found), found, low).tolist()
    [0]
    """
    if len(gaps) == 0 or len(low) == 0:
        return np.zeros(0, int)
    width, low_width = float(np.median(_widths(boxes))), _widths(low)
    sized = (low_width <= SIZE * width) & (width <= SIZE * low_width)
    covered = overlaps(low, boxes).sum(1) / np.maximum(areas(low), 1e-9)
    far = np.linalg.norm((low[:, None, :2] + low[:, None, 2:]) / 2 - gaps[None], axis=2)  # (M, K)
    ok = sized & (covered <= OVERLAP)
    picked = set()
    for k in range(len(gaps)):
        near = np.flatnonzero(ok & (far[:, k] < MIDDLE * width))
        if len(near):
            picked.add(int(near[np.argmin(far[near, k])]))
    return np.array(sorted(picked), int)


def _widths(boxes: np.ndarray) -> np.ndarray:
    """Each tile's width: its box's shorter side (N, 4 xyxy -> N)."""
    return np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])


def _near(centres: np.ndarray, at: np.ndarray, width: float) -> bool:
    """Whether a tile's centre lies within BEYOND of ``width`` of ``at``."""
    return bool((np.linalg.norm(centres - at, axis=1) < BEYOND * width).any())
