"""Payments (net per seat, E S W N, summing to 0): self-draw, discard, 包三家, and the liabilities
十二张落地包自摸, 杠开包牌 and 抢杠 (the kong's owner pays), and 人和 (the dealer pays).

A share is base * 2**fans; a liable seat pays the shares of all three (代付其余两家).
"""

from __future__ import annotations

import pytest

from scorer import ContextError
from scorer.request import score_parsed

ONE_FAN = "[123m]456p789s234s5s+5s"  # 平胡 1: a share is 2**1 = 2
TWELVE_DOWN = "[123m][456m][789m][123p]9s+9s"  # four melds down, single wait on 9s


def pay(hand: str, options: dict | None = None, **request) -> dict[str, int]:
    result = score_parsed({"rules": "guangdong", "hand": hand, "options": options or {}, **request})
    payments = dict(result.payments)
    assert not payments or sum(payments.values()) == 0
    return payments


@pytest.mark.parametrize(
    ("hand", "options", "request_", "expected"),
    [
        # discard: the discarder pays one share, 2**1 = 2
        pytest.param(ONE_FAN, {}, {"discarder": "S"}, {"E": 2, "S": -2, "W": 0, "N": 0}, id="discard"),
        # 包三家: the discarder pays for all three, 3 * 2 = 6
        pytest.param(ONE_FAN, {"discarder_pays_all": True}, {"discarder": "S"}, {"E": 6, "S": -6, "W": 0, "N": 0},
                     id="discarder pays all 包三家"),
        # self-draw, 平胡 1 + 自摸 1 = 2 fans: each pays 2**2 = 4
        pytest.param(ONE_FAN, {}, {"self_draw": True}, {"E": 12, "S": -4, "W": -4, "N": -4}, id="self-draw"),
        # a non-dealer self-draws: the dealer pays like the others (the seed has no dealer double)
        pytest.param(ONE_FAN, {}, {"self_draw": True, "seat_wind": "W"}, {"E": -4, "S": -4, "W": 12, "N": -4},
                     id="self-draw by West"),
        # 海底捞月 当自摸,三家付: 平胡 1 + 自摸 1 + 海底 1 = 3 fans, 2**3 = 8 each
        pytest.param(ONE_FAN, {}, {"self_draw": True, "last_tile": True}, {"E": 24, "S": -8, "W": -8, "N": -8},
                     id="last tile draw, three pay"),
        # 十二张落地包自摸: South self-draws with four melds down; West fed the fourth meld and pays all three.
        # 平胡 1 + 自摸 1 = 2 fans, share 4, West pays 3 * 4 = 12.
        pytest.param(TWELVE_DOWN, {}, {"self_draw": True, "seat_wind": "S", "guangdong": {"twelve_feeder": "W"}},
                     {"E": 0, "S": 12, "W": -12, "N": 0}, id="twelve tiles down 包自摸"),
        # the same win on a discard: no liability case, the discarder pays one share (平胡 1: 2)
        pytest.param(TWELVE_DOWN, {}, {"discarder": "N", "seat_wind": "S"}, {"E": 0, "S": 2, "W": 0, "N": -2},
                     id="twelve tiles down on a discard"),
        # 杠开包牌: East wins on the kong's replacement; North discarded the konged 1m and pays all three.
        # 自摸 1 + 杠上开花 1 = 2 fans (the pung 444p spoils 平胡), share 4, North pays 12.
        pytest.param("[1111m][444p]789s234s5s+5s", {}, {"self_draw": True, "kong_replacement": True,
                                                        "guangdong": {"kong_feeder": "N"}},
                     {"E": 12, "S": 0, "W": 0, "N": -12}, id="kong bloom 杠开包牌"),
        # 杠上开花 on a kong nobody fed (added or concealed kong): all three pay
        pytest.param("(1111m)[444p]789s234s5s+5s", {}, {"self_draw": True, "kong_replacement": True},
                     {"E": 12, "S": -4, "W": -4, "N": -4}, id="kong bloom without a feeder"),
        # 抢杠: as a self-draw, the robbed seat pays all three. 平胡 1 + 自摸 1 = 2 fans, share 4, West pays 12.
        pytest.param("[123m]456p789s55s23s+4s", {}, {"robbing_kong": True, "discarder": "W"},
                     {"E": 12, "S": 0, "W": -12, "N": 0}, id="robbing the kong 抢杠"),
        # 人和 庄家付: 9 fans, 2**9 = 512 from the dealer
        pytest.param(ONE_FAN.replace("[123m]", "123m"), {}, {"seat_wind": "N", "discarder": "E",
                                                               "guangdong": {"human": True}},
                     {"E": -512, "S": 0, "W": 0, "N": 512}, id="human hand, the dealer pays"),
        pytest.param(ONE_FAN.replace("[123m]", "123m"), {}, {"seat_wind": "N", "guangdong": {"human": True}},
                     {"E": -512, "S": 0, "W": 0, "N": 512}, id="human hand, the dealer pays unnamed"),
        # 天和 三家付: 9 fans, 512 each
        pytest.param(ONE_FAN.replace("[123m]", "123m"), {}, {"self_draw": True, "guangdong": {"heavenly": True}},
                     {"E": 1536, "S": -512, "W": -512, "N": -512}, id="heavenly hand, three pay"),
        # 地和: a self-draw, 三家付
        pytest.param(ONE_FAN.replace("[123m]", "123m"), {}, {"self_draw": True, "seat_wind": "S",
                                                               "guangdong": {"earthly": True}},
                     {"E": -512, "S": 1536, "W": -512, "N": -512}, id="earthly hand, three pay"),
        # a discard without a named discarder: no payments
        pytest.param(ONE_FAN, {}, {}, {}, id="discarder unknown"),
        pytest.param("[123m]456p789s55s23s+4s", {}, {"robbing_kong": True}, {}, id="robbed seat unknown"),
    ],
)
def test_payments(hand: str, options: dict, request_: dict, expected: dict[str, int]) -> None:
    assert pay(hand, options, **request_) == expected


