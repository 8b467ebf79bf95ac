"""A hand of tiles standing on their edges, shot low and from the side: a pinhole camera looking at 3-D tile
blocks, so that near tiles are bigger than far ones, the row's tiles grow along it and overlap in the picture,
and a row laid in a curve bends.

The world: x along the hand's row, y away from the player, z up, in tile widths. A standing tile is a block 1 wide,
``TILE_H`` tall and ``DEPTH`` thick, its face toward the player (-y); the tiles of a meld lie flat, face up, in front
of the row (a sideways tile turned a quarter). The camera stands in front of the hand, off to one side
(``azimuth``), a little above the table (``elevation``), and looks at the hand's middle. Each block is drawn far to
near as its face layer (ivory, the art on its face) and its back layer (the set's colour); a tile's box is the
extent of its pixels left visible, its ``visible`` share that of its whole projected block.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from training.hands import Group
from training.scene import TILE_H, _face_rgba, table_texture, throw_back
from training.styles import Style

DEPTH = 0.72  # a tile's thickness, in tile widths
FACE_LAYER = 0.6  # the ivory face layer's share of the thickness; the rest is the coloured back


@dataclass(frozen=True)
class LowCamera:
    """Where the low camera stands: ``azimuth`` degrees off the row's normal (positive: to the right of the
    hand), ``elevation`` degrees above the table, ``distance`` from the hand's middle in tile widths, ``fov`` the
    horizontal field of view in degrees, ``roll`` the photo's turn in degrees."""

    azimuth: float
    elevation: float
    distance: float
    fov: float
    roll: float


@dataclass
class Block:
    """One tile as a 3-D block: its 8 corners (face quad tl, tr, br, bl, then the same pushed back by the
    thickness), the art on its face, the tile's label and flags."""

    corners: np.ndarray  # (8, 3)
    label: str
    art: np.ndarray
    group: int
    sideways: bool
    face_down: bool
    back_rgb: tuple[int, int, int]


def _standing(x: float, y: float, yaw: float, lean: float) -> np.ndarray:
    """A standing tile's corners: its face's bottom middle at (x, y), turned by ``yaw`` about z, leaning back by
    ``lean`` (radians)."""
    hw = 0.5
    face = np.array([[-hw, 0, TILE_H], [hw, 0, TILE_H], [hw, 0, 0], [-hw, 0, 0]], float)
    back = face + [0, DEPTH, 0]
    pts = np.concatenate([face, back])
    # lean back: rotate about the x axis through the bottom front edge
    c, s = math.cos(lean), math.sin(lean)
    pts = pts @ np.array([[1, 0, 0], [0, c, s], [0, -s, c]]).T
    c, s = math.cos(yaw), math.sin(yaw)
    pts = pts @ np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]).T
    return pts + [x, y, 0]


def _lying(x: float, y: float, sideways: bool) -> np.ndarray:
    """A tile lying face up, its face's middle at (x, y), its art's top away from the player (or to the left when
    sideways)."""
    w, h = (TILE_H, 1.0) if sideways else (1.0, TILE_H)
    if sideways:  # art's top to the left (-x): corners tl, tr, br, bl of the art
        face = np.array([[-w / 2, -h / 2], [-w / 2, h / 2], [w / 2, h / 2], [w / 2, -h / 2]], float)
    else:
        face = np.array([[-w / 2, h / 2], [w / 2, h / 2], [w / 2, -h / 2], [-w / 2, -h / 2]], float)
    top = np.column_stack([face + [x, y], np.full(4, DEPTH)])
    bottom = top - [0, 0, DEPTH]
    return np.concatenate([top, bottom])


