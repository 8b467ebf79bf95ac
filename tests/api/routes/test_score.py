"""POST /v1/score and /v1/score/batch."""

from __future__ import annotations

import json

import pytest

from scorer.request import score_request
from tests.api.support import error_of

MCR = {"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"}


def test_score_returns_the_contract_result(client):
    r = client.post("/v1/score", json=MCR)
    assert r.status_code == 200
    body = r.json()
    assert body == score_request(MCR)
    assert body["ok"] is True and body["total"] == 11
    assert {f["name_zh"] for f in body["fans"]} == {"花龙", "箭刻", "单钓将"}
    assert sum(body["payments"].values()) == 0


@pytest.mark.parametrize("rules", ["mcr", "riichi", "guangdong"])
def test_every_rule_set_answers(client, rules):
    req = {"rules": rules, "hand": "234m456p34567s99s+8s", "self_draw": True}
    r = client.post("/v1/score", json=req)
    assert r.status_code == 200, r.text
    assert r.json()["rules"] == rules


def test_riichi_adds_its_object(client):
    r = client.post("/v1/score", json={"rules": "riichi", "hand": "234m456p34567s99s+8s", "discarder": "S",
                                       "riichi": {"riichi": True}})
    assert r.status_code == 200
    assert r.json()["riichi"]["points"] == 2900


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param({"rules": "mcr", "hand": "123m+"}, "bad_notation", id="bad_notation"),
        pytest.param({"rules": "mcr", "hand": "123m456m789m1p2p3p4p+9s"}, "not_winning", id="not_winning"),
        pytest.param({"rules": "mcr", "hand": "11111m234p567s789s+5s"}, "invalid_hand", id="fifth_copy"),
        pytest.param({"rules": "mcr", "hand": "123m+4m"}, "invalid_hand", id="too_few_tiles"),
        pytest.param({"rules": "nope", "hand": "123m+4m"}, "bad_request", id="unknown_rules"),
        pytest.param({"rules": "mcr"}, "bad_request", id="no_hand"),
        pytest.param({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "colour": 1}, "bad_request",
                     id="unknown_field"),
        pytest.param({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "self_draw": "yes"}, "bad_request",
                     id="flag_not_bool"),
        pytest.param({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "seat_wind": "X"}, "bad_request",
                     id="bad_wind"),
        pytest.param({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "seat_wind": []}, "bad_request",
                     id="wind_a_list"),
        pytest.param({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": {}}, "bad_request",
                     id="discarder_an_object"),
        pytest.param({"rules": "mcr", "hand": "1m" * 300 + "+1m"}, "bad_request", id="hand_too_long"),
        pytest.param({"rules": "riichi", "hand": "234m456p34567s99s+8s", "riichi": {"dora_indicators": "1m" * 300}},
                     "bad_request", id="nested_string_too_long"),
        pytest.param({"rules": "riichi", "hand": "234m456p34567s99s+8s", "options": {"nope": 1}}, "bad_request",
                     id="unknown_option"),
        pytest.param([1, 2], "bad_request", id="not_an_object"),
        pytest.param("hand", "bad_request", id="a_string"),
    ],
)
def test_bad_hands_get_422_and_the_error_object(client, body, code):
    r = client.post("/v1/score", json=body)
    assert error_of(r) == (422, code)


def test_json_null_is_no_request_object(client):
    r = client.post("/v1/score", content=b"null", headers={"content-type": "application/json"})
    assert error_of(r) == (422, "bad_request")


@pytest.mark.parametrize("raw", [b"", b"{", b"\xff\xfe", b"[" * 100_000, b"NaN-ish"], ids=lambda b: repr(b[:8]))
def test_a_body_that_is_not_json_gets_400(client, raw):
    r = client.post("/v1/score", content=raw, headers={"content-type": "application/json"})
    assert error_of(r) == (400, "bad_request")


