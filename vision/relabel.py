"""Second choices: when the classifier's first reading makes no legal, complete hand, try its next likeliest ones.

``read_hand(detections, complete=scorer.is_complete_tiles) -> (layout, detections)``. The layout is read from the
first names and sideways flags; if it is legal and complete (as ``complete`` judges; a 17-tile Fuzhou hand only
needs to be legal, since a gold tile may stand in for any tile), that is the answer. Otherwise the tiles whose
second (or third) name, or whose other sideways flag (``Detection.sideways_p``), is nearly as likely are changed,
the boxes the finder was unsure of (``DROP_BELOW``: a spurious back between a kong and the winning tile, a tile's
shadow at the hand's end) left out (not in a whole table), and a white-backed set's group of backs read as blank
white dragons or the reverse (``WHITE_COST``), one, two or three at a time (tiles in or near the first reading's
rows only), the likeliest change first (the product of the probabilities taken; leaving a box out costs its being no
tile, ``1 - confidence``), and the first change whose layout is legal and complete is the answer, with a note naming
each tile changed; a box left out is loose. A change whose reading leaves a concealed kong's tile unknown yields to
one dearer by at most ``KNOWN_COST`` that reads it. A photo whose tiles make no hand under any of them keeps the
first reading and its problem, so that a client can show it. A flower read twice is first named apart
(``distinct_flowers``: a set holds one of each), and no tile is renamed to a flower another shows. Two legal
readings are read again: a 17-tile hand not complete as it lies, by the renamings at most ``SEVENTEEN_COST`` that
complete it; and an exposed kong of blank white dragons, none turned, in a white-backed set, as a concealed kong of
four backs; and a concealed kong read from three backs (its fourth missed) in a white-backed set, as a pung of blank
white dragons.
The boxes are measured once (``vision.layout.frame``): a renaming that changes no sideways flag and no confidence
that decided a duplicate or an overlap reads the same rows again with the new names; each part left after boxes are
left out, and each set of sideways flags, is measured once too (``_Frames``).
A photo of a whole table (``TABLE_TILES`` or more, walls aside) whose rows read no complete hand is first read a
quarter turn round, then part by part (``vision.layout.table``), each part alone with its own second choices and its
faces' sideways flags taken along its own tiles (a hand turned a quarter from the photo's commonest direction), before
the whole photo's tiles are renamed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from vision.layout import Complete, Layout, group_melds
from vision.layout.frame import Frame, frame_of, reframe
from vision.layout.melds import MISSED_BACK
from vision.layout.result import FLOWER_COPY
from vision.layout.table import table_parts
from vision.layout.tuning import TABLE_TILES
from vision.names import BACK, FLOWER_NAMES, WHITE

MAX_CHANGES = 3  # tiles renamed at once
MAX_OPTIONS = 12  # the likeliest single renamings considered
MAX_TRIES = 60  # layouts read at most (about 1.5 ms each)
MIN_RATIO = 0.02  # a second name (or flag) at least this likely relative to the first
NEAR = 3.0  # tiles renamed lie within this many tile sizes of the hand's rows
FLIP = "sideways"  # the change that turns a tile's sideways flag over
DROP = "dropped"  # the change that leaves a box out, one the finder was unsure of or a back
DROP_BELOW = 0.4  # ... one it gave less than this (0.3 / 0.4 / 0.5 with four: 428 / 431 / 431 of layout_eval)
MAX_DROPS = 4  # the least sure boxes considered, beside the renamings
SUREST = 0.999  # a box's confidence as its cost of being none takes it (a box given 1.0 may still be left out)
# a set whose backs are white shows its backs as its blank white dragons: a group's backs may be read as 5z, or its
# 5z as backs, all at once, at this cost (``bench.eval_tile_sets``' white-backed hands 0.55 -> 0.825 at 0.5 to 0.7,
# 0.775 at 1.0 and 1.6; the 500 hand photos of ``layout_eval`` through the detector 428 / 430 / 431 / 431 at 0 /
# 0.35 / 0.7 / 1.0)
WHITE_COST = 0.7
# ... where the classifier gives the group's tiles this much of their twin on average: in white-backed sets it gives
# 0.01 to 0.45 (a tile of a group 0.012 beside 0.06 and 0.04), to a coloured back none (under 0.01) or, rarely, 0.017
WHITE_TWIN = 0.02
WHITE_GROUP = "white:"  # the change that reads a group's backs as blank white dragons, or its white dragons as backs
# ... and where a white-backed set's groups may be so read, this many times MAX_TRIES layouts are read at most (its
# blank white dragons, named back, need their group and a lone winning tile renamed together: white-backed hands
# through the detector 33 -> 36 of 40; reading twice as many for every photo doubled the slowest photos' layout time)
WHITE_TRIES = 2
# a change whose reading leaves a concealed kong's tile unknown (four backs) is taken only where no change dearer by
# at most this reads the kong's tile (a kong shown back, 5z, 5z, back, one face named back: the box of the other left
# out read three backs)
KNOWN_COST = 0.35
SEVENTEEN_COST = 0.7  # a 17-tile reading not complete as it is: renamings costing at most this that make it so
PART_LEAST = 8  # a table's part of fewer tiles holds no hand (eight: a hand of four kongs and a pair)


def acceptable(layout: Layout, complete: Complete, gold_known: bool = False) -> bool:
    """Legal, and complete (as ``complete`` judges) when it has 14 tiles (kongs counted as 3), or 17 and
    ``gold_known`` (``complete`` then judges a Fuzhou hand with its golds wild). A hand with a flower read twice that
    no naming of its flowers reads apart (``distinct_flowers``) is taken with that problem: no hand tells which flower
    was misread (any completes a hand as well), so a renaming by second choices is never checked (the fresh photos'
    four such hands each took a wrong flower so)."""
    if (layout.problem is not None and layout.problem.code != FLOWER_COPY) or layout.win_tile is None:
        return False
    return (_seventeen(layout) and not gold_known) or complete([*layout.concealed, layout.win_tile])


def _seventeen(layout: Layout) -> bool:
    """A Fuzhou hand's 17 tiles (kongs counted as 3)."""
    return len(layout.concealed) + 1 + 3 * len(layout.melds) == 17


