"""The fans of Guangdong mahjong (seed 004), as data: the table within the cap, the special hands
beyond it, and the additions (附加情况).

Each ``Pattern`` has a stable id, its names, its value in the seed's table (cap 5), its kind and a
detector (occurrences in one reading, 0 = absent). Exclusions are data (``excludes``) applied in one
place, ``apply_exclusions``; the seed's rule that a special hand "takes no other fans" (不再叠加其他番种)
is the named function ``specials_stand_alone``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from ..decompose import Decomposition, Shape
from ..exclusions import ExclusionTable

WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
HONORS = WINDS | DRAGONS
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
TABLE_CAP = 5  # the cap the seed's table is written for


class Kind(StrEnum):
    FAN = "fan"  # 爆和以内的牌型: counted within the cap
    SPECIAL = "special"  # 爆和以外的牌型: breaks the cap, takes no other fans
    ADDITION = "addition"  # 附加情况: +n within the cap


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a Guangdong hand with the facts the detectors look at."""

    shape: Shape
    decomposition: Decomposition
    chows: tuple[int, ...]  # first indices, sorted
    pungs: tuple[int, ...]  # pungs and kongs, sorted
    pair: int | None
    kinds: frozenset[int]  # every kind in the hand, melds included
    concealed: bool  # 门前清: nothing claimed (不碰不上); concealed kongs keep it
    self_draw: bool  # won by drawing; robbing a kong and 海底捞月 count as self-draw
    last_tile: bool
    kong_replacement: bool
    robbing_kong: bool
    seat_wind: int
    round_wind: int
    heavenly: bool = False
    earthly: bool = False
    human: bool = False


@dataclass(frozen=True, slots=True)
class Pattern:
    id: str
    name: str
    name_zh: str
    value: int  # in the seed's table (cap 5)
    kind: Kind
    detect: Callable[[Reading], int]
    excludes: frozenset[str] = frozenset()


