"""Shipping a trained tile network: its run's checkpoint exported to ONNX as detection reads it today, then stored as
int8 (weights per output channel, activations by ranges seen on crops of a dataset's val split).

Why int8: ONNX Runtime runs the quantized network about three times faster on this machine's CPU (28 crops: 27.7 ->
9.0 ms), and on the true boxes it names the tiles as the float network does (held-out style 37 -> 34 mistakes of
1101, training styles 106 -> 106 of 8979, classifier and both readers quantized; ``models/README.md``).
Called by ``models/train.py ship`` and ``ship-reader``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
from classifier_train import export, load_synth
from reader_train import reader_names, upright
from synth import NAMES

from vision.crops import CROP

CALIBRATION_CROPS = 512
CALIBRATION_BATCH = 32


def calibration_crops(data: Path, size: int, turn_upright: bool, n: int = CALIBRATION_CROPS) -> np.ndarray:
    """Up to ``n`` crops (N, S, S, 3 uint8) of the tiles of ``data``'s val split, as the network is shown them: as they
    lie for the classifier, turned upright for a reader (``turn_upright``)."""
    try:
        x, _, up = load_synth(data, "val", 1, np.random.default_rng(0), limit=60, size=size)
    except ValueError as exc:  # no tile to concatenate
        msg = f"no tiles in {data}/layout/val to calibrate the int8 network on (pass another --calibration dataset)"
        raise ValueError(msg) from exc
    pick = np.sort(np.random.default_rng(1).permutation(len(x))[:n])
    return upright(x[pick], up[pick]) if turn_upright else x[pick]


def quantize(path: Path, crops: np.ndarray) -> Path:
    """The float ONNX network at ``path`` rewritten in place as int8 (QDQ, weights per output channel, unsigned
    activations whose ranges are the smallest and largest seen on ``crops``); its metadata (a reader's names) kept."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255

    class Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter(range(0, len(x), CALIBRATION_BATCH))

        def get_next(self) -> dict[str, np.ndarray] | None:
            i = next(self.batches, None)
            return None if i is None else {"crops": x[i:i + CALIBRATION_BATCH]}

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(path), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(path), Crops(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    return path


def ship_run(run: Path, dest: Path, calibration: Path | None = None) -> Path:
    """A finished run's network (a classifier's, or a reader's: its ``summary.json`` says which) from ``run/last.pt``,
    exported to ``dest`` as ``export`` writes it today and quantized on crops of ``calibration`` (default: the first
    dataset the run trained on)."""
    import torch

    from vision.classifier_net import TileNet

    summary = json.loads((run / "summary.json").read_text())
    family = summary.get("family")
    names = reader_names(family) if family else None
    size = summary.get("crop", CROP)
    net = TileNet(len(names) if names else len(NAMES))
    net.load_state_dict(torch.load(run / "last.pt", map_location="cpu", weights_only=False)["model"])
    data = calibration or Path(summary["data"].split(" + ")[0])
    crops = calibration_crops(data, size, turn_upright=family is not None)
    with tempfile.TemporaryDirectory() as tmp:
        float_model = export(net, Path(tmp) / dest.name, size, names, look=names is None)
        quantize(float_model, crops)
        dest.write_bytes(float_model.read_bytes())
    return dest
