"""POST /v1/score and /v1/score/batch: request objects in, result objects out (CONTRACT.md).

The scorer checks every field itself and names the wrong one (``scorer.request.check_request``), so the body is
handed, as the bytes it came as, to a scoring thread (``api.scoring``), which reads the JSON, scores it and writes
the answer; the pydantic models document the shapes. The event loop only checks the media type and reads the body.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute

from api import schemas
from api.deps import ApiError
from api.jsonio import NotJSON, loads
from api.scoring import ScorePool, score_batch_body, score_body


class RawRoute(APIRoute):
    """A route documented like any other, whose endpoint takes the ``Request`` and returns the ``Response`` itself:
    FastAPI's parameter solving and serialisation (a quarter of a score request's time outside the scorer) are
    skipped, since these endpoints read raw bytes and write raw bytes."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler: Callable[[Request], Coroutine[Any, Any, Response]] = self.endpoint
        return handler


router = APIRouter(prefix="/score", tags=["score"], route_class=RawRoute)

JSON = "application/json"
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.ErrorPublic, "description": "the body is not JSON (`bad_request`)"},
    408: {"model": schemas.ErrorPublic, "description": "the body stalled for MJ_BODY_TIMEOUT_SECONDS (`timeout`)"},
    413: {"model": schemas.ErrorPublic, "description": "the body is larger than MJ_MAX_JSON_BYTES (`too_large`)"},
    415: {"model": schemas.ErrorPublic, "description": "the body is not sent as application/json "
                                                       "(`unsupported_media_type`)"},
    503: {"model": schemas.ErrorPublic, "description": "too many score requests in work (`busy`) or the time budget "
                                                       "MJ_SCORE_SECONDS ran out (`timeout`); see Retry-After"},
}


def json_body(model: type, examples: dict[str, Any]) -> dict[str, Any]:
    """``openapi_extra`` for a JSON request body documented by a schemas model, with named examples."""
    return {
        "requestBody": {
            "required": True,
            "content": {
                JSON: {
                    "schema": {"$ref": f"#/components/schemas/{model.__name__}"},
                    "examples": {name: {"summary": name, "value": value} for name, value in examples.items()},
                }
            },
        }
    }


async def read_body(request: Request) -> bytes:
    """The body of a JSON request: 415 unless its ``Content-Type`` is ``application/json`` (a browser sends other
    types, such as ``text/plain``, from any page without asking the service first: no CORS preflight)."""
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != JSON:
        msg = f"send the body as {JSON} (the Content-Type header), not {media[:60] or 'without a type'}"
        raise ApiError(415, "unsupported_media_type", msg)
    return await request.body()  # a client that leaves meanwhile: ClientDisconnect, logged 499 (api.middleware)


async def read_json(request: Request) -> Any:
    """The body of a JSON request read as JSON on the event loop (small bodies of the other JSON endpoints): 415 as
    ``read_body``, 400 ``bad_request`` when it is not JSON."""
    try:
        return loads(await read_body(request))
    except NotJSON as exc:
        raise ApiError(400, "bad_request", str(exc)) from None


def _answer(status_and_body: tuple[int, bytes]) -> Response:
    status, body = status_and_body
    return Response(body, status_code=status, media_type=JSON)


def score_pool(request: Request) -> ScorePool:
    """The worker's pool of scoring threads (``api.scoring``): the CPU-bound work of a request runs there, off the
    event loop, in its queue and time budget."""
    pool: ScorePool = request.app.state.score_pool
    return pool


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
async def score(request: Request) -> Response:
    """Score one hand: a request object in, the result object out (an error object with 422 on a bad hand)."""
    body = await read_body(request)
    return _answer(await score_pool(request).run(partial(score_body, body)))


@router.post(
    "/batch",
    response_model=schemas.BatchPublic,
    summary="Score up to 1000 hands",
    responses={
        422: {"model": schemas.ErrorPublic, "description": "not {\"hands\": [...]} (`bad_request`) or more than "
                                                           "MJ_MAX_BATCH hands (`too_many_hands`)"},
        **ERRORS,
    },
    openapi_extra=json_body(schemas.BatchRequest, {
        "three hands, one bad": {"hands": [
            schemas.SCORE_REQUEST_EXAMPLE, {"rules": "mcr", "hand": "123m+"}, schemas.RIICHI_REQUEST_EXAMPLE,
        ]},
    }),
)
async def score_batch(request: Request) -> Response:
    """Score many hands: one result or error object per hand, in order; 200 even where single hands fail."""
    body = await read_body(request)
    max_batch = request.app.state.settings.max_batch
    return _answer(await score_pool(request).run(partial(score_batch_body, body, max_batch=max_batch)))
