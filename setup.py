"""Packaging beside ``pyproject.toml``: the optional compiled build of the scorer.

``pip install .`` installs the pure-Python package; no compiler is needed. With ``MJSCORE_COMPILE=1``
the scorer's hot modules are also compiled by mypyc, which needs mypy and a C compiler::

    MJSCORE_COMPILE=1 python setup.py build_ext --inplace   # in a checkout: the .so files land beside the .py
    MJSCORE_COMPILE=1 pip install --no-build-isolation .    # installed, with mypy in the environment

Compiled modules behave as the pure ones (the same tests pass on both) and are imported in their place;
``git clean -fX scorer '*.so'`` in a checkout goes back to the pure ones.
"""

from __future__ import annotations

import os

from setuptools import find_packages, setup

# every package under scorer/, vision/, api/ and training/ (training ships too, harmless: nothing at run time imports
# it, and its PyTorch parts import only with the train extra); and models/ as data, installed as vision/models (not a
# top-level ``models`` of its own beside everyone's packages): the shipped weights and the finder's config to train
# on, where vision/detector.py looks for them first
PACKAGES = [*find_packages(include=["scorer", "scorer.*", "vision", "vision.*", "api", "api.*", "training",
                                    "training.*"]), "vision.models"]
PACKAGE_DATA = {"api": ["static/*"], "vision.models": ["*.onnx", "finder.yaml", "README.md"]}

# the hot modules; not the settings classes (config.py), whose docstrings document the options the service lists
COMPILED = [
    "scorer/tiles.py",
    "scorer/bounds.py",
    "scorer/hand.py",
    "scorer/suits.py",
    "scorer/decompose.py",
    "scorer/exclusions.py",
    "scorer/options.py",
    "scorer/result.py",
    "scorer/request.py",
    "scorer/mcr/__init__.py",
    "scorer/mcr/combinations.py",
    "scorer/mcr/patterns.py",
    "scorer/mcr/reading.py",
    "scorer/riichi/__init__.py",
    "scorer/riichi/context.py",
    "scorer/riichi/fu.py",
    "scorer/riichi/patterns.py",
    "scorer/riichi/points.py",
    "scorer/riichi/reading.py",
]


def _extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get("MJSCORE_COMPILE") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        msg = "MJSCORE_COMPILE=1 compiles with mypyc: install mypy first (pip install mypy), or leave it unset"
        raise SystemExit(msg) from exc
    return mypycify(COMPILED, opt_level="3", debug_level="0")


setup(ext_modules=_extensions(), packages=PACKAGES, package_dir={"vision.models": "models"},
      package_data=PACKAGE_DATA)
