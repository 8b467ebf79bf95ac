"""Readings of a Riichi hand: each way to read it (sets and a pair, seven pairs, thirteen orphans,
thirteen unconnected) together with the set the winning tile completed (the wait).

Tiles are 34-kind indices (m 0-8, p 9-17, s 18-26, z 27-33: E S W N, white green red).
``Facts`` hold what every reading of one hand shares; a ``Reading`` adds one reading and one wait.
Both are internal and never change once built.
"""

from __future__ import annotations

from typing import Final

from ..decompose import Counts, counts_of  # noqa: F401  (counts_of: doctest)
from ..hand import Hand, MeldKind, WinContext, Wind
from ..suits import ways
from ..tiles import CHOW_TEXT, PAIR_TEXT, PUNG_TEXT, format_tiles, mask, tile_from_index
from .config import RiichiConfig
from .context import RiichiContext

TERMINALS: Final = frozenset({0, 8, 9, 17, 18, 26})
WINDS: Final = frozenset({27, 28, 29, 30})
DRAGONS: Final = frozenset({31, 32, 33})
HONORS: Final = WINDS | DRAGONS
ORPHANS: Final = TERMINALS | HONORS
GREENS: Final = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 sou and green dragon (绿一色)
REDS: Final = frozenset({18, 22, 24, 26, 33})  # 1 5 7 9 sou and red dragon (红孔雀)
# the same as bitmasks (bit i for tile i), for the kinds a hand holds (``Facts.kinds``)
TERMINAL_BITS, HONOR_BITS, ORPHAN_BITS = mask(TERMINALS), mask(HONORS), mask(ORPHANS)
GREEN_BITS, RED_BITS = mask(GREENS), mask(REDS)
SUIT_BITS: Final[tuple[int, ...]] = (mask(range(0, 9)), mask(range(9, 18)), mask(range(18, 27)))
EAST, NORTH = 27, 30

# shapes
REGULAR: Final = 0
SEVEN_PAIRS: Final = 1
KOKUSHI: Final = 2
SHIISANPUUTAA: Final = 3

# waits
RYANMEN: Final = "ryanmen"  # two-sided 两面
KANCHAN: Final = "kanchan"  # closed 嵌张
PENCHAN: Final = "penchan"  # edge 边张
TANKI: Final = "tanki"  # pair 单骑
SHANPON: Final = "shanpon"  # two pairs 双碰
SPECIAL: Final = "special"  # seven pairs, thirteen orphans ...

# a set: (is_chow, first index, open, kong)
SetInfo = tuple[bool, int, bool, bool]


