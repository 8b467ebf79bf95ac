"""The never-worse guard of ``mjscore train`` (``training/guard.py``): real networks read real photos; a classifier
that reads them worse than the shipped one is refused, one that reads them better is kept; in a run, a refused
classifier leaves the shipped one in the weights folder and the card says why."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from api.datasets.export import write_tree
from api.datasets.store import Store
from bench.learn import corrected_photos
from tests.training.support import QUICK, scenes, train
from training import paths, synth
from training.guard import Checks, make_checks, read, verdict
from training.labelled import Photo, Tile
from training.real import in_scene
from vision.detector import TileDetector
from vision.shipped import CLASSIFIER_WEIGHTS, MODELS
from vision.weights import FILES

pytestmark = pytest.mark.skipif(not all((MODELS / f).exists() for f in FILES), reason="no shipped weights in models/")


def _photos(tmp: Path, n: int, seed: int, styles: list) -> tuple[Photo, ...]:
    out = []
    for i in range(n):
        jpg, _, layout = synth.make_scene(synth.SceneSpec(i, seed, "test", 1.5, 2.0), styles)
        path = tmp / f"s{seed}-{i}.jpg"
        path.write_bytes(jpg)
        tiles = tuple(Tile(t["label"], tuple(t["box"])) for t in layout["tiles"] if t["visible"] >= 0.6)
        out.append(Photo(path, "val", tiles))
    return tuple(out)


def _singles(photos: tuple[Photo, ...], n: int) -> tuple[tuple[str, bytes], ...]:
    """Single tiles cut from the photos, pasted in a scene as the real check pastes its photos."""
    rng, out = np.random.default_rng(0), []
    for photo in photos:
        img = Image.open(photo.image)
        for tile in photo.tiles[:n]:
            buf = io.BytesIO()
            img.crop(tuple(round(v) for v in tile.box)).save(buf, "JPEG")
            out.append((tile.name, in_scene(buf.getvalue(), rng)))
    return tuple(out)


@pytest.fixture(scope="module")
def checks(tmp_path_factory: pytest.TempPathFactory, art_dir: Path) -> Checks:
    """Photos of real tile art (the shipped weights read them well): two held out, two replayed, and eight single
    tiles cut from them."""
    tmp = tmp_path_factory.mktemp("guard")
    styles = synth.load_styles(art_dir, include=["fluffy"] if (art_dir / "fluffy").exists() else None)
    held, replay = _photos(tmp, 2, 21, styles), _photos(tmp, 2, 22, styles)
    return Checks(held, replay, _singles(held, 4))


@pytest.fixture(scope="module")
def untrained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A classifier of the shipped shape that learnt nothing: it reads every photo worse."""
    import onnxruntime as ort
    import torch

    from training.classifier import export
    from training.net import TileNet

    torch.manual_seed(0)
    size = ort.InferenceSession(str(CLASSIFIER_WEIGHTS), providers=["CPUExecutionProvider"]).get_inputs()[0].shape[-1]
    return export(TileNet().eval(), tmp_path_factory.mktemp("net") / "tile_classifier.onnx", size)


@pytest.fixture(scope="module")
def readings(checks: Checks, untrained: Path) -> dict[str, dict]:
    return {"shipped": read(TileDetector().detect, checks),
            "untrained": read(TileDetector(classifier=untrained).detect, checks)}


def test_the_checks_count_what_each_network_reads_right(checks: Checks, readings: dict[str, dict]) -> None:
    shipped, untrained = readings["shipped"]["counts"], readings["untrained"]["counts"]
    assert shipped["held_out"][1] == untrained["held_out"][1] == sum(len(p.tiles) for p in checks.held_out) > 0
    assert shipped["replay"][1] == sum(len(p.tiles) for p in checks.replay) > 0
    assert shipped["real"][1] == len(checks.real) == 8
    for check in ("held_out", "replay", "real"):
        assert shipped[check][0] > untrained[check][0], check
    assert readings["shipped"]["held_out"]["tiles"] == shipped["held_out"][1]


def test_a_network_that_reads_worse_is_refused_one_that_reads_better_kept(readings: dict[str, dict]) -> None:
    shipped, untrained = readings["shipped"], readings["untrained"]
    keep, worse = verdict(shipped, untrained)
    assert not keep and [w.split(":")[0] for w in worse] == ["held_out", "replay", "real"]
    assert worse[0] == (f"held_out: {untrained['counts']['held_out'][0]} of {shipped['counts']['held_out'][1]} "
                        f"read right, shipped {shipped['counts']['held_out'][0]}")
    assert verdict(untrained, shipped) == (True, [])  # the better one replacing the worse
    assert verdict(shipped, shipped) == (True, [])  # as well: kept


