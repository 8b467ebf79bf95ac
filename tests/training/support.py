"""What the tests of ``mjscore train`` share: tiny scenes to label, and the command run in a child process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from training import synth

ROOT = Path(__file__).resolve().parents[2]
# a few steps, nothing replayed (no camerash photos), the finder left as shipped: seconds
QUICK = ["--steps", "3", "--real", "none", "--finder", "never", "--threads", "1"]


def scenes(n: int, seed: int) -> list:
    styles = [synth.plain_style(), synth.plain_style((200, 220, 235), "blue")]
    out = []
    for i in range(n):
        jpg, _, layout = synth.make_scene(synth.SceneSpec(i, seed, "test", 0.4, 0.6), styles)
        out.append((jpg, None, layout))
    return out


def train(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "api.cli", "train", *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "MJ_DATA_DIR": str(data_dir), "YOLO_OFFLINE": "1"},
                          timeout=600, check=False)
