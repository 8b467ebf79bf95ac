"""A sideways tile boxed as two: the finder, which learnt mostly upright tiles, sometimes boxes a tile lying sideways
in a meld as two overlapping upright ones, each holding about half of its face (fluffystuff's sideways 7m as a 7m
and a 7z, a sideways 4p as two 2p). The layout then finds one tile too many in the meld and none sideways.

Two boxes are such halves (``halves``) when they overlap along their union's long side by a quarter to most of the
narrower one, lie level across it, and their union is shaped like a tile lying sideways and no longer than the tiles
named surely near it (two neighbouring upright tiles whose boxes overlap make a union as shaped, but longer by a
third). Neither may be a face already named surely and lying sideways: a box over such a tile and its neighbour is a
spurious one, which the layout drops. The detector names each union as it named the photo's tiles, and takes it in
place of its halves when it is named a face surely, lying sideways (``joined``), the surest first, each box in one
union at most; more surely where both halves were named surely (in a row shot low, two standing neighbours' boxes
overlap, and their union, named a tile lying sideways at 0.64 and 0.76, cost a hand of ``bench.eval_cases``'
perspective kind; a sideways 4p boxed as two 2p named surely was named 0.91 whole).

Chosen on ``bench.eval_layout --detector``'s 500 photos (seed 4242, 2026-11-28): of the unions so shaped and named,
the 18 sideways tiles were 0.96 to 1.18 times as long as the sure faces near them, and so was one pair of upright
neighbours (1.16); the other pairs of upright neighbours (30) were 1.25 to 1.56 times, and, read as one sideways tile,
broke 20 hands read right before (``docs/photo.md``, "A sideways tile boxed as two halves").
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.names import CLASS_ID

BACK_ID = CLASS_ID["back"]
OVERLAP = (0.25, 0.85)  # the halves overlap along the union's long side by this share of the narrower (more: dedupe's)
LEVEL = 0.7  # ... and across it by at least this share of the taller
SHAPE = (1.15, 1.75)  # the union's long side over its short side (a tile lying sideways: about 1.35)
LONGEST = 1.2  # the union's long side, at most this many times the median long side of the sure faces nearest it
NEAREST = 8  # ... of so many
SURE = 0.8  # a face named with this much is sure: the tiles measured against, and a sideways face that is no half
JOIN_SURE = 0.6  # a union is taken when named a face lying sideways with at least this much
JOIN_SURER = 0.9  # ... and with this much where both halves are named surely (SURE): two tiles, each named, are one


def halves(boxes: np.ndarray, p: np.ndarray, faces: np.ndarray, sideways: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of boxes (M, 2 indices into ``boxes``, N x 4 xyxy) that may be the halves of one tile lying sideways,
    and their unions (M, 4). ``p``: the names' probabilities (N, names); ``faces``: which are named faces, not backs;
    ``sideways``: which are named lying sideways.

    >>> p = np.eye(3)[[0, 1, 2, 2]] * 0.9 + 0.03  # a sideways tile as two boxes, then two upright tiles overlapping
    >>> boxes = np.array([[0.0, 0, 30, 30], [16, 0, 46, 30], [100, 0, 130, 40], [120, 0, 150, 40]])
    >>> more = np.array([[200.0, 0, 230, 40], [240, 0, 270, 40], [280, 0, 310, 40]])  # sure faces elsewhere
    >>> pairs, unions = halves(np.r_[boxes, more], np.r_[p, p[:3]], np.ones(7, bool), np.zeros(7, bool))
    >>> pairs.tolist(), unions.tolist()
    ([[0, 1]], [[0.0, 0.0, 46.0, 30.0]])
    """
    none = np.zeros((0, 2), int), np.zeros((0, 4))
    sure_face = faces & (p.max(1) >= SURE)
    sure = np.flatnonzero(sure_face)
    if len(boxes) < 2 or len(sure) < 3:
        return none
    boxes = np.asarray(boxes, np.float64)
    w, h = np.maximum(boxes[:, 2] - boxes[:, 0], 1e-6), np.maximum(boxes[:, 3] - boxes[:, 1], 1e-6)
    ix = np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(boxes[:, None, 0], boxes[None, :, 0])
    iy = np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(boxes[:, None, 1], boxes[None, :, 1])
    uw = np.maximum(boxes[:, None, 2], boxes[None, :, 2]) - np.minimum(boxes[:, None, 0], boxes[None, :, 0])
    uh = np.maximum(boxes[:, None, 3], boxes[None, :, 3]) - np.minimum(boxes[:, None, 1], boxes[None, :, 1])
    wide = uw >= uh  # the halves lie side by side along x, else along y
    over = np.where(wide, ix / np.minimum(w[:, None], w[None]), iy / np.minimum(h[:, None], h[None]))
    level = np.where(wide, iy / np.maximum(h[:, None], h[None]), ix / np.maximum(w[:, None], w[None]))
    shape = np.maximum(uw, uh) / np.maximum(np.minimum(uw, uh), 1e-6)
    done = sideways & sure_face  # a sure sideways face is whole
    ok = (ix > 0) & (iy > 0) & (over >= OVERLAP[0]) & (over < OVERLAP[1]) & (level >= LEVEL) \
        & (shape >= SHAPE[0]) & (shape <= SHAPE[1]) & ~done[:, None] & ~done[None]
    i, j = np.nonzero(np.triu(ok, 1))
    if len(i) == 0:
        return none
    unions = np.stack([np.minimum(boxes[i, 0], boxes[j, 0]), np.minimum(boxes[i, 1], boxes[j, 1]),
                       np.maximum(boxes[i, 2], boxes[j, 2]), np.maximum(boxes[i, 3], boxes[j, 3])], 1)
    long = np.maximum(w, h)
    centres = (boxes[sure, :2] + boxes[sure, 2:]) / 2
    fits = np.zeros(len(i), bool)
    for k, (a, b, u) in enumerate(zip(i, j, unions, strict=True)):
        others = (sure != a) & (sure != b)
        if others.sum() < 3:
            continue
        d = np.linalg.norm(centres[others] - (u[:2] + u[2:]) / 2, axis=1)
        near = float(np.median(long[sure[others][np.argsort(d)[:NEAREST]]]))
        fits[k] = max(u[2] - u[0], u[3] - u[1]) <= LONGEST * near
    return np.stack([i[fits], j[fits]], 1), unions[fits]


