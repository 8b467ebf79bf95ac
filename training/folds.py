"""Rewrites of an exported network's ONNX graph that compute the same function in fewer steps, which ONNX Runtime
does not make itself (its own fusions leave a PaddlePaddle export's scalar multiplies and its spelt-out hard-swish
alone): the caption reader's build applies them (``training/caption.py``; ``docs/photo.md``, "The caption reader's
steps").

- ``x * clip(x + 3, 0, 6) / 6`` (a hard-swish, four steps) is ``x * HardSigmoid(x)`` (two);
- a convolution whose output alone is multiplied by a scalar and shifted by another (a learnable affine block
  after it) is the convolution with its weights and bias so scaled and shifted;
- a scalar multiply and shift whose output alone feeds a 1 x 1 convolution without padding is folded into that
  convolution's weights and bias (before a padded convolution it is not: the padding's zeros are not shifted).

The weights are the graph's ``Constant`` nodes (as PaddlePaddle exports them), each used by one node; a fold whose
constants are shared, or not scalars, is not made.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

HARD_SWISH = (3.0, 0.0, 6.0, 6.0)  # x * clip(x + 3, 0, 6) / 6: the shift, the clip's bounds, the divisor


class _Graph:
    """A graph's nodes, each value's producer and consumers, and its Constant nodes' values (float32)."""

    def __init__(self, graph: object) -> None:
        from onnx import numpy_helper

        self.graph = graph
        self.producer = {out: node for node in graph.node for out in node.output}
        self.users: dict[str, list] = defaultdict(list)
        for node in graph.node:
            for name in node.input:
                self.users[name].append(node)
        self.biases: list = []  # Constant nodes made for convolutions that had no bias
        self._array = numpy_helper.to_array

    def const(self, name: str) -> np.ndarray | None:
        """The value of the Constant node giving ``name``, used by one node alone (None: not so)."""
        node = self.producer.get(name)
        if node is None or node.op_type != "Constant" or len(self.users[name]) != 1:
            return None
        return self._array(node.attribute[0].t).astype(np.float32)

    def scalar(self, name: str) -> float | None:
        value = self.const(name)
        return float(value.reshape(-1)[0]) if value is not None and value.size == 1 else None

    def only_user(self, name: str, op: str) -> object | None:
        users = self.users[name]
        return users[0] if len(users) == 1 and users[0].op_type == op else None

    def affine(self, mul: object) -> tuple[str, float, float, object] | None:
        """``mul`` as the first step of ``x * a + b`` (a Mul by a scalar whose output alone an Add of a scalar
        takes): (x, a, b, the Add); None where it is not."""
        if mul.op_type != "Mul":
            return None
        scales = [(k, self.scalar(name)) for k, name in enumerate(mul.input)]
        found = [(k, a) for k, a in scales if a is not None]
        add = self.only_user(mul.output[0], "Add")
        if len(found) != 1 or add is None:
            return None
        shifts = [self.scalar(name) for name in add.input if name != mul.output[0]]
        if len(shifts) != 1 or shifts[0] is None:
            return None
        return mul.input[1 - found[0][0]], found[0][1], shifts[0], add

    def set_const(self, name: str, value: np.ndarray) -> None:
        from onnx import numpy_helper

        node = self.producer[name]
        node.attribute[0].t.CopyFrom(numpy_helper.from_array(value.astype(np.float32), name))


def folded(model: object) -> tuple[object, dict[str, int]]:
    """``model`` (an ONNX ModelProto, changed in place) with the folds made, and how many of each."""
    from onnx import helper

    g = _Graph(model.graph)
    drop: set[int] = set()
    added: dict[int, list] = {}
    counts = {"hard_swish": 0, "affine_after_conv": 0, "affine_before_conv": 0}
    for node in model.graph.node:
        if id(node) in drop:
            continue
        if node.op_type == "Clip" and (swish := _hard_swish(g, node)) is not None:
            x, steps = swish
            gate, (shift, _, _, divisor) = f"{node.output[0]}_hard_sigmoid", HARD_SWISH
            added[id(steps[-1])] = [
                helper.make_node("HardSigmoid", [x], [gate], alpha=1 / divisor, beta=shift / divisor),
                helper.make_node("Mul", [x, gate], [steps[-1].output[0]])]
            drop |= {id(s) for s in steps}
            counts["hard_swish"] += 1
        elif node.op_type == "Mul" and (affine := g.affine(node)) is not None:
            x, a, b, add = affine
            conv = g.producer.get(x)
            if conv is not None and conv.op_type == "Conv" and len(g.users[x]) == 1 and _after_conv(g, conv, a, b):
                _rename(conv, x, add.output[0])
                drop |= {id(node), id(add)}
                counts["affine_after_conv"] += 1
            elif (nxt := g.only_user(add.output[0], "Conv")) is not None and _before_conv(g, nxt, a, b):
                nxt.input[0] = x
                drop |= {id(node), id(add)}
                counts["affine_before_conv"] += 1
    nodes = list(g.biases)  # (constants first: they take no input)
    for node in model.graph.node:
        if id(node) in added:
            nodes += added[id(node)]
        elif id(node) not in drop:
            nodes.append(node)
    used = {name for node in nodes for name in node.input} | {o.name for o in model.graph.output}
    nodes = [n for n in nodes if n.op_type != "Constant" or n.output[0] in used]  # the folds' spent constants
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model, counts


