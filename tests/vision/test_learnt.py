"""A learnt set (``vision/learnt.py``): the fine-tuned classifier names the photos that show the tiles it learnt, the
shipped one every other photo; its file is checked as it loads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.detector import NAMES, DetectorConfig, TileDetector
from vision.errors import ModelNotFoundError
from vision.learnt import LearntSet
from vision.names import CLASS_ID

RED, GREY = (230, 40, 40), (128, 128, 128)


class _Classifier:
    """A classifier's stand-in: every crop named ``name`` surely, upright; a crop whose middle is red looks (1, 0),
    any other (0, 1)."""

    def __init__(self, name: str) -> None:
        self.name, self.crops = name, 0

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        x = feeds["crops"]
        self.crops += len(x)
        s = x.shape[-1]
        red = x[:, 0, s // 2, s // 2] > 0.7
        logits = np.full((len(x), len(NAMES)), -9.0)
        logits[:, NAMES.index(self.name)] = 9.0
        return [logits, np.tile([9.0, 0, 0, 0], (len(x), 1)), np.stack([red, ~red], 1).astype(np.float32)]


# the photos below are flat patches of colour, soft and dim by the measures of ``vision/clearer.py``: named as cut
AS_CUT = {"sharpen_below": 0.0, "dim_below": 0.0}


def _photo(colours: list[tuple]) -> tuple[np.ndarray, np.ndarray]:
    """A row of tiles 40 x 60 px, one of each colour, and their boxes."""
    rgb = np.full((100, 60 * len(colours), 3), 60, np.uint8)
    for k, colour in enumerate(colours):
        rgb[20:80, 60 * k + 10:60 * k + 50] = colour
    return rgb, np.array([[60.0 * k + 10, 20, 60 * k + 50, 80] for k in range(len(colours))])


def test_a_photo_of_the_learnt_set_is_named_by_the_fine_tuned_classifier_any_other_by_the_shipped_one() -> None:
    tuned, shipped = _Classifier("1m"), _Classifier("9p")
    det = TileDetector.from_parts(tuned, crop=64, learnt=LearntSet.of(np.array([[1.0, 0.0]])), shipped=shipped,
                                  config=DetectorConfig(turns=1, backs_by_colour=False, **AS_CUT))
    ours, other = _photo([RED, RED, RED, GREY]), _photo([RED, GREY, GREY, GREY])  # 3 of 4 alike, 1 of 4
    assert [NAMES[k] for k in det.classify(*ours)[0].argmax(1)] == ["1m"] * 4
    assert tuned.crops == 4 and shipped.crops == 0  # named once
    assert [NAMES[k] for k in det.classify(*other)[0].argmax(1)] == ["9p"] * 4
    assert tuned.crops == 8 and shipped.crops == 4  # the fine-tuned one looked, the shipped one named
    det.config = DetectorConfig(turns=1, backs_by_colour=False, learnt_share=0.8, **AS_CUT)  # 3 of 4 are too few
    assert [NAMES[k] for k in det.classify(*ours)[0].argmax(1)] == ["9p"] * 4
    with pytest.raises(ValueError, match="learnt_share must be 0 to 1"):
        DetectorConfig(learnt_share=1.5)
    with pytest.raises(ValueError, match="learnt_sure must be 0 to 1"):
        DetectorConfig(learnt_sure=-0.1)
    plain = TileDetector.from_parts(tuned, crop=64, config=DetectorConfig(turns=1, backs_by_colour=False))
    assert [NAMES[k] for k in plain.classify(*other)[0].argmax(1)] == ["1m"] * 4  # no learnt set: one classifier


def test_a_set_drawn_like_the_learnt_one_is_named_by_the_shipped_classifier_where_other_sets_looks_are_kept() -> None:
    # red tiles look (1, 0) and grey ones (0, 1); the learnt set's tile (0.8, 0.6), within 0.75 (cosine) of red
    tuned, shipped = _Classifier("1m"), _Classifier("9p")
    config = DetectorConfig(turns=1, backs_by_colour=False, learnt_alike=0.75)
    det = TileDetector.from_parts(tuned, crop=64, learnt=LearntSet.of(np.array([[0.8, 0.6]])), shipped=shipped,
                                  config=config)
    photo = _photo([RED, RED, RED, GREY])

    def names() -> list[str]:
        return [NAMES[k] for k in det.classify(*photo)[0].argmax(1)]

    assert names() == ["1m"] * 4  # 3 of 4 alike: taken for ours (learnt_share)
    others = np.array([[1.0, 0.1], [0.0, 1.0]])  # other sets' tiles: each of ours looks more like one of theirs
    det._learnt = LearntSet.of(np.array([[0.8, 0.6]]), others=others)
    assert names() == ["9p"] * 4  # none nearer ours, and 3 of 4 alike is below learnt_close
    det.config = replace(config, learnt_close=0.7)
    assert names() == ["1m"] * 4
    det.config, det._learnt = config, LearntSet.of(np.array([[0.99, 0.05]]), others=others)
    assert names() == ["1m"] * 4  # the red ones nearer ours: 3 of 4
    det.config = replace(config, learnt_nearer=1.0)
    assert names() == ["1m"] * 4  # ... and 3 of 4 alike ours (learnt_nearer_alike, learnt_share)
    det.config = replace(config, learnt_nearer=1.0, learnt_share=0.8)
    assert names() == ["9p"] * 4
    for name in ("learnt_nearer", "learnt_nearer_alike", "learnt_close"):
        with pytest.raises(ValueError, match=f"{name} must be 0 to 1"):
            DetectorConfig(**{name: 1.2})


class _Finder:
    """A finder's stand-in: the boxes (N, 4) and confidences (N,) it was given, those above the ``conf`` asked."""

    def __init__(self, boxes: np.ndarray, conf: list[float]) -> None:
        self.boxes_, self.conf = boxes, np.array(conf)

    def boxes(self, rgb: np.ndarray, imgsz: int, conf: float, iou: float, max_det: int) -> tuple[np.ndarray, ...]:
        kept = self.conf > conf
        return self.boxes_[kept], self.conf[kept]


