"""The real camerash photos of single tiles: their names, and the part of them held out of all training."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

REAL_HOLDOUT_PERCENT = 35
CAMERASH = {f"dots-{n}": f"{n}p" for n in range(1, 10)}
CAMERASH.update({f"bamboo-{n}": f"{n}s" for n in range(1, 10)})
CAMERASH.update({f"characters-{n}": f"{n}m" for n in range(1, 10)})
CAMERASH.update({"honors-east": "1z", "honors-south": "2z", "honors-west": "3z", "honors-north": "4z",
                 "honors-white": "5z", "honors-green": "6z", "honors-red": "7z",
                 "bonus-spring": "1f", "bonus-summer": "2f", "bonus-autumn": "3f", "bonus-winter": "4f",
                 "bonus-plum": "5f", "bonus-orchid": "6f", "bonus-chrysanthemum": "7f", "bonus-bamboo": "8f"})


def real_holdout(name: str) -> bool:
    """True for the camerash photos kept out of all training (about 35%, fixed by the file name)."""
    import zlib

    return zlib.crc32(name.encode()) % 100 < REAL_HOLDOUT_PERCENT


def real_photo_files(root: Path, holdout: bool = False) -> list[tuple[str, Path]]:
    """(tile name, file) of the camerash single-tile photos of the training part, or with ``holdout`` of the
    held-out part, in the order of the labels' table."""
    import csv

    out = []
    with (root / "tiles-data" / "data.csv").open(newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            label = CAMERASH.get(row["label-name"].strip())
            path = root / "tiles-resized" / row["image-name"]
            if label is not None and real_holdout(row["image-name"]) == holdout and path.exists():
                out.append((label, path))
    return out


def real_photos(root: Path, holdout: bool = False) -> list[tuple[str, np.ndarray]]:
    """The camerash photos of ``real_photo_files`` decoded (RGB, as taken: a close-up of one face)."""
    out = []
    for label, path in real_photo_files(root, holdout):
        img = cv2.imread(str(path))
        if img is not None:
            out.append((label, cv2.cvtColor(img, cv2.COLOR_BGR2RGB)))
    return out


def in_scene(jpg: bytes, rng: np.random.Generator) -> bytes:
    """A real single-tile photo at hand-photo scale: pasted, about 1/9 of the height, on a plain table."""
    tile = Image.open(io.BytesIO(jpg)).convert("RGB")
    canvas = Image.new("RGB", (1600, 1200), tuple(int(v) for v in rng.integers(40, 200, 3)))
    h = 135
    tile = tile.resize((round(tile.width * h / tile.height), h), Image.BILINEAR)
    canvas.paste(tile, (int(rng.integers(200, 1300)), int(rng.integers(200, 900))))
    buf = io.BytesIO()
    canvas.save(buf, "JPEG", quality=92)
    return buf.getvalue()
