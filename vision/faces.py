"""A tile's face found within its box and cut flat, for photos of tiles standing on their edges
(``DetectorConfig.faces_below``).

Shot low, from the side or nearly from in front, a standing tile shows its top and a side beside its face: its box
holds all of them, the face foreshortened in a part of it, and the classifier, which learnt tiles seen from above,
names such a crop poorly. The face network (``models/face_corners.onnx``, ``training/corners.py``) reads, from each
box's crop cut as the classifier's is (straight by its tilt, at the network's own size), the four corners of the
tile's face, whether the face lies across, and whether the tile stands; the face is then cut flat to a tile's shape
(``crops.FACE``), upright or across, into a crop as the classifier takes one (``face_crops``). On the true boxes of
``bench.eval_cases``' standing photos, cut to their true faces, the classifier names 0.90 of the low photos' tiles
(0.54 cut around their boxes) and 0.94 of those seen from in front (0.74): ``docs/photo.md``. The file may hold a
second network beside it, trained on rows standing alone, whose corners are taken where the first finds the photo's
tiles standing (``FaceReader.ROW_OUTPUTS``): it finds the faces of the tiles lying before a row shot low better.

The face refiner (``models/face_refiner.onnx``, ``training/refine.py``) then finds each face again: the face found is
cut flat into a square with a margin around it (``refine_frames``), and the refiner gives the true face's corners in
that square. A tile lying seen at a grazing angle shows its face as a strip a few of the face network's pixels tall;
in the square it is as tall as wide.

Corners are given in the crop's units (0 to 1 from its left and top), clockwise as shown, the corner of least x + y
first (``canonical``): the face's own top is not known until the classifier names it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

from vision.clearer import sureness
from vision.crops import FACE, MARGIN, crop_matrices, crop_tiles, network_input
from vision.errors import ModelNotFoundError
from vision.finder import median_side
from vision.readers import crop_side


def canonical(quads: np.ndarray) -> np.ndarray:
    """Quads (N, 4, 2), each clockwise as shown, rolled so that the corner of least x + y comes first.

    >>> canonical(np.array([[[9.0, 1], [9, 9], [1, 9], [1, 1]]]))[0].tolist()  # tr, br, bl, tl -> tl first
    [[1.0, 1.0], [9.0, 1.0], [9.0, 9.0], [1.0, 9.0]]
    """
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    first = quads.sum(2).argmin(1)
    order = (first[:, None] + np.arange(4)) % 4
    return np.take_along_axis(quads, order[:, :, None], 1)


def face_crops(rgb: np.ndarray, quads: np.ndarray, across: np.ndarray, size: int, margin: float = MARGIN) -> np.ndarray:
    """Each face (quads (N, 4, 2) in the photo's pixels, from its crop's top-left corner, clockwise) cut flat into a
    ``size`` x ``size`` crop (N, size, size, 3), as the classifier's crops hold a tile seen from above: the face
    ``1 / margin`` of the crop long, ``FACE`` as wide as long, upright or, where ``across`` (N, bool), lying across;
    edges replicated.

    >>> img = np.zeros((100, 100, 3), np.uint8); img[20:60, 30:60] = 255  # a face 30 x 40
    >>> quad = np.array([[[30.0, 20], [60, 20], [60, 60], [30, 60]]])
    >>> crop = face_crops(img, quad, np.array([False]), 46, 1.15)[0]
    >>> int(crop[23, 23, 0]), int(crop[23, 5, 0]), int(crop[1, 23, 0])  # the middle, beside it, above it
    (255, 0, 0)
    """
    import cv2

    long = size / margin
    out = np.empty((len(quads), size, size, 3), np.uint8)
    for i, (quad, lies_across) in enumerate(zip(np.asarray(quads, np.float32), across, strict=True)):
        w, h = (long, long * FACE) if lies_across else (long * FACE, long)
        x0, y0 = (size - w) / 2, (size - h) / 2
        rect = np.float32([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]])
        m = cv2.getPerspectiveTransform(quad, rect)
        shrink = cv2.contourArea(quad) > w * h
        out[i] = cv2.warpPerspective(rgb, m, (size, size), flags=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


REFINE_INSET = 0.25  # a face found is cut, for the refiner, with this share of the crop's side around it


def refine_frames(quads: np.ndarray, size: int, inset: float = REFINE_INSET) -> np.ndarray:
    """The homographies (N, 3, 3) that take each face found (quads (N, 4, 2) in the photo's pixels, clockwise as
    shown) to a square ``size`` px wide, ``inset`` of its side in from the crop's edges: the refiner's frame, in which
    a face seen at a grazing angle, a thin strip of its box, is as tall as it is wide.

    >>> f = refine_frames(np.array([[[10.0, 10], [50, 10], [50, 20], [10, 20]]]), 64)[0]
    >>> (f @ [50, 20, 1])[:2].round(3).tolist()  # its third corner, in from the crop's bottom right
    [48.0, 48.0]
    """
    import cv2

    a, b = size * inset, size * (1 - inset)
    square = np.float32([[a, a], [b, a], [b, b], [a, b]])
    return np.stack([cv2.getPerspectiveTransform(np.float32(q), square) for q in np.asarray(quads).reshape(-1, 4, 2)]
                    ) if len(quads) else np.zeros((0, 3, 3))


def thinness(quads: np.ndarray) -> np.ndarray:
    """Each face's (quads (N, 4, 2), clockwise) short side over its long side, each side the mean of two opposite edges:
    a tile's face seen square on 0.75, lying seen at a grazing angle a fraction of that.

    >>> thinness(np.array([[[0.0, 0], [40, 0], [40, 10], [0, 10]]])).tolist()
    [0.25]
    """
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    edge = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2)  # tl-tr, tr-br, br-bl, bl-tl
    w, h = (edge[:, 0] + edge[:, 2]) / 2, (edge[:, 1] + edge[:, 3]) / 2
    return np.minimum(w, h) / np.maximum(np.maximum(w, h), 1e-9)


def refine_crops(rgb: np.ndarray, frames: np.ndarray, size: int) -> np.ndarray:
    """The photo cut by each of ``frames`` (``refine_frames``) into a ``size`` x ``size`` crop (N, size, size, 3);
    edges replicated."""
    import cv2

    out = np.empty((len(frames), size, size, 3), np.uint8)
    for i, m in enumerate(frames):
        out[i] = cv2.warpPerspective(rgb, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def through(frames: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``points`` (N, K, 2) taken through the homographies ``frames`` (N, 3, 3)."""
    p = np.einsum("nij,nkj->nki", frames, np.concatenate([points, np.ones((*points.shape[:2], 1))], 2))
    return p[:, :, :2] / p[:, :, 2:]


