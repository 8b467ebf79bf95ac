"""Fuzhou's formulas from seed 003, with the arithmetic written out:

    点炮和 = 花 + 金 + 连庄数 + 5 (+ special)
    自摸和 = (连庄数 + 花 + 金 + 5) × 2 + special
    花: each flower 1; four of one honour, 春夏秋冬 or 梅蘭菊竹 = 6; an exposed kong 1, a concealed kong 2
    金: each gold held 1

Most hands carry two flowers (1f2f) so that no 平和 special joins in. The winner sits East (the dealer)
unless a row says otherwise.
"""

from __future__ import annotations

import pytest

from scorer.request import score_parsed

PLAIN = "123m456m789m123p45p99s+6p"  # five sets and a pair, no gold


def fz(hand: str, gold: str | None = None, streak: int = 0, options: dict | None = None, **request):
    return score_parsed({"rules": "fuzhou", "hand": hand, "fuzhou": {"gold": gold, "dealer_streak": streak},
                         "options": options or {}, **request})


def parts(result) -> dict[str, int]:
    return {f.id: f.value * f.count for f in result.fans}


@pytest.mark.parametrize(
    ("hand", "gold", "streak", "request_", "total", "fans"),
    [
        # 点炮和: 花 2 + 金 0 + 连庄 0 + 5 = 7
        pytest.param(PLAIN + " 1f2f", None, 0, {"discarder": "S"}, 7, {"base": 5, "flowers": 2}, id="discard"),
        # 自摸和: (0 + 2 + 0 + 5) × 2 = 14
        pytest.param(PLAIN + " 1f2f", None, 0, {"self_draw": True}, 14,
                     {"base": 5, "flowers": 2, "self_drawn": 7}, id="self-draw doubles"),
        # honours loose in the hand are flowers: 1z 7z + 3f = 花 3; 3 + 5 = 8
        pytest.param("1z " + PLAIN + " 7z 3f", None, 0, {"discarder": "S"}, 8, {"base": 5, "flowers": 3},
                     id="honours are flowers"),
        # honours grouped like a meld are flowers too (a photo's layout may group them): 6 + 1 + 5 = 12
        pytest.param(PLAIN + " [1111z] 7z", None, 0, {"discarder": "S"}, 12, {"base": 5, "flowers": 7},
                     id="honours written as a meld are flowers"),
        # 春夏秋冬 all four = 6, plus 梅 1: 花 7; 7 + 5 = 12
        pytest.param(PLAIN + " 1234f5f", None, 0, {"discarder": "S"}, 12, {"base": 5, "flowers": 7},
                     id="seasons set counts 6"),
        # 梅蘭菊竹 = 6; 6 + 5 = 11
        pytest.param(PLAIN + " 5678f", None, 0, {"discarder": "S"}, 11, {"base": 5, "flowers": 6},
                     id="plants set counts 6"),
        # 4个东 = 6 朵花, plus 2f: 花 7; 7 + 5 = 12
        pytest.param(PLAIN + " 1111z 2f", None, 0, {"discarder": "S"}, 12, {"base": 5, "flowers": 7},
                     id="four East count 6"),
        # four of a dragon count 6 too (4个一样的花); three of a kind are 3: 6 + 3 + 5 = 14
        pytest.param(PLAIN + " 5555z666z", None, 0, {"discarder": "S"}, 14, {"base": 5, "flowers": 9},
                     id="four of a dragon count 6"),
        # an exposed kong 1 朵花, a concealed kong 2, plus 1f: 花 4; 4 + 5 = 9
        pytest.param("[1111m](2222p)456m789m123s9s+9s 1f", None, 0, {"discarder": "S"}, 9,
                     {"base": 5, "flowers": 1, "kongs": 3}, id="kongs count as flowers"),
        # a gold held (5s standing for 5p): 花 2 + 金 1 + 5 = 8
        pytest.param("123m456m789m123p4p99s5s+6p 1f2f", "5s", 0, {"discarder": "S"}, 8,
                     {"base": 5, "flowers": 2, "golds": 1}, id="a gold counts 1"),
        # the dealer wins with a streak of 2: 花 2 + 金 0 + 连庄 2 + 5 = 9
        pytest.param(PLAIN + " 1f2f", None, 2, {"discarder": "S"}, 9,
                     {"base": 5, "flowers": 2, "dealer_streak": 2}, id="dealer streak on a discard"),
        # (2 + 2 + 0 + 5) × 2 = 18
        pytest.param(PLAIN + " 1f2f", None, 2, {"self_draw": True}, 18,
                     {"base": 5, "flowers": 2, "dealer_streak": 2, "self_drawn": 9}, id="dealer streak on a self-draw"),
    ],
)
def test_formula(hand: str, gold: str | None, streak: int, request_: dict, total: int, fans: dict[str, int]) -> None:
    result = fz(hand, gold, streak, **request_)
    assert parts(result) == fans
    assert result.total == total == sum(fans.values())


@pytest.mark.parametrize(
    ("streak", "request_", "options", "expected"),
    [
        # the dealer wins on South's discard: South pays 2 + 5 = 7
        pytest.param(0, {"discarder": "S"}, {}, {"E": 7, "S": -7, "W": 0, "N": 0}, id="discarder pays"),
        # all_pay_on_discard: each of three pays 7
        pytest.param(0, {"discarder": "S"}, {"all_pay_on_discard": True}, {"E": 21, "S": -7, "W": -7, "N": -7},
                     id="all pay on discard"),
        # self-draw: each pays (0 + 2 + 0 + 5) × 2 = 14
        pytest.param(0, {"self_draw": True}, {}, {"E": 42, "S": -14, "W": -14, "N": -14}, id="self-draw three pay"),
        # base 底番 3: each pays 14 × 3 = 42
        pytest.param(0, {"self_draw": True}, {"base": 3}, {"E": 126, "S": -42, "W": -42, "N": -42}, id="base 3"),
        # dealer East wins, streak 3: 其他三家应多输连庄的点数, each pays (3 + 2 + 5) × 2 = 20
        pytest.param(3, {"self_draw": True}, {}, {"E": 60, "S": -20, "W": -20, "N": -20}, id="dealer streak all pay"),
        # South wins by self-draw, streak 3: the dealer pays (3 + 2 + 5) × 2 = 20, West and North (2 + 5) × 2 = 14
        pytest.param(3, {"self_draw": True, "seat_wind": "S"}, {}, {"E": -20, "S": 48, "W": -14, "N": -14},
                     id="toppled dealer pays the streak, self-draw"),
        # South wins on the dealer's discard, streak 3: the dealer pays 3 + 2 + 5 = 10
        pytest.param(3, {"seat_wind": "S", "discarder": "E"}, {}, {"E": -10, "S": 10, "W": 0, "N": 0},
                     id="dealer deals in with a streak"),
        # South wins on West's discard, streak 3: West pays 2 + 5 = 7, the toppled dealer pays his 3
        pytest.param(3, {"seat_wind": "S", "discarder": "W"}, {}, {"E": -3, "S": 10, "W": -7, "N": 0},
                     id="toppled dealer pays the streak, discard"),
        # a discard without a named discarder: no payments
        pytest.param(0, {}, {}, {}, id="discarder unknown"),
    ],
)
def test_payments(streak: int, request_: dict, options: dict, expected: dict[str, int]) -> None:
    result = fz(PLAIN + " 1f2f", None, streak, options, **request_)
    payments = dict(result.payments)
    assert payments == expected
    assert sum(payments.values()) == 0
