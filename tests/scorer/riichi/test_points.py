"""点数计算 of seed 002: base points, limits, rounding, the worked examples, both point tables, honba,
riichi sticks and payments per seat."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.request import score_parsed
from scorer.riichi import RiichiConfig
from scorer.riichi.points import base_points, hand_value, payments, round_up

# 庄家和牌点数速查表: (han, fu) -> (ron, each on tsumo); None where the table has "-".
DEALER = {
    (1, 30): (1500, 500), (1, 40): (2000, 700), (1, 50): (2400, 800), (1, 60): (2900, 1000),
    (1, 70): (3400, 1200), (1, 80): (3900, 1300), (1, 90): (4400, 1500), (1, 100): (4800, 1600),
    (1, 110): (5300, None),
    (2, 20): (None, 700), (2, 25): (2400, None), (2, 30): (2900, 1000), (2, 40): (3900, 1300),
    (2, 50): (4800, 1600), (2, 60): (5800, 2000), (2, 70): (6800, 2300), (2, 80): (7700, 2600),
    (2, 90): (8700, 2900), (2, 100): (9600, 3200), (2, 110): (10600, 3600),
    (3, 20): (None, 1300), (3, 25): (4800, 1600), (3, 30): (5800, 2000), (3, 40): (7700, 2600),
    (3, 50): (9600, 3200), (3, 60): (11600, 3900), (3, 70): (12000, 4000),
    (4, 20): (None, 2600), (4, 25): (9600, 3200), (4, 30): (11600, 3900), (4, 40): (12000, 4000),
    (5, 30): (12000, 4000), (6, 30): (18000, 6000), (7, 30): (18000, 6000), (8, 30): (24000, 8000),
    (10, 30): (24000, 8000), (11, 30): (36000, 12000), (12, 30): (36000, 12000), (13, 30): (48000, 16000),
}
# 闲家和牌点数速查表: (han, fu) -> (ron, (each non-dealer, dealer) on tsumo)
NON_DEALER = {
    (1, 30): (1000, (300, 500)), (1, 40): (1300, (400, 700)), (1, 50): (1600, (400, 800)),
    (1, 60): (2000, (500, 1000)), (1, 70): (2300, (600, 1200)), (1, 80): (2600, (700, 1300)),
    (1, 90): (2900, (800, 1500)), (1, 100): (3200, (800, 1600)), (1, 110): (3600, None),
    (2, 20): (None, (400, 700)), (2, 25): (1600, None), (2, 30): (2000, (500, 1000)), (2, 40): (2600, (700, 1300)),
    (2, 50): (3200, (800, 1600)), (2, 60): (3900, (1000, 2000)), (2, 70): (4500, (1200, 2300)),
    (2, 80): (5200, (1300, 2600)), (2, 90): (5800, (1500, 2900)), (2, 100): (6400, (1600, 3200)),
    (2, 110): (7100, (1800, 3600)),
    (3, 20): (None, (700, 1300)), (3, 25): (3200, (800, 1600)), (3, 30): (3900, (1000, 2000)),
    (3, 40): (5200, (1300, 2600)), (3, 50): (6400, (1600, 3200)), (3, 60): (7700, (2000, 3900)),
    (3, 70): (8000, (2000, 4000)),
    (4, 20): (None, (1300, 2600)), (4, 25): (6400, (1600, 3200)), (4, 30): (7700, (2000, 3900)),
    (4, 40): (8000, (2000, 4000)),
    (5, 30): (8000, (2000, 4000)), (6, 30): (12000, (3000, 6000)), (7, 30): (12000, (3000, 6000)),
    (8, 30): (16000, (4000, 8000)), (10, 30): (16000, (4000, 8000)), (11, 30): (24000, (6000, 12000)),
    (12, 30): (24000, (6000, 12000)), (13, 30): (32000, (8000, 16000)),
}


def _seat(pays: tuple[tuple[str, int], ...]) -> dict[str, int]:
    return dict(pays)


@pytest.mark.parametrize(("han_fu", "expected"), list(DEALER.items()), ids=[f"{h}han{f}fu" for h, f in DEALER])
def test_dealer_table(han_fu: tuple[int, int], expected: tuple[int | None, int | None]) -> None:
    a, _ = base_points(*han_fu, False)
    ron, each = expected
    if ron is not None:
        assert _seat(payments(a, "E", False, "S"))["S"] == -ron
    if each is not None:
        assert _seat(payments(a, "E", True, None)) == {"E": 3 * each, "S": -each, "W": -each, "N": -each}


@pytest.mark.parametrize(("han_fu", "expected"), list(NON_DEALER.items()),
                         ids=[f"{h}han{f}fu" for h, f in NON_DEALER])
def test_non_dealer_table(han_fu: tuple[int, int], expected: tuple[int | None, tuple[int, int] | None]) -> None:
    a, _ = base_points(*han_fu, False)
    ron, tsumo = expected
    if ron is not None:
        assert _seat(payments(a, "S", False, "E"))["E"] == -ron
        assert _seat(payments(a, "S", False, "W"))["W"] == -ron  # the same whoever deals in
    if tsumo is not None:
        other, dealer = tsumo
        assert _seat(payments(a, "S", True, None)) == {"E": -dealer, "S": dealer + 2 * other, "W": -other,
                                                        "N": -other}


@pytest.mark.parametrize(("han", "limit", "base"), [
    (5, "mangan", 2000), (6, "haneman", 3000), (7, "haneman", 3000), (8, "baiman", 4000), (10, "baiman", 4000),
    (11, "sanbaiman", 6000), (12, "sanbaiman", 6000), (13, "kazoe_yakuman", 8000), (25, "kazoe_yakuman", 8000),
])
def test_limits(han: int, limit: str, base: int) -> None:
    assert base_points(han, 30, False) == (base, limit)


def test_mangan_from_fu() -> None:
    """1-4 han: a = fu × 2^(han+2), capped at 2000."""
    assert base_points(3, 70, False) == (2000, "mangan")
    assert base_points(4, 40, False) == (2000, "mangan")
    assert base_points(4, 30, False) == (1920, None)


def test_kiriage() -> None:
    """切上满贯: 60 fu 3 han and 30 fu 4 han are mangan where the table plays it."""
    on = RiichiConfig(kiriage=True)
    assert base_points(4, 30, False, on) == (2000, "mangan")
    assert base_points(3, 60, False, on) == (2000, "mangan")
    assert base_points(3, 50, False, on) == (1600, None)


def test_kazoe_options() -> None:
    """累计役满: one yakuman (most rules), sanbaiman (no kazoe), or multiples (no limit)."""
    assert base_points(28, 40, False, RiichiConfig(kazoe_limit=0)) == (8000, "kazoe_yakuman")
    assert base_points(28, 40, False, RiichiConfig(kazoe_limit=1)) == (6000, "sanbaiman")
    assert base_points(28, 40, False, RiichiConfig(kazoe_limit=2)) == (16000, "kazoe_double_yakuman")
    assert base_points(13, 40, False, RiichiConfig(kazoe_limit=2)) == (8000, "kazoe_yakuman")


def test_multiple_yakuman() -> None:
    """役满 multiples add up: 8000 × (han ÷ 13); more than six are six unless the limit is lifted."""
    assert base_points(26, 0, True) == (16000, "double_yakuman")
    assert base_points(39, 0, True) == (24000, "triple_yakuman")
    assert base_points(91, 0, True) == (48000, "sextuple_yakuman")
    assert base_points(91, 0, True, RiichiConfig(limit_to_sextuple_yakuman=False)) == (56000, "yakuman_x7")


def test_aotenjou() -> None:
    assert base_points(13, 40, True, RiichiConfig(aotenjou=True)) == (40 * 2 ** 15, None)


def test_worked_examples() -> None:
    """The document's examples 1-4."""
    # 例1: non-dealer self-draw, 70 fu 2 han: 1200 / 2300
    a, _ = base_points(2, 70, False)
    assert a == 1120
    assert _seat(payments(a, "S", True, None)) == {"E": -2300, "S": 4700, "W": -1200, "N": -1200}
    # 例2: dealer self-draw, 40 fu 4 han: mangan, 4000 each
    a, limit = base_points(4, 40, False)
    assert (a, limit) == (2000, "mangan")
    assert _seat(payments(a, "E", True, None))["S"] == -4000
    # 例3: non-dealer on a discard, 9 han: 16000
    a, _ = base_points(9, 30, False)
    assert hand_value(a, False, False) == 16000
    # 例4: dealer on a discard, 15 han: one (counted) yakuman, 48000
    a, _ = base_points(15, 30, False)
    assert hand_value(a, True, False) == 48000