class Facts:
    """What every reading of one hand shares: tiles, win, context, settings."""

    __slots__ = (
        "hand", "ctx", "rc", "config", "counts", "kinds", "closed", "self_draw", "win", "seat", "round",
        "suits", "honors", "tanyao", "orphans_only", "kongs", "melds", "concealed", "valued", "dora", "aka", "ura",
        "riichi", "gates",
    )

    def __init__(self, hand: Hand, ctx: WinContext, rc: RiichiContext, config: RiichiConfig) -> None:
        self.hand = hand
        self.ctx = ctx
        self.rc = rc
        self.config = config
        concealed: list[int] = [0] * 34
        kinds = aka = 0
        for t in hand.concealed:
            code = t.code
            concealed[code] += 1
            kinds |= 1 << code
            aka += t.red
        win = hand.win_tile
        self.win = w = win.code
        concealed[w] += 1
        kinds |= 1 << w
        aka += win.red
        self.concealed: Counts = tuple(concealed)
        kongs = 0
        closed = True
        if hand.melds:
            melds = []
            for m in hand.melds:
                tiles = m.tiles
                first = tiles[0].code
                kong = len(tiles) == 4
                kongs += kong
                claimed = not m.concealed
                closed = closed and not claimed
                melds.append((m.kind is _CHOW, first, claimed, kong))
                for t in tiles:
                    concealed[t.code] += 1
                    aka += t.red
                kinds |= 7 << first if m.kind is _CHOW else 1 << first
            self.melds: tuple[SetInfo, ...] = tuple(melds)
        else:
            self.melds = ()
        self.counts: Counts = tuple(concealed)  # now with the melds
        counts = self.counts
        self.kongs = kongs
        self.closed = closed
        self.aka = aka
        self.kinds = kinds  # bitmask of the kinds held
        self.self_draw = ctx.self_draw
        self.seat = seat = _WIND_INDEX[ctx.seat_wind]
        self.round = round_wind = _WIND_INDEX[ctx.round_wind]
        self.suits = suits = tuple(i for i, suit in enumerate(SUIT_BITS) if kinds & suit)  # numbered suits held
        self.honors = honors = kinds & HONOR_BITS != 0
        self.tanyao = tanyao = not kinds & ORPHAN_BITS
        self.orphans_only = orphans = not kinds & ~ORPHAN_BITS
        self.valued = (31, 32, 33, seat, round_wind)  # a pair of these scores fu (a double wind twice)
        # 宝牌: each indicator makes the next tile a dora (counted again for a repeated indicator)
        dora = ura = 0
        if rc.dora_indicators or rc.ura_indicators or rc.nuki_dora:
            shown = [_DORA_OF[t.code] for t in rc.dora_indicators]
            under = [_DORA_OF[t.code] for t in rc.ura_indicators]
            dora = sum(counts[i] for i in shown) + rc.nuki_dora * (1 + shown.count(NORTH))
            ura = sum(counts[i] for i in under) + rc.nuki_dora * under.count(NORTH)
        self.dora = dora
        self.ura = ura
        self.riichi = riichi = rc.riichi or rc.double_riichi
        event = (ctx.kong_replacement or ctx.last_tile or ctx.robbing_kong or rc.tenhou or rc.chiihou or rc.renhou
                 or rc.paarenchan > 0)
        # in patterns.GATES order
        threes = 0  # kinds held three times or more
        for n in counts:
            if n >= 3:
                threes += 1
        pungs3 = threes >= 3
        pairs7 = not hand.melds and kinds.bit_count() == 7 and self.concealed.count(2) == 7
        self.gates = (riichi, self.self_draw, honors, len(suits) <= 1, orphans, not kinds & ~GREEN_BITS, kongs >= 3,
                      tanyao, event, pungs3, pairs7)


_WIND_INDEX: Final = {Wind.EAST: 27, Wind.SOUTH: 28, Wind.WEST: 29, Wind.NORTH: 30}
_CHOW: Final = MeldKind.CHOW


def dora_of(indicator: int) -> int:
    """The dora an indicator shows: the next tile, 9 to 1, East South West North East, white green red white.

    >>> [dora_of(i) for i in (8, 3, 30, 33)]
    [0, 4, 27, 31]
    """
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 26) % 4
    return 31 + (indicator - 30) % 3


_DORA_OF: Final = tuple(dora_of(i) for i in range(34))


class Reading:
    """One reading of the hand with the set the winning tile completed.

    ``sets`` all four sets (melds first), ``chows``/``pungs`` their first tiles sorted (pungs include
    kongs), ``pair`` the pair (-1 for special shapes), ``concealed_pungs`` pungs and kongs not
    claimed (a pung completed by a discard counts as claimed), ``wait`` the wait, ``win_set`` the
    index in ``sets`` of the set completed by the winning tile (-1: the pair or a special shape).
    """

    __slots__ = ("f", "shape", "sets", "chows", "pungs", "pair", "concealed_pungs", "wait", "win_set", "fu", "raw_fu",
                 "pinfu")

    def __init__(
        self,
        f: Facts,
        shape: int,
        sets: tuple[SetInfo, ...],
        pair: int,
        wait: str,
        win_set: int,
        chows: tuple[int, ...] = (),
        pungs: tuple[int, ...] = (),
        concealed_pungs: int = 0,
    ) -> None:
        self.f = f
        self.shape = shape
        self.sets = sets
        self.pair = pair
        self.wait = wait
        self.win_set = win_set
        self.chows = chows
        self.pungs = pungs
        self.concealed_pungs = concealed_pungs
        self.fu = self.raw_fu = 0  # set by the scorer (fu.fu) before the patterns are detected
        self.pinfu = False

    def groups(self) -> tuple[str, ...]:
        """The reading as the contract prints it: melds, concealed sets, then the pair(s)."""
        f = self.f
        if self.shape == REGULAR:
            out = [str(m) for m in f.hand.melds]
            for is_chow, first, _, _ in self.sets[len(f.hand.melds):]:
                out.append(CHOW_TEXT[first] if is_chow else PUNG_TEXT[first])
            out.append(PAIR_TEXT[self.pair])
            return tuple(out)
        if self.shape == SEVEN_PAIRS:
            return tuple(PAIR_TEXT[i] for i in range(34) if f.concealed[i])
        return (format_tiles(tile_from_index(i) for i in range(34) for _ in range(f.concealed[i])),)


