"""How often the whole hand is read exactly from held-out synthetic photos.

    python -m bench.eval_layout [--data DIR] [--split val] [--n 500] [--detector]

``--data`` defaults to ``$MJ_CACHE/datasets/layout_eval`` (``MJ_CACHE`` defaults to ``./cache``). The data is made by
the generator: ``python -m training synth --out DIR --train 0 --val 500 --seed 4242`` (a seed the detector was not
trained on). For each photo, the generator's sidecar (``layout/<split>/NNNNNN.json``) holds the true hand.
``--source true`` (default) reads the hand from the true boxes (the layout stage alone: every labelled tile,
distractors included, with its true label and sideways flag); ``--detector`` reads it from the shipped detector's
boxes on the photo. A hand is exact when its exposed melds, concealed kongs, concealed tiles, winning tile and
flowers all match (red fives count as fives: the detector names them ``5m``). A concealed kong of four backs
cannot be read from the photo; such hands are counted apart, and also scored with the kong's tile given, as a
user would give it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time
from collections import Counter
from pathlib import Path

import numpy as np

from scorer import is_complete_tiles
from vision.detection import Detection
from vision.layout import Layout, group_melds
from vision.relabel import read_hand


def default_data() -> Path:
    """``$MJ_CACHE/datasets/layout_eval``, the cache root defaulting to ``./cache``."""
    return Path(os.environ.get("MJ_CACHE", "cache")) / "datasets" / "layout_eval"


def normal(hand: str | None) -> tuple | None:
    """A hand string as comparable parts: (exposed melds, concealed kongs, concealed, win, flowers)."""
    if hand is None:
        return None
    hand = hand.replace("0", "5")
    exposed = sorted(_expand(m) for m in re.findall(r"\[([^\]]*)\]", hand))
    kongs = sorted(_expand(m) for m in re.findall(r"\(([^)]*)\)", hand))
    rest = re.sub(r"\[[^\]]*\]|\([^)]*\)", " ", hand)
    win = re.findall(r"\+(\d[mpsz])", rest)
    rest = re.sub(r"\+\d[mpsz]", " ", rest)
    tiles = _expand(rest.replace(" ", ""))
    concealed = tuple(sorted(x for x in tiles if not x.endswith("f")))
    flowers = tuple(sorted(x for x in tiles if x.endswith("f")))
    return (tuple(exposed), tuple(kongs), concealed, tuple(win), flowers)


def but_win(hand: str | None) -> tuple | None:
    """``normal`` with the winning tile among the concealed ones: a hand whose winning tile is not set apart reads
    exactly but for which tile won (no photo shows it) when these agree.

    >>> but_win("[123m] 456p78s99z +9s") == but_win("[123m] 456p789s9z +9z")
    True
    >>> but_win("[123m] 456p78s99z +9s") == but_win("[123m] 456p78s99z +9s 1f")
    False
    """
    parts = normal(hand)
    if parts is None:
        return None
    exposed, kongs, concealed, win, flowers = parts
    return exposed, kongs, tuple(sorted(concealed + win)), flowers


def _expand(text: str) -> tuple[str, ...]:
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch in "mpszf":
            out += [d + ch for d in digits]
            digits = ""
    return tuple(sorted(out))


def true_detections(sidecar: dict) -> list[Detection]:
    """The labelled tiles of a generated photo as detections (backs are never sideways, as the detector says), each
    standing or not as the generator stood it (``Detection.stands``: 1 or 0; not known in a sidecar without it)."""
    out = []
    for t in sidecar["tiles"]:
        if t["visible"] < 0.6:
            continue
        side = bool(t["sideways"]) and t["label"] != "back"
        stands = None if "stands" not in t else float(bool(t["stands"]))
        out.append(Detection(t["label"], 1.0, tuple(t["box"]), side, stands=stands))
    return out


def noisy(dets: list[Detection], rng: np.random.Generator, box: float, flip: float, dup: float) -> list[Detection]:
    """Detector-like noise on true boxes: each edge moved by N(0, ``box`` x the box side), the sideways flag of a
    face tile flipped with probability ``flip``, a duplicate box (lower confidence) with probability ``dup``."""
    out = []
    for d in dets:
        x0, y0, x1, y1 = d.box
        w, h = x1 - x0, y1 - y0
        e = rng.normal(0, box, 4) * [w, h, w, h]
        side = (not d.sideways) if (d.label != "back" and rng.random() < flip) else d.sideways
        out.append(Detection(d.label, 0.9, (x0 + e[0], y0 + e[1], x1 + e[2], y1 + e[3]), side))
        if rng.random() < dup:
            f = rng.normal(0, 0.05, 4) * [w, h, w, h]
            out.append(Detection(d.label, 0.4, (x0 + f[0], y0 + f[1], x1 + f[2], y1 + f[3]), side))
    return out


def hand_tiles_found(dets: list[Detection], sidecar: dict) -> tuple[bool, bool]:
    """(every hand tile matched by a box with IoU >= 0.5 and its right name, and also its right sideways flag)."""
    named = flags = True
    for t in sidecar["tiles"]:
        if t["group"] >= len(sidecar["groups"]) - 1 or t["visible"] < 0.6:
            continue  # a distractor, or mostly out of the frame
        best, hit = 0.0, None
        for d in dets:
            iou = box_iou(d.box, t["box"])
            if iou > best:
                best, hit = iou, d
        if hit is None or best < 0.5 or hit.label != t["label"]:
            return False, False
        flags &= hit.sideways == (bool(t["sideways"]) and t["label"] != "back")
    return named, flags


def box_iou(a: tuple | list, b: tuple | list) -> float:
    """IoU of two xyxy boxes."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def four_back_kongs(sidecar: dict) -> list[str]:
    return [g["tiles"][0] for g in sidecar["groups"] if g["kind"] == "concealed_kong" and all(g["backs"])]


