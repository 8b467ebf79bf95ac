"""Boxes for the layout's tests: rows of tiles written in notation, shot by a camera as detections, and the layout
read as ``api`` reads it."""

from __future__ import annotations

import math

import numpy as np

from scorer import is_complete_tiles
from vision.detection import Detection
from vision.layout import Layout, group_melds

W, H = 40.0, 54.0  # an upright tile's box, pixels (1 : 1.36)


def read_layout(dets: list) -> Layout:
    """The layout stage as ``api`` runs it: with the scorer's check of a complete hand."""
    return group_melds(dets, complete=is_complete_tiles)


def lay(*groups: str, gaps: tuple[float, ...] = (), y: float = 0.0, x: float = 0.0, gap_in: float = 1.0) -> list:
    """Tiles of one row, left to right: each group in notation (``back`` a face-down tile, ``*`` after a digit a
    sideways tile: ``"1*23s"``), groups ``gaps`` apart (in tile widths, default 0.6). Returns (label, cx, cy,
    sideways) in a plane where rows run along x."""
    out = []
    for k, g in enumerate(groups):
        for tok in tokens(g):
            side = tok.endswith("*")
            w = H if side else W
            dy = (H - W) / 2 if side else 0.0
            out.append((tok.rstrip("*"), x + w / 2, y + dy, side))
            x += w + gap_in
        x += (gaps[k] if k < len(gaps) else 0.6) * W
    return out


def tokens(text: str) -> list[str]:
    """``"4*56s"`` -> ``["4s*", "5s", "6s"]``; ``back`` is a face-down tile; ``*`` after a digit: sideways."""
    out: list[str] = []
    pending: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("back", i):
            out.append("back")
            i += 4
            continue
        ch = text[i]
        if ch.isdigit():
            pending.append(ch)
        elif ch == "*":
            pending[-1] += "*"
        else:
            out += [d[0] + ch + d[1:] for d in pending]
            pending = []
        i += 1
    return out


def shoot(tiles: list, angle: float = 0.0, scale: float = 1.0, tilt: float = 0.0, jitter: float = 0.0,
          seed: int = 0, offset: tuple[float, float] = (2000.0, 2000.0)) -> list[Detection]:
    """Detections as a camera would give them: each tile's rectangle turned by ``angle`` degrees, foreshortened
    across the rows by ``tilt`` degrees and scaled; boxes are the rectangles' axis-aligned bounds."""
    rng = np.random.default_rng(seed)
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    squash = np.diag([1.0, math.cos(math.radians(tilt))])
    m = scale * rot @ squash
    dets = []
    for label, cx, cy, side in tiles:
        w, h = (H, W) if side else (W, H)
        ja = math.radians(rng.normal(0, jitter)) if jitter else 0.0
        jr = np.array([[math.cos(ja), -math.sin(ja)], [math.sin(ja), math.cos(ja)]])
        corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) @ jr.T
        pts = (corners + [cx, cy]) @ m.T + offset
        x0, y0 = pts.min(0)
        x1, y1 = pts.max(0)
        dets.append(Detection(label, 0.9, (float(x0), float(y0), float(x1), float(y1)), side))
    return dets


HAND = lay("123m456p789s1122z", "3z", gaps=(0.8,))  # 13 concealed tiles, the winning tile set apart
HAND_TEXT = "123m456p789s1122z +3z"


def normal(hand: str | None) -> tuple | None:
    """A hand in notation as ``bench.eval_layout`` compares hands (None for none)."""
    from bench.eval_layout import normal as bench_normal

    return bench_normal(hand)
