"""POST /v1/recognize and /v1/score-photo: uploads, limits, types, EXIF, HEIC, concurrency, errors."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from bench.hostile import lying_jpeg, png_zeros
from tests.api.support import (
    BrokenDetector,
    FakeDetector,
    encode,
    error_of,
    jpeg,
    make_app,
    png_header_only,
)
from vision.errors import BadImageError, ImageTooLargeError

REQUEST = json.dumps({"rules": "mcr", "discarder": "S"})


def upload(data: bytes, name: str = "hand.jpg", mime: str = "image/jpeg") -> dict:
    return {"file": (name, data, mime)}


def check_recognition(rec: dict) -> None:
    assert set(rec) >= {"image", "detections", "hand", "layout"}
    assert set(rec["image"]) == {"width", "height"}
    for d in rec["detections"]:
        assert set(d) >= {"tile", "confidence", "box", "sideways"} and len(d["box"]) == 4


def test_recognize_answers_the_recognition_object(client, fake):
    r = client.post("/v1/recognize", files=upload(jpeg()))
    assert r.status_code == 200, r.text
    rec = r.json()
    check_recognition(rec)
    assert rec["image"] == {"width": 640, "height": 120}
    assert [d["tile"] for d in rec["detections"]] == fake.labels
    assert fake.calls == 1


def test_a_detections_alternatives_and_probabilities_are_answered_where_known() -> None:
    """The service answers what the command prints: a detection's alternatives, ``sideways_p`` and ``stands`` where
    the detector knows them, left out where it does not (before, the response model dropped all three)."""

    class Knowing(FakeDetector):
        def detect(self, image):
            out = super().detect(image)
            out[0] = replace(out[0], ranked=((out[0].label, 0.9), ("9p", 0.08)), sideways_p=0.02, stands=0.97)
            return out

    with TestClient(make_app(Knowing())) as c:
        r = c.post("/v1/recognize", files=upload(jpeg()))
    assert r.status_code == 200, r.text
    first, second = r.json()["detections"][:2]
    assert first["alternatives"] == [{"tile": "9p", "p": 0.08}] and first["sideways_p"] == 0.02
    assert first["stands"] == 0.97
    assert set(second) == {"tile", "confidence", "box", "sideways"}


def test_score_photo_answers_recognition_and_result(client):
    r = client.post("/v1/score-photo", files=upload(jpeg()), data={"request": REQUEST})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"recognition", "result"}
    check_recognition(body["recognition"])
    assert "ok" in body["result"]


@pytest.mark.parametrize(("fmt", "name"), [("PNG", "a.png"), ("WEBP", "a.webp"), ("HEIF", "a.heic")])
def test_png_webp_heic_are_read(client, fmt, name):
    r = client.post("/v1/recognize", files=upload(encode(fmt), name, "application/octet-stream"))
    assert r.status_code == 200, r.text
    assert r.json()["image"] == {"width": 640, "height": 120}


def test_the_type_comes_from_the_bytes_not_the_header(client):
    r = client.post("/v1/recognize", files=upload(encode("PNG"), "hand.jpg", "image/jpeg"))
    assert r.status_code == 200
    r = client.post("/v1/recognize", files=upload(b"GIF89a" + b"\x00" * 100, "hand.jpg", "image/jpeg"))
    assert error_of(r) == (415, "unsupported_media_type")


@pytest.mark.parametrize(
    "data",
    [b"hello, this is no photo", b"%PDF-1.4 ...", b"BM" + b"\x00" * 100, encode("GIF"), encode("BMP"), encode("TIFF")],
    ids=["text", "pdf", "bmp_junk", "gif", "bmp", "tiff"],
)
def test_other_types_get_415(client, data):
    assert error_of(client.post("/v1/recognize", files=upload(data))) == (415, "unsupported_media_type")


def test_exif_orientation_is_applied(client):
    r = client.post("/v1/recognize", files=upload(jpeg(640, 120, orientation=6)))
    assert r.status_code == 200
    assert r.json()["image"] == {"width": 120, "height": 640}


@pytest.mark.parametrize(
    "data",
    [b"", b"\xff\xd8\xff" + b"\x00" * 10, b"\x89PNG\r\n\x1a\n" + b"\x00" * 30, jpeg(4, 4)],
    ids=["empty", "jpeg_junk", "png_junk", "tiny"],
)
def test_unreadable_photos_get_400(client, data):
    assert error_of(client.post("/v1/recognize", files=upload(data))) == (400, "bad_image")


def test_a_truncated_jpeg_gets_400_not_500(client):
    data = jpeg(800, 600, quality=95)
    r = client.post("/v1/recognize", files=upload(data[: len(data) // 3]))
    assert error_of(r) == (400, "bad_image")


# --- limits ------------------------------------------------------------------------------------------------------


def test_upload_size_limit():
    data = jpeg()
    with TestClient(make_app(FakeDetector(), max_upload_bytes=len(data) - 1)) as c:
        assert error_of(c.post("/v1/recognize", files=upload(data))) == (413, "too_large")
        r = c.post("/v1/score-photo", files=upload(data), data={"request": REQUEST})
        assert error_of(r) == (413, "too_large")
    with TestClient(make_app(FakeDetector(), max_upload_bytes=len(data))) as c:
        assert c.post("/v1/recognize", files=upload(data)).status_code == 200


def test_a_body_far_over_the_limit_is_refused_before_reading():
    with TestClient(make_app(FakeDetector(), max_upload_bytes=1000)) as c:
        r = c.post("/v1/recognize", files=upload(b"\xff\xd8\xff" + b"\x00" * 1_200_000))
        assert error_of(r) == (413, "too_large")


def test_the_default_upload_limit_is_20_mb(client):
    assert client.app.state.settings.max_upload_bytes == 20_000_000


def test_pixel_limit_is_checked_before_decoding(fake):
    with TestClient(make_app(fake, max_pixels=640 * 120 - 1)) as c:
        assert error_of(c.post("/v1/recognize", files=upload(jpeg()))) == (413, "image_too_large")
    assert fake.calls == 0


@pytest.mark.parametrize("side", [20_000, 200_000], ids=["over_our_limit", "over_pillows_own_limit"])
def test_decompression_bomb_is_refused_from_its_header(client, fake, side):
    bomb = png_header_only(side, side)
    assert len(bomb) < 200
    assert error_of(client.post("/v1/recognize", files=upload(bomb, "bomb.png", "image/png"))) == (
        413, "image_too_large")
    assert fake.calls == 0


def test_a_16_bit_rgba_bomb_is_refused_by_its_decoded_size():
    """9999 x 9999 x 4 channels x 2 bytes = 800 MB to decode from a 777 kB PNG, within the 100 MP pixel limit;
    refused from the header in milliseconds, and the detector (and the photo slot) never sees it."""
    bomb = png_zeros(9999, 9999, depth=16, colour_type=6)
    assert len(bomb) < 1_000_000
    fake = FakeDetector()
    with TestClient(make_app(fake)) as c:
        r = c.post("/v1/recognize", files=upload(bomb, "bomb.png", "image/png"))
        assert error_of(r) == (413, "image_too_large")
        message = r.json()["error"]["message"]
        assert "799840008 bytes" in message and "4 channels of 16 bits" in message and "MJ_MAX_DECODE_BYTES" in message
        assert r.elapsed.total_seconds() < 2
    assert fake.calls == 0


@pytest.mark.parametrize(("depth", "colour_type", "limit", "refused"), [
    (8, 2, 3 * 100 * 50, False), (8, 2, 3 * 100 * 50 - 1, True), (8, 6, 3 * 100 * 50, True),
    (16, 2, 6 * 100 * 50, False), (16, 2, 6 * 100 * 50 - 1, True), (8, 0, 100 * 50, False),
])
def test_the_decode_budget_counts_channels_and_bit_depth(fake, depth, colour_type, limit, refused):
    with TestClient(make_app(fake, max_decode_bytes=limit)) as c:
        r = c.post("/v1/recognize", files=upload(png_zeros(100, 50, depth, colour_type), "a.png", "image/png"))
    assert (error_of(r) == (413, "image_too_large")) if refused else r.status_code == 200


def test_a_jpeg_whose_header_lies_about_its_size_is_bad_image(client, fake):
    """The header says 9000 x 11000 (99 MP, within the limits); the data holds 64 x 48. Not a grey photo with no
    tiles (200), but 400 bad_image."""
    r = client.post("/v1/recognize", files=upload(lying_jpeg(9000, 11000)))
    assert error_of(r) == (400, "bad_image")
    assert "9000x11000" in r.json()["error"]["message"]


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n" + b"\x00" * 30, b"\xff\xd8\xff" + b"\x00" * 10,
                                  b"RIFF\x00\x00\x00\x00WEBPVP8 " + b"\x00" * 20],
                         ids=["png", "jpeg", "webp"])
def test_error_messages_show_no_memory_address_or_path(client, data):
    message = client.post("/v1/recognize", files=upload(data)).json()["error"]["message"]
    assert "0x" not in message and "<" not in message and "/" not in message, message


def test_a_huge_number_in_the_request_part_is_422_naming_the_field(client, fake):
    part = '{"rules": "riichi", "riichi": {"honba": ' + "9" * 5000 + "}}"
    r = client.post("/v1/score-photo", files=upload(jpeg()), data={"request": part})
    assert error_of(r) == (422, "bad_request") and "'riichi.honba'" in r.json()["error"]["message"]
    assert fake.calls == 0


@pytest.mark.parametrize(("request_part", "field"), [
    ('{"rules": "mcr", "riichi": {"riichi": true}}', "'riichi.riichi' is a fact of the riichi rules"),
    ('{"rules": "guangdong", "options": {"cap": 1000000000}}', "'options.cap'"),
    ('{"rules": "mcr", "concealed_kongs": ["9p", "1p", "2p", "3p", "4p"]}', "'concealed_kongs'"),
])
def test_ranges_and_rule_sets_are_checked_before_the_photo(client, fake, request_part, field):
    r = client.post("/v1/score-photo", files=upload(jpeg()), data={"request": request_part})
    assert error_of(r) == (422, "bad_request") and field in r.json()["error"]["message"]
    assert fake.calls == 0


# --- parts -------------------------------------------------------------------------------------------------------


def test_missing_file_part_gets_422(client):
    assert error_of(client.post("/v1/recognize", data={"x": "1"})) == (422, "bad_request")
    assert error_of(client.post("/v1/score-photo", data={"request": REQUEST})) == (422, "bad_request")


def test_missing_request_part_gets_422(client):
    assert error_of(client.post("/v1/score-photo", files=upload(jpeg()))) == (422, "bad_request")


def test_json_instead_of_multipart_gets_422(client):
    assert error_of(client.post("/v1/recognize", json={"file": "x"})) == (422, "bad_request")


@pytest.mark.parametrize(
    ("request_part", "status", "code"),
    [
        ("{not json", 400, "bad_request"),
        ("[1]", 422, "bad_request"),
        ('{"rules": "mcr", "hand": 5}', 422, "bad_request"),
        ('{"rules": "chess"}', 422, "bad_request"),
        ('{"rules": "mcr", "colour": "red"}', 422, "bad_request"),
        ('{"rules": "mcr", "seat_wind": "Q"}', 422, "bad_request"),
        ('{"rules": "mcr", "self_draw": "yes"}', 422, "bad_request"),
    ],
)
def test_bad_request_part_is_refused_before_the_model_runs(client, fake, request_part, status, code):
    r = client.post("/v1/score-photo", files=upload(jpeg()), data={"request": request_part})
    assert error_of(r) == (status, code)
    assert fake.calls == 0


def test_a_hand_in_the_request_part_corrects_the_reading(client):
    req = json.dumps({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"})
    r = client.post("/v1/score-photo", files=upload(jpeg()), data={"request": req})
    assert r.status_code == 200
    assert r.json()["result"]["total"] == 11


def test_photo_only_fields_are_accepted(client):
    req = json.dumps({"rules": "mcr", "win_tile": "8s", "concealed_kongs": []})
    r = client.post("/v1/score-photo", files=upload(jpeg()), data={"request": req})
    assert r.status_code == 200, r.text


# --- no model, a broken model, busy --------------------------------------------------------------------------------


def test_photo_endpoints_answer_503_without_a_model(bare):
    r = bare.post("/v1/recognize", files=upload(jpeg()))
    assert error_of(r) == (503, "model_not_ready")
    assert r.headers["retry-after"]
    r = bare.post("/v1/score-photo", files=upload(jpeg()), data={"request": REQUEST})
    assert error_of(r) == (503, "model_not_ready")
    assert bare.post("/v1/score", json={"rules": "mcr", "hand": "[555z]123p789s456m5s+5s"}).status_code == 200


def test_missing_weights_at_start_up_leave_the_service_running(tmp_path):
    from api.config import Settings
    from api.main import create_app

    app = create_app(Settings(load_model=True, finder_weights=tmp_path / "none.pt",
                              classifier_weights=tmp_path / "none.onnx"))
    with TestClient(app) as c:
        assert c.get("/healthz").status_code == 200
        r = c.get("/readyz")
        assert r.status_code == 503 and r.json()["ready"] is False and "none.pt" in r.json()["detail"]
        assert error_of(c.post("/v1/recognize", files=upload(jpeg()))) == (503, "model_not_ready")


def test_a_failing_model_is_500_with_the_error_object():
    with TestClient(make_app(BrokenDetector()), raise_server_exceptions=False) as c:
        r = c.post("/v1/recognize", files=upload(jpeg()))
        assert error_of(r) == (500, "internal_error")
        assert r.headers["x-request-id"] in r.json()["error"]["message"]
        assert "Traceback" not in r.text and "fell over" not in r.text


class RefusingDetector:
    """A detector whose photo reader refuses the photo as ``error`` says."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def detect(self, image: object) -> list:
        raise self.error


