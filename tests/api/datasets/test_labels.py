"""The labels object: what it takes, what it refuses (naming the field), and its YOLO file."""

from __future__ import annotations

import pytest

from api.datasets.errors import BadLabelsError
from api.datasets.labels import Labels, reading

GOOD = {
    "image": {"width": 400, "height": 200},
    "boxes": [{"tile": "5z", "box": [10, 20, 50, 80], "sideways": True},
              {"tile": "5z", "box": [50, 20, 90, 80]}, {"tile": "5z", "box": [90, 20, 130, 80]},
              {"tile": "back", "box": [200.04, 20, 240, 80]}],
    "melds": [{"kind": "pung", "boxes": [0, 1, 2]}],
    "win": 3,
    "hand": "[555z]123p789s456m5s+5s",
    "group": "hand-1",
    "status": "labelled",
}


def test_a_labels_object_reads_and_writes_back():
    lab = Labels.from_json(GOOD)
    out = lab.to_json()
    assert out["boxes"][0] == {"tile": "5z", "box": [10.0, 20.0, 50.0, 80.0], "sideways": True}
    assert out["boxes"][3]["box"] == [200.0, 20.0, 240.0, 80.0]  # rounded to 0.1 px
    assert out["boxes"][1]["sideways"] is False
    assert {k: out[k] for k in ("melds", "win", "hand", "group", "status")} == {
        k: GOOD[k] for k in ("melds", "win", "hand", "group", "status")}
    assert Labels.from_json(out) == lab


def test_the_yolo_file_holds_class_centre_and_size():
    lines = Labels.from_json(GOOD).yolo().splitlines()
    assert lines[0] == "31 0.075000 0.250000 0.100000 0.300000"  # 5z is class 31
    assert lines[3].startswith("42 ")  # back is the last class
    back = Labels.from_yolo("\n".join(lines) + "\n\n", 400, 200)
    assert [(b.tile, b.box) for b in back.boxes] == [(b.tile, b.box) for b in Labels.from_json(GOOD).boxes]
    assert not any(b.sideways for b in back.boxes)  # what the YOLO file cannot hold


@pytest.mark.parametrize(("change", "message"), [
    ({"boxes": [{"tile": "0m", "box": [0, 0, 5, 5]}]}, r"boxes\[0\].tile: '0m' is not a tile name"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5]}]}, r"boxes\[0\].box must be \[x0, y0, x1, y1\]"),
    ({"boxes": [{"tile": "1m", "box": [5, 0, 5, 5]}]}, r"boxes\[0\].box .* x0 < x1"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 500, 5]}]}, r"inside the 400x200 photo"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, "5", 5]}]}, r"boxes\[0\].box must be"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5, float("nan")]}]}, r"boxes\[0\].box must be"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5, 5], "sideways": "yes"}]}, r"sideways must be true or false"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5, 5], "colour": 1}]}, r"unknown field 'colour'"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5, 5], "stands": 1.5}]}, r"boxes\[0\].stands must be a probability"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5, 5], "stands": True}]}, r"boxes\[0\].stands must be a probability"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5, 5], "stands": "0.5"}]}, r"boxes\[0\].stands must be a probability"),
    ({"boxes": "none"}, r"'boxes' must be a list"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 5, 5]}] * 501}, r"at most 500"),
    ({"melds": [{"kind": "pung", "boxes": [0, 1, 9]}]}, r"melds\[0\].boxes must be 3 or 4 different box indices"),
    ({"melds": [{"kind": "pair", "boxes": [0, 1]}]}, r"melds\[0\] must be"),
    ({"win": 4}, r"'win' must be the index of a box \(0 to 3\)"),
    ({"win": True}, r"'win' must be"),
    ({"hand": "123m+"}, r"'hand': "),
    ({"group": "../x"}, r"group '../x' is not allowed"),
    ({"status": "done"}, r"'status' must be one of todo, labelled, reviewed"),
    ({"colour": "red"}, r"unknown field 'colour'"),
    ({"image": {"width": 0, "height": 5}}, r"'image' must be"),
])
def test_a_wrong_field_is_named(change, message):
    with pytest.raises(BadLabelsError, match=message):
        Labels.from_json({**GOOD, **change})


@pytest.mark.parametrize(("text", "message"), [
    ("1 0.5 0.5 0.1", "line 1: expected 'class cx cy w h'"),
    ("0 0.5 0.5 0.1 0.1\nx 0.5 0.5 0.1 0.1", "line 2: not numbers"),
    ("43 0.5 0.5 0.1 0.1", "class 43 is not among the 43 names"),
    ("0 0.5 0.5 0 0.1", "line 1: the box is empty"),
])
def test_a_bad_yolo_line_is_named(text, message):
    with pytest.raises(BadLabelsError, match=message):
        Labels.from_yolo(text, 100, 100, where="labels")


def test_reading_takes_the_layouts_melds_and_winning_tile():
    layout = {"melds": [{"kind": "chow", "detections": [4, 5, 6]}], "win_detection": None}
    assert reading(layout) == {"melds": [{"kind": "chow", "boxes": [4, 5, 6]}], "win": None}


def test_a_box_keeps_whether_its_tile_stands_where_the_detector_said():
    """``stands`` (a recognition's: the probability that the tile stands) is kept with its box, written back where
    said and left out where not; a recognition's labels take it from its detections."""
    said = {**GOOD, "boxes": [{**GOOD["boxes"][0], "stands": 0.97}, *GOOD["boxes"][1:3],
                              {**GOOD["boxes"][3], "stands": None}]}
    lab = Labels.from_json(said)
    assert [b.stands for b in lab.boxes] == [0.97, None, None, None]
    out = lab.to_json()
    assert out["boxes"][0]["stands"] == 0.97 and "stands" not in out["boxes"][1] and "stands" not in out["boxes"][3]
    assert Labels.from_json(out) == lab
    rec = {"image": GOOD["image"], "hand": None, "layout": {"melds": [], "win_detection": None},
           "detections": [{"tile": "1m", "box": [0, 0, 5, 5], "sideways": False, "confidence": 0.9, "stands": 0.2},
                          {"tile": "2m", "box": [5, 0, 9, 5], "sideways": False, "confidence": 0.9}]}
    assert [b.stands for b in Labels.from_reading(rec).boxes] == [0.2, None]
