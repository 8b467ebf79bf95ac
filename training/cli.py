"""``python -m training COMMAND [options]``: make the data, train, ship and describe mjscore's tile models on the CPU.

Data (``python -m training COMMAND --help`` for each):

    fetch-art     the tile art of Debian's mahjong games and fluffystuff, as faces -> cache/art/faces
    drawn-art     tile styles drawn from Debian's CJK fonts -> cache/art/faces
    synth         synthetic phone photos of revealed hands in YOLO layout, with their true layout
    show          a generated photo with its true boxes and labels drawn, to check by eye

The networks, in the order detection runs them (``vision/detector.py``):

1. ``finder``: a one-class YOLO11 (``models/finder.yaml``) that boxes every tile, face up or down, trained by
   ultralytics on the synthetic hands; ``finetune`` goes on training it on more data, ``export`` ships a run as
   ``models/tile_finder.pt`` and its ONNX export (or, ``--set-finder``, as ``models/set_finder.onnx``; ``--row-finder``,
   as ``models/row_finder.onnx``).
2. ``classifier``: a small CNN (``training/net.py``) on square crops around each box with two heads, the 43 tile names
   and the tile's up direction; ``ship`` stores a run's network as int8 in ``models/tile_classifier.onnx``.
3. ``reader``: the same network with one family's names and ``other`` on upright crops, started from a classifier
   run; ``ship-reader`` stores it as ``models/<family>_reader.onnx``.
4. ``caption``: the flowers' caption reader, cut from a published OCR model (not trained here).
5. ``corners``: a small CNN (``training/net.py``'s ``CornerNet``) on each box's crop: where the tile's face lies in it,
   by which a photo of tiles standing is named from their faces cut flat (``vision/faces.py``); ``ship-corners``
   stores it as int8 in ``models/face_corners.onnx``; ``refiner``: the same trunk on each face found, cut flat with a
   margin around it, finds its corners again at the face's scale; ``ship-refiner`` stores it as
   ``models/face_refiner.onnx``.

``requantize`` quantizes the shipped int8 networks again from their float twins; ``compact`` stores float networks in
about half the bytes, the same weights bit for bit (``training/compact.py``); ``card`` writes the model card
``models/README.md``; ``all`` runs classifier, ship, finder and card, each resuming where it stopped.

Runs and checkpoints live under ``--runs`` (default ``cache/runs``; the cache is ``MJ_CACHE`` or ``./cache``,
``training/paths.py``); shipped files go to ``--models`` (default ``models/``, where detection reads them).

    python -m training synth --out cache/datasets/hands --train 3000 --val 300 --seed 1 --min-mp 1 --max-mp 2
    python -m training all --data cache/datasets/hands          # both stages, resuming where they stopped
    python -m training finetune --name finder_ft2 --real-data DIR ...  # the finder, on more data
    python -m training export --name finder_ft2 && python -m training card --finetune finder_ft2
    python -m training reader --family character --data D --also D2 ... --init cache/runs/classifier_v3_96/last.pt
    python -m training ship-reader --reader-run character_reader    # the reader, exported as int8 -> models/
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from training import options, paths
from vision.crops import CROP

Run = Callable[[argparse.Namespace], int]
FAMILIES = ("flower", "character", "dot", "mark", "seat")
TRAIN_EXTRA = ("torch", "torchvision", "ultralytics", "onnx")  # what the runtime install lacks


# ---------------------------------------------------------------------------------------------------- data ----
def _fetch_art(args: argparse.Namespace) -> int:
    from training.fetch_art import fetch_all

    faces = fetch_all(args.cache, args.fluffy)
    n = sum(1 for _ in faces.rglob("*.png"))
    print(f"{n} face images in {faces}; check {args.cache / 'contact_sheet.png'}")
    return 0


def _drawn_art(args: argparse.Namespace) -> int:
    from training.drawn_art import draw_styles

    if args.birds and not args.borrow:
        args.parser.error("--birds goes with --borrow FACES")
    for flag, given in (("--held-out", args.held_out), ("--numeral-alone", args.numeral_alone)):
        if given and not args.hk:
            args.parser.error(f"{flag} goes with --hk")
    drawn = draw_styles(args.cache, args.styles, args.seed, args.decoys, args.borrow, args.any_latin, args.birds,
                        args.hk, args.held_out, args.seat_decoys, args.numeral_alone)
    print(f"{drawn.styles} drawn styles from {drawn.fonts} fonts, {drawn.unicode} Unicode-tile styles in "
          f"{drawn.faces}; check {drawn.sheet}")
    return 0


def _synth(args: argparse.Namespace) -> int:
    from training.synth import generate
    from vision.names import FLOWER_NAMES

    if not 0 <= args.sets <= 1:
        args.parser.error(f"--sets: a share, 0 to 1, got {args.sets:g}")
    share, most = args.flowers[0], int(args.flowers[1])
    if not (0 <= share <= 1 and most == args.flowers[1] and 1 <= most <= len(FLOWER_NAMES)):
        args.parser.error(f"--flowers: SHARE must be 0 to 1 and MOST a whole number 1 to {len(FLOWER_NAMES)}, "
                          f"got {args.flowers[0]:g} {args.flowers[1]:g}")
    for name in ("sixteen", "apart"):
        value = getattr(args, name)
        if value is not None and not 0 <= value <= 1:
            args.parser.error(f"--{name}: a share, 0 to 1, got {value:g}")
    if args.table and args.camera != "phone":
        args.parser.error("--table is seen from above: it goes with --camera phone")
    if args.table < 0:
        args.parser.error(f"--table: a number of tiles, 0 or more, got {args.table}")
    counts = {k: v for k, v in (("train", args.train), ("val", args.val)) if v > 0}
    yaml = generate(args.out, counts, args.seed, args.art, args.styles, args.exclude or None, args.min_mp,
                    args.max_mp, args.workers, flowers=(share, most), sets=args.sets, camera=args.camera,
                    table=args.table, sixteen=args.sixteen, apart=args.apart)
    print(f"wrote {yaml}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from training.show import show

    print(show(args.image, args.out))
    return 0


def _caption(args: argparse.Namespace) -> int:
    from training.caption import build, generated_runs

    path = build(args.wheel, args.out, folds=not args.unfolded, calibrate=None if args.float else generated_runs)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


# ------------------------------------------------------------------------------------------------ training ----
def _finder(args: argparse.Namespace) -> int:
    from training.card import keep_records
    from training.finder import export_finder, train_finder

    best = train_finder(args.data, args.runs, args.epochs or 12, args.imgsz, args.batch, args.hours)
    print(f"finder: {export_finder(best, models=args.models)}")
    keep_records(args.runs, "finder", args.models / "runs")
    return 0


def _finetune(args: argparse.Namespace) -> int:
    from training.finder import finetune_finder

    best = finetune_finder(args.data, args.real_data, args.runs, args.imgsz, args.batch, args.hours,
                           args.epochs or 2, args.name, args.init)
    print(f"finder fine-tuned: {best} (export with care: compare bench figures first)")
    return 0


def _export(args: argparse.Namespace) -> int:
    from training.card import keep_records
    from training.finder import export_finder

    best = args.runs / args.name / "weights" / "best.pt"
    if not best.exists():
        args.parser.error(f"{best} not found (no such run, or it has not finished an epoch)")
    if args.set_finder and args.row_finder:
        args.parser.error("--set-finder and --row-finder: a run is shipped as one finder")
    print(f"finder: {export_finder(best, args.set_finder, args.models, args.row_finder)}")
    keep_records(args.runs, args.name, args.models / "runs")
    return 0


def _classifier(args: argparse.Namespace) -> int:
    from training.classifier import train_classifier

    train_classifier([args.data, *args.also], args.real, args.runs / args.classifier_run, args.epochs or 8,
                     args.threads, args.init, args.lr or 2e-3, args.marks, args.crop or CROP, args.device,
                     tuple(args.leave_out), args.faults, args.distil,
                     args.fault_kinds and tuple(args.fault_kinds), tuple(args.fault_blur))
    print(f"classifier: {args.runs / args.classifier_run / 'tile_classifier.onnx'} (compare bench figures, then "
          f"ship it: python -m training ship --classifier-run {args.classifier_run})")
    return 0


def _ship(args: argparse.Namespace) -> int:
    from training.ship import ship_run

    run = _finished(args, args.classifier_run)
    fault = getattr(args, "fault", None)  # (``all`` ships the tile classifier)
    dest = args.models / (f"{fault}_classifier.onnx" if fault else "tile_classifier.onnx")
    return _shipped(args, run, "classifier", ship_run(run, dest, args.calibration))


def _reader(args: argparse.Namespace) -> int:
    from training.reader import train_reader

    run = args.reader_run or f"{args.family}_reader"
    try:
        train_reader([args.data, *args.also], args.real, args.runs / run, args.steps, args.init, args.lr or 1e-3,
                     args.crop or 96, args.threads, family=args.family, hard_others=args.hard_others,
                     device=args.device, keep=args.keep, mine_every=args.mine_every, real_times=args.real_times)
    except ValueError as e:
        args.parser.error(str(e))
    print(f"reader: {args.runs / run / f'{args.family}_reader.onnx'} (ship it: python -m training ship-reader "
          f"--reader-run {run})")
    return 0


def _ship_reader(args: argparse.Namespace) -> int:
    from training.ship import ship_run

    run = _finished(args, args.reader_run or f"{args.family}_reader")
    name = f"{json.loads((run / 'summary.json').read_text()).get('family', 'flower')}_reader.onnx"
    return _shipped(args, run, "reader", ship_run(run, args.models / name, args.calibration))


def _corners(args: argparse.Namespace) -> int:
    from training.corners import train_corners

    train_corners([args.data, *args.also], args.runs / args.corners_run, args.steps, args.lr, threads=args.threads,
                  init=args.runs / args.init if args.init else None)
    print(f"face network: {args.runs / args.corners_run / 'face_corners.onnx'} (ship it: python -m training "
          f"ship-corners --corners-run {args.corners_run})")
    return 0


def _ship_corners(args: argparse.Namespace) -> int:
    from training.corners import ship_corners

    run = _finished(args, args.corners_run)
    dest = args.models / "face_corners.onnx"
    if args.rows and not dest.exists():
        args.parser.error(f"--rows puts the run beside the face network in {dest}, which is not there (ship one first)")
    what = "face network for rows standing" if args.rows else "face network"
    return _shipped(args, run, what, ship_corners(run, dest, rows=args.rows))


def _refiner(args: argparse.Namespace) -> int:
    from training.refine import train_refiner

    if not args.faces.is_file():
        args.parser.error(f"--faces {args.faces}: no such file (the face network whose faces the refiner learns to "
                          "find again: models/face_corners.onnx, shipped first)")
    train_refiner([args.data, *args.also], args.runs / args.refiner_run, args.faces, args.steps, args.lr,
                  threads=args.threads)
    print(f"face refiner: {args.runs / args.refiner_run / 'face_refiner.onnx'} (ship it: python -m training "
          f"ship-refiner --refiner-run {args.refiner_run})")
    return 0


def _ship_refiner(args: argparse.Namespace) -> int:
    from training.refine import ship_refiner

    run = _finished(args, args.refiner_run)
    return _shipped(args, run, "face refiner", ship_refiner(run, args.models / "face_refiner.onnx"))


def _finished(args: argparse.Namespace, name: str) -> Path:
    """The folder of the run ``name`` under ``--runs``, which has finished (its ``summary.json`` written)."""
    summary = args.runs / name / "summary.json"
    if not summary.exists():
        args.parser.error(f"{summary} not found (the run has not finished)")
    return summary.parent


def _shipped(args: argparse.Namespace, run: Path, what: str, dest: Path) -> int:
    """Say what was shipped where, and keep the run's records beside the shipped weights (``card.keep_records``)."""
    from training.card import keep_records

    print(f"{what} shipped: {dest}")
    keep_records(args.runs, run.name, args.models / "runs")
    return 0


