"""Readings of a Riichi hand: each way to read it (sets and a pair, seven pairs, thirteen orphans,
thirteen unconnected) together with the set the winning tile completed (the wait).

Tiles are 34-kind indices (m 0-8, p 9-17, s 18-26, z 27-33: E S W N, white green red).
``Facts`` hold what every reading of one hand shares; a ``Reading`` adds one reading and one wait.
Both are internal and never change once built.
"""

from __future__ import annotations

from ..decompose import Counts, counts_of, divide
from ..hand import Hand, MeldKind, WinContext
from ..tiles import format_tiles, tile_from_index
from .config import RiichiConfig
from .context import RiichiContext

TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
WINDS = frozenset({27, 28, 29, 30})
DRAGONS = frozenset({31, 32, 33})
HONORS = WINDS | DRAGONS
ORPHANS = TERMINALS | HONORS
GREENS = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 sou and green dragon (绿一色)
REDS = frozenset({18, 22, 24, 26, 33})  # 1 5 7 9 sou and red dragon (红孔雀)
EAST, NORTH = 27, 30

# shapes
REGULAR = 0
SEVEN_PAIRS = 1
KOKUSHI = 2
SHIISANPUUTAA = 3

# waits
RYANMEN = "ryanmen"  # two-sided 两面
KANCHAN = "kanchan"  # closed 嵌张
PENCHAN = "penchan"  # edge 边张
TANKI = "tanki"  # pair 单骑
SHANPON = "shanpon"  # two pairs 双碰
SPECIAL = "special"  # seven pairs, thirteen orphans ...

# a set: (is_chow, first index, open, kong)
SetInfo = tuple[bool, int, bool, bool]


class Facts:
    """What every reading of one hand shares: tiles, win, context, settings."""

    __slots__ = (
        "hand", "ctx", "rc", "config", "counts", "kinds", "closed", "self_draw", "win", "seat", "round",
        "suits", "honors", "tanyao", "orphans_only", "kongs", "melds", "concealed", "valued", "dora", "aka", "ura",
    )

    def __init__(self, hand: Hand, ctx: WinContext, rc: RiichiContext, config: RiichiConfig) -> None:
        self.hand = hand
        self.ctx = ctx
        self.rc = rc
        self.config = config
        concealed = list(hand.concealed)
        concealed.append(hand.win_tile)
        self.concealed: Counts = counts_of(concealed)
        self.counts: Counts = counts_of(hand.all_tiles)
        kinds = frozenset(i for i, c in enumerate(self.counts) if c)
        self.kinds = kinds
        self.closed = hand.is_concealed
        self.self_draw = ctx.self_draw
        self.win = hand.win_tile.index
        self.seat = ctx.seat_wind.tile.index
        self.round = ctx.round_wind.tile.index
        self.suits = frozenset(k // 9 for k in kinds if k < 27)
        self.honors = not kinds.isdisjoint(HONORS)
        self.tanyao = kinds.isdisjoint(ORPHANS)
        self.orphans_only = kinds <= ORPHANS
        self.kongs = hand.kong_count
        self.melds: tuple[SetInfo, ...] = tuple(
            (m.kind is MeldKind.CHOW, m.first.index, not m.concealed, m.kind is MeldKind.KONG) for m in hand.melds
        )
        self.valued = (31, 32, 33, self.seat, self.round)  # a pair of these scores fu (a double wind twice)
        # 宝牌: each indicator makes the next tile a dora (counted again for a repeated indicator)
        north_dora = sum(1 for t in rc.dora_indicators if dora_of(t.index) == NORTH)
        north_ura = sum(1 for t in rc.ura_indicators if dora_of(t.index) == NORTH)
        self.dora = sum(self.counts[dora_of(t.index)] for t in rc.dora_indicators) + rc.nuki_dora * (1 + north_dora)
        self.ura = sum(self.counts[dora_of(t.index)] for t in rc.ura_indicators) + rc.nuki_dora * north_ura
        self.aka = sum(1 for t in hand.all_tiles if t.red)


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


class Reading:
    """One reading of the hand with the set the winning tile completed.

    ``sets`` all four sets (melds first), ``chows``/``pungs`` their first tiles sorted (pungs include
    kongs), ``pair`` the pair (-1 for special shapes), ``concealed_pungs`` pungs and kongs not
    claimed (a pung completed by a discard counts as claimed), ``wait`` the wait, ``win_set`` the
    index in ``sets`` of the set completed by the winning tile (-1: the pair or a special shape).
    """

    __slots__ = ("f", "shape", "sets", "chows", "pungs", "pair", "concealed_pungs", "wait", "win_set", "fu", "raw_fu",
                 "pinfu")

    def __init__(self, f: Facts, shape: int, sets: tuple[SetInfo, ...], pair: int, wait: str, win_set: int) -> None:
        self.f = f
        self.shape = shape
        self.sets = sets
        self.pair = pair
        self.wait = wait
        self.win_set = win_set
        self.chows = tuple(sorted(s[1] for s in sets if s[0]))
        self.pungs = tuple(sorted(s[1] for s in sets if not s[0]))
        self.concealed_pungs = sum(1 for s in sets if not s[0] and not s[2])
        self.fu = self.raw_fu = 0  # set by the scorer (fu.fu) before the patterns are detected
        self.pinfu = False

    def groups(self) -> tuple[str, ...]:
        """The reading as the contract prints it: melds, concealed sets, then the pair(s)."""
        f = self.f
        if self.shape == REGULAR:
            out = [str(m) for m in f.hand.melds]
            for is_chow, first, _, _ in self.sets[len(f.hand.melds):]:
                ids = (first, first + 1, first + 2) if is_chow else (first,) * 3
                out.append(format_tiles(tile_from_index(i) for i in ids))
            tile = str(tile_from_index(self.pair))
            out.append(tile + tile)
            return tuple(out)
        if self.shape == SEVEN_PAIRS:
            return tuple(str(tile_from_index(i)) * 2 for i in range(34) if f.concealed[i])
        return (format_tiles(tile_from_index(i) for i in range(34) for _ in range(f.concealed[i])),)


def readings(f: Facts) -> list[Reading]:
    """Every reading of the hand, once per set the winning tile can have completed."""
    out: list[Reading] = []
    free = 4 - len(f.melds)
    win = f.win
    ron = not f.self_draw
    for blocks, pair in divide(f.concealed, free):
        found: list[SetInfo] = [(kind is MeldKind.CHOW, index, False, False) for kind, index in blocks]
        seen: set[tuple[bool, int]] = set()
        base = len(f.melds)
        for j, (is_chow, first, _, _) in enumerate(found):
            if (is_chow and first <= win <= first + 2) or (not is_chow and first == win):
                if (is_chow, first) in seen:
                    continue
                seen.add((is_chow, first))
                sets = list(f.melds)
                sets.extend(found)
                if is_chow:
                    wait = _chow_wait(first, win)
                else:
                    wait = SHANPON
                    if ron:  # a pung completed by a discard counts as claimed (明刻)
                        sets[base + j] = (False, first, True, False)
                out.append(Reading(f, REGULAR, tuple(sets), pair, wait, base + j))
        if pair == win:
            out.append(Reading(f, REGULAR, f.melds + tuple(found), pair, TANKI, -1))
    if not f.melds:
        counts = f.concealed
        if all(c == 0 or c == 2 for c in counts) and sum(1 for c in counts if c) == 7:
            out.append(Reading(f, SEVEN_PAIRS, (), -1, SPECIAL, -1))
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
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:])):
            return False
    return any(counts[i] for i in range(27) if i not in TERMINALS)
