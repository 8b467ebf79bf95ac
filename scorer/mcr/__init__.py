"""Chinese Official (MCR) scoring: the 81 fans of the 1998 competition rules.

>>> from scorer.hand import parse_hand
>>> result = score(parse_hand("[555z]123p789s456m5s+5s"))
>>> result.total, [f.name_zh for f in result.fans]
(11, ['花龙', '箭刻', '单钓将'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..decompose import Shape
from ..errors import ContextError, NotWinningError
from ..hand import Hand, WinContext
from ..options import apply_options
from ..result import Fan, ScoreResult
from ..tiles import CHOW_TEXT, PAIR_TEXT, PUNG_TEXT, format_tiles, tile_from_index
from .config import DEFAULT, MCRConfig
from .patterns import PATTERNS, VALUES, Plan, apply_exclusions, detect_all, hand_gates, plan
from .reading import HandFacts, Reading, readings

__all__ = ["DEFAULT", "MCRConfig", "PATTERNS", "rank_key", "score", "score_request", "settle"]

RULES: Final = "mcr"
Candidate = tuple[dict[str, int], Reading]  # fans after 不计, the reading


def score(hand: Hand, ctx: WinContext | None = None, config: MCRConfig = DEFAULT) -> ScoreResult:
    """Score a winning hand under the 1998 rules; the best reading is chosen by ``rank_key``."""
    ctx = ctx or WinContext()
    hand.check_size(4)
    ctx.check(hand)
    _check_last_of_kind(hand, ctx)
    h = HandFacts(hand, ctx)
    found = readings(h)
    if not found:
        msg = (
            f"{hand} is not a winning hand: it reads as neither four sets and a pair, seven pairs,"
            " thirteen orphans, nor a knitted hand"
        )
        raise NotWinningError(msg)
    gates = hand_gates(h)
    fans, reading = _fans(found[0], plan(found[0], gates), config)
    if len(found) > 1:  # the first reading of the highest rank_key (max's choice)
        best = rank_key((fans, reading))
        for r in found[1:]:
            candidate = _fans(r, plan(r, gates), config)
            key = rank_key(candidate)
            if key > best:
                best = key
                fans, reading = candidate
    flowers = len(hand.flowers)
    if flowers:
        fans = {**fans, "flower_tiles": flowers}
    total = _total(fans)
    meets = total - flowers >= config.minimum
    return ScoreResult(
        rules=RULES,
        total=total,
        fans=_fan_list(fans),
        meets_minimum=meets,
        payments=settle(total, ctx, config) if meets else (),
        decomposition=groups_of(reading, hand),
    )


def _total(fans: dict[str, int]) -> int:
    total = 0
    for fan_id, n in fans.items():
        total += VALUES[fan_id] * n
    return total


_SHAPE_RANK: Final = {Shape.SEVEN_PAIRS: 0, Shape.REGULAR: 1}  # the other shapes 2


def rank_key(candidate: Candidate) -> tuple[int, int, bool, int]:
    """就高不就低: the reading with the most fans wins.

    Readings with equal totals are told apart as the reference calculator does, so that players
    comparing the two see the same fans. It looks at the shapes first (thirteen orphans, the knitted
    hands, seven pairs) and then at the regular readings in its order (``Reading.order``), keeping the
    first of the highest total; a later regular reading of equal total takes the place when it holds
    一色三同顺 or 三同刻 (its patches of 2022 and 2023), and whenever the hand also reads as seven pairs,
    which any regular reading of equal total replaces.
    """
    fans, reading = candidate
    total = _total(fans)
    shape = _SHAPE_RANK.get(reading.shape, 2)
    later = shape == 1 and (reading.h.seven_pairs or "pure_triple_chow" in fans or "triple_pung" in fans)
    return total, shape, later, reading.order if later else -reading.order


def settle(total: int, ctx: WinContext, config: MCRConfig = DEFAULT) -> tuple[tuple[str, int], ...]:
    """Payments by the 1998 settlement: self-draw, each of the three pays base + total; on a discard,
    the discarder pays base + total and the other two pay the base. Empty when the discarder is unknown."""
    winner = ctx.seat_wind.value
    if ctx.self_draw:
        each = config.base_points + total
        return tuple((seat, 3 * each if seat == winner else -each) for seat in _SEATS)
    if ctx.discarder is None:
        return ()
    discarder = ctx.discarder.value
    base = config.base_points
    won = 3 * base + total
    return tuple((seat, won if seat == winner else -(base + total) if seat == discarder else -base)
                 for seat in _SEATS)


_SEATS: Final[tuple[str, ...]] = ("E", "S", "W", "N")


def _check_last_of_kind(hand: Hand, ctx: WinContext) -> None:
    if ctx.last_of_kind and any(t.code == hand.win_tile.code for t in hand.concealed):
        msg = f"last_of_kind (和绝张): you hold another {hand.win_tile}, so the winning tile is not the last one"
        raise ContextError(msg)


def _fans(r: Reading, patterns: Plan, config: MCRConfig) -> Candidate:
    found = detect_all(r, patterns)
    if not config.melded_and_concealed_kong and found.pop("concealed_kong_and_melded_kong", 0):
        found["melded_kong"] = found["concealed_kong"] = 1
    fans = apply_exclusions(found)
    if not fans:
        fans = {"chicken_hand": 1}
    return fans, r


def _fan_list(fans: dict[str, int]) -> tuple[Fan, ...]:
    """The fans in table order, each a shared ``Fan``."""
    out = []
    for place in sorted([_ORDER[fan_id] for fan_id in fans]):
        fan_id = PATTERNS[place].id
        n = fans[fan_id]
        made = _FANS[place]
        fan = made.get(n)
        if fan is None:
            p = PATTERNS[place]
            fan = made[n] = Fan(p.id, p.name, p.name_zh, p.value, n)
        out.append(fan)
    return tuple(out)


_ORDER: Final = {p.id: i for i, p in enumerate(PATTERNS)}
_FANS: Final[list[dict[int, Fan]]] = [{} for _ in PATTERNS]  # by place in PATTERNS, count -> Fan (frozen, so shared)


def groups_of(reading: Reading, hand: Hand) -> tuple[str, ...]:
    """The reading as the contract prints it, built only for the reading that scored best."""
    if reading.shape is Shape.SEVEN_PAIRS:
        return tuple(PAIR_TEXT[i] for i, n in enumerate(reading.h.concealed) for _ in range(n // 2))
    if reading.shape in (Shape.THIRTEEN_ORPHANS, Shape.HONORS_AND_KNITTED):
        return (format_tiles(hand.concealed + (hand.win_tile,)),)
    out = [format_tiles(tile_from_index(i) for i in reading.knitted)] if reading.knitted else []
    for meld in hand.melds:
        out.append(str(meld))
    for first in reading.found_chows:  # the concealed sets: chows, then pungs, each by index
        out.append(CHOW_TEXT[first])
    for first in reading.found_pungs:
        out.append(PUNG_TEXT[first])
    if reading.pair >= 0:
        out.append(PAIR_TEXT[reading.pair])
    return tuple(out)


def score_request(hand: Hand, ctx: WinContext, options: Mapping[str, Any], request: Mapping[str, Any]) -> ScoreResult:
    """The request path: ``options`` are ``MCRConfig`` fields."""
    return score(hand, ctx, apply_options(DEFAULT, options, RULES))
