"""What the caption reader's savings save: a photo's caption runs read once (``CaptionReader.remembering``), its
tiles' captions read once in its two namings (``Named.captions``), its runs read two at once, each on a thread of its
own (``vision.captions.RUNS``), its recogniser's steps folded into fewer (``training/folds.py``), and its
convolutions but the first int8 (``training/quantize.py``). Each photo is detected with the saving and without it,
the two taking turns in one process, its detections checked to be the same.

    python -m bench.captions_once --photos DIR [DIR ...] [--rounds 3] [--saving once|carried|runs|folds|int8]
                                  [--unfolded PATH] [--float PATH]

A photo is named more than once (as it lies, then as seen from above, its sideways tiles' halves joined), and its
tiles' captions are read each time; within one ``detect`` a run of lines read before takes its first reading
(``--saving once``, the default); the naming of its look as from above takes what the first naming read of its
tiles' captions, reading only the tiles that naming did not (``--saving carried``). The runs a naming reads are read
two at once, on the two cores (``--saving runs``; without it, one after another on the caller's thread). The shipped
recogniser is built folded (``--saving folds --unfolded PATH``: against its build unfolded, ``python -m training
caption WHEEL --unfolded --out PATH``), and int8 (``--saving int8 --float PATH``: against its build with every
convolution float, ``python -m training caption WHEEL --float --out PATH``). The photos are every image under the
folders (``bench.eval_cases make`` writes such folders). Printed: the photos whose detections differ (none expected;
int8 convolutions may read one otherwise, and the exit status is then 1), the time of all of them together with and
without (medians of ``--rounds``) and its ratio, the median photo's ratio, and p50 / p90 / max of each.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

from bench.photo import pct
from bench.scale import SUFFIXES


@contextmanager
def _every_time(reader: object) -> Iterator[None]:
    """Within it, ``reader`` remembers no run: each is read every time it is asked."""
    once = type(reader).remembering
    type(reader).remembering = lambda _self: nullcontext()
    try:
        yield
    finally:
        type(reader).remembering = once


@contextmanager
def _one_at_a_time(_reader: object) -> Iterator[None]:
    """Within it, the caption reader reads its runs one after another, on the caller's thread."""
    import vision.captions

    runs = vision.captions.RUNS
    vision.captions.RUNS = 1
    try:
        yield
    finally:
        vision.captions.RUNS = runs


def _swapped(path: Path) -> Callable[[object], AbstractContextManager]:
    """A block within which the caption reader reads with the recogniser at ``path`` (another build of it: ``python -m
    training caption WHEEL --unfolded --out PATH``, or ``--float``) in place of its own."""
    @contextmanager
    def block(reader: object) -> Iterator[None]:
        from vision.sessions import session, session_options

        own = reader._session  # noqa: SLF001 - the bench swaps the recogniser
        reader._session = session(path, session_options().captions)  # noqa: SLF001
        try:
            yield
        finally:
            reader._session = own  # noqa: SLF001
    return block


@contextmanager
def _read_again(_reader: object) -> Iterator[None]:
    """Within it, the naming of a photo's look as from above reads its tiles' captions again, as if the first naming
    had read none (``TileDetector._named``'s ``captions`` dropped)."""
    from vision.detector import TileDetector

    named = TileDetector._named  # noqa: SLF001 - the bench turns the saving off

    def again(self: TileDetector, *args: object, captions: object = None, **kwargs: object) -> object:
        return named(self, *args, **kwargs)

    TileDetector._named = again  # noqa: SLF001
    try:
        yield
    finally:
        TileDetector._named = named  # noqa: SLF001


# each saving: what it is called, what it is called without it, and the block within which it is not made
SAVINGS = {"once": ("once", "every time", _every_time), "runs": ("two at once", "one at a time", _one_at_a_time),
           "folds": ("folded", "unfolded", None), "carried": ("carried", "read again", _read_again),
           "int8": ("int8", "float", None)}
SWAPPED = {"folds": "unfolded", "int8": "float"}  # the savings measured against another build: its option


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.captions_once", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=Path, nargs="+", required=True, help="folders of photos (searched below)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--saving", choices=sorted(SAVINGS), default="once", help="the saving measured (default: once)")
    ap.add_argument("--unfolded", type=Path, help="with --saving folds: the caption reader built unfolded")
    ap.add_argument("--float", type=Path, help="with --saving int8: the caption reader built with every convolution "
                    "float")
    args = ap.parse_args(argv)
    for saving, option in SWAPPED.items():
        if (args.saving == saving) != (getattr(args, option) is not None):
            ap.error(f"--saving {saving} compares with --{option} PATH, and --{option} goes with it alone")
    photos = sorted(p for d in args.photos for p in d.rglob("*") if p.suffix.lower() in SUFFIXES)
    if not photos:
        ap.error(f"no photos ({', '.join(SUFFIXES)}) under {', '.join(map(str, args.photos))}")
    from vision.detector import TileDetector

    det = TileDetector()
    reader = det._captions  # noqa: SLF001 - the bench turns its savings off and on
    if reader is None:
        ap.error("the detector has no caption reader")
    saved, unsaved, without = SAVINGS[args.saving]
    without = without or _swapped(getattr(args, SWAPPED[args.saving]))
    times: dict[str, dict[Path, list[float]]] = {how: {p: [] for p in photos} for how in (saved, unsaved)}
    differ = set()
    det.detect(photos[0])  # warm
    for _ in range(args.rounds):
        for p in photos:
            read = {}
            for how in (saved, unsaved):
                with without(reader) if how == unsaved else nullcontext():
                    t = time.perf_counter()
                    read[how] = det.detect(p)
                    times[how][p].append(time.perf_counter() - t)
            if read[saved] != read[unsaved]:
                differ.add(p)
    ms = {how: [statistics.median(v[p]) * 1000 for p in photos] for how, v in times.items()}
    print(f"{len(photos)} photos, {args.rounds} rounds; detections differing: {len(differ)}"
          + "".join(f"\n  {p}" for p in sorted(differ)))
    total = {how: sum(v) for how, v in ms.items()}
    print(f"all together: {saved} {total[saved]:.0f} ms, {unsaved} {total[unsaved]:.0f} ms, ratio "
          f"{total[saved] / total[unsaved]:.3f}; the median photo's ratio "
          f"{statistics.median(a / b for a, b in zip(ms[saved], ms[unsaved], strict=True)):.3f}")
    for how, v in ms.items():
        print(f"  {how}: p50 {pct(v, 0.5):.0f} ms, p90 {pct(v, 0.9):.0f} ms, max {max(v):.0f} ms")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
