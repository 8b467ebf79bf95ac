"""The shipped networks' files: ``models/`` beside ``vision/`` in a checkout (a wheel installs them as
``vision/models``, ``setup.py``), each under the name a weights folder gives it too (``vision/weights.py``). The
detector loads these unless told others (``TileDetector``, ``mjscore --weights``, the service's ``MJ_*_WEIGHTS``)."""

from __future__ import annotations

from pathlib import Path

_VISION = Path(__file__).resolve().parent
MODELS = _VISION / "models" if (_VISION / "models").is_dir() else _VISION.parent / "models"
FINDER_WEIGHTS = MODELS / "tile_finder.onnx"
# the finder fine-tuned on tile sets laid out in grids of touching tiles too (``python -m training synth --sets``): it
# boxes every tile of such a photo where the hand finder boxes some in pairs or not at all, but it reads hands a little
# worse, so detection takes it only for a photo of many tiles (``DetectorConfig.set_tiles``)
SET_FINDER_WEIGHTS = MODELS / "set_finder.onnx"
CLASSIFIER_WEIGHTS = MODELS / "tile_classifier.onnx"
# classifiers trained on from it on crops out of focus and on shaken crops: they name the photos too soft or shaken
# for it (``DetectorConfig.soft_below``, ``shaken_below``), and sound ones worse
SOFT_CLASSIFIER_WEIGHTS, SHAKEN_CLASSIFIER_WEIGHTS = MODELS / "soft_classifier.onnx", MODELS / "shaken_classifier.onnx"
# in this order: on the training styles' true boxes it reads 117 of 8979 wrong, the other order 118; on the held-out
# style's, flowers last 43 of 1101, characters last 46. The mark reader then: it weighs the names the others left;
# and the seat reader last, which shares a tile's flower probability again among the flowers by the seat it reads
# (a set that tells its four flowers apart by a seat numeral alone, as gn_postmodern does: ``docs/photo.md``)
READER_WEIGHTS = (MODELS / "character_reader.onnx", MODELS / "flower_reader.onnx", MODELS / "mark_reader.onnx",
                  MODELS / "seat_reader.onnx")
# where each tile's face lies in its box: a photo of tiles standing is named from its faces cut flat
# (``vision/faces.py``, ``DetectorConfig.faces_below``)
FACE_WEIGHTS = MODELS / "face_corners.onnx"
# each face found there, cut flat into a square with a margin around it, found again at the face's scale: the faces of
# tiles lying before a row shot low, thin strips of their boxes, are cut flat right (``FaceRefiner``)
REFINER_WEIGHTS = MODELS / "face_refiner.onnx"
# the finder fine-tuned on rows of tiles standing too (shot low and from the side, or from in front): a photo whose
# tiles the face network finds standing is looked at again by it (``DetectorConfig.rows_standing``); it reads photos
# from above a little worse, so no other photo; stored as int8 rows (``training/compact.py``)
ROW_FINDER_WEIGHTS = MODELS / "row_finder.onnx"
# a text-line recogniser that reads the flowers' English captions (``vision/captions.py``, ``training/caption.py``)
CAPTION_WEIGHTS = MODELS / "caption_reader.onnx"
