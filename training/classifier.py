"""Train the tile classifier (``training/net.py``) on crops; resumable; exports its run's tile_classifier.onnx.

Crops come from the synthetic hands (``training/synth.py`` sidecars give each tile's box, name and up direction;
boxes are jittered the way a finder misses) and from the training part of the real camerash photos (rotated by
multiples of 90 degrees). The real photos whose name hashes into ``real_holdout`` are never trained on. Some crops
may be given a camera's faults (``camera_faults``: out of focus, shaken, a lamp's highlight), as the soft classifier
learnt them. Called by ``python -m training classifier``; ``ship`` stores a run's network as int8 in ``models/``
(``--soft``: as the soft classifier).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import time
import warnings
from pathlib import Path

import cv2
import numpy as np

from training.distil import distillation
from training.real import real_photos
from training.styles import DECOY_PREFIX
from vision.crops import CROP, MARGIN, crop_tiles
from vision.names import CLASS_ID, NAMES

log = logging.getLogger(__name__)


def load_real(root: Path, holdout: bool, size: int = CROP) -> tuple[np.ndarray, np.ndarray]:
    """Camerash photos (upright tiles, 240x320) as square crops; ``holdout`` picks which part."""
    imgs, labels = [], []
    for label, img in real_photos(root, holdout):
        h, w = img.shape[:2]
        imgs.append(crop_tiles(img, np.array([[0.04 * w, 0.03 * h, 0.96 * w, 0.97 * h]]), size)[0])
        labels.append(CLASS_ID[label])
    return np.stack(imgs), np.array(labels, np.int64)


MARK_TEXT = "123456789ESWN"
MARK_INKS = ((200, 30, 30), (180, 20, 40), (20, 20, 20), (30, 60, 160), (20, 120, 60))


@functools.cache
def _mark_sprites() -> tuple[np.ndarray, ...]:
    """Ink masks (float, 0-1) of the index marks tile sets print in a corner: digits and wind letters (drawn once;
    ``add_marks`` runs once per photo)."""
    from PIL import Image, ImageDraw, ImageFont

    fonts = sorted(Path("/usr/share/fonts").rglob("DejaVuSans*.ttf")) or sorted(Path("/usr/share/fonts").rglob("*.ttf"))
    sprites = []
    for path in fonts[:4]:
        font = ImageFont.truetype(str(path), 40)
        for ch in MARK_TEXT:
            img = Image.new("L", (60, 60), 0)
            ImageDraw.Draw(img).text((8, 2), ch, font=font, fill=255)
            sprites.append(np.asarray(img.crop(img.getbbox()), np.float32) / 255)
    return tuple(sprites)


def add_marks(crops: np.ndarray, boxes: np.ndarray, share: float, rng: np.random.Generator) -> None:
    """Print a random index mark (digit or wind letter, any ink) in a random corner of ``share`` of the tiles, in
    place: marks that say nothing of the tile's name, so the classifier learns not to be misled by a set's marks
    (a held-out set's red corner digits pulled its 5m to 6m; `models/README.md`). ``boxes``: the crops' boxes."""
    sprites = _mark_sprites()
    side = crops.shape[1]
    for i in np.flatnonzero(rng.random(len(crops)) < share):
        x0, y0, x1, y1 = boxes[i]
        w, h = x1 - x0, y1 - y0
        s = side / (max(w, h, 1.0) * MARGIN)
        tw, th = w * s, h * s
        sprite = sprites[int(rng.integers(len(sprites)))]
        mh = max(4, round(min(tw, th) * rng.uniform(0.12, 0.22)))
        mw = max(2, round(sprite.shape[1] * mh / sprite.shape[0]))
        mask = cv2.resize(sprite, (mw, mh), interpolation=cv2.INTER_AREA)[..., None]
        inset = 0.07 * min(tw, th)
        right, bottom = rng.random() < 0.5, rng.random() < 0.5
        cx = side / 2 + (tw / 2 - inset - mw if right else -tw / 2 + inset)
        cy = side / 2 + (th / 2 - inset - mh if bottom else -th / 2 + inset)
        px, py = int(round(cx)), int(round(cy))
        if px < 0 or py < 0 or px + mw > side or py + mh > side:
            continue
        ink = np.array(MARK_INKS[int(rng.integers(len(MARK_INKS)))], np.float32)
        patch = crops[i, py:py + mh, px:px + mw].astype(np.float32)
        crops[i, py:py + mh, px:px + mw] = (patch * (1 - mask) + ink * mask).astype(np.uint8)


def load_synth(data: Path, split: str, variants: int, rng: np.random.Generator,
               limit: int = 0, marks: float = 0.0, size: int = CROP,
               index_marks: list | None = None, decoys: bool = True,
               leave_out: tuple[str, ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Jittered ``size``-pixel crops of every labelled tile in a split: (crops, class ids, up-direction bins);
    ``marks``: the share of crops given a random index mark (``add_marks``); ``index_marks``, when given, is extended
    by each crop's index mark as its style records it (``layout["marks"]``: "" none, None not known); without
    ``decoys``, the photos of decoy styles (``drawn-art --decoys``: a suit tile's body shows another number than
    its label) are left out; so are the tiles named in ``leave_out``."""
    crops, cls, ori = [], [], []
    files = sorted((data / "layout" / split).glob("*.json"))
    if limit:
        files = files[:limit]
    for js in files:
        layout = json.loads(js.read_text())
        if not decoys and layout.get("style", "").startswith(DECOY_PREFIX):
            continue
        img = cv2.imread(str(data / "images" / split / f"{js.stem}.jpg"))
        if img is None:
            continue
        img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
        tiles = [t for t in layout["tiles"] if t["visible"] >= 0.6 and t["label"] not in leave_out]
        if not tiles:
            continue
        boxes = np.array([t["box"] for t in tiles], np.float64)
        for _ in range(variants):
            w = (boxes[:, 2] - boxes[:, 0])[:, None]
            h = (boxes[:, 3] - boxes[:, 1])[:, None]
            jit = rng.normal(0, 0.05, (len(boxes), 4)) * np.concatenate([w, h, w, h], 1)
            crops.append(crop_tiles(img, boxes + jit, size))
            if marks:
                add_marks(crops[-1], boxes + jit, marks, rng)
            cls += [CLASS_ID[t["label"]] for t in tiles]
            if index_marks is not None:
                index_marks += [layout.get("marks", {}).get(t["label"], "" if t["label"] == "back" else None)
                                for t in tiles]
            ori += [round(t["up_angle"] / 90) % 4 for t in tiles]
    return np.concatenate(crops), np.array(cls, np.int64), np.array(ori, np.int64)


FAULT_REACH = 7  # the faults' kernels reach this many pixels from their middle (15 x 15)
FAULT_BLUR = (0.6, 4.0)  # the out-of-focus Gaussians' sigmas, pixels


def camera_faults(x: torch.Tensor, gen: torch.Generator, share: float,  # noqa: F821
                  kinds: tuple[float, float, float] | None = None,
                  blur: tuple[float, float] = FAULT_BLUR) -> torch.Tensor:  # noqa: F821
    """``share`` of the crops (N, 3, H, W, values 0-1) as a phone's faults make them, a third each (or as weighed by
    ``kinds``): out of focus (a Gaussian of ``blur`` pixels, 0.6 to 4), shaken (a streak of 2 to 13 pixels at any
    angle) or under a lamp's highlight (a bright spot of a sixth to half the crop, adding 0.3 to 0.9). On 96-pixel
    crops of a 3 to 12 MP hand these span ``bench/eval_degraded.py``'s blur_0.05 to blur_0.25 and motion_0.3 to
    motion_0.6."""
    import torch
    import torch.nn.functional as F  # noqa: N812

    n, c, h, w = x.shape
    pick = torch.nonzero(torch.rand(n, generator=gen) < share).flatten()
    m = len(pick)
    if not m:
        return x
    kind = torch.randint(0, 3, (m, 1, 1), generator=gen) if kinds is None else \
        torch.multinomial(torch.tensor(kinds, dtype=torch.float32), m, True, generator=gen).reshape(m, 1, 1)
    r = FAULT_REACH
    yy, xx = torch.meshgrid(torch.arange(-r, r + 1.0), torch.arange(-r, r + 1.0), indexing="ij")
    sigma = torch.empty(m, 1, 1).uniform_(*blur, generator=gen)
    gauss = torch.exp(-(xx ** 2 + yy ** 2) / (2 * sigma ** 2))
    angle = torch.empty(m, 1, 1).uniform_(0, math.pi, generator=gen)
    length = torch.empty(m, 1, 1).uniform_(2, 13, generator=gen)
    across = (yy * torch.cos(angle) - xx * torch.sin(angle)).abs()
    along = (xx * torch.cos(angle) + yy * torch.sin(angle)).abs()
    streak = (1 - across).clamp(min=0) * (along <= length / 2 + 0.5)
    sharp = ((xx == 0) & (yy == 0)).float().expand(m, -1, -1)
    kernel = torch.where(kind == 0, gauss, torch.where(kind == 1, streak, sharp))
    kernel = kernel / kernel.sum((1, 2), keepdim=True)
    padded = F.pad(x[pick], (r, r, r, r), mode="replicate").reshape(1, m * c, h + 2 * r, w + 2 * r)
    out = F.conv2d(padded, kernel.repeat_interleave(c, 0)[:, None], groups=m * c).reshape(m, c, h, w)
    cy = torch.empty(m, 1, 1).uniform_(0, h, generator=gen)
    cx = torch.empty(m, 1, 1).uniform_(0, w, generator=gen)
    size = torch.empty(m, 1, 1).uniform_(1 / 6, 1 / 2, generator=gen) * w
    gain = torch.empty(m, 1, 1).uniform_(0.3, 0.9, generator=gen) * (kind == 2)
    py, px = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    spot = gain * torch.exp(-((px - cx) ** 2 + (py - cy) ** 2) / (2 * size ** 2))
    x = x.clone()
    x[pick] = (out + spot[:, None]).clamp(0, 1)
    return x


def augment(x: torch.Tensor, gen: torch.Generator, strong: bool = True,  # noqa: F821
            faults: float = 0.0, clean: bool = False, kinds: tuple[float, float, float] | None = None,
            blur: tuple[float, float] = FAULT_BLUR) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:  # noqa: F821
    """Photometric jitter; with ``strong``, also style jitter so unseen tile sets read: ink colours swapped
    (channel order), grey, thinner/thicker strokes, and a small random zoom, shift and turn; ``faults``: the share
    of crops then given a camera's faults (``camera_faults``) before the light and the sensor's noise; with
    ``clean``, also the same crops without the faults (their light and noise alike), as a teacher is shown them;
    ``kinds``, ``blur``: as ``camera_faults`` takes them."""
    import torch
    import torch.nn.functional as F  # noqa: N812

    n = x.shape[0]
    if strong:
        perm = torch.rand(n, generator=gen) < 0.4
        if perm.any():
            orders = torch.tensor([[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
            pick = orders[torch.randint(0, 5, (int(perm.sum()),), generator=gen)]
            xs = x[perm]
            x[perm] = torch.stack([xs[i, pick[i]] for i in range(len(pick))])
        grey = torch.rand(n, generator=gen) < 0.15
        if grey.any():
            x[grey] = x[grey].mean(1, keepdim=True).expand(-1, 3, -1, -1)
        r = torch.rand(n, generator=gen)
        thin, thick = r < 0.15, (r >= 0.15) & (r < 0.3)
        if thin.any():
            x[thin] = F.max_pool2d(x[thin], 3, 1, 1)
        if thick.any():
            x[thick] = -F.max_pool2d(-x[thick], 3, 1, 1)
        s = torch.empty(n).uniform_(0.88, 1.12, generator=gen)
        a = torch.empty(n).uniform_(-0.12, 0.12, generator=gen)
        t = torch.empty(n, 2).uniform_(-0.06, 0.06, generator=gen)
        theta = torch.zeros(n, 2, 3)
        theta[:, 0, 0] = s * torch.cos(a)
        theta[:, 0, 1] = -s * torch.sin(a)
        theta[:, 1, 0] = s * torch.sin(a)
        theta[:, 1, 1] = s * torch.cos(a)
        theta[:, :, 2] = t
        grid = F.affine_grid(theta, list(x.shape), align_corners=False)
        x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    before = x
    if faults:
        x = camera_faults(x, gen, faults, kinds, blur)
    b = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3, generator=gen)
    c = torch.empty(n, 1, 1, 1).uniform_(-0.12, 0.12, generator=gen)
    col = torch.empty(n, 3, 1, 1).uniform_(0.9, 1.1, generator=gen)
    noise = torch.randn(x.shape, generator=gen) * torch.empty(n, 1, 1, 1).uniform_(0, 0.04, generator=gen)

    def lit(v: torch.Tensor) -> torch.Tensor:
        return (v * b * col + c + noise).clamp(0, 1)

    return (lit(x), lit(before)) if clean else lit(x)


def _rot_real(x: np.ndarray, y: np.ndarray, reps: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Real upright crops rotated by k*90 degrees clockwise; up-direction bin = k."""
    xs, ys, os_ = [], [], []
    for _ in range(reps):
        k = rng.integers(0, 4, len(x))
        for i in range(len(x)):
            xs.append(np.rot90(x[i], -int(k[i])).copy())
        ys.append(y)
        os_.append(k)
    return np.stack(xs), np.concatenate(ys), np.concatenate(os_)


def evaluate(net: torch.nn.Module, x: np.ndarray, y: np.ndarray, o: np.ndarray | None = None) -> dict:  # noqa: F821
    import torch

    net.eval()
    device = next(net.parameters()).device
    pc, po = [], []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            xb = torch.from_numpy(x[i:i + 512]).permute(0, 3, 1, 2).float().to(device) / 255
            lc, lo = net(xb)
            pc.append(lc.argmax(1).cpu().numpy())
            po.append(lo.argmax(1).cpu().numpy())
    res = {"n": int(len(y)), "top1": float((np.concatenate(pc) == y).mean())}
    if o is not None:
        res["orient"] = float((np.concatenate(po) == o).mean())
    return res


def train_mode(net: torch.nn.Module, frozen_norms: bool) -> None:  # noqa: F821
    """``net`` set to train, its batch norms kept in eval (their statistics fixed) when ``frozen_norms``: a shipped
    network's float twin has them folded into its convolutions (``ship.twin_checkpoint``)."""
    import torch

    net.train()
    for m in net.modules() if frozen_norms else ():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


def train_classifier(data: list[Path], real: Path, run: Path, epochs: int, threads: int = 1,
                     init: Path | None = None, lr: float = 2e-3, marks: float = 0.0, size: int = CROP,
                     device: str = "cpu", leave_out: tuple[str, ...] = (), faults: float = 0.0,
                     distil: float = 0.0, fault_kinds: tuple[float, float, float] | None = None,
                     fault_blur: tuple[float, float] = FAULT_BLUR) -> dict:
    """Train (or resume) the classifier run in ``run`` on ``size``-pixel crops; ``init``: a run's checkpoint to start
    from (a fine-tune, with a fresh optimizer and one-cycle schedule peaking at ``lr``; any crop size: the network
    resamples its features to one size); ``device``: where PyTorch trains it (``cpu``, ``cuda``; the crops are
    jittered on the CPU); ``leave_out``: names whose tiles the first dataset's crops leave out (the others' keep them:
    a dataset of new styles whose white dragons and backs are not to shift the network's balance between the two);
    ``faults``: the share of crops given a camera's faults (``camera_faults``, of ``fault_kinds`` and ``fault_blur``);
    ``distil``: the weight of a distillation loss (``distil.distillation``) holding the names of each crop, faults
    and all, to those the network it started from (``init``) gives the crop without them: what it read stays as it
    was, and a fault learns to change nothing (a fine-tune on fewer styles than its start, without it, drifts on the
    held-out one)."""
    import torch
    from torch import nn

    from training.net import TileNet

    if distil and init is None:
        raise ValueError("distil needs init: the network whose names are kept")
    torch.set_num_threads(threads)
    run.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    t0 = time.time()
    train = [load_synth(d, "train", 2, rng, marks=marks, size=size, decoys=False, leave_out=leave_out if k == 0 else ())
             for k, d in enumerate(data)]
    xs, ys, os_ = (np.concatenate(a) for a in zip(*train, strict=True))
    del train
    val = [load_synth(d, "val", 1, rng, size=size, decoys=False) for d in data]
    xv, yv, ov = (np.concatenate(a) for a in zip(*val, strict=True))
    xr, yr = load_real(real, holdout=False, size=size)
    xh, yh = load_real(real, holdout=True, size=size)
    xrr, yrr, orr = _rot_real(xr, yr, 24, rng)
    log.info(f"crops: synth train {len(xs)}, synth val {len(xv)}, real train {len(xr)} (x24 rotated), "
             f"real held out {len(xh)}; loaded in {time.time() - t0:.0f} s")
    x_all = np.concatenate([xs, xrr])
    y_all = np.concatenate([ys, yrr])
    o_all = np.concatenate([os_, orr])
    net = TileNet(len(NAMES)).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    ckpt = run / "last.pt"
    start = 0
    history: list[dict] = []
    frozen_norms = False  # a shipped network's twin (ship.twin_checkpoint): its folded norms stay fixed
    if ckpt.exists():
        state = torch.load(ckpt, map_location="cpu", weights_only=False)
        net.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        start, history = state["epoch"] + 1, state["history"]
        frozen_norms = bool(state.get("frozen_norms", False))
        log.info(f"resuming classifier at epoch {start}")
    elif init is not None:
        start_from = torch.load(init, map_location="cpu", weights_only=False)
        net.load_state_dict(start_from["model"])
        frozen_norms = bool(start_from.get("frozen_norms", False))
        log.info(f"starting from {init}")
    teacher = None
    if distil:
        teacher = TileNet(len(NAMES)).to(device)
        teacher.load_state_dict(torch.load(init, map_location="cpu", weights_only=False)["model"])
        teacher.eval()
    steps_per_epoch = (len(x_all) // 2 + 127) // 128  # half the synthetic variants each epoch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch,
                                                last_epoch=start * steps_per_epoch - 1 if start else -1)
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(0)
    for epoch in range(start, epochs):
        train_mode(net, frozen_norms)
        te = time.time()
        order = rng.permutation(len(x_all))[: steps_per_epoch * 128]
        tot = 0.0
        for s in range(steps_per_epoch):
            idx = np.sort(order[s * 128:(s + 1) * 128])
            if len(idx) == 0:
                continue
            xb = torch.from_numpy(x_all[idx]).permute(0, 3, 1, 2).float() / 255
            xb = augment(xb, gen, faults=faults, clean=teacher is not None, kinds=fault_kinds, blur=fault_blur)
            xb, shown = xb if teacher is not None else (xb, None)
            lc, lo = net(xb.to(device))
            loss = (lossf(lc, torch.from_numpy(y_all[idx]).to(device))
                    + 0.5 * lossf(lo, torch.from_numpy(o_all[idx]).to(device)))
            if teacher is not None:
                with torch.no_grad():
                    taught = teacher(shown.to(device))[0]
                loss = loss + distil * distillation(lc, taught)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
        rec = {"epoch": epoch, "loss": tot / steps_per_epoch, "seconds": round(time.time() - te, 1),
               "synth_val": evaluate(net, xv, yv, ov), "real_holdout": evaluate(net, xh, yh)}
        history.append(rec)
        log.info(json.dumps(rec))
        torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch, "history": history,
                    "frozen_norms": frozen_norms}, ckpt)
    export(net.cpu(), run / "tile_classifier.onnx", size)  # shipped only on request (``python -m training ship``)
    summary = {"epochs": epochs, "data": " + ".join(str(d) for d in data), "history": history,
               "init": str(init) if init else None, "lr": lr, "marks": marks, "crop": size,
               "leave_out": list(leave_out), "faults": faults, "distil": distil,
               "fault_kinds": list(fault_kinds) if fault_kinds else None, "fault_blur": list(fault_blur),
               "train_crops": int(len(xs)),
               "real_train": int(len(xr)), "real_holdout": int(len(xh)),
               "seconds_total": round(sum(h["seconds"] for h in history), 1)}
    (run / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def export(net: torch.nn.Module, dest: Path, size: int = CROP,  # noqa: F821
           names: tuple[str, ...] | None = None, look: bool = True) -> Path:
    """The network as float ONNX for ONNX Runtime: batch size free, crops ``size`` pixels (detection reads the size);
    outputs ``tile``, ``up`` and, with ``look``, the features both read (``TileNet.look``; detection needs them from
    the classifier, not from a reader); a reader's ``names`` (its outputs' order) go in the model's metadata, where
    detection reads them. ``training/ship.py`` stores it as int8 for shipping."""
    import torch

    class Heads(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
            f = self.net.look(x)
            return (self.net.cls(f), self.net.orient(f), f) if look else (self.net.cls(f), self.net.orient(f))

    net.eval()
    dest.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(1, 3, size, size)
    outputs = ["tile", "up", "look"] if look else ["tile", "up"]
    with warnings.catch_warnings():  # the crop size is fixed in the export, as the tracer warns it will be
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        torch.onnx.export(Heads().eval(), (x,), str(dest), input_names=["crops"], output_names=outputs,
                          dynamic_axes={k: {0: "n"} for k in ["crops", *outputs]}, opset_version=17, dynamo=False)
    if names is not None:
        name_model(dest, names)
    return dest


def name_model(path: Path, names: tuple[str, ...]) -> None:
    """Write ``names`` (comma-separated) into the ONNX model's metadata under ``names``."""
    import onnx

    model = onnx.load(str(path))
    del model.metadata_props[:]
    model.metadata_props.add(key="names", value=",".join(names))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
