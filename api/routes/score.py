"""POST /v1/score and /v1/score/batch: request objects in, result objects out (CONTRACT.md).

The scorer checks every field itself and names the wrong one, so the body is read as plain JSON and handed to
``scorer.request.score_request``; the pydantic models only document the shapes.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api import schemas
from api.deps import ApiError, SettingsDep
from scorer.request import error_object, score_request

log = logging.getLogger(__name__)

router = APIRouter(prefix="/score", tags=["score"])

INLINE_BATCH = 8  # batches up to this size are scored on the event loop; larger ones in a worker thread

ERRORS = {
    400: {"model": schemas.ErrorPublic, "description": "the body is not JSON (`bad_request`)"},
    413: {"model": schemas.ErrorPublic, "description": "the body is larger than MJ_MAX_JSON_BYTES (`too_large`)"},
}


def json_body(model: type, examples: dict[str, Any]) -> dict[str, Any]:
    """``openapi_extra`` for a JSON request body documented by a schemas model, with named examples."""
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"$ref": f"#/components/schemas/{model.__name__}"},
                    "examples": {name: {"summary": name, "value": value} for name, value in examples.items()},
                }
            },
        }
    }


async def read_json(request: Request) -> Any:
    """The request body as JSON; 400 ``bad_request`` when it is not JSON."""
    body = await request.body()
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        msg = f"the body is not JSON: {exc}"
        raise ApiError(400, "bad_request", msg) from None
    except RecursionError:
        raise ApiError(400, "bad_request", "the body is not JSON: nested too deeply") from None


_SEATS = ("seat_wind", "round_wind", "discarder")
MAX_TEXT = 512  # the longest string a request may hold: a hand is some 60 characters; 1 MB took the scorer 2 s


def precheck(obj: Any) -> str | None:
    """What the API refuses before the scorer sees it: over-long strings (the scorer's time grows with them, and
    it runs on the event loop) and wind fields that are not strings. None when the request may go on."""
    if not isinstance(obj, dict):
        return None
    for name, value in obj.items():
        if isinstance(value, str) and len(value) > MAX_TEXT:
            return f"{name!r} is {len(value)} characters long; at most {MAX_TEXT}"
        if isinstance(value, dict):
            for key, inner in value.items():
                if isinstance(inner, str) and len(inner) > MAX_TEXT:
                    return f"'{name}.{key}' is {len(inner)} characters long; at most {MAX_TEXT}"
    for name in _SEATS:  # the scorer raised TypeError on a list or object here (schemathesis found it)
        if name in obj and not isinstance(obj[name], str | None):
            return f"{name!r} must be one of E, S, W, N, not {obj[name]!r}"
    return None


def score_one(obj: Any) -> dict[str, Any]:
    """``score_request`` that also turns a scorer bug into an error object, so that a batch goes on."""
    problem = precheck(obj)
    if problem is not None:
        return error_object("bad_request", problem)
    try:
        return score_request(obj)
    except Exception:  # a bug in a rule set must not take the other hands of a batch with it
        log.exception("scorer failed on %r", obj)
        return error_object("internal_error", "the scorer failed on this hand; it has been logged")


@router.post(
    "",
    response_model=None,
    summary="Score one hand",
    responses={
        200: {
            "model": schemas.ScorePublic,
            "content": {"application/json": {"examples": {
                "mcr": {"summary": "MCR", "value": schemas.SCORE_RESULT_EXAMPLE},
                "riichi": {"summary": "Riichi", "value": schemas.RIICHI_RESULT_EXAMPLE},
            }}},
        },
        422: {
            "model": schemas.ErrorPublic,
            "description": "the hand or its context is wrong: `bad_notation`, `invalid_hand`, `not_winning`, "
                           "`bad_request`",
            "content": {"application/json": {"examples": {
                "bad_notation": {"summary": "bad notation", "value": schemas.NOTATION_ERROR_EXAMPLE},
                "not_winning": {"summary": "not a winning hand", "value": schemas.NOT_WINNING_EXAMPLE},
            }}},
        },
        **ERRORS,
    },
    openapi_extra=json_body(schemas.ScoreRequest, {
        "mcr": schemas.SCORE_REQUEST_EXAMPLE,
        "riichi": schemas.RIICHI_REQUEST_EXAMPLE,
        "bad notation": {"rules": "mcr", "hand": "123m+"},
    }),
)
async def score(request: Request) -> JSONResponse:
    """Score one hand: a request object in, the result object out (an error object with 422 on a bad hand)."""
    answer = score_one(await read_json(request))
    if answer["ok"]:
        return JSONResponse(answer)
    status = 500 if answer["error"]["code"] == "internal_error" else 422
    return JSONResponse(answer, status_code=status)


@router.post(
    "/batch",
    response_model=schemas.BatchPublic,
    summary="Score up to 1000 hands",
    responses={
        422: {"model": schemas.ErrorPublic, "description": "not {\"hands\": [...]} or more than 1000 hands"},
        **ERRORS,
    },
    openapi_extra=json_body(schemas.BatchRequest, {
        "three hands, one bad": {"hands": [
            schemas.SCORE_REQUEST_EXAMPLE, {"rules": "mcr", "hand": "123m+"}, schemas.RIICHI_REQUEST_EXAMPLE,
        ]},
    }),
)
async def score_batch(request: Request, settings: SettingsDep) -> JSONResponse:
    """Score many hands: one result or error object per hand, in order; 200 even where single hands fail."""
    body = await read_json(request)
    if not isinstance(body, dict) or not isinstance(body.get("hands"), list):
        raise ApiError(422, "bad_request", 'the body must be {"hands": [request, ...]}')
    unknown = sorted(set(body) - {"hands"})
    if unknown:
        raise ApiError(422, "bad_request", f'unknown field {unknown[0]!r}; the body is {{"hands": [...]}}')
    hands = body["hands"]
    if len(hands) > settings.max_batch:
        msg = f"{len(hands)} hands in one batch; at most {settings.max_batch}"
        raise ApiError(422, "too_many_hands", msg)
    if len(hands) <= INLINE_BATCH:
        results = [score_one(h) for h in hands]
    else:
        results = await anyio.to_thread.run_sync(lambda: [score_one(h) for h in hands])
    for number, answer in enumerate(results):
        if not answer["ok"]:
            answer["error"]["message"] = f"hand {number}: {answer['error']['message']}"
    return JSONResponse({"results": results})
