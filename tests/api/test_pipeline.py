"""The photo pipeline (api.pipeline) with fake detectors: recognition, scoring, and the photo-only request fields."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from api import pipeline
from scorer.request import score_request
from tests.api.support import FixedDetector, png, row
from vision.errors import BadImageError

HAND = row("123m456p789s2233z 3z")  # 13 concealed tiles and the winning tile set apart
HAND_TEXT = "123m456p789s2233z +3z"


# ---------------------------------------------------------------------------------------------- recognize ----
def test_recognize_gives_the_contract_object(tmp_path: Path) -> None:
    path = png(tmp_path)
    for image in (path, str(path), path.read_bytes(), Image.open(path)):
        rec = pipeline.recognize(image, FixedDetector(HAND))
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
    assert pipeline.image_size(p) == (480, 640)
    assert pipeline.recognize(p, FixedDetector(HAND))["image"] == {"width": 480, "height": 640}


@pytest.mark.parametrize("fmt", ["JPEG", "WEBP", "HEIF"])
def test_reads_jpeg_webp_heic(tmp_path: Path, fmt: str) -> None:
    if fmt == "HEIF":
        pytest.importorskip("pillow_heif")
    try:
        p = png(tmp_path, f"hand.{fmt.lower()}", fmt=fmt)
    except (KeyError, OSError, ValueError) as exc:
        pytest.skip(f"this Pillow cannot write {fmt}: {exc}")
    rec = pipeline.recognize(p, FixedDetector(HAND))
    assert rec["image"] == {"width": 900, "height": 500} and rec["hand"] == HAND_TEXT


# -------------------------------------------------------------------------------------------- score_photo ----
def test_score_photo_scores_the_reading(tmp_path: Path) -> None:
    request = {"rules": "mcr", "discarder": "S"}
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(HAND), request)
    assert set(answer) == {"recognition", "result"}
    assert answer["result"] == score_request({**request, "hand": HAND_TEXT})
    assert answer["result"]["ok"]


def test_melds_and_flowers_reach_the_scorer(tmp_path: Path) -> None:
    dets = row("123m789p5z 5z 4*56s 777*p 1f2f")
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr", "self_draw": True})
    rec = answer["recognition"]
    assert rec["hand"] == "[777p] [456s] 123m789p5z +5z 12f"
    assert [m["kind"] for m in rec["layout"]["melds"]] == ["pung", "chow"]
    assert answer["result"] == score_request({"rules": "mcr", "self_draw": True, "hand": rec["hand"]})


def test_no_tile_set_apart_scores_every_candidate(tmp_path: Path) -> None:
    dets = row("11123455678999m")  # nine gates shape: every tile wins, the totals differ
    request = {"rules": "mcr", "self_draw": True}
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), request)
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
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr", "self_draw": True})
    rec = answer["recognition"]
    assert rec["hand"] == "[777p] [456s] 123m789p5z +5z"
    assert rec["layout"]["renamed"] == [1]
    assert rec["detections"][1]["tile"] == "2m"
    assert rec["detections"][1]["alternatives"] == [{"tile": "3m", "p": 0.6}, {"tile": "1m", "p": 0.05}]
    assert rec["detections"][0]["alternatives"] == [{"tile": "9p", "p": 0.02}]
    assert answer["result"] == score_request({"rules": "mcr", "self_draw": True, "hand": rec["hand"]})


def test_illegal_hand_says_which_count_and_keeps_detections(tmp_path: Path) -> None:
    dets = row("123m456p789s112z 3z")  # one tile missing
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr"})
    rec, result = answer["recognition"], answer["result"]
    assert rec["hand"] is None and len(rec["detections"]) == 13
    assert result["ok"] is False and result["error"]["code"] == "invalid_hand"
    assert "13 tiles" in result["error"]["message"] and "missing" in result["error"]["message"]
    assert rec["layout"]["problem"]["count"] == 13


def test_four_backs_need_the_tile_from_the_request(tmp_path: Path) -> None:
    dets = row("123m456p789s7z 7z BBBB")
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr"})
    assert answer["result"]["error"]["code"] == "unknown_tile"
    assert any("four backs" in n for n in answer["recognition"]["layout"]["notes"])
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr", "concealed_kongs": ["9p"]})
    assert answer["recognition"]["hand"] == "(9999p) 123m456p789s7z +7z"
    assert answer["result"]["ok"]
    two = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr", "concealed_kongs": ["9p", "1m"]})
    assert two["result"]["error"] == {"code": "bad_request", "message": "'concealed_kongs' gives 2 tile(s), but the "
                                      "photo shows 1 concealed kong(s) of four backs: (????) 123m456p789s7z +7z"}


def test_a_hand_in_the_request_is_scored_instead(tmp_path: Path) -> None:
    dets = row("123m456p789s112z 3z")
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr", "hand": HAND_TEXT})
    assert answer["result"] == score_request({"rules": "mcr", "hand": HAND_TEXT})
    assert answer["recognition"]["layout"]["notes"][-1] == \
        "the hand given in the request was scored instead of the reading"
    both = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr", "hand": HAND_TEXT,
                                                                     "win_tile": "3z", "concealed_kongs": ["9p"]})
    assert both["result"] == answer["result"]
    assert both["recognition"]["layout"]["notes"][-1] == \
        "the hand given in the request was scored instead of the reading; its concealed_kongs and win_tile not used"


def test_bad_request_is_an_error_object(tmp_path: Path) -> None:
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(HAND), {"rules": "nope"})
    assert answer["result"]["ok"] is False and answer["result"]["error"]["code"] == "bad_request"
    assert answer["recognition"]["hand"] == HAND_TEXT


def test_scoring_returns_a_new_recognition_and_leaves_the_reading_as_it_was(tmp_path: Path) -> None:
    reading = pipeline.read_photo(png(tmp_path), FixedDetector(row("11123455678999m")))  # the winning tile is assumed
    before = json.loads(json.dumps(reading.recognition))
    scored = pipeline.score_reading(reading, {"rules": "mcr", "self_draw": True, "hand": None})
    assert reading.recognition == before and "alternatives" not in reading.recognition["layout"]
    assert scored.recognition["layout"]["alternatives"] and scored.score is not None
    assert scored.result == scored.score.to_dict()
    corrected = pipeline.score_reading(reading, {"rules": "mcr", "hand": HAND_TEXT})
    assert reading.recognition == before
    assert len(corrected.recognition["layout"]["notes"]) == len(before["layout"]["notes"]) + 1


@pytest.mark.parametrize(
    ("fields", "hand"),
    [
        pytest.param({"win_tile": "2z"}, "123m456p789s1123z +2z", id="win_tile"),
        pytest.param({"win_tile": ["2z"]}, "123m456p789s1123z +2z", id="win_tile_list"),
        pytest.param({"win_tile": "2 z"}, "123m456p789s1123z +2z", id="spaces_ignored"),
    ],
)
def test_photo_fields_are_notation(tmp_path: Path, fields: dict, hand: str) -> None:
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(row("123m456p789s11223z")), {"rules": "mcr", **fields})
    assert answer["recognition"]["hand"] == hand
    assert answer["result"] == score_request({"rules": "mcr", "hand": hand})


@pytest.mark.parametrize(
    ("fields", "code", "named"),
    [
        pytest.param({"win_tile": "2x"}, "bad_request", "'win_tile'", id="unknown_letter"),
        pytest.param({"win_tile": "1f"}, "bad_request", "'win_tile'", id="a_flower"),
        pytest.param({"win_tile": "2"}, "bad_request", "'win_tile'", id="no_suit"),
        pytest.param({"win_tile": 5}, "bad_request", "'win_tile'", id="not_a_string"),
        pytest.param({"win_tile": "9p"}, "bad_request", "'win_tile' 9p", id="not_among_the_tiles"),
        pytest.param({"concealed_kongs": ["9q"]}, "bad_request", "'concealed_kongs'", id="kong_unknown_letter"),
        pytest.param({"concealed_kongs": [9]}, "bad_request", "'concealed_kongs'", id="kong_not_a_string"),
        pytest.param({"concealed_kongs": ["9p"]}, "bad_request",
                     "'concealed_kongs' gives 1 tile(s), but the photo shows 0 concealed kong(s)", id="kong_not_shown"),
        pytest.param({"win_tile": "2z3z"}, "bad_request", "'win_tile' names one tile, not 2: 2z 3z", id="two_wins"),
        pytest.param({"win_tile": ["2z", "3z"]}, "bad_request", "'win_tile' names one tile", id="two_wins_listed"),
    ],
)
def test_bad_photo_fields_are_error_objects_naming_the_field(tmp_path: Path, fields: dict, code: str,
                                                             named: str) -> None:
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(row("123m456p789s11223z")), {"rules": "mcr", **fields})
    error = answer["result"]["error"]
    assert answer["result"]["ok"] is False and error["code"] == code and named in error["message"]


def test_a_corrupt_photo_is_a_bad_image_once_ultralytics_is_loaded(tmp_path: Path) -> None:
    import ultralytics.utils.patches  # noqa: F401  (replaces PIL's Image.open: on failure it wants a HEIF plugin)

    from api.deps import ApiError, check_photo

    broken = b"\xff\xd8\xff\xe0" + b"not really a JPEG" * 10
    (tmp_path / "notes.jpg").write_bytes(b"not a photo at all")
    for src in (broken, b"not a photo at all", tmp_path / "notes.jpg"):
        with pytest.raises(BadImageError, match="cannot read the image"):
            pipeline.image_size(src)
    with pytest.raises(ApiError) as err:
        check_photo(broken, 10**8)
    assert err.value.code == "bad_image"


# --------------------------------------------------------------------------------------- 16 + 1 tile hands ----
SIXTEEN = "123m456p123789s5566p 6p 1f2f"  # five sets and a pair with its winning tile, no honour: a Fuzhou hand


@pytest.mark.parametrize("rules", ["mcr", "riichi", "guangdong"])
def test_a_sixteen_tile_hand_names_the_rules_it_fits(tmp_path: Path, rules: str) -> None:
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(row(SIXTEEN)), {"rules": rules})
    assert answer["recognition"]["hand"] == "123m4555666p123789s +6p 12f"
    message = answer["result"]["error"]["message"]
    assert message.startswith("the photo shows 17 tiles (16 + 1, kongs counted as 3) beside the flowers 1f 2f; "
                              "it fits Fuzhou (rules fuzhou), not MCR, Riichi or Guangdong; ")
    assert "wrong tile count" in message  # the scorer's own words follow
    fuzhou = pipeline.score_photo(png(tmp_path), FixedDetector(row(SIXTEEN)), {"rules": "fuzhou"})
    assert fuzhou["result"]["ok"], fuzhou["result"]


def test_a_fuzhou_request_naming_its_gold_reads_the_photo_with_it(tmp_path: Path) -> None:
    """A 16 + 1 hand with its 2m read 3m (2m only its second name, at 0.25 beside 0.6): legal with any tiles, the
    reading stands when the gold is not known (it may stand in for a tile); with the gold named it is complete or not,
    and is renamed as a 14-tile hand is."""
    dets = row(SIXTEEN)
    dets[1] = replace(dets[1], label="3m", ranked=(("3m", 0.6), ("2m", 0.25)))
    unknown = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "fuzhou"})
    assert unknown["recognition"]["hand"] == "133m4555666p123789s +6p 12f" and not unknown["result"]["ok"]
    known = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "fuzhou", "fuzhou": {"gold": "9m"}})
    assert known["recognition"]["hand"] == "123m4555666p123789s +6p 12f", known["recognition"]["layout"]["notes"]
    assert known["result"]["ok"] and known["recognition"]["layout"]["renamed"] == [1], known["result"]
    # a reading the gold completes (the 3m standing in for the 2m) stands as read
    gold = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "fuzhou", "fuzhou": {"gold": "3m"}})
    assert gold["recognition"]["hand"] == "133m4555666p123789s +6p 12f" and gold["result"]["ok"], gold["result"]
    # a gold that names no numbered tile reads as before, and the scorer says what is wrong with it
    for wrong in ("x", "1z", ["3m"], 7):
        bad = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "fuzhou", "fuzhou": {"gold": wrong}})
        assert bad["recognition"]["hand"] == unknown["recognition"]["hand"] and not bad["result"]["ok"], wrong


def test_honours_in_a_fuzhou_hand_are_said_to_be_set_aside(tmp_path: Path) -> None:
    """Sixteen tiles and one with a pair of Easts: in Fuzhou the Easts are flowers, which leaves 15; no rule set
    here takes the hand, and the message says what was set aside and why."""
    dets = row("123m456p123789s11z55p 5p")
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "fuzhou"})
    message = answer["result"]["error"]["message"]
    assert message.startswith("the photo shows 17 tiles (16 + 1, kongs counted as 3); it fits none of MCR, Riichi, "
                              "Guangdong and Fuzhou; wrong tile count: 15 tiles where a hand holds 17")
    assert message.endswith("it has 15; in Fuzhou honours are flowers: 1z 1z set aside as flowers")  # said once
    mcr = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr"})["result"]["error"]["message"]
    assert "in Fuzhou honours are flowers: 1z 1z set aside as flowers leave 15; it fits none" in mcr


def test_a_fourteen_tile_hand_under_fuzhou_names_the_rules_it_fits(tmp_path: Path) -> None:
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(HAND), {"rules": "fuzhou"})
    message = answer["result"]["error"]["message"]
    assert "the photo shows 14 tiles (13 + 1" in message
    assert "in Fuzhou honours are flowers: 2z 2z 3z 3z 3z set aside as flowers leave 9" in message
    assert "an honour cannot be the winning tile" in message
    assert "it fits MCR, Riichi and Guangdong (rules mcr / riichi / guangdong), not Fuzhou" in message


def test_a_hand_that_fits_is_not_given_a_count_hint(tmp_path: Path) -> None:
    dets = row("123m456p789s11z22z 3z")  # 14 tiles, no complete hand: the scorer's own answer alone
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(dets), {"rules": "mcr"})
    assert answer["result"]["error"]["code"] == "not_winning"
    assert "the photo shows" not in answer["result"]["error"]["message"]


def test_generated_sixteen_tile_photos_name_their_rules(tmp_path: Path, art_dir: Path) -> None:
    """The generator's 16 + 1 hands (``--sixteen 1``), their true boxes as the detections: read whole, scored under
    Fuzhou where no honour is in the hand, and under MCR the error says the photo fits Fuzhou."""
    from bench.eval_layout import normal, true_detections
    from training import synth

    styles = synth.load_styles(art_dir, exclude=list(synth.HELD_OUT_STYLES))
    photo, checked = png(tmp_path), 0
    for index in range(40):
        _, _, side = synth.make_scene(synth.SceneSpec(index, 16, "val", 0.3, 0.4, sixteen=1.0), styles)
        if "z" in side["hand"] or any(g["kind"] == "concealed_kong" and all(g["backs"]) for g in side["groups"]):
            continue  # honours are flowers in Fuzhou; four backs hide a kong's tile
        fake = FixedDetector(true_detections(side))
        fuzhou = pipeline.score_photo(photo, fake, {"rules": "fuzhou", "self_draw": True})
        if normal(fuzhou["recognition"]["hand"]) != normal(side["hand"]):
            continue  # (a loose tile taken for the hand: the layout's own figure, not this test's)
        assert fuzhou["result"]["ok"], fuzhou["result"]
        mcr = pipeline.score_photo(photo, fake, {"rules": "mcr"})["result"]
        assert "it fits Fuzhou (rules fuzhou), not MCR, Riichi or Guangdong" in mcr["error"]["message"]
        checked += 1
    assert checked >= 8
