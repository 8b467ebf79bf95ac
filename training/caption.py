"""Build ``models/caption_reader.onnx``, the flowers' caption reader (``vision/captions.py``), from PaddleOCR's
PP-OCRv4 mobile text recogniser (Apache-2.0) as the ``rapidocr-onnxruntime`` wheel ships it: all its characters kept
(the blank, then 6624: Chinese, the digits, the Latin letters, symbols, the space), since a flower's English caption
is read among the Latin letters and its Chinese character (梅蘭菊竹, 春夏秋冬) among every character the recogniser
knows, so that a character it takes for another is no flower; its weights stored as float16, and its four largest
(the last layer and three of 480 x 480) as int8, one scale per output, each turned back to float32 when ONNX Runtime
loads it (4.0 MB instead of 10.9; float16 alone 5.5 MB: ``docs/photo.md``, "The seat reader"). Its steps are folded
into fewer first (``training/folds.py``: its hard-swishes and learnable affine blocks; ``--unfolded`` keeps them).

Its convolutions but the first ``FLOAT_CONVS`` are then made int8 (``training/quantize.py``), calibrated on the lines
the shipped detector reads with the float reader in photos generated from the fetched art (``python -m training
fetch-art`` first; ``generated_runs``, about two minutes; ``--float`` keeps them float, 4.0 MB, as shipped until
2026-11-30; int8 3.2 MB). The lines are those the detector reads, so a change to how it asks for them changes the
build: the shipped file was built before ``vision.captions.CHARACTER_LESS`` (a likely flower's character taken
from 0.25), and is rebuilt byte for byte with that rule off (``CHARACTER_LIKELY`` set above 1 for the build); built
with it on, the reader differs in its activations' scales and read one tile fewer in two fresh sets
(``docs/photo.md``, "The int8 caption reader, built").

    pip download rapidocr-onnxruntime==1.4.4 --no-deps -d /tmp/ocr
    python -m training caption /tmp/ocr/rapidocr_onnxruntime-1.4.4-py3-none-any.whl
"""

from __future__ import annotations

import hashlib
import io
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from training import paths
from training.folds import folded
from training.quantize import quantized_convs

SOURCE = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
HEAD = ("linear_85.w_0", "linear_85.b_0")  # the last layer's weights and bias: one column per character
INT8_LEAST = 200_000  # weights of this many values or more are stored as int8 (the last layer's 795,000, three 230,400)
# the convolutions kept float, the first in the graph, as the build makes the others int8 (of 38: none kept lost the
# held-out picture flowers' characters, the first 12 kept them, in 0.65 of the float reader's time: docs/photo.md)
FLOAT_CONVS = 12
# the generated photos whose lines the int8 convolutions are calibrated on: by camera (``synth --camera``: tiles
# standing seen from in front or low, lying seen seated or from above), how many; the first camera's seed, the next
# ones' one more each, none an evaluation set's; and the runs of lines kept, every ``CALIBRATION_EVERY``th
CALIBRATION_PHOTOS = {"front": 25, "low": 25, "seated": 25, "phone": 25}
CALIBRATION_SEED = 9340
CALIBRATION_EVERY = 4


def build(wheel: Path, out: Path = paths.MODELS / "caption_reader.onnx", folds: bool = True,
          calibrate: Callable[[Path], Sequence[np.ndarray]] | None = None) -> Path:
    """The caption reader from the recogniser in ``wheel``, written to ``out``; its steps folded into fewer where
    ``folds`` (``training/folds.py``: the same function, in 0.8 of the time); its convolutions but the first
    ``FLOAT_CONVS`` int8 where ``calibrate`` is given (``training/quantize.py``): it gives the runs of lines to
    calibrate them on, read by the float reader at the path it is given (``generated_runs``)."""
    import onnx
    from onnx import helper

    out.parent.mkdir(parents=True, exist_ok=True)  # before the minutes of calibrating, not after
    with zipfile.ZipFile(wheel) as z:
        model = onnx.load(io.BytesIO(z.read(SOURCE)))
    if folds:
        model, _ = folded(model)
    meta = {p.key: p.value for p in model.metadata_props}
    chars = "".join([*meta["character"].splitlines(), " "])  # the outputs after the blank, the space last
    props = {"characters": chars, "source": f"{wheel.name}:{SOURCE}"}
    del model.metadata_props[:]
    helper.set_model_props(model, props)
    if calibrate is not None:
        with tempfile.TemporaryDirectory() as tmp:
            reader = Path(tmp) / "float.onnx"
            onnx.save(model, reader)
            model = quantized_convs(model, calibrate(reader), FLOAT_CONVS)
        del model.metadata_props[:]  # the quantizer's own
        helper.set_model_props(model, props)
    model = _stored(model)
    onnx.checker.check_model(model)
    onnx.save(model, out)
    return out