def judge(layout: Layout, sidecar: dict) -> tuple[bool, bool, str | None]:
    """(exact as read, exact with the four-back kongs' tiles given, the reading)."""
    truth = normal(sidecar["hand"])
    read = layout.hand
    given = layout.hand_with(kong_tiles=four_back_kongs(sidecar)) if layout.unknown_kongs else read
    return normal(read) == truth, normal(given) == truth, given


def check_data(data: Path, split: str, n: int, seed: int) -> str | None:
    """Why ``data`` cannot be read (no sidecars, or fewer than ``n``) with the command that makes it, or None."""
    found = len(list((data / "layout" / split).glob("*.json")))
    if found >= n:
        return None
    return (f"{data / 'layout' / split} holds {found} of the {n} sidecars needed; make them with "
            f"python -m training synth --out {data} --train 0 --val {n} --seed {seed}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="the generated photos (default: $MJ_CACHE/datasets/"
                                                            "layout_eval, MJ_CACHE defaulting to ./cache)")
    ap.add_argument("--split", default="val")
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--detector", action="store_true", help="read from the shipped detector, not the true boxes")
    ap.add_argument("--finder", type=Path, default=None, help="the finder, an ONNX export (default: the shipped one)")
    ap.add_argument("--classifier", type=Path, default=None, help="classifier ONNX (default: the shipped one)")
    ap.add_argument("--noise", type=float, nargs=3, default=None, metavar=("BOX", "FLIP", "DUP"),
                    help="detector-like noise on the true boxes, e.g. 0.03 0.02 0.02 (seeded)")
    ap.add_argument("--show", type=int, default=10, help="print this many misreadings")
    ap.add_argument("--json", type=Path, default=None, help="write per-photo results here")
    args = ap.parse_args(argv)
    args.data = args.data or default_data()
    problem = check_data(args.data, args.split, args.n, args.seed)
    if problem:
        ap.error(problem)
    files = sorted((args.data / "layout" / args.split).glob("*.json"))[: args.n]
    detector = None
    if args.detector:
        from vision.detector import TileDetector
        from vision.shipped import CLASSIFIER_WEIGHTS, FINDER_WEIGHTS

        detector = TileDetector(args.finder or FINDER_WEIGHTS, args.classifier or CLASSIFIER_WEIGHTS)
    exact = given_ok = unreadable = first_ok = renamed = not_apart = not_apart_ok = 0
    all_named = named_ok = all_flags = flags_ok = 0
    kinds: Counter[str] = Counter()
    misses = []
    times = []
    rows = []
    for f in files:
        sidecar = json.loads(f.read_text())
        if detector is not None:
            img = args.data / "images" / args.split / (f.stem + ".jpg")
            dets = detector.detect(img)
        else:
            dets = true_detections(sidecar)
            if args.noise:
                dets = noisy(dets, np.random.default_rng([7, int(f.stem)]), *args.noise)
        t0 = time.perf_counter()
        layout, _ = read_hand(dets, complete=is_complete_tiles)
        times.append(time.perf_counter() - t0)
        ok, ok_given, reading = judge(layout, sidecar)
        exact += ok
        if layout.renamed or layout.left_out:  # the same photo read from the classifier's first names only
            renamed += 1
            first_ok += judge(group_melds(dets, complete=is_complete_tiles), sidecar)[1]
        else:
            first_ok += ok_given
        if detector is not None:
            named, flags = hand_tiles_found(dets, sidecar)
            all_named += named
            named_ok += named and ok_given
            all_flags += flags
            flags_ok += flags and ok_given
        given_ok += ok_given
        if not sidecar.get("win_apart", True):  # no photo shows which tile won
            not_apart += 1
            not_apart_ok += reading is not None and but_win(reading) == but_win(sidecar["hand"])
        unreadable += bool(four_back_kongs(sidecar))
        two_rows = len({r.role for r in layout.rows if r.role in ("melds", "concealed")}) == 2
        rows.append({"file": f.name, "truth": sidecar["hand"], "read": reading, "exact": ok_given,
                     "problem": layout.problem.message if layout.problem else None})
        if not ok_given:
            kinds["problem: " + layout.problem.code if layout.problem else "wrong reading"] += 1
            misses.append((f.name, sidecar["hand"], reading or layout.reading(),
                           layout.problem.message if layout.problem else "", sidecar["camera"], two_rows))
    n = len(files)
    src = "detector" if detector else "true boxes" + (f" with noise {args.noise}" if args.noise else "")
    print(f"{n} held-out synthetic photos ({args.data.name}/{args.split}), hands read from the {src}:")
    print(f"  whole hand exact, four-back kongs' tiles given: {given_ok}/{n} = {given_ok / n:.1%}")
    print(f"  whole hand exact as read from the photo alone:  {exact}/{n} = {exact / n:.1%} "
          f"({unreadable} hands hold a concealed kong of four backs, whose tile no photo shows)")
    if not_apart:
        print(f"  hands whose winning tile is not set apart: {not_apart}; of those exact but for which tile won "
              f"(four-back kongs' tiles given): {not_apart_ok}")
    if renamed:
        print(f"  from the first names alone (no second choices): {first_ok}/{n} = {first_ok / n:.1%}; "
              f"{renamed} photo(s) read with renamed tiles or boxes left out")
    if detector is not None:
        print(f"  photos whose every hand tile was found with its right name: {all_named}/{n}; of those read "
              f"exactly: {named_ok}/{all_named}")
        print(f"  ... and with every sideways flag right too: {all_flags}/{n}; of those read exactly: "
              f"{flags_ok}/{all_flags}")
    print(f"  layout time: median {statistics.median(times) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms")
    if kinds:
        print("  misreadings: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    for m in misses[: args.show]:
        print("   ", *m)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
