"""A whole table: its walls, the runs of face-down tiles around it, which are no part of any hand; and its parts.

A hand shows at most four backs in a run (a concealed kong face down). A photo of a whole table shows walls of
eighteen, touching, in rows across the photo and down it; measured with the hand, they lead the row direction,
their runs are taken for the hand's row, and the tiles beside them for overlapping boxes. So the walls are set apart
twice: before the boxes are measured, each run of more than ``WALL_RUN`` backs touching side by side along its own
line (gaps under ``WALL_TOUCH`` tile sizes; two concealed kongs side by side show eight; a hand laid against its wall
touches it across), the faces it touches not counted (``wall_tiles``; in a photo of a whole table, runs in line with
gaps of a tile or so are one run: the finder boxes a wall in part); and
after, each group of a row with more than ``WALL_BACKS`` backs, most of it backs (``is_wall``: a shorter wall; in a
photo of a hand, not one that is concealed kongs side by side).
In a photo of a whole table a back amid a group's faces is a wall's too (``wall_ends``): the finder boxes walls in
part, and a wall's end may touch the hand, or lie in the gap before its winning tile. And a set whose backs are as
white as its blank white dragons shows walls read as white dragons: a run of more of them than a set holds is a wall.

A table's hand lies apart from its discards and the other hands, each turned its own way; where the rows of the
whole photo read no hand, its parts are read one by one (``table_parts``: the tiles, walls aside, joined where their
boxes lie within ``PART_GAP`` tile sizes), each in its own frame (``vision.relabel.read_hand``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.layout.geometry import DetectionLike, median
from vision.layout.tuning import PART_GAP, TABLE_TILES, WALL_BACKS, WALL_RUN, WALL_SKIP, WALL_TOUCH
from vision.names import BACK, WHITE

SET_COPIES = 4  # a set holds four of each tile


def wall_tiles(dets: Sequence[DetectionLike]) -> tuple[int, ...]:
    """The indices of the detections in the table's walls: runs of more than ``WALL_RUN`` backs whose boxes touch
    side by side (each within ``WALL_TOUCH`` of the boxes' median short side of the next), along x or along y: a run
    is joined along its own line, so that a hand laid against its wall keeps its concealed kongs (their backs touch the
    wall across it), and so do a kong's backs beside two like faces (``_kongs_shown``). A wall's end touching the hand
    in line with it is the wall's, not the hand's. In a photo of ``TABLE_TILES`` detections or more, backs in line
    with a run, along it and within ``WALL_SKIP`` tile sizes, are in the run: the tiles the finder missed leave gaps
    in a wall.

    >>> from vision.detection import Detection
    >>> row = [Detection("back", 0.9, (40.0 * k, 0, 40 * k + 40, 54)) for k in range(10)]
    >>> hand = [Detection("1m", 0.9, (40.0 * k, 54, 40 * k + 40, 108)) for k in range(6)]
    >>> wall_tiles(row[:9] + hand), wall_tiles(row[:8] + hand)  # eight backs: two concealed kongs side by side
    ((0, 1, 2, 3, 4, 5, 6, 7, 8), ())
    >>> gappy = [Detection("back", 0.9, (40.0 * k, 0, 40 * k + 40, 54))  # 18 backs in a row, every fifth missed
    ...          for k in range(18) if k % 5 != 4]
    >>> far = [Detection("1m", 0.9, (40.0 * k, 400, 40 * k + 40, 454)) for k in range(30)]
    >>> len(wall_tiles(gappy + far)), wall_tiles(gappy[:12] + hand)  # in a hand's photo: three runs of four
    (15, ())
    """
    return walls_of(dets)[0]


def walls_of(dets: Sequence[DetectionLike]) -> tuple[tuple[int, ...], frozenset[int]]:
    """``wall_tiles``, and the backs with the detections touching them, their boxes measured once: renaming no other
    tile changes the walls. Neither where the photo shows ``WALL_RUN`` backs and blank white dragons or fewer
    (renaming a tile a back may make a wall there: ``vision.layout.frame.reframe`` asks again then). In a photo of a
    whole table, a white-backed set's wall, its backs read as blank white dragons, is a wall too: a run of backs and
    white dragons holding more white dragons than a set holds (SET_COPIES)."""
    labels = [d.label for d in dets]
    back = np.array([name == BACK for name in labels], bool)
    white = np.array([name == WHITE for name in labels], bool)
    if (back | white).sum() <= WALL_RUN:
        return (), frozenset()
    every = np.array([d.box for d in dets], float)
    size = _short_side(every)
    touch = _gaps(every) < WALL_TOUCH * size
    beside = frozenset(int(i) for i in np.flatnonzero(back | white | touch[:, back | white].any(1)))
    table = len(dets) >= TABLE_TILES
    kongs = _kongs_shown(labels, every, touch)
    walls = set(_in_runs(every, np.setdiff1d(np.flatnonzero(back), kongs), touch, size, table))
    if table and white.sum() > SET_COPIES:  # a white-backed set's wall, its backs taken for blank white dragons
        walls.update(_in_runs(every, np.setdiff1d(np.flatnonzero(back | white), kongs), touch, size, table, white))
    return tuple(sorted(walls)), beside


def _in_runs(every: np.ndarray, tiles: np.ndarray, touch: np.ndarray, size: float, table: bool,
             white: np.ndarray | None = None) -> list[int]:
    """The ``tiles`` (indices into ``every``, N x 4 xyxy boxes; ``touch``: which touch, N x N) in runs of more than
    ``WALL_RUN`` touching side by side along x, or along y (with ``table``, bridged over a tile missed:
    ``_bridged``), and, where ``white`` (N, bool) is given, holding more than SET_COPIES of those (more blank white
    dragons than a set holds: a white-backed set's wall)."""
    if len(tiles) <= WALL_RUN:
        return []
    box = every[tiles]
    # tiles touching side by side along x, or along y: a run is joined along its own line, so that a hand's kong of
    # four backs laid against the wall (touching it across) is no part of it
    side = _side_by_side(box)
    lines = side & touch[np.ix_(tiles, tiles)]
    if table:  # a whole table
        lines |= side & _bridged(box, lines.any(0), WALL_SKIP * size)
    wall = np.zeros(len(tiles), bool)
    for near in lines:
        run = _runs(near)
        runs, sizes = np.unique(run, return_counts=True)
        if white is not None:
            whites = np.bincount(run, weights=white[tiles].astype(float), minlength=len(tiles))[runs]
            runs = runs[whites > SET_COPIES]
            sizes = sizes[whites > SET_COPIES]
        wall |= np.isin(run, runs[sizes > WALL_RUN])
    return [int(i) for i in tiles[wall]]


def _side_by_side(box: np.ndarray) -> np.ndarray:
    """Which boxes (N, 4 xyxy) lie side by side (2, N, N): along x (overlapping across, in y, by half the smaller
    box's height or more), and along y (in x, by half the smaller width)."""
    out = []
    for across in (1, 0):
        a0, a1 = box[:, across], box[:, across + 2]
        overlap = np.minimum(a1[:, None], a1[None, :]) - np.maximum(a0[:, None], a0[None, :])
        out.append(overlap >= 0.5 * np.minimum((a1 - a0)[:, None], (a1 - a0)[None, :]))
    return np.array(out)


def _kongs_shown(labels: Sequence[str], box: np.ndarray, touch: np.ndarray) -> list[int]:
    """The backs that end a concealed kong shown with two faces up: a back, two like faces and a back side by side in
    a line, each touching the next (``touch``, N x N; a hand's, though it touch a wall: a player's hand lies against
    its wall), where no wall goes on past either end (two more backs in line; one is the next kong's).

    >>> row = [(0, "back"), (1, "2z"), (2, "2z"), (3, "back"), (5, "1p"), (6, "1p"), (7, "back")]
    >>> box = np.array([(40.0 * k, 0, 40 * k + 40, 54) for k, _ in row])
    >>> _kongs_shown([name for _, name in row], box, _gaps(box) < 1.0)
    [0, 3]
    >>> wall = ["back"] * 9 + ["5p", "5p"] + ["back"] * 9  # two tiles lying on a wall
    >>> box = np.array([(40.0 * k, 0, 40 * k + 40, 54) for k in range(20)])
    >>> _kongs_shown(wall, box, _gaps(box) < 1.0)
    []
    """
    back = np.array([name == BACK for name in labels])
    if not back.any() or back.all():
        return []
    centre = (box[:, :2] + box[:, 2:]) / 2
    code = np.unique(np.asarray(labels), return_inverse=True)[1]
    a, b = np.argwhere(np.triu(touch & (code[:, None] == code[None, :]) & ~back[:, None], 1)).T  # like faces
    if len(a) == 0:
        return []
    step = centre[b] - centre[a]
    within = 0.35 * np.hypot(*step.T)
    backs = np.flatnonzero(back)

    def next_back(tile: np.ndarray, sign: int) -> np.ndarray:
        """The back touching each ``tile`` one step on along the line (``sign``), or -1."""
        dist = np.hypot(*(centre[backs][None] - (centre[tile] + sign * step)[:, None]).transpose(2, 0, 1))
        dist = np.where(touch[tile][:, backs] & (dist <= within[:, None]) & (tile >= 0)[:, None], dist, np.inf)
        return np.where(np.isfinite(dist.min(1)), backs[dist.argmin(1)], -1)

    first, last = next_back(a, -1), next_back(b, 1)
    on = [next_back(next_back(end, sign), sign) >= 0 for end, sign in ((first, -1), (last, 1))]
    kong = (first >= 0) & (last >= 0) & ~on[0] & ~on[1]
    return sorted({int(i) for i in np.r_[first[kong], last[kong]]})


def table_parts(dets: Sequence[DetectionLike], walls: Sequence[int]) -> list[list[int]]:
    """The detections of a whole table, ``walls`` aside, in parts lying apart (their boxes' gaps more than
    ``PART_GAP`` times the boxes' median short side), the biggest first (the first of equals by index).

    >>> from vision.detection import Detection
    >>> row = [Detection("1m", 0.9, (40.0 * k, 0, 40 * k + 40, 54)) for k in range(3)]
    >>> far = [Detection("2m", 0.9, (40.0 * k, 300, 40 * k + 40, 354)) for k in range(2)]
    >>> table_parts(row + far, ()), table_parts(row + far, (1,))
    ([[0, 1, 2], [3, 4]], [[0, 2], [3, 4]])
    """
    walled = set(walls)
    keep = np.array([i for i in range(len(dets)) if i not in walled], int)
    if len(keep) == 0:
        return []
    box = np.array([dets[i].box for i in keep], float)
    reach = PART_GAP * _short_side(box)
    run = _runs(_gaps(box) < reach)
    parts = [keep[run == r].tolist() for r in np.unique(run)]
    return sorted(parts, key=lambda part: (-len(part), part[0]))


def is_wall(labels: Sequence[str], group: Sequence[int], doubted: Sequence[bool] | None = None) -> bool:
    """Whether a group of a row (``labels`` of its tiles' indices ``group``) is part of a wall: more than
    ``WALL_BACKS`` backs, and mostly backs. ``doubted``, in a photo of a hand (by index): backs the finder doubted,
    not counted among the more than ``WALL_BACKS`` (a kong's four backs and a box the finder doubted beside them are
    no wall); there concealed kongs side by side (four backs, or a back, two like faces and a back, each) are no
    wall either.

    >>> is_wall(["back"] * 5, range(5)), is_wall(["back"] * 5, range(5), [True, False, False, False, False])
    (True, False)
    >>> kongs = ["back", "7s", "7s", "back"] + ["back"] * 4
    >>> is_wall(kongs, range(8)), is_wall(kongs, range(8), [False] * 8)
    (True, False)
    """
    backs = [i for i in group if labels[i] == BACK]
    if doubted is not None and _kongs_only(labels, group):
        return False
    sure = [i for i in backs if doubted is None or not doubted[i]]
    return len(sure) > WALL_BACKS and 2 * len(backs) > len(group)


def wall_ends(labels: Sequence[str], group: Sequence[int], kind: str | None) -> list[list[int]]:
    """A group of a whole table's row (``labels`` of its tiles' indices ``group``; ``kind``: the meld it shows, or
    None) without the backs amid its faces, split where they lay: a wall's end touching the hand, or lying in the
    gap before its winning tile. A concealed kong (``kind``; or a back, two like faces and a back within the group:
    one touching a meld), and a group of backs alone stay as they are.

    >>> wall_ends(["5z", "5z", "back", "4s"], [0, 1, 2, 3], None), wall_ends(["back", "back"], [0, 1], None)
    ([[0, 1], [3]], [[0, 1]])
    >>> wall_ends(["3p", "3p", "3p", "3p", "back", "6m", "6m", "back", "back"], list(range(9)), None)
    [[0, 1, 2, 3], [4, 5, 6, 7]]
    """
    if kind is not None or all(labels[i] == BACK for i in group) or not any(labels[i] == BACK for i in group):
        return [list(group)]
    parts: list[list[int]] = [[]]
    k = 0
    while k < len(group):
        if _kong_shown(labels, group[k:k + 4]):
            parts += [list(group[k:k + 4]), []]
            k += 4
            continue
        if labels[group[k]] == BACK:
            parts.append([])
        else:
            parts[-1].append(group[k])
        k += 1
    return [part for part in parts if part]


def kongs_joined(labels: Sequence[str], groups: list[list[int]]) -> list[list[int]]:
    """A row's groups (``labels`` of their tiles' indices) with each concealed kong shown (a back, two like faces, a
    back) that a gap split kept whole: its end back moved to the group of its faces (a back boxed wider than its tile
    leaves a gap before it).

    >>> kongs_joined(["1m", "back", "4z", "4z", "back", "2f"], [[0, 1, 2, 3], [4], [5]])
    [[0, 1, 2, 3, 4], [5]]
    >>> kongs_joined(["back", "4z", "4z", "back"], [[0], [1, 2, 3]]), kongs_joined(["back", "1m"], [[0], [1]])
    ([[0, 1, 2, 3]], [[0], [1]])
    """
    out = [list(g) for g in groups]
    for k in range(len(out) - 1):
        left, right = out[k], out[k + 1]
        if right and len(left) >= 3 and _kong_shown(labels, [*left[-3:], right[0]]):
            left.append(right.pop(0))
        elif left and len(right) >= 3 and _kong_shown(labels, [left[-1], *right[:3]]):
            right.insert(0, left.pop())
    return [g for g in out if g]


def _kongs_only(labels: Sequence[str], group: Sequence[int]) -> bool:
    """Whether a group is concealed kongs side by side, and nothing else: four backs, or a back, two like faces and a
    back, each."""
    fours = [group[k:k + 4] for k in range(0, len(group), 4)]
    return len(group) % 4 == 0 and all(all(labels[i] == BACK for i in four) or _kong_shown(labels, four)
                                       for four in fours)


def _kong_shown(labels: Sequence[str], four: Sequence[int]) -> bool:
    """Whether four tiles show a concealed kong: a back, two like faces, a back."""
    return len(four) == 4 and labels[four[0]] == labels[four[3]] == BACK and labels[four[1]] == labels[four[2]] != BACK


def _runs(near: np.ndarray) -> np.ndarray:
    """Each node's run (connected component) of the symmetric adjacency ``near`` (N, N): the smallest index in it."""
    run = np.arange(len(near))
    while True:  # every node takes its neighbours' smallest run, until none changes
        nxt = np.where(near, run[None, :], len(near)).min(1)
        nxt = np.minimum(run, nxt)
        if np.array_equal(nxt, run):
            return run
        run = nxt


def _short_side(box: np.ndarray) -> float:
    """The median of the boxes' (N, 4 xyxy) shorter sides: a tile's size, whichever way it lies."""
    return median(np.minimum(box[:, 2] - box[:, 0], box[:, 3] - box[:, 1]))


def _bridged(box: np.ndarray, touching: np.ndarray, reach: float) -> np.ndarray:
    """Which boxes (N, 4 xyxy) lie in line (N, N): side by side along x or y within ``reach``, overlapping across it
    by half the smaller box's side or more, and along the line of the runs of ``touching`` boxes they end (a wall's
    tiles with one the finder missed between them; not the next wall beside it)."""
    run = _runs(touching)
    centre = (box[:, :2] + box[:, 2:]) / 2
    axis = np.full(len(box), -1)  # the axis each box's run lies along; -1 for a box alone
    for r in np.unique(run):
        members = run == r
        if members.sum() > 1:
            axis[members] = int(np.ptp(centre[members, 1]) > np.ptp(centre[members, 0]))
    out = np.zeros((len(box), len(box)), bool)
    for along in (0, 1):
        across = 1 - along
        lo, hi = box[:, along], box[:, along + 2]
        gap = np.maximum(lo[:, None] - hi[None, :], lo[None, :] - hi[:, None])
        a0, a1 = box[:, across], box[:, across + 2]
        overlap = np.minimum(a1[:, None], a1[None, :]) - np.maximum(a0[:, None], a0[None, :])
        side = np.minimum((a1 - a0)[:, None], (a1 - a0)[None, :])
        fits = (axis == -1) | (axis == along)
        out |= (gap < reach) & (overlap >= 0.5 * side) & fits[:, None] & fits[None, :]
    return out


def _gaps(box: np.ndarray) -> np.ndarray:
    """The gaps (N, N) between boxes (N, 4 xyxy): 0 where they touch or overlap."""
    gap_x = np.maximum(box[:, None, 0] - box[None, :, 2], box[None, :, 0] - box[:, None, 2])
    gap_y = np.maximum(box[:, None, 1] - box[None, :, 3], box[None, :, 1] - box[:, None, 3])
    return np.hypot(np.maximum(gap_x, 0), np.maximum(gap_y, 0))
