"""Train the face network (``training/net.py``'s ``CornerNet``, read by ``vision/faces.py``): from a tile's crop, cut
as detection cuts the classifier's (straight by the tilt ``vision.crops.tilts`` reads, around a box jittered as the
finder's are), the four corners of its face and whether the face lies across. Its data are generated photos with
their sidecars, whose ``quad`` is each tile's face as drawn: tiles standing (``synth --camera low``, ``front``) and
lying (``seated``, ``phone``), so that it learns where the face is in a box of either. Backs are left out: a back has
no face in sight. Resumable; ``ship_corners`` stores the run's network as int8 in ``models/face_corners.onnx``, or,
for a run trained on rows standing alone, beside the network that file holds (``with_rows``: its corners are those
detection takes in a photo of tiles standing). Called by ``python -m training corners`` and ``ship-corners [--rows]``.
"""

from __future__ import annotations

import json
import logging
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from vision.crops import MARGIN, crop_matrices, crop_tiles, tilts
from vision.faces import canonical
from vision.image import load_image
from vision.names import BACK

log = logging.getLogger(__name__)

SIZE = 64  # the face network's crop side: where a face lies needs fewer pixels than what it shows
WORK_SIDE = 1600  # the photos are read as detection decodes them (``DetectorConfig.work_side``)
JITTER = 0.05  # each box side moved by this share of the box's side (sd), as the finder's boxes miss the true ones
FLAG_WEIGHT = 0.1  # the across and stands logits' losses beside the corners'


def faced_photos(data: Path, split: str) -> Iterator[tuple[list[dict], np.ndarray, np.ndarray, np.ndarray]]:
    """Each photo of ``data``'s ``split`` that shows faced tiles (60% visible or more, not backs): those tiles (their
    sidecar entries), the photo as detection decodes it, and their boxes and faces (the art's tl, tr, br, bl) in its
    pixels."""
    for side in sorted((data / "layout" / split).glob("*.json")):
        scene = json.loads(side.read_text())
        tiles = [t for t in scene["tiles"] if t["visible"] >= 0.6 and t["label"] != BACK and "quad" in t]
        photo = data / "images" / split / f"{side.stem}.jpg"
        if not tiles or not photo.exists():
            continue
        rgb, scale = load_image(photo, WORK_SIDE)
        yield (tiles, rgb, np.array([t["box"] for t in tiles], np.float64) * scale,
               np.array([t["quad"] for t in tiles], np.float64) * scale)


