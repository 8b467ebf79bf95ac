"""Vision errors.

Tree (each has a stable ``code`` for the API)::

    VisionError (ValueError)        code = "vision_error"
    ├── BadImageError               code = "bad_image"        the bytes are no image we can read
    └── ModelNotFoundError          code = "model_not_found"  shipped weights are missing
"""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error the vision stage raises."""

    code = "vision_error"


class BadImageError(VisionError):
    """The input is not an image that can be decoded."""

    code = "bad_image"


class ModelNotFoundError(VisionError):
    """A weights file the detector needs is not there."""

    code = "model_not_found"
