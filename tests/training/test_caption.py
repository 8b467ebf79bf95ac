"""The caption reader's build (``training/caption.py``): a recogniser of the OCR wheel's shape, all its characters kept,
its weights stored as float16, its largest as int8."""

from __future__ import annotations

import io
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from training import caption
from vision.captions import LATIN, CaptionReader

CHARS = ["一", *LATIN[::-1], "萬", "梅"]  # the source's order is its own


def _wheel(tmp_path: Path, w: np.ndarray, b: np.ndarray) -> Path:
    """A stand-in of the OCR wheel whose recogniser is one layer (a Constant weight and bias, one column per
    character of its metadata, then the space) and a softmax."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    chars = CHARS
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
    return wheel


def test_the_build_keeps_every_character_in_half_precision(tmp_path: Path) -> None:
    """The stand-in recogniser becomes a caption reader with the same columns, named in its metadata, whose captions
    are read among the Latin letters and digits alone."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto

    chars = CHARS
    rng = np.random.default_rng(0)
    w = rng.normal(size=(5, len(chars) + 2)).astype(np.float32)
    b = rng.normal(size=len(chars) + 2).astype(np.float32)
    out = caption.build(_wheel(tmp_path, w, b), tmp_path / "caption_reader.onnx")
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


def test_the_largest_weights_are_stored_as_int8_one_scale_per_character(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Weights of ``INT8_LEAST`` values or more are stored as int8, each column (a character) scaled by its own
    largest weight, and read as the float ones within the rounding of 1 in 254 of that weight."""
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    rng = np.random.default_rng(1)
    w = rng.normal(size=(5, len(CHARS) + 2)).astype(np.float32)
    w[:, 3] *= 100  # a column of large weights: its scale is its own, the others' stay fine
    b = rng.normal(size=len(CHARS) + 2).astype(np.float32)
    monkeypatch.setattr(caption, "INT8_LEAST", w.size)  # the weights, not the bias
    out = caption.build(_wheel(tmp_path, w, b), tmp_path / "caption_reader.onnx")
    consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in onnx.load(out).graph.node
              if n.op_type == "Constant"}
    q, scale = consts[f"{caption.HEAD[0]}_q8"], consts[f"{caption.HEAD[0]}_scale"]
    assert q.dtype == np.int8 and q.shape == w.shape and scale.shape == (1, w.shape[1])
    assert np.abs(q).max(0).tolist() == [127] * w.shape[1]  # each column's largest weight is its 127
    assert consts[f"{caption.HEAD[1]}_f16"].dtype == np.float16  # the bias: half precision, as before
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    x = rng.normal(size=(1, 3, 5)).astype(np.float32)
    np.testing.assert_allclose(q * scale, w, atol=float(np.abs(w).max(0).max()) / 254 + 1e-6)
    logits = x @ (q * scale) + b.astype(np.float16).astype(np.float32)
    want = np.exp(logits - logits.max(-1, keepdims=True))
    assert session.run(None, {"x": x})[0] == pytest.approx(want / want.sum(-1, keepdims=True), abs=1e-5)


def test_the_shipped_caption_reader_is_built_folded() -> None:
    """``models/caption_reader.onnx`` is the build of today: its hard-swishes as x * HardSigmoid(x), its learnable
    affine blocks folded into the convolutions beside them (``training/folds.py``)."""
    import onnx

    from training import paths

    ops = Counter(n.op_type for n in onnx.load(paths.MODELS / "caption_reader.onnx").graph.node)
    assert ops["HardSigmoid"] == 2 + 28 and ops["Clip"] == 0  # its two squeeze-and-excites', and 28 hard-swishes
    assert ops["Add"] == 107 - 28 - 28 - 12  # each hard-swish's shift, and the folded affines' shifts