@pytest.mark.parametrize("path", ["/v1/score", "/v1/score/batch"])
@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                   "application/jsonx", None])
def test_json_endpoints_take_application_json_only(client, path, ctype):
    """A page on any site can make a browser send text/plain or a form without a CORS preflight; not JSON."""
    body = json.dumps(MCR if path == "/v1/score" else {"hands": [MCR]})
    headers = {"content-type": ctype} if ctype else {}
    r = client.post(path, content=body, headers=headers)
    assert error_of(r) == (415, "unsupported_media_type")
    assert "application/json" in r.json()["error"]["message"]


def test_json_with_a_charset_is_json(client):
    r = client.post("/v1/score", content=json.dumps(MCR), headers={"content-type": "Application/JSON; charset=utf-8"})
    assert r.status_code == 200


def test_get_is_not_allowed(client):
    assert error_of(client.get("/v1/score")) == (405, "method_not_allowed")


# --- batch -------------------------------------------------------------------------------------------------------


def test_batch_answers_in_order_and_200_even_with_bad_hands(client):
    hands = [MCR, {"rules": "mcr", "hand": "123m+"}, "not an object",
             {"rules": "riichi", "hand": "234m456p34567s99s+8s", "riichi": {"riichi": True}, "discarder": "S"}]
    r = client.post("/v1/score/batch", json={"hands": hands})
    assert r.status_code == 200
    results = r.json()["results"]
    assert [x["ok"] for x in results] == [True, False, False, True]
    assert results[0] == score_request(MCR)
    assert results[1]["error"]["code"] == "bad_notation"
    assert results[1]["error"]["message"].startswith("hand 1: ")
    assert results[2]["error"]["code"] == "bad_request"
    assert results[3]["rules"] == "riichi"


def test_batch_of_1000_is_scored_in_order(client):
    hands = [{**MCR, "discarder": "SWN"[i % 3]} for i in range(1000)]
    r = client.post("/v1/score/batch", json={"hands": hands})
    assert r.status_code == 200
    results = r.json()["results"]
    assert len(results) == 1000
    expected = {s: score_request({**MCR, "discarder": s})["payments"] for s in "SWN"}
    assert all(res["payments"] == expected["SWN"[i % 3]] for i, res in enumerate(results))


def test_empty_batch(client):
    r = client.post("/v1/score/batch", json={"hands": []})
    assert r.status_code == 200 and r.json() == {"results": []}


def test_batch_of_1001_is_refused(client):
    r = client.post("/v1/score/batch", json={"hands": [MCR] * 1001})
    assert error_of(r) == (422, "too_many_hands")


@pytest.mark.parametrize("body", [[MCR], {"hand": MCR}, {"hands": MCR}, {"hands": [], "extra": 1}, 3])
def test_batch_body_must_be_hands_list(client, body):
    r = client.post("/v1/score/batch", json=body)
    assert error_of(r) == (422, "bad_request")


def test_batch_not_json(client):
    r = client.post("/v1/score/batch", content=b"{nope", headers={"content-type": "application/json"})
    assert error_of(r) == (400, "bad_request")


def test_a_scorer_bug_is_one_error_object_in_a_batch(client, monkeypatch):
    import api.scoring as scoring

    def boom(obj):
        if obj.get("hand") == "boom":
            raise RuntimeError("bug")
        return score_request(obj)

    monkeypatch.setattr(scoring, "score_request", boom)
    r = client.post("/v1/score/batch", json={"hands": [MCR, {"rules": "mcr", "hand": "boom"}, MCR]})
    assert r.status_code == 200
    assert [x["ok"] for x in r.json()["results"]] == [True, False, True]
    assert r.json()["results"][1]["error"]["code"] == "internal_error"


def test_a_long_hand_is_refused_quickly(client):
    import time

    t0 = time.perf_counter()
    r = client.post("/v1/score", json={"rules": "mcr", "hand": "[123m]" * 150_000})
    assert error_of(r) == (422, "bad_request") and "at most 512" in r.json()["error"]["message"]
    assert time.perf_counter() - t0 < 1.0


