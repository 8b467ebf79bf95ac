"""Seeded random legal MCR hands, and the same hands as PyMahjongGB's arguments and as requests.

For the differential test (``tests/scorer/mcr/test_reference.py``) and the benchmark
(``python -m bench.score_mcr``). In a fifth of the hands the concealed part holds a few ranks of one
suit that split several ways, where readings often tie, so that the tie-break meets the reference's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from scorer.hand import WINDS, Hand, Meld, MeldKind, WinContext, Wind
from scorer.suits import suit_ways
from scorer.tiles import Suit, Tile, tile_from_index

_KNITTED = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def random_hand(rng: random.Random) -> tuple[Hand, WinContext]:
    """A random winning hand within the four-copies limit, with random (consistent) win flags."""
    while True:
        made = _try(rng)
        if made is not None:
            return made


def _try(rng: random.Random) -> tuple[Hand, WinContext] | None:
    counts = [0] * 34
    shape = rng.random()
    melds: list[Meld] = []
    concealed: list[int] = []

    def take(index: int, n: int) -> bool:
        if counts[index] + n > 4:
            return False
        counts[index] += n
        return True

    if shape < 0.06:  # seven pairs
        suit = rng.randrange(3)
        kinds = rng.sample(range(34) if rng.random() < 0.5 else range(9 * suit, 9 * suit + 9), 7)
        for k in kinds:
            take(k, 2)
            concealed += [k, k]
    elif shape < 0.08:  # thirteen orphans
        orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        concealed = orphans + [rng.choice(orphans)]
    elif shape < 0.12:  # honours and knitted, or a knitted straight
        suits = rng.sample(range(3), 3)
        knitted = [9 * s + r for s, ranks in zip(suits, _KNITTED, strict=True) for r in ranks]
        if rng.random() < 0.5:
            numbered = rng.sample(knitted, rng.randint(7, 9))
            concealed = numbered + rng.sample(range(27, 34), 14 - len(numbered))
        else:
            concealed = list(knitted)
            for k in concealed:
                take(k, 1)
            if not _sets(rng, 1, counts, concealed, melds, allow_melds=rng.random() < 0.3):
                return None
            pair = rng.randrange(34)
            if not take(pair, 2):
                return None
            concealed += [pair, pair]
    elif shape < 0.3:  # a concealed part in a few ranks of one suit that reads several ways (ties are likely)
        part = _several_ways(rng)
        if part is None:
            return None
        for k in part:
            take(k, 1)
        concealed = list(part)
        if not _sets(rng, 4 - len(part) // 3, counts, concealed, melds, allow_melds=True):
            return None
    else:
        if not _sets(rng, 4, counts, concealed, melds, allow_melds=True):
            return None
        pair = rng.randrange(34)
        if not take(pair, 2):
            return None
        concealed += [pair, pair]
    if len(concealed) == 0:
        return None
    rng.shuffle(concealed)
    win = concealed.pop()
    tiles = tuple(tile_from_index(i) for i in concealed)
    flowers = tuple(Tile.parse(f"{i}f") for i in rng.sample(range(1, 9), rng.choice((0, 0, 0, 1, 2))))
    hand = Hand(tiles, tuple(melds), tile_from_index(win), flowers)
    self_draw = rng.random() < 0.4
    seat = rng.choice(WINDS)
    kong = hand.kong_count > 0 and rng.random() < 0.15
    held = sum(1 for t in hand.all_tiles if t.index == win)
    ctx = WinContext(
        self_draw=self_draw,
        seat_wind=seat,
        round_wind=rng.choice(WINDS),
        discarder=None if self_draw else seat.after(rng.randint(1, 3)),
        last_tile=rng.random() < 0.05,
        kong_replacement=self_draw and kong,
        robbing_kong=not self_draw and held == 1 and rng.random() < 0.05,
        last_of_kind=held == 1 and rng.random() < 0.1,
    )
    return hand, ctx


def _several_ways(rng: random.Random) -> list[int] | None:
    """Two or three sets and a pair within four or five ranks of one suit that split more than one way."""
    width = rng.choice((4, 5))
    start = 9 * rng.randrange(3) + rng.randrange(10 - width)
    for _ in range(20):
        tiles = []
        for _set in range(rng.choice((2, 3))):
            if rng.random() < 0.6:
                first = rng.randrange(start, start + width - 2)
                tiles += [first, first + 1, first + 2]
            else:
                tiles += [rng.randrange(start, start + width)] * 3
        tiles += [rng.randrange(start, start + width)] * 2
        segment = tuple(tiles.count(k) for k in range(start - start % 9, start - start % 9 + 9))
        if max(segment) <= 4 and len(suit_ways(segment, start - start % 9)) > 1:
            return tiles
    return None


def _sets(rng: random.Random, n: int, counts: list[int], concealed: list[int], melds: list[Meld],
          allow_melds: bool) -> bool:
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            first = 9 * rng.randrange(3) + rng.randrange(7)
            idx = [first, first + 1, first + 2]
            if any(counts[i] >= 4 for i in idx):
                return False
            for i in idx:
                counts[i] += 1
            kind = MeldKind.CHOW
        else:
            tile = rng.randrange(34)
            size = 4 if r > 0.9 else 3
            if counts[tile] + size > 4:
                return False
            counts[tile] += size
            idx = [tile] * size
            kind = MeldKind.KONG if size == 4 else MeldKind.PUNG
        tiles = tuple(tile_from_index(i) for i in idx)
        if kind is MeldKind.KONG:
            melds.append(Meld(kind, tiles, concealed=rng.random() < 0.4))
        elif allow_melds and rng.random() < 0.3:
            melds.append(Meld(kind, tiles))
        else:
            concealed.extend(idx)
    return True


# --- the same hand for PyMahjongGB ------------------------------------------------------------------

_SUIT = {"W": Suit.MAN, "B": Suit.PIN, "T": Suit.SOU}
_HONOR = {"F1": 1, "F2": 2, "F3": 3, "F4": 4, "J1": 7, "J2": 6, "J3": 5}
_HONOR_NAME = {rank: name for name, rank in _HONOR.items()}
_LETTER = {Suit.MAN: "W", Suit.PIN: "B", Suit.SOU: "T"}
_WIND = "ESWN"


def gb_tile(name: str) -> Tile:
    """The tile of a PyMahjongGB tile name (``W1`` 1m, ``B1`` 1p, ``T1`` 1s, ``F1`` East, ``J1`` Red)."""
    if name in _HONOR:
        return Tile(Suit.HONOR, _HONOR[name])
    return Tile(_SUIT[name[0]], int(name[1]))


def to_gb(tile: Tile) -> str:
    """PyMahjongGB's name of a tile."""
    if tile.suit is Suit.HONOR:
        return _HONOR_NAME[tile.rank]
    return _LETTER[tile.suit] + str(tile.rank)


