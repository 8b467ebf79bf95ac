"""An exported float network stored in about half the bytes and loaded as the very same numbers.

A finder exported by ultralytics has each batch norm folded into its convolution: the weights in the file are
``fp32(w * s)``, where ``w`` came from the float16 checkpoint and ``s`` is the norm's scale of that output channel.
So each output channel of such a weight is a float16 row times one float32 number, rounded once. ``compact`` finds
that pair for every row (``factor``), stores the row as float16 and the scale as float32, and puts a ``Cast`` and a
``Mul`` before the weight's users. ONNX Runtime folds those two at load (IEEE products, rounded once), so the network
it runs holds the same float32 weights bit for bit and gives the same outputs: not an approximation, unlike a
float16 or int8 network. A row that has no such pair stays float32.

``compact(..., int8=True)`` stores each row as int8 times its float32 scale instead (symmetric, the row's largest
magnitude at 127): a quarter of the bytes, not the same numbers. Each weight is off by half a step of its row at
most; ONNX Runtime folds the ``Cast`` and ``Mul`` at load as before, so the network runs in float at float's speed.
The row finder is shipped so (``models/README.md``).

The shipped finders went from 3.8 MB to 2.0 MB each this way (``models/README.md``). Called by ``python -m training
export`` and ``python -m training compact``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

MANTISSAS = np.arange(1024, 2048, dtype=np.float32) / np.float32(1024)  # float16's significands in [1, 2)
ULPS = 2  # the scale is sought this many float32 steps either side of the quotient


def factor(row: np.ndarray) -> tuple[np.float32, np.ndarray] | None:
    """A float32 scale ``s`` and a float16 row ``h`` with ``float32(h) * s == row`` bit for bit, or None where there is
    none. ``row`` is float32 and finite."""
    if np.array_equal(row.astype(np.float16).astype(np.float32), row):
        return np.float32(1), row.astype(np.float16)
    big = np.abs(row).max()
    # the largest value of ``h`` may be taken in [1, 2) (a power of two moves between ``h`` and ``s``): one of
    # float16's 1024 significands, and ``s`` near the quotient
    near = big / MANTISSAS
    steps = [near]
    for toward in (np.float32(np.inf), np.float32(0)):
        s = near
        for _ in range(ULPS):
            s = np.nextafter(s, toward)
            steps.append(s)
    with np.errstate(over="ignore"):
        for s in steps:
            h = (row[None, :] / s[:, None]).astype(np.float16)
            same = np.all(h.astype(np.float32) * s[:, None] == row[None, :], axis=1)
            if same.any():
                k = int(np.argmax(same))
                return s[k], h[k]
    return None


def factor_rows(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``weight`` (float32, one row per output channel along its first axis) as float16 rows and float32 scales
    (shaped to broadcast against it), or None where a row has no factoring."""
    rows = weight.reshape(len(weight), -1)
    if not np.isfinite(rows).all():
        return None
    halves, scales = np.empty(rows.shape, np.float16), np.empty(len(rows), np.float32)
    for i, row in enumerate(rows):
        pair = factor(row)
        if pair is None:
            return None
        scales[i], halves[i] = pair
    half = halves.reshape(weight.shape)
    scale = scales.reshape((-1,) + (1,) * (weight.ndim - 1))
    if not np.array_equal(half.astype(np.float32) * scale, weight):  # kept as a guard: factor checked each row
        return None
    return half, scale


def int8_rows(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``weight`` (float32, one row per output channel along its first axis) as int8 rows and float32 scales (shaped
    to broadcast against it), each row's largest magnitude at 127; None where it is not finite."""
    rows = weight.reshape(len(weight), -1)
    if not np.isfinite(rows).all():
        return None
    scale = (np.abs(rows).max(1) / np.float32(127)).astype(np.float32)
    scale[scale == 0] = 1
    q = np.clip(np.rint(rows / scale[:, None]), -127, 127).astype(np.int8)
    return q.reshape(weight.shape), scale.reshape((-1,) + (1,) * (weight.ndim - 1))


def compact(path: Path, dest: Path | None = None, int8: bool = False) -> tuple[int, int]:
    """The ONNX network at ``path`` written to ``dest`` (default: in place) with each float32 weight of two or more
    axes that factors stored as float16 rows times float32 scales (``int8``: every such weight as int8 rows times
    float32 scales, near the same weights). Returns the file's bytes before and after."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    before = path.stat().st_size
    model = onnx.load(str(path))
    graph = model.graph
    inputs = {i.name for i in graph.input}
    kept, nodes = [], []
    for init in graph.initializer:
        weight = numpy_helper.to_array(init)
        # a row of two values or fewer saves nothing (a scale of its own: a compact network's scales stay as they are)
        pair = ((int8_rows if int8 else factor_rows)(weight) if init.data_type == TensorProto.FLOAT
                and weight.ndim >= 2 and weight.size and weight[0].size > 2 and init.name not in inputs else None)
        if pair is None:
            kept.append(init)
            continue
        rows, scale = pair
        name, kind = init.name, "int8" if int8 else "half"
        kept.append(numpy_helper.from_array(rows, f"{name}.{kind}"))
        if np.all(scale == 1):
            nodes.append(helper.make_node("Cast", [f"{name}.{kind}"], [name], to=TensorProto.FLOAT))
            continue
        kept.append(numpy_helper.from_array(scale, f"{name}.scale"))
        nodes.append(helper.make_node("Cast", [f"{name}.{kind}"], [f"{name}.float"], to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [f"{name}.float", f"{name}.scale"], [name]))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    rest = list(graph.node)
    del graph.node[:]
    graph.node.extend([*nodes, *rest])
    onnx.checker.check_model(model)
    out = dest or path
    onnx.save(model, str(out))
    return before, out.stat().st_size
