"""GET /healthz and /readyz."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.support import BrokenDetector, FakeDetector, jpeg, make_app


def test_healthz(bare):
    r = bare.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_readyz_with_a_model(client):
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json()["ready"] is True and r.json()["photo"] is True


def test_readyz_without_a_model(bare):
    r = bare.get("/readyz")
    assert r.status_code == 503
    assert r.json() == {"ready": False, "score": True, "photo": False, "detail": r.json()["detail"]}


def test_the_model_is_loaded_once_and_warmed_up(monkeypatch, tmp_path):
    """The lifespan builds the detector once and runs it on a blank image; a failed warm-up means not ready."""
    import vision.detector as vd
    from api.config import Settings
    from api.main import create_app

    built = []

    def factory(detector):
        def make(finder, classifier, config=None, readers=(), set_finder=None, captions=None, soft=None,
                 shaken=None, faces=None, row_finder=None, refiner=None):
            built.append((finder, classifier, *readers, set_finder, captions, soft, shaken, faces, row_finder,
                          refiner))
            return detector
        return make

    for detector, ready in ((FakeDetector(), 200), (BrokenDetector(), 503)):
        monkeypatch.setattr(vd, "TileDetector", factory(detector))
        app = create_app(Settings(load_model=True, finder_weights=tmp_path / "f.pt",
                                  classifier_weights=tmp_path / "c.onnx",
                                  reader_weights=f"{tmp_path / 'r.onnx'},{tmp_path / 'm.onnx'}",
                                  set_finder_weights=tmp_path / "s.onnx", caption_weights=tmp_path / "t.onnx",
                                  soft_classifier_weights=tmp_path / "b.onnx",
                                  shaken_classifier_weights=tmp_path / "k.onnx", face_weights=tmp_path / "e.onnx",
                                  row_finder_weights=tmp_path / "w.onnx", refiner_weights=tmp_path / "n.onnx"))
        with TestClient(app) as c:
            assert c.get("/readyz").status_code == ready
            for _ in range(3):
                c.get("/healthz")
            if ready == 503:  # a detector that fails its warm-up is not used: photos get 503, not 500
                r = c.post("/v1/recognize", files={"file": ("a.jpg", jpeg(), "image/jpeg")})
                assert r.status_code == 503 and "warm-up" in r.json()["error"]["message"]
        assert built[-1] == (tmp_path / "f.pt", tmp_path / "c.onnx", tmp_path / "r.onnx", tmp_path / "m.onnx",
                             tmp_path / "s.onnx", tmp_path / "t.onnx", tmp_path / "b.onnx", tmp_path / "k.onnx",
                             tmp_path / "e.onnx", tmp_path / "w.onnx", tmp_path / "n.onnx")
    assert len(built) == 2
    assert detector.__class__ is BrokenDetector


def test_readyz_when_loading_is_off():
    with TestClient(make_app(None, load_model=False)) as c:
        assert "MJ_LOAD_MODEL" in c.get("/readyz").json()["detail"]


def test_another_detector_by_import_path():
    from api.config import Settings
    from api.main import create_app

    app = create_app(Settings(load_model=True, detector="tests.api.support:FakeDetector"))
    with TestClient(app) as c:
        assert c.get("/readyz").status_code == 200
        assert type(app.state.detector).__name__ == "FakeDetector"
