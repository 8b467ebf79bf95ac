"""A learnt set: the classifier ``mjscore train`` fine-tuned on photos of one tile set reads the photos of that set,
and the shipped classifier every other photo.

A fine-tuned classifier reads its set better and other sets worse (``docs/annotate.md``: runs 1 to 9 of
``bench.learn`` read the held-out style 4 to 9 tiles of 1101 worse). So the weights folder keeps, beside it, the
looks of the tiles it was trained on (the classifier's features of each labelled tile cut straight and turned
upright, as ``vision/agreement.py`` compares them) and the shipped classifier. A photo shows the learnt set when at
least ``DetectorConfig.learnt_share`` of its tiles (those the finder is sure of: ``learnt_sure``) have a look within
``learnt_alike`` (cosine) of one of those; it is then named by the fine-tuned classifier, its looks not voting for
each other's names (``learnt_agree``), else by the shipped one, as the shipped weights name it.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.errors import ModelNotFoundError

LEARNT_SET = "learnt_set.npz"  # the looks, in a weights folder (``vision/weights.py``)
SHIPPED_CLASSIFIER = "shipped_classifier.onnx"  # ... and the classifier for the photos of other sets


@dataclass(frozen=True, slots=True, eq=False)
class LearntSet:
    """The looks (N, F: unit vectors) of the labelled tiles a classifier was fine-tuned on, and whether the set's
    backs are coloured, unlike its faces (None: no back was labelled). A set has one back: where it is coloured, a
    tile of its photos read as a back whose top is white is its blank white dragon (``backs.coloured_backs``)."""

    looks: np.ndarray
    backs_coloured: bool | None = None

    @classmethod
    def of(cls, looks: np.ndarray, backs_coloured: bool | None = None) -> LearntSet:
        """The learnt set of ``looks`` (N, F), made unit vectors."""
        looks = np.asarray(looks, np.float32)
        return cls(looks / np.maximum(np.linalg.norm(looks, axis=1, keepdims=True), 1e-12), backs_coloured)

    def shows(self, look: np.ndarray, alike: float, share: float) -> bool:
        """Whether a photo whose tiles have the looks ``look`` (M, F) shows the learnt set: at least ``share`` of its
        tiles within cosine ``alike`` of a learnt tile's look (a photo of no tiles shows none).

        >>> learnt = LearntSet.of(np.array([[1.0, 0.0], [0.0, 1.0]]))
        >>> photo = np.array([[1.0, 0.1], [0.1, 1.0], [1.0, 1.0]])  # two like learnt tiles, one between them
        >>> learnt.shows(photo, 0.9, 0.6), learnt.shows(photo, 0.9, 0.7), learnt.shows(photo[:0], 0.9, 0.6)
        (True, False, False)
        """
        if len(look) == 0:
            return False
        unit = look / np.maximum(np.linalg.norm(look, axis=1, keepdims=True), 1e-12)
        return float(((unit @ self.looks.T).max(1) >= alike).mean()) >= share

    def save(self, path: Path) -> None:
        """Written to ``path`` (``.npz``: ``looks``, float16; ``backs_coloured``, 1, 0 or -1 for None), through a
        temporary file."""
        tmp = path.with_name(path.name + ".tmp.npz")
        backs = -1 if self.backs_coloured is None else int(self.backs_coloured)
        np.savez(tmp, looks=self.looks.astype(np.float16), backs_coloured=np.int8(backs))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, features: int) -> LearntSet:
        """The learnt set saved at ``path``, checked: ``looks`` of ``features`` numbers each (the classifier's
        look), finite, at least one. Raises ``ModelNotFoundError`` naming what is wrong."""
        try:
            with np.load(path, allow_pickle=False) as z:
                looks = np.asarray(z["looks"], np.float32)
                backs = int(z["backs_coloured"]) if "backs_coloured" in z.files else -1  # (written before 2026-11-28)
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
            msg = f"{path} is no learnt set (an .npz of looks, written by mjscore train): {exc}"
            raise ModelNotFoundError(msg) from exc
        if looks.ndim != 2 or len(looks) == 0 or looks.shape[1] != features or not np.isfinite(looks).all():
            msg = (f"{path}: its looks are {looks.shape}, finite: {bool(np.isfinite(looks).all())}; the classifier "
                   f"beside it looks with {features} numbers a tile (mjscore train writes the two together)")
            raise ModelNotFoundError(msg)
        if backs not in (-1, 0, 1):
            msg = f"{path}: backs_coloured is {backs}, not 1 (coloured), 0 (white) or -1 (not known)"
            raise ModelNotFoundError(msg)
        return cls.of(looks, None if backs < 0 else bool(backs))