def test_the_longest_real_hand_is_accepted(client):
    hand = "[1111m] [2222p] [3333s] (4444z) 5z +5z 1f 2f 3f 4f 5f 6f 7f 8f"
    r = client.post("/v1/score", json={"rules": "mcr", "hand": hand, "self_draw": True})
    assert r.json()["ok"] is True or r.json()["error"]["code"] != "bad_request"


# --- numbers -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("number", "shown"), [("9" * 5000, "inf"), ("9" * 4000, "a number of about 40"),
                                               ("18446744073709551616", "1.8446744073709552e+19"), ("1e400", "inf")],
                         ids=["5000_digits", "4000_digits", "2**64", "1e400"])
def test_a_number_too_large_for_any_field_is_422_naming_the_field(client, number, shown):
    body = '{"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "options": {"base_points": ' + number + "}}"
    r = client.post("/v1/score", content=body, headers={"content-type": "application/json"})
    assert error_of(r) == (422, "bad_request")
    assert r.json()["error"]["message"].startswith(
        f"'options.base_points' must be a whole number from 0 to 1000, not {shown}")


def test_nan_is_not_json(client):
    r = client.post("/v1/score", content=b'{"rules": "mcr", "hand": NaN}', headers={"content-type": "application/json"})
    assert error_of(r) == (400, "bad_request")


def test_a_result_beyond_64_bits_is_written(client):
    """Aotenjou has no limit: 92 han of bounded inputs make 32 digits of points, more than orjson writes."""
    req = {"rules": "riichi", "hand": "(1111z)(2222z)(3333z)(4444z)5z+5z", "self_draw": True,
           "options": {"aotenjou": True}, "riichi": {"riichi": True, "dora_indicators": "7z7z7z", "nuki_dora": 4}}
    r = client.post("/v1/score", json=req)
    assert r.status_code == 200 and r.json() == score_request(req) and r.json()["riichi"]["points"] > 2**64


@pytest.mark.parametrize("body", [
    pytest.param({"rules": "riichi", "hand": "234m456p34567s99s+8s", "discarder": "S", "options": {"aotenjou": True},
                  "riichi": {"riichi": True, "nuki_dora": 10**10}}, id="aotenjou_nuki_dora_1e10"),
    pytest.param({"rules": "guangdong", "hand": "19m19p19s1234567z+1m", "self_draw": True, "options": {"cap": 10**9}},
                 id="guangdong_cap_1e9_orphans"),
    pytest.param({"rules": "fuzhou", "hand": "13m456m789m456p789p99s+2m", "self_draw": True,
                  "fuzhou": {"gold": "2m", "dealer_streak": 10**7}}, id="fuzhou_streak_1e7"),
    pytest.param({"rules": "fuzhou", "hand": "13m456m789m456p789p99s+2m", "self_draw": True,
                  "guangdong": {"heavenly": True}}, id="guangdong_object_under_fuzhou"),
])
def test_the_hostile_requests_are_refused_at_once(client, body):
    r = client.post("/v1/score", json=body)
    assert error_of(r) == (422, "bad_request") and r.elapsed.total_seconds() < 1


def test_a_batch_of_a_thousand_hostile_hands_is_answered_in_place(client):
    hostile = {"rules": "riichi", "hand": "234m456p34567s99s+8s", "discarder": "S", "options": {"aotenjou": True},
               "riichi": {"riichi": True, "nuki_dora": 10**10}}
    r = client.post("/v1/score/batch", json={"hands": [hostile] * 1000})
    assert r.status_code == 200 and r.elapsed.total_seconds() < 5
    assert {x["error"]["code"] for x in r.json()["results"]} == {"bad_request"}


def test_a_result_below_the_minimum_shows_the_four_seats(client):
    r = client.post("/v1/score", json={"rules": "mcr", "hand": "234m456p34567s99s+8s", "discarder": "S",
                                       "options": {"minimum": 88}})
    assert r.json()["meets_minimum"] is False and r.json()["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
