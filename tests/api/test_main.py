"""The app as a whole: request ids, log lines, error objects everywhere, body limits, CORS, docs and OpenAPI."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.config import Settings, get_settings
from tests.api.support import error_of, make_app

MCR = {"rules": "mcr", "hand": "[555z]123p789s456m5s+5s"}


def test_each_answer_has_a_request_id(client):
    a = client.post("/v1/score", json=MCR).headers["x-request-id"]
    b = client.get("/healthz").headers["x-request-id"]
    assert a != b and len(a) == 32


def test_the_clients_request_id_is_echoed(client):
    assert client.get("/healthz", headers={"X-Request-ID": "app-42.abc"}).headers["x-request-id"] == "app-42.abc"


@pytest.mark.parametrize("bad", ["a b", "x" * 200, "<script>"])
def test_an_unsafe_request_id_is_replaced(client, bad):
    assert client.get("/healthz", headers={"X-Request-ID": bad}).headers["x-request-id"] != bad


def test_errors_carry_the_request_id_too(client):
    r = client.post("/v1/score", json={"rules": "mcr", "hand": "123m+"})
    assert r.status_code == 422 and r.headers["x-request-id"]


def test_one_json_log_line_per_request(client, caplog):
    with caplog.at_level(logging.INFO, logger="api.access"):
        r = client.post("/v1/score", json=MCR, headers={"X-Request-ID": "log-me"})
        client.post("/v1/score", json={"rules": "mcr", "hand": "123m+"})
    lines = [json.loads(rec.getMessage()) for rec in caplog.records if rec.name == "api.access"]
    assert len(lines) == 2
    first = lines[0]
    assert first["request_id"] == "log-me" == r.headers["x-request-id"]
    assert first["method"] == "POST" and first["path"] == "/v1/score" and first["status"] == 200
    assert first["ms"] >= 0 and first["bytes"] == len(r.content)
    assert lines[1]["status"] == 422


def test_the_access_log_can_be_turned_off(caplog):
    with TestClient(make_app(None, access_log=False)) as c, caplog.at_level(logging.INFO, logger="api.access"):
        c.get("/healthz")
    assert not [r for r in caplog.records if r.name == "api.access"]


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/nowhere", 404, "not_found"),
    ("GET", "/v1/score/batch", 405, "method_not_allowed"),
    ("DELETE", "/v1/rules", 405, "method_not_allowed"),
])
def test_http_errors_are_error_objects(client, method, path, status, code):
    assert error_of(client.request(method, path)) == (status, code)


def test_json_body_limit():
    with TestClient(make_app(None, max_json_bytes=200)) as c:
        assert c.post("/v1/score", json=MCR).status_code == 200
        big = {**MCR, "flowers": "1f" * 200}
        assert error_of(c.post("/v1/score", json=big)) == (413, "too_large")
        assert error_of(c.post("/v1/score/batch", json={"hands": [MCR] * 10})) == (413, "too_large")


def test_json_body_limit_without_content_length():
    """A chunked body (no Content-Length) is counted as it arrives."""
    def chunks():
        yield b'{"hands": ['
        for _ in range(50):
            yield json.dumps(MCR).encode() + b","
        yield json.dumps(MCR).encode() + b"]}"

    with TestClient(make_app(None, max_json_bytes=1000)) as c:
        r = c.post("/v1/score/batch", content=chunks(), headers={"content-type": "application/json"})
        assert error_of(r) == (413, "too_large")


def test_an_unexpected_error_is_500_with_the_error_object():
    async def boom() -> dict:
        raise RuntimeError("secret detail")

    app = make_app(None)
    app.add_api_route("/boom", boom)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/boom")
    assert error_of(r) == (500, "internal_error")
    assert "secret" not in r.text and "Traceback" not in r.text
    assert r.headers["x-request-id"] in r.json()["error"]["message"]


def test_cors_origins_from_settings():
    with TestClient(make_app(None, cors_origins=["https://app.example"])) as c:
        r = c.options("/v1/score", headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"})
        assert r.headers["access-control-allow-origin"] == "https://app.example"
        r = c.get("/healthz", headers={"Origin": "https://app.example"})
        assert "x-request-id" in r.headers["access-control-expose-headers"].lower()
        r = c.get("/healthz", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers


def test_no_cors_by_default(client):
    r = client.get("/healthz", headers={"Origin": "https://app.example"})
    assert "access-control-allow-origin" not in r.headers


# --- settings ----------------------------------------------------------------------------------------------------


def test_settings_come_from_mj_variables(monkeypatch):
    monkeypatch.setenv("MJ_MAX_UPLOAD_BYTES", "1234")
    monkeypatch.setenv("MJ_MAX_PIXELS", "99")
    monkeypatch.setenv("MJ_CORS_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("MJ_WORKERS", "4")
    monkeypatch.setenv("MJ_FINDER_WEIGHTS", "/tmp/x.pt")
    monkeypatch.setenv("MJ_MAX_CONCURRENT_PHOTOS", "3")
    monkeypatch.setenv("MAX_UPLOAD_BYTES", "1")  # no prefix: not ours
    s = Settings()
    assert s.max_upload_bytes == 1234 and s.max_pixels == 99 and s.workers == 4
    assert s.cors_origins == ["https://a.example", "https://b.example"]
    assert str(s.finder_weights) == "/tmp/x.pt" and s.max_concurrent_photos == 3
    monkeypatch.setenv("MJ_CORS_ORIGINS", '["https://c.example"]')
    assert Settings().cors_origins == ["https://c.example"]
    # the readers: one path (as before there were several), a list, or none (the classifier names tiles alone)
    assert [p.name for p in Settings().reader_weights] == ["character_reader.onnx", "flower_reader.onnx",
                                                           "mark_reader.onnx", "seat_reader.onnx"]
    for value, names in (("/m/f.onnx", ["f.onnx"]), ("/m/f.onnx, /m/c.onnx", ["f.onnx", "c.onnx"]), ("", [])):
        monkeypatch.setenv("MJ_READER_WEIGHTS", value)
        assert [p.name for p in Settings().reader_weights] == names
    # the networks that may be left out: shipped, another, or none (the set finder: the tile finder looks at every
    # photo; the soft and shaken photos' classifiers: the tile classifier names every photo)
    for env, setting, shipped, values in (
            ("MJ_SET_FINDER_WEIGHTS", "set_finder_weights", "set_finder.onnx", ("/m/s.onnx", "", " ")),
            ("MJ_CAPTION_WEIGHTS", "caption_weights", "caption_reader.onnx", ("/m/c.onnx", "")),
            ("MJ_SOFT_CLASSIFIER_WEIGHTS", "soft_classifier_weights", "soft_classifier.onnx", ("/m/s.onnx", "")),
            ("MJ_SHAKEN_CLASSIFIER_WEIGHTS", "shaken_classifier_weights", "shaken_classifier.onnx", ("/m/k.onnx", "")),
            ("MJ_FACE_WEIGHTS", "face_weights", "face_corners.onnx", ("/m/c.onnx", "")),
            ("MJ_ROW_FINDER_WEIGHTS", "row_finder_weights", "row_finder.onnx", ("/m/r.onnx", "")),
            ("MJ_REFINER_WEIGHTS", "refiner_weights", "face_refiner.onnx", ("/m/f.onnx", ""))):
        assert getattr(Settings(), setting).name == shipped
        for value in values:
            monkeypatch.setenv(env, value)
            assert getattr(Settings(), setting) == (Path(value) if value.strip() else None)


def test_settings_defaults(monkeypatch):
    for name in ("MJ_MAX_UPLOAD_BYTES", "MJ_MAX_PIXELS", "MJ_CORS_ORIGINS", "MJ_WORKERS"):
        monkeypatch.delenv(name, raising=False)
    s = Settings(_env_file=None)
    assert (s.max_upload_bytes, s.max_batch, s.cors_origins, s.workers) == (20_000_000, 1000, [], 1)


def test_get_settings_is_cached(monkeypatch):
    get_settings.cache_clear()
    try:
        assert get_settings() is get_settings()
    finally:
        get_settings.cache_clear()


def test_create_app_reads_the_environment(monkeypatch):
    from api.main import create_app

    get_settings.cache_clear()
    monkeypatch.setenv("MJ_LOAD_MODEL", "false")
    monkeypatch.setenv("MJ_MAX_BATCH", "2")
    try:
        with TestClient(create_app()) as c:
            r = c.post("/v1/score/batch", json={"hands": [MCR] * 3})
            assert error_of(r) == (422, "too_many_hands")
    finally:
        get_settings.cache_clear()


# --- docs and OpenAPI --------------------------------------------------------------------------------------------


def test_openapi_has_every_endpoint_with_examples(client):
    spec = client.get("/openapi.json").json()
    ops = {(m, p): op for p, item in spec["paths"].items() for m, op in item.items()}
    datasets = {(m, "/v1/datasets" + p) for m, p in (
        ("get", ""), ("post", ""), ("get", "/{dataset}"), ("patch", "/{dataset}"), ("delete", "/{dataset}"),
        ("get", "/{dataset}/log"), ("get", "/{dataset}/photos"),
        ("post", "/{dataset}/photos"), ("get", "/{dataset}/photos/{photo}"), ("put", "/{dataset}/photos/{photo}"),
        ("delete", "/{dataset}/photos/{photo}"), ("get", "/{dataset}/photos/{photo}/image"),
        ("get", "/{dataset}/photos/{photo}/versions"), ("post", "/{dataset}/photos/{photo}/prelabel"),
        ("get", "/{dataset}/export"), ("post", "/{dataset}/import"))}
    assert set(ops) == {("post", "/v1/score"), ("post", "/v1/score/batch"), ("post", "/v1/recognize"),
                        ("post", "/v1/score-photo"), ("get", "/v1/rules"), ("get", "/healthz"), ("get", "/readyz"),
                        ("post", "/v1/layout"), *datasets}
    files = {("get", "/v1/datasets/{dataset}/photos/{photo}/image"): "image/jpeg",
             ("get", "/v1/datasets/{dataset}/export"): "application/zip"}
    schemas = spec["components"]["schemas"]
    for (method, path), op in ops.items():
        assert op.get("summary") and op.get("description"), path
        success = min(s for s in op["responses"] if s.startswith("2"))
        if success == "204":  # no body
            continue
        if (method, path) in files:
            assert files[method, path] in op["responses"][success]["content"], path
            continue
        ok = op["responses"][success]["content"]["application/json"]
        has = "example" in ok or "examples" in ok
        ref = ok.get("schema", {}).get("$ref", "").rsplit("/", 1)[-1]
        has = has or bool(schemas.get(ref, {}).get("examples"))
        assert has, f"{method} {path} has no example answer"
        body = op.get("requestBody", {}).get("content", {})
        for mime, media in body.items():
            ref = media.get("schema", {}).get("$ref", "").rsplit("/", 1)[-1]
            if mime == "multipart/form-data":  # the photo is binary; each part is described, JSON parts exemplified
                props = media["schema"]["properties"]
                parts = [schemas[p["$ref"].rsplit("/", 1)[-1]] if "$ref" in p else p
                         for n, p in props.items() if n != "file"]
                assert props["file"].get("description") and all(part.get("description") for part in parts), path
                assert all(part.get("examples") for part in parts), path
            else:
                assert "examples" in media or schemas.get(ref, {}).get("examples"), f"{method} {path}"
    branches = [schemas[b["$ref"].rsplit("/", 1)[-1]] for b in schemas["ScoreRequest"]["oneOf"]]
    assert [b["properties"]["rules"]["const"] for b in branches] == ["mcr", "riichi", "guangdong", "fuzhou"]
    assert all(set(b["required"]) == {"rules", "hand"} and b["additionalProperties"] is False for b in branches)


def test_docs_page_is_served_without_a_cdn(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "cdn" not in page.text.lower() and "http://" not in page.text and "https://" not in page.text
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        if f"/docs-assets/{asset}" in page.text:
            assert client.get(f"/docs-assets/{asset}").status_code == 200
    redoc = client.get("/redoc")
    assert redoc.status_code == 200 and "fonts.googleapis" not in redoc.text and "cdn." not in redoc.text


def test_plain_docs_page_without_fastapi_offline(monkeypatch):
    import api.main as main

    monkeypatch.setattr(main, "_offline_assets", lambda: None)
    with TestClient(make_app(None)) as c:
        page = c.get("/docs").text
    assert "POST /v1/score" in page and "/v1/score-photo" in page and "单钓将" in page
    assert "<script" not in page


def test_annotation_page_is_served(client):
    assert client.get("/annotate", follow_redirects=False).headers["location"] == "/static/annotate.html"
    r = client.get("/static/annotate.html")
    assert r.status_code == 200 and 'src="annotate.js"' in r.text and 'href="annotate.css"' in r.text
    assert "<style" not in r.text and " style=" not in r.text and " on" + "click=" not in r.text  # a strict CSP
    for asset in ("annotate.html", "annotate.js", "annotate.css"):
        text = client.get(f"/static/{asset}").text
        assert "https://" not in text and "http://" not in text  # works offline
    assert "<script>" not in r.text and "eval(" not in client.get("/static/annotate.js").text


def test_the_schemas_ranges_are_the_scorers(client):
    """Each number's minimum and maximum in the OpenAPI document are the scorer's own (scorer.request.ranges)."""
    from scorer.request import ranges

    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    owner = {"riichi": "RiichiSection", "fuzhou": "FuzhouSection", "options.mcr": "MCROptions",
             "options.riichi": "RiichiOptions", "options.guangdong": "GuangdongOptions",
             "options.fuzhou": "FuzhouOptions"}
    for where, table in ranges().items():
        for name, bounds in table.items():
            field = schemas[owner[where]]["properties"][name]
            assert (field["minimum"], field["maximum"]) == (bounds.low, bounds.high), f"{where}.{name}"


def test_docs_list_the_scorers_ranges():
    """docs/api.md's table of ranges says what the scorer checks."""
    from scorer.request import ranges

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    rows = {}
    for field, rules, low, high in re.findall(r"^\| `([\w.]+)`(?: \((\w+)\))? \| (\d+) to (\d+) \|", text, re.M):
        where = f"options.{rules.lower()}.{field.split('.', 1)[1]}" if rules else field
        rows[where] = (int(low), int(high))
    expected = {f"{where}.{name}": (b.low, b.high) for where, table in ranges().items() for name, b in table.items()}
    assert rows == expected
