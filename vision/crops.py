"""Square crops around tile boxes, the tile classifier's input (the same code in training and in detection)."""

from __future__ import annotations

import numpy as np

CROP = 64  # classifier input side, pixels
MARGIN = 1.15  # crop side = MARGIN * the box's longer side


def crop_tiles(image: np.ndarray, boxes: np.ndarray, size: int = CROP, margin: float = MARGIN) -> np.ndarray:
    """Cut one ``size`` x ``size`` RGB crop per xyxy box (N, 4), centred, edges replicated; returns (N, size, size, 3).

    >>> img = np.zeros((100, 200, 3), np.uint8); img[40:60, 90:110] = 255
    >>> crop_tiles(img, np.array([[90.0, 40.0, 110.0, 60.0]]), size=8, margin=1.0)[0, 4, 4].tolist()
    [255, 255, 255]
    """
    import cv2

    out = np.empty((len(boxes), size, size, 3), np.uint8)
    for i, (x0, y0, x1, y1) in enumerate(np.asarray(boxes, np.float64)):
        side = max(x1 - x0, y1 - y0, 1.0) * margin
        s = size / side
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float64)
        interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
        out[i] = cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return out
