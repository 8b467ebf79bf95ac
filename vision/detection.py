"""Value types of the vision stage."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Detection:
    """One tile found in a photo.

    ``label`` is a contract tile name (``1m`` .. ``8f``) or ``back``; ``box`` is xyxy in pixels of the upright
    (EXIF-oriented) image; ``sideways`` is True when the tile lies across the direction of most tiles.
    """

    label: str
    confidence: float
    box: tuple[float, float, float, float]
    sideways: bool = False