@pytest.mark.parametrize(
    ("hand", "request_", "words"),
    [
        (TWELVE_DOWN, {"discarder": "N", "seat_wind": "S", "guangdong": {"twelve_feeder": "W"}}, "self-drawn"),
        (ONE_FAN, {"self_draw": True, "guangdong": {"twelve_feeder": "W"}}, "four melds"),
        (TWELVE_DOWN, {"self_draw": True, "guangdong": {"twelve_feeder": "E"}}, "own seat"),
        ("[1111m][444p]789s234s5s+5s", {"self_draw": True, "guangdong": {"kong_feeder": "N"}}, "kong_replacement"),
        ("(1111m)[444p]789s234s5s+5s", {"self_draw": True, "kong_replacement": True,
                                        "guangdong": {"kong_feeder": "N"}}, "no exposed kong"),
        (ONE_FAN.replace("[123m]", "123m"), {"self_draw": True, "seat_wind": "S", "guangdong": {"heavenly": True}},
         "dealer"),
        (ONE_FAN.replace("[123m]", "123m"), {"seat_wind": "S", "discarder": "W", "guangdong": {"human": True}},
         "dealer"),
        (ONE_FAN, {"self_draw": True, "seat_wind": "S", "guangdong": {"earthly": True}}, "no meld"),
        (ONE_FAN.replace("[123m]", "123m"), {"self_draw": True, "guangdong": {"heavenly": True, "earthly": True}},
         "at most one"),
    ],
)
def test_liability_inputs_are_checked(hand: str, request_: dict, words: str) -> None:
    with pytest.raises(ContextError, match=words):
        score_parsed({"rules": "guangdong", "hand": hand, **request_})