class Faces(NamedTuple):
    """The faces the face network finds in a photo's boxes: their quads (N, 4, 2, the photo's pixels, in the order
    ``canonical`` gives them in each crop), whether each lies across its crop (N, bool), the probability that each
    tile stands on its edge (N), and whether the crops named were cut flat from them (``flat``: the caption reader
    then cuts its crops so too). ``rows``: the quads and across flags its network for rows standing finds, where the
    file holds one (``FaceReader.ROW_OUTPUTS``; None: none)."""

    quads: np.ndarray
    across: np.ndarray
    stands: np.ndarray
    flat: bool = False
    rows: tuple[np.ndarray, np.ndarray] | None = None

    def of(self, tiles: np.ndarray) -> Faces:
        """The faces of ``tiles`` (indices or a mask), taken as these were."""
        rows = None if self.rows is None else (self.rows[0][tiles], self.rows[1][tiles])
        return Faces(self.quads[tiles], self.across[tiles], self.stands[tiles], self.flat, rows)

    def as_rows(self) -> Faces:
        """These faces as the network for rows standing finds them (where there is one; else as they are)."""
        return self if self.rows is None else self._replace(quads=self.rows[0], across=self.rows[1], rows=None)

    @property
    def standing(self) -> float:
        """The share of the tiles that stand (their probability above a half; none: 0)."""
        return float(np.mean(self.stands > 0.5)) if len(self.stands) else 0.0


