"""A whole table around the revealed hand: the four walls of face-down tiles, each player's discards in rows of
six, the other three hands face down, up to about ``total`` tiles in all (14 to 250), seen from above as
``render_scene`` sees a hand. The tiles beside the hand are labelled as distractors (their group is the one after
the hand's)."""

from __future__ import annotations

import math

import numpy as np

from training.hands import Group
from training.scene import TILE_H, TILE_W, Placed, _plain_back, layout_scene
from training.styles import Style
from vision.names import FACE_NAMES, FLOWER_NAMES

WALL = 18  # stacks along each side of the wall (seen from above: the top layer)
DISCARD_ROW = 6  # discards in a row
DISCARD_ROWS = 5  # rows of discards at most, laid in a pinwheel so that the four players' do not meet


def layout_table(rng: np.random.Generator, style: Style, groups: list[Group], total: int,
                 apart: bool = True) -> list[Placed]:
    """The hand laid out as ``layout_scene`` lays it, at the near edge of a table, and the rest of the table around
    it, up to ``total`` tiles: discards first (the four players' in turn), then the walls, then the other hands."""
    hand = layout_scene(rng, style, groups, apart)
    back_rgb = hand[0].back_rgb
    extra = len(groups)  # the distractors' group
    xs = [p.x for p in hand]
    ys = [p.y for p in hand]
    cx, cy = (min(xs) + max(xs)) / 2, min(ys) - rng.uniform(11.0, 13.0)  # the table's middle, beyond the hand
    names = list(FACE_NAMES) + (list(FLOWER_NAMES) if style.has_flowers else [])
    gap = rng.uniform(0.0, 0.05)

    def tile(label: str, x: float, y: float, turn: int, down: bool) -> Placed:
        art = _plain_back(back_rgb) if down else style.faces[label]
        return Placed("back" if down else label, art, x, y, turn % 360, float(rng.normal(0, 1.5)), extra,
                      turn % 180 == 90, False, down, back_rgb)

    def seat(k: int, u: float, v: float) -> tuple[float, float]:
        """Table coordinates of a point ``u`` along and ``v`` toward the middle from seat ``k``'s side (0: the
        hand's), relative to the middle."""
        a = math.radians(90 * k)
        x, y = u, -v
        return cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)

    most = DISCARD_ROW * DISCARD_ROWS
    each = min(most, max(6, -(-(total - len(hand) - 4 * WALL - 39) // 4)))  # discards per player
    discards: list[list[Placed]] = [[], [], [], []]
    for k in range(4):  # each player's discards: rows of six inside the wall, facing the player
        for n in range(min(most, each + int(rng.integers(-3, 4)))):
            r, c = divmod(n, DISCARD_ROW)
            x, y = seat(k, (c - DISCARD_ROW + 0.5) * (TILE_W + gap) - 0.5, 7.0 - TILE_H / 2 - r * (TILE_H + gap))
            discards[k].append(tile(str(rng.choice(names)), x, y, -90 * k, False))
    walls: list[Placed] = []
    for k in range(4):  # each wall: a row of backs, a gap where it was broken
        broken = int(rng.integers(0, WALL))
        for n in range(WALL):
            if n == broken and k == 0:
                continue
            x, y = seat(k, (n - WALL / 2 + 0.5) * (TILE_W + gap * 0.5), 8.6)
            walls.append(tile("back", x, y, -90 * k, True))
    others: list[Placed] = []
    for k in (1, 2, 3):  # the other hands: 13 backs each, beyond the walls
        for n in range(13):
            x, y = seat(k, (n - 6) * (TILE_W + gap), 11.0)
            others.append(tile("back", x, y, -90 * k, True))
    order = [p for row in zip(*[d + [None] * (most - len(d)) for d in discards], strict=True) for p in row if p]
    extras = order + walls + others
    return hand + extras[: max(0, total - len(hand))]
