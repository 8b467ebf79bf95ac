"""Vision errors.

Tree (each has a stable ``code`` for the API)::

    VisionError (ValueError)        code = "vision_error"
    ├── BadImageError               code = "bad_image"        the bytes are no image we can read
    │   └── ImageTooLargeError      code = "image_too_large"  more pixels than Pillow will decode (a decompression bomb)
    └── ModelNotFoundError          code = "model_not_found"  shipped weights are missing
"""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error the vision stage raises."""

    code = "vision_error"


class BadImageError(VisionError):
    """The input is not an image that can be decoded."""

    code = "bad_image"


class ImageTooLargeError(BadImageError):
    """The image declares more pixels than Pillow decodes (``PIL.Image.MAX_IMAGE_PIXELS`` twice over): a decompression
    bomb, refused from its header before any pixel is decoded."""

    code = "image_too_large"


class ModelNotFoundError(VisionError):
    """A weights file the detector needs is not there."""

    code = "model_not_found"
