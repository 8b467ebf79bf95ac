"""How the detector reads the tile sets of issue #30: blank white dragons beside backs, and flowers drawn as pictures
with their character and a seat numeral.

    python -m bench.eval_tile_sets [--art DIR] [--scenes 40] [--out FILE] [--classifier ONNX] [--readers ONNX ...]

The photos are drawn now, from fixed seeds, in the held-out variant of the Taiwanese and Hong Kong styles (``hkx_NN``:
``python -m training drawn-art --hk --held-out --styles 4 --seed 9001``; font families no ``hk_NN`` training style
draws with), and read by the shipped detector (or the networks named). Kinds:

- ``white_dragons``: hands holding a pung of blank white dragons (a plain face, no frame) beside a concealed kong
  whose backs are coloured (the set's own back or a plain colour), the kong shown with two backs or four.
- ``white_backs``: the same hands in sets whose backs are as white as their faces; only the neighbours tell a back
  there (reported, not a target: a back is coloured).
- ``picture_flowers``: hands that set aside one to eight flowers and seasons (plant pictures, 梅蘭菊竹 / 春夏秋冬, a
  seat numeral 1-4 in a corner).
- ``real``: the held-out camerash photos of flowers (pictures, characters and seat numerals, as real sets print them)
  and of white dragons: the photo as it is and pasted at hand scale (``bench/eval_vision.py``'s ``in_scene``).

Each synthetic figure is given twice: named on the true boxes (naming alone) and through the whole detector (a true
tile counts when a box overlaps it at IoU 0.5 or more); ``hands_exact`` is the share of whole hands read exactly
(``vision.relabel.read_hand``, as ``bench/eval_layout.py`` judges them).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from bench.eval_layout import judge
from bench.eval_vision import eval_real, in_scene, iou, write_report
from scorer import is_complete_tiles
from training import paths
from training.drawn_art import BACKS, HK_HELD_OUT
from training.hands import Group, notation, random_hand
from training.real import real_photo_files
from training.scene import layout_scene, render_scene
from training.styles import Style, load_styles
from vision.detection import Detection
from vision.names import FACE_NAMES, FLOWER_NAMES, NAMES
from vision.relabel import read_hand

KINDS = ("white_dragons", "white_backs", "picture_flowers")
SEED = 3030
WHITE_BACKS = ((235, 235, 230), (240, 232, 205), (246, 244, 238))  # white and ivory backs
BLANK_SPREAD = 6.0  # a face whose pixels spread less than this (grey levels, std) is blank


def blank_white(style: Style) -> bool:
    """Whether the style's white dragon is a blank face (no frame, no glyph): plain but for a thin border at its edge,
    which a set may draw round every face (``drawn_art.draw_face``: at 3% of the width, a white dragon's frame at 6%
    or more)."""
    face = style.faces["5z"]
    h, w = face.shape[:2]
    m = round(0.06 * w)
    return float(face[m:h - m, m:w - m].astype(np.float32).std(axis=(0, 1)).max()) < BLANK_SPREAD


def _hand(rng: np.random.Generator, kind: str) -> list[Group]:
    """A winning hand for ``kind``: for the white dragons a pung of them (exposed or concealed) and a concealed kong of
    another tile, its ends or all four face down; for the flowers a random hand setting aside 1 to 8 of them."""
    if kind == "picture_flowers":
        return random_hand(rng, True, (1.0, 8))[0]
    others = [t for t in FACE_NAMES if t != "5z"]
    kong = str(rng.choice(others))
    chows = []
    while len(chows) < 2:
        s, n = "mps"[int(rng.integers(3))], int(rng.integers(1, 8))
        tiles = [f"{n + k}{s}" for k in range(3)]
        if kong not in tiles:
            chows.append(tiles)
    pair = str(rng.choice([t for t in others if t != kong and all(t not in c for c in chows)]))
    concealed = [pair, pair, *chows[1]]
    groups = []
    exposed = rng.random() < 0.5
    if exposed:
        groups.append(Group("pung", ["5z"] * 3, [False] * 3, int(rng.integers(3))))
    else:
        concealed += ["5z"] * 3
    groups.append(Group("chow", chows[0], [False] * 3, int(rng.integers(3))))
    backs = [True] * 4 if rng.random() < 0.4 else [True, False, False, True]
    groups.append(Group("concealed_kong", [kong] * 4, backs))
    win = concealed.pop(int(rng.integers(len(concealed))))
    concealed.sort(key=lambda t: ("mpsz".index(t[1]), t[0]))
    groups.insert(0, Group("concealed", concealed, [False] * len(concealed)))
    groups.append(Group("win", [win], [False]))
    for g in groups:
        g.red = [False] * len(g.tiles)
    return groups


def scene(kind: str, index: int, styles: list[Style]) -> tuple[bytes, dict]:
    """One photo of ``kind`` (seeded by ``SEED``, ``kind`` and ``index``): its JPEG and its sidecar, as the generator
    writes them (``hand``, ``groups``, ``tiles``)."""
    rng = np.random.default_rng([SEED, KINDS.index(kind), index])
    style = styles[index % len(styles)]
    groups = _hand(rng, kind)
    placed = layout_scene(rng, style, groups)
    if kind == "white_backs":
        back, art = WHITE_BACKS[index % len(WHITE_BACKS)], None
    else:  # coloured: the set's own back, or a plain colour
        back = BACKS[int(rng.integers(len(BACKS)))]
        art = style.back if style.back is not None and rng.random() < 0.5 else None
    for p in placed:
        p.back_rgb = back
        if p.face_down:
            p.face = art if art is not None else np.full((200, 150, 3), back, np.uint8)
    mp = rng.uniform(1.5, 3.0) * 1e6
    aspect = float(rng.choice([4 / 3, 3 / 4, 1.0]))
    w = int(math.sqrt(mp * aspect))
    img, tiles, cam = render_scene(rng, style, groups, w, int(mp / w), distractors=False, placed=placed)
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY,
                                                                         int(rng.integers(70, 95))])
    if not ok:
        msg = "JPEG encoding failed"
        raise RuntimeError(msg)
    group_list = [{"id": i, "kind": g.kind, "tiles": g.tiles, "backs": g.backs} for i, g in enumerate(groups)]
    group_list.append({"id": len(groups), "kind": "distractor"})
    sidecar = {"style": style.name, "hand": notation(groups), "groups": group_list, "tiles": tiles,
               "camera": {"tilt": round(cam.tilt, 2), "rotation": round(cam.rotation, 2)}}
    return buf.tobytes(), sidecar


def _matched(truth: list[dict], dets: list[Detection]) -> list[str | None]:
    """The name read for each true tile: of the box overlapping it most at IoU 0.5 or more (each box once), or None."""
    boxes = np.array([d.box for d in dets], np.float64).reshape(-1, 4)
    used: set[int] = set()
    out: list[str | None] = []
    for t in truth:
        read = None
        if len(boxes):
            ious = iou(np.array(t["box"], np.float64), boxes)
            for j in np.argsort(-ious):
                if ious[j] < 0.5:
                    break
                if int(j) not in used:
                    used.add(int(j))
                    read = dets[j].label
                    break
        out.append(read)
    return out


def _score(kind: str, sidecar: dict, read: list[str | None], tally: Counter) -> None:
    """Add one photo's readings (``read``: per true tile of the sidecar, visible ones) to ``tally``."""
    tiles = [t for t in sidecar["tiles"] if t["visible"] >= 0.6]
    groups = sidecar["groups"]
    for t, r in zip(tiles, read, strict=True):
        label = t["label"]
        if label in ("5z", "back"):
            tally[f"{label}_tiles"] += 1
            tally[f"{label}_right"] += r == label
            tally[f"{label}_read_{'back' if label == '5z' else '5z'}"] += r == ("back" if label == "5z" else "5z")
        if label in FLOWER_NAMES:
            tally["flowers"] += 1
            tally["flowers_right"] += r == label
            tally["flowers_as_suit_or_honour"] += r is not None and r in FACE_NAMES
            tally["flowers_as_1m"] += r == "1m"
            tally["flowers_as_other_flower"] += r is not None and r in FLOWER_NAMES and r != label
            tally["flowers_as_its_seat_twin"] += r is not None and r in FLOWER_NAMES and r != label and (
                int(r[0]) - 1) % 4 == (int(label[0]) - 1) % 4
    for gid, g in enumerate(groups):
        if g["kind"] not in ("pung", "concealed_kong", "concealed"):
            continue
        members = [(t, r) for t, r in zip(tiles, read, strict=True) if t["group"] == gid]
        if g["kind"] == "concealed_kong":
            tally["kongs"] += 1
            tally["kongs_right"] += all(r == t["label"] for t, r in members)
        whites = [(t, r) for t, r in members if t["label"] == "5z"]
        if len(whites) >= 3:
            tally["white_pungs"] += 1
            tally["white_pungs_right"] += all(r == "5z" for _, r in whites)