def read_hand(dets: Sequence[Any], *, complete: Complete, table: bool = False, gold_known: bool = False
              ) -> tuple[Layout, list[Any]]:
    """The layout of ``dets`` (``vision.Detection`` or any frozen dataclass with its fields), renaming the fewest
    and likeliest tiles needed to make a hand ``complete`` judges complete (pass ``scorer.is_complete_tiles``);
    returns the layout and the detections it was read from. ``table``: ``dets`` are a part of a whole table.
    ``gold_known``: ``complete`` judges a 17-tile Fuzhou hand with its gold wild (``scorer.complete_with_gold``), so
    such a hand is renamed as a 14-tile one is; without it a 17-tile hand needs only be legal. Where the reading shows
    a flower twice, the hand is read again with its flowers named apart (``distinct_flowers``)."""
    dets = list(dets)
    layout, named = _read_hand(dets, complete, table, gold_known)
    distinct = distinct_flowers(layout, named)
    if not distinct:
        return layout, named
    again, renamed = _read_hand([_rename(d, distinct[i]) if i in distinct else d for i, d in enumerate(dets)],
                                complete, table, gold_known, kept=frozenset(distinct))
    said = ", ".join(f"tile {i} as {name} (not {named[i].label})" for i, name in sorted(distinct.items()))
    note = f"{layout.problem.message}: read {said}, the likeliest naming of the flowers that reads none twice"
    return replace(again, notes=(*again.notes, note), renamed=tuple(sorted({*again.renamed, *distinct}))), renamed


