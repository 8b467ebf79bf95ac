"""Where a photo's time goes: each stage's own wall time a read (less the stages it calls), the photos read and laid
out as the service reads them (``api.pipeline.read_photo``), after one read to warm up.

    python -m bench.stages --photos DIR [DIR ...] [--rounds 1] [--slowest K]

The stages are the finders' looks (the look at ``fine_imgsz`` apart), the classifier's runs, the caption reader, the
other readers, the face network, cutting the crops, the looks as from above (their own work), decoding the photo and
the layout with its second choices; what none of them holds is "the rest". With ``--slowest K`` only the K photos
slowest in the warm-up round are measured (the photos over a time target are those); a photo that cannot be read is
left out, and named on stderr. Printed: each stage's milliseconds a read and share, largest first, and the reads'
total.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any

from bench.scale import SUFFIXES


def stages() -> list[tuple[object, str, str]]:
    """The stages timed: (owner, attribute, what it is)."""
    import api.pipeline
    import vision.detector
    from vision.captions import CaptionReader
    from vision.detector import TileDetector
    from vision.faces import FaceReader
    from vision.finding import Finding

    return [(Finding, "find", "finders' looks"), (Finding, "_fine", "finder's look at fine_imgsz"),
            (TileDetector, "_looked_at", "classifier"), (CaptionReader, "named", "caption reader"),
            (TileDetector, "_read", "other readers"), (FaceReader, "faces", "face network"),
            (FaceReader, "flat", "face network"), (TileDetector, "cut", "crops cut"),
            (TileDetector, "_seen_from_above", "looks from above (own work)"),
            (vision.detector, "load_image", "decoding"), (api.pipeline, "read_hand", "layout and second choices")]


@contextmanager
def timed(what: list[tuple[object, str, str]], own: dict[str, float]) -> Iterator[None]:
    """Within it, each attribute of ``what`` adds its own wall time (seconds, less that of the others it calls) to
    ``own`` under its name; put back after."""
    calls: list[list[float]] = []  # per call under way: its start, the time of the stages it called

    def wrapped(f: Callable[..., Any], name: str) -> Callable[..., Any]:
        @wraps(f)
        def g(*args: object, **kwargs: object) -> object:
            calls.append([time.perf_counter(), 0.0])
            try:
                return f(*args, **kwargs)
            finally:
                start, inner = calls.pop()
                spent = time.perf_counter() - start
                own[name] += spent - inner
                if calls:
                    calls[-1][1] += spent
        return g

    kept = [(owner, attr, owner.__dict__[attr]) for owner, attr, _ in what]
    try:
        for owner, attr, name in what:
            setattr(owner, attr, wrapped(getattr(owner, attr), name))
        yield
    finally:
        for owner, attr, f in kept:
            setattr(owner, attr, f)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.stages", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=Path, nargs="+", required=True, help="folders of photos (searched below)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--slowest", type=int, default=0, help="measure only the K photos slowest to warm up (0: all)")
    args = ap.parse_args(argv)
    photos = sorted(p for d in args.photos for p in d.rglob("*") if p.suffix.lower() in SUFFIXES)
    if not photos:
        ap.error(f"no photos ({', '.join(SUFFIXES)}) under {', '.join(map(str, args.photos))}")
    if args.rounds < 1 or args.slowest < 0:
        ap.error("--rounds must be 1 or more and --slowest 0 or more")
    from api.pipeline import default_detector, read_photo
    from vision.errors import VisionError

    det = default_detector()
    warm = {}
    for p in photos:
        t = time.perf_counter()
        try:
            read_photo(p, det)
        except VisionError as exc:  # a photo that cannot be read is left out, and said so
            print(f"left out {p}: {exc}", file=sys.stderr)
            continue
        warm[p] = time.perf_counter() - t
    if not warm:
        ap.error("none of the photos could be read")
    photos = [p for p in photos if p in warm]
    if args.slowest:
        photos = sorted(sorted(photos, key=lambda p: -warm[p])[:args.slowest])
    own: dict[str, float] = defaultdict(float)
    total = 0.0
    with timed(stages(), own):
        for _ in range(args.rounds):
            for p in photos:
                t = time.perf_counter()
                read_photo(p, det)
                total += time.perf_counter() - t
    reads = len(photos) * args.rounds
    own["the rest"] = total - sum(own.values())
    print(f"{len(photos)} photos, {args.rounds} round(s): {1000 * total / reads:.0f} ms a read")
    for name, spent in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {name:32s} {1000 * spent / reads:7.1f} ms  {spent / total:6.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
