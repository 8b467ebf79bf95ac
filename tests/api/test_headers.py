"""Security headers: nosniff and no framing everywhere; the annotation page under a strict Content Security Policy;
the docs pages' policy allows their own inline scripts by hash and nothing else inline but styles."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from fastapi.testclient import TestClient

from tests.api.support import make_app

SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


def _policy(headers) -> dict[str, str]:
    return {d.split(" ", 1)[0]: d.partition(" ")[2] for d in headers["content-security-policy"].split("; ")}


def _hashes(html: str) -> set[str]:
    return {f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in SCRIPT.findall(html)}


def _check_page(r) -> None:
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    policy = _policy(r.headers)
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert "unsafe-inline" not in policy["script-src"] and "unsafe-eval" not in policy["script-src"]
    assert _hashes(r.text) <= set(policy["script-src"].split())  # every inline script may run, by its hash
    assert policy["connect-src"] == "'self'"
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"


def test_the_annotation_page_has_the_strict_policy(client):
    """The policy the annotation page is written for and tested under in a browser (tests/browser/support.py)."""
    from tests.browser.support import CSP

    r = client.get("/static/annotate.html")
    assert r.headers["content-security-policy"] == CSP
    assert _policy(r.headers) == {"default-src": "'self'", "object-src": "'none'", "base-uri": "'none'",
                                  "frame-ancestors": "'none'"}
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
    assert not _hashes(r.text)  # no inline script: none could run


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_docs_pages_have_their_policy(client, path):
    _check_page(client.get(path))


def test_the_plain_docs_page_has_its_policy(monkeypatch):
    import api.main as main

    monkeypatch.setattr(main, "_offline_assets", lambda: None)
    with TestClient(make_app(None)) as c:
        _check_page(c.get("/docs"))


@pytest.mark.parametrize(("method", "path"), [("GET", "/healthz"), ("GET", "/v1/rules"), ("POST", "/v1/score"),
                                              ("GET", "/nowhere")])
def test_json_answers_may_not_be_sniffed_or_framed(client, method, path):
    r = client.request(method, path)
    assert r.headers["x-content-type-options"] == "nosniff"
    assert _policy(r.headers) == {"default-src": "'none'", "frame-ancestors": "'none'"}


def test_cors_stays_as_configured():
    with TestClient(make_app(None, cors_origins=["https://app.example"])) as c:
        r = c.options("/v1/score", headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                                            "Access-Control-Request-Headers": "content-type"})
        assert r.headers["access-control-allow-origin"] == "https://app.example"
        r = c.options("/v1/score", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in r.headers