def stands_of(boxes: np.ndarray, faced: np.ndarray, faces: Faces | None) -> np.ndarray:
    """Each of ``boxes``' probability that its tile stands (N): that of the same box among ``faced``, the boxes whose
    ``faces`` the face network found; NaN for a box it did not see (a back looked for, two halves joined), or for
    all where it was not asked (None).

    >>> faced = np.array([[0, 0, 10, 14], [10, 0, 20, 14.0]])
    >>> faces = Faces(np.zeros((2, 4, 2)), np.zeros(2, bool), np.array([0.9, 0.2]))
    >>> stands_of(np.array([[10, 0, 20, 14], [30, 0, 40, 14.0]]), faced, faces).tolist()
    [0.2, nan]
    """
    out = np.full(len(boxes), np.nan)
    if faces is None or len(faces.stands) != len(faced):
        return out
    at = {tuple(b): float(p) for b, p in zip(np.asarray(faced, float).tolist(), faces.stands, strict=True)}
    for i, b in enumerate(np.asarray(boxes, float).tolist()):
        out[i] = at.get(tuple(b), np.nan)
    return out


class FaceRefiner:
    """The face refiner at ``path`` (an ONNX Runtime session: ``faces`` in, ``corners`` out; ``training/refine.py``):
    each face found cut flat into a square with a margin around it (``refine_frames``), its corners found again
    there, at the scale of the face rather than of its box."""

    def __init__(self, session: object, path: Path | str = "") -> None:
        ins, outs = [i.name for i in session.get_inputs()], [o.name for o in session.get_outputs()]
        if ins != ["faces"] or outs != ["corners"]:
            msg = (f"{path} is no face refiner: it takes {ins} and gives {outs}, detection gives it faces and reads "
                   "corners (python -m training refiner)")
            raise ModelNotFoundError(msg)
        self._session, self.path = session, Path(path)
        self.size = crop_side(session)

    def refined(self, rgb: np.ndarray, quads: np.ndarray, passes: int = 1) -> np.ndarray:
        """The faces ``quads`` (N, 4, 2: the photo's pixels, clockwise as shown) found again ``passes`` times, each
        time from the last (N, 4, 2, in the order ``canonical`` gives them in the refiner's square)."""
        quads = np.asarray(quads, np.float64)
        for _ in range(passes if len(quads) else 0):
            frames = refine_frames(quads, self.size)
            corners = self._session.run(["corners"], {"faces": network_input(refine_crops(rgb, frames, self.size))})[0]
            quads = through(np.linalg.inv(frames), corners.reshape(-1, 4, 2).astype(np.float64) * self.size)
        return quads


