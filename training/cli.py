"""Train mjscore's tile models on the CPU; resume an unfinished run; write weights and the model card here.

Two stages (``vision/detector.py`` runs them in this order):

1. ``finder``: a one-class YOLO11 (``models/finder.yaml``, slimmer than 'n') that boxes every tile, face up or
   down. Trained with ultralytics on the synthetic hands (``datasets/synth.py``), ``single_cls=True``.
2. ``classifier``: a small CNN (``vision/classifier_net.py``) on square crops around each box (``--crop``: 64 px by
   default, 96 shipped), with two heads: the 43 tile names (the contract's, plus ``back``) and the tile's up
   direction in the image (0/90/180/270 degrees, which tells sideways tiles). Trained on crops cut from the
   synthetic hands plus the training part of the real camerash photos; exported to ONNX for onnxruntime.
3. ``reader``: a reader (``models/reader_train.py``), the same network with one family's names and ``other`` on
   upright crops, started from a classifier run: ``--family flower`` (1f..8f) or ``character`` (1m..9m); detection
   asks each about the tiles the classifier gives some probability of its family and averages the two.

Usage::

    python models/train.py all --data /work/cache/datasets/hands      # both stages, resuming where they stopped
    python models/train.py finder --epochs 12
    python models/train.py classifier --epochs 8
    python models/train.py finetune --name finder_ft2 --real-data DIR ...  # the finder, on more data
    python models/train.py export --name finder_ft2 && python models/train.py card --finetune finder_ft2
    python models/train.py export --name finder_ft5 --set-finder     # a run as the set finder -> models/set_finder.onnx
    python models/train.py ship --classifier-run classifier_v2       # a classifier run, exported as int8 -> models/
    python models/train.py reader --family character --data D --also D2 ... --init .../classifier_v3_96/last.pt
    python models/train.py ship-reader --reader-run character_reader    # the reader, exported as int8 -> models/
    python models/train.py requantize --calibration D   # the shipped int8 networks quantized as ship does today

Runs and checkpoints live under ``--runs`` (default /work/cache/runs); the shipped files are
``models/tile_finder.pt`` and its ONNX export ``models/tile_finder.onnx`` (which detection runs),
``models/tile_classifier.onnx``, ``models/flower_reader.onnx``, ``models/character_reader.onnx`` and
``models/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))

from card import keep_records  # noqa: E402

from vision.crops import CROP  # noqa: E402

MODELS = ROOT / "models"


def train_finder(data: Path, runs: Path, epochs: int, imgsz: int, batch: int, hours: float) -> Path:
    from ultralytics import YOLO

    run = runs / "finder"
    last = run / "weights" / "last.pt"
    t0 = time.time()
    if last.exists() and not (run / "done").exists():
        model = YOLO(str(last))
        model.train(resume=True, **({"time": hours} if hours else {}))  # a new time budget counts from now
    elif not (run / "done").exists():
        model = YOLO(str(MODELS / "finder.yaml"))
        model.train(data=str(data / "data.yaml"), epochs=epochs, imgsz=imgsz, batch=batch, workers=2,
                    single_cls=True, project=str(runs), name="finder", exist_ok=True, plots=False,
                    device="cpu", cache="ram", mosaic=0.0, scale=0.25, degrees=0.0, translate=0.1,
                    fliplr=0.5, close_mosaic=2, patience=100, seed=0, deterministic=False, amp=False,
                    val=True, pretrained=False, time=hours or None)
    (run / "done").write_text(f"{time.time() - t0:.0f}\n")
    best = run / "weights" / "best.pt"
    return best if best.exists() else last


def finetune_finder(data: Path, extra: list[Path], runs: Path, imgsz: int, batch: int, hours: float,
                    epochs: int = 2, name: str = "finder_ft", init: Path | None = None) -> Path:
    """Go on training the finder from its best weights (or ``init``'s, another fine-tune's) on the synthetic hands
    plus ``extra`` datasets (hands whose faces are real tile photos, ``datasets/synth.py --art camerash:...``; real
    photos laid flat, ``--art flat:...``; training photos only), at a low learning rate. Resumes an unfinished run."""
    from ultralytics import YOLO

    run = runs / name
    last = run / "weights" / "last.pt"
    mixed = runs / f"{name}.yaml"
    names = (data / "data.yaml").read_text().split("names:", 1)[1]
    sets = [data, *extra]
    mixed.write_text("train:\n" + "".join(f"  - {d / 'images' / 'train'}\n" for d in sets)
                     + "val:\n" + "".join(f"  - {d / 'images' / 'val'}\n" for d in sets) + f"names:{names}")
    if last.exists() and not (run / "done").exists():
        YOLO(str(last)).train(resume=True, **({"time": hours} if hours else {}))
    elif not (run / "done").exists():
        model = YOLO(str(init or runs / "finder" / "weights" / "best.pt"))
        model.train(data=str(mixed), epochs=epochs, imgsz=imgsz, batch=batch, workers=2, single_cls=True,
                    project=str(runs), name=name, exist_ok=True, plots=False, device="cpu", cache="ram",
                    mosaic=0.0, scale=0.4, degrees=0.0, translate=0.1, fliplr=0.5, close_mosaic=0, seed=0,
                    deterministic=False, amp=False, optimizer="AdamW", lr0=0.0004, lrf=0.2, warmup_epochs=0,
                    time=hours or None)
    (run / "done").write_text("\n")
    best = run / "weights" / "best.pt"
    return best if best.exists() else last


def export_finder(weights: Path, set_finder: bool = False) -> Path:
    """A finder run's weights shipped: ``models/tile_finder.pt`` (the PyTorch weights without the optimizer, to train
    on from) and ``models/tile_finder.onnx``, its ONNX export, which detection runs (``vision/finder.py``); with
    ``set_finder``, its ONNX export only, as ``models/set_finder.onnx`` (the finder for photos of sets laid out)."""
    from ultralytics import YOLO
    from ultralytics.utils.torch_utils import strip_optimizer

    tmp = weights.parent / "ship.pt"
    shutil.copy(weights, tmp)
    strip_optimizer(str(tmp))  # the model and its metadata only
    if set_finder:
        onnx = Path(YOLO(str(tmp), task="detect").export(format="onnx", dynamic=True, simplify=False, opset=17,
                                                          imgsz=416))
        return Path(shutil.move(onnx, MODELS / "set_finder.onnx"))
    dest = MODELS / "tile_finder.pt"
    shutil.copy(tmp, dest)
    onnx = YOLO(str(dest), task="detect").export(format="onnx", dynamic=True, simplify=False, opset=17, imgsz=416)
    return Path(onnx)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="train mjscore's tile finder, tile classifier and readers")
    ap.add_argument("stage", choices=["finder", "classifier", "all", "card", "finetune", "export", "ship", "reader",
                                      "ship-reader", "requantize"])
    ap.add_argument("--real-data", type=Path, nargs="+", default=[Path("/work/cache/datasets/hands_real")],
                    help="finetune: the datasets added to --data")
    ap.add_argument("--name", default="finder_ft", help="finetune, export: the fine-tuning run's name under --runs")
    ap.add_argument("--set-finder", action="store_true",
                    help="export: ship the run as the set finder (models/set_finder.onnx), not as the tile finder")
    ap.add_argument("--finetune", nargs="*", default=[],
                    help="card: the fine-tuning runs shipped on top of the base run, in the order they ran")
    ap.add_argument("--set-finder-run", help="card: the fine-tuning run shipped as the set finder")
    ap.add_argument("--data", type=Path, default=Path("/work/cache/datasets/hands"))
    ap.add_argument("--also", type=Path, nargs="*", default=[],
                    help="classifier: more synthetic datasets read beside --data")
    ap.add_argument("--init", type=Path,
                    help="classifier: start from this run checkpoint (a fine-tune); reader: the checkpoint it starts "
                         "from (a classifier's or a reader's); finetune: the finder weights it starts from (default: "
                         "the base run's best)")
    ap.add_argument("--lr", type=float, help="classifier, reader: the one-cycle schedule's peak (2e-3, 1e-3)")
    ap.add_argument("--crop", type=int,
                    help=f"classifier, reader: crop side in pixels ({CROP}, 96; detection reads it from the weights)")
    ap.add_argument("--marks", type=float, default=0.0,
                    help="classifier: share of training crops given a random corner index mark")
    ap.add_argument("--classifier-run", default="classifier",
                    help="classifier, ship: the classifier run's name under --runs")
    ap.add_argument("--classifiers", nargs="*", default=["classifier"],
                    help="card: the shipped classifier's runs, in the order they ran")
    ap.add_argument("--reader-run", help="reader, ship-reader (default '<family>_reader'): the reader's run under "
                                         "--runs")
    ap.add_argument("--family", choices=["flower", "character", "dot", "mark"], default="flower",
                    help="reader: the tiles it reads (flower: 1f-8f, character: 1m-9m, dot: 1p-9p)")
    ap.add_argument("--reader-runs", nargs="*", default=[], help="card: the shipped readers' runs under --runs")
    ap.add_argument("--steps", type=int, default=5000, help="reader: batches of 128 to train for")
    ap.add_argument("--hard-others", type=float, default=0.0,
                    help="reader: this share of its other tiles are those its --init takes most for the family (the "
                         "rest drawn at random)")
    ap.add_argument("--calibration", type=Path, help="ship, ship-reader, requantize: the dataset on whose val crops "
                    "the int8 network's ranges are set (ship: default the first the run trained on)")
    ap.add_argument("--runs", type=Path, default=Path("/work/cache/runs"))
    ap.add_argument("--real", type=Path, default=ROOT.parent / "shared" / "real" / "camerash")
    ap.add_argument("--epochs", type=int, default=0, help="0: the stage's default (finder 12, classifier 8)")
    ap.add_argument("--imgsz", type=int, default=416)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--hours", type=float, default=0.0, help="finder: train for this long (the schedule fits it)")
    ap.add_argument("--threads", type=int, default=2, help="classifier: PyTorch threads")
    args = ap.parse_args(argv)
    args.runs.mkdir(parents=True, exist_ok=True)
    if args.stage in ("classifier", "all"):
        from classifier_train import train_classifier

        train_classifier([args.data, *args.also], args.real, args.runs / args.classifier_run, args.epochs or 8,
                         args.threads, args.init, args.lr or 2e-3, args.marks, args.crop or CROP)
        print(f"classifier: {args.runs / args.classifier_run / 'tile_classifier.onnx'} (compare bench figures, then "
              f"ship it: models/train.py ship --classifier-run {args.classifier_run})")
    reader_run = args.reader_run or f"{args.family}_reader"
    if args.stage == "reader":
        if args.init is None:
            ap.error("reader: --init a classifier run's checkpoint (the reader starts from its weights)")
        from reader_train import train_reader

        try:
            train_reader([args.data, *args.also], args.real, args.runs / reader_run, args.steps, args.init,
                         args.lr or 1e-3, args.crop or 96, args.threads, family=args.family,
                         hard_others=args.hard_others)
        except ValueError as e:
            ap.error(str(e))
        print(f"reader: {args.runs / reader_run / f'{args.family}_reader.onnx'} (ship it: models/train.py "
              f"ship-reader --reader-run {reader_run})")
    if args.stage == "ship-reader":
        summary = args.runs / reader_run / "summary.json"
        if not summary.exists():
            ap.error(f"ship-reader: {summary} not found (the run has not finished)")
        from ship import ship_run

        name = f"{json.loads(summary.read_text()).get('family', 'flower')}_reader.onnx"
        print(f"reader shipped: {ship_run(summary.parent, MODELS / name, args.calibration)}")
        keep_records(args.runs, reader_run)
    if args.stage == "requantize":
        if args.calibration is None:
            ap.error("requantize: --calibration DATASET is needed (a dataset of the training styles)")
        from ship import requantize

        from vision.detector import CLASSIFIER_WEIGHTS, READER_WEIGHTS

        for path in (CLASSIFIER_WEIGHTS, *READER_WEIGHTS):
            print(f"requantized: {requantize(path, args.calibration)}")
    if args.stage in ("ship", "all"):
        from ship import ship_run

        summary = args.runs / args.classifier_run / "summary.json"
        if not summary.exists():
            ap.error(f"ship: {summary} not found (the run has not finished)")
        print(f"classifier shipped: {ship_run(summary.parent, MODELS / 'tile_classifier.onnx', args.calibration)}")
        keep_records(args.runs, args.classifier_run)
    if args.stage in ("finder", "all"):
        best = train_finder(args.data, args.runs, args.epochs or 12, args.imgsz, args.batch, args.hours)
        print(f"finder: {export_finder(best)}")
        keep_records(args.runs, "finder")
    if args.stage == "finetune":
        best = finetune_finder(args.data, args.real_data, args.runs, args.imgsz, args.batch, args.hours,
                               args.epochs or 2, args.name, args.init)
        print(f"finder fine-tuned: {best} (export with care: compare bench figures first)")
    if args.stage == "export":
        best = args.runs / args.name / "weights" / "best.pt"
        print(f"finder: {export_finder(best, args.set_finder)}")
        keep_records(args.runs, args.name)
    if args.stage in ("card", "all"):
        from card import write_card

        card = write_card(MODELS, args.runs, args.finetune, args.classifiers, readers=args.reader_runs,
                          set_finder=args.set_finder_run)
        print(f"card: {card}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
