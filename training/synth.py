"""Synthetic phone photos of revealed mahjong hands, in YOLO layout, with the true layout beside each image.

Each scene: a table (wood, felt, cloth or paper, drawn procedurally), a revealed hand of 13 to 18 tiles in one or two
rows (exposed melds with one tile sideways, concealed kongs with two or four backs, the winning tile set apart,
flowers aside), loose distractor tiles and clutter, seen by a phone (top-down to 30 degrees tilt, any rotation,
perspective), with soft shadows, glare, blur, noise and JPEG artefacts.

Output (``--out DIR``)::

    DIR/images/{train,val}/NNNNNN.jpg
    DIR/labels/{train,val}/NNNNNN.txt      # cls cx cy w h (0..1), class ids in NAMES order
    DIR/layout/{train,val}/NNNNNN.json     # the true layout: hand notation, groups, every tile's box and flags
    DIR/data.yaml                          # train, val, names (no path, no download)

Usage: ``python datasets/synth.py --out /work/cache/datasets/hands --train 2000 --val 200 --seed 0``.
The same seed gives the same images (each image is seeded by ``seed`` and its index).
Tile art comes from ``datasets/fetch_art.py`` (``--art /work/cache/art/faces``).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.names import CLASS_ID, FACE_NAMES, FLOWER_NAMES, NAMES, SUITS

FACE_LABELS = FACE_NAMES
FLOWER_LABELS = FLOWER_NAMES
DEFAULT_ART = Path("/work/cache/art/faces")
MARKS_FILE = "marks.json"  # per style: each tile's index mark, where known (fetch_art.set_marks, drawn_art.index_mark)
HELD_OUT_STYLES = ("kd_traditional",)
SKIP_STYLES = ("gn_edu_kang_xi",)  # radicals for teaching, not mahjong faces
# styles drawn here (datasets/drawn_art.py): not in the shipped weights' data; used only when asked for by name or
# pattern, so the default style set (and every photo drawn from it) stays what it was
DECOY_PREFIX = "dx_"  # decoy styles (drawn_art.py --decoys): a suit tile's label is its index, not its body
DRAWN_STYLES = ("dr_*", "uc_*", f"{DECOY_PREFIX}*", "bp_*")

BACK_COLOURS = [(40, 120, 60), (30, 90, 160), (220, 180, 40), (235, 235, 230), (200, 60, 40), (60, 160, 150),
                (110, 60, 150), (230, 120, 30), (20, 40, 90), (150, 200, 90), (240, 160, 180), (70, 70, 70)]


# --------------------------------------------------------------------------------------------------------- art ----
@dataclass
class Style:
    name: str
    faces: dict[str, np.ndarray]  # label -> RGB uint8 (H, W, 3)
    red: dict[str, np.ndarray] = field(default_factory=dict)  # "5m" -> red-five art
    back: np.ndarray | None = None
    marks: dict[str, str] = field(default_factory=dict)  # label -> its index mark ("" none), where known (marks.json)

    @property
    def has_flowers(self) -> bool:
        return all(f in self.faces for f in FLOWER_LABELS)


def _named(name: str, patterns: list[str] | None) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns or ())


def load_styles(art: Path, include: list[str] | None = None, exclude: list[str] | None = None) -> list[Style]:
    """The styles under ``art``; ``include`` and ``exclude`` hold names or shell patterns (``'dr_*'``); the drawn
    styles (``DRAWN_STYLES``) only when ``include`` names them."""
    styles = []
    for d in sorted(p for p in art.iterdir() if p.is_dir()):
        if d.name in SKIP_STYLES or (include and not _named(d.name, include)) or _named(d.name, exclude):
            continue
        if _named(d.name, list(DRAWN_STYLES)) and not include:
            continue
        faces, red, back = {}, {}, None
        for f in d.glob("*.png"):
            img = cv2.cvtColor(cv2.imread(str(f)), cv2.COLOR_BGR2RGB)
            if f.stem == "back":
                back = img
            elif f.stem.endswith("_red"):
                red[f.stem[:2]] = img
            elif f.stem in CLASS_ID:
                faces[f.stem] = img
        if all(lbl in faces for lbl in FACE_LABELS):
            marks = json.loads((d / MARKS_FILE).read_text()) if (d / MARKS_FILE).exists() else {}
            styles.append(Style(d.name, faces, red, back, marks))
    if not styles:
        msg = f"no tile styles under {art}; run datasets/fetch_art.py"
        raise FileNotFoundError(msg)
    return styles


def plain_style(rgb: tuple[int, int, int] = (235, 235, 225), name: str = "plain", text: bool = True) -> Style:
    """A style drawn here, no art needed: each face is ``rgb`` with its tile name written on it (for tests)."""
    faces = {}
    for label in FACE_LABELS + FLOWER_LABELS:
        img = np.empty((200, 150, 3), np.uint8)
        img[:] = rgb
        if text:
            cv2.putText(img, label, (12, 125), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (20, 20, 20), 5, cv2.LINE_AA)
        faces[label] = img
    return Style(name, faces)


REAL_HOLDOUT_PERCENT = 35
CAMERASH = {f"dots-{n}": f"{n}p" for n in range(1, 10)}
CAMERASH.update({f"bamboo-{n}": f"{n}s" for n in range(1, 10)})
CAMERASH.update({f"characters-{n}": f"{n}m" for n in range(1, 10)})
CAMERASH.update({"honors-east": "1z", "honors-south": "2z", "honors-west": "3z", "honors-north": "4z",
                 "honors-white": "5z", "honors-green": "6z", "honors-red": "7z",
                 "bonus-spring": "1f", "bonus-summer": "2f", "bonus-autumn": "3f", "bonus-winter": "4f",
                 "bonus-plum": "5f", "bonus-orchid": "6f", "bonus-chrysanthemum": "7f", "bonus-bamboo": "8f"})


def real_holdout(name: str) -> bool:
    """True for the camerash photos kept out of all training (about 35%, fixed by the file name)."""
    import zlib

    return zlib.crc32(name.encode()) % 100 < REAL_HOLDOUT_PERCENT


def camerash_styles(root: Path, count: int = 8) -> list[Style]:
    """Styles whose faces are real tile photos (camerash, training part only): style k takes each tile's k-th photo."""
    photos: dict[str, list[np.ndarray]] = {}
    for label, img in real_photos(root):
        h, w = img.shape[:2]
        face = img[int(0.05 * h):int(0.95 * h), int(0.06 * w):int(0.94 * w)]
        photos.setdefault(label, []).append(cv2.resize(face, (150, 200), interpolation=cv2.INTER_AREA))
    if not all(lbl in photos for lbl in FACE_LABELS):
        return []
    return [Style(f"camerash_{k}", {lbl: imgs[k % len(imgs)] for lbl, imgs in photos.items()}) for k in range(count)]