@pytest.mark.parametrize(("error", "status", "code"), [
    (BadImageError("cannot read the image: broken"), 400, "bad_image"),
    (ImageTooLargeError("the image has more pixels than this reader decodes"), 413, "image_too_large"),
])
def test_a_photo_the_reader_refuses_is_its_typed_error(error: Exception, status: int, code: str) -> None:
    with TestClient(make_app(RefusingDetector(error)), raise_server_exceptions=False) as c:
        r = c.post("/v1/recognize", files=upload(jpeg()))
        assert error_of(r) == (status, code) and r.json()["error"]["message"] == str(error)


def test_excess_photos_wait_then_get_503_with_retry_after():
    slow = FakeDetector(delay=0.6)
    app = make_app(slow, max_concurrent_photos=1, photo_queue_seconds=0.1, retry_after_seconds=3)
    with TestClient(app) as c, ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: c.post("/v1/recognize", files=upload(jpeg())), range(4)))
    statuses = sorted(r.status_code for r in answers)
    assert statuses.count(200) >= 1 and 503 in statuses, statuses
    busy = [r for r in answers if r.status_code == 503]
    assert all(error_of(r) == (503, "busy") and r.headers["retry-after"] == "3" for r in busy)
    assert slow.peak == 1


def test_waiting_photos_get_their_turn():
    slow = FakeDetector(delay=0.1)
    app = make_app(slow, max_concurrent_photos=2, photo_queue_seconds=10)
    with TestClient(app) as c, ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: c.post("/v1/recognize", files=upload(jpeg())), range(6)))
    assert [r.status_code for r in answers] == [200] * 6
    assert slow.peak <= 2


