"""Fuzhou's special wins, each with the seed's formula written out (seed 003):

    三金倒 = (花+金+连庄数+5)×2+40        抢金 = (花+金+连庄数+5)×2+30      天和 = 抢金
    金雀 点炮 = 花+金+连庄数+5+60          金雀 自摸 = (花+金+连庄数+5)×2+60
    金龙 点炮 = 花+金+连庄数+5+120         金龙 自摸 = (花+金+连庄数+5)×2+120
    金坎 = (花+金+连庄数+5)×2+60 (or +120, the setting ``golden_kan``)
    混一色 点炮 = 花+金+连庄数+5+120       混一色 自摸 = (花+金+连庄数+5)×2+120
    清一色 点炮 = 花+金+连庄数+5+240       清一色 自摸 = (花+金+连庄数+5)×2+240
    平和 (无花、无杠) = (金+连庄数+5)×2+30    平和 (只有1张花) = (花+金+连庄数+5)×2+15
"""

from __future__ import annotations

import pytest

from scorer import ContextError, NotWinningError
from scorer.request import score_parsed


def fz(hand: str, gold: str | None = None, options: dict | None = None, facts: dict | None = None, **request):
    return score_parsed({"rules": "fuzhou", "hand": hand,
                         "fuzhou": {"gold": gold, "dealer_streak": 0, **(facts or {})},
                         "options": options or {}, **request})


def specials(result) -> list[str]:
    base = {"base", "flowers", "kongs", "golds", "dealer_streak", "self_drawn"}
    return [f.id for f in result.fans if f.id not in base]


SCATTERED = "147m147p147s258m25p 2s2s +2s 1f2f"  # three golds (2s) and no shape at all
SPARROW = "456m789m456p789p12s2m2m+3s 1f2f"  # 12s+3s, the two golds (2m) the pair
DRAGON = "456m789m456p789p2m2m2m9s+9s 1f2f"  # three golds (2m) as their own pung
KAN = "13m456m789m456p789p99s+2m 1f2f"  # 1m_3m waiting on the gold 2m, no other gold
KAN_WRAP = "29m456m789m456p789p99s+1m 1f2f"  # a 1m gold: 2m and 9m wait on it
HALF = "123m456m789m123m4m99m5p+6m 1f2f"  # all characters, the gold 5p standing for 5m
FULL = "123m456m789m123m456m9m+9m 1f2f"  # all characters, no gold
FULL_DEAD = "123m456m789m123m456m9m+9m 1f2f"  # with the gold 2m: both 2m golds used as themselves
NO_FLOWER = "123m456m789m123p456p9s+9s"


