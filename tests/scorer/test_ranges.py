"""The ranges of a request's numbers (scorer.bounds): checked before any work, each error naming its field."""

from __future__ import annotations

import time

import pytest

from scorer.request import check_request, ranges, score_request

HANDS = {
    "mcr": "[555z]123p789s456m5s+5s",
    "riichi": "234m456p34567s99s+8s",
    "guangdong": "19m19p19s1234567z+1m",
    "fuzhou": "13m456m789m456p789p99s+2m",
}
EXTRA = {"riichi": {"riichi": {"riichi": True}}, "fuzhou": {"fuzhou": {"gold": "2m"}}}


def _request(where: str, name: str, value: object) -> dict:
    """A winning request of the rule set that owns ``where``, with ``where.name`` set to ``value``."""
    if where.startswith("options."):
        rules = where.split(".")[1]
        return {"rules": rules, "hand": HANDS[rules], "self_draw": True, **EXTRA.get(rules, {}),
                "options": {name: value}}
    base = EXTRA.get(where, {}).get(where, {})
    return {"rules": where, "hand": HANDS[where], "self_draw": True, where: {**base, name: value}}


CASES = [(where, name, b) for where, table in ranges().items() for name, b in table.items()]
IDS = [f"{where}.{name}" for where, name, _ in CASES]


def test_every_number_of_a_request_has_a_range():
    assert set(IDS) >= {
        "riichi.honba", "riichi.riichi_sticks", "riichi.paarenchan", "riichi.nuki_dora", "fuzhou.dealer_streak",
        "options.mcr.minimum", "options.mcr.base_points", "options.riichi.kazoe_limit", "options.guangdong.cap",
        "options.guangdong.minimum", "options.guangdong.base", "options.fuzhou.base", "options.fuzhou.golden_kan",
    }
    for _, _, b in CASES:
        assert b.low <= b.high < 10_000


@pytest.mark.parametrize(("where", "name", "bounds"), CASES, ids=IDS)
def test_out_of_range_is_bad_request_naming_the_field(where, name, bounds):
    field = f"'options.{name}'" if where.startswith("options.") else f"'{where}.{name}'"
    for value in (bounds.low - 1, bounds.high + 1, 10**30, 1.5, True, "3"):
        answer = score_request(_request(where, name, value))
        assert answer["ok"] is False and answer["error"]["code"] == "bad_request", (value, answer)
        message = answer["error"]["message"]
        assert message.startswith(f"{field} must be a whole number from {bounds.low} to {bounds.high}"), message


@pytest.mark.parametrize(("where", "name", "bounds"), CASES, ids=IDS)
def test_both_ends_of_a_range_pass_the_check(where, name, bounds):
    for value in (bounds.low, bounds.high, float(bounds.high)):  # 2.0 is the JSON number 2
        check_request(_request(where, name, value))  # raises on a refused value


def test_a_whole_float_is_its_integer():
    obj = {"rules": "riichi", "hand": HANDS["riichi"], "discarder": "S", "riichi": {"riichi": True, "honba": 2}}
    as_float = {**obj, "riichi": {"riichi": True, "honba": 2.0}, "options": {"kazoe_limit": 1.0}}
    assert score_request(as_float) == score_request({**obj, "options": {"kazoe_limit": 1}})
    assert score_request(as_float)["riichi"]["points"] == 2900 + 600


def test_a_huge_number_is_refused_at_once_and_named_shortly():
    obj = {"rules": "riichi", "hand": HANDS["riichi"], "discarder": "S", "options": {"aotenjou": True},
           "riichi": {"riichi": True, "nuki_dora": 10**5000}}
    t0 = time.perf_counter()
    answer = score_request(obj)
    assert time.perf_counter() - t0 < 0.5
    assert answer["error"]["message"] == "'riichi.nuki_dora' must be a whole number from 0 to 4, not a number of " \
                                         "about 5001 digits"


