"""From a photo to a scored hand: the detector finds the tiles, ``vision.layout`` reads the hand, the scorer scores.

The only place where vision's tile names become scorer tiles (by way of the contract's notation).

    recognize(image, detector)           -> the contract's recognition object {image, detections, hand, layout}
    score_photo(image, detector, request) -> {"recognition": ..., "result": ...}

``image`` is a path, bytes or a PIL image; ``detector`` anything with ``detect(image) -> list[Detection]`` (the
shipped ``vision.detector.TileDetector``, or a fake in tests). When the photo shows no tile set apart as the
winning tile, every candidate is scored and the best total kept (``layout.win_tile_assumed`` is then true and
``layout.alternatives`` lists the others).

Photo-only request fields (optional, beside the contract's request): ``concealed_kongs`` (the tiles of concealed
kongs shown as four backs, in reading order, e.g. ``"9p"`` or ``["9p", "1z"]``), ``win_tile`` (the winning tile,
when none is set apart) and ``hand`` (a corrected hand: scored instead of the reading). They are removed before the
request reaches the scorer.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from PIL import Image, UnidentifiedImageError

from api.cli import fail, render
from scorer import ContextError, ScorerError, ScoreResult, is_complete_tiles
from scorer.request import error_object, score_parsed
from vision.detection import Detection
from vision.errors import BadImageError, VisionError
from vision.image import ImageInput, load_image, open_image
from vision.layout import Layout
from vision.relabel import read_hand

PHOTO_FIELDS = ("concealed_kongs", "win_tile")


class Detector(Protocol):
    """What the photo pipeline needs from a detector."""

    def detect(self, image: ImageInput) -> list[Detection]: ...


# ----------------------------------------------------------------------------------------------- recognition ----
def image_size(image: ImageInput) -> tuple[int, int]:
    """Width and height of the upright image (EXIF orientation applied), read from the header only."""
    try:
        if isinstance(image, Image.Image):
            img = image
        elif isinstance(image, bytes | bytearray):
            if not image:
                raise BadImageError("cannot read the image: the file is empty")
            img = open_image(io.BytesIO(bytes(image)))
        else:
            path = Path(image)
            if path.is_file() and path.stat().st_size == 0:
                raise BadImageError(f"cannot read the image: {path} is empty")
            img = open_image(path)
        w, h = img.size
        orientation = img.getexif().get(0x0112, 1)
    except BadImageError:
        raise
    except FileNotFoundError as exc:
        raise BadImageError(f"no such file: {image}") from exc
    except IsADirectoryError as exc:
        raise BadImageError(f"{image} is a folder, not an image") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, ImportError) as exc:
        raise BadImageError(f"cannot read the image: {exc}") from exc
    return (h, w) if orientation in (5, 6, 7, 8) else (w, h)


def detection_dict(d: Detection) -> dict[str, Any]:
    out = {"tile": d.label, "confidence": round(float(d.confidence), 4),
           "box": [round(float(v), 1) for v in d.box], "sideways": bool(d.sideways)}
    if len(d.ranked) > 1:
        out["alternatives"] = [{"tile": n, "p": p} for n, p in d.ranked if n != d.label]
    if d.sideways_p is not None:
        out["sideways_p"] = d.sideways_p
    return out


def _read(image: ImageInput, detector: Detector) -> tuple[dict[str, Any], list[Detection], Layout]:
    width, height = image_size(image)
    layout, dets = read_hand(detector.detect(image), complete=is_complete_tiles)
    rec = {"image": {"width": width, "height": height}, "detections": [detection_dict(d) for d in dets],
           "hand": layout.hand, "layout": layout.to_dict()}
    return rec, dets, layout


def recognize(image: ImageInput, detector: Detector | None = None) -> dict[str, Any]:
    """The contract's recognition object for one photo (``detector`` defaults to the shipped one).

    Raises ``vision.BadImageError`` when the photo cannot be read and ``ModelNotFoundError`` without weights.
    """
    return _read(image, detector or _default_detector())[0]


def _default_detector() -> Detector:
    from vision import default_detector

    return default_detector()


# ------------------------------------------------------------------------------------------------- scoring ----
def _tiles_field(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        text = value.replace(" ", "")
        out: list[str] = []
        digits = ""
        for ch in text:
            if ch.isdigit():
                digits += ch
            elif ch in "mpsz" and digits:
                out += [d + ch for d in digits]
                digits = ""
            else:
                raise ContextError(f"{name!r} must list tiles in notation, e.g. \"9p\", not {value!r}")
        if digits:
            raise ContextError(f"{name!r} must list tiles in notation, e.g. \"9p\", not {value!r}")
        return out
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [t for v in value for t in _tiles_field(v, name)]
    raise ContextError(f"{name!r} must be a string or a list of tiles, e.g. [\"9p\"]")


def _candidates(layout: Layout, photo: dict[str, Any]) -> list[tuple[str | None, str]]:
    """(winning tile, hand) pairs to score; raises ScorerError when the photo leaves a tile unknown."""
    kongs = _tiles_field(photo.get("concealed_kongs"), "concealed_kongs")
    if len(kongs) < layout.unknown_kongs:
        n = layout.unknown_kongs
        raise _Unknown(f"{n} concealed kong(s) show four backs, so their tile cannot be read; give it as "
                       f"\"concealed_kongs\" (e.g. [\"9p\"]) or correct the hand: {layout.reading()}")
    win = _tiles_field(photo.get("win_tile"), "win_tile")
    if win:
        hand = layout.hand_with(win=win[0], kong_tiles=kongs)
        if hand is None:
            raise ContextError(f"'win_tile' {win[0]} is not among the concealed tiles read: {layout.reading()}")
        return [(win[0], hand)]
    if layout.win_tile_assumed:
        out = []
        for w in layout.win_candidates:
            hand = layout.hand_with(win=w, kong_tiles=kongs)
            if hand is not None:
                out.append((w, hand))
        return out
    hand = layout.hand_with(kong_tiles=kongs)
    return [(layout.win_tile, hand)] if hand else []


class _Unknown(ScorerError):
    code = "unknown_tile"


def _rank(result: ScoreResult) -> tuple[int, int, int]:
    details = dict(result.details)
    points = details.get("points") if isinstance(details.get("points"), int) else 0
    return (result.total, int(result.meets_minimum), int(points or 0))


def _score(rec: dict[str, Any], layout: Layout, request: dict[str, Any]) -> tuple[dict[str, Any], ScoreResult | None]:
    """Score the reading (every winning-tile candidate when none is set apart); updates ``rec`` in place."""
    if not isinstance(request, dict):
        return error_object("bad_request", "a request must be a JSON object"), None
    photo = {k: request[k] for k in PHOTO_FIELDS if k in request}
    base = {k: v for k, v in request.items() if k not in PHOTO_FIELDS and k != "hand"}
    if request.get("hand"):
        rec["layout"]["notes"].append("the hand given in the request was scored instead of the reading")
        try:
            result = score_parsed({**base, "hand": request["hand"]})
        except ScorerError as exc:
            return error_object(exc.code, str(exc)), None
        return result.to_dict(), result
    if layout.problem is not None:
        return error_object("invalid_hand", f"the photo reads {layout.reading() or 'no hand'}: "
                                            f"{layout.problem.message}"), None
    try:
        candidates = _candidates(layout, photo)
    except ScorerError as exc:
        return error_object(exc.code, str(exc)), None
    if not candidates:
        return error_object("invalid_hand", f"no winning tile can be read: {layout.reading()}"), None
    scored: list[tuple[str | None, str, ScoreResult | None, dict[str, Any]]] = []
    for win, hand in candidates:
        try:
            res = score_parsed({**base, "hand": hand})
            scored.append((win, hand, res, res.to_dict()))
        except ScorerError as exc:
            scored.append((win, hand, None, error_object(exc.code, str(exc))))
    good = [s for s in scored if s[2] is not None]
    if good:  # the best total; on a tie the first candidate
        best = max(good, key=lambda s: _rank(s[2]))  # type: ignore[arg-type]
    else:  # every candidate fails: answer the default reading's error
        best = next((s for s in scored if s[0] == layout.win_tile), scored[0])
    rec["hand"] = best[1]
    rec["layout"]["win_tile"] = best[0]
    if layout.win_tile_assumed:
        rec["layout"]["alternatives"] = [
            {"win_tile": w, "hand": h, "total": r.total if r else None,
             "error": None if r else d["error"]["code"]} for w, h, r, d in scored if h != best[1]]
    return best[3], best[2]


def score_photo(image: ImageInput, detector: Detector | None, request: dict[str, Any]) -> dict[str, Any]:
    """Read ``image`` and score it with ``request`` (the contract's request without ``hand``):
    ``{"recognition": ..., "result": ...}``, the result being the contract's result or error object."""
    rec, _, layout = _read(image, detector or _default_detector())
    result, _ = _score(rec, layout, request)
    return {"recognition": rec, "result": result}


# ---------------------------------------------------------------------------------------------- rendering ----
_GLYPHS = {**{f"{n}m": chr(0x1F007 + n - 1) for n in range(1, 10)},
           **{f"{n}s": chr(0x1F010 + n - 1) for n in range(1, 10)},
           **{f"{n}p": chr(0x1F019 + n - 1) for n in range(1, 10)},
           "1z": "\U0001F000", "2z": "\U0001F001", "3z": "\U0001F002", "4z": "\U0001F003",
           "5z": "\U0001F006", "6z": "\U0001F005", "7z": "\U0001F004",
           "1f": "\U0001F026", "2f": "\U0001F027", "3f": "\U0001F028", "4f": "\U0001F029",
           "5f": "\U0001F022", "6f": "\U0001F023", "7f": "\U0001F025", "8f": "\U0001F024", "back": "\U0001F02B"}


def tile_row(rec: dict[str, Any]) -> str:
    """The reading as a row of tile glyphs: melds, concealed tiles, the winning tile, flowers, in groups.

    >>> tile_row({"layout": {"melds": [{"tiles": ["5z", "5z", "5z"]}], "concealed": ["1m"], "win_tile": "1m",
    ...                      "flowers": []}})
    '🀆🀆🀆  🀇  + 🀇'
    """
    lay = rec["layout"]
    parts = ["".join(_GLYPHS.get(t, "?") for t in (m["tiles"] or ["back"] * 4)) for m in lay["melds"]]
    if lay.get("concealed"):
        parts.append("".join(_GLYPHS.get(t, "?") for t in lay["concealed"]))
    if lay.get("win_tile"):
        parts.append("+ " + _GLYPHS.get(lay["win_tile"], "?"))
    if lay.get("flowers"):
        parts.append("".join(_GLYPHS.get(t, "?") for t in lay["flowers"]))
    return "  ".join(parts)


def describe(rec: dict[str, Any], source: str) -> str:
    """A readable summary of a recognition object."""
    lay = rec["layout"]
    n = len(rec["detections"])
    lines = [f"photo: {source} ({rec['image']['width']}x{rec['image']['height']}), {n} tile(s) found"
             + (f", {len(lay['loose'])} loose" if lay.get("loose") else "")]
    reading = rec["hand"] or lay.get("reading") or "-"
    lines.append(f"hand:  {reading}" + ("    (winning tile assumed)" if lay.get("win_tile_assumed") else ""))
    lines.append(f"tiles: {tile_row(rec)}")
    if lay.get("problem"):
        lines.append(f"problem: {lay['problem']['message']}")
    for note in lay.get("notes", []):
        lines.append(f"note: {note}")
    for alt in lay.get("alternatives", []):
        total = alt["total"] if alt["total"] is not None else alt["error"]
        lines.append(f"  also possible: {alt['hand']}  ({total})")
    return "\n".join(lines)


_COLOURS = {"exposed": (255, 140, 0), "concealed_kong": (160, 60, 220), "concealed": (40, 170, 60),
            "win": (230, 30, 30), "flower": (230, 80, 170), "loose": (150, 150, 150)}


def annotate(image: ImageInput, rec: dict[str, Any], out: str | Path, max_side: int = 2000) -> Path:
    """Draw the boxes, tile names and meld groups of ``rec`` on the photo and write it as PNG (at most
    ``max_side`` pixels long)."""
    from PIL import ImageDraw, ImageFont

    rgb, scale = load_image(image, max_side)
    img = Image.fromarray(rgb)
    draw = ImageDraw.Draw(img)
    lay = rec["layout"]
    role: dict[int, str] = {i: "concealed" for i in lay.get("concealed_detections", [])}
    for m in lay["melds"]:
        for i in m["detections"]:
            role[i] = "exposed" if m["exposed"] else "concealed_kong"
    for i in lay.get("flower_detections", []):
        role[i] = "flower"
    if lay.get("win_detection") is not None:
        role[lay["win_detection"]] = "win"
    dets = rec["detections"]
    size = max(12, int(max(img.size) / 70))
    try:
        font = ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        font = ImageFont.load_default()
    width = max(2, size // 6)

    def box(i: int) -> list[float]:
        return [v * scale for v in dets[i]["box"]]

    for m in lay["melds"]:  # meld groups: one frame around each
        bs = [box(i) for i in m["detections"]]
        pad = size * 0.4
        frame = [min(b[0] for b in bs) - pad, min(b[1] for b in bs) - pad, max(b[2] for b in bs) + pad,
                 max(b[3] for b in bs) + pad]
        colour = _COLOURS["exposed" if m["exposed"] else "concealed_kong"]
        draw.rectangle(frame, outline=colour, width=width * 2)
        draw.text((frame[0], frame[3] + 2), m["notation"], fill=colour, font=font)
    for i, d in enumerate(dets):
        colour = _COLOURS[role.get(i, "loose")]
        b = box(i)
        draw.rectangle(b, outline=colour, width=width)
        name = d["tile"] + ("*" if d["sideways"] else "")
        tx, ty = b[0], max(0, b[1] - size - 2)
        tb = draw.textbbox((tx, ty), name, font=font)
        draw.rectangle(tb, fill=(0, 0, 0))
        draw.text((tx, ty), name, fill=colour, font=font)
    caption = rec["hand"] or lay.get("reading") or "no hand read"
    draw.rectangle(draw.textbbox((4, 4), caption, font=font), fill=(0, 0, 0))
    draw.text((4, 4), caption, fill=(255, 255, 255), font=font)
    out = Path(out)
    img.save(out, format="PNG")
    return out


# ---------------------------------------------------------------------------------------------------- CLI ----
def _load(args: argparse.Namespace) -> tuple[Detector | None, int]:
    try:
        return _default_detector(), 0
    except VisionError as exc:
        return None, fail(exc.code, f"{exc}; the tile detector's weights are not installed (see models/)",
                           args.json)


def run_detect(args: argparse.Namespace, detector: Detector | None = None) -> int:
    """``mjscore detect PHOTO [--json]``: the recognition object, or a readable summary."""
    try:
        image_size(args.photo)  # a bad file fails before the model loads
        if detector is None:
            detector, code = _load(args)
            if detector is None:
                return code
        rec = recognize(args.photo, detector)
    except VisionError as exc:
        return fail(exc.code, str(exc), args.json)
    if args.json:
        print(json.dumps(rec, ensure_ascii=False))
    else:
        print(describe(rec, args.photo))
        for d in rec["detections"]:
            side = " sideways" if d["sideways"] else ""
            print(f"  {d['tile']:>4}  {d['confidence']:.2f}  {d['box']}{side}")
    return 0


def run_photo(args: argparse.Namespace, request: dict[str, Any], detector: Detector | None = None) -> int:
    """``mjscore PHOTO --rules ...``: read the photo, score it, print the reading and the score (or JSON)."""

    request = dict(request)
    if getattr(args, "hand_override", None):
        request["hand"] = args.hand_override
    try:
        image_size(args.photo)
        if detector is None:
            detector, code = _load(args)
            if detector is None:
                return code
        rec, _, layout = _read(args.photo, detector)
    except VisionError as exc:
        return fail(exc.code, str(exc), args.json)
    result, scored = _score(rec, layout, request)
    annotated = getattr(args, "annotated", None)
    if annotated:
        try:
            annotate(args.photo, rec, annotated)
        except (OSError, ValueError, VisionError) as exc:
            print(f"mjscore: cannot write {annotated}: {exc}", file=sys.stderr)
    if args.json:
        print(json.dumps({"recognition": rec, "result": result}, ensure_ascii=False))
        return 0 if result["ok"] else 1
    print(describe(rec, args.photo))
    print()
    if scored is not None:
        print(render(scored))
    else:
        print(f"not scored: {result['error']['code']}: {result['error']['message']}")
    if annotated:
        print(f"\nannotated photo: {annotated}")
    return 0 if result["ok"] else 1


def fake_detector(dets: Sequence[Detection]) -> Detector:
    """A detector that answers ``dets`` for any image (for tests and demos)."""

    class _Fake:
        def detect(self, image: ImageInput) -> list[Detection]:
            return list(dets)

    return _Fake()


__all__ = ["Detector", "annotate", "describe", "fake_detector", "image_size", "recognize", "run_detect",
           "run_photo", "score_photo", "tile_row"]