def _read_hand(dets: list[Any], complete: Complete, table: bool, gold_known: bool, kept: frozenset[int] = frozenset()
               ) -> tuple[Layout, list[Any]]:
    """``read_hand``'s reading, its flowers as named; the tiles ``kept`` (flowers named apart) are not renamed."""

    def ok(layout: Layout) -> bool:
        return acceptable(layout, complete, gold_known)

    frame = frame_of(dets)  # the boxes are measured once; a renaming that leaves them be reuses it
    first = group_melds(dets, complete=complete, frame=frame)
    if ok(first):
        if _seventeen(first) and not complete([*first.concealed, first.win_tile]):
            # a Fuzhou hand is legal with any tiles (its gold stands in for any), and most are complete as they are
            better = _second_choices(dets, first, frame, complete, ok, drops=False, most=SEVENTEEN_COST,
                                     taken=complete, kept=kept)
            if better is not None:
                return better
        return _white_twins(first, dets, frame, complete, ok)
    whole = len(frame.kept) >= TABLE_TILES
    if whole:  # a whole table: its tiles lie both ways, and the hand along either
        across = group_melds(dets, complete=complete, frame=frame_of(dets, deduped=frame, turned=True))
        if ok(across):
            return across, dets
        part = _table_part(dets, frame.walls, complete, gold_known)
        if part is not None:
            return part
    # no box is left out of a whole table or its parts: its many doubtful boxes, each a frame measured anew, doubled
    # the slowest table's layout (148 -> 281 ms) and read no table more
    return _second_choices(dets, first, frame, complete, ok, drops=not (table or whole), kept=kept) or (first, dets)


def distinct_flowers(layout: Layout, dets: Sequence[Any]) -> dict[int, str]:
    """Where ``layout`` reads a flower twice (``FLOWER_COPY``): its flowers named apart, each by one of the flowers of
    its ranking at least ``MIN_RATIO`` as likely as its first name, the likeliest such naming (the product of their
    probabilities; of equals, the one that renames the later tiles): {detection: its new name} for those renamed; {}
    where the layout reads none twice, or no naming reads none twice.

    A set holds one of each flower, so one of the two is misread; the tile less sure of the name, with another flower
    nearly as likely, is the one misread (``bench.eval_tile_sets``' picture-flower hands: four of its five such hands
    read right so, the fifth stayed wrong, another flower wrong; ``docs/photo.md``)."""
    tiles = list(layout.flower_detections)
    if layout.problem is None or layout.problem.code != FLOWER_COPY or len(tiles) > len(FLOWER_NAMES):
        return {}  # (more flowers than a set holds: no naming reads them apart)
    options = [[(name, math.log(p)) for name, p in dets[i].ranked
                if name in FLOWER_NAMES and p > 0 and p >= MIN_RATIO * dets[i].ranked[0][1]] for i in tiles]
    rest = [sum(max((logp for _, logp in o), default=-math.inf) for o in options[k:]) for k in range(len(tiles) + 1)]
    best: tuple[float, tuple[str, ...]] | None = None

    def named(k: int, taken: tuple[str, ...], score: float) -> None:  # each naming, no flower twice, depth first
        nonlocal best
        if best is not None and score + rest[k] <= best[0]:
            return  # (the first of equals kept: it keeps the earlier tiles' names)
        if k == len(tiles):
            best = score, taken
            return
        for name, logp in options[k]:
            if name not in taken:
                named(k + 1, (*taken, name), score + logp)

    named(0, (), 0.0)
    if best is None:
        return {}
    return {i: name for i, name in zip(tiles, best[1], strict=True) if name != dets[i].label}


