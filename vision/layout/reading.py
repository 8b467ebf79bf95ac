"""One way of reading the hand rows (which row is concealed, which way round, a loose end tile left out) and
how good it is: legal, then complete (asked of ``complete``, the scorer's check that ``api`` passes in)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from vision.layout.geometry import Tiles, gap_between, single_loose
from vision.layout.melds import chunk_kind, classify, segment
from vision.layout.tuning import ASKEW_WIN, BORDER, GROUP_GAP, HAND_SIZES, WIN_GAP
from vision.names import BACK

Complete = Callable[[Sequence[str]], bool]  # tile names (concealed part and winning tile) -> a complete hand?


@dataclass
class Parse:
    """One reading of the hand rows, in local tile indices."""

    melds: list[tuple[str, list[int]]] = field(default_factory=list)  # (kind, local indices)
    concealed: list[int] = field(default_factory=list)
    win: int | None = None
    flowers: list[int] = field(default_factory=list)
    bad_groups: list[list[int]] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)
    rows: list[tuple[str, list[list[int]]]] = field(default_factory=list)
    conc_row: int = -1
    deficit: float = 0.0  # how far the borders between concealed tiles, winning tile and melds are from gaps
    far_dropped: bool = True  # every tile left out lies farther from its row than a winning tile is set apart


def drop_ways(groups: Sequence[Sequence[int]], reverse: bool) -> tuple[int, ...]:
    """The ``drops`` that ``read_rows`` may take for a row of ``groups`` (read backwards when ``reverse``): 0 none,
    1 its first group, 2 its last, each only where that group is a single tile and the row has more than one.

    >>> drop_ways([[0], [1, 2, 3], [4]], False), drop_ways([[0], [1, 2, 3]], False), drop_ways([[0], [1, 2, 3]], True)
    ((0, 1, 2), (0, 1), (0, 2))
    """
    if len(groups) < 2:
        return (0,)
    first, last = (groups[-1], groups[0]) if reverse else (groups[0], groups[-1])
    return (0, *((1,) if len(first) == 1 else ()), *((2,) if len(last) == 1 else ()))


def read_rows(t: Tiles, rows: list[list[list[int]]], conc: int, reverse: bool, drops: Sequence[int]) -> Parse | None:
    """One way of reading the hand rows: ``conc`` the concealed row, read backwards when ``reverse``; ``drops``
    per row: 0 none, 1 leave out its first group, 2 its last, when a single tile (a loose tile in line with the
    hand); None when that group is no single tile."""
    p = Parse(conc_row=conc)
    for r, groups in enumerate(rows):
        key = (tuple(map(tuple, groups)), r == conc, reverse and r == conc, drops[r])
        if key not in t.row_reads:  # (the search reads each row alike for every way it reads the others)
            t.row_reads[key] = _read_row(t, groups, *key[1:])
        part = t.row_reads[key]
        if part is None:
            return None
        p.melds += [(kind, list(g)) for kind, g in part.melds]  # (the caller's own lists: the row's are kept)
        p.concealed += part.concealed
        if r == conc:
            p.win = part.win
        p.flowers += part.flowers
        p.bad_groups += map(list, part.bad_groups)
        p.dropped += part.dropped
        p.rows += [(role, [list(g) for g in groups]) for role, groups in part.rows]
        p.deficit += part.deficit
        p.far_dropped &= part.far_dropped
    # a tile left out at a row's end where no winning tile is set apart: a loose tile, not one set apart as the
    # winning tile, only when it lies farther off than that (a hand of 14 touching tiles and one more set apart holds
    # one tile too many)
    if p.dropped and p.win is None and not p.far_dropped:
        return None
    return p


def _read_row(t: Tiles, groups: list[list[int]], conc: bool, reverse: bool, drop: int) -> Parse | None:
    """One row of ``read_rows``' reading (the concealed one when ``conc``), as a reading of its own."""
    p = Parse()
    groups = [list(g) for g in groups]
    if reverse:
        groups = [g[::-1] for g in groups[::-1]]
    if drop and groups:
        k = 0 if drop == 1 else len(groups) - 1
        if len(groups[k]) != 1:
            return None
        p.dropped += groups[k]
        # measured from the hand's tiles: flowers lying between are set aside, and a winning tile set apart lies
        # beside the hand's tiles, not past its flowers
        hand = [g for g in (groups[1:] if k == 0 else groups[:-1]) if not all(t.labels[i].endswith("f") for i in g)]
        if hand:
            near = hand[0][0] if k == 0 else hand[-1][-1]
            p.far_dropped &= gap_between(t, groups[k][0], near) / t.u > WIN_GAP or t.labels[groups[k][0]] == BACK
        groups = groups[:k] + groups[k + 1:]
    flowers = [i for g in groups for i in g if t.labels[i].endswith("f")]
    p.flowers += flowers
    groups = [[i for i in g if i not in flowers] for g in groups]
    groups = [g for g in groups if g]
    p.rows.append(("concealed" if conc else "melds", groups))
    kinds = [classify(t, g) for g in groups]
    if not conc:
        seg = segment(t, groups)
        if seg is not None:
            p.melds += seg
            return p
        for g, kind in zip(groups, kinds, strict=True):
            kind = kind or chunk_kind(t, g)
            if kind is None:
                p.bad_groups.append(g)
            else:
                p.melds.append((kind, g))
        return p
    # the concealed row: concealed tiles (3k+1), the winning tile alone, then melds; of the tiles that can be
    # the winning one, the one whose borders (concealed | winning tile | melds) are the widest gaps
    win_at, after, best_def = None, None, math.inf
    before = 0
    for k, g in enumerate(groups):
        if kinds[k] is not None:
            continue
        alone = len(g) == 1 and t.labels[g[0]] != BACK
        if alone and before % 3 == 1 and not single_loose(t, g[0], t.ref, 2.0, ASKEW_WIN):
            seg = segment(t, groups[k + 1:])
            if seg is not None:
                borders = [(groups[k - 1][-1], g[0], BORDER)] if k > 0 else []
                borders += [(g[0], seg[0][1][0], BORDER)] if seg else []
                borders += [(a[1][-1], b[1][0], GROUP_GAP) for a, b in zip(seg, seg[1:], strict=False)]
                deficit = sum(max(0.0, w - gap_between(t, a, b) / t.u) for a, b, w in borders)
                if deficit < best_def - 1e-9:
                    win_at, after, best_def = k, seg, deficit
        before += len(g)
    if win_at is None:
        # no tile set apart as the winning one: the concealed tiles come first (3k+2 of them, the winning one
        # among them), then the melds, a group each, shown with a sideways tile or without
        start, tail, conc_n = len(groups), [], 0
        for k in range(1, len(groups)):
            if kinds[k - 1] is not None:
                continue
            conc_n += len(groups[k - 1])  # the concealed tiles before group k
            if conc_n % 3 == 2:
                seg = segment(t, groups[k:])
                if seg:
                    start, tail = k, seg
                    break
        head = list(zip(groups[:start], kinds[:start], strict=True))
        p.melds += [(kind, g) for g, kind in head if kind is not None]
        p.concealed += [i for g, kind in head if kind is None for i in g]
        p.melds += tail
    else:
        head = list(zip(groups[:win_at], kinds[:win_at], strict=True))
        p.melds += [(kind, g) for g, kind in head if kind is not None]
        p.concealed += [i for g, kind in head if kind is None for i in g]
        p.win = groups[win_at][0]
        p.melds += after or []
        p.deficit += best_def
    return p


