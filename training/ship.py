"""Shipping a trained tile network: its run's checkpoint exported to ONNX as detection reads it today, then stored as
int8 (weights per output channel, activations by ranges seen on crops of a dataset's val split).

Why int8: ONNX Runtime runs the quantized network about three times faster on this machine's CPU (28 crops: 27.7 ->
9.0 ms), and on the true boxes it names the tiles as the float network does (held-out style 37 -> 34 mistakes of
1101, training styles 106 -> 106 of 8979, classifier and both readers quantized; ``models/README.md``).

Why 7-bit weights (``reduce_range``): on an x86 CPU without VNNI (AVX2 alone, as an AMD EPYC of this workplace) ONNX
Runtime multiplies unsigned activations by signed weights with an instruction that adds pairs of products in 16 bits
and saturates. The 8-bit classifier shipped first named 0.80 of the held-out real photos there, against 0.96 on the
CPU it was measured on (with VNNI) and 0.96 for its float twin on both. Weights of 7 bits cannot saturate: the same
names on either CPU, as fast. ``requantize`` rewrites a shipped network that way from its float twin
(``float_twin``) when its run is gone. Called by ``python -m training ship``, ``ship-reader`` and ``requantize``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np

from training.classifier import export, load_synth
from training.reader import reader_names, upright
from vision.crops import CROP
from vision.names import NAMES

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
    """The float ONNX network at ``path`` rewritten in place as int8 (QDQ, 7-bit weights per output channel, unsigned
    activations whose ranges are the smallest and largest seen on ``crops``); its metadata (a reader's names) kept."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from training.quantize import Runs

    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255
    batches = Runs("crops", [x[i:i + CALIBRATION_BATCH] for i in range(0, len(x), CALIBRATION_BATCH)])
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(path), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(path), batches, quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, reduce_range=True)
    return path


def float_twin(src: Path, dest: Path) -> Path:
    """The float network an int8 (QDQ) one at ``src`` computes, written to ``dest``: each weight and bias dequantized,
    each activation's quantize-dequantize pair dropped, and where that pair clipped at zero (a ReLU the quantizer
    folded into it: an unsigned zero point of 0) a ReLU put back. Its metadata kept."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(src))
    graph = model.graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    nodes, weights, through = [], {}, {}  # through: a dropped node's output -> the tensor that now stands for it
    for node in graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in init:
            q, scale = init[node.input[0]].astype(np.float32), init[node.input[1]].astype(np.float32)
            zero = init[node.input[2]].astype(np.float32) if len(node.input) > 2 else np.zeros_like(scale)
            if scale.ndim == 1:  # per channel: along the node's axis
                axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
                shape = [1] * q.ndim
                shape[axis] = -1
                scale, zero = scale.reshape(shape), zero.reshape(shape)
            weights[node.output[0]] = (q - zero) * scale
        elif node.op_type == "QuantizeLinear" and _clips_at_zero(init.get(node.input[-1])):
            nodes.append(helper.make_node("Relu", [node.input[0]], [f"{node.output[0]}_relu"]))
            through[node.output[0]] = f"{node.output[0]}_relu"
        elif node.op_type in ("QuantizeLinear", "DequantizeLinear"):
            through[node.output[0]] = node.input[0]
        else:
            nodes.append(node)

    def source(name: str) -> str:
        while name in through:
            name = through[name]
        return name

    outputs = {source(o.name): o.name for o in graph.output}  # the graph's outputs keep their names
    for node in nodes:
        node.input[:] = [outputs.get(source(n), source(n)) for n in node.input]
        node.output[:] = [outputs.get(n, n) for n in node.output]
    used = {n for node in nodes for n in node.input}
    kept = [i for i in graph.initializer if i.name in used and i.name not in weights]
    del graph.node[:], graph.initializer[:]
    graph.node.extend(nodes)
    graph.initializer.extend(kept + [numpy_helper.from_array(w, n) for n, w in weights.items() if n in used])
    onnx.checker.check_model(model)
    onnx.save(model, str(dest))
    return dest


def twin_checkpoint(shipped: Path, dest: Path) -> Path:
    """A training checkpoint (``{"model": state_dict}``, as a run's ``last.pt``, to start a run from with ``--init``)
    of the float twin of a shipped int8 network, for when its run is gone: each convolution's weights and folded bias
    (its batch norm then passes the bias on as it is, and stays fixed in training: ``frozen_norms``), the three
    linear layers as they are."""
    import onnx
    import torch
    from onnx import numpy_helper

    from training.net import TileNet

    with tempfile.TemporaryDirectory() as tmp:
        graph = onnx.load(str(float_twin(shipped, Path(tmp) / shipped.name))).graph
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    linear = {"tile": "cls", "up": "orient"}
    gemms = {linear.get(n.output[0], "fc"): n for n in graph.node if n.op_type == "Gemm"}
    net = TileNet(init[gemms["cls"].input[1]].shape[0])
    state = net.state_dict()
    for i, conv in enumerate(convs):
        w, b = init[conv.input[1]], init[conv.input[2]]
        bn = net.features[i][1]
        state |= {f"features.{i}.0.weight": w, f"features.{i}.1.weight": torch.ones_like(b),
                  f"features.{i}.1.bias": b, f"features.{i}.1.running_mean": torch.zeros_like(b),
                  f"features.{i}.1.running_var": torch.full_like(b, 1.0 - bn.eps)}
    for name, gemm in gemms.items():
        state |= {f"{name}.weight": init[gemm.input[1]], f"{name}.bias": init[gemm.input[2]]}
    net.load_state_dict(state)
    torch.save({"model": net.state_dict(), "frozen_norms": True}, dest)
    return dest


def _clips_at_zero(zero_point: np.ndarray | None) -> bool:
    return zero_point is not None and zero_point.dtype == np.uint8 and not zero_point.any()


def requantize(shipped: Path, calibration: Path) -> Path:
    """A shipped int8 network rewritten as ``quantize`` writes it today, from its float twin, calibrated on the val
    crops of ``calibration`` (upright for a reader: a model whose metadata names its tiles)."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(shipped), providers=["CPUExecutionProvider"])
    size = session.get_inputs()[0].shape[-1]
    reader = "names" in session.get_modelmeta().custom_metadata_map
    with tempfile.TemporaryDirectory() as tmp:
        twin = float_twin(shipped, Path(tmp) / shipped.name)
        quantize(twin, calibration_crops(calibration, size, turn_upright=reader))
        shipped.write_bytes(twin.read_bytes())
    return shipped


def ship_run(run: Path, dest: Path, calibration: Path | None = None) -> Path:
    """A finished run's network (a classifier's, or a reader's: its ``summary.json`` says which) from ``run/last.pt``,
    exported to ``dest`` as ``export`` writes it today and quantized on crops of ``calibration`` (default: the first
    dataset the run trained on)."""
    import torch

    from training.net import TileNet

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
