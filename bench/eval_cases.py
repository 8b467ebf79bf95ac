"""The kinds of photo that fail at real tables (issue #30), each made by the generator and read end to end by the
shipped detector, the layout and the scorer, with its own figure.

    python -m bench.eval_cases make --out DIR [--n 40] [--kinds perspective sixteen ...]   # the generator's photos
    python -m bench.eval_cases run --data DIR [--kinds ...] [--json OUT]                   # read them, print figures

``make`` writes, for each kind, half its photos in the held-out style (``kd_traditional``) and half in the training
styles (``DIR/<kind>/<held_out|training>/{images,labels,layout}/val``, as ``python -m training synth`` writes them,
seeded). ``run`` needs only the photos and their sidecars, so the same photos can be read by another checkout of
the project (before and after a change). Each kind is one entry of ``KINDS``: how its photos are made, the request
they are scored with, and the figures it reports from each photo's record:

- ``perspective``: tiles standing on their edges, shot low and from the side (``--camera low``): hands read exactly
  (from the true boxes, the layout alone, and from the detector), the share of the hand's tiles that the layout
  keeps in the hand.
- ``standing_front``: tiles standing, seen nearly from in front and a little above (``--camera front``): the same
  figures as ``perspective``'s.
- ``sixteen``: hands of 16 + 1 tiles (``--sixteen 1``): read exactly; under Fuzhou, scored with the right tiles
  where the hand holds no honour; under MCR, the error names the rule set the photo fits.
- ``win_agreement``: no tile set apart as the winning tile (``--apart 0``): the hand scored, ``layout.win_tile``,
  ``layout.reading``, the winning tile's detection and the note all name the same tile; hands read exactly but for
  which tile won.
- ``seated``: tiles lying, seen from a player's seat (``--camera seated``, 30 to 55 degrees): ``perspective``'s
  figures, and each photo read again by the detector without its look as from above (``rectify_below`` 0), its
  hands exact and times beside them.
- ``many_tiles``: a whole table around the hand (``--table 120`` to ``250``, 12 MP): the time of a photo
  (detector and layout), its tiles found, the hand read exactly.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.eval_layout import box_iou, four_back_kongs, normal, true_detections

SEED = 3030
GROUPS = ("held_out", "training")


@dataclass(frozen=True)
class Kind:
    """One kind of photo: how ``make`` draws it (``SceneSpec`` fields) and scores it, and what ``run`` reports."""

    spec: dict[str, Any]  # SceneSpec fields beside index, seed, split
    request: dict[str, Any]  # the request the photos are scored with
    figures: Callable[[list[dict[str, Any]]], dict[str, Any]]
    also: tuple[dict[str, Any], ...] = field(default_factory=tuple)  # more requests, each recorded apart
    without: dict[str, Any] = field(default_factory=dict)  # DetectorConfig fields: each photo read again so, apart


# ------------------------------------------------------------------------------------------------- records ----
def _share(records: list[dict[str, Any]], key: str) -> str:
    vals = [r[key] for r in records if r.get(key) is not None]
    return f"{sum(vals)}/{len(vals)} = {sum(vals) / len(vals):.1%}" if vals else "-"


def _ms(records: list[dict[str, Any]]) -> dict[str, float]:
    ms = sorted(r["ms"] for r in records)
    k = int(0.9 * (len(ms) - 1) + 0.5)
    return {"p50_ms": round(statistics.median(ms)), "p90_ms": round(ms[k]), "max_ms": round(ms[-1])}


def perspective_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    kept = [r["hand_tiles_kept"] for r in records if r["hand_tiles_kept"] is not None]
    return {"exact_true_boxes": _share(records, "exact_true"), "exact_detector": _share(records, "exact"),
            "hand_tiles_kept": f"{np.mean(kept):.1%}" if kept else "-", **_ms(records)}


def seated_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    without = _ms([{"ms": r["ms_without"]} for r in records])
    return {**perspective_figures(records), "exact_without_look": _share(records, "exact_without"),
            **{f"{k}_without_look": v for k, v in without.items()}}


def sixteen_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    return {"exact_true_boxes": _share(records, "exact_true"), "exact_detector": _share(records, "exact"),
            "fuzhou_scored_right": _share(records, "fuzhou_right"),
            "mcr_error_names_fuzhou": _share(records, "names_fuzhou"), **_ms(records)}


def agreement_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    return {"fields_agree": _share(records, "agree"), "exact_but_win": _share(records, "exact_but_win"),
            **_ms(records)}


def many_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    found = [r["found"] / max(r["shown"], 1) for r in records]
    return {"exact_detector": _share(records, "exact"), "tiles_found": f"{np.mean(found):.1%}",
            "tiles_shown_median": statistics.median(r["shown"] for r in records), **_ms(records)}


KINDS: dict[str, Kind] = {
    "perspective": Kind({"camera": "low", "min_mp": 3.0, "max_mp": 6.0}, {"rules": "mcr", "self_draw": True},
                        perspective_figures),
    "standing_front": Kind({"camera": "front", "min_mp": 3.0, "max_mp": 6.0}, {"rules": "mcr", "self_draw": True},
                           perspective_figures),
    "sixteen": Kind({"sixteen": 1.0, "min_mp": 3.0, "max_mp": 6.0}, {"rules": "fuzhou", "self_draw": True},
                    sixteen_figures, ({"rules": "mcr", "self_draw": True},)),
    "win_agreement": Kind({"apart": 0.0, "min_mp": 3.0, "max_mp": 6.0}, {"rules": "mcr", "self_draw": True},
                          agreement_figures),
    "seated": Kind({"camera": "seated", "min_mp": 1.0, "max_mp": 3.0}, {"rules": "mcr", "self_draw": True},
                   seated_figures, without={"rectify_below": 0.0}),
    "many_tiles": Kind({"table": 250, "min_mp": 12.0, "max_mp": 12.0}, {"rules": "mcr", "self_draw": True},
                       many_figures),
}


# ---------------------------------------------------------------------------------------------------- make ----
def make(out: Path, kinds: list[str], n: int, art: Path) -> None:
    """Write ``n`` photos of each kind, half in the held-out style and half in the training styles."""
    from training import synth

    held = synth.load_styles(art, include=list(synth.HELD_OUT_STYLES))
    train = synth.load_styles(art, exclude=list(synth.HELD_OUT_STYLES))
    for name in kinds:
        kind = KINDS[name]
        for group, styles in zip(GROUPS, (held, train), strict=True):
            base = out / name / group
            for d in ("images", "labels", "layout"):
                (base / d / "val").mkdir(parents=True, exist_ok=True)
            for i in range(n // 2):
                spec = dict(kind.spec)
                if name == "many_tiles":  # 120 to 250 tiles
                    spec["table"] = 120 + (i * 130) // max(n // 2 - 1, 1)
                jpg, lines, side = synth.make_scene(synth.SceneSpec(i, SEED + GROUPS.index(group), "val", **spec),
                                                    styles)
                (base / "images" / "val" / f"{i:06d}.jpg").write_bytes(jpg)
                (base / "labels" / "val" / f"{i:06d}.txt").write_text("\n".join(lines) + "\n")
                (base / "layout" / "val" / f"{i:06d}.json").write_text(json.dumps(side))
        print(f"{name}: {n // 2} + {n // 2} photos in {out / name}", flush=True)


# ----------------------------------------------------------------------------------------------------- run ----
def hand_tiles_kept(rec: dict[str, Any], sidecar: dict[str, Any]) -> float | None:
    """Of the hand's tiles the photo shows, the share matched (IoU >= 0.5) by a detection the layout took into the
    hand (concealed, winning tile, melds, flowers)."""
    lay = rec["layout"]
    taken = set(lay.get("concealed_detections", [])) | set(lay.get("flower_detections", []))
    taken |= {i for m in lay.get("melds", []) for i in m["detections"]}
    if lay.get("win_detection") is not None:
        taken.add(lay["win_detection"])
    hand = [t for t in sidecar["tiles"] if t["group"] < len(sidecar["groups"]) - 1 and t["visible"] >= 0.6]
    if not hand:
        return None
    boxes = [d["box"] for d in rec["detections"]]
    kept = 0
    for t in hand:
        ious = [box_iou(t["box"], b) for b in boxes]
        if ious and max(ious) >= 0.5 and int(np.argmax(ious)) in taken:
            kept += 1
    return kept / len(hand)


def agreement(rec: dict[str, Any]) -> bool:
    """The hand scored, ``layout.win_tile``, ``layout.reading``, the winning tile's detection and the note that
    names the tile assumed all name the same winning tile."""
    lay = rec["layout"]
    win = lay.get("win_tile")
    if not win or not rec.get("hand") or lay.get("win_detection") is None:
        return False
    said = [n for n in lay.get("notes", []) if "assumed" in n]
    return (bool(re.search(rf"\+{win}\b", rec["hand"])) and bool(re.search(rf"\+{win}\b", lay.get("reading", "")))
            and rec["detections"][lay["win_detection"]]["tile"] == win
            and all(f"; {win} assumed" in n for n in said))


def _without_win(hand: str | None) -> tuple | None:
    parts = normal(hand)
    if parts is None:
        return None
    exposed, kongs, concealed, win, flowers = parts
    return exposed, kongs, tuple(sorted(concealed + win)), flowers


def read(detector: Any, photo: Path, sidecar: dict[str, Any], kind: Kind) -> dict[str, Any]:
    """One photo read and scored, and what each kind's figures need of it."""
    from api.pipeline import read_photo, score_reading
    from scorer import is_complete_tiles, score_request
    from vision.relabel import read_hand

    t0 = time.perf_counter()
    reading = read_photo(photo, detector)
    ms = (time.perf_counter() - t0) * 1000
    truth = sidecar["hand"]
    kongs = four_back_kongs(sidecar)
    request = {**kind.request, **({"concealed_kongs": kongs} if kongs else {})}
    scored = score_reading(reading, request)
    rec = scored.recognition
    true_layout, _ = read_hand(true_detections(sidecar), complete=is_complete_tiles)
    true_read = true_layout.hand_with(kong_tiles=kongs) if true_layout.unknown_kongs else true_layout.hand
    out: dict[str, Any] = {
        "photo": photo.name, "truth": truth, "read": rec["hand"] or rec["layout"].get("reading"), "ms": round(ms, 1),
        "exact": normal(rec["hand"]) == normal(truth), "exact_true": normal(true_read) == normal(truth),
        "exact_but_win": _without_win(rec["hand"]) == _without_win(truth),
        "agree": agreement(rec) if rec["layout"].get("win_tile_assumed") else None,
        "found": len(rec["detections"]),
        "shown": sum(1 for t in sidecar["tiles"] if t["visible"] >= 0.6),
        "hand_tiles_kept": hand_tiles_kept(rec, sidecar),
        "error": None if scored.result.get("ok") else scored.result["error"]["message"],
    }
    if kind.request["rules"] == "fuzhou" and not re.search(r"\d+z", truth or ""):
        right = score_request({**kind.request, "hand": truth})
        out["fuzhou_right"] = bool(right.get("ok")) and scored.result.get("total") == right.get("total") \
            and normal(rec["hand"]) == normal(truth)
    for extra in kind.also:
        other = score_reading(reading, {**extra, **({"concealed_kongs": kongs} if kongs else {})}).result
        if extra["rules"] == "mcr" and len(_tiles(truth)) >= 17:
            out["names_fuzhou"] = "Fuzhou" in (other.get("error") or {}).get("message", "")
    return out


