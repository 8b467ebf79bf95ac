"""The photo pipeline (api.photo) and the commands ``mjscore PHOTO`` and ``mjscore detect``, with fake detectors;
and one end-to-end run with the shipped weights (skipped while models/ has none)."""

from __future__ import annotations

import io
import itertools
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from api import cli, photo
from scorer.request import score_request
from vision.detection import Detection
from vision.errors import BadImageError
from vision.image import load_image

ROOT = Path(__file__).resolve().parents[2]
W, H = 40.0, 54.0


def row(text: str, x: float = 100.0, y: float = 300.0, apart: tuple[int, ...] = ()) -> list[Detection]:
    """Upright tiles left to right from notation (``*`` after a digit: sideways; ``B``: a back); a space starts a
    new group 0.8 tile widths further on."""
    out = []
    for group in text.split(" "):
        digits: list[str] = []
        for ch in group:
            if ch == "B":
                out.append(Detection("back", 0.9, (x, y, x + W, y + H), False))
                x += W + 1
            elif ch.isdigit():
                digits.append(ch)
            elif ch == "*":
                digits[-1] += "*"
            else:
                for d in digits:
                    side = d.endswith("*")
                    w, h = (H, W) if side else (W, H)
                    top = y + (H - W) if side else y
                    out.append(Detection(d[0] + ch, 0.9, (x, top, x + w, top + h), side))
                    x += w + 1
                digits = []
        x += 0.8 * W
    return out


class Fake:
    """A detector that decodes the photo as the real one does, then answers fixed detections."""

    def __init__(self, dets: list[Detection]) -> None:
        self.dets = dets
        self.calls = 0

    def detect(self, image: object) -> list[Detection]:
        load_image(image, 512)  # type: ignore[arg-type]
        self.calls += 1
        return list(self.dets)


def png(tmp_path: Path, name: str = "hand.png", size: tuple[int, int] = (900, 500), fmt: str = "PNG") -> Path:
    p = tmp_path / name
    Image.new("RGB", size, (30, 110, 60)).save(p, format=fmt)
    return p


HAND = row("123m456p789s2233z 3z")  # 13 concealed tiles and the winning tile set apart
HAND_TEXT = "123m456p789s2233z +3z"


# ---------------------------------------------------------------------------------------------- recognize ----
def test_recognize_gives_the_contract_object(tmp_path: Path) -> None:
    path = png(tmp_path)
    for image in (path, str(path), path.read_bytes(), Image.open(path)):
        rec = photo.recognize(image, Fake(HAND))
        assert set(rec) == {"image", "detections", "hand", "layout"}
        assert rec["image"] == {"width": 900, "height": 500}
        assert rec["hand"] == HAND_TEXT
        assert {"rows", "melds", "win_tile_assumed", "notes"} <= set(rec["layout"])
        d = rec["detections"][0]
        assert set(d) == {"tile", "confidence", "box", "sideways"} and d["tile"] == "1m" and len(d["box"]) == 4
        json.dumps(rec)


def test_image_size_is_upright_after_exif(tmp_path: Path) -> None:
    img = Image.new("RGB", (640, 480), (200, 200, 200))
    exif = img.getexif()
    exif[0x0112] = 6  # rotate 90: the upright photo is 480 wide
    p = tmp_path / "turned.jpg"
    img.save(p, format="JPEG", exif=exif.tobytes())
    assert photo.image_size(p) == (480, 640)
    assert photo.recognize(p, Fake(HAND))["image"] == {"width": 480, "height": 640}


@pytest.mark.parametrize("fmt", ["JPEG", "WEBP", "HEIF"])
def test_reads_jpeg_webp_heic(tmp_path: Path, fmt: str) -> None:
    if fmt == "HEIF":
        pytest.importorskip("pillow_heif")
    try:
        p = png(tmp_path, f"hand.{fmt.lower()}", fmt=fmt)
    except (KeyError, OSError, ValueError) as exc:
        pytest.skip(f"this Pillow cannot write {fmt}: {exc}")
    rec = photo.recognize(p, Fake(HAND))
    assert rec["image"] == {"width": 900, "height": 500} and rec["hand"] == HAND_TEXT


