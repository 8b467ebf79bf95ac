"""Train mjscore's tile models on the CPU; resume an unfinished run; write weights and the model card here.

Two stages (``vision/detector.py`` runs them in this order):

1. ``finder``: a one-class YOLO11 (``models/finder.yaml``, slimmer than 'n') that boxes every tile, face up or
   down. Trained with ultralytics on the synthetic hands (``datasets/synth.py``), ``single_cls=True``.
2. ``classifier``: a small CNN (``vision/classifier_net.py``) on 64x64 crops around each box, with two heads: the
   43 tile names (the contract's, plus ``back``) and the tile's up direction in the image (0/90/180/270 degrees,
   which tells sideways tiles). Trained on crops cut from the synthetic hands plus the training part of the real
   camerash photos; exported to ONNX for onnxruntime.

Usage::

    python models/train.py all --data /work/cache/datasets/hands      # both stages, resuming where they stopped
    python models/train.py finder --epochs 12
    python models/train.py classifier --epochs 8

Runs and checkpoints live under ``--runs`` (default /work/cache/runs); the shipped files are
``models/tile_finder.pt``, ``models/tile_classifier.onnx`` and ``models/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))

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
                    epochs: int = 2, name: str = "finder_ft") -> Path:
    """Go on training the finder from its best weights on the synthetic hands plus ``extra`` datasets (hands whose
    faces are real tile photos, ``datasets/synth.py --art camerash:...``; real photos laid flat, ``--art flat:...``;
    training photos only), at a low learning rate. Resumes an unfinished run."""
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
        model = YOLO(str(runs / "finder" / "weights" / "best.pt"))
        model.train(data=str(mixed), epochs=epochs, imgsz=imgsz, batch=batch, workers=2, single_cls=True,
                    project=str(runs), name=name, exist_ok=True, plots=False, device="cpu", cache="ram",
                    mosaic=0.0, scale=0.4, degrees=0.0, translate=0.1, fliplr=0.5, close_mosaic=0, seed=0,
                    deterministic=False, amp=False, optimizer="AdamW", lr0=0.0004, lrf=0.2, warmup_epochs=0,
                    time=hours or None)
    (run / "done").write_text("\n")
    best = run / "weights" / "best.pt"
    return best if best.exists() else last


def export_finder(weights: Path) -> Path:
    import shutil

    dest = MODELS / "tile_finder.pt"
    # strip the optimizer: ultralytics' strip_optimizer keeps the model and its metadata only
    from ultralytics.utils.torch_utils import strip_optimizer

    tmp = weights.parent / "ship.pt"
    shutil.copy(weights, tmp)
    strip_optimizer(str(tmp))
    shutil.copy(tmp, dest)
    return dest


def write_card(data: Path, runs: Path) -> Path:
    """models/README.md from what the runs recorded (finder results.csv, classifier summary.json, bench output)."""
    import csv

    finder_rows = []
    res = runs / "finder" / "results.csv"
    if res.exists():
        with res.open() as f:
            finder_rows = [{k.strip(): v.strip() for k, v in r.items()} for r in csv.DictReader(f)]
    fargs = {}
    args_yaml = runs / "finder" / "args.yaml"
    if args_yaml.exists():
        for line in args_yaml.read_text().splitlines():
            if ":" in line:
                k, v = line.split(":", 1)
                fargs[k.strip()] = v.strip()
    csum = {}
    if (runs / "classifier" / "summary.json").exists():
        csum = json.loads((runs / "classifier" / "summary.json").read_text())
    bench = {}
    bench_file = Path("/work/cache/bench/eval_vision.json")
    if bench_file.exists():
        bench = json.loads(bench_file.read_text())
    n_train = len(list((data / "images" / "train").glob("*.jpg")))
    n_val = len(list((data / "images" / "val").glob("*.jpg")))
    last = finder_rows[-1] if finder_rows else {}
    ftime = float(last.get("time", 0) or 0)
    lines = [
        "# mjscore tile models",
        "",
        "Written by `python models/train.py card` from the training runs; figures are what the runs measured.",
        "",
        "| file | what | size |",
        "| --- | --- | --- |",
    ]
    for f in ("tile_finder.pt", "tile_classifier.onnx"):
        p = MODELS / f
        size = f"{p.stat().st_size / 1e6:.1f} MB" if p.exists() else "missing"
        what = ("one-class YOLO11 finder (`models/finder.yaml`, width 0.1875): a box per tile, face up or down"
                if f.endswith(".pt") else "CNN on 64x64 crops (`vision/classifier_net.py`): 43 names + up direction")
        lines.append(f"| `{f}` | {what} | {size} |")
    lines += [
        "",
        "## Data",
        f"- Synthetic hands from `datasets/synth.py` (seed 1): {n_train} train + {n_val} val images, 1-2 MP,",
        "  tile styles " + ", ".join(sorted(p.name for p in Path('/work/cache/art/faces').iterdir()
                                          if p.is_dir() and p.name not in ('kd_traditional', 'gn_edu_kang_xi')))
        + " (from `datasets/fetch_art.py`); `kd_traditional` is held out for evaluation.",
        "- Real photos: `shared/real/camerash` (629 single-tile photos); about 35% (fixed by a hash of the file",
        "  name, `real_holdout` in `datasets/synth.py`) are never trained on; the rest train the classifier",
        "  (each rotated by multiples of 90 degrees, 24 copies).",
        "",
        "## Finder (ultralytics, CPU, from scratch: no pretrained weights)",
    ]
    keep = ("imgsz", "batch", "epochs", "time", "single_cls", "mosaic", "scale", "degrees", "fliplr", "close_mosaic",
            "optimizer", "lr0", "cache")
    lines.append("- settings: " + ", ".join(f"{k}={fargs[k]}" for k in keep if k in fargs))
    if last:
        lines.append(f"- epochs run: {len(finder_rows)}; training time {ftime / 3600:.2f} h "
                     "(2 shared CPU cores, niced)")
        lines.append(f"- last epoch val (synthetic, one class): precision {float(last['metrics/precision(B)']):.3f}, "
                     f"recall {float(last['metrics/recall(B)']):.3f}, mAP50 {float(last['metrics/mAP50(B)']):.3f}, "
                     f"mAP50-95 {float(last['metrics/mAP50-95(B)']):.3f}")
    else:
        lines.append("- no finder run recorded")
    ft = runs / "finder_ft"
    if (ft / "shipped").exists() and (ft / "results.csv").exists():
        with (ft / "results.csv").open() as f:
            ft_rows = [{k.strip(): v.strip() for k, v in r.items()} for r in csv.DictReader(f)]
        fl = ft_rows[-1]
        lines += [
            f"- then fine-tuned (`models/train.py finetune --hours 0.25`): {len(ft_rows)} epochs, "
            f"{float(fl['time']) / 60:.0f} min, AdamW lr 4e-4, on the same hands plus 700 hands whose faces are the "
            "training part of the real camerash photos (`datasets/synth.py --art camerash:... --seed 2`); "
            f"val: precision {float(fl['metrics/precision(B)']):.3f}, recall {float(fl['metrics/recall(B)']):.3f}, "
            f"mAP50 {float(fl['metrics/mAP50(B)']):.3f}, mAP50-95 {float(fl['metrics/mAP50-95(B)']):.3f}. "
            "The shipped finder is this fine-tuned one.",
        ]
    ft_bench = Path("/work/cache/bench/eval_vision_ft.json")
    if not (ft / "shipped").exists() and ft_bench.exists() and (ft / "results.csv").exists():
        fb = json.loads(ft_bench.read_text())["mjscore"]
        lines.append(
            "- tried and not shipped: 2 more epochs (`models/train.py finetune`, AdamW lr 4e-4) on the same hands plus "
            "700 hands whose faces are the training part of the real camerash photos; val mAP50 0.970, mAP50-95 "
            f"0.690, but the bench fell: held-out style read right {fb['synthetic_hands']['all']['read_right']:.3f}, "
            f"real tiles in a scene {fb['real_top1_in_scene']['top1']:.3f} (`/work/cache/bench/eval_vision_ft.json`)."
        )
    lines += ["", "## Classifier (PyTorch, CPU)"]
    if csum:
        h = csum["history"][-1]
        lines += [
            f"- {len(csum['history'])} of {csum['epochs']} epochs, {csum['seconds_total'] / 60:.0f} min; "
            f"{csum['train_crops']} synthetic crops (2 jittered per tile) + {csum['real_train']} real photos",
            "- AdamW, one-cycle lr 2e-3, batch 128, label smoothing 0.05, brightness/contrast/colour/noise jitter",
            f"- last epoch: synthetic val top-1 {h['synth_val']['top1']:.4f} "
            f"(up direction {h['synth_val']['orient']:.4f}),"
            f" held-out real photos top-1 {h['real_holdout']['top1']:.4f} ({h['real_holdout']['n']} photos)",
        ]
        lines.append("- per epoch (synthetic val top-1 / held-out real top-1): " + ", ".join(
            f"{r['epoch'] + 1}: {r['synth_val']['top1']:.3f}/{r['real_holdout']['top1']:.3f}" for r in csum["history"]))
        if len(csum["history"]) > 10:
            lines.append("- this run: epochs 1-10 with photometric jitter only (one-cycle over 10 epochs), then "
                         "resumed to 16 with style jitter (channel swaps, grey, stroke width, zoom/turn; the one-cycle "
                         "schedule restarted part-way). Shipped: the epoch-16 export. The epoch-10 export, read on "
                         "true boxes of "
                         "30 held-out-style hands, scored 0.764 top-1 against 0.758 for the shipped one: the style "
                         "jitter did not close the held-out-style gap.")
    else:
        lines.append("- no classifier run recorded")
    lines += ["", "## Evaluation (`python bench/eval_vision.py`)"]
    if bench and "mjscore" in bench:
        m, b = bench["mjscore"], bench.get("mahjong-detector", {})

        def g(d: dict, *keys: str) -> str:
            for k in keys:
                d = d.get(k, {}) if isinstance(d, dict) else {}
            return f"{d:.3f}" if isinstance(d, float) else "-"

        lines += [
            f"Held-out style `{', '.join(bench['held_out_style'])}`, {bench['hands']} hands; "
            f"{bench['real_photos_held_out']} held-out real photos; speed on one {bench['speed_image']}.",
            "",
            "| figure | target | mjscore | mahjong-detector |",
            "| --- | --- | --- | --- |",
            "| tiles read right, held-out style, all 43 classes | >= 0.99 | "
            f"{g(m, 'synthetic_hands', 'all', 'read_right')}"
            " | - |",
            f"| tiles read right, held-out style, the baseline's 34 classes | ahead | "
            f"{g(m, 'synthetic_hands', 'baseline_classes', 'read_right')} | "
            f"{g(b, 'synthetic_hands', 'baseline_classes', 'read_right')} |",
            f"| mAP50, held-out style, the baseline's 34 classes | ahead | "
            f"{g(m, 'synthetic_hands', 'baseline_classes', 'map50')} | "
            f"{g(b, 'synthetic_hands', 'baseline_classes', 'map50')} |",
            f"| mAP50, held-out style, all 43 classes | - | {g(m, 'synthetic_hands', 'all', 'map50')} | - |",
            "| real photos top-1, classifier on the photo | >= 0.95 | "
            f"{g(m, 'real_top1_classifier_only', 'top1')} | - |",
            f"| real photos top-1, whole pipeline on the photo pasted at hand scale | ahead | "
            f"{g(m, 'real_top1_in_scene', 'top1')} "
            f"(34 classes: {g(m, 'real_top1_in_scene_baseline_classes', 'top1')}) | "
            f"{g(b, 'real_top1_in_scene', 'top1')} |",
            f"| real photos top-1, whole pipeline on the close-up photo as is | - | "
            f"{g(m, 'real_top1_whole_photo', 'top1')} | {g(b, 'real_top1_whole_photo', 'top1')} |",
            f"| 12 MP JPEG to detections, median of {m['speed_12mp']['runs']}, ms | <= 150 | "
            f"{m['speed_12mp']['median_ms']} | {b.get('speed_12mp', {}).get('median_ms', '-')} |",
            "",
            "Not reached: 0.99 on the held-out style (the classifier misreads an unseen art style: neighbouring "
            "numbers, and flowers it has never seen drawn that way), 0.95 on real photos, and the whole pipeline on "
            "real tiles pasted into a plain scene (in the examples looked at, the finder, trained on rendered tiles "
            "only, split a real tile into "
            "pieces; the baseline does better there). Ahead of the baseline on the held-out style and on speed.",
            "",
            "Raw output:",
        ]
    if bench:
        lines.append("```json")
        lines.append(json.dumps(bench, indent=1))
        lines.append("```")
    else:
        lines.append("- not run yet for these weights")
    lines += [
        "",
        "## Reproduce",
        "```",
        "apt-get install -y librsvg2-bin && python datasets/fetch_art.py            # art -> /work/cache/art/faces",
        "python datasets/synth.py --out /work/cache/datasets/hands --train 3000 --val 300 --seed 1 \\",
        "    --min-mp 1.0 --max-mp 2.0 --workers 2",
        "nice -n 10 python models/train.py all --hours 1.5     # resumes an unfinished run; writes models/",
        "python datasets/synth.py --out /work/cache/datasets/hands_real --train 700 --val 60 --seed 2 \\",
        "    --art camerash:../shared/real/camerash --min-mp 1.0 --max-mp 2.0 --workers 2",
        "nice -n 10 python models/train.py finetune --hours 0.25   # optional; not shipped, see the finder notes",
        "python bench/eval_vision.py && python models/train.py card",
        "```",
    ]
    card = MODELS / "README.md"
    card.write_text("\n".join(lines) + "\n")
    return card


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="train mjscore's tile finder and tile classifier")
    ap.add_argument("stage", choices=["finder", "classifier", "all", "card", "finetune"])
    ap.add_argument("--real-data", type=Path, nargs="+", default=[Path("/work/cache/datasets/hands_real")],
                    help="finetune: the datasets added to --data")
    ap.add_argument("--name", default="finder_ft", help="finetune: the run's name under --runs")
    ap.add_argument("--data", type=Path, default=Path("/work/cache/datasets/hands"))
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

        train_classifier(args.data, args.real, args.runs / "classifier", args.epochs or 8, MODELS, args.threads)
    if args.stage in ("finder", "all"):
        best = train_finder(args.data, args.runs, args.epochs or 12, args.imgsz, args.batch, args.hours)
        print(f"finder: {export_finder(best)}")
    if args.stage == "finetune":
        best = finetune_finder(args.data, args.real_data, args.runs, args.imgsz, args.batch, args.hours,
                               args.epochs or 2, args.name)
        print(f"finder fine-tuned: {best} (export with care: compare bench figures first)")
    if args.stage in ("card", "all"):
        print(f"card: {write_card(args.data, args.runs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
