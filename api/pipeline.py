"""From a photo to a scored hand: the detector finds the tiles, ``vision.layout`` reads the hand (asking the scorer
whether a reading is complete), the scorer scores. Each step returns new values; none edits what it was given.

The only place where vision's tile names become scorer tiles (by way of the contract's notation).

    read_photo(image, detector, request)  -> Reading(recognition, layout)
    score_reading(reading, request)       -> Scored(recognition, result, score)
    recognize(image, detector)            -> the contract's recognition object {image, detections, hand, layout}
    score_photo(image, detector, request) -> {"recognition": ..., "result": ...}

``image`` is a path, bytes or a PIL image; ``detector`` anything with ``detect(image) -> list[Detection]`` (the
shipped ``vision.detector.TileDetector``, or a fake in tests). When the photo shows no tile set apart as the
winning tile, every candidate is scored and the best total kept (``layout.win_tile_assumed`` is then true and
``layout.alternatives`` lists the others).

Photo-only request fields (optional, beside the contract's request): ``concealed_kongs`` (the tiles of concealed
kongs shown as four backs, in reading order, e.g. ``"9p"`` or ``["9p", "1z"]``), ``win_tile`` (the winning tile,
when none is set apart) and ``hand`` (a corrected hand: scored instead of the reading). They are removed before the
request reaches the scorer. A request under Fuzhou rules that names its gold reads the photo with it: a 17-tile
reading is then judged complete with its golds wild, and renamed where it is not, as a 14-tile one is.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PIL import Image, UnidentifiedImageError

from scorer import (
    ContextError,
    InvalidHandError,
    NotationError,
    ScorerError,
    ScoreResult,
    complete_with_gold,
    is_complete_tiles,
    parse_hand,
    parse_tiles,
)
from scorer.fuzhou import HONOURS_ASIDE
from scorer.request import RULE_SETS, error_object, score_parsed
from vision.detection import Detection
from vision.errors import BadImageError
from vision.image import ImageInput, open_image
from vision.layout import Layout
from vision.relabel import read_hand

PHOTO_FIELDS = ("concealed_kongs", "win_tile")


class Detector(Protocol):
    """What the photo pipeline needs from a detector: ``vision.detector.TileDetector`` or a test's fake."""

    def detect(self, image: ImageInput) -> list[Detection]: ...


def default_detector(weights: str | None = None) -> Detector:
    """The detector with the shipped weights, or those of the folder ``weights``, loaded once
    (``vision.ModelNotFoundError`` without them, or for a folder that is no weights folder)."""
    from vision import default_detector as loaded

    return loaded(weights)


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
    """The contract's detection object."""
    out = {"tile": d.label, "confidence": round(float(d.confidence), 4),
           "box": [round(float(v), 1) for v in d.box], "sideways": bool(d.sideways)}
    if len(d.ranked) > 1:
        out["alternatives"] = [{"tile": n, "p": p} for n, p in d.ranked if n != d.label]
    if d.sideways_p is not None:
        out["sideways_p"] = d.sideways_p
    if d.stands is not None:
        out["stands"] = d.stands
    return out


@dataclass(frozen=True)
class Reading:
    """What one photo reads as: the contract's recognition object and the layout it was made from."""

    recognition: dict[str, Any]
    layout: Layout


def read_photo(image: ImageInput, detector: Detector, request: dict[str, Any] | None = None) -> Reading:
    """Find the tiles of ``image`` and lay them out into a hand (second choices taken where they complete it; under
    Fuzhou rules with the gold named in ``request``, complete with its golds wild).

    Raises ``vision.BadImageError`` when the photo cannot be read.
    """
    width, height = image_size(image)
    gold = _gold_judge(request)
    layout, dets = read_hand(detector.detect(image), complete=gold or is_complete_tiles, gold_known=gold is not None)
    rec = {"image": {"width": width, "height": height}, "detections": [detection_dict(d) for d in dets],
           "hand": layout.hand, "layout": layout.to_dict()}
    return Reading(rec, layout)


def _gold_judge(request: dict[str, Any] | None) -> Callable[[Iterable[str]], bool] | None:
    """``scorer.complete_with_gold`` for the gold a Fuzhou request names, where it is a numbered tile (the scorer says
    what is wrong with any other); None otherwise."""
    if not isinstance(request, dict) or request.get("rules") != "fuzhou" or not isinstance(request.get("fuzhou"), dict):
        return None
    gold = request["fuzhou"].get("gold")
    if not isinstance(gold, str) or gold[-1:] not in ("m", "p", "s"):
        return None
    try:
        return complete_with_gold(gold)
    except KeyError:
        return None


