"""Shared fixtures for the vision tests: the generator (datasets/ is a data folder, not a package) and tile art."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "datasets"))
os.environ.setdefault("YOLO_OFFLINE", "1")

CACHED_ART = Path(os.environ.get("MJ_ART", "/work/cache/art/faces"))
FLUFFY = ROOT.parent / "shared" / "art" / "fluffystuff"


@pytest.fixture(scope="session")
def art_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Real tile art: the fetched cache if present, else fluffystuff rasterised now (needs rsvg-convert)."""
    if (CACHED_ART / "fluffy").exists():
        return CACHED_ART
    if shutil.which("rsvg-convert") is None or not FLUFFY.exists():
        pytest.skip("no tile art: run datasets/fetch_art.py or install librsvg2-bin")
    import fetch_art

    out = tmp_path_factory.mktemp("faces")
    fetch_art.fluffy_faces(FLUFFY, out)
    return out
