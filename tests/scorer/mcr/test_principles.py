"""The 1998 rules' scoring principles, the 不计 mechanism, the tie-break, minimum and settlement."""

from __future__ import annotations

import pytest

from scorer import ContextError, WinContext, Wind, parse_hand, score
from scorer.decompose import Shape
from scorer.mcr import MCRConfig, rank_key, settle
from scorer.mcr.patterns import BY_ID, PATTERNS, apply_exclusions
from scorer.mcr.reading import HandFacts, Reading

SELF = {"self_draw": True}


def fans(hand: str, **ctx: object) -> dict[str, int]:
    return {f.id: f.count for f in score(hand, "mcr", **ctx).fans}


# --- 不重复: a fan that another implies is not counted again ---------------------------------------


def test_no_repeat_full_flush_drops_implied_fans() -> None:
    found = fans("[123m][456m][789m]111m9m+9m")
    assert "full_flush" in found and "one_voided_suit" not in found and "no_honors" not in found


def test_no_repeat_big_four_winds_drops_every_wind_fan() -> None:
    found = fans("[111z][222z][333z]444z5m+5m", seat_wind="E", round_wind="E")
    for implied in ("big_three_winds", "all_pungs", "prevalent_wind", "seat_wind", "pung_of_terminals_or_honors"):
        assert implied not in found


# --- 不拆移: sets that made a fan are not split to make another from themselves ------------------------


def test_no_split_triple_chow_is_not_also_pure_double_chow() -> None:
    assert fans("[123m][123m][123m]789s5p+5p") == {"pure_triple_chow": 1, "all_chows": 1, "single_wait": 1}


def test_no_split_pure_straight_is_not_also_short_straight() -> None:
    found = fans("[123m][456m][789m]234p5s+5s")
    assert "short_straight" not in found and "two_terminal_chows" not in found


# --- 不得相同: sets combined once do not make the same fan again with another ------------------------


def test_no_same_twice_from_the_rules_commentary() -> None:
    # 234s223344567p: 一般高、喜相逢、连六, not 喜相逢 x2
    found = fans("234s223344567p6p+6p")
    assert found["pure_double_chow"] == 1 and found["mixed_double_chow"] == 1 and found["short_straight"] == 1


# --- 套算一次: a set not yet combined combines once with a combined one -------------------------------


def test_count_once_two_suits_of_short_straights() -> None:
    # 234567s234567p: 喜相逢 x2 + 连六 x1 (or x1 + x2), never both x2
    found = fans("234567s234567p5m+5m")
    pairs = found.get("mixed_double_chow", 0) + found.get("short_straight", 0)
    assert pairs == 3


# --- 就高不就低: of two readings, the higher one -----------------------------------------------------


def test_take_the_higher_reading() -> None:
    # 111222333m also reads as three chows; 一色三节高 (24) + 三暗刻 beats 一色三同顺 (24) + less
    found = fans("111222333m789p5s+5s", self_draw=True)
    assert "pure_shifted_pungs" in found and "three_concealed_pungs" in found


# --- the tie-break, one key, tested ----------------------------------------------------------------


def test_tie_prefers_triple_pung() -> None:
    # 444m 567m 77m 777s 777p = 三暗刻 16 + 双同刻 + ... ; 44m 456m 777m 777s 777p = 三同刻 16 + 双暗刻 ...
    assert fans("444m567m777s777p7m+7m") == {"triple_pung": 1, "concealed_hand": 1,
                                              "two_concealed_pungs": 1, "all_simples": 1}


def test_tie_prefers_pure_triple_chow() -> None:
    assert "pure_triple_chow" in fans("[678p]55s222333p44p+4p")


def test_tie_prefers_sets_over_seven_pairs() -> None:
    found = fans("44556m445566s55p+6m", self_draw=True)
    assert "seven_pairs" not in found and found["middle_tiles"] == 1 and found["all_five"] == 1


def test_rank_key_orders_by_total_then_shape_then_the_reference_order() -> None:
    def reading(shape: Shape, order: int, seven_pairs: bool = False) -> Reading:
        h = HandFacts(parse_hand("123m456p789s123s5z+5z"), WinContext())  # the key reads only what is set here
        h.seven_pairs = seven_pairs
        return Reading(h, shape, order=order)

    def key(found: dict[str, int], r: Reading) -> tuple[int, int, bool, int]:
        return rank_key((found, r))

    regular, pairs = Shape.REGULAR, Shape.SEVEN_PAIRS
    # the most fans first, wherever the reading stands
    assert key({"full_flush": 1}, reading(regular, 1)) > key({"pure_straight": 1}, reading(regular, 0))
    # equal totals: the first regular reading in the reference's order ...
    assert key({"mixed_straight": 2}, reading(regular, 0)) > key({"pure_straight": 1}, reading(regular, 1))
    # ... unless a later one holds 三同刻 or 一色三同顺: then the last such one
    assert key({"triple_pung": 1}, reading(regular, 1)) > key({"three_concealed_pungs": 1}, reading(regular, 0))
    assert key({"pure_triple_chow": 1}, reading(regular, 2)) > key({"pure_triple_chow": 1}, reading(regular, 1))
    # sets over seven pairs of equal total, and where the hand reads as seven pairs the last regular reading
    assert key({"seven_pairs": 1}, reading(regular, 0, True)) > key({"seven_pairs": 1}, reading(pairs, -1, True))
    assert key({"pure_straight": 1}, reading(regular, 1, True)) > key({"pure_straight": 1}, reading(regular, 0, True))
    # the other shapes (thirteen orphans, the knitted hands) before regular readings of equal total
    assert key({"knitted_straight": 2}, reading(Shape.KNITTED_STRAIGHT, -1)) > key(
        {"triple_pung": 1, "short_straight": 8}, reading(regular, 3))


