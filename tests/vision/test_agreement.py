"""Tiles of one photo that look alike share a name (``vision/agreement.py`` and its use in ``TileDetector``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.agreement import agree
from vision.crops import crop_tiles

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_an_unsure_tile_is_read_as_its_sure_look_alikes() -> None:
    p = np.array([[0.95, 0.05, 0.0], [0.9, 0.1, 0.0], [0.4, 0.55, 0.05], [0.1, 0.1, 0.8]])
    look = np.array([[1.0, 0.0], [1.0, 0.02], [1.0, 0.04], [0.0, 1.0]])
    q = agree(p, look, 0.85, 1.0)
    assert q.argmax(1).tolist() == [0, 0, 0, 2]
    assert q.sum(1) == pytest.approx(np.ones(4))
    assert q[3] == pytest.approx(p[3])  # no look-alike: its names as they were
    # the unsure one's vote (0.55 for name 1) weighs less than a sure one's: it does not turn them
    assert q[0, 0] > 0.6 and q[1, 0] > 0.6 and q[2, 0] > 0.6


def test_no_agreement_without_look_alikes_weight_or_company() -> None:
    p = np.array([[0.9, 0.1], [0.3, 0.7]])
    alike = np.array([[1.0, 0.0], [1.0, 0.0]])
    assert agree(p, np.array([[1.0, 0.0], [0.5, 0.866]]), 0.85, 1.0) == pytest.approx(p)  # cosine 0.5
    assert agree(p, alike, 1.01, 1.0) == pytest.approx(p)  # above 1: none are alike
    assert agree(p, alike, 0.85, 0.0) == pytest.approx(p)  # no weight
    assert agree(p[:1], alike[:1], 0.85, 1.0) == pytest.approx(p[:1])  # a photo of one tile
    assert agree(p, alike, 0.85, 1.0).argmax(1).tolist() == [0, 0]  # the same look: the surer name


def test_a_flower_has_no_copy_to_vote_for_it() -> None:
    """A set holds one of each flower: tiles read as a flower cast no vote, however alike (its seasons and flowers
    share their pot, their corner numeral), while the others still do."""
    p = np.array([[0.9, 0.05, 0.05], [0.3, 0.6, 0.1], [0.05, 0.05, 0.9], [0.1, 0.1, 0.8]])
    look = np.array([[1.0, 0.0], [1.0, 0.01], [0.0, 1.0], [0.0, 1.0]])
    assert agree(p, look, 0.85, 1.0).argmax(1).tolist() == [0, 0, 2, 2]
    q = agree(p, look, 0.85, 1.0, once=np.array([0]))  # name 0 a flower: the first tile does not pull the second
    assert q.argmax(1).tolist() == [0, 1, 2, 2]
    assert q[2:] == pytest.approx(agree(p, look, 0.85, 1.0)[2:])  # the other tiles agree as before


def _art(red: int) -> np.ndarray:
    """A 40 px tile: green stripes (its look) and a blue mark at its top-left corner (its up); ``red`` picks its name
    in the stand-in classifier."""
    art = np.zeros((40, 40, 3), np.uint8)
    art[..., 0] = red
    art[4:12, :, 1] = 255
    art[20:24, 10:30, 1] = 200
    art[:6, :6, 2] = 255
    return art


class _Classifier:
    """Names from the crop's red (bright: 6p surely; dim: 7p 0.5 / 6p 0.4); up from where the blue mark is; look: the
    green channel pooled to 4 x 4, which changes as the crop turns."""

    def __init__(self) -> None:
        from vision.detector import NAMES

        self.six, self.seven, self.n = NAMES.index("6p"), NAMES.index("7p"), len(NAMES)

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        x = feeds["crops"]
        n, side = len(x), x.shape[-1]
        p = np.full((n, self.n), 1e-6)
        sure = x[:, 0, side // 2 - 4:side // 2 + 4, side // 2 - 4:side // 2 + 4].mean((1, 2)) > 0.6
        p[sure, self.six] = 0.95
        p[~sure, self.seven], p[~sure, self.six] = 0.5, 0.4
        h = side // 2
        blue = x[:, 2]
        corners = np.stack([blue[:, :h, :h].mean((1, 2)), blue[:, :h, h:].mean((1, 2)),
                            blue[:, h:, h:].mean((1, 2)), blue[:, h:, :h].mean((1, 2))], 1)  # tl, tr, br, bl
        look = x[:, 1].reshape(n, 4, side // 4, 4, side // 4).mean((2, 4)).reshape(n, 16)
        return [np.log(p), corners * 20, look]


def _detector(config: object) -> object:
    from vision.detector import TileDetector

    return TileDetector.from_parts(_Classifier(), crop=64, config=config)


def test_the_detector_compares_tiles_turned_upright() -> None:
    from vision.detector import NAMES, DetectorConfig

    img = np.zeros((60, 200, 3), np.uint8)
    img[10:50, 10:50] = _art(230)  # 6p, upright
    img[10:50, 80:120] = _art(230)  # 6p, upright
    img[10:50, 150:190] = np.rot90(_art(100), -1)  # read 7p 0.5 / 6p 0.4, turned a quarter clockwise
    boxes = np.array([[10.0, 10, 50, 50], [80, 10, 120, 50], [150, 10, 190, 50]])
    det = _detector(DetectorConfig(turns=1))
    p, up = det.classify(img, boxes)
    assert up.argmax(1).tolist() == [0, 0, 1]
    assert [NAMES[k] for k in p.argmax(1)] == ["6p", "6p", "6p"]
    # the third tile's look turned upright is (but for resampling) the others'; as it lies, it is not
    crops = crop_tiles(img, boxes, 64).transpose(0, 3, 1, 2) / 255.0
    lies = _Classifier().run(None, {"crops": crops})[2]
    upright = _Classifier().run(None, {"crops": np.rot90(crops, 1, axes=(2, 3))})[2]
    assert np.abs(upright[2] - lies[0]).max() < 0.05 < np.abs(lies[2] - lies[0]).max()
    # not alike (its stripes elsewhere), or no agreement: it keeps its own name
    other = img.copy()
    other[10:50, 150:190] = np.rot90(np.rot90(_art(100), 2)[::-1], -1)  # its mark where it was, its stripes below
    assert NAMES[_detector(DetectorConfig(turns=1)).classify(other, boxes)[0][2].argmax()] == "7p"
    assert NAMES[_detector(DetectorConfig(turns=1, alike=1.01)).classify(img, boxes)[0][2].argmax()] == "7p"
    with pytest.raises(ValueError, match="alike_weight"):
        DetectorConfig(alike_weight=-1.0)


@pytest.mark.skipif(not (MODELS / "tile_classifier.onnx").exists(), reason="no shipped classifier")
def test_a_classifier_without_a_look_is_refused(tmp_path: Path) -> None:
    import onnx

    from vision.detector import TileDetector
    from vision.errors import ModelNotFoundError

    model = onnx.load(str(MODELS / "tile_classifier.onnx"))
    keep = [o for o in model.graph.output if o.name != "look"]
    del model.graph.output[:]
    model.graph.output.extend(keep)
    onnx.save(model, str(tmp_path / "old.onnx"))
    with pytest.raises(ModelNotFoundError, match="outputs are \\['tile', 'up'\\].*look"):
        TileDetector(classifier=tmp_path / "old.onnx", readers=())