def test_honba_examples() -> None:
    """本场: 300 per honba on a discard (the discarder pays), 100 from each payer on a self-draw:
    11600 at one honba is 11900; 3900 each at three honba is 4200; 2000/4000 at two honba is 2200/4200."""
    a, _ = base_points(4, 30, False)
    assert _seat(payments(a, "E", False, "N", honba=1))["N"] == -11900
    a, _ = base_points(3, 60, False)
    assert _seat(payments(a, "E", True, None, honba=3))["W"] == -4200
    a, _ = base_points(5, 30, False)
    assert _seat(payments(a, "S", True, None, honba=2)) == {"E": -4200, "S": 8600, "W": -2200, "N": -2200}


def test_round_up() -> None:
    assert (round_up(1120), round_up(2240), round_up(100), round_up(101)) == (1200, 2300, 100, 200)


def request(**fields: Any) -> dict[str, Any]:
    base = {"rules": "riichi", "hand": "234m456p34567s99s+8s", "seat_wind": "S", "riichi": {"riichi": True}}
    base.update(fields)
    return base


def test_result_on_a_discard() -> None:
    result = score_parsed(request(discarder="W"))
    assert dict(result.details) == {"han": 2, "fu": 30, "limit": None, "points": 2000, "deposits": 0}
    assert dict(result.payments) == {"E": 0, "S": 2000, "W": -2000, "N": 0}


