"""The face refiner's training (``training/refine.py``): its crops, each face as the face network finds it cut flat
with a margin, and the true faces' corners in them, as drawn in the generated photos; and a short run whose export,
shipped with int8 weights, the detector's ``FaceRefiner`` loads, resumed only as started."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training import synth
from training.refine import SIZE, load_refine, ship_refiner, train_refiner
from vision.faces import REFINE_INSET, FaceReader, FaceRefiner, canonical
from vision.shipped import FACE_WEIGHTS

pytestmark = pytest.mark.skipif(not FACE_WEIGHTS.exists(), reason="no shipped face network in models/")


@pytest.fixture(scope="module")
def standing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("refine") / "low"
    return synth.generate(out, {"train": 2, "val": 1}, 0, Path("plain"), min_mp=0.5, max_mp=0.6, progress=False,
                          camera="low").parent


@pytest.fixture(scope="module")
def faces() -> FaceReader:
    import onnxruntime as ort

    return FaceReader(ort.InferenceSession(str(FACE_WEIGHTS)), FACE_WEIGHTS)


def test_the_crops_hold_each_face_found_and_the_true_faces_corners(standing: Path, faces: FaceReader) -> None:
    x, corners, stands = load_refine(standing, "val", faces, np.random.default_rng(0), variants=3)
    scene = json.loads(next((standing / "layout" / "val").glob("*.json")).read_text())
    tiles = [t for t in scene["tiles"] if t["visible"] >= 0.6 and t["label"] != "back"]
    n = len(tiles)
    assert n and x.shape == (3 * n, SIZE, SIZE, 3) and corners.shape == (3 * n, 8)
    assert stands[:n].tolist() == [t["stands"] for t in tiles] and stands[:n].sum() >= 2
    inside = corners.reshape(-1, 4, 2)
    assert np.array_equal(canonical(inside), inside)
    # the face network finds the faces near where they lie: the true ones near the square's inset corners
    inset = np.array([[REFINE_INSET] * 2, [1 - REFINE_INSET, REFINE_INSET], [1 - REFINE_INSET] * 2,
                      [REFINE_INSET, 1 - REFINE_INSET]])
    err = np.abs(inside - inset).max(2).mean(1)
    assert np.median(err[:n]) < 0.15 and np.median(err[n:2 * n]) < 0.15  # (a plain style at half a megapixel)
    # the third variant: the rows network's faces moved at random, the true faces further from the inset corners
    assert np.median(err[2 * n:]) > np.median(err[:n])


def test_a_short_run_exports_a_refiner_shipped_as_int8_and_resumes_only_as_started(
        standing: Path, tmp_path: Path) -> None:
    import onnxruntime as ort

    run = tmp_path / "run"
    summary = train_refiner([standing], run, FACE_WEIGHTS, steps=3, batch=8, threads=1)
    assert summary["steps"] == 3 and summary["history"][-1]["step"] == 3
    assert {"all_p50", "all_p90", "lying_p50"} <= set(summary["history"][-1]["val"])
    assert {"all_p50", "lying_p50"} <= set(summary["history"][0]["val_found"])  # the faces as found, to beat
    refiner = FaceRefiner(ort.InferenceSession(str(run / "face_refiner.onnx")))
    quads = np.array([[[20.0, 30], [80, 30], [80, 45], [20, 45]]])
    again = refiner.refined(np.zeros((200, 200, 3), np.uint8), quads)
    assert again.shape == (1, 4, 2) and np.isfinite(again).all()
    with pytest.raises(ValueError, match="started with 3 steps"):
        train_refiner([standing], run, FACE_WEIGHTS, steps=5, batch=8, threads=1)
    shipped = ship_refiner(run, tmp_path / "models" / "face_refiner.onnx")
    assert shipped.stat().st_size < (run / "face_refiner.onnx").stat().st_size / 2  # int8 weights
    small = FaceRefiner(ort.InferenceSession(str(shipped)), shipped)
    float_ = refiner.refined(np.full((200, 200, 3), 120, np.uint8), quads)
    assert np.abs(small.refined(np.full((200, 200, 3), 120, np.uint8), quads) - float_).max() < 2.0


def test_the_shipped_refiner_finds_the_faces_of_a_fresh_photo_nearer_than_found(standing: Path,
                                                                               faces: FaceReader) -> None:
    import onnxruntime as ort

    from vision.shipped import REFINER_WEIGHTS

    if not REFINER_WEIGHTS.exists():
        pytest.skip("no shipped face refiner in models/")
    x, corners, _ = load_refine(standing, "train", faces, np.random.default_rng(0), variants=2)
    got = ort.InferenceSession(str(REFINER_WEIGHTS)).run(
        None, {"faces": np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255})[0]
    a, b = REFINE_INSET, 1 - REFINE_INSET
    found = np.array([[a, a, b, a, b, b, a, b]], np.float32)
    off = {k: np.median(np.linalg.norm((v - corners).reshape(-1, 4, 2), axis=2).mean(1)) for k, v in
           (("found", found), ("refined", got))}
    assert off["refined"] < 0.75 * off["found"], off