# -------------------------------------------------------------------------------------------------------- hand ----
@dataclass
class Group:
    kind: str  # concealed | chow | pung | kong | concealed_kong | win | flowers | distractor | set
    tiles: list[str]
    backs: list[bool] = field(default_factory=list)  # per tile: shown face down
    sideways: int = -1  # index of the sideways tile in an exposed meld
    red: list[bool] = field(default_factory=list)


def _fmt(tiles: list[str]) -> str:
    """Canonical mpsz: suits in m,p,s,z,f order, digits sorted, runs compressed (``123m55z``)."""
    out = []
    for s in "mpszf":
        digits = sorted(t[0] for t in tiles if t[1] == s)
        if digits:
            out.append("".join(digits) + s)
    return "".join(out)


FLOWERS = (0.5, 3)  # share of hands that set flowers aside, and the most they set aside (at least one)


def random_hand(rng: np.random.Generator, with_flowers: bool,
                flowers: tuple[float, int] = FLOWERS) -> tuple[list[Group], str]:
    """A winning hand: sets and a pair, some sets exposed or concealed kongs; returns groups and its notation.
    ``flowers``: (share of hands with flowers set aside, the most set aside)."""
    big = rng.random() < 0.25  # Fuzhou-style 16+1 tiles
    nsets = 5 if big else 4
    counts: dict[str, int] = {}

    def take(tiles: list[str]) -> bool:
        if any(counts.get(t, 0) + tiles.count(t) > 4 for t in set(tiles)):
            return False
        for t in tiles:
            counts[t] = counts.get(t, 0) + 1
        return True

    sets: list[tuple[str, list[str]]] = []
    while len(sets) < nsets:
        r = rng.random()
        if r < 0.5:
            s = SUITS[rng.integers(3)]
            n = int(rng.integers(1, 8))
            kind, tiles = "chow", [f"{n}{s}", f"{n + 1}{s}", f"{n + 2}{s}"]
        else:
            t = FACE_LABELS[rng.integers(34)]
            kind, tiles = ("kong", [t] * 4) if r > 0.85 else ("pung", [t] * 3)
        if take(tiles):
            sets.append((kind, tiles))
    while True:
        t = FACE_LABELS[rng.integers(34)]
        if take([t, t]):
            pair = [t, t]
            break
    groups: list[Group] = []
    concealed: list[str] = list(pair)
    nexposed = int(rng.integers(0, nsets + 1)) if rng.random() < 0.8 else 0
    for i, (kind, tiles) in enumerate(sets):
        if kind == "kong" and (i >= nexposed or rng.random() < 0.4):
            four = rng.random() < 0.3
            backs = [True] * 4 if four else [True, False, False, True]
            groups.append(Group("concealed_kong", tiles, backs))
        elif i < nexposed:
            side = int(rng.integers(len(tiles))) if rng.random() < 0.85 else -1
            order = list(tiles)
            groups.append(Group(kind, order, [False] * len(order), side))
        else:
            concealed += tiles
    win = concealed.pop(int(rng.integers(len(concealed))))
    concealed.sort(key=lambda t: (("mpsz".index(t[1])), t[0]))
    groups.insert(0, Group("concealed", concealed, [False] * len(concealed)))
    groups.append(Group("win", [win], [False]))
    if with_flowers and rng.random() < flowers[0]:
        fl = sorted(rng.choice(FLOWER_LABELS, size=int(rng.integers(1, flowers[1] + 1)), replace=False).tolist())
        groups.append(Group("flowers", fl, [False] * len(fl)))
    # red fives, shown as fives (label 5x) but written 0x in the notation
    for g in groups:
        g.red = [t[0] == "5" and t[1] in SUITS and rng.random() < 0.15 for t in g.tiles]
    return groups, notation(groups)


def notation(groups: list[Group]) -> str:
    def show(g: Group) -> list[str]:
        return [("0" + t[1]) if r else t for t, r in zip(g.tiles, g.red, strict=True)]

    parts = []
    for g in groups:
        if g.kind in ("chow", "pung", "kong"):
            parts.append(f"[{_fmt(show(g))}]")
        elif g.kind == "concealed_kong":
            parts.append(f"({_fmt(show(g))})")
    loose = [g for g in groups if g.kind == "concealed"]
    if loose:
        parts.append(_fmt(show(loose[0])))
    parts += [f"+{show(g)[0]}" for g in groups if g.kind == "win"]
    parts += [_fmt(g.tiles) for g in groups if g.kind == "flowers"]
    return " ".join(p for p in parts if p)


