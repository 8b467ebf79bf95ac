"""The caption reader's build (``training/caption.py``): a recogniser of the OCR wheel's shape, all its characters kept,
its weights stored as float16, its largest as int8, its convolutions but the first int8 where calibrated
(``training/quantize.py``)."""

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
    from onnx import TensorProto, helper, numpy_helper

    chars = CHARS
    nodes = [helper.make_node("Constant", [], [n], value=numpy_helper.from_array(v, n))
             for n, v in zip(caption.HEAD, (w, b), strict=True)]
    nodes += [helper.make_node("MatMul", ["x", caption.HEAD[0]], ["m"]),
              helper.make_node("Add", ["m", caption.HEAD[1]], ["a"]), helper.make_node("Softmax", ["a"], ["y"], axis=2)]
    graph = helper.make_graph(nodes, "rec", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", "t", 5])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", "t", len(chars) + 2])])
    return _zipped(tmp_path, helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=9))


def _zipped(tmp_path: Path, model: object) -> Path:
    """A stand-in wheel holding ``model`` where the OCR wheel holds its recogniser, its characters (``CHARS``) in its
    metadata as the source lists them."""
    import onnx
    from onnx import helper

    helper.set_model_props(model, {"character": "\n".join(CHARS)})
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

    model = onnx.load(paths.MODELS / "caption_reader.onnx")
    ops = Counter(n.op_type for n in model.graph.node)
    assert ops["HardSigmoid"] == 2 + 28 and ops["Clip"] == 0  # its two squeeze-and-excites', and 28 hard-swishes
    assert ops["Add"] == 107 - 28 - 28 - 12  # each hard-swish's shift, and the folded affines' shifts
    assert _int8_convs(model) == [False] * caption.FLOAT_CONVS + [True] * (38 - caption.FLOAT_CONVS)


def _int8_convs(model: object) -> list[bool]:
    """Whether each convolution of ``model``, in order, takes its weights int8 (through a DequantizeLinear)."""
    from onnx import TensorProto

    int8 = {i.name for i in model.graph.initializer if i.data_type == TensorProto.INT8}
    dequantized = {n.output[0] for n in model.graph.node if n.op_type == "DequantizeLinear" and n.input[0] in int8}
    return [n.input[1] in dequantized for n in model.graph.node if n.op_type == "Conv"]


def _conv_wheel(tmp_path: Path, rng: np.random.Generator) -> tuple[Path, object]:
    """A stand-in of the OCR wheel whose recogniser reads lines (n, 3, 4, T) through two convolutions (the first
    down the line's height), a mean, then the last layer and a softmax, at opset 12 as the source; and a function
    of the float network, as numpy computes it."""
    from onnx import TensorProto, helper, numpy_helper

    c1 = rng.normal(size=(6, 3, 4, 1)).astype(np.float32)
    c2 = rng.normal(size=(6, 6, 1, 1)).astype(np.float32) / 3
    w = rng.normal(size=(6, len(CHARS) + 2)).astype(np.float32)
    b = rng.normal(size=len(CHARS) + 2).astype(np.float32)
    weights = {"c1": c1, "c2": c2, caption.HEAD[0]: w, caption.HEAD[1]: b}
    nodes = [helper.make_node("Constant", [], [n], value=numpy_helper.from_array(v, n)) for n, v in weights.items()]
    nodes += [helper.make_node("Conv", ["x", "c1"], ["h1"], name="conv1"), helper.make_node("Relu", ["h1"], ["r1"]),
              helper.make_node("Conv", ["r1", "c2"], ["h2"], name="conv2"),
              helper.make_node("ReduceMean", ["h2"], ["m"], axes=[2], keepdims=0),
              helper.make_node("Transpose", ["m"], ["t"], perm=[0, 2, 1]),
              helper.make_node("MatMul", ["t", caption.HEAD[0]], ["l"]),
              helper.make_node("Add", ["l", caption.HEAD[1]], ["a"]), helper.make_node("Softmax", ["a"], ["y"], axis=2)]
    graph = helper.make_graph(nodes, "rec", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, 4, "t"])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", "t", len(CHARS) + 2])])
    wheel = _zipped(tmp_path, helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)], ir_version=8))

    def run(x: np.ndarray) -> np.ndarray:
        r1 = np.maximum(np.einsum("nchw,och->now", x, c1[..., 0]), 0)
        logits = np.einsum("now,po->nwp", r1, c2[:, :, 0, 0]) @ w + b
        e = np.exp(logits - logits.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    return wheel, run


def test_a_calibrated_build_makes_all_but_the_first_convolutions_int8(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Calibrated on the runs the float reader is given to read, the build keeps its first ``FLOAT_CONVS``
    convolutions float and makes the others int8, and reads as the float recogniser within int8's rounding."""
    import onnx
    import onnxruntime as ort

    rng = np.random.default_rng(2)
    wheel, float_run = _conv_wheel(tmp_path, rng)
    runs = [rng.uniform(-1, 1, size=(2, 3, 4, 9)).astype(np.float32) for _ in range(8)]
    asked = []

    def calibrate(reader: Path) -> list[np.ndarray]:
        session = ort.InferenceSession(str(reader), providers=["CPUExecutionProvider"])
        CaptionReader(session, reader)  # the float reader, as the detector loads it
        asked.append(session.run(None, {"x": runs[0]})[0])
        return runs

    monkeypatch.setattr(caption, "FLOAT_CONVS", 1)
    out = caption.build(wheel, tmp_path / "caption_reader.onnx", calibrate=calibrate)
    model = onnx.load(out)
    assert _int8_convs(model) == [False, True]
    assert [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")] == [13]
    assert len(asked) == 1 and asked[0] == pytest.approx(float_run(runs[0]), abs=2e-3)  # float32, not yet stored
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    assert session.get_modelmeta().custom_metadata_map["characters"] == "".join(CHARS) + " "
    x = rng.uniform(-1, 1, size=(3, 3, 4, 9)).astype(np.float32)
    got, want = session.run(None, {"x": x})[0], float_run(x)
    assert np.abs(got - want).max() < 0.05 and (got.argmax(-1) == want.argmax(-1)).mean() >= 0.9


def test_a_build_with_no_runs_to_calibrate_on_is_a_clear_error(tmp_path: Path) -> None:
    wheel, _ = _conv_wheel(tmp_path, np.random.default_rng(3))
    with pytest.raises(ValueError, match="no calibration runs"):
        caption.build(wheel, tmp_path / "caption_reader.onnx", calibrate=lambda _: [])


def test_the_runs_calibrated_on_are_those_the_detector_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """``generated_runs``: the runs of lines the shipped detector reads with the reader given, on photos it
    generates, every ``CALIBRATION_EVERY``th: lines of the recogniser's height, scaled to -1 to 1."""
    from training import paths

    photos, reader = {"phone": 1, "front": 1}, paths.MODELS / "caption_reader.onnx"
    monkeypatch.setattr(caption, "CALIBRATION_EVERY", 1)
    every = caption.generated_runs(reader, photos, 5, Path("plain"))
    monkeypatch.setattr(caption, "CALIBRATION_EVERY", 3)
    some = caption.generated_runs(reader, photos, 5, Path("plain"))
    assert len(every) >= 3 and len(some) == len(every[::3])
    assert all(np.array_equal(a, b) for a, b in zip(some, every[::3], strict=True))
    assert all(x.ndim == 4 and x.shape[1:3] == (3, 48) and 1 <= len(x) <= 2 and np.abs(x).max() <= 1 for x in every)