def test_the_boxes_the_finder_doubts_do_not_count_against_the_learnt_set() -> None:
    # two red tiles of the learnt set found surely, two grey boxes doubted (parts of two tiles in a row lying askew)
    from PIL import Image

    rgb, boxes = _photo([RED, RED, GREY, GREY])
    tuned, shipped = _Classifier("1m"), _Classifier("9p")
    config = DetectorConfig(first_imgsz=416, zoom_imgsz=0, zoom_out=0, turn_at=0, turns=1, unsure_backs=0,
                            backs_by_colour=False)
    det = TileDetector.from_parts(tuned, crop=64, finder=_Finder(boxes, [0.9, 0.8, 0.4, 0.5]), config=config,
                                  learnt=LearntSet.of(np.array([[1.0, 0.0]])), shipped=shipped)
    assert [d.label for d in det.detect(Image.fromarray(rgb))] == ["1m"] * 4  # 2 of the 2 sure boxes alike
    det.config = replace(config, learnt_sure=0.3)
    assert [d.label for d in det.detect(Image.fromarray(rgb))] == ["9p"] * 4  # 2 of 4 counted: below 0.6 of them
    det.config = replace(config, learnt_sure=0.95)
    assert [d.label for d in det.detect(Image.fromarray(rgb))] == ["9p"] * 4  # none that sure: all 4 counted