def jittered_boxes(boxes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``boxes`` each side moved by ``JITTER`` of the box's side (sd), as the finder's boxes miss the true ones."""
    return boxes + rng.normal(0, JITTER, boxes.shape) * np.tile(boxes[:, 2:] - boxes[:, :2], 2)


def load_faces(data: Path, split: str, rng: np.random.Generator, variants: int = 2,
               size: int = SIZE) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The crops (N, size, size, 3 uint8) of the faced tiles of ``data``'s ``split`` (each 60% visible or more), cut
    ``variants`` times around jittered boxes, with their faces' corners (N, 8: the crop's units, ``canonical``),
    whether each lies across (N: the art's up runs along the crop's width) and whether it stands (N: the sidecar's
    ``stands``, which the standing hands' generator writes, ``training/standing.py``; tiles of other photos lie)."""
    crops, corners, across, stands = [], [], [], []
    for tiles, rgb, boxes, quads in faced_photos(data, split):
        for _ in range(variants):
            jittered = jittered_boxes(boxes, rng)
            tilt = tilts(rgb, jittered)
            crops.append(crop_tiles(rgb, jittered, size, tilt=tilt))
            inside, lies = face_corners(quads, jittered, tilt, size)
            corners.append(inside.reshape(-1, 8))
            across.append(lies)
            stands.append(np.array([bool(t.get("stands", False)) for t in tiles]))
    if not crops:
        msg = f"no faced tiles in {data}/layout/{split} (make them with python -m training synth --camera low ...)"
        raise ValueError(msg)
    return np.concatenate(crops), np.concatenate(corners).astype(np.float32), np.concatenate(across), \
        np.concatenate(stands)


def face_corners(quads: np.ndarray, boxes: np.ndarray, tilt: np.ndarray,
                 size: int = SIZE) -> tuple[np.ndarray, np.ndarray]:
    """The faces ``quads`` (N, 4, 2: the photo's pixels, the art's tl, tr, br, bl) in the crops of ``boxes`` cut by
    ``tilt`` (``crop_tiles``): their corners (N, 4, 2: the crop's units, ``canonical``) and whether each lies across
    (N: the art's up runs along the crop's width).

    >>> corners, across = face_corners(np.array([[[20.0, 0], [20, 40], [0, 40], [0, 0]]]),  # the art's up points right
    ...                                np.array([[0.0, 0, 20, 40]]), np.zeros(1), 46)
    >>> (corners[0] * 46).round(1).tolist(), across.tolist()
    ([[13.0, 3.0], [33.0, 3.0], [33.0, 43.0], [13.0, 43.0]], [True])
    """
    m = crop_matrices(boxes, size, MARGIN, tilt)
    inside = (np.einsum("nij,nkj->nki", m[:, :, :2], quads) + m[:, None, :, 2]) / size
    up = inside[:, 0] - inside[:, 3]  # the art's up, in the crop
    return canonical(inside), np.abs(up[:, 0]) > np.abs(up[:, 1])


def resumed(ckpt: Path, steps: int, parts: tuple, what: str) -> tuple[int, list] | None:
    """The checkpoint ``ckpt`` of a run of ``steps`` batches loaded into ``parts`` (the network, optimiser and
    schedule, ``(module, key)`` pairs): its step and history; None where there is none yet. A run started with other
    steps is refused (``what``: the run, to name it)."""
    import torch

    if not ckpt.exists():
        return None
    state = torch.load(ckpt, map_location="cpu", weights_only=False)
    if state["steps"] != steps:
        msg = f"{what} {ckpt.parent} was started with {state['steps']} steps: resume it so, or start another run"
        raise ValueError(msg)
    for part, key in parts:
        part.load_state_dict(state[key])
    return state["step"], state["history"]


def checkpoint(ckpt: Path, parts: tuple, step: int, steps: int, history: list) -> None:
    """The run's network, optimiser and schedule (``parts``, as ``resumed`` takes them) saved at ``step``."""
    import torch

    torch.save({**{key: part.state_dict() for part, key in parts}, "step": step, "steps": steps,
                "history": history}, ckpt)


def train_steps(net: object, parts: tuple, ckpt: Path, x: np.ndarray, loss_of: Callable, check: Callable,
                steps: int, start: int, history: list, batch: int, rng: np.random.Generator) -> None:
    """Batches ``start`` + 1 to ``steps`` of ``batch`` crops of ``x`` (N, S, S, 3 uint8) drawn by ``rng``, lightly
    jittered (the classifier's ``augment``), each step's loss ``loss_of(net(crops), indices)``; every 250 steps and
    at the last, ``check()`` (the val figures) recorded in ``history``, logged, and the run checkpointed (``parts``, as
    ``resumed`` takes them: the network, optimiser and schedule)."""
    import torch

    from training.classifier import augment

    (_, _), (opt, _), (sched, _) = parts
    gen = torch.Generator().manual_seed(start)
    net.train()
    te = time.time()
    for step in range(start + 1, steps + 1):
        idx = np.sort(rng.integers(0, len(x), batch))
        xb = augment(torch.from_numpy(x[idx]).permute(0, 3, 1, 2).float() / 255, gen, strong=False)
        loss = loss_of(net(xb), idx)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == steps:
            rec = {"step": step, "loss": round(loss.item(), 5), "seconds": round(time.time() - te, 1), "val": check()}
            net.train()
            history.append(rec)
            log.info(json.dumps(rec))
            checkpoint(ckpt, parts, step, steps, history)
            te = time.time()


def export_onnx(net: object, dest: Path, size: int, inputs: str, outputs: list[str]) -> Path:
    """The float network ``net`` as ONNX at ``dest``: ``inputs`` (n, 3, size, size) in, ``outputs`` out, n free."""
    import torch

    net.eval()
    with warnings.catch_warnings():  # the crop size is fixed in the export, as the tracer warns it will be
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        torch.onnx.export(net, (torch.zeros(1, 3, size, size),), str(dest), input_names=[inputs],
                          output_names=outputs, dynamic_axes={k: {0: "n"} for k in (inputs, *outputs)},
                          opset_version=17, dynamo=False)
    return dest


def _errors(net: object, x: np.ndarray, corners: np.ndarray, across: np.ndarray, stands: np.ndarray) -> dict:
    """The network on crops: the median and 90th percentile of its corners' error (the crop's units) and how often it
    tells across and standing right."""
    import torch

    net.eval()
    got, lies, up = [], [], []
    with torch.no_grad():
        for i in range(0, len(x), 256):
            c, a, s = net(torch.from_numpy(x[i:i + 256]).permute(0, 3, 1, 2).float() / 255)
            got.append(c.numpy())
            lies.append(a.numpy().reshape(-1) > 0)
            up.append(s.numpy().reshape(-1) > 0)
    err = np.linalg.norm((np.concatenate(got) - corners).reshape(-1, 4, 2), axis=2).mean(1)
    return {"corner_p50": round(float(np.median(err)), 4), "corner_p90": round(float(np.quantile(err, 0.9)), 4),
            "across": round(float((np.concatenate(lies) == across).mean()), 4),
            "stands": round(float((np.concatenate(up) == stands).mean()), 4)}


def train_corners(data: list[Path], run: Path, steps: int, lr: float = 2e-3, batch: int = 128,
                  threads: int = 2, init: Path | None = None) -> dict:
    """Train (or resume) the face network in ``run`` for ``steps`` batches of ``batch`` on a one-cycle schedule peaking
    at ``lr``, on the crops of every dataset of ``data`` (their train splits; val to check); checkpoints every 250
    steps; exports the float network to ``run/face_corners.onnx``. ``init``: another face run whose network it starts
    from (fine-tuned; None: from scratch)."""
    import torch

    from training.net import CornerNet

    torch.set_num_threads(threads)
    run.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    t0 = time.time()
    parts = [load_faces(d, "train", rng) for d in data]
    x, y, a, st = (np.concatenate(p) for p in zip(*parts, strict=True))
    checks = [load_faces(d, "val", np.random.default_rng(1), variants=1) for d in data]
    xv, yv, av, sv = (np.concatenate(p) for p in zip(*checks, strict=True))
    log.info(f"face crops: train {len(x)}, val {len(xv)}; loaded in {time.time() - t0:.0f} s")
    net = CornerNet()
    if init is not None:
        start_from = init / "last.pt"
        if not start_from.exists():
            msg = f"no face run to start from at {init} (its last.pt: python -m training corners)"
            raise FileNotFoundError(msg)
        net.load_state_dict(torch.load(start_from, map_location="cpu", weights_only=False)["model"])
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    ckpt, parts = run / "last.pt", ((net, "model"), (opt, "opt"), (sched, "sched"))
    start, history = resumed(ckpt, steps, parts, "the face run") or (0, [])
    if start:
        rng = np.random.default_rng(start)
        log.info(f"resuming the face network at step {start}")
    smooth = torch.nn.SmoothL1Loss(beta=0.02)
    bce = torch.nn.BCEWithLogitsLoss()

    def loss_of(out: tuple, idx: np.ndarray) -> object:
        corners, across, stands = out
        return smooth(corners, torch.from_numpy(y[idx])) + FLAG_WEIGHT * (
            bce(across.reshape(-1), torch.from_numpy(a[idx]).float()) +
            bce(stands.reshape(-1), torch.from_numpy(st[idx]).float()))

    train_steps(net, parts, ckpt, x, loss_of, lambda: _errors(net, xv, yv, av, sv), steps, start, history, batch, rng)
    export_corners(net, run / "face_corners.onnx")
    summary = {"steps": steps, "batch": batch, "lr": lr, "crop": SIZE, "data": " + ".join(str(d) for d in data),
               "init": init.name if init is not None else None,
               "train_crops": int(len(x)), "val_crops": int(len(xv)), "history": history,
               "seconds_total": round(sum(h["seconds"] for h in history), 1)}
    (run / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def export_corners(net: object, dest: Path, size: int = SIZE) -> Path:
    """The face network as float ONNX: ``crops`` (n, 3, size, size) in, ``corners`` (n, 8), ``across`` and ``stands``
    (n, 1 each) out."""
    return export_onnx(net, dest, size, "crops", ["corners", "across", "stands"])


def ship_corners(run: Path, dest: Path, rows: bool = False) -> Path:
    """The run's face network stored as int8 at ``dest``, calibrated on crops of the first dataset it trained on (its
    val split). ``rows``: stored beside the network ``dest`` holds, as its network for rows standing (``with_rows``;
    one it held before is replaced)."""
    import shutil
    import tempfile

    from training.ship import CALIBRATION_CROPS, quantize

    data = Path(json.loads((run / "summary.json").read_text())["data"].split(" + ")[0])
    x = load_faces(data, "val", np.random.default_rng(0), variants=1)[0]
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        shipped = Path(tmp) / "face_corners.onnx"
        shutil.copyfile(run / "face_corners.onnx", shipped)
        quantize(shipped, x[np.sort(np.random.default_rng(1).permutation(len(x))[:CALIBRATION_CROPS])])
        return with_rows(dest, shipped, dest) if rows else Path(shutil.copyfile(shipped, dest))


ROWS = "rows/"  # the prefix of the network for rows standing's nodes and weights in the face network's file


def with_rows(network: Path, rows: Path, dest: Path) -> Path:
    """The face network at ``network`` (its own outputs kept; a network for rows standing it held dropped) with the one
    at ``rows`` beside it, written to ``dest``: one graph, both read from the same ``crops``, the second's corners and
    across flags its outputs ``row_corners`` and ``row_across`` (``vision.faces.FaceReader.ROW_OUTPUTS``), its
    ``stands`` dropped (the first network tells which tiles stand)."""
    import onnx
    from onnx import compose

    from vision.faces import FaceReader

    first, second = onnx.load(str(network)), compose.add_prefix(onnx.load(str(rows)), ROWS)
    graph = first.graph
    outputs = [o for o in graph.output if o.name in FaceReader.OUTPUTS]
    if [o.name for o in outputs] != FaceReader.OUTPUTS:
        msg = f"{network} is no face network: its outputs are {[o.name for o in graph.output]}"
        raise ValueError(msg)
    renamed = {ROWS + "crops": "crops"}
    for name, out in zip(FaceReader.OUTPUTS[:2], FaceReader.ROW_OUTPUTS, strict=True):
        renamed[ROWS + name] = out
    for node in second.graph.node:
        node.input[:] = [renamed.get(n, n) for n in node.input]
        node.output[:] = [renamed.get(n, n) for n in node.output]
    row_outputs = []
    for o in second.graph.output:
        if o.name in renamed:
            o.name = renamed[o.name]
            row_outputs.append(o)
    nodes, needed = _needed(graph.node, outputs)  # (a network for rows it held dropped)
    row_nodes, row_needed = _needed(second.graph.node, row_outputs)  # (its stands dropped)
    weights = [w for w in graph.initializer if w.name in needed] + \
        [w for w in second.graph.initializer if w.name in row_needed]
    merged = onnx.helper.make_graph(nodes + row_nodes, graph.name, list(graph.input), outputs + row_outputs, weights)
    domains = {o.domain: o.version for o in (*second.opset_import, *first.opset_import)}
    model = onnx.helper.make_model(merged, opset_imports=[onnx.helper.make_opsetid(d, v) for d, v in domains.items()],
                                   ir_version=first.ir_version)
    model.metadata_props.extend(first.metadata_props)
    onnx.checker.check_model(model)
    onnx.save(model, str(dest))
    return dest


def _needed(nodes: list, outputs: list) -> tuple[list, set[str]]:
    """Of ``nodes`` (a graph's, in order), those the ``outputs`` need, in order, and the names of the tensors they
    read."""
    needed, kept = {o.name for o in outputs}, []
    for node in reversed(nodes):
        if any(o in needed for o in node.output):
            kept.append(node)
            needed.update(node.input)
    return kept[::-1], needed
