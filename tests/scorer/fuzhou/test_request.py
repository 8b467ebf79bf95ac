"""The request path (``scorer.request.score_request``) and ``mjscore score/batch --rules fuzhou``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from api.cli import main
from scorer.request import score_request

SPARROW = "456m789m456p789p12s2m2m+3s 1f2f"


def test_request_object() -> None:
    answer = score_request({"rules": "fuzhou", "hand": SPARROW + " 1z", "discarder": "S",
                            "fuzhou": {"gold": "2m", "dealer_streak": 0}})
    # 金雀 点炮: 花 3 (1f 2f and the loose East) + 金 2 + 连庄 0 + 5 + 60 = 70
    assert answer["ok"] and answer["total"] == 70
    assert [(f["id"], f["value"], f["count"]) for f in answer["fans"]] == [
        ("base", 5, 1), ("flowers", 1, 3), ("golds", 1, 2), ("golden_pair", 60, 1)]
    assert answer["payments"] == {"E": 70, "S": -70, "W": 0, "N": 0}
    assert answer["decomposition"] == ["456m", "789m", "456p", "789p", "123s", "2m2m"]
    assert answer["fuzhou"]["honour_flowers"] == "1z"


def test_request_flowers_field_and_options() -> None:
    answer = score_request({"rules": "fuzhou", "hand": "456m789m456p789p12s2m2m+3s", "flowers": "1f2f",
                            "self_draw": True, "fuzhou": {"gold": "2m", "dealer_streak": 1},
                            "options": {"base": 2}})
    # 金雀 自摸: (1 + 2 + 2 + 5) × 2 + 60 = 80 points; the dealer wins, each pays 80 × 底番 2 = 160
    assert answer["total"] == 80
    assert answer["payments"] == {"E": 480, "S": -160, "W": -160, "N": -160}


def test_request_without_fuzhou_object_has_no_gold() -> None:
    answer = score_request({"rules": "fuzhou", "hand": "123m456m789m123p45p99s+6p 1f2f", "discarder": "W"})
    assert answer["total"] == 7  # 2 + 5
    assert answer["fuzhou"]["gold"] is None


@pytest.mark.parametrize(
    ("fuzhou", "options", "words"),
    [
        ({"gold": "2m", "golds": 3}, {}, "unknown field 'fuzhou.golds'"),
        ({"gold": 2}, {}, "fuzhou.gold"),
        ({"gold": "2x"}, {}, "unexpected"),
        ({"dealer_streak": -1}, {}, "dealer_streak"),
        ({"robbing_gold": "yes"}, {}, "true or false"),
        ({}, {"golden_kan": "60"}, "'options.golden_kan' must be a whole number from 0 to 1000"),
        ({}, {"minimum": 8}, "unknown option 'minimum'"),
    ],
)
def test_request_errors(fuzhou: dict, options: dict, words: str) -> None:
    answer = score_request({"rules": "fuzhou", "hand": SPARROW, "discarder": "S", "fuzhou": fuzhou,
                            "options": options})
    assert answer["ok"] is False
    assert words in answer["error"]["message"]


def test_cli_score_with_gold() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["score", SPARROW, "--rules", "fuzhou", "--gold", "2m", "--dealer-streak", "2", "--self-draw",
                     "--seat", "S", "--json"])
    answer = json.loads(out.getvalue())
    # 金雀 自摸 by South, streak 2: total (2 + 2 + 2 + 5) × 2 + 60 = 82; the dealer pays 82,
    # West and North (2 + 2 + 5) × 2 + 60 = 78
    assert code == 0
    assert answer["total"] == 82
    assert answer["payments"] == {"E": -82, "S": 238, "W": -78, "N": -78}


def test_cli_batch_subprocess() -> None:
    lines = [
        {"rules": "fuzhou", "hand": "13m456m789m456p789p99s+2m 1f2f", "self_draw": True, "fuzhou": {"gold": "2m"}},
        {"hand": "147m147p147s258m25p2s2s+2s 1f2f", "self_draw": True, "fuzhou": {"gold": "2s"}},
        {"hand": "123m456m789m123p456p9s+9s", "discarder": "N", "options": {"golden_kan": 120}},
        {"hand": "456m789m456p789p123s2m+5s", "discarder": "S", "fuzhou": {"gold": "2m"}},
    ]
    stdin = "\n".join(json.dumps(x) for x in lines) + "\n"
    run = subprocess.run([sys.executable, "-m", "api.cli", "batch", "--rules", "fuzhou"], input=stdin,
                         capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [True, True, True, False]
    assert answers[0]["total"] == 76  # 金坎 (2 + 1 + 0 + 5) × 2 + 60
    assert answers[1]["total"] == 60  # 三金倒 (2 + 3 + 0 + 5) × 2 + 40
    assert answers[2]["total"] == 35  # 平和 点炮 0 + 0 + 0 + 5 + 30
    assert answers[2]["payments"] == {"E": 35, "S": 0, "W": 0, "N": -35}
    assert answers[3]["error"]["code"] == "not_winning"  # 闲金 on a discard
