"""Draw a generated scene's true boxes and labels, to check the generator by eye.

Usage: ``python -m training show DIR/images/train/000000.jpg out.png`` (reads the sidecar layout JSON).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2


def show(img_path: Path, out: Path) -> Path:
    """``img_path`` (a generated photo) with its sidecar's boxes, labels and groups drawn, written to ``out``."""
    layout = json.loads((img_path.parents[2] / "layout" / img_path.parent.name / f"{img_path.stem}.json").read_text())
    img = cv2.imread(str(img_path))
    if img is None:
        msg = f"{img_path}: not an image OpenCV can read"
        raise ValueError(msg)
    for t in layout["tiles"]:
        x0, y0, x1, y1 = (int(v) for v in t["box"])
        col = (0, 0, 255) if t["sideways"] else (0, 255, 0)
        cv2.rectangle(img, (x0, y0), (x1, y1), col, 2)
        cv2.putText(img, f"{t['label']} g{t['group']}", (x0, y0 - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.6, col, 2)
    cv2.putText(img, layout["hand"] or "", (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 0, 255), 2)
    cv2.imwrite(str(out), img)
    return out
