"""The facts of an MCR hand (computed once) and its readings (each a few facts more), for the detectors.

Tile indices are the 34-kind ones (m 0-8, p 9-17, s 18-26, z 27-33: E S W N, White Green Red); sets of
tiles are bitmasks over them (bit ``i`` for tile ``i``). A set of a reading is ``scorer.suits.Set``:
``(a chow, first index, claimed, a kong)``.
"""

from __future__ import annotations

from typing import Final

from ..decompose import (
    KNITTED_SEQUENCES,
    Shape,
    honors_and_knitted,
    is_thirteen_orphans,
    knitted_straight_rests,
    seven_pairs,
)
from ..hand import Hand, MeldKind, WinContext, Wind
from ..suits import Counts, Set, sole_wait, wait_tiles, ways
from ..tiles import mask

WINDS: Final = mask(range(27, 31))
DRAGONS: Final = mask(range(31, 34))
HONORS: Final = WINDS | DRAGONS
TERMINALS: Final = mask((0, 8, 9, 17, 18, 26))
_MAN: Final = mask(range(0, 9))
_PIN: Final = mask(range(9, 18))
_SOU: Final = mask(range(18, 27))
GREEN: Final = mask((19, 20, 21, 23, 25, 32))  # 2 3 4 6 8 bamboo and Green dragon
REVERSIBLE: Final = mask((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))  # 1234589p 245689s White


def ranks(*numbers: int) -> int:
    """The bitmask of the numbered tiles of these ranks (1-9) in every suit."""
    return mask(tuple(9 * suit + n - 1 for suit in range(3) for n in numbers))


SIMPLES: Final = ranks(2, 3, 4, 5, 6, 7, 8)


