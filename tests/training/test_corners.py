"""The face network's training (``training/corners.py``): its crops and the faces' corners in them, as drawn in the
generated photos, and a short run whose export the detector's ``FaceReader`` loads, resumed only as started."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training import synth
from training.corners import SIZE, load_faces, ship_corners, train_corners, with_rows
from vision.faces import canonical


@pytest.fixture(scope="module")
def standing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("faces") / "low"
    return synth.generate(out, {"train": 2, "val": 1}, 0, Path("plain"), min_mp=0.5, max_mp=0.6, progress=False,
                          camera="low").parent


def test_the_crops_hold_the_faces_drawn_with_their_corners(standing: Path) -> None:
    x, corners, across, stands = load_faces(standing, "val", np.random.default_rng(0), variants=2)
    scene = json.loads(next((standing / "layout" / "val").glob("*.json")).read_text())
    tiles = [t for t in scene["tiles"] if t["visible"] >= 0.6 and t["label"] != "back"]
    n = len(tiles)
    assert n and x.shape == (2 * n, SIZE, SIZE, 3) and corners.shape == (2 * n, 8) and across.shape == (2 * n,)
    # the row stands on its edges (the concealed tiles and the winning tile), as the sidecar says
    assert stands[:n].tolist() == [t["stands"] for t in tiles] and stands[:n].sum() >= 2
    inside = corners.reshape(-1, 4, 2)
    # each face's middle lies in its crop (a box jittered by a twentieth of its side moves it a little; a tile
    # partly hidden by its neighbour is boxed where it shows, its face running on past its crop), canonical
    assert np.all(inside.mean(1) > 0.1) and np.all(inside.mean(1) < 0.9)
    assert np.all(inside > -0.5) and np.all(inside < 1.5)
    assert np.array_equal(canonical(inside), inside)
    # two cuts of each tile: the same faces, their corners a little apart
    assert np.abs(inside[:n] - inside[n:]).max() < 0.25 and not np.array_equal(inside[:n], inside[n:])
    # the faces as the sidecar draws them: the art's up along the crop's height or width as its quad says
    up = np.array([np.subtract(t["quad"][0], t["quad"][3]) for t in tiles])
    assert across[:n].tolist() == (np.abs(up[:, 0]) > np.abs(up[:, 1])).tolist()


def test_a_split_without_faced_tiles_says_how_to_make_them(tmp_path: Path) -> None:
    (tmp_path / "layout" / "val").mkdir(parents=True)
    with pytest.raises(ValueError, match="no faced tiles in .*synth --camera low"):
        load_faces(tmp_path, "val", np.random.default_rng(0))


def test_a_short_run_exports_a_face_network_and_resumes_only_as_started(standing: Path, tmp_path: Path) -> None:
    import onnx
    import onnxruntime as ort

    from vision.faces import FaceReader

    run = tmp_path / "run"
    summary = train_corners([standing], run, steps=3, batch=8, threads=1)
    assert summary["steps"] == 3 and summary["history"][-1]["step"] == 3
    assert set(summary["history"][-1]["val"]) == {"corner_p50", "corner_p90", "across", "stands"}
    reader = FaceReader(ort.InferenceSession(str(run / "face_corners.onnx")))
    rgb = np.zeros((200, 200, 3), np.uint8)
    quads, across, stands, flat, rows = reader.faces(rgb, np.array([[20.0, 30.0, 80.0, 110.0]]), np.zeros(1))
    assert quads.shape == (1, 4, 2) and across.shape == (1,) and np.isfinite(quads).all() and 0 < stands[0] < 1
    assert not flat and rows is None  # found, not taken for any crops; the file holds no network for rows
    with pytest.raises(ValueError, match="started with 3 steps"):
        train_corners([standing], run, steps=5, batch=8, threads=1)
    shipped = ship_corners(run, tmp_path / "models" / "face_corners.onnx")
    int8 = ort.InferenceSession(str(shipped))
    assert any(n.op_type == "QuantizeLinear" for n in onnx.load(str(shipped)).graph.node)
    assert [o.shape for o in int8.run(None, {"crops": np.zeros((2, 3, SIZE, SIZE), np.float32)})] == [
        (2, 8), (2, 1), (2, 1)]


def test_a_run_started_from_another_fine_tunes_its_network(standing: Path, tmp_path: Path) -> None:
    import torch

    first = train_corners([standing], tmp_path / "first", steps=2, batch=8, threads=1)
    assert first["init"] is None
    weights = torch.load(tmp_path / "first" / "last.pt", weights_only=False)["model"]
    tuned = train_corners([standing], tmp_path / "tuned", steps=1, batch=8, lr=1e-12, threads=1,
                          init=tmp_path / "first")
    assert tuned["init"] == "first"
    again = torch.load(tmp_path / "tuned" / "last.pt", weights_only=False)["model"]
    # a step too small to move them: the first run's weights, not a fresh network's (batch norm's counts aside)
    assert all(torch.allclose(weights[k].float(), again[k].float(), atol=1e-6) for k in weights
               if "running" not in k and "num_batches" not in k)
    with pytest.raises(FileNotFoundError, match="no face run to start from"):
        train_corners([standing], tmp_path / "other", steps=1, batch=8, threads=1, init=tmp_path / "none")


def test_a_network_for_rows_standing_is_shipped_beside_the_face_network(standing: Path, tmp_path: Path) -> None:
    import onnx
    import onnxruntime as ort

    from vision.faces import FaceReader

    for name, steps in (("lying", 2), ("rows", 3), ("rows2", 1)):  # three networks, each trained its own way
        train_corners([standing], tmp_path / name, steps=steps, batch=8, threads=1)
    dest = tmp_path / "models" / "face_corners.onnx"
    ship_corners(tmp_path / "lying", dest)
    alone = ort.InferenceSession(str(dest))
    x = np.random.default_rng(0).random((3, 3, SIZE, SIZE), dtype=np.float32)
    first = alone.run(None, {"crops": x})
    for name in ("rows", "rows2"):  # the second replaces the first
        ship_corners(tmp_path / name, dest, rows=True)
        merged = ort.InferenceSession(str(dest))
        assert [o.name for o in merged.get_outputs()] == FaceReader.OUTPUTS + FaceReader.ROW_OUTPUTS
        got = merged.run(None, {"crops": x})
        rows = ort.InferenceSession(str(ship_corners(tmp_path / name, tmp_path / f"{name}.onnx"))).run(
            None, {"crops": x})
        # the face network's outputs as before, and the rows network's corners and across flags as it gives them
        assert all(np.array_equal(a, b) for a, b in zip(got[:3], first, strict=True))
        assert np.array_equal(got[3], rows[0]) and np.array_equal(got[4], rows[1])
        assert not np.array_equal(got[3], first[0])
    nodes = onnx.load(str(dest)).graph.node
    assert len(nodes) < 2 * len(onnx.load(str(tmp_path / "rows.onnx")).graph.node)  # the replaced one dropped
    reader = FaceReader(merged)
    faces = reader.faces(np.zeros((200, 200, 3), np.uint8), np.array([[20.0, 30.0, 80.0, 110.0]]), np.zeros(1))
    assert faces.rows is not None and faces.as_rows().quads.shape == (1, 4, 2)
    assert not np.array_equal(faces.as_rows().quads, faces.quads)
    with pytest.raises(ValueError, match="is no face network"):
        with_rows(_renamed_outputs(tmp_path / "rows.onnx", tmp_path / "odd.onnx"), dest, tmp_path / "x.onnx")


def _renamed_outputs(src: Path, dest: Path) -> Path:
    """The network at ``src`` with its first output named otherwise, written to ``dest``."""
    import onnx

    model = onnx.load(str(src))
    old = model.graph.output[0].name
    for node in model.graph.node:
        node.output[:] = ["other" if o == old else o for o in node.output]
    model.graph.output[0].name = "other"
    onnx.save(model, str(dest))
    return dest