class _Alike:
    """A classifier's stand-in: every crop looks alike, a red one named 6s by 0.9 and any other 9s by 0.6."""

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        x = feeds["crops"]
        s = x.shape[-1]
        red = x[:, 0, s // 2, s // 2] > 0.7
        logits = np.full((len(x), len(NAMES)), -9.0)
        logits[:, CLASS_ID["6s"]] = np.where(red, np.log(9.0), 0.0)
        logits[:, CLASS_ID["9s"]] = np.where(red, 0.0, np.log(1.5))
        return [logits, np.tile([9.0, 0, 0, 0], (len(x), 1)), np.tile([1.0, 0.0], (len(x), 1)).astype(np.float32)]


def test_the_looks_of_a_photo_of_the_learnt_set_do_not_vote_for_each_others_names() -> None:
    # one 6s and three 9s that all look alike to the shipped features: the votes would make the 6s a 9s
    photo = _photo([RED, GREY, GREY, GREY])
    config = DetectorConfig(turns=1, backs_by_colour=False, **AS_CUT)
    learnt = LearntSet.of(np.array([[1.0, 0.0]]))
    det = TileDetector.from_parts(_Alike(), crop=64, learnt=learnt, shipped=_Alike(), config=config)
    assert [NAMES[k] for k in det.classify(*photo)[0].argmax(1)] == ["6s", "9s", "9s", "9s"]
    det.config = replace(config, learnt_agree=True)
    assert [NAMES[k] for k in det.classify(*photo)[0].argmax(1)] == ["9s"] * 4
    plain = TileDetector.from_parts(_Alike(), crop=64, config=config)  # no learnt set: the shipped weights vote
    assert [NAMES[k] for k in plain.classify(*photo)[0].argmax(1)] == ["9s"] * 4


def test_a_learnt_set_is_saved_and_checked_as_it_loads(tmp_path: Path) -> None:
    path = tmp_path / "learnt_set.npz"
    LearntSet.of(np.array([[3.0, 4.0], [0.0, 2.0]])).save(path)
    assert LearntSet.load(path, 2).looks.ravel().tolist() == pytest.approx([0.6, 0.8, 0.0, 1.0], abs=1e-3)
    assert [p.name for p in tmp_path.iterdir()] == ["learnt_set.npz"]  # no temporary file left
    with pytest.raises(ModelNotFoundError, match="looks with 3 numbers a tile"):
        LearntSet.load(path, 3)
    np.savez(path, looks=np.array([[np.nan, 1.0]]))
    with pytest.raises(ModelNotFoundError, match="finite: False"):
        LearntSet.load(path, 2)
    for bad in (b"not an npz", b""):
        path.write_bytes(bad)
        with pytest.raises(ModelNotFoundError, match="is no learnt set"):
            LearntSet.load(path, 2)
    np.savez(path, other=np.zeros((1, 2)))
    with pytest.raises(ModelNotFoundError, match="is no learnt set"):
        LearntSet.load(path, 2)


def test_a_learnt_set_keeps_the_other_sets_looks(tmp_path: Path) -> None:
    path = tmp_path / "learnt_set.npz"
    LearntSet.of(np.array([[1.0, 0.0]]), others=np.array([[0.0, 3.0], [4.0, 3.0]])).save(path)
    assert LearntSet.load(path, 2).others.ravel().tolist() == pytest.approx([0, 1, 0.8, 0.6], abs=1e-3)
    for others in (None, np.zeros((0, 2))):  # none kept: written so, and read back so
        LearntSet.of(np.array([[1.0, 0.0]]), others=others).save(path)
        assert LearntSet.load(path, 2).others is None
    np.savez(path, looks=np.array([[1.0, 0.0]]), others=np.zeros((2, 3)))
    with pytest.raises(ModelNotFoundError, match=r"its others are \(2, 3\)"):
        LearntSet.load(path, 2)


def test_a_learnt_set_keeps_the_colour_of_its_coloured_backs(tmp_path: Path) -> None:
    path = tmp_path / "learnt_set.npz"
    LearntSet.of(np.array([[1.0, 0.0]]), True, back=np.array([0.4, 0.2, 0.5])).save(path)
    assert LearntSet.load(path, 2).back.tolist() == pytest.approx([0.4, 0.2, 0.5])
    for told in (False, None):  # white backs, or not known: no colour to look for
        assert LearntSet.of(np.array([[1.0, 0.0]]), told, back=np.array([0.9, 0.9, 0.9])).back is None
    LearntSet.of(np.array([[1.0, 0.0]]), True).save(path)
    assert LearntSet.load(path, 2).back is None
    np.savez(path, looks=np.array([[1.0, 0.0]]), backs_coloured=np.int8(1), back=np.array([0.4, 2.0, 0.5]))
    with pytest.raises(ModelNotFoundError, match=r"its back colour is \[0.4, 2.0, 0.5\]"):
        LearntSet.load(path, 2)


def test_a_learnt_set_keeps_whether_its_backs_are_coloured(tmp_path: Path) -> None:
    path = tmp_path / "learnt_set.npz"
    for told in (True, False, None):
        LearntSet.of(np.array([[1.0, 0.0]]), told).save(path)
        assert LearntSet.load(path, 2).backs_coloured is told
    np.savez(path, looks=np.array([[1.0, 0.0]]))  # a folder written before it was kept: not known
    assert LearntSet.load(path, 2).backs_coloured is None
    np.savez(path, looks=np.array([[1.0, 0.0]]), backs_coloured=np.int8(7))
    with pytest.raises(ModelNotFoundError, match="backs_coloured is 7"):
        LearntSet.load(path, 2)
    np.savez(path, looks=np.array([[1.0, 0.0]]), backs_coloured=np.zeros(3))
    with pytest.raises(ModelNotFoundError, match="is no learnt set"):
        LearntSet.load(path, 2)
