"""Seeded random legal Riichi hands, and the same hand as the ``mahjong`` library's arguments.

For the differential test (``tests/scorer/riichi/test_differential.py``) and the benchmark
(``python -m bench.score_riichi``). Hands lean towards what makes yaku (one suit, honours, pungs,
terminals) so that most of them win; the flags are random but consistent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from scorer.hand import WINDS, Hand, Meld, MeldKind, WinContext
from scorer.riichi import RiichiContext
from scorer.tiles import Tile, tile_from_index

from .mcr_hands import request as win_request

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@dataclass(frozen=True)
class Case:
    hand: Hand
    ctx: WinContext
    rc: RiichiContext
    aka: bool  # red fives are written (and the library is told has_aka_dora)
    options: tuple[tuple[str, Any], ...] = ()  # OptionalRules settings beside has_aka_dora


# settings both scorers share, drawn at random in a quarter of the cases
SHARED_OPTIONS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("has_open_tanyao", (False, True)),
    ("kiriage", (False, True)),
    ("fu_for_pinfu_tsumo", (False, True)),
    ("fu_for_open_pinfu", (True, False)),
    ("has_double_yakuman", (True, False)),
    ("kazoe_limit", (0, 1, 2)),
)


def _structured(rng: random.Random) -> list[list[int]]:
    """Chows that make 一气通贯, 三色同顺 or 一杯口, for the rest of the hand to follow."""
    r = rng.random()
    s = 9 * rng.randrange(3)
    rank = rng.randrange(7)
    if r < 0.35:
        return [[s + k, s + k + 1, s + k + 2] for k in (0, 3, 6)]
    if r < 0.7:
        return [[9 * suit + rank, 9 * suit + rank + 1, 9 * suit + rank + 2] for suit in range(3)]
    return [[s + rank, s + rank + 1, s + rank + 2]] * 2


def random_case(rng: random.Random) -> Case:
    while True:
        made = _try(rng)
        if made is not None:
            return made


def _kinds(rng: random.Random) -> list[int]:
    """The kinds a hand draws from: sometimes one suit (with or without honours), else all."""
    r = rng.random()
    if r < 0.25:
        s = rng.randrange(3)
        return list(range(9 * s, 9 * s + 9)) + (list(range(27, 34)) if rng.random() < 0.5 else [])
    if r < 0.35:
        return list(ORPHANS) + [1, 7, 10, 16, 19, 25]
    if r < 0.45:
        return [k for k in range(27) if k % 9 not in (0, 8)]
    return list(range(34))


def _try(rng: random.Random) -> Case | None:
    counts = [0] * 34
    melds: list[Meld] = []
    concealed: list[int] = []
    kinds = _kinds(rng)

    def take(index: int, n: int) -> bool:
        if counts[index] + n > 4:
            return False
        counts[index] += n
        return True

    shape = rng.random()
    if shape < 0.01:  # nine gates
        s = 9 * rng.randrange(3)
        concealed = [s, s, s, s + 1, s + 2, s + 3, s + 4, s + 5, s + 6, s + 7, s + 8, s + 8, s + 8]
        concealed.append(s + rng.randrange(9))
        for k in concealed:
            take(k, 1)
    elif shape < 0.07:  # seven pairs
        for k in rng.sample(kinds, 7) if len(kinds) >= 7 else []:
            take(k, 2)
            concealed += [k, k]
        if len(concealed) != 14:
            return None
    elif shape < 0.09:  # thirteen orphans
        concealed = list(ORPHANS) + [rng.choice(ORPHANS)]
        for k in concealed:
            take(k, 1)
    else:
        pung_bias = rng.random() if rng.random() < 0.6 else 0.1
        open_bias = rng.random() * 0.6
        planned = _structured(rng) if rng.random() < 0.2 else []
        for n in range(4):
            for _attempt in range(20):
                k = rng.choice(kinds)
                chow = k < 27 and k % 9 <= 6 and rng.random() > pung_bias
                ids = [k, k + 1, k + 2] if chow else [k, k, k]
                if n < len(planned):
                    ids, chow = list(planned[n]), True
                kong = not chow and rng.random() < 0.12
                if kong:
                    ids.append(k)
                if all(counts[i] + ids.count(i) <= 4 for i in ids):
                    for i in ids:
                        counts[i] += 1
                    break
            else:
                return None
            if kong:
                melds.append(Meld(MeldKind.KONG, tuple(tile_from_index(i) for i in ids), rng.random() < 0.4))
            elif rng.random() < open_bias:
                melds.append(Meld.of(tuple(tile_from_index(i) for i in ids)))
            else:
                concealed += ids
        pair = rng.choice(kinds)
        if not take(pair, 2):
            return None
        concealed += [pair, pair]
    rng.shuffle(concealed)
    win = concealed.pop()
    aka = rng.random() < 0.3
    reds_left = {4: aka, 13: aka, 22: aka}

    def tile(i: int) -> Tile:
        if reds_left.get(i) and rng.random() < 0.5:
            reds_left[i] = False
            return Tile(tile_from_index(i).suit, 5, red=True)
        return tile_from_index(i)

    win_tile = tile(win)
    hand = Hand(tuple(tile(i) for i in concealed), tuple(melds), win_tile)
    closed = hand.is_concealed
    self_draw = rng.random() < 0.45
    seat = rng.choice(WINDS)
    held = sum(1 for t in hand.all_tiles if t.index == win)
    kong_replacement = self_draw and hand.kong_count > 0 and rng.random() < 0.2
    robbing = not self_draw and held == 1 and rng.random() < 0.05
    last_tile = not kong_replacement and not robbing and rng.random() < 0.06
    ctx = WinContext(
        self_draw=self_draw,
        seat_wind=seat,
        round_wind=rng.choice(WINDS[:2]),
        discarder=None if self_draw else seat.after(rng.randint(1, 3)),
        last_tile=last_tile,
        kong_replacement=kong_replacement,
        robbing_kong=robbing,
    )
    riichi = closed and rng.random() < 0.5
    double = riichi and rng.random() < 0.1
    n_dora = 1 + hand.kong_count
    left = [k for k in range(34) if counts[k] < 4]
    dora: list[Tile] = []
    ura: list[Tile] = []
    for target in (dora, ura if riichi else []):
        for _ in range(n_dora):
            k = rng.choice(left)
            if counts[k] < 4:
                counts[k] += 1
                target.append(tile_from_index(k))
    first_draw = closed and not hand.melds and not riichi and rng.random() < 0.02
    rc = RiichiContext(
        riichi=riichi and not double,
        double_riichi=double,
        ippatsu=riichi and rng.random() < 0.2,
        dora_indicators=tuple(dora),
        ura_indicators=tuple(ura),
        honba=rng.choice((0, 0, 0, 1, 2, 5)),
        riichi_sticks=rng.choice((0, 0, 1, 3)),
        tenhou=first_draw and self_draw and seat.value == "E" and not kong_replacement and not last_tile,
        chiihou=first_draw and self_draw and seat.value != "E" and not kong_replacement and not last_tile,
    )
    options = tuple((name, rng.choice(values)) for name, values in SHARED_OPTIONS) if rng.random() < 0.25 else ()
    return Case(hand, ctx, rc, aka, options)


# --- the same case as the library's arguments -------------------------------------------------------


def library_args(case: Case) -> dict[str, Any]:
    """``HandCalculator.estimate_hand_value`` keyword arguments for a case (library defaults otherwise)."""
    return build_library_args(library_spec(case))


def library_spec(case: Case) -> dict[str, Any]:
    """The case as plain data for the library: 136 ids, melds as (kind, ids, opened), the HandConfig and
    OptionalRules keywords. Raises ``ValueError`` where the ids cannot say the hand."""
    used: dict[int, int] = {}

    def tid(t: Tile) -> int:
        """136 id; with red fives on, the first copy of a five is the red one and plain fives avoid it."""
        k = t.index
        if t.red:
            return 4 * k
        n = used.get(k, 0)
        used[k] = n + 1
        if case.aka and k in (4, 13, 22):
            n += 1
            if n > 3:
                msg = "four plain fives with red fives on: the library would read one as red"
                raise ValueError(msg)
        return 4 * k + n

    hand = case.hand
    tiles = []
    melds = []
    for m in hand.melds:
        ids = [tid(t) for t in m.tiles]
        tiles += ids
        melds.append((m.kind.value, ids, not m.concealed))
    tiles += [tid(t) for t in hand.concealed]
    win = tid(hand.win_tile)
    tiles.append(win)
    ctx, rc = case.ctx, case.rc
    config = {
        "is_tsumo": ctx.self_draw,
        "is_riichi": rc.riichi or rc.double_riichi,
        "is_daburu_riichi": rc.double_riichi,
        "is_ippatsu": rc.ippatsu,
        "is_rinshan": ctx.kong_replacement,
        "is_chankan": ctx.robbing_kong,
        "is_haitei": ctx.last_tile and ctx.self_draw,
        "is_houtei": ctx.last_tile and not ctx.self_draw,
        "is_tenhou": rc.tenhou,
        "is_chiihou": rc.chiihou,
        "player_wind": ctx.seat_wind.tile.index,
        "round_wind": ctx.round_wind.tile.index,
        "tsumi_number": rc.honba,
        "kyoutaku_number": rc.riichi_sticks,
    }
    options = {"has_aka_dora": case.aka, "has_open_tanyao": False, **dict(case.options)}
    return {"tiles": tiles, "win_tile": win, "melds": melds, "dora_indicators": [tid(t) for t in rc.dora_indicators],
            "ura_dora_indicators": [tid(t) for t in rc.ura_indicators], "config": config, "options": options}


def build_library_args(spec: dict[str, Any]) -> dict[str, Any]:
    """The library's objects for a spec: its Meld, OptionalRules and HandConfig."""
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld as LibMeld

    kinds = {"chow": LibMeld.CHI, "pung": LibMeld.PON, "kong": LibMeld.KAN}
    melds = [LibMeld(meld_type=kinds[kind], tiles=ids, opened=opened) for kind, ids, opened in spec["melds"]]
    config = HandConfig(**spec["config"], options=OptionalRules(**spec["options"]))
    return {"tiles": spec["tiles"], "win_tile": spec["win_tile"], "melds": melds,
            "dora_indicators": spec["dora_indicators"], "ura_dora_indicators": spec["ura_dora_indicators"],
            "config": config}


# --- the same case as a request ---------------------------------------------------------------------


def request(case: Case) -> dict[str, Any]:
    """The contract's request object for a case, with the library's settings as options."""
    rc = case.rc
    obj = {**win_request(case.hand, case.ctx), "rules": "riichi"}  # the same fields as an MCR request
    riichi: dict[str, Any] = {}
    for name in ("riichi", "double_riichi", "ippatsu", "tenhou", "chiihou"):
        if getattr(rc, name):
            riichi[name] = True
    if rc.dora_indicators:
        riichi["dora_indicators"] = "".join(str(t) for t in rc.dora_indicators)
    if rc.ura_indicators:
        riichi["ura_indicators"] = "".join(str(t) for t in rc.ura_indicators)
    if rc.honba:
        riichi["honba"] = rc.honba
    if rc.riichi_sticks:
        riichi["riichi_sticks"] = rc.riichi_sticks
    if riichi:
        obj["riichi"] = riichi
    obj["options"] = {"has_open_tanyao": False, "has_aka_dora": case.aka, "renhou_as_yakuman": False,
                      **dict(case.options)}
    return obj
