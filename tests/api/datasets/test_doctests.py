"""The examples in the docstrings of api.datasets hold (pytest's doctest run covers scorer and vision only)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["api.datasets.names", "api.datasets.labels", "api.datasets.export"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