def _figures(tally: Counter) -> dict:
    out: dict = {}
    for key, whole in (("5z_right", "5z_tiles"), ("back_right", "back_tiles"), ("5z_read_back", "5z_tiles"),
                       ("back_read_5z", "back_tiles"), ("white_pungs_right", "white_pungs"),
                       ("kongs_right", "kongs"), ("flowers_right", "flowers"),
                       ("flowers_as_suit_or_honour", "flowers"), ("flowers_as_1m", "flowers"),
                       ("flowers_as_other_flower", "flowers"), ("flowers_as_its_seat_twin", "flowers"),
                       ("hands_exact", "hands")):
        if tally[whole]:
            out[key] = round(tally[key] / tally[whole], 4)
            out[whole] = tally[whole]
    return out


def evaluate_kind(det, kind: str, styles: list[Style], n: int) -> dict:  # noqa: ANN001 - a TileDetector
    """``kind``'s figures over ``n`` photos: on the true boxes, and through the detector."""
    from vision.image import load_image

    true_boxes, pipeline = Counter(), Counter()
    for i in range(n):
        jpg, sidecar = scene(kind, i, styles)
        tiles = [t for t in sidecar["tiles"] if t["visible"] >= 0.6]
        rgb, scale = load_image(jpg, det.config.work_side)
        probs, _ = det.classify(rgb, np.array([t["box"] for t in tiles], np.float64) * scale)
        _score(kind, sidecar, [NAMES[int(p.argmax())] for p in probs], true_boxes)
        dets = det.detect(jpg)
        _score(kind, sidecar, _matched(tiles, dets), pipeline)
        layout, _ = read_hand(dets, complete=is_complete_tiles)
        pipeline["hands"] += 1
        pipeline["hands_exact"] += judge(layout, sidecar)[1]
    return {"photos": n, "true_boxes": _figures(true_boxes), "detector": _figures(pipeline)}


