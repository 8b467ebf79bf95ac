"""A float ONNX network's convolutions made int8 (ONNX Runtime's static quantization, QDQ form): each convolution's
weights int8, one scale per output channel, its input and output uint8 at the scales the calibration runs show
(their least and greatest values), all but its first ``float_convs`` convolutions, which stay float. ONNX Runtime
runs each such convolution as one int8 convolution (QLinearConv) when it loads the model.

The caption reader (``training/caption.py``) so made reads a run of two lines in 0.65 of the time. Its first
convolutions are kept float because they see the line's pixels: all 38 int8 lost the held-out picture flowers'
characters (0.8705 of them read right on their true boxes -> 0.8394), the first 12 float kept them (0.8756), and
keeping fewer float saved no time (``docs/photo.md``, "The int8 caption reader, built")."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

OPSET = 13  # the least opset with a scale per channel (DequantizeLinear's axis)


def quantized_convs(model: object, runs: Sequence[np.ndarray], float_convs: int) -> object:
    """``model`` (an ``onnx.ModelProto`` of one input, float) with its convolutions int8 but the first
    ``float_convs`` (in the order of its graph, once ONNX Runtime's basic optimizations have folded its batch norms
    into them), calibrated on ``runs``, its inputs; its opset raised to ``OPSET`` where lower."""
    import onnx
    import onnxruntime as ort
    from onnx import version_converter
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    if not runs:
        msg = "no calibration runs: the scales of int8 activations are measured on inputs of the network"
        raise ValueError(msg)
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if opset < OPSET:
        model = version_converter.convert_version(model, OPSET)
    with tempfile.TemporaryDirectory() as tmp:
        source, basic, out = (str(Path(tmp) / name) for name in ("float.onnx", "basic.onnx", "int8.onnx"))
        onnx.save(model, source)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = basic
        ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
        convs = [node.name for node in onnx.load(basic).graph.node if node.op_type == "Conv"]
        quantize_static(basic, out, Runs(model.graph.input[0].name, runs), quant_format=QuantFormat.QDQ,
                        per_channel=True, op_types_to_quantize=["Conv"], activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, nodes_to_exclude=convs[:float_convs])
        return onnx.load(out)


class Runs:
    """Calibration inputs, each a batch of the input ``name``, as ONNX Runtime's quantizer asks for them (a
    ``CalibrationDataReader``)."""

    def __init__(self, name: str, runs: Sequence[np.ndarray]) -> None:
        self._feeds = iter([{name: np.asarray(x, np.float32)} for x in runs])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._feeds, None)
