"""Fetch mahjong tile art and turn each style into per-tile face images.

Sources (no network other than Debian's package archive):
- ``apt-get download kdegames-mahjongg-data-kf5 gnome-mahjongg xmahjongg``, unpacked with ``dpkg-deb -x``;
- ``../shared/art/fluffystuff`` (CC0 riichi tiles with a back).

Output: ``<cache>/faces/<style>/<label>.png`` (RGB, 150x200, face only, no bevel), ``back.png`` where the style has
one, ``<label>_red.png`` for red fives where the style has them, and ``marks.json``: the index marks of the sets
read (``set_marks``). Labels are the contract's tile names.

Usage: ``python -m training fetch-art [--cache cache/art]``. Needs ``rsvg-convert`` (Debian: librsvg2-bin).
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image

from training.styles import MARKS_FILE
from vision.names import FACE_NAMES, FLOWER_NAMES

FACE_W, FACE_H = 150, 200
PACKAGES = ("kdegames-mahjongg-data-kf5", "gnome-mahjongg", "xmahjongg")

# kmahjongg element ids -> contract names
KD_IDS: dict[str, str] = {}
for _n in range(1, 10):
    KD_IDS[f"CHARACTER_{_n}"] = f"{_n}m"
    KD_IDS[f"ROD_{_n}"] = f"{_n}p"
    KD_IDS[f"BAMBOO_{_n}"] = f"{_n}s"
KD_IDS.update({"WIND_3": "1z", "WIND_2": "2z", "WIND_4": "3z", "WIND_1": "4z",
               "DRAGON_1": "5z", "DRAGON_2": "6z", "DRAGON_3": "7z"})
for _n in range(1, 5):
    KD_IDS[f"SEASON_{_n}"] = f"{_n}f"
    KD_IDS[f"FLOWER_{_n}"] = f"{_n + 4}f"
KD_SETS = ("default", "traditional", "classic", "jade")
# classic captions its flowers without numbers and draws the orchid as FLOWER_1, the plum as FLOWER_2; without a
# number a player goes by the flower's name (plum 1 = 5f, orchid 2 = 6f)
KD_SET_IDS = {"classic": {"FLOWER_1": "6f", "FLOWER_2": "5f"}}

# gnome-mahjongg sheets: 43 tiles in one row (second row = highlighted), this order
GNOME_ORDER = (
    [f"{n}p" for n in range(1, 10)] + ["4z", "3z", "2z", "1z", "7z", "6z"]
    + [f"{n}m" for n in range(1, 10)] + [f"{n}s" for n in range(1, 10)]
    + ["6f", "7f", "5f", "8f", "5z", "1f", "2f", "3f", "4f", None]
)
# postmodern draws its four flowers alike and numbers them 1-4 by their place in the sheet; the number printed on a
# flower is what a player goes by (plum 1 = 5f ... bamboo 4 = 8f), so there they read in sheet order
_FLOWERS_AT = GNOME_ORDER.index("6f")
GNOME_FLOWERS_BY_NUMBER = {"postmodern": {_FLOWERS_AT + k: f"{5 + k}f" for k in range(4)}}

# xmahjongg real.gif: 9 x 5 grid
XM_GRID = [
    [f"{n}p" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    [f"{n}m" for n in range(1, 10)],
    ["1f", "2f", "3f", "4f", "4z", "2z", "1z", "3z", None],
    ["5f", "6f", "7f", "8f", "6z", "5z", "7z", None, None],
]

# xmahjongg sheets of 21 x 4 tiles (rows 3-4 repeat rows 1-2 in another colour): name, tile size, face box inside
# a tile (the bevel cut off), and the first two rows; None = a tile not used (blank or unclear flowers)
_DOROTHY_ROWS = (
    [f"{n}p" for n in range(1, 10)] + ["4z", "3z", "2z", "1z", "7z", "6z"] + [f"{n}m" for n in range(1, 7)],
    ["7m", "8m", "9m"] + [f"{n}s" for n in range(1, 10)] + ["1f", "2f", "3f", "4f", "5z", "8f", "6f", "5f", "7f"],
)
XM_SHEETS = {
    "dorothys": ((64, 80), (2, 2, 45, 67), _DOROTHY_ROWS),
    "dorwhite": ((64, 80), (2, 2, 45, 67), _DOROTHY_ROWS),
    "gnome2": ((40, 56), (3, 1, 38, 51), (
        [f"{n}s" for n in range(1, 10)] + ["4z", "3z", "2z", "1z", "7z", "6z"] + [f"{n}m" for n in range(1, 7)],
        ["7m", "8m", "9m"] + [f"{n}p" for n in range(1, 10)] + [None] * 4 + ["5z"] + [None] * 4,
    )),
}

FLUFFY = {"Ton": "1z", "Nan": "2z", "Shaa": "3z", "Pei": "4z", "Haku": "5z", "Hatsu": "6z", "Chun": "7z"}
for _n in range(1, 10):
    FLUFFY[f"Man{_n}"] = f"{_n}m"
    FLUFFY[f"Pin{_n}"] = f"{_n}p"
    FLUFFY[f"Sou{_n}"] = f"{_n}s"
FLUFFY.update({"Man5-Dora": "5m_red", "Pin5-Dora": "5p_red", "Sou5-Dora": "5s_red", "Back": "back"})


def _run(cmd: list[str], **kw: object) -> None:
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]


def fetch_debs(cache: Path, packages: tuple[str, ...] = PACKAGES) -> Path:
    """Download the Debian packages not yet in ``cache/debs`` and unpack them all into ``cache/root``; return that
    folder."""
    debs = cache / "debs"
    root = cache / "root"
    debs.mkdir(parents=True, exist_ok=True)
    missing = [p for p in packages if not list(debs.glob(f"{p}_*.deb"))]
    if missing:
        _run(["apt-get", "download", *missing], cwd=debs)
    for deb in sorted(d for p in packages for d in debs.glob(f"{p}_*.deb")):
        _run(["dpkg-deb", "-x", str(deb), str(root)])
    return root


def _rsvg(svg: Path, out: Path, element: str | None = None, zoom: float = 1.0, width: int | None = None) -> None:
    cmd = ["rsvg-convert", "-z", str(zoom)]
    if width:
        cmd = ["rsvg-convert", "-w", str(width)]
    if element:
        cmd += ["-i", element]
    _run(cmd + [str(svg), "-o", str(out)])


def _fit_glyph(glyph: Image.Image, face_rgb: tuple[int, int, int], fill: float = 0.86) -> Image.Image:
    """Centre a glyph (RGBA, cropped to its ink) on a plain face of FACE_W x FACE_H."""
    face = Image.new("RGB", (FACE_W, FACE_H), face_rgb)
    bbox = glyph.getchannel("A").point(lambda a: 255 if a > 12 else 0).getbbox()
    if bbox is None:
        return face
    g = glyph.crop(bbox)
    scale = min(FACE_W * fill / g.width, FACE_H * fill / g.height)
    g = g.resize((max(1, round(g.width * scale)), max(1, round(g.height * scale))), Image.LANCZOS)
    face.paste(g, ((FACE_W - g.width) // 2, (FACE_H - g.height) // 2), g)
    return face


def kd_faces(root: Path, out: Path) -> None:
    tilesets = root / "usr/share/kmahjongglib/tilesets"
    with tempfile.TemporaryDirectory() as tmp:
        for name in KD_SETS:
            svg = Path(tmp) / f"{name}.svg"
            svg.write_bytes(gzip.decompress((tilesets / f"{name}.svgz").read_bytes()))
            dest = out / f"kd_{name}"
            dest.mkdir(parents=True, exist_ok=True)
            base_png = Path(tmp) / "base.png"
            _rsvg(svg, base_png, "TILE_1", zoom=2)
            base = Image.open(base_png).convert("RGB")
            face_rgb = base.getpixel((base.width * 6 // 10, base.height * 4 // 10))
            for element, label in (KD_IDS | KD_SET_IDS.get(name, {})).items():
                png = Path(tmp) / f"{element}.png"
                _rsvg(svg, png, element, zoom=3)
                # the element's box may carry an invisible frame (default, classic); _fit_glyph crops to the ink,
                # numerals in the corners included (an earlier fixed crop cut them off in jade and classic)
                _fit_glyph(Image.open(png).convert("RGBA"), face_rgb).save(dest / f"{label}.png")


def gnome_faces(root: Path, out: Path) -> None:
    themes = root / "usr/share/gnome-mahjongg/themes"
    with tempfile.TemporaryDirectory() as tmp:
        sheets = {"smooth": themes / "smooth.png", "edu_kang_xi": themes / "edu_kang_xi.png"}
        pm = Path(tmp) / "postmodern.png"
        _rsvg(themes / "postmodern.svg", pm, width=2752 * 2)
        sheets["postmodern"] = pm
        for name, path in sheets.items():
            sheet = Image.open(path).convert("RGBA")
            tw = sheet.width // 43
            th = sheet.height // 2
            dest = out / f"gn_{name}"
            dest.mkdir(parents=True, exist_ok=True)
            for i, label in enumerate(GNOME_ORDER):
                label = GNOME_FLOWERS_BY_NUMBER.get(name, {}).get(i, label)
                if label is None:
                    continue
                tile = sheet.crop((i * tw, 0, (i + 1) * tw, th))
                # drop the bevel: left edge and bottom edge are about 1/9 and 1/11 of the tile
                x0, y1 = round(tw * 0.11), round(th * 0.90)
                face = tile.crop((x0 + round(tw * 0.03), round(th * 0.03), tw - round(tw * 0.04), y1))
                bg = Image.new("RGBA", face.size, (235, 235, 225, 255))
                bg.alpha_composite(face)
                bg.convert("RGB").resize((FACE_W, FACE_H), Image.LANCZOS).save(dest / f"{label}.png")


def xm_faces(root: Path, out: Path) -> None:
    sheet = Image.open(root / "usr/share/games/xmahjongg/tiles/real.gif").convert("RGB")
    cw, ch = sheet.width / 9, sheet.height / 5
    dest = out / "xm_real"
    dest.mkdir(parents=True, exist_ok=True)
    for r, row in enumerate(XM_GRID):
        for c, label in enumerate(row):
            if label is None:
                continue
            box = (round(c * cw + 3), round(r * ch + 3), round((c + 1) * cw - 3), round((r + 1) * ch - 3))
            sheet.crop(box).resize((FACE_W, FACE_H), Image.LANCZOS).save(dest / f"{label}.png")
    for name, ((tw, th), (fx0, fy0, fx1, fy1), rows) in XM_SHEETS.items():
        sheet = Image.open(root / f"usr/share/games/xmahjongg/tiles/{name}.gif").convert("RGB")
        dest = out / f"xm_{name}"
        dest.mkdir(parents=True, exist_ok=True)
        for r, row in enumerate(rows):
            for c, label in enumerate(row):
                if label is not None:
                    face = sheet.crop((c * tw + fx0, r * th + fy0, c * tw + fx1, r * th + fy1))
                    face.resize((FACE_W, FACE_H), Image.LANCZOS).save(dest / f"{label}.png")


def fluffy_faces(src: Path, out: Path) -> None:
    dest = out / "fluffy"
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        front_png = Path(tmp) / "front.png"
        _rsvg(src / "Regular" / "Front.svg", front_png, width=FACE_W * 2)
        front = Image.open(front_png).convert("RGBA")
        for stem, label in FLUFFY.items():
            png = Path(tmp) / f"{stem}.png"
            _rsvg(src / "Regular" / f"{stem}.svg", png, width=FACE_W * 2)
            glyph = Image.open(png).convert("RGBA")
            if label == "back":
                img = glyph
            else:
                img = front.copy()
                img.alpha_composite(glyph.resize(front.size))
            bbox = img.getchannel("A").point(lambda a: 255 if a > 200 else 0).getbbox()
            img = img.crop(bbox) if bbox else img
            # keep the face only: trim the rounded rim a little
            w, h = img.size
            img = img.crop((round(w * 0.04), round(h * 0.03), round(w * 0.96), round(h * 0.97)))
            flat = Image.new("RGB", img.size, (245, 245, 240))
            flat.paste(img, (0, 0), img)
            flat.resize((FACE_W, FACE_H), Image.LANCZOS).save(dest / f"{label}.png")


def contact_sheet(faces: Path, out: Path) -> None:
    """One picture per style, all tiles in contract order, to check the mapping by eye."""
    order = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    order += [f"{n}f" for n in range(1, 9)] + ["back"]
    styles = sorted(p for p in faces.iterdir() if p.is_dir())
    sw, sh = FACE_W // 3, FACE_H // 3
    sheet = Image.new("RGB", (sw * len(order), sh * len(styles)), (255, 0, 255))
    for r, style in enumerate(styles):
        for c, label in enumerate(order):
            f = style / f"{label}.png"
            if f.exists():
                sheet.paste(Image.open(f).resize((sw, sh)), (c * sw, r * sh))
    sheet.save(out)


# The index marks each fetched set prints, read off its art (``marks.json`` beside its faces, as drawn styles record
# theirs: the mark reader learns from them). A set listed here prints its number on every suit tile (but those in
# its exceptions); its numbered flowers their number in their row (1..4); its honours' marks are not recorded (not
# known: not used). The sets not listed print no numeral on any tile.
INDEXED_SETS: dict[str, dict] = {
    "kd_classic": {"unmarked": [f"{n}{s}" for s in "ps" for n in range(1, 10) if (n, s) != (1, "s")],
                   "flowers": False},
    "kd_default": {"flowers": True}, "kd_jade": {"flowers": True},
    "xm_dorothys": {"flowers": False}, "xm_dorwhite": {"flowers": False}, "xm_gnome2": {"flowers": False},
}
UNMARKED_SETS = ("fluffy", "gn_postmodern", "gn_smooth", "xm_real")


def set_marks(style: str) -> dict[str, str] | None:
    """``style``'s tiles' index marks ("" for none; a tile left out: not known), or None for a set not read.

    >>> m = set_marks("kd_classic"); m["7m"], m["1s"], m["7p"], "1z" in m
    ('7', '1', '', False)
    """
    if style in UNMARKED_SETS:
        return dict.fromkeys((*FACE_NAMES, *FLOWER_NAMES), "")
    if style not in INDEXED_SETS:
        return None
    kind = INDEXED_SETS[style]
    marks = {t: "" if t in kind.get("unmarked", ()) else t[0] for t in FACE_NAMES if t[1] in "mps"}
    return marks | {f: str((int(f[0]) - 1) % 4 + 1) if kind["flowers"] else "" for f in FLOWER_NAMES}


def write_marks(faces: Path) -> None:
    for d in sorted(p for p in faces.iterdir() if p.is_dir()):
        if (marks := set_marks(d.name)) is not None:
            (d / MARKS_FILE).write_text(json.dumps(marks, indent=0))


def fetch_all(cache: Path, fluffy: Path | None = None) -> Path:
    """Every style's faces under ``cache/faces`` (the Debian sets, and fluffystuff from ``fluffy`` when it exists),
    their marks and a contact sheet ``cache/contact_sheet.png``; returns the faces' folder."""
    if shutil.which("rsvg-convert") is None:
        msg = "rsvg-convert not found: apt-get install librsvg2-bin"
        raise FileNotFoundError(msg)
    root = fetch_debs(cache)
    faces = cache / "faces"
    kd_faces(root, faces)
    gnome_faces(root, faces)
    xm_faces(root, faces)
    if fluffy is not None and fluffy.exists():
        fluffy_faces(fluffy, faces)
    write_marks(faces)
    contact_sheet(faces, cache / "contact_sheet.png")
    return faces