def recognize(image: ImageInput, detector: Detector | None = None) -> dict[str, Any]:
    """The contract's recognition object for one photo (``detector`` defaults to the shipped one).

    Raises ``vision.BadImageError`` when the photo cannot be read and ``ModelNotFoundError`` without weights.
    """
    return read_photo(image, detector or default_detector()).recognition


# ------------------------------------------------------------------------------------------------- scoring ----
class UnknownTileError(ScorerError):
    """The photo leaves a tile unknown (a concealed kong of four backs) and the request does not name it."""

    code = "unknown_tile"


@dataclass(frozen=True)
class Scored:
    """A reading scored: the recognition (with the hand and winning tile scored, and the alternatives when the
    winning tile was assumed), the contract's result or error object, and the ``ScoreResult`` when it scored."""

    recognition: dict[str, Any]
    result: dict[str, Any]
    score: ScoreResult | None


def score_reading(reading: Reading, request: dict[str, Any]) -> Scored:
    """Score ``reading`` with ``request`` (the contract's request; every winning-tile candidate when none is set
    apart, the best total kept)."""
    rec, layout = reading.recognition, reading.layout
    if not isinstance(request, dict):
        return Scored(rec, error_object("bad_request", "a request must be a JSON object"), None)
    photo = {k: request[k] for k in PHOTO_FIELDS if k in request}
    base = {k: v for k, v in request.items() if k not in PHOTO_FIELDS and k != "hand"}
    if request.get("hand"):
        note = "the hand given in the request was scored instead of the reading"
        unused = [k for k in PHOTO_FIELDS if photo.get(k) not in (None, [], "")]
        if unused:  # (they read the photo; the hand given needs neither)
            note += f"; its {' and '.join(unused)} not used"
        rec = {**rec, "layout": {**rec["layout"], "notes": [*rec["layout"]["notes"], note]}}
        try:
            result = score_parsed({**base, "hand": request["hand"]})
        except ScorerError as exc:
            return Scored(rec, error_object(exc.code, str(exc)), None)
        return Scored(rec, result.to_dict(), result)
    if layout.problem is not None:
        message = f"the photo reads {layout.reading() or 'no hand'}: {layout.problem.message}"
        return Scored(rec, error_object("invalid_hand", message), None)
    try:
        candidates = _candidates(layout, photo)
    except ScorerError as exc:
        return Scored(rec, error_object(exc.code, str(exc)), None)
    if not candidates:
        return Scored(rec, error_object("invalid_hand", f"no winning tile can be read: {layout.reading()}"), None)
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
    win, hand, score, answer = best
    if score is None and answer["error"]["code"] == InvalidHandError.code:
        hint = count_hint(hand, str(base.get("rules")), honours_said=HONOURS_ASIDE in answer["error"]["message"])
        if hint:
            answer = error_object(answer["error"]["code"], f"{hint}; {answer['error']['message']}")
    chosen = layout
    if win is not None and (layout.win_tile_assumed or photo.get("win_tile")):
        why = "as the request gives it" if photo.get("win_tile") else (
            "the candidate that scores best" if good and len(scored) > 1 else "")
        chosen = layout.with_win(win, why)
    lay = chosen.to_dict()
    if layout.win_tile_assumed:
        lay["alternatives"] = [{"win_tile": w, "hand": h, "total": r.total if r else None,
                                "error": None if r else d["error"]["code"]} for w, h, r, d in scored if h != hand]
    return Scored({**rec, "hand": hand, "layout": lay}, answer, score)


RULE_NAMES = {"mcr": "MCR", "riichi": "Riichi", "guangdong": "Guangdong", "fuzhou": "Fuzhou"}


def fitting_rules(hand: str) -> list[str]:
    """The rule sets whose hands hold the tiles of ``hand`` (the scorer asked: it answers anything but
    ``invalid_hand``, a hand that may still not win or not reach the minimum)."""
    out = []
    for rules in RULE_SETS:
        try:
            score_parsed({"rules": rules, "hand": hand})
        except InvalidHandError:
            continue
        except ScorerError:
            pass
        out.append(rules)
    return out