def _second_choices(dets: list[Any], first: Layout, frame: Frame, complete: Complete, ok: Callable[[Layout], bool],
                    *, drops: bool, most: float = math.inf, taken: Complete | None = None,
                    kept: frozenset[int] = frozenset()) -> tuple[Layout, list[Any]] | None:
    """The likeliest change of ``dets`` (renamings, flips, with ``drops`` boxes left out, white groups) costing at
    most ``most`` whose layout is acceptable (and whose hand ``taken`` takes, when given), with its note; None when
    none is. The tiles ``kept`` are not renamed, and no tile is renamed to a flower of the hand another shows."""
    hand = _near_hand(first, dets)
    shown = {dets[j].label: j for j in first.flower_detections}  # a set has one of each
    near = [o for o in sorted(_options(dets)) if o[1] in hand and o[0] <= most and (drops or o[2] != DROP)
            and shown.get(o[2], o[1]) == o[1] and (o[1] not in kept or o[2] in (FLIP, DROP))]
    whites = _white_groups(first, dets) if most == math.inf else []
    options = [o for o in near if o[2] != DROP][:MAX_OPTIONS] + [o for o in near if o[2] == DROP][:MAX_DROPS] + \
        [(WHITE_COST, tiles[0], WHITE_GROUP + twin) for tiles, twin in whites]
    white_of = {(tiles[0], WHITE_GROUP + twin): tiles for tiles, twin in whites}
    trials = sorted((sum(o[0] for o in c), c) for k in range(1, MAX_CHANGES + 1)
                    for c in combinations(options, k) if len({o[1] for o in c}) == k)
    unknown = None  # the first acceptable reading whose concealed kong shows four backs: a dearer one may tell it
    frames = _Frames(dets, frame)
    for cost, changes in trials[:MAX_TRIES * (WHITE_TRIES if whites else 1)]:
        if cost > most or unknown is not None and cost > unknown[0] + KNOWN_COST:
            break
        renamed, changed, dropped = _applied(dets, changes, white_of)
        if dropped:  # read without the boxes left out, in a frame of their own
            kept = [i for i in range(len(dets)) if i not in dropped]
            part = [renamed[i] for i in kept]
            layout = group_melds(part, complete=complete, frame=frames.of(kept, part)).of_part(kept, len(dets))
            layout = replace(layout, left_out=tuple(sorted(dropped)))
        else:
            layout = group_melds(renamed, complete=complete, frame=frames.of(range(len(dets)), renamed))
        if ok(layout) and (taken is None or taken([*layout.concealed, layout.win_tile])):
            said = ", ".join(_said(dets, i, name, white_of) for _, i, name in sorted(changes, key=_by_i))
            seconds = all(name == FLIP or name in dict(dets[i].ranked) for _, i, name in changes)
            note = (f"the classifier's first reading makes no complete hand; read {said}, its next likeliest reading"
                    if seconds else f"the first reading makes no complete hand; read {said}: the likeliest change "
                    "that makes one")
            layout = replace(layout, notes=(*layout.notes, note), renamed=tuple(sorted(changed)))
            found = _white_twins(layout, renamed, reframe(frame, renamed), complete, ok)
            if not found[0].unknown_kongs:
                return found
            unknown = unknown or (cost, found)
    return None if unknown is None else unknown[1]


class _Frames:
    """The frames of a photo's renamings (``reframe``), each part of its boxes (those not left out) and each set of
    their sideways flags measured once with the first names: a renaming that flips a tile (or names it a back, never
    sideways) or leaves a box out reads the rows of the photo measured so, not measured again for each renaming."""

    def __init__(self, dets: list[Any], frame: Frame) -> None:
        self._dets = dets
        self._measured: dict[tuple, Frame] = {(tuple(range(len(dets))), frame.sideways): frame}

    def of(self, kept: Sequence[int], renamed: list[Any]) -> Frame:
        """The frame of the detections ``kept`` (indices into the first ones), renamed and flipped as ``renamed``
        (one for each of ``kept``)."""
        first = [self._dets[i] for i in kept]
        whole = (tuple(kept), tuple(bool(d.sideways) for d in first))
        if whole not in self._measured:
            self._measured[whole] = frame_of(first)
        flags = tuple(bool(d.sideways) for d in renamed)
        key = (tuple(kept), flags)
        if key not in self._measured:  # (measured with the rows' direction and neighbours as the boxes unflipped)
            flipped = [replace(d, sideways=s) for d, s in zip(first, flags, strict=True)]
            self._measured[key] = frame_of(flipped, deduped=self._measured[whole])
        return reframe(self._measured[key], renamed)


