"""The finder's training (``training/finder.py``) on a handful of generated photos: a run of one epoch, shipped as its
PyTorch weights and their ONNX export, which the detector's finder runs; the run's records kept beside them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort
from onnx import load as load_onnx

from training import synth
from training.card import keep_records
from training.finder import export_finder, train_finder
from vision.finder import Finder


def test_a_finder_run_of_one_epoch_ships_weights_the_detector_runs(tmp_path: Path) -> None:
    data = synth.generate(tmp_path / "ds", {"train": 4, "val": 2}, 0, Path("plain"), min_mp=0.1, max_mp=0.15,
                          progress=False).parent
    runs, models = tmp_path / "runs", tmp_path / "models"
    models.mkdir()
    best = train_finder(data, runs, epochs=1, imgsz=96, batch=2, hours=0)
    assert best.exists() and (runs / "finder" / "done").exists()
    onnx = export_finder(best, models=models)
    assert sorted(p.name for p in models.iterdir()) == ["tile_finder.onnx", "tile_finder.pt"] and onnx.parent == models
    assert any(t.name.endswith(".half") for t in load_onnx(str(onnx)).graph.initializer)  # stored compact
    finder = Finder(ort.InferenceSession(str(onnx), providers=["CPUExecutionProvider"]), onnx)
    rgb = np.random.default_rng(0).integers(0, 255, (120, 160, 3), np.uint8)
    out = finder.boxes(rgb, 96, 0.001, 0.5, 10)
    assert len(out[0]) <= 10 and all(len(a) == len(out[0]) for a in out)  # boxes and their scores, at most max_det
    rows = export_finder(best, models=models, row_finder=True)  # the finder of rows standing: ONNX only, int8 rows
    assert rows == models / "row_finder.onnx" and sorted(p.name for p in models.iterdir()) == [
        "row_finder.onnx", "tile_finder.onnx", "tile_finder.pt"]
    assert any(t.name.endswith(".int8") for t in load_onnx(str(rows)).graph.initializer)
    near = Finder(ort.InferenceSession(str(rows), providers=["CPUExecutionProvider"]), rows).boxes(rgb, 96, 0.001,
                                                                                                   0.5, 10)
    assert len(near[0]) <= 10
    kept = keep_records(runs, "finder", models / "runs")
    assert sorted(p.name for p in kept) == ["args.yaml", "results.csv"]
    again = train_finder(data, runs, epochs=1, imgsz=96, batch=2, hours=0)  # a finished run is not trained again
    assert again == best