def joined(pairs: np.ndarray, q: np.ndarray, sideways: np.ndarray, p: np.ndarray) -> list[int]:
    """Which of the ``pairs`` (M, 2) to take whole: their unions named ``q`` (M, names), ``sideways`` (M: named a face
    lying sideways), taken when so named with JOIN_SURE or more (JOIN_SURER where the boxes' own names ``p``, N x
    names, are both sure), the surest first, each box in one union at most.

    >>> q = np.array([[0.85, 0.15], [0.95, 0.05], [0.7, 0.3], [0.5, 0.5]])
    >>> p = np.array([[0.9, 0.1]] * 3 + [[0.5, 0.5]] * 4)  # boxes 0 to 2 named surely
    >>> joined(np.array([[0, 1], [1, 2], [3, 4], [5, 6]]), q, np.array([True, True, False, True]), p)
    [1]
    >>> joined(np.array([[0, 1], [3, 4]]), q[:3:2], np.array([True, True]), p)  # 0.85: two sure names stand
    [1]
    """
    taken: list[int] = []
    used: set[int] = set()
    sure = q.max(1) if len(q) else np.zeros(0)
    both = (p.max(1)[pairs] >= SURE).all(1) if len(pairs) else np.zeros(0, bool)
    for k in np.argsort(-sure, kind="stable"):
        a, b = (int(v) for v in pairs[k])
        if sure[k] >= (JOIN_SURER if both[k] else JOIN_SURE) and sideways[k] and a not in used and b not in used:
            taken.append(int(k))
            used |= {a, b}
    return taken


def with_halves(boxes: np.ndarray, conf: np.ndarray, p: np.ndarray, up: np.ndarray, sideways: np.ndarray, main: int,
                name: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, ...]:
    """``boxes``, ``conf`` and their names ``p`` and up directions ``up`` (N, 4), with each tile lying sideways that
    the finder boxed as two overlapping halves taken whole: the union of the two, named by ``name`` (unions -> their
    names and up directions, as the photo's tiles were named), in place of them, with the surer one's confidence.
    ``sideways``: which boxes are named lying sideways; ``main``: the photo's up axis (0 or 1), across which a union
    lies sideways."""
    faces = p.argmax(1) != BACK_ID
    pairs, unions = halves(boxes, p, faces, sideways)
    if len(pairs) == 0:
        return boxes, conf, p, up
    q, q_up = name(unions)
    take = joined(pairs, q, (q_up.argmax(1) % 2 != main) & (q.argmax(1) != BACK_ID), p)
    if not take:
        return boxes, conf, p, up
    keep = np.ones(len(boxes), bool)
    keep[pairs[take].ravel()] = False
    return (np.concatenate([boxes[keep], unions[take]]), np.concatenate([conf[keep], conf[pairs[take]].max(1)]),
            np.concatenate([p[keep], q[take]]), np.concatenate([up[keep], q_up[take]]))