@pytest.mark.parametrize(("check", "new", "keep"), [
    ("replay", 299, True), ("replay", 298, False), ("real", 119, False), ("held_out", 299, False)])
def test_the_replay_and_real_checks_allow_one_loss_per_300(check: str, new: int, keep: bool) -> None:
    shipped = {"counts": {"held_out": [300, 300], "replay": [300, 365], "real": [120, 120]}}
    changed = {"counts": {**shipped["counts"], check: [new, shipped["counts"][check][1]]}}
    assert verdict(shipped, changed)[0] is keep


def test_the_checks_are_the_replay_val_photos_and_held_out_real_ones_picked_by_the_seed(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    corrected_photos(store, "replay", scenes(8, 5))
    write_tree(store, "replay", tmp_path / "replay", val_percent=50)
    real = paths.real() if (paths.real() / "tiles-data" / "data.csv").exists() else None
    one = make_checks((), [tmp_path / "replay"], real, 3, tmp_path / "w", replay_photos=3, real_photos=5)
    again = make_checks((), [tmp_path / "replay"], real, 3, tmp_path / "w", replay_photos=3, real_photos=5)
    assert one == again and len(one.replay) == 3 and {p.split for p in one.replay} == {"val"}
    assert len(one.real) == (5 if real else 0)
    other = make_checks((), [tmp_path / "replay"], real, 4, tmp_path / "w", replay_photos=3, real_photos=5)
    assert other.replay != one.replay or other.real != one.real


def _guard_again(data: Path, out: Path, classifier: Path, *args: str) -> subprocess.CompletedProcess:
    """The run in ``out`` with its fine-tuned classifier swapped for ``classifier``, resumed at its guard."""
    (out / "train" / "tile_classifier.onnx").write_bytes(classifier.read_bytes())
    state = json.loads((out / "train" / "state.json").read_text())
    (out / "train" / "state.json").write_text(json.dumps({**state, "phase": "measure"}))
    return train(data, "--data", "tiny", "--out", str(out), *QUICK, *args, "--resume")


def test_a_run_whose_classifier_reads_worse_writes_the_shipped_one(tmp_path: Path, untrained: Path) -> None:
    """A run trained, its classifier then swapped for one that learnt nothing and its guard run again (--resume from
    the measure phase): the weights folder holds the shipped classifier, and the card and the summary say why."""
    data = tmp_path / "data"
    corrected_photos(Store(data), "tiny", scenes(6, 11))
    out = tmp_path / "w"
    done = train(data, "--data", "tiny", "--out", str(out), *QUICK)
    assert done.returncode == 0, done.stderr[-3000:]
    card = json.loads((out / "card.json").read_text())
    guard = card["guard"]
    assert guard["enforced"] and guard["photos"]["held_out"] == card["dataset"]["held_out"]
    assert guard["shipped"]["held_out"][1] == card["held_out"]["before"]["tiles"] > 0
    kept = guard["kept"]["classifier"]
    assert kept is (guard["classifier_worse"] == [])
    assert ((out / "tile_classifier.onnx").read_bytes() == CLASSIFIER_WEIGHTS.read_bytes()) is not kept

    again = _guard_again(data, out, untrained)
    assert again.returncode == 0, again.stderr[-3000:]
    card = json.loads((out / "card.json").read_text())
    assert card["guard"]["kept"] == {"classifier": False} and card["guard"]["classifier_worse"][0].startswith(
        "held_out: ")
    assert (out / "tile_classifier.onnx").read_bytes() == CLASSIFIER_WEIGHTS.read_bytes()
    assert card["files"]["tile_classifier.onnx"] == "copied from the shipped models/ (the fine-tuned one read worse)"
    assert card["held_out"]["after"] == card["held_out"]["before"]  # the shipped networks' reading
    assert "classifier: as shipped: the fine-tuned one read worse (held_out: " in again.stdout

    forced = tmp_path / "forced"
    assert train(data, "--data", "tiny", "--out", str(forced), *QUICK, "--no-guard").returncode == 0
    again = _guard_again(data, forced, untrained, "--no-guard")
    assert again.returncode == 0, again.stderr[-3000:]
    card = json.loads((forced / "card.json").read_text())
    assert card["guard"]["kept"] == {"classifier": True} and card["guard"]["classifier_worse"]
    assert (forced / "tile_classifier.onnx").read_bytes() == untrained.read_bytes()
