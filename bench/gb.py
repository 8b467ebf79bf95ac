"""Translation between mjscore's notation and PyMahjongGB's arguments, for the differential test and the benchmark."""

from __future__ import annotations

from scorer.hand import Hand, MeldKind, WinContext
from scorer.tiles import Suit, Tile

_SUIT = {"W": Suit.MAN, "B": Suit.PIN, "T": Suit.SOU}
_HONOR = {"F1": 1, "F2": 2, "F3": 3, "F4": 4, "J1": 7, "J2": 6, "J3": 5}
_WIND = "ESWN"


def gb_tile(name: str) -> Tile:
    if name in _HONOR:
        return Tile(Suit.HONOR, _HONOR[name])
    return Tile(_SUIT[name[0]], int(name[1]))


def to_gb(tile: Tile) -> str:
    if tile.suit is Suit.HONOR:
        return {v: k for k, v in _HONOR.items()}[tile.rank]
    return {Suit.MAN: "W", Suit.PIN: "B", Suit.SOU: "T"}[tile.suit] + str(tile.rank)


def hand_string(args: dict) -> str:
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


def context(args: dict) -> WinContext:
    from scorer.hand import Wind

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


def gb_args(hand: Hand, ctx: WinContext) -> dict:
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
