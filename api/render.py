"""What a person reads: a score as a table, a recognition as a summary with a row of tile glyphs, and the photo
annotated with its boxes, names and meld groups."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorer import ScoreResult
from vision.names import BACK, NAMES

if TYPE_CHECKING:  # the picture's modules (Pillow, numpy) load only when a picture is drawn
    from vision.image import ImageInput

# the Unicode mahjong tile of each detector name (vision.names.NAMES order: 1-9m, 1-9p, 1-9s, E S W N, white, green,
# red, the four seasons, plum, orchid, chrysanthemum, bamboo, a back)
_CODES = (*range(0x1F007, 0x1F010), *range(0x1F019, 0x1F022), *range(0x1F010, 0x1F019),
          0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004,
          0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F025, 0x1F024, 0x1F02B)
GLYPHS: dict[str, str] = dict(zip(NAMES, map(chr, _CODES), strict=True))


def score_table(result: ScoreResult) -> str:
    """A readable table of fans, total, minimum and payments."""
    lines = [f"rules: {result.rules}    reading: {' '.join(result.decomposition)}", ""]
    width = max((len(f.name) for f in result.fans), default=10)
    for fan in result.fans:
        times = f" x{fan.count}" if fan.count > 1 else ""
        lines.append(f"  {fan.value * fan.count:>4}  {fan.name:<{width}}  {fan.name_zh}{times}")
    lines.append(f"  {result.total:>4}  total")
    for key, value in result.details:
        if value is not None:  # a detail the hand does not have (riichi's limit below mangan) is left out
            lines.append(f"        {key}: {value}")
    lines.append("")
    lines.append(f"minimum met: {'yes' if result.meets_minimum else 'no'}")
    if result.payments:
        lines.append("payments: " + "  ".join(f"{seat} {amount:+d}" for seat, amount in result.payments))
    elif result.meets_minimum:
        lines.append("payments: name the discarder (--discarder) or --self-draw to see them")
    return "\n".join(lines)


def tile_row(rec: dict[str, Any]) -> str:
    """The reading as a row of tile glyphs: melds, concealed tiles, the winning tile, flowers, in groups.

    >>> tile_row({"layout": {"melds": [{"tiles": ["5z", "5z", "5z"]}], "concealed": ["1m"], "win_tile": "1m",
    ...                      "flowers": []}})
    '🀆🀆🀆  🀇  + 🀇'
    """
    lay = rec["layout"]
    parts = ["".join(GLYPHS.get(t, "?") for t in (m["tiles"] or [BACK] * 4)) for m in lay["melds"]]
    if lay.get("concealed"):
        parts.append("".join(GLYPHS.get(t, "?") for t in lay["concealed"]))
    if lay.get("win_tile"):
        parts.append("+ " + GLYPHS.get(lay["win_tile"], "?"))
    if lay.get("flowers"):
        parts.append("".join(GLYPHS.get(t, "?") for t in lay["flowers"]))
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


def detection_lines(rec: dict[str, Any]) -> list[str]:
    """One line per detection: name, confidence, box, and ``sideways`` when it lies sideways."""
    return [f"  {d['tile']:>4}  {d['confidence']:.2f}  {d['box']}{' sideways' if d['sideways'] else ''}"
            for d in rec["detections"]]


# each role's colour, in the legend's order
_COLOURS = {"concealed": (40, 170, 60), "win": (230, 30, 30), "exposed": (255, 140, 0),
            "concealed_kong": (160, 60, 220), "flower": (230, 80, 170), "problem": (0, 190, 255),
            "loose": (150, 150, 150)}
_LEGEND = {"concealed": "concealed", "win": "winning tile", "exposed": "exposed meld",
           "concealed_kong": "concealed kong", "flower": "flower", "problem": "the problem's tiles", "loose": "loose"}
# the picture's format, from the suffix of the file it is written to
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}


def picture_format(out: str | Path) -> str:
    """The format a picture written to ``out`` takes, from its suffix; ``ValueError`` naming the suffixes known.

    >>> picture_format("out.JPG"), picture_format("a/b.png")
    ('JPEG', 'PNG')
    """
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        known = ", ".join(FORMATS)
        msg = f"cannot tell the picture's format from {str(out)!r}: end its name in {known}"
        raise ValueError(msg)
    return FORMATS[suffix]


def annotate(image: ImageInput, rec: dict[str, Any], out: str | Path, max_side: int = 2000) -> Path:
    """Draw the boxes, tile names and meld groups of ``rec`` on the photo, with a legend of the roles' colours, and
    write it (at most ``max_side`` pixels long) in the format its suffix names (``picture_format``)."""
    from PIL import Image, ImageDraw, ImageFont

    fmt = picture_format(out)
    from vision.image import load_image

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
    for i in (lay.get("problem") or {}).get("detections", []):  # the tiles the problem is about, whatever else
        role[i] = "problem"
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
    _legend(draw, img.size, font, size, {role.get(i, "loose") for i in range(len(dets))})
    out = Path(out)
    img.save(out, format=fmt, **({"quality": 90} if fmt in ("JPEG", "WEBP") else {}))
    return out


def _legend(draw: Any, image_size: tuple[int, int], font: Any, size: int, shown: set[str]) -> None:
    """A small legend in the bottom left corner: a swatch and a name for each role drawn."""
    roles = [r for r in _COLOURS if r in shown]
    if not roles:
        return
    line = size + 4
    width = max(draw.textlength(_LEGEND[r], font=font) for r in roles) + line + 12
    x0, y0 = 4, image_size[1] - 4 - line * len(roles) - 6
    draw.rectangle([x0, y0, x0 + width, image_size[1] - 4], fill=(0, 0, 0))
    for k, r in enumerate(roles):
        y = y0 + 3 + k * line
        draw.rectangle([x0 + 4, y + 2, x0 + 4 + size, y + size], outline=_COLOURS[r], width=max(2, size // 6))
        draw.text((x0 + 8 + line, y), _LEGEND[r], fill=(255, 255, 255), font=font)
