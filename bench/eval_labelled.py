"""A labelled set of photos read as a user reads them: tiles read right (F1), whole hands exact, winning hands scored
with the right tiles, and the time a photo takes. The measure of issue #30's targets on real photos.

    python -m bench.eval_labelled DATA [--split val] [--rules mcr] [--json OUT] [--show 10]

``DATA`` is a labelled set as the annotation page exports it (``GET /v1/datasets/{d}/export``: a zip, or the folder
it was unpacked into), or any YOLO dataset the page imports (ultralytics', CVAT's, Label Studio's:
``docs/annotate.md``).
The true hand of a photo is its sidecar's ``hand`` (``meta/...json``, the page's), or the generator's
(``layout/...json``: ``python -m training synth`` writes one beside each photo); a photo without one counts for its
tiles alone. Each photo, upright as the page stores it, is read by the shipped detector and scored as ``mjscore
PHOTO`` scores it (``api.pipeline``): when no tile is set apart, the candidate that scores best wins.

- **Tiles.** Each labelled box is matched to at most one box read (IoU 0.5 or more, the best pairs first): read
  right where their names match. Precision, recall and F1 of the tiles read right; the same for the tiles found
  whatever their names; and the share of those found that are named right. Which names were read for which, which
  labelled tiles were not found and what was read where no tile is, commonest first: the kinds of failure.
- **Hands.** A hand is exact when its exposed melds, concealed kongs, concealed tiles, winning tile and flowers all
  match the truth (red fives count as fives: the detector names them ``5m``); exact *but for which tile won* when only
  the winning tile differs (a photo that sets no tile apart cannot show it). A concealed kong of four backs is given
  its tile from the truth, as a user gives it (``concealed_kongs``).
- **Winning hands scored with the right tiles**: of the true hands that score under ``--rules``, those read exactly
  and scored.
- **Time**: reading and scoring each photo, the detector loaded and warmed up first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
from PIL import Image

from api.datasets.errors import BadArchiveError
from api.datasets.importer import Archive, Photo, Skipped, photos, read_archive
from api.datasets.labels import Labels
from api.deps import ApiError, check_photo
from api.pipeline import Detector, default_detector, read_photo, score_reading
from bench.eval_layout import normal
from scorer.errors import ScorerError
from scorer.request import score_parsed
from vision.errors import ModelNotFoundError

IOU = 0.5  # a box read matches a labelled one at this IoU or more
MAX_PHOTO_BYTES = 50_000_000


@dataclass(frozen=True)
class Tiles:
    """One photo's tiles: labelled, read, matched at IOU whatever their names (found) and with their names (right)."""

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


def matched(read: Sequence[tuple[str, Sequence[float]]], labelled: Sequence[tuple[str, Sequence[float]]],
            names: bool) -> list[tuple[int, int]]:
    """The ``labelled`` boxes (name, x0 y0 x1 y1) matched one to one by boxes ``read``, at IOU or more, the best
    pairs first, as (read, labelled) index pairs; with ``names``, only boxes of the same name match.

    >>> a = [("1m", (0, 0, 10, 10)), ("2m", (10, 0, 20, 10))]
    >>> matched(a, [("1m", (1, 0, 11, 10)), ("3m", (10, 0, 20, 10))], True), matched(a, a[:1] * 2, False)
    ([(0, 0)], [(0, 0)])
    """
    if not read or not labelled:
        return []
    r, t = np.array([b for _, b in read], float), np.array([b for _, b in labelled], float)
    lo, hi = np.maximum(r[:, None, :2], t[None, :, :2]), np.minimum(r[:, None, 2:], t[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=2)
    iou = inter / np.maximum(_areas(r)[:, None] + _areas(t)[None] - inter, 1e-9)
    if names:
        iou = np.where(np.array([n for n, _ in read])[:, None] == np.array([n for n, _ in labelled])[None], iou, 0.0)
    used_r, used_t, pairs = set(), set(), []
    for i, j in zip(*np.unravel_index(np.argsort(-iou, axis=None), iou.shape), strict=True):
        if iou[i, j] < IOU:
            break
        if i not in used_r and j not in used_t:
            used_r.add(i), used_t.add(j)
            pairs.append((int(i), int(j)))
    return pairs


def _areas(boxes: np.ndarray) -> np.ndarray:
    return np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1)


def tiles_of(detections: Sequence[dict[str, Any]], labels: Labels) -> Tiles:
    """The ``detections`` (the recognition object's) against the ``labels``: the counts, and the tiles found but
    named otherwise (labelled name, name read), the labelled tiles not found and the boxes read where none is."""
    read = [(d["tile"], d["box"]) for d in detections]
    truth = [(b.tile, b.box) for b in labels.boxes]
    found = matched(read, truth, False)
    paired_r, paired_t = {i for i, _ in found}, {j for _, j in found}
    return Tiles(len(truth), len(read), len(found), len(matched(read, truth, True)),
                 tuple((truth[j][0], read[i][0]) for i, j in found if read[i][0] != truth[j][0]),
                 tuple(n for j, (n, _) in enumerate(truth) if j not in paired_t),
                 tuple(n for i, (n, _) in enumerate(read) if i not in paired_r))


