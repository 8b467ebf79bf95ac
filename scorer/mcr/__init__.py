"""Chinese Official (MCR) scoring: the 81 fans of the 1998 competition rules.

>>> from scorer.hand import parse_hand
>>> result = score(parse_hand("[555z]123p789s456m5s+5s"))
>>> result.total, [f.name_zh for f in result.fans]
(11, ['花龙', '箭刻', '单钓将'])
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..decompose import (
    Counts,
    Shape,
    counts_of,
    divide,
    honors_and_knitted,
    is_thirteen_orphans,
    knitted_straight_rests,
    seven_pairs,
)
from ..errors import ContextError, NotWinningError
from ..hand import Hand, Meld, MeldKind, WinContext
from ..options import apply_options
from ..result import Fan, ScoreResult
from ..tiles import format_tiles, tile_from_index
from .config import DEFAULT, MCRConfig
from .patterns import BY_ID, PATTERNS, Pattern, apply_exclusions, detect_all
from .reading import Reading, SetInfo, concealed_pung_count, only_wait, wait_kind

__all__ = ["DEFAULT", "MCRConfig", "PATTERNS", "rank_key", "score", "score_request", "settle"]

RULES = "mcr"


def score(hand: Hand, ctx: WinContext | None = None, config: MCRConfig = DEFAULT) -> ScoreResult:
    """Score a winning hand under the 1998 rules; the best reading is chosen by ``rank_key``."""
    ctx = ctx or WinContext()
    hand.check_size(4)
    ctx.check(hand)
    _check_last_of_kind(hand, ctx)
    candidates = [_score_reading(r, config) for r in _readings(hand, ctx)]
    if not candidates:
        msg = (
            f"{hand} is not a winning hand: it reads as neither four sets and a pair, seven pairs,"
            " thirteen orphans, nor a knitted hand"
        )
        raise NotWinningError(msg)
    fans, reading = max(candidates, key=rank_key)
    flowers = len(hand.flowers)
    if flowers:
        fans = {**fans, "flower_tiles": flowers}
    total = sum(BY_ID[f].value * n for f, n in fans.items())
    meets = total - flowers >= config.minimum
    return ScoreResult(
        rules=RULES,
        total=total,
        fans=tuple(_fan(p, fans[p.id]) for p in PATTERNS if p.id in fans),
        meets_minimum=meets,
        payments=settle(total, ctx, config) if meets else (),
        decomposition=groups_of(reading, hand),
    )


_TIE_PREFERRED = frozenset({"pure_triple_chow", "triple_pung"})


@lru_cache(maxsize=1024)
def _fan(pattern: Pattern, count: int) -> Fan:
    return Fan(pattern.id, pattern.name, pattern.name_zh, pattern.value, count)


def rank_key(candidate: tuple[dict[str, int], Reading]) -> tuple[int, bool, bool, tuple[int, ...]]:
    """就高不就低: the reading with the most fans wins.

    Readings with equal totals are told apart as the reference calculator does (its dated patches
    of 2022 and 2023), so that players comparing the two see the same fans: first a reading with
    一色三同顺 or 三同刻, then a reading of sets over seven pairs, then the reading whose fans are
    the higher ones compared from the highest down. Any tie left keeps the first reading found.
    """
    fans, reading = candidate
    values = sorted((BY_ID[f].value for f, n in fans.items() for _ in range(n)), reverse=True)
    preferred = not _TIE_PREFERRED.isdisjoint(fans)
    return sum(values), preferred, reading.shape is not Shape.SEVEN_PAIRS, tuple(values)


def settle(total: int, ctx: WinContext, config: MCRConfig = DEFAULT) -> tuple[tuple[str, int], ...]:
    """Payments by the 1998 settlement: self-draw, each of the three pays base + total; on a discard,
    the discarder pays base + total and the other two pay the base. Empty when the discarder is unknown."""
    seats = ["E", "S", "W", "N"]
    winner = ctx.seat_wind.value
    pays: dict[str, int] = {}
    if ctx.self_draw:
        for seat in seats:
            if seat != winner:
                pays[seat] = -(config.base_points + total)
    elif ctx.discarder is not None:
        for seat in seats:
            if seat != winner:
                pays[seat] = -(config.base_points + total if seat == ctx.discarder.value else config.base_points)
    else:
        return ()
    pays[winner] = -sum(pays.values())
    return tuple((seat, pays[seat]) for seat in seats)


def _check_last_of_kind(hand: Hand, ctx: WinContext) -> None:
    if ctx.last_of_kind and any(t.plain() == hand.win_tile.plain() for t in hand.concealed):
        msg = f"last_of_kind (和绝张): you hold another {hand.win_tile}, so the winning tile is not the last one"
        raise ContextError(msg)


def _score_reading(r: Reading, config: MCRConfig) -> tuple[dict[str, int], Reading]:
    found = detect_all(r)
    if not config.melded_and_concealed_kong and found.pop("concealed_kong_and_melded_kong", 0):
        found["melded_kong"] = found["concealed_kong"] = 1
    fans = apply_exclusions(found)
    if not fans:
        fans = {"chicken_hand": 1}
    return fans, r


def _readings(hand: Hand, ctx: WinContext) -> list[Reading]:
    concealed = hand.concealed + (hand.win_tile,)
    ccounts = counts_of(concealed)
    common = _Common(hand, ctx)
    win = common.win
    before = list(ccounts)
    before[win] -= 1
    before_counts = tuple(before)
    free_sets = 4 - len(hand.melds)
    fixed = tuple(_meld_info(m) for m in hand.melds)
    out: list[Reading] = []
    unique: bool | None = None  # computed once, and only when a reading could take a wait fan
    for blocks, pair in divide(ccounts, free_sets):
        sets = fixed + tuple(SetInfo(kind, index, False, False) for kind, index in blocks)
        wait = wait_kind(sets, pair, win)
        if wait is not None:
            if unique is None:
                unique = only_wait(before_counts, win)
            if not unique:
                wait = None
        out.append(common.reading(Shape.REGULAR, sets, pair, wait))
    if not hand.melds:
        if seven_pairs(ccounts) is not None:
            out.append(common.reading(Shape.SEVEN_PAIRS, (), None, None))
        if is_thirteen_orphans(ccounts):
            out.append(common.reading(Shape.THIRTEEN_ORPHANS, (), None, None))
        knitted = honors_and_knitted(ccounts)
        if knitted is not None:
            out.append(common.reading(Shape.HONORS_AND_KNITTED, (), None, None, knitted))
    if len(hand.melds) <= 1:
        out.extend(_knitted_straight_readings(hand, ccounts, fixed, common))
    return out


def _knitted_straight_readings(
    hand: Hand, ccounts: Counts, fixed: tuple[SetInfo, ...], common: _Common
) -> list[Reading]:
    """组合龙 with one more set and a pair.

    Wait fans (边张, 坎张, 单钓将) count when a copy of the winning tile stands in the set or pair
    beside the knitted nine, as PyMahjongGB counts them; the reference calculator's newer versions
    count none when the winning tile also belongs to the knitted nine. A winning tile found only in
    the knitted nine is no wait.
    """
    out = []
    win = common.win
    for sequence, rest in knitted_straight_rests(ccounts):
        for blocks, pair in divide(rest, 1 - len(hand.melds)):
            sets = fixed + tuple(SetInfo(kind, index, False, False) for kind, index in blocks)
            wait = None
            if rest[win]:  # the winning tile can complete the set or pair beside the knitted nine
                if hand.melds:
                    wait = "single"
                else:
                    before = list(rest)
                    before[win] -= 1
                    if only_wait(tuple(before), win):
                        wait = wait_kind(sets, pair, win)
            out.append(common.reading(Shape.KNITTED_STRAIGHT, sets, pair, wait, knitted_sequence=sequence))
    return out


class _Common:
    """What every reading of one hand shares."""

    def __init__(self, hand: Hand, ctx: WinContext) -> None:
        self.ctx = ctx
        self.counts = counts_of(hand.all_tiles)
        self.win = win = hand.win_tile.index
        self.kinds = frozenset(i for i, c in enumerate(self.counts) if c)
        self.suits = frozenset(k // 9 for k in self.kinds if k < 27)
        self.honors = any(k >= 27 for k in self.kinds)
        self.exposed = sum(1 for m in hand.melds if not m.concealed)
        self.melded_kongs = sum(1 for m in hand.melds if m.kind is MeldKind.KONG and not m.concealed)
        self.concealed_kongs = sum(1 for m in hand.melds if m.kind is MeldKind.KONG and m.concealed)
        in_melds = sum(1 for m in hand.melds for t in m.tiles if t.index == win)
        self.last_of_kind = (ctx.last_of_kind or in_melds == 3) and not ctx.robbing_kong
        self.seat = ctx.seat_wind.tile.index
        self.round = ctx.round_wind.tile.index

    def reading(
        self,
        shape: Shape,
        sets: tuple[SetInfo, ...],
        pair: int | None,
        wait: str | None,
        knitted: tuple[bool, bool] = (False, False),
        knitted_sequence: tuple[int, ...] = (),
    ) -> Reading:
        ctx = self.ctx
        chows = sorted(s.first for s in sets if s.kind is MeldKind.CHOW)
        pungs = sorted(s.first for s in sets if s.kind is not MeldKind.CHOW)
        return Reading(
            shape=shape,
            sets=sets,
            chows=tuple(chows),
            pungs=tuple(pungs),
            pair=pair,
            counts=self.counts,
            kinds=self.kinds,
            suits=self.suits,
            honors=self.honors,
            win=self.win,
            self_draw=ctx.self_draw,
            last_tile=ctx.last_tile,
            kong_replacement=ctx.kong_replacement,
            robbing_kong=ctx.robbing_kong,
            last_of_kind=self.last_of_kind,
            seat_wind=self.seat,
            round_wind=self.round,
            exposed_melds=self.exposed,
            concealed_pungs=concealed_pung_count(sets, self.win, ctx.self_draw) if pungs else 0,
            melded_kongs=self.melded_kongs,
            concealed_kongs=self.concealed_kongs,
            wait=wait,
            greater_honors=knitted[0],
            knitted_in_honors=knitted[1],
            knitted=knitted_sequence,
        )


def groups_of(reading: Reading, hand: Hand) -> tuple[str, ...]:
    """The reading as the contract prints it, built only for the reading that scored best."""
    if reading.shape is Shape.SEVEN_PAIRS:
        pairs = seven_pairs(counts_of(hand.concealed + (hand.win_tile,))) or ()
        return tuple(_pair_text(i) for i in pairs)
    if reading.shape in (Shape.THIRTEEN_ORPHANS, Shape.HONORS_AND_KNITTED):
        return (format_tiles(hand.concealed + (hand.win_tile,)),)
    out = [format_tiles(tile_from_index(i) for i in reading.knitted)] if reading.knitted else []
    out.extend(str(m) for m in hand.melds)
    out.extend(_set_text(s.kind, s.first) for s in reading.sets[len(hand.melds) :])
    if reading.pair is not None:
        out.append(_pair_text(reading.pair))
    return tuple(out)


def _set_text(kind: MeldKind, index: int) -> str:
    suit = "mpsz"[index // 9]
    rank = index % 9 + 1
    return f"{rank}{rank + 1}{rank + 2}{suit}" if kind is MeldKind.CHOW else f"{rank}{rank}{rank}{suit}"


def _pair_text(index: int) -> str:
    text = str(tile_from_index(index))
    return text + text


def _meld_info(meld: Meld) -> SetInfo:
    return SetInfo(meld.kind, meld.first.index, not meld.concealed, meld.concealed and meld.kind is MeldKind.KONG)


def score_request(hand: Hand, ctx: WinContext, options: Mapping[str, Any], request: Mapping[str, Any]) -> ScoreResult:
    """The request path: ``options`` are ``MCRConfig`` fields."""
    return score(hand, ctx, apply_options(DEFAULT, options, RULES))