def _applied(dets: list[Any], changes: Sequence[tuple[float, int, str]], white_of: dict[tuple[int, str], list[int]]
             ) -> tuple[list[Any], set[int], set[int]]:
    """``dets`` with ``changes`` made: (the detections renamed and flipped, the indices changed, those left out)."""
    renamed, changed, dropped = list(dets), set(), set()
    for _, i, name in changes:
        if name == DROP:
            dropped.add(i)
        elif name == FLIP:
            renamed[i] = _flip(dets[i])
            changed.add(i)
        else:
            tiles = white_of.get((i, name), [i])
            for j in tiles:
                renamed[j] = _rename(dets[j], name.removeprefix(WHITE_GROUP))
            changed |= set(tiles)
    return renamed, changed, dropped


def _white_twins(read: Layout, dets: list[Any], frame: Frame, complete: Complete,
                 ok: Callable[[Layout], bool]) -> tuple[Layout, list[Any]]:
    """``read`` with a white-backed set's white tiles read again: three backs as a pung of blank white dragons
    (``_white_pungs_face_up``), four blank white dragons none turned as a concealed kong
    (``_white_kongs_face_down``)."""
    read, renamed = _white_pungs_face_up(read, dets, frame, complete, ok)
    frame = frame if renamed is dets else reframe(frame, renamed)  # (most photos: none renamed, the frame as it was)
    return _white_kongs_face_down(read, renamed, frame, complete, ok)


def _white_pungs_face_up(read: Layout, dets: list[Any], frame: Frame, complete: Complete,
                         ok: Callable[[Layout], bool]) -> tuple[Layout, list[Any]]:
    """``read`` (a legal, complete reading of ``dets``) with each concealed kong read from three backs (its fourth,
    the finder missed: ``melds.MISSED_BACK``) read as a pung of blank white dragons instead, in a set whose backs are
    white (``WHITE_TWIN``): there three white tiles are likelier a pung of its blank white dragons than a kong whose
    back the finder missed, and the hand is then read whole. ``read``'s notes and renamings are kept."""
    pungs = [list(m.detections) for m in read.melds if not m.known and len(m.detections) == MISSED_BACK
             and all(dets[j].label == BACK for j in m.detections) and _twins(dets, m.detections, WHITE)]
    return _read_as(read, dets, frame, complete, ok, pungs, WHITE, -1,
                    "three white tiles read as a pung of blank white dragons ({}; a white back and a blank white "
                    "dragon look alike), not as a concealed kong whose fourth back the finder missed")


def _white_kongs_face_down(read: Layout, dets: list[Any], frame: Frame, complete: Complete,
                           ok: Callable[[Layout], bool]) -> tuple[Layout, list[Any]]:
    """``read`` (a legal, complete reading of ``dets``) with each exposed kong of four blank white dragons showing no
    sideways tile read as a concealed kong of four backs instead, in a set whose backs are white (``WHITE_TWIN``): such
    a kong is one tile in 34 laid without a turned tile, four backs any concealed kong laid face down. ``read``'s notes
    and renamings are kept."""
    kongs = [list(m.detections) for m in read.melds if m.kind == "kong" and set(m.tiles) == {WHITE}
             and not any(dets[j].sideways for j in m.detections)
             and _twins(dets, m.detections, BACK)]
    return _read_as(read, dets, frame, complete, ok, kongs, BACK, +1,
                    "four blank white tiles with none turned read as a concealed kong's backs ({}; a white back and a "
                    "blank white dragon look alike), not as an exposed kong of white dragons")


