"""Reading photos: a path, bytes or a PIL image in; an upright RGB array out (EXIF orientation applied).

PIL opens every photo (its format, size, EXIF and its decompression-bomb check); a JPEG's pixels are then decoded by
simplejpeg (libjpeg-turbo's TurboJPEG, strict: a warning such as corrupt or missing data is an error), which gives
the same pixels as PIL in less time (the evaluation's 12 MP photo at 1/2: 30 ms against 42); a CMYK JPEG, and
any JPEG it will not decode (a broken one), is decoded by PIL, as before, whose error then names what is wrong;
but a JPEG whose data ends before its header's size is filled (PIL would paint the rest grey and say nothing, and
the answer would be a photo with no tiles) is a ``BadImageError``.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import simplejpeg
from PIL import ExifTags, Image, UnidentifiedImageError

from vision.errors import BadImageError, ImageTooLargeError

ORIENTATION = ExifTags.Base.Orientation
# EXIF orientation -> the view of the stored pixels that shows them upright (as PIL's ImageOps.exif_transpose)
UPRIGHT = {
    2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
    5: lambda a: a.transpose(1, 0, 2), 6: lambda a: np.rot90(a, -1), 7: lambda a: a[::-1, ::-1].transpose(1, 0, 2),
    8: lambda a: np.rot90(a, 1),
}

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
    not an image; we register pillow-heif ourselves and want a plain error instead. An image whose header declares
    more pixels than PIL decodes is an ``ImageTooLargeError`` (PIL's own ``DecompressionBombError`` is no ``OSError``,
    and would escape the readers' handling of bad images)."""
    original = getattr(sys.modules.get("ultralytics.utils.patches"), "_image_open", None)
    try:
        return (original or Image.open)(fp)
    except Image.DecompressionBombError as exc:
        msg = f"the image has more pixels than this reader decodes ({exc})"
        raise ImageTooLargeError(msg) from exc


def load_image(src: ImageInput, max_side: int | None = None) -> tuple[np.ndarray, float]:
    """Decode ``src`` upright; returns (RGB uint8 array, scale) where scale = returned size / upright full size.

    With ``max_side``, large JPEGs are decoded at a reduced size (DCT scaling by 1/2, 1/4 or 1/8, the smallest that
    keeps the long side at least ``max_side``: much faster than decoding 12 MP); other images, or JPEGs still longer
    than 1.5 x ``max_side``, are then resized to ``max_side``. Boxes found on the array divide by ``scale``.
    """
    try:
        if isinstance(src, Image.Image):
            img, data = src, None
        else:
            data = bytes(src) if isinstance(src, bytes | bytearray) else Path(src).read_bytes()
            img = open_image(io.BytesIO(data))
        full_w, full_h = img.size
        jpeg = img.format in JPEG
        want, scale = None, 1  # the least size asked for, and the JPEG decoded at 1 / scale, as PIL's draft picks it
        if max_side and jpeg and max(full_w, full_h) > max_side:
            k = max_side / max(full_w, full_h)
            want = (int(full_w * k) + 1, int(full_h * k) + 1)
            scale = max(a for a in (1, 2, 4, 8) if a <= min(full_w // want[0], full_h // want[1]))
        orientation = img.getexif().get(ORIENTATION, 1)
        # (a CMYK JPEG, rare and often stored inverted, is left to PIL)
        rgb = _turbo(data, (full_w, full_h), scale) if data is not None and jpeg and img.mode in ("RGB", "L") else None
        if rgb is not None:
            img = Image.fromarray(rgb) if max_side and max(rgb.shape[:2]) > max_side * 1.5 else None
        else:
            if want:
                img.draft("RGB", want)
            img.load()  # decoded here, so that a truncated photo is a BadImageError
            if img.mode != "RGB":
                img = img.convert("RGB")
    except BadImageError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, ImportError) as exc:
        msg = f"cannot read the image: {exc}"
        raise BadImageError(msg) from exc
    if img is not None:
        if max_side and max(img.size) > (max_side * 1.5 if jpeg else max_side):
            k = max_side / max(img.size)
            img = img.resize((max(1, round(img.width * k)), max(1, round(img.height * k))), Image.BILINEAR)
        rgb = np.asarray(img)
    if orientation in UPRIGHT:  # turned upright (a view, copied once)
        rgb = np.ascontiguousarray(UPRIGHT[orientation](rgb))
    return rgb, max(rgb.shape[:2]) / max(full_w, full_h)


def _turbo(data: bytes, size: tuple[int, int], scale: int) -> np.ndarray | None:
    """A JPEG's pixels as stored (RGB, not turned; ``size`` its stored width and height, as PIL read them), decoded at
    1 / ``scale`` (DCT scaling; TurboJPEG would pick eighths too, which PIL does not), by simplejpeg; None when it will
    not decode them (PIL then tries, and names what is wrong)."""
    w, h = size if scale > 1 else (0, 0)
    try:
        return simplejpeg.decode_jpeg(data, colorspace="RGB", min_width=-(-w // scale), min_height=-(-h // scale))
    except ValueError as exc:
        if "premature end" in str(exc).lower():  # data missing: PIL would fill the rest grey and say nothing
            msg = f"the JPEG holds less data than its {size[0]}x{size[1]} header says ({exc})"
            raise BadImageError(msg) from exc
        return None
