"""mjscore's vision stage: find and name every tile in a photo of a revealed hand.

``vision.detect(photo)`` returns ``list[Detection]`` using the weights shipped in ``models/``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from vision.detection import Detection
from vision.errors import BadImageError, ImageTooLargeError, ModelNotFoundError, VisionError

if TYPE_CHECKING:
    from vision.detector import TileDetector
    from vision.image import ImageInput

__all__ = ["BadImageError", "Detection", "ImageTooLargeError", "ModelNotFoundError", "VisionError", "default_detector",
           "detect"]


@lru_cache(maxsize=2)
def default_detector(weights: str | None = None) -> TileDetector:
    """The detector with the shipped weights, or with those of the folder ``weights`` (``vision/weights.py``),
    loaded once."""
    from vision.detector import TileDetector
    from vision.weights import load_detector

    return TileDetector() if weights is None else load_detector(weights)


def detect(image: ImageInput) -> list[Detection]:
    """Every tile in ``image`` (path, bytes or PIL image; EXIF orientation applied), with the shipped weights."""
    return default_detector().detect(image)