class FaceReader:
    """The face network at ``path`` (an ONNX Runtime session: ``crops`` in, ``corners``, ``across`` and ``stands``
    out; and, where the file holds a second network trained for rows standing, its ``row_corners`` and
    ``row_across``, taken for a photo whose tiles stand: ``Faces.rows``)."""

    OUTPUTS = ["corners", "across", "stands"]
    ROW_OUTPUTS = ["row_corners", "row_across"]

    def __init__(self, session: object, path: Path | str = "", refiner: FaceRefiner | None = None) -> None:
        outputs = [o.name for o in session.get_outputs()]
        if outputs not in (self.OUTPUTS, self.OUTPUTS + self.ROW_OUTPUTS):
            msg = (f"{path} is no face network of this version: its outputs are {outputs}, detection reads "
                   f"{', '.join(self.OUTPUTS)} (python -m training corners), and maybe "
                   f"{', '.join(self.ROW_OUTPUTS)} after them (ship-corners --rows)")
            raise ModelNotFoundError(msg)
        self._session, self.path, self.refiner = session, Path(path), refiner
        self.size = crop_side(session)

    def sees(self, boxes: np.ndarray, config: object) -> bool:
        """Whether the tiles at ``boxes`` are ``config.faces_side`` pixels long or more at the median: a tile's parts
        seen close, boxed one by one, hold no face."""
        return median_side(boxes) >= config.faces_side

    def faces(self, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray) -> Faces:
        """The faces of the tiles at ``boxes``, cut straight by ``tilt`` as the classifier's crops are (``Faces``)."""
        if len(boxes) == 0:
            return Faces(np.zeros((0, 4, 2)), np.zeros(0, bool), np.zeros(0))
        m = crop_matrices(boxes, self.size, MARGIN, tilt)
        corners, across, stands, *rows = self._session.run(
            None, {"crops": network_input(crop_tiles(rgb, boxes, self.size, tilt=tilt))})
        back = np.linalg.inv(np.concatenate([m, np.tile([0.0, 0, 1], (len(m), 1, 1))], 1))[:, :2]

        def in_photo(found: np.ndarray) -> np.ndarray:  # corners in the crop's units -> quads in the photo's pixels
            inside = found.reshape(-1, 4, 2).astype(np.float64) * self.size
            return np.einsum("nij,nkj->nki", back[:, :, :2], inside) + back[:, None, :, 2]

        return Faces(in_photo(corners), across.reshape(-1) > 0,
                     1 / (1 + np.exp(-stands.reshape(-1).astype(np.float64))),
                     rows=(in_photo(rows[0]), rows[1].reshape(-1) > 0) if rows else None)

    def refined(self, rgb: np.ndarray, faces: Faces, config: object) -> Faces:
        """``faces`` with those whose short side is under ``config.refine_thinner`` of their long one (``thinness``)
        found again ``config.faces_refined`` times by the refiner (the faces taken: ``Faces.quads``; the rows
        network's, where the photo's tiles stand, once ``Faces.as_rows`` took them); as they are where there is no
        refiner."""
        if self.refiner is None or config.faces_refined < 1 or not len(faces.quads):
            return faces
        thin = thinness(faces.quads) < config.refine_thinner
        if not thin.any():
            return faces
        quads = faces.quads.copy()
        quads[thin] = self.refiner.refined(rgb, quads[thin], config.faces_refined)
        return faces._replace(quads=quads)

    def flat(self, rgb: np.ndarray, faces: Faces, size: int) -> np.ndarray:
        """The ``faces`` of the photo ``rgb`` cut flat, as the classifier takes crops of ``size`` (N, 3, size,
        size)."""
        return network_input(face_crops(rgb, faces.quads, faces.across, size))

    def flatter(self, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, crops: np.ndarray, looked: tuple,
                look: Callable[[np.ndarray], tuple], config: object) -> tuple[np.ndarray, tuple, Faces | None]:
        """The classifier's ``crops`` (N, 3, S, S) of the tiles at ``boxes``, cut by ``tilt``, and ``looked``, its
        ``look`` at them (names, up directions, looks); or, where it names them unsurely (below
        ``config.faces_below``) and ``config.faces_standing`` of the tiles or more stand, their faces cut flat
        (``face_crops``; as the network for rows standing finds them, where the file holds one, the thin ones found
        again by the refiner: ``config.faces_refined``) and its look at those, when it names them surer by
        ``config.faces_gain``. And the faces, where it asked the network for them (None where it did not), ``flat``
        where their crops were taken."""
        c = config
        if len(boxes) == 0 or sureness(looked[0]) >= c.faces_below:
            return crops, looked, None
        faces = self.faces(rgb, boxes, tilt)
        if faces.standing < c.faces_standing:
            return crops, looked, self.refined(rgb, faces, c)
        faces = self.refined(rgb, faces.as_rows(), c)
        flat = self.flat(rgb, faces, crops.shape[-1])
        again = look(flat)
        if sureness(again[0]) > sureness(looked[0]) + c.faces_gain:
            return flat, again, faces._replace(flat=True)
        return crops, looked, faces


def flat_named(p: np.ndarray, flat: np.ndarray, cut: np.ndarray, sure: float) -> np.ndarray:
    """The names ``p`` (N, 43), where the classifier names a tile's face cut flat (``flat``) with ``sure`` or more,
    surer than its crop as cut (``cut``), and ``p`` gives it another name: that tile named by its flat face (a tile
    lying seen at a grazing angle, its face a thin strip of its box: ``DetectorConfig.flat_sure``)."""
    top = flat.max(1)
    taken = (top >= sure) & (top >= cut.max(1)) & (flat.argmax(1) != p.argmax(1))
    return np.where(taken[:, None], flat, p)
