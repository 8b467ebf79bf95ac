"""The HTTP service: ``create_app()`` builds it; ``mjscore serve`` runs it with uvicorn (``factory=True``).

The service keeps no state between requests: any worker of any machine can answer any request.
"""

from __future__ import annotations

import importlib
import io
import json
import logging
import re
import sys
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import schemas
from api.config import Settings, get_settings
from api.datasets.errors import DatasetError
from api.deps import ApiError, PhotoSlots
from api.routes import datasets, health, layout, recognize, rules, score
from scorer.errors import ScorerError
from vision.errors import BadImageError, ModelNotFoundError, VisionError

log = logging.getLogger("api")
access = logging.getLogger("api.access")

STATIC = Path(__file__).parent / "static"
REQUEST_ID = "X-Request-ID"
PHOTO_PATHS = ("/v1/recognize", "/v1/score-photo")
MULTIPART_SLACK = 1_000_000  # the multipart envelope and the request part, beside the photo itself
_ID_OK = re.compile(r"[A-Za-z0-9._:-]{1,128}")

DESCRIPTION = """
Score revealed mahjong hands (MCR, Riichi, Guangdong, Fuzhou) from notation or from a phone photo.

Bodies follow CONTRACT.md. Every error is `{"ok": false, "error": {"code": ..., "message": ...}}` with a 4xx
status (503 when the model is not loaded or every photo slot is busy). Each answer carries an `X-Request-ID`
header (the client's own, when it sends a valid one). Settings: environment variables `MJ_*` (docs/api.md).
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI application; ``settings`` defaults to the environment's (``MJ_*``)."""
    settings = settings or get_settings()
    _setup_logging(settings)
    app = FastAPI(
        title="mjscore",
        version="1",
        summary="Read and score mahjong hands",
        description=DESCRIPTION,
        lifespan=_lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.dependency_overrides[get_settings] = lambda: settings
    for router in (score.router, rules.router, recognize.router, layout.router, datasets.router):
        app.include_router(router, prefix="/v1")
    app.include_router(health.router)
    app.mount("/static", StaticFiles(directory=STATIC, html=True), name="static")

    @app.get("/annotate", include_in_schema=False)
    async def annotate() -> RedirectResponse:
        return RedirectResponse("/static/annotate.html")

    _add_docs(app)
    _add_handlers(app)
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST"],
                           allow_headers=["*"], expose_headers=[REQUEST_ID, "Retry-After"])
    app.add_middleware(RequestMiddleware, settings=settings)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


# --- start-up: the model is loaded once per process --------------------------------------------------------------


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    app.state.photo_slots = PhotoSlots(settings.max_concurrent_photos, settings.photo_queue_seconds,
                                       settings.retry_after_seconds)
    if not hasattr(app.state, "detector"):  # a test may have put one in already
        app.state.detector = None
        app.state.model_ok = False
        app.state.model_error = None
        if settings.load_model:
            await anyio.to_thread.run_sync(_load_model, app, settings)
        else:
            app.state.model_error = "model loading is off (MJ_LOAD_MODEL=false)"
    log.info(json.dumps({"event": "startup", "photo": app.state.model_ok, "detail": app.state.model_error}))
    try:
        yield
    finally:
        app.state.photo_slots.close()


def _load_model(app: FastAPI, settings: Settings) -> None:
    """Load the detector and run it once on a blank image; on any failure the service runs without photos."""
    started = time.perf_counter()
    try:
        if settings.detector:
            module, _, name = settings.detector.partition(":")
            detector = getattr(importlib.import_module(module), name)()
        elif settings.weights:  # a weights folder (mjscore train) in place of the files named one by one
            from vision.detector import TileDetector

            detector = TileDetector.from_folder(settings.weights)
        else:
            from vision.detector import TileDetector

            detector = TileDetector(settings.finder_weights, settings.classifier_weights,
                                    readers=settings.reader_weights, set_finder=settings.set_finder_weights,
                                    captions=settings.caption_weights)
    except ModelNotFoundError as exc:
        app.state.model_error = str(exc)
        log.warning("no tile detector: %s; /readyz answers 503 and photo endpoints 503", exc)
        return
    except Exception as exc:  # a broken install must not keep scoring down
        app.state.model_error = f"the detector failed to load: {type(exc).__name__}: {exc}"
        log.exception("the tile detector failed to load")
        return
    try:
        detector.detect(_blank_png())
    except Exception as exc:  # not ready: the photo endpoints answer 503 rather than fail on every photo
        app.state.model_error = f"the detector loaded but failed its warm-up: {type(exc).__name__}: {exc}"
        log.exception("the tile detector failed its warm-up")
    else:
        app.state.detector = detector
        app.state.model_ok = True
    log.info(json.dumps({"event": "model_loaded", "seconds": round(time.perf_counter() - started, 2),
                         "ok": app.state.model_ok}))