@pytest.mark.parametrize(
    ("hand", "gold", "request_", "facts", "total", "found"),
    [
        # 三金倒: (2 + 3 + 0 + 5) × 2 + 40 = 60, no shape needed
        pytest.param(SCATTERED, "2s", {"self_draw": True}, {}, 60, ["three_golds"], id="three golds 三金倒"),
        # 抢金: (2 + 1 + 0 + 5) × 2 + 30 = 46
        pytest.param("456m789m456p789p12s99s+2m 1f2f", "2m", {}, {"robbing_gold": True}, 46, ["robbing_gold"],
                     id="robbing the gold 抢金"),
        # 天和 as 抢金: (2 + 0 + 0 + 5) × 2 + 30 = 44
        pytest.param(NO_FLOWER + " 1f2f", None, {"self_draw": True}, {"heavenly": True}, 44, ["heavenly_hand"],
                     id="heavenly 天和"),
        # 金雀 点炮: 2 + 2 + 0 + 5 + 60 = 69 (a free gold may win on a discard when it is 金雀)
        pytest.param(SPARROW, "2m", {"discarder": "S"}, {}, 69, ["golden_pair"], id="golden sparrow 金雀 discard"),
        # a free gold winning on a discard as 金雀 (1m + gold + 3m, two golds the pair), where 清一色 (dead golds)
        # is the higher special: three golds, 0 + 3 + 0 + 5 + 240 = 248 (only the highest special counts)
        pytest.param("456m789m456m789m12m2m2m+3m", "2m", {"discarder": "S"}, {}, 248, ["full_flush"],
                     id="free gold wins on a discard as 金雀, scores 清一色"),
        # 金雀 自摸: (2 + 2 + 0 + 5) × 2 + 60 = 78
        pytest.param(SPARROW, "2m", {"self_draw": True}, {}, 78, ["golden_pair"], id="golden sparrow 金雀 self-draw"),
        # 金龙 点炮: 2 + 3 + 0 + 5 + 120 = 130
        pytest.param(DRAGON, "2m", {"discarder": "S"}, {}, 130, ["golden_dragon"], id="golden dragon 金龙 discard"),
        # 金龙 自摸: (2 + 3 + 0 + 5) × 2 + 120 = 140, over 三金倒 (20 + 40 = 60), which would exclude it
        pytest.param(DRAGON, "2m", {"self_draw": True}, {}, 140, ["golden_dragon"], id="golden dragon 金龙 self-draw"),
        # 金坎: (2 + 1 + 0 + 5) × 2 + 60 = 76
        pytest.param(KAN, "2m", {"self_draw": True}, {}, 76, ["golden_kan"], id="golden kan 金坎"),
        pytest.param(KAN_WRAP, "1m", {"self_draw": True}, {}, 76, ["golden_kan"], id="golden kan 金坎 of a 1 gold"),
        # 混一色 点炮: 2 + 1 + 0 + 5 + 120 = 128; 自摸: (2 + 1 + 0 + 5) × 2 + 120 = 136
        pytest.param(HALF, "5p", {"discarder": "S"}, {}, 128, ["half_flush"], id="half flush 混一色 discard"),
        pytest.param(HALF, "5p", {"self_draw": True}, {}, 136, ["half_flush"], id="half flush 混一色 self-draw"),
        # 清一色 点炮: 2 + 0 + 0 + 5 + 240 = 247; 自摸: (2 + 0 + 0 + 5) × 2 + 240 = 254
        pytest.param(FULL, None, {"discarder": "S"}, {}, 247, ["full_flush"], id="full flush 清一色 discard"),
        pytest.param(FULL, None, {"self_draw": True}, {}, 254, ["full_flush"], id="full flush 清一色 self-draw"),
        # dead golds (2m used as 2m) keep 清一色: 2 + 2 + 0 + 5 + 240 = 249
        pytest.param(FULL_DEAD, "2m", {"discarder": "S"}, {}, 249, ["full_flush"], id="full flush with dead golds"),
        # 平和 无花无杠 自摸: (0 + 0 + 5) × 2 + 30 = 40
        pytest.param(NO_FLOWER, None, {"self_draw": True}, {}, 40, ["no_flowers"], id="no flowers 平和 self-draw"),
        # 平和 无花无杠 点炮 (our reading: 5 + 30 = 35)
        pytest.param(NO_FLOWER, None, {"discarder": "S"}, {}, 35, ["no_flowers"], id="no flowers 平和 discard"),
        # 平和 只有1张花: (1 + 0 + 0 + 5) × 2 + 15 = 27
        pytest.param(NO_FLOWER + " 1f", None, {"self_draw": True}, {}, 27, ["one_flower"], id="one flower 平和"),
        # an exposed kong is one flower: (1 + 0 + 0 + 5) × 2 + 15 = 27
        pytest.param("[1111m]456m789m123p456p9s+9s", None, {"self_draw": True}, {}, 27, ["one_flower"],
                     id="an exposed kong is one flower"),
        # a concealed kong is two: no 平和, (2 + 5) × 2 = 14
        pytest.param("(1111m)456m789m123p456p9s+9s", None, {"self_draw": True}, {}, 14, [],
                     id="a concealed kong ends 平和"),
        # an ordinary win counts only the highest special: 金雀 60 and 平和 30 -> 60. 点炮: 0 + 2 + 5 + 60 = 67
        pytest.param("456m789m456p789p12s2m2m+3s", "2m", {"discarder": "S"}, {}, 67, ["golden_pair"],
                     id="ordinary win: highest special only"),
        # a special win adds them: 抢金 30 + 金雀 60 + 平和 30; (0 + 2 + 0 + 5) × 2 + 120 = 134
        pytest.param("456m789m456p789p123s2m+2m", "2m", {}, {"robbing_gold": True}, 134,
                     ["robbing_gold", "golden_pair", "no_flowers"], id="special win: specials add"),
        # 三金倒 never with 金雀: 三金倒 40 + 平和 30 = 70, (0 + 3 + 0 + 5) × 2 + 70 = 86 beats 金雀's 16 + 60 = 76
        pytest.param("123m456m789m123p45p2s2s+2s", "2s", {"self_draw": True}, {}, 86, ["three_golds", "no_flowers"],
                     id="three golds with no flowers, not with the sparrow"),
    ],
)
def test_special(hand: str, gold: str | None, request_: dict, facts: dict, total: int, found: list[str]) -> None:
    result = fz(hand, gold, facts=facts, **request_)
    assert specials(result) == found
    assert result.total == total == sum(f.value * f.count for f in result.fans)


def test_three_golds_shows_the_hand_unread() -> None:
    result = fz(SCATTERED, "2s", self_draw=True)
    assert result.decomposition == ("124578m12457p122247s",)


