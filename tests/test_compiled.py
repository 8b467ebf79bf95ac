"""The compiled build of the scorer (mypyc, ``MJSCORE_COMPILE=1`` in ``setup.py``) passes the scorer's tests, as the
pure-Python one does: a copy of the checkout is compiled in place and its scorer tests run in a child process."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("scorer", "api", "vision", "bench", "tests", "pyproject.toml", "setup.py")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.so", "build", "browser", "training", "vision", "datasets")


def test_the_compiled_scorer_passes_the_scorer_tests(tmp_path: Path) -> None:
    if shutil.which("cc") is None or importlib.util.find_spec("mypyc") is None:
        if os.environ.get("CI"):
            pytest.fail("the compiled build needs a C compiler and mypy (the dev extra)")
        pytest.skip("no C compiler or no mypyc here")
    copy = tmp_path / "mjscore"
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=None if name in ("vision", "api") else SKIPPED)
        else:
            shutil.copy2(source, copy / name)
    (tmp_path / "shared").symlink_to(ROOT.parent / "shared")  # the conformance vectors, beside the checkout
    env = {**os.environ, "MJSCORE_COMPILE": "1"}
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=copy, env=env,
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    compiled = sorted(str(p.relative_to(copy)) for p in (copy / "scorer").rglob("*.so"))
    assert len(compiled) >= 10 and any(name.startswith("scorer/suits.") for name in compiled)

    probe = "import scorer.suits, scorer.mcr; print(scorer.suits.__file__, scorer.mcr.__file__)"
    where = subprocess.run([sys.executable, "-c", probe], cwd=copy, capture_output=True, text=True, check=True)
    assert where.stdout.split() and all(path.endswith(".so") for path in where.stdout.split())

    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header",
                            "-o", "addopts=--import-mode=importlib", "tests/scorer", "tests/test_cli.py"],
                           cwd=copy, capture_output=True, text=True, check=False)
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert " passed" in tests.stdout and " failed" not in tests.stdout
