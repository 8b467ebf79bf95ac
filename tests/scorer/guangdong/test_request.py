"""The request path (``scorer.request.score_request``) and the ``mjscore`` command with ``--rules guangdong``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from api.cli import main, run_batch
from scorer.request import score_request


def test_request_object() -> None:
    answer = score_request({"rules": "guangdong", "hand": "[555z]123p789s456s5s+5s", "discarder": "S"})
    assert answer == {
        "ok": True,
        "rules": "guangdong",
        "total": 1,
        "fans": [{"id": "dragon_pung", "name": "Dragon Pung", "name_zh": "三元牌", "value": 1, "count": 1}],
        "meets_minimum": True,
        "payments": {"E": 2, "S": -2, "W": 0, "N": 0},
        "decomposition": ["[555z]", "123p", "456s", "789s", "5s5s"],
        "guangdong": {"points": 2, "uncapped": 1, "cap": 5},
    }


def test_request_options_and_liability_object() -> None:
    answer = score_request({
        "rules": "guangdong", "hand": "[123m][456m][789m][123p]9s+9s", "self_draw": True, "seat_wind": "S",
        "options": {"minimum": 1, "base": 5}, "guangdong": {"twelve_feeder": "W"},
    })
    # 平胡 1 + 自摸 1 = 2 fans; a share is 5 * 2**2 = 20; West pays all three: 60
    assert answer["total"] == 2
    assert answer["payments"] == {"E": 0, "S": 60, "W": -60, "N": 0}
    assert answer["guangdong"]["liable"] == "W"


@pytest.mark.parametrize(
    ("request_", "code", "words"),
    [
        ({"options": {"fan_cap": 6}}, "bad_request", "unknown option 'fan_cap'"),
        ({"options": {"cap": "5"}}, "bad_request", "'options.cap' must be a whole number from 1 to 20"),
        ({"options": {"cap": 0}}, "bad_request", "cap"),
        ({"guangdong": {"feeder": "W"}}, "bad_request", "unknown field 'guangdong.feeder'"),
        ({"guangdong": {"kong_feeder": "X"}}, "bad_request", "kong_feeder"),
        ({"guangdong": {"human": 1}}, "bad_request", "true or false"),
        ({"guangdong": "W"}, "bad_request", "must be an object"),
        ({"hand": "123m456p789s234s5s+4s"}, "not_winning", "not a winning hand"),
        ({"hand": "1133m5577p99s112z+2z"}, "not_winning", "not a winning hand"),  # seven pairs: no Guangdong win
        ({"hand": "123m456p789s234s+5s"}, "invalid_hand", "wrong tile count"),
    ],
)
def test_request_errors(request_: dict, code: str, words: str) -> None:
    answer = score_request({"rules": "guangdong", "hand": "[123m]456p789s234s5s+5s", **request_})
    assert answer["ok"] is False
    assert answer["error"]["code"] == code
    assert words in answer["error"]["message"]


def test_cli_score_json() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["score", "[111m][444m]999m22z33z+3z", "--rules", "guangdong", "--discarder", "N", "--json",
                     "--option", "discarder_pays_all=true"])
    answer = json.loads(out.getvalue())
    # 混碰 5: 2**5 = 32, 包三家: North pays 3 * 32 = 96
    assert code == 0
    assert (answer["total"], answer["payments"]) == (5, {"E": 96, "S": 0, "W": 0, "N": -96})


def test_cli_score_table() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        main(["score", "19m19p19s1234567z+1m", "--rules", "guangdong", "--self-draw"])
    text = out.getvalue()
    assert "十三幺" in text and "points: 512" in text


def test_cli_batch_subprocess() -> None:
    lines = [
        {"rules": "guangdong", "hand": "[123m]456p789s234s5s+5s", "self_draw": True},
        {"hand": "[555z][666z][777z]123m9m+9m", "discarder": "W"},
        {"hand": "not a hand"},
        {"hand": "[123m][456m][789m][123p]9s+9s", "self_draw": True, "seat_wind": "S",
         "guangdong": {"twelve_feeder": "W"}},
    ]
    stdin = "\n".join(json.dumps(x) for x in lines) + "\n"
    run = subprocess.run([sys.executable, "-m", "api.cli", "batch", "--rules", "guangdong"], input=stdin,
                         capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [True, True, False, True]
    assert answers[0]["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}  # 平胡 1 + 自摸 1: 4 each
    assert answers[1]["total"] == 9 and answers[1]["payments"] == {"E": 512, "S": 0, "W": -512, "N": 0}
    assert answers[2]["error"]["code"] == "bad_notation"
    assert answers[3]["payments"] == {"E": 0, "S": 12, "W": -12, "N": 0}


def test_run_batch_in_process() -> None:
    out = io.StringIO()
    failures = run_batch(io.StringIO('{"hand": "[111m][444p]999s222s5s+5s", "discarder": "S"}\n'), out, "guangdong")
    assert failures == 0 and json.loads(out.getvalue())["total"] == 3
