"""Evaluate mjscore's tile detector beside the peer baseline (PyPI ``mahjong-detector``), in one run.

1. Synthetic hands drawn in a tile style kept out of training (``kd_traditional``), 3-12 MP: mAP50 and the share of
   tiles read right (a true tile counts when a detection overlaps it at IoU >= 0.5 with the right name); the same
   for photos of tile sets laid out in grids of touching tiles (``--sets``), as sets are photographed.
2. The held-out real camerash photos (never trained on): top-1 over the 42 face classes, three ways: the photo as
   it is (a close-up: the detection with the highest confidence names it), the photo pasted at hand-photo scale on
   a plain table (``in_scene``), and, for mjscore, its naming alone (classifier and readers) on the whole
   photo (and, on the hands of 1., on their true boxes, with its commonest mistakes).
3. Speed: one 12-megapixel phone JPEG to detections, median of 20 runs, for each, the two taking turns run by run.

The baseline has 34 classes (no flowers, no back): it is scored on the true tiles of those classes, and mjscore's
figures on that same subset are given beside it.

Usage: ``python -m bench.eval_vision [--hands 60] [--sets 20] [--out cache/bench/eval_vision.json]`` (the model card,
``python -m training card``, reads that file; needs the dev install: the generator, ``mahjong-detector``).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from training import paths, synth
from training.measure import iou, read_right
from training.real import in_scene, real_photo_files
from vision.names import NAMES
from vision.shipped import READER_WEIGHTS, SHAKEN_CLASSIFIER_WEIGHTS, SOFT_CLASSIFIER_WEIGHTS

BASELINE_NAMES = {"chun": "7z", "haku": "5z", "hatsu": "6z", "nan": "2z", "pe": "4z", "sha": "3z", "tou": "1z"}
BASELINE_CLASSES = frozenset(NAMES[:34])


# ------------------------------------------------------------------------------------------------- detectors ----
class Mjscore:
    name = "mjscore"

    def __init__(self, finder: Path | None = None, readers: tuple[Path, ...] = (),
                 classifier: Path | None = None, soft: Path | None = SOFT_CLASSIFIER_WEIGHTS,
                 shaken: Path | None = SHAKEN_CLASSIFIER_WEIGHTS) -> None:
        from vision.detector import TileDetector
        from vision.shipped import CLASSIFIER_WEIGHTS, FINDER_WEIGHTS

        self.det = TileDetector(finder or FINDER_WEIGHTS, classifier or CLASSIFIER_WEIGHTS, readers=readers, soft=soft,
                                shaken=shaken)

    def __call__(self, image: bytes) -> list[tuple[str, float, tuple[float, ...]]]:
        return [(d.label, d.confidence, d.box) for d in self.det.detect(image)]


class Baseline:
    name = "mahjong-detector"

    def __init__(self) -> None:
        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image

        self._pre, self._predict = preprocess_image, predict
        self._names = [BASELINE_NAMES.get(n, n) for n in CLASS_NAMES]

    def __call__(self, image: bytes) -> list[tuple[str, float, tuple[float, ...]]]:
        img = Image.open(io.BytesIO(image))
        pre, pad = self._pre(img)
        return [(self._names[d.class_id], d.confidence, (d.x1, d.y1, d.x2, d.y2)) for d in self._predict(pre, pad)]


# --------------------------------------------------------------------------------------------------- scoring ----
def map50(per_image: list[tuple[list, list]], classes: frozenset[str]) -> float:
    """Mean over classes (that occur in the truth) of all-point-interpolated AP at IoU 0.5."""
    aps = []
    for c in sorted(classes):
        scored = []
        n_true = 0
        for truth, dets in per_image:
            tb = np.array([b for lbl, b in truth if lbl == c], np.float64).reshape(-1, 4)
            n_true += len(tb)
            taken = np.zeros(len(tb), bool)
            for _lbl, conf, box in sorted((d for d in dets if d[0] == c), key=lambda d: -d[1]):
                hit = False
                if len(tb):
                    ious = iou(np.array(box, np.float64), tb)
                    ious[taken] = 0
                    j = int(ious.argmax())
                    if ious[j] >= 0.5:
                        taken[j] = hit = True
                scored.append((conf, hit))
        if n_true == 0:
            continue
        scored.sort(key=lambda s: -s[0])
        tp = np.cumsum([h for _, h in scored]) if scored else np.zeros(0)
        fp = np.cumsum([not h for _, h in scored]) if scored else np.zeros(0)
        rec = tp / n_true if len(tp) else np.zeros(0)
        prec = tp / np.maximum(tp + fp, 1e-9) if len(tp) else np.zeros(0)
        mrec = np.concatenate([[0], rec, [1]])
        mpre = np.concatenate([[1], prec, [0]])
        mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
        aps.append(float(np.sum((mrec[1:] - mrec[:-1]) * mpre[1:])))
    return float(np.mean(aps)) if aps else 0.0


# ------------------------------------------------------------------------------------------------ the runs ------
def held_out_hands(n: int, art: Path, out: Path, sets: bool = False) -> list[tuple[bytes, list]]:
    """``n`` photos drawn in the held-out style: hands (3-12 MP), or with ``sets`` tile sets laid out in grids
    (``synth.layout_set``, 2-6 MP); each with its true tiles (label, box)."""
    styles = synth.load_styles(art, include=list(synth.HELD_OUT_STYLES))
    spec = synth.SceneSpec(0, 2027, "heldout_sets", 2.0, 6.0, sets=1.0) if sets else synth.SceneSpec(
        0, 2026, "heldout", 3.0, 12.0)
    scenes = []
    for i in range(n):
        jpg, _lines, layout = synth.make_scene(replace(spec, index=i), styles)
        truth = [(t["label"], tuple(t["box"])) for t in layout["tiles"] if t["visible"] >= 0.6]
        scenes.append((jpg, truth))
    out.mkdir(parents=True, exist_ok=True)
    if n:
        (out / f"heldout{'_set' if sets else ''}_000.jpg").write_bytes(scenes[0][0])
    return scenes


def eval_hands(model, scenes: list[tuple[bytes, list]]) -> dict:  # noqa: ANN001
    per_image = [(truth, model(jpg)) for jpg, truth in scenes]
    res = {}
    for subset, classes in (("all", frozenset(NAMES)), ("baseline_classes", BASELINE_CLASSES)):
        sub = [([t for t in truth if t[0] in classes], [d for d in dets if d[0] in classes or subset == "all"])
               for truth, dets in per_image]
        ok = tot = 0
        for truth, dets in sub:
            a, b = read_right(truth, dets)
            ok, tot = ok + a, tot + b
        res[subset] = {"tiles": tot, "read_right": round(ok / max(tot, 1), 4), "map50": round(map50(sub, classes), 4)}
    return res


def real_photos(real: Path) -> list[tuple[bytes, str]]:
    return [(path.read_bytes(), label) for label, path in real_photo_files(real, holdout=True)]


def eval_real(model, photos: list[tuple[bytes, str]], classes: frozenset[str]) -> dict:  # noqa: ANN001
    ok = n = 0
    for jpg, label in photos:
        if label not in classes:
            continue
        dets = model(jpg)
        top = max(dets, key=lambda d: d[1])[0] if dets else None
        ok += top == label
        n += 1
    return {"photos": n, "top1": round(ok / max(n, 1), 4)}


def eval_real_in_scene(model, photos: list[tuple[bytes, str]], classes: frozenset[str]) -> dict:  # noqa: ANN001
    rng = np.random.default_rng(0)
    return eval_real(model, [(in_scene(j, rng), lbl) for j, lbl in photos], classes)


def eval_hands_classifier(det, scenes: list[tuple[bytes, list]], top: int = 10) -> dict:  # noqa: ANN001
    """mjscore's naming alone (classifier and readers) on the true boxes of the held-out hands (what a perfect
    finder would leave it), with its commonest mistakes as [true, read, count]."""
    from collections import Counter

    from vision.image import load_image

    ok = n = 0
    mistakes: Counter = Counter()
    for jpg, truth in scenes:
        rgb, scale = load_image(jpg, det.config.work_side)
        probs, _up = det.classify(rgb, np.array([box for _, box in truth], np.float64) * scale)
        for (label, _), p in zip(truth, probs, strict=True):
            read = NAMES[int(p.argmax())]
            ok += read == label
            n += 1
            if read != label:
                mistakes[(label, read)] += 1
    return {"tiles": n, "read_right": round(ok / max(n, 1), 4),
            "mistakes": [[a, b, k] for (a, b), k in mistakes.most_common(top)]}


def eval_real_classifier(det, photos: list[tuple[bytes, str]]) -> dict:  # noqa: ANN001
    """mjscore's classifier alone on each whole photo (the crop a perfect finder would give)."""
    from vision.image import load_image

    ok = 0
    for jpg, label in photos:
        rgb, _ = load_image(jpg)
        h, w = rgb.shape[:2]
        probs, _up = det.classify(rgb, np.array([[0.04 * w, 0.03 * h, 0.96 * w, 0.97 * h]]))
        ok += NAMES[int(probs[0].argmax())] == label
    return {"photos": len(photos), "top1": round(ok / max(len(photos), 1), 4)}


