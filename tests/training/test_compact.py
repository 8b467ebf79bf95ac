"""Float networks stored compact (``training/compact.py``): each weight's rows as float16 times a float32 scale, only
where that gives the same float32 weights bit for bit, so ONNX Runtime's outputs are the same bit for bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from training.cli import main
from training.compact import compact, factor, factor_rows, int8_rows
from vision.shipped import FINDER_WEIGHTS, ROW_FINDER_WEIGHTS, SET_FINDER_WEIGHTS


def folded(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Weights as a batch norm folded into a convolution leaves them: float16 rows times a float32 scale each."""
    half = rng.normal(0, 0.1, shape).astype(np.float16).astype(np.float32)
    scale = (rng.random(shape[0]) * 3 + 0.01).astype(np.float32)
    return half * scale.reshape((-1,) + (1,) * (len(shape) - 1))


def test_a_folded_row_is_found_again_bit_for_bit() -> None:
    rng = np.random.default_rng(0)
    weight = folded(rng, (64, 3, 3, 3))
    for row in weight.reshape(64, -1):
        s, h = factor(row)
        assert h.dtype == np.float16 and np.array_equal(h.astype(np.float32) * s, row)
    half, scale = factor_rows(weight)
    assert half.shape == weight.shape and scale.shape == (64, 1, 1, 1)
    assert np.array_equal(half.astype(np.float32) * scale, weight)


def test_rows_already_float16_keep_a_scale_of_one_and_others_have_no_factoring() -> None:
    rng = np.random.default_rng(1)
    exact = rng.normal(0, 1, 27).astype(np.float16).astype(np.float32)
    assert factor(exact)[0] == 1
    assert factor(rng.normal(0, 1, 27).astype(np.float32)) is None  # 24 significant bits: no float16 row gives them
    weight = folded(rng, (4, 9))
    weight[2, 5] = np.float32(np.pi)  # one value off the row's pattern: the whole weight stays float32
    assert factor_rows(weight) is None
    weight[2, 5] = np.inf
    assert factor_rows(weight) is None


def network(path: Path, folded_weight: np.ndarray, other: np.ndarray) -> Path:
    """A convolution with folded weights, then one with weights of full float32 precision."""
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["y"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["y"], ["r"]),
             helper.make_node("Conv", ["r", "w2"], ["z"])]
    inits = [numpy_helper.from_array(folded_weight, "w1"),
             numpy_helper.from_array(np.linspace(-1, 1, len(folded_weight), dtype=np.float32), "b1"),
             numpy_helper.from_array(other, "w2")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, len(other), 32, 32])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), str(path))
    return path


def run(path: Path, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_a_compact_network_gives_the_same_outputs_bit_for_bit_in_fewer_bytes(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    path = network(tmp_path / "net.onnx", folded(rng, (32, 3, 3, 3)),
                   rng.normal(0, 0.1, (8, 32, 1, 1)).astype(np.float32))
    x = rng.random((1, 3, 32, 32), dtype=np.float32)
    want = run(path, x)
    before, after = compact(path, tmp_path / "compact.onnx")
    assert after < before
    stored = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(tmp_path / "compact.onnx")).graph.initializer}
    assert stored["w1.half"].dtype == np.float16 and stored["w1.scale"].shape == (32, 1, 1, 1)
    assert "w1" not in stored and stored["w2"].dtype == np.float32  # the unfolded weight as it was
    assert np.array_equal(run(tmp_path / "compact.onnx", x), want)
    again = compact(tmp_path / "compact.onnx")  # compacting twice changes nothing
    assert again == (after, after)


def test_an_int8_network_holds_each_weight_within_half_a_step_of_its_row_in_a_quarter_of_the_bytes(
        tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    w1, w2 = rng.normal(0, 0.2, (32, 3, 3, 3)).astype(np.float32), rng.normal(0, 0.1, (8, 32, 1, 1)).astype(np.float32)
    w1[5] = 0  # a row of zeros keeps a scale of one
    path = network(tmp_path / "net.onnx", w1, w2)
    x = rng.random((1, 3, 32, 32), dtype=np.float32)
    want = run(path, x)
    before, after = compact(path, tmp_path / "int8.onnx", int8=True)
    assert after < before / 2.5
    stored = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(tmp_path / "int8.onnx")).graph.initializer}
    for name, w in (("w1", w1), ("w2", w2)):
        q, scale = stored[f"{name}.int8"], stored[f"{name}.scale"]
        assert q.dtype == np.int8 and np.abs(q).max() == 127 and scale.shape == (len(w), 1, 1, 1)
        assert np.all(np.abs(q * scale - w) <= scale / 2 * (1 + 1e-6))
    assert stored["w1.scale"][5] == 1 and not stored["w1.int8"][5].any()
    assert np.allclose(run(tmp_path / "int8.onnx", x), want, atol=0.05) and not np.array_equal(
        run(tmp_path / "int8.onnx", x), want)  # near, not the same numbers
    assert int8_rows(np.array([[1.0, np.nan]], np.float32)) is None


def test_the_compact_command_rewrites_in_place_and_names_a_missing_file(tmp_path: Path, capsys) -> None:
    rng = np.random.default_rng(3)
    path = network(tmp_path / "net.onnx", folded(rng, (16, 3, 3, 3)), folded(rng, (4, 16, 1, 1)))
    size = path.stat().st_size
    assert main(["compact", str(path)]) == 0
    assert path.stat().st_size < size and "the same weights bit for bit" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["compact", str(tmp_path / "none.onnx")])
    assert exc.value.code == 2
    assert "none.onnx: no such file" in capsys.readouterr().err


def test_the_shipped_finders_are_stored_compact() -> None:
    for path in (FINDER_WEIGHTS, SET_FINDER_WEIGHTS, ROW_FINDER_WEIGHTS):
        stored = [t for t in onnx.load(str(path)).graph.initializer if t.data_type == TensorProto.FLOAT]
        assert sum(numpy_helper.to_array(t).size for t in stored) < 60_000  # biases and scales; the weights float16
