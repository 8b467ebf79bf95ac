"""The HTTP service accepts both rule sets (POST /v1/score, /v1/score/batch; GET /v1/rules lists them)."""

from __future__ import annotations

import pytest
from fastapi import testclient

from api import config as api_config
from api import main as api_main


@pytest.fixture(scope="module")
def client():
    app = api_main.create_app(api_config.Settings(load_model=False))  # no model needed to score notation
    with testclient.TestClient(app) as c:
        yield c


def test_score_guangdong(client) -> None:
    body = {"rules": "guangdong", "hand": "[123m][456m][789m][123p]9s+9s", "self_draw": True, "seat_wind": "S",
            "guangdong": {"twelve_feeder": "W"}, "options": {"minimum": 1}}
    answer = client.post("/v1/score", json=body).json()
    # 平胡 1 + 自摸 1 = 2 fans, a share 2**2 = 4; West pays all three: 12
    assert answer["ok"] and answer["total"] == 2
    assert answer["payments"] == {"E": 0, "S": 12, "W": -12, "N": 0}


def test_score_fuzhou(client) -> None:
    body = {"rules": "fuzhou", "hand": "456m789m456p789p12s2m2m+3s 1f2f", "discarder": "S",
            "fuzhou": {"gold": "2m", "dealer_streak": 0}}
    answer = client.post("/v1/score", json=body).json()
    assert answer["ok"] and answer["total"] == 69  # 金雀 点炮: 2 + 2 + 0 + 5 + 60


def test_batch_both(client) -> None:
    hands = [
        {"rules": "guangdong", "hand": "19m19p19s1234567z+1m", "self_draw": True},
        {"rules": "fuzhou", "hand": "147m147p147s258m25p2s2s+2s 1f2f", "self_draw": True, "fuzhou": {"gold": "2s"}},
        {"rules": "fuzhou", "hand": "456m789m456p789p123s2m+5s", "discarder": "S", "fuzhou": {"gold": "2m"}},
    ]
    answer = client.post("/v1/score/batch", json={"hands": hands}).json()
    results = answer["results"]
    assert [r["ok"] for r in results] == [True, True, False]
    assert results[0]["total"] == 9 and results[1]["total"] == 60
    assert results[2]["error"]["code"] == "not_winning"


def test_rules_listing(client) -> None:
    listing = {r["rules"]: r for r in client.get("/v1/rules").json()["rule_sets"]}
    for name in ("guangdong", "fuzhou"):
        assert listing[name]["available"] and not listing[name]["missing"]
    assert {o["name"] for o in listing["guangdong"]["options"]} >= {"cap", "minimum", "base", "discarder_pays_all"}
    assert {o["name"] for o in listing["fuzhou"]["options"]} >= {"golden_kan", "specials_add_on_special_win"}
