"""Train a reader: the classifier's network (``training/net.py``) with one family's names and ``other``, on
upright crops; resumable; exports ``<family>_reader.onnx`` with its names in the model's metadata and its weights
stored as float16.

Two families ship. The flower reader (1f..8f): the 43-name classifier knows a flower when it sees one (on an unseen
style's flowers its flower probability is 0.2 or more for 62 of 65) but rarely which: their words and pictures are
what differ, and it was never pushed to read them. The character reader (1m..9m): the classifier's up head is right
on every character tile of an unseen style (282 of 282), but it reads a cursive numeral it has not seen as another
(伍 as 六: 16 of 42). A third family, dots (1p..9p), was tried and made that style's 6p worse (``models/README.md``).
A reader is pushed to do nothing else. Its crops are turned upright by the sidecar's up
direction (detection turns them by the classifier's up head), and half of each batch then upside down: the up head
is wrong by half a turn on a third of an unseen style's flowers (19 of 65; by a quarter on 2), so the reader learns
to read a tile either way up (and, as a side task, which way is up: its up head, bins 0 and 2, which detection does
not use). ``other`` are crops of any other tile, so that it can say a tile is none of its family; with
``hard_others`` part of them are the other tiles its starting network takes most for the family. It starts from a
classifier run's weights (all but the name layer) or another reader run's. Called by ``python -m training reader``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from training.classifier import augment, export, load_real, load_synth, train_mode
from training.distil import distillation
from vision.names import CLASS_ID
from vision.readers import SEAT_OF

FAMILIES = {"flower": tuple(f"{n}f" for n in range(1, 9)), "character": tuple(f"{n}m" for n in range(1, 10)),
            "dot": tuple(f"{n}p" for n in range(1, 10))}
OTHERS = 1.2  # a reader trains on this many other tiles per tile of its family
ALL = 1e9  # ... or, picking them again as it learns (``mine_every``), holds every other tile of the data
# the mark reader reads a tile's index numeral, whatever the tile: its names are the numerals, and ``other`` for a
# tile that prints none (or a letter)
MARKS = tuple("123456789")
# the seat reader reads a flower's seat, 1 to 4 (spring and plum 1 ... winter and bamboo 4), by its seat numeral
# (Arabic or Chinese), its character, its caption or its picture: its names are the seats, and ``other`` for any
# tile not a flower
SEATS = tuple("1234")

log = logging.getLogger(__name__)


def reader_names(family: str) -> tuple[str, ...]:
    """The reader's names, in the order of its outputs: the family's tiles (the mark reader's: the numerals), then
    ``other``."""
    return (*(MARKS if family == "mark" else SEATS if family == "seat" else FAMILIES[family]), "other")


def mark_labels(marks: list[str | None]) -> np.ndarray:
    """Index marks -> mark reader ids (a numeral's, or ``other`` for none or a letter; -1 where not known).

    >>> mark_labels(["7", "", "E", None]).tolist()
    [6, 9, 9, -1]
    """
    return np.array([-1 if m is None else MARKS.index(m) if m in MARKS else len(MARKS) for m in marks], np.int64)


def load_mark_crops(data: list[Path], split: str, size: int, rng: np.random.Generator,
                    others: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Upright crops of every tile whose style records a numeral on it and ``others`` times as many of the tiles
    known to print none (no real photos: their marks are not known)."""
    xs, ys = [], []
    for d in data:
        marks: list = []
        x, _, up = load_synth(d, split, 1, rng, size=size, index_marks=marks)
        y = mark_labels(marks)
        numbered, rest = np.flatnonzero((y >= 0) & (y < len(MARKS))), np.flatnonzero(y == len(MARKS))
        pick = np.sort(np.concatenate([numbered, rng.choice(rest, min(len(rest), int(len(numbered) * others)),
                                                            replace=False)]))
        xs.append(upright(x[pick], up[pick]))
        ys.append(y[pick])
    return np.concatenate(xs), np.concatenate(ys)


def upright(crops: np.ndarray, up: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) crops turned so that the art's up (bin k: k quarter turns clockwise from the image's up) points
    up: k quarter turns counter-clockwise.

    >>> c = np.zeros((1, 2, 2, 3), np.uint8); c[0, 0, 1] = 9  # bright top right; up points right (bin 1)
    >>> int(upright(c, np.array([1]))[0, 0, 0, 0])  # turned back a quarter: the bright pixel is at the top left
    9
    """
    return np.stack([np.rot90(c, int(k)) for c, k in zip(crops, up, strict=True)]) if len(crops) else crops


def reader_labels(cls: np.ndarray, family: str) -> np.ndarray:
    """Tile-name ids -> reader ids (0.. the family's tiles in order, then ``other`` for every other name; the seat
    reader's: a flower's seat less one, then ``other``).

    >>> reader_labels(np.array([CLASS_ID["3m"], CLASS_ID["1f"], CLASS_ID["3p"]]), "character").tolist()
    [2, 9, 9]
    >>> reader_labels(np.array([CLASS_ID["7f"], CLASS_ID["1f"], CLASS_ID["3p"]]), "seat").tolist()
    [2, 0, 4]
    """
    if family == "seat":
        flowers = np.array([CLASS_ID[n] for n in FAMILIES["flower"]])
        hit = cls[:, None] == flowers[None, :]
        return np.where(hit.any(1), SEAT_OF[hit.argmax(1)], len(SEATS))
    ids = np.array([CLASS_ID[n] for n in FAMILIES[family]])
    hit = cls[:, None] == ids[None, :]
    return np.where(hit.any(1), hit.argmax(1), len(ids))


def mined(score: Callable[[np.ndarray], np.ndarray] | None, x: np.ndarray, y: np.ndarray, other: int,
          hard_share: float, rng: np.random.Generator, others: float = OTHERS) -> np.ndarray:
    """The crops (indices, sorted) to train on now: every crop of the family, and ``others`` times as many other
    tiles, ``hard_share`` of them those ``score`` (upright crops -> how much they look like the family) scores
    highest and the rest drawn at random (all of them without ``score``).

    >>> y = np.array([0, 1, 2, 2, 2, 2, 2, 2]); look = np.array([0, 0, 0.9, 0.1, 0.8, 0.2, 0.3, 0])
    >>> mined(lambda c: look[c[:, 0, 0, 0]], np.arange(8)[:, None, None, None], y, 2, 1.0, np.random.default_rng(0),
    ...       others=1.0)[:4].tolist()
    [0, 1, 2, 4]
    """
    family, rest = np.flatnonzero(y != other), np.flatnonzero(y == other)
    n = min(len(rest), int(len(family) * others))
    n_hard = int(n * hard_share) if score is not None else 0
    hardest = rest[np.argsort(-score(x[rest]), kind="stable")[:n_hard]] if score is not None and n_hard else rest[:0]
    pool = np.setdiff1d(rest, hardest)
    return np.sort(np.concatenate([family, hardest, rng.choice(pool, min(len(pool), n - n_hard), replace=False)]))


def _family_share(net: torch.nn.Module, x: np.ndarray, ids: Sequence[int],  # noqa: F821
                  device: str = "cpu") -> np.ndarray:
    """A network's probability that upright crops (N, S, S, 3, uint8) are of a family: its names ``ids`` summed (in
    eval mode: a network in training is put back by ``train_mode``)."""
    import torch

    net.eval()
    with torch.no_grad():
        out = [torch.softmax(net(xb)[0], 1)[:, list(ids)].sum(1).cpu().numpy() for xb in _batches(x, 0, device)]
    return np.concatenate(out) if out else np.zeros(0)


def load_reader_crops(data: list[Path], real: Path, split: str, size: int, rng: np.random.Generator, family: str,
                      others: float = OTHERS, hard: Callable[[np.ndarray], np.ndarray] | None = None,
                      hard_share: float = 0.0, real_times: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Upright crops of every tile of the family in the datasets' ``split`` and ``others`` times as many other tiles;
    for ``train`` also the training part of the real photos (all of them: upright already), ``real_times`` over.

    The other tiles are drawn at random, but for ``hard_share`` of them: those ``hard`` (upright crops -> how much
    they look like the family, ``family_score``) scores highest, the tiles that the reader is asked about most often
    and must call other."""
    other = len(reader_names(family)) - 1
    xs, ys = [], []
    for d in data:
        x, cls, up = load_synth(d, split, 1, rng, size=size)
        x, y = upright(x, up), reader_labels(cls, family)
        pick = mined(hard, x, y, other, hard_share, rng, others)
        xs.append(x[pick])
        ys.append(y[pick])
    if split == "train":
        x, cls = load_real(real, holdout=False, size=size)
        xs.append(np.repeat(x, real_times, 0))
        ys.append(np.repeat(reader_labels(cls, family), real_times))
    return np.concatenate(xs), np.concatenate(ys)


