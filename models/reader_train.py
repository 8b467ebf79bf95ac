"""Train the flower reader: the classifier's network (``vision/classifier_net.py``) with nine names, the eight
flowers and ``other``, on upright crops; resumable; exports ``flower_reader.onnx``.

The 43-name classifier knows a flower when it sees one (on an unseen style's flowers its flower probability is
0.2 or more for 62 of 65) but rarely which: their words and pictures are what differ, and it was never pushed to
read them. The reader is pushed to do nothing else. Its crops are turned upright by the sidecar's up direction
(detection turns them by the classifier's up head), and half of each batch then upside down: the classifier's up
head is wrong by half a turn on a third of an unseen style's flowers (19 of 65; by a quarter on 2), so the reader
learns to name a flower either way up (and, as a side task, which way is up: its up head, bins 0 and 2, which
detection does not use). ``other`` are crops of any other tile, so that it can say a tile is no flower. It starts
from a classifier run's weights (all but the name layer) or another reader run's. Called by
``models/train.py reader``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from classifier_train import _augment, export, load_real, load_synth
from synth import CLASS_ID

FLOWER_IDS = np.arange(CLASS_ID["1f"], CLASS_ID["8f"] + 1)
READER_NAMES = (*(f"{n}f" for n in range(1, 9)), "other")
OTHER = len(READER_NAMES) - 1


def upright(crops: np.ndarray, up: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) crops turned so that the art's up (bin k: k quarter turns clockwise from the image's up) points
    up: k quarter turns counter-clockwise.

    >>> c = np.zeros((1, 2, 2, 3), np.uint8); c[0, 0, 1] = 9  # bright top right; up points right (bin 1)
    >>> upright(c, np.array([1]))[0, 0, 0, 0]  # turned back a quarter: the bright pixel is at the top left
    9
    """
    return np.stack([np.rot90(c, int(k)) for c, k in zip(crops, up, strict=True)]) if len(crops) else crops


def reader_labels(cls: np.ndarray) -> np.ndarray:
    """Tile-name ids -> reader ids (0..7 the flowers 1f..8f, ``OTHER`` for every other name)."""
    return np.where(np.isin(cls, FLOWER_IDS), cls - FLOWER_IDS[0], OTHER)


def load_reader_crops(data: list[Path], real: Path, split: str, size: int, rng: np.random.Generator,
                      others: float = 1.2) -> tuple[np.ndarray, np.ndarray]:
    """Upright crops of every flower in the datasets' ``split`` and ``others`` times as many other tiles, drawn at
    random; for ``train`` also the training part of the real photos (all of them: upright already)."""
    xs, ys = [], []
    for d in data:
        x, cls, up = load_synth(d, split, 1, rng, size=size)
        flower = np.isin(cls, FLOWER_IDS)
        rest = np.flatnonzero(~flower)
        pick = np.sort(np.concatenate([np.flatnonzero(flower),
                                       rng.choice(rest, min(len(rest), int(flower.sum() * others)), replace=False)]))
        xs.append(upright(x[pick], up[pick]))
        ys.append(reader_labels(cls[pick]))
    if split == "train":
        x, cls = load_real(real, holdout=False, size=size)
        xs.append(x)
        ys.append(reader_labels(cls))
    return np.concatenate(xs), np.concatenate(ys)


def _eval(net: torch.nn.Module, x: np.ndarray, y: np.ndarray) -> dict:  # noqa: F821
    """Names and up direction on the crops as they are (upright) and turned upside down."""
    import torch

    net.eval()
    names, ups = [], []
    with torch.no_grad():
        for turn in (0, 2):
            for i in range(0, len(x), 512):
                xb = torch.rot90(torch.from_numpy(x[i:i + 512]).permute(0, 3, 1, 2).float() / 255, turn, (2, 3))
                n, u = net(xb)
                names.append(n.argmax(1).numpy())
                ups.append(u.argmax(1).numpy() == turn)
    net.train()
    p, y2, flower = np.concatenate(names), np.tile(y, 2), np.tile(y != OTHER, 2)
    return {"flowers": int(flower.sum()), "flowers_right": round(float((p[flower] == y2[flower]).mean()), 4),
            "others": int((~flower).sum()), "others_called_flower": int((p[~flower] != OTHER).sum()),
            "up_right": round(float(np.concatenate(ups).mean()), 4)}


def train_reader(data: list[Path], real: Path, run: Path, steps: int, init: Path, lr: float = 1e-3,
                 size: int = 96, threads: int = 2, batch: int = 128) -> dict:
    """Train (or resume) the reader run in ``run`` for ``steps`` batches on a one-cycle schedule peaking at ``lr``,
    starting from the checkpoint ``init`` (a classifier run's, or another reader run's to go on training it);
    checkpoints every 250 steps."""
    import torch

    from vision.classifier_net import TileNet

    torch.set_num_threads(threads)
    run.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    t0 = time.time()
    x, y = load_reader_crops(data, real, "train", size, rng)
    xv, yv = load_reader_crops(data, real, "val", size, rng)
    print(f"reader crops: train {len(x)} ({int((y != OTHER).sum())} flowers), val {len(xv)}; "
          f"loaded in {time.time() - t0:.0f} s", flush=True)
    net = TileNet(len(READER_NAMES))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    ckpt = run / "last.pt"
    start, history = 0, []
    if ckpt.exists():
        state = torch.load(ckpt, map_location="cpu", weights_only=False)
        if state["steps"] != steps:
            msg = (f"the reader run {run} was started for {state['steps']} steps: resume it with that many, or start "
                   f"another run")
            raise ValueError(msg)
        for part, key in ((net, "model"), (opt, "opt"), (sched, "sched")):
            part.load_state_dict(state[key])
        start, history = state["step"], state["history"]
        rng = np.random.default_rng(start)
        print(f"resuming the reader at step {start}", flush=True)
    else:
        weights, own = torch.load(init, map_location="cpu", weights_only=False)["model"], net.state_dict()
        # all that fits: a classifier's but its 43 names, another reader's whole
        net.load_state_dict({k: v for k, v in weights.items() if v.shape == own[k].shape}, strict=False)
        print(f"starting from {init}", flush=True)
    lossf = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(start)
    net.train()
    te = time.time()
    for step in range(start + 1, steps + 1):
        idx = np.sort(rng.integers(0, len(x), batch))
        xb = _augment(torch.from_numpy(x[idx]).permute(0, 3, 1, 2).float() / 255, gen)
        flip = torch.rand(len(idx), generator=gen) < 0.5
        xb[flip] = torch.rot90(xb[flip], 2, (2, 3))
        names, up = net(xb)
        loss = lossf(names, torch.from_numpy(y[idx])) + 0.5 * lossf(up, flip.long() * 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == steps:
            rec = {"step": step, "loss": round(loss.item(), 4), "seconds": round(time.time() - te, 1),
                   "synth_val": _eval(net, xv, yv)}
            history.append(rec)
            print(json.dumps(rec), flush=True)
            torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                        "step": step, "steps": steps, "history": history}, ckpt)
            te = time.time()
    export(net, run / "flower_reader.onnx", size)
    summary = {"steps": steps, "batch": batch, "data": " + ".join(str(d) for d in data), "init": str(init),
               "lr": lr, "crop": size, "train_crops": int(len(x)), "history": history,
               "seconds_total": round(sum(h["seconds"] for h in history), 1)}
    (run / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary
