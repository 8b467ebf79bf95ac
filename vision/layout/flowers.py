"""The hand's flowers: runs of flower tiles beside the hand or in a row of their own near it."""

from __future__ import annotations

import numpy as np

from vision.layout.geometry import Tiles, gap_between, median
from vision.layout.reading import Parse
from vision.layout.tuning import BESIDE_LOW, NEAR_GAP, ROW_GAP


def hand_flowers(t: Tiles, p: Parse, hand_rows: list[int], row_groups: list[list[list[int]]],
                 ymid: list[float], low: bool = False) -> list[int]:
    """The hand's flowers: runs of flower tiles at the end of a hand row (beside the hand) or in a row of their own
    just above or below it, over the hand's span. The biggest such run is taken, and every other run of two or
    more; a single flower elsewhere is a loose tile. Where the hand stands, seen from low (``low``:
    ``geometry.seen_low``, a row shot in perspective or flowers lying flat beside a standing row) flowers lie in
    front of the standing row or beside either end of it: a run in a row of its own near the hand's, over its span
    or past either end, is the hand's."""
    used = p.concealed + [i for _, g in p.melds for i in g] + ([p.win] if p.win is not None else [])
    if not used:
        return []
    xs = t.xy[used, 0]
    lo, hi = float(xs.min()), float(xs.max())
    s_lo, s_hi = t.sized(used[int(xs.argmin())]), t.sized(used[int(xs.argmax())])  # the ends' sizes
    u = t.u
    rsize = [median([t.sized(i) for g in gs for i in g]) if gs else 1.0 for gs in row_groups]
    # which side is up (away from the player): melds lie above the concealed row; the winning tile lies to the
    # right of the concealed tiles, so its side tells whether the photo is turned round
    up = 0.0
    hand = p.concealed + ([p.win] if p.win is not None else [])
    conc_y = [t.xy[i, 1] for i in hand]
    meld_y = [t.xy[i, 1] for _, g in p.melds for i in g]
    conc_mid = median(conc_y) if conc_y else 0.0
    row_melds = [i for _, g in p.melds for i in g if abs(t.xy[i, 1] - conc_mid) < ROW_GAP * u] if conc_y else []
    either = low  # flowers may lie past either end of the hand
    if len(hand_rows) == 2 and conc_y and meld_y:
        up = float(np.sign(median(meld_y) - conc_mid))
        # melds lying nearer the camera than a standing row (seen from in front) say the photo is turned round, but
        # a winning tile right of the concealed ones says it is not: flowers beside either end are the hand's
        if p.win is not None and p.concealed and not row_melds \
                and np.sign(t.xy[p.win, 0] - median(t.xy[p.concealed, 0])) == up:
            either = True
    elif row_melds and hand:
        up = -float(np.sign(median(t.xy[row_melds, 0]) - median(t.xy[hand, 0])))
    elif p.win is not None and p.concealed:
        up = -float(np.sign(t.xy[p.win, 0] - median(t.xy[p.concealed, 0])))
    right = -up
    runs: list[tuple[int, float, list[int]]] = []  # (size, distance, run)
    for r, gs in enumerate(row_groups):
        raw: list[list[int]] = []  # runs of flowers along the row; a run split by a noisy gap is joined again
        for g in gs:
            run: list[int] = []
            for i in [*g, -1]:
                if i >= 0 and t.labels[i].endswith("f"):
                    run.append(i)
                    continue
                if run:
                    if raw and gap_between(t, raw[-1][-1], run[0]) < NEAR_GAP * u \
                            and _adjacent(gs, raw[-1][-1], run[0]):
                        raw[-1] += run
                    else:
                        raw.append(run)
                run = []
        for run in raw:
            x0, x1 = float(t.xy[run, 0].min()), float(t.xy[run, 0].max())
            # past the hand's right end (either end if unknown, or shot low: which side is the hand's right shows
            # less there, and the melds may lie nearer the camera than the standing row), in tile sizes there
            after = (x0 - hi) / ((t.sized(run[0]) + s_hi) / 2) if up <= 0 or either else -1e9
            before = (lo - x1) / ((t.sized(run[-1]) + s_lo) / 2) if up >= 0 or either else -1e9
            gap = max(after, before) - u
            # (seen low, lying flowers and standing tiles are measured less alike: up to BESIDE_LOW)
            beside = 0 <= gap + 0.5 * u and gap <= (BESIDE_LOW if low else 1.8) * u
            if r in hand_rows:  # beside the hand
                if beside:
                    runs.append((len(run), gap, run))
            else:
                dy = [(ymid[r] - ymid[h]) / ((rsize[r] + rsize[h]) / 2) for h in hand_rows]
                d = min(dy, key=abs)
                if low:
                    # shot low, flowers lying in front of a standing row, or beside its end, show just below it
                    if abs(d) <= 3.4 * u and gap <= BESIDE_LOW * u:
                        runs.append((len(run), abs(d), run))
                    continue
                side_ok = up == 0 or np.sign(d) == up or len(run) >= 2
                # a row of flowers above the hand starts within its span, short of its right end
                starts = [x0] if right > 0 else [x1] if right < 0 else [x0, x1]
                over = any(lo - 0.3 * u * s_lo <= x <= hi - 2.2 * u * s_hi if x == x0 and right >= 0
                           else lo + 2.2 * u * s_lo <= x <= hi + 0.3 * u * s_hi for x in starts)
                # (from 0.9 tile sizes: flowers lying flat before a hand standing seen from in front lie nearer;
                # 1.2 until 2026-11-28, standing_front's true boxes 26 -> 27 of 40, every other set alike)
                if 0.9 * u <= abs(d) <= 3.4 * u and side_ok and over:
                    runs.append((len(run), abs(d), run))
    if not runs:
        return []
    runs.sort(key=lambda r: (-r[0], r[1], r[2]))
    out = list(runs[0][2])
    for size, _, run in runs[1:]:
        if size >= 2:
            out += run
    return out


def _adjacent(gs: list[list[int]], a: int, b: int) -> bool:
    """Whether tiles ``a`` and ``b`` stand next to each other in the row ``gs`` (no tile between them)."""
    seq = [i for g in gs for i in g]
    return abs(seq.index(a) - seq.index(b)) == 1
