"""A weights folder in use: ``mjscore PHOTO --weights DIR`` and ``mjscore detect --weights DIR`` (or
``MJ_WEIGHTS``) read with it, and the service loads it from ``MJ_WEIGHTS``; a bad folder is a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from api.config import Settings, get_settings
from api.main import create_app
from tests.vision.test_weights import shipped_copy
from vision.detector import TileDetector
from vision.shipped import MODELS
from vision.weights import FILES, load_detector

pytestmark = pytest.mark.skipif(not all((MODELS / f).exists() for f in FILES), reason="no shipped weights in models/")


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    from training import synth

    jpg, _, _ = synth.make_scene(synth.SceneSpec(2, 7, "test", 0.5, 0.5), [synth.plain_style()])
    (tmp_path / "hand.jpg").write_bytes(jpg)
    return tmp_path / "hand.jpg"


@pytest.fixture
def swapped(tmp_path: Path) -> Path:
    """A weights folder whose finder is the shipped set finder: it boxes a hand otherwise than the tile finder."""
    return shipped_copy(tmp_path / "swapped", tile_finder_onnx="set_finder.onnx")


def _boxes(out: str) -> list:
    return [d["box"] for d in json.loads(out)["detections"]]


def test_detect_reads_with_the_folder_given_or_in_mj_weights(photo: Path, swapped: Path, capsys,  # noqa: ANN001
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = [list(d.box) for d in load_detector(swapped).detect(photo)]
    assert theirs != [list(d.box) for d in TileDetector().detect(photo)]
    assert main(["detect", str(photo), "--weights", str(swapped), "--json"]) == 0
    assert _boxes(capsys.readouterr().out) == theirs
    monkeypatch.setenv("MJ_WEIGHTS", str(swapped))
    assert main(["detect", str(photo), "--json"]) == 0
    assert _boxes(capsys.readouterr().out) == theirs
    assert main([str(photo), "--json", "--self-draw"]) in (0, 1)
    assert [d["box"] for d in json.loads(capsys.readouterr().out)["recognition"]["detections"]] == theirs


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: d, "weights folder {d} does not exist"),
    (lambda d: (shipped_copy(d), (d / "flower_reader.onnx").unlink(), d)[-1], "weights folder {d} lacks flower_reader"),
    (lambda d: (shipped_copy(d), (d / "card.json").write_text(json.dumps({"names": ["x"]})), d)[-1],
     "{d}/card.json: the weights' class names are not the detector's: class 0 is 'x'"),
    (lambda d: shipped_copy(d, tile_classifier_onnx="mark_reader.onnx"), "no tile classifier of this version"),
], ids=["missing", "lacks-a-file", "other-names", "not-a-classifier"])
def test_a_bad_weights_folder_is_a_clear_error(photo: Path, tmp_path: Path, capsys, make, message: str) -> None:  # noqa: ANN001
    folder = make(tmp_path / "bad")
    assert main(["detect", str(photo), "--weights", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscore: model_not_found: ") and message.format(d=folder) in err
    assert "not installed" not in err  # the folder named is wrong, not the install
    assert main([str(photo), "--weights", str(folder), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "model_not_found"


def test_the_service_loads_the_folder_in_mj_weights(photo: Path, swapped: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = [list(d.box) for d in load_detector(swapped).detect(photo)]
    get_settings.cache_clear()
    monkeypatch.setenv("MJ_WEIGHTS", str(swapped))
    try:
        assert get_settings().weights == swapped
        with TestClient(create_app()) as c:
            assert c.get("/readyz").json()["ready"] is True
            r = c.post("/v1/recognize", files={"file": ("hand.jpg", photo.read_bytes(), "image/jpeg")})
            assert [d["box"] for d in r.json()["detections"]] == theirs
        monkeypatch.setenv("MJ_WEIGHTS", str(tmp_path / "nowhere"))
        get_settings.cache_clear()
        with TestClient(create_app()) as c:
            r = c.get("/readyz")
        assert r.status_code == 503 and f"weights folder {tmp_path / 'nowhere'} does not exist" in r.json()["detail"]
    finally:
        get_settings.cache_clear()


def test_an_empty_mj_weights_is_the_shipped_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJ_WEIGHTS", " ")
    assert Settings(_env_file=None).weights is None
