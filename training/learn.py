"""``mjscore train --data DATASET``: learn a tile set from labelled photos, on the CPU, within a time budget.

1. prepare: read the dataset (``training/labelled.py``), measure the shipped detector on its photos (``before``: the
   held-out photos; the train photos' found share is the finder's recall), cut the labelled tiles' crops;
2. classifier: fine-tune the tile classifier on them, mixed with replay, its convolutional features kept as
   shipped (``training/finetune.py``);
3. finder: only where the shipped finder misses boxes (its recall on the train photos under ``--finder-recall``),
   fine-tune it too (ultralytics);
4. write: the classifier exported in int8 as shipped (``training/ship.py``);
5. measure: the guard (``training/guard.py``): the shipped detector and the one with each fine-tuned network in its
   place read photos not trained on (the dataset's held-out photos, replay photos, real photos); a fine-tuned
   network goes into the weights folder only if it reads them no worse, else the shipped one does; every other file
   of ``models/`` (``vision/weights.py``) is copied. A fine-tuned classifier goes with the looks of the tiles it
   learnt and the shipped classifier (``vision/learnt.py``): it names the photos of the dataset's set, the shipped
   one every other photo, and the guard reads so too. ``after`` is the folder's reading of the held-out photos;
   ``card.json`` and ``README.md`` say what was trained, on what, which networks were kept, and the figures.

Each phase is recorded in ``OUT/train/state.json`` as it ends, and the classifier saves a checkpoint every few
seconds: ``--resume`` goes on where a stopped (or killed) run stood. The readers (characters, flowers, index marks,
captions) stay as shipped: they read again only the tiles the classifier is unsure of.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from training import paths
from training.finetune import SAVE_SECONDS
from training.guard import RULE, Checks, make_checks, read, verdict
from training.labelled import DatasetError, Labelled, Photo, read_dataset, read_tree
from training.measure import score_photos
from training.options import MOST_THREADS, bounded
from training.progress import Bar

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from vision.detector import TileDetector
    from vision.learnt import LearntSet

log = logging.getLogger(__name__)

STATE = "state.json"
# the shipped finder's share of the train photos' tiles found below which it is fine-tuned: one tile in 50 missed. Above
# it the fine-tune costs more than it gives: kd_jade's photos (0.994 found) and dr_42's (0.9938) had it fine-tuned at
# 0.995, and the guard refused it both times, the real photos read worse (dr_42: 116 -> 82 of 120), its share of the
# time lost to the classifier
FINDER_RECALL = 0.98
FINDER_SHARE = 0.4  # ... and then its share of the training time
FINDER_REPLAY = 2  # replay photos (of --replay's) per labelled photo in its training set
OTHERS = 300  # replay photos whose tiles' looks the learnt set keeps as other sets' (``vision/learnt.py``)
MOST_STEPS = 3000  # the classifier's steps at most, whatever the budget
MOST_MINUTES = 7 * 24 * 60  # the longest budget a run is given (a week)
CALIBRATION = 512  # crops the int8 classifier's ranges are set on
WRITE_SECONDS = 30  # about what exporting and quantizing the classifier take
MARGIN = 0.95  # the share of the time left that training is planned to fill
PHASES = ("prepare", "classifier", "finder", "write", "measure", "done")


class LearnError(Exception):
    """A run that cannot go on: an output folder in the way, nothing to resume."""


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="mjscore train", description="Fine-tune the tile reader (and the finder where it misses tiles) on a "
        "dataset of labelled photos, on the CPU; writes a weights folder for mjscore --weights and MJ_WEIGHTS.",
        epilog="docs/annotate.md: the loop from labelling to the weights in use.")
    ap.add_argument("--data", required=True, metavar="DATASET",
                    help="a dataset of the annotation store (its name, under MJ_DATA_DIR), or a folder or zip it "
                         "exported, or an ultralytics dataset (a folder with data.yaml)")
    ap.add_argument("--out", type=Path, help="the weights folder to write (default: weights/<dataset>)")
    ap.add_argument("--resume", action="store_true", help="go on with the run stopped in --out")
    ap.add_argument("--minutes", type=bounded(float, 0, MOST_MINUTES, above=True), default=15.0,
                    help="the time budget, all phases (default: %(default)s; at most a week)")
    ap.add_argument("--replay", type=Path, nargs="*", default=[], metavar="DIR",
                    help="generated datasets of the training styles (python -m training synth) whose tiles are mixed "
                         "into every batch, so that the other sets stay read (default: none)")
    ap.add_argument("--real", type=Path, default=paths.real(),
                    help="the camerash photos, whose training part is replayed too when there (default: %(default)s)")
    ap.add_argument("--keep-split", action="store_true",
                    help="hold out the dataset's val photos as they are, even those showing a tile that no train "
                         "photo shows (by default they are trained on, and the card says so)")
    ap.add_argument("--finder", choices=("auto", "always", "never"), default="auto",
                    help="fine-tune the finder: auto (when it finds less than --finder-recall of the train photos' "
                         "tiles), always or never (default: %(default)s)")
    ap.add_argument("--finder-recall", type=bounded(float, 0, 1), default=FINDER_RECALL, help="default: %(default)s")
    ap.add_argument("--features", action="store_true",
                    help="fine-tune the classifier's convolutional features too, not only the layers that read them "
                         "(the other sets then read worse; docs/annotate.md)")
    ap.add_argument("--no-guard", action="store_true",
                    help="write the fine-tuned networks even where they read the checks' photos worse than the "
                         "shipped ones (the checks are still measured and reported)")
    ap.add_argument("--steps", type=bounded(int, 1, 10 * MOST_STEPS), default=MOST_STEPS,
                    help="the classifier's steps at most (the budget may allow fewer; default: %(default)s)")
    ap.add_argument("--save-every", type=bounded(float, 0, MOST_MINUTES * 60), default=SAVE_SECONDS,
                    metavar="SECONDS",
                    help="the classifier's checkpoint, from which --resume goes on, this often (default: %(default)s)")
    ap.add_argument("--threads", type=bounded(int, 1, MOST_THREADS), default=os.cpu_count() or 2,
                    help="PyTorch threads (default: %(default)s)")
    ap.add_argument("--seed", type=bounded(int, 0, 2**32 - 1), default=0)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    from vision.errors import VisionError

    try:
        card = learn(args)
    except (DatasetError, LearnError, VisionError) as exc:
        print(f"mjscore train: {exc}", file=sys.stderr)
        return 2
    print(summary(card))
    return 0


# ------------------------------------------------------------------------------------------------------ run ----
class Run:
    """A run's folder and its state: the phase reached, its records, the time spent (over every session)."""

    def __init__(self, out: Path, resume: bool, budget: float) -> None:
        self.out, self.work = out, out / "train"
        self.path = self.work / STATE
        if resume:
            if not self.path.exists():
                msg = f"nothing to resume in {out}: no run was started there (leave out --resume to start one)"
                raise LearnError(msg)
            self.state = json.loads(self.path.read_text())
        else:
            if self.path.exists():
                msg = f"{out} holds a run already: --resume to go on with it, or another --out"
                raise LearnError(msg)
            if out.exists() and any(out.iterdir()):
                msg = f"{out} is not empty: give a new folder to --out"
                raise LearnError(msg)
            self.state = {"phase": PHASES[0], "seconds": 0.0, "cpu_seconds": 0.0, "sessions": 0}
        self.state["sessions"] += 1
        self.budget = budget
        self._since, self._cpu = time.monotonic(), _cpu()
        self.work.mkdir(parents=True, exist_ok=True)

    @property
    def phase(self) -> str:
        return self.state["phase"]

    def spent(self) -> float:
        """Seconds spent on the run, this session's included."""
        return self.state["seconds"] + time.monotonic() - self._since

    def left(self) -> float:
        return self.budget - self.spent()

    def done(self, phase: str, **records: Any) -> None:
        """``phase`` ended: record it, and what it found, at once (a run killed after this goes on with the next)."""
        self.state.update(records)
        self.state["phase"] = PHASES[PHASES.index(phase) + 1]
        self.save()

    def save(self) -> None:
        now, cpu = time.monotonic(), _cpu()
        self.state["seconds"] = round(self.state["seconds"] + now - self._since, 1)
        self.state["cpu_seconds"] = round(self.state["cpu_seconds"] + cpu - self._cpu, 1)
        self._since, self._cpu = now, cpu
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.state, indent=1))
        tmp.replace(self.path)


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def check_replay(dirs: list[Path]) -> None:
    """Each ``--replay`` folder is a generated dataset with both splits: its train photos are replayed, its val photos
    are the guard's and set the int8 network's ranges; ``LearnError`` saying which is missing, before anything runs.

    >>> try:
    ...     check_replay([Path("/nowhere")])
    ... except LearnError as exc:
    ...     print(str(exc)[:70])
    --replay /nowhere: no generated photos in images/train (replayed) or n
    """
    for d in dirs:
        if not any((d / "images" / "train").glob("*.jpg")) or not any((d / "layout" / "val").glob("*.json")):
            msg = (f"--replay {d}: no generated photos in images/train (replayed) or no layout/val sidecars (the "
                   f"guard's photos, and the int8 calibration's); make one with python -m training synth --out {d} "
                   "--train 300 --val 40")
            raise LearnError(msg)


