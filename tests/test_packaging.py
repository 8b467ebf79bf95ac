"""The wheel ``pip install .`` builds: the shipped weights inside ``vision`` (no top-level ``models`` package beside
everyone's), the page's files, the command; and the detector finds the weights where the wheel puts them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_ships_the_weights_inside_vision(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, cwd=tmp_path, capture_output=True)
    (wheel,) = tmp_path.glob("mjscore-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"api", "scorer", "training", "vision", wheel.name.split("-py3")[0] + ".dist-info"}, tops
    shipped = {p.name for p in (ROOT / "models").glob("*.onnx")} | {"finder.yaml", "README.md"}
    assert {name.removeprefix("vision/models/") for name in names if name.startswith("vision/models/")} == shipped
    assert "api/static/annotate.html" in names
    entry = zipfile.ZipFile(wheel).read(wheel.name.split("-py3")[0] + ".dist-info/entry_points.txt").decode()
    assert "mjscore = api.cli:main" in entry


def test_the_detector_looks_in_vision_models_first(tmp_path: Path) -> None:
    # a copy of vision/ with a models folder inside it, as the wheel installs it: MODELS is that folder
    import shutil

    shutil.copytree(ROOT / "vision", tmp_path / "vision", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "vision" / "models").mkdir()
    code = "import vision.shipped as d; print(d.MODELS)"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert out.stdout.strip() == str(tmp_path / "vision" / "models")
    from vision.shipped import MODELS

    assert MODELS == ROOT / "models"  # a checkout: beside vision/