def count_hint(hand: str, rules: str, honours_said: bool = False) -> str | None:
    """What a hand the scorer calls invalid under ``rules`` holds, what was set aside as flowers and why (unless
    ``honours_said``: the scorer's message says it), and the rule sets it fits, e.g. "the photo shows 17 tiles (16 +
    1, kongs counted as 3); it fits Fuzhou (rules fuzhou), not MCR, Riichi or Guangdong"; None when the notation
    cannot be read."""
    try:
        parsed = parse_hand(hand)
    except ScorerError:
        return None
    n = len(parsed.concealed) + 1 + 3 * len(parsed.melds)
    flowers = " ".join(str(t) for t in parsed.flowers)
    fits = fitting_rules(hand)
    loose = [str(t) for t in (*parsed.concealed, parsed.win_tile) if str(t).endswith("z")]
    melded = [m for m in parsed.melds if str(m.tiles[0]).endswith("z")]
    honours = loose + [str(t) for m in melded for t in m.tiles]
    parts = [f"the photo shows {n} tiles ({n - 1} + 1, kongs counted as 3)"
             + (f" beside the flowers {flowers}" if flowers else "")]
    if honours and (rules == "fuzhou" or not fits) and not honours_said:
        parts.append(f"{HONOURS_ASIDE}: {' '.join(honours)} set aside as flowers leave "
                     f"{n - len(loose) - 3 * len(melded)}" + (" and an honour cannot be the winning tile"
                                                             if str(parsed.win_tile).endswith("z") else ""))
    names = [RULE_NAMES[r] for r in fits]
    others = [RULE_NAMES[r] for r in RULE_SETS if r not in fits]
    if names:
        parts.append(f"it fits {_listed(names, 'and')} (rules {' / '.join(fits)}), not {_listed(others, 'or')}")
    else:
        parts.append(f"it fits none of {_listed(others, 'and')}")
    return "; ".join(parts)


def _listed(names: list[str], word: str) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def score_photo(image: ImageInput, detector: Detector | None, request: dict[str, Any]) -> dict[str, Any]:
    """Read ``image`` and score it with ``request`` (the contract's request without ``hand``):
    ``{"recognition": ..., "result": ...}``, the result being the contract's result or error object."""
    scored = score_reading(read_photo(image, detector or default_detector(), request), request)
    return {"recognition": scored.recognition, "result": scored.result}


def _tiles_field(value: Any, name: str) -> list[str]:
    """The tile names of a photo-only field: notation (``"9p"``, ``"9p1z"``) or a list of it; no flowers."""
    if value is None:
        return []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [t for v in value for t in _tiles_field(v, name)]
    if not isinstance(value, str):
        raise ContextError(f"{name!r} must be a string or a list of tiles, e.g. [\"9p\"]")
    try:
        tiles = parse_tiles(value.replace(" ", ""))
    except NotationError:
        tiles = None
    if tiles is None or any(t.is_flower for t in tiles):
        raise ContextError(f"{name!r} must list tiles in notation, e.g. \"9p\", not {value!r}")
    return [str(t) for t in tiles]


def _candidates(layout: Layout, photo: dict[str, Any]) -> list[tuple[str | None, str]]:
    """(winning tile, hand) pairs to score; raises ScorerError when the photo leaves a tile unknown."""
    kongs = _tiles_field(photo.get("concealed_kongs"), "concealed_kongs")
    if len(kongs) < layout.unknown_kongs:
        n = layout.unknown_kongs
        raise UnknownTileError(f"{n} concealed kong(s) show four backs, so their tile cannot be read; give it as "
                               f"\"concealed_kongs\" (e.g. [\"9p\"]) or correct the hand: {layout.reading()}")
    if len(kongs) > layout.unknown_kongs:  # a tile given for a kong the photo does not show: not silently dropped
        raise ContextError(f"'concealed_kongs' gives {len(kongs)} tile(s), but the photo shows "
                           f"{layout.unknown_kongs} concealed kong(s) of four backs: {layout.reading()}")
    win = _tiles_field(photo.get("win_tile"), "win_tile")
    if len(win) > 1:
        raise ContextError(f"'win_tile' names one tile, not {len(win)}: {' '.join(win)}")
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


def _rank(result: ScoreResult) -> tuple[int, int, int]:
    details = dict(result.details)
    points = details.get("points") if isinstance(details.get("points"), int) else 0
    return (result.total, int(result.meets_minimum), int(points or 0))