def learn(args: argparse.Namespace) -> dict:
    """Run (or resume) the phases; returns the card."""
    check_replay(args.replay)
    out = args.out or Path("weights") / Path(args.data).stem
    fresh = not out.exists()
    run = Run(out, args.resume, args.minutes * 60)
    try:
        data = read_dataset(args.data, run.work)
        data = data if args.keep_split else data.every_name_trained()
    except DatasetError:
        if fresh:  # nothing of a run to keep
            shutil.rmtree(out, ignore_errors=True)
        raise
    log.info(f"{data.name}: {len(data.split('train'))} photos to train on, {len(data.split('val'))} held out "
             f"({sum(len(p.tiles) for p in data.photos)} tiles); {run.left() / 60:.1f} of {args.minutes:g} min left")
    for note in data.notes:
        log.info(note)
    import torch

    from vision.detector import TileDetector
    from vision.shipped import MODELS

    torch.set_num_threads(max(1, args.threads))
    if run.phase == "prepare":
        prepare(run, data, TileDetector(), args)
    if run.phase == "classifier":
        train_classifier(run, args)
    if run.phase == "finder":
        tune(run, data, args, MODELS)
    if run.phase == "write":
        write(run, args)
    if run.phase == "measure":
        measure(run, data, args, MODELS)
    return json.loads((out / "card.json").read_text())


