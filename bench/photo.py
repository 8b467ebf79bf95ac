"""Photo to scored result: median and 95th percentile over 20 phone-size photos (target: median at most 200 ms).

    python -m bench.photo [--photos DIR] [--n 20] [--rules mcr]

Without ``--photos`` it generates ``n`` phone-size (12 MP) synthetic JPEGs once (the generator of the dev install),
under ``cache/bench_photo/`` (the cache: ``MJ_CACHE`` or ``./cache``; seed 515), and times
``api.pipeline.score_photo(path, detector, request)`` on each, the shipped detector loaded once and warmed up first (as
the CLI's and the service's long-lived process do). Each photo is read from disk, decoded (large JPEGs in draft
mode), detected, laid out and scored, every winning-tile candidate scored when none is set apart. The same photos
are also timed, in turn, through the detector without its readers, and the ratio of the two medians printed (what
the readers cost, in the same process).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path


def make_photos(out: Path, n: int, seed: int = 515, art: Path | None = None) -> list[Path]:
    """``n`` phone-size photos of the generator's hands under ``out``, made once (``art``: default the fetched
    faces)."""
    from training import synth
    from training.paths import art as fetched_art

    art = fetched_art() / "faces" if art is None else art
    out.mkdir(parents=True, exist_ok=True)
    have = sorted(out.glob("*.jpg"))
    if len(have) >= n:
        return have[:n]
    styles = synth.load_styles(art, exclude=list(synth.HELD_OUT_STYLES))
    made = []
    for i in range(n):
        p = out / f"{i:03d}.jpg"
        if not p.exists():
            jpg, _, _ = synth.make_scene(synth.SceneSpec(i, seed, "val", 12.0, 12.0), styles)
            p.write_bytes(jpg)
        made.append(p)
    return made


def pct(values: list[float], q: float) -> float:
    v = sorted(values)
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=Path, default=None, help="a folder of photos (default: generated)")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--rules", default="mcr")
    ap.add_argument("--finder", type=Path, default=None, help="the finder, an ONNX export (default: the shipped one)")
    ap.add_argument("--classifier", type=Path, default=None, help="classifier ONNX (default: the shipped one)")
    ap.add_argument("--repeat", type=int, default=1, help="time each photo this many times")
    args = ap.parse_args(argv)

    from PIL import Image

    from api.pipeline import score_photo
    from vision.detector import TileDetector
    from vision.errors import ModelNotFoundError
    from vision.shipped import CLASSIFIER_WEIGHTS, FINDER_WEIGHTS

    if args.photos:
        paths = sorted(p for p in args.photos.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png", ".heic",
                                                                                 ".webp"))[: args.n]
    else:
        from training.paths import cache

        paths = make_photos(cache() / "bench_photo", args.n)
    try:
        detector = TileDetector(args.finder or FINDER_WEIGHTS, args.classifier or CLASSIFIER_WEIGHTS)
        no_reader = TileDetector(args.finder or FINDER_WEIGHTS, args.classifier or CLASSIFIER_WEIGHTS,
                                 readers=())
    except ModelNotFoundError as exc:
        print(f"bench.photo: {exc}; no shipped weights to time")
        return 1
    request = {"rules": args.rules, "self_draw": True}
    for d in (detector, no_reader):
        score_photo(paths[0], d, request)  # warm-up: first inference allocates
    times, reference = [], []
    read = 0
    for p in paths:
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            answer = score_photo(p, detector, request)
            times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            score_photo(p, no_reader, request)
            reference.append(time.perf_counter() - t0)
        read += answer["result"]["ok"]
    sizes = [Image.open(p).size for p in paths]
    mp = statistics.median(w * h / 1e6 for w, h in sizes)
    ms = [t * 1000 for t in times]
    print(f"{len(paths)} photos (median {mp:.1f} MP), photo -> scored result, {args.repeat} run(s) each:")
    print(f"  median {statistics.median(ms):.0f} ms, p95 {pct(ms, 0.95):.0f} ms, min {min(ms):.0f} ms, "
          f"max {max(ms):.0f} ms (target: median <= 200 ms)")
    print(f"  scored without error: {read}/{len(paths)}")
    print(f"  without the readers, in turn: median {statistics.median(reference) * 1000:.0f} ms; with them / "
          f"without: {statistics.median(times) / statistics.median(reference):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
