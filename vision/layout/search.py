"""The reading search, ``group_melds(detections, complete=...) -> Layout``: loose single tiles set aside, the
hand's rows chosen, every reading of them tried and the best kept, then the layout built from it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import product

from vision.layout.flowers import hand_flowers
from vision.layout.frame import Frame, frame_of
from vision.layout.geometry import (
    DetectionLike,
    Tiles,
    cut_short,
    gap_between,
    median,
    seen_low,
    shows_side,
    single_loose,
)
from vision.layout.melds import MISSED_BACK, back_apart, classify, kong_tiles
from vision.layout.notation import plain_name, tile_key
from vision.layout.reading import Complete, Parse, drop_ways, rank_reading, read_rows, tile_count
from vision.layout.result import FLOWER_COPY, Layout, Meld, Problem, Row, assumed_note
from vision.layout.table import is_wall, kongs_joined, wall_ends
from vision.layout.tuning import (
    ASKEW_WIN,
    DOUBTED,
    FAR_GAP,
    HAND_SIZES,
    NEAR_GAP,
    NEAR_ROW,
    OVERLAP,
    OVERLAP_LOW,
    TABLE_TILES,
    WALL_BACKS,
    WIN_GAP,
)
from vision.names import BACK


def group_melds(dets: Sequence[DetectionLike], *, complete: Complete, frame: Frame | None = None) -> Layout:
    """Read the hand from ``dets`` (objects with label, confidence, box xyxy, sideways). ``complete`` tells whether
    tile names (a concealed part and its winning tile) make a complete hand: pass ``scorer.is_complete_tiles``.
    ``frame``: the boxes already measured (``frame_of(dets)``, or ``reframe`` for the same boxes renamed)."""
    f = frame or frame_of(dets)
    kept, merged = list(f.kept), f.merged
    notes: list[str] = []
    if f.duplicates:
        notes.append(f"{len(f.duplicates)} duplicate box(es) merged")
    if f.tiles is None:
        return Layout(merged=tuple(merged), notes=(*notes, "no tiles found"),
                      problem=Problem("no_tiles", "no tiles were found in the photo", 0, HAND_SIZES))
    t = f.tiles
    if f.overlapped:
        notes.append(f"{len(f.overlapped)} box(es) overlapping a neighbour in a row by more than "
                     f"{OVERLAP_LOW if t.perspective else OVERLAP:.0%} of a tile dropped")
    rows = f.rows
    row_groups = [kongs_joined(t.labels, [list(g) for g in gs]) for gs in f.groups]
    is_flower = [lb.endswith("f") for lb in t.labels]
    ref = t.ref

    low = seen_low(t)  # the hand stands, seen from low: its flowers lie flat in front of it or beside it

    def alike(i: int, j: int) -> bool:  # two flowers, or two tiles of one name
        return is_flower[i] and is_flower[j] or t.labels[i] == t.labels[j] != BACK
    # single tiles that cannot be part of the hand: askew, sideways alone, a back alone, or far from their row
    loose: set[int] = set()
    for gs in row_groups:
        for k, g in enumerate(gs):
            if len(g) != 1:
                continue
            i = g[0]
            # gaps to the neighbours; to neighbouring groups of two or more, and to a single tile alike (flowers
            # lying side by side may be boxed apart, and one of them shaped unlike the hand's tiles; a tile beside
            # another of its name may be a pair, the winning tile set down beside its partner)
            gaps, near = [], []
            if k > 0:
                gaps.append(gap_between(t, gs[k - 1][-1], i))
                if len(gs[k - 1]) > 1 or alike(i, gs[k - 1][-1]):
                    near.append(gaps[-1])
            if k + 1 < len(gs):
                gaps.append(gap_between(t, i, gs[k + 1][0]))
                if len(gs[k + 1]) > 1 or alike(i, gs[k + 1][0]):
                    near.append(gaps[-1])
            far = bool(gaps) and min(gaps) > FAR_GAP * t.u and not is_flower[i]
            # a tile close to a group may belong to a meld split by a noisy gap: the reading decides
            apart = not near or min(near) > NEAR_GAP * t.u
            # near the hand (a winning tile set apart), a noisy box may be off by twice the tolerance
            close = bool(near) and min(near) <= WIN_GAP * t.u and not is_flower[i]
            # a flower beside the end of the hand: twice the tolerance too
            beside = is_flower[i] and bool(gaps) and min(gaps) <= 1.8 * t.u
            slack = 2.0 if close or beside else 1.0
            # (seen low, a flower lying beside a standing row is shaped otherwise: where it lies decides, below)
            # (near the hand a winning tile may be set down askew)
            askew = single_loose(t, i, ref, slack, ASKEW_WIN if close else 0.0) and not (low and is_flower[i]) \
                and not (shows_side(t, i, ref, slack) and not is_flower[i]) \
                and not (is_flower[i] and cut_short(t, i, ref))  # (a standing tile showing its side; a flower hidden)
            if (apart and (t.labels[i] == BACK or askew)) or far:
                loose.add(i)
    row_groups = [[g for g in gs if not (len(g) == 1 and g[0] in loose)] for gs in row_groups]
    # a run of more backs than a concealed kong shows is a wall of the table, not the hand's (``table.py``)
    # (in a photo of a hand, not a table, a back the finder doubted is not counted: a spurious box beside a kong)
    doubted = None if len(kept) >= TABLE_TILES else t.conf < DOUBTED
    walls = [g for gs in row_groups for g in gs if is_wall(t.labels, g, doubted)]
    if f.walls or walls:
        notes.append(f"{len(f.walls) + sum(map(len, walls))} tile(s) of the table's walls set aside (runs of more "
                     f"than {WALL_BACKS} backs)")
        row_groups = [[g for g in gs if g not in walls] for gs in row_groups]
    if len(kept) >= TABLE_TILES:  # a whole table: a back amid a group's faces is a wall's, the faces apart
        row_groups = [[part for g in gs for part in wall_ends(t.labels, g, classify(t, g))] for gs in row_groups]
    else:
        row_groups = [[part for g in gs for part in back_apart(t.labels, g)] for gs in row_groups]

    # the main row: most tiles in groups of two or more (flowers aside)
    def weight(gs: list[list[int]]) -> tuple[int, int]:
        return (sum(len(g) for g in gs if len(g) >= 2 and not all(is_flower[i] for i in g)),
                sum(len(g) for g in gs))

    ymid = [median(t.xy[[i for g in gs for i in g], 1]) if gs else 0.0 for gs in row_groups]
    rsize = [median(t.scale[[i for g in gs for i in g]]) if gs else 1.0 for gs in row_groups]
    main = max(range(len(rows)), key=lambda r: (weight(row_groups[r]), -r))
    candidates: list[list[int]] = [[main]]
    for r in range(len(rows)):
        if r != main and row_groups[r] and abs(ymid[r] - ymid[main]) < NEAR_ROW * t.u * max(rsize[r], rsize[main]) \
                and not all(is_flower[i] for g in row_groups[r] for i in g):
            candidates.append(sorted([main, r]))

    best: tuple | None = None
    best_parse: Parse | None = None
    best_set: list[int] = []
    for rset in candidates:
        sub = [row_groups[r] for r in rset]
        for conc in range(len(rset)):
            for reverse in (False, True):
                ways = [drop_ways(gs, reverse and r == conc) for r, gs in enumerate(sub)]
                for drops in product(*ways):
                    p = read_rows(t, sub, conc, reverse, drops)
                    if p is None:
                        continue
                    s = rank_reading(t, p, complete)
                    if best is None or s > best:
                        best, best_parse, best_set = s, p, rset
    assert best_parse is not None and best is not None
    p = best_parse

    flowers = hand_flowers(t, p, best_set, row_groups, ymid, low)
    flower_rows = [r for r in range(len(row_groups)) if r not in best_set
                   and any(i in flowers for g in row_groups[r] for i in g)]
    used = set(p.concealed) | {i for _, g in p.melds for i in g} | set(flowers)
    if p.win is not None:
        used.add(p.win)
    loose_all = sorted(i for i in range(len(kept)) if i not in used)

    g_idx = kept  # local -> original index
    melds = tuple(Meld(kind, tuple(sorted((t.labels[i] for i in g), key=tile_key))
                       if not all(t.labels[i] == BACK for i in g) else (), tuple(g_idx[i] for i in g))
                  for kind, g in p.melds)
    melds = tuple(Meld(m.kind, kong_tiles(m), m.detections) if m.kind == "concealed_kong" else m for m in melds)
    # a stable order, whichever way the photo is turned: exposed melds, then concealed kongs, each in mpsz order
    melds = tuple(sorted(melds, key=lambda m: (not m.exposed, tile_key(m.tiles[0]) if m.tiles else (9, 0),
                                               len(m.tiles), m.tiles)))
    concealed = tuple(plain_name(t.labels[i]) for i in p.concealed)
    win = plain_name(t.labels[p.win]) if p.win is not None else None

    problem = _problem(t, p, melds, concealed, win, flowers)
    if problem is not None:
        problem = replace(problem, detections=tuple(g_idx[i] for i in problem.detections))
    conc_dets = [g_idx[i] for i in p.concealed]
    win_det = g_idx[p.win] if p.win is not None else None
    candidates_w: tuple[str, ...] = ()
    assumed = False
    if (problem is None or problem.code == FLOWER_COPY) and win is None:
        assumed = True
        candidates_w = tuple(sorted(set(concealed), key=lambda s: (tile_key(s), s)))
        win = concealed[-1]  # the default assumption: the last tile in reading order
        concealed = concealed[:-1]
        win_det = conc_dets.pop()
        notes.append(assumed_note(candidates_w, win))
    for m in melds:
        if not m.known:
            notes.append("a concealed kong shows four backs: its tile is unknown; give it in the request "
                         "(\"concealed_kongs\": [\"9p\"]) or write the hand yourself")
        if m.kind == "concealed_kong" and len(m.detections) == MISSED_BACK:
            notes.append(f"{MISSED_BACK} backs in a row read as a concealed kong of four backs, one of them not found")
    if p.dropped:
        notes.append(f"{len(p.dropped)} tile(s) in line with the hand left out as loose")
    if loose_all:
        notes.append(f"{len(loose_all)} loose tile(s) ignored")

    local_rows = []
    conc_r = best_set[p.conc_row] if best_set else -1
    for r in sorted(set(best_set) | set(flower_rows), key=lambda r: ymid[r]):
        if r in flower_rows:
            gs = [g for g in row_groups[r] if all(is_flower[i] for i in g)]
            local_rows.append(Row("flowers", tuple(tuple(g_idx[i] for i in g) for g in gs)))
            continue
        role, gs = p.rows[best_set.index(r)]
        if r != conc_r:
            role = "melds"
        local_rows.append(Row(role, tuple(tuple(g_idx[i] for i in g) for g in gs)))
    return Layout(
        rows=tuple(local_rows), melds=melds, concealed=concealed,
        concealed_detections=tuple(conc_dets), win_tile=win, win_detection=win_det,
        win_tile_assumed=assumed, win_candidates=candidates_w,
        flowers=tuple(sorted((t.labels[i] for i in flowers), key=tile_key)),
        flower_detections=tuple(g_idx[i] for i in flowers),
        loose=tuple(sorted([*(g_idx[i] for i in loose_all), *f.walls])),
        merged=tuple(merged), notes=tuple(notes), problem=problem, angle=t.angle, tile_size=t.u)


def _problem(t: Tiles, p: Parse, melds: tuple[Meld, ...], concealed: tuple[str, ...],
             win: str | None, flowers: Sequence[int]) -> Problem | None:
    if p.bad_groups:
        g = p.bad_groups[0]
        names = " ".join(t.labels[i] + ("*" if t.side[i] else "") for i in g)
        count = "1 tile" if len(g) == 1 else f"{len(g)} tiles"
        return Problem("bad_group", f"the group {names} ({count}) among the melds is no chow, pung or kong: a meld "
                       "has 3 or 4 tiles (a missed or extra tile?)", detections=tuple(g))
    n = tile_count(p)
    if n not in HAND_SIZES:
        want = min(HAND_SIZES, key=lambda s: abs(n - s))
        diff = n - want
        what = f"{abs(diff)} tile(s) {'missing' if diff < 0 else 'too many'}"
        hand = len(p.concealed) + (p.win is not None)
        needs = [s - 3 * len(p.melds) for s in HAND_SIZES if s - 3 * len(p.melds) > 0]
        where = (f"; beside {len(p.melds)} meld(s) the concealed tiles and the winning tile number {hand}, "
                 f"where a hand has {' or '.join(str(x) for x in needs)}") if needs else ""
        return Problem("tile_count", f"read {n} tiles (kongs counted as 3) but a hand has 14 (17 in Fuzhou): "
                       f"{what}{where}; check for a tile the camera missed or a loose tile taken for the hand", n,
                       HAND_SIZES)
    hand = [*p.concealed, *([p.win] if p.win is not None else [])]
    bad = [i for i in hand if t.labels[i] == BACK]
    if bad:
        return Problem("bad_group", "a face-down tile lies among the concealed tiles", detections=tuple(bad))
    every = Counter([*concealed, *([win] if win else []), *(x for m in melds for x in m.tiles)])
    fifth = sorted(k for k, v in every.items() if v > 4)
    if fifth:
        name = fifth[0]
        read = [i for i in hand if plain_name(t.labels[i]) == name]
        for kind, g in p.melds:  # (a concealed kong's backs count as its face)
            faces = {plain_name(t.labels[i]) for i in g}
            read += [i for i in g if plain_name(t.labels[i]) == name
                     or kind == "concealed_kong" and t.labels[i] == BACK and name in faces]
        return Problem("fifth_copy", f"{name} is read {every[name]} times; there are only 4 of each tile",
                       detections=tuple(sorted(read)))
    shown = Counter(t.labels[i] for i in flowers)
    twice = sorted((k for k, v in shown.items() if v > 1), key=tile_key)
    if twice:
        name = twice[0]
        return Problem(FLOWER_COPY, f"{name} is read {shown[name]} times among the flowers; a set has one of each",
                       detections=tuple(sorted(i for i in flowers if t.labels[i] == name)))
    return None