def test_scoring_goes_on_while_a_photo_is_read():
    """The model runs off the event loop: /v1/score answers at once while a slow photo is in work."""
    import time

    slow = FakeDetector(delay=1.0)
    with TestClient(make_app(slow)) as c, ThreadPoolExecutor(1) as pool:
        photo = pool.submit(c.post, "/v1/recognize", files=upload(jpeg()))
        while slow.active == 0:
            time.sleep(0.01)
        t0 = time.perf_counter()
        r = c.post("/v1/score", json={"rules": "mcr", "hand": "[555z]123p789s456m5s+5s"})
        elapsed = time.perf_counter() - t0
        assert r.status_code == 200 and slow.active == 1
        assert elapsed < 0.5, elapsed
        assert photo.result().status_code == 200


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data; boundary=xyz", b"--xyz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc"),
        ("multipart/form-data", b"no boundary at all"),
        ("multipart/form-data; boundary=xyz", b"garbage"),
        ("application/x-www-form-urlencoded", b"file=abc"),
        ("text/plain", b"\x00\x01\x02"),
    ],
    ids=["unterminated", "no_boundary", "garbage", "urlencoded", "text"],
)
def test_malformed_multipart_is_an_error_object(client, fake, content_type, body):
    r = client.post("/v1/recognize", content=body, headers={"content-type": content_type})
    status, _ = error_of(r)
    assert 400 <= status < 500
    assert fake.calls == 0


@pytest.mark.parametrize("path", ["/v1/recognize", "/v1/score-photo"])
def test_two_photos_in_one_request_are_refused_not_one_dropped(client, fake, path):
    files = [("file", ("a.jpg", jpeg(), "image/jpeg")), ("file", ("b.jpg", jpeg(320, 240), "image/jpeg"))]
    r = client.post(path, files=files, data={"request": REQUEST})
    assert error_of(r) == (422, "bad_request") and fake.calls == 0
    assert r.json()["error"]["message"].startswith("the body holds 2 'file' parts; a request reads one photo")


def test_two_request_parts_are_refused(client, fake):
    r = client.post("/v1/score-photo", files=[("file", ("a.jpg", jpeg(), "image/jpeg")), ("request", (None, REQUEST)),
                                              ("request", (None, '{"rules": "riichi"}'))])
    assert error_of(r) == (422, "bad_request") and "2 'request' parts" in r.json()["error"]["message"]
    assert fake.calls == 0
