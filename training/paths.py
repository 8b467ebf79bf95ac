"""Where training reads and writes, when a command is not told: every folder below is an option's default.

The cache (fetched art, generated datasets, training runs, benchmark output; never in git) is ``MJ_CACHE``, else
``cache`` in the working directory. The project's shared data (the real camerash photos, the CC0 fluffystuff art) is
``MJ_SHARED``, else ``../shared``: both as seen from the repository's root, where the commands are run. The shipped
weights are where detection reads them (``vision.shipped.MODELS``).
"""

from __future__ import annotations

import os
from pathlib import Path

from vision.shipped import MODELS

__all__ = ["MODELS", "art", "bench_file", "cache", "datasets", "fluffy", "real", "runs", "shared"]


def cache() -> Path:
    """The cache root: ``MJ_CACHE`` or ``./cache``."""
    return Path(os.environ.get("MJ_CACHE") or "cache")


def shared() -> Path:
    """The project's shared data: ``MJ_SHARED`` or ``../shared``."""
    return Path(os.environ.get("MJ_SHARED") or "../shared")


def art() -> Path:
    """The fetched tile art's cache (``fetch-art``, ``drawn-art``); its faces are in ``art() / "faces"``."""
    return cache() / "art"


def datasets() -> Path:
    """Generated datasets (``synth --out``)."""
    return cache() / "datasets"


def runs() -> Path:
    """Training runs and their checkpoints."""
    return cache() / "runs"


def bench_file() -> Path:
    """``bench/eval_vision.py``'s output, which the model card reads."""
    return cache() / "bench" / "eval_vision.json"


def real() -> Path:
    """The real camerash photos (single tiles; part of them held out of all training)."""
    return shared() / "real" / "camerash"


def fluffy() -> Path:
    """The CC0 fluffystuff tile art (SVG)."""
    return shared() / "art" / "fluffystuff"
