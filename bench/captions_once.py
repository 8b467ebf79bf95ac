"""What reading a photo's caption runs once saves (``CaptionReader.remembering``): each photo detected with it and
without it, the two taking turns in one process, its detections checked to be the same.

    python -m bench.captions_once --photos DIR [DIR ...] [--rounds 3]

A photo is named more than once (as it lies, then as seen from above, its sideways tiles' halves joined), and its
tiles' captions are read each time; within one ``detect`` a run of lines read before takes its first reading. The
photos are every image under the folders (``bench.eval_cases make`` writes such folders). Printed: the photos whose
detections differ (none expected), the time of all of them together with and without (medians of ``--rounds``) and
its ratio, the median photo's ratio, and p50 / p90 / max of each.
"""

from __future__ import annotations

import argparse
import statistics
import time
from contextlib import nullcontext
from pathlib import Path

from bench.photo import pct
from bench.scale import SUFFIXES


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.captions_once", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=Path, nargs="+", required=True, help="folders of photos (searched below)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    photos = sorted(p for d in args.photos for p in d.rglob("*") if p.suffix.lower() in SUFFIXES)
    if not photos:
        ap.error(f"no photos ({', '.join(SUFFIXES)}) under {', '.join(map(str, args.photos))}")
    from vision.detector import TileDetector

    det = TileDetector()
    reader = det._captions  # noqa: SLF001 - the bench turns its memory off and on
    if reader is None:
        ap.error("the detector has no caption reader")
    once = type(reader).remembering
    times: dict[str, dict[Path, list[float]]] = {"once": {p: [] for p in photos}, "every time": {p: [] for p in photos}}
    differ = set()
    det.detect(photos[0])  # warm
    try:
        for _ in range(args.rounds):
            for p in photos:
                read = {}
                for how, remembering in (("once", once), ("every time", lambda _self: nullcontext())):
                    type(reader).remembering = remembering
                    t = time.perf_counter()
                    read[how] = det.detect(p)
                    times[how][p].append(time.perf_counter() - t)
                if read["once"] != read["every time"]:
                    differ.add(p)
    finally:
        type(reader).remembering = once
    ms = {how: [statistics.median(v[p]) * 1000 for p in photos] for how, v in times.items()}
    print(f"{len(photos)} photos, {args.rounds} rounds; detections differing: {len(differ)}"
          + "".join(f"\n  {p}" for p in sorted(differ)))
    total = {how: sum(v) for how, v in ms.items()}
    print(f"all together: once {total['once']:.0f} ms, every time {total['every time']:.0f} ms, ratio "
          f"{total['once'] / total['every time']:.3f}; the median photo's ratio "
          f"{statistics.median(a / b for a, b in zip(ms['once'], ms['every time'], strict=True)):.3f}")
    for how, v in ms.items():
        print(f"  {how}: p50 {pct(v, 0.5):.0f} ms, p90 {pct(v, 0.9):.0f} ms, max {max(v):.0f} ms")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
