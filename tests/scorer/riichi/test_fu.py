"""Each fu rule of seed 002 (符数计算 A-F), item by item and as the hand's final fu."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.hand import WinContext, Wind, parse_hand
from scorer.request import score_parsed
from scorer.riichi import DEFAULT, RiichiConfig, RiichiContext
from scorer.riichi.fu import breakdown, fu
from scorer.riichi.reading import Facts, readings

RIICHI = RiichiContext(riichi=True)


def only_reading(hand: str, *, self_draw: bool = False, seat: str = "S", round_wind: str = "E",
                 config: RiichiConfig = DEFAULT) -> tuple[int, int, list[tuple[str, int]]]:
    """(fu, unrounded fu, items) of a hand with a single reading."""
    h = parse_hand(hand)
    ctx = WinContext(self_draw=self_draw, seat_wind=Wind(seat), round_wind=Wind(round_wind))
    rs = readings(Facts(h, ctx, RIICHI if h.is_concealed else RiichiContext(), config))
    assert len(rs) == 1, [r.wait for r in rs]
    rounded, raw, _ = fu(rs[0])
    return rounded, raw, breakdown(rs[0])


def final_fu(hand: str, **request: Any) -> int:
    riichi = request.pop("riichi", {"riichi": True})
    req = {"rules": "riichi", "hand": hand, "seat_wind": "S", "round_wind": "E", "riichi": riichi, **request}
    return dict(score_parsed(req).details)["fu"]


def items(found: list[tuple[str, int]]) -> dict[str, int]:
    return {name: value for name, value in found}


# (id, hand, self_draw, seat, round, unrounded fu, rounded fu)
RULES = [
    # A. base 20; closed ron 30
    ("closed_ron_base_30", "234m456p34567s99s+8s", False, "S", "E", 30, 30),
    ("tsumo_base_20", "123m456p789s79m55p+8m", True, "S", "E", 24, 30),
    # C. waits
    ("tanki_2", "123m456p789s234m3z+3z", False, "S", "E", 32, 40),
    ("kanchan_2", "123m456p789s79m55p+8m", False, "S", "E", 32, 40),
    ("penchan_2", "123m456p789s89m55p+7m", False, "S", "E", 32, 40),
    ("ryanmen_0", "123m456p789s78m55p+9m", False, "S", "E", 30, 30),
    # D. pairs: dragon, seat wind, round wind 2 each, double wind 4, guest wind and numbers 0
    ("dragon_pair_2", "123m456p789s78m55z+9m", False, "S", "E", 32, 40),
    ("seat_wind_pair_2", "123m456p789s78m22z+9m", False, "S", "E", 32, 40),
    ("round_wind_pair_2", "123m456p789s78m11z+9m", False, "S", "E", 32, 40),
    ("double_wind_pair_4", "123m456p789s78m11z+9m", False, "E", "E", 34, 40),
    ("guest_wind_pair_0", "123m456p789s78m33z+9m", False, "S", "E", 30, 30),
    # E. pungs and kongs: 2 / 4 / 8 / 16 simples, doubled for terminals and honours
    ("open_simple_pung_2", "[222p]123m789s78m55p+9m", False, "S", "E", 22, 30),
    ("closed_simple_pung_4", "222p123m789s78m55p+9m", False, "S", "E", 34, 40),
    ("open_terminal_pung_4", "[111p]123m789s78m55p+9m", False, "S", "E", 24, 30),
    ("closed_terminal_pung_8", "111p123m789s78m55p+9m", False, "S", "E", 38, 40),
    ("open_simple_kong_8", "[2222p]123m789s78m55p+9m", False, "S", "E", 28, 30),
    ("closed_simple_kong_16", "(2222p)123m789s78m55p+9m", False, "S", "E", 46, 50),
    ("open_terminal_kong_16", "[1111p]123m789s78m55p+9m", False, "S", "E", 36, 40),
    ("closed_terminal_kong_32", "(1111p)123m789s78m55p+9m", False, "S", "E", 62, 70),
    ("honour_pung_is_terminal", "444z123m789s78m55p+9m", False, "S", "E", 38, 40),
    ("pung_completed_by_discard_is_claimed", "123m456p789s55m99p+9p", False, "S", "E", 30 + 4, 40),
    ("pung_completed_by_self_draw_is_concealed", "123m456p789s55m99p+9p", True, "S", "E", 20 + 8 + 2, 30),
    # F. special cases
    ("pinfu_tsumo_20", "234m456p34567s99s+8s", True, "S", "E", 20, 20),
    ("open_pinfu_shape_ron_30", "[234m]456p34567s22s+8s", False, "S", "E", 22, 30),
    ("open_tsumo_keeps_tsumo_fu", "[234m]456p34567s22s+8s", True, "S", "E", 22, 30),
    ("seven_pairs_25", "1133m2277p4466s5z+5z", False, "S", "E", 25, 25),
    ("seven_pairs_25_on_tsumo", "1133m2277p4466s5z+5z", True, "S", "E", 25, 25),
]


@pytest.mark.parametrize(("hand", "self_draw", "seat", "round_wind", "raw", "rounded"),
                         [pytest.param(*r[1:], id=r[0]) for r in RULES])
def test_fu_rule(hand: str, self_draw: bool, seat: str, round_wind: str, raw: int, rounded: int) -> None:
    got_rounded, got_raw, found = only_reading(hand, self_draw=self_draw, seat=seat, round_wind=round_wind)
    assert (got_raw, got_rounded) == (raw, rounded)
    assert sum(v for _, v in found) == raw


def test_breakdown_names_each_item() -> None:
    _, _, found = only_reading("(1111p)123m789s79m55z+8m", self_draw=True)
    assert items(found) == {"base (底符)": 20, "kanchan wait": 2, "valued pair (役牌作将)": 2,
                            "concealed kong of 9": 32, "self-draw (自摸)": 2}


def test_open_pinfu_shape_option() -> None:
    """非门前清平和形食和: 30 fu, or 20 where the table does not add the 10 (``fu_for_open_pinfu``)."""
    off = RiichiConfig(fu_for_open_pinfu=False)
    assert only_reading("[234m]456p34567s22s+8s", config=off)[:2] == (20, 20)


def test_pinfu_tsumo_option() -> None:
    """少数规则: pinfu self-draw keeps its 2 fu (30) and gives up the pinfu han (``fu_for_pinfu_tsumo``)."""
    req = {"rules": "riichi", "hand": "234m456p34567s99s+8s", "self_draw": True, "seat_wind": "S",
           "options": {"fu_for_pinfu_tsumo": True}}
    result = score_parsed(req)
    assert dict(result.details)["fu"] == 30
    assert [f.id for f in result.fans] == ["menzen_tsumo"]


def test_the_reading_worth_most_wins() -> None:
    """4566 + 6: read as 456 and a pair of 6 (two-sided: pinfu, 30 fu) rather than a single wait on 6
    (40 fu, no pinfu); 2 han 30 fu pay more than 1 han 40 fu."""
    result = score_parsed({"rules": "riichi", "hand": "123m456p789s4566s+6s", "seat_wind": "S",
                           "riichi": {"riichi": True}})
    assert [f.id for f in result.fans] == ["riichi", "pinfu"]
    assert dict(result.details)["fu"] == 30


def test_wait_read_for_most_fu() -> None:
    """3345 + 3 is a pair of 3 with 345 (two-sided, 0 fu) or 3 alone beside 345 (single wait, 2 fu). Without
    pinfu at stake (two concealed pungs), the single wait is read: 32 fu round to 40, where 30 stay 30."""
    assert final_fu("222p888s123m3345s+3s", self_draw=True, riichi={}) == 40
