"""Fixtures of the API tests (helpers in support.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.api.support import FakeDetector, make_app


@pytest.fixture
def fake() -> FakeDetector:
    return FakeDetector()


@pytest.fixture
def client(fake: FakeDetector) -> Iterator[TestClient]:
    with TestClient(make_app(fake)) as c:
        yield c


@pytest.fixture
def bare() -> Iterator[TestClient]:
    """The service with no model at all, as it starts before weights are shipped."""
    with TestClient(make_app(None)) as c:
        yield c