def readings(f: Facts) -> list[Reading]:
    """Every reading of the hand, once per set the winning tile can have completed."""
    out: list[Reading] = []
    melds = f.melds
    base = len(melds)
    win = f.win
    ron = not f.self_draw
    if melds:
        meld_chows = [m[1] for m in melds if m[0]]
        meld_pungs = [m[1] for m in melds if not m[0]]
        meld_concealed = sum(1 for m in melds if not m[0] and not m[2])
    for found, pair, chow_t, pung_t in ways(f.concealed):
        concealed = len(pung_t)
        if melds:
            sets = melds + found
            chow_t = tuple(sorted(meld_chows + list(chow_t)))
            pung_t = tuple(sorted(meld_pungs + list(pung_t)))
            concealed += meld_concealed
        else:
            sets = found
        last = None
        for j, block in enumerate(found):
            is_chow, first = block[0], block[1]
            if is_chow:
                if first <= win <= first + 2 and block != last:
                    last = block
                    out.append(Reading(f, REGULAR, sets, pair, _chow_wait(first, win), base + j, chow_t, pung_t,
                                       concealed))
            elif first == win:
                if ron:  # a pung completed by a discard counts as claimed (明刻)
                    claimed = sets[: base + j] + ((False, first, True, False),) + sets[base + j + 1:]
                    out.append(Reading(f, REGULAR, claimed, pair, SHANPON, base + j, chow_t, pung_t, concealed - 1))
                else:
                    out.append(Reading(f, REGULAR, sets, pair, SHANPON, base + j, chow_t, pung_t, concealed))
        if pair == win:
            out.append(Reading(f, REGULAR, sets, pair, TANKI, -1, chow_t, pung_t, concealed))
    if not melds:
        counts = f.concealed
        if f.gates[-1]:  # seven different pairs (four of a kind is not two pairs)
            out.append(Reading(f, SEVEN_PAIRS, (), -1, SPECIAL, -1))
        if f.kinds.bit_count() == 13:  # thirteen kinds
            if is_kokushi(counts):
                out.append(Reading(f, KOKUSHI, (), -1, SPECIAL, -1))
            elif f.config.has_shiisanpuutaa and (f.rc.tenhou or f.rc.chiihou) and is_shiisanpuutaa(counts):
                out.append(Reading(f, SHIISANPUUTAA, (), -1, SPECIAL, -1))
    return out




def _chow_wait(first: int, win: int) -> str:
    if win == first + 1:
        return KANCHAN
    rank = first % 9
    if (rank == 0 and win == first + 2) or (rank == 6 and win == first):
        return PENCHAN
    return RYANMEN


def is_kokushi(counts: Counts) -> bool:
    """国士无双: the thirteen terminals and honours, one of them twice."""
    return sum(counts) == 14 and all(counts[i] for i in ORPHANS) and sum(counts[i] for i in ORPHANS) == 14


def is_shiisanpuutaa(counts: Counts) -> bool:
    """十三不搭: one pair and twelve different tiles, tiles of a suit at least 3 apart, a simple among them.

    >>> is_shiisanpuutaa(counts_of([tile_from_index(i) for i in (0, 3, 6, 10, 13, 16, 19, 22, 27, 28, 29, 30, 31, 31)]))
    True
    """
    if sum(counts) != 14 or any(c > 2 for c in counts) or sum(1 for c in counts if c == 2) != 1:
        return False
    for suit in range(3):
        ranks = [r for r in range(9) if counts[9 * suit + r]]
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:], strict=False)):
            return False
    return any(counts[i] for i in range(27) if i not in TERMINALS)
