"""The package boundaries of STYLE.md, checked on the source: scorer is standard library only,
vision never imports scorer or api, neither imports the training wing; and each package's ``__all__`` is sorted and
complete."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _imports(package: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update((str(path.relative_to(ROOT)), alias.name.split(".")[0]) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add((str(path.relative_to(ROOT)), node.module.split(".")[0]))
    return found


def test_scorer_imports_only_the_standard_library() -> None:
    outside = {(f, m) for f, m in _imports("scorer") if m != "scorer" and m not in sys.stdlib_module_names}
    assert outside == set()


def test_vision_never_imports_scorer_or_api() -> None:
    assert {(f, m) for f, m in _imports("vision") if m in ("scorer", "api")} == set()


def test_the_runtime_never_imports_the_training_wing() -> None:
    """vision and api run on ONNX Runtime: PyTorch, ultralytics and ``training`` (the ``train`` extra) stay out."""
    training_only = {"torch", "torchvision", "ultralytics", "training"}
    assert {(f, m) for package in ("vision", "api") for f, m in _imports(package) if m in training_only} == set()


@pytest.mark.parametrize("name", ["scorer", "scorer.mcr", "vision"])
def test_all_is_sorted_and_importable(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert list(exported) == sorted(exported)
    for item in exported:
        assert hasattr(module, item), item