def _hard_swish(g: _Graph, clip: object) -> tuple[str, list] | None:
    """The input and the four steps (Add, Clip, Mul, Div) of the hard-swish whose Clip is ``clip``; None where it
    is none."""
    shift = g.producer.get(clip.input[0])
    if shift is None or shift.op_type != "Add" or len(clip.input) != 3 or len(g.users[shift.output[0]]) != 1:
        return None
    xs = [name for name in shift.input if g.scalar(name) is None]
    shifts = [g.scalar(name) for name in shift.input if g.scalar(name) is not None]
    times = g.only_user(clip.output[0], "Mul")
    if len(xs) != 1 or shifts != [HARD_SWISH[0]] or times is None or set(times.input) != {xs[0], clip.output[0]}:
        return None
    divide = g.only_user(times.output[0], "Div")
    bounds = (g.scalar(clip.input[1]), g.scalar(clip.input[2]))
    if divide is None or divide.input[0] != times.output[0] or bounds != HARD_SWISH[1:3] or \
            g.scalar(divide.input[1]) != HARD_SWISH[3]:
        return None
    return xs[0], [shift, clip, times, divide]


def _after_conv(g: _Graph, conv: object, a: float, b: float) -> bool:
    """``conv``'s weights and bias scaled by ``a`` and shifted by ``b`` (False, unchanged: they are not its own)."""
    w = g.const(conv.input[1])
    bias = g.const(conv.input[2]) if len(conv.input) > 2 else None
    if w is None or len(conv.input) > 2 and bias is None:
        return False
    g.set_const(conv.input[1], w * a)
    if bias is None:
        name = f"{conv.output[0]}_bias"
        _add_const(g, conv, name, np.full(w.shape[0], b, np.float32))
    else:
        g.set_const(conv.input[2], bias * a + b)
    return True


def _before_conv(g: _Graph, conv: object, a: float, b: float) -> bool:
    """``conv`` (1 x 1, no padding, ungrouped) taking ``x * a + b`` for its input: its weights scaled by ``a``, its bias
    shifted by ``b`` times each output's weights (False, unchanged: it is not such a convolution)."""
    from onnx import helper

    attrs = {attr.name: helper.get_attribute_value(attr) for attr in conv.attribute}
    w = g.const(conv.input[1])
    bias = g.const(conv.input[2]) if len(conv.input) > 2 else None
    if w is None or w.shape[2:] != (1, 1) or attrs.get("group", 1) != 1 or any(attrs.get("pads", [0])) or \
            attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET") or len(conv.input) > 2 and bias is None:
        return False
    shift = b * w.sum(axis=(1, 2, 3))
    g.set_const(conv.input[1], w * a)
    if bias is None:
        _add_const(g, conv, f"{conv.output[0]}_bias", shift)
    else:
        g.set_const(conv.input[2], bias + shift)
    return True


def _add_const(g: _Graph, conv: object, name: str, value: np.ndarray) -> None:
    """A bias Constant for ``conv``, which had none."""
    from onnx import helper, numpy_helper

    node = helper.make_node("Constant", [], [name], value=numpy_helper.from_array(value.astype(np.float32), name))
    g.biases.append(node)
    g.producer[name] = node
    g.users[name].append(conv)
    conv.input.append(name)


def _rename(node: object, old: str, new: str) -> None:
    """``node``'s output ``old`` renamed ``new`` (it now gives what the folded steps gave)."""
    for k, name in enumerate(node.output):
        if name == old:
            node.output[k] = new
