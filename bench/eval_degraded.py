"""The held-out hands of ``bench/eval_vision.py`` as phones take them at real tables: soft, shaken, dark, with glare,
warm or cool light, sent small or squeezed hard, each read by the shipped detector, and again by the detector with
some of its settings changed, with another classifier or with another classifier of photos out of focus or shaken
(before and after a change, in one run), and by the baseline.

    python -m bench.eval_degraded [--hands 60] [--kinds blur_0.1 motion_0.3 ...] [--without sharpen_below=0]
                                  [--classifier ONNX] [--soft ONNX] [--shaken ONNX] [--baseline] [--json OUT]

Each kind is a function of the decoded photo (its size a fraction of the photo's long side where it has one), the
result encoded as a JPEG again (quality 90, ``jpeg_30`` 30). The figure: the share of true tiles read right (a
detection at IoU 0.5 or more naming the tile, ``training.measure.read_right``), over all names and over the
baseline's 34.
"""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from bench.eval_vision import Baseline, Mjscore, eval_hands, held_out_hands
from training import paths
from vision.shipped import READER_WEIGHTS


def _gauss(frac: float) -> Callable[[np.ndarray], np.ndarray]:
    def blur(rgb: np.ndarray) -> np.ndarray:
        import cv2

        return cv2.GaussianBlur(rgb.astype(np.float32), (0, 0), frac * max(rgb.shape[:2]))
    return blur


def _shaken(frac: float, degrees: float = 0.0) -> Callable[[np.ndarray], np.ndarray]:
    def motion(rgb: np.ndarray) -> np.ndarray:  # a streak that long, level or turned by ``degrees``
        import cv2

        k = max(3, int(frac * max(rgb.shape[:2])))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1 / k
        if degrees:
            turn = cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), degrees, 1.0)
            kernel = cv2.warpAffine(kernel, turn, (k, k), flags=cv2.INTER_LINEAR)
            kernel /= kernel.sum()
        return cv2.filter2D(rgb.astype(np.float32), -1, kernel)
    return motion


def _dark(rgb: np.ndarray) -> np.ndarray:  # a third of the light, and the sensor's noise
    return rgb * 0.35 + np.random.default_rng(0).normal(0, 6, rgb.shape)


def _glare(rgb: np.ndarray) -> np.ndarray:  # three lamps' highlights, each a twelfth of the long side
    h, w = rgb.shape[:2]
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    rng, out, s = np.random.default_rng(1), rgb.astype(np.float32), 0.08 * max(h, w)
    for _ in range(3):
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.3, 0.7) * h
        out += 180 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))[..., None]
    return out


def _small(rgb: np.ndarray) -> np.ndarray:  # sent through a messenger: 800 px on its long side
    import cv2

    h, w = rgb.shape[:2]
    k = 800 / max(h, w)
    return cv2.resize(rgb, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)


KINDS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], int]] = {
    "none": (lambda rgb: rgb, 90),
    "blur_0.05": (_gauss(0.0005), 90), "blur_0.1": (_gauss(0.001), 90), "blur_0.25": (_gauss(0.0025), 90),
    "motion_0.3": (_shaken(0.003), 90), "motion_0.6": (_shaken(0.006), 90),
    "motion_0.6_30": (_shaken(0.006, 30.0), 90),  # a streak between the directions a shake is measured along
    "dark": (_dark, 90), "glare": (_glare, 90),
    "warm": (lambda rgb: rgb * np.array([1.15, 0.95, 0.65]), 90),  # tungsten
    "cool": (lambda rgb: rgb * np.array([0.8, 0.95, 1.2]), 90),  # shade, or a cold lamp
    "small_800": (_small, 85), "jpeg_30": (lambda rgb: rgb, 30),
}


def degraded(scenes: list[tuple[bytes, list]], kind: str) -> list[tuple[bytes, list]]:
    """``scenes`` (JPEG, true tiles) as ``kind`` makes them, their boxes scaled with the photo."""
    change, quality = KINDS[kind]
    out = []
    for jpg, truth in scenes:
        rgb = np.asarray(Image.open(io.BytesIO(jpg)).convert("RGB"))
        made = np.clip(change(rgb), 0, 255).astype(np.uint8)
        buf = io.BytesIO()
        Image.fromarray(made).save(buf, "JPEG", quality=quality)
        k = made.shape[1] / rgb.shape[1]
        out.append((buf.getvalue(), [(label, tuple(v * k for v in box)) for label, box in truth]))
    return out


def _setting(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    return name, json.loads(value)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--kinds", nargs="+", choices=sorted(KINDS), default=list(KINDS))
    ap.add_argument("--without", nargs="*", type=_setting, default=[], metavar="NAME=JSON",
                    help="DetectorConfig settings of a second detector read beside the shipped one, e.g. "
                         "sharpen_below=0")
    ap.add_argument("--classifier", type=Path, help="another classifier (ONNX) read beside the shipped one")
    ap.add_argument("--soft", type=Path, help="another classifier of photos out of focus (ONNX, "
                                              "``TileDetector(soft=...)``): the shipped detector with it in place of "
                                              "models/soft_classifier.onnx, read beside the shipped one")
    ap.add_argument("--shaken", type=Path, help="another classifier of shaken photos (ONNX), as --soft")
    ap.add_argument("--baseline", action="store_true", help="the baseline too (mahjong-detector)")
    ap.add_argument("--art", type=Path, default=paths.art() / "faces")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    scenes = held_out_hands(args.hands, args.art, paths.bench_file().parent)
    models: list[tuple[str, object]] = [("mjscore", Mjscore(readers=tuple(READER_WEIGHTS)))]
    if args.without:
        other = Mjscore(readers=tuple(READER_WEIGHTS))
        other.det.config = replace(other.det.config, **dict(args.without))
        models.append(("without " + " ".join(f"{k}={v}" for k, v in args.without), other))
    if args.classifier:
        models.append((f"classifier {args.classifier}", Mjscore(readers=tuple(READER_WEIGHTS),
                                                                classifier=args.classifier)))
    if args.soft:
        models.append((f"soft {args.soft}", Mjscore(readers=tuple(READER_WEIGHTS), soft=args.soft)))
    if args.shaken:
        models.append((f"shaken {args.shaken}", Mjscore(readers=tuple(READER_WEIGHTS), shaken=args.shaken)))
    if args.baseline:
        models.append(("mahjong-detector", Baseline()))
    report: dict[str, dict[str, dict]] = {}
    for kind in args.kinds:
        photos = degraded(scenes, kind)
        for name, model in models:
            r = eval_hands(model, photos)
            report.setdefault(kind, {})[name] = r
            print(f"{kind:>10}  {name:<40} read right {r['all']['read_right']:.4f} "
                  f"(baseline's names {r['baseline_classes']['read_right']:.4f})", flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
