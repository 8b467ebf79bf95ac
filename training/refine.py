"""Train the face refiner (``training/net.py``'s ``RefineNet``, read by ``vision/faces.py``): from a face the face
network found, cut flat into a square with a margin around it (``vision.faces.refine_frames``), the four corners of
the true face in that square. A face seen at a grazing angle is a thin strip of its box, a few of the face network's
pixels tall; cut so, it is as tall as wide, and its corners are found again at that scale. Its data are the face
network's own faces of generated photos' tiles (boxes jittered as the finder's are), and those faces moved at
random, with the true faces of their sidecars (``quad``). Resumable; called by ``python -m training refiner``.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import numpy as np

from training.corners import export_onnx, faced_photos, jittered_boxes, resumed, train_steps
from vision.crops import tilts
from vision.faces import FaceReader, canonical, refine_crops, refine_frames, through

log = logging.getLogger(__name__)

SIZE = 64  # the refiner's crop side
MOVED = 0.06  # the third and later variants' corners moved by this share of the face's width and height (sd)


def load_refine(data: Path, split: str, faces: FaceReader, rng: np.random.Generator, variants: int = 3,
                size: int = SIZE) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The refiner's crops (N, size, size, 3 uint8) of the faced tiles of ``data``'s ``split`` (each 60% visible or
    more), ``variants`` of each: its face as ``faces`` finds it in a jittered box for rows standing
    (``Faces.as_rows``), then as it finds it for any photo, then, for each further variant, the first moved at random
    (``MOVED``); with the true faces' corners in each crop (N, 8: the crop's units, ``canonical``) and whether each
    tile stands (N)."""
    crops, corners, stands = [], [], []
    for tiles, rgb, boxes, truth in faced_photos(data, split):
        jittered = jittered_boxes(boxes, rng)
        found = faces.faces(rgb, jittered, tilts(rgb, jittered))
        rows = found.as_rows().quads
        span = rows.max(1) - rows.min(1)  # (N, 2): each face's width and height
        for v in range(variants):
            quads = rows if v == 0 else found.quads if v == 1 else \
                rows + rng.normal(0, MOVED, rows.shape) * span[:, None, :]
            frames = refine_frames(quads, size)
            crops.append(refine_crops(rgb, frames, size))
            corners.append((canonical(through(frames, truth)) / size).reshape(-1, 8))
            stands.append(np.array([bool(t.get("stands", False)) for t in tiles]))
    if not crops:
        msg = f"no faced tiles in {data}/layout/{split} (make them with python -m training synth --camera low ...)"
        raise ValueError(msg)
    return np.concatenate(crops), np.concatenate(corners).astype(np.float32), np.concatenate(stands)


def _errors(net: object, x: np.ndarray, corners: np.ndarray, stands: np.ndarray) -> dict:
    """The refiner on crops: the median and 90th percentile of its corners' error (the crop's units), for all, the
    standing and the lying tiles."""
    import torch

    net.eval()
    with torch.no_grad():
        got = np.concatenate([net(torch.from_numpy(x[i:i + 256]).permute(0, 3, 1, 2).float() / 255).numpy()
                              for i in range(0, len(x), 256)])
    return _off(got, corners, stands)


def _off(got: np.ndarray, corners: np.ndarray, stands: np.ndarray) -> dict:
    """How far the corners ``got`` (N, 8) are from the true ``corners``: the median and 90th percentile of the mean
    corner's distance, for all, the standing and the lying tiles."""
    err = np.linalg.norm((got - corners).reshape(-1, 4, 2), axis=2).mean(1)
    out = {}
    for name, m in (("all", np.ones(len(err), bool)), ("standing", stands), ("lying", ~stands)):
        if m.any():
            out[f"{name}_p50"], out[f"{name}_p90"] = (round(float(v), 4) for v in np.quantile(err[m], [0.5, 0.9]))
    return out


def train_refiner(data: list[Path], run: Path, faces: Path, steps: int, lr: float = 2e-3, batch: int = 128,
                  threads: int = 2) -> dict:
    """Train (or resume) the face refiner in ``run`` for ``steps`` batches of ``batch`` on a one-cycle schedule peaking
    at ``lr``, on the faces the face network at ``faces`` finds in every dataset of ``data`` (their train splits; val
    to check); checkpoints every 250 steps; exports the float network to ``run/face_refiner.onnx``."""
    import torch

    from training.net import RefineNet
    from vision.sessions import session, session_options

    torch.set_num_threads(threads)
    run.mkdir(parents=True, exist_ok=True)
    reader = FaceReader(session(faces, session_options().naming), faces)
    t0 = time.time()
    rng = np.random.default_rng(0)
    x, y, _ = (np.concatenate(p) for p in zip(*(load_refine(d, "train", reader, rng) for d in data), strict=True))
    checks = [load_refine(d, "val", reader, np.random.default_rng(1), variants=2) for d in data]
    xv, yv, sv = (np.concatenate(p) for p in zip(*checks, strict=True))
    log.info(f"refiner crops: train {len(x)}, val {len(xv)}; loaded in {time.time() - t0:.0f} s")
    net = RefineNet()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    ckpt, parts = run / "last.pt", ((net, "model"), (opt, "opt"), (sched, "sched"))
    start, history = resumed(ckpt, steps, parts, "the refiner run") or (
        0, [{"step": 0, "val_found": _found_errors(xv, yv, sv)}])
    if start:
        rng = np.random.default_rng(start)
        log.info(f"resuming the refiner at step {start}")
    smooth = torch.nn.SmoothL1Loss(beta=0.02)
    train_steps(net, parts, ckpt, x, lambda out, idx: smooth(out, torch.from_numpy(y[idx])),
                lambda: _errors(net, xv, yv, sv), steps, start, history, batch, rng)
    export_refiner(net, run / "face_refiner.onnx")
    summary = {"steps": steps, "batch": batch, "lr": lr, "crop": SIZE, "data": " + ".join(str(d) for d in data),
               "faces": str(faces), "train_crops": int(len(x)), "val_crops": int(len(xv)), "history": history,
               "seconds_total": round(sum(h.get("seconds", 0) for h in history), 1)}
    (run / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def _found_errors(x: np.ndarray, corners: np.ndarray, stands: np.ndarray) -> dict:
    """The errors of the faces as found, before the refiner (each crop's face cut ``REFINE_INSET`` in from its
    edges)."""
    from vision.faces import REFINE_INSET

    a, b = REFINE_INSET, 1 - REFINE_INSET
    return _off(np.tile(np.float32([a, a, b, a, b, b, a, b]), (len(x), 1)), corners, stands)


def export_refiner(net: object, dest: Path, size: int = SIZE) -> Path:
    """The face refiner as float ONNX: ``faces`` (n, 3, size, size) in, ``corners`` (n, 8) out."""
    return export_onnx(net, dest, size, "faces", ["corners"])


def ship_refiner(run: Path, dest: Path) -> Path:
    """The run's face refiner stored at ``dest`` with its weights as int8 rows times float32 scales, run in float
    (``training.compact.compact(int8=True)``): a quarter of the bytes; an int8 network whose activations are quantized
    too finds the corners coarser (``docs/photo.md``)."""
    import shutil

    from training.compact import compact

    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(run / "face_refiner.onnx", dest)
    compact(dest, int8=True)
    return dest
