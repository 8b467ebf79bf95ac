"""Plant pictures drawn here, as Taiwanese and Hong Kong sets paint them on their flowers and seasons: a plum branch in
blossom, an orchid's arching leaves, a chrysanthemum's many-petalled bloom, bamboo stalks and leaves, any of them in a
pot. ``training/drawn_art.py`` draws them on the picture flowers of its ``hk_`` styles, beside the flower's character
and its seat numeral.

Each picture is one seeded throw (``Plant``: the kind, its colours and its shape's numbers), drawn into a box of a
face with PIL. A set paints each of the four flowers its own plant, and its seasons any plant, potted or not: the
picture tells a flower from a flower, but not a season from a flower (the character does).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import ImageDraw

from training.palette import pick

KINDS = ("plum", "orchid", "chrysanthemum", "bamboo")
FLOWER_PLANT = dict(zip(("5f", "6f", "7f", "8f"), KINDS, strict=True))  # 梅蘭菊竹: each flower's own plant

BARK = [(70, 40, 25), (40, 30, 30), (90, 55, 30), (30, 30, 30)]
LEAF = [(30, 120, 50), (20, 100, 60), (60, 140, 40), (10, 90, 40), (40, 110, 90)]
BLOSSOM = [(220, 40, 60), (235, 110, 140), (200, 30, 30), (240, 150, 170), (180, 40, 120), (230, 70, 40)]
PETAL = [(150, 60, 170), (90, 70, 190), (220, 50, 90), (200, 40, 40), (230, 120, 40), (60, 90, 200)]
MUM = [(240, 190, 30), (230, 120, 20), (210, 40, 40), (245, 210, 80), (200, 60, 140), (250, 240, 200)]
POT = [(40, 70, 160), (150, 80, 40), (180, 40, 40), (60, 110, 130), (120, 120, 120)]


@dataclass(frozen=True)
class Plant:
    """One picture's choices: ``kind`` (``KINDS``), ``potted``, its inks and a seed for its shape's numbers."""

    kind: str
    potted: bool
    leaf: tuple[int, int, int]
    bloom: tuple[int, int, int]
    stem: tuple[int, int, int]
    pot: tuple[int, int, int]
    shape: int  # seeds the shape: branches, leaves, petals, stalks


def throw_plant(rng: np.random.Generator, kind: str | None = None, potted: float = 0.3) -> Plant:
    """A picture's choices: of ``kind`` (any when None), in a pot with probability ``potted``."""
    kind = kind or pick(rng, KINDS)
    bloom = {"plum": BLOSSOM, "orchid": PETAL, "chrysanthemum": MUM, "bamboo": BLOSSOM}[kind]
    return Plant(kind, bool(rng.random() < potted), pick(rng, LEAF), pick(rng, bloom), pick(rng, BARK),
                 pick(rng, POT), int(rng.integers(1 << 30)))


def draw_plant(d: ImageDraw.ImageDraw, plant: Plant, box: tuple[float, float, float, float]) -> None:
    """``plant`` drawn into ``box`` (x0, y0, x1, y1) of the image ``d`` draws on."""
    x0, y0, x1, y1 = box
    rng = np.random.default_rng(plant.shape)
    if plant.potted:  # a pot in the lower quarter, the plant growing out of it
        w, h = x1 - x0, y1 - y0
        top, bottom = y1 - 0.3 * h, y1
        d.polygon([(x0 + 0.22 * w, top), (x1 - 0.22 * w, top), (x1 - 0.32 * w, bottom), (x0 + 0.32 * w, bottom)],
                  fill=plant.pot)
        d.rectangle((x0 + 0.18 * w, top - 0.05 * h, x1 - 0.18 * w, top + 0.02 * h), fill=plant.pot)
        box = (x0 + 0.12 * w, y0, x1 - 0.12 * w, top)
    {"plum": _plum, "orchid": _orchid, "chrysanthemum": _chrysanthemum, "bamboo": _bamboo}[plant.kind](
        d, plant, box, rng)


def _width(box: tuple[float, ...], share: float) -> int:
    return max(2, round((box[2] - box[0]) * share))


def _blossom(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple, petals: int = 5) -> None:
    for k in range(petals):
        a = k * 2 * math.pi / petals
        px, py = cx + math.cos(a) * r * 0.55, cy + math.sin(a) * r * 0.55
        d.ellipse((px - r * 0.5, py - r * 0.5, px + r * 0.5, py + r * 0.5), fill=ink)
    d.ellipse((cx - r * 0.25, cy - r * 0.25, cx + r * 0.25, cy + r * 0.25), fill=(245, 215, 60))