# -------------------------------------------------------------------------------------------- score_photo ----
def test_score_photo_scores_the_reading(tmp_path: Path) -> None:
    request = {"rules": "mcr", "discarder": "S"}
    answer = photo.score_photo(png(tmp_path), Fake(HAND), request)
    assert set(answer) == {"recognition", "result"}
    assert answer["result"] == score_request({**request, "hand": HAND_TEXT})
    assert answer["result"]["ok"]


def test_melds_and_flowers_reach_the_scorer(tmp_path: Path) -> None:
    dets = row("123m789p5z 5z 4*56s 777*p 1f2f")
    answer = photo.score_photo(png(tmp_path), Fake(dets), {"rules": "mcr", "self_draw": True})
    rec = answer["recognition"]
    assert rec["hand"] == "[777p] [456s] 123m789p5z +5z 12f"
    assert [m["kind"] for m in rec["layout"]["melds"]] == ["pung", "chow"]
    assert answer["result"] == score_request({"rules": "mcr", "self_draw": True, "hand": rec["hand"]})


def test_no_tile_set_apart_scores_every_candidate(tmp_path: Path) -> None:
    dets = row("11123455678999m")  # nine gates shape: every tile wins, the totals differ
    request = {"rules": "mcr", "self_draw": True}
    answer = photo.score_photo(png(tmp_path), Fake(dets), request)
    lay = answer["recognition"]["layout"]
    assert lay["win_tile_assumed"] is True
    totals = {}
    for w in lay["win_candidates"]:
        tiles = list("11123455678999")
        tiles.remove(w[0])
        r = score_request({**request, "hand": "".join(tiles) + "m +" + w})
        totals[w] = r["total"] if r["ok"] else -1
    assert answer["result"]["ok"] and answer["result"]["total"] == max(totals.values())
    assert answer["recognition"]["hand"].endswith("+" + lay["win_tile"])
    assert totals[lay["win_tile"]] == max(totals.values())
    assert {a["win_tile"] for a in lay["alternatives"]} == set(totals) - {lay["win_tile"]}


def test_a_second_name_that_makes_the_hand_is_taken_and_shown(tmp_path: Path) -> None:
    dets = [replace(d, ranked=((d.label, 0.97), ("9p", 0.02))) for d in row("123m789p5z 5z 4*56s 777*p")]
    dets[1] = replace(dets[1], label="3m", ranked=(("3m", 0.6), ("2m", 0.35), ("1m", 0.05)))  # the 2m misread
    answer = photo.score_photo(png(tmp_path), Fake(dets), {"rules": "mcr", "self_draw": True})
    rec = answer["recognition"]
    assert rec["hand"] == "[777p] [456s] 123m789p5z +5z"
    assert rec["layout"]["renamed"] == [1]
    assert rec["detections"][1]["tile"] == "2m"
    assert rec["detections"][1]["alternatives"] == [{"tile": "3m", "p": 0.6}, {"tile": "1m", "p": 0.05}]
    assert rec["detections"][0]["alternatives"] == [{"tile": "9p", "p": 0.02}]
    assert answer["result"] == score_request({"rules": "mcr", "self_draw": True, "hand": rec["hand"]})


def test_named_winning_tile_is_used(tmp_path: Path) -> None:
    dets = row("123m456p789s11223z")
    answer = photo.score_photo(png(tmp_path), Fake(dets), {"rules": "mcr", "win_tile": "2z"})
    assert answer["recognition"]["hand"] == "123m456p789s1123z +2z"


def test_illegal_hand_says_which_count_and_keeps_detections(tmp_path: Path) -> None:
    dets = row("123m456p789s112z 3z")  # one tile missing
    answer = photo.score_photo(png(tmp_path), Fake(dets), {"rules": "mcr"})
    rec, result = answer["recognition"], answer["result"]
    assert rec["hand"] is None and len(rec["detections"]) == 13
    assert result["ok"] is False and result["error"]["code"] == "invalid_hand"
    assert "13 tiles" in result["error"]["message"] and "missing" in result["error"]["message"]
    assert rec["layout"]["problem"]["count"] == 13


