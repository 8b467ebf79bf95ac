"""A weights folder: the detector's networks under the file names ``models/`` gives them, so that a set of weights
is used by naming its folder (``mjscore PHOTO --weights DIR``, ``MJ_WEIGHTS=DIR`` for the service). ``models/``
is the shipped one; ``mjscore train`` writes others (every file, the ones it did not train copied), with a
``card.json`` saying what was trained, on what, and how it read before and after. A folder whose classifier was
fine-tuned on one tile set also holds that set's looks and the shipped classifier (``vision/learnt.py``): the
fine-tuned classifier names the photos of that set, the shipped one every other photo.

A folder is checked before any network loads: every file there, and the card's class names, when it has a card,
those of ``vision.names``; the networks themselves are checked as they load (``TileDetector``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from vision.detector import DetectorConfig, TileDetector
from vision.errors import ModelNotFoundError
from vision.learnt import LEARNT_SET, SHIPPED_CLASSIFIER
from vision.names import NAMES
from vision.shipped import (
    CAPTION_WEIGHTS,
    CLASSIFIER_WEIGHTS,
    FACE_WEIGHTS,
    FINDER_WEIGHTS,
    MODELS,
    READER_WEIGHTS,
    REFINER_WEIGHTS,
    ROW_FINDER_WEIGHTS,
    SET_FINDER_WEIGHTS,
    SHAKEN_CLASSIFIER_WEIGHTS,
    SOFT_CLASSIFIER_WEIGHTS,
)

CARD = "card.json"
FILES: tuple[str, ...] = tuple(p.name for p in (FINDER_WEIGHTS, SET_FINDER_WEIGHTS, CLASSIFIER_WEIGHTS,
                                                *READER_WEIGHTS, CAPTION_WEIGHTS, SOFT_CLASSIFIER_WEIGHTS,
                                                SHAKEN_CLASSIFIER_WEIGHTS, FACE_WEIGHTS,
                                                ROW_FINDER_WEIGHTS, REFINER_WEIGHTS))
# the networks shipped after folders were written without them: a folder that lacks one reads with the shipped one
# (each reads its crops alone, whatever the folder's classifier)
LATER: tuple[str, ...] = ("seat_reader.onnx", "soft_classifier.onnx", "shaken_classifier.onnx", "face_corners.onnx",
                          "row_finder.onnx", "face_refiner.onnx")


@dataclass(frozen=True, slots=True)
class Weights:
    """The networks of one weights folder, as ``TileDetector`` takes them."""

    folder: Path
    finder: Path
    set_finder: Path
    classifier: Path
    readers: tuple[Path, ...]
    captions: Path
    learnt: tuple[Path, Path] | None = None  # a learnt set and the shipped classifier (``vision/learnt.py``)
    soft: Path = SOFT_CLASSIFIER_WEIGHTS  # the classifier of photos too soft for ``classifier``
    shaken: Path = SHAKEN_CLASSIFIER_WEIGHTS  # ... and of photos shaken
    faces: Path = FACE_WEIGHTS  # the face network (``vision/faces.py``)
    row_finder: Path = ROW_FINDER_WEIGHTS  # the finder of rows of tiles standing
    refiner: Path = REFINER_WEIGHTS  # the face refiner (``vision/faces.py``)


SHIPPED = Weights(MODELS, FINDER_WEIGHTS, SET_FINDER_WEIGHTS, CLASSIFIER_WEIGHTS, READER_WEIGHTS, CAPTION_WEIGHTS)


def weights_folder(folder: Path | str) -> Weights:
    """The weights in ``folder``, checked: a folder holding every file of ``FILES`` (but those of ``LATER``, taken
    from ``models/`` where it lacks them), and a ``card.json`` (when there) whose ``names`` are the detector's class
    names. Raises ``ModelNotFoundError`` naming what is wrong."""
    root = Path(folder)
    if not root.is_dir():
        what = "is a file" if root.exists() else "does not exist"
        msg = f"weights folder {root} {what}: give a folder written by mjscore train (or models/, the shipped one)"
        raise ModelNotFoundError(msg)
    missing = [name for name in FILES if not (root / name).is_file() and name not in LATER]
    if missing:
        msg = (f"weights folder {root} lacks {', '.join(missing)}: a weights folder holds {', '.join(FILES)} "
               f"(mjscore train writes them all)")
        raise ModelNotFoundError(msg)
    learnt = root / LEARNT_SET, root / SHIPPED_CLASSIFIER
    if learnt[0].is_file() != learnt[1].is_file():
        have, lack = (learnt[0], learnt[1]) if learnt[0].is_file() else (learnt[1], learnt[0])
        msg = (f"weights folder {root} holds {have.name} but not {lack.name}: a learnt set and the shipped "
               f"classifier come together (mjscore train writes both)")
        raise ModelNotFoundError(msg)
    card = root / CARD
    if card.exists():
        _check_card(card)
    paths = [root / name if (root / name).is_file() else MODELS / name for name in FILES]
    return Weights(root, paths[0], paths[1], paths[2], tuple(paths[3:-6]), paths[-6],
                   learnt if learnt[0].is_file() else None, *paths[-5:])


def load_detector(folder: Path | str, config: DetectorConfig | None = None) -> TileDetector:
    """The detector of the weights folder ``folder`` (``models/``, or one ``mjscore train`` wrote), checked first
    by ``weights_folder``: a missing file or other class names raise ``ModelNotFoundError`` naming them."""
    w = weights_folder(folder)
    return TileDetector(w.finder, w.classifier, config, w.readers, w.set_finder, w.captions, w.learnt, w.soft,
                        w.shaken, w.faces, w.row_finder, w.refiner)


def _check_card(card: Path) -> None:
    try:
        names = json.loads(card.read_text(encoding="utf-8")).get("names")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError) as exc:
        msg = f"{card} is not a JSON object: {exc}"
        raise ModelNotFoundError(msg) from exc
    if not isinstance(names, list):
        msg = f"{card} holds no 'names' list: the class names its networks read"
        raise ModelNotFoundError(msg)
    if names != list(NAMES):
        pairs = enumerate(zip(names, NAMES, strict=False))
        diff = next((f"class {k} is {a!r}, the detector's {b!r}" for k, (a, b) in pairs if a != b),
                    f"it names {len(names)} classes, the detector {len(NAMES)}")
        msg = f"{card}: the weights' class names are not the detector's: {diff}"
        raise ModelNotFoundError(msg)
