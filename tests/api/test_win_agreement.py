"""When the photo sets no tile apart, the winning tile taken is the candidate that scores best, and every field
names it: the scored hand, ``layout.win_tile``, ``layout.reading``, ``layout.concealed``, ``win_detection``, the
note, the CLI's ``hand:`` line and the red box of the annotated picture, through the pipeline, the CLI and HTTP."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api import pipeline
from api.cli import main
from api.render import _COLOURS, annotate
from scorer.request import score_request
from tests.api.support import FixedDetector, make_app, png, row

# nine gates: every tile wins, with different totals; the last tile in reading order (9m) is not the best
NINE_GATES = row("11123455678999m")
REQUEST = {"rules": "mcr", "self_draw": True}


def check_agreement(rec: dict[str, Any]) -> str:
    """Every field of a scored recognition names the same winning tile; returns it."""
    lay = rec["layout"]
    win = lay["win_tile"]
    assert rec["hand"].endswith("+" + win)
    assert re.search(rf"\+{win}\b", lay["reading"])
    assert rec["detections"][lay["win_detection"]]["tile"] == win
    assert lay["win_detection"] not in lay["concealed_detections"]
    assert [rec["detections"][i]["tile"] for i in lay["concealed_detections"]] == lay["concealed"]
    assert sorted([*lay["concealed"], win]) == sorted(d["tile"] for d in rec["detections"])
    said = [n for n in lay["notes"] if "assumed" in n]
    assert len(said) == 1 and f"; {win} assumed" in said[0], lay["notes"]
    assert all(a["win_tile"] != win for a in lay["alternatives"])
    return str(win)


def best_candidate() -> str:
    """The candidate with the highest total, scored one by one here."""
    totals = {}
    for w in "123456789":
        tiles = list("11123455678999")
        tiles.remove(w)
        r = score_request({**REQUEST, "hand": "".join(tiles) + "m+" + w + "m"})
        totals[w + "m"] = r["total"]
    return max(totals, key=lambda w: totals[w])


def test_the_pipeline_names_the_best_candidate_everywhere(tmp_path: Path) -> None:
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(NINE_GATES), REQUEST)
    win = check_agreement(answer["recognition"])
    assert win == best_candidate() != "9m"
    assert answer["result"] == score_request({**REQUEST, "hand": answer["recognition"]["hand"]})
    assert "the candidate that scores best" in " ".join(answer["recognition"]["layout"]["notes"])


def test_the_reading_alone_assumes_the_last_tile_consistently(tmp_path: Path) -> None:
    """Before scoring (``mjscore detect``, ``/v1/recognize``) the last tile is assumed, and the fields agree too."""
    rec = pipeline.recognize(png(tmp_path), FixedDetector(NINE_GATES))
    lay = rec["layout"]
    assert lay["win_tile"] == "9m" and rec["hand"].endswith("+9m") and lay["reading"].endswith("+9m")
    assert rec["detections"][lay["win_detection"]]["tile"] == "9m" and lay["win_detection"] == 13


def test_a_winning_tile_from_the_request_is_named_everywhere(tmp_path: Path) -> None:
    answer = pipeline.score_photo(png(tmp_path), FixedDetector(NINE_GATES), {**REQUEST, "win_tile": "2m"})
    rec = answer["recognition"]
    lay = rec["layout"]
    assert lay["win_tile"] == "2m" and rec["hand"].endswith("+2m") and lay["reading"].endswith("+2m")
    assert rec["detections"][lay["win_detection"]]["tile"] == "2m"
    assert any("2m assumed, as the request gives it" in n for n in lay["notes"])


def test_the_command_line_and_its_picture_name_the_same_tile(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "drawn.png"
    fake = FixedDetector(NINE_GATES)
    assert main([str(png(tmp_path)), "--self-draw", "--annotated", str(out)], detector=fake) == 0
    text = capsys.readouterr().out
    win = best_candidate()
    hand_line = next(line for line in text.splitlines() if line.startswith("hand:"))
    assert f"+{win}" in hand_line
    assert f"; {win} assumed" in next(line for line in text.splitlines() if "assumed, the" in line)
    assert main([str(png(tmp_path)), "--self-draw", "--json"], detector=fake) == 0
    rec = json.loads(capsys.readouterr().out)["recognition"]
    assert check_agreement(rec) == win
    # the red box is drawn on the winning tile's detection, and on no other
    img = Image.open(out).convert("RGB")
    red = _COLOURS["win"]

    def edge_is_red(i: int) -> bool:
        x0, y0, x1, y1 = rec["detections"][i]["box"]
        return img.getpixel((int(x0) + 1, int((y0 + y1) / 2))) == red

    assert edge_is_red(rec["layout"]["win_detection"])
    assert not any(edge_is_red(i) for i in rec["layout"]["concealed_detections"])


def test_the_http_answer_names_the_same_tile(tmp_path: Path) -> None:
    with TestClient(make_app(FixedDetector(NINE_GATES))) as client:
        photo = png(tmp_path).read_bytes()
        r = client.post("/v1/score-photo", files={"file": ("a.png", photo, "image/png")},
                        data={"request": json.dumps(REQUEST)})
    assert r.status_code == 200, r.text
    assert check_agreement(r.json()["recognition"]) == best_candidate()


def test_annotate_marks_the_tile_of_the_layout_it_is_given(tmp_path: Path) -> None:
    """``annotate`` draws what the recognition says: a recognition scored draws the chosen tile red."""
    photo = png(tmp_path)
    rec = pipeline.score_photo(photo, FixedDetector(NINE_GATES), REQUEST)["recognition"]
    out = annotate(photo, rec, tmp_path / "a.png")
    x0, y0, _, y1 = rec["detections"][rec["layout"]["win_detection"]]["box"]
    assert Image.open(out).convert("RGB").getpixel((int(x0) + 1, int((y0 + y1) / 2))) == _COLOURS["win"]
