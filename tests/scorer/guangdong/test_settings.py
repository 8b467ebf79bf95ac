"""The cap (爆和), the minimum (0/1/3 番起和), the base stake, special values over the cap, and the tie-break."""

from __future__ import annotations

import pytest

from scorer import ContextError
from scorer.guangdong import GuangdongConfig, rank_key, score
from scorer.hand import WinContext, parse_hand

FLUSH_CHOWS = "111222333m456m9m+9m"  # 清一色 5; reads as 平胡 (123m x3) or as three pungs


def test_cap_holds_within_the_table() -> None:
    # 清一色 5 + 平胡 1 + 门前清 1 + 自摸 1 = 8, 爆和 at 5: 5 fans, 1 * 2**5 = 32 from each of three.
    result = score(parse_hand(FLUSH_CHOWS), WinContext(self_draw=True))
    details = dict(result.details)
    assert (result.total, details["uncapped"], details["points"]) == (5, 8, 32)
    assert dict(result.payments) == {"E": 96, "S": -32, "W": -32, "N": -32}


def test_a_higher_cap_lets_the_fans_add() -> None:
    # cap 7: min(8, 7) = 7 fans, 2**7 = 128.
    result = score(parse_hand(FLUSH_CHOWS), WinContext(self_draw=True), GuangdongConfig(cap=7))
    assert (result.total, dict(result.details)["points"]) == (7, 128)


def test_below_the_cap_nothing_is_cut() -> None:
    # 混一色 3 + 自摸 1 = 4 < 5.
    result = score(parse_hand("[123m]456m789m11z55m+5m"), WinContext(self_draw=True))
    assert (result.total, dict(result.details)["uncapped"]) == (4, 4)


@pytest.mark.parametrize(
    ("cap", "over_cap", "expected"),
    [
        (5, True, 9),  # the table: 大三元 9 = 爆和 5 + 4
        (6, True, 10),  # 冲上爆和+4 with 爆和 6
        (6, False, 9),  # the table's number whatever the cap
        (3, True, 7),
    ],
)
def test_specials_break_the_cap(cap: int, over_cap: bool, expected: int) -> None:
    config = GuangdongConfig(cap=cap, specials_over_cap=over_cap)
    result = score(parse_hand("[555z][666z][777z]123m9m+9m"), WinContext(discarder=None), config)
    assert result.total == expected
    assert [(f.id, f.value) for f in result.fans] == [("big_three_dragons", expected)]


@pytest.mark.parametrize(
    ("hand", "minimum", "fans", "meets"),
    [
        ("[123m][444p]789s234s5s+5s", 0, 0, True),  # 无番起和: 鸡糊 wins
        ("[123m][444p]789s234s5s+5s", 1, 0, False),  # 1番起和: 鸡糊 0 < 1
        ("[123m]456p789s234s5s+5s", 1, 1, True),  # 平胡 1 >= 1
        ("[123m]456p789s234s5s+5s", 3, 1, False),  # 3番起和: 平胡 1 < 3
        ("[111m][444p]999s222s5s+5s", 3, 3, True),  # 碰碰胡 3 >= 3
    ],
)
def test_minimum(hand: str, minimum: int, fans: int, meets: bool) -> None:
    result = score(parse_hand(hand), WinContext(),
                   GuangdongConfig(minimum=minimum))
    assert (result.total, result.meets_minimum) == (fans, meets)


def test_below_the_minimum_nobody_pays() -> None:
    from scorer.hand import Wind

    hand = parse_hand("[123m][444p]789s234s5s+5s")
    result = score(hand, WinContext(discarder=Wind.SOUTH), GuangdongConfig(minimum=1))
    assert (result.meets_minimum, result.payments) == (False, ())


def test_base_stake() -> None:
    # 碰碰胡 3 fans at base 10: 10 * 2**3 = 80 from the discarder.
    from scorer.hand import Wind

    result = score(parse_hand("[111m][444p]999s222s5s+5s"), WinContext(discarder=Wind.NORTH), GuangdongConfig(base=10))
    assert dict(result.details)["points"] == 80
    assert dict(result.payments) == {"E": 80, "S": 0, "W": 0, "N": -80}


@pytest.mark.parametrize("bad", [{"cap": 0}, {"minimum": -1}, {"base": 0}])
def test_bad_settings(bad: dict) -> None:
    with pytest.raises(ContextError):
        GuangdongConfig(**bad)


def test_tie_break_prefers_more_fans_before_the_cap() -> None:
    # Both readings reach the cap: 123m x3 is 清一色 5 + 平胡 1 + 门前清 1 + 自摸 1 = 8; 111 222 333m is
    # 清一色 5 + 门前清 1 + 自摸 1 = 7. Capped, both are 5: the reading with 8 before the cap is shown.
    result = score(parse_hand(FLUSH_CHOWS), WinContext(self_draw=True))
    assert result.decomposition == ("123m", "123m", "123m", "456m", "9m9m")
    assert {f.id for f in result.fans} == {"full_flush", "all_chows", "concealed_hand", "self_drawn"}


def test_rank_key_order() -> None:
    r = object()
    capped_high = ({"full_flush": 1, "all_chows": 1}, 5, 6, r)
    capped_low = ({"full_flush": 1}, 5, 5, r)
    more = ({"pure_pungs": 1}, 6, 6, r)
    assert max([capped_low, capped_high, more], key=rank_key) is more
    assert max([capped_low, capped_high], key=rank_key) is capped_high
    # the same fans: the higher values first decide, then the first found stays
    a = ({"half_flush": 1, "dragon_pung": 1}, 4, 4, r)
    b = ({"all_chows": 1, "seat_wind": 1, "dragon_pung": 1, "self_drawn": 1}, 4, 4, r)
    assert max([b, a], key=rank_key) is a
    twin = ({"half_flush": 1, "dragon_pung": 1}, 4, 4, object())
    assert max([a, twin], key=rank_key) is a