def _requantize(args: argparse.Namespace) -> int:
    from training.ship import requantize
    from vision.shipped import CLASSIFIER_WEIGHTS, READER_WEIGHTS

    for path in (CLASSIFIER_WEIGHTS, *READER_WEIGHTS):
        print(f"requantized: {requantize(args.models / path.name, args.calibration)}")
    return 0


def _compact(args: argparse.Namespace) -> int:
    from training.compact import compact

    for path in args.onnx:
        if not path.is_file():
            args.parser.error(f"{path}: no such file")
        before, after = compact(path)
        print(f"{path}: {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB, the same weights bit for bit")
    return 0


def _card(args: argparse.Namespace) -> int:
    from training.card import MissingRecords, write_card

    try:
        card = write_card(args.models, args.runs, args.finetune, args.classifiers, args.bench, args.reader_runs,
                          args.set_finder_run, args.soft_run, args.shaken_run, args.corners_run, args.row_finder_runs,
                          args.row_corners_run, args.refiner_run, allow_missing=args.allow_missing)
    except MissingRecords as exc:
        print(f"card: {exc}", file=sys.stderr)
        return 2
    print(f"card: {card}")
    return 0


def _all(args: argparse.Namespace) -> int:
    for step in (_classifier, _ship, _finder, _card):
        step(args)
    return 0