def _stored(model: object) -> object:
    """``model`` with its float32 weights stored smaller: those of ``INT8_LEAST`` values or more as int8, the others
    of more than 256 (and the last layer's) as float16, each turned back to float32 as ONNX Runtime loads it; the
    scales of int8 convolutions (``training/quantize.py``) kept as they are."""
    from onnx import numpy_helper

    scales = {name for node in model.graph.node if node.op_type in ("QuantizeLinear", "DequantizeLinear")
              for name in node.input[1:]}
    kept, nodes = [], []
    for init in model.graph.initializer:
        value = numpy_helper.to_array(init)
        if init.name in scales or not _smaller(value, init.name):
            kept.append(init)
        else:
            nodes += _stored_as(value, init.name)
    for node in model.graph.node:
        value = numpy_helper.to_array(node.attribute[0].t) if node.op_type == "Constant" else None
        if value is None or not _smaller(value, node.output[0]):
            nodes.append(node)
        else:
            nodes += _stored_as(value, node.output[0])
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    used = {node.domain for node in model.graph.node}  # ONNX Runtime's optimizer imports domains it does not use
    imports = [o for o in model.opset_import if o.domain in used or o.domain == "ai.onnx"]
    del model.opset_import[:]
    model.opset_import.extend(imports)
    return model


def _smaller(value: np.ndarray, name: str) -> bool:
    """Whether the weights ``value`` (named ``name``) are stored smaller: float32, and more than 256 of them or the
    last layer's."""
    return value.dtype == np.float32 and (value.size > 256 or name in HEAD)


def _stored_as(value: np.ndarray, name: str) -> list:
    """The nodes that give ``name`` the float32 weights ``value`` stored as int8 (``INT8_LEAST`` values or more) or
    as float16."""
    from onnx import TensorProto, helper, numpy_helper

    if value.size >= INT8_LEAST:
        return _int8_stored(value, name)
    half = numpy_helper.from_array(value.astype(np.float16), f"{name}_f16")
    return [helper.make_node("Constant", [], [half.name], value=half),
            helper.make_node("Cast", [half.name], [name], to=TensorProto.FLOAT)]


def _int8_stored(value: np.ndarray, name: str) -> list:
    """The nodes that give ``name`` the float32 weights ``value`` stored as int8, one scale per output (a linear
    layer's (in, out) columns, a convolution's first axis): the int8 values cast to float32 and scaled, which ONNX
    Runtime folds into a constant as it loads the model (as opset 12, the source's, has no per-axis dequantizing)."""
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


def generated_runs(reader: Path, photos: dict[str, int] = CALIBRATION_PHOTOS, seed: int = CALIBRATION_SEED,
                   art: Path | None = None) -> list[np.ndarray]:
    """The runs of lines (n, 3, 48, W) the caption reader at ``reader`` reads as the shipped detector names
    ``photos`` generated photos (by camera, how many: ``training/synth.py``, faces from ``art``, default the fetched
    art), every ``CALIBRATION_EVERY``th in the order of their digests (the reader reads two runs at once, each on a
    thread of its own, in either order)."""
    from training.synth import generate
    from vision.captions import CaptionReader
    from vision.detector import TileDetector
    from vision.sessions import session, session_options

    runs: list[np.ndarray] = []

    class Recording(CaptionReader):
        def _through(self, x: np.ndarray) -> list:
            runs.append(x.copy())
            return super()._through(x)

    det = TileDetector(captions=None)
    det._captions = Recording(session(reader, session_options().captions), reader)  # noqa: SLF001 - recorded
    with tempfile.TemporaryDirectory() as tmp:
        for k, (camera, n) in enumerate(photos.items()):
            generate(Path(tmp) / camera, {"val": n}, seed + k, art, camera=camera, progress=False)
        for photo in sorted(Path(tmp).glob("*/images/val/*.jpg")):
            det.detect(photo)
    return sorted(runs, key=lambda x: hashlib.blake2b(x.tobytes() + repr(x.shape).encode()).digest())[
        ::CALIBRATION_EVERY]
