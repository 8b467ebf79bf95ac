"""The classifier's fine-tune (``training/finetune.py``): crops cut as detection cuts them with their up directions
held to the sideways flags, and a run stopped at any step that goes on exactly as if it had not stopped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from training import finetune, synth
from training.finetune import Crops, Tuner, photo_crops
from training.labelled import Photo, Tile
from vision.names import CLASS_ID


def _crops(n: int, seed: int) -> Crops:
    rng = np.random.default_rng(seed)
    return Crops(rng.integers(0, 255, (n, 32, 32, 3), np.uint8), rng.integers(0, 43, n), rng.integers(0, 4, n))


@pytest.fixture
def init(tmp_path: Path) -> Path:
    import torch

    from training.net import TileNet

    torch.manual_seed(0)
    torch.save({"model": TileNet().state_dict()}, tmp_path / "init.pt")
    return tmp_path / "init.pt"


class Killed(Exception):
    """A run killed (``kill_at_four``)."""


def kill_at_four(step: int, _loss: float) -> None:
    """A progress callback that kills the run as its fourth step ends."""
    if step == 4:
        raise Killed


def _tuner(init: Path, ckpt: Path) -> Tuner:
    return Tuner(init, _crops(40, 1), _crops(60, 2), _crops(20, 3), ckpt, seed=3, batch=8)


def test_a_batch_is_half_labelled_crops_half_replay_a_quarter_of_it_real_photos(init: Path, tmp_path: Path
                                                                                    ) -> None:
    tuner = _tuner(init, tmp_path / "a.pt")
    assert [n for _, n in tuner.pools] == [4, 3, 1]  # half labelled, the rest a quarter real
    alone = Tuner(init, _crops(40, 1), _crops(0, 2), _crops(0, 3), tmp_path / "b.pt", batch=8)
    assert [n for _, n in alone.pools] == [8]


def test_a_run_stopped_and_resumed_ends_as_one_that_ran_through(init: Path, tmp_path: Path) -> None:
    import torch

    torch.set_num_threads(1)
    through = _tuner(init, tmp_path / "through.pt")
    through.run(6)
    assert through.steps == 6 and through.planned

    stopped = _tuner(init, tmp_path / "stopped.pt")
    with pytest.raises(Killed):
        stopped.run(6, progress=kill_at_four, save_seconds=0)  # killed before its fourth step's checkpoint
    resumed = _tuner(init, tmp_path / "stopped.pt")
    assert resumed.resume() and resumed.step == 3 and resumed.steps == 6
    resumed.run(100)  # the plan saved wins over the one asked
    assert resumed.step == 6 and resumed.losses == through.losses
    for name, value in through.net.state_dict().items():
        assert torch.equal(value, resumed.net.state_dict()[name]), name
    start = torch.load(init)["model"]
    assert not any(torch.equal(v, start[k]) for k, v in through.net.state_dict().items()
                   if not k.startswith("features.") and v.numel() > 100)  # and it did learn


@pytest.mark.parametrize("features", [False, True], ids=["heads-only", "all"])
def test_the_convolutional_features_stay_as_shipped_unless_asked(init: Path, tmp_path: Path, features: bool) -> None:
    import torch

    torch.set_num_threads(1)
    tuner = Tuner(init, _crops(40, 1), _crops(60, 2), _crops(20, 3), tmp_path / "a.pt", seed=3, batch=8,
                  features=features)
    tuner.run(3)
    start, now = torch.load(init)["model"], tuner.net.state_dict()
    convs = [k for k in now if k.startswith("features.") and now[k].dtype.is_floating_point]
    heads = ["fc.weight", "cls.weight", "orient.weight"]
    assert convs and all(not torch.equal(now[k], start[k]) for k in heads)
    moved = [k for k in convs if not torch.equal(now[k], start[k])]
    assert bool(moved) is features  # weights and batch-norm statistics alike


def test_the_replay_crops_are_held_to_the_shipped_networks_names(init: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    torch.set_num_threads(1)
    replay = _crops(60, 2)

    def drift(distil: float) -> float:  # how far the tuned network's names of the replay crops moved from the start's
        monkeypatch.setattr(finetune, "DISTIL", distil)
        tuner = Tuner(init, _crops(40, 1), replay, _crops(0, 3), tmp_path / f"{distil}.pt", seed=3, batch=16,
                      features=True, lr=5e-3)
        tuner.run(12)
        x = torch.from_numpy(replay.x).permute(0, 3, 1, 2).float() / 255
        with torch.no_grad():
            start = torch.softmax(tuner.shipped(x)[0], 1)
            now = torch.log_softmax(tuner.net(x)[0], 1)
        return float(torch.nn.functional.kl_div(now, start, reduction="batchmean"))

    held, free = drift(4.0), drift(0.0)
    assert held < 0.5 * free, (held, free)


def test_the_steps_are_planned_to_fit_the_time_after_the_first_few(init: Path, tmp_path: Path) -> None:
    tuner = _tuner(init, tmp_path / "a.pt")
    tuner.run(1000, seconds=0.0)  # no time: the first steps timed, then one more
    assert tuner.step == tuner.steps == finetune.PLAN_AFTER + 1 and tuner.planned
    again = _tuner(init, tmp_path / "a.pt")
    assert again.resume() and (again.step, again.steps) == (tuner.step, tuner.steps)


def test_a_run_on_a_machine_grown_busy_is_planned_again_and_ends_on_time(init: Path, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(finetune.time, "monotonic", lambda: now[0])
    tuner = _tuner(init, tmp_path / "a.pt")

    def step() -> float:  # a second a step at first, then three (another job took a core)
        now[0] += 1.0 if tuner.step < finetune.PLAN_AFTER else 3.0
        return 0.0

    monkeypatch.setattr(tuner, "train_step", step)
    tuner.run(1000, seconds=100.0)
    # planned after 5 steps at 1 s: 95 more; after 25, at 65 s, 35 s left at 2.6 s a step (the pace so far): 13 more,
    # ending at 104 s, where the first plan ran to 290 s
    assert tuner.step == tuner.steps == 38
    assert now[0] == 104.0
    # resumed with time to spare, a run is planned again within the most steps its first session was given
    first = _tuner(init, tmp_path / "b.pt")
    monkeypatch.setattr(first, "train_step", lambda: 0.0)
    with pytest.raises(Killed):
        first.run(40, seconds=100.0, progress=kill_at_four, save_seconds=0)
    resumed = _tuner(init, tmp_path / "b.pt")
    monkeypatch.setattr(resumed, "train_step", lambda: 0.0)
    assert resumed.resume() and resumed.step == 3
    resumed.run(3000, seconds=1000.0)  # (mjscore train asks --steps, 3000, of every session)
    assert resumed.step == resumed.steps == 40
    # ... and a run whose most steps fall on a plan made again ends there, not a step beyond
    capped = _tuner(init, tmp_path / "c.pt")
    monkeypatch.setattr(capped, "train_step", lambda: 0.0)
    capped.run(2 * finetune.REPLAN, seconds=1000.0)
    assert capped.step == capped.steps == 2 * finetune.REPLAN


def test_labelled_tiles_are_cut_upright_or_sideways_as_labelled(tmp_path: Path) -> None:
    jpg, _, layout = synth.make_scene(synth.SceneSpec(1, 5, "test", 0.5, 0.5), [synth.plain_style()])
    (tmp_path / "a.jpg").write_bytes(jpg)
    tiles = [t for t in layout["tiles"] if t["visible"] >= 0.6]
    photo = Photo(tmp_path / "a.jpg", "train", tuple(Tile(t["label"], tuple(t["box"]), t["sideways"]) for t in tiles))
    asked = []

    def up_of(crops: np.ndarray, sideways: np.ndarray) -> np.ndarray:
        asked.append(sideways)
        return finetune.held_up(np.tile([0.4, 0.3, 0.2, 0.1], (len(crops), 1)), sideways)

    crops = photo_crops([photo], 48, up_of, seed=0, variants=3)
    assert crops.x.shape == (3 * len(tiles), 48, 48, 3)
    assert crops.y.tolist() == [CLASS_ID[t["label"]] for t in tiles] * 3
    assert asked[0].tolist() == [int(t["sideways"]) for t in tiles] and any(t["sideways"] for t in tiles)
    assert crops.up.tolist() == [1 if t["sideways"] else 0 for t in tiles] * 3
    first, jittered = crops.x[: len(tiles)], crops.x[len(tiles): 2 * len(tiles)]
    assert not np.array_equal(first, jittered)  # the second variant's boxes jittered