def parser() -> argparse.ArgumentParser:
    """The command line: one sub-command per step, each with its own ``--help``."""
    ap = argparse.ArgumentParser(prog="python -m training",
                                 description="make the data, train, ship and describe mjscore's tile models (CPU)",
                                 epilog="python -m training COMMAND --help gives that command's options; "
                                        "models/README.md (Reproduce) the commands that made the shipped weights")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Run, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(run=run, parser=p)
        return p

    p = command("fetch-art", _fetch_art, "fetch the tile art of Debian's mahjong games (apt-get download) and "
                "fluffystuff, each style's faces as 150x200 PNGs with their index marks (needs rsvg-convert)")
    p.add_argument("--cache", type=Path, default=paths.art(), help="the art's cache (default: %(default)s)")
    p.add_argument("--fluffy", type=Path, default=paths.fluffy(), help="fluffystuff's SVGs (default: %(default)s)")

    p = command("drawn-art", _drawn_art, "draw tile styles from Debian's CJK fonts (dr_NN, uc_FONT) into the art's "
                "faces")
    p.add_argument("--cache", type=Path, default=paths.art(), help="the art's cache (default: %(default)s)")
    p.add_argument("--styles", type=int, default=24, help="how many drawn styles")
    p.add_argument("--seed", type=int, default=0)
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--decoys", action="store_true",
                      help="draw decoy styles dx_NN instead: every one indexed, every suit tile's numeral, dots or "
                           "sticks another number than its index's (the index names the tile; a reader learns to "
                           "read it)")
    kind.add_argument("--borrow", type=Path, metavar="FACES",
                      help="draw captioned styles bp_NN instead, whose flowers show pictures cut from the flowers of "
                           "the fetched sets in FACES (not the held-out style), any picture on any flower: a reader "
                           "learns that the caption, not the picture, names a captioned flower")
    kind.add_argument("--hk", action="store_true",
                      help="draw Taiwanese and Hong Kong styles hk_NN instead: flowers and seasons as plant pictures "
                           "with their character (梅蘭菊竹, 春夏秋冬) and a seat numeral 1-4 in a corner, most white "
                           "dragons a blank white face, a coloured back (back.png)")
    kind.add_argument("--seat-decoys", type=Path, metavar="FACES",
                      help="draw hd_NN instead: --hk styles whose every suit tile prints a corner index in the seat "
                           "numeral's ink, and whose 1s shows the bird of a fetched set's 1s in FACES (not the "
                           "held-out style's), in half of them among leaves: a picture with a corner numeral and no "
                           "character is no flower")
    p.add_argument("--held-out", action="store_true",
                   help="with --hk: the held-out variant hkx_NN, drawn with font families the hk_NN styles never "
                        "draw with (evaluation only: bench/eval_tile_sets.py)")
    p.add_argument("--numeral-alone", action="store_true",
                   help="with --hk: styles hn_NN (hnx_NN with --held-out) whose flowers print their seat numeral "
                        "alone, no character, as some sets tell the four flowers of a row apart (the seat reader "
                        "learns the numeral from them)")
    p.add_argument("--any-latin", action="store_true",
                   help="index numerals and captions in any font that draws them (Noto's, the CJK fonts' own, "
                        "DejaVu's), not DejaVu's four alone")
    p.add_argument("--birds", action="store_true",
                   help="with --borrow: three styles in four show on their 1s the picture of a fetched set's 1s (not "
                        "the held-out style's), drawn by a throw of their own (--borrow alone draws as before)")

    from training.hands import FLOWERS, SIXTEEN
    from training.styles import HELD_OUT_STYLES

    p = command("synth", _synth, "synthetic phone photos of revealed hands in YOLO layout, with the true layout "
                "beside each (images/, labels/, layout/, data.yaml)")
    p.add_argument("--out", type=Path, required=True, help="the dataset's folder")
    p.add_argument("--train", type=int, default=1000)
    p.add_argument("--val", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--art", type=Path, default=paths.art() / "faces",
                   help="a folder of faces (fetch-art, drawn-art; default: %(default)s), 'plain', 'camerash:ROOT' "
                        "(real photos as the faces of drawn tiles), 'flat:ROOT' (real photos laid flat, no hand) or "
                        "'closeup:ROOT' (the same seen close, filling much of the photo)")
    p.add_argument("--styles", nargs="*", help="only these styles (names or patterns: 'dr_*')")
    p.add_argument("--exclude", nargs="*", default=list(HELD_OUT_STYLES),
                   help=f"leave these styles out (default: the held-out {HELD_OUT_STYLES})")
    p.add_argument("--min-mp", type=float, default=3.0)
    p.add_argument("--max-mp", type=float, default=12.0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--flowers", nargs=2, type=float, metavar=("SHARE", "MOST"), default=FLOWERS,
                   help=f"the share of hands that set flowers aside, and the most they set aside (default: "
                        f"{FLOWERS[0]} {FLOWERS[1]}; e.g. '1 8' for a flower-rich set)")
    p.add_argument("--sets", type=float, default=0.0,
                   help="the share of scenes that are a tile set (whole, one family or a part) laid out in a grid of "
                        "touching tiles, as sets are photographed, instead of a hand (default 0)")
    p.add_argument("--camera", choices=("phone", "seated", "low", "front"), default="phone",
                   help="'phone': tiles lying, seen from above at up to 30 degrees (default); 'seated': tiles lying, "
                        "seen from a player's seat, 30 to 55 degrees from above and nearer, the far tiles smaller; "
                        "'low': tiles standing on their edges, shot low and from the side, near tiles bigger than far "
                        "ones; 'front': tiles standing, seen nearly from in front and a little above, as a player "
                        "photographs them")
    p.add_argument("--table", type=int, default=0, metavar="TILES",
                   help="a whole table around the hand, about this many tiles in all (walls, discards, the other "
                        "hands; up to about 250), seen from above (default 0: the hand alone)")
    p.add_argument("--sixteen", type=float, default=None, metavar="SHARE",
                   help=f"the share of 16 + 1 tile (Fuzhou) hands (default {SIXTEEN})")
    p.add_argument("--apart", type=float, default=1.0, metavar="SHARE",
                   help="the share of hands whose winning tile is set apart; the others show it touching the "
                        "concealed tiles (default 1)")

    p = command("show", _show, "draw a generated photo's true boxes and labels (from its layout sidecar)")
    p.add_argument("image", type=Path, help="DIR/images/SPLIT/NNNNNN.jpg")
    p.add_argument("out", type=Path, help="the picture to write")

    p = command("finder", _finder, "train (or resume) the tile finder's base run from scratch, then ship it")
    options.data(p, also=False)
    options.runs(p)
    options.models(p)
    p.add_argument("--epochs", type=int, default=0, help="0: 12")
    options.finder_options(p)

    p = command("finetune", _finetune, "go on training the finder on --data and --real-data at a low learning rate")
    options.data(p, also=False)
    p.add_argument("--real-data", type=Path, nargs="+", default=[paths.datasets() / "hands_real"],
                   help="the datasets added to --data (default: %(default)s)")
    p.add_argument("--name", default="finder_ft", help="the fine-tuning run's name under --runs")
    p.add_argument("--init", type=Path, help="the finder weights it starts from (default: the base run's best)")
    p.add_argument("--epochs", type=int, default=0, help="0: 2")
    options.runs(p)
    options.finder_options(p)

    p = command("export", _export, "ship a finder run: its weights and ONNX export -> models/tile_finder.{pt,onnx}")
    p.add_argument("--name", default="finder_ft", help="the run's name under --runs")
    p.add_argument("--set-finder", action="store_true",
                   help="ship the run as the set finder (models/set_finder.onnx), not as the tile finder")
    p.add_argument("--row-finder", action="store_true",
                   help="ship the run as the finder of rows of tiles standing (models/row_finder.onnx, int8 rows)")
    options.runs(p)
    options.models(p)

    p = command("classifier", _classifier, "train (or resume) the tile classifier on crops of --data (and --also) "
                "and the real photos' training part; exports its run's float ONNX")
    options.data(p)
    options.real(p)
    options.runs(p)
    p.add_argument("--epochs", type=int, default=0, help="0: 8")
    options.classifier_options(p)

    p = command("ship", _ship, "ship a classifier run as int8 -> models/tile_classifier.onnx")
    p.add_argument("--classifier-run", default="classifier", help="the classifier run's name under --runs")
    p.add_argument("--soft", dest="fault", action="store_const", const="soft",
                   help="ship it as the classifier of soft photos, models/soft_classifier.onnx")
    p.add_argument("--shaken", dest="fault", action="store_const", const="shaken",
                   help="ship it as the classifier of shaken photos, models/shaken_classifier.onnx")
    options.calibration(p, default=" (default: the first the run trained on)")
    options.runs(p)
    options.models(p)

    p = command("reader", _reader, "train (or resume) a family's reader on upright crops, from a classifier run's "
                "checkpoint or a reader run's")
    p.add_argument("--family", choices=FAMILIES, default="flower",
                   help="the tiles it reads (flower: 1f-8f, character: 1m-9m, dot: 1p-9p, mark: a tile's numeral, "
                        "seat: a flower's seat 1-4)")
    p.add_argument("--init", type=Path, required=True,
                   help="the checkpoint it starts from (a classifier run's or a reader run's last.pt)")
    p.add_argument("--reader-run", help="the reader's run under --runs (default '<family>_reader')")
    p.add_argument("--steps", type=options.bounded(int, 1, options.MOST_BATCHES), default=5000,
                   help="batches of 128 to train for")
    p.add_argument("--lr", type=float, help="the one-cycle schedule's peak (default 1e-3)")
    p.add_argument("--crop", type=int, help="crop side in pixels (default 96)")
    p.add_argument("--hard-others", type=float, default=0.0,
                   help="this share of its other tiles are those its --init takes most for the family (the rest "
                        "drawn at random)")
    p.add_argument("--keep", type=float, default=0.0,
                   help="hold the reader to the names its --init (a reader of the family) gives the crops it names "
                        "right, with this weight: it learns new sets without forgetting (e.g. 1)")
    p.add_argument("--mine-every", type=int, default=0,
                   help="pick the --hard-others again every so many steps, by the reader being trained, from every "
                        "other tile of the data (default 0: once, by --init)")
    p.add_argument("--real-times", type=int, default=1,
                   help="the real training photos count this many times among the crops (default: %(default)s)")
    p.add_argument("--threads", type=options.bounded(int, 1, options.MOST_THREADS), default=2,
                   help="PyTorch threads (default: %(default)s)")
    p.add_argument("--device", default="cpu", help="where PyTorch trains (cpu, cuda; default: %(default)s)")
    options.data(p)
    options.real(p)
    options.runs(p)

    p = command("ship-reader", _ship_reader, "ship a reader run as int8 -> models/<family>_reader.onnx")
    p.add_argument("--reader-run", help="the reader's run under --runs (default '<family>_reader')")
    p.add_argument("--family", choices=FAMILIES, default="flower", help="the family, for the default run's name")
    options.calibration(p, default=" (default: the first the run trained on)")
    options.runs(p)
    options.models(p)

    p = command("corners", _corners, "train (or resume) the face network: where each tile's face lies in its crop "
                "(tiles standing or lying: synth --camera low, front, seated, phone), to cut it flat")
    p.add_argument("--corners-run", default="face_corners", help="the run's name under --runs")
    options.steps(p, 4000)
    p.add_argument("--init", help="a face run under --runs to start from (fine-tune it; default: from scratch)")
    options.data(p)
    options.runs(p)

    p = command("ship-corners", _ship_corners, "ship a face network run as int8 -> models/face_corners.onnx")
    p.add_argument("--corners-run", default="face_corners", help="the run's name under --runs")
    p.add_argument("--rows", action="store_true", help="put it beside the network shipped, as the one taken for "
                   "photos of tiles standing (replacing one shipped before)")
    options.runs(p)
    options.models(p)

    p = command("refiner", _refiner, "train (or resume) the face refiner: each face the face network finds (tiles "
                "standing or lying: synth --camera low, front, seated, phone), cut flat with a margin, found again")
    p.add_argument("--refiner-run", default="face_refiner", help="the run's name under --runs")
    p.add_argument("--faces", type=Path, default=paths.MODELS / "face_corners.onnx",
                   help="the face network whose faces it finds again (default: the shipped one)")
    options.steps(p, 6000)
    options.data(p)
    options.runs(p)

    p = command("ship-refiner", _ship_refiner, "ship a face refiner run, its weights int8 -> models/face_refiner.onnx")
    p.add_argument("--refiner-run", default="face_refiner", help="the run's name under --runs")
    options.runs(p)
    options.models(p)

    p = command("requantize", _requantize, "quantize the shipped int8 networks again, as ship does today, from "
                "their float twins")
    options.calibration(p, required=True, default=" (a dataset of the training styles)")
    options.models(p)

    p = command("compact", _compact, "store float ONNX networks (the finders' exports) in about half the bytes, in "
                "place: each weight's rows as float16 times a float32 scale where that gives the same weights bit "
                "for bit")
    p.add_argument("onnx", type=Path, nargs="+", help="ONNX files to rewrite in place")

    p = command("caption", _caption, "cut the caption reader from the rapidocr-onnxruntime 1.4.4 wheel's text "
                "recogniser -> models/caption_reader.onnx")
    p.add_argument("wheel", type=Path, help="the rapidocr-onnxruntime 1.4.4 wheel (pip download)")
    p.add_argument("--out", type=Path, default=paths.MODELS / "caption_reader.onnx")
    p.add_argument("--unfolded", action="store_true", help="keep the recogniser's steps as exported, unfolded "
                   "(training/folds.py), to compare with: python -m bench.captions_once --saving folds")
    p.add_argument("--float", action="store_true", help="keep every convolution float (training/quantize.py), to "
                   "compare with: python -m bench.captions_once --saving int8")

    p = command("card", _card, "write the model card, models/README.md, from the runs' records and the benchmark "
                "(its notes and reproduce commands kept as they are)")
    options.card_options(p)
    options.runs(p)
    options.models(p)

    p = command("all", _all, "classifier, ship, finder and card in turn, each resuming where it stopped")
    options.data(p)
    options.real(p)
    options.runs(p)
    options.models(p)
    p.add_argument("--epochs", type=int, default=0, help="the classifier's and the finder's epochs (0: 8 and 12)")
    options.classifier_options(p)
    options.calibration(p, default=" (default: the first the run trained on)")
    options.finder_options(p)
    options.card_options(p)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    for folder in ("runs", "models"):
        if hasattr(args, folder):
            getattr(args, folder).mkdir(parents=True, exist_ok=True)
    try:
        return args.run(args)
    except ModuleNotFoundError as exc:
        if exc.name not in TRAIN_EXTRA:
            raise
        print(f"python -m training {args.command}: {exc.name} is not installed; training needs the train extra: "
              f"pip install -e '.[train]'", file=sys.stderr)
        return 2
    except (FileNotFoundError, ValueError) as exc:
        print(f"python -m training {args.command}: {exc}", file=sys.stderr)
        return 2
