"""Hand validation: typed errors with stable codes, each saying what is wrong."""

from __future__ import annotations

import ast
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from scorer import (
    ContextError,
    Hand,
    InvalidHandError,
    Meld,
    MeldKind,
    NotWinningError,
    ScorerError,
    ScoreResult,
    WinContext,
    Wind,
    parse_hand,
    score,
)
from scorer.decompose import counts_of, decompose, divide, honors_and_knitted, is_thirteen_orphans, seven_pairs
from scorer.request import score_parsed, score_request
from scorer.riichi import RiichiContext


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("123m456p789s11z+1z", "wrong tile count: 12 tiles"),
        ("[123m]123m456p789s11z+1z", "wrong tile count: 15 tiles"),
        ("[1111m]1m23p456p789s1z+1z", "5 copies of 1m"),
        ("11112m456p789s11z+2m 1f1f", "2 copies of 1f"),
        ("[111m][111m]456p789s1z+1z", "6 copies of 1m"),
    ],
)
def test_invalid_hands(hand: str, words: str) -> None:
    with pytest.raises(InvalidHandError) as info:
        score(hand, "mcr")
    assert info.value.code == "invalid_hand" and words in str(info.value)


def test_fifth_copy_counts_the_winning_tile() -> None:
    with pytest.raises(InvalidHandError, match="5 copies of 9s"):
        parse_hand("[999s]9s123m456p78s11z+9s")


def test_not_winning() -> None:
    with pytest.raises(NotWinningError) as info:
        score("123m456p789s1357z+7z", "mcr")
    assert info.value.code == "not_winning" and "is not a winning hand" in str(info.value)


@pytest.mark.parametrize(
    ("request_fields", "words"),
    [
        ({"kong_replacement": True, "self_draw": True}, "needs a kong"),
        ({"kong_replacement": True}, "self-drawn win"),
        ({"robbing_kong": True, "self_draw": True}, "not a self-draw"),
        ({"self_draw": True, "discarder": "S"}, "no discarder"),
        ({"discarder": "E"}, "winner's own seat"),
        ({"robbing_kong": True, "hand": "[123m][345p][789s]66s11z+6s"}, "cannot also be in the hand"),
        ({"last_of_kind": True, "hand": "[123m][345p][789s]66s11z+6s"}, "not the last one"),
    ],
)
def test_conflicting_flags(request_fields: dict, words: str) -> None:
    hand = request_fields.pop("hand", "[123m][345p][789s]88s56p+7p")
    with pytest.raises(ContextError) as info:
        score(hand, "mcr", **request_fields)
    assert info.value.code == "bad_request" and words in str(info.value)


@pytest.mark.parametrize(
    ("obj", "code", "words"),
    [
        ({"rules": "mcr", "hand": "123m+"}, "bad_notation", "followed by one tile"),
        ({"rules": "mcr"}, "bad_request", "'hand' is required"),
        ({"rules": "nope", "hand": "1m+1m"}, "bad_request", "'rules' must be one of"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "seat": "E"}, "bad_request", "unknown field 'seat'"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "self_draw": "yes"}, "bad_request", "true or false"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "seat_wind": "X"}, "bad_request", "E, S, W, N"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": ["S"]}, "bad_request", "E, S, W, N"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "round_wind": {}}, "bad_request", "E, S, W, N"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "options": {"minimun": 8}}, "bad_request",
         "unknown option 'minimun'"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "options": {"melded_and_concealed_kong": "yes"}},
         "bad_request", "takes a bool"),
        ({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "flowers": "1f1z"}, "bad_notation", "not a flower"),
        ({"rules": "mcr", "hand": 12}, "bad_notation", "must be a string"),
        ([1, 2], "bad_request", "JSON object"),
        ({"rules": "mcr", "hand": "123m456p789s1357z+7z"}, "not_winning", "not a winning hand"),
    ],
)
def test_request_errors_are_error_objects(obj: object, code: str, words: str) -> None:
    answer = score_request(obj)
    assert answer["ok"] is False
    assert answer["error"]["code"] == code and words in answer["error"]["message"]


def test_every_error_is_a_scorer_error() -> None:
    for cls in (InvalidHandError, NotWinningError, ContextError):
        assert issubclass(cls, ScorerError) and issubclass(cls, ValueError)


