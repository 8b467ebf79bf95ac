"""One scene drawn: a table, a hand (or a tile set) laid out on it in a style, loose tiles and clutter, seen by a
phone camera (tilt, turn, perspective), with shadows, glare, blur and noise."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from training.hands import Group
from training.styles import Style
from vision.names import FACE_NAMES, FLOWER_NAMES, NAMES

BACK_COLOURS = [(40, 120, 60), (30, 90, 160), (220, 180, 40), (235, 235, 230), (200, 60, 40), (60, 160, 150),
                (110, 60, 150), (230, 120, 30), (20, 40, 90), (150, 200, 90), (240, 160, 180), (70, 70, 70)]


def set_back(style: Style) -> tuple[int, int, int]:
    """The colour of the backs of ``style`` as one physical set (``Style.one_back``): its back's where it draws one
    (``back.png``), else a colour of ``BACK_COLOURS`` chosen by its name."""
    if style.back is not None:
        return tuple(int(c) for c in style.back.reshape(-1, 3).mean(0))  # type: ignore[return-value]
    return BACK_COLOURS[zlib.crc32(style.name.encode()) % len(BACK_COLOURS)]


def throw_back(rng: np.random.Generator, style: Style) -> tuple[tuple[int, int, int], bool]:
    """A scene's back colour and whether its face-down tiles show the style's own back (``back.png``): thrown for
    each scene, half of them the style's own where it has one; for one set's photos (``Style.one_back``) always the
    set's (the throw still drawn, so that a scene is otherwise what it was)."""
    rgb = tuple(int(c) for c in BACK_COLOURS[rng.integers(len(BACK_COLOURS))])
    own = style.back is not None and rng.random() < 0.5
    if style.one_back:
        return set_back(style), style.back is not None
    return rgb, own  # type: ignore[return-value]


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


# (tilt from straight down, degrees; distance in tenths of the scene's size): a phone held over the tiles, or a
# player's from their seat, lower and nearer, so that the far tiles are smaller and show more of their sides
VIEWS = {"phone": ((0.0, 30.0), (8.0, 14.0)), "seated": ((30.0, 55.0), (3.0, 6.0))}


def make_camera(rng: np.random.Generator, extent: tuple[float, float, float, float], w: int, h: int,
                view: str = "phone") -> Camera:
    """A homography that puts the plane box ``extent`` (x0, y0, x1, y1) into view, tilted and rotated, from one of
    the ``VIEWS``."""
    x0, y0, x1, y1 = extent
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    tilts, dists = VIEWS[view]
    tilt = math.radians(rng.uniform(*tilts))
    r = rng.random()
    rot = rng.normal(0, 6) if r < 0.45 else (rng.choice([90, 180, 270]) + rng.normal(0, 6) if r < 0.75
                                            else rng.uniform(0, 360))
    rot = math.radians(rot)
    dist = rng.uniform(*dists) * max(x1 - x0, (y1 - y0) * 1.5) / 10

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


def layout_scene(rng: np.random.Generator, style: Style, groups: list[Group], apart: bool = True) -> list[Placed]:
    """The hand's tiles on the table: the concealed row, the winning tile set apart after it (or, not ``apart``,
    touching it as one more concealed tile), the melds beyond it or in a row above, flowers aside."""
    back_rgb, use_style_back = throw_back(rng, style)

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
    drawn = rng.uniform(0.35, 1.2)  # drawn either way, so that the rest of the scene is the same
    win_x = x + (drawn if apart else gap) - gap
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
    full = [n for n in FACE_NAMES for _ in range(4)] + (list(FLOWER_NAMES) if style.has_flowers else [])
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
    back_rgb = set_back(style) if style.one_back else back_rgb
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
        label = "back" if down else str(rng.choice(FACE_NAMES + (FLOWER_NAMES if style.has_flowers else ())))
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
                 distractors: bool = True, placed: list[Placed] | None = None,
                 frame: int | None = None, apart: bool = True, view: str = "phone"
                 ) -> tuple[np.ndarray, list[dict], Camera]:
    """The photo of ``groups`` laid out as a hand (or of the tiles ``placed``, as given), its tiles' labels and boxes,
    and the camera (``view``: one of ``VIEWS``); the photo frames the first ``frame`` tiles placed (default all), the
    others may fall outside; ``apart``: as ``layout_scene``'s."""
    placed = layout_scene(rng, style, groups, apart) if placed is None else placed
    back_rgb = placed[0].back_rgb
    hand_quads = [_tile_quad(p) for p in placed[:frame]]
    if distractors:
        placed += add_distractors(rng, style, placed, len(groups), back_rgb)
    quads = [_tile_quad(p) for p in placed]
    allp = np.concatenate(hand_quads)  # frame the hand; distractors may fall partly outside
    pad = 0.3
    extent = (float(allp[:, 0].min() - pad), float(allp[:, 1].min() - pad),
              float(allp[:, 0].max() + pad), float(allp[:, 1].max() + pad))
    cam = make_camera(rng, extent, width, height, view)
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
