"""Fuzhou's points as data (seed 003): the parts of the seed's formulas and the special wins.

The formulas (和牌通用公式)::

    点炮和 (discard)   = 花 + 金 + 连庄数 + 5 + special
    自摸和 (self-draw) = (连庄数 + 花 + 金 + 5) × 2 + special

``COMPONENTS`` names the parts so that a result lists them (their values add up to the total);
``SPECIALS`` are the special wins with their values and 不可同时出现 (``excludes``). Which specials count
together is decided in one place, ``combine_specials``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from ..exclusions import ExclusionTable
from ..tiles import Suit, Tile


class Kind(StrEnum):
    WIN = "win"  # a way of winning (三金倒, 抢金, 天和): always the self-draw formula; other specials add
    HAND = "hand"  # a special hand: discard or self-draw formula as won


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a Fuzhou hand (or the shapeless 三金倒) with the facts the specials look at."""

    groups: tuple[str, ...]
    shaped: bool  # five sets and a pair (False: 三金倒 needs no shape)
    suits: frozenset[Suit]  # suits of every tile as read (golds as what they stand for)
    golds: int  # golds held, the winning tile included
    live_golds: int  # golds standing for another kind than their own (金不是死金)
    gold_pair: bool  # the pair is two golds
    gold_pung: bool  # a pung of three golds as themselves
    kan: bool  # 金坎: the drawn gold completes its two neighbours, no other gold held
    flower_points: int  # 花: flower tiles (sets of four 6) and kongs (exposed 1, concealed 2)
    self_draw: bool
    robbing_gold: bool
    heavenly: bool
    golds_as: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class Special:
    id: str
    name: str
    name_zh: str
    value: int  # points added (the seed's "+40", "+60" ...); 金坎's comes from the config
    kind: Kind
    detect: Callable[[Reading], bool]
    excludes: frozenset[str] = frozenset()


def _three_golds(r: Reading) -> bool:
    """三金倒: three golds held, won at once without a shape (on one's own draw)."""
    return r.golds == 3 and (r.self_draw or r.robbing_gold or r.heavenly)


def _robbing_gold(r: Reading) -> bool:
    """抢金: won by taking in the revealed gold with one's first tile."""
    return r.robbing_gold


def _heavenly(r: Reading) -> bool:
    """天和: the dealer's dealt hand is complete (counted as 抢金)."""
    return r.heavenly


def _golden_pair(r: Reading) -> bool:
    """金雀: two golds make the pair."""
    return r.shaped and r.gold_pair


def _golden_dragon(r: Reading) -> bool:
    """金龙: three golds held, used as a pung of themselves."""
    return r.shaped and r.gold_pung and r.golds == 3


def _golden_kan(r: Reading) -> bool:
    """金坎: the gold's two neighbours held (1 and 3 for a 2 gold; 2 and 9 for a 1, 8 and 1 for a 9), no gold
    in the concealed part, won by drawing a gold."""
    return r.shaped and r.kan and r.self_draw


def _half_flush(r: Reading) -> bool:
    """混一色: one suit only, with a gold standing for another tile (金不是死金)."""
    return r.shaped and len(r.suits) == 1 and r.live_golds > 0


def _full_flush(r: Reading) -> bool:
    """清一色: one suit only, no gold or only dead golds (the gold used as itself)."""
    return r.shaped and len(r.suits) == 1 and r.live_golds == 0


def _no_flowers(r: Reading) -> bool:
    """平和: no flower drawn and no kong made."""
    return r.flower_points == 0


def _one_flower(r: Reading) -> bool:
    """平和 with one flower."""
    return r.flower_points == 1


def _x(*ids: str) -> frozenset[str]:
    return frozenset(ids)