def test_four_backs_need_the_tile_from_the_request(tmp_path: Path) -> None:
    dets = row("123m456p789s7z 7z BBBB")
    answer = photo.score_photo(png(tmp_path), Fake(dets), {"rules": "mcr"})
    assert answer["result"]["error"]["code"] == "unknown_tile"
    assert any("four backs" in n for n in answer["recognition"]["layout"]["notes"])
    answer = photo.score_photo(png(tmp_path), Fake(dets), {"rules": "mcr", "concealed_kongs": ["9p"]})
    assert answer["recognition"]["hand"] == "(9999p) 123m456p789s7z +7z"
    assert answer["result"]["ok"]


def test_a_hand_in_the_request_is_scored_instead(tmp_path: Path) -> None:
    dets = row("123m456p789s112z 3z")
    answer = photo.score_photo(png(tmp_path), Fake(dets), {"rules": "mcr", "hand": HAND_TEXT})
    assert answer["result"] == score_request({"rules": "mcr", "hand": HAND_TEXT})


def test_bad_request_is_an_error_object(tmp_path: Path) -> None:
    answer = photo.score_photo(png(tmp_path), Fake(HAND), {"rules": "nope"})
    assert answer["result"]["ok"] is False and answer["result"]["error"]["code"] == "bad_request"
    assert answer["recognition"]["hand"] == HAND_TEXT


# -------------------------------------------------------------------------------------------------- CLI ----
@pytest.fixture
def fake_cli(monkeypatch: pytest.MonkeyPatch) -> Fake:
    fake = Fake(HAND)
    monkeypatch.setattr(photo, "_default_detector", lambda: fake)
    return fake


