"""Reading photos: a path, bytes or a PIL image in; an upright RGB array out (EXIF orientation applied)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
from PIL import ExifTags, Image, ImageOps, UnidentifiedImageError

from vision.errors import BadImageError

ORIENTATION = ExifTags.Base.Orientation

ImageInput = str | Path | bytes | bytearray | Image.Image
# JPEG, and the multi-picture JPEG many phones write (an HDR gain map or a depth map after the photo): the photo is its
# first picture, decoded as a JPEG is
JPEG = ("JPEG", "MPO")

try:  # phone photos are often HEIC
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - optional
    pass


def open_image(fp: object) -> Image.Image:
    """PIL's own ``Image.open``: ultralytics replaces it with one that tries to install a HEIF plugin when a file is
    not an image; we register pillow-heif ourselves and want a plain error instead."""
    original = getattr(sys.modules.get("ultralytics.utils.patches"), "_image_open", None)
    return (original or Image.open)(fp)


def load_image(src: ImageInput, max_side: int | None = None) -> tuple[np.ndarray, float]:
    """Decode ``src`` upright; returns (RGB uint8 array, scale) where scale = returned size / upright full size.

    With ``max_side``, large JPEGs are decoded at a reduced size (DCT scaling by 1/2, 1/4 or 1/8, the smallest that
    keeps the long side at least ``max_side``: much faster than decoding 12 MP); other images, or JPEGs still longer
    than 1.5 x ``max_side``, are then resized to ``max_side``. Boxes found on the array divide by ``scale``.
    """
    try:
        if isinstance(src, Image.Image):
            img = src
        elif isinstance(src, bytes | bytearray):
            img = open_image(io.BytesIO(bytes(src)))
        else:
            img = open_image(Path(src))
        full_w, full_h = img.size
        fmt = img.format
        if max_side and fmt in JPEG and max(full_w, full_h) > max_side:
            k = max_side / max(full_w, full_h)
            img.draft("RGB", (int(full_w * k) + 1, int(full_h * k) + 1))
        img.load()  # decoded here, so that a truncated photo is a BadImageError
        if img.getexif().get(ORIENTATION, 1) != 1:  # turned upright (exif_transpose copies a photo even when not)
            img = ImageOps.exif_transpose(img)
        if img.mode != "RGB":
            img = img.convert("RGB")
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, ImportError) as exc:
        msg = f"cannot read the image: {exc}"
        raise BadImageError(msg) from exc
    if max_side and max(img.size) > (max_side * 1.5 if fmt in JPEG else max_side):
        k = max_side / max(img.size)
        img = img.resize((max(1, round(img.width * k)), max(1, round(img.height * k))), Image.BILINEAR)
    return np.asarray(img), max(img.size) / max(full_w, full_h)
