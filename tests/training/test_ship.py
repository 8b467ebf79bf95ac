"""Shipping a run (``training/ship.py``): its checkpoint exported as the detector reads it and stored as int8,
calibrated on the crops of a dataset's val split; the shipped networks name as their float twins on whatever CPU
runs this."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training import synth
from training.classifier import load_synth
from training.reader import reader_names, upright
from training.real import real_photos
from training.ship import calibration_crops, float_twin, requantize, ship_run, twin_checkpoint
from vision.crops import crop_tiles
from vision.names import NAMES
from vision.shipped import CLASSIFIER_WEIGHTS, MODELS, READER_WEIGHTS

SHARED = Path(__file__).resolve().parents[3] / "shared"

SATURATION_FREE = 64  # |int8 weight| at most: 255 * 64 * 2 fits the 16 bits ONNX Runtime sums pairs in on AVX2


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synth.generate(tmp_path_factory.mktemp("ds"), {"train": 0, "val": 2}, 0, Path("plain"), min_mp=0.3,
                          max_mp=0.4, progress=False).parent


def _run(path: Path, n_names: int, summary: dict) -> tuple[Path, object]:
    import torch

    from training.net import TileNet

    torch.manual_seed(0)
    net = TileNet(n_names).eval()
    path.mkdir()
    torch.save({"model": net.state_dict()}, path / "last.pt")
    (path / "summary.json").write_text(json.dumps(summary))
    return path, net


def test_calibration_crops_are_the_val_tiles_as_the_network_sees_them(hands: Path) -> None:
    lying, _, up = load_synth(hands, "val", 1, np.random.default_rng(0), size=32)
    crops = calibration_crops(hands, 32, turn_upright=False, n=5)
    assert crops.shape == (5, 32, 32, 3) and {c.tobytes() for c in crops} <= {c.tobytes() for c in lying}
    turned = {c.tobytes() for c in upright(lying, up)}
    assert {c.tobytes() for c in calibration_crops(hands, 32, turn_upright=True)} == turned  # all of them, upright
    with pytest.raises(ValueError, match="no tiles in .*to calibrate"):
        calibration_crops(hands.parent / "nowhere", 32, turn_upright=False)


@pytest.mark.parametrize("family", [None, "flower"])
def test_a_shipped_network_is_int8_and_names_as_the_float_one(tmp_path: Path, hands: Path, family: str | None) -> None:
    import onnx
    import onnxruntime as ort
    import torch

    names = reader_names(family) if family else NAMES
    summary = {"crop": 32, "data": f"{hands} + /elsewhere"} | ({"family": family} if family else {})
    run, net = _run(tmp_path / "run", len(names), summary)
    dest = ship_run(run, tmp_path / "shipped.onnx")  # calibrated on the run's first dataset
    model = onnx.load(str(dest))
    weights = {w.name: w.data_type for w in model.graph.initializer if len(w.dims) == 4}
    assert len(weights) == 7 and set(weights.values()) == {onnx.TensorProto.INT8}  # every convolution's
    assert _widest_weight(model) <= SATURATION_FREE
    session = ort.InferenceSession(str(dest), providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    outputs = [o.name for o in session.get_outputs()]
    if family:
        assert meta["names"] == ",".join(names) and outputs == ["tile", "up"]
    else:
        assert "names" not in meta and outputs == ["tile", "up", "look"]
    x = calibration_crops(hands, 32, turn_upright=family is not None)
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255
    got = session.run(None, {"crops": x})
    with torch.no_grad():
        want = [t.numpy() for t in net(torch.from_numpy(x))]
    for g, w in zip(got[:2], want, strict=True):  # names and up: the float network's, to int8's precision
        assert g.shape == w.shape and np.corrcoef(g.ravel(), w.ravel())[0, 1] > 0.99


def _widest_weight(model: object) -> int:
    from onnx import TensorProto, numpy_helper

    return max(int(np.abs(numpy_helper.to_array(w).astype(int)).max()) for w in model.graph.initializer
               if w.data_type == TensorProto.INT8)


def _names(path: Path, x: np.ndarray) -> np.ndarray:
    import onnxruntime as ort

    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"crops": x})[0].argmax(1)


@pytest.mark.parametrize("shipped", [CLASSIFIER_WEIGHTS, *READER_WEIGHTS], ids=lambda p: p.stem)
def test_a_shipped_network_names_real_photos_as_its_float_twin_on_this_cpu(tmp_path: Path, shipped: Path) -> None:
    """The 8-bit weights first shipped saturated ONNX Runtime's sums on a CPU without VNNI: the classifier named 0.80
    of the held-out real photos right there, its float twin 0.96 (``training/ship.py``)."""
    import onnx

    assert _widest_weight(onnx.load(str(shipped))) <= SATURATION_FREE
    photos = real_photos(SHARED / "real" / "camerash", holdout=True)[::3]
    x = np.concatenate([crop_tiles(img, np.array([[0.04, 0.03, 0.96, 0.97]]) * (img.shape[1::-1] * 2), 96)
                        for _, img in photos])
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255
    same = _names(shipped, x) == _names(float_twin(shipped, tmp_path / "twin.onnx"), x)
    assert len(x) >= 60 and same.mean() >= 0.97, same.mean()


def test_requantize_writes_a_shipped_network_as_ship_does_from_its_float_twin(tmp_path: Path, hands: Path) -> None:
    import onnx
    import onnxruntime as ort

    old = tmp_path / "old.onnx"
    old.write_bytes(READER_WEIGHTS[0].read_bytes())
    twin = float_twin(old, tmp_path / "twin.onnx")
    requantize(old, hands)
    meta = ort.InferenceSession(str(old), providers=["CPUExecutionProvider"]).get_modelmeta().custom_metadata_map
    assert meta["names"] == ",".join(reader_names("character"))
    assert _widest_weight(onnx.load(str(old))) <= SATURATION_FREE
    x = calibration_crops(hands, 96, turn_upright=True)
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255
    assert (_names(old, x) == _names(twin, x)).mean() >= 0.9


def test_a_twin_checkpoint_computes_the_float_twin_of_a_shipped_network(tmp_path: Path) -> None:
    import onnxruntime as ort
    import torch

    from training.net import TileNet

    state = torch.load(twin_checkpoint(READER_WEIGHTS[1], tmp_path / "twin.pt"), weights_only=False)
    assert state["frozen_norms"] is True
    net = TileNet(len(reader_names("flower")))
    net.load_state_dict(state["model"])
    x = np.random.default_rng(0).random((4, 3, 96, 96), np.float32)
    twin = ort.InferenceSession(str(float_twin(READER_WEIGHTS[1], tmp_path / "twin.onnx")),
                                providers=["CPUExecutionProvider"])
    with torch.no_grad():
        got = [t.numpy() for t in net.eval()(torch.from_numpy(x))]
    for g, w in zip(got, twin.run(None, {"crops": x}), strict=True):
        assert g == pytest.approx(w, abs=1e-4)


def test_the_shipped_weights_stay_under_20_mb() -> None:
    """The issue's budget for ``models/``: every network detection loads, and the finder's PyTorch weights."""
    from vision.shipped import (
        CAPTION_WEIGHTS,
        FACE_WEIGHTS,
        FINDER_WEIGHTS,
        REFINER_WEIGHTS,
        ROW_FINDER_WEIGHTS,
        SET_FINDER_WEIGHTS,
        SHAKEN_CLASSIFIER_WEIGHTS,
        SOFT_CLASSIFIER_WEIGHTS,
    )

    shipped = [FINDER_WEIGHTS, SET_FINDER_WEIGHTS, CLASSIFIER_WEIGHTS, *READER_WEIGHTS, CAPTION_WEIGHTS,
               SOFT_CLASSIFIER_WEIGHTS, SHAKEN_CLASSIFIER_WEIGHTS, FACE_WEIGHTS, ROW_FINDER_WEIGHTS, REFINER_WEIGHTS,
               MODELS / "tile_finder.pt"]
    assert sorted(p.name for p in shipped) == sorted(p.name for p in [*MODELS.glob("*.onnx"), *MODELS.glob("*.pt")])
    assert sum(p.stat().st_size for p in shipped) < 20e6