SPECIALS: tuple[Special, ...] = (
    Special("three_golds", "Three Golds", "三金倒", 40, Kind.WIN, _three_golds,
            _x("robbing_gold", "golden_pair", "golden_dragon")),  # 三金倒和抢金,金雀,金龙不可以同时出现
    Special("robbing_gold", "Robbing the Gold", "抢金", 30, Kind.WIN, _robbing_gold, _x("heavenly_hand")),
    Special("heavenly_hand", "Heavenly Hand", "天和", 30, Kind.WIN, _heavenly),  # 天和和抢金的计番相同
    Special("golden_pair", "Golden Sparrow", "金雀", 60, Kind.HAND, _golden_pair),
    Special("golden_dragon", "Golden Dragon", "金龙", 120, Kind.HAND, _golden_dragon),
    Special("golden_kan", "Golden Kan", "金坎", 60, Kind.HAND, _golden_kan),
    Special("half_flush", "Half Flush", "混一色", 120, Kind.HAND, _half_flush),
    Special("full_flush", "Full Flush", "清一色", 240, Kind.HAND, _full_flush, _x("half_flush")),
    Special("no_flowers", "No Flowers", "平和", 30, Kind.HAND, _no_flowers, _x("one_flower")),
    Special("one_flower", "One Flower", "平和(一花)", 15, Kind.HAND, _one_flower),
)

BY_ID: dict[str, Special] = {s.id: s for s in SPECIALS}
_ORDER = {s.id: i for i, s in enumerate(SPECIALS)}
_EXCLUSIONS = ExclusionTable.of(SPECIALS)

# The parts of the formula, listed in a result before the specials.
COMPONENTS: dict[str, tuple[str, str]] = {
    "base": ("Base", "底"),
    "flowers": ("Flowers", "花"),
    "kongs": ("Kongs as Flowers", "杠"),
    "golds": ("Golds", "金"),
    "dealer_streak": ("Dealer Streak", "连庄"),
    "self_drawn": ("Self-Drawn (doubled)", "自摸×2"),
}
BASE_POINTS = 5  # the "+5" of every formula
FLOWER_SET = 6  # 抓齐4个一样的花 (4 of one wind, 春夏秋冬 or 梅蘭菊竹): 6 flowers


def detect_all(r: Reading) -> list[str]:
    """Every special the reading shows, in table order."""
    return [s.id for s in SPECIALS if s.detect(r)]


def apply_exclusions(found: list[str]) -> list[str]:
    """不可同时出现: each special still counted, from the first in the table down, drops those it excludes."""
    return list(_EXCLUSIONS.apply(dict.fromkeys(found, 1)))


def combine_specials(found: list[str], values: dict[str, int], add_on_special_win: bool) -> list[str]:
    """Which specials count. On an ordinary win (点炮和, 自摸和) only the highest ("只计番数最高的特殊和法");
    on a special win (三金倒, 抢金, 天和) with ``add_on_special_win`` they all add, exclusions applied.
    Ties keep the first in the table.

    >>> v = {s.id: s.value for s in SPECIALS}
    >>> combine_specials(["golden_pair", "full_flush", "no_flowers"], v, True)
    ['full_flush']
    >>> combine_specials(["robbing_gold", "full_flush", "no_flowers"], v, True)
    ['robbing_gold', 'full_flush', 'no_flowers']
    >>> combine_specials(["three_golds", "golden_dragon", "half_flush"], v, True)
    ['three_golds', 'half_flush']
    """
    kept = apply_exclusions(found)
    if not kept:
        return []
    if add_on_special_win and any(BY_ID[k].kind is Kind.WIN for k in kept):
        return kept
    best = max(kept, key=lambda k: (values[k], -_ORDER[k]))
    return [best]


def flower_points(flowers: tuple[Tile, ...], honours: tuple[Tile, ...]) -> int:
    """花 from flower tiles: each 1; four of one honour, 春夏秋冬 or 梅蘭菊竹 together count 6.

    >>> from scorer.tiles import parse_tiles
    >>> flower_points(parse_tiles("1234f5f"), parse_tiles("1111z7z"))
    14
    """
    points = 0
    for group in ({1, 2, 3, 4}, {5, 6, 7, 8}):
        held = sum(1 for f in flowers if f.rank in group)
        points += FLOWER_SET if held == 4 else held
    for rank in range(1, 8):
        held = sum(1 for h in honours if h.rank == rank)
        points += FLOWER_SET if held == 4 else held
    return points
