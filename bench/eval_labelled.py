"""A labelled set of photos read as a user reads them: tiles read right (F1), whole hands exact, winning hands scored
with the right tiles, and the time a photo takes. The measure of issue #30's targets on real photos.

    python -m bench.eval_labelled DATA [--split val] [--rules mcr] [--json OUT] [--show 10] [--set FIELD=VALUE ...]

``DATA`` is a labelled set as ``mjscore train --data`` takes one (``training/labelled.py``): a dataset of the annotation
page (its name under ``MJ_DATA_DIR``), its export (``GET /v1/datasets/{d}/export``: a zip, or the folder it was
unpacked into), or an ultralytics dataset (a ``data.yaml`` with ``names``). The true hand of a photo is its
sidecar's ``hand`` (``meta/...json``, the page's), or the generator's (``layout/...json``: ``python -m training synth``
writes one beside each photo); a photo without one counts for its tiles alone. Each photo is read by the shipped
detector and scored as ``mjscore PHOTO`` scores it (``api.pipeline``): when no tile is set apart, the candidate that
scores best wins.

- **Tiles.** Each labelled box is matched to at most one box read (IoU 0.5 or more: ``training.measure.match``, as
  ``mjscore train`` measures): read right where their names match. Precision, recall and F1 of the tiles read
  right; the same for the tiles found whatever their names; and the share of those found that are named right.
  Which names were read for which, which labelled tiles were not found and what was read where no tile is,
  commonest first: the kinds of failure.
- **Hands.** A hand is exact when its exposed melds, concealed kongs, concealed tiles, winning tile and flowers all
  match the truth (red fives count as fives: the detector names them ``5m``); exact *but for which tile won* when only
  the winning tile differs (a photo that sets no tile apart cannot show it). A concealed kong of four backs is given
  its tile from the truth, as a user gives it (``concealed_kongs``).
- **Winning hands scored with the right tiles**: of the true hands that score under ``--rules``, those read exactly
  and scored.
- **Time**: reading and scoring each photo, the detector loaded and warmed up first.

``--set`` reads with a detector whose ``DetectorConfig`` fields are changed (``bench.eval_tile_sets.config_field``):
one change measured on the same photos as the shipped detector, the two records compared photo by photo.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from api.pipeline import Detector, default_detector, read_photo, score_reading
from bench.eval_layout import normal
from bench.eval_tile_sets import config_field
from scorer.errors import ScorerError
from scorer.request import score_parsed
from training.labelled import DatasetError, Labelled, Photo, beside, read_dataset
from training.measure import IOU, match
from vision.errors import ModelNotFoundError, VisionError


@dataclass(frozen=True)
class Tiles:
    """One photo's tiles: labelled, read, matched whatever their names (found), and of those named right."""

    labelled: int
    read: int
    found: int
    right: int
    misnamed: tuple[tuple[str, str], ...] = ()  # found, named otherwise: (labelled name, name read)
    missed: tuple[str, ...] = ()  # labelled, not found
    extra: tuple[str, ...] = ()  # read where no labelled tile is


@dataclass(frozen=True)
class Record:
    """One photo: its tiles, its true hand (None: not labelled), the hand read and scored, the verdicts, the time."""

    photo: str
    tiles: Tiles
    truth: str | None
    read: str | None
    why: str | None  # the error where the photo scored none
    exact: bool
    exact_but_win: bool
    scores: bool  # the true hand scores under the rules
    ms: float


@dataclass(frozen=True)
class Skipped:
    """A photo left out, and why."""

    photo: str
    reason: str


def tiles_of(detections: Sequence[dict[str, Any]], photo: Photo) -> Tiles:
    """The ``detections`` (the recognition object's) against the ``photo``'s labels: the counts, and the tiles found
    but named otherwise (labelled name, name read), the labelled tiles not found and the boxes read where none is."""
    hits = match([t.box for t in photo.tiles], [d["box"] for d in detections])
    found = [(t.name, detections[j]["tile"]) for t, j in zip(photo.tiles, hits, strict=True) if j is not None]
    paired = set(hits)
    return Tiles(len(photo.tiles), len(detections), len(found), sum(a == b for a, b in found),
                 tuple((a, b) for a, b in found if a != b),
                 tuple(t.name for t, j in zip(photo.tiles, hits, strict=True) if j is None),
                 tuple(d["tile"] for j, d in enumerate(detections) if j not in paired))


def kongs_of(hand: str) -> list[str]:
    """The tiles of a hand's concealed kongs, in sorted order.

    >>> kongs_of("[4444s] (5555m) (9999p) 11z +1z")
    ['5m', '9p']
    """
    return [k[0] for k in normal(re.sub(r"\[[^\]]*\]", "", hand))[1]]