def _plum(d: ImageDraw.ImageDraw, plant: Plant, box: tuple, rng: np.random.Generator) -> None:
    """A crooked branch from a lower corner with two or three twigs, round five-petalled blossoms along them."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    left = rng.random() < 0.5
    start = (x0 + (0.15 if left else 0.85) * w, y1)
    points = [start]
    for k in range(1, 5):
        t = k / 4
        x = start[0] + (1 if left else -1) * w * 0.6 * t + rng.normal(0, 0.06) * w
        points.append((x, y1 - h * 0.9 * t + rng.normal(0, 0.04) * h))
    d.line(points, fill=plant.stem, width=_width(box, 0.05), joint="curve")
    spots = list(points[1:])
    for k in rng.choice(np.arange(1, 4), int(rng.integers(2, 4)), replace=False):
        bx, by = points[int(k)]
        ex, ey = bx + (-1 if left else 1) * w * rng.uniform(0.2, 0.4), by - h * rng.uniform(0.05, 0.2)
        d.line((bx, by, ex, ey), fill=plant.stem, width=_width(box, 0.03))
        spots.append((ex, ey))
    r = w * rng.uniform(0.08, 0.11)
    for sx, sy in spots:
        _blossom(d, sx + rng.normal(0, 0.03) * w, sy + rng.normal(0, 0.03) * h, r, plant.bloom)


def _leaf_curve(d: ImageDraw.ImageDraw, base: tuple[float, float], tip: tuple[float, float], bend: float,
                width: float, ink: tuple) -> None:
    """A leaf: a quadratic curve from ``base`` to ``tip`` bent sideways by ``bend``, tapering from ``width``."""
    (bx, by), (tx, ty) = base, tip
    mx, my = (bx + tx) / 2 + bend, (by + ty) / 2
    steps = 12
    ts = np.linspace(0.0, 1.0, steps + 1)
    xs = (1 - ts) ** 2 * bx + 2 * (1 - ts) * ts * mx + ts * ts * tx
    ys = (1 - ts) ** 2 * by + 2 * (1 - ts) * ts * my + ts * ts * ty
    pts = [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)]
    for k in range(steps):
        d.line((*pts[k], *pts[k + 1]), fill=ink, width=max(1, round(width * (1 - k / steps) + 1)))


def _orchid(d: ImageDraw.ImageDraw, plant: Plant, box: tuple, rng: np.random.Generator) -> None:
    """Long thin leaves arching from one root, a few three-petalled flowers on thin stems above them."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    base = (x0 + w * rng.uniform(0.4, 0.6), y1)
    for _ in range(int(rng.integers(5, 9))):
        tip = (x0 + w * rng.uniform(-0.05, 1.05), y0 + h * rng.uniform(0.15, 0.7))
        _leaf_curve(d, base, tip, w * rng.uniform(-0.35, 0.35), w * 0.045, plant.leaf)
    for _ in range(int(rng.integers(2, 5))):
        fx, fy = x0 + w * rng.uniform(0.2, 0.8), y0 + h * rng.uniform(0.08, 0.45)
        d.line((base[0], base[1] - h * 0.2, fx, fy), fill=plant.leaf, width=max(1, _width(box, 0.015)))
        r = w * rng.uniform(0.07, 0.1)
        for k in range(3):
            a = -math.pi / 2 + (k - 1) * 2.1 + rng.normal(0, 0.15)
            px, py = fx + math.cos(a) * r, fy + math.sin(a) * r
            d.line((fx, fy, px, py), fill=plant.bloom, width=max(2, round(r * 0.6)))
        d.ellipse((fx - r * 0.3, fy - r * 0.3, fx + r * 0.3, fy + r * 0.3), fill=(245, 220, 80))


def _chrysanthemum(d: ImageDraw.ImageDraw, plant: Plant, box: tuple, rng: np.random.Generator) -> None:
    """One to three big blooms of many thin petals on stems, lobed leaves below."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    blooms = int(rng.integers(1, 4))
    for j in range(blooms):
        cx = x0 + w * (0.5 if blooms == 1 else rng.uniform(0.25, 0.75))
        cy = y0 + h * rng.uniform(0.2, 0.45)
        d.line((cx, cy, x0 + w * 0.5, y1), fill=plant.leaf, width=_width(box, 0.03))
        for _ in range(int(rng.integers(2, 4))):
            lx, ly = x0 + w * rng.uniform(0.2, 0.8), y0 + h * rng.uniform(0.55, 0.9)
            r = w * rng.uniform(0.08, 0.13)
            for k in range(3):
                a = k * 2.1 + rng.uniform(0, 1)
                px, py = lx + math.cos(a) * r * 0.6, ly + math.sin(a) * r * 0.6
                d.ellipse((px - r * 0.55, py - r * 0.45, px + r * 0.55, py + r * 0.45), fill=plant.leaf)
        r = w * (0.3 if blooms == 1 else 0.2) * rng.uniform(0.85, 1.1)
        petals = int(rng.integers(16, 30))
        for k in range(petals):
            a = k * 2 * math.pi / petals
            d.line((cx, cy, cx + math.cos(a) * r, cy + math.sin(a) * r), fill=plant.bloom,
                   width=max(2, round(r * 0.16)))
        if j == 0 or rng.random() < 0.5:
            d.ellipse((cx - r * 0.25, cy - r * 0.25, cx + r * 0.25, cy + r * 0.25), fill=(200, 140, 30))


def _bamboo(d: ImageDraw.ImageDraw, plant: Plant, box: tuple, rng: np.random.Generator) -> None:
    """Two or three jointed stalks, clusters of narrow leaves from their joints."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    stalks = int(rng.integers(2, 4))
    stalk_w = w * rng.uniform(0.06, 0.09)
    for j in range(stalks):
        bx = x0 + w * (0.25 + 0.5 * j / max(stalks - 1, 1)) + rng.normal(0, 0.04) * w
        lean = w * rng.normal(0, 0.08)
        top = y0 + h * rng.uniform(0.0, 0.25)
        d.line((bx, y1, bx + lean, top), fill=plant.leaf, width=max(2, round(stalk_w)))
        joints = int(rng.integers(3, 6))
        for k in range(1, joints):
            t = k / joints
            jx, jy = bx + lean * t, y1 + (top - y1) * t
            d.line((jx - stalk_w * 0.7, jy, jx + stalk_w * 0.7, jy), fill=plant.stem, width=max(1, round(stalk_w / 3)))
            if rng.random() < 0.6:
                side = 1 if rng.random() < 0.5 else -1
                for _ in range(int(rng.integers(2, 4))):
                    a = side * rng.uniform(0.3, 1.3)
                    length = w * rng.uniform(0.18, 0.3)
                    tip = (jx + math.sin(a) * length, jy - math.cos(a) * length * 0.6)
                    _leaf_curve(d, (jx, jy), tip, 0.0, w * 0.05, plant.leaf)
