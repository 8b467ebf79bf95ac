"""The runtime is ONNX Runtime: reading a photo, scoring it and serving never import PyTorch, ultralytics or the
training wing, so that ``pip install .`` (without the ``train`` extra) reads photos and serves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vision.shipped import CLASSIFIER_WEIGHTS, FINDER_WEIGHTS

ROOT = Path(__file__).resolve().parents[1]
TRAINING_ONLY = ("torch", "torchvision", "ultralytics", "training")

# run in a fresh interpreter: the photo read by the command, by the detector alone and by the service (its model loaded
# at start-up), a hand scored; then which training-only packages were imported on the way
RUN = """
import io, json, sys
from contextlib import redirect_stdout
photo = sys.argv[1]
from api.cli import main
out = io.StringIO()
with redirect_stdout(out):
    code = main([photo, "--rules", "mcr", "--self-draw", "--json"])
answer = json.loads(out.getvalue())
import vision
tiles = len(vision.detect(photo))
from fastapi.testclient import TestClient
from api.main import create_app
with TestClient(create_app()) as client:
    ready = client.get("/readyz").json()
    score = client.post("/v1/score", json={"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"})
    with open(photo, "rb") as f:
        served = client.post("/v1/score-photo", files={"file": ("hand.jpg", f, "image/jpeg")},
                             data={"request": json.dumps({"rules": "mcr", "self_draw": True})})
print(json.dumps({"code": code, "recognition": answer["recognition"], "tiles": tiles, "ready": ready,
                  "score": score.json(), "served": served.json(),
                  "imported": sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[2:]))}))
"""


@pytest.mark.skipif(not (FINDER_WEIGHTS.exists() and CLASSIFIER_WEIGHTS.exists()), reason="no shipped weights")
def test_reading_scoring_and_serving_import_no_training_package(art_dir: Path, tmp_path: Path) -> None:
    from training import synth

    styles = synth.load_styles(art_dir, exclude=list(synth.HELD_OUT_STYLES))
    jpg, _, layout = synth.make_scene(synth.SceneSpec(0, 2026, "test", 2.0, 2.0), styles)
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpg)
    env = {**os.environ, "YOLO_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", RUN, str(photo), *TRAINING_ONLY], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    # the photo was read by each: tiles found, the service ready with its model, a hand scored
    assert seen["tiles"] >= 0.5 * len(layout["tiles"]) and seen["recognition"]["detections"]
    tiles = [[d["tile"], d["box"]] for d in seen["recognition"]["detections"]]
    assert seen["ready"]["photo"] is True and tiles == [[d["tile"], d["box"]] for d in seen["served"]["recognition"][
        "detections"]] and seen["served"]["recognition"]["hand"] == seen["recognition"]["hand"]
    assert seen["score"]["ok"] is True and seen["score"]["total"] == 11
    assert seen["imported"] == []
