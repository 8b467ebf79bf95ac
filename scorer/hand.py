"""The hand model: melds, the concealed part, the winning tile, flowers; and the win context.

A hand string (CONTRACT.md)::

    [555z] [1111m] (9999p) 123p789s5s +5s  1f6f

``[...]`` an exposed meld, ``(....)`` a concealed kong, loose tiles the concealed part without the
winning tile, ``+X`` the winning tile, ``f`` tiles flowers wherever they stand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .errors import ContextError, InvalidHandError, NotationError, ScorerError
from .tiles import (
    CHOW_TEXT,
    KONG_TEXT,
    PUNG_TEXT,
    Suit,
    Tile,
    format_tiles,
    named_tile,
    parse_tiles,
    read_runs,
    sort_tiles,
)


class MeldKind(StrEnum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"


class Wind(StrEnum):
    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"

    @property
    def tile(self) -> Tile:
        return Tile(Suit.HONOR, "ESWN".index(self.value) + 1)

    def after(self, steps: int) -> Wind:
        """The seat ``steps`` places counter-clockwise (East's next is South)."""
        return WINDS[("ESWN".index(self.value) + steps) % 4]


WINDS: Final[tuple[Wind, ...]] = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
_SIZE: Final = {MeldKind.CHOW: 3, MeldKind.PUNG: 3, MeldKind.KONG: 4, MeldKind.PAIR: 2}
_FLOWERS: Final = 34  # the first flower's code (``Tile.code``)


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """A set of tiles: a chow, pung or kong (exposed unless ``concealed``), or a pair.

    >>> str(Meld.of(parse_tiles("321m")))
    '[123m]'
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    concealed: bool = False

    def __init__(self, kind: MeldKind, tiles: tuple[Tile, ...], concealed: bool = False) -> None:
        # written out rather than generated, as mypyc compiles it (see setup.py); the fields' own order
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "concealed", concealed)
        codes = sorted(t.code for t in self.tiles)  # 34-kind indices; flowers 34 and up
        ok = len(codes) == _SIZE[self.kind] and codes[-1] < 34
        if ok and self.kind is MeldKind.CHOW:
            first = codes[0]
            ok = first < 27 and first % 9 <= 6 and codes == [first, first + 1, first + 2]
        elif ok:
            ok = codes[0] == codes[-1]
        if not ok:
            msg = f"{format_tiles(self.tiles)} is no {self.kind}"
            raise InvalidHandError(msg)
        object.__setattr__(self, "tiles", sort_tiles(self.tiles))

    @classmethod
    def of(cls, tiles: tuple[Tile, ...], *, concealed: bool = False) -> Meld:
        """The meld these tiles make: chow, pung or kong, told apart by the tiles."""
        if len(tiles) == 4:
            kind = MeldKind.KONG
        elif len(tiles) == 3 and tiles[0].code == tiles[1].code == tiles[2].code:
            kind = MeldKind.PUNG
        elif len(tiles) == 3:
            kind = MeldKind.CHOW
        else:
            msg = f"{format_tiles(tiles)} is no meld: a meld has 3 or 4 tiles, it has {len(tiles)}"
            raise InvalidHandError(msg)
        return cls(kind, tiles, concealed)

    @property
    def first(self) -> Tile:
        return self.tiles[0].plain()

    @property
    def is_set(self) -> bool:
        """A pung or kong (a set of equal tiles)."""
        return self.kind in (MeldKind.PUNG, MeldKind.KONG)

    def __str__(self) -> str:
        tiles = self.tiles
        kind = self.kind
        red = False
        for tile in tiles:
            red = red or tile.red
        if kind is MeldKind.PAIR or red:
            body = format_tiles(tiles)
        else:
            texts = CHOW_TEXT if kind is MeldKind.CHOW else PUNG_TEXT if kind is MeldKind.PUNG else KONG_TEXT
            body = texts[tiles[0].code]
        if not self.concealed:
            return f"[{body}]"
        return f"({body})" if self.kind is MeldKind.KONG else body


@dataclass(frozen=True, slots=True, init=False)
class Hand:
    """A winning hand as laid down: concealed tiles, melds, the winning tile, flowers.

    ``concealed`` holds the concealed part WITHOUT the winning tile; ``melds`` the exposed melds
    and concealed kongs in the order given. Tuples are kept in canonical order.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    flowers: tuple[Tile, ...] = ()

    def __init__(self, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], win_tile: Tile,
                 flowers: tuple[Tile, ...] = ()) -> None:
        # written out rather than generated, as mypyc compiles it (see setup.py)
        object.__setattr__(self, "concealed", sort_tiles(concealed))
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "win_tile", win_tile)
        object.__setattr__(self, "flowers", sort_tiles(flowers) if flowers else ())
        if self.win_tile.code >= _FLOWERS:
            msg = f"the winning tile {self.win_tile} is a flower: flowers are set aside, never won on"
            raise InvalidHandError(msg)
        counts: list[int] = [0] * 42  # by code: 34 kinds, then the eight flowers
        for tile in self.concealed:
            if tile.code >= _FLOWERS:
                msg = f"flower {tile} stands among the concealed tiles; flowers are kept apart"
                raise InvalidHandError(msg)
            counts[tile.code] += 1
        for tile in self.flowers:
            if tile.code < _FLOWERS:
                msg = f"{tile} is not a flower"
                raise InvalidHandError(msg)
            counts[tile.code] += 1
        for meld in self.melds:
            if meld.concealed and meld.kind is not MeldKind.KONG:
                msg = f"{meld} is concealed, but only kongs are laid down concealed"
                raise InvalidHandError(msg)
            for tile in meld.tiles:
                counts[tile.code] += 1
        counts[self.win_tile.code] += 1
        if max(counts[:_FLOWERS]) > 4 or max(counts[_FLOWERS:]) > 1:
            for tile in (*self.all_tiles, *self.flowers):  # the first tile held too often names the error
                limit = 1 if tile.code >= _FLOWERS else 4
                if counts[tile.code] > limit:
                    where = "flower" if limit == 1 else "tile"
                    msg = f"{counts[tile.code]} copies of {tile.plain()}: a set has {limit} of each {where}"
                    raise InvalidHandError(msg)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every tile of the hand (melds, concealed part and winning tile), flowers left out."""
        tiles = [t for meld in self.melds for t in meld.tiles]
        tiles.extend(self.concealed)
        tiles.append(self.win_tile)
        return tuple(tiles)

    @property
    def kong_count(self) -> int:
        return sum(1 for meld in self.melds if meld.kind is MeldKind.KONG)

    @property
    def is_concealed(self) -> bool:
        """No exposed (claimed) meld; concealed kongs keep a hand concealed."""
        return all(meld.concealed for meld in self.melds)

    def check_size(self, sets: int = 4) -> None:
        """Raise unless the hand holds ``sets`` sets and a pair worth of tiles (plus one per kong)."""
        if len(self.melds) > sets:
            msg = f"{len(self.melds)} melds, but a hand has at most {sets} sets"
            raise InvalidHandError(msg)
        expected = 3 * (sets - len(self.melds)) + 2
        have = len(self.concealed) + 1
        if have != expected:
            base = 3 * sets + 2
            msg = (
                f"wrong tile count: {len(self.all_tiles)} tiles where a hand holds {base + self.kong_count}"
                f" ({base} plus one per kong): beside {len(self.melds)} meld(s) the concealed part with the"
                f" winning tile must have {expected} tiles, it has {have}"
            )
            raise InvalidHandError(msg)

    def __str__(self) -> str:
        return format_hand(self)


_LOOSE: Final = re.compile(r"[^\s\[\]()+]+")
MAX_HAND_LENGTH: Final = 256  # 18 tiles, 8 flowers, brackets and spaces fit many times over


def parse_hand(text: str, flowers: str = "") -> Hand:
    """A hand from its string; errors name the column. ``flowers`` are more flower tiles written apart
    (the request's ``flowers`` field), read after the hand.

    >>> str(parse_hand("[555z](1111m)123p789s5s+5s 2f"))
    '[555z] (1111m) 123p5789s +5s 2f'
    """
    if not isinstance(text, str):
        raise not_text(text)
    if len(text) > MAX_HAND_LENGTH:
        msg = f"the hand string has {len(text)} characters; a hand is written in at most {MAX_HAND_LENGTH}"
        raise NotationError(msg, MAX_HAND_LENGTH)
    parts = _read_quickly(text) if _HAND.fullmatch(text) else None
    concealed, melds, win_tile, set_aside = parts or _read(text)
    if flowers:
        set_aside += parse_flowers(flowers)
    return Hand(concealed=concealed, melds=melds, win_tile=win_tile, flowers=set_aside)


Parts = tuple[tuple[Tile, ...], tuple[Meld, ...], Tile, tuple[Tile, ...]]  # concealed, melds, win, flowers
_RUNS: Final = r"(?:[0-9]+[mpszf])+"  # tiles written as runs: digits, then their suit letter
_TOKEN: Final = re.compile(rf"\s*(?:\[({_RUNS})\]|\(({_RUNS})\)|\+([0-9][mpszf])|({_RUNS}))")
_HAND: Final = re.compile(rf"(?:\s*(?:\[{_RUNS}\]|\({_RUNS}\)|\+[0-9][mpszf]|{_RUNS}))*\s*")


def _read_quickly(text: str) -> Parts | None:
    """The parts of a well-formed hand string; None where anything is wrong (``_read`` then names it)."""
    melds = []
    loose: list[Tile] = []
    win = None
    for exposed, hidden, won, free in _TOKEN.findall(text):
        if won:
            if win is not None:
                return None
            win = named_tile(won)
            if win is None:
                return None
            continue
        if free:
            tiles = read_runs(free)
            if tiles is None:
                return None
            loose.extend(tiles)
            continue
        meld = _MELDS.get((exposed, hidden))
        if meld is None:
            meld = _meld(exposed, hidden)
            if meld is None:
                return None
        melds.append(meld)
    if win is None or win.suit is Suit.FLOWER:
        return None
    flower = Suit.FLOWER
    for tile in loose:
        if tile.suit is flower:
            return (tuple(t for t in loose if t.suit is not flower), tuple(melds), win,
                    tuple(t for t in loose if t.suit is flower))
    return tuple(loose), tuple(melds), win, ()


def _meld(exposed: str, hidden: str) -> Meld | None:
    """The meld of a well-formed ``[...]`` (``exposed``) or ``(...)`` (``hidden``) body, kept for the next hand
    that lays it down; None where it is no meld (``_read`` then names it)."""
    tiles = read_runs(exposed or hidden)
    if tiles is None:
        return None
    try:
        meld = Meld.of(tiles, concealed=not exposed)
    except ScorerError:  # a meld that is no meld
        return None
    if hidden and meld.kind is not MeldKind.KONG:
        return None
    if len(_MELDS) >= 4096:
        _MELDS.clear()
    _MELDS[(exposed, hidden)] = meld
    return meld


_MELDS: Final[dict[tuple[str, str], Meld]] = {}  # (exposed body, concealed body) -> its meld (frozen, so shared)


def _read(text: str) -> Parts:
    """The parts of a hand string read one character at a time, naming the column of anything wrong."""
    melds: list[Meld] = []
    loose: list[Tile] = []
    win: list[tuple[Tile, int]] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
        elif char in "[(":
            close = "]" if char == "[" else ")"
            end = _find_close(text, i, close)
            tiles = parse_tiles(text[i + 1 : end], i + 1)
            if any(t.suit is Suit.FLOWER for t in tiles):
                msg = f"flower inside the meld at column {i + 1}: flowers stand apart"
                raise NotationError(msg, i)
            try:
                meld = Meld.of(tiles, concealed=char == "(")
            except InvalidHandError as exc:
                msg = f"meld at column {i + 1}: {exc}"
                raise NotationError(msg, i) from None
            if meld.concealed and meld.kind is not MeldKind.KONG:
                msg = f"({text[i + 1:end]}) at column {i + 1}: parentheses are for concealed kongs (four equal tiles)"
                raise NotationError(msg, i)
            melds.append(meld)
            i = end + 1
        elif char in "])":
            msg = f"unexpected {char!r} at column {i + 1}: no meld is open"
            raise NotationError(msg, i)
        elif char == "+":
            body = text[i + 1 : i + 3]
            if len(body) < 2 or not body[0].isdigit() or body[1] not in "mpszf":
                msg = f"'+' at column {i + 1} must be followed by one tile, e.g. +5s"
                raise NotationError(msg, i)
            win.append((parse_tiles(body, i + 1)[0], i))
            i += 3
        else:
            end = _LOOSE.match(text, i).end()  # type: ignore[union-attr]  # char is none of those it stops at
            loose.extend(parse_tiles(text[i:end], i))
            i = end
    if not win:
        msg = ("the hand is empty: write its tiles, the winning one marked with '+', e.g. 123p789s5s +5s"
               if not text.strip() else "no winning tile: mark it with '+', e.g. 123p789s5s +5s")
        raise NotationError(msg, len(text))
    if len(win) > 1:
        msg = f"a second winning tile at column {win[1][1] + 1}: a hand wins on exactly one"
        raise NotationError(msg, win[1][1])
    win_tile = win[0][0]
    if win_tile.suit is Suit.FLOWER:
        msg = f"the winning tile at column {win[0][1] + 1} is a flower; flowers are set aside"
        raise NotationError(msg, win[0][1])
    flower = Suit.FLOWER
    return (tuple(t for t in loose if t.suit is not flower), tuple(melds), win_tile,
            tuple(t for t in loose if t.suit is flower))


def not_text(value: object) -> NotationError:
    """The error for a hand that is no string (checked before ``parse_hand`` where the value comes from JSON)."""
    return NotationError(f"a hand must be a string, not {type(value).__name__}", None)


def _find_close(text: str, start: int, close: str) -> int:
    for j in range(start + 1, len(text)):
        if text[j] == close:
            return j
        if text[j] in "[]()+":
            msg = f"meld opened at column {start + 1} is not closed with {close!r} before {text[j]!r} at column {j + 1}"
            raise NotationError(msg, j)
    msg = f"meld opened at column {start + 1} is never closed with {close!r}"
    raise NotationError(msg, start)


def format_hand(hand: Hand) -> str:
    """The canonical string: melds as given, the concealed part sorted, ``+win``, then flowers."""
    parts = [str(meld) for meld in hand.melds]
    if hand.concealed:
        parts.append(format_tiles(hand.concealed))
    parts.append(f"+{hand.win_tile}")
    if hand.flowers:
        parts.append(format_tiles(hand.flowers))
    return " ".join(parts)


def parse_flowers(text: str) -> tuple[Tile, ...]:
    """The request's ``flowers`` field: flower tiles only."""
    tiles = parse_tiles(text)
    for tile in tiles:
        if not tile.is_flower:
            msg = f"{tile} in 'flowers' is not a flower (1f-8f)"
            raise NotationError(msg)
    return tiles


@dataclass(frozen=True, slots=True, init=False)
class WinContext:
    """How the hand was won: the fields of the contract's request shared by every rule set."""

    self_draw: bool = False
    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    discarder: Wind | None = None
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_of_kind: bool = False

    def __init__(self, self_draw: bool = False, seat_wind: Wind = Wind.EAST, round_wind: Wind = Wind.EAST,
                 discarder: Wind | None = None, last_tile: bool = False, kong_replacement: bool = False,
                 robbing_kong: bool = False, last_of_kind: bool = False) -> None:
        # written out rather than generated, as mypyc compiles it (see setup.py)
        object.__setattr__(self, "self_draw", self_draw)
        object.__setattr__(self, "seat_wind", seat_wind)
        object.__setattr__(self, "round_wind", round_wind)
        object.__setattr__(self, "discarder", discarder)
        object.__setattr__(self, "last_tile", last_tile)
        object.__setattr__(self, "kong_replacement", kong_replacement)
        object.__setattr__(self, "robbing_kong", robbing_kong)
        object.__setattr__(self, "last_of_kind", last_of_kind)

    def check(self, hand: Hand) -> None:
        """Raise ``ContextError`` where the flags contradict each other or the hand."""
        if self.self_draw and self.discarder is not None:
            msg = "a self-drawn win has no discarder"
            raise ContextError(msg)
        if self.discarder is not None and self.discarder == self.seat_wind:
            msg = f"the discarder {self.discarder} is the winner's own seat"
            raise ContextError(msg)
        if self.kong_replacement and not self.self_draw:
            msg = "kong_replacement (杠上开花) is a self-drawn win; set self_draw"
            raise ContextError(msg)
        if self.kong_replacement and hand.kong_count == 0:
            msg = "kong_replacement (杠上开花) needs a kong in the hand"
            raise ContextError(msg)
        if self.robbing_kong and self.self_draw:
            msg = "robbing_kong (抢杠) is a win on another's kong, not a self-draw"
            raise ContextError(msg)
        if self.robbing_kong and self.kong_replacement:
            msg = "robbing_kong and kong_replacement cannot both hold"
            raise ContextError(msg)
        if self.robbing_kong:
            held = sum(1 for t in hand.all_tiles if t.plain() == hand.win_tile.plain())
            if held != 1:
                msg = f"robbing_kong: the robbed tile {hand.win_tile} cannot also be in the hand ({held} copies)"
                raise ContextError(msg)
