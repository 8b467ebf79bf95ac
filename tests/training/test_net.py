"""The tile network (``training.net``): its ONNX export is what the detector runs, fed crops of its own size."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.crops import crop_tiles, tilts

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = (MODELS / "tile_finder.onnx").exists()


@pytest.mark.skipif(not SHIPPED, reason="shipped weights not present")
def test_the_classifier_is_fed_crops_of_the_size_it_was_exported_for(tmp_path: Path) -> None:
    import torch

    from training.classifier import export
    from training.net import TileNet
    from vision.detector import NAMES, TileDetector
    from vision.errors import ModelNotFoundError
    from vision.shipped import SOFT_CLASSIFIER_WEIGHTS

    torch.manual_seed(0)
    net = TileNet(len(NAMES))
    onnx = export(net, tmp_path / "c80.onnx", 80)
    det = TileDetector(classifier=onnx, readers=())  # the classifier alone (the shipped soft and shaken: 96 px)
    assert det._soft is None and det._shaken is None
    with pytest.raises(ModelNotFoundError, match="c96.onnx names crops of 96 px, .*c80.onnx of 80"):
        TileDetector(classifier=onnx, readers=(), soft=shutil.copy(SOFT_CLASSIFIER_WEIGHTS, tmp_path / "c96.onnx"))
    img = np.random.default_rng(0).integers(0, 255, (200, 300, 3), np.uint8)
    boxes = np.array([[10.0, 10.0, 60.0, 80.0], [100.0, 50.0, 170.0, 100.0]])
    p, up = det.classify(img, boxes)
    assert p.shape == (2, len(NAMES)) and up.shape == (2, 4)
    x = torch.from_numpy(crop_tiles(img, boxes, 80, tilt=tilts(img, boxes))).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        want = torch.softmax(net.eval()(x)[0], 1).numpy()
        look = net.look(x).numpy()
    det.config = type(det.config)(turns=1, alike=1.01)  # as it lies, no look-alikes: the network's own names
    assert det.classify(img, boxes)[0] == pytest.approx(want, abs=1e-4)
    import onnxruntime as ort

    session = ort.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])
    assert session.run(["look"], {"crops": x.numpy()})[0] == pytest.approx(look, abs=1e-4)


def test_the_network_keeps_64_pixel_features_as_they_are() -> None:
    import torch

    from training.net import TileNet

    net = TileNet().eval()
    x = torch.rand(2, 3, 64, 64)
    with torch.no_grad():
        f = net.features[:-1](x)
        assert f.shape[-2:] == (4, 4) and torch.equal(net.features(x), f)
        assert [t.shape for t in net(torch.rand(2, 3, 96, 96))] == [(2, 43), (2, 4)]
