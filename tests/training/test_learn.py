"""``mjscore train`` (``training/learn.py``) on a tiny dataset of the annotation store: it writes a weights folder
that the detector loads and ``mjscore PHOTO --weights`` reads with; a run killed mid-way goes on with ``--resume``;
a bad dataset or output folder is refused, naming what is wrong; without the training extra it says how to install
it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from api.cli import main
from api.datasets.store import Store
from bench.learn import corrected_photos
from tests.training.support import QUICK, ROOT, scenes, train
from vision.detector import DetectorConfig, TileDetector
from vision.names import NAMES
from vision.shipped import MODELS
from vision.weights import FILES, load_detector, weights_folder

pytestmark = pytest.mark.skipif(not all((MODELS / f).exists() for f in FILES), reason="no shipped weights in models/")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """MJ_DATA_DIR with the dataset 'tiny': six corrected photos, one hand each (so some are held out)."""
    root = tmp_path_factory.mktemp("data")
    corrected_photos(Store(root), "tiny", scenes(6, 11))
    return root


@pytest.fixture(scope="module")
def trained(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    out = tmp_path_factory.mktemp("runs") / "tiny"
    return out, train(data_dir, "--data", "tiny", "--out", str(out), *QUICK)


def test_train_writes_a_weights_folder_with_its_card(trained: tuple[Path, subprocess.CompletedProcess]) -> None:
    out, done = trained
    assert done.returncode == 0, done.stderr[-3000:]
    assert weights_folder(out).classifier == out / "tile_classifier.onnx"
    card = json.loads((out / "card.json").read_text())
    assert card["names"] == list(NAMES) and card["dataset"]["name"] == "tiny"
    assert card["dataset"]["train"] + card["dataset"]["held_out"] == 6 and card["dataset"]["held_out_split"] == "val"
    assert card["files"]["tile_classifier.onnx"] == "fine-tuned (int8)"
    assert card["files"]["tile_finder.onnx"] == card["files"]["mark_reader.onnx"] == "copied from the shipped models/"
    assert card["classifier"]["steps"] == 3 and card["classifier"]["replay"] == 0 and card["classifier"]["crops"] > 0
    before, after = card["held_out"]["before"], card["held_out"]["after"]
    assert before["tiles"] == after["tiles"] > 0 and before["photos"] == after["photos"] == card["dataset"]["held_out"]
    assert 0 <= after["read_right"] <= after["found"] <= 1 and before["hands"] == after["hands"] > 0
    assert set(after["per_class"]) <= set(NAMES) and card["time"]["sessions"] == 1
    for name in FILES:
        if name != "tile_classifier.onnx":
            assert (out / name).read_bytes() == (MODELS / name).read_bytes(), name
    # the fine-tuned classifier names the photos of the dataset's set, the shipped one the others (vision/learnt.py)
    assert weights_folder(out).learnt == (out / "learnt_set.npz", out / "shipped_classifier.onnx")
    assert (out / "shipped_classifier.onnx").read_bytes() == (MODELS / "tile_classifier.onnx").read_bytes()
    assert card["files"]["learnt_set.npz"].startswith("the looks of the train photos' tiles")
    looks = np.load(out / "learnt_set.npz")["looks"].astype(np.float32)  # a look per labelled tile, unit vectors
    assert looks.shape[0] >= card["dataset"]["train"] and looks.shape[1] == 256
    assert np.linalg.norm(looks, axis=1) == pytest.approx(np.ones(len(looks)), abs=1e-2)
    assert "tiles read right" in done.stdout and "tiles read right" in (out / "README.md").read_text()
    # the names no train photo shows are said: five photos of a hand each do not show all 43
    assert 0 < len(card["dataset"]["unshown"]) < len(NAMES) and set(card["dataset"]["unshown"]) < set(NAMES)
    assert f"no train photo shows {', '.join(card['dataset']['unshown'])}: " in done.stdout
    assert "learning the tiles" in done.stderr and "3/3" in done.stderr  # the progress bar


def test_train_holds_out_the_dataset_as_every_name_trained_says(trained: tuple[Path, subprocess.CompletedProcess],
                                                                 data_dir: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from training.labelled import read_dataset

    out, _ = trained
    monkeypatch.setenv("MJ_DATA_DIR", str(data_dir))
    data = read_dataset("tiny", tmp_path)
    taught = data.every_name_trained()
    dataset = json.loads((out / "card.json").read_text())["dataset"]
    assert dataset["notes"] == list(taught.notes)
    assert (dataset["train"], dataset["held_out"]) == (len(taught.split("train")), len(taught.held_out))
    assert dataset["unshown"] == list(taught.unshown)
    assert not set(dataset["unshown"]) & {t.name for p in data.split("val") for t in p.tiles}  # each val tile taught


def test_mjscore_reads_photos_with_the_weights_folder(trained: tuple[Path, subprocess.CompletedProcess],
                                                      tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out, _ = trained
    jpg, _, _ = scenes(1, 99)[0]
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpg)
    shipped = TileDetector().detect(photo)
    # the folder's fine-tuned classifier names the photo where the gate takes it for the learnt set (here every photo)
    tuned = load_detector(out, DetectorConfig(learnt_share=0.0)).detect(photo)
    assert [d.confidence for d in tuned] != [d.confidence for d in shipped]  # another classifier
    learnt = load_detector(out).detect(photo)
    assert main(["detect", str(photo), "--weights", str(out), "--json"]) == 0
    read = json.loads(capsys.readouterr().out)["detections"]
    assert [(d["tile"], d["confidence"], d["box"]) for d in read] == [(d.label, d.confidence, list(d.box))
                                                                      for d in learnt]
    assert main([str(photo), "--weights", str(out), "--json"]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["recognition"]["detections"] == read


def test_a_killed_run_goes_on_where_it_stopped(data_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "w"
    cmd = [sys.executable, "-m", "training.learn", "--data", "tiny", "--out", str(out), *QUICK, "--steps", "30",
           "--save-every", "0"]
    env = {**os.environ, "MJ_DATA_DIR": str(data_dir), "YOLO_OFFLINE": "1"}
    child = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ckpt, deadline = out / "train" / "classifier.pt", time.monotonic() + 300
    while not ckpt.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # a few steps more
    child.send_signal(signal.SIGKILL)
    child.wait()
    state = json.loads((out / "train" / "state.json").read_text())
    assert state["phase"] == "classifier" and not (out / "card.json").exists()
    refused = train(data_dir, "--data", "tiny", "--out", str(out), *QUICK)
    assert refused.returncode == 2 and "holds a run already: --resume to go on with it" in refused.stderr
    crops = (out / "train" / "crops.npz").stat().st_mtime
    done = train(data_dir, "--data", "tiny", "--out", str(out), *QUICK, "--resume")
    assert done.returncode == 0, done.stderr[-3000:]
    card = json.loads((out / "card.json").read_text())
    assert card["time"]["sessions"] == 2 and card["classifier"]["steps"] == 30  # the plan the first session made
    assert 1 <= card["classifier"]["resumed_at"] < card["classifier"]["steps"]
    assert (out / "train" / "crops.npz").stat().st_mtime == crops  # prepared once
    again = train(data_dir, "--data", "tiny", "--out", str(out), *QUICK, "--resume")
    assert again.returncode == 0 and json.loads((out / "card.json").read_text()) == card  # done: nothing to redo


@pytest.mark.parametrize(("args", "message"), [
    (["--data", "nosuch"], "no dataset 'nosuch': not a folder, a zip or a data.yaml, nor a dataset in"),
    (["--data", "tiny", "--resume"], "nothing to resume in"),
    (["--data", "tiny", "--replay", "."], "--replay .: no generated photos in images/train (replayed) or no layout"),
], ids=["unknown-dataset", "nothing-to-resume", "replay-without-val"])
def test_a_run_that_cannot_start_says_why(data_dir: Path, tmp_path: Path, args: list[str], message: str) -> None:
    done = train(data_dir, *args, "--out", str(tmp_path / "w"), *QUICK)
    assert done.returncode == 2 and message in done.stderr and done.stderr.startswith("mjscore train: ")
    assert not (tmp_path / "w").exists()


@pytest.mark.parametrize(("flag", "value", "said"), [
    ("--minutes", "-5", "must be a number above 0 up to 10080"),  # ran a finder fine-tune all the same
    ("--minutes", "nan", "must be a number above 0 up to 10080"),  # a traceback: NaN to integer
    ("--minutes", "1e999", "must be a number above 0 up to 10080"),  # a traceback: infinity to integer
    ("--steps", "0", "must be a whole number from 1 to 30000"),
    ("--threads", "100000", "must be a whole number from 1 to 256"),  # an ImportError: threads not started
    ("--finder-recall", "7", "must be a number from 0 to 1"),
    ("--save-every", "-1", "must be a number from 0 to 604800"),  # (0: a checkpoint every step)
    ("--seed", "-1", "must be a whole number from 0 to 4294967295"),  # a traceback from numpy
])
def test_a_flag_out_of_range_is_refused_before_the_run_starts(flag: str, value: str, said: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from training.learn import parser

    with pytest.raises(SystemExit) as exited:
        parser().parse_args(["--data", "tiny", flag, value])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"mjscore train: error: argument {flag}: {said}, not '{value}'"


def test_an_output_folder_in_use_is_refused(data_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "mine.txt").write_text("x")
    done = train(data_dir, "--data", "tiny", "--out", str(tmp_path / "w"), *QUICK)
    assert done.returncode == 2 and "is not empty: give a new folder to --out" in done.stderr
    assert sorted(p.name for p in (tmp_path / "w").iterdir()) == ["mine.txt"]


def test_without_the_training_extra_it_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a))
    assert main(["train", "--data", "x"]) == 2
    assert capsys.readouterr().err == ("mjscore train: torch not installed; training needs the training extra: "
                                       "pip install 'mjscore[train]'\n")


def test_the_benchmarks_mistakes_are_told_by_kind() -> None:
    from bench.learn import mistakes

    truth = [("back", (0, 0, 10, 14)), ("5z", (12, 0, 22, 14)), ("3s", (24, 0, 34, 14)), ("7f", (36, 0, 46, 14)),
             ("1m", (48, 0, 58, 14))]
    read = [("5z", 0.9, (0, 0, 10, 14)), ("back", 0.8, (12, 0, 22, 14)), ("3s", 0.9, (24, 0, 34, 14)),
            ("1s", 0.7, (36, 0, 46, 14))]  # the 1m not found
    m = mistakes(lambda _jpg: read, [(b"", truth), (b"", truth)])
    assert (m["not_found"], m["back_white"], m["name"]) == (2, 4, 2)
    assert m["commonest"][0][2] == 2 and ["7f", "1s", 2] in m["commonest"] and ["1m", None, 2] in m["commonest"]


def test_the_benchmarks_covering_photos_show_every_tile_drawn() -> None:
    from bench.learn import covering

    def scene(*names: str) -> tuple:
        return b"", [(name, (0, 0, 1, 1)) for name in names]

    drawn = [scene("1m", "2m"), scene("1m"), scene("2m"), scene("3m"), scene("1m", "4m"), scene("2m")]
    # the first three show 1m and 2m; the 3m and the 4m photos take the places of photos whose tiles others show
    assert covering(drawn, 3) == [drawn[0], drawn[3], drawn[4]]
    assert covering(drawn[:3], 3) == drawn[:3]  # nothing more to show: the first ones
    assert covering(drawn, 6) == drawn


def test_the_benchmarks_verdict_names_the_tiles_no_train_photo_showed() -> None:
    from bench.learn import verdict

    report = {"style": "dr_58", "minutes": 15.0, "trained_time": {"wall_seconds": 400.0},
              "style_test": {"hands": 60, "tiles": 1103, "before": 0.8649, "after": 0.9637,
                             "mistakes_after": {"not_found": 4, "back_white": 0, "name": 36}},
              "held_out_style": {k: {"read_right": 0.9973} for k in ("before", "after")},
              "real_in_scene": {k: {"top1": 0.967} for k in ("before", "after")}}
    lines = verdict({**report, "unshown": ["4z"]})
    assert lines[0].endswith("read right 0.8649 -> 0.9637 (target >= 0.99: missed)")
    assert lines[2] == "  names no train photo showed: 4z"
    assert verdict({**report, "unshown": []})[2] == "  names no train photo showed: none"
    assert verdict(report)[2] == "  names no train photo showed: not recorded"  # a card written before it was kept


class _Looks:
    """A classifier's stand-in: every crop named 1m, upright, and looked at as (1, 0)."""

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        n = len(feeds["crops"])
        return [np.tile(np.eye(len(NAMES))[0] * 9, (n, 1)), np.tile([9.0, 0, 0, 0], (n, 1)),
                np.tile([1.0, 0.0], (n, 1)).astype(np.float32)]


