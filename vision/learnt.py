"""A learnt set: the classifier ``mjscore train`` fine-tuned on photos of one tile set reads the photos of that set,
and the shipped classifier every other photo.

A fine-tuned classifier reads its set better and other sets worse (``docs/annotate.md``: runs 1 to 9 of
``bench.learn`` read the held-out style 4 to 9 tiles of 1101 worse). So the weights folder keeps, beside it, the
looks of the tiles it was trained on (the classifier's features of each labelled tile cut straight and turned
upright, as ``vision/agreement.py`` compares them), the looks of other sets' tiles (the replay's: the styles the
shipped weights learnt), and the shipped classifier. A photo shows the learnt set when at least
``DetectorConfig.learnt_nearer`` of its tiles (those the finder is sure of: ``learnt_sure``) look more like a learnt
tile than like any other set's tile (cosine), or ``learnt_nearer_alike`` so where ``learnt_share`` of them have a
look within ``learnt_alike`` of a learnt tile's, or ``learnt_close`` of them have (a photo of the set whose tiles
the many other sets' looks happen to match as closely); it is then named by the fine-tuned classifier, its looks
not voting for each other's names (``learnt_agree``), else by the shipped one, as the shipped weights name it. A
folder that keeps no other sets' looks (trained without ``--replay``, or before 2026-11-28) asks instead that
``learnt_share`` of them have a look within ``learnt_alike`` of a learnt tile's: a set drawn like the learnt one then
passes too (``docs/annotate.md``: dr_55 read 13 tiles worse so with dr_58's folder, 1 or none with the other sets'
looks).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.errors import ModelNotFoundError

if TYPE_CHECKING:
    from vision.config import DetectorConfig

LEARNT_SET = "learnt_set.npz"  # the looks, in a weights folder (``vision/weights.py``)
SHIPPED_CLASSIFIER = "shipped_classifier.onnx"  # ... and the classifier for the photos of other sets


@dataclass(frozen=True, slots=True, eq=False)
class LearntSet:
    """The looks (N, F: unit vectors) of the labelled tiles a classifier was fine-tuned on, and whether the set's
    backs are coloured, unlike its faces (None: no back was labelled). A set has one back: where it is coloured, a
    tile of its photos read as a back whose top is white is its blank white dragon (``backs.coloured_backs``), and
    in a photo that shows no back to look by, the finder looks again for backs of its colour (``back``;
    ``backs.missed_backs``)."""

    looks: np.ndarray
    backs_coloured: bool | None = None
    others: np.ndarray | None = None  # (K, F: unit vectors) other sets' tiles' looks; None: not kept
    back: np.ndarray | None = None  # (3,) the colour of its coloured backs' tops (``backs.tops``); None: not known

    @classmethod
    def of(cls, looks: np.ndarray, backs_coloured: bool | None = None, others: np.ndarray | None = None,
           back: np.ndarray | None = None) -> LearntSet:
        """The learnt set of ``looks`` (N, F) and the ``others`` (K, F; None or none: not kept), made unit vectors;
        the ``back`` colour kept only where the backs are coloured."""
        back = None if back is None or backs_coloured is not True else np.asarray(back, np.float32).reshape(3)
        return cls(_unit(looks), backs_coloured, None if others is None or len(others) == 0 else _unit(others), back)

    def shows(self, look: np.ndarray, c: DetectorConfig) -> bool:
        """Whether a photo whose tiles have the looks ``look`` (M, F) shows the learnt set, by the settings ``c``:
        of its tiles, at least ``learnt_nearer`` nearer a learnt tile's look than any of the ``others`` (cosine), or
        ``learnt_nearer_alike`` so where ``learnt_share`` of them are within cosine ``learnt_alike`` of a learnt
        tile's look, or ``learnt_close`` within it; where no others are kept, ``learnt_share`` within it (a photo
        of no tiles shows none).

        >>> from dataclasses import replace
        >>> from vision.config import DetectorConfig
        >>> c = DetectorConfig(learnt_alike=0.9, learnt_share=0.6, learnt_nearer=0.7, learnt_nearer_alike=0.7,
        ...                    learnt_close=1.0)
        >>> learnt = LearntSet.of(np.array([[1.0, 0.0], [0.0, 1.0]]))
        >>> photo = np.array([[1.0, 0.1], [0.1, 1.0], [1.0, 1.0]])  # two like learnt tiles, one between them
        >>> learnt.shows(photo, c), learnt.shows(photo, replace(c, learnt_share=0.7))  # no others: 2 of 3 alike
        (True, False)
        >>> learnt.shows(photo[:0], replace(c, learnt_share=0.0))
        False
        >>> kept = LearntSet.of(learnt.looks, others=np.array([[1.0, 1.0]]))  # another set's tile looks like (1, 1)
        >>> kept.shows(photo, c), kept.shows(photo, replace(c, learnt_nearer=0.6))  # 2 of 3 nearer ours than theirs
        (False, True)
        >>> kept.shows(photo, replace(c, learnt_nearer_alike=0.6))  # ... and 2 of 3 alike ours (learnt_share)
        True
        >>> kept.shows(photo, replace(c, learnt_close=0.6))  # 2 of 3 alike ours, whatever others show
        True
        >>> alike = np.array([[1.0, 0.6], [0.6, 1.0], [1.0, 1.0]])  # a set drawn between ours and theirs
        >>> c = replace(c, learnt_alike=0.85, learnt_nearer=0.2, learnt_nearer_alike=0.2)
        >>> learnt.shows(alike, c), kept.shows(alike, c)
        (True, False)
        """
        if len(look) == 0:
            return False
        unit = _unit(look)
        nearest = (unit @ self.looks.T).max(1)
        within = float((nearest >= c.learnt_alike).mean())
        if self.others is None:
            return within >= c.learnt_share
        nearer = float((nearest > (unit @ self.others.T).max(1)).mean())
        return within >= c.learnt_close or nearer >= c.learnt_nearer or (
            nearer >= c.learnt_nearer_alike and within >= c.learnt_share)

    def save(self, path: Path) -> None:
        """Written to ``path`` (``.npz``: ``looks`` and ``others``, float16, ``others`` none where not kept;
        ``backs_coloured``, 1, 0 or -1 for None; ``back``, 3 numbers, NaN where not known), through a temporary
        file."""
        tmp = path.with_name(path.name + ".tmp.npz")
        backs = -1 if self.backs_coloured is None else int(self.backs_coloured)
        others = self.looks[:0] if self.others is None else self.others
        np.savez(tmp, looks=self.looks.astype(np.float16), backs_coloured=np.int8(backs),
                 others=others.astype(np.float16), back=np.full(3, np.nan) if self.back is None else self.back)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, features: int) -> LearntSet:
        """The learnt set saved at ``path``, checked: ``looks`` of ``features`` numbers each (the classifier's
        look), finite, at least one. Raises ``ModelNotFoundError`` naming what is wrong."""
        try:
            with np.load(path, allow_pickle=False) as z:
                looks = np.asarray(z["looks"], np.float32)
                backs = int(z["backs_coloured"]) if "backs_coloured" in z.files else -1  # (written before 2026-11-28)
                others = np.asarray(z["others"], np.float32) if "others" in z.files else looks[:0]  # (... before)
                back = np.asarray(z["back"], np.float32).reshape(3) if "back" in z.files else None  # (... before)
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
            msg = f"{path} is no learnt set (an .npz of looks, written by mjscore train): {exc}"
            raise ModelNotFoundError(msg) from exc
        for name, kept, least in (("looks", looks, 1), ("others", others, 0)):
            if kept.ndim != 2 or len(kept) < least or kept.shape[1] != features or not np.isfinite(kept).all():
                msg = (f"{path}: its {name} are {kept.shape}, finite: {bool(np.isfinite(kept).all())}; the "
                       f"classifier beside it looks with {features} numbers a tile (mjscore train writes the two "
                       "together)")
                raise ModelNotFoundError(msg)
        if backs not in (-1, 0, 1):
            msg = f"{path}: backs_coloured is {backs}, not 1 (coloured), 0 (white) or -1 (not known)"
            raise ModelNotFoundError(msg)
        if back is not None and np.isnan(back).all():
            back = None
        elif back is not None and not (np.isfinite(back).all() and 0 <= back.min() and back.max() <= 1):
            colour = [round(float(v), 3) for v in back]
            msg = f"{path}: its back colour is {colour}, not 3 numbers 0 to 1 (or NaN: not known)"
            raise ModelNotFoundError(msg)
        return cls.of(looks, None if backs < 0 else bool(backs), others, back)


def _unit(looks: np.ndarray) -> np.ndarray:
    looks = np.asarray(looks, np.float32)
    return looks / np.maximum(np.linalg.norm(looks, axis=1, keepdims=True), 1e-12)
