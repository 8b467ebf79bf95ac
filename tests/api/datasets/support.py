"""Helpers of the dataset tests: distinct photos, labels for them, a store with a dataset in it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from api.datasets.labels import Labels
from api.datasets.store import Store

WIDTH, HEIGHT = 640, 120
ROW = ["2m", "3m", "4m", "4p", "5p", "6p", "3s", "4s", "5s", "6s", "7s", "9s", "9s", "8s"]


def photo(i: int, fmt: str = "JPEG", size: tuple[int, int] = (WIDTH, HEIGHT)) -> bytes:
    """A photo whose bytes differ for every ``i``."""
    img = Image.new("RGB", size, (30, 120, 60))
    ImageDraw.Draw(img).rectangle((4 * (i % 100), 4 * (i // 100) % size[1], 4 * (i % 100) + 30, 30), fill="white")
    buf = io.BytesIO()
    img.save(buf, fmt)
    return buf.getvalue()


def boxes(tiles: list[str] = ROW, sideways: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """A row of boxes across the photo, the last tile set apart."""
    out = []
    for i, tile in enumerate(tiles):
        x = 10 + 40 * i + (40 if i == len(tiles) - 1 else 0)
        out.append({"tile": tile, "box": [float(x), 20.0, float(x + 36), 70.0], "sideways": i in sideways})
    return out


def labels(group: str = "", status: str = "labelled", **fields: Any) -> Labels:
    obj = {"image": {"width": WIDTH, "height": HEIGHT}, "boxes": boxes(), "win": 13, "group": group,
           "status": status, **fields}
    return Labels.from_json(obj)


def store_with(root: Path, name: str = "set1") -> Store:
    store = Store(root)
    store.create(name, "tester")
    return store
