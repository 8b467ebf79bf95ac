"""Fuzhou (福州麻将) scoring, after seed 003: 16-tile hands (five sets and a pair), honours and the eight
flowers set aside as flowers, the gold (金) wild, points by the seed's formulas and its special wins.

Honours in a Fuzhou hand string: every ``z`` tile (written loose, as ``1z`` in ``123m ... +5s 1z1z 3f``, or
grouped as a meld, ``[1111z]``) is a flower set aside, like ``1f``-``8f``; an honour as the winning tile is an error.

>>> from scorer.hand import parse_hand
>>> r = score(parse_hand("123m456m789m123p45p+6p 99s 1z 3f"), gold=None)
>>> r.total, [(f.name_zh, f.value * f.count) for f in r.fans]
(7, [('底', 5), ('花', 2)])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bounds import bounded, bounds_of, shown
from ..decompose import WILD, Counts, counts_of, divide
from ..errors import ContextError, InvalidHandError, NotWinningError
from ..hand import Hand, MeldKind, WinContext, Wind
from ..options import apply_options
from ..result import Fan, ScoreResult
from ..tiles import NUMBERED, Tile, format_tiles, tile_from_index
from .config import DEFAULT, FuzhouConfig
from .patterns import (
    BASE_POINTS,
    BY_ID,
    COMPONENTS,
    SPECIALS,
    Kind,
    Reading,
    combine_specials,
    detect_all,
    flower_points,
)

__all__ = [
    "Candidate",
    "DEFAULT",
    "FuzhouConfig",
    "FuzhouFacts",
    "HONOURS_ASIDE",
    "SPECIALS",
    "rank_key",
    "score",
    "score_request",
    "settle",
]

RULES = "fuzhou"
SETS = 5
SEATS = ("E", "S", "W", "N")
DEALER = Wind.EAST
MAX_GOLDS = 3
HONOURS_ASIDE = "in Fuzhou honours are flowers"  # how a wrong count's message says that honours were set aside


@dataclass(frozen=True, slots=True)
class FuzhouFacts:
    """The request's ``"fuzhou"`` object: ``gold`` (the revealed tile's kind, e.g. ``2m``, or None),
    ``dealer_streak`` (连庄数: the dealer's repeats, the first repeat, 站顶, not counted), and two optional
    flags this rule set adds: ``robbing_gold`` (抢金, won by taking in the revealed gold with one's first
    tile) and ``heavenly`` (天和, the dealer's dealt hand, counted as 抢金)."""

    gold: Tile | None = None
    dealer_streak: int = bounded(0, 0, 99)
    robbing_gold: bool = False
    heavenly: bool = False

    @classmethod
    def from_request(cls, obj: Any) -> FuzhouFacts:
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            msg = "'fuzhou' must be an object"
            raise ContextError(msg)
        values: dict[str, Any] = {}
        for name, value in obj.items():
            if name == "gold":
                if value is not None and not isinstance(value, str):
                    msg = f"'fuzhou.gold' must be a tile such as \"2m\" or null, not {shown(value)}"
                    raise ContextError(msg)
                values["gold"] = None if value in (None, "") else Tile.parse(value).plain()
            elif name == "dealer_streak":
                values[name] = bounds_of(cls)[name].check(value, "fuzhou.dealer_streak")
            elif name in ("robbing_gold", "heavenly"):
                if not isinstance(value, bool):
                    msg = f"'fuzhou.{name}' must be true or false, not {shown(value)}"
                    raise ContextError(msg)
                values[name] = value
            else:
                msg = f"unknown field 'fuzhou.{name}'; known: gold, dealer_streak, robbing_gold, heavenly"
                raise ContextError(msg)
        return cls(**values)

    def __post_init__(self) -> None:
        if self.gold is not None and self.gold.suit not in NUMBERED:
            msg = f"the gold {self.gold} is a flower in Fuzhou (honours and flowers are set aside); a gold is m, p or s"
            raise ContextError(msg)


def score(
    hand: Hand,
    ctx: WinContext | None = None,
    config: FuzhouConfig = DEFAULT,
    facts: FuzhouFacts | None = None,
    *,
    gold: str | Tile | None = None,
    dealer_streak: int | None = None,
) -> ScoreResult:
    """Score a winning Fuzhou hand; the best reading (or the shapeless 三金倒) is chosen by ``rank_key``.

    ``gold`` and ``dealer_streak`` are shortcuts for the fields of ``facts``.
    """
    ctx = ctx or WinContext()
    facts = facts or FuzhouFacts()
    if gold is not None:
        facts = FuzhouFacts(Tile.parse(gold).plain() if isinstance(gold, str) else gold.plain(),
                            facts.dealer_streak, facts.robbing_gold, facts.heavenly)
    if dealer_streak is not None:
        facts = FuzhouFacts(facts.gold, dealer_streak, facts.robbing_gold, facts.heavenly)
    core, honours = _set_honours_aside(hand)
    try:
        core.check_size(SETS)
    except InvalidHandError as exc:
        if not honours:
            raise
        msg = f"{exc}; {HONOURS_ASIDE}: {' '.join(map(str, honours))} set aside as flowers"
        raise InvalidHandError(msg) from exc
    ctx.check(core)
    golds = _check_golds(core, ctx, facts)
    special_win = facts.robbing_gold or facts.heavenly
    flowers = flower_points(core.flowers, honours)
    kongs = sum(2 if m.concealed else 1 for m in core.melds if m.kind is MeldKind.KONG)
    readings = _readings(core, ctx, facts, golds, flowers + kongs)
    if not ctx.self_draw and not special_win and not config.free_gold_discard and _free_gold(core, facts.gold, golds):
        readings = [r for r in readings if {"golden_pair", "golden_dragon"} & set(detect_all(r))]
        if not readings:
            msg = f"{hand} holds a free gold (闲金: it waits on any tile), which may not win on a discard"
            raise NotWinningError(msg)
    values = {s.id: s.value for s in SPECIALS} | {"golden_kan": config.golden_kan}
    candidates: list[Candidate] = []
    for r in readings:
        for found in _choices(detect_all(r)):
            specials = combine_specials(found, values, config.specials_add_on_special_win)
            self_like = ctx.self_draw or special_win or any(BY_ID[s].kind is Kind.WIN for s in specials)
            part = flowers + kongs + golds + BASE_POINTS
            extra = sum(values[s] for s in specials)
            streak = facts.dealer_streak
            total = (streak + part) * 2 + extra if self_like else streak + part + extra
            candidates.append(Candidate(total, tuple(specials), self_like, r))
    if not candidates:
        msg = f"{hand} is not a winning hand: it reads as no five sets and a pair (golds wild) and holds no three golds"
        raise NotWinningError(msg)
    best = max(candidates, key=rank_key)
    fans = _fans(best, flowers, kongs, golds, facts.dealer_streak, values)
    details: list[tuple[str, Any]] = [("gold", str(facts.gold) if facts.gold else None), ("golds", golds),
                                      ("flowers", flowers + kongs), ("dealer_streak", facts.dealer_streak),
                                      ("self_draw_formula", best.self_like)]
    if best.reading.golds_as:
        details.append(("golds_as", format_tiles(best.reading.golds_as)))
    if honours:
        details.append(("honour_flowers", format_tiles(honours)))
    return ScoreResult(
        rules=RULES,
        total=best.total,
        fans=fans,
        meets_minimum=True,
        payments=settle(best, ctx, config, facts, flowers + kongs + golds),
        decomposition=best.reading.groups,
        details=tuple(details),
    )


@dataclass(frozen=True, slots=True)
class Candidate:
    total: int  # points in 底番 (the seed's formula with the request's 连庄数)
    specials: tuple[str, ...]
    self_like: bool  # the self-draw formula (a self-draw, or a special win: 三金倒, 抢金, 天和)
    reading: Reading


def rank_key(candidate: Candidate) -> tuple[int, tuple[int, ...], bool, int]:
    """The most points wins; on a tie, the higher specials compared from the highest down, then a reading
    with a shape over the shapeless 三金倒, then the reading with fewer live golds (golds standing for
    themselves where they can); any tie left keeps the first reading found (the order of ``divide``, then
    the 金坎 readings, then the shapeless 三金倒)."""
    specials = tuple(sorted((BY_ID[s].value for s in candidate.specials), reverse=True))
    return candidate.total, specials, candidate.reading.shaped, -candidate.reading.live_golds


def settle(
    best: Candidate, ctx: WinContext, config: FuzhouConfig, facts: FuzhouFacts, flowers_and_golds: int
) -> tuple[tuple[str, int], ...]:
    """Net payments per seat (E S W N), summing to 0. Each loser's amount is the formula with the streak
    counted only between the dealer and the winner (the dealer's streak: all three pay it when the dealer
    wins; when a non-dealer wins, only the dealer pays it, "庄家应多付赢牌的闲家连庄的底番"). Self-draw and special
    wins: all three pay. Discard: the discarder pays (all three with ``all_pay_on_discard``), and a toppled
    dealer who did not deal in still pays the streak. Empty on a discard without ``discarder``.
    """
    winner = ctx.seat_wind.value
    streak = facts.dealer_streak
    extra = _special_points(best, config)
    part = flowers_and_golds + BASE_POINTS

    def amount(seat: str) -> int:
        s = streak if DEALER.value in (winner, seat) else 0
        return (s + part) * 2 + extra if best.self_like else s + part + extra

    pays: dict[str, int] = {seat: 0 for seat in SEATS if seat != winner}
    if best.self_like or config.all_pay_on_discard:
        for seat in pays:
            pays[seat] = -amount(seat)
    else:
        if ctx.discarder is None:
            return ()
        pays[ctx.discarder.value] = -amount(ctx.discarder.value)
        if winner != DEALER.value and ctx.discarder is not DEALER:
            pays[DEALER.value] = -streak
    pays = {seat: amount_ * config.base for seat, amount_ in pays.items()}
    pays[winner] = -sum(pays.values())
    return tuple((seat, pays[seat]) for seat in SEATS)


def _special_points(best: Candidate, config: FuzhouConfig) -> int:
    values = {s.id: s.value for s in SPECIALS} | {"golden_kan": config.golden_kan}
    return sum(values[s] for s in best.specials)


def _fans(
    best: Candidate, flowers: int, kongs: int, golds: int, streak: int, values: dict[str, int]
) -> tuple[Fan, ...]:
    """The formula's parts, then the specials; values times counts add up to the total (in 底番)."""
    parts: list[tuple[str, int, int]] = [("base", BASE_POINTS, 1), ("flowers", 1, flowers), ("kongs", 1, kongs),
                                         ("golds", 1, golds), ("dealer_streak", 1, streak)]
    if best.self_like:
        parts.append(("self_drawn", streak + flowers + kongs + golds + BASE_POINTS, 1))
    out = [Fan(i, COMPONENTS[i][0], COMPONENTS[i][1], v, n) for i, v, n in parts if n and v]
    out.extend(Fan(s, BY_ID[s].name, BY_ID[s].name_zh, values[s], 1) for s in best.specials)
    return tuple(out)


def _choices(found: list[str]) -> list[list[str]]:
    """三金倒 is the player's choice: a hand that can also be played on scores with or without it."""
    if "three_golds" in found:
        return [found, [f for f in found if f != "three_golds"]]
    return [found]


def _set_honours_aside(hand: Hand) -> tuple[Hand, tuple[Tile, ...]]:
    """The hand without its honours, and the honours (flowers in Fuzhou).

    Honours make no meld in Fuzhou, so honours written as a meld (``[111z]``, ``(1111z)``, as a photo's layout
    may group four Easts laid out together) are flowers too; the winning tile cannot be one.
    """
    if hand.win_tile.is_honor:
        msg = f"the winning tile {hand.win_tile} is an honour, a flower in Fuzhou: flowers are set aside, never won on"
        raise InvalidHandError(msg)
    honours = tuple(t for t in hand.concealed if t.is_honor)
    honours += tuple(t for m in hand.melds if m.first.is_honor for t in m.tiles)
    if not honours:
        return hand, ()
    rest = tuple(t for t in hand.concealed if not t.is_honor)
    melds = tuple(m for m in hand.melds if not m.first.is_honor)
    return Hand(rest, melds, hand.win_tile, hand.flowers), tuple(sorted(honours))


def _check_golds(hand: Hand, ctx: WinContext, facts: FuzhouFacts) -> int:
    """The golds held (the winning tile included), after checking the rules on golds."""
    gold = facts.gold
    if facts.robbing_gold and facts.heavenly:
        msg = "robbing_gold (抢金) and heavenly (天和) cannot both hold: the dealer's 天和 comes first"
        raise ContextError(msg)
    if (facts.robbing_gold or facts.heavenly) and (ctx.discarder is not None or ctx.robbing_kong):
        msg = "抢金 and 天和 are not won on a discard: leave 'discarder' empty"
        raise ContextError(msg)
    if facts.heavenly and (ctx.seat_wind is not DEALER or hand.melds):
        msg = "heavenly (天和) is the dealer's (E) dealt hand, with no meld laid down"
        raise ContextError(msg)
    if gold is None:
        if facts.robbing_gold:
            msg = "robbing_gold (抢金) needs the gold: set 'fuzhou.gold'"
            raise ContextError(msg)
        return 0
    for meld in hand.melds:
        if meld.first == gold:
            msg = f"{meld}: golds (金 {gold}) may not be used in a claimed meld or a kong"
            raise InvalidHandError(msg)
    held = sum(1 for t in hand.concealed if t.plain() == gold) + (hand.win_tile.plain() == gold)
    if held > MAX_GOLDS:
        msg = f"{held} golds ({gold}) in the hand: one copy is revealed, so a hand holds at most {MAX_GOLDS}"
        raise InvalidHandError(msg)
    win_is_gold = hand.win_tile.plain() == gold
    if facts.robbing_gold and not win_is_gold:
        msg = f"robbing_gold (抢金): the winning tile must be the gold {gold}, not {hand.win_tile}"
        raise ContextError(msg)
    if win_is_gold and not (ctx.self_draw or facts.robbing_gold or facts.heavenly):
        msg = f"a discarded gold ({gold}) cannot be won on; a gold as the winning tile is self-drawn"
        raise ContextError(msg)
    return held


def _readings(hand: Hand, ctx: WinContext, facts: FuzhouFacts, golds: int, flowers: int) -> list[Reading]:
    gold = facts.gold
    real = [t.plain() for t in hand.concealed + (hand.win_tile,) if t.plain() != gold]
    counts = counts_of(real)
    free = SETS - len(hand.melds)
    meld_tiles = [t.plain() for m in hand.melds for t in m.tiles]
    common: dict[str, Any] = {
        "golds": golds,
        "flower_points": flowers,
        "self_draw": ctx.self_draw,
        "robbing_gold": facts.robbing_gold,
        "heavenly": facts.heavenly,
    }
    out: list[Reading] = []
    for blocks, pair in divide(counts, free, golds):
        groups = [str(m) for m in hand.melds]
        tiles = list(meld_tiles)
        read: list[Tile] = []
        gold_pung = False
        for kind, index in blocks:
            if kind is MeldKind.CHOW:
                group = [tile_from_index(index + k) for k in range(3)]
            else:
                gold_pung = gold_pung or index == WILD
                group = [_tile(index, gold)] * 3
            read.extend(group)
            groups.append(format_tiles(group))
        pair_tile = _tile(pair, gold)
        read.extend([pair_tile, pair_tile])
        groups.append(f"{pair_tile}{pair_tile}")
        golds_as = Counter(read)
        golds_as.subtract(Counter(real))
        stand_ins = tuple(sorted(golds_as.elements()))
        tiles.extend(read)
        out.append(Reading(
            groups=tuple(groups),
            shaped=True,
            suits=frozenset(t.suit for t in tiles),
            live_golds=sum(1 for t in stand_ins if t != gold),
            gold_pair=pair == WILD,
            gold_pung=gold_pung,
            kan=False,
            golds_as=stand_ins,
            **common,
        ))
    out.extend(_kan_readings(hand, ctx, gold, golds, counts, meld_tiles, common))
    if golds == MAX_GOLDS and (ctx.self_draw or facts.robbing_gold or facts.heavenly):
        shapeless = [str(m) for m in hand.melds] + [format_tiles(hand.concealed + (hand.win_tile,))]
        out.append(Reading(groups=tuple(shapeless), shaped=False, suits=frozenset(), live_golds=0, gold_pair=False,
                           gold_pung=False, kan=False, **common))
    return out


def _kan_readings(
    hand: Hand, ctx: WinContext, gold: Tile | None, golds: int, counts: Counts, meld_tiles: list[Tile],
    common: dict[str, Any],
) -> list[Reading]:
    """金坎: a drawn gold, the only gold held, between its two neighbours (wrapping 9-1-2 and 8-9-1)."""
    if gold is None or golds != 1 or not ctx.self_draw or hand.win_tile.plain() != gold:
        return []
    low = Tile(gold.suit, 9 if gold.rank == 1 else gold.rank - 1)
    high = Tile(gold.suit, 1 if gold.rank == 9 else gold.rank + 1)
    rest = list(counts)
    for t in (low, high):
        if rest[t.index] == 0:
            return []
        rest[t.index] -= 1
    out = []
    for blocks, pair in divide(tuple(rest), SETS - len(hand.melds) - 1, 0):
        groups = [str(m) for m in hand.melds] + [f"{low}{gold}{high}"]
        read = [low, gold, high]
        for kind, index in blocks:
            if kind is MeldKind.CHOW:
                group = [tile_from_index(index + k) for k in range(3)]
            else:
                group = [tile_from_index(index)] * 3
            read.extend(group)
            groups.append(format_tiles(group))
        p = tile_from_index(pair)
        read.extend([p, p])
        groups.append(f"{p}{p}")
        out.append(Reading(groups=tuple(groups), shaped=True, suits=frozenset(t.suit for t in meld_tiles + read),
                           live_golds=0, gold_pair=False, gold_pung=False, kan=True, golds_as=(gold,), **common))
    return out


def _tile(index: int, gold: Tile | None) -> Tile:
    if index == WILD:
        if gold is None:
            msg = "a set of wild tiles needs the gold"
            raise ValueError(msg)
        return gold
    return tile_from_index(index)


def _free_gold(hand: Hand, gold: Tile | None, golds: int) -> bool:
    """闲金: the concealed part before the win (golds wild) is complete with any numbered tile.

    On a discard the winning tile is never a gold, so every gold held is in the concealed part.
    """
    if not golds:
        return False
    before = counts_of([t.plain() for t in hand.concealed if t.plain() != gold])
    return _waits_everything(before, SETS - len(hand.melds), golds)


def _waits_everything(counts: Counts, sets: int, wilds: int) -> bool:
    for index in range(27):
        with_tile = list(counts)
        with_tile[index] += 1
        if with_tile[index] > 4:
            continue  # a fifth copy cannot be waited on
        if not divide(tuple(with_tile), sets, wilds):
            return False
    return True


def score_request(hand: Hand, ctx: WinContext, options: Mapping[str, Any], request: Mapping[str, Any]) -> ScoreResult:
    """The request path: ``options`` are ``FuzhouConfig`` fields; the ``"fuzhou"`` object the ``FuzhouFacts``."""
    config = apply_options(DEFAULT, options, RULES)
    facts = FuzhouFacts.from_request(request.get("fuzhou"))
    return score(hand, ctx, config, facts)
