"""Every error answer is the contract's error object ``{"ok": false, "error": {"code": ..., "message": ...}}``.

One handler per exception base (``ApiError``, Starlette's ``HTTPException``, FastAPI's validation error, the scorer's
and the vision stage's errors); a message never shows a memory address, a file's path or a traceback.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from api.datasets.errors import DatasetError
from api.deps import ApiError
from api.jsonio import FastJSONResponse
from scorer.errors import ScorerError
from vision.errors import BadImageError, ImageTooLargeError, ModelNotFoundError, VisionError

log = logging.getLogger("api")

HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 408: "timeout", 413: "too_large",
              415: "unsupported_media_type", 422: "bad_request", 429: "too_many_requests", 503: "unavailable"}
MAX_MESSAGE = 1000  # characters of a message; the rest is cut
_ADDRESS = re.compile(r"<[^<>]{0,200}? at 0x[0-9A-Fa-f]+>")  # <_io.BytesIO object at 0x7f...>
_PATH = re.compile(r"(?<![\w./])(?:/[\w.@+-]+)+/([\w@+-][\w.@+-]*\.\w+)", re.ASCII)  # /root/x/models/a.onnx


def clean(message: str) -> str:
    """A message fit for a client: object reprs and absolute paths taken out (a file keeps its name), and cut.

    >>> clean("cannot identify image file <_io.BytesIO object at 0x7f3a2b1c>")
    'cannot identify image file (the upload)'
    >>> clean("model weights not found: /srv/app/models/tile_finder.onnx; see GET /v1/rules")
    'model weights not found: tile_finder.onnx; see GET /v1/rules'
    """
    text = _PATH.sub(r"\1", _ADDRESS.sub("(the upload)", message))
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
    return FastJSONResponse({"ok": False, "error": {"code": code, "message": clean(message)}}, status_code=status,
                            headers=headers)


def add_handlers(app: FastAPI) -> None:
    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error_response(exc.status_code, exc.code, exc.message, exc.headers)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if isinstance(exc, ApiError):
            return await api_error(request, exc)
        code = HTTP_CODES.get(exc.status_code, "bad_request" if exc.status_code < 500 else "unavailable")
        headers = exc.headers
        methods = allowed(app, request.url.path) if exc.status_code == 405 else []
        if methods:  # Starlette names only the first route's methods where a path has several
            headers = {**(headers or {}), "Allow": ", ".join(methods)}
        return error_response(exc.status_code, code, str(exc.detail), headers)

    async def validation_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return error_response(422, "bad_request", describe(exc.errors()))

    async def scorer_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ScorerError)
        return error_response(422, exc.code, str(exc))

    async def vision_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, VisionError)
        if isinstance(exc, ModelNotFoundError):
            return error_response(503, exc.code, str(exc), {"Retry-After": str(app.state.settings.retry_after_seconds)})
        status = 413 if isinstance(exc, ImageTooLargeError) else 400 if isinstance(exc, BadImageError) else 422
        return error_response(status, exc.code, str(exc))

    async def dataset_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, DatasetError)
        return error_response(exc.status, exc.code, str(exc))

    async def internal_error(request: Request, exc: Exception) -> Response:
        rid = request.scope.get("state", {}).get("request_id", "?")
        log.error("unhandled error in %s %s (request %s)", request.method, request.url.path, rid, exc_info=exc)
        return error_response(500, "internal_error", f"internal error; quote request id {rid}")

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(ScorerError, scorer_error)
    app.add_exception_handler(VisionError, vision_error)
    app.add_exception_handler(DatasetError, dataset_error)
    app.add_exception_handler(Exception, internal_error)


def allowed(app: FastAPI, path: str) -> list[str]:
    """The methods the schema documents for ``path`` (its templates' ``{name}`` matching one path segment)."""
    methods: set[str] = set()
    for template, ops in app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            methods.update(m.upper() for m in ops)
    return sorted(methods)


def describe(errors: Any) -> str:
    """FastAPI's validation errors as one sentence, e.g. ``body.file: Field required``."""
    parts = []
    for err in list(errors)[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"
