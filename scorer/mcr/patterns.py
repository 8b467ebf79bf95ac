"""The 81 fans of the 1998 Chinese Official rules (and the 明暗杠 supplement), as data.

Each ``Pattern`` carries its number and names from the rules, its value, the shapes it can occur
in, its detector (occurrences in one reading, 0 = absent), its 不计 list (``excludes``: fans
not also counted when this one is; ``absorbs``: fans counted once fewer) and the facts without which
it cannot be there (``needs``: a reading runs only the detectors whose needs hold, its ``plan``).
Exclusions are applied in one place, ``apply_exclusions``. The lists follow the 1998 rules (seed 001) and
the clearer lists of seed 000; where they read differently from the reference calculator, the choice is
noted beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..decompose import Shape
from ..exclusions import ExclusionTable
from .combinations import chow_fans, pung_fans
from .reading import DRAGONS, GREEN, HONORS, REVERSIBLE, SIMPLES, TERMINALS, WINDS, HandFacts, Reading, ranks

ALL: Final = frozenset(Shape)
REGULAR: Final = frozenset({Shape.REGULAR})
SETS: Final = frozenset({Shape.REGULAR, Shape.KNITTED_STRAIGHT})  # readings with sets (a knitted straight has one)
PAIRS: Final = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS})  # readings judged tile by tile
SETS_AND_PAIRS: Final = SETS | PAIRS
SEVEN_PAIRS: Final = frozenset({Shape.SEVEN_PAIRS})
THIRTEEN_ORPHANS: Final = frozenset({Shape.THIRTEEN_ORPHANS})
HONORS_AND_KNITTED: Final = frozenset({Shape.HONORS_AND_KNITTED})
KNITTED: Final = frozenset({Shape.KNITTED_STRAIGHT, Shape.HONORS_AND_KNITTED})  # 全不靠 with all nine knitted tiles


@dataclass(frozen=True, slots=True)
class Pattern:
    number: int  # in the 1998 rules; 0 for the supplement
    id: str
    name: str
    name_zh: str
    value: int
    detect: Callable[[Reading], int]
    shapes: frozenset[Shape] = REGULAR
    excludes: frozenset[str] = frozenset()
    absorbs: frozenset[str] = frozenset()
    needs: tuple[str, ...] = ()  # facts of the hand (``GATES``) without which it cannot be there


# --- detectors: facts of one reading (``r``) and of its hand (``r.h``) -----------------------------------


_COMBINATIONS: Final[set[Callable[[Reading], int]]] = set()  # detectors read from the combination tables


def _chow(name: str) -> Callable[[Reading], int]:
    def detect(r: Reading) -> int:
        return chow_fans(r.chows).get(name, 0)

    detect.__name__ = f"_detect_{name}"
    _COMBINATIONS.add(detect)
    return detect


def _pung(name: str) -> Callable[[Reading], int]:
    def detect(r: Reading) -> int:
        return pung_fans(r.pungs).get(name, 0)

    detect.__name__ = f"_detect_{name}"
    _COMBINATIONS.add(detect)
    return detect


def _within(kinds: int, allowed: int) -> bool:
    """Every kind held is among ``allowed`` (bitmasks)."""
    return not kinds & ~allowed


def _nine_gates(r: Reading) -> int:
    h = r.h
    if h.exposed or h.concealed_kongs or h.suits != 1 or h.honors:
        return 0
    base = 9 * (h.win // 9)
    before = list(h.counts[base : base + 9])
    before[h.win - base] -= 1
    return int(before == [3, 1, 1, 1, 1, 1, 1, 1, 3])


def _four_kongs(r: Reading) -> int:
    return int(r.h.melded_kongs + r.h.concealed_kongs == 4)


def _three_kongs(r: Reading) -> int:
    return int(r.h.melded_kongs + r.h.concealed_kongs == 3)


def _seven_shifted_pairs(r: Reading) -> int:
    h = r.h
    if h.suits != 1 or h.honors:
        return 0
    low = (h.kinds & -h.kinds).bit_length() - 1
    return int(h.kinds == 0b1111111 << low)


def _thirteen_orphans(r: Reading) -> int:
    return 1


def _all_terminals(r: Reading) -> int:
    return int(_within(r.h.kinds, TERMINALS))


def _little_four_winds(r: Reading) -> int:
    return int(sum(1 for p in r.pungs if 27 <= p <= 30) == 3 and 27 <= r.pair <= 30)


def _little_three_dragons(r: Reading) -> int:
    return int(sum(1 for p in r.pungs if p >= 31) == 2 and r.pair >= 31)


def _all_honors(r: Reading) -> int:
    return int(_within(r.h.kinds, HONORS))


def _four_concealed_pungs(r: Reading) -> int:
    return int(r.concealed_pungs == 4)


def _pure_terminal_chows(r: Reading) -> int:
    if r.pair < 0 or r.pair >= 27 or r.pair % 9 != 4 or len(r.chows) != 4:
        return 0
    base = r.pair - 4
    return int(r.chows == (base, base, base + 6, base + 6))


def _all_terminals_and_honors(r: Reading) -> int:
    kinds = r.h.kinds
    return int(_within(kinds, TERMINALS | HONORS) and bool(kinds & HONORS) and bool(kinds & TERMINALS))


def _seven_pairs(r: Reading) -> int:
    return 1


def _greater_honors_and_knitted_tiles(r: Reading) -> int:
    return int(r.greater_honors)


def _all_even_pungs(r: Reading) -> int:
    return int(len(r.pungs) == 4 and all(g < 27 and g % 9 in (1, 3, 5, 7) for g in (*r.pungs, r.pair)))


def _full_flush(r: Reading) -> int:
    return int(r.h.suits == 1 and not r.h.honors)


def _ranks_within(low: int, high: int) -> Callable[[Reading], int]:
    allowed = ranks(*range(low, high + 1))

    def detect(r: Reading) -> int:
        return int(_within(r.h.kinds, allowed))

    return detect


def _within_and_touching(low: int, high: int, touch: int) -> Callable[[Reading], int]:
    allowed = ranks(*range(low, high + 1))
    touching = ranks(touch)

    def detect(r: Reading) -> int:
        return int(_within(r.h.kinds, allowed) and bool(r.h.kinds & touching))

    return detect


def _three_suited_terminal_chows(r: Reading) -> int:
    if r.pair < 0 or r.pair >= 27 or r.pair % 9 != 4 or len(r.chows) != 4:
        return 0
    a, b = sorted({0, 9, 18} - {r.pair - 4})
    return int(r.chows == (a, a + 6, b, b + 6))


def _all_five(r: Reading) -> int:
    if r.pair < 0 or r.pair >= 27 or r.pair % 9 != 4:
        return 0
    chows_ok = all(c % 9 in (2, 3, 4) for c in r.chows)
    return int(chows_ok and all(p < 27 and p % 9 == 4 for p in r.pungs))


def _three_concealed_pungs(r: Reading) -> int:
    return int(r.concealed_pungs == 3)


def _lesser_honors_and_knitted_tiles(r: Reading) -> int:
    return int(not r.greater_honors)


def _knitted_straight(r: Reading) -> int:
    return int(r.shape is Shape.KNITTED_STRAIGHT or r.knitted_in_honors)


def _reversible_tiles(r: Reading) -> int:
    return int(_within(r.h.kinds, REVERSIBLE))


def _all_green(r: Reading) -> int:
    return int(_within(r.h.kinds, GREEN))


def _last_tile_draw(r: Reading) -> int:
    return int(r.h.self_draw and r.h.last_tile)


def _last_tile_claim(r: Reading) -> int:
    return int(not r.h.self_draw and r.h.last_tile)


def _out_with_replacement_tile(r: Reading) -> int:
    return int(r.h.self_draw and r.h.kong_replacement)


def _robbing_the_kong(r: Reading) -> int:
    return int(r.h.robbing_kong)


def _all_pungs(r: Reading) -> int:
    return int(len(r.pungs) == 4)


def _half_flush(r: Reading) -> int:
    return int(r.h.suits == 1 and r.h.honors)


def _all_types(r: Reading) -> int:
    kinds = r.h.kinds
    return int(r.h.suits == 3 and bool(kinds & WINDS) and bool(kinds & DRAGONS))


def _melded_hand(r: Reading) -> int:
    return int(r.h.exposed == 4 and not r.h.self_draw)


def _kongs(melded: int, concealed: int) -> Callable[[Reading], int]:
    def detect(r: Reading) -> int:
        return int(r.h.melded_kongs == melded and r.h.concealed_kongs == concealed)

    return detect


def _outside_hand(r: Reading) -> int:
    if r.pair < 0 or not (r.pair >= 27 or r.pair % 9 in (0, 8)):
        return 0
    chows_ok = all(c % 9 in (0, 6) for c in r.chows)
    return int(chows_ok and all(p >= 27 or p % 9 in (0, 8) for p in r.pungs))


def _fully_concealed_hand(r: Reading) -> int:
    return int(r.h.exposed == 0 and r.h.self_draw)


def _last_tile(r: Reading) -> int:
    return int(r.h.last_of_kind)


def _dragon_pung(r: Reading) -> int:
    return sum(1 for p in r.pungs if p >= 31)


def _prevalent_wind(r: Reading) -> int:
    return int(r.h.round_wind in r.pungs)


def _seat_wind(r: Reading) -> int:
    return int(r.h.seat_wind in r.pungs)


def _concealed_hand(r: Reading) -> int:
    return int(r.h.exposed == 0 and not r.h.self_draw)


def _all_chows(r: Reading) -> int:
    chows = len(r.chows) + (3 if r.shape is Shape.KNITTED_STRAIGHT else 0)
    return int(chows == 4 and not r.pungs and 0 <= r.pair < 27)


def _tile_hog(r: Reading) -> int:
    return r.h.hogs


def _two_concealed_pungs(r: Reading) -> int:
    return int(r.concealed_pungs == 2)


def _all_simples(r: Reading) -> int:
    return int(_within(r.h.kinds, SIMPLES))


def _pung_of_terminals_or_honors(r: Reading) -> int:
    """Terminal pungs, and wind pungs that no wind fan claims (fewer than three, neither seat nor round)."""
    h = r.h
    winds = [p for p in r.pungs if 27 <= p <= 30]
    count = sum(1 for p in r.pungs if p < 27 and p % 9 in (0, 8))
    if len(winds) < 3:
        count += sum(1 for p in winds if p != h.seat_wind and p != h.round_wind)
    return count


def _one_voided_suit(r: Reading) -> int:
    return int(r.h.suits == 2)


def _no_honors(r: Reading) -> int:
    return int(not r.h.honors)


def _wait(kind: str) -> Callable[[Reading], int]:
    def detect(r: Reading) -> int:
        return int(r.wait == kind)

    return detect


def _self_drawn(r: Reading) -> int:
    return int(r.h.self_draw)


def _flowers(r: Reading) -> int:
    return 0  # flowers are added by the scorer from the hand, outside the readings


def _never(r: Reading) -> int:
    return 0  # 无番和 is given by the scorer when nothing else counts


def _x(*ids: str) -> frozenset[str]:
    return frozenset(ids)


WIN_FLAGS: Final = ALL
PATTERNS: Final[tuple[Pattern, ...]] = (
    # 88
    Pattern(1, "big_four_winds", "Big Four Winds", "大四喜", 88, _pung("big_four_winds"), REGULAR,
            _x("big_three_winds", "all_pungs", "prevalent_wind", "seat_wind", "pung_of_terminals_or_honors",
               "little_four_winds")),
    Pattern(2, "big_three_dragons", "Big Three Dragons", "大三元", 88, _pung("big_three_dragons"), REGULAR,
            _x("two_dragons_pungs", "dragon_pung")),
    Pattern(3, "all_green", "All Green", "绿一色", 88, _all_green, SETS_AND_PAIRS,
            _x("half_flush", "one_voided_suit"), needs=("one_suit",)),
    # 九莲宝灯 不计 清一色、门前清、不求人、无字、缺一门 and one 幺九刻 (the 1-9 pung that is part of the shape).
    Pattern(4, "nine_gates", "Nine Gates", "九莲宝灯", 88, _nine_gates, REGULAR,
            _x("full_flush", "concealed_hand", "fully_concealed_hand", "no_honors", "one_voided_suit"),
            _x("pung_of_terminals_or_honors"), needs=("one_suit", "concealed")),
    Pattern(5, "four_kongs", "Four Kongs", "四杠", 88, _four_kongs, REGULAR,
            _x("three_kongs", "two_concealed_kongs", "two_melded_kongs", "melded_kong", "concealed_kong",
               "concealed_kong_and_melded_kong", "single_wait", "all_pungs"), needs=("kongs",)),
    Pattern(6, "seven_shifted_pairs", "Seven Shifted Pairs", "连七对", 88, _seven_shifted_pairs, SEVEN_PAIRS,
            _x("full_flush", "fully_concealed_hand", "concealed_hand", "single_wait", "seven_pairs",
               "one_voided_suit", "no_honors"), needs=("one_suit",)),
    Pattern(7, "thirteen_orphans", "Thirteen Orphans", "十三幺", 88, _thirteen_orphans,
            THIRTEEN_ORPHANS,
            _x("all_types", "fully_concealed_hand", "concealed_hand", "single_wait")),
    # 64
    # 清幺九 不计 碰碰和、同刻 (双同刻)、元字、混幺九、全带幺、幺九刻、无字; 三同刻 still counts (1998 text).
    Pattern(8, "all_terminals", "All Terminals", "清幺九", 64, _all_terminals, PAIRS,
            _x("all_pungs", "double_pung", "no_honors", "all_terminals_and_honors", "outside_hand",
               "pung_of_terminals_or_honors"), needs=("orphans",)),
    Pattern(9, "little_four_winds", "Little Four Winds", "小四喜", 64, _little_four_winds, REGULAR,
            _x("big_three_winds", "pung_of_terminals_or_honors"), needs=("honors", "pungs3", "honor_pair")),
    Pattern(10, "little_three_dragons", "Little Three Dragons", "小三元", 64, _little_three_dragons, REGULAR,
            _x("two_dragons_pungs", "dragon_pung"), needs=("honors", "pungs2", "honor_pair")),
    Pattern(11, "all_honors", "All Honors", "字一色", 64, _all_honors, PAIRS,
            _x("all_pungs", "all_terminals_and_honors", "outside_hand", "pung_of_terminals_or_honors",
               "one_voided_suit"), needs=("orphans",)),
    Pattern(12, "four_concealed_pungs", "Four Concealed Pungs", "四暗刻", 64, _four_concealed_pungs, REGULAR,
            _x("concealed_hand", "fully_concealed_hand", "all_pungs", "three_concealed_pungs", "two_concealed_pungs"),
            needs=("pungs4",)),
    Pattern(13, "pure_terminal_chows", "Pure Terminal Chows", "一色双龙会", 64, _pure_terminal_chows, REGULAR,
            _x("all_chows", "seven_pairs", "full_flush", "pure_double_chow", "two_terminal_chows",
               "one_voided_suit", "no_honors"), needs=("one_suit", "no_pungs", "five_pair")),
    # 48
    Pattern(14, "quadruple_chow", "Quadruple Chow", "一色四同顺", 48, _chow("quadruple_chow"), REGULAR,
            _x("pure_shifted_pungs", "pure_double_chow", "tile_hog", "pure_triple_chow")),
    Pattern(15, "four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一色四节高", 48,
            _pung("four_pure_shifted_pungs"), REGULAR, _x("pure_triple_chow", "pure_shifted_pungs", "all_pungs")),
    # 32
    Pattern(16, "four_pure_shifted_chows", "Four Pure Shifted Chows", "一色四步高", 32,
            _chow("four_pure_shifted_chows"), REGULAR,
            _x("pure_shifted_chows", "short_straight", "two_terminal_chows")),
    Pattern(17, "three_kongs", "Three Kongs", "三杠", 32, _three_kongs,
            REGULAR, _x("two_concealed_kongs", "two_melded_kongs", "melded_kong", "concealed_kong",
                        "concealed_kong_and_melded_kong"), needs=("kongs",)),
    Pattern(18, "all_terminals_and_honors", "All Terminals and Honours", "混幺九", 32, _all_terminals_and_honors,
            PAIRS, _x("all_pungs", "outside_hand", "pung_of_terminals_or_honors"), needs=("orphans",)),
    # 24
    Pattern(19, "seven_pairs", "Seven Pairs", "七对", 24, _seven_pairs, SEVEN_PAIRS,
            _x("concealed_hand", "fully_concealed_hand", "single_wait")),
    Pattern(20, "greater_honors_and_knitted_tiles", "Greater Honours and Knitted Tiles", "七星不靠", 24,
            _greater_honors_and_knitted_tiles, HONORS_AND_KNITTED,
            _x("all_types", "concealed_hand", "fully_concealed_hand", "single_wait",
               "lesser_honors_and_knitted_tiles")),
    Pattern(21, "all_even_pungs", "All Even Pungs", "全双刻", 24, _all_even_pungs, REGULAR,
            _x("all_pungs", "all_simples", "no_honors"), needs=("no_honors", "pungs4")),
    Pattern(22, "full_flush", "Full Flush", "清一色", 24, _full_flush, PAIRS, _x("no_honors", "one_voided_suit"),
            needs=("one_suit", "no_honors")),
    Pattern(23, "pure_triple_chow", "Pure Triple Chow", "一色三同顺", 24, _chow("pure_triple_chow"), REGULAR,
            _x("pure_shifted_pungs", "pure_double_chow")),
    Pattern(24, "pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", 24, _pung("pure_shifted_pungs"), REGULAR,
            _x("pure_triple_chow")),
    Pattern(25, "upper_tiles", "Upper Tiles", "全大", 24, _ranks_within(7, 9), PAIRS,
            _x("upper_four", "no_honors"), needs=("no_honors",)),
    Pattern(26, "middle_tiles", "Middle Tiles", "全中", 24, _ranks_within(4, 6), PAIRS,
            _x("all_simples", "no_honors"), needs=("no_honors",)),
    Pattern(27, "lower_tiles", "Lower Tiles", "全小", 24, _ranks_within(1, 3), PAIRS,
            _x("lower_four", "no_honors"), needs=("no_honors",)),
    # 16
    Pattern(28, "pure_straight", "Pure Straight", "清龙", 16, _chow("pure_straight"), REGULAR,
            _x("short_straight", "two_terminal_chows")),
    Pattern(29, "three_suited_terminal_chows", "Three-Suited Terminal Chows", "三色双龙会", 16,
            _three_suited_terminal_chows, REGULAR,
            _x("mixed_double_chow", "two_terminal_chows", "no_honors", "all_chows"),
            needs=("no_honors", "no_pungs", "five_pair")),
    Pattern(30, "pure_shifted_chows", "Pure Shifted Chows", "一色三步高", 16, _chow("pure_shifted_chows")),
    Pattern(31, "all_five", "All Fives", "全带五", 16, _all_five, REGULAR, _x("all_simples", "no_honors"),
            needs=("no_honors", "five_pair")),
    Pattern(32, "triple_pung", "Triple Pung", "三同刻", 16, _pung("triple_pung"), REGULAR, _x("double_pung")),
    Pattern(33, "three_concealed_pungs", "Three Concealed Pungs", "三暗刻", 16, _three_concealed_pungs, REGULAR,
            _x("two_concealed_pungs"), needs=("pungs3",)),
    # 12
    Pattern(34, "lesser_honors_and_knitted_tiles", "Lesser Honours and Knitted Tiles", "全不靠", 12,
            _lesser_honors_and_knitted_tiles, HONORS_AND_KNITTED,
            _x("all_types", "concealed_hand", "fully_concealed_hand", "single_wait")),
    Pattern(35, "knitted_straight", "Knitted Straight", "组合龙", 12, _knitted_straight, KNITTED),
    Pattern(36, "upper_four", "Upper Four", "大于五", 12, _within_and_touching(6, 9, 6), PAIRS, _x("no_honors"),
            needs=("no_honors",)),
    Pattern(37, "lower_four", "Lower Four", "小于五", 12, _within_and_touching(1, 4, 4), PAIRS, _x("no_honors"),
            needs=("no_honors",)),
    Pattern(38, "big_three_winds", "Big Three Winds", "三风刻", 12, _pung("big_three_winds")),
    # 8
    Pattern(39, "mixed_straight", "Mixed Straight", "花龙", 8, _chow("mixed_straight")),
    Pattern(40, "reversible_tiles", "Reversible Tiles", "推不倒", 8, _reversible_tiles, PAIRS, _x("one_voided_suit")),
    Pattern(41, "mixed_triple_chow", "Mixed Triple Chow", "三色三同顺", 8, _chow("mixed_triple_chow"), REGULAR,
            _x("mixed_double_chow")),
    Pattern(42, "mixed_shifted_pungs", "Mixed Shifted Pungs", "三色三节高", 8, _pung("mixed_shifted_pungs")),
    Pattern(43, "chicken_hand", "Chicken Hand", "无番和", 8, _never, ALL),
    Pattern(44, "last_tile_draw", "Last Tile Draw", "妙手回春", 8, _last_tile_draw, WIN_FLAGS, _x("self_drawn"),
            needs=("event",)),
    Pattern(45, "last_tile_claim", "Last Tile Claim", "海底捞月", 8, _last_tile_claim, WIN_FLAGS, needs=("event",)),
    Pattern(46, "out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", 8, _out_with_replacement_tile,
            WIN_FLAGS, _x("self_drawn"), needs=("event",)),
    Pattern(47, "robbing_the_kong", "Robbing the Kong", "抢杠和", 8, _robbing_the_kong, WIN_FLAGS, _x("last_tile"),
            needs=("event",)),
    # 6
    Pattern(48, "all_pungs", "All Pungs", "碰碰和", 6, _all_pungs, needs=("pungs4",)),
    Pattern(49, "half_flush", "Half Flush", "混一色", 6, _half_flush, PAIRS, _x("one_voided_suit"),
            needs=("one_suit", "honors")),
    Pattern(50, "mixed_shifted_chows", "Mixed Shifted Chows", "三色三步高", 6, _chow("mixed_shifted_chows")),
    Pattern(51, "all_types", "All Types", "五门齐", 6, _all_types, SETS_AND_PAIRS, needs=("honors", "three_suits")),
    Pattern(52, "melded_hand", "Melded Hand", "全求人", 6, _melded_hand, SETS, _x("single_wait"), needs=("melded",)),
    Pattern(53, "two_concealed_kongs", "Two Concealed Kongs", "双暗杠", 6, _kongs(0, 2), REGULAR,
            _x("two_concealed_pungs", "concealed_kong"), needs=("kongs",)),
    Pattern(54, "two_dragons_pungs", "Two Dragon Pungs", "双箭刻", 6, _pung("two_dragons_pungs"), REGULAR,
            _x("dragon_pung")),
    # 4
    Pattern(55, "outside_hand", "Outside Hand", "全带幺", 4, _outside_hand, needs=("orphan_pair",)),
    Pattern(56, "fully_concealed_hand", "Fully Concealed Hand", "不求人", 4, _fully_concealed_hand, SETS,
            _x("self_drawn", "concealed_hand"), needs=("concealed", "self_draw")),
    Pattern(57, "two_melded_kongs", "Two Melded Kongs", "双明杠", 4, _kongs(2, 0), REGULAR, _x("melded_kong"),
            needs=("kongs",)),
    Pattern(58, "last_tile", "Last Tile", "和绝张", 4, _last_tile, WIN_FLAGS, needs=("event",)),
    # 2
    Pattern(59, "dragon_pung", "Dragon Pung", "箭刻", 2, _dragon_pung, SETS, needs=("honors", "pungs1")),
    Pattern(60, "prevalent_wind", "Prevalent Wind", "圈风刻", 2, _prevalent_wind, SETS, needs=("honors", "pungs1")),
    Pattern(61, "seat_wind", "Seat Wind", "门风刻", 2, _seat_wind, SETS, needs=("honors", "pungs1")),
    Pattern(62, "concealed_hand", "Concealed Hand", "门前清", 2, _concealed_hand, SETS, needs=("concealed",)),
    Pattern(63, "all_chows", "All Chows", "平和", 2, _all_chows, SETS, _x("no_honors"), needs=("no_pungs",)),
    Pattern(64, "tile_hog", "Tile Hog", "四归一", 2, _tile_hog, SETS_AND_PAIRS, needs=("fours",)),
    Pattern(65, "double_pung", "Double Pung", "双同刻", 2, _pung("double_pung")),
    Pattern(66, "two_concealed_pungs", "Two Concealed Pungs", "双暗刻", 2, _two_concealed_pungs, needs=("pungs2",)),
    Pattern(67, "concealed_kong", "Concealed Kong", "暗杠", 2, _kongs(0, 1), SETS, needs=("kongs",)),
    Pattern(68, "all_simples", "All Simples", "断幺", 2, _all_simples, PAIRS, _x("no_honors"), needs=("no_honors",)),
    # 1
    Pattern(69, "pure_double_chow", "Pure Double Chow", "一般高", 1, _chow("pure_double_chow")),
    Pattern(70, "mixed_double_chow", "Mixed Double Chow", "喜相逢", 1, _chow("mixed_double_chow")),
    Pattern(71, "short_straight", "Short Straight", "连六", 1, _chow("short_straight")),
    Pattern(72, "two_terminal_chows", "Two Terminal Chows", "老少副", 1, _chow("two_terminal_chows")),
    Pattern(73, "pung_of_terminals_or_honors", "Pung of Terminals or Honours", "幺九刻", 1,
            _pung_of_terminals_or_honors, SETS, needs=("pungs1",)),
    Pattern(74, "melded_kong", "Melded Kong", "明杠", 1, _kongs(1, 0), SETS, needs=("kongs",)),
    Pattern(75, "one_voided_suit", "One Voided Suit", "缺一门", 1, _one_voided_suit, PAIRS, needs=("two_suits",)),
    Pattern(76, "no_honors", "No Honours", "无字", 1, _no_honors, SETS_AND_PAIRS, needs=("no_honors",)),
    Pattern(77, "edge_wait", "Edge Wait", "边张", 1, _wait("edge"), SETS, needs=("wait",)),
    Pattern(78, "closed_wait", "Closed Wait", "坎张", 1, _wait("closed"), SETS, needs=("wait",)),
    Pattern(79, "single_wait", "Single Wait", "单钓将", 1, _wait("single"), SETS, needs=("wait",)),
    Pattern(80, "self_drawn", "Self-Drawn", "自摸", 1, _self_drawn, WIN_FLAGS, needs=("self_draw",)),
    Pattern(81, "flower_tiles", "Flower Tiles", "花牌", 1, _flowers, ALL),
    # The 明暗杠 supplement of seed 000: one exposed and one concealed kong, and no other kong.
    Pattern(0, "concealed_kong_and_melded_kong", "Concealed Kong and Melded Kong", "明暗杠", 5, _kongs(1, 1),
            REGULAR, _x("melded_kong", "concealed_kong"), needs=("kongs",)),
)

BY_ID: Final[dict[str, Pattern]] = {p.id: p for p in PATTERNS}
VALUES: Final[dict[str, int]] = {p.id: p.value for p in PATTERNS}
_EXCLUSIONS: Final = ExclusionTable.of(PATTERNS)
_SKIPPED: Final = _COMBINATIONS | {_flowers, _never}

# facts that patterns may need (``Pattern.needs``): of the hand (``hand_gates``), then of a reading (``plan``)
GATES: Final[tuple[str, ...]] = (
         "honors", "no_honors", "one_suit", "two_suits", "three_suits", "orphans", "kongs", "fours", "concealed",
         "melded", "self_draw", "event",
         "pungs1", "pungs2", "pungs3", "pungs4", "no_pungs", "wait", "honor_pair", "orphan_pair", "five_pair")
_GATE: Final = {name: 1 << i for i, name in enumerate(GATES)}


def _bits(*facts: bool) -> int:
    """Facts in ``GATES`` order as a bitmask (bit i for ``GATES[i]``)."""
    out = 0
    for i, fact in enumerate(facts):
        if fact:
            out |= 1 << i
    return out


def hand_gates(h: HandFacts) -> int:
    """The hand's facts among ``GATES``, as a bitmask."""
    suits = h.suits
    return _bits(h.honors, not h.honors, suits <= 1, suits == 2, suits == 3, _within(h.kinds, TERMINALS | HONORS),
                 h.melded_kongs + h.concealed_kongs > 0, h.hogs > 0, h.exposed == 0, h.exposed == 4, h.self_draw,
                 h.last_tile or h.kong_replacement or h.robbing_kong or h.last_of_kind)