def family_score(weights: dict, family: str) -> Callable[[np.ndarray], np.ndarray]:
    """A network's (a classifier's or a reader's of ``family``) probability that upright crops (N, S, S, 3, uint8) are
    of the family: the family's names summed, or one less the reader's ``other``."""
    from training.net import TileNet

    n = weights["cls.weight"].shape[0]
    net = TileNet(n)
    net.load_state_dict(weights)
    own = FAMILIES["flower" if family == "seat" else family]  # a flower is a seat's
    ids = [CLASS_ID[t] for t in own] if n == len(CLASS_ID) else list(range(len(reader_names(family)) - 1))
    return lambda x: _family_share(net, x, ids)


def _teacher(weights: dict, names: int, device: str, init: Path) -> torch.nn.Module:  # noqa: F821
    """The starting reader, fixed, whose right names the new one is held to (``train_reader``'s ``keep``)."""
    from training.net import TileNet

    net = TileNet(names).to(device)
    if any(v.shape != net.state_dict()[k].shape for k, v in weights.items() if k in net.state_dict()):
        msg = f"--keep holds a reader to its start's names: {init} is no reader of this family (its names differ)"
        raise ValueError(msg)
    net.load_state_dict(weights)
    return net.eval()


def _batches(x: np.ndarray, turn: int = 0, device: str = "cpu") -> Iterator[torch.Tensor]:  # noqa: F821
    """Crops (N, S, S, 3, uint8) as the network's input on ``device``, 512 at a time, turned ``turn`` quarter turns."""
    import torch

    for i in range(0, len(x), 512):
        yield torch.rot90(torch.from_numpy(x[i:i + 512]).permute(0, 3, 1, 2).float().to(device) / 255, turn, (2, 3))