def _read_as(read: Layout, dets: list[Any], frame: Frame, complete: Complete, ok: Callable[[Layout], bool],
             groups: list[list[int]], name: str, unknown: int, why: str) -> tuple[Layout, list[Any]]:
    """``read`` with the tiles of ``groups`` named ``name``, where that reading is legal and complete and has
    ``unknown`` more kongs of unknown tile per group, noted by ``why`` (its ``{}`` the groups' tiles); else ``read``
    as it is (so too where boxes were left out)."""
    if not groups or read.left_out:
        return read, dets
    renamed = list(dets)
    for j in (j for g in groups for j in g):
        renamed[j] = _rename(dets[j], name)
    layout = group_melds(renamed, complete=complete, frame=reframe(frame, renamed))
    if not ok(layout) or layout.unknown_kongs != read.unknown_kongs + unknown * len(groups):
        return read, dets
    said = "; ".join("tiles " + ", ".join(map(str, g)) for g in groups)
    notes = (*layout.notes, *(n for n in read.notes if n not in layout.notes), why.format(said))
    changed = tuple(sorted({*read.renamed, *(j for g in groups for j in g)}))
    return replace(layout, notes=notes, renamed=changed), renamed


def _white_groups(layout: Layout, dets: list[Any]) -> list[tuple[list[int], str]]:
    """A white-backed set's tiles read as their white twins, group by group: the backs of a group of the
    first reading's rows, all at once, as blank white dragons, or its white dragons as backs (a pair of 5z read
    back, back; four backs of a concealed kong read 5z four times), where the classifier gives the twin
    ``WHITE_TWIN`` of each on average (a coloured back it gives none): (the tiles, the name they take)."""
    out = []
    for row in layout.rows:
        for g in row.groups:
            for label, twin in ((WHITE, BACK), (BACK, WHITE)):
                tiles = [j for j in g if dets[j].label == label]
                if tiles and _twins(dets, tiles, twin) and not (twin == BACK and any(dets[j].sideways for j in g)):
                    out.append((tiles, twin))  # (a group with a tile turned is exposed: none of it is a back)
    return out


def _twins(dets: list[Any], tiles: Sequence[int], twin: str) -> bool:
    """Whether the classifier gives ``tiles`` their white ``twin`` (a back, a blank white dragon) ``WHITE_TWIN`` of
    each on average, as it does in a set whose backs are white (a coloured back it gives none)."""
    return sum(dict(dets[j].ranked).get(twin, 0.0) for j in tiles) >= WHITE_TWIN * len(tiles)


def _said(dets: list[Any], i: int, name: str, white_of: dict[tuple[int, str], list[int]]) -> str:
    """One change as the note says it."""
    d = dets[i]
    if name == DROP:
        return f"with tile {i} left out (a {'back' if d.label == BACK else 'box'} the finder gave {d.confidence:.2f})"
    if name == FLIP:
        return f"tile {i} " + ("upright" if d.sideways else "sideways")
    tiles = white_of.get((i, name), [i])
    said = f"tile {i}" if len(tiles) == 1 else "tiles " + ", ".join(map(str, tiles))
    why = " (a white back and a blank white dragon look alike)" if name.startswith(WHITE_GROUP) else ""
    return f"{said} as {name.removeprefix(WHITE_GROUP)} (not {d.label}){why}"


def _table_part(dets: list[Any], walls: Sequence[int], complete: Complete, gold_known: bool
                ) -> tuple[Layout, list[Any]] | None:
    """The first part of a whole table (``table.table_parts``, the biggest first, of fewer than ``TABLE_TILES``: not
    a table again) that reads a hand alone, in its own frame, second choices and all, as a layout of all ``dets``;
    None when none does."""
    for part in table_parts(dets, walls):
        if len(part) < PART_LEAST:
            break
        if len(part) >= TABLE_TILES:
            continue
        layout, named = read_hand(_own_way([dets[i] for i in part]), complete=complete, table=True,
                                  gold_known=gold_known)
        if acceptable(layout, complete, gold_known):
            whole = list(dets)
            for k, i in enumerate(part):
                whole[i] = named[k]
            note = f"the hand read from {len(part)} of the table's {len(dets)} tiles, lying apart from the rest"
            return layout.of_part(part, len(dets), note), whole
    return None