def _blank_png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (320, 240), (40, 110, 60)).save(buf, "PNG")
    return buf.getvalue()


# --- errors: always the contract's error object ------------------------------------------------------------------

_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large",
               415: "unsupported_media_type", 422: "bad_request", 429: "too_many_requests", 503: "unavailable"}


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"ok": False, "error": {"code": code, "message": message}}, status_code=status,
                        headers=headers)


def _add_handlers(app: FastAPI) -> None:
    async def api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return error_response(exc.status_code, exc.code, exc.message, exc.headers)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if isinstance(exc, ApiError):
            return await api_error(request, exc)
        code = _HTTP_CODES.get(exc.status_code, "bad_request" if exc.status_code < 500 else "unavailable")
        headers = exc.headers
        allowed = _allowed(app, request.url.path) if exc.status_code == 405 else []
        if allowed:  # Starlette names only the first route's methods where a path has several
            headers = {**(headers or {}), "Allow": ", ".join(allowed)}
        return error_response(exc.status_code, code, str(exc.detail), headers)

    async def validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(422, "bad_request", _describe(exc.errors()))

    async def scorer_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ScorerError)
        return error_response(422, exc.code, str(exc))

    async def vision_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, VisionError)
        if isinstance(exc, ModelNotFoundError):
            return error_response(503, exc.code, str(exc), {"Retry-After": str(app.state.settings.retry_after_seconds)})
        status = 400 if isinstance(exc, BadImageError) else 422
        return error_response(status, exc.code, str(exc))

    async def dataset_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, DatasetError)
        return error_response(exc.status, exc.code, str(exc))

    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
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


def _allowed(app: FastAPI, path: str) -> list[str]:
    """The methods the schema documents for ``path`` (its templates' ``{name}`` matching one path segment)."""
    methods: set[str] = set()
    for template, ops in app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            methods.update(m.upper() for m in ops)
    return sorted(methods)


def _describe(errors: Any) -> str:
    """FastAPI's validation errors as one sentence, e.g. ``body.file: Field required``."""
    parts = []
    for err in list(errors)[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"


# --- request id, one log line, body limits (a plain ASGI middleware: cheap on the hot path) ----------------------


def body_limit(path: str, settings: Settings) -> int:
    """The largest body a path takes: a photo upload, a dataset archive, or JSON."""
    if path in PHOTO_PATHS or path.startswith("/v1/datasets/") and path.endswith("/photos"):
        return settings.max_upload_bytes + MULTIPART_SLACK
    if path.startswith("/v1/datasets/") and path.endswith("/import"):
        return settings.max_import_bytes + MULTIPART_SLACK
    return settings.max_json_bytes


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, "too_large", f"the body is larger than {limit} bytes")


class RequestMiddleware:
    """Give each request an id (echoed in ``X-Request-ID``), write one JSON log line, and cap the body size."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.log = settings.access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = ""
        declared = 0
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                text = value.decode("latin-1")
                if _ID_OK.fullmatch(text):
                    rid = text
            elif name == b"content-length":
                declared = int(value) if value.isdigit() else 0
        rid = rid or uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = rid
        limit = body_limit(scope["path"], self.settings)
        status = 0
        sent = 0
        received = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), (b"x-request-id", rid.encode())]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        try:
            if declared > limit:  # refused before a byte of the body is read
                msg = f"the body is larger than {limit} bytes"
                await error_response(413, "too_large", msg)(scope, receive, send_with_id)
            else:
                await self.app(scope, capped_receive, send_with_id)
        except Exception as exc:  # the catch-all: logged with its request id, answered with the error object
            log.error("unhandled error in %s %s (request %s)", scope["method"], scope["path"], rid, exc_info=exc)
            if not status:
                message = f"internal error; quote request id {rid}"
                await error_response(500, "internal_error", message)(scope, receive, send_with_id)
            status = status or 500
        finally:
            if self.log:
                self._log(scope, rid, status, sent, started)

    @staticmethod
    def _log(scope: Scope, rid: str, status: int, sent: int, started: float) -> None:
        client = scope.get("client")
        access.info(json.dumps({
            "request_id": rid,
            "method": scope["method"],
            "path": scope["path"],
            "status": status,
            "ms": round((time.perf_counter() - started) * 1000, 2),
            "bytes": sent,
            "client": client[0] if client else None,
        }, separators=(",", ":")))


def _setup_logging(settings: Settings) -> None:
    """Service log lines go to stderr as they are (already JSON); uvicorn's own access line is turned off."""
    logger = logging.getLogger("api")
    logger.setLevel(settings.log_level.upper())
    if not logger.handlers and not logging.getLogger().handlers:  # uvicorn sets up only its own loggers
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    logging.getLogger("uvicorn.access").disabled = True  # one line per request is ours


