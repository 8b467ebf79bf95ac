"""Value types of the vision stage."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Detection:
    """One tile found in a photo.

    ``label`` is a contract tile name (``1m`` .. ``8f``) or ``back``; ``box`` is xyxy in pixels of the upright
    (EXIF-oriented) image; ``sideways`` is True when the tile lies across the direction of most tiles (of a whole
    table's hand read apart, across most of the hand's).
    ``ranked`` is the names' ranking (the classifier's, with its readers' averaged in), most likely first
    (``label`` itself), as (name, probability) pairs down to a probability of 0.01: the layout may take a second
    choice when the first ones make no legal hand; so too for the sideways flag, whose probability is
    ``sideways_p``.
    ``stands`` is the probability that the tile stands on its edge (its face towards the camera, as a hand stands
    before its player), as the face network judges it where it was asked (``vision/faces.py``; None: not asked):
    the layout reads a hand standing, seen from in front, by it (its flowers lie flat before it or beside it).
    """

    label: str
    confidence: float
    box: tuple[float, float, float, float]
    sideways: bool = False
    ranked: tuple[tuple[str, float], ...] = ()
    sideways_p: float | None = None  # the probability that the tile lies sideways (None: not known)
    stands: float | None = None  # the probability that the tile stands on its edge (None: not known)
