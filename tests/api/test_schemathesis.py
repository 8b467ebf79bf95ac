"""schemathesis against the service's own OpenAPI schema: no server errors, answers that match the schema.

The checks: no 5xx, status codes that the schema documents, content types, answer bodies and headers that match
their schemas. Left out: schemathesis' positive/negative data checks, since a schema-valid body can still hold a hand
that is no hand (422 by design) and a batch answers 200 with an error object for each bad hand (the contract).
Bounded for CI: a few examples per operation (MJ_SCHEMATHESIS_EXAMPLES, default 15), no deadline.
"""

from __future__ import annotations

import os

import pytest

schemathesis = pytest.importorskip("schemathesis")
if int(schemathesis.__version__.split(".")[0]) < 4:
    pytest.skip("written for schemathesis 4 (openapi.from_asgi, checks)", allow_module_level=True)
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import negative_data_rejection, positive_data_acceptance  # noqa: E402

from tests.api.support import FakeDetector, make_app  # noqa: E402

EXAMPLES = int(os.environ.get("MJ_SCHEMATHESIS_EXAMPLES", "15"))

app = make_app(FakeDetector(), photo_queue_seconds=30)
app.state.photo_slots = None  # set by the lifespan, which schemathesis' ASGI client runs
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.fixture(scope="module", autouse=True)
def _lifespan():
    from fastapi.testclient import TestClient

    with TestClient(app):  # runs the lifespan once (photo slots), then the cases run against the same app
        yield


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_matches_its_schema(case):
    response = case.call()
    assert response.status_code < 500, response.text
    case.validate_response(response, excluded_checks=[positive_data_acceptance, negative_data_rejection])
