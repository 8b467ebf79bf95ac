"""The caption reader's build (``training/caption.py``): a recogniser of the OCR wheel's shape, all its characters kept,
its weights stored as float16."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from training import caption
from vision.captions import LATIN, CaptionReader


def test_the_build_keeps_every_character_in_half_precision(tmp_path: Path) -> None:
    """A stand-in recogniser of the wheel's shape (its last layer a Constant weight and bias, one column per
    character of its metadata, then the space) becomes a caption reader with the same columns, named in its
    metadata, whose captions are read among the Latin letters and digits alone."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    chars = ["一", *LATIN[::-1], "萬", "梅"]  # the source's order is its own
    rng = np.random.default_rng(0)
    w = rng.normal(size=(5, len(chars) + 2)).astype(np.float32)
    b = rng.normal(size=len(chars) + 2).astype(np.float32)
    nodes = [helper.make_node("Constant", [], [n], value=numpy_helper.from_array(v, n))
             for n, v in zip(caption.HEAD, (w, b), strict=True)]
    nodes += [helper.make_node("MatMul", ["x", caption.HEAD[0]], ["m"]),
              helper.make_node("Add", ["m", caption.HEAD[1]], ["a"]), helper.make_node("Softmax", ["a"], ["y"], axis=2)]
    graph = helper.make_graph(nodes, "rec", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", "t", 5])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", "t", len(chars) + 2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=9)
    helper.set_model_props(model, {"character": "\n".join(chars)})
    wheel = tmp_path / "rapidocr.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        buf = io.BytesIO()
        onnx.save(model, buf)
        z.writestr(caption.SOURCE, buf.getvalue())
    out = caption.build(wheel, tmp_path / "caption_reader.onnx")
    built = onnx.load(out)
    halves = [n for n in built.graph.node
              if n.op_type == "Constant" and n.attribute[0].t.data_type == TensorProto.FLOAT16]
    assert len(halves) == 2 and "Cast" in {n.op_type for n in built.graph.node}
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    assert session.get_modelmeta().custom_metadata_map["characters"] == "".join(chars) + " "
    x = rng.normal(size=(1, 3, 5)).astype(np.float32)
    logits = x @ w + b  # the source's: blank, its characters, then the space
    want = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    assert session.run(None, {"x": x})[0] == pytest.approx(want, abs=2e-3)  # float16 weights
    reader = CaptionReader(session, out)
    assert reader._latin.tolist() == [0] + [1 + chars.index(c) for c in sorted(LATIN, key=chars.index)]
    assert reader.flowers(np.zeros((0, 128, 128, 3), np.uint8)).flower.tolist() == []