def hand_string(args: dict[str, Any]) -> str:
    """The mjscore hand string of PyMahjongGB arguments."""
    parts = []
    for kind, name, offer in args["pack"]:
        tile = gb_tile(name)
        if kind == "CHI":
            tiles = [Tile(tile.suit, tile.rank + d) for d in (-1, 0, 1)]
        else:
            tiles = [tile] * (3 if kind == "PENG" else 4)
        body = "".join(str(t) for t in tiles)
        parts.append(f"({body})" if kind == "GANG" and offer == 0 else f"[{body}]")
    parts.append("".join(str(gb_tile(n)) for n in args["hand"]))
    parts.append("+" + str(gb_tile(args["winTile"])))
    parts.append("".join(f"{i + 1}f" for i in range(args["flowerCount"])))
    return " ".join(p for p in parts if p)


def context(args: dict[str, Any]) -> WinContext:
    """The win context of PyMahjongGB arguments (on a discard, the seat before the winner dealt in)."""
    seat = Wind(_WIND[args["seatWind"]])
    self_draw = args["isSelfDrawn"]
    return WinContext(
        self_draw=self_draw,
        seat_wind=seat,
        round_wind=Wind(_WIND[args["prevalentWind"]]),
        discarder=None if self_draw else seat.after(3),
        last_tile=args["isWallLast"],
        kong_replacement=args["isAboutKong"] and self_draw,
        robbing_kong=args["isAboutKong"] and not self_draw,
        last_of_kind=args["is4thTile"],
    )


def gb_args(hand: Hand, ctx: WinContext) -> dict[str, Any]:
    """``MahjongFanCalculator`` keyword arguments for a hand and its win context."""
    pack = []
    for meld in hand.melds:
        if meld.kind is MeldKind.CHOW:
            pack.append(("CHI", to_gb(meld.tiles[1]), 1))
        elif meld.kind is MeldKind.PUNG:
            pack.append(("PENG", to_gb(meld.tiles[0]), 1))
        else:
            pack.append(("GANG", to_gb(meld.tiles[0]), 0 if meld.concealed else 1))
    return {
        "pack": tuple(pack),
        "hand": tuple(to_gb(t) for t in hand.concealed),
        "winTile": to_gb(hand.win_tile),
        "flowerCount": len(hand.flowers),
        "isSelfDrawn": ctx.self_draw,
        "is4thTile": ctx.last_of_kind,
        "isAboutKong": ctx.kong_replacement or ctx.robbing_kong,
        "isWallLast": ctx.last_tile,
        "seatWind": _WIND.index(ctx.seat_wind.value),
        "prevalentWind": _WIND.index(ctx.round_wind.value),
    }


_ALIASES = {"独听・单钓": "单钓将", "独听・嵌张": "坎张", "独听・边张": "边张"}


def fan_id(gb_name: str) -> str:
    """Our fan id of a PyMahjongGB fan name (its wait fans carry a 独听 prefix)."""
    from scorer.mcr.patterns import PATTERNS

    name = _ALIASES.get(gb_name, gb_name)
    return next(p.id for p in PATTERNS if p.name_zh == name)


def reference_fans(hand: Hand, ctx: WinContext) -> Counter[str]:
    """PyMahjongGB's fans of a hand, as our ids with their counts."""
    from MahjongGB import MahjongFanCalculator

    from scorer.mcr.patterns import BY_ID

    out: Counter[str] = Counter()
    for points, name in MahjongFanCalculator(**gb_args(hand, ctx)):
        fid = fan_id(name)
        out[fid] += points // BY_ID[fid].value
    return out


def request(hand: Hand, ctx: WinContext) -> dict[str, Any]:
    """The contract's request object for a hand (the fields that differ from the defaults)."""
    obj: dict[str, Any] = {"rules": "mcr", "hand": str(hand)}
    for name in ("self_draw", "last_tile", "kong_replacement", "robbing_kong", "last_of_kind"):
        if getattr(ctx, name):
            obj[name] = True
    obj["seat_wind"] = ctx.seat_wind.value
    obj["round_wind"] = ctx.round_wind.value
    if ctx.discarder is not None:
        obj["discarder"] = ctx.discarder.value
    return obj
