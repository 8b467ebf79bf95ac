"""The readers' training (``training/reader.py``): their names, upright crops, and a short run whose weights load
in ONNX Runtime with their names, resumed only as it was started."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training import fetch_art, synth
from training.classifier import load_real
from training.reader import (
    MARKS,
    family_score,
    load_mark_crops,
    load_reader_crops,
    mined,
    reader_labels,
    reader_names,
    train_reader,
    upright,
)
from vision.names import CLASS_ID, FACE_NAMES, NAMES

REAL = Path(__file__).resolve().parents[3] / "shared" / "real" / "camerash"


def test_a_reader_names_its_family_then_other() -> None:
    assert reader_names("flower") == ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f", "other")
    assert reader_names("character") == ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "other")
    cls = np.array([CLASS_ID[n] for n in ("1f", "8f", "5f", "1m", "9m", "9s", "7z", "back")])
    assert reader_labels(cls, "flower").tolist() == [0, 7, 4, 8, 8, 8, 8, 8]
    assert reader_labels(cls, "character").tolist() == [9, 9, 9, 0, 8, 9, 9, 9]
    # the seat reader: spring and plum seat 1, bamboo seat 4, every tile not a flower other
    assert reader_names("seat") == ("1", "2", "3", "4", "other")
    assert reader_labels(cls, "seat").tolist() == [0, 3, 0, 4, 4, 4, 4, 4]


def test_upright_turns_back_each_up_direction() -> None:
    art = np.zeros((6, 4, 3), np.uint8)
    art[0, 0] = 255  # the art's top-left corner
    for k in range(4):
        lying = np.rot90(art, -k)  # up direction bin k: the art turned k quarter turns clockwise
        assert np.array_equal(upright(lying[None], np.array([k]))[0], art)


@pytest.mark.skipif(not REAL.exists(), reason="../shared/real/camerash not beside the repository")
def test_a_short_run_reads_its_crops_and_resumes_only_as_started(tmp_path: Path) -> None:
    import onnxruntime as ort
    import torch

    from training.net import TileNet

    data = synth.generate(tmp_path / "ds", {"train": 3, "val": 2}, 0, Path("plain"), min_mp=0.3, max_mp=0.4,
                          progress=False, flowers=(1.0, 8)).parent
    tiles = [t for js in sorted((data / "layout" / "val").glob("*.json"))
             for t in json.loads(js.read_text())["tiles"] if t["visible"] >= 0.6]
    flowers = sorted(int(t["label"][0]) - 1 for t in tiles if t["label"].endswith("f"))
    x, y = load_reader_crops([data], REAL, "val", 32, np.random.default_rng(0), "flower")
    assert x.shape == (len(y), 32, 32, 3) and flowers and sorted(y[y != 8].tolist()) == flowers
    assert (y == 8).sum() == min(len(tiles) - len(flowers), int(len(flowers) * 1.2))

    init = tmp_path / "classifier.pt"
    torch.save({"model": TileNet(len(NAMES)).state_dict()}, init)
    run = tmp_path / "reader"
    summary = train_reader([data], REAL, run, 3, init, size=32, threads=1, family="character")
    assert summary["steps"] == 3 and summary["history"][-1]["step"] == 3 and summary["family"] == "character"
    assert summary["train_crops"] > 400  # the hands' crops and the real training photos
    session = ort.InferenceSession(str(run / "character_reader.onnx"), providers=["CPUExecutionProvider"])
    names, up = session.run(None, {"crops": np.zeros((2, 3, 32, 32), np.float32)})
    assert names.shape == (2, 10) and up.shape == (2, 4)
    assert session.get_modelmeta().custom_metadata_map["names"] == ",".join(reader_names("character"))
    # the run's own export is float (``training/ship.py`` quantizes it for shipping): the trained network's names
    net = TileNet(10)
    net.load_state_dict(torch.load(run / "last.pt", weights_only=False)["model"])
    x = np.random.default_rng(0).random((4, 3, 32, 32), np.float32)
    with torch.no_grad():
        want = net.eval()(torch.from_numpy(x))[0].numpy()
    assert session.run(None, {"crops": x})[0] == pytest.approx(want, abs=1e-4)
    with pytest.raises(ValueError, match="started with steps 3"):
        train_reader([data], REAL, run, 5, init, size=32, threads=1, family="character")
    with pytest.raises(ValueError, match="started with family character"):
        train_reader([data], REAL, run, 3, init, size=32, threads=1, family="flower")
    with pytest.raises(ValueError, match="started with hard_others 0.0"):
        train_reader([data], REAL, run, 3, init, size=32, threads=1, family="character", hard_others=0.5)
    with pytest.raises(ValueError, match="0 to 1, got 1.5"):
        train_reader([data], REAL, run, 3, init, size=32, threads=1, family="character", hard_others=1.5)


@pytest.mark.skipif(not REAL.exists(), reason="../shared/real/camerash not beside the repository")
def test_the_real_photos_count_real_times_over(tmp_path: Path) -> None:
    data = synth.generate(tmp_path / "ds", {"train": 2, "val": 1}, 0, Path("plain"), min_mp=0.3, max_mp=0.4,
                          progress=False, flowers=(1.0, 8)).parent
    once, y1 = load_reader_crops([data], REAL, "train", 32, np.random.default_rng(0), "flower")
    real = len(load_real(REAL, holdout=False, size=32)[0])
    thrice, y3 = load_reader_crops([data], REAL, "train", 32, np.random.default_rng(0), "flower", real_times=3)
    assert real > 100 and len(thrice) == len(once) + 2 * real
    synthetic = len(once) - real
    assert np.array_equal(thrice[:synthetic], once[:synthetic])  # the drawn hands' crops as they were
    for k in range(3):  # then each real photo three times, in its turn, with its name
        assert np.array_equal(thrice[synthetic + k::3], once[synthetic:])
        assert np.array_equal(y3[synthetic + k::3], y1[synthetic:])
    with pytest.raises(ValueError, match="real_times is how many times"):
        train_reader([data], REAL, tmp_path / "run", 1, tmp_path / "none.pt", real_times=-1)


@pytest.mark.skipif(not REAL.exists(), reason="../shared/real/camerash not beside the repository")
def test_keep_holds_a_reader_to_the_names_its_start_gives_right(tmp_path: Path) -> None:
    import torch

    from training.distil import distillation
    from training.net import TileNet

    data = synth.generate(tmp_path / "ds", {"train": 2, "val": 1}, 0, Path("plain"), min_mp=0.3, max_mp=0.4,
                          progress=False, flowers=(1.0, 8)).parent
    torch.manual_seed(0)
    start = TileNet(len(reader_names("flower")))
    init = tmp_path / "reader.pt"
    torch.save({"model": start.state_dict()}, init)
    x, y = load_reader_crops([data], REAL, "train", 32, np.random.default_rng(0), "flower")
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        taught = start.eval()(xt)[0]
    right = taught.argmax(1) == torch.from_numpy(y)
    assert right.sum() >= 5
    drift = {}
    for keep in (0.0, 5.0):
        run = tmp_path / f"keep{keep}"
        summary = train_reader([data], REAL, run, 30, init, lr=3e-3, size=32, threads=1, keep=keep)
        assert summary["keep"] == keep
        net = TileNet(len(reader_names("flower")))
        net.load_state_dict(torch.load(run / "last.pt", weights_only=False)["model"])
        with torch.no_grad():
            drift[keep] = float(distillation(net.eval()(xt[right])[0], taught[right]))
    assert drift[5.0] < 0.5 * drift[0.0]
    with pytest.raises(ValueError, match="started with keep 5.0"):
        train_reader([data], REAL, tmp_path / "keep5.0", 30, init, lr=3e-3, size=32, threads=1)
    classifier = tmp_path / "classifier.pt"
    torch.save({"model": TileNet(len(NAMES)).state_dict()}, classifier)
    with pytest.raises(ValueError, match="no reader of this family"):
        train_reader([data], REAL, tmp_path / "other", 3, classifier, size=32, threads=1, keep=1.0)


@pytest.mark.skipif(not REAL.exists(), reason="../shared/real/camerash not beside the repository")
def test_mining_picks_the_hard_others_again_from_every_other_tile(tmp_path: Path) -> None:
    import torch

    from training.net import TileNet

    data = synth.generate(tmp_path / "ds", {"train": 2, "val": 1}, 0, Path("plain"), min_mp=0.3, max_mp=0.4,
                          progress=False, flowers=(1.0, 8)).parent
    init = tmp_path / "reader.pt"
    torch.save({"model": TileNet(len(reader_names("flower"))).state_dict()}, init)
    once = train_reader([data], REAL, tmp_path / "once", 2, init, size=32, threads=1, hard_others=0.5)
    mining = train_reader([data], REAL, tmp_path / "mining", 4, init, size=32, threads=1, hard_others=0.5,
                          mine_every=2)
    assert mining["mine_every"] == 2 and mining["history"][-1]["step"] == 4
    assert mining["train_crops"] > once["train_crops"]  # every other tile held, to pick from
    with pytest.raises(ValueError, match="started with mine_every 2"):
        train_reader([data], REAL, tmp_path / "mining", 4, init, size=32, threads=1, hard_others=0.5)
    y = np.array([0, 8, 8, 8, 8])
    look = np.array([0.0, 0.1, 0.9, 0.2, 0.8])
    picked = mined(lambda c: look[c[:, 0, 0, 0]], np.arange(5)[:, None, None, None], y, 8, 1.0,
                   np.random.default_rng(0), others=2.0)
    assert picked.tolist() == [0, 2, 4]  # the flower and the two others it takes most for flowers


@pytest.mark.skipif(not REAL.exists(), reason="../shared/real/camerash not beside the repository")
def test_hard_others_are_the_other_tiles_scored_most_like_the_family(tmp_path: Path) -> None:
    data = synth.generate(tmp_path / "ds", {"train": 1, "val": 2}, 0, Path("plain"), min_mp=0.3, max_mp=0.4,
                          progress=False, flowers=(1.0, 8)).parent
    x, y = load_reader_crops([data], REAL, "val", 32, np.random.default_rng(0), "flower", others=100.0)
    everyone = {c.tobytes() for c in x[y == 8]}  # others=100: every other tile (the same seed: the same crops)
    bright = lambda c: c.reshape(len(c), -1).mean(1)  # noqa: E731 - a stand-in score: the brightest "look like" it
    for share in (0.5, 1.0):
        xh, yh = load_reader_crops([data], REAL, "val", 32, np.random.default_rng(0), "flower", others=0.5,
                                   hard=bright, hard_share=share)
        others = xh[yh == 8]
        n_hard = int(len(others) * share)
        cut = np.sort(bright(x[y == 8]))[::-1][n_hard - 1]
        assert len(others) == int((yh != 8).sum() * 0.5) and {c.tobytes() for c in others} <= everyone
        assert (bright(others) >= cut).sum() >= n_hard  # the brightest others all taken


def test_family_score_of_a_classifier_sums_the_family_and_of_a_reader_is_one_less_other() -> None:
    import torch

    from training.net import TileNet

    torch.manual_seed(0)
    crops = np.random.default_rng(0).integers(0, 255, (3, 32, 32, 3), np.uint8)
    x = torch.from_numpy(crops).permute(0, 3, 1, 2).float() / 255
    for n, family, want in ((len(NAMES), "flower", lambda p: p[:, 34:42].sum(1)),
                            (10, "character", lambda p: 1 - p[:, 9])):
        net = TileNet(n).eval()
        with torch.no_grad():
            p = torch.softmax(net(x)[0], 1).numpy()
        assert family_score(net.state_dict(), family)(crops) == pytest.approx(want(p), abs=1e-5)


def test_the_mark_reader_learns_the_numerals_from_the_styles_that_record_them(tmp_path: Path) -> None:
    import cv2
    import torch

    from training.net import TileNet

    assert reader_names("mark") == (*"123456789", "other")
    face = np.full((200, 150, 3), 230, np.uint8)
    for style in ("kd_default", "xm_real"):  # a set with index numerals, one without
        (tmp_path / "art" / style).mkdir(parents=True)
        for label in FACE_NAMES:
            cv2.imwrite(str(tmp_path / "art" / style / f"{label}.png"), face)
    fetch_art.write_marks(tmp_path / "art")
    data = synth.generate(tmp_path / "ds", {"train": 3, "val": 3}, 1, tmp_path / "art", min_mp=0.3, max_mp=0.4,
                          progress=False).parent
    x, y = load_mark_crops([data], "val", 32, np.random.default_rng(0))
    numbered = (y < len(MARKS)).sum()
    assert x.shape == (len(y), 32, 32, 3) and numbered > 5 and (y == len(MARKS)).sum() == numbered  # as many others
    init = tmp_path / "twin.pt"
    torch.manual_seed(0)
    torch.save({"model": TileNet(len(NAMES)).state_dict(), "frozen_norms": True}, init)
    summary = train_reader([data], REAL, tmp_path / "run", 3, init, size=32, threads=1, family="mark")
    assert summary["family"] == "mark" and summary["train_crops"] < 400  # no real photos: their marks are unknown
    trained = torch.load(tmp_path / "run" / "last.pt", weights_only=False)
    assert trained["frozen_norms"] is True
    start = torch.load(init, weights_only=False)["model"]
    for k in ("features.0.1.running_mean", "features.3.1.running_var"):  # the norms as the twin folded them
        assert torch.equal(trained["model"][k], start[k])
    assert not torch.equal(trained["model"]["features.0.0.weight"], start["features.0.0.weight"])
