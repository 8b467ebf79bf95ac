"""Shared fixtures: real tile art for the tests that draw photos (the generator's, the detector's, the layout's)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("YOLO_OFFLINE", "1")
FLUFFY = Path(__file__).resolve().parents[2] / "shared" / "art" / "fluffystuff"


@pytest.fixture(scope="session")
def art_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Real tile art: the fetched faces if present (``MJ_ART``, else the cache's: ``python -m training fetch-art``),
    else fluffystuff rasterised now (needs rsvg-convert)."""
    from training import paths

    cached = Path(os.environ.get("MJ_ART") or paths.art() / "faces")
    if (cached / "fluffy").exists():
        return cached
    if shutil.which("rsvg-convert") is None or not FLUFFY.exists():
        pytest.skip("no tile art: run python -m training fetch-art or install librsvg2-bin")
    from training import fetch_art

    out = tmp_path_factory.mktemp("faces")
    fetch_art.fluffy_faces(FLUFFY, out)
    return out