def kongs_of(hand: str) -> list[str]:
    """The tiles of a hand's concealed kongs, in notation order (``(5555m)`` -> ``5m``)."""
    return [k[0] for k in normal(re.sub(r"\[[^\]]*\]", "", hand))[1]]


def f1(right: int, read: int, labelled: int) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``right`` boxes among ``read`` and ``labelled`` (1.0 for nothing of nothing)."""
    p = right / read if read else 1.0
    r = right / labelled if labelled else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _check(data: bytes) -> str:
    try:
        return check_photo(data, MAX_PHOTO_BYTES)[0]
    except ApiError as exc:
        raise ValueError(exc.message) from None


def open_set(data: Path) -> Archive:
    """The labelled set at ``data`` (a zip, or a folder), read and checked (``BadArchiveError`` says what is wrong);
    a zip stays open while its photos are read."""
    if data.is_dir():
        return read_archive(data)
    try:
        fh = data.open("rb")
    except OSError as exc:
        raise BadArchiveError(f"cannot read {data}: {exc.strerror}") from None
    try:
        return read_archive(fh)
    except BadArchiveError:
        fh.close()
        raise


def generated_hand(archive: Archive, member: str) -> str | None:
    """The hand the generator wrote beside a photo (``images/<split>/<stem>.jpg`` -> ``layout/<split>/<stem>.json``),
    or None."""
    parts = list(PurePosixPath(member).parts)
    if "images" not in parts:
        return None
    k = len(parts) - 1 - parts[::-1].index("images")
    side = str(PurePosixPath(*parts[:k], "layout", *parts[k + 1:]).with_suffix(".json"))
    if side not in archive.zip.members:
        return None
    hand = json.loads(archive.zip.text(side)).get("hand")
    return hand if isinstance(hand, str) else None


def in_split(member: str, split: str) -> bool:
    """Whether the photo ``member`` is of ``split``: a folder of that name holds it (``all``: every photo)."""
    return split == "all" or split in PurePosixPath(member).parts[:-1]


def measure(archive: Archive, detector: Detector, rules: str, split: str = "all") -> Iterator[Record | Skipped]:
    """Each photo of ``archive`` (of ``split``) read and scored under ``rules``, or why it was skipped (one not
    labelled: its labels still to do)."""
    archive = replace(archive, items=tuple(i for i in archive.items if in_split(i.image, split)))
    for got in photos(archive, _check, MAX_PHOTO_BYTES):
        if isinstance(got, Photo) and got.labels.status == "todo":
            got = Skipped(got.file, "its labels are still to do (no label file, or not yet labelled on the page)")
        yield got if isinstance(got, Skipped) else record(got, archive, detector, rules)


def record(photo: Photo, archive: Archive, detector: Detector, rules: str) -> Record:
    """One photo read, scored and judged."""
    truth = photo.labels.hand or generated_hand(archive, photo.file)
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
    return Record(photo.file, tiles_of(scored.recognition["detections"], photo.labels), truth, read, why, exact,
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
    ap.add_argument("data", type=Path, help="a labelled set: the annotation page's export (zip or folder), or a YOLO "
                                            "dataset with hands beside its photos")
    ap.add_argument("--split", default="all", help="read only the photos under this folder name (val, train; "
                                                   "default: all)")
    ap.add_argument("--rules", default="mcr", choices=("mcr", "riichi", "guangdong", "fuzhou"))
    ap.add_argument("--weights", default=None, help="a weights folder of mjscore train (default: MJ_WEIGHTS, else the "
                                                     "shipped models/)")
    ap.add_argument("--show", type=int, default=10, help="print this many hands misread")
    ap.add_argument("--json", type=Path, default=None, help="write the figures and every photo's record here")
    args = ap.parse_args(argv)
    try:
        archive = open_set(args.data)
    except BadArchiveError as exc:
        ap.error(f"{args.data}: {exc}")
    try:
        detector = default_detector(args.weights)
    except ModelNotFoundError as exc:
        ap.error(str(exc))
    detector.detect(Image.new("RGB", (64, 64), (128, 128, 128)))  # a process's first read loads the networks
    records: list[Record] = []
    skipped: list[Skipped] = []
    for got in measure(archive, detector, args.rules, args.split):
        (skipped if isinstance(got, Skipped) else records).append(got)
    if not records:
        ap.error(f"{args.data}: no photo of split {args.split!r} could be read")
    out = summary(records, skipped, args.rules)
    t, h, w = out["tiles"], out["hands"], out["winning_hands"]
    print(f"{out['photos']} photos of {args.data} ({len(skipped)} skipped), read by the detector of "
          f"{args.weights or os.environ.get('MJ_WEIGHTS') or 'the shipped models/'}")
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
        print(f"    skipped {s.file}: {s.reason}")
    if args.json:
        args.json.write_text(json.dumps({**out, "records": [asdict(r) for r in records]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