def lay_out(rng: np.random.Generator, style: Style, groups: list[Group], apart: bool = True) -> list[Block]:
    """The hand's blocks: concealed tiles standing in a row (straight or in a gentle curve, leaning back a little),
    the winning tile standing set apart at its end (not ``apart``: touching it), melds lying face up in front of the
    row (or standing beside it), flowers lying beside the row's end or, when the melds stand, in a row in front of
    the hand."""
    back_rgb, use_style_back = throw_back(rng, style)

    def art(label: str, red: bool, down: bool) -> np.ndarray:
        if down:
            return style.back if use_style_back else np.full((200, 150, 3), back_rgb, np.uint8)  # type: ignore
        return style.red[label] if red and label in style.red else style.faces[label]

    gap = rng.uniform(0.0, 0.04)
    lean = math.radians(rng.uniform(0, 14))
    bend = rng.uniform(0.0, 0.035) if rng.random() < 0.6 else 0.0  # curvature: 1 / radius, in 1 / tile widths
    conc = next(g for g in groups if g.kind == "concealed")
    win_i, win = next((i, g) for i, g in enumerate(groups) if g.kind == "win")
    standing: list[tuple[str, np.ndarray, int, float]] = []  # label, art, group, x along the row
    x = 0.0
    for i, g in enumerate(groups):
        if g is conc:
            for t, r in zip(g.tiles, g.red, strict=True):
                standing.append((t, art(t, r, False), i, x + 0.5))
                x += 1 + gap
    drawn = rng.uniform(0.35, 1.0)  # drawn either way, so that the rest of the scene is the same
    x += drawn if apart else gap
    standing.append((win.tiles[0], art(win.tiles[0], win.red[0], False), win_i, x + 0.5))
    x += 1 + gap
    melds = [(i, g) for i, g in enumerate(groups) if g.kind in ("chow", "pung", "kong", "concealed_kong")]
    melds_standing = rng.random() < 0.35
    mid = x / 2
    blocks: list[Block] = []

    def on_arc(u: float) -> tuple[float, float, float]:
        """The point of the curved row at arc length ``u`` from its middle, and its direction (radians)."""
        if bend == 0:
            return u, 0.0, 0.0
        a = (u - mid) * bend
        r = 1 / bend
        return mid + r * math.sin(a), r * (1 - math.cos(a)), a

    for label, a, g, u in standing:
        px, py, yaw = on_arc(u)
        blocks.append(Block(_standing(px, py, yaw, lean), label, a, g, False, False, back_rgb))
    if melds_standing:  # the melds standing on in the row, a sideways tile lying on its long edge
        x += rng.uniform(0.4, 1.0)
        for i, g in melds:
            for k, t in enumerate(g.tiles):
                down = bool(g.backs[k]) if g.backs else False
                px, py, yaw = on_arc(x + 0.5)
                blocks.append(Block(_standing(px, py, yaw, lean), "back" if down else t,
                                    art(t, g.red[k], down), i, False, down, back_rgb))
                x += 1 + gap * 0.5
            x += rng.uniform(0.25, 0.7)
    else:  # the melds lying face up in front of the row, from its right end leftwards
        mx = x + rng.uniform(-3.0, 0.5)
        my = -(TILE_H / 2 + rng.uniform(0.6, 1.6))
        for i, g in reversed(melds):
            for k, t in reversed(list(enumerate(g.tiles))):
                down = bool(g.backs[k]) if g.backs else False
                side = k == g.sideways and not down
                w = TILE_H if side else 1.0
                dy = -(TILE_H - 1.0) / 2 if side else 0.0  # sideways tiles sit on the meld row's near line
                blocks.append(Block(_lying(mx - w / 2, my + dy, side), "back" if down else t,
                                    art(t, g.red[k], down), i, side, down, back_rgb))
                mx -= w + gap * 0.5
            mx -= rng.uniform(0.25, 0.7)
    for i, g in enumerate(groups):
        if g.kind != "flowers":
            continue
        if rng.random() < 0.5 or not melds_standing:  # lying beside the row's end
            fx, fy = x + rng.uniform(0.8, 1.6), -TILE_H / 2 - rng.uniform(0.0, 0.4)
        else:  # a row lying in front of the hand, within its span
            fx, fy = rng.uniform(0.0, max(0.5, x - 4.0)), -(TILE_H / 2 + rng.uniform(0.6, 1.4))
        for t in g.tiles:
            blocks.append(Block(_lying(fx + 0.5, fy, False), t, art(t, False, False), i, False, False, back_rgb))
            fx += 1 + gap
    return blocks


# where the camera stands, by kind: degrees off the row's normal (azimuth) and above the table (elevation). "low":
# low and off to one side, so that the near end of the row looks up to twice as big as the far end; "front": nearly
# in front of the hand and a little above it, as a player photographs the hand standing before them
CAMERAS = {"low": ((20.0, 65.0), (6.0, 28.0)), "front": ((0.0, 25.0), (12.0, 40.0))}


def place_camera(rng: np.random.Generator, blocks: list[Block], width: int, height: int,
                 azimuth: tuple[float, float] = CAMERAS["low"][0],
                 elevation: tuple[float, float] = CAMERAS["low"][1]) -> LowCamera:
    """A camera looking at the standing hand from ``azimuth`` and ``elevation`` (ranges, degrees), close enough
    that the hand fills most of the photo."""
    span = float(np.ptp(np.concatenate([b.corners for b in blocks])[:, 0]))
    side = 1 if rng.random() < 0.5 else -1
    return LowCamera(side * rng.uniform(*azimuth), rng.uniform(*elevation), span * rng.uniform(0.7, 1.2),
                     rng.uniform(55, 70), rng.normal(0, 4))