def test_the_learnt_set_keeps_whether_the_sets_backs_are_coloured(tmp_path: Path) -> None:
    from PIL import Image

    from training.labelled import Labelled, Photo, Tile
    from training.learn import learnt_set

    def photo(k: int, back: tuple[int, int, int]) -> Photo:  # three ivory faces and a back, 40 x 60 px each
        rgb = np.full((100, 240, 3), 60, np.uint8)
        for i, colour in enumerate([(235, 230, 215)] * 3 + [back]):
            rgb[20:80, 60 * i + 10:60 * i + 50] = colour
        Image.fromarray(rgb).save(tmp_path / f"{k}.png")
        names = ["1m", "2m", "3m", "back"]
        return Photo(tmp_path / f"{k}.png", "train", tuple(Tile(n, (60.0 * i + 10, 20, 60 * i + 50, 80))
                                                           for i, n in enumerate(names)))

    det = TileDetector.from_parts(_Looks(), crop=64, config=DetectorConfig(turns=1))
    green, white = (40, 130, 60), (230, 228, 220)
    for backs, told in (([green, green, white], True), ([white, white, green], False)):  # most photos say
        learnt = learnt_set(Labelled("set", tuple(photo(k, b) for k, b in enumerate(backs))), det)
        assert learnt.backs_coloured is told and len(learnt.looks) == 12
    faces = photo(9, green)  # a photo with its back not labelled: nothing tells
    learnt = learnt_set(Labelled("set", (Photo(faces.image, "train", faces.tiles[:3]),)), det)
    assert learnt.backs_coloured is None and len(learnt.looks) == 3


