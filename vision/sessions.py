"""The networks' ONNX Runtime sessions: the threads they run with (``session_options``), each loaded as a typed error
where it is no model (``session``), the tile classifier checked against the names detection reads
(``classifier_session``), and the classifiers of a photo's faults checked against it (``fault_session``)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from vision.errors import ModelNotFoundError
from vision.names import NAMES
from vision.readers import crop_side


class SessionOptions(NamedTuple):
    """The options of the finders', the naming networks' and the caption reader's sessions."""

    finding: object
    naming: object
    captions: object


def session_options() -> SessionOptions:
    """Two threads a network, spinning between the finders' layers only; one for the caption reader, whose runs are
    read two at once instead (``vision.captions.RUNS``)."""
    import onnxruntime as ort

    finding = ort.SessionOptions()
    finding.intra_op_num_threads = 2
    # each network's threads spin between its layers and stop when its run ends: not spinning, they slept and
    # woke at every layer (the finder's look 33 -> 25 ms, two threads no faster than one); left spinning after a
    # run, they held both cores while the next network ran
    finding.add_session_config_entry("session.intra_op.allow_spinning", "1")
    finding.add_session_config_entry("session.force_spinning_stop", "1")
    # the naming networks' threads do not spin, and the caption reader's one (its many small layers): with another
    # process busy on the second core, spinning threads waited on each other at every layer (docs/photo.md)
    naming = ort.SessionOptions()
    naming.intra_op_num_threads = 2
    naming.add_session_config_entry("session.intra_op.allow_spinning", "0")
    captions = ort.SessionOptions()
    captions.intra_op_num_threads = 1
    return SessionOptions(finding, naming, captions)


def session(path: Path, options: object) -> object:
    """An ONNX Runtime session of the network at ``path``; a file that is no ONNX model is a typed error."""
    import onnxruntime as ort

    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime's own errors (InvalidProtobuf, Fail ...) derive from Exception only
        msg = f"{path} is no ONNX model ONNX Runtime can load: {exc}"
        raise ModelNotFoundError(msg) from exc


def classifier_session(path: Path, options: object) -> object:
    """The tile classifier at ``path`` in ONNX Runtime, checked: its outputs (tile, up, look) and its classes."""
    loaded = session(path, options)
    if [o.name for o in loaded.get_outputs()] != ["tile", "up", "look"]:
        msg = (f"{path} is no tile classifier of this version: its outputs are "
               f"{[o.name for o in loaded.get_outputs()]}, detection reads tile, up and look "
               f"(export it again: python -m training ship --classifier-run RUN)")
        raise ModelNotFoundError(msg)
    classes = loaded.get_outputs()[0].shape[-1]
    if classes != len(NAMES):
        msg = f"{path} names {classes} classes; detection reads the {len(NAMES)} of vision/names.py"
        raise ModelNotFoundError(msg)
    return loaded


def fault_session(path: Path | None, shipped: Path, classifier: Path, crop: int, options: object) -> object:
    """The session of the classifier of a photo's faults at ``path`` (None: none), which names crops of ``crop``
    pixels as ``classifier`` does: the shipped one (``shipped``) goes with classifiers of its crop size alone (none
    beside another), another of other crops is a typed error."""
    if not path:
        return None
    net = classifier_session(path, options)
    if crop_side(net) == crop:
        return net
    if Path(path) == shipped:
        return None
    msg = f"{path} names crops of {crop_side(net)} px, {classifier} of {crop}"
    raise ModelNotFoundError(msg)
