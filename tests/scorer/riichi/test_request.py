"""The request path of the Riichi rule set: the strict ``riichi`` object and options, conflicting flags,
tile limits, and the error objects of the contract."""

from __future__ import annotations

from typing import Any

import pytest

import scorer.riichi as riichi
from scorer.errors import ContextError, InvalidHandError, NotationError
from scorer.request import score_parsed, score_request

HAND = "234m456p34567s99s+8s"  # closed, pinfu shape


def req(hand: str = HAND, riichi_: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"rules": "riichi", "hand": hand, "seat_wind": "S", **fields}
    if riichi_ is not None:
        out["riichi"] = riichi_
    return out


@pytest.mark.parametrize(("riichi_", "message"), [
    ({"riichi": 1}, "true or false"),
    ({"honba": -1}, "whole number"),
    ({"honba": True}, "whole number"),
    ({"riichi_sticks": "2"}, "whole number"),
    ({"dora_indicators": ["3m"]}, "string of tiles"),
    ({"dora_indicators": "1f"}, "flower"),
    ({"kyoutaku": 1}, "unknown field 'riichi.kyoutaku'"),
])
def test_riichi_object_is_strict(riichi_: dict[str, Any], message: str) -> None:
    with pytest.raises(ContextError, match=message):
        score_parsed(req(riichi_=riichi_))


def test_riichi_object_must_be_an_object() -> None:
    assert score_request(req(riichi_=None) | {"riichi": [1]})["error"]["code"] == "bad_request"


def test_bad_indicator_notation() -> None:
    with pytest.raises(NotationError):
        score_parsed(req(riichi_={"dora_indicators": "3x"}))


def test_unknown_option() -> None:
    out = score_request(req(options={"has_kuitan": True}))
    assert out["error"]["code"] == "bad_request" and "has_open_tanyao" in out["error"]["message"]


def test_option_type() -> None:
    assert score_request(req(options={"kazoe_limit": "1"}))["error"]["code"] == "bad_request"


OPEN = "[234m]456p34567s22s+8s"
KONG = "(1111m)234m456p789s5p+5p"


@pytest.mark.parametrize(("hand", "fields", "riichi_", "options", "message"), [
    (OPEN, {}, {"riichi": True}, {}, "closed hand"),
    (OPEN, {}, {"double_riichi": True}, {}, "closed hand"),
    (HAND, {}, {"ippatsu": True}, {}, "ippatsu"),
    (HAND, {}, {"riichi": True, "open_riichi": True}, {}, "has_open_riichi"),
    (HAND, {}, {"open_riichi": True}, {"has_open_riichi": True}, "needs riichi"),
    (HAND, {"kong_replacement": True, "self_draw": True}, {}, {}, "kong"),
    (KONG, {"kong_replacement": True}, {}, {}, "self-drawn"),
    (KONG, {"kong_replacement": True, "self_draw": True, "last_tile": True}, {}, {}, "rinshan and haitei"),
    (HAND, {"robbing_kong": True, "self_draw": True}, {}, {}, "not a self-draw"),
    (HAND, {"robbing_kong": True, "last_tile": True}, {}, {}, "houtei"),
    (HAND, {"self_draw": True}, {"tenhou": True}, {}, "dealer"),
    (HAND, {"seat_wind": "E"}, {"tenhou": True}, {}, "self-drawn"),
    (KONG, {"seat_wind": "E", "self_draw": True}, {"tenhou": True}, {}, "first draw"),
    (HAND, {"seat_wind": "E", "self_draw": True}, {"tenhou": True, "riichi": True}, {}, "before riichi"),
    (HAND, {"seat_wind": "E", "self_draw": True}, {"chiihou": True}, {}, "non-dealer"),
    (HAND, {}, {"chiihou": True}, {}, "self-drawn"),
    (HAND, {}, {"renhou": True}, {}, "has_renhou"),
    (HAND, {"self_draw": True}, {"renhou": True}, {"has_renhou": True}, "not a self-draw"),
    (HAND, {"seat_wind": "E"}, {"renhou": True}, {"has_renhou": True}, "non-dealer"),
    (HAND, {}, {"paarenchan": 1}, {}, "has_paarenchan"),
    (HAND, {"last_of_kind": True}, {}, {}, "MCR"),
    (HAND + " 1f", {}, {}, {}, "flowers"),
    (HAND, {"self_draw": True, "discarder": "W"}, {}, {}, "no discarder"),
    (HAND, {"discarder": "S"}, {}, {}, "own seat"),
    (HAND, {"discarder": "W"}, {"nagashi_mangan": True}, {}, "self-draw"),
    (HAND, {}, {"dora_indicators": "123456m"}, {}, "five dora indicators"),
])
def test_conflicting_flags(hand: str, fields: dict[str, Any], riichi_: dict[str, Any], options: dict[str, Any],
                           message: str) -> None:
    with pytest.raises(ContextError, match=message):
        score_parsed(req(hand, riichi_, options=options, **fields))


def test_conflicting_flags_answer_bad_request() -> None:
    out = score_request(req(riichi_={"ippatsu": True}))
    assert out == {"ok": False, "error": {"code": "bad_request",
                                          "message": "ippatsu (一发) needs riichi or double riichi"}}


def test_indicators_count_toward_four_copies() -> None:
    """Dora indicators are tiles from the same set: three 8s in the hand leave one for the indicators."""
    hand = "234m456p345s888s9s+9s"
    score_parsed(req(hand, {"riichi": True, "dora_indicators": "8s"}))
    with pytest.raises(InvalidHandError, match="5 copies of 8s"):
        score_parsed(req(hand, {"riichi": True, "dora_indicators": "8s", "ura_indicators": "8s"}))


def test_no_yaku_is_not_winning_and_says_so() -> None:
    out = score_request(req("[234m]456p789s79m55p+8m"))
    assert out["error"]["code"] == "not_winning"
    assert out["error"]["message"].startswith("no yaku")


def test_wrong_tile_count_is_invalid_hand() -> None:
    assert score_request(req("234m456p34567s9s+8s"))["error"]["code"] == "invalid_hand"


def test_result_object() -> None:
    out = score_request(req(riichi_={"riichi": True, "dora_indicators": "3m"}, discarder="N"))
    assert out["ok"] and out["rules"] == "riichi" and out["total"] == 3
    assert out["riichi"] == {"han": 3, "fu": 30, "limit": None, "points": 3900, "deposits": 0}
    assert out["fans"][0] == {"id": "riichi", "name": "Riichi", "name_zh": "立直", "value": 1, "count": 1}
    assert out["decomposition"] == ["234m", "456p", "345s", "678s", "9s9s"]
    assert out["payments"] == {"E": 0, "S": 3900, "W": 0, "N": -3900}


def test_score_accepts_parsed_objects() -> None:
    from scorer.hand import WinContext, Wind, parse_hand

    result = riichi.score(parse_hand(HAND), WinContext(seat_wind=Wind.SOUTH), riichi.DEFAULT,
                          riichi.RiichiContext(riichi=True))
    assert result.total == 2


def test_all_is_sorted() -> None:
    assert riichi.__all__ == sorted(riichi.__all__)
    for name in riichi.__all__:
        assert hasattr(riichi, name)