def _suits(r: Reading) -> set[int]:
    return {k // 9 for k in r.kinds if k < 27}


def _has_honors(r: Reading) -> bool:
    return not r.kinds.isdisjoint(HONORS)


def _regular(r: Reading) -> bool:
    return r.shape is Shape.REGULAR


# --- within the cap -------------------------------------------------------------------------------


def _never(r: Reading) -> int:
    """鸡糊 is what a hand with no fan at all is called; it is added, never detected."""
    return 0


def _all_chows(r: Reading) -> int:
    """平胡: all sets chows, no pung (the pair may be anything)."""
    return int(_regular(r) and len(r.chows) == 4)


def _all_pungs(r: Reading) -> int:
    """碰碰胡: all sets pungs or kongs."""
    return int(_regular(r) and len(r.pungs) == 4)


def _half_flush(r: Reading) -> int:
    """混一色: honours and one numbered suit."""
    return int(len(_suits(r)) == 1 and _has_honors(r))


def _mixed_pungs(r: Reading) -> int:
    """混碰: 混一色 and 碰碰胡."""
    return int(_half_flush(r) and _all_pungs(r))


def _full_flush(r: Reading) -> int:
    """清一色: one numbered suit, no honour."""
    return int(len(_suits(r)) == 1 and not _has_honors(r))


# --- special hands ----------------------------------------------------------------------------------


def _pure_pungs(r: Reading) -> int:
    """清碰: 清一色 and 碰碰胡."""
    return int(_full_flush(r) and _all_pungs(r))


def _mixed_terminals(r: Reading) -> int:
    """混幺九: terminals and honours only, both present."""
    return int(r.kinds <= TERMINALS | HONORS and _has_honors(r) and not r.kinds.isdisjoint(TERMINALS))


def _little_three_dragons(r: Reading) -> int:
    """小三元: two dragon pungs, the third dragon the pair."""
    return int(sum(1 for p in r.pungs if p in DRAGONS) == 2 and r.pair in DRAGONS)


def _little_four_winds(r: Reading) -> int:
    """小四喜: three wind pungs, the fourth wind the pair."""
    return int(sum(1 for p in r.pungs if p in WINDS) == 3 and r.pair in WINDS)


def _all_honors(r: Reading) -> int:
    """字一色: honours only."""
    return int(r.kinds <= HONORS)


def _all_terminals(r: Reading) -> int:
    """清幺九: terminals only."""
    return int(r.kinds <= TERMINALS)


def _big_three_dragons(r: Reading) -> int:
    """大三元: pungs of all three dragons."""
    return int(sum(1 for p in r.pungs if p in DRAGONS) == 3)


def _big_four_winds(r: Reading) -> int:
    """大四喜: pungs of all four winds."""
    return int(sum(1 for p in r.pungs if p in WINDS) == 4)


def _thirteen_orphans(r: Reading) -> int:
    """十三幺: each terminal and honour, one of them twice."""
    return int(r.shape is Shape.THIRTEEN_ORPHANS)


def _heavenly(r: Reading) -> int:
    """天和: the dealer's dealt hand is complete."""
    return int(r.heavenly)


def _earthly(r: Reading) -> int:
    """地和: a non-dealer wins on the first tile drawn in the first go-round."""
    return int(r.earthly)


def _human(r: Reading) -> int:
    """人和: a non-dealer wins on the dealer's first discard."""
    return int(r.human)


# --- additions ---------------------------------------------------------------------------------------


def _self_drawn(r: Reading) -> int:
    """自摸: +1 within the cap (海底捞月, 杠上开花 and 抢杠 are self-draws too)."""
    return int(r.self_draw)


def _seat_wind(r: Reading) -> int:
    """门风: a pung of the seat wind."""
    return int(r.seat_wind in r.pungs)


def _prevalent_wind(r: Reading) -> int:
    """圈风: a pung of the prevalent wind."""
    return int(r.round_wind in r.pungs)


def _dragon_pung(r: Reading) -> int:
    """三元牌: +1 per dragon pung (three of them are 大三元)."""
    return sum(1 for p in r.pungs if p in DRAGONS)


def _concealed_hand(r: Reading) -> int:
    """门前清: nothing claimed (不碰不上)."""
    return int(r.concealed)


def _last_tile_draw(r: Reading) -> int:
    """海底捞月: won on the last tile of the wall, self-drawn."""
    return int(r.last_tile and r.self_draw and not r.robbing_kong)


def _kong_bloom(r: Reading) -> int:
    """杠上开花: won on a kong's replacement tile."""
    return int(r.kong_replacement)


def _robbing_kong(r: Reading) -> int:
    """抢杠: as 杠上开花 (a self-draw, the kong's owner liable) but without its +1."""
    return int(r.robbing_kong)


def _x(*ids: str) -> frozenset[str]:
    return frozenset(ids)


F, S, A = Kind.FAN, Kind.SPECIAL, Kind.ADDITION

PATTERNS: tuple[Pattern, ...] = (
    # 爆和以内 (the seed's table order)
    Pattern("chicken_hand", "Chicken Hand", "鸡糊", 0, F, _never),
    Pattern("all_chows", "All Chows", "平胡", 1, F, _all_chows),
    Pattern("all_pungs", "All Pungs", "碰碰胡", 3, F, _all_pungs),
    Pattern("half_flush", "Half Flush", "混一色", 3, F, _half_flush),
    Pattern("mixed_pungs", "Half Flush All Pungs", "混碰", 5, F, _mixed_pungs, _x("half_flush", "all_pungs")),
    Pattern("full_flush", "Full Flush", "清一色", 5, F, _full_flush),
    # 爆和以外
    Pattern("pure_pungs", "Full Flush All Pungs", "清碰", 6, S, _pure_pungs),
    Pattern("mixed_terminals", "Mixed Terminals", "混幺九", 6, S, _mixed_terminals),
    Pattern("little_three_dragons", "Little Three Dragons", "小三元", 7, S, _little_three_dragons),
    Pattern("little_four_winds", "Little Four Winds", "小四喜", 7, S, _little_four_winds),
    Pattern("all_honors", "All Honours", "字一色", 8, S, _all_honors),
    Pattern("all_terminals", "All Terminals", "清幺九", 8, S, _all_terminals),
    Pattern("big_three_dragons", "Big Three Dragons", "大三元", 9, S, _big_three_dragons),
    Pattern("big_four_winds", "Big Four Winds", "大四喜", 9, S, _big_four_winds),
    Pattern("thirteen_orphans", "Thirteen Orphans", "十三幺", 9, S, _thirteen_orphans),
    Pattern("heavenly_hand", "Heavenly Hand", "天和", 9, S, _heavenly),
    Pattern("earthly_hand", "Earthly Hand", "地和", 9, S, _earthly),
    Pattern("human_hand", "Human Hand", "人和", 9, S, _human),
    # 附加情况
    Pattern("self_drawn", "Self-Drawn", "自摸", 1, A, _self_drawn),
    Pattern("seat_wind", "Seat Wind", "门风", 1, A, _seat_wind),
    Pattern("prevalent_wind", "Prevalent Wind", "圈风", 1, A, _prevalent_wind),
    Pattern("dragon_pung", "Dragon Pung", "三元牌", 1, A, _dragon_pung),
    Pattern("concealed_hand", "Concealed Hand", "门前清", 1, A, _concealed_hand),
    Pattern("last_tile_draw", "Last Tile Draw", "海底捞月", 1, A, _last_tile_draw),
    Pattern("kong_bloom", "Out on a Kong's Replacement", "杠上开花", 1, A, _kong_bloom),
    Pattern("robbing_kong", "Robbing the Kong", "抢杠", 0, A, _robbing_kong),
)

BY_ID: dict[str, Pattern] = {p.id: p for p in PATTERNS}
_ORDER = {p.id: i for i, p in enumerate(PATTERNS)}
_EXCLUSIONS = ExclusionTable.of(PATTERNS)


def detect_all(r: Reading) -> dict[str, int]:
    """Every pattern the reading shows, before exclusions."""
    found: dict[str, int] = {}
    for pattern in PATTERNS:
        n = pattern.detect(r)
        if n > 0:
            found[pattern.id] = n
    return found


def apply_exclusions(found: dict[str, int]) -> dict[str, int]:
    """不计: from the first pattern of the table down, each pattern still counted drops the ones it excludes."""
    return _EXCLUSIONS.apply(found)


def specials_stand_alone(found: dict[str, int]) -> dict[str, int]:
    """爆和以外: a special hand takes no other fans (不再叠加其他番种), not even another special.

    Where several specials hold (字一色 with 大四喜), the highest stands, the first in the table on a tie.

    >>> specials_stand_alone({"all_honors": 1, "big_four_winds": 1, "self_drawn": 1})
    {'big_four_winds': 1}
    >>> specials_stand_alone({"half_flush": 1, "dragon_pung": 2})
    {'half_flush': 1, 'dragon_pung': 2}
    """
    specials = [f for f in found if BY_ID[f].kind is Kind.SPECIAL]
    if not specials:
        return dict(found)
    best = max(specials, key=lambda f: (BY_ID[f].value, -_ORDER[f]))
    return {best: 1}


def special_value(pattern: Pattern, cap: int, over_cap: bool) -> int:
    """A special hand's fans: the cap +1 to +4 (``over_cap``) or the table's number.

    >>> special_value(BY_ID["big_three_dragons"], 6, True), special_value(BY_ID["big_three_dragons"], 6, False)
    (10, 9)
    """
    return pattern.value - TABLE_CAP + cap if over_cap else pattern.value