class HandFacts:
    """What every reading of one hand shares, computed once.

    ``concealed`` counts the concealed part with the winning tile, ``counts`` every tile (melds too);
    ``kinds`` is the bitmask of the kinds held, ``suits`` the number of numbered suits among them.
    """

    __slots__ = ("concealed", "counts", "kinds", "suits", "honors", "win", "self_draw", "last_tile",
                 "kong_replacement", "robbing_kong", "last_of_kind", "seat_wind", "round_wind", "melds",
                 "meld_chows", "meld_pungs", "exposed", "melded_kongs", "concealed_kongs", "hogs", "seven_pairs",
                 "_unique_wait")

    def __init__(self, hand: Hand, ctx: WinContext) -> None:
        counts: list[int] = [0] * 34
        kinds = 0
        for tile in hand.concealed:
            code = tile.code
            counts[code] += 1
            kinds |= 1 << code
        self.win = win = hand.win_tile.code
        counts[win] += 1
        kinds |= 1 << win
        self.concealed: Counts = tuple(counts)
        melds: list[Set] = []
        exposed = melded_kongs = concealed_kongs = in_melds = 0
        for meld in hand.melds:
            first = meld.tiles[0].code
            claimed = not meld.concealed
            if meld.kind is MeldKind.CHOW:
                melds.append((True, first, claimed, False))
                counts[first] += 1
                counts[first + 1] += 1
                counts[first + 2] += 1
                kinds |= 7 << first
                in_melds += first <= win <= first + 2
            else:
                size = len(meld.tiles)
                kong = size == 4
                melds.append((False, first, claimed, kong))
                counts[first] += size
                kinds |= 1 << first
                in_melds += size if first == win else 0
                melded_kongs += kong and claimed
                concealed_kongs += kong and not claimed
            exposed += claimed
        self.melds: tuple[Set, ...] = tuple(melds)
        self.meld_chows = tuple(first for is_chow, first, _, _ in melds if is_chow)
        self.meld_pungs = tuple(first for is_chow, first, _, _ in melds if not is_chow)
        self.exposed = exposed
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.counts: Counts = tuple(counts)
        fours = 0
        for n in counts:
            if n == 4:
                fours += 1
        self.hogs = fours - melded_kongs - concealed_kongs  # 四归一: four of a tile, no kong
        self.kinds = kinds
        self.suits = (kinds & _MAN != 0) + (kinds & _PIN != 0) + (kinds & _SOU != 0)
        self.honors = kinds & HONORS != 0
        self.self_draw = ctx.self_draw
        self.last_tile = ctx.last_tile
        self.kong_replacement = ctx.kong_replacement
        self.robbing_kong = ctx.robbing_kong
        self.last_of_kind = (ctx.last_of_kind or in_melds == 3) and not ctx.robbing_kong
        self.seat_wind = _WIND_INDEX[ctx.seat_wind]
        self.round_wind = _WIND_INDEX[ctx.round_wind]
        self.seven_pairs = False  # set once the readings are known
        self._unique_wait: bool | None = None

    def unique_wait(self) -> bool:
        """Whether the winning tile is the one tile that completed the concealed part (as sets and a
        pair, or as seven pairs when all thirteen tiles are concealed, as the reference does)."""
        if self._unique_wait is None:
            win = self.win
            unique = sole_wait(self.concealed, win)
            if unique and not self.melds:  # thirteen tiles held: six pairs wait for the seventh too
                before = list(self.concealed)
                before[win] -= 1
                if sum(n // 2 for n in before) == 6:
                    unique = [i for i, n in enumerate(before) if n % 2] == [win]
            self._unique_wait = unique
        return self._unique_wait


_WIND_INDEX: Final = {Wind.EAST: 27, Wind.SOUTH: 28, Wind.WEST: 29, Wind.NORTH: 30}


class Reading:
    """One reading of one hand: its shape, sets (melds first), the firsts of its chows and pungs (kongs
    too) sorted, its pair (-1: none), concealed pungs, wait (``"edge"``, ``"closed"``, ``"single"`` or
    None), and ``order``, its place among the regular readings in the reference calculator's order."""

    __slots__ = ("h", "shape", "sets", "chows", "pungs", "pair", "concealed_pungs", "wait", "order",
                 "found_chows", "found_pungs", "greater_honors", "knitted_in_honors", "knitted")

    def __init__(self, h: HandFacts, shape: Shape, sets: tuple[Set, ...] = (), chows: tuple[int, ...] = (),
                 pungs: tuple[int, ...] = (), pair: int = -1, wait: str | None = None, order: int = -1) -> None:
        self.h = h
        self.shape = shape
        self.sets = sets
        self.chows = self.found_chows = chows  # all chows and pungs, and those of the concealed part
        self.pungs = self.found_pungs = pungs
        self.pair = pair
        self.concealed_pungs = concealed_pung_count(sets, h.win, h.self_draw) if pungs else 0
        self.wait = wait
        self.order = order
        self.greater_honors = False
        self.knitted_in_honors = False
        self.knitted: tuple[int, ...] = ()  # the nine tiles of a knitted straight reading


def readings(h: HandFacts) -> list[Reading]:
    """Every reading of a hand: its regular readings in the reference calculator's order (``scorer.suits``
    walks a suit as it does, and fourteen tiles hold at most one suit that splits more than one way), then
    the special shapes."""
    out = []
    melds = h.melds
    win = h.win
    for order, (found, pair, chows, pungs) in enumerate(ways(h.concealed)):
        wait = wait_kind(found, pair, win)
        if wait is not None and not h.unique_wait():
            wait = None
        r = Reading(h, Shape.REGULAR, found, chows, pungs, pair, wait, order)
        if melds:
            r.sets = melds + found
            r.chows = tuple(sorted(chows + h.meld_chows)) if h.meld_chows else chows
            r.pungs = tuple(sorted(pungs + h.meld_pungs)) if h.meld_pungs else pungs
            if h.meld_pungs or h.concealed_kongs:
                r.concealed_pungs = concealed_pung_count(r.sets, win, h.self_draw)
        out.append(r)
    if not melds:
        counts = h.concealed
        kinds = h.kinds.bit_count()  # fourteen tiles of 7 kinds or fewer may be seven pairs ...
        if kinds <= 7 and seven_pairs(counts) is not None:
            out.append(Reading(h, Shape.SEVEN_PAIRS))
            h.seven_pairs = True
        if kinds == 13 and is_thirteen_orphans(counts):  # ... of 13 kinds thirteen orphans, of 14 a knitted hand
            out.append(Reading(h, Shape.THIRTEEN_ORPHANS))
        knitted = honors_and_knitted(counts) if kinds == 14 else None
        if knitted is not None:
            r = Reading(h, Shape.HONORS_AND_KNITTED)
            r.greater_honors, r.knitted_in_honors = knitted
            out.append(r)
    if len(melds) <= 1 and h.suits == 3 and any(h.kinds & knitted == knitted for knitted in _KNITTED):
        out.extend(_knitted_straight_readings(h))
    return out


_KNITTED: Final = tuple(mask(sequence) for sequence in KNITTED_SEQUENCES)


def _knitted_straight_readings(h: HandFacts) -> list[Reading]:
    """组合龙 with one more set and a pair.

    Wait fans (边张, 坎张, 单钓将) count when a copy of the winning tile stands in the set or pair
    beside the knitted nine, as PyMahjongGB counts them; the reference calculator's newer versions
    count none when the winning tile also belongs to the knitted nine. A winning tile found only in
    the knitted nine is no wait.
    """
    out = []
    win = h.win
    melds = h.melds
    for sequence, rest in knitted_straight_rests(h.concealed):
        for found, pair, chows, pungs in ways(rest):
            sets = melds + found
            wait = None
            if rest[win]:  # the winning tile can complete the set or pair beside the knitted nine
                if melds:
                    wait = "single"
                else:
                    before = list(rest)
                    before[win] -= 1
                    if only_wait(tuple(before), win):
                        wait = wait_kind(sets, pair, win)
            r = Reading(h, Shape.KNITTED_STRAIGHT, sets, chows, pungs, pair, wait)
            r.chows = tuple(sorted(chows + h.meld_chows))
            r.pungs = tuple(sorted(pungs + h.meld_pungs))
            r.concealed_pungs = concealed_pung_count(sets, win, h.self_draw) if r.pungs else 0
            r.knitted = sequence
            out.append(r)
    return out


def concealed_pung_count(sets: tuple[Set, ...], win: int, self_draw: bool) -> int:
    """Concealed pungs and kongs; on a discard, a pung of the winning tile is not concealed.

    Unless the winning tile can be read into a concealed chow of the same reading.
    """
    count = 0
    pung_of_win = False
    in_chow = False
    for is_chow, first, claimed, kong in sets:
        if claimed:
            continue
        if is_chow:
            in_chow = in_chow or first <= win <= first + 2
        else:
            count += 1
            pung_of_win = pung_of_win or (first == win and not kong)
    if not self_draw and pung_of_win and not in_chow:
        count -= 1
    return count


def only_wait(before: Counts, win: int) -> bool:
    """Whether ``win`` is the one tile that completes ``before`` (the concealed part before the win):
    as sets and a pair, or as seven pairs when all thirteen tiles are concealed, as the reference does."""
    found = wait_tiles(before) if sum(before) % 3 == 1 else frozenset()
    if sum(before) == 13 and sum(c // 2 for c in before) == 6:
        found = found | {i for i, c in enumerate(before) if c % 2}
    return found == {win}


def wait_kind(sets: tuple[Set, ...], pair: int, win: int) -> str | None:
    """边张, 坎张 or 单钓将 by where the winning tile stands in the concealed sets (edge first)."""
    edge = closed = False
    for is_chow, first, claimed, kong in sets:
        if claimed or kong or not is_chow:
            continue
        if first + 1 == win:
            closed = True
        elif first == win or first + 2 == win:
            edge = True
    if edge:
        return "edge"
    if closed:
        return "closed"
    return "single" if pair == win else None
