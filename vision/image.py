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
    than 1.5 x ``max_side``, are then resized to ``max_side``. Boxes found on the array divide by ``scale``. A whole
    colour JPEG is decoded by OpenCV (``_fast_jpeg``: PIL's pixels, sooner), any other photo by PIL.
    """
    try:
        data = bytes(src) if isinstance(src, bytes | bytearray) else None
        if isinstance(src, Image.Image):
            img = src
        else:
            img = open_image(io.BytesIO(data) if data is not None else Path(src))
        full_w, full_h = img.size
        fmt = img.format
        if max_side and fmt in JPEG and max(full_w, full_h) > max_side:
            k = max_side / max(full_w, full_h)
            img.draft("RGB", (int(full_w * k) + 1, int(full_h * k) + 1))
        orientation = img.getexif().get(ORIENTATION, 1)
        rgb = None
        if fmt in JPEG and not isinstance(src, Image.Image):
            rgb = _fast_jpeg(data if data is not None else Path(src).read_bytes(), img, full_w, orientation)
        if rgb is not None:
            img.close()
            side = max(rgb.shape[:2])
        else:
            img.load()  # decoded here, so that a truncated photo is a BadImageError
            if orientation != 1:  # turned upright (exif_transpose copies a photo even when not)
                img = ImageOps.exif_transpose(img)
            if img.mode != "RGB":
                img = img.convert("RGB")
            side = max(img.size)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, ImportError) as exc:
        msg = f"cannot read the image: {exc}"
        raise BadImageError(msg) from exc
    if max_side and side > (max_side * 1.5 if fmt in JPEG else max_side):
        if rgb is not None:
            img = Image.fromarray(rgb)
        k = max_side / side
        img = img.resize((max(1, round(img.width * k)), max(1, round(img.height * k))), Image.BILINEAR)
        rgb = None
    if rgb is None:
        rgb = np.asarray(img)
    return rgb, max(rgb.shape[:2]) / max(full_w, full_h)


# each EXIF orientation's turn upright (PIL's ``ImageOps.exif_transpose``) on an array
_UPRIGHT = {
    2: lambda a: a[:, ::-1],  # mirrored
    3: lambda a: a[::-1, ::-1],  # upside down
    4: lambda a: a[::-1],  # mirrored upside down
    5: lambda a: a.transpose(1, 0, 2),  # mirrored, turned a quarter
    6: lambda a: np.rot90(a, -1),  # turned a quarter clockwise
    7: lambda a: a.transpose(1, 0, 2)[::-1, ::-1],  # mirrored, turned three quarters
    8: lambda a: np.rot90(a, 1),  # turned a quarter counter-clockwise
}


def _fast_jpeg(data: bytes, img: Image.Image, full_w: int, orientation: int) -> np.ndarray | None:
    """The JPEG ``data`` (of a multi-picture JPEG, its first picture) decoded by OpenCV as PIL would decode ``img``
    (opened from it, its draft size set; the full width ``full_w``), turned upright by its EXIF ``orientation``: the
    same pixels without PIL's copy of them into an array (5 to 10 ms of a 12 MP photo's 35). None, and PIL decodes
    it, where that is not sure: a photo that is not colour (YCbCr), or whose data does not end where a JPEG ends (a
    truncated photo is PIL's error to raise; some phones write more after the image), or an orientation outside
    EXIF's eight, or a size not PIL's.
    """
    import cv2

    if img.mode != "RGB" or not data.endswith(b"\xff\xd9") or orientation not in (1, *_UPRIGHT):
        return None
    w, h = img.size
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}.get(round(full_w / w))
    bgr = None if flags is None else cv2.imdecode(np.frombuffer(data, np.uint8), flags | cv2.IMREAD_IGNORE_ORIENTATION)
    if bgr is None or bgr.shape != (h, w, 3):
        return None
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB, dst=bgr)
    return rgb if orientation == 1 else np.ascontiguousarray(_UPRIGHT[orientation](rgb))
