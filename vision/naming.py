"""A photo's tiles as the detector names them (``vision/detector.py``): cut and looked at (``Seen``), then named
(``Named``), the records each step of the naming hands to the next."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vision.captions import Verdicts
from vision.faces import Faces


class Named(NamedTuple):
    """A photo's tiles named (``TileDetector._named``): the names' probabilities (N, 43), the up directions' (N, 4),
    the crops named (N, 3, S, S: each tile cut straight, as it lies), the tilts they were cut at (N, radians), the
    classifier that named them, their faces where the face network found them (``vision/faces.py``), what their
    captions named where read (``CaptionReader.named``'s verdicts), and which tiles the colour of their tops alone
    renamed, a back a 5z or a 5z a back (``backs.coloured_backs``; None: not told apart), and the classifier's names
    of the crops before the readers read them (N, 43; None: not kept)."""

    p: np.ndarray
    up: np.ndarray
    crops: np.ndarray
    tilt: np.ndarray
    classifier: object
    faces: Faces | None = None
    captions: Verdicts | None = None
    told: np.ndarray | None = None
    looked: np.ndarray | None = None


class Seen(NamedTuple):
    """A photo's tiles cut and looked at (``TileDetector._seen``), before the readers read them: the crops (N, 3, S,
    S), the tilts they were cut at (N, radians), the classifier's look at them (names, up directions, looks), that
    classifier, and the faces the face network found (``vision/faces.py``; None where it was not asked)."""

    crops: np.ndarray
    tilt: np.ndarray
    looked: tuple
    classifier: object
    faces: Faces | None = None