# Ties where the two readings' fans differ, as PyMahjongGB answers them (checked beside it): the first
# reading in its order stands (一般高 + 幺九刻 from 111p 234p 44p, not 双同刻 from 123p 444p 11p) ...
TIES = [
    ("[234p][4444s]1123444p+1p", SELF, {"lower_four": 1, "reversible_tiles": 1, "tile_hog": 1, "pure_double_chow": 1,
                                        "pung_of_terminals_or_honors": 1, "melded_kong": 1, "self_drawn": 1},
     ("[234p]", "[4444s]", "234p", "111p", "4p4p")),
    ("[234p][4444s]1123444p+1p", {}, {"lower_four": 1, "reversible_tiles": 1, "tile_hog": 1, "pure_double_chow": 1,
                                      "pung_of_terminals_or_honors": 1, "melded_kong": 1},
     ("[234p]", "[4444s]", "234p", "111p", "4p4p")),
    ("[234p][444s]1123444p+1p", SELF, {"lower_four": 1, "reversible_tiles": 1, "tile_hog": 1, "pure_double_chow": 1,
                                       "pung_of_terminals_or_honors": 1, "self_drawn": 1},
     ("[234p]", "[444s]", "234p", "111p", "4p4p")),
    ("[234p][444s]1123444p+1p", {}, {"lower_four": 1, "reversible_tiles": 1, "tile_hog": 1, "pure_double_chow": 1,
                                     "pung_of_terminals_or_honors": 1},
     ("[234p]", "[444s]", "234p", "111p", "4p4p")),
    # ... unless a later one holds 一色三同顺 (坎张 from 11s 234s 234s, not 边张 from 123s 123s 44s)
    ("[234s][123s]1122344s+3s", SELF, {"full_flush": 1, "pure_triple_chow": 1, "lower_four": 1, "all_chows": 1,
                                       "tile_hog": 2, "closed_wait": 1, "self_drawn": 1},
     ("[234s]", "[123s]", "234s", "234s", "1s1s")),
    ("[234s][123s]1122344s+3s", {}, {"full_flush": 1, "pure_triple_chow": 1, "lower_four": 1, "all_chows": 1,
                                     "tile_hog": 2, "closed_wait": 1},
     ("[234s]", "[123s]", "234s", "234s", "1s1s")),
]


@pytest.mark.parametrize(("hand", "ctx", "expected", "reading"), TIES, ids=[f"{t[0]}-{bool(t[1])}" for t in TIES])
def test_ties_as_the_reference_breaks_them(hand: str, ctx: dict[str, bool], expected: dict[str, int],
                                           reading: tuple[str, ...]) -> None:
    result = score(hand, "mcr", **ctx)
    assert {f.id: f.count for f in result.fans} == expected
    assert result.decomposition == reading


# --- 不计 applied in one place ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fan", "other"), [(p.id, other) for p in PATTERNS for other in sorted(p.excludes)], ids=str
)
def test_each_exclusion_row(fan: str, other: str) -> None:
    mutual = fan in BY_ID[other].excludes
    if mutual and PATTERNS.index(BY_ID[other]) < PATTERNS.index(BY_ID[fan]):
        # 一色三同顺 and 一色三节高 exclude each other; the one earlier in the table stands
        assert apply_exclusions({fan: 1, other: 2}) == {other: 2}
    else:
        assert apply_exclusions({fan: 1, other: 2}) == {fan: 1}


def test_an_excluded_fan_excludes_nothing() -> None:
    # 四暗刻 drops 不求人; 不求人 would drop 自摸, but being dropped it drops nothing
    assert apply_exclusions({"four_concealed_pungs": 1, "fully_concealed_hand": 1, "self_drawn": 1}) == {
        "four_concealed_pungs": 1, "self_drawn": 1}
    assert fans("111m222p333s444z5z+5z", self_draw=True)["self_drawn"] == 1


def test_absorbs_takes_one_occurrence() -> None:
    assert apply_exclusions({"nine_gates": 1, "pung_of_terminals_or_honors": 2}) == {
        "nine_gates": 1, "pung_of_terminals_or_honors": 1}


