"""Riichi (日本麻将) scoring: yaku, fu, limits, points and payments, per seed 002.

>>> from scorer.hand import parse_hand
>>> result = score(parse_hand("234m456p34567s99s+8s"), riichi=RiichiContext(riichi=True))
>>> result.total, [f.id for f in result.fans], dict(result.details)["points"]
(2, ['riichi', 'pinfu'], 2900)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..errors import ContextError, NotWinningError
from ..hand import Hand, WinContext, Wind
from ..options import apply_options
from ..result import Fan, ScoreResult
from .config import DEFAULT, LIBRARY, RiichiConfig
from .context import RiichiContext, context_from_request
from .fu import fu as fu_of
from .patterns import (
    BY_ID,
    GATES,
    PATTERNS,
    YAKUMAN,
    Pattern,
    aotenjou_exclusions,
    apply_exclusions,
    enabled,
    paarenchan_needs_yaku,
    yakuman_only,
)
from .points import base_points, hand_value, pao_payments, payments
from .reading import KOKUSHI, Facts, Reading, readings

__all__ = [
    "DEFAULT",
    "LIBRARY",
    "PATTERNS",
    "RiichiConfig",
    "RiichiContext",
    "rank_key",
    "score",
    "score_request",
]

RULES: Final = "riichi"
NO_RIICHI: Final = RiichiContext()
PAO: Final = frozenset({"daisangen", "daisuushii", "suukantsu"})  # 役满包牌: the yakuman a claim can complete
_NAGASHI: Final = Pattern("nagashi_mangan", "Nagashi Mangan", "流局满贯", 5, 5, lambda r: 0)
_FANS: Final[dict[tuple[str, int, int], Fan]] = {}  # (id, value, count) -> Fan (frozen, so shared)


def _fan(pattern_id: str, value: int, count: int) -> Fan:
    p = BY_ID[pattern_id]
    fan = Fan(p.id, p.name, p.name_zh, 1 if p.kind == "dora" else value, count)
    if len(_FANS) < 4096:
        _FANS[(pattern_id, value, count)] = fan
    return fan


# (points, has a yakuman, han, fu, unrounded fu, reading, fans, base points, limit)
Candidate = tuple[int, bool, int, int, int, Reading, dict[str, int], int, str | None]
_EAST: Final = Wind.EAST
_SEAT: Final = {w: w.value for w in Wind}


def rank_key(candidate: Candidate) -> tuple[int, bool, int, int, int]:
    """The reading that gives the most points wins (高点法).

    Ties: a real yakuman before a counted one, then more han, then more fu, then more fu before
    rounding (the ``mahjong`` library's order, so that the yaku shown agree with it). Any tie left
    keeps the first reading found.
    """
    points, yakuman, han, fu, raw = candidate[:5]
    return points, yakuman, han, fu, raw


def score(
    hand: Hand, ctx: WinContext | None = None, config: RiichiConfig = DEFAULT, riichi: RiichiContext = NO_RIICHI
) -> ScoreResult:
    """Score a winning hand; raise ``NotWinningError`` without a yaku (dora are no yaku)."""
    ctx = ctx or WinContext()
    if not riichi.nagashi_mangan:  # nagashi mangan scores the discards, not the 13 tiles held at the draw
        hand.check_size(4)
    ctx.check(hand)
    f = Facts(hand, ctx, riichi, config)
    riichi.check(hand, ctx, config, f.counts)
    if riichi.nagashi_mangan:
        return _nagashi(f)
    table = _table(config)
    values = table.han(f.closed, riichi.paarenchan)
    plan = table.plan(f.closed, f.gates)
    dealer = ctx.seat_wind is _EAST
    # the dora patterns' counts (patterns.py: dora, aka_dora, ura_dora)
    dora = tuple(d for d in (("dora", f.dora), ("aka_dora", f.aka if config.has_aka_dora else 0),
                             ("ura_dora", f.ura if f.riichi else 0)) if d[1])
    aotenjou = config.aotenjou
    best: Candidate | None = None
    shapes = 0
    for r in readings(f):
        shapes += 1
        r.fu, r.raw_fu, r.pinfu = fu_of(r)
        found = {}
        for pattern_id, detect in plan:
            n = detect(r)
            if n:
                found[pattern_id] = n
        if "paarenchan" in found:
            found = paarenchan_needs_yaku(found, config.paarenchan_needs_yaku)
        found = apply_exclusions(found)
        if aotenjou and r.shape != KOKUSHI:
            found = aotenjou_exclusions(found)
        else:  # the library's Aotenjou scorer, too, counts only yakuman (and dora) with thirteen orphans
            found = yakuman_only(found)
        if not found:
            continue
        yakuman = not YAKUMAN.isdisjoint(found)
        han = 0
        for i, n in found.items():
            han += values[i] * n
        if dora and (aotenjou or not yakuman):  # 宝牌 (the dora patterns), never with a yakuman
            for dora_id, n in dora:
                found[dora_id] = n
                han += n
        fu = r.fu
        if aotenjou and r.shape == KOKUSHI:
            fu = 30 if f.self_draw else 40  # as the library's Aotenjou scorer
        if not aotenjou and config.limit_to_sextuple_yakuman and han > 78:
            han = 78
        a, limit = base_points(han, fu, yakuman and not aotenjou, config)
        candidate: Candidate = (hand_value(a, dealer, f.self_draw), yakuman, han, fu, r.raw_fu, r, found, a, limit)
        if best is None or rank_key(candidate) > rank_key(best):
            best = candidate
    if best is None:
        if shapes:
            msg = ("no yaku: the hand is complete, but no yaku applies, so it cannot win"
                   " (dora alone do not make a hand win)")
        else:
            msg = ("not a winning hand: it reads as neither four sets and a pair, seven pairs"
                   " nor thirteen orphans")
        raise NotWinningError(msg)
    return _result(f, best, values)


def _result(f: Facts, best: Candidate, values: dict[str, int]) -> ScoreResult:
    points, yakuman, han, fu, _, reading, found, a, limit = best
    # ``found`` is in pattern order already: the plan follows PATTERNS, the dora come last
    fans = tuple([_FANS.get((i, values[i], n)) or _fan(i, values[i], n) for i, n in found.items()])
    ctx = f.ctx
    discarder = _SEAT[ctx.discarder] if ctx.discarder is not None else None
    winner = _SEAT[ctx.seat_wind]
    if f.rc.pao is None:
        pays = payments(a, winner, f.self_draw, discarder, f.rc.honba)
    else:
        if PAO.isdisjoint(found):
            msg = "pao (包牌) applies only to 大三元, 大四喜 and 四杠子, and this hand has none of them"
            raise ContextError(msg)
        ron_value = hand_value(a, winner == "E", False)  # the hand as a win on the liable seat's discard
        pays = pao_payments(ron_value, winner, f.self_draw, discarder, f.rc.pao, f.rc.honba)
    return ScoreResult(RULES, han, fans, True, pays, reading.groups(), _details(f, han, fu, limit, points))


def _details(f: Facts, han: int, fu: int, limit: str | None, points: int) -> tuple[tuple[str, Any], ...]:
    """han, fu, limit and points (the hand's value with honba, as the document's 最终结果), and the
    riichi sticks collected from the table (``deposits``, outside ``payments``)."""
    honba = f.rc.honba * 300
    return (("han", han), ("fu", fu), ("limit", limit), ("points", points + honba),
            ("deposits", 1000 * f.rc.riichi_sticks))


class _Table:
    """What one config plays, worked out once: the han of each pattern in a closed and an open hand, the
    yaku counted in each, and the plans (the yaku worth looking for) per kind of hand."""

    __slots__ = ("config", "values", "candidates", "plans")

    def __init__(self, config: RiichiConfig) -> None:
        self.config = config
        self.values: dict[tuple[bool, int], dict[str, int]] = {}
        yaku, _ = enabled(config)
        self.candidates = {
            closed: tuple((p.id, p.detect, GATES.index(p.needs) if p.needs else -1) for p in yaku
                          if p.id == "paarenchan" or p.value(closed, config))
            for closed in (True, False)
        }
        self.plans: dict[tuple[bool, tuple[bool, ...]], tuple[tuple[str, Any], ...]] = {}

    def han(self, closed: bool, paarenchan: int) -> dict[str, int]:
        """Han of each pattern; 八连庄 counts the yakuman the request gives it."""
        key = (closed, paarenchan)
        found = self.values.get(key)
        if found is None:
            found = self.values[key] = {p.id: p.value(closed, self.config) for p in PATTERNS}
            found["paarenchan"] = BY_ID["paarenchan"].value(closed, self.config, max(paarenchan, 1))
        return found

    def plan(self, closed: bool, gates: tuple[bool, ...]) -> tuple[tuple[str, Any], ...]:
        """(id, detector) of the yaku counted in such a hand whose ``needs`` hold (``gates``, ``GATES`` order)."""
        key = (closed, gates)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = tuple((i, detect) for i, detect, need in self.candidates[closed]
                                            if need < 0 or gates[need])
        return found


_TABLES: Final[dict[int, tuple[RiichiConfig, _Table]]] = {}  # by the config's identity: a config used again
_BY_VALUE: Final[dict[RiichiConfig, _Table]] = {}  # is not hashed again; an equal one shares the table


def _table(config: RiichiConfig) -> _Table:
    entry = _TABLES.get(id(config))
    if entry is None or entry[0] is not config:
        if len(_TABLES) > 64:
            _TABLES.clear()
        if len(_BY_VALUE) > 64:
            _BY_VALUE.clear()
        table = _BY_VALUE.get(config)
        if table is None:
            table = _BY_VALUE[config] = _Table(config)
        entry = _TABLES[id(config)] = (config, table)  # the config is kept, so its id stays its own
    return entry[1]


def _nagashi(f: Facts) -> ScoreResult:
    """流局满贯: at the exhaustive draw, every discard a terminal or honour and none claimed. Paid as a
    mangan self-draw, with honba and sticks, whatever the hand (the document's first variant)."""
    if f.ctx.discarder is not None:
        msg = "nagashi mangan (流局满贯) is paid as a self-draw; it has no discarder"
        raise ContextError(msg)
    a, limit = base_points(5, 25, False, f.config)
    dealer = f.ctx.seat_wind is Wind.EAST
    points = hand_value(a, dealer, True)
    seat = f.ctx.seat_wind.value
    pays = payments(a, seat, True, None, f.rc.honba)
    fans = (Fan(_NAGASHI.id, _NAGASHI.name, _NAGASHI.name_zh, 5, 1),)
    groups = tuple(str(m) for m in f.hand.melds) + (" ".join(str(t) for t in (*f.hand.concealed, f.hand.win_tile)),)
    honba = 100 * f.rc.honba * 3
    details = (("han", 5), ("fu", 25), ("limit", limit), ("points", points + honba),
               ("deposits", 1000 * f.rc.riichi_sticks))
    return ScoreResult(RULES, 5, fans, True, pays, groups, details)


def score_request(hand: Hand, ctx: WinContext, options: Mapping[str, Any], request: Mapping[str, Any]) -> ScoreResult:
    """The request path: ``options`` are ``RiichiConfig`` fields, ``request["riichi"]`` the riichi object."""
    config = apply_options(DEFAULT, options, RULES)
    return score(hand, ctx, config, context_from_request(request.get("riichi")))
