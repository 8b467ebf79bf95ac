"""The package's ``__all__`` is sorted and complete, as ``tests/test_architecture.py`` asks of every package."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("name", ["scorer.guangdong", "scorer.fuzhou"])
def test_all_is_sorted_and_importable(name: str) -> None:
    module = importlib.import_module(name)
    assert list(module.__all__) == sorted(module.__all__)
    for item in module.__all__:
        assert hasattr(module, item), item
