"""Guangdong fans, specials and additions, one table row each, with the exact fan multiset.

Values and points come from seed 004's table (番数 / 分值): a hand of n fans is worth 2**n base points
(鸡糊 0/1, 平胡 1/2, 碰碰胡 3/8, 混一色 3/8, 混碰 5/32, 清一色 5/32, 清碰 6/64, 混幺九 6/64, 小三元 7/128,
小四喜 7/128, 字一色 8/256, 清幺九 8/256, 大三元 9/512, 大四喜 9/512, 十三幺 9/512).
Unless a row says otherwise the winner sits East in an East round and wins on South's discard.
"""

from __future__ import annotations

import pytest

from scorer.request import score_parsed


def gd(hand: str, **request) -> object:
    request.setdefault("discarder", None if request.get("self_draw") or request.get("robbing_kong") else "S")
    return score_parsed({"rules": "guangdong", "hand": hand, **request})


def fans_of(result) -> dict[str, int]:
    return {f.id: f.count for f in result.fans}


# hand, extra request fields, exact fans, total fans, points (2**total)
TABLE = [
    # 爆和以内
    pytest.param("[123m][444p]789s234s5s+5s", {}, {"chicken_hand": 1}, 0, 1, id="chicken_hand 鸡糊 0"),
    pytest.param("[123m]456p789s234s5s+5s", {}, {"all_chows": 1}, 1, 2, id="all_chows 平胡 1"),
    pytest.param("[111m][444p]999s222s5s+5s", {}, {"all_pungs": 1}, 3, 8, id="all_pungs 碰碰胡 3"),
    pytest.param("[123m]456m789m11z55m+5m", {}, {"half_flush": 1}, 3, 8, id="half_flush 混一色 3"),
    pytest.param("[111m][444m]999m22z33z+3z", {}, {"mixed_pungs": 1}, 5, 32, id="mixed_pungs 混碰 5 (not 3+3)"),
    pytest.param("[123m]456m789m111m5m+5m", {}, {"full_flush": 1}, 5, 32, id="full_flush 清一色 5"),
    # 爆和以外: one special alone, no additions
    pytest.param("[111m][444m]999m222m5m+5m", {}, {"pure_pungs": 1}, 6, 64, id="pure_pungs 清碰 6"),
    pytest.param("[111m][999p]111s22z77z+7z", {}, {"mixed_terminals": 1}, 6, 64, id="mixed_terminals 混幺九 6"),
    pytest.param("[555z][666z]123m456m7z+7z", {}, {"little_three_dragons": 1}, 7, 128,
                 id="little_three_dragons 小三元 7"),
    pytest.param("[111z][222z][333z]123m4z+4z", {}, {"little_four_winds": 1}, 7, 128, id="little_four_winds 小四喜 7"),
    pytest.param("[111z][222z][555z]666z7z+7z", {}, {"all_honors": 1}, 8, 256,
                 id="all_honors 字一色 8 (over 小三元 7)"),
    pytest.param("[111m][999m][111p]999s1s+1s", {}, {"all_terminals": 1}, 8, 256, id="all_terminals 清幺九 8"),
    pytest.param("[555z][666z][777z]123m9m+9m", {}, {"big_three_dragons": 1}, 9, 512, id="big_three_dragons 大三元 9"),
    pytest.param("[111z][222z][333z][444z]9m+9m", {}, {"big_four_winds": 1}, 9, 512, id="big_four_winds 大四喜 9"),
    pytest.param("19m19p19s1234567z+1m", {}, {"thirteen_orphans": 1}, 9, 512, id="thirteen_orphans 十三幺 9"),
    pytest.param("123m456p789s234s5s+5s", {"self_draw": True, "guangdong": {"heavenly": True}},
                 {"heavenly_hand": 1}, 9, 512, id="heavenly 天和 as 十三幺 9"),
    pytest.param("123m456p789s234s5s+5s", {"self_draw": True, "seat_wind": "S", "guangdong": {"earthly": True}},
                 {"earthly_hand": 1}, 9, 512, id="earthly 地和 as 十三幺 9"),
    pytest.param("123m456p789s234s5s+5s", {"seat_wind": "S", "discarder": "E", "guangdong": {"human": True}},
                 {"human_hand": 1}, 9, 512, id="human 人和 as 十三幺 9"),
    # 附加情况 (each +1 within the cap)
    pytest.param("[123m][444p]789s234s5s+5s", {"self_draw": True}, {"self_drawn": 1}, 1, 2, id="self_drawn 自摸 +1"),
    pytest.param("[222z][444p]789s234s5s+5s", {"seat_wind": "S", "discarder": "E"}, {"seat_wind": 1}, 1, 2,
                 id="seat_wind 门风 +1"),
    pytest.param("[222z][444p]789s234s5s+5s", {"seat_wind": "W", "round_wind": "S", "discarder": "E"},
                 {"prevalent_wind": 1}, 1, 2, id="prevalent_wind 圈风 +1"),
    pytest.param("[222z][444p]789s234s5s+5s", {"seat_wind": "S", "round_wind": "S", "discarder": "E"},
                 {"seat_wind": 1, "prevalent_wind": 1}, 2, 4, id="seat and prevalent wind +1 +1"),
    pytest.param("[555z][666z]123m456p9s+9s", {}, {"dragon_pung": 2}, 2, 4, id="dragon_pung 三元牌 +1 each"),
    pytest.param("123m444p789s234s5s+5s", {}, {"concealed_hand": 1}, 1, 2, id="concealed_hand 门前清 +1"),
    pytest.param("[123m][444p]789s234s5s+5s", {"self_draw": True, "last_tile": True},
                 {"self_drawn": 1, "last_tile_draw": 1}, 2, 4, id="last_tile_draw 海底捞月 +1 and 自摸 +1"),
    pytest.param("[123m][444p]789s234s5s+5s", {"last_tile": True}, {"chicken_hand": 1}, 0, 1,
                 id="last discard 河底 adds nothing"),
    pytest.param("[1111m][444p]789s234s5s+5s", {"self_draw": True, "kong_replacement": True},
                 {"self_drawn": 1, "kong_bloom": 1}, 2, 4, id="kong_bloom 杠上开花 +1 and 自摸 +1"),
    pytest.param("[123m][444p]789s55s23s+4s", {"robbing_kong": True, "discarder": "W"},
                 {"self_drawn": 1, "robbing_kong": 1}, 1, 2, id="robbing_kong 抢杠 as self-draw, no +1 of its own"),
    # within the cap: they add up
    pytest.param("[123m]456m789m11z55m+5m", {"self_draw": True}, {"half_flush": 1, "self_drawn": 1}, 4, 16,
                 id="混一色 3 + 自摸 1 = 4"),
    pytest.param("123m456m789m555z1m+1m", {"self_draw": True},
                 {"half_flush": 1, "dragon_pung": 1, "concealed_hand": 1, "self_drawn": 1}, 5, 32,
                 id="混一色 3 + 三元牌 1 + 门前清 1 + 自摸 1 = 6, capped 5"),
    # specials take no additions (自摸 爆和以外不加番; 杠开 爆和及以上不加番)
    pytest.param("[1111m][444m]999m222m5m+5m", {"self_draw": True, "kong_replacement": True}, {"pure_pungs": 1}, 6, 64,
                 id="清碰 self-drawn on a kong: still 6"),
    pytest.param("[555z][666z][777z]123m9m+9m", {"self_draw": True}, {"big_three_dragons": 1}, 9, 512,
                 id="大三元 self-drawn: no 自摸 +1, no 三元牌"),
]


@pytest.mark.parametrize(("hand", "request_", "fans", "total", "points"), TABLE)
def test_fan_table(hand: str, request_: dict, fans: dict[str, int], total: int, points: int) -> None:
    result = gd(hand, **request_)
    assert fans_of(result) == fans
    assert result.total == total
    assert dict(result.details)["points"] == points == 2**total


def test_every_pattern_has_a_row() -> None:
    from scorer.guangdong.patterns import PATTERNS

    ids = {fan for param in TABLE for fan in param.values[2]}
    assert {p.id for p in PATTERNS} <= ids


def test_fan_values_are_the_seed_table() -> None:
    from scorer.guangdong.patterns import BY_ID

    table = {"鸡糊": 0, "平胡": 1, "碰碰胡": 3, "混一色": 3, "混碰": 5, "清一色": 5, "清碰": 6, "混幺九": 6,
             "小三元": 7, "小四喜": 7, "字一色": 8, "清幺九": 8, "大三元": 9, "大四喜": 9, "十三幺": 9,
             "天和": 9, "地和": 9, "人和": 9}
    assert {p.name_zh: p.value for p in BY_ID.values() if p.name_zh in table} == table