# -------------------------------------------------------------------------------------------------- phases ----
def prepare(run: Run, data: Labelled, shipped: Any, args: argparse.Namespace) -> None:
    """The shipped detector measured, and the labelled tiles' crops cut."""
    import onnxruntime as ort

    from training.finetune import held_up, photo_crops
    from vision.shipped import CLASSIFIER_WEIGHTS

    train = data.split("train")
    finder = args.finder != "never"  # the finder's recall is measured on the train photos
    again = finder and data.held_out != train
    checks = _checks(run, data, args)
    with Bar(len(checks) + again * len(train), "reading with the shipped weights") as b:
        started = time.monotonic()
        guard = read(shipped.detect, checks, b.update)
        measuring = time.monotonic() - started
        before = guard["held_out"]
        if again:
            before_train = score_photos(shipped.detect, train, b.update).to_json()
        else:
            before_train = before if finder else None
    session = ort.InferenceSession(str(CLASSIFIER_WEIGHTS), providers=["CPUExecutionProvider"])
    size = session.get_inputs()[0].shape[-1]

    def up_of(crops: np.ndarray, sideways: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255
        _, up, _ = session.run(None, {"crops": x})
        return held_up(up, sideways)

    with Bar(len(train), "cutting the labelled tiles") as b:
        crops = photo_crops(train, size, up_of, args.seed, progress=b.update)
    np.savez(run.work / "crops.npz", x=crops.x, y=crops.y, up=crops.up)
    recall = before_train["found"] if before_train else None
    tune_finder = args.finder == "always" or (args.finder == "auto" and recall < args.finder_recall)
    if recall is not None:
        log.info(f"shipped finder: {recall:.4f} of the train photos' tiles found; "
                 f"{'fine-tuning it too' if tune_finder else 'kept'}")
    run.done("prepare", crop=int(size), crops=len(crops), before=before, before_train=before_train,
             guard={"rule": RULE, "enforced": not args.no_guard, "photos": {
                 "held_out": len(checks.held_out), "replay": len(checks.replay), "real": len(checks.real)},
                 "shipped": guard["counts"]},
             finder={"recall_before": recall, "tune": tune_finder},
             dataset={"name": data.name, "source": str(args.data), "train": len(train),
                      "held_out": len(data.held_out), "held_out_split": "val" if data.split("val") else "train",
                      "tiles": sum(len(p.tiles) for p in train), "notes": list(data.notes),
                      "unshown": list(data.unshown)},
             measure_seconds=round(measuring, 1))


def _checks(run: Run, data: Labelled, args: argparse.Namespace) -> Checks:
    """The guard's photos: the held-out ones, replay val photos and held-out real photos (the same each session)."""
    real = args.real if args.real and (args.real / "tiles-data" / "data.csv").exists() else None
    return make_checks(data.held_out, args.replay, real, args.seed, run.work)


def train_classifier(run: Run, args: argparse.Namespace) -> None:
    """The classifier fine-tuned from the shipped one on the crops, for the steps that fit the time left."""
    from training.finetune import Crops, Tuner, real_crops, synth_crops
    from training.ship import twin_checkpoint
    from vision.shipped import CLASSIFIER_WEIGHTS

    z = np.load(run.work / "crops.npz")
    crops = Crops(z["x"], z["y"], z["up"])
    real = args.real if args.real and (args.real / "tiles-data" / "data.csv").exists() else None
    replay, photos = synth_crops(args.replay, run.state["crop"], args.seed), real_crops(real, run.state["crop"])
    init = run.work / "init.pt"
    if not init.exists():
        twin_checkpoint(CLASSIFIER_WEIGHTS, init)
    tuner = Tuner(init, crops, replay, photos, run.work / "classifier.pt", args.seed, features=args.features)
    tuner.resume()
    resumed_at = tuner.step
    share = 1 - FINDER_SHARE if run.state["finder"]["tune"] else 1.0
    seconds = share * _training_time(run)
    log.info(f"classifier: {len(crops)} labelled crops, {len(replay) + len(photos)} replayed; {seconds / 60:.1f} min")
    with Bar(tuner.steps or args.steps, "learning the tiles") as b:
        b.skip(tuner.step)

        def shown(_step: int, loss: float) -> None:
            b.total = tuner.steps
            b.update(1, f"loss {loss:.3f}")

        tuner.run(args.steps, seconds, shown, args.save_every)
    run.done("classifier", classifier={"steps": tuner.steps, "resumed_at": resumed_at, "crops": len(crops),
                                       "replay": len(replay) + len(photos),
                                       "replay_from": [str(p) for p in args.replay] + ([str(real)] if real else []),
                                       "lr": tuner.lr, "batch": tuner.batch, "features": tuner.features,
                                       "batch_parts": [n for _, n in tuner.pools],
                                       "last_loss": float(np.mean(tuner.losses[-20:])) if tuner.losses else None})


def _training_time(run: Run) -> float:
    """The seconds left to train in: the budget left, less the phases after (writing; the guard reading its photos
    with the new classifier and, when tuned, the new finder, each as long as the shipped detector took) and a margin
    (the steps' pace varies on a shared machine)."""
    passes = 1.5 + bool(run.state["finder"]["tune"])
    return MARGIN * (run.left() - WRITE_SECONDS - passes * run.state["measure_seconds"])


def tune(run: Run, data: Labelled, args: argparse.Namespace, models: Path) -> None:
    """The finder fine-tuned on the train photos (and the replay datasets' photos) when ``prepare`` said so, and
    exported; the guard (``measure``) decides whether it is kept."""
    finder = dict(run.state["finder"])
    if not finder["tune"]:
        run.done("finder")
        return
    from training.finder import export_finder, tune_finder

    photos = [p.image for p in data.split("train")]
    replayed = sorted(q for d in args.replay for q in (d / "images" / "train").glob("*.jpg"))
    pick = np.random.default_rng(args.seed).permutation(len(replayed))[:FINDER_REPLAY * len(photos)]
    train, val = run.work / "finder_train.txt", run.work / "finder_val.txt"
    train.write_text("".join(f"{q.resolve()}\n" for q in photos + [replayed[k] for k in sorted(pick)]))
    val.write_text("".join(f"{p.image.resolve()}\n" for p in data.held_out))
    minutes = max(1.0, _training_time(run) / 60)
    log.info(f"finder: fine-tuning for {minutes:.1f} minutes")
    best = tune_finder([train], [val], models / "tile_finder.pt", run.work / "finder", minutes)
    tuned = run.work / "finder_export"
    shutil.rmtree(tuned, ignore_errors=True)
    tuned.mkdir()
    export_finder(best, models=tuned)
    finder["tuned"] = True
    run.done("finder", finder=finder)


def write(run: Run, args: argparse.Namespace) -> None:
    """The fine-tuned classifier exported and quantized (``OUT/train/tile_classifier.onnx``), as shipped."""
    import torch

    from training.classifier import export
    from training.net import TileNet
    from training.ship import quantize

    net = TileNet()
    net.load_state_dict(torch.load(run.work / "classifier.pt", map_location="cpu", weights_only=False)["model"])
    classifier = export(net, run.work / "tile_classifier.onnx", run.state["crop"])
    quantize(classifier, _calibration(run, args))
    run.done("write")


def _calibration(run: Run, args: argparse.Namespace) -> np.ndarray:
    """The crops the int8 classifier's activation ranges are set on: as the shipped one's (crops of a generated
    dataset's val photos, ``ship.calibration_crops``), the first replay dataset's, half and half with the labelled
    tiles' crops; those alone without replay."""
    from training.ship import calibration_crops

    ours = np.load(run.work / "crops.npz")["x"]
    theirs = calibration_crops(args.replay[0], run.state["crop"], False, CALIBRATION // 2) if args.replay else ours[:0]
    pick = np.random.default_rng(args.seed).permutation(len(ours))[:CALIBRATION - len(theirs)]
    return np.concatenate([ours[np.sort(pick)], theirs])


def measure(run: Run, data: Labelled, args: argparse.Namespace, models: Path) -> None:
    """The guard: the fine-tuned classifier, then the fine-tuned finder (beside the classifier chosen), read the
    checks' photos; each is kept if it reads them no worse than the network it would replace (``guard.verdict``).
    The weights folder written with the networks kept and the rest of ``models/``; the card and its README."""
    from vision.detector import TileDetector
    from vision.learnt import LEARNT_SET, SHIPPED_CLASSIFIER
    from vision.weights import FILES, load_detector

    checks, guard = _checks(run, data, args), dict(run.state["guard"])
    finder = dict(run.state["finder"])
    classifier, tuned = run.work / "tile_classifier.onnx", run.work / "finder_export"
    learnt = run.work / LEARNT_SET, models / "tile_classifier.onnx"
    learnt_set(data, TileDetector(models / "tile_finder.onnx", classifier), args.replay).save(learnt[0])
    shipped = {"counts": guard["shipped"], "held_out": run.state["before"]}
    with Bar(len(checks) * (1 + bool(finder.get("tuned"))), "checking the new networks") as b:
        new = read(TileDetector(models / "tile_finder.onnx", classifier, learnt=learnt).detect, checks, b.update)
        guard["classifier"], keep, guard["classifier_worse"] = new["counts"], *verdict(shipped, new)
        guard["kept"] = {"classifier": keep or args.no_guard}
        base = new if guard["kept"]["classifier"] else shipped
        if finder.get("tuned"):
            use = (classifier, learnt) if guard["kept"]["classifier"] else (models / "tile_classifier.onnx", None)
            new = read(TileDetector(tuned / "tile_finder.onnx", use[0], learnt=use[1]).detect, checks, b.update)
            guard["finder"], keep, guard["finder_worse"] = new["counts"], *verdict(base, new)
            guard["kept"]["finder"] = keep or args.no_guard
            base = new if guard["kept"]["finder"] else base
    finder["kept"] = bool(guard["kept"].get("finder"))
    for name in FILES:
        src = (classifier if name == classifier.name and guard["kept"]["classifier"]
               else tuned / name if name.startswith("tile_finder") and finder["kept"] else models / name)
        shutil.copyfile(src, run.out / name)
    if finder["kept"]:
        shutil.copyfile(tuned / "tile_finder.pt", run.out / "tile_finder.pt")
    for src, name in zip(learnt, (LEARNT_SET, SHIPPED_CLASSIFIER), strict=True):
        if guard["kept"]["classifier"]:
            shutil.copyfile(src, run.out / name)
        else:
            (run.out / name).unlink(missing_ok=True)
    for what, kept in guard["kept"].items():
        log.info(f"guard: the fine-tuned {what} {'kept' if kept else 'read worse: the shipped one kept'}")
    run.done("measure", after=base["held_out"], guard=guard, finder=finder)
    card = make_card(run.state, run.out)
    (run.out / "card.json").write_text(json.dumps(card, indent=1))
    (run.out / "README.md").write_text(readme(card))
    load_detector(run.out)  # the folder loads


def learnt_set(data: Labelled, det: TileDetector, others: Sequence[Path] = ()) -> LearntSet:
    """The learnt set (``vision.learnt.LearntSet``) of the dataset's train photos: the looks of their labelled
    tiles by the fine-tuned classifier of ``det`` (a ``TileDetector``), whether the set's backs are coloured (as
    most of the photos showing backs show them: ``backs.backs_coloured``; None where none tells) and their colour
    (the median top of the labelled backs, kept where they are coloured), and the looks of the tiles of other
    sets: of up to OTHERS train photos of the generated datasets ``others`` (the replay's)."""
    from vision.backs import backs_coloured, tops
    from vision.learnt import LearntSet

    looks, votes, backs = [], Counter(), [np.zeros((0, 3))]
    for photo, rgb, boxes, crops in _cut(data.split("train"), det):
        looks.append(det.looks(rgb, boxes, crops))
        if crops is not None:
            back = np.array([t.name == "back" for t in photo.tiles])
            votes[backs_coloured(crops, back)] += 1
            backs += [tops(crops[back])] if back.any() else []
    told = votes[True] + votes[False]
    theirs = [photo for folder in others for photo in read_tree(folder / "data.yaml").split("train")][:OTHERS]
    their_looks = [det.looks(rgb, boxes, crops) for _, rgb, boxes, crops in _cut(theirs, det)]
    backs = np.concatenate(backs)
    return LearntSet.of(np.concatenate(looks), votes[True] > told / 2 if told else None,
                        np.concatenate(their_looks) if their_looks else None,
                        np.median(backs, axis=0) if len(backs) else None)


def _cut(photos: Sequence[Photo], det: TileDetector) -> Iterator[tuple[Photo, np.ndarray, np.ndarray, Any]]:
    """Each photo, its pixels as ``det`` reads them, its labelled tiles' boxes (N, 4) in those pixels and their crops
    (``det.cut``, None where it has no tile): cut once, for their looks and their backs' colour."""
    from vision.image import load_image

    for photo in photos:
        rgb, scale = load_image(photo.image, det.config.work_side)
        boxes = np.array([t.box for t in photo.tiles], np.float64).reshape(-1, 4) * scale
        yield photo, rgb, boxes, det.cut(rgb, boxes)[0] if len(boxes) else None


# ---------------------------------------------------------------------------------------------------- card ----
def make_card(state: dict, out: Path) -> dict:
    """What the weights folder holds: the class names, what was trained on what, the figures before and after."""
    from vision.names import NAMES
    from vision.weights import FILES

    finder, kept = state["finder"], state["guard"]["kept"]
    worse = "copied from the shipped models/ (the fine-tuned one read worse)"
    trained = {"tile_classifier.onnx": "fine-tuned (int8)" if kept["classifier"] else worse}
    if kept["classifier"]:  # (vision/learnt.py)
        trained |= {"learnt_set.npz": "the looks of the train photos' tiles, and of other sets' (the replay's): a "
                                      "photo whose tiles look like the first is named by the fine-tuned classifier",
                    "shipped_classifier.onnx": "copied from the shipped models/: names the photos of other sets"}
    if finder.get("tuned"):
        trained["tile_finder.onnx"] = "fine-tuned" if finder["kept"] else worse
    return {
        "names": list(NAMES),
        "dataset": state["dataset"],
        "files": {name: trained.get(name, "copied from the shipped models/") for name in (*FILES, *trained)},
        "classifier": state["classifier"],
        "finder": finder,
        "guard": state["guard"],
        "held_out": {"before": state["before"], "after": state["after"],
                     "changed": changed(state["before"]["per_class"], state["after"]["per_class"])},
        "train_before": {k: v for k, v in (state["before_train"] or {}).items() if k != "per_class"},
        "time": {"wall_seconds": state["seconds"], "cpu_seconds": state["cpu_seconds"],
                 "sessions": state["sessions"], "load_average": [round(v, 2) for v in os.getloadavg()]},
    }


def changed(before: dict, after: dict) -> dict[str, list[int]]:
    """Per class whose count of tiles read right changed: [before, after, tiles].

    >>> changed({"5m": {"right": 3, "tiles": 4}, "6m": {"right": 2, "tiles": 2}},
    ...         {"5m": {"right": 4, "tiles": 4}, "6m": {"right": 2, "tiles": 2}})
    {'5m': [3, 4, 4]}
    """
    return {k: [before[k]["right"], after[k]["right"], after[k]["tiles"]] for k in sorted(after)
            if k in before and before[k]["right"] != after[k]["right"]}


def _pct(score: dict, key: str) -> str:
    value = score.get(key)
    return "-" if value is None else f"{value:.4f}"


def summary(card: dict) -> str:
    """The card in a few lines: before and after on the held-out photos, what changed, the time."""
    b, a = card["held_out"]["before"], card["held_out"]["after"]
    d = card["dataset"]
    lines = [f"dataset {d['name']}: trained on {d['train']} photos ({d['tiles']} tiles), measured on "
             f"{d['held_out']} {d['held_out_split']} photos ({a['tiles']} tiles)",
             f"  tiles read right  {_pct(b, 'read_right')} -> {_pct(a, 'read_right')}",
             f"  tiles found       {_pct(b, 'found')} -> {_pct(a, 'found')}"]
    if a["hands"]:
        lines.append(f"  hands read exactly {_pct(b, 'hands_exact')} -> {_pct(a, 'hands_exact')} of {a['hands']}")
    for name, (before, after, n) in card["held_out"]["changed"].items():
        lines.append(f"  {name}: {before} -> {after} of {n} read right")
    lines += [f"  {note}" for note in d["notes"]]
    if d.get("unshown"):  # (cards written before 2026-11-28 do not say)
        lines.append(f"  no train photo shows {', '.join(d['unshown'])}: their look in this set is not learnt (label "
                     f"photos showing them)")
    lines += guard_lines(card["guard"])
    f = card["finder"]
    found = "" if f["recall_before"] is None else f" (found {f['recall_before']:.4f} of the train photos' tiles)"
    lines.append(f"  finder{found}: {_fate(card['guard'], 'finder')}")
    lines.append(f"  classifier: {_fate(card['guard'], 'classifier')}")
    t = card["time"]
    what = "all of it" if card["classifier"].get("features") else "its features kept"
    lines.append(f"  {card['classifier']['steps']} classifier steps ({what}); {t['wall_seconds'] / 60:.1f} min wall, "
                 f"{t['cpu_seconds'] / 60:.1f} min CPU")
    return "\n".join(lines)


CHECK_NAMES = {"held_out": "held-out photos' tiles", "replay": "replay photos' tiles",
               "real": "real photos, in a scene"}


def guard_lines(guard: dict) -> list[str]:
    """The guard's checks, one line each: read right by the shipped networks, the fine-tuned classifier, the
    fine-tuned finder (beside the classifier kept).

    >>> print("\\n".join(guard_lines({"shipped": {"held_out": [36, 37], "replay": [0, 0], "real": [110, 120]},
    ...     "classifier": {"held_out": [37, 37], "replay": [0, 0], "real": [108, 120]}, "kept": {"classifier": False},
    ...     "enforced": True})))
      read right, photos not trained on: shipped, fine-tuned classifier
        held-out photos' tiles        36    37  of 37
        real photos, in a scene      110   108  of 120
    """
    tried = [k for k in ("classifier", "finder") if k in guard]
    head = ", ".join(["shipped"] + [f"fine-tuned {k}" for k in tried])
    lines = [f"  read right, photos not trained on: {head}"]
    for check, (right, of) in guard["shipped"].items():
        if of:
            cells = "".join(f"{guard[k][check][0]:>6}" for k in tried)
            lines.append(f"    {CHECK_NAMES[check]:<26}{right:>6}{cells}  of {of}")
    return lines


def _fate(guard: dict, what: str) -> str:
    """What became of a fine-tuned network: kept, or the shipped one kept and where the new one read worse."""
    if what not in guard:
        return "as shipped (not fine-tuned)"
    worse = guard[f"{what}_worse"]
    if guard["kept"][what]:
        return "fine-tuned, kept" + (f" (--no-guard; read worse: {'; '.join(worse)})" if worse else "")
    return f"as shipped: the fine-tuned one read worse ({'; '.join(worse)})"


def readme(card: dict) -> str:
    """The weights folder's README: how to use it, and the card's figures."""
    return (f"# Weights learnt from the dataset {card['dataset']['name']}\n\n"
            f"Written by `mjscore train`. Read photos with them: `mjscore PHOTO --weights DIR`, "
            f"`mjscore detect PHOTO --weights DIR`, or the service with `MJ_WEIGHTS=DIR`.\n\n"
            f"```\n{summary(card)}\n```\n\n"
            + "".join(f"- `{name}`: {what}\n" for name, what in card["files"].items())
            + "\n`card.json` holds the figures in full (per class, before and after).\n")


if __name__ == "__main__":
    raise SystemExit(main())