def test_three_golds_is_not_won_on_a_discard() -> None:
    with pytest.raises(NotWinningError):
        fz("147m147p147s258m8p2s2s2s+5p 1f2f", "2s", discarder="S")


def test_golden_kan_setting() -> None:
    # the seed's section G: 金坎 = (花+金+连庄数+5)×2+120: (2 + 1 + 0 + 5) × 2 + 120 = 136
    result = fz(KAN, "2m", {"golden_kan": 120}, self_draw=True)
    assert (result.total, specials(result)) == (136, ["golden_kan"])
    assert result.decomposition[0] == "1m2m3m"


def test_specials_add_setting() -> None:
    # off: only the highest special even on a special win: 金雀 60; (0 + 2 + 0 + 5) × 2 + 60 = 74
    result = fz("456m789m456p789p123s2m+2m", "2m", {"specials_add_on_special_win": False},
                facts={"robbing_gold": True})
    assert (result.total, specials(result)) == (74, ["golden_pair"])


def test_free_gold_may_not_win_on_a_discard() -> None:
    # five sets and a lone gold wait on any tile (闲金)
    with pytest.raises(NotWinningError, match="闲金"):
        fz("456m789m456p789p123s2m+5s 1f2f", "2m", discarder="S")
    # by self-draw it wins: (2 + 1 + 0 + 5) × 2 = 16
    assert fz("456m789m456p789p123s2m+5s 1f2f", "2m", self_draw=True).total == 16
    # with free_gold_discard it wins on the discard: 2 + 1 + 0 + 5 = 8
    assert fz("456m789m456p789p123s2m+5s 1f2f", "2m", {"free_gold_discard": True}, discarder="S").total == 8


def test_half_flush_needs_a_live_gold() -> None:
    # the golds (5p) stand for 5m: live; without the gold setting the hand does not win at all
    result = fz(HALF, "5p", self_draw=True)
    assert dict(result.details)["golds_as"] == "5m"
    with pytest.raises(NotWinningError):
        fz(HALF, None, self_draw=True)


def test_full_flush_over_half_flush_when_golds_can_stand_for_themselves() -> None:
    result = fz(FULL_DEAD, "2m", discarder="S")
    assert dict(result.details)["golds_as"] == "22m"


@pytest.mark.parametrize(
    ("hand", "gold", "request_", "facts", "error", "words"),
    [
        ("[222m]456m789m456p789p1s+1s 1f", "2m", {"discarder": "S"}, {}, "invalid_hand", "claimed meld"),
        ("2m2m2m456m789m456p789p9s+2m", "2m", {"self_draw": True}, {}, "invalid_hand", "at most 3"),
        ("456m789m456p789p123s9s+2m", "2m", {"discarder": "S"}, {}, "bad_request", "discarded gold"),
        ("456m789m456p789p123s9s+1z", None, {"discarder": "S"}, {}, "invalid_hand", "honour"),
        ("456m789m456p789p123s9s+9s", "1z", {"discarder": "S"}, {}, "bad_request", "gold"),
        ("456m789m456p789p12s99s+2m", "2m", {"discarder": "S"}, {"robbing_gold": True}, "bad_request", "discard"),
        ("456m789m456p789p12s99s+3s", "2m", {}, {"robbing_gold": True}, "bad_request", "must be the gold"),
        ("456m789m456p789p12s99s+3s", None, {"self_draw": True, "seat_wind": "S"}, {"heavenly": True},
         "bad_request", "dealer"),
        ("456m789m456p789p12s99s+3s", None, {}, {"robbing_gold": True, "heavenly": True}, "bad_request", "both"),
        ("456m789m456p12s99s+3s", None, {"discarder": "S"}, {}, "invalid_hand", "wrong tile count.*it has 14$"),
        # honours are flowers: a count that is wrong without them says which were set aside
        ("[555z]123p789s456m5s+5s", None, {"discarder": "S"}, {}, "invalid_hand",
         "wrong tile count: 11 tiles .* it has 11; in Fuzhou honours are flowers: 5z 5z 5z set aside as flowers$"),
        ("123p789s456m11z5s+5s", None, {"discarder": "S"}, {}, "invalid_hand", "it has 11; .*: 1z 1z set aside"),
        ("123m456m789m123p456p9s+8s", None, {"discarder": "S"}, {}, "not_winning", "not a winning hand"),
    ],
)
def test_errors(hand: str, gold: str | None, request_: dict, facts: dict, error: str, words: str) -> None:
    from scorer import ScorerError

    with pytest.raises(ScorerError, match=words) as caught:
        fz(hand, gold, facts=facts, **request_)
    assert caught.value.code == error


def test_context_errors_are_bad_requests() -> None:
    with pytest.raises(ContextError):
        fz(NO_FLOWER, "3f", discarder="S")