@pytest.mark.parametrize(
    ("obj", "field"),
    [
        pytest.param({"rules": "riichi", "hand": HANDS["riichi"], "discarder": "S", "options": {"aotenjou": True},
                      "riichi": {"riichi": True, "nuki_dora": 10**10}}, "riichi.nuki_dora", id="aotenjou_nuki_dora"),
        pytest.param({"rules": "guangdong", "hand": HANDS["guangdong"], "self_draw": True,
                      "options": {"cap": 10**9}}, "options.cap", id="guangdong_cap_orphans"),
        pytest.param({"rules": "mcr", "hand": HANDS["mcr"], "discarder": "S", "options": {"base_points": -8}},
                     "options.base_points", id="mcr_negative_base_points"),
        pytest.param({"rules": "mcr", "hand": HANDS["mcr"], "discarder": "S", "options": {"minimum": -1}},
                     "options.minimum", id="mcr_negative_minimum"),
        pytest.param({"rules": "fuzhou", "hand": HANDS["fuzhou"], "self_draw": True,
                      "fuzhou": {"gold": "2m", "dealer_streak": 10**7}}, "fuzhou.dealer_streak", id="fuzhou_streak"),
        pytest.param({"rules": "riichi", "hand": HANDS["riichi"], "discarder": "S", "riichi": {"honba": 10**4400}},
                     "riichi.honba", id="honba_of_4400_digits"),
    ],
)
def test_the_hostile_requests_of_issue_29(obj, field):
    answer = score_request(obj)
    assert answer["error"]["code"] == "bad_request"
    assert answer["error"]["message"].startswith(f"'{field}' must be a whole number")


FACTS = {"riichi": {"riichi": True}, "fuzhou": {"gold": "2m"}, "guangdong": {"heavenly": True}}


@pytest.mark.parametrize(
    ("rules", "section"),
    [("fuzhou", "guangdong"), ("guangdong", "fuzhou"), ("mcr", "riichi"), ("riichi", "fuzhou"),
     ("guangdong", "riichi"), ("mcr", "guangdong")],
)
def test_a_fact_in_another_rule_sets_object_is_bad_request(rules, section):
    """A Fuzhou hand with a guangdong object was scored as if it were not there; the fact is now refused."""
    answer = score_request({"rules": rules, "hand": HANDS[rules], "self_draw": True, section: FACTS[section]})
    assert answer["error"]["code"] == "bad_request"
    name, value = next(iter(FACTS[section].items()))
    assert answer["error"]["message"].startswith(f"'{section}.{name}' is a fact of the {section} rules, which "
                                                 f"{rules} does not read")


def test_the_contracts_request_template_is_still_accepted():
    """CONTRACT.md shows an mcr request with riichi and fuzhou objects at their defaults: it scores as without."""
    template = {
        "rules": "mcr", "hand": HANDS["mcr"], "self_draw": False, "seat_wind": "E", "round_wind": "E",
        "discarder": "S", "last_tile": False, "kong_replacement": False, "robbing_kong": False, "last_of_kind": False,
        "flowers": "",
        "riichi": {"riichi": False, "double_riichi": False, "ippatsu": False, "open_riichi": False,
                   "dora_indicators": "", "ura_indicators": "", "honba": 0, "riichi_sticks": 0,
                   "tenhou": False, "chiihou": False, "renhou": False, "nagashi_mangan": False},
        "fuzhou": {"gold": None, "dealer_streak": 0},
        "options": {},
    }
    assert score_request(template) == score_request({"rules": "mcr", "hand": HANDS["mcr"], "discarder": "S"})


@pytest.mark.parametrize("value", [{"honba": 0.5}, {"honba": False}, {"pao": "E"}, {"dora_indicators": " "},
                                   {"colour": 1}], ids=str)
def test_only_the_exact_defaults_pass_under_another_rule_set(value):
    answer = score_request({"rules": "mcr", "hand": HANDS["mcr"], "discarder": "S", "riichi": value})
    assert answer["error"]["code"] == "bad_request"


@pytest.mark.parametrize(
    "obj",
    [
        pytest.param({"rules": "mcr", "hand": "234m456p34567s99s+8s", "discarder": "S", "options": {"minimum": 88}},
                     id="mcr_below_minimum"),
        pytest.param({"rules": "mcr", "hand": HANDS["mcr"]}, id="mcr_discard_without_discarder"),
        pytest.param({"rules": "guangdong", "hand": HANDS["riichi"], "discarder": "S", "options": {"minimum": 20}},
                     id="guangdong_below_minimum"),
    ],
)
def test_payments_always_hold_the_four_seats(obj):
    answer = score_request(obj)
    assert answer["ok"] is True, answer
    assert answer["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert list(answer["payments"]) == ["E", "S", "W", "N"]


def test_payments_of_a_paying_hand_keep_their_order_and_sum():
    answer = score_request({"rules": "riichi", "hand": HANDS["riichi"], "discarder": "S", "riichi": {"riichi": True}})
    assert list(answer["payments"]) == ["E", "S", "W", "N"] and sum(answer["payments"].values()) == 0