def tile_count(p: Parse) -> int:
    return len(p.concealed) + (p.win is not None) + 3 * len(p.melds)


def rank_reading(t: Tiles, p: Parse, complete: Complete) -> tuple:
    """How good a reading is, to compare readings: a legal hand first, then a complete one, with a winning tile
    set apart, using the most tiles, leaving the fewest sideways tiles among the concealed ones; among illegal
    readings, the one nearest a legal count that shows the most detected tiles (so that a client sees them all)."""
    n = tile_count(p)
    hand = p.concealed + ([p.win] if p.win is not None else [])  # the concealed tiles and the winning one
    tiles = [t.labels[i] for i in hand]
    backs = any(label == BACK for label in tiles)
    legal = n in HAND_SIZES and not p.bad_groups and not backs
    used = len(tiles) + sum(len(g) for _, g in p.melds)
    if legal:
        # a concealed tile is never turned: a reading that leaves sideways tiles among them is likelier wrong
        turned = sum(bool(t.side[i]) for i in hand)
        return (1, complete(tiles), 0, p.win is not None, used, -turned, -round(p.deficit, 6), len(p.melds),
                -len(p.dropped))
    shown = used + sum(len(g) for g in p.bad_groups)
    return (0, False, -min(abs(n - s) for s in HAND_SIZES), shown, -len(p.bad_groups), p.win is not None,
            -len(p.dropped))