def test_exclusions_only_name_known_fans() -> None:
    for pattern in PATTERNS:
        assert pattern.excludes | pattern.absorbs <= set(BY_ID), pattern.id


def test_melded_and_concealed_kong_setting() -> None:
    hand = "[2222m](3333p)567s789s5z+5z"
    assert fans(hand)["concealed_kong_and_melded_kong"] == 1
    off = {f.id for f in score(hand, "mcr", options={"melded_and_concealed_kong": False}).fans}
    assert {"melded_kong", "concealed_kong"} <= off and "concealed_kong_and_melded_kong" not in off


# --- minimum, flowers, settlement ------------------------------------------------------------------


def test_flowers_do_not_count_toward_the_minimum() -> None:
    result = score("[123m][345p][789s]66s11z+6s 1f2f3f", "mcr", seat_wind="S", round_wind="S")
    assert result.total == 11
    assert result.meets_minimum is True  # 无番和 is 8 without the flowers
    low = score("123m345p789s66s11z+6s 1f2f3f4f5f6f", "mcr", seat_wind="S", round_wind="S")
    assert low.total == 2 + 6 and low.meets_minimum is False and low.payments == ()


def test_minimum_is_a_setting() -> None:
    result = score("123m345p789s66s11z+6s", "mcr", seat_wind="S", round_wind="S", options={"minimum": 2})
    assert result.meets_minimum is True


def test_self_draw_each_pays_base_plus_total() -> None:
    ctx = WinContext(self_draw=True, seat_wind=Wind.SOUTH)
    assert dict(settle(24, ctx)) == {"E": -32, "S": 96, "W": -32, "N": -32}


def test_discard_the_discarder_pays_base_plus_total_others_base() -> None:
    ctx = WinContext(seat_wind=Wind.EAST, discarder=Wind.SOUTH)
    assert dict(settle(14, ctx)) == {"E": 38, "S": -22, "W": -8, "N": -8}
    result = score("[555z]123p789s456m5s+5s", "mcr", discarder="W")
    assert dict(result.payments) == {"E": 8 + 11 + 16, "S": -8, "W": -19, "N": -8}


def test_no_discarder_no_payments() -> None:
    assert score("[555z]123p789s456m5s+5s", "mcr").payments == ()


def test_base_points_setting() -> None:
    ctx = WinContext(self_draw=True)
    assert dict(settle(8, ctx, MCRConfig(base_points=10)))["S"] == -18


def test_result_names_the_reading() -> None:
    result = score("[555z]123p789s456m5s+5s", "mcr")
    assert result.decomposition == ("[555z]", "456m", "123p", "789s", "5s5s")
    assert parse_hand("[555z]123p789s456m5s+5s").melds[0].kind == "pung"


# --- where the rulebooks are read differently: our choices, each tested -------------------------------


def test_choice_tile_hog_counts_inside_seven_pairs() -> None:
    # 四归一: "4 equal tiles in the sets, pairs and eyes" (1998 rules); two equal pairs are such tiles
    found = fans("11112255m3377p9s+9s")
    assert found["seven_pairs"] == 1 and found["tile_hog"] == 1


def test_choice_knitted_straight_wait_when_a_copy_stands_beside_it() -> None:
    # 7s is in the knitted 147s and also completes the pair: 单钓将 counts (as PyMahjongGB)
    assert fans("[345m]258m147s369p7s+7s")["single_wait"] == 1
    # the winning 3m completes 123m beside the knitted 369m: 边张
    assert fans("123m33m69m147s258p+3m")["edge_wait"] == 1
    # a winning tile found only in the knitted nine is no wait
    assert not {"edge_wait", "closed_wait", "single_wait"} & set(fans("58m147s369p456m55z+2m"))


def test_choice_last_of_kind_refused_for_a_tile_also_held() -> None:
    with pytest.raises(ContextError, match="not the last one"):
        score("[234s][234s][234s][234s]6s+6s", "mcr", last_of_kind=True)


def test_choice_last_of_kind_given_when_the_other_three_are_in_own_melds() -> None:
    assert fans("[111m][345p][789s]88s2m3m+1m")["last_tile"] == 1


def test_choice_robbing_the_kong_is_not_also_last_tile() -> None:
    assert "last_tile" not in fans("[123m][345p][789s]88s56p+7p", robbing_kong=True, last_of_kind=True)


def test_exact_tie_keeps_the_first_reading_in_enumeration_order() -> None:
    # 123p 123p 44p (边张) and 11p 234p 234p (坎张) score alike and hold neither 一色三同顺 nor 三同刻;
    # the first one in the reference calculator's order stands
    result = score("[444s]1122344p789s+3p", "mcr")
    assert result.decomposition == ("[444s]", "123p", "123p", "789s", "4p4p")
    assert {f.id for f in result.fans} == {"pure_double_chow", "one_voided_suit", "no_honors", "edge_wait"}