def _tiles(hand: str | None) -> list[str]:
    parts = normal(hand)
    if parts is None:
        return []
    exposed, kongs, concealed, win, _ = parts
    return [*concealed, *win, *(t for m in exposed + kongs for t in m[:3])]


def run(data: Path, kinds: list[str], out: Path | None) -> int:
    from vision.detector import TileDetector

    detector = TileDetector()
    report: dict[str, Any] = {}
    for name in kinds:
        kind = KINDS[name]
        report[name] = {}
        for group in GROUPS:
            base = data / name / group
            files = sorted((base / "layout" / "val").glob("*.json"))
            if not files:
                continue
            detector.detect(base / "images" / "val" / f"{files[0].stem}.jpg")  # warm
            # a kind read ``without`` too: each photo read so right after, the two taking turns
            other = TileDetector(config=replace(detector.config, **kind.without)) if kind.without else None
            records = []
            for f in files:
                photo, sidecar = base / "images" / "val" / f"{f.stem}.jpg", json.loads(f.read_text())
                records.append(read(detector, photo, sidecar, kind))
                if other is not None:
                    again = read(other, photo, sidecar, kind)
                    records[-1].update(exact_without=again["exact"], ms_without=again["ms"])
            figures = kind.figures(records)
            report[name][group] = {"photos": len(records), **figures, "records": records}
            print(f"{name:>14} {group:<9} {len(records):>3} photos  "
                  + "  ".join(f"{k} {v}" for k, v in figures.items()), flush=True)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("make", help="generate each kind's photos")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--n", type=int, default=40, help="photos per kind (half held-out style, half training styles)")
    p.add_argument("--art", type=Path, default=None, help="tile art (default: the fetched faces)")
    p.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    p = sub.add_parser("run", help="read each kind's photos end to end and print its figures")
    p.add_argument("--data", type=Path, required=True)
    p.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    p.add_argument("--json", type=Path, default=None, help="write the figures and every photo's record here")
    args = ap.parse_args(argv)
    if args.step == "make":
        from training.paths import art

        make(args.out, args.kinds, args.n, args.art or art() / "faces")
        return 0
    return run(args.data, args.kinds, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
