"""What is saved for one photo: its boxes (tile name, xyxy pixels of the upright image, sideways; whether the tile
stands, where the detector said), the melds
and the winning tile the layout read from them, the hand in notation, the photo's group (one hand, photographed
perhaps several times) and its status. ``Labels.from_json`` checks a client's object and names what is wrong.

The YOLO label file holds the boxes only (``cls cx cy w h``, the classes of ``vision.names.NAMES``); the rest
travels in the photo's JSON sidecar (``Labels.to_json``), as docs/annotate.md describes.

>>> lab = Labels.from_json({"image": {"width": 200, "height": 100},
...                         "boxes": [{"tile": "5m", "box": [10, 20, 50, 80], "sideways": True}]})
>>> lab.yolo()
'4 0.150000 0.500000 0.200000 0.600000\\n'
>>> Labels.from_yolo(lab.yolo(), 200, 100).boxes[0].box
(10.0, 20.0, 50.0, 80.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from api.datasets.errors import BadLabelsError, BadNameError
from api.datasets.names import group_name
from scorer import ScorerError, parse_hand
from vision.names import CLASS_ID, NAMES

STATUSES = ("todo", "labelled", "reviewed")
MELD_KINDS = ("chow", "pung", "kong", "concealed_kong")
FIELDS = ("image", "boxes", "melds", "win", "hand", "group", "status")
MAX_BOXES = 500  # a whole set laid out is 144 tiles
_TILES = "1m..9m, 1p..9p, 1s..9s, 1z..7z, 1f..8f or back"


@dataclass(frozen=True, slots=True)
class Box:
    """One tile: its name, its box (x0, y0, x1, y1 in pixels of the upright photo), whether it lies sideways, and
    the probability that it stands on its edge where the detector said (its recognition's ``stands``; None: not
    said), which the layout reads as it reads a photo's."""

    tile: str
    box: tuple[float, float, float, float]
    sideways: bool = False
    stands: float | None = None


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld the layout read: chow, pung, kong or concealed_kong, and the indices of its boxes."""

    kind: str
    boxes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Labels:
    """Everything saved for one photo (one version of it)."""

    width: int
    height: int
    boxes: tuple[Box, ...] = ()
    melds: tuple[Meld, ...] = ()
    win: int | None = None  # the index of the winning tile's box
    hand: str | None = None  # the hand in notation (checked by the scorer), or None
    group: str = ""  # the hand this photo shows; photos of one group stay in one split (empty: the photo alone)
    status: str = "todo"

    @classmethod
    def from_json(cls, obj: Any, width: int | None = None, height: int | None = None, boxes_named: str = "boxes"
                  ) -> Labels:
        """Read and check a labels object; ``width``/``height`` (the stored photo's) win over the object's own.
        ``boxes_named``: what the client called the boxes, as a wrong one is named (``/v1/layout``: detections)."""
        if not isinstance(obj, dict):
            raise BadLabelsError("the labels must be a JSON object with 'boxes'")
        unknown = sorted(set(obj) - set(FIELDS))
        if unknown:
            raise BadLabelsError(f"unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}")
        if width is None or height is None:
            image = obj.get("image")
            if not isinstance(image, dict) or not all(_int(image.get(k)) for k in ("width", "height")):
                raise BadLabelsError("'image' must be {\"width\": ..., \"height\": ...} in pixels")
            width, height = image["width"], image["height"]
        boxes = _list(obj.get("boxes", []), boxes_named, MAX_BOXES)
        read = tuple(_box(b, f"{boxes_named}[{i}]", width, height) for i, b in enumerate(boxes))
        melds = tuple(_meld(m, f"melds[{i}]", len(read)) for i, m in enumerate(_list(obj.get("melds", []), "melds",
                                                                                     MAX_BOXES)))
        win = obj.get("win")
        if win is not None and not (_int(win, zero=True) and win < len(read)):
            which = f"the index of a box (0 to {len(read) - 1}) or null" if read else "null when there is no box"
            raise BadLabelsError(f"'win' must be {which}, not {win!r}")
        hand = obj.get("hand")
        if hand is not None:
            if not isinstance(hand, str) or len(hand) > 200:
                raise BadLabelsError("'hand' must be the hand in notation (a string), or null")
            hand = hand.strip() or None
            if hand is not None:
                try:
                    parse_hand(hand)
                except ScorerError as exc:
                    raise BadLabelsError(f"'hand': {exc}") from None
        group = obj.get("group") or ""
        if group:
            try:
                group_name(group)
            except BadNameError as exc:
                raise BadLabelsError(f"'group': {exc}") from None
        status = obj.get("status", "todo")
        if status not in STATUSES:
            raise BadLabelsError(f"'status' must be one of {', '.join(STATUSES)}, not {status!r}")
        return cls(width, height, read, melds, win, hand, group, status)

    def to_json(self) -> dict[str, Any]:
        """The labels object (the wire shape and the sidecar's), without the photo's name and version."""
        return {
            "image": {"width": self.width, "height": self.height},
            "boxes": [_box_json(b) for b in self.boxes],
            "melds": [{"kind": m.kind, "boxes": list(m.boxes)} for m in self.melds],
            "win": self.win,
            "hand": self.hand,
            "group": self.group,
            "status": self.status,
        }

    def yolo(self) -> str:
        """The YOLO label file: one ``cls cx cy w h`` line per box, in 0..1 of the photo."""
        lines = []
        for b in self.boxes:
            x0, y0, x1, y1 = b.box
            cx, cy = (x0 + x1) / 2 / self.width, (y0 + y1) / 2 / self.height
            w, h = (x1 - x0) / self.width, (y1 - y0) / self.height
            lines.append(f"{CLASS_ID[b.tile]} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}\n")
        return "".join(lines)

    @classmethod
    def from_yolo(cls, text: str, width: int, height: int, names: tuple[str, ...] = NAMES,
                  where: str = "labels") -> Labels:
        """Boxes from a YOLO label file whose classes are ``names`` (mapped to ours by name)."""
        boxes = []
        for number, line in enumerate(text.splitlines(), 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 5:
                raise BadLabelsError(f"{where} line {number}: expected 'class cx cy w h', got {line[:60]!r}")
            try:
                k = int(fields[0])
                cx, cy, w, h = (float(v) for v in fields[1:])
            except ValueError:
                raise BadLabelsError(f"{where} line {number}: not numbers: {line[:60]!r}") from None
            if not 0 <= k < len(names):
                raise BadLabelsError(f"{where} line {number}: class {k} is not among the {len(names)} names")
            if not all(math.isfinite(v) for v in (cx, cy, w, h)) or w <= 0 or h <= 0:
                raise BadLabelsError(f"{where} line {number}: the box is empty or not finite: {line[:60]!r}")
            box = ((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
            boxes.append({"tile": names[k], "box": [min(max(v, 0.0), lim) for v, lim in
                                                    zip(box, (width, height) * 2, strict=True)]})
        return cls.from_json({"boxes": boxes}, width, height)

    @classmethod
    def from_reading(cls, rec: dict[str, Any], group: str = "", status: str = "todo") -> Labels:
        """Labels from a recognition object (``api.photo.recognize``'s): its boxes, and the melds and winning
        tile its layout read."""
        image = rec["image"]
        return cls.from_json({"boxes": [{k: d[k] for k in ("tile", "box", "sideways", "stands") if k in d}
                                        for d in rec["detections"]],
                              **reading(rec["layout"]), "hand": rec.get("hand"), "group": group, "status": status},
                             image["width"], image["height"])

    def with_status(self, status: str) -> Labels:
        return replace(self, status=status)


def reading(layout: dict[str, Any]) -> dict[str, Any]:
    """The melds and the winning tile of a layout object (``vision.layout.Layout.to_dict``) as labels fields.

    >>> reading({"melds": [{"kind": "pung", "detections": [0, 1, 2]}], "win_detection": 9})
    {'melds': [{'kind': 'pung', 'boxes': [0, 1, 2]}], 'win': 9}
    """
    return {"melds": [{"kind": m["kind"], "boxes": list(m["detections"])} for m in layout.get("melds", [])],
            "win": layout.get("win_detection")}


def _int(value: Any, zero: bool = False) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and (value >= 0 if zero else value > 0)


def _list(value: Any, name: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise BadLabelsError(f"{name!r} must be a list")
    if len(value) > most:
        raise BadLabelsError(f"{name!r} holds {len(value)} items; at most {most}")
    return value


# a detection object's fields beside its box, known and not kept: a recognition's detections may be given as boxes
DETECTED = ("confidence", "alternatives", "sideways_p")


def _box_json(b: Box) -> dict[str, Any]:
    """A box as the labels object holds it: ``stands`` only where the detector said."""
    out = {"tile": b.tile, "box": list(b.box), "sideways": b.sideways}
    if b.stands is not None:
        out["stands"] = b.stands
    return out


def _box(obj: Any, where: str, width: int, height: int) -> Box:
    if not isinstance(obj, dict):
        raise BadLabelsError(f"{where} must be an object {{\"tile\", \"box\", \"sideways\"}}")
    unknown = sorted(set(obj) - {"tile", "box", "sideways", "stands", *DETECTED})
    if unknown:
        raise BadLabelsError(f"{where}: unknown field {unknown[0]!r}")
    tile = obj.get("tile")
    if not isinstance(tile, str) or tile not in CLASS_ID:  # (a list or object is no name, and no key)
        raise BadLabelsError(f"{where}.tile: {tile!r} is not a tile name; use {_TILES}")
    box = obj.get("box")
    if (not isinstance(box, list) or len(box) != 4
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in box)):
        raise BadLabelsError(f"{where}.box must be [x0, y0, x1, y1] in pixels")
    x0, y0, x1, y1 = (round(float(v), 1) for v in box)
    if not (-1 <= x0 < x1 <= width + 1 and -1 <= y0 < y1 <= height + 1):
        raise BadLabelsError(f"{where}.box {box} must lie inside the {width}x{height} photo with x0 < x1, y0 < y1")
    x0, x1 = max(x0, 0.0), min(x1, float(width))
    y0, y1 = max(y0, 0.0), min(y1, float(height))
    if x1 - x0 < 1 or y1 - y0 < 1:
        raise BadLabelsError(f"{where}.box {box} is less than a pixel wide or high inside the photo")
    sideways = obj.get("sideways", False)
    if not isinstance(sideways, bool):
        raise BadLabelsError(f"{where}.sideways must be true or false")
    stands = obj.get("stands")
    if stands is not None and (isinstance(stands, bool) or not isinstance(stands, int | float)
                               or not 0 <= stands <= 1):
        raise BadLabelsError(f"{where}.stands must be a probability from 0 to 1, or absent")
    return Box(tile, (x0, y0, x1, y1), sideways, None if stands is None else float(stands))


def _meld(obj: Any, where: str, count: int) -> Meld:
    if not isinstance(obj, dict) or obj.get("kind") not in MELD_KINDS:
        raise BadLabelsError(f"{where} must be {{\"kind\": one of {', '.join(MELD_KINDS)}, \"boxes\": [...]}}")
    boxes = obj.get("boxes")
    if (not isinstance(boxes, list) or not 3 <= len(boxes) <= 4
            or not all(_int(i, zero=True) and i < count for i in boxes) or len(set(boxes)) != len(boxes)):
        raise BadLabelsError(f"{where}.boxes must be 3 or 4 different box indices (0 to {count - 1})")
    return Meld(obj["kind"], tuple(boxes))
