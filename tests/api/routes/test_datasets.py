"""/v1/datasets: tokens, names in paths, uploads, saves (50 at once: one whole version wins), a disk that refuses
writes, export and import, all answered with the contract's error object."""

from __future__ import annotations

import asyncio
import errno
import io
import json
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.datasets import files
from tests.api.datasets.support import boxes, photo
from tests.api.support import FakeDetector, encode, error_of, jpeg, make_app

TOKEN = "a-long-enough-secret-for-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}", "X-Annotator": "alice"}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def api(data: Path, fake: FakeDetector) -> Any:
    with TestClient(make_app(fake, data_dir=data, annotate_token=TOKEN)) as c:
        assert c.post("/v1/datasets", json={"name": "set1"}, headers=AUTH).status_code == 201
        yield c


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One service for the tests that change nothing (names that are refused)."""
    data = tmp_path_factory.mktemp("shared") / "data"
    with TestClient(make_app(FakeDetector(), data_dir=data, annotate_token=TOKEN)) as c:
        assert c.post("/v1/datasets", json={"name": "set1"}, headers=AUTH).status_code == 201
        c.post("/v1/datasets/set1/photos", files={"file": ("a.jpg", jpeg(), "image/jpeg")}, headers=AUTH)
        yield c, data


def _upload(c: TestClient, data: bytes, name: str = "hand.jpg", headers: dict[str, str] = AUTH,
            **form: str) -> httpx.Response:
    return c.post("/v1/datasets/set1/photos", files={"file": (name, data, "image/jpeg")}, data=form, headers=headers)


def _disk(data: Path) -> dict[str, bytes]:
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}


# --- the token -----------------------------------------------------------------------------------------------


def test_with_no_token_set_the_datasets_are_off(data: Path):
    with TestClient(make_app(FakeDetector(), data_dir=data)) as c:
        for method, path in (("GET", "/v1/datasets"), ("POST", "/v1/datasets"), ("GET", "/v1/datasets/x/export"),
                             ("PUT", "/v1/datasets/x/photos/a.jpg"), ("PATCH", "/v1/datasets/x"),
                             ("DELETE", "/v1/datasets/x")):
            r = c.request(method, path, headers=AUTH, json={"name": "x"})
            assert error_of(r) == (403, "annotate_disabled") and "MJ_ANNOTATE_TOKEN" in r.json()["error"]["message"]
    assert not data.exists()


@pytest.mark.parametrize("header", [None, "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}",
                                    TOKEN, "Bearer "])
def test_a_missing_or_wrong_token_is_refused(api: TestClient, data: Path, header: str | None):
    headers = {"Authorization": header} if header is not None else {}
    before = _disk(data)
    for r in (api.get("/v1/datasets", headers=headers), api.get("/v1/datasets/set1/photos", headers=headers),
              _upload(api, jpeg(), headers=headers), api.post("/v1/datasets", json={"name": "b"}, headers=headers),
              api.patch("/v1/datasets/set1", json={"name": "b"}, headers=headers),
              api.delete("/v1/datasets/set1", headers=headers)):
        assert error_of(r) == (401, "unauthorized")
        assert r.headers["www-authenticate"].startswith("Bearer")
    assert _disk(data) == before


def test_a_wrong_method_names_every_method_of_the_path(shared: Any):
    r = shared[0].patch("/v1/datasets/set1/photos/a.jpg", headers=AUTH)
    assert error_of(r) == (405, "method_not_allowed") and r.headers["allow"] == "DELETE, GET, PUT"


def test_a_short_token_is_refused_at_start():
    with pytest.raises(ValueError, match="at least 16"):
        make_app(None, annotate_token="short")


def test_the_annotators_name_goes_to_the_log(api: TestClient):
    _upload(api, jpeg(), headers={**AUTH, "X-Annotator": "Zhang%20Wei%20%E5%BC%A0"})
    _upload(api, photo(2), name="b.jpg", headers={"Authorization": f"Bearer {TOKEN}"})
    log = api.get("/v1/datasets/set1/log", headers=AUTH).json()["log"]
    assert [(e["who"], e["action"]) for e in log] == [("annotator", "add_photo"), ("Zhang Wei 张", "add_photo"),
                                                      ("alice", "create_dataset")]


# --- names in paths ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [
    "/v1/datasets/..%2F..%2Fetc",
    "/v1/datasets/%2E%2E",
    "/v1/datasets/set1%00",
    "/v1/datasets/SET1",
    "/v1/datasets/%EF%BD%93et1",  # a full-width s
    "/v1/datasets/set1/photos/..%2Findex.sqlite3",
    "/v1/datasets/set1/photos/%2Fetc%2Fpasswd",
    "/v1/datasets/set1/photos/a.jpg%00.png",
    "/v1/datasets/set1/photos/%2E%2E",
    "/v1/datasets/set1/photos/a.jpg%2F..%2F..%2Findex.sqlite3/image",
])
def test_names_that_could_lead_out_are_refused(shared: Any, path: str):
    r = shared[0].get(path, headers=AUTH)
    status, code = error_of(r)
    assert (status, code) in ((400, "bad_name"), (404, "not_found"))


@pytest.mark.parametrize("name", ["../x", "/abs", "a\x00b", "Ａ", "x" * 64, 7, "."])
def test_a_bad_dataset_name_is_refused(shared: Any, name: Any):
    client, data = shared
    r = client.post("/v1/datasets", json={"name": name}, headers=AUTH)
    assert error_of(r) == (400, "bad_name")
    assert sorted(p.name for p in data.iterdir()) == ["index.sqlite3", "set1"]


def test_a_symlinked_photo_is_not_served(api: TestClient, data: Path, tmp_path: Path):
    rec = _upload(api, jpeg()).json()
    secret = tmp_path / "secret.jpg"
    secret.write_bytes(b"secret")
    image = data / "set1" / "images" / rec["photo"]
    image.unlink()
    image.symlink_to(secret)
    assert error_of(api.get(f"/v1/datasets/set1/photos/{rec['photo']}/image", headers=AUTH)) == (400, "bad_name")


# --- uploads -------------------------------------------------------------------------------------------------


def test_an_upload_is_stored_and_pre_labelled(api: TestClient, data: Path, fake: FakeDetector):
    r = _upload(api, jpeg(), name="../IMG 1.JPG", group="hand-1")
    assert r.status_code == 201, r.text
    rec = r.json()
    assert (rec["photo"], rec["version"], rec["status"], rec["group"]) == ("img-1.jpg", 1, "todo", "hand-1")
    assert [b["tile"] for b in rec["boxes"]] == fake.labels and rec["note"] == "pre-labelled: 14 tiles"
    assert rec["hand"] and rec["win"] == 13
    image = api.get("/v1/datasets/set1/photos/img-1.jpg/image", headers=AUTH)
    assert image.headers["content-type"] == "image/jpeg" and image.content == jpeg()
    assert "no-store" in image.headers["cache-control"]
    assert (data / "set1" / "labels" / "img-1.txt").read_text().count("\n") == 14
    assert api.get("/v1/datasets/set1/photos", headers=AUTH).json()["photos"][0]["boxes"] == 14


def test_an_upload_without_pre_labels(api: TestClient, fake: FakeDetector):
    rec = _upload(api, jpeg(), prelabel="false").json()
    assert rec["boxes"] == [] and fake.calls == 0


def test_an_upload_with_no_detector_is_kept_without_boxes(data: Path):
    with TestClient(make_app(None, data_dir=data, annotate_token=TOKEN)) as c:
        c.post("/v1/datasets", json={"name": "set1"}, headers=AUTH)
        rec = _upload(c, jpeg()).json()
    assert rec["boxes"] == [] and rec["note"].startswith("not pre-labelled")


def test_heic_and_turned_photos_are_stored_upright(api: TestClient):
    heic = _upload(api, encode("HEIF"), name="a.heic").json()
    assert heic["photo"] == "a.jpg" and heic["image"] == {"width": 640, "height": 120}
    turned = _upload(api, jpeg(orientation=6), name="b.jpg").json()
    assert turned["image"] == {"width": 120, "height": 640}
    assert turned["boxes"] == [] and "not pre-labelled" in turned["note"]  # the fake's row does not fit
    stored = api.get("/v1/datasets/set1/photos/b.jpg/image", headers=AUTH).content
    from PIL import Image

    img = Image.open(io.BytesIO(stored))
    assert img.size == (120, 640) and img.getexif().get(0x0112, 1) == 1


def test_bad_uploads_get_the_contracts_errors(data: Path):
    with TestClient(make_app(FakeDetector(), data_dir=data, annotate_token=TOKEN, max_upload_bytes=50_000)) as c:
        c.post("/v1/datasets", json={"name": "set1"}, headers=AUTH)
        assert error_of(_upload(c, b"GIF89a" + b"\x00" * 100)) == (415, "unsupported_media_type")
        assert error_of(_upload(c, b"")) == (400, "bad_image")
        assert error_of(_upload(c, b"\xff\xd8\xff" + b"\x00" * 100)) == (400, "bad_image")
        assert error_of(_upload(c, os.urandom(60_000))) == (413, "too_large")
        assert error_of(_upload(c, jpeg(), group="a b")) == (400, "bad_name")
        assert error_of(c.post("/v1/datasets/set1/photos", data={"group": "x"}, headers=AUTH)) == (422, "bad_request")
        assert error_of(c.post("/v1/datasets/set1/photos", content=b"{}", headers={
            **AUTH, "Content-Type": "application/json"})) == (422, "bad_request")
        assert error_of(c.post("/v1/datasets/nope/photos", files={"file": ("a.jpg", jpeg(), "image/jpeg")},
                               headers=AUTH)) == (404, "dataset_not_found")
        assert _upload(c, jpeg()).status_code == 201
        assert error_of(_upload(c, jpeg(), name="again.jpg")) == (409, "duplicate_photo")


def test_a_photo_upload_may_be_larger_than_a_json_body(data: Path):
    big = photo(1, size=(1600, 1200))
    with TestClient(make_app(FakeDetector(), data_dir=data, annotate_token=TOKEN, max_json_bytes=2000)) as c:
        c.post("/v1/datasets", json={"name": "set1"}, headers=AUTH)
        assert len(big) > 2000 and _upload(c, big).status_code == 201


# --- saving --------------------------------------------------------------------------------------------------


def test_save_reload_and_versions(api: TestClient):
    rec = _upload(api, jpeg()).json()
    edited = {**rec, "boxes": boxes(sideways=(3,)), "status": "labelled", "group": "h7"}
    edited["boxes"][0]["tile"] = "1m"
    r = api.put("/v1/datasets/set1/photos/hand.jpg", json=edited, headers=AUTH)  # a GET's answer, sent back
    assert r.status_code == 200, r.text
    saved = api.get("/v1/datasets/set1/photos/hand.jpg", headers=AUTH).json()
    assert saved["version"] == 2 and saved["saved_by"] == "alice" and saved["group"] == "h7"
    assert saved["boxes"][0]["tile"] == "1m" and saved["boxes"][3]["sideways"] is True
    history = api.get("/v1/datasets/set1/photos/hand.jpg/versions", headers=AUTH).json()["versions"]
    assert [(v["version"], v["saved_by"], v["boxes"][0]["tile"]) for v in history] == [(2, "alice", "1m"),
                                                                                       (1, "alice", "2m")]
    progress = api.get("/v1/datasets/set1", headers=AUTH).json()
    assert (progress["labelled"], progress["todo"], progress["tiles"]["1m"]) == (1, 0, 1)


def test_a_stale_save_gets_409_and_changes_nothing(api: TestClient, data: Path):
    rec = _upload(api, jpeg()).json()
    assert api.put("/v1/datasets/set1/photos/hand.jpg", json={**rec, "status": "labelled"},
                   headers=AUTH).status_code == 200
    before = _disk(data / "set1")
    r = api.put("/v1/datasets/set1/photos/hand.jpg", json={**rec, "status": "reviewed"},
                headers={**AUTH, "X-Annotator": "bob"})
    assert error_of(r) == (409, "version_conflict") and "reload" in r.json()["error"]["message"]
    assert _disk(data / "set1") == before


@pytest.mark.parametrize(("body", "message"), [
    ({"boxes": []}, "'version' must be"),
    ({"version": 1, "boxes": [{"tile": "9x", "box": [0, 0, 5, 5]}]}, r"boxes\[0\].tile"),
    ({"version": 1, "boxes": boxes(), "win": 99}, r"'win' must be the index of a box \(0 to 13\)"),
    ({"version": 1, "hand": "[555z]"}, "'hand'"),
    ({"version": 1, "extra": 1}, "unknown field 'extra'"),
    ([1, 2], "labels object"),
])
def test_bad_labels_are_named(api: TestClient, body: Any, message: str):
    _upload(api, jpeg())
    r = api.put("/v1/datasets/set1/photos/hand.jpg", json=body, headers=AUTH)
    assert error_of(r) == (422, "bad_labels")
    assert re.search(message, r.json()["error"]["message"])


def test_a_save_that_is_not_json(api: TestClient):
    _upload(api, jpeg())
    json_type = {**AUTH, "Content-Type": "application/json"}
    assert error_of(api.put("/v1/datasets/set1/photos/hand.jpg", content=b"{nope", headers=json_type)) == (
        400, "bad_request")
    r = api.put("/v1/datasets/set1/photos/hand.jpg", content=b"{}", headers={**AUTH, "Content-Type": "text/plain"})
    assert error_of(r) == (415, "unsupported_media_type")


def test_fifty_saves_at_once_one_whole_version_wins(data: Path, fake: FakeDetector):
    app = make_app(fake, data_dir=data, annotate_token=TOKEN, access_log=False)

    async def run() -> tuple[list[httpx.Response], dict[str, Any], list[dict[str, Any]]]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                await c.post("/v1/datasets", json={"name": "set1"}, headers=AUTH)
                added = await c.post("/v1/datasets/set1/photos", files={"file": ("a.jpg", jpeg(), "image/jpeg")},
                                     headers=AUTH)
                assert added.status_code == 201
                bodies = []
                for k in range(50):  # each a different whole version: its own tiles, flags, hand and status
                    tiles = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
                    tiles[k % 14] = "back"
                    bodies.append({"version": 1, "boxes": boxes(tiles, sideways=(k % 14,)), "status": "labelled",
                                   "group": f"g{k}", "win": 13, "melds": []})
                answers = await asyncio.gather(*[
                    c.put("/v1/datasets/set1/photos/a.jpg", json=b, headers={**AUTH, "X-Annotator": f"user{k}"})
                    for k, b in enumerate(bodies)])
                stored = (await c.get("/v1/datasets/set1/photos/a.jpg", headers=AUTH)).json()
                return list(answers), stored, bodies

    answers, stored, bodies = asyncio.run(run())
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * 49
    assert all(r.json()["error"]["code"] == "version_conflict" for r in answers if r.status_code == 409)
    k = next(i for i, r in enumerate(answers) if r.status_code == 200)
    winner = bodies[k]
    assert stored["version"] == 2 and stored["saved_by"] == f"user{k}"
    assert {f: stored[f] for f in ("boxes", "status", "group", "win", "melds")} == {
        f: winner[f] for f in ("boxes", "status", "group", "win", "melds")}
    meta = json.loads((data / "set1" / "meta" / "a.json").read_text())
    assert meta["boxes"] == winner["boxes"] and meta["group"] == f"g{k}" and meta["version"] == 2
    yolo = (data / "set1" / "labels" / "a.txt").read_text().splitlines()
    assert yolo[k % 14].startswith("42 ") and len(yolo) == 14
    assert sorted(p.name for p in (data / "set1" / "meta").iterdir()) == ["a.json"]  # no temporary file left


@pytest.mark.parametrize(("code", "status", "name"), [
    (errno.ENOSPC, 507, "storage_full"),
    (errno.EROFS, 503, "storage_unavailable"),
])
def test_a_disk_that_refuses_writes(api: TestClient, data: Path, monkeypatch: pytest.MonkeyPatch, code: int,
                                    status: int, name: str):
    rec = _upload(api, jpeg()).json()
    saved = api.put("/v1/datasets/set1/photos/hand.jpg", json={**rec, "status": "labelled"}, headers=AUTH).json()
    before = _disk(data)

    def refuse(fd: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.os, "fsync", refuse)
    r = api.put("/v1/datasets/set1/photos/hand.jpg", json={**saved, "status": "reviewed", "boxes": [], "win": None,
                                                           "melds": []}, headers=AUTH)
    assert error_of(r) == (status, name) and "nothing was changed" in r.json()["error"]["message"]
    assert error_of(_upload(api, photo(5), name="other.jpg")) == (status, name)
    monkeypatch.undo()
    assert _disk(data) == before
    assert api.get("/v1/datasets/set1/photos/hand.jpg", headers=AUTH).json() == saved


def test_delete_a_photo(api: TestClient, data: Path):
    _upload(api, jpeg())
    assert error_of(api.delete("/v1/datasets/set1/photos/hand.jpg?version=5", headers=AUTH)) == (409,
                                                                                                 "version_conflict")
    assert api.delete("/v1/datasets/set1/photos/hand.jpg?version=1", headers=AUTH).status_code == 204
    assert error_of(api.get("/v1/datasets/set1/photos/hand.jpg", headers=AUTH)) == (404, "photo_not_found")
    assert not (data / "set1" / "images" / "hand.jpg").exists()


def test_prelabel_suggests_without_saving(api: TestClient, fake: FakeDetector):
    _upload(api, jpeg(), prelabel="false")
    r = api.post("/v1/datasets/set1/photos/hand.jpg/prelabel", headers=AUTH)
    assert r.status_code == 200 and len(r.json()["boxes"]) == 14
    assert api.get("/v1/datasets/set1/photos/hand.jpg", headers=AUTH).json()["version"] == 1


# --- renaming and deleting a dataset ----------------------------------------------------------------------------


def _names(c: TestClient) -> list[str]:
    return [d["name"] for d in c.get("/v1/datasets", headers=AUTH).json()["datasets"]]


def test_rename_keeps_photos_versions_files_and_the_log(api: TestClient, data: Path):
    rec = _upload(api, jpeg()).json()
    api.put("/v1/datasets/set1/photos/hand.jpg", json={**rec, "status": "reviewed"}, headers=AUTH)
    saved = api.get("/v1/datasets/set1/photos/hand.jpg", headers=AUTH).json()
    files_before = _disk(data / "set1")
    r = api.patch("/v1/datasets/set1", json={"name": "hands"}, headers={**AUTH, "X-Annotator": "bob"})
    assert r.status_code == 200, r.text
    assert r.json() | {"tiles": None, "unshown": None} == {
        "name": "hands", "photos": 1, "todo": 0, "labelled": 0, "reviewed": 1, "groups": 1, "boxes": 14, "tiles": None,
        "unshown": None}
    assert _names(api) == ["hands"] and _disk(data / "hands") == files_before and not (data / "set1").exists()
    assert api.get("/v1/datasets/hands/photos/hand.jpg", headers=AUTH).json() == {**saved, "dataset": "hands"}
    versions = api.get("/v1/datasets/hands/photos/hand.jpg/versions", headers=AUTH).json()["versions"]
    assert [(v["version"], v["status"]) for v in versions] == [(2, "reviewed"), (1, "todo")]
    log = api.get("/v1/datasets/hands/log", headers=AUTH).json()["log"]
    assert [(e["who"], e["action"], e["detail"]) for e in log][:1] == [("bob", "rename_dataset", "from set1")]
    assert [e["action"] for e in log[1:]] == ["save", "add_photo", "create_dataset"]
    for r in (api.get("/v1/datasets/set1", headers=AUTH), api.put("/v1/datasets/set1/photos/hand.jpg", json=saved,
                                                                  headers=AUTH)):
        assert error_of(r) == (404, "dataset_not_found")


def test_rename_refusals_change_nothing(api: TestClient, data: Path):
    _upload(api, jpeg())
    api.post("/v1/datasets", json={"name": "other"}, headers=AUTH)
    before = _disk(data)
    json_type = {**AUTH, "Content-Type": "application/json"}
    for r, answer in (
        (api.patch("/v1/datasets/set1", json={"name": "other"}, headers=AUTH), (409, "dataset_exists")),
        (api.patch("/v1/datasets/set1", json={"name": "../x"}, headers=AUTH), (400, "bad_name")),
        (api.patch("/v1/datasets/set1", json={"name": 7}, headers=AUTH), (400, "bad_name")),
        (api.patch("/v1/datasets/SET1", json={"name": "x"}, headers=AUTH), (400, "bad_name")),
        (api.patch("/v1/datasets/nope", json={"name": "x"}, headers=AUTH), (404, "dataset_not_found")),
        (api.patch("/v1/datasets/set1", json={"new": "x"}, headers=AUTH), (422, "bad_request")),
        (api.patch("/v1/datasets/set1", json=["x"], headers=AUTH), (422, "bad_request")),
        (api.patch("/v1/datasets/set1", content=b"{nope", headers=json_type), (400, "bad_request")),
        (api.patch("/v1/datasets/set1", content=b"{}", headers={**AUTH, "Content-Type": "text/plain"}),
         (415, "unsupported_media_type")),
        (api.delete("/v1/datasets/nope", headers=AUTH), (404, "dataset_not_found")),
        (api.delete("/v1/datasets/Set1", headers=AUTH), (400, "bad_name")),
    ):
        assert error_of(r) == answer, r.text
    assert _disk(data) == before and _names(api) == ["other", "set1"]


def test_delete_sets_the_dataset_aside_and_frees_its_name(api: TestClient, data: Path):
    rec = _upload(api, jpeg()).json()
    api.put("/v1/datasets/set1/photos/hand.jpg", json={**rec, "status": "labelled"}, headers=AUTH)
    files_before = _disk(data / "set1")
    assert api.delete("/v1/datasets/set1", headers=AUTH).status_code == 204
    assert _names(api) == [] and not (data / "set1").exists()
    (kept,) = (data / ".deleted").iterdir()
    history = json.loads((kept / "history.json").read_text())
    moved = _disk(kept)
    assert kept.name.startswith("set1-") and moved == {**files_before, "history.json": moved["history.json"]}
    assert [(v["photo"], v["version"], v["labels"]["status"]) for v in history["versions"]] == [
        ("hand.jpg", 1, "todo"), ("hand.jpg", 2, "labelled")]
    assert history["deleted_by"] == "alice" and [p["name"] for p in history["photos"]] == ["hand.jpg"]
    assert error_of(api.get("/v1/datasets/set1/photos", headers=AUTH)) == (404, "dataset_not_found")
    assert api.post("/v1/datasets", json={"name": "set1"}, headers=AUTH).json()["photos"] == 0  # made again
    log = api.get("/v1/datasets/set1/log", headers=AUTH).json()["log"]
    assert [(e["action"], e["detail"]) for e in log] == [("create_dataset", ""),
                                                         ("delete_dataset", f"moved to .deleted/{kept.name}")]


@pytest.mark.parametrize(("code", "status", "name"), [
    (errno.ENOSPC, 507, "storage_full"),
    (errno.EROFS, 503, "storage_unavailable"),
])
def test_a_disk_that_refuses_to_rename_or_delete(api: TestClient, data: Path, monkeypatch: pytest.MonkeyPatch,
                                                 code: int, status: int, name: str):
    _upload(api, jpeg())
    before = _disk(data)

    def refuse(*args: Any) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.os, "rename", refuse)
    for r in (api.patch("/v1/datasets/set1", json={"name": "hands"}, headers=AUTH),
              api.delete("/v1/datasets/set1", headers=AUTH)):
        assert error_of(r) == (status, name) and "nothing was changed" in r.json()["error"]["message"]
    monkeypatch.undo()
    assert _disk(data) == before and _names(api) == ["set1"]
    assert not (data / ".deleted").exists()


def test_a_rename_among_saves_answers_each_whole(data: Path, fake: FakeDetector):
    app = make_app(fake, data_dir=data, annotate_token=TOKEN, access_log=False)
    n = 8

    async def run() -> tuple[list[httpx.Response], httpx.Response]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                await c.post("/v1/datasets", json={"name": "set1"}, headers=AUTH)
                for k in range(n):
                    added = await c.post("/v1/datasets/set1/photos", headers=AUTH, data={"prelabel": "false"},
                                         files={"file": (f"p{k}.jpg", photo(k), "image/jpeg")})
                    assert added.status_code == 201
                body = {"version": 1, "boxes": boxes(), "status": "labelled", "win": 13, "melds": []}

                async def save(k: int) -> httpx.Response:  # one every 5 ms, the rename among them
                    await asyncio.sleep(0.005 * k)
                    return await c.put(f"/v1/datasets/set1/photos/p{k}.jpg", json=body, headers=AUTH)

                async def rename() -> httpx.Response:
                    await asyncio.sleep(0.005 * n / 2)
                    return await c.patch("/v1/datasets/set1", json={"name": "hands"}, headers=AUTH)

                *answers, renamed = await asyncio.gather(*[save(k) for k in range(n)], rename())
                return answers, renamed

    answers, renamed = asyncio.run(run())
    assert renamed.status_code == 200, renamed.text
    assert all(r.status_code == 200 or error_of(r) == (404, "dataset_not_found") for r in answers)
    with TestClient(app) as c:
        assert _names(c) == ["hands"]
        stored = {p["photo"]: p["version"] for p in c.get("/v1/datasets/hands/photos", headers=AUTH).json()["photos"]}
        log = c.get("/v1/datasets/hands/log", headers=AUTH).json()["log"]
    assert stored == {f"p{k}.jpg": 2 if r.status_code == 200 else 1 for k, r in enumerate(answers)}
    assert sum(e["action"] == "save" for e in log) == sum(r.status_code == 200 for r in answers)
    for photo_name, version in stored.items():  # each sidecar is its photo's current version
        meta = json.loads((data / "hands" / "meta" / photo_name.replace(".jpg", ".json")).read_text())
        assert meta["version"] == version
    assert sorted(p.name for p in data.iterdir()) == ["hands", "index.sqlite3"]
    assert not [p for p in (data / "hands").rglob(".*")]  # no temporary file left


# --- export and import ---------------------------------------------------------------------------------------


def test_export_then_import_into_a_new_dataset(api: TestClient):
    rec = _upload(api, jpeg()).json()
    assert error_of(api.get("/v1/datasets/set1/export", headers=AUTH)) == (422, "empty_export")
    api.put("/v1/datasets/set1/photos/hand.jpg", json={**rec, "status": "reviewed", "boxes": boxes(sideways=(2,))},
            headers=AUTH)
    r = api.get("/v1/datasets/set1/export", headers=AUTH)
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert 'filename="set1.zip"' in r.headers["content-disposition"]
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert {"set1/data.yaml", "set1/manifest.json", "set1/images/train/hand.jpg",
                "set1/labels/val/hand.txt", "set1/meta/val/hand.json"} <= set(zf.namelist())
    imported = api.post("/v1/datasets/copy/import", files={"file": ("set1.zip", r.content, "application/zip")},
                        headers=AUTH)
    assert imported.status_code == 201, imported.text
    assert imported.json() | {"photos": None} == {"dataset": "copy", "format": "mjscore", "added": 1,
                                                   "duplicates": 0, "skipped": [], "photos": None,
                                                   "ignored_classes": [], "created": True}
    copy = api.get("/v1/datasets/copy/photos/hand.jpg", headers=AUTH).json()
    assert copy["boxes"][2]["sideways"] is True and copy["status"] == "reviewed"
    actions = [e["action"] for e in api.get("/v1/datasets/set1/log", headers=AUTH).json()["log"]]
    assert actions[0] == "export"


def test_bad_imports(api: TestClient):
    def post(content: bytes) -> httpx.Response:
        return api.post("/v1/datasets/set1/import", files={"file": ("x.zip", content, "application/zip")},
                        headers=AUTH)

    assert error_of(post(b"not a zip")) == (422, "bad_archive")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("classes.txt", "1m\nplum blossom\n")
        zf.writestr("images/a.jpg", jpeg())
        zf.writestr("labels/a.txt", "1 0.5 0.5 0.1 0.1\n")
    r = post(buf.getvalue())
    assert error_of(r) == (422, "unknown_classes") and "'plum blossom'" in r.json()["error"]["message"]
    r = api.post("/v1/datasets/new-one/import", files={"file": ("x.zip", buf.getvalue(), "application/zip")},
                 headers=AUTH)
    assert error_of(r) == (422, "unknown_classes")
    assert "new-one" not in [d["name"] for d in api.get("/v1/datasets", headers=AUTH).json()["datasets"]]