def _options(dets: list[Any]) -> list[tuple[float, int, str]]:
    """Each single change with its cost, -log of its probability relative to the first reading: another name,
    the sideways flag turned over, or the box left out (one the finder doubted, or a back)."""
    out = []
    for i, d in enumerate(dets):
        for name, p in d.ranked[1:]:
            if p > 0 and p >= MIN_RATIO * d.ranked[0][1]:
                out.append((math.log(d.ranked[0][1] / p), i, name))
        if d.confidence < DROP_BELOW or d.label == BACK:  # a box likelier no tile than a tile, or a back (a box
            # over a checked cloth between the concealed tiles and the winning tile set apart, joining them): left
            # out at the cost of its being none
            out.append((-math.log(1 - min(d.confidence, SUREST)), i, DROP))
        sp = getattr(d, "sideways_p", None)
        if sp is not None and d.label != BACK:
            now, other = (sp, 1 - sp) if d.sideways else (1 - sp, sp)
            if now > 0 and other > 0 and other >= MIN_RATIO * now:  # (a flag its probability denies: not turned)
                out.append((math.log(now / other), i, FLIP))
    return out


def _near_hand(layout: Layout, dets: list[Any]) -> set[int]:
    """The detections that may change the hand when renamed: those within ``NEAR`` tile sizes of the rows the
    first reading took (every detection when it took none). In a photo of a whole table, the tiles far from the
    hand then do not take the places of the likeliest renamings."""
    rows = [i for r in layout.rows for i in r.detections]
    if not rows or layout.tile_size <= 0:
        return set(range(len(dets)))
    boxes = [dets[i].box for i in rows]
    reach = NEAR * layout.tile_size
    x0, y0 = min(b[0] for b in boxes) - reach, min(b[1] for b in boxes) - reach
    x1, y1 = max(b[2] for b in boxes) + reach, max(b[3] for b in boxes) + reach
    return {i for i, d in enumerate(dets) if d.box[2] >= x0 and d.box[0] <= x1 and d.box[3] >= y0 and d.box[1] <= y1}


def _by_i(o: tuple[float, int, str]) -> int:
    return o[1]


def _flip(d: Any) -> Any:
    return replace(d, sideways=not d.sideways)


def _own_way(dets: list[Any]) -> list[Any]:
    """A table's part with its faces' sideways flags taken along its own tiles: the detector flags a tile lying
    across the whole photo's commonest direction, and a hand turned a quarter from it shows most of its faces so
    flagged (a hand's melds show one sideways tile in three or four). Backs are never sideways.

    >>> from vision.detection import Detection
    >>> part = [Detection("1m", 0.9, (0, 0, 1, 1), True, sideways_p=0.9) for _ in range(3)]
    >>> part += [Detection("2m", 0.9, (0, 0, 1, 1), False, sideways_p=0.2), Detection("back", 0.9, (0, 0, 1, 1))]
    >>> [(d.sideways, d.sideways_p) for d in _own_way(part)][2:]
    [(False, 0.1), (True, 0.8), (False, None)]
    """
    faces = [d for d in dets if d.label != BACK]
    if 2 * sum(bool(d.sideways) for d in faces) <= len(faces):
        return dets
    return [d if d.label == BACK else _turned_flag(d) for d in dets]


def _turned_flag(d: Any) -> Any:
    """``d`` with its sideways flag measured from the other axis: turned over, its probability with it."""
    sp = getattr(d, "sideways_p", None)
    return _flip(d) if sp is None else replace(d, sideways=not d.sideways, sideways_p=round(1 - sp, 4))


def _rename(d: Any, name: str) -> Any:
    p = dict(d.ranked)
    p.setdefault(name, MIN_RATIO * d.ranked[0][1])  # a white twin its ranking left out
    ranked = ((name, p[name]), *((n, q) for n, q in d.ranked if n != name))
    confidence = round(d.confidence * p[name] / d.ranked[0][1], 4)
    return replace(d, label=name, confidence=confidence, ranked=ranked,
                   sideways=d.sideways and name != BACK)