# ------------------------------------------------------------------------------------------------------ tables ----
def _noise(rng: np.random.Generator, h: int, w: int, scale: int) -> np.ndarray:
    small = rng.random((max(2, h // scale), max(2, w // scale))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = rng.choice(["wood", "felt", "cloth", "paper", "plain"], p=[0.35, 0.25, 0.2, 0.1, 0.1])
    hs, ws = max(8, h // 2), max(8, w // 2)
    if kind == "wood":
        base = np.array([rng.uniform(90, 200), rng.uniform(55, 130), rng.uniform(20, 80)], np.float32)
        y = np.linspace(0, 1, hs, dtype=np.float32)[:, None]
        warp = _noise(rng, hs, ws, 64) * rng.uniform(2, 8)
        grain = np.sin((y * rng.uniform(20, 90) + warp) * 2 * np.pi) * 0.5 + 0.5
        fine = _noise(rng, hs, ws, 2)
        v = 0.75 + 0.2 * grain + 0.1 * fine
        img = base[None, None, :] * v[..., None]
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.rot90(img))
    elif kind == "felt":
        base = np.array(BACK_COLOURS[rng.integers(len(BACK_COLOURS))], np.float32) * rng.uniform(0.5, 1.0)
        v = 0.9 + 0.1 * _noise(rng, hs, ws, 1) + 0.08 * _noise(rng, hs, ws, 40)
        img = base[None, None, :] * v[..., None]
    elif kind == "cloth":
        c1 = rng.uniform(30, 230, 3).astype(np.float32)
        c2 = rng.uniform(30, 230, 3).astype(np.float32)
        period = rng.uniform(6, 40)
        yy, xx = np.mgrid[0:hs, 0:ws].astype(np.float32)
        pat = ((np.sin(xx / period * np.pi) > 0) ^ (np.sin(yy / period * np.pi) > 0)).astype(np.float32)
        if rng.random() < 0.5:
            pat = (np.sin((xx + yy) / period) * 0.5 + 0.5)
        v = 0.92 + 0.08 * _noise(rng, hs, ws, 1)
        img = (c1 * pat[..., None] + c2 * (1 - pat[..., None])) * v[..., None]
    elif kind == "paper":
        base = np.array([rng.uniform(200, 250)] * 3, np.float32) + rng.uniform(-15, 5, 3).astype(np.float32)
        v = 0.95 + 0.05 * _noise(rng, hs, ws, 1) + 0.05 * _noise(rng, hs, ws, 30)
        img = base[None, None, :] * v[..., None]
    else:
        base = rng.uniform(20, 240, 3).astype(np.float32)
        img = base[None, None, :] * (0.93 + 0.07 * _noise(rng, hs, ws, 3))[..., None]
    img = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    return img


# ----------------------------------------------------------------------------------------------------- camera ----
@dataclass
class Camera:
    h: np.ndarray  # 3x3 homography: table plane (tile-width units) -> image pixels
    toward_viewer: np.ndarray  # unit vector in image pixels: where a tile's front side shows
    tilt: float
    rotation: float


def make_camera(rng: np.random.Generator, extent: tuple[float, float, float, float], w: int, h: int) -> Camera:
    """A homography that puts the plane box ``extent`` (x0, y0, x1, y1) into view, tilted and rotated."""
    x0, y0, x1, y1 = extent
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    tilt = math.radians(rng.uniform(0, 30))
    r = rng.random()
    rot = rng.normal(0, 6) if r < 0.45 else (rng.choice([90, 180, 270]) + rng.normal(0, 6) if r < 0.75
                                            else rng.uniform(0, 360))
    rot = math.radians(rot)
    dist = rng.uniform(8, 14) * max(x1 - x0, (y1 - y0) * 1.5) / 10

    def project(px: float, py: float) -> tuple[float, float]:
        x, y = px - cx, py - cy
        # tilt about the x axis: far rows (negative y) recede
        yc = y * math.cos(tilt)
        z = dist * 10 + y * math.sin(tilt)
        return x / z, yc / z

    src = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    pts = np.array([project(*p) for p in src], np.float32)
    c, s = math.cos(rot), math.sin(rot)
    pts = pts @ np.array([[c, s], [-s, c]], np.float32)
    pts -= pts.min(0)
    span = pts.max(0)
    fill = rng.uniform(0.7, 0.97)
    scale = fill * min(w / span[0], h / span[1])
    pts = pts * scale
    free = np.array([w, h], np.float32) - pts.max(0)
    pts += free * rng.uniform(0.15, 0.85, 2).astype(np.float32)
    hom = cv2.getPerspectiveTransform(src, pts.astype(np.float32))
    toward = np.array([-s, c], np.float32)  # plane +y (toward the camera) after rotation
    return Camera(hom, toward, math.degrees(tilt), math.degrees(rot) % 360)


def _apply(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.concatenate([pts, np.ones((len(pts), 1))], 1) @ hom.T
    return (p[:, :2] / p[:, 2:3]).astype(np.float32)


# ------------------------------------------------------------------------------------------------------ scene -----
TILE_W, TILE_H = 1.0, 1.36  # face size in plane units (tile widths)


@dataclass
class Placed:
    label: str
    face: np.ndarray  # RGB art (already chosen: face, back or red five)
    x: float  # plane centre
    y: float
    rot: int  # 0, 90, 180, 270: in-plane rotation of the face (90 = sideways)
    jitter: float  # small extra rotation in degrees
    group: int
    sideways: bool
    red: bool = False
    face_down: bool = False
    back_rgb: tuple[int, int, int] = (40, 120, 60)


def _row(tiles: list[tuple[str, np.ndarray, bool, bool, bool]], x: float, y: float, gap: float, group: int,
         back_rgb: tuple[int, int, int], rng: np.random.Generator, upside: bool) -> tuple[list[Placed], float]:
    """Lay tiles left to right from x; (label, art, sideways, red, face_down) each; returns tiles and end x."""
    out = []
    for label, art, side, red, down in tiles:
        w = TILE_H if side else TILE_W
        dy = (TILE_H - TILE_W) / 2 if side else 0.0  # sideways tiles sit on the row's front line
        rot = (90 if side else 0) + (180 if upside else 0)
        out.append(Placed(label, art, x + w / 2, y + dy, rot % 360, float(rng.normal(0, 1.2)), group, side, red,
                          down, back_rgb))
        x += w + gap + abs(rng.normal(0, 0.01))
    return out, x


def layout_scene(rng: np.random.Generator, style: Style, groups: list[Group]) -> list[Placed]:
    back_rgb = tuple(int(c) for c in BACK_COLOURS[rng.integers(len(BACK_COLOURS))])
    use_style_back = style.back is not None and rng.random() < 0.5

    def art(label: str, red: bool, down: bool) -> np.ndarray:
        if down:
            if use_style_back:
                return style.back  # type: ignore[return-value]
            return _plain_back(back_rgb)
        if red and label in style.red:
            return style.red[label]
        return style.faces[label]

    gap = rng.uniform(0.0, 0.06)
    upside = False
    placed: list[Placed] = []
    two_rows = rng.random() < 0.3
    x, y = 0.0, 0.0
    melds = [(i, g) for i, g in enumerate(groups) if g.kind in ("chow", "pung", "kong", "concealed_kong")]
    for i, g in enumerate(groups):
        if g.kind != "concealed":
            continue
        row = [(t, art(t, r, False), False, r, False) for t, r in zip(g.tiles, g.red, strict=True)]
        ps, x = _row(row, x, y, gap, i, back_rgb, rng, upside)
        placed += ps
    win_i, win = next((i, g) for i, g in enumerate(groups) if g.kind == "win")
    win_apart = rng.uniform(0.35, 1.2)
    win_x = x + win_apart - gap
    ps, x = _row([(win.tiles[0], art(win.tiles[0], win.red[0], False), False, win.red[0], False)],
                 win_x, y, gap, win_i, back_rgb, rng, upside)
    placed += ps
    if two_rows:
        x, y = rng.uniform(-0.5, 2.0), -(TILE_H + rng.uniform(0.3, 1.2))
    else:
        x += rng.uniform(0.4, 1.2)
    for i, g in melds:
        row = []
        for k, t in enumerate(g.tiles):
            down = bool(g.backs[k]) if g.backs else False
            row.append((t if not down else "back", art(t, g.red[k], down), k == g.sideways, g.red[k] and not down,
                        down))
        ps, x = _row(row, x, y, gap * 0.5, i, back_rgb, rng, upside)
        placed += ps
        x += rng.uniform(0.2, 0.7)
    xs = [p.x for p in placed]
    ys = [p.y for p in placed]
    for i, g in enumerate(groups):
        if g.kind != "flowers":
            continue
        if rng.random() < 0.5:  # a little row above the hand
            fx, fy = rng.uniform(min(xs), max(xs) - 3), min(ys) - TILE_H - rng.uniform(0.4, 1.5)
        else:  # beside the hand
            fx, fy = max(xs) + rng.uniform(1.0, 2.0), min(ys)
        row = [(t, art(t, False, False), False, False, False) for t in g.tiles]
        ps, _ = _row(row, fx, fy, gap, i, back_rgb, rng, upside)
        placed += ps
    return placed


def layout_set(rng: np.random.Generator, style: Style) -> list[Placed]:
    """A tile set laid out to be photographed, as sets are shown for sale or sorted before a game: the whole set
    (four of each face, one of each flower), one family of it (a suit, the honours), or a random part, sorted by
    name, in a grid of touching or nearly touching tiles, the copies of a tile side by side or the set repeated in
    blocks, filled row by row or column by column."""
    full = [n for n in FACE_LABELS for _ in range(4)] + (list(FLOWER_LABELS) if style.has_flowers else [])
    kind = rng.random()
    if kind < 0.5:
        labels = full
    elif kind < 0.75:
        family = str(rng.choice(["m", "p", "s", "z"]))
        labels = [n for n in full if n[1] == family]
    else:
        pick = rng.choice(len(full), int(rng.integers(20, 101)), replace=False)
        labels = [full[i] for i in sorted(pick)]
    if rng.random() < 0.5:  # the set repeated in blocks: a tile's k-th copy in the k-th block
        copy = [labels[:k].count(n) for k, n in enumerate(labels)]
        labels = [n for _, _, n in sorted(zip(copy, map(NAMES.index, labels), labels, strict=True))]
    cols = int(min(len(labels), rng.integers(4, 19)))
    rows = -(-len(labels) // cols)
    by_column = rng.random() < 0.3
    gap_x, gap_y = rng.uniform(0.0, 0.08), rng.uniform(0.0, 0.15)
    back_rgb = tuple(int(c) for c in BACK_COLOURS[rng.integers(len(BACK_COLOURS))])
    red = rng.random() < 0.3  # one copy of each five red, where the style has red fives
    placed = []
    for k, label in enumerate(labels):
        r, c = (k % rows, k // rows) if by_column else divmod(k, cols)
        is_red = red and label in style.red and labels.index(label) == k
        art = style.red[label] if is_red else style.faces[label]
        placed.append(Placed(label, art, c * (TILE_W + gap_x), r * (TILE_H + gap_y), 0, float(rng.normal(0, 0.8)),
                             0, False, is_red, False, back_rgb))
    return placed


def _plain_back(rgb: tuple[int, int, int]) -> np.ndarray:
    img = np.empty((200, 150, 3), np.uint8)
    img[:] = rgb
    return img


def add_distractors(rng: np.random.Generator, style: Style, placed: list[Placed], group: int,
                    back_rgb: tuple[int, int, int]) -> list[Placed]:
    """Loose tiles around the hand: face up (labelled with their face) or face down (``back``)."""
    xs = [p.x for p in placed]
    ys = [p.y for p in placed]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    out: list[Placed] = []
    for _ in range(int(rng.integers(0, 6))):
        for _try in range(20):
            side = rng.choice(["above", "below", "left", "right"])
            if side == "above":
                x, y = rng.uniform(x0, x1), y0 - rng.uniform(0.8, 2)
            elif side == "below":
                x, y = rng.uniform(x0, x1), y1 + rng.uniform(0.8, 2)
            elif side == "left":
                x, y = x0 - rng.uniform(0.8, 3), rng.uniform(y0, y1)
            else:
                x, y = x1 + rng.uniform(0.8, 3), rng.uniform(y0, y1)
            if all(abs(x - p.x) > 1.6 or abs(y - p.y) > 1.9 for p in placed + out):
                break
        else:
            continue
        down = rng.random() < 0.35
        label = "back" if down else str(rng.choice(FACE_LABELS + (FLOWER_LABELS if style.has_flowers else ())))
        art = _plain_back(back_rgb) if down else style.faces[label]
        rot = int(rng.choice([0, 90, 180, 270]))
        out.append(Placed(label, art, x, y, rot, float(rng.uniform(-25, 25)), group, rot in (90, 270), False, down,
                          back_rgb))
    return out


def _tile_quad(p: Placed) -> np.ndarray:
    """Plane corners of the tile's top face, in face-image order (tl, tr, br, bl of the upright art)."""
    hw, hh = TILE_W / 2, TILE_H / 2
    corners = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
    a = math.radians(p.rot + p.jitter)
    c, s = math.cos(a), math.sin(a)
    rotm = np.array([[c, -s], [s, c]], np.float32)
    return corners @ rotm.T + np.array([p.x, p.y], np.float32)


def _face_rgba(face: np.ndarray, rng: np.random.Generator, tint: float) -> np.ndarray:
    h, w = face.shape[:2]
    img = face.astype(np.float32)
    # bevel: darken towards the rim, a faint highlight
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy))
    rim = np.clip(d / (0.06 * w), 0, 1)
    img *= (0.78 + 0.22 * rim)[..., None]
    img *= tint
    r = int(0.09 * w)
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return np.dstack([np.clip(img, 0, 255).astype(np.uint8), mask])


def render_scene(rng: np.random.Generator, style: Style, groups: list[Group], width: int, height: int,
                 distractors: bool = True, placed: list[Placed] | None = None) -> tuple[np.ndarray, list[dict], Camera]:
    """The photo of ``groups`` laid out as a hand (or of the tiles ``placed``, as given), its tiles' labels and boxes,
    and the camera."""
    placed = layout_scene(rng, style, groups) if placed is None else placed
    back_rgb = placed[0].back_rgb
    hand_quads = [_tile_quad(p) for p in placed]
    if distractors:
        placed += add_distractors(rng, style, placed, len(groups), back_rgb)
    quads = [_tile_quad(p) for p in placed]
    allp = np.concatenate(hand_quads)  # frame the hand; distractors may fall partly outside
    pad = 0.3
    extent = (float(allp[:, 0].min() - pad), float(allp[:, 1].min() - pad),
              float(allp[:, 0].max() + pad), float(allp[:, 1].max() + pad))
    cam = make_camera(rng, extent, width, height)
    img = table_texture(rng, height, width).astype(np.float32)

    # clutter: coins, sticks, dice, paper scraps (unlabelled)
    for _ in range(int(rng.integers(0, 7))):
        c = tuple(float(v) for v in rng.uniform(0, 255, 3))
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        sz = rng.uniform(0.01, 0.08) * max(width, height)
        kind = rng.integers(3)
        if kind == 0:
            cv2.circle(img, (int(cx), int(cy)), int(sz / 2), c, -1, cv2.LINE_AA)
        elif kind == 1:
            ang = rng.uniform(0, 180)
            box = cv2.boxPoints(((cx, cy), (sz * 3, sz * 0.15), ang))
            cv2.fillConvexPoly(img, box.astype(np.int32), c, cv2.LINE_AA)
        else:
            box = cv2.boxPoints(((cx, cy), (sz, sz * rng.uniform(0.5, 1.5)), rng.uniform(0, 90)))
            cv2.fillConvexPoly(img, box.astype(np.int32), c, cv2.LINE_AA)

    img_q = [_apply(cam.h, q) for q in quads]
    tile_px = float(np.median([np.linalg.norm(q[1] - q[0]) for q in img_q]))
    thick = tile_px * rng.uniform(0.55, 0.8) * (math.sin(math.radians(cam.tilt)) + rng.uniform(0.08, 0.25))
    tvec = cam.toward_viewer * thick

    # soft shadows: one layer, blurred once
    shadow = np.zeros((height, width), np.float32)
    sdir = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)], np.float32) * tile_px * rng.uniform(0.05, 0.3)
    for q in img_q:
        poly = np.concatenate([q, q + tvec]) + sdir
        hull = cv2.convexHull(poly.astype(np.float32))
        cv2.fillConvexPoly(shadow, hull.astype(np.int32), 1.0, cv2.LINE_AA)
    k = int(tile_px * rng.uniform(0.15, 0.5)) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0)
    img *= (1 - rng.uniform(0.25, 0.55) * shadow)[..., None]

    # draw from far to near (far = smaller coordinate along toward_viewer)
    order = np.argsort([float(q.mean(0) @ cam.toward_viewer) for q in img_q])
    ivory = np.array([rng.uniform(225, 250), rng.uniform(220, 245), rng.uniform(200, 235)], np.float32)
    layer = rng.uniform(0.35, 0.65)
    tiles_out: list[dict | None] = [None] * len(placed)
    for i in order:
        p, q = placed[i], img_q[i]
        # the side band: face layer (ivory) then back layer (colour), toward the viewer
        front = [j for j in range(4) if float((q[j] - q.mean(0)) @ cam.toward_viewer) > 0]
        if len(front) < 2:
            front = list(np.argsort([-float((q[j] - q.mean(0)) @ cam.toward_viewer) for j in range(4)])[:2])
        hull_pts = np.concatenate([q, q + tvec])
        body = cv2.convexHull(hull_pts)
        col_back = np.array(p.back_rgb, np.float32) * 0.85
        cv2.fillConvexPoly(img, body.astype(np.int32), col_back.tolist(), cv2.LINE_AA)
        upper = cv2.convexHull(np.concatenate([q, q + tvec * (layer if not p.face_down else 1 - layer)]))
        up_col = (ivory * 0.82) if not p.face_down else col_back * 0.9
        cv2.fillConvexPoly(img, upper.astype(np.int32), up_col.tolist(), cv2.LINE_AA)
        if p.face_down:
            # a face-down tile shows its back on top and the ivory layer below
            lower = cv2.convexHull(np.concatenate([q + tvec * (1 - layer), q + tvec]))
            cv2.fillConvexPoly(img, lower.astype(np.int32), (ivory * 0.8).tolist(), cv2.LINE_AA)
        # the face
        tint = rng.uniform(0.88, 1.05)
        rgba = _face_rgba(p.face, rng, tint)
        fh, fw = rgba.shape[:2]
        x0, y0 = np.floor(q.min(0)).astype(int)
        x1, y1 = np.ceil(q.max(0)).astype(int) + 1
        x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x1c > x0c and y1c > y0c:
            src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
            m = cv2.getPerspectiveTransform(src, q - np.array([x0c, y0c], np.float32))
            warped = cv2.warpPerspective(rgba, m, (x1c - x0c, y1c - y0c), flags=cv2.INTER_AREA,
                                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
            a = warped[..., 3:4].astype(np.float32) / 255
            roi = img[y0c:y1c, x0c:x1c]
            roi[:] = roi * (1 - a) + warped[..., :3].astype(np.float32) * a
        poly = np.concatenate([q, q + tvec])
        bx0, by0 = poly.min(0)
        bx1, by1 = poly.max(0)
        full = (bx1 - bx0) * (by1 - by0)
        cb = [max(bx0, 0), max(by0, 0), min(bx1, width), min(by1, height)]
        vis = max(0.0, cb[2] - cb[0]) * max(0.0, cb[3] - cb[1]) / max(full, 1e-6)
        # up direction of the art in the image (degrees, 0 = up, clockwise)
        top = (q[0] + q[1]) / 2 - (q[2] + q[3]) / 2
        up = (math.degrees(math.atan2(top[0], -top[1]))) % 360
        tiles_out[i] = {"label": p.label, "box": [round(float(v), 1) for v in cb], "sideways": bool(p.sideways),
                        "group": p.group, "red": p.red, "up_angle": round(float(up), 1),
                        "visible": round(float(vis), 3),
                        "quad": [[round(float(a), 1), round(float(b), 1)] for a, b in q]}

    # glare, light falloff, colour cast
    yy, xx = np.mgrid[0:height:8, 0:width:8].astype(np.float32)
    light = 1 + rng.uniform(-0.25, 0.15) * ((xx / width - rng.random()) ** 2 + (yy / height - rng.random()) ** 2)
    if rng.random() < 0.5:
        gx, gy, gr = rng.random() * width, rng.random() * height, rng.uniform(0.05, 0.3) * max(width, height)
        light += rng.uniform(0.2, 0.8) * np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gr * gr)))
    light = cv2.resize(light, (width, height), interpolation=cv2.INTER_LINEAR)
    cast = rng.uniform(0.9, 1.1, 3).astype(np.float32)
    img = img * light[..., None] * cast
    # blur, noise
    if rng.random() < 0.5:
        k = int(rng.integers(1, 3)) * 2 + 1
        img = cv2.GaussianBlur(img, (k, k), 0)
    elif rng.random() < 0.3:
        k = int(rng.integers(3, 9))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1 / k
        rotm = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        kern = cv2.warpAffine(kern, rotm, (k, k))
        img = cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))
    img += rng.normal(0, rng.uniform(1, 8), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    return out, [t for t in tiles_out if t is not None], cam


# ------------------------------------------------------------------------------------------------------ writer ----
@dataclass(frozen=True)
class SceneSpec:
    index: int
    seed: int
    split: str
    min_mp: float
    max_mp: float
    flowers: tuple[float, int] = FLOWERS
    sets: float = 0.0  # the share of scenes that are a tile set laid out in a grid (``layout_set``), not a hand


def make_scene(spec: SceneSpec, styles: list[Style]) -> tuple[bytes, list[str], dict]:
    """Render one scene: JPEG bytes, YOLO label lines, and the sidecar layout dict."""
    rng = np.random.default_rng([spec.seed, spec.index])
    style = styles[int(rng.integers(len(styles)))]
    # drawn apart, so that the hands of a dataset without sets are what they were
    a_set = spec.sets > 0 and np.random.default_rng([spec.seed, spec.index, 17]).random() < spec.sets
    if a_set:
        placed = layout_set(rng, style)
        groups, hand = [Group("set", [p.label for p in placed])], None
    else:
        placed, (groups, hand) = None, random_hand(rng, style.has_flowers, spec.flowers)
    mp = rng.uniform(spec.min_mp, spec.max_mp) * 1e6
    aspect = float(rng.choice([4 / 3, 3 / 4, 16 / 9, 9 / 16, 1.0], p=[0.35, 0.35, 0.1, 0.1, 0.1]))
    w = int(math.sqrt(mp * aspect))
    h = int(mp / w)
    img, tiles, cam = render_scene(rng, style, groups, w, h, distractors=not a_set, placed=placed)
    quality = int(rng.integers(45, 96))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        msg = "JPEG encoding failed"
        raise RuntimeError(msg)
    lines = []
    for t in tiles:
        if t["visible"] < 0.6:
            continue  # mostly out of frame: not labelled (the image shows too little of it)
        x0, y0, x1, y1 = t["box"]
        lines.append(f"{CLASS_ID[t['label']]} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
                     f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
    group_list = [{"id": i, "kind": g.kind, "tiles": g.tiles, "backs": g.backs, "red": g.red,
                   "sideways_index": g.sideways} for i, g in enumerate(groups)]
    group_list.append({"id": len(groups), "kind": "distractor"})
    layout = {"image": {"width": w, "height": h}, "style": style.name, "seed": spec.seed, "index": spec.index,
              "hand": hand, "groups": group_list, "tiles": tiles, "jpeg_quality": quality,
              "camera": {"tilt": round(cam.tilt, 2), "rotation": round(cam.rotation, 2)}}
    if style.marks:
        layout["marks"] = style.marks  # the style's index marks, where known (fetch_art.set_marks)
    return buf.tobytes(), lines, layout


def real_photo_files(root: Path, holdout: bool = False) -> list[tuple[str, Path]]:
    """(tile name, file) of the camerash single-tile photos of the training part, or with ``holdout`` of the
    held-out part, in the order of the labels' table."""
    import csv

    out = []
    with (root / "tiles-data" / "data.csv").open(newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            label = CAMERASH.get(row["label-name"].strip())
            path = root / "tiles-resized" / row["image-name"]
            if label is not None and real_holdout(row["image-name"]) == holdout and path.exists():
                out.append((label, path))
    return out


def real_photos(root: Path, holdout: bool = False) -> list[tuple[str, np.ndarray]]:
    """The camerash photos of ``real_photo_files`` decoded (RGB, as taken: a close-up of one face)."""
    out = []
    for label, path in real_photo_files(root, holdout):
        img = cv2.imread(str(path))
        if img is not None:
            out.append((label, cv2.cvtColor(img, cv2.COLOR_BGR2RGB)))
    return out


def make_flat_scene(spec: SceneSpec, photos: list[tuple[str, np.ndarray]]) -> tuple[bytes, list[str], dict]:
    """A scene of real tile photos laid flat, seen from straight above: 1 to 14 of them, in a row or scattered, on
    a table, each a quarter turn one way or another. Teaches the finder tiles that show only their face (a close-up
    photo has no sides and hardly an edge); the classifier's real crops come from the same photos."""
    rng = np.random.default_rng([spec.seed, spec.index, 7])
    img = _flat_table(spec, rng)
    h, w = img.shape[:2]
    n = int(rng.integers(1, 15))
    th = int(min(h, w) * rng.uniform(0.06, 0.22))  # tile height, pixels
    row = rng.random() < 0.6
    turn = int(rng.integers(4))
    tiles, boxes = [], []
    x = float(rng.uniform(0.02, 0.2)) * w
    y = float(rng.uniform(0.1, 0.8)) * h
    for _ in range(n):
        label, photo = photos[int(rng.integers(len(photos)))]
        tw = max(4, round(th * photo.shape[1] / photo.shape[0]))
        k = turn if row else int(rng.integers(4))
        face = np.ascontiguousarray(np.rot90(cv2.resize(photo, (tw, th), interpolation=cv2.INTER_AREA), -k))
        fh, fw = face.shape[:2]
        if not row:
            x, y = float(rng.uniform(0, w - fw)), float(rng.uniform(0, h - fh))
        x0, y0 = int(x), int(y)
        if x0 + fw > w or y0 + fh > h or any(_overlap((x0, y0, x0 + fw, y0 + fh), b) for b in boxes):
            continue
        img[y0:y0 + fh, x0:x0 + fw] = face
        boxes.append((x0, y0, x0 + fw, y0 + fh))
        tiles.append({"label": label, "box": [float(v) for v in boxes[-1]], "sideways": False, "group": 0,
                      "red": False, "up_angle": 90.0 * k, "visible": 1.0})
        if row:
            x += fw + rng.uniform(0, 0.15) * fw
    return _flat_photo(img, tiles, spec, rng, "flat_real")


def make_closeup_scene(spec: SceneSpec, photos: list[tuple[str, np.ndarray]]) -> tuple[bytes, list[str], dict]:
    """Real tile photos laid flat and seen close: a grid of 1 to 4 by 1 to 4 faces, each 25% to 90% of the photo's
    short side tall, touching or nearly, the grid anywhere, so that faces are cut by the photo's edge (those showing
    less than 60% of themselves are not labelled, as in the hands). Teaches the finder whole tiles where a tile fills
    much of the photo (a close-up of one tile, a few tiles side by side), which it boxed in parts."""
    rng = np.random.default_rng([spec.seed, spec.index, 11])
    img = _flat_table(spec, rng)
    h, w = img.shape[:2]
    th = int(min(h, w) * rng.uniform(0.25, 0.9))
    tw = int(th * rng.uniform(0.7, 0.8))
    turn = int(rng.integers(4))
    fh, fw = (th, tw) if turn % 2 == 0 else (tw, th)
    gap = rng.uniform(0.0, 0.04) * fw
    rows, cols = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    gx = rng.uniform(-0.4 * fw, max(w - cols * (fw + gap), -0.4 * fw + 1))
    gy = rng.uniform(-0.4 * fh, max(h - rows * (fh + gap), -0.4 * fh + 1))
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x0, y0 = int(gx + c * (fw + gap)), int(gy + r * (fh + gap))
            cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x0 + fw, w), min(y0 + fh, h)
            if cx1 <= cx0 or cy1 <= cy0:
                continue
            label, photo = photos[int(rng.integers(len(photos)))]
            face = np.rot90(cv2.resize(photo, (tw, th), interpolation=cv2.INTER_AREA), -turn)
            img[cy0:cy1, cx0:cx1] = face[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
            visible = (cx1 - cx0) * (cy1 - cy0) / (fw * fh)
            tiles.append({"label": label, "box": [float(cx0), float(cy0), float(cx1), float(cy1)], "sideways": False,
                          "group": 0, "red": False, "up_angle": 90.0 * turn, "visible": round(visible, 3)})
    return _flat_photo(img, tiles, spec, rng, "closeup_real")


def _flat_table(spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """The bare table of a scene of faces laid flat: ``spec``'s megapixels, 4:3, 3:4 or square, a procedural texture
    or a plain colour."""
    mp = rng.uniform(spec.min_mp, spec.max_mp) * 1e6
    aspect = float(rng.choice([4 / 3, 3 / 4, 1.0]))
    w = int(math.sqrt(mp * aspect))
    h = int(mp / w)
    return table_texture(rng, h, w) if rng.random() < 0.7 else np.full((h, w, 3), rng.integers(30, 220, 3), np.uint8)


def _flat_photo(img: np.ndarray, tiles: list[dict], spec: SceneSpec, rng: np.random.Generator,
                style: str) -> tuple[bytes, list[str], dict]:
    """A scene of faces laid flat, blurred or not, as a JPEG, its YOLO lines (tiles showing 60% of themselves or more)
    and its layout."""
    h, w = img.shape[:2]
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    quality = int(rng.integers(55, 96))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        msg = "JPEG encoding failed"
        raise RuntimeError(msg)
    lines = [f"{CLASS_ID[t['label']]} {(t['box'][0] + t['box'][2]) / 2 / w:.6f} "
             f"{(t['box'][1] + t['box'][3]) / 2 / h:.6f} {(t['box'][2] - t['box'][0]) / w:.6f} "
             f"{(t['box'][3] - t['box'][1]) / h:.6f}" for t in tiles if t["visible"] >= 0.6]
    layout = {"image": {"width": w, "height": h}, "style": style, "seed": spec.seed, "index": spec.index,
              "hand": None, "groups": [{"id": 0, "kind": "flat"}], "tiles": tiles, "jpeg_quality": quality}
    return buf.tobytes(), lines, layout


def _overlap(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def write_yaml(out: Path, splits: list[str]) -> Path:
    lines = [f"{s}: images/{s}" for s in splits]
    if "val" not in splits:
        lines.append(f"val: images/{splits[0]}")
    lines.append("names:")
    lines += [f"  {i}: '{n}'" for i, n in enumerate(NAMES)]
    path = out / "data.yaml"
    path.write_text("# written by datasets/synth.py; root = this folder (no path, no download)\n"
                    + "\n".join(lines) + "\n")
    return path


def _progress(done: int, total: int, t0: float) -> None:
    rate = done / max(time.time() - t0, 1e-6)
    bar = "#" * int(30 * done / total)
    sys.stderr.write(f"\r[{bar:<30}] {done}/{total} {rate:.2f} img/s")
    sys.stderr.flush()


def _work(args: tuple[SceneSpec, str, list[str] | None, list[str] | None, str]) -> int:
    spec, art, include, exclude, out = args
    if art.startswith(("flat:", "closeup:")):
        if art not in _PHOTO_CACHE:
            _PHOTO_CACHE[art] = real_photos(Path(art.split(":", 1)[1]))
        make = make_flat_scene if art.startswith("flat:") else make_closeup_scene
        jpg, lines, layout = make(spec, _PHOTO_CACHE[art])
    else:
        jpg, lines, layout = make_scene(spec, _styles_cached(art, tuple(include or ()), tuple(exclude or ())))
    o = Path(out)
    name = f"{spec.index:06d}"
    (o / "images" / spec.split / f"{name}.jpg").write_bytes(jpg)
    (o / "labels" / spec.split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    (o / "layout" / spec.split / f"{name}.json").write_text(json.dumps(layout, ensure_ascii=True))
    return len(lines)


_STYLE_CACHE: dict[tuple, list[Style]] = {}
_PHOTO_CACHE: dict[str, list[tuple[str, np.ndarray]]] = {}


def _styles_cached(art: str, include: tuple, exclude: tuple) -> list[Style]:
    key = (art, include, exclude)
    if art == "plain":
        return [plain_style()]
    if art.startswith("camerash:"):
        return camerash_styles(Path(art.split(":", 1)[1]))
    if key not in _STYLE_CACHE:
        _STYLE_CACHE[key] = load_styles(Path(art), list(include) or None, list(exclude) or None)
    return _STYLE_CACHE[key]


def generate(out: Path, counts: dict[str, int], seed: int, art: Path = DEFAULT_ART,
             include: list[str] | None = None, exclude: list[str] | None = None, min_mp: float = 3.0,
             max_mp: float = 12.0, workers: int = 1, progress: bool = True,
             flowers: tuple[float, int] = FLOWERS, sets: float = 0.0) -> Path:
    """Write the dataset and its data.yaml; returns the yaml path. Image indices run on across splits.
    ``flowers``: as ``random_hand``'s; ``sets``: the share of scenes that are tile sets laid out (``layout_set``)."""
    specs = []
    idx = 0
    for split, n in counts.items():
        for d in ("images", "labels", "layout"):
            (out / d / split).mkdir(parents=True, exist_ok=True)
        for _ in range(n):
            specs.append(SceneSpec(idx, seed, split, min_mp, max_mp, flowers, sets))
            idx += 1
    jobs = [(s, str(art), include, exclude, str(out)) for s in specs]
    t0 = time.time()
    done = 0
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            for _ in pool.imap_unordered(_work, jobs, chunksize=4):
                done += 1
                if progress:
                    _progress(done, len(jobs), t0)
    else:
        for j in jobs:
            _work(j)
            done += 1
            if progress:
                _progress(done, len(jobs), t0)
    if progress:
        sys.stderr.write(f"\n{done} images in {time.time() - t0:.1f} s "
                         f"({done / max(time.time() - t0, 1e-6):.2f} images/second)\n")
    return write_yaml(out, list(counts))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Synthetic revealed-hand photos in YOLO layout")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--train", type=int, default=1000)
    ap.add_argument("--val", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--art", type=Path, default=DEFAULT_ART,
                    help="a folder of faces (datasets/fetch_art.py), 'plain', 'camerash:ROOT' (real photos as the "
                         "faces of drawn tiles), 'flat:ROOT' (real photos laid flat, no hand) or 'closeup:ROOT' (the "
                         "same seen close, filling much of the photo)")
    ap.add_argument("--styles", nargs="*", help="only these styles (names or patterns: 'dr_*')")
    ap.add_argument("--exclude", nargs="*", default=list(HELD_OUT_STYLES),
                    help=f"leave these styles out (default: the held-out {HELD_OUT_STYLES})")
    ap.add_argument("--min-mp", type=float, default=3.0)
    ap.add_argument("--max-mp", type=float, default=12.0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--flowers", nargs=2, type=float, metavar=("SHARE", "MOST"), default=FLOWERS,
                    help=f"the share of hands that set flowers aside, and the most they set aside (default: "
                         f"{FLOWERS[0]} {FLOWERS[1]}; e.g. '1 8' for a flower-rich set)")
    ap.add_argument("--sets", type=float, default=0.0,
                    help="the share of scenes that are a tile set (whole, one family or a part) laid out in a grid of "
                         "touching tiles, as sets are photographed, instead of a hand (default 0)")
    args = ap.parse_args(argv)
    if not 0 <= args.sets <= 1:
        ap.error(f"--sets: a share, 0 to 1, got {args.sets:g}")
    share, most = args.flowers[0], int(args.flowers[1])
    if not (0 <= share <= 1 and most == args.flowers[1] and 1 <= most <= len(FLOWER_LABELS)):
        ap.error(f"--flowers: SHARE must be 0 to 1 and MOST a whole number 1 to {len(FLOWER_LABELS)}, "
                 f"got {args.flowers[0]:g} {args.flowers[1]:g}")
    counts = {k: v for k, v in (("train", args.train), ("val", args.val)) if v > 0}
    yaml = generate(args.out, counts, args.seed, args.art, args.styles, args.exclude or None, args.min_mp,
                    args.max_mp, args.workers, flowers=(share, most), sets=args.sets)
    print(f"wrote {yaml}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
