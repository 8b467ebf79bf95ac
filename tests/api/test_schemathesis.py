"""schemathesis against the service's own OpenAPI document, with positive and negative data and every check.

Every check is on: no 5xx, documented statuses, content types, headers and bodies that match their schemas, schema-
valid data accepted (``positive_data_acceptance``) and schema-violating data refused (``negative_data_rejection``),
unsupported methods answered 405 with ``Allow``, and the rest. Where a schema cannot say what the server checks,
the positive statuses allow it, and ``content_errors_only`` checks that such an answer is about the content:

- ``/v1/score``: a hand that is no hand (``bad_notation``, ``invalid_hand``, ``not_winning``) or facts that contradict
  each other (``bad_request``, robbing a kong on a self-draw ...) are 422 whatever the schema says; never a field
  of the wrong shape or out of range, which the schema describes.
- the photo endpoints: bytes that are no photo are 400 ``bad_image`` or 415 ``unsupported_media_type``.
- ``/v1/layout``: boxes outside the photo, or ``win`` past the last box, are 422 ``bad_labels``.

schemathesis' ``analysis.constants`` is off: it puts literals found in our Python source into generated bodies and
still calls them positive, which breaks the per-rule-set ``oneOf`` (an ``mcr`` request with a ``fuzhou`` object);
those bodies fail a JSON Schema validator against the document, so they are not positive data.

Bounded for CI: MJ_SCHEMATHESIS_EXAMPLES examples per operation in the fuzzing phase (default 25), a fixed seed
(derandomize), and the examples and coverage phases as schemathesis runs them. ``MJ_SCHEMATHESIS_RANDOM=1`` draws a
new seed for a longer local run.
"""

from __future__ import annotations

import os
import re

import pytest

schemathesis = pytest.importorskip("schemathesis")
if int(schemathesis.__version__.split(".")[0]) < 4:
    pytest.skip("written for schemathesis 4 (openapi.from_asgi, checks, config)", allow_module_level=True)
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

from tests.api.support import FakeDetector, make_app  # noqa: E402

EXAMPLES = int(os.environ.get("MJ_SCHEMATHESIS_EXAMPLES", "25"))
CONFIG = SchemathesisConfig.from_str("""
[analysis.constants]
enabled = false

[[operations]]
include-path-regex = "^/v1/score$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "422"]

[[operations]]
include-path-regex = "^/v1/(recognize|score-photo)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "415"]

[[operations]]
include-path-regex = "^/v1/layout$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "422"]
""")
HAND_CODES = {"bad_notation", "invalid_hand", "not_winning", "bad_request"}
PHOTO_CODES = {"bad_image", "unsupported_media_type"}
CONTENT_CODES = {"/v1/score": HAND_CODES, "/v1/score/batch": HAND_CODES, "/v1/recognize": PHOTO_CODES,
                 "/v1/score-photo": PHOTO_CODES, "/v1/layout": {"bad_labels"}}
SHAPE = re.compile(r"must be (a whole number|true or false|one of|an object|a string)|unknown (field|option)|"
                   r"characters long|not JSON")

app = make_app(FakeDetector(), photo_queue_seconds=30)
schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=CONFIG)
CALLS: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def _lifespan():
    from fastapi.testclient import TestClient

    with TestClient(app):  # runs the lifespan once (photo slots, scoring pool); the cases run against the same app
        yield


def content_errors_only(ctx, response, case):
    """A schema-valid request refused with 4xx is refused for its content, never for its shape."""
    codes = CONTENT_CODES.get(case.operation.path)
    if codes is None or case.meta is None or not case.meta.generation.mode.is_positive or response.status_code < 400:
        return None
    error = response.json()["error"]
    assert error["code"] in codes, f"{case.operation.label}: valid data refused with {error}"
    assert not SHAPE.search(error["message"]), f"{case.operation.label}: valid data refused for its shape: {error}"
    return None


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not os.environ.get("MJ_SCHEMATHESIS_RANDOM"))
def test_api_matches_its_schema(case):
    CALLS.append(case.operation.label)
    case.call_and_validate(additional_checks=[content_errors_only])


def test_the_run_was_not_empty():
    """The cases above ran (this test runs after them, in file order): every operation was tried, many times."""
    if not CALLS:
        pytest.skip("run alone; the schemathesis cases did not run in this session")
    assert {label.split()[1] for label in CALLS} >= {"/v1/score", "/v1/score/batch", "/v1/recognize",
                                                      "/v1/score-photo", "/v1/rules", "/healthz", "/readyz"}
    assert len(CALLS) > 1000
    print(f"schemathesis sent {len(CALLS)} requests")  # noqa: T201 - shown with pytest -s
