"""POST /v1/layout: the hand a set of boxes reads, and why none when it reads none."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from tests.api.datasets.support import HEIGHT, ROW, WIDTH, boxes
from tests.api.support import error_of, make_app

IMAGE = {"width": WIDTH, "height": HEIGHT}


def test_a_row_of_boxes_reads_its_hand(client):
    r = client.post("/v1/layout", json={"image": IMAGE, "detections": boxes()})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["hand"] == "234m456p3456799s +8s" and body["reason"] is None
    assert body["win"] == 13 and body["melds"] == [] and body["layout"]["win_detection"] == 13


def test_a_pung_with_a_sideways_tile_is_a_meld(client):
    tiles = ["5z", "5z", "5z", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9s", "9s"]
    dets = boxes(tiles, sideways=(0,))
    for d in dets[3:]:  # the concealed tiles a tile's width apart from the pung
        d["box"] = [d["box"][0] + 60, d["box"][1], d["box"][2] + 60, d["box"][3]]
    body = client.post("/v1/layout", json={"image": {"width": 800, "height": HEIGHT}, "detections": dets}).json()
    assert body["melds"] == [{"kind": "pung", "boxes": [0, 1, 2]}]
    assert body["hand"].startswith("[555z]")


@pytest.mark.parametrize(("dets", "reason"), [
    ([], "no tiles"),
    (boxes(ROW[:-1]), "1 tile(s) missing"),
])
def test_no_hand_says_why(client, dets, reason):
    body = client.post("/v1/layout", json={"image": IMAGE, "detections": dets}).json()
    assert body["hand"] is None and reason in body["reason"]


def test_the_winning_tile_can_be_named(client):
    body = client.post("/v1/layout", json={"image": IMAGE, "detections": boxes(), "win": 0}).json()
    assert body["win"] == 0 and body["hand"].endswith("+2m")


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"detections": boxes()}, 422, "bad_labels"),  # no image size
    ({"image": IMAGE, "detections": [{"tile": "1x", "box": [0, 0, 5, 5]}]}, 422, "bad_labels"),
    ({"image": IMAGE}, 422, "bad_labels"),
    ([], 422, "bad_labels"),
])
def test_bad_boxes(client, body, status, code):
    assert error_of(client.post("/v1/layout", json=body)) == (status, code)


def test_not_json(client):
    assert error_of(client.post("/v1/layout", content=b"{", headers={"Content-Type": "application/json"})) == (
        400, "bad_request")


def test_a_tile_that_is_an_object_is_bad_labels_not_500(client):
    body = {"image": {"width": 640, "height": 120}, "detections": [{"tile": {}, "box": [0, 0, 10, 10]}]}
    assert error_of(client.post("/v1/layout", json=body)) == (422, "bad_labels")


def test_a_recognitions_detections_read_as_it_read_them(client):
    """A recognition's detections posted as they come (``alternatives``, ``sideways_p`` and ``stands`` beside each
    box; before: "unknown field"), their ``stands`` read as the layout reads a photo's: a hand standing, its lone
    flower lying flat past its end, keeps the flower (without ``stands``, one flower alone does not tell)."""
    from tests.vision.support import HAND_TEXT, W, lay, shoot
    from vision.detection import Detection

    standing = shoot(lay("123m456p789s1122z", "3z", gaps=(0.8,)))
    left, foot = standing[0].box[0], standing[0].box[3]
    flower = Detection("8f", 0.9, (left - 1.8 * W, foot + 5.4, left - 0.5 * W, foot + 5.4 + 1.1 * W), False)
    image = {"width": 4000, "height": 3000}
    dets = [{"tile": d.label, "box": list(d.box), "sideways": d.sideways, "confidence": 0.9,
             "alternatives": [{"tile": "9p", "p": 0.02}], "sideways_p": 0.01, "stands": 0.97} for d in standing]
    dets.append({"tile": "8f", "box": list(flower.box), "sideways": False, "stands": 0.03})
    body = client.post("/v1/layout", json={"image": image, "detections": dets}).json()
    assert body["hand"] == f"{HAND_TEXT} 8f", body
    for d in dets:
        del d["stands"]
    assert client.post("/v1/layout", json={"image": image, "detections": dets}).json()["hand"] == HAND_TEXT
    dets[0]["stands"] = 1.5
    r = client.post("/v1/layout", json={"image": image, "detections": dets})
    assert error_of(r) == (422, "bad_labels") and "detections[0].stands" in r.json()["error"]["message"], r.text



def _slow_layout(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The layout stage made to take ``seconds`` (as 500 boxes piled up take, blocking its thread)."""
    import api.routes.layout

    read = api.routes.layout.read_layout

    def slow(boxes):  # noqa: ANN001, ANN202
        time.sleep(seconds)
        return read(boxes)

    monkeypatch.setattr(api.routes.layout, "read_layout", slow)


def test_a_slow_layout_leaves_the_other_requests_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_layout(monkeypatch, 1.5)
    with TestClient(make_app()) as c, ThreadPoolExecutor(1) as pool:
        slow = pool.submit(c.post, "/v1/layout", json={"image": IMAGE, "detections": boxes()})
        time.sleep(0.2)  # the layout in work
        t = time.perf_counter()
        assert c.get("/healthz").status_code == 200
        waited = time.perf_counter() - t
        assert not slow.done() and waited < 0.5, waited  # on the event loop it waited for the layout's 1.5 s
        assert slow.result().json()["hand"] == "234m456p3456799s +8s"


def test_a_layout_past_the_time_budget_is_503_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_layout(monkeypatch, 1.0)
    with TestClient(make_app(score_seconds=0.3)) as c:
        r = c.post("/v1/layout", json={"image": IMAGE, "detections": boxes()})
        assert error_of(r) == (503, "timeout") and r.headers["retry-after"]
