"""Fine-tuning the tile classifier (the tile reader) on the boxes of labelled photos, from the shipped network.

The network starts as the float twin of the shipped int8 one (``training.ship.twin_checkpoint``, its folded batch
norms fixed). Its convolutional features stay as shipped and only the layers that read them learn (the fully
connected layer and the name and up heads; ``features=True``: all of it), so that what it sees in the sets it
reads already stays as it was. Those layers train on crops of the labelled boxes, cut as detection cuts them
(the photo decoded at the detector's working size, each tile turned straight by its tilt), each batch mixed with
replay crops (tiles of generated hands of the training styles, ``python -m training synth``, and the real camerash
training photos), so that it learns the new set without forgetting the others. On the replay crops it also learns to
give the names the shipped network gives them (its probabilities, softened: a distillation loss, ``DISTIL``), so
that what it reads of the sets it was not shown (the held-out style) moves as little as the new set allows. Each crop
is turned a random number of quarter turns.

The up head learns too: a labelled tile's up direction is the shipped network's, held to the sideways flag the labels
give (a tile lying sideways points left or right, one upright up or down).

``Tuner`` trains the steps that fit in a time budget (timed on its first steps), saving a checkpoint every
``SAVE_SECONDS`` from which a killed run goes on exactly where it stood (the batches drawn by saved generators).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from training.classifier import augment, load_real, load_synth, train_mode
from training.distil import distillation
from vision.crops import crop_tiles, tilts
from vision.detector import DetectorConfig
from vision.image import load_image
from vision.names import CLASS_ID

BATCH = 64
LR = 5e-4  # the one-cycle schedule's peak
SHARE = 0.5  # the labelled photos' crops' share of each batch; the rest is replay
REAL_SHARE = 0.25  # ... of which the real photos' (when there are generated ones too)
JITTER = 0.05  # box jitter, a share of the box's sides (as a finder misses)
VARIANTS = 4  # jittered crops per labelled tile (the first unjittered)
SAVE_SECONDS = 20.0  # a checkpoint this often
WARM = 0.1  # the schedule's share of steps warming up
PLAN_AFTER = 5  # steps timed before the rest are planned
REPLAN = 25  # ... and planned again every this many steps, at the pace so far: a machine grown busy still ends on time
UP_LOSS = 0.5
# the distillation loss's weight (``training/distil.py``): the replay crops' names held to the shipped network's
DISTIL = 1.0


@dataclass(frozen=True)
class Crops:
    """Tile crops (N, S, S, 3 uint8), their class ids (N,) and up-direction bins (N, 0..3: the art's up k quarter
    turns clockwise from the crop's)."""

    x: np.ndarray
    y: np.ndarray
    up: np.ndarray

    def __len__(self) -> int:
        return len(self.y)

    @staticmethod
    def join(parts: Sequence[Crops]) -> Crops:
        parts = [p for p in parts if len(p)]
        if not parts:
            return Crops(np.zeros((0, 1, 1, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64))
        return Crops(*(np.concatenate(a) for a in zip(*((p.x, p.y, p.up) for p in parts), strict=True)))


def photo_crops(photos: Sequence, size: int, up_of: Callable[[np.ndarray, np.ndarray], np.ndarray], seed: int,
                variants: int = VARIANTS, progress: Callable[[], None] | None = None) -> Crops:
    """Crops of every labelled box of ``photos`` (``training.labelled.Photo``), ``variants`` per box (the first as
    labelled, the others jittered), cut as detection cuts them; ``up_of(crops, sideways)`` gives their up bins
    (``sideways``: 1, 0, or -1 where the labels do not say)."""
    rng = np.random.default_rng(seed)
    work = DetectorConfig().work_side
    xs, ys, ups = [], [], []
    for photo in photos:
        tiles = photo.tiles
        if tiles:
            rgb, scale = load_image(photo.image, work)
            boxes = np.array([t.box for t in tiles], np.float64) * scale
            tilt = tilts(rgb, boxes)
            side = np.array([-1 if t.sideways is None else int(t.sideways) for t in tiles])
            up = up_of(crop_tiles(rgb, boxes, size, tilt=tilt), side)
            wh = np.tile(boxes[:, 2:] - boxes[:, :2], 2)
            for v in range(variants):
                jit = rng.normal(0, JITTER, boxes.shape) * wh if v else 0.0
                xs.append(crop_tiles(rgb, boxes + jit, size, tilt=tilt))
                ys.append([CLASS_ID[t.name] for t in tiles])
                ups.append(up)
        if progress:
            progress()
    if not xs:
        return Crops.join([])
    return Crops(np.concatenate(xs), np.concatenate(ys).astype(np.int64), np.concatenate(ups).astype(np.int64))


def held_up(up_probs: np.ndarray, sideways: np.ndarray) -> np.ndarray:
    """Up bins from the network's up probabilities (N, 4), held to the labels' sideways flags (1: left or right,
    0: up or down, -1: any).

    >>> held_up(np.array([[0.1, 0.5, 0.3, 0.1], [0.1, 0.5, 0.3, 0.1], [0.1, 0.5, 0.3, 0.1]]), np.array([0, 1, -1]))
    array([2, 1, 1])
    """
    allowed = np.ones_like(up_probs, bool)
    allowed[sideways == 1] = [False, True, False, True]
    allowed[sideways == 0] = [True, False, True, False]
    return np.where(allowed, up_probs, -1.0).argmax(1)


def synth_crops(datasets: Sequence[Path], size: int, seed: int, limit: int = 400) -> Crops:
    """Replay: crops of the tiles of up to ``limit`` photos of each generated dataset's train split."""
    rng = np.random.default_rng(seed)
    return Crops.join([Crops(*load_synth(d, "train", 1, rng, limit=limit, size=size, decoys=False)) for d in datasets])


def real_crops(root: Path | None, size: int) -> Crops:
    """Replay: the real camerash training photos (upright: up bin 0), when ``root`` holds them."""
    if root is None:
        return Crops.join([])
    x, y = load_real(root, holdout=False, size=size)
    return Crops(x, y, np.zeros(len(y), np.int64))


def turned(x: np.ndarray, up: np.ndarray, turns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Crops turned ``turns`` quarter turns clockwise, and their up bins turned with them.

    >>> c = np.zeros((1, 2, 2, 3), np.uint8); c[0, 0, 0] = 9  # bright top left
    >>> x, up = turned(c, np.array([0]), np.array([1])); int(x[0, 0, 1, 0]), up.tolist()  # now top right, up right
    (9, [1])
    """
    out = np.stack([np.rot90(c, -int(k)) for c, k in zip(x, turns, strict=True)]) if len(x) else x
    return np.ascontiguousarray(out), (up + turns) % 4


def plan_steps(seconds: float, step_seconds: float, most: int, least: int = 1) -> int:
    """The steps that fit in ``seconds`` at ``step_seconds`` each, from ``least`` to ``most``.

    >>> plan_steps(600, 1.5, 1000), plan_steps(600, 0.3, 1000), plan_steps(1, 5, 1000), plan_steps(1, 5, 100, 8)
    (400, 1000, 1, 8)
    """
    return max(least, min(most, int(seconds / max(step_seconds, 1e-6))))


def rate(step: int, steps: int, peak: float) -> float:
    """The learning rate at ``step`` of ``steps``: up from a tenth of ``peak`` over the first ``WARM`` of them, then
    down to nothing along a half cosine (a one-cycle schedule, computed afresh each step: the steps may be planned
    again after the first few).

    >>> [round(rate(s, 101, 1.0), 3) for s in (0, 5, 10, 55, 100)]
    [0.1, 0.55, 1.0, 0.5, 0.0]
    """
    warm = max(1, round(WARM * steps))
    if step < warm:
        return peak * (0.1 + 0.9 * step / warm)
    return peak * 0.5 * (1 + math.cos(math.pi * min(1.0, (step - warm) / max(1, steps - 1 - warm))))


class Tuner:
    """The classifier's fine-tune: ``Tuner(init, data, replay, real, ckpt).run(steps, seconds)``; resumes from
    ``ckpt``. Each batch: ``share`` of it labelled crops, the rest replay (``REAL_SHARE`` of that real photos)."""

    def __init__(self, init: Path, data: Crops, replay: Crops, real: Crops, ckpt: Path, seed: int = 0,
                 lr: float = LR, share: float = SHARE, batch: int = BATCH, features: bool = False) -> None:
        import torch

        from training.net import TileNet

        self.ckpt, self.lr, self.batch = ckpt, lr, batch
        ours = round(batch * share) if len(replay) + len(real) else batch
        theirs = batch - ours
        mine = round(theirs * REAL_SHARE) if len(replay) and len(real) else theirs if len(real) else 0
        self.pools = [(c, n) for c, n in ((data, ours), (replay, theirs - mine), (real, mine)) if n]
        self.ours = ours if len(data) else 0  # the first of each batch's crops are labelled ones, the rest replay
        start = torch.load(init, map_location="cpu", weights_only=False)
        self.net = TileNet(len(CLASS_ID))
        self.net.load_state_dict(start["model"])
        self.shipped = TileNet(len(CLASS_ID))  # the distillation's teacher: the network as it started
        self.shipped.load_state_dict(start["model"])
        self.shipped.eval().requires_grad_(False)
        self.frozen_norms = bool(start.get("frozen_norms", False))
        self.features = features
        self.net.features.requires_grad_(features)  # kept as shipped unless ``features``: only the heads learn
        learnt = [p for p in self.net.parameters() if p.requires_grad]
        self.opt = torch.optim.AdamW(learnt, lr=lr, weight_decay=1e-4)
        self.step, self.steps, self.most, self.planned, self.losses = 0, 0, 0, False, []
        self.rng = np.random.default_rng(seed)
        self.gen = torch.Generator().manual_seed(seed)  # the jitter's
        torch.manual_seed(seed)  # dropout's
        self.lossf = torch.nn.CrossEntropyLoss(label_smoothing=0.05)

    def resume(self) -> bool:
        """Load the checkpoint, when there is one; True when loaded."""
        import torch

        if not self.ckpt.exists():
            return False
        state = torch.load(self.ckpt, map_location="cpu", weights_only=False)
        self.net.load_state_dict(state["model"])
        self.opt.load_state_dict(state["opt"])
        self.step, self.steps, self.planned, self.losses = state["step"], state["steps"], state["planned"], state[
            "losses"]
        self.most = state.get("most", self.steps)
        self.rng.bit_generator.state = state["rng"]
        self.gen.set_state(state["gen"])
        torch.set_rng_state(state["torch"])
        return True

    def save(self) -> None:
        import torch

        tmp = self.ckpt.with_suffix(".tmp")
        torch.save({"model": self.net.state_dict(), "opt": self.opt.state_dict(), "step": self.step,
                    "steps": self.steps, "most": self.most, "planned": self.planned, "losses": self.losses,
                    "rng": self.rng.bit_generator.state, "gen": self.gen.get_state(), "torch": torch.get_rng_state(),
                    "frozen_norms": self.frozen_norms}, tmp)
        tmp.replace(self.ckpt)

    def _batch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        picks = [(c, self.rng.integers(0, len(c), n)) for c, n in self.pools]
        x = np.concatenate([c.x[i] for c, i in picks])
        y = np.concatenate([c.y[i] for c, i in picks])
        up = np.concatenate([c.up[i] for c, i in picks])
        x, up = turned(x, up, self.rng.integers(0, 4, len(y)))
        return x, y, up

    def train_step(self) -> float:
        """One batch: the names' loss, the up directions' (at ``UP_LOSS``) and the replay crops' distillation (at
        ``DISTIL``), at this step's rate."""
        import torch

        for group in self.opt.param_groups:
            group["lr"] = rate(self.step, self.steps, self.lr)
        x, y, up = self._batch()
        xb = augment(torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255, self.gen)
        names, ups = self.net(xb)
        loss = self.lossf(names, torch.from_numpy(y)) + UP_LOSS * self.lossf(ups, torch.from_numpy(up))
        if DISTIL and self.ours < len(y):
            with torch.no_grad():
                taught = self.shipped(xb[self.ours:])[0]
            loss = loss + DISTIL * distillation(names[self.ours:], taught)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return float(loss.item())

    def run(self, steps: int, seconds: float | None = None, progress: Callable[[int, float], None] | None = None,
            save_seconds: float = SAVE_SECONDS) -> None:
        """Train up to ``steps`` steps (a resumed run: as many as its first session was given); with ``seconds``, as
        many as fit in them, planned after the first ``PLAN_AFTER`` and again every ``REPLAN`` at this session's pace
        so far (the learning rate's schedule follows the plan; without ``seconds`` a resumed run keeps its plan). A
        checkpoint every ``save_seconds``, and at the end."""
        if not self.steps:
            self.steps, self.most, self.planned = steps, steps, seconds is None
        train_mode(self.net, self.frozen_norms)
        if not self.features:
            self.net.features.eval()
        started = saved = time.monotonic()
        first = self.step
        while self.step < self.steps:
            loss = self.train_step()
            self.step += 1
            self.losses.append(round(loss, 4))
            done = self.step - first
            if seconds is not None and done >= PLAN_AFTER and (not self.planned or done % REPLAN == 0):
                took = time.monotonic() - started
                least = 0 if self.planned else 1  # (planned again, the run may end here: at its most steps)
                self.steps = plan_steps(seconds - took, took / done, self.most - self.step, least) + self.step
                self.planned = True
            if progress:
                progress(self.step, loss)
            if time.monotonic() - saved >= save_seconds or self.step == self.steps:
                self.save()
                saved = time.monotonic()
        self.net.eval()
