"""The classifier's training (``training/classifier.py``): decoy styles left out of its crops, and a short run
from a shipped network's float twin that keeps the twin's folded norms fixed, also when resumed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training import synth
from training.classifier import load_synth, train_classifier
from vision.names import NAMES

REAL = Path(__file__).resolve().parents[3] / "shared" / "real" / "camerash"


def _dataset(root: Path) -> Path:
    """A tiny dataset whose first train and val photos are relabelled as a decoy style's."""
    data = synth.generate(root, {"train": 3, "val": 2}, 0, Path("plain"), min_mp=0.3, max_mp=0.4,
                          progress=False).parent
    for split in ("train", "val"):
        js = sorted((data / "layout" / split).glob("*.json"))[0]
        layout = json.loads(js.read_text())
        js.write_text(json.dumps({**layout, "style": f"{synth.DECOY_PREFIX}00"}))
    return data


def _tiles(data: Path, split: str, decoys: bool) -> int:
    return sum(sum(t["visible"] >= 0.6 for t in json.loads(js.read_text())["tiles"])
               for js in (data / "layout" / split).glob("*.json")
               if decoys or not json.loads(js.read_text())["style"].startswith(synth.DECOY_PREFIX))


def test_decoy_styles_are_left_out_when_asked(tmp_path: Path) -> None:
    data = _dataset(tmp_path / "ds")
    rng = np.random.default_rng(0)
    _, every, _ = load_synth(data, "train", 1, rng, size=32)
    _, plain, _ = load_synth(data, "train", 1, rng, size=32, decoys=False)
    assert len(every) == _tiles(data, "train", True) > len(plain) == _tiles(data, "train", False) > 0



def test_tiles_of_the_names_left_out_leave_the_crops(tmp_path: Path) -> None:
    data = _dataset(tmp_path / "ds")
    _, every, _ = load_synth(data, "train", 1, np.random.default_rng(0), size=32)
    gone = ("5z", "back")
    _, kept, _ = load_synth(data, "train", 1, np.random.default_rng(0), size=32, leave_out=gone)
    ids = [NAMES.index(n) for n in gone]
    assert np.isin(every, ids).any() and not np.isin(kept, ids).any()
    assert len(kept) == len(every) - int(np.isin(every, ids).sum())


@pytest.mark.skipif(not REAL.exists(), reason="../shared/real/camerash not beside the repository")
def test_a_run_from_a_twin_keeps_its_norms_and_leaves_decoys_out(tmp_path: Path) -> None:
    import torch

    from training.net import TileNet

    data = _dataset(tmp_path / "ds")
    torch.manual_seed(0)
    init = tmp_path / "twin.pt"
    torch.save({"model": TileNet(len(NAMES)).state_dict(), "frozen_norms": True}, init)
    start = torch.load(init, weights_only=False)["model"]
    run = tmp_path / "run"
    train_classifier([data], REAL, run, 1, init=init, size=32)
    summary = train_classifier([data], REAL, run, 2, init=init, size=32)  # resumed for a second epoch
    assert summary["train_crops"] == 2 * _tiles(data, "train", False)
    assert summary["history"][-1]["synth_val"]["n"] == _tiles(data, "val", False)
    trained = torch.load(run / "last.pt", weights_only=False)
    assert trained["frozen_norms"] is True and trained["epoch"] == 1
    for k in ("features.0.1.running_mean", "features.3.1.running_var"):  # the norms as the twin folded them
        assert torch.equal(trained["model"][k], start[k])
    assert not torch.equal(trained["model"]["features.0.0.weight"], start["features.0.0.weight"])


def test_distillation_needs_the_network_it_keeps(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="distil needs init"):
        train_classifier([tmp_path / "none"], REAL, tmp_path / "run", 1, size=32, distil=1.0)


@pytest.mark.skipif(not REAL.exists(), reason="../shared/real/camerash not beside the repository")
def test_distillation_keeps_the_names_of_the_network_it_started_from(tmp_path: Path) -> None:
    import torch

    from training.classifier import load_real
    from training.finetune import distillation
    from training.net import TileNet

    data = _dataset(tmp_path / "ds")
    torch.manual_seed(1)
    init = tmp_path / "start.pt"
    start = TileNet(len(NAMES))
    torch.save({"model": start.state_dict()}, init)
    x, _ = load_real(REAL, holdout=True, size=32)
    shown = torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        taught = start.eval()(shown)[0]
    drift = {}
    for distil in (0.0, 5.0):
        run = tmp_path / f"run{distil}"
        summary = train_classifier([data], REAL, run, 1, init=init, size=32, faults=0.5, distil=distil)
        assert summary["distil"] == distil and summary["faults"] == 0.5
        net = TileNet(len(NAMES))
        net.load_state_dict(torch.load(run / "last.pt", weights_only=False)["model"])
        with torch.no_grad():
            drift[distil] = float(distillation(net.eval()(shown)[0], taught))
    assert drift[5.0] < 0.5 * drift[0.0]