def test_request_result_is_the_contract_object() -> None:
    answer = score_request({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S", "flowers": "1f"})
    assert answer["ok"] is True and answer["rules"] == "mcr"
    assert answer["total"] == 12 and answer["meets_minimum"] is True
    assert answer["payments"] == {"E": 8 + 12 + 16, "S": -20, "W": -8, "N": -8}
    assert sum(answer["payments"].values()) == 0
    assert answer["fans"][0] == {"id": "mixed_straight", "name": "Mixed Straight", "name_zh": "花龙", "value": 8,
                                 "count": 1}
    assert answer["decomposition"] == ["[555z]", "456m", "123p", "789s", "5s5s"]


@pytest.mark.parametrize("request_obj", [
    {"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S", "flowers": "1f"},
    {"rules": "mcr", "hand": "1112345678999m+5m", "self_draw": True},
    {"rules": "riichi", "hand": "234m456p34567s99s+8s", "riichi": {"riichi": True, "dora_indicators": "7s"}},
    {"rules": "guangdong", "hand": "[555z]123p789s456s5s+5s", "discarder": "N"},
    {"rules": "fuzhou", "hand": "123m456m789m123p45p+6p 99s 1z 3f", "self_draw": True, "fuzhou": {"gold": "9m"}},
], ids=lambda obj: obj["rules"])
def test_result_as_json_text_is_the_contract_object(request_obj: dict[str, Any]) -> None:
    result = score_parsed(request_obj)
    assert result.to_json() == json.dumps(result.to_dict(), ensure_ascii=False)


# --- decomposition ---------------------------------------------------------------------------------


def test_every_regular_reading() -> None:
    readings = {tuple(d.groups()) for d in decompose(parse_hand("1112223334445m+5m"))}
    assert readings == {
        ("111m", "222m", "333m", "444m", "5m5m"),
        ("123m", "123m", "123m", "444m", "5m5m"),
        ("234m", "234m", "234m", "111m", "5m5m"),
        ("234m", "345m", "345m", "111m", "2m2m"),
    }


def test_melds_stay_as_laid_down() -> None:
    (reading,) = decompose(parse_hand("[123m](5555z)456p789s1z+1z"))
    assert reading.groups() == ["[123m]", "(5555z)", "456p", "789s", "1z1z"]


def test_wild_tiles_fill_in() -> None:
    nine = counts_of([parse_hand("1m+9m").win_tile])
    ways = divide(nine, 1, 4)  # 9m and four wilds: one set and a pair
    assert (((MeldKind.CHOW, 6),), -1) in ways  # 789m with two wilds, and a pair of wilds
    assert (((MeldKind.PUNG, -1),), 8) in ways  # a set of wilds, and 9m with a wild as the pair
    gold = parse_hand("2m+2m").win_tile
    five = decompose(parse_hand("123m456p789s111z1m+9m"), sets=5, wilds=3, wild_tile=gold)
    assert five and all(len(d.sets) == 5 for d in five)


def test_special_shapes() -> None:
    assert seven_pairs(counts_of(parse_hand("1122334455667m+7m").all_tiles)) is not None
    assert seven_pairs(counts_of(parse_hand("1111223344556m+6m").all_tiles)) == (0, 0, 1, 2, 3, 4, 5)
    assert is_thirteen_orphans(counts_of(parse_hand("19m19p19s1234567z+1m").all_tiles))
    assert honors_and_knitted(counts_of(parse_hand("147m25p3s1234567z+6s").all_tiles)) == (True, False)
    assert honors_and_knitted(counts_of(parse_hand("147m258p369s1234z+5z").all_tiles)) == (False, True)
    assert honors_and_knitted(counts_of(parse_hand("148m25p3s1234567z+6s").all_tiles)) is None


@pytest.mark.parametrize("cls", [Meld, Hand, WinContext, ScoreResult, RiichiContext], ids=lambda c: c.__name__)
def test_written_out_constructors_take_the_fields(cls: type) -> None:
    # these frozen dataclasses write their __init__ out (mypyc compiles it); it must match their fields.
    # Read from the source, as a compiled class shows no signature.
    module = sys.modules[cls.__module__]
    source = Path(module.__file__ or "").parent / f"{cls.__module__.rsplit('.', 1)[-1]}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    (node,) = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
    (init,) = [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    fields = dataclasses.fields(cls)
    assert [a.arg for a in init.args.args][1:] == [f.name for f in fields]
    assert [ast.unparse(d) for d in init.args.defaults] == [
        f"Wind.{f.default.name}" if isinstance(f.default, Wind) else repr(f.default)
        for f in fields if f.default is not dataclasses.MISSING]
