"""One hand per MCR fan, from the 1998 rules, asserting the exact fan multiset (不计 applied)."""

from __future__ import annotations

import pytest

from scorer import score
from scorer.mcr.patterns import PATTERNS

E, S = {"seat_wind": "E", "round_wind": "E"}, {"seat_wind": "S", "round_wind": "S"}
SELF = {"self_draw": True}

CASES = [
    # 88
    ("[111z][222z][333z]444z5m+5m", {}, {"big_four_winds": 1, "half_flush": 1, "single_wait": 1}),
    ("[555z][666z]777z123m9p+9p", {}, {"big_three_dragons": 1, "outside_hand": 1, "one_voided_suit": 1,
                                     "single_wait": 1}),
    ("[234s][234s][666s]88s66z+6z", {}, {"all_green": 1, "dragon_pung": 1, "pure_double_chow": 1}),
    ("1112345678999m+5m", {}, {"nine_gates": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1}),
    ("[1111m][2222p](3333s)[4444z]5z+5z", {}, {"four_kongs": 1, "mixed_shifted_pungs": 1, "all_types": 1,
                                             "pung_of_terminals_or_honors": 2}),
    ("1122334455667m+7m", {}, {"seven_shifted_pairs": 1}),
    ("19m19p19s1234567z+1m", {}, {"thirteen_orphans": 1}),
    # 64
    ("[111m][999m][111p]999s1s+1s", {}, {"all_terminals": 1, "single_wait": 1}),
    ("[111z][222z][333z]123m4z+4z", E,
     {"little_four_winds": 1, "half_flush": 1, "outside_hand": 1, "prevalent_wind": 1, "seat_wind": 1,
      "single_wait": 1}),
    ("[555z][666z]7z123m456p+7z", {}, {"little_three_dragons": 1, "one_voided_suit": 1, "single_wait": 1}),
    ("[111z][222z][333z]555z7z+7z", E, {"all_honors": 1, "big_three_winds": 1, "dragon_pung": 1,
                                        "prevalent_wind": 1, "seat_wind": 1, "single_wait": 1}),
    ("111m222p333s444z5z+5z", E,
     {"four_concealed_pungs": 1, "mixed_shifted_pungs": 1, "all_types": 1, "pung_of_terminals_or_honors": 2,
      "single_wait": 1}),
    ("123m123m789m789m5m+5m", {}, {"pure_terminal_chows": 1, "concealed_hand": 1, "single_wait": 1}),
    # 48
    ("[123m][123m][123m]123m5p+5p", {}, {"quadruple_chow": 1, "all_chows": 1, "one_voided_suit": 1,
                                          "single_wait": 1}),
    ("[111m][222m][333m]444m5p+5p", {}, {"four_pure_shifted_pungs": 1, "pung_of_terminals_or_honors": 1,
                                          "one_voided_suit": 1, "no_honors": 1, "single_wait": 1}),
    # 32
    ("[123m][234m][345m]456m9p+9p", {}, {"four_pure_shifted_chows": 1, "all_chows": 1, "one_voided_suit": 1,
                                          "single_wait": 1}),
    ("[1111m][2222p][3333s]444z5z+5z", E, {"three_kongs": 1, "mixed_shifted_pungs": 1, "all_pungs": 1, "all_types": 1,
                                            "pung_of_terminals_or_honors": 2, "single_wait": 1}),
    ("[111m][999p][111z]999s5z+5z", E, {"all_terminals_and_honors": 1, "all_types": 1, "prevalent_wind": 1,
                                         "seat_wind": 1, "double_pung": 1, "single_wait": 1}),
    # 24
    ("1199m2255p3377s1z+1z", {}, {"seven_pairs": 1}),
    ("147m25p3s1234567z+6s", {}, {"greater_honors_and_knitted_tiles": 1}),
    ("[222m][444p][666s]888m6p+6p", {}, {"all_even_pungs": 1, "single_wait": 1}),
    ("[123m][456m][789m]111m9m+9m", {}, {"full_flush": 1, "pure_straight": 1, "tile_hog": 1,
                                          "pung_of_terminals_or_honors": 1, "single_wait": 1}),
    ("[123m][123m][123m]789s5p+5p", {}, {"pure_triple_chow": 1, "all_chows": 1, "single_wait": 1}),
    ("[111m][222m][333m]789s5p+5p", {}, {"pure_shifted_pungs": 1, "pung_of_terminals_or_honors": 1,
                                          "no_honors": 1, "single_wait": 1}),
    ("[789m][789p][789s]789m8p+8p", {}, {"upper_tiles": 1, "mixed_triple_chow": 1, "all_chows": 1,
                                          "pure_double_chow": 1, "single_wait": 1}),
    ("[456m][456p][456s]456m4p+4p", {}, {"middle_tiles": 1, "mixed_triple_chow": 1, "all_chows": 1,
                                          "pure_double_chow": 1, "single_wait": 1}),
    ("[123m][123p][123s]123m2p+2p", {}, {"lower_tiles": 1, "mixed_triple_chow": 1, "all_chows": 1,
                                          "pure_double_chow": 1, "single_wait": 1}),
    # 16
    ("[123m][456m][789m]234p5s+5s", {}, {"pure_straight": 1, "all_chows": 1, "single_wait": 1}),
    ("[123m][789m][123p]789p5s+5s", {}, {"three_suited_terminal_chows": 1, "single_wait": 1}),
    ("[123m][234m][345m]789p5s+5s", {}, {"pure_shifted_chows": 1, "all_chows": 1, "single_wait": 1}),
    ("[345m][456p][555s]567m5p+5p", {}, {"all_five": 1, "single_wait": 1}),
    ("[222m][222p][222s]789m5p+5p", {}, {"triple_pung": 1, "no_honors": 1, "single_wait": 1}),
    ("[789m]111p222s333s4m+4m", {}, {"three_concealed_pungs": 1, "pung_of_terminals_or_honors": 1,
                                      "no_honors": 1, "single_wait": 1}),
    # 12
    ("147m258p36s12345z+6z", {}, {"lesser_honors_and_knitted_tiles": 1}),
    ("147m258p369s1234z+5z", {}, {"lesser_honors_and_knitted_tiles": 1, "knitted_straight": 1}),
    ("147m258p369s123m5z+5z", {}, {"knitted_straight": 1, "concealed_hand": 1, "single_wait": 1}),
    ("[678m][789p][666s]999s6m+6m", {}, {"upper_four": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1}),
    ("[123m][234p][111s]444s1m+1m", {}, {"lower_four": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1}),
    ("[111z][222z][333z]123m5m+5m", E, {"big_three_winds": 1, "half_flush": 1, "prevalent_wind": 1,
                                        "seat_wind": 1, "single_wait": 1}),
    # 8
    ("[555z]123p789s456m5s+5s", {}, {"mixed_straight": 1, "dragon_pung": 1, "single_wait": 1}),
    ("[123p][345p][888p]22s55z+5z", {}, {"reversible_tiles": 1, "dragon_pung": 1}),
    ("[123m][123p][123s]567m9p+9p", {}, {"mixed_triple_chow": 1, "all_chows": 1, "single_wait": 1}),
    ("[111m][222p][333s]789m5z+5z", {}, {"mixed_shifted_pungs": 1, "pung_of_terminals_or_honors": 1,
                                          "single_wait": 1}),
    ("[123m][345p][789s]66s11z+6s", S, {"chicken_hand": 1}),
    ("[123m][345p][789s]66s11z+6s", {**S, **SELF, "last_tile": True}, {"last_tile_draw": 1}),
    ("[123m][345p][789s]66s11z+6s", {**S, "last_tile": True}, {"last_tile_claim": 1}),
    ("[123m][345p][6666s]789s1z+1z", {**S, **SELF, "kong_replacement": True},
     {"out_with_replacement_tile": 1, "melded_kong": 1, "single_wait": 1}),
    ("[123m][345p][789s]88s56p+7p", {"robbing_kong": True}, {"robbing_the_kong": 1, "all_chows": 1}),
    # 6
    ("[222m][444p][777s]999m5z+5z", {}, {"all_pungs": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1}),
    ("[123m][345m][777m]11z99m+9m", S, {"half_flush": 1, "pung_of_terminals_or_honors": 1}),
    ("[123m][234p][345s]789m5z+5z", {}, {"mixed_shifted_chows": 1, "two_terminal_chows": 1, "single_wait": 1}),
    ("[123m][567p][789s]111z5z+5z", S, {"all_types": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1}),
    ("[123m][456p][789s][111z]5z+5z", S, {"mixed_straight": 1, "all_types": 1, "melded_hand": 1,
                                           "pung_of_terminals_or_honors": 1}),
    # 345678s9s waits on 3s, 6s and 9s: no wait fan
    ("(1111m)(2222p)345s678s9s+9s", {}, {"two_concealed_kongs": 1, "concealed_hand": 1, "short_straight": 1,
                                          "pung_of_terminals_or_honors": 1, "no_honors": 1}),
    ("[555z][666z]123m456m9m+9m", {}, {"two_dragons_pungs": 1, "half_flush": 1, "short_straight": 1,
                                        "single_wait": 1}),
    # 4
    ("[123m][789p][111s]999m5z+5z", {}, {"outside_hand": 1, "pung_of_terminals_or_honors": 2, "single_wait": 1}),
    ("123m345p789s66s11z+6s", {**S, **SELF}, {"fully_concealed_hand": 1}),
    ("[2222m][3333p]456s678s9s+9s", {}, {"two_melded_kongs": 1, "no_honors": 1}),
    ("[123m][345p][789s]88s56p+7p", {"last_of_kind": True}, {"last_tile": 1, "all_chows": 1}),
    # 2
    ("[555z][123m][345p]66s11m+6s", {}, {"dragon_pung": 1}),
    ("[222z][123m][345p]66s11m+6s", {"seat_wind": "E", "round_wind": "S"}, {"prevalent_wind": 1}),
    ("[222z][123m][345p]66s11m+6s", {"seat_wind": "S", "round_wind": "E"}, {"seat_wind": 1}),
    ("123m345p789s66s11z+6s", S, {"concealed_hand": 1}),
    ("[123m][345p][789s]88s56p+7p", {}, {"all_chows": 1}),
    ("[123m][345p][789s]333p5z+5z", {}, {"tile_hog": 1, "single_wait": 1}),
    ("[222m][222p][345s]789s5z+5z", {}, {"double_pung": 1, "single_wait": 1}),
    ("[123m][345p]222s666s5z+5z", {}, {"two_concealed_pungs": 1, "single_wait": 1}),
    ("(2222m)[345p][678s]789m5z+5z", {}, {"concealed_kong": 1, "single_wait": 1}),
    ("[234m][345p][678s]666m5p+5p", {}, {"all_simples": 1, "single_wait": 1}),
    # 1
    ("[123m][123m][567p]789s5z+5z", {}, {"pure_double_chow": 1, "single_wait": 1}),
    ("[123m][123p][567s]789s5z+5z", {}, {"mixed_double_chow": 1, "single_wait": 1}),
    ("[123m][456m][789p]111s5z+5z", {}, {"short_straight": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1}),
    ("[123m][789m][456p]222s5z+5z", {}, {"two_terminal_chows": 1, "single_wait": 1}),
    ("[2222m][345p][678s]789m5z+5z", {}, {"melded_kong": 1, "single_wait": 1}),
    ("[123m][567m][789p]444m5z+5z", {}, {"one_voided_suit": 1, "single_wait": 1}),
    ("[123m][567p][789s]444m5s+5s", {}, {"no_honors": 1, "single_wait": 1}),
    ("[345m][789p][666s]12s5z5z+3s", {}, {"edge_wait": 1}),
    ("[123m][567p][222s]46s5z5z+5s", {}, {"closed_wait": 1}),
    ("[123m][345p][789s]66s11z+6s", {**S, **SELF}, {"self_drawn": 1}),
    ("[123m][345p][789s]66s11z+6s 1f2f", S, {"chicken_hand": 1, "flower_tiles": 2}),
    # the 明暗杠 supplement (seed 000)
    ("[2222m](3333p)567s789s5z+5z", {}, {"concealed_kong_and_melded_kong": 1, "single_wait": 1}),
]


def fans_of(hand: str, ctx: dict) -> dict[str, int]:
    return {f.id: f.count for f in score(hand, "mcr", **ctx).fans}


@pytest.mark.parametrize(("hand", "ctx", "expected"), CASES, ids=[c[0] for c in CASES])
def test_fan_multiset(hand: str, ctx: dict, expected: dict[str, int]) -> None:
    assert fans_of(hand, ctx) == expected


def test_every_fan_has_a_case() -> None:
    covered = {fan for _, _, expected in CASES for fan in expected}
    assert covered == {p.id for p in PATTERNS}


def test_table_is_the_1998_table() -> None:
    numbered = sorted(p.number for p in PATTERNS if p.number)
    assert numbered == list(range(1, 82))
    values = {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 4: 4, 2: 10, 1: 13}
    for value, count in values.items():
        assert sum(1 for p in PATTERNS if p.number and p.value == value) == count, value
    assert len({p.name_zh for p in PATTERNS}) == len(PATTERNS)
