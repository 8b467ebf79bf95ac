"""The caption reader's graph folds (``training/folds.py``): fewer steps, the same function."""

from __future__ import annotations

import numpy as np
import pytest

from training.folds import folded


def _const(name: str, value: np.ndarray | float) -> object:
    from onnx import helper, numpy_helper

    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(value, np.float32), name))


def _model(nodes: list, channels: int = 4) -> object:
    from onnx import TensorProto, helper

    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 7])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, 6, 7])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)], ir_version=8)


def _affine(x: str, a: float, b: float, out: str) -> list:
    """``out = x * a + b``, as a PaddlePaddle export spells a learnable affine block."""
    from onnx import helper

    return [_const(f"{out}_a", a), helper.make_node("Mul", [x, f"{out}_a"], [f"{out}_m"]),
            _const(f"{out}_b", b), helper.make_node("Add", [f"{out}_m", f"{out}_b"], [out])]


def _hard_swish(x: str, out: str) -> list:
    """``out = x * clip(x + 3, 0, 6) / 6``, in the export's four steps."""
    from onnx import helper

    return [_const(f"{out}_3", [3.0]), helper.make_node("Add", [x, f"{out}_3"], [f"{out}_s"]),
            _const(f"{out}_lo", 0.0), _const(f"{out}_hi", 6.0),
            helper.make_node("Clip", [f"{out}_s", f"{out}_lo", f"{out}_hi"], [f"{out}_c"]),
            helper.make_node("Mul", [x, f"{out}_c"], [f"{out}_t"]), _const(f"{out}_6", [6.0]),
            helper.make_node("Div", [f"{out}_t", f"{out}_6"], [out])]


def _run(model: object, x: np.ndarray) -> np.ndarray:
    import onnxruntime as ort

    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def _ops(model: object) -> list[str]:
    return [n.op_type for n in model.graph.node if n.op_type != "Constant"]


def test_a_block_of_conv_affine_hard_swish_affine_conv_folds_to_its_convolutions_and_a_hard_sigmoid() -> None:
    """conv (no bias) -> x * a + b -> hard-swish -> x * a + b -> 1 x 1 conv (a bias): the affines go into the two
    convolutions, the hard-swish becomes x * HardSigmoid(x); the outputs are the same."""
    from onnx import helper

    rng = np.random.default_rng(0)
    nodes = [_const("w1", rng.normal(size=(4, 3, 3, 3))),
             helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]),
             *_affine("c1", 1.7, -0.4, "l1"), *_hard_swish("l1", "h1"), *_affine("h1", 0.6, 0.9, "l2"),
             _const("w2", rng.normal(size=(4, 4, 1, 1))), _const("b2", rng.normal(size=4)),
             helper.make_node("Conv", ["l2", "w2", "b2"], ["y"])]
    x = rng.normal(size=(1, 3, 6, 7)).astype(np.float32) * 3
    want = _run(_model(nodes), x)
    model, counts = folded(_model(nodes))
    assert counts == {"hard_swish": 1, "affine_after_conv": 1, "affine_before_conv": 1}
    assert _ops(model) == ["Conv", "HardSigmoid", "Mul", "Conv"]
    assert _run(model, x) == pytest.approx(want, rel=1e-5, abs=1e-5)


def test_an_affine_before_a_padded_convolution_stays() -> None:
    """Before a 3 x 3 convolution padded with zeros the shift is not folded (the padding is not shifted); nor where
    the convolution's output is read elsewhere too, nor a clip that is no hard-swish's."""
    from onnx import helper

    rng = np.random.default_rng(1)
    nodes = [*_affine("x", 2.0, 0.5, "l1"), _const("w", rng.normal(size=(4, 3, 3, 3))),
             helper.make_node("Conv", ["l1", "w"], ["c"], pads=[1, 1, 1, 1]),
             *_affine("c", 1.5, 0.1, "l2"), helper.make_node("Add", ["l2", "c"], ["s"]),  # c read twice
             _const("lo", 0.0), _const("hi", 5.0), helper.make_node("Clip", ["s", "lo", "hi"], ["y"])]
    model, counts = folded(_model(nodes))
    assert counts == {"hard_swish": 0, "affine_after_conv": 0, "affine_before_conv": 0}
    assert _ops(model) == ["Mul", "Add", "Conv", "Mul", "Add", "Add", "Clip"]
