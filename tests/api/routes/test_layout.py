"""POST /v1/layout: the hand a set of boxes reads, and why none when it reads none."""

from __future__ import annotations

import pytest

from tests.api.datasets.support import HEIGHT, ROW, WIDTH, boxes
from tests.api.support import error_of

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
