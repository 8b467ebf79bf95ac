"""The Riichi part of a request: riichi flags, dora indicators, honba and riichi sticks.

``RiichiContext`` holds the contract's ``"riichi"`` object; ``context_from_request`` reads it strictly
(an unknown field or a wrong type is a ``ContextError``), ``check`` refuses flags that contradict each
other or the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from ..bounds import bounded, bounds_of, shown
from ..errors import ContextError, InvalidHandError
from ..hand import Hand, WinContext, Wind
from ..tiles import Tile, parse_tiles, tile_from_index
from .config import RiichiConfig


@dataclass(frozen=True, slots=True, init=False)
class RiichiContext:
    """The contract's ``"riichi"`` object.

    Optional fields extend it, for rules of the document and the library's test suite:
    ``paarenchan`` (八连庄: how many yakuman it is worth, 0 = none; needs option ``has_paarenchan``),
    ``nuki_dora`` (norths set aside in three-player games, each a dora; the library's
    ``num_nuki_dora``) and ``pao`` (役满包牌: the seat whose discard completed 大三元, 大四喜 or 四杠子
    for the winner, liable for the payment).
    """

    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    open_riichi: bool = False
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    honba: int = bounded(0, 0, 99)
    riichi_sticks: int = bounded(0, 0, 99)
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    nagashi_mangan: bool = False
    paarenchan: int = bounded(0, 0, 6)
    nuki_dora: int = bounded(0, 0, 4)
    pao: str | None = None

    def __init__(self, riichi: bool = False, double_riichi: bool = False, ippatsu: bool = False,
                 open_riichi: bool = False, dora_indicators: tuple[Tile, ...] = (),
                 ura_indicators: tuple[Tile, ...] = (), honba: int = 0, riichi_sticks: int = 0, tenhou: bool = False,
                 chiihou: bool = False, renhou: bool = False, nagashi_mangan: bool = False, paarenchan: int = 0,
                 nuki_dora: int = 0, pao: str | None = None) -> None:
        # written out rather than generated, as mypyc compiles it (see setup.py)
        object.__setattr__(self, "riichi", riichi)
        object.__setattr__(self, "double_riichi", double_riichi)
        object.__setattr__(self, "ippatsu", ippatsu)
        object.__setattr__(self, "open_riichi", open_riichi)
        object.__setattr__(self, "dora_indicators", dora_indicators)
        object.__setattr__(self, "ura_indicators", ura_indicators)
        object.__setattr__(self, "honba", honba)
        object.__setattr__(self, "riichi_sticks", riichi_sticks)
        object.__setattr__(self, "tenhou", tenhou)
        object.__setattr__(self, "chiihou", chiihou)
        object.__setattr__(self, "renhou", renhou)
        object.__setattr__(self, "nagashi_mangan", nagashi_mangan)
        object.__setattr__(self, "paarenchan", paarenchan)
        object.__setattr__(self, "nuki_dora", nuki_dora)
        object.__setattr__(self, "pao", pao)

    @property
    def in_riichi(self) -> bool:
        """Riichi or double riichi was declared (double riichi alone is enough)."""
        return self.riichi or self.double_riichi

    def check(self, hand: Hand, ctx: WinContext, config: RiichiConfig, counts: tuple[int, ...]) -> None:
        """Raise ``ContextError`` where the flags contradict each other, the hand or the settings;
        ``InvalidHandError`` where the hand (its 34-kind ``counts``) and the indicators hold a fifth copy."""
        if self.ura_indicators or self.dora_indicators:
            _check_copies(self, counts)
        if self.flagged or ctx.last_tile or ctx.last_of_kind or hand.flowers or (self.riichi and hand.melds):
            _check_flags(self, hand, ctx, config)

    @property
    def flagged(self) -> bool:
        """Any flag beside riichi and the counts is set (they need checking against each other)."""
        return (self.double_riichi or self.ippatsu or self.open_riichi or self.tenhou or self.chiihou
                or self.renhou or self.paarenchan > 0 or self.pao is not None)


_FIELDS: Final = {f.name: f for f in fields(RiichiContext)}
_TILE_FIELDS: Final[tuple[str, ...]] = ("dora_indicators", "ura_indicators")
_INT_FIELDS: Final = bounds_of(RiichiContext)  # honba, riichi_sticks, paarenchan, nuki_dora with their ranges
_FLAG, _TILES, _SEAT, _NUMBER = 0, 1, 2, 3  # what a field of the riichi object holds
_KINDS: Final = {name: _TILES if name in _TILE_FIELDS else _SEAT if name == "pao" else _NUMBER if name in _INT_FIELDS
                 else _FLAG for name in _FIELDS}


def context_from_request(obj: Any) -> RiichiContext:
    """The ``"riichi"`` object of a request (None or missing = all defaults).

    >>> context_from_request({"riichi": True, "dora_indicators": "3m"}).dora_indicators
    (Tile('3m'),)
    """
    if obj is None:
        return _DEFAULTS
    if type(obj) is not dict and not isinstance(obj, Mapping):
        msg = "'riichi' must be an object"
        raise ContextError(msg)
    if not obj:
        return _DEFAULTS
    values: dict[str, Any] = {}
    for name, value in obj.items():
        kind = _KINDS.get(name)
        if kind is None:
            msg = f"unknown field 'riichi.{name}'; known: {', '.join(sorted(_FIELDS))}"
            raise ContextError(msg)
        if kind == _FLAG:
            if value is not True and value is not False:
                msg = f"'riichi.{name}' must be true or false, not {shown(value)}"
                raise ContextError(msg)
            values[name] = value
        elif kind == _TILES:
            if not isinstance(value, str):
                msg = f"'riichi.{name}' must be a string of tiles, e.g. \"3m7z\", not {shown(value)}"
                raise ContextError(msg)
            tiles = _INDICATORS.get(value)
            if tiles is None:
                tiles = parse_tiles(value)
                for tile in tiles:
                    if tile.is_flower:
                        msg = f"'riichi.{name}': {tile} is a flower, which is never a dora indicator"
                        raise ContextError(msg)
                if len(_INDICATORS) < 4096:
                    _INDICATORS[value] = tiles
            values[name] = tiles
        elif kind == _SEAT:
            if value is not None and value not in ("E", "S", "W", "N"):
                msg = f"'riichi.pao' must be a seat (E, S, W, N) or null, not {shown(value)}"
                raise ContextError(msg)
            values[name] = value
        else:
            limit = _INT_FIELDS[name]
            if type(value) is int and limit.low <= value <= limit.high:
                values[name] = value
            else:
                values[name] = limit.check(value, f"riichi.{name}")
    get = values.get
    d = _DEFAULTS  # named arguments, which compiled code passes directly (not **values)
    return RiichiContext(
        riichi=get("riichi", d.riichi), double_riichi=get("double_riichi", d.double_riichi),
        ippatsu=get("ippatsu", d.ippatsu), open_riichi=get("open_riichi", d.open_riichi),
        dora_indicators=get("dora_indicators", d.dora_indicators),
        ura_indicators=get("ura_indicators", d.ura_indicators), honba=get("honba", d.honba),
        riichi_sticks=get("riichi_sticks", d.riichi_sticks), tenhou=get("tenhou", d.tenhou),
        chiihou=get("chiihou", d.chiihou), renhou=get("renhou", d.renhou),
        nagashi_mangan=get("nagashi_mangan", d.nagashi_mangan), paarenchan=get("paarenchan", d.paarenchan),
        nuki_dora=get("nuki_dora", d.nuki_dora), pao=get("pao", d.pao))


_DEFAULTS: Final = RiichiContext()
_INDICATORS: Final[dict[str, tuple[Tile, ...]]] = {}  # indicators as written -> their tiles (no flower among them)


def _refuse(msg: str) -> None:
    raise ContextError(msg)


def _check_flags(rc: RiichiContext, hand: Hand, ctx: WinContext, config: RiichiConfig) -> None:
    closed = hand.is_concealed
    dealer = ctx.seat_wind is Wind.EAST
    if rc.in_riichi and not closed:
        _refuse("riichi is declared only with a closed hand, and this hand has an exposed meld")
    if rc.ippatsu and not rc.in_riichi:
        _refuse("ippatsu (一发) needs riichi or double riichi")
    if rc.open_riichi and not rc.in_riichi:
        _refuse("open_riichi (开立直) needs riichi or double riichi")
    if rc.open_riichi and not config.has_open_riichi:
        _refuse("open riichi (开立直) is an agreed rule: set option has_open_riichi to play it")
    if ctx.last_tile and ctx.kong_replacement:
        _refuse("a kong replacement tile is not the last wall tile: rinshan and haitei cannot both hold"
                " (the document counts only rinshan, 岭上开花; drop last_tile)")
    if ctx.last_tile and ctx.robbing_kong:
        _refuse("houtei (河底) is a win on the last discard, not on a robbed kong")
    if ctx.last_of_kind:
        _refuse("last_of_kind (和绝张) is an MCR flag; Riichi has no such yaku")
    if hand.flowers:
        _refuse("Riichi is played without flowers; remove the f tiles")
    if rc.tenhou:
        if not dealer:
            _refuse("tenhou (天和) is the dealer's win; the dealer sits East")
        if not ctx.self_draw:
            _refuse("tenhou (天和) is a self-drawn win; set self_draw")
        if hand.melds:
            _refuse("tenhou (天和) is won on the first draw, before any meld or kong")
        if rc.in_riichi:
            _refuse("tenhou (天和) is won before any discard, so before riichi")
    if rc.chiihou:
        if dealer:
            _refuse("chiihou (地和) is a non-dealer's win; the dealer (East) wins tenhou")
        if not ctx.self_draw:
            _refuse("chiihou (地和) is a self-drawn win; set self_draw")
        if hand.melds:
            _refuse("chiihou (地和) is won on the first draw, before any meld or kong")
        if rc.in_riichi:
            _refuse("chiihou (地和) is won on the first draw, before riichi")
    if rc.renhou:
        if not config.has_renhou:
            _refuse("renhou (人和) is an agreed rule: set option has_renhou to play it")
        if dealer:
            _refuse("renhou (人和) is a non-dealer's win; the dealer sits East")
        if ctx.self_draw:
            _refuse("renhou (人和) is a win on a discard before one's first draw, not a self-draw")
        if hand.melds:
            _refuse("renhou (人和) is won before any meld or kong")
    if sum((rc.tenhou, rc.chiihou, rc.renhou)) > 1:
        _refuse("tenhou, chiihou and renhou exclude each other")
    if rc.pao is not None:
        if rc.pao == ctx.seat_wind.value:
            _refuse("pao (包牌): the liable seat is another player, not the winner")
        if rc.tenhou or rc.chiihou or rc.renhou or closed:
            _refuse("pao (包牌) needs a claimed meld: the liable player's discard completed it")
    if rc.paarenchan and not config.has_paarenchan:
        _refuse("paarenchan (八连庄) is an agreed rule: set option has_paarenchan to play it")


def _check_copies(rc: RiichiContext, counts: tuple[int, ...]) -> None:
    """Dora indicators are tiles too: with the hand they hold at most four copies of a tile. A game shows at
    most five dora indicators (one, and one per kong) and as many ura indicators.

    Red fives are not limited beyond that: sets differ (one of each suit, two red 5p, ...)."""
    if len(rc.dora_indicators) > 5 or len(rc.ura_indicators) > 5:
        msg = "at most five dora indicators (one plus one per kong) and five ura indicators"
        raise ContextError(msg)
    seen: dict[int, int] = {}
    for t in (*rc.dora_indicators, *rc.ura_indicators):
        index = t.index
        seen[index] = count = seen.get(index, counts[index]) + 1
        if count > 4:
            msg = (f"{count} copies of {tile_from_index(index)} between the hand and the dora"
                   " indicators: a set has 4")
            raise InvalidHandError(msg)