def speed(models: list, jpg: bytes, runs: int = 20) -> dict[str, dict]:
    """Each model's time from the JPEG's bytes to its detections, median of ``runs``; the models take turns, run by
    run, so that the machine's drift (a fifth from hour to hour here) falls on all alike."""
    times: dict[str, list[float]] = {m.name: [] for m in models}
    for m in models:
        m(jpg)  # warm up
    for _ in range(runs):
        for m in models:
            t = time.perf_counter()
            m(jpg)
            times[m.name].append(time.perf_counter() - t)
    return {name: {"runs": runs, "median_ms": round(1000 * statistics.median(t), 1),
                   "min_ms": round(1000 * min(t), 1)} for name, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--sets", type=int, default=20, help="photos of tile sets laid out in grids, held-out style")
    ap.add_argument("--art", type=Path, default=paths.art() / "faces",
                    help="tile styles (the held-out one among them); the 12 MP speed photo is drawn from all of "
                         "them, so compare its ratio only between runs with the same --art")
    ap.add_argument("--real", type=Path, default=paths.real())
    ap.add_argument("--out", type=Path, default=paths.bench_file())
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--finder", type=Path, help="another finder to score, an ONNX export (default: the shipped one)")
    ap.add_argument("--classifier", type=Path, help="another classifier to score, an ONNX (default: the shipped one)")
    ap.add_argument("--readers", type=Path, nargs="*", default=list(READER_WEIGHTS),
                    help="the readers' weights (default: the shipped ones; none: the classifier names tiles alone)")
    args = ap.parse_args(argv)
    readers = tuple(args.readers)
    t0 = time.time()
    scenes = held_out_hands(args.hands, args.art, args.out.parent)
    sets = held_out_hands(args.sets, args.art, args.out.parent, sets=True)
    photos = real_photos(args.real)
    big = synth.make_scene(synth.SceneSpec(0, 12, "speed", 12.0, 12.0), synth.load_styles(args.art))[0]
    w, h = Image.open(io.BytesIO(big)).size
    models = [Mjscore(args.finder, readers, args.classifier)]
    if not args.no_baseline:
        try:
            models.append(Baseline())
        except ImportError:
            print("mahjong-detector not installed (pip install mahjong-detector): baseline skipped")
    report: dict = {"finder": str(args.finder or "models/tile_finder.onnx"), "readers": [str(r) for r in readers],
                    "classifier": str(args.classifier or "models/tile_classifier.onnx"),
                    "held_out_style": list(synth.HELD_OUT_STYLES), "hands": args.hands, "sets": args.sets,
                    "real_photos_held_out": len(photos), "speed_image": f"{w}x{h} JPEG ({w * h / 1e6:.1f} MP)"}
    for m in models:
        classes = frozenset(NAMES[:42]) if m.name == "mjscore" else BASELINE_CLASSES
        r = {"synthetic_hands": eval_hands(m, scenes), "synthetic_sets": eval_hands(m, sets),
             "real_top1_whole_photo": eval_real(m, photos, classes),
             "real_top1_in_scene": eval_real_in_scene(m, photos, classes)}
        if m.name == "mjscore":
            r["real_top1_in_scene_baseline_classes"] = eval_real_in_scene(m, photos, BASELINE_CLASSES)
            r["synthetic_hands_classifier_only"] = eval_hands_classifier(m.det, scenes)
            r["real_top1_classifier_only"] = eval_real_classifier(m.det, photos)
        report[m.name] = r
        print(json.dumps({m.name: r}, indent=1), flush=True)
    for name, figure in speed(models, big, args.runs).items():
        report[name]["speed_12mp"] = figure
    if len(models) > 1:  # the figure to compare from run to run: the machine's speed drifts, the ratio less
        ours, theirs = (report[m.name]["speed_12mp"]["median_ms"] for m in models)
        report["speed_12mp_ratio"] = round(ours / theirs, 3)
    print(json.dumps({"speed_12mp": {m.name: report[m.name]["speed_12mp"] for m in models},
                      "ratio": report.get("speed_12mp_ratio")}), flush=True)
    return write_report(report, args.out, t0)


def write_report(report: dict, out: Path, t0: float) -> int:
    """The run's seconds since ``t0`` into ``report``, and ``report`` written to ``out`` as JSON."""
    report["seconds"] = round(time.time() - t0, 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