def f1(right: int, read: int, labelled: int) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``right`` boxes among ``read`` and ``labelled`` (1.0 for nothing of nothing).

    >>> f1(41, 43, 42)[2] == 2 * 41 / (43 + 42), f1(0, 0, 0)
    (True, (1.0, 1.0, 1.0))
    """
    p = right / read if read else 1.0
    r = right / labelled if labelled else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def generated_hand(photo: Photo) -> str | None:
    """The hand the generator wrote beside a photo (``images/<split>/<stem>.jpg`` -> ``layout/<split>/<stem>.json``),
    or None."""
    side = beside(photo.image, "layout", ".json")
    try:
        hand = json.loads(side.read_text(encoding="utf-8")).get("hand") if side.is_file() else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
        return None
    return hand if isinstance(hand, str) else None


def name_of(photo: Photo) -> str:
    return f"{photo.split}/{photo.image.name}"


def measure(labelled: Labelled, detector: Detector, rules: str, split: str = "all") -> Iterator[Record | Skipped]:
    """Each photo of ``labelled`` (of ``split``, or all; one in both splits read once) read and scored under
    ``rules``, or why it was left out: it could not be read, or holds neither a labelled tile nor a hand."""
    yield from (Skipped(f"{image.parent.name}/{image.name}", why) for image, why in labelled.skipped
                if split in ("all", image.parent.name))
    seen: set[str] = set()
    for photo in labelled.photos:
        if split not in ("all", photo.split):
            continue
        digest = hashlib.sha256(photo.image.read_bytes()).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        if not photo.tiles and not photo.hand:
            yield Skipped(name_of(photo), "it holds no labelled tile and no hand (its labels still to do?)")
            continue
        try:
            yield record(photo, detector, rules)
        except VisionError as exc:
            yield Skipped(name_of(photo), str(exc))


def record(photo: Photo, detector: Detector, rules: str) -> Record:
    """One photo read, scored and judged."""
    truth = photo.hand or generated_hand(photo)
    start = time.perf_counter()
    reading = read_photo(photo.image, detector, {"rules": rules})
    known = Counter(m.tiles[0] for m in reading.layout.melds if m.kind == "concealed_kong" and m.known)
    missing = list((Counter(kongs_of(truth)) - known).elements()) if truth else []
    request = {"rules": rules, **({"concealed_kongs": missing} if reading.layout.unknown_kongs else {})}
    scored = score_reading(reading, request)
    ms = (time.perf_counter() - start) * 1000
    read = scored.recognition.get("hand") or reading.layout.hand_with(kong_tiles=missing)
    why = scored.result["error"]["message"] if "error" in scored.result else None
    a, b = normal(read), normal(truth)
    exact = a is not None and a == b
    but_win = a is not None and b is not None and a[:2] == b[:2] and a[4] == b[4] and \
        sorted(a[2] + a[3]) == sorted(b[2] + b[3])
    scores = False
    if truth:
        try:
            score_parsed({"rules": rules, "hand": truth})
            scores = True
        except ScorerError:
            pass
    return Record(name_of(photo), tiles_of(scored.recognition["detections"], photo), truth, read, why, exact,
                  but_win, scores, ms)


def summary(records: Sequence[Record], skipped: Sequence[Skipped], rules: str) -> dict[str, Any]:
    """The figures of a set's records."""
    total = Tiles(*(sum(getattr(r.tiles, f) for r in records) for f in ("labelled", "read", "found", "right")))
    misnamed = Counter(pair for r in records for pair in r.tiles.misnamed)
    missed, extra = (Counter(n for r in records for n in getattr(r.tiles, f)) for f in ("missed", "extra"))
    hands = [r for r in records if r.truth]
    winning = [r for r in hands if r.scores]
    times = sorted(r.ms for r in records)
    right = f1(total.right, total.read, total.labelled)
    found = f1(total.found, total.read, total.labelled)
    return {
        "photos": len(records), "skipped": [asdict(s) for s in skipped], "rules": rules,
        "tiles": {**{k: v for k, v in asdict(total).items() if isinstance(v, int)},
                  "precision": right[0], "recall": right[1], "f1": right[2],
                  "found": {"precision": found[0], "recall": found[1], "f1": found[2]},
                  "named_right_of_found": total.right / total.found if total.found else 1.0,
                  "misnamed": [[a, b, n] for (a, b), n in misnamed.most_common()],
                  "missed": [[a, n] for a, n in missed.most_common()],
                  "extra": [[a, n] for a, n in extra.most_common()]},
        "hands": {"labelled": len(hands), "exact": sum(r.exact for r in hands),
                  "exact_but_win": sum(r.exact_but_win for r in hands)},
        "winning_hands": {"score": len(winning), "scored_right": sum(r.exact and r.why is None for r in winning)},
        "ms": {"p50": statistics.median(times), "p90": float(np.quantile(times, 0.9)), "max": times[-1]}
        if times else {},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="a labelled set, as mjscore train --data takes one: a dataset of the annotation page, "
                                 "its export (zip or folder), or an ultralytics dataset")
    ap.add_argument("--split", default="all", help="read only the photos under this folder name (val, train; "
                                                   "default: all)")
    ap.add_argument("--rules", default="mcr", choices=("mcr", "riichi", "guangdong", "fuzhou"))
    ap.add_argument("--weights", default=None, help="a weights folder of mjscore train (default: MJ_WEIGHTS, else the "
                                                     "shipped models/)")
    ap.add_argument("--show", type=int, default=10, help="print this many hands misread")
    ap.add_argument("--json", type=Path, default=None, help="write the figures and every photo's record here")
    ap.add_argument("--set", nargs="*", default=[], metavar="FIELD=VALUE",
                    help="DetectorConfig fields to change, e.g. round_backs=false (read by a copy of the detector)")
    args = ap.parse_args(argv)
    try:
        detector = default_detector(args.weights)
        if args.set:
            detector = copy.copy(detector)  # the loaded detector is shared (lru_cache): its copy is changed
            detector.config = replace(detector.config, **dict(config_field(item) for item in args.set))
    except ModelNotFoundError as exc:
        ap.error(str(exc))
    except (TypeError, ValueError) as exc:
        ap.error(f"--set: {exc}")
    detector.detect(Image.new("RGB", (64, 64), (128, 128, 128)))  # a process's first read loads the networks
    records: list[Record] = []
    skipped: list[Skipped] = []
    with tempfile.TemporaryDirectory() as work:  # a zip unpacked, a dataset of the page exported
        try:
            labelled = read_dataset(args.data, Path(work), to_train=False)  # unreadable photos listed
        except DatasetError as exc:
            ap.error(str(exc))
        for got in measure(labelled, detector, args.rules, args.split):
            (skipped if isinstance(got, Skipped) else records).append(got)
    if not records:
        ap.error(f"{args.data}: no photo of split {args.split!r} could be read")
    out = summary(records, skipped, args.rules)
    t, h, w = out["tiles"], out["hands"], out["winning_hands"]
    print(f"{out['photos']} photos of {args.data} ({len(skipped)} skipped), read by the detector of "
          f"{args.weights or os.environ.get('MJ_WEIGHTS') or 'the shipped models/'}"
          + (f" with {' '.join(args.set)}" if args.set else ""))
    print(f"  tiles read right (IoU {IOU}, the same name): F1 {t['f1']:.4f} (precision {t['precision']:.4f}, recall "
          f"{t['recall']:.4f}; {t['right']} of {t['labelled']} labelled, {t['read']} read)")
    print(f"  tiles found, any name: F1 {t['found']['f1']:.4f}; named right of those found: "
          f"{t['named_right_of_found']:.4f}")
    for what, rows in (("named otherwise (labelled -> read)", [f"{a} -> {b} {n}" for a, b, n in t["misnamed"]]),
                       ("not found", [f"{a} {n}" for a, n in t["missed"]]),
                       ("read where no tile is", [f"{a} {n}" for a, n in t["extra"]])):
        if rows:
            print(f"    {what}: {', '.join(rows[:8])}" + (f" and {len(rows) - 8} more" if len(rows) > 8 else ""))
    if h["labelled"]:
        print(f"  whole hands exact: {h['exact']}/{h['labelled']} (but for which tile won: {h['exact_but_win']})")
        print(f"  winning hands scored with the right tiles ({args.rules}): {w['scored_right']}/{w['score']}")
    else:
        print("  no photo has its hand labelled: tiles only")
    if out["ms"]:
        print(f"  time a photo, read and scored: p50 {out['ms']['p50']:.0f} ms, p90 {out['ms']['p90']:.0f} ms, "
              f"max {out['ms']['max']:.0f} ms")
    wrong = [r for r in records if r.truth and not r.exact]
    for r in wrong[:args.show]:
        print(f"    {r.photo}: {r.truth} -> {r.read or '(none)'}" + (f"  ({r.why})" if r.why else ""))
    for s in skipped[:args.show]:
        print(f"    skipped {s.photo}: {s.reason}")
    if args.json:
        args.json.write_text(json.dumps({**out, "records": [asdict(r) for r in records]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