@dataclass(frozen=True)
class _View:
    rot: np.ndarray  # world -> camera (x right, y down, z forward)
    pos: np.ndarray
    f: float
    centre: np.ndarray

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Image points and depths of world points."""
        c = (pts - self.pos) @ self.rot.T
        z = np.maximum(c[:, 2], 1e-3)
        return c[:, :2] * self.f / z[:, None] + self.centre, c[:, 2]


def _view(cam: LowCamera, target: np.ndarray, width: int, height: int) -> _View:
    az, el = math.radians(cam.azimuth), math.radians(cam.elevation)
    pos = target + cam.distance * np.array([math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)])
    fwd = target - pos
    fwd /= np.linalg.norm(fwd)
    right = np.cross(fwd, [0, 0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    r = math.radians(cam.roll)
    right, down = math.cos(r) * right + math.sin(r) * down, -math.sin(r) * right + math.cos(r) * down
    f = width / 2 / math.tan(math.radians(cam.fov) / 2)
    return _View(np.stack([right, down, fwd]), pos, f, np.array([width / 2, height / 2]))


# the faces of a block, as corner indices in the order that makes each quad's image outline: front (the face), back,
# top, bottom, left, right
_FACES = ((0, 1, 2, 3), (5, 4, 7, 6), (4, 5, 1, 0), (3, 2, 6, 7), (4, 0, 3, 7), (1, 5, 6, 2))


def render_standing(rng: np.random.Generator, style: Style, groups: list[Group], width: int, height: int,
                    apart: bool = True, camera: str = "low") -> tuple[np.ndarray, list[dict], LowCamera]:
    """The photo of ``groups`` standing as a hand, seen by a ``camera`` of ``CAMERAS``: the RGB image, each tile's
    label, box (its visible pixels), flags and visible share, and the camera."""
    blocks = lay_out(rng, style, groups, apart)
    cam = place_camera(rng, blocks, width, height, *CAMERAS[camera])
    allc = np.concatenate([b.corners for b in blocks])
    target = (allc.min(0) + allc.max(0)) / 2 * [1, 1, 0] + [0, 0, TILE_H * 0.4]
    view = _view(cam, target, width, height)
    # fit the hand into the photo: scale the focal length, then move the image centre
    img_pts, _ = view.project(allc)
    lo, hi = img_pts.min(0), img_pts.max(0)
    k = rng.uniform(0.7, 0.92) * min(width / (hi[0] - lo[0]), height / (hi[1] - lo[1]))
    view = _View(view.rot, view.pos, view.f * k, view.centre)
    img_pts, _ = view.project(allc)
    lo, hi = img_pts.min(0), img_pts.max(0)
    free = np.maximum(np.array([width, height]) - (hi - lo), 0)
    shift = np.array([width / 2, height / 2]) - (lo + hi) / 2 + rng.uniform(-0.5, 0.5, 2) * free
    view = _View(view.rot, view.pos, view.f, view.centre + shift)

    img = _table(rng, view, allc, width, height)
    ids = np.zeros((height, width), np.int32)
    ivory = np.array([rng.uniform(225, 250), rng.uniform(220, 245), rng.uniform(200, 235)], np.float32)
    light = np.array([rng.uniform(-0.4, 0.4), -1.0, rng.uniform(1.0, 2.0)])
    light /= np.linalg.norm(light)
    depth = [float(view.project(b.corners.mean(0, keepdims=True))[1][0]) for b in blocks]
    for i in np.argsort(depth)[::-1]:  # far to near
        _draw_block(img, ids, blocks[int(i)], view, ivory, light, rng, int(i))
    tiles: list[dict] = []
    for i, b in enumerate(blocks):
        ys, xs = np.nonzero((ids == 2 * i + 1) | (ids == 2 * i + 2))
        face, _ = view.project(b.corners[:4])
        face_area = float(cv2.contourArea(face.astype(np.float32)))
        top = (face[0] + face[1]) / 2 - (face[2] + face[3]) / 2
        up = math.degrees(math.atan2(top[0], -top[1])) % 360
        if len(xs) == 0:
            box, visible = [0.0, 0.0, 0.0, 0.0], 0.0
        else:
            box = [float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)]
            visible = min(1.0, int((ids == 2 * i + 1).sum()) / max(face_area, 1.0))
        tiles.append({"label": b.label, "box": [round(v, 1) for v in box], "sideways": b.sideways,
                      "group": b.group, "red": False, "up_angle": round(up, 1), "visible": round(visible, 3),
                      "quad": [[round(float(p), 1) for p in q] for q in face],
                      "stands": bool(np.ptp(b.corners[:4, 2]) > 0.5)})  # its face upright, not lying on the table
    img = _finish(rng, img, width, height)
    return img, tiles, cam


def _table(rng: np.random.Generator, view: _View, allc: np.ndarray, width: int, height: int) -> np.ndarray:
    """The table under the hand seen in perspective, a wall or room colour beyond it."""
    wall = rng.uniform(40, 200, 3).astype(np.float32)
    img = np.empty((height, width, 3), np.float32)
    img[:] = wall * np.linspace(0.8, 1.05, height, dtype=np.float32)[:, None, None]
    lo, hi = allc.min(0), allc.max(0)
    for margin in (8.0, 5.0, 3.0, 2.0, 1.0, 0.5):  # as wide a table as lies wholly in front of the camera
        x0, x1, y0, y1 = lo[0] - margin, hi[0] + margin, lo[1] - margin, hi[1] + margin * 1.5
        corners = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], float)
        pts, z = view.project(corners)
        if (z > 0.3).all():
            break
    else:
        return img
    side = 1024
    tex = table_texture(rng, side, side).astype(np.float32)
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32),
                                    pts.astype(np.float32))
    warped = cv2.warpPerspective(tex, m, (width, height), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones((side, side), np.float32), m, (width, height))
    img = img * (1 - mask[..., None]) + warped * mask[..., None]
    return img


def _draw_block(img: np.ndarray, ids: np.ndarray, b: Block, view: _View, ivory: np.ndarray, light: np.ndarray,
                rng: np.random.Generator, k: int) -> None:
    """Draw block ``k`` (the layer further from the camera first, the art on its face) into ``img``, and into
    ``ids`` 2k + 1 where its face shows, 2k + 2 where its other sides do."""
    c = b.corners
    split = c[:4] + (c[4:] - c[:4]) * FACE_LAYER  # where the face layer meets the back layer
    face_layer = np.concatenate([c[:4], split])
    back_layer = np.concatenate([split, c[4:]])
    colour = np.array(b.back_rgb, np.float32) * 0.9
    front_col = colour if b.face_down else ivory * 0.9
    back_col = ivory * 0.9 if b.face_down else colour
    # the layer further from the camera first
    dist_face = float(np.linalg.norm(face_layer.mean(0) - view.pos))
    dist_back = float(np.linalg.norm(back_layer.mean(0) - view.pos))
    layers = [(face_layer, front_col, True), (back_layer, back_col, False)]
    if dist_face < dist_back:
        layers = layers[::-1]
    for corners, col, has_face in layers:
        for f, quad in enumerate(_FACES):
            q3 = corners[list(quad)]
            normal = np.cross(q3[3] - q3[0], q3[1] - q3[0])  # outward
            normal /= np.linalg.norm(normal) + 1e-12
            if float(normal @ (view.pos - q3.mean(0))) <= 0:
                continue  # facing away
            q2, _ = view.project(q3)
            shade = 0.75 + 0.3 * max(0.0, float(normal @ light))
            poly = q2.astype(np.float32)
            if f == 0 and has_face:
                _draw_art(img, b.art if not b.face_down else np.full((200, 150, 3), b.back_rgb, np.uint8), poly,
                          rng, shade)
            else:
                cv2.fillConvexPoly(img, np.round(poly).astype(np.int32), (col * shade).tolist(), cv2.LINE_AA)
            cv2.fillConvexPoly(ids, np.round(poly).astype(np.int32), 2 * k + (1 if f == 0 and has_face else 2))


def _draw_art(img: np.ndarray, art: np.ndarray, quad: np.ndarray, rng: np.random.Generator, shade: float) -> None:
    h, w = img.shape[:2]
    rgba = _face_rgba(art, rng, shade * rng.uniform(0.9, 1.02))
    fh, fw = rgba.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1c <= x0c or y1c <= y0c:
        return
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - np.array([x0c, y0c], np.float32)).astype(np.float32))
    warped = cv2.warpPerspective(rgba, m, (x1c - x0c, y1c - y0c), flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[..., 3:4].astype(np.float32) / 255
    roi = img[y0c:y1c, x0c:x1c]
    # under the rounded corners the tile's ivory shows, not the table
    base = np.array([232, 228, 215], np.float32) * shade
    inside = cv2.warpPerspective(np.full((fh, fw), 1.0, np.float32), m, (x1c - x0c, y1c - y0c))[..., None]
    roi[:] = roi * (1 - inside) + (base * (1 - a) + warped[..., :3].astype(np.float32) * a) * inside


def _finish(rng: np.random.Generator, img: np.ndarray, width: int, height: int) -> np.ndarray:
    """Light falloff, a colour cast, a little blur and noise."""
    yy, xx = np.mgrid[0:height:8, 0:width:8].astype(np.float32)
    light = 1 + rng.uniform(-0.25, 0.1) * ((xx / width - rng.random()) ** 2 + (yy / height - rng.random()) ** 2)
    light = cv2.resize(light, (width, height), interpolation=cv2.INTER_LINEAR)
    img = img * light[..., None] * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (3, 3), 0)
    img += rng.normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)