def _eval(net: torch.nn.Module, x: np.ndarray, y: np.ndarray, other: int) -> dict:  # noqa: F821
    """Names and up direction on the crops as they are (upright) and turned upside down: ``family`` crops and how
    many are ``named_right``, ``others`` and how many of them were called one of the family."""
    import torch

    net.eval()
    device = next(net.parameters()).device
    names, ups = [], []
    with torch.no_grad():
        for turn in (0, 2):
            for xb in _batches(x, turn, device):
                n, u = net(xb)
                names.append(n.argmax(1).cpu().numpy())
                ups.append(u.argmax(1).cpu().numpy() == turn)
    net.train()
    p, y2, fam = np.concatenate(names), np.tile(y, 2), np.tile(y != other, 2)
    return {"family": int(fam.sum()), "named_right": round(float((p[fam] == y2[fam]).mean()), 4),
            "others": int((~fam).sum()), "others_called_in": int((p[~fam] != other).sum()),
            "up_right": round(float(np.concatenate(ups).mean()), 4)}


def train_reader(data: list[Path], real: Path, run: Path, steps: int, init: Path, lr: float = 1e-3,
                 size: int = 96, threads: int = 2, batch: int = 128, family: str = "flower",
                 hard_others: float = 0.0, device: str = "cpu", keep: float = 0.0, mine_every: int = 0,
                 real_times: int = 1) -> dict:
    """Train (or resume) the ``family`` reader run in ``run`` for ``steps`` batches on a one-cycle schedule peaking
    at ``lr``, starting from the checkpoint ``init`` (a classifier run's, or another reader run's of the same family
    to go on training it); checkpoints every 250 steps. ``hard_others``: the share of the other tiles that are the
    ones ``init`` takes most for the family (``load_reader_crops``); ``device``: where PyTorch trains it (the crops
    are jittered on the CPU); ``keep``: the weight of a second loss that holds the reader to the names ``init`` gives
    the crops it names right (``distil.distillation``), so that it learns new sets without forgetting what it read
    (``init`` must then be a reader of the same family: a run's or a shipped one's twin, ``ship.twin_checkpoint``);
    ``mine_every``: the hard others are picked again every so many steps, by the reader being trained, from every
    other tile of the data (0: once, by ``init``), so that what it starts to take for the family is shown to it;
    ``real_times``: the real training photos count this many times among the crops (a set photographed counts more
    than a drawn one)."""
    import torch

    from training.net import TileNet

    torch.set_num_threads(threads)
    run.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    t0 = time.time()
    names = reader_names(family)
    other = len(names) - 1
    ckpt = run / "last.pt"
    state = torch.load(ckpt, map_location="cpu", weights_only=False) if ckpt.exists() else None
    if not 0.0 <= hard_others <= 1.0:
        msg = f"hard_others is a share of the other tiles, 0 to 1, got {hard_others}"
        raise ValueError(msg)
    if real_times < 0:
        msg = f"real_times is how many times the real photos count, 0 or more, got {real_times}"
        raise ValueError(msg)
    # a run's steps, family (runs from before the families were flower runs) and hard share stay as started
    started = {} if state is None else {"steps": state["steps"], "family": state.get("family", "flower"),
                                        "hard_others": state.get("hard_others", 0.0), "keep": state.get("keep", 0.0),
                                        "mine_every": state.get("mine_every", 0),
                                        "real_times": state.get("real_times", 1)}
    for key, want in (("steps", steps), ("family", family), ("hard_others", hard_others), ("keep", keep),
                      ("mine_every", mine_every), ("real_times", real_times)):
        if started and started[key] != want:
            msg = f"the reader run {run} was started with {key} {started[key]}: resume it so, or start another run"
            raise ValueError(msg)
    start_from = torch.load(init, map_location="cpu", weights_only=False)
    init_weights = start_from["model"]
    # a shipped network's twin (ship.twin_checkpoint) has its batch norms folded into its convolutions: they stay as
    # they are, fixed, when it is trained on
    frozen_norms = bool(start_from.get("frozen_norms", False))
    if family == "mark":
        x, y = load_mark_crops(data, "train", size, rng)
        xv, yv = load_mark_crops(data, "val", size, rng)
    else:
        hard = family_score(init_weights, family) if hard_others and not mine_every else None
        x, y = load_reader_crops(data, real, "train", size, rng, family, others=ALL if mine_every else OTHERS,
                                 hard=hard, hard_share=hard_others, real_times=real_times)
        xv, yv = load_reader_crops(data, real, "val", size, rng, family)
    log.info(f"{family} reader crops: train {len(x)} ({int((y != other).sum())} of the family), val {len(xv)}; "
             f"loaded in {time.time() - t0:.0f} s")
    net = TileNet(len(names)).to(device)
    teacher = _teacher(init_weights, len(names), device, init) if keep else None
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    start, history = 0, []
    if state is not None:
        for part, key in ((net, "model"), (opt, "opt"), (sched, "sched")):
            part.load_state_dict(state[key])
        start, history = state["step"], state["history"]
        rng = np.random.default_rng(start)
        log.info(f"resuming the reader at step {start}")
    else:
        own = net.state_dict()
        # all that fits: a classifier's but its 43 names, another reader's whole
        net.load_state_dict({k: v for k, v in init_weights.items() if v.shape == own[k].shape}, strict=False)
        log.info(f"starting from {init}")
    lossf = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(start)
    train_mode(net, frozen_norms)
    te = time.time()
    shown = np.arange(len(x))  # the crops batches are drawn from (``mine_every``: picked again as it learns)
    for step in range(start + 1, steps + 1):
        if mine_every and (step == start + 1 or (step - 1) % mine_every == 0):
            shown = mined(lambda c: _family_share(net, c, range(other), device), x, y, other, hard_others, rng)
            train_mode(net, frozen_norms)
        idx = np.sort(shown[rng.integers(0, len(shown), batch)])
        xb = augment(torch.from_numpy(x[idx]).permute(0, 3, 1, 2).float() / 255, gen)
        flip = torch.rand(len(idx), generator=gen) < 0.5
        xb[flip] = torch.rot90(xb[flip], 2, (2, 3))
        logits, up = net(xb.to(device))
        yb = torch.from_numpy(y[idx]).to(device)
        loss = lossf(logits, yb) + 0.5 * lossf(up, flip.long().to(device) * 2)
        if teacher is not None:
            with torch.no_grad():
                taught = teacher(xb.to(device))[0]
            right = taught.argmax(1) == yb
            if right.any():
                loss = loss + keep * distillation(logits[right], taught[right])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == steps:
            rec = {"step": step, "loss": round(loss.item(), 4), "seconds": round(time.time() - te, 1),
                   "synth_val": _eval(net, xv, yv, other)}
            train_mode(net, frozen_norms)
            history.append(rec)
            log.info(json.dumps(rec))
            torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                        "step": step, "steps": steps, "family": family, "hard_others": hard_others, "keep": keep,
                        "mine_every": mine_every, "real_times": real_times,
                        "frozen_norms": frozen_norms,
                        "history": history}, ckpt)
            te = time.time()
    export(net.cpu(), run / f"{family}_reader.onnx", size, names, look=False)
    summary = {"family": family, "steps": steps, "batch": batch, "data": " + ".join(str(d) for d in data),
               "init": str(init), "lr": lr, "crop": size, "train_crops": int(len(x)), "hard_others": hard_others,
               "keep": keep, "mine_every": mine_every, "real_times": real_times,
               "history": history, "seconds_total": round(sum(h["seconds"] for h in history), 1)}
    (run / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary
