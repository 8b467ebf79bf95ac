"""A learnt set (``vision/learnt.py``): the fine-tuned classifier names the photos that show the tiles it learnt, the
shipped one every other photo; its file is checked as it loads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.detector import NAMES, DetectorConfig, TileDetector
from vision.errors import ModelNotFoundError
from vision.learnt import LearntSet

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


def _photo(colours: list[tuple]) -> tuple[np.ndarray, np.ndarray]:
    """A row of tiles 40 x 60 px, one of each colour, and their boxes."""
    rgb = np.full((100, 60 * len(colours), 3), 60, np.uint8)
    for k, colour in enumerate(colours):
        rgb[20:80, 60 * k + 10:60 * k + 50] = colour
    return rgb, np.array([[60.0 * k + 10, 20, 60 * k + 50, 80] for k in range(len(colours))])


def test_a_photo_of_the_learnt_set_is_named_by_the_fine_tuned_classifier_any_other_by_the_shipped_one() -> None:
    tuned, shipped = _Classifier("1m"), _Classifier("9p")
    det = TileDetector.from_parts(tuned, crop=64, learnt=LearntSet.of(np.array([[1.0, 0.0]])), shipped=shipped,
                                  config=DetectorConfig(turns=1, backs_by_colour=False))
    ours, other = _photo([RED, RED, RED, GREY]), _photo([RED, GREY, GREY, GREY])  # 3 of 4 alike, 1 of 4
    assert [NAMES[k] for k in det.classify(*ours)[0].argmax(1)] == ["1m"] * 4
    assert tuned.crops == 4 and shipped.crops == 0  # named once
    assert [NAMES[k] for k in det.classify(*other)[0].argmax(1)] == ["9p"] * 4
    assert tuned.crops == 8 and shipped.crops == 4  # the fine-tuned one looked, the shipped one named
    det.config = DetectorConfig(turns=1, backs_by_colour=False, learnt_share=0.8)  # 3 of 4 are too few now
    assert [NAMES[k] for k in det.classify(*ours)[0].argmax(1)] == ["9p"] * 4
    with pytest.raises(ValueError, match="learnt_share must be 0 to 1"):
        DetectorConfig(learnt_share=1.5)
    plain = TileDetector.from_parts(tuned, crop=64, config=DetectorConfig(turns=1, backs_by_colour=False))
    assert [NAMES[k] for k in plain.classify(*other)[0].argmax(1)] == ["1m"] * 4  # no learnt set: one classifier


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
