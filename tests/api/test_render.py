"""What a person reads (api.render): tile glyphs for every detector name, the summary and the score table."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from api import pipeline
from api.render import GLYPHS, describe, score_table, tile_row
from scorer import score
from tests.api.support import FixedDetector, png, row
from vision.names import NAMES


def test_every_detector_name_has_its_own_mahjong_glyph() -> None:
    assert list(GLYPHS) == list(NAMES)
    assert len(set(GLYPHS.values())) == len(NAMES)
    names = {t: unicodedata.name(g) for t, g in GLYPHS.items()}
    assert names["1m"] == "MAHJONG TILE ONE OF CHARACTERS" and names["9p"] == "MAHJONG TILE NINE OF CIRCLES"
    assert names["1s"] == "MAHJONG TILE ONE OF BAMBOOS" and names["4z"] == "MAHJONG TILE NORTH WIND"
    assert names["5z"] == "MAHJONG TILE WHITE DRAGON" and names["6z"] == "MAHJONG TILE GREEN DRAGON"
    assert names["7z"] == "MAHJONG TILE RED DRAGON" and names["1f"] == "MAHJONG TILE SPRING"
    assert names["5f"] == "MAHJONG TILE PLUM" and names["8f"] == "MAHJONG TILE BAMBOO"
    assert names["back"] == "MAHJONG TILE BACK"


def test_summary_shows_the_reading_its_tiles_and_the_other_winning_tiles(tmp_path: Path) -> None:
    photo = png(tmp_path)
    answer = pipeline.score_photo(photo, FixedDetector(row("11123455678999m")), {"rules": "mcr", "self_draw": True})
    rec = answer["recognition"]
    lines = describe(rec, "hand.png").splitlines()
    assert lines[0].startswith("photo: hand.png (900x500), 14 tile(s) found")
    assert lines[1].startswith(f"hand:  {rec['hand']}") and "assumed" in lines[1]
    assert lines[2] == f"tiles: {tile_row(rec)}"
    also = [line for line in lines if line.strip().startswith("also possible:")]
    assert len(also) == len(rec["layout"]["alternatives"]) > 0


def test_score_table_lists_every_fan_and_the_total() -> None:
    result = score("[555z]123p789s456m5s+5s", rules="mcr", discarder="S")
    table = score_table(result)
    assert all(fan.name in table and fan.name_zh in table for fan in result.fans)
    assert f"{result.total:>4}  total" in table and "minimum met: yes" in table


def test_the_picture_marks_the_tiles_the_problem_is_about(tmp_path: Path) -> None:
    """A photo whose tiles make no hand: the tiles the problem names are drawn in its colour, and the legend says so;
    the others keep their roles."""
    from PIL import Image

    from api.render import _COLOURS, annotate

    photo = png(tmp_path)
    rec = pipeline.recognize(photo, FixedDetector(row("11111m456p789s22z 3z")))  # a fifth 1m
    problem = rec["layout"]["problem"]
    assert problem["code"] == "fifth_copy" and problem["detections"] == [0, 1, 2, 3, 4]
    img = Image.open(annotate(photo, rec, tmp_path / "a.png")).convert("RGB")

    def edge(i: int) -> tuple[int, int, int]:
        x0, y0, _, y1 = rec["detections"][i]["box"]
        return img.getpixel((int(x0) + 1, int((y0 + y1) / 2)))

    assert [edge(i) for i in problem["detections"]] == [_COLOURS["problem"]] * 5
    assert edge(5) == _COLOURS["concealed"]
    swatches = {img.getpixel((9, y)) for y in range(img.size[1] - 120, img.size[1] - 4)}  # the legend's
    assert _COLOURS["problem"] in swatches and _COLOURS["concealed"] in swatches