def test_the_learnt_set_keeps_the_looks_of_the_replays_tiles_as_other_sets(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import Image

    from training import learn
    from training.labelled import Labelled, Photo, Tile
    from training.learn import learnt_set

    Image.fromarray(np.full((100, 100, 3), 200, np.uint8)).save(tmp_path / "ours.png")
    ours = Labelled("set", (Photo(tmp_path / "ours.png", "train", (Tile("1m", (10.0, 20, 50, 80)),)),))
    replay = tmp_path / "replay"
    for split, photos in (("train", 3), ("val", 1)):  # two tiles a photo; the val photos are no replay
        for folder in ("images", "labels"):
            (replay / folder / split).mkdir(parents=True)
        for k in range(photos):
            Image.fromarray(np.full((100, 200, 3), 90, np.uint8)).save(replay / "images" / split / f"{k}.png")
            (replay / "labels" / split / f"{k}.txt").write_text("0 0.15 0.5 0.2 0.6\n9 0.45 0.5 0.2 0.6\n")
    (replay / "data.yaml").write_text(f"train: images/train\nval: images/val\nnames: {list(NAMES)}\n")
    det = TileDetector.from_parts(_Looks(), crop=64, config=DetectorConfig(turns=1))
    learnt = learnt_set(ours, det, [replay])
    assert len(learnt.looks) == 1 and len(learnt.others) == 6
    assert learnt.others[0].tolist() == pytest.approx([1.0, 0.0])  # as the classifier looks at them
    monkeypatch.setattr(learn, "OTHERS", 2)
    assert len(learnt_set(ours, det, [replay, replay]).others) == 4  # two photos at most
    assert learnt_set(ours, det).others is None  # no replay: none kept