# --- OpenAPI and the docs pages, served without a CDN ------------------------------------------------------------


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The schema, with the request models that the score endpoints read as raw JSON added to the components."""
    if app.openapi_schema:
        return app.openapi_schema
    spec = get_openapi(title=app.title, version=app.version, summary=app.summary, description=app.description,
                       routes=app.routes)
    components = spec.setdefault("components", {}).setdefault("schemas", {})
    for model in (schemas.ScoreRequest, schemas.BatchRequest, schemas.PhotoRequest):
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in schema.pop("$defs", {}).items():
            components.setdefault(name, sub)
        components[model.__name__] = schema
    app.openapi_schema = spec
    return spec


def _offline_assets() -> Path | None:
    """Swagger UI and ReDoc shipped by the ``fastapi-offline`` package, when it is installed."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    return folder if (folder / "swagger-ui-bundle.js").exists() else None


def _add_docs(app: FastAPI) -> None:
    """/docs: Swagger UI from local files (no CDN); without them a plain page rendered from the schema."""
    assets = _offline_assets()
    if assets is not None:
        app.mount("/docs-assets", StaticFiles(directory=assets), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        if assets is None:
            return HTMLResponse(_plain_docs(app.openapi()))
        return get_swagger_ui_html(openapi_url="/openapi.json", title="mjscore API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon.png")

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        if assets is None:
            return HTMLResponse(_plain_docs(app.openapi()))
        return get_redoc_html(openapi_url="/openapi.json", title="mjscore API",
                              redoc_js_url="/docs-assets/redoc.standalone.js",
                              redoc_favicon_url="/docs-assets/favicon.png", with_google_fonts=False)


def _plain_docs(spec: dict[str, Any]) -> str:
    """A self-contained HTML page of every endpoint with its summary, description and examples."""
    from html import escape

    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(spec['info']['title'])} API</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
             "pre{background:#f4f4f4;padding:.6em;overflow:auto}h2{border-top:1px solid #ccc;padding-top:.6em}"
             "code{background:#f4f4f4}</style></head><body>",
             f"<h1>{escape(spec['info']['title'])} API</h1><p>{escape(spec['info'].get('description', ''))}</p>",
             "<p>The machine-readable schema: <a href='/openapi.json'>/openapi.json</a>. "
             "(Install <code>fastapi-offline</code> for the interactive Swagger UI.)</p>"]
    for path, methods in spec.get("paths", {}).items():
        for method, op in methods.items():
            parts.append(f"<h2><code>{method.upper()} {escape(path)}</code> {escape(op.get('summary', ''))}</h2>")
            parts.append(f"<p>{escape(op.get('description', ''))}</p>")
            for mime, media in op.get("requestBody", {}).get("content", {}).items():
                for name, ex in media.get("examples", {}).items():
                    parts.append(f"<p>Request ({escape(mime)}) {escape(name)}:</p>"
                                 f"<pre>{escape(json.dumps(ex.get('value'), ensure_ascii=False, indent=1))}</pre>")
            for status, resp in op.get("responses", {}).items():
                parts.append(f"<p><b>{escape(status)}</b> {escape(resp.get('description', ''))}</p>")
                media = resp.get("content", {}).get("application/json", {})
                examples = [media["example"]] if "example" in media else [
                    e.get("value") for e in media.get("examples", {}).values()]
                for ex in examples[:2]:
                    parts.append(f"<pre>{escape(json.dumps(ex, ensure_ascii=False, indent=1))}</pre>")
    parts.append("</body></html>")
    return "".join(parts)
