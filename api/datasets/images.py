"""A photo as the dataset keeps it: upright, in a format the browser shows and ultralytics reads.

A JPEG, PNG or WebP whose EXIF orientation is already upright is kept byte for byte; one that must be turned is
turned and encoded again (JPEG at quality 95, PNG and WebP losslessly); a HEIC photo becomes a JPEG (browsers
do not show HEIC). The labels' pixels are then those of the stored file, with no EXIF step left to disagree on.
"""

from __future__ import annotations

import io

from PIL import Image

from vision.image import ORIENTATION, load_image, open_image

EXTENSION = {"jpeg": "jpg", "png": "png", "webp": "webp", "heic": "jpg"}
_SAVE = {"jpg": ("JPEG", {"quality": 95}), "png": ("PNG", {}), "webp": ("WEBP", {"lossless": True})}


def upright(data: bytes, kind: str) -> tuple[bytes, str, int, int]:
    """The bytes to store for an upload of type ``kind`` (``api.deps.check_photo``'s), their extension and the
    upright width and height. Raises ``vision.BadImageError`` when the photo cannot be decoded."""
    ext = EXTENSION[kind]
    img = open_image(io.BytesIO(data))
    if kind != "heic" and img.getexif().get(ORIENTATION, 1) == 1:
        width, height = img.size
        return data, ext, width, height
    rgb, _ = load_image(data)  # decoded and turned upright
    fmt, options = _SAVE[ext]
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, fmt, **options)
    return buf.getvalue(), ext, int(rgb.shape[1]), int(rgb.shape[0])
