"""GET /v1/rules."""

from __future__ import annotations

import dataclasses

import scorer.mcr
from api.routes import rules as route


def test_rules_list_every_rule_set(client):
    r = client.get("/v1/rules")
    assert r.status_code == 200
    body = r.json()
    assert [s["rules"] for s in body["rule_sets"]] == ["mcr", "riichi", "guangdong", "fuzhou"]
    assert "hand" in body["request_fields"] and "rules" in body["request_fields"]


def test_mcr_fans_and_options_are_the_scorers(client):
    mcr = next(s for s in client.get("/v1/rules").json()["rule_sets"] if s["rules"] == "mcr")
    assert mcr["available"] and mcr["missing"] == []
    assert [(f["id"], f["name"], f["name_zh"], f["value"]) for f in mcr["fans"]] == [
        (p.id, p.name, p.name_zh, p.value) for p in scorer.mcr.PATTERNS]
    assert len(mcr["fans"]) >= 81
    assert {"id": "big_four_winds", "name_zh": "大四喜", "value": 88} .items() <= mcr["fans"][0].items()
    defaults = {f.name: f.default for f in dataclasses.fields(scorer.mcr.MCRConfig)}
    assert {o["name"]: o["default"] for o in mcr["options"]} == defaults
    minimum = next(o for o in mcr["options"] if o["name"] == "minimum")
    assert minimum["type"] == "int" and "fans a hand needs" in minimum["description"]


def test_every_rule_set_reports_fans_or_what_is_missing(client):
    for s in client.get("/v1/rules").json()["rule_sets"]:
        assert s["fans"] or s["missing"], s["rules"]
        for fan in s["fans"]:
            assert fan["id"] and isinstance(fan["name_zh"], str)


def test_a_missing_rule_set_is_reported_not_a_crash(monkeypatch):
    import importlib

    real = importlib.import_module

    def fake_import(name, *a, **k):
        if name == "scorer.fuzhou":
            raise ImportError("being written")
        return real(name, *a, **k)

    monkeypatch.setattr(route.importlib, "import_module", fake_import)
    out = route.rule_set("fuzhou")
    assert out["available"] is False and out["fans"] == [] and "scorer.fuzhou" in out["missing"][0]


def test_a_package_without_patterns_or_default_says_so(monkeypatch):
    import types

    monkeypatch.setattr(route.importlib, "import_module", lambda name: types.SimpleNamespace())
    out = route.rule_set("mcr")
    assert out["missing"] == ["score_request", "PATTERNS", "DEFAULT"]
