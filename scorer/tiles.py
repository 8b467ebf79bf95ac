"""Tiles and the mpsz notation for runs of tiles.

``1m``-``9m`` characters, ``1p``-``9p`` dots, ``1s``-``9s`` bamboo, ``1z``-``7z`` honours
(East South West North, White Green Red), ``1f``-``8f`` flowers, ``0m 0p 0s`` red fives.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Final

from .errors import NotationError


class Suit(StrEnum):
    MAN = "m"
    PIN = "p"
    SOU = "s"
    HONOR = "z"
    FLOWER = "f"


_MAX_RANK: Final = {Suit.MAN: 9, Suit.PIN: 9, Suit.SOU: 9, Suit.HONOR: 7, Suit.FLOWER: 8}
_OFFSET: Final = {Suit.MAN: 0, Suit.PIN: 9, Suit.SOU: 18, Suit.HONOR: 27, Suit.FLOWER: 34}
NUMBERED: Final = frozenset({Suit.MAN, Suit.PIN, Suit.SOU})


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile. A red five equals the plain five everywhere but Riichi's dora count.

    >>> Tile.parse("0m") == Tile.parse("5m"), Tile.parse("0m").red
    (True, True)
    """

    suit: Suit
    rank: int
    red: bool = field(default=False, compare=False)
    code: int = field(init=False, repr=False, compare=False)  # the 34-kind index; flowers 34-41
    sort_key: int = field(init=False, repr=False, compare=False)  # canonical order (``sort_tiles``)

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= _MAX_RANK[self.suit]:
            msg = f"no tile {self.rank}{self.suit}: ranks of '{self.suit}' run 1-{_MAX_RANK[self.suit]}"
            raise NotationError(msg)
        if self.red and (self.rank != 5 or self.suit not in NUMBERED):
            msg = "only a numbered five can be red"
            raise NotationError(msg)
        code = _OFFSET[self.suit] + self.rank - 1
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "sort_key", 2 * code + self.red)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """One tile from its two-character name (``"5m"``, ``"0p"``, ``"7z"``, ``"3f"``)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            msg = f"expected one tile, got {len(tiles)} in {text!r}"
            raise NotationError(msg, 0)
        return tiles[0]

    @property
    def index(self) -> int:
        """0-33 for m, p, s, z (the 34-kind index used by decomposition); flowers have none."""
        if self.suit is Suit.FLOWER:
            msg = "a flower has no 34-kind index"
            raise ValueError(msg)
        return self.code

    @property
    def is_flower(self) -> bool:
        return self.suit is Suit.FLOWER

    @property
    def is_honor(self) -> bool:
        return self.suit is Suit.HONOR

    @property
    def is_numbered(self) -> bool:
        return self.suit in NUMBERED

    @property
    def is_terminal(self) -> bool:
        return self.is_numbered and self.rank in (1, 9)

    def plain(self) -> Tile:
        """The same tile without its red mark."""
        return _TILES[f"{self.rank}{self.suit.value}"] if self.red else self

    def __str__(self) -> str:
        return f"{0 if self.red else self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"


def mask(indices: Iterable[int]) -> int:
    """The bitmask of 34-kind indices (bit ``i`` for tile ``i``), as rule sets test the kinds a hand holds.

    >>> bin(mask((0, 2)))
    '0b101'
    """
    out = 0
    for i in indices:
        out |= 1 << i
    return out


def tile_from_index(index: int) -> Tile:
    """The plain tile of a 34-kind index.

    >>> tile_from_index(27)
    Tile('1z')
    """
    return _BY_INDEX[index]


_SUITS_BY_LETTER: Final = {s.value: s for s in Suit}
_BY_INDEX: Final = tuple(
    Tile(suit, rank) for suit in (Suit.MAN, Suit.PIN, Suit.SOU, Suit.HONOR) for rank in range(1, _MAX_RANK[suit] + 1)
)


def parse_tiles(text: str, start: int = 0) -> tuple[Tile, ...]:
    """Tiles from runs like ``"123m55z0p"``; ``start`` offsets error positions.

    >>> [str(t) for t in parse_tiles("19m0p")]
    ['1m', '9m', '0p']
    """
    if _RUNS.fullmatch(text):  # well-formed runs: read them at once, unless a tile does not exist
        tiles = read_runs(text)
        if tiles is not None:
            return tiles
    return _parse_tiles(text, start)  # to name what is wrong and its column


def read_runs(text: str) -> tuple[Tile, ...] | None:
    """The tiles of runs already known to be well formed (digits, then a suit letter); None where a tile
    does not exist (``parse_tiles`` names it)."""
    tiles = []
    for digits, letter in _RUN.findall(text):
        names = _BY_LETTER[letter]
        for digit in digits:
            tile = names.get(digit)
            if tile is None:
                return None
            tiles.append(tile)
    return tuple(tiles)


def named_tile(name: str) -> Tile | None:
    """The tile of a two-character name (``"5m"``, ``"0p"``); None where no such tile exists.

    >>> named_tile("7z"), named_tile("8z")
    (Tile('7z'), None)
    """
    return _TILES.get(name)


_RUN: Final = re.compile(r"([0-9]+)([mpszf])")
_RUNS: Final = re.compile(r"\s*(?:[0-9]+[mpszf]\s*)*")


def _parse_tiles(text: str, start: int) -> tuple[Tile, ...]:
    """``parse_tiles`` one character at a time, naming the column of anything wrong."""
    tiles: list[Tile] = []
    digits: list[tuple[str, int]] = []
    for offset, char in enumerate(text):
        if char in _DIGITS:
            digits.append((char, start + offset))
        elif char in _SUITS_BY_LETTER:
            if not digits:
                position = start + offset
                msg = f"suit letter '{char}' at column {position + 1} has no digits before it"
                raise NotationError(msg, position)
            for digit, where in digits:
                tile = _TILES.get(digit + char)
                tiles.append(tile if tile is not None else _bad(int(digit), _SUITS_BY_LETTER[char], where))
            digits = []
        elif char.isspace():
            if digits:
                msg = f"digits at column {digits[0][1] + 1} have no suit letter (m, p, s, z or f) after them"
                raise NotationError(msg, digits[0][1])
        else:
            position = start + offset
            msg = f"unexpected {char!r} at column {position + 1}: expected a digit or one of m p s z f"
            raise NotationError(msg, position)
    if digits:
        msg = f"digits at column {digits[0][1] + 1} have no suit letter (m, p, s, z or f) after them"
        raise NotationError(msg, digits[0][1])
    return tuple(tiles)


def _bad(digit: int, suit: Suit, position: int) -> Tile:
    if digit == 0:
        msg = f"0 at column {position + 1} is a red five, which only m, p and s have"
        raise NotationError(msg, position)
    msg = f"no tile {digit}{suit} (column {position + 1}): '{suit}' runs 1-{_MAX_RANK[suit]}"
    raise NotationError(msg, position)


_DIGITS: Final = frozenset("0123456789")
_TILES: Final[dict[str, Tile]] = {str(t): t for t in _BY_INDEX}  # every tile by its name, built once
_TILES.update({f"{r}f": Tile(Suit.FLOWER, r) for r in range(1, 9)})
_TILES.update({f"0{s}": Tile(Suit(s), 5, red=True) for s in "mps"})
_BY_LETTER: Final = {letter: {name[0]: t for name, t in _TILES.items() if name[1] == letter} for letter in "mpszf"}


def sort_tiles(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """Tiles in canonical order: m, p, s, z, f, then rank, a red five after the plain ones."""
    return tuple(sorted(tiles, key=_SORT_KEY))


_SORT_KEY: Final = attrgetter("sort_key")


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Runs of one suit share their letter; canonical order unless ``sort`` is false.

    >>> format_tiles(parse_tiles("5s1m2m3m0s"))
    '123m50s'
    """
    ordered = sort_tiles(tiles) if sort else tuple(tiles)
    out: list[str] = []
    for i, tile in enumerate(ordered):
        out.append("0" if tile.red else str(tile.rank))
        if i + 1 == len(ordered) or ordered[i + 1].suit != tile.suit:
            out.append(tile.suit.value)
    return "".join(out)


def _name(index: int) -> tuple[str, str]:
    tile = _BY_INDEX[index]
    return str(tile.rank), tile.suit.value


# the notation of a set of plain tiles by its first 34-kind index: "123m", "111m", "1111m", "1m1m"
CHOW_TEXT: Final = tuple(f"{r}{int(r) + 1}{int(r) + 2}{s}" if i < 27 and i % 9 < 7 else "" for i, (r, s) in
                  enumerate(_name(i) for i in range(34)))
PUNG_TEXT: Final = tuple(f"{r * 3}{s}" for r, s in (_name(i) for i in range(34)))
KONG_TEXT: Final = tuple(f"{r * 4}{s}" for r, s in (_name(i) for i in range(34)))
PAIR_TEXT: Final = tuple(f"{r}{s}{r}{s}" for r, s in (_name(i) for i in range(34)))
