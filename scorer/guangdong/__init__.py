"""Guangdong (广东麻将) scoring, after seed 004: fans within the 爆和 cap, special hands beyond it, the
additions, points ``base * 2 ** fans`` and the seed's payments with its liabilities (包自摸, 杠开包牌).

>>> from scorer.hand import parse_hand
>>> result = score(parse_hand("[555z]123p789s456s5s+5s"))
>>> result.total, [f.name_zh for f in result.fans]
(1, ['三元牌'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bounds import shown
from ..decompose import Decomposition, Shape, counts_of, decompose, is_thirteen_orphans
from ..errors import ContextError, NotWinningError
from ..hand import Hand, MeldKind, WinContext, Wind
from ..options import apply_options
from ..result import Fan, ScoreResult
from .config import DEFAULT, GuangdongConfig
from .patterns import BY_ID, PATTERNS, Kind, Reading, apply_exclusions, detect_all, special_value, specials_stand_alone

__all__ = [
    "DEFAULT",
    "GuangdongConfig",
    "GuangdongFacts",
    "PATTERNS",
    "rank_key",
    "score",
    "score_request",
    "settle",
]

RULES = "guangdong"
SEATS = ("E", "S", "W", "N")
DEALER = Wind.EAST


@dataclass(frozen=True, slots=True)
class GuangdongFacts:
    """The request's optional ``"guangdong"`` object: facts of the deal the hand string cannot show.

    ``heavenly`` 天和 (the dealer's dealt hand), ``earthly`` 地和 (a non-dealer's first draw),
    ``human`` 人和 (a non-dealer wins on the dealer's first discard): each scores as 十三幺.
    ``kong_feeder``: for 杠上开花 on an exposed kong claimed from a discard, the seat that discarded the
    konged tile (杠开包牌: it pays for all three). ``twelve_feeder``: for a self-draw with four melds laid
    down (十二张落地), the seat whose discard let the fourth meld be made (包自摸: it pays for all three).
    """

    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    kong_feeder: Wind | None = None
    twelve_feeder: Wind | None = None

    @classmethod
    def from_request(cls, obj: Any) -> GuangdongFacts:
        """The facts from the request's ``"guangdong"`` object (absent or null: none)."""
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            msg = "'guangdong' must be an object"
            raise ContextError(msg)
        flags = ("heavenly", "earthly", "human")
        seats = ("kong_feeder", "twelve_feeder")
        values: dict[str, Any] = {}
        for name, value in obj.items():
            if name in flags:
                if not isinstance(value, bool):
                    msg = f"'guangdong.{name}' must be true or false, not {shown(value)}"
                    raise ContextError(msg)
                values[name] = value
            elif name in seats:
                if value is not None and value not in SEATS:
                    msg = f"'guangdong.{name}' must be one of E, S, W, N or null, not {shown(value)}"
                    raise ContextError(msg)
                values[name] = None if value is None else Wind(value)
            else:
                known = ", ".join(flags + seats)
                msg = f"unknown field 'guangdong.{name}'; known: {known}"
                raise ContextError(msg)
        return cls(**values)

    def check(self, hand: Hand, ctx: WinContext) -> None:
        """Raise ``ContextError`` where the facts contradict the hand or the win."""
        seat = ctx.seat_wind
        if self.heavenly + self.earthly + self.human > 1:
            msg = "at most one of heavenly (天和), earthly (地和) and human (人和) can hold"
            raise ContextError(msg)
        if (self.heavenly or self.earthly or self.human) and hand.melds:
            msg = "天和/地和/人和 are won on the dealt hand: no meld can be laid down"
            raise ContextError(msg)
        if self.heavenly and (seat is not DEALER or not ctx.self_draw):
            msg = "heavenly (天和) is the dealer's (E) self-drawn win"
            raise ContextError(msg)
        if self.earthly and (seat is DEALER or not ctx.self_draw):
            msg = "earthly (地和) is a non-dealer's self-drawn win"
            raise ContextError(msg)
        if self.human and (seat is DEALER or ctx.self_draw or ctx.discarder not in (None, DEALER)):
            msg = "human (人和) is a non-dealer's win on the dealer's (E) first discard"
            raise ContextError(msg)
        if self.kong_feeder is not None:
            if not ctx.kong_replacement:
                msg = "kong_feeder (杠开包牌) needs a win on a kong's replacement tile (kong_replacement)"
                raise ContextError(msg)
            if not any(m.kind is MeldKind.KONG and not m.concealed for m in hand.melds):
                msg = "kong_feeder (杠开包牌): the hand has no exposed kong the feeder could have fed"
                raise ContextError(msg)
            if self.kong_feeder is seat:
                msg = "kong_feeder is the winner's own seat"
                raise ContextError(msg)
        if self.twelve_feeder is not None:
            if not ctx.self_draw:
                msg = "twelve_feeder (十二张落地包自摸) applies to a self-drawn win"
                raise ContextError(msg)
            if len(hand.melds) != 4 or hand.is_concealed:
                msg = "twelve_feeder (十二张落地): the hand needs four melds laid down, claimed ones among them"
                raise ContextError(msg)
            if self.twelve_feeder is seat:
                msg = "twelve_feeder is the winner's own seat"
                raise ContextError(msg)
        if self.kong_feeder and self.twelve_feeder and self.kong_feeder is not self.twelve_feeder:
            msg = "kong_feeder and twelve_feeder name different seats; one seat is liable for a win"
            raise ContextError(msg)


NO_FACTS = GuangdongFacts()

Candidate = tuple[dict[str, int], int, int, Reading]  # fans, total, fans before the cap, reading


def score(
    hand: Hand, ctx: WinContext | None = None, config: GuangdongConfig = DEFAULT, facts: GuangdongFacts = NO_FACTS
) -> ScoreResult:
    """Score a winning hand under the Guangdong rules; the best reading is chosen by ``rank_key``.

    Flowers are set aside and score nothing (the seed has no flower fans).
    """
    ctx = ctx or WinContext()
    hand.check_size(4)
    ctx.check(hand)
    facts.check(hand, ctx)
    candidates = [_score_reading(r, config) for r in _readings(hand, ctx, facts)]
    if not candidates:
        msg = f"{hand} is not a winning hand: it reads as neither four sets and a pair nor thirteen orphans"
        raise NotWinningError(msg)
    fans, total, raw, reading = max(candidates, key=rank_key)
    meets = total >= config.minimum
    values = {f: _value(BY_ID[f], config) for f in fans}
    payments = settle(total, ctx, config, facts) if meets else ()
    details: list[tuple[str, Any]] = [("points", config.base * 2**total), ("uncapped", raw), ("cap", config.cap)]
    liable = _liable(ctx, facts)
    if liable is not None and payments:
        details.append(("liable", liable.value))
    return ScoreResult(
        rules=RULES,
        total=total,
        fans=tuple(Fan(p.id, p.name, p.name_zh, values[p.id], fans[p.id]) for p in PATTERNS if p.id in fans),
        meets_minimum=meets,
        payments=payments,
        decomposition=tuple(reading.decomposition.groups()),
        details=tuple(details),
    )


def rank_key(candidate: Candidate) -> tuple[int, int, tuple[int, ...]]:
    """The reading with the most fans (after the cap) wins; on a tie, the one with more fans before the cap,
    then the one whose fans are the higher compared from the highest down; any tie left keeps the first
    reading found (readings come in the order ``decompose`` gives them, thirteen orphans last).
    """
    fans, total, raw, _ = candidate
    values = tuple(sorted((BY_ID[f].value for f, n in fans.items() for _ in range(n)), reverse=True))
    return total, raw, values


def settle(
    total: int, ctx: WinContext, config: GuangdongConfig = DEFAULT, facts: GuangdongFacts = NO_FACTS
) -> tuple[tuple[str, int], ...]:
    """Net payments per seat (E S W N), summing to 0; each share is ``base * 2 ** total``.

    Self-draw (海底捞月 and 杠上开花 included): each of the three pays a share; where a seat is liable
    (杠开包牌 ``kong_feeder``, 十二张落地 ``twelve_feeder``) it pays all three shares. 抢杠: paid as a
    self-draw, all three shares by the robbed seat (the request's ``discarder``). On a discard: the
    discarder pays a share, or all three with ``discarder_pays_all`` (包三家); 人和: the dealer pays.
    Empty when the payer is unknown (a discard or 抢杠 without ``discarder``).
    """
    share = config.base * 2**total
    winner = ctx.seat_wind.value
    pays: dict[str, int] = {}
    liable = _liable(ctx, facts)
    if ctx.self_draw or ctx.robbing_kong:
        if ctx.robbing_kong and liable is None:
            return ()
        for seat in SEATS:
            if seat != winner:
                pays[seat] = 0 if liable is not None else -share
        if liable is not None:
            pays[liable.value] = -3 * share
    else:
        discarder = ctx.discarder or (DEALER if facts.human else None)
        if discarder is None:
            return ()
        for seat in SEATS:
            if seat != winner:
                pays[seat] = 0
        pays[discarder.value] = -(3 * share if config.discarder_pays_all else share)
    pays[winner] = -sum(pays.values())
    return tuple((seat, pays[seat]) for seat in SEATS)


def _liable(ctx: WinContext, facts: GuangdongFacts) -> Wind | None:
    """The seat that pays for all three on a self-drawn win, if any."""
    if ctx.robbing_kong:
        return ctx.discarder
    if ctx.kong_replacement and facts.kong_feeder is not None:
        return facts.kong_feeder
    if ctx.self_draw and facts.twelve_feeder is not None:
        return facts.twelve_feeder
    return None


def _value(pattern: Any, config: GuangdongConfig) -> int:
    if pattern.kind is Kind.SPECIAL:
        return special_value(pattern, config.cap, config.specials_over_cap)
    return int(pattern.value)


def _score_reading(r: Reading, config: GuangdongConfig) -> Candidate:
    fans = specials_stand_alone(apply_exclusions(detect_all(r)))
    if not fans:
        fans = {"chicken_hand": 1}
    raw = sum(_value(BY_ID[f], config) * n for f, n in fans.items())
    special = any(BY_ID[f].kind is Kind.SPECIAL for f in fans)
    total = raw if special else min(raw, config.cap)
    return fans, total, raw, r


def _readings(hand: Hand, ctx: WinContext, facts: GuangdongFacts) -> list[Reading]:
    all_counts = counts_of(hand.all_tiles)
    kinds = frozenset(i for i, c in enumerate(all_counts) if c)
    common: dict[str, Any] = {
        "kinds": kinds,
        "concealed": hand.is_concealed,
        "self_draw": ctx.self_draw or ctx.robbing_kong,
        "last_tile": ctx.last_tile,
        "kong_replacement": ctx.kong_replacement,
        "robbing_kong": ctx.robbing_kong,
        "seat_wind": ctx.seat_wind.tile.index,
        "round_wind": ctx.round_wind.tile.index,
        "heavenly": facts.heavenly,
        "earthly": facts.earthly,
        "human": facts.human,
    }
    out = []
    for d in decompose(hand):
        chows = tuple(sorted(m.first.index for m in d.sets if m.kind is MeldKind.CHOW))
        pungs = tuple(sorted(m.first.index for m in d.sets if m.kind is not MeldKind.CHOW))
        pair = d.pair.first.index if d.pair is not None else None
        out.append(Reading(Shape.REGULAR, d, chows, pungs, pair, **common))
    concealed = hand.concealed + (hand.win_tile,)
    if not hand.melds and is_thirteen_orphans(counts_of(concealed)):
        d = Decomposition(Shape.THIRTEEN_ORPHANS, loose=concealed)
        out.append(Reading(Shape.THIRTEEN_ORPHANS, d, (), (), None, **common))
    return out


def score_request(hand: Hand, ctx: WinContext, options: Mapping[str, Any], request: Mapping[str, Any]) -> ScoreResult:
    """The request path: ``options`` are ``GuangdongConfig`` fields; the optional ``"guangdong"`` object
    holds the ``GuangdongFacts`` (天和/地和/人和 and the liable seats)."""
    config = apply_options(DEFAULT, options, RULES)
    facts = GuangdongFacts.from_request(request.get("guangdong"))
    return score(hand, ctx, config, facts)
