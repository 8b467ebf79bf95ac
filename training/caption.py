"""Build ``models/caption_reader.onnx``, the flowers' caption reader (``vision/captions.py``), from PaddleOCR's
PP-OCRv4 mobile text recogniser (Apache-2.0) as the ``rapidocr-onnxruntime`` wheel ships it: all its characters kept
(the blank, then 6624: Chinese, the digits, the Latin letters, symbols, the space), since a flower's English caption
is read among the Latin letters and its Chinese character (梅蘭菊竹, 春夏秋冬) among every character the recogniser
knows, so that a character it takes for another is no flower; its weights stored as float16, and its four largest
(the last layer and three of 480 x 480) as int8, one scale per output, each turned back to float32 when ONNX Runtime
loads it (4.0 MB instead of 10.9; float16 alone 5.5 MB: ``docs/photo.md``, "The seat reader"). Its steps are folded
into fewer first (``training/folds.py``: its hard-swishes and learnable affine blocks; ``--unfolded`` keeps them).

    pip download rapidocr-onnxruntime==1.4.4 --no-deps -d /tmp/ocr
    python -m training caption /tmp/ocr/rapidocr_onnxruntime-1.4.4-py3-none-any.whl
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

from training import paths
from training.folds import folded

SOURCE = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
HEAD = ("linear_85.w_0", "linear_85.b_0")  # the last layer's weights and bias: one column per character
INT8_LEAST = 200_000  # weights of this many values or more are stored as int8 (the last layer's 795,000, three 230,400)


def build(wheel: Path, out: Path = paths.MODELS / "caption_reader.onnx", folds: bool = True) -> Path:
    """The caption reader from the recogniser in ``wheel``, written to ``out``; its steps folded into fewer where
    ``folds`` (``training/folds.py``: the same function, in 0.8 of the time)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    with zipfile.ZipFile(wheel) as z:
        model = onnx.load(io.BytesIO(z.read(SOURCE)))
    if folds:
        model, _ = folded(model)
    meta = {p.key: p.value for p in model.metadata_props}
    chars = "".join([*meta["character"].splitlines(), " "])  # the outputs after the blank, the space last
    nodes = []
    for node in model.graph.node:
        value = numpy_helper.to_array(node.attribute[0].t) if node.op_type == "Constant" else None
        if value is None or value.dtype != np.float32 or value.size <= 256 and node.output[0] not in HEAD:
            nodes.append(node)
            continue
        name = node.output[0]
        if value.size >= INT8_LEAST:
            nodes += _int8_stored(value, name)
            continue
        half = numpy_helper.from_array(value.astype(np.float16), f"{name}_f16")
        nodes += [helper.make_node("Constant", [], [half.name], value=half),
                  helper.make_node("Cast", [half.name], [name], to=TensorProto.FLOAT)]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    del model.metadata_props[:]
    helper.set_model_props(model, {"characters": chars, "source": f"{wheel.name}:{SOURCE}"})
    onnx.checker.check_model(model)
    onnx.save(model, out)
    return out


def _int8_stored(value: np.ndarray, name: str) -> list:
    """The nodes that give ``name`` the float32 weights ``value`` stored as int8, one scale per output (a linear
    layer's (in, out) columns, a convolution's first axis): the int8 values cast to float32 and scaled, which ONNX
    Runtime folds into a constant as it loads the model (the model's opset, 12, has no per-axis dequantizing)."""
    from onnx import TensorProto, helper, numpy_helper

    axis = 1 if value.ndim == 2 else 0
    shape = [-1 if k == axis else 1 for k in range(value.ndim)]
    scale = np.abs(value).max(axis=tuple(k for k in range(value.ndim) if k != axis)) / 127.0
    scale = np.where(scale > 0, scale, 1.0).astype(np.float32).reshape(shape)
    q = np.clip(np.round(value / scale), -127, 127).astype(np.int8)
    return [helper.make_node("Constant", [], [f"{name}_q8"], value=numpy_helper.from_array(q, f"{name}_q8")),
            helper.make_node("Constant", [], [f"{name}_scale"], value=numpy_helper.from_array(scale, f"{name}_scale")),
            helper.make_node("Cast", [f"{name}_q8"], [f"{name}_f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [f"{name}_f", f"{name}_scale"], [name])]