_PUNGS: Final[tuple[int, ...]] = (_GATE["no_pungs"], _GATE["pungs1"], _GATE["pungs1"] | _GATE["pungs2"],
          _GATE["pungs1"] | _GATE["pungs2"] | _GATE["pungs3"],
          _GATE["pungs1"] | _GATE["pungs2"] | _GATE["pungs3"] | _GATE["pungs4"])
_PAIR: Final = tuple(0 if i >= 34 else _GATE["honor_pair"] | _GATE["orphan_pair"] if i >= 27 else _GATE["orphan_pair"]
              if i % 9 in (0, 8) else _GATE["five_pair"] if i % 9 == 4 else 0 for i in range(35))  # [-1]: none
_WAIT: Final = _GATE["wait"]

Plan = tuple[tuple[str, Callable[[Reading], int]], ...]


def plan(r: Reading, hand: int) -> Plan:
    """(id, detector) of the patterns worth looking for in a reading of a hand with these ``hand_gates``:
    those of the reading's shape whose ``needs`` hold; the combinations of sets come from their tables."""
    gates = hand | _PUNGS[len(r.pungs)] | _PAIR[r.pair] | (_WAIT if r.wait is not None else 0)
    key = (r.shape, gates)
    found = _PLANS.get(key)
    if found is None:
        found = _PLANS[key] = tuple((i, detect) for i, detect, needs in _BY_SHAPE[r.shape] if not needs & ~gates)
    return found


_PLANS: Final[dict[tuple[Shape, int], Plan]] = {}
_BY_SHAPE: Final = {shape: tuple((p.id, p.detect, sum(_GATE[need] for need in p.needs)) for p in PATTERNS
                          if shape in p.shapes and p.detect not in _SKIPPED) for shape in Shape}


def detect_all(r: Reading, patterns: Plan) -> dict[str, int]:
    """Every fan the reading shows among ``patterns`` (its ``plan``), before exclusions.

    The fans of combined sets come straight from their cached tables (what their detectors read).
    """
    found: dict[str, int] = {}
    if r.shape is Shape.REGULAR:
        found.update(chow_fans(r.chows))
        found.update(pung_fans(r.pungs))
    for pattern_id, detect in patterns:
        n = detect(r)
        if n:
            found[pattern_id] = n
    return found


def apply_exclusions(found: dict[str, int]) -> dict[str, int]:
    """不计, in table order (so 四暗刻, which drops 不求人, leaves 自摸 that 不求人 would have dropped)."""
    return _EXCLUSIONS.apply(found)