def test_cli_photo_json(tmp_path: Path, fake_cli: Fake, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main([str(png(tmp_path)), "--rules", "mcr", "--discarder", "S", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["recognition"]["hand"] == HAND_TEXT
    assert out["result"] == score_request({"rules": "mcr", "hand": HAND_TEXT, "discarder": "S", "self_draw": False,
                                           "seat_wind": "E", "round_wind": "E", "flowers": ""})


def test_cli_photo_readable(tmp_path: Path, fake_cli: Fake, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main([str(png(tmp_path)), "--discarder", "W"])
    out = capsys.readouterr().out
    assert code == 0
    assert "hand:  123m456p789s2233z +3z" in out
    assert "\U0001F007\U0001F008\U0001F009" in out  # 1m 2m 3m as tiles
    assert "total" in out and "minimum met" in out and "payments" in out


def test_cli_annotated(tmp_path: Path, fake_cli: Fake, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.png"
    assert cli.main([str(png(tmp_path)), "--annotated", str(out)]) == 0
    img = Image.open(out)
    assert img.format == "PNG" and img.size == (900, 500)
    assert len(img.getcolors(maxcolors=100000) or ()) > 3  # something was drawn


def test_cli_detect_json(tmp_path: Path, fake_cli: Fake, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["detect", str(png(tmp_path)), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["hand"] == HAND_TEXT and len(rec["detections"]) == 14


def test_cli_unreadable_hand_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(photo, "_default_detector", lambda: Fake(row("123m456p789s112z 3z")))
    assert cli.main([str(png(tmp_path))]) == 1
    assert "missing" in capsys.readouterr().out


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo at all\n")
    good = io.BytesIO()
    Image.new("RGB", (800, 600), (120, 50, 50)).save(good, format="JPEG")
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(good.getvalue()[:400])
    folder = tmp_path / "folder.jpg"
    folder.mkdir()
    return {"empty": empty, "text": text, "truncated": truncated, "missing": tmp_path / "nope.jpg",
            "folder": folder}


@pytest.mark.parametrize("kind", ["empty", "text", "truncated", "missing", "folder"])
@pytest.mark.parametrize("command", [[], ["detect"]])
def test_bad_files_one_line_error(tmp_path: Path, fake_cli: Fake, capsys: pytest.CaptureFixture[str],
                                  kind: str, command: list[str]) -> None:
    path = _bad_files(tmp_path)[kind]
    assert cli.main([*command, str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("mjscore: bad_image: ") and "Traceback" not in err


def test_bad_file_json_error(tmp_path: Path, fake_cli: Fake, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(_bad_files(tmp_path)["text"]), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["error"]["code"] == "bad_image"


SHIPPED = ("tile_finder.onnx", "tile_classifier.onnx", "flower_reader.onnx", "character_reader.onnx")
WEIGHTS = [ROOT / "models" / f for f in SHIPPED]


def test_missing_weights_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.errors import ModelNotFoundError

    def no_model() -> None:
        raise ModelNotFoundError("model weights not found: models/tile_finder.onnx")

    monkeypatch.setattr(photo, "_default_detector", no_model)
    assert cli.main([str(png(tmp_path))]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscore: model_not_found: ") and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------- end to end ----
def _normal(hand: str | None) -> tuple | None:
    sys.path.insert(0, str(ROOT))
    from bench.eval_layout import normal

    return normal(hand)


def _fresh_scenes(synth: object, styles: list, seed: int = 2026) -> Iterator[tuple[int, bytes, str]]:
    """Phone photos (3 MP) of a seed no training run used, without loose tiles, made as ``synth.make_scene``
    makes its scenes; those whose hand a photo can show whole (no concealed kong of four backs, no red five)."""
    import math

    import cv2
    import numpy as np

    for index in range(200):
        rng = np.random.default_rng([seed, index])
        style = styles[int(rng.integers(len(styles)))]
        groups, hand = synth.random_hand(rng, style.has_flowers)  # type: ignore[attr-defined]
        if any(any(g.red) for g in groups) or any(g.kind == "concealed_kong" and all(g.backs) for g in groups):
            continue
        w = int(math.sqrt(3e6 * 4 / 3))
        img, _, _ = synth.render_scene(rng, style, groups, w, int(3e6 / w), distractors=False)  # type: ignore
        ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        yield index, buf.tobytes(), hand


@pytest.mark.skipif(not all(p.exists() for p in WEIGHTS),
                    reason=f"models/ lacks shipped weights ({', '.join(SHIPPED)})")
def test_end_to_end_generated_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Freshly generated photos through ``mjscore PHOTO --json`` with the shipped weights: a photo read whole gives
    the generator's hand and its score."""
    art = Path("/work/cache/art/faces")
    if not (art / "fluffy").exists() and not (art / "kd_default").exists():
        pytest.skip("no tile art to generate a photo with (datasets/fetch_art.py)")
    sys.path.insert(0, str(ROOT / "datasets"))
    import synth

    styles = synth.load_styles(art, exclude=list(synth.HELD_OUT_STYLES))
    # the detector names every tile of a whole photo right in about a third to a half of the photos (see
    # docs/photo.md), so the first of the fresh scenes it reads whole is scored; at most 8 are tried
    tried = []
    for index, jpg, hand in itertools.islice(_fresh_scenes(synth, styles), 8):
        path = tmp_path / f"fresh{index}.jpg"
        path.write_bytes(jpg)
        code = cli.main([str(path), "--rules", "mcr", "--self-draw", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert set(out) == {"recognition", "result"} and code in (0, 1)
        tried.append((index, hand, out["recognition"]["hand"]))
        if _normal(out["recognition"]["hand"]) != _normal(hand):
            continue
        expected = score_request({"rules": "mcr", "self_draw": True, "hand": hand})
        assert out["result"].get("total") == expected.get("total")
        assert out["result"] == score_request({"rules": "mcr", "self_draw": True, "hand": out["recognition"]["hand"],
                                               "seat_wind": "E", "round_wind": "E", "flowers": ""})
        assert code == (0 if expected["ok"] else 1)
        return
    raise AssertionError(f"no fresh photo read whole: {tried}")



def test_a_corrupt_photo_is_a_bad_image_once_ultralytics_is_loaded(tmp_path: Path) -> None:
    import ultralytics.utils.patches  # noqa: F401  (replaces PIL's Image.open: on failure it wants a HEIF plugin)

    from api.deps import ApiError, check_photo

    broken = b"\xff\xd8\xff\xe0" + b"not really a JPEG" * 10
    (tmp_path / "notes.jpg").write_bytes(b"not a photo at all")
    for src in (broken, b"not a photo at all", tmp_path / "notes.jpg"):
        with pytest.raises(BadImageError, match="cannot read the image"):
            photo.image_size(src)
    with pytest.raises(ApiError) as err:
        check_photo(broken, 10**8)
    assert err.value.code == "bad_image"