def evaluate_real(model, real: Path) -> dict:  # noqa: ANN001 - as bench.eval_vision's models: JPEG -> detections
    """camerash's held-out flowers and white dragons: top-1, the photo as it is and pasted at hand scale."""
    out = {}
    for name, classes in (("flowers", frozenset(FLOWER_NAMES)), ("white_dragons", frozenset({"5z"}))):
        photos = [(p.read_bytes(), label) for label, p in real_photo_files(real, holdout=True) if label in classes]
        rng = np.random.default_rng(0)
        scene_photos = [(in_scene(j, rng), lbl) for j, lbl in photos]
        out[name] = {"whole_photo": eval_real(model, photos, frozenset(NAMES[:42])),
                     "in_scene": eval_real(model, scene_photos, frozenset(NAMES[:42]))}
    return out


def held_out_styles(art: Path) -> tuple[list[Style], list[Style]]:
    """The held-out variant's styles under ``art``: all of them (the flowers' photos), and those whose white dragon
    is blank (the white dragons' photos)."""
    styles = load_styles(art, include=[f"{HK_HELD_OUT}_*"])
    blank = [s for s in styles if blank_white(s)]
    if not blank:
        msg = f"no held-out style under {art} draws a blank white dragon: draw more (drawn-art --hk --held-out)"
        raise FileNotFoundError(msg)
    return styles, blank


def config_field(item: str) -> tuple[str, object]:
    """``FIELD=VALUE`` -> (field, value): true/false, an int, a float, or the text.

    >>> config_field("backs_by_colour=false"), config_field("turns=1"), config_field("alike=0.9")
    (('backs_by_colour', False), ('turns', 1), ('alike', 0.9))
    """
    name, _, text = item.partition("=")
    if not name or not text:
        msg = f"{item!r} is no FIELD=VALUE"
        raise ValueError(msg)
    lowered = text.lower()
    if lowered in ("true", "false"):
        return name, lowered == "true"
    for kind in (int, float):
        try:
            return name, kind(text)
        except ValueError:
            pass
    return name, text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--art", type=Path, default=paths.art() / "faces", help="faces holding the hkx_NN styles")
    ap.add_argument("--real", type=Path, default=paths.real())
    ap.add_argument("--scenes", type=int, default=40, help="photos of each kind")
    ap.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS)
    ap.add_argument("--classifier", type=Path, help="the classifier's ONNX (default: the shipped one)")
    ap.add_argument("--readers", type=Path, nargs="*", help="the readers' ONNX (default: the shipped ones)")
    ap.add_argument("--set", nargs="*", default=[], metavar="FIELD=VALUE",
                    help="DetectorConfig fields to change, e.g. backs_by_colour=false (the detector before it)")
    ap.add_argument("--out", type=Path, default=paths.cache() / "bench" / "eval_tile_sets.json")
    args = ap.parse_args(argv)
    from vision.detector import DetectorConfig, TileDetector
    from vision.shipped import CLASSIFIER_WEIGHTS, READER_WEIGHTS

    try:
        config = DetectorConfig(**dict(config_field(item) for item in args.set))
    except (TypeError, ValueError) as exc:
        ap.error(f"--set: {exc}")

    t0 = time.time()
    styles, blank = held_out_styles(args.art)
    readers = tuple(args.readers if args.readers is not None else READER_WEIGHTS)
    det = TileDetector(classifier=args.classifier or CLASSIFIER_WEIGHTS, readers=readers, config=config)
    report: dict = {"styles": [s.name for s in styles], "blank_white_styles": [s.name for s in blank],
                    "classifier": str(args.classifier or CLASSIFIER_WEIGHTS), "readers": [str(r) for r in readers],
                    "config": args.set}
    for kind in args.kinds:
        report[kind] = evaluate_kind(det, kind, styles if kind == "picture_flowers" else blank, args.scenes)
        print(json.dumps({kind: report[kind]}, indent=1), flush=True)
    report["real"] = evaluate_real(lambda jpg: [(d.label, d.confidence, d.box) for d in det.detect(jpg)], args.real)
    print(json.dumps({"real": report["real"]}, indent=1))
    return write_report(report, args.out, t0)


if __name__ == "__main__":
    sys.exit(main())
