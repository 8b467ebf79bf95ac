"""``bench/eval_labelled.py``: a labelled set, as the annotation page exports it and ``mjscore train`` reads it
(``training/labelled.py``), read as a user reads it: tiles read right, whole hands exact, winning hands scored with the
right tiles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.datasets.export import write_tree, write_zip
from tests.api.datasets.support import ROW, boxes, labels, photo, store_with
from vision.detection import Detection
from vision.image import load_image

HAND = "234m456p34567s99s+8s"  # ROW, its last tile set apart


class ByPhoto:
    """A stand-in detector: each photo's detections by its bytes (none for anything else), the photo decoded as the
    real detector decodes it."""

    def __init__(self, a: list[dict[str, Any]], b: list[dict[str, Any]], c: list[dict[str, Any]]) -> None:
        self.reads = {photo(i + 1): read for i, read in enumerate((a, b, c))}

    def detect(self, image: Any) -> list[Detection]:
        load_image(image, 512)
        read = self.reads.get(image.read_bytes(), []) if isinstance(image, Path) else []
        return [Detection(b["tile"], 0.9, tuple(b["box"]), b["sideways"]) for b in read]


def _exported(tmp_path: Path) -> Path:
    """A set of three photos: a.jpg and b.jpg of HAND, c.jpg with its tiles alone; its export unpacked."""
    store = store_with(tmp_path / "data")
    for i, name in enumerate(("a.jpg", "b.jpg", "c.jpg")):
        store.add_photo("set1", name, photo(i + 1), labels(group=name[0], status="reviewed",
                                                           hand=HAND if name != "c.jpg" else None), "tester")
    write_tree(store, "set1", tmp_path / "export", val_percent=50)
    return tmp_path / "export"


def _read(source: Path | str, work: Path) -> Any:
    """The labelled set at ``source``, read to measure on, as the command reads it."""
    from training.labelled import read_dataset

    return read_dataset(str(source), work, to_train=False)


def _misread() -> list[dict[str, Any]]:
    """ROW with one 9s read as 7s, and a box where no tile is."""
    out = boxes([*ROW[:11], "7s", *ROW[12:]])
    return [*out, {"tile": "1z", "box": [600.0, 80.0, 630.0, 110.0], "sideways": False}]


def test_tiles_hands_and_scores_are_counted_as_read(tmp_path: Path) -> None:
    from bench.eval_labelled import measure, summary

    labelled = _read(_exported(tmp_path), tmp_path / "work")
    records = list(measure(labelled, ByPhoto(boxes(), _misread(), boxes()), "mcr"))
    a, b, c = sorted(records, key=lambda r: r.photo.rsplit("/", 1)[1])
    assert (a.exact, a.read, a.why) == (True, "234m456p3456799s +8s", None)
    assert not b.exact and b.read != HAND and (b.tiles.found, b.tiles.right, b.tiles.read) == (14, 13, 15)
    assert (b.tiles.misnamed, b.tiles.missed, b.tiles.extra) == ((("9s", "7s"),), (), ("1z",))
    assert c.truth is None and (c.tiles.labelled, c.tiles.right) == (14, 14)
    out = summary(records, [], "mcr")
    assert out["tiles"]["right"] == 41 and out["tiles"]["labelled"] == 42 and out["tiles"]["read"] == 43
    assert out["tiles"]["recall"] == pytest.approx(41 / 42) and out["tiles"]["precision"] == pytest.approx(41 / 43)
    assert out["tiles"]["named_right_of_found"] == pytest.approx(41 / 42)
    assert [out["tiles"][k] for k in ("misnamed", "missed", "extra")] == [[["9s", "7s", 1]], [], [["1z", 1]]]
    assert out["hands"] == {"labelled": 2, "exact": 1, "exact_but_win": 1}
    assert out["winning_hands"] == {"score": 2, "scored_right": 1}


def test_a_zip_reads_as_its_folder_and_a_split_alone(tmp_path: Path) -> None:
    from bench.eval_labelled import measure

    folder = _exported(tmp_path)
    store = store_with(tmp_path / "again")
    for i, name in enumerate(("a.jpg", "b.jpg", "c.jpg")):
        store.add_photo("set1", name, photo(i + 1), labels(group=name[0], status="reviewed",
                                                           hand=HAND if name != "c.jpg" else None), "tester")
    write_zip(store, "set1", tmp_path / "set1.zip", val_percent=50)
    zipped = list(measure(_read(tmp_path / "set1.zip", tmp_path / "work"), ByPhoto(boxes(), _misread(), boxes()),
                          "mcr"))
    unpacked = list(measure(_read(folder, tmp_path / "work"), ByPhoto(boxes(), _misread(), boxes()), "mcr"))
    assert [(r.tiles, r.exact) for r in zipped] == [(r.tiles, r.exact) for r in unpacked]
    val = [p for p in json.loads((folder / "manifest.json").read_text())["photos"] if "val" in p["splits"]]
    assert 0 < len(val) < 3
    only = list(measure(_read(folder, tmp_path / "work"), ByPhoto(boxes(), boxes(), boxes()), "mcr", split="val"))
    assert len(only) == len(val) and all(r.photo.startswith("val/") for r in only)


def test_a_generated_photos_hand_is_read_beside_it(tmp_path: Path) -> None:
    from bench.eval_labelled import generated_hand

    folder = _exported(tmp_path)
    side = folder / "layout" / "val" / "c.json"
    side.parent.mkdir(parents=True)
    side.write_text(json.dumps({"hand": HAND}))
    c = next(p for p in _read(folder, tmp_path / "work").photos if p.image.name == "c.jpg")
    assert generated_hand(c) == (HAND if c.split == "val" else None)


def test_the_command_reports_and_names_what_is_wrong(tmp_path: Path, monkeypatch, capsys) -> None:
    import bench.eval_labelled as ev

    folder = _exported(tmp_path)
    monkeypatch.setattr(ev, "default_detector", lambda weights=None: ByPhoto(boxes(), _misread(), boxes()))
    assert ev.main([str(folder), "--json", str(tmp_path / "out.json")]) == 0
    said = capsys.readouterr().out
    assert "F1 0.9647" in said and "whole hands exact: 1/2" in said and "scored with the right tiles (mcr): 1/2" in said
    assert f"{HAND} -> " in said  # the misread hand, truth -> read
    assert "named otherwise (labelled -> read): 9s -> 7s 1" in said and "read where no tile is: 1z 1" in said
    out = json.loads((tmp_path / "out.json").read_text())
    assert len(out["records"]) == 3 and out["tiles"]["f1"] == pytest.approx(2 * 41 / (42 + 43))
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(SystemExit):
        ev.main([str(tmp_path / "bad.zip")])
    assert "not a zip file" in capsys.readouterr().err
    monkeypatch.undo()
    with pytest.raises(SystemExit):
        ev.main([str(folder), "--weights", str(tmp_path)])  # a folder that is no weights folder
    assert "weights" in capsys.readouterr().err


def test_a_changed_setting_is_read_by_a_copy_and_a_wrong_one_named(tmp_path: Path, monkeypatch, capsys) -> None:
    import bench.eval_labelled as ev
    from vision.detector import DetectorConfig

    class Configured(ByPhoto):
        """ByPhoto that finds nothing with ``round_backs`` off."""

        config = DetectorConfig()

        def detect(self, image: Any) -> list[Detection]:
            return super().detect(image) if self.config.round_backs else []

    folder = _exported(tmp_path)
    shared = Configured(boxes(), boxes(), boxes())
    monkeypatch.setattr(ev, "default_detector", lambda weights=None: shared)
    assert ev.main([str(folder), "--set", "round_backs=false"]) == 0
    said = capsys.readouterr().out
    assert "with round_backs=false" in said and "whole hands exact: 0/2" in said
    assert shared.config.round_backs  # the shared detector as loaded
    assert ev.main([str(folder)]) == 0 and "whole hands exact: 2/2" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        ev.main([str(folder), "--set", "no_such_field=1"])
    err = capsys.readouterr().err
    assert "--set" in err and "no_such_field" in err


def test_a_photo_that_cannot_be_read_is_skipped_and_said(tmp_path: Path) -> None:
    from bench.eval_labelled import Skipped, measure

    folder = _exported(tmp_path)
    broken = next(folder.glob("images/*/b.jpg"))
    broken.write_bytes(broken.read_bytes()[:200])  # a truncated JPEG
    got = list(measure(_read(folder, tmp_path / "work"), ByPhoto(boxes(), boxes(), boxes()), "mcr"))
    skipped = [g for g in got if isinstance(g, Skipped)]
    assert len(got) == 3 and len(skipped) == 1 and skipped[0].photo.endswith("b.jpg")
    assert "image" in skipped[0].reason or "JPEG" in skipped[0].reason, skipped[0].reason
    next(folder.glob("labels/*/c.txt")).unlink()  # c.jpg without its labels: still to do
    next(folder.glob("meta/*/c.json")).unlink()
    got = list(measure(_read(folder, tmp_path / "work"), ByPhoto(boxes(), boxes(), boxes()), "mcr"))
    assert sorted(g.photo.rsplit("/", 1)[1] for g in got if isinstance(g, Skipped)) == ["b.jpg", "c.jpg"]


def test_the_modules_examples_hold() -> None:
    import doctest

    import bench.eval_labelled

    result = doctest.testmod(bench.eval_labelled)
    assert result.attempted >= 2 and result.failed == 0