def test_payments_without_discarder_are_empty() -> None:
    assert score_parsed(request()).payments == ()


def test_honba_and_sticks_in_a_result() -> None:
    """Honba go into points and payments; riichi sticks come from the table (``deposits``), so the
    payments still sum to zero."""
    result = score_parsed(request(self_draw=True, riichi={"riichi": True, "honba": 2, "riichi_sticks": 3}))
    details = dict(result.details)
    assert details["points"] == 1300 + 2 * 700 + 600 and details["deposits"] == 3000  # 3 han 20 fu + 2 honba
    pays = dict(result.payments)
    assert pays == {"E": -1500, "S": 3300, "W": -900, "N": -900}
    assert sum(pays.values()) == 0


def test_dealer_tsumo_payments() -> None:
    result = score_parsed(request(seat_wind="E", self_draw=True))
    assert dict(result.payments) == {"E": 3900, "S": -1300, "W": -1300, "N": -1300}


def test_yakuman_payments() -> None:
    result = score_parsed({"rules": "riichi", "hand": "[555z][666z]777z123m5p+5p", "seat_wind": "W",
                           "discarder": "E"})
    assert dict(result.details)["limit"] == "yakuman"
    assert dict(result.payments) == {"E": -32000, "S": 0, "W": 32000, "N": 0}


def test_nagashi_mangan() -> None:
    """流局满贯: a mangan self-draw whatever the hand holds (13 tiles at the draw)."""
    result = score_parsed({"rules": "riichi", "hand": "2345m66p1357s149s+9s", "seat_wind": "S",
                           "riichi": {"nagashi_mangan": True}})
    assert [f.id for f in result.fans] == ["nagashi_mangan"]
    assert dict(result.payments) == {"E": -4000, "S": 8000, "W": -2000, "N": -2000}


PAO_HAND = "[555z][666z][777z]123m5p+5p"  # 大三元, the red dragons claimed from the liable seat


@pytest.mark.parametrize(("fields", "expected"), [
    ({"self_draw": True}, {"E": 0, "S": 32000, "W": -32000, "N": 0}),  # self-draw: the liable seat pays all
    ({"discarder": "W"}, {"E": 0, "S": 32000, "W": -32000, "N": 0}),  # the liable seat deals in
    ({"discarder": "N"}, {"E": 0, "S": 32000, "W": -16000, "N": -16000}),  # another deals in: halves
    ({"discarder": "E", "seat_wind": "S"}, {"E": -16000, "S": 32000, "W": -16000, "N": 0}),
])
def test_pao(fields: dict[str, Any], expected: dict[str, int]) -> None:
    """役满包牌 (document, 包牌): the liable player pays as if it had dealt in; halves when another deals in."""
    result = score_parsed({"rules": "riichi", "hand": PAO_HAND, "seat_wind": "S", "riichi": {"pao": "W"},
                           **fields})
    assert dict(result.payments) == expected


def test_pao_dealer_with_honba() -> None:
    result = score_parsed({"rules": "riichi", "hand": PAO_HAND, "seat_wind": "E", "self_draw": True,
                           "riichi": {"pao": "N", "honba": 2}})
    assert dict(result.payments) == {"E": 48600, "S": 0, "W": 0, "N": -48600}
    assert dict(result.details)["points"] == 48600


@pytest.mark.parametrize(("hand", "riichi", "message"), [
    ("[555z]234m456p789s1s+1s", {"pao": "W"}, "applies only"),
    ("555z666z777z123m5p+5p", {"pao": "W"}, "claimed meld"),
    (PAO_HAND, {"pao": "S"}, "not the winner"),
    (PAO_HAND, {"pao": "X"}, "must be a seat"),
])
def test_pao_refused(hand: str, riichi: dict[str, Any], message: str) -> None:
    from scorer.errors import ContextError

    req = {"rules": "riichi", "hand": hand, "seat_wind": "S", "discarder": "E", "riichi": riichi}
    with pytest.raises(ContextError, match=message):
        score_parsed(req)
