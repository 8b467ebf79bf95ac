"""Weights folders (``vision/weights.py``): models/ is one; a folder lacking a file, naming other classes or holding
another network in a file's place is refused before (or as) it loads, naming what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.detector import TileDetector
from vision.errors import ModelNotFoundError
from vision.names import NAMES
from vision.shipped import MODELS
from vision.weights import FILES, SHIPPED, load_detector, weights_folder

pytestmark = pytest.mark.skipif(not all((MODELS / f).exists() for f in FILES), reason="no shipped weights in models/")


def shipped_copy(dest: Path, **swap: str) -> Path:
    """A weights folder of links to the shipped files; ``swap`` puts another shipped file in a file's place
    (``tile_classifier_onnx="character_reader.onnx"``)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (dest / name).symlink_to(MODELS / swap.get(name.replace(".", "_"), name))
    return dest


def test_models_is_the_shipped_weights_folder() -> None:
    assert weights_folder(MODELS) == SHIPPED
    assert [p.name for p in SHIPPED.readers] == ["character_reader.onnx", "flower_reader.onnx", "mark_reader.onnx",
                                                 "seat_reader.onnx"]


def test_a_folder_written_before_the_seat_reader_shipped_reads_with_the_shipped_one(tmp_path: Path) -> None:
    folder = shipped_copy(tmp_path / "w")
    (folder / "seat_reader.onnx").unlink()
    w = weights_folder(folder)
    assert w.readers[:3] == tuple(folder / n for n in ("character_reader.onnx", "flower_reader.onnx",
                                                        "mark_reader.onnx"))
    assert w.readers[3] == MODELS / "seat_reader.onnx" and w.classifier == folder / "tile_classifier.onnx"


def test_a_folder_written_before_the_soft_and_shaken_classifiers_shipped_reads_with_the_shipped_ones(
        tmp_path: Path) -> None:
    folder = shipped_copy(tmp_path / "w")
    (folder / "soft_classifier.onnx").unlink()
    (folder / "shaken_classifier.onnx").unlink()
    w = weights_folder(folder)
    assert w.soft == MODELS / "soft_classifier.onnx" and w.captions == folder / "caption_reader.onnx"
    assert w.shaken == MODELS / "shaken_classifier.onnx"
    own = weights_folder(shipped_copy(tmp_path / "v"))
    assert (own.soft, own.shaken) == (own.folder / "soft_classifier.onnx", own.folder / "shaken_classifier.onnx")


def test_a_folder_written_before_the_face_refiner_shipped_reads_with_the_shipped_one(tmp_path: Path) -> None:
    folder = shipped_copy(tmp_path / "w")
    (folder / "face_refiner.onnx").unlink()
    w = weights_folder(folder)
    assert w.refiner == MODELS / "face_refiner.onnx" and w.faces == folder / "face_corners.onnx"
    assert w.row_finder == folder / "row_finder.onnx" and weights_folder(shipped_copy(tmp_path / "v")).refiner == \
        tmp_path / "v" / "face_refiner.onnx"
    assert load_detector(folder)._faces.refiner is not None


def test_a_folder_with_every_file_and_its_card_loads(tmp_path: Path) -> None:
    folder = shipped_copy(tmp_path / "w")
    (folder / "card.json").write_text(json.dumps({"names": list(NAMES)}))
    w = weights_folder(folder)
    assert w.classifier == folder / "tile_classifier.onnx" and w.readers[1] == folder / "flower_reader.onnx"
    from training import synth

    jpg, _, _ = synth.make_scene(synth.SceneSpec(0, 7, "test", 0.5, 0.5), [synth.plain_style()])
    found = load_detector(folder).detect(jpg)
    assert found and found == TileDetector().detect(jpg)  # the same networks read alike


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: d, "does not exist"),
    (lambda d: (d.write_text("x"), d)[-1], "is a file"),
    (lambda d: (shipped_copy(d), (d / "mark_reader.onnx").unlink(), (d / "caption_reader.onnx").unlink(), d)[-1],
     "lacks mark_reader.onnx, caption_reader.onnx"),
    (lambda d: (shipped_copy(d), (d / "card.json").write_text("[1]"), d)[-1], "is not a JSON object"),
    (lambda d: (shipped_copy(d), (d / "card.json").write_text("{}"), d)[-1], "holds no 'names' list"),
    (lambda d: (shipped_copy(d), (d / "card.json").write_text(json.dumps({"names": ["1m", "2m", "x"]})), d)[-1],
     "class 2 is 'x', the detector's '3m'"),
    (lambda d: (shipped_copy(d), (d / "card.json").write_text(json.dumps({"names": list(NAMES)[:-1]})), d)[-1],
     "it names 42 classes, the detector 43"),
], ids=["missing", "a-file", "files-missing", "card-not-object", "card-without-names", "other-names", "fewer-names"])
def test_a_bad_folder_is_refused_naming_what_is_wrong(tmp_path: Path, make, message: str) -> None:  # noqa: ANN001
    folder = make(tmp_path / "w")
    with pytest.raises(ModelNotFoundError, match=message) as info:
        load_detector(folder)
    assert info.value.code == "model_not_found" and str(folder) in str(info.value)


def test_a_learnt_set_comes_with_the_shipped_classifier(tmp_path: Path) -> None:
    import numpy as np

    from vision.learnt import LEARNT_SET, SHIPPED_CLASSIFIER, LearntSet

    folder = shipped_copy(tmp_path / "w")
    looks = TileDetector().looks(np.full((100, 100, 3), 200, np.uint8), np.array([[20.0, 10, 80, 90]]))
    LearntSet.of(looks).save(folder / LEARNT_SET)
    with pytest.raises(ModelNotFoundError, match=f"holds {LEARNT_SET} but not {SHIPPED_CLASSIFIER}"):
        weights_folder(folder)
    (folder / SHIPPED_CLASSIFIER).symlink_to(MODELS / "tile_classifier.onnx")
    assert weights_folder(folder).learnt == (folder / LEARNT_SET, folder / SHIPPED_CLASSIFIER)
    assert load_detector(folder)._learnt is not None
    (folder / LEARNT_SET).unlink()
    with pytest.raises(ModelNotFoundError, match=f"holds {SHIPPED_CLASSIFIER} but not {LEARNT_SET}"):
        weights_folder(folder)


def test_another_network_in_a_files_place_is_refused_as_it_loads(tmp_path: Path) -> None:
    folder = shipped_copy(tmp_path / "w", tile_classifier_onnx="character_reader.onnx")
    with pytest.raises(ModelNotFoundError, match="tile_classifier.onnx is no tile classifier of this version"):
        load_detector(folder)
