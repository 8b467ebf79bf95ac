"""Which way the tiles of a photo point, from the classifier's up head (per tile, the probabilities that its top
points 0, 90, 180 or 270 degrees clockwise from the image's up): a face lies sideways when it points across the
photo's commonest axis; and the turns that set a photo's faces upright, with the up directions read in a photo so
turned given back as the photo's (``vision/rectify.py``).
"""

from __future__ import annotations

import numpy as np

from vision.names import NAMES


def upright_turns(up: np.ndarray, face: np.ndarray, tilt: float, split: float = 2.0) -> list[float]:
    """The angles (degrees, counter-clockwise as shown, as OpenCV turns) that may turn the photo so its faces' up
    direction points up (``up``, N x 4: 0, 90, 180, 270 degrees clockwise from the image's up; ``face``: which tiles
    are faces), their edges (``tilt``, radians: ``crops.photo_tilt``) straight: the commonest up direction's, and
    the next commonest's where it is a quarter from it and holds ``split`` times its faces or more (an upright face
    shortened as much as it is wide looks like one lying across).

    >>> up = np.eye(4)[[1, 1, 2, 1, 2]]
    >>> upright_turns(up, np.ones(5, bool), np.radians(-30.0)), upright_turns(up, np.ones(5, bool), 0.0, 0.6)
    ([60.0], [90.0, 180.0])
    """
    votes = np.bincount(up[face].argmax(1), minlength=4) if face.any() else np.array([1, 0, 0, 0])
    first, second = np.argsort(-votes, kind="stable")[:2]
    quarters = [first] + ([second] if (second - first) % 2 and votes[second] >= split * votes[first] else [])
    return [round(int(q) * 90 + float(np.degrees(tilt)), 6) for q in quarters]


def sideways(cls: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A face-up tile is sideways when its up direction is across the most common one (backs never are); returns
    the flags and each tile's probability of lying sideways (0 for backs).

    >>> flags, p = sideways(np.array([0, 0, 0, 42]), np.eye(4)[[0, 2, 1, 1]] * 0.9 + 0.025)
    >>> flags.tolist(), p.round(2).tolist()
    ([False, False, True, False], [0.05, 0.05, 0.95, 0.0])
    """
    face = cls != NAMES.index("back")
    if not face.any():
        return np.zeros(len(cls), bool), np.zeros(len(cls))
    main = main_axis(cls, up)
    across = up[:, 1 - main] + up[:, 3 - main]
    return face & (up.argmax(1) % 2 != main), np.where(face, across, 0.0)


def main_axis(cls: np.ndarray, up: np.ndarray) -> int:
    """The photo's most common up direction among its faces (``cls`` not back), as an axis: 0 (up or down the photo) or
    1 (across it); 0 where they tie or none is a face."""
    axis = up.argmax(1) % 2
    face = cls != NAMES.index("back")
    return 1 if (axis[face] == 1).sum() > (axis[face] == 0).sum() else 0


def turned_back(up: np.ndarray, angle: float) -> np.ndarray:
    """Up directions (N x 4) read in a photo turned by ``angle`` (``upright_turns``), as directions of the photo.

    >>> turned_back(np.eye(4)[[0, 3]], 90.0).argmax(1).tolist()
    [1, 0]
    """
    return np.roll(up, int(round(angle / 90)) % 4, axis=1)
