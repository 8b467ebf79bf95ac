"""Build ``models/caption_reader.onnx``, the flowers' caption reader (``vision/captions.py``), from PaddleOCR's
PP-OCRv4 mobile text recogniser (Apache-2.0) as the ``rapidocr-onnxruntime`` wheel ships it: all its characters kept
(the blank, then 6624: Chinese, the digits, the Latin letters, symbols, the space), since a flower's English caption
is read among the Latin letters and its Chinese character (梅蘭菊竹, 春夏秋冬) among every character the recogniser
knows, so that a character it takes for another is no flower; its weights stored as float16 and cast back to float32
when ONNX Runtime loads it (5.5 MB instead of 10.9).

    pip download rapidocr-onnxruntime==1.4.4 --no-deps -d /tmp/ocr
    python -m training caption /tmp/ocr/rapidocr_onnxruntime-1.4.4-py3-none-any.whl
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

from training import paths

SOURCE = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
HEAD = ("linear_85.w_0", "linear_85.b_0")  # the last layer's weights and bias: one column per character


def build(wheel: Path, out: Path = paths.MODELS / "caption_reader.onnx") -> Path:
    """The caption reader from the recogniser in ``wheel``, written to ``out``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    with zipfile.ZipFile(wheel) as z:
        model = onnx.load(io.BytesIO(z.read(SOURCE)))
    meta = {p.key: p.value for p in model.metadata_props}
    chars = "".join([*meta["character"].splitlines(), " "])  # the outputs after the blank, the space last
    nodes = []
    for node in model.graph.node:
        value = numpy_helper.to_array(node.attribute[0].t) if node.op_type == "Constant" else None
        if value is None or value.dtype != np.float32 or value.size <= 256 and node.output[0] not in HEAD:
            nodes.append(node)
            continue
        name = node.output[0]
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
