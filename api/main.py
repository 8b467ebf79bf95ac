"""The HTTP service: ``create_app()`` builds it; ``mjscore serve`` runs it with uvicorn (``factory=True``).

The service keeps no state between requests: any worker of any machine can answer any request.
"""

from __future__ import annotations

import importlib
import io
import json
import logging
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from api import schemas
from api.config import Settings, get_settings
from api.deps import PhotoSlots
from api.errors import add_handlers, clean
from api.headers import page_headers
from api.middleware import REQUEST_ID, RequestMiddleware
from api.routes import datasets, health, layout, recognize, rules, score
from api.scoring import ScorePool
from vision.errors import ModelNotFoundError

log = logging.getLogger("api")

STATIC = Path(__file__).parent / "static"

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
    add_handlers(app)
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
    app.state.score_pool = ScorePool(settings.score_threads, settings.score_queue, settings.score_seconds,
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
        app.state.score_pool.close()


def _load_model(app: FastAPI, settings: Settings) -> None:
    """Load the detector and run it once on a blank image; on any failure the service runs without photos."""
    started = time.perf_counter()
    try:
        if settings.detector:
            module, _, name = settings.detector.partition(":")
            detector = getattr(importlib.import_module(module), name)()
        elif settings.weights:  # a weights folder (mjscore train) in place of the files named one by one
            from vision.weights import load_detector

            detector = load_detector(settings.weights)
        else:
            from vision.detector import TileDetector

            detector = TileDetector(settings.finder_weights, settings.classifier_weights,
                                    readers=settings.reader_weights, set_finder=settings.set_finder_weights,
                                    captions=settings.caption_weights, soft=settings.soft_classifier_weights,
                                    shaken=settings.shaken_classifier_weights, faces=settings.face_weights,
                                    row_finder=settings.row_finder_weights, refiner=settings.refiner_weights)
    except ModelNotFoundError as exc:
        app.state.model_error = clean(str(exc))
        log.warning("no tile detector: %s; /readyz answers 503 and photo endpoints 503", exc)
        return
    except Exception as exc:  # a broken install must not keep scoring down
        app.state.model_error = clean(f"the detector failed to load: {type(exc).__name__}: {exc}")
        log.exception("the tile detector failed to load")
        return
    try:
        detector.detect(_blank_png())
    except Exception as exc:  # not ready: the photo endpoints answer 503 rather than fail on every photo
        app.state.model_error = clean(f"the detector loaded but failed its warm-up: {type(exc).__name__}: {exc}")
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
    hands = components["BatchRequest"]["properties"]["hands"]
    hands["maxItems"] = app.state.settings.max_batch
    hands["items"] = {"anyOf": [{"$ref": "#/components/schemas/ScoreRequest"}, {}]}  # the shape; anything answered
    for path, with_request in (("/v1/recognize", False), ("/v1/score-photo", True)):  # the parts as the server reads
        operation = spec["paths"][path]["post"]
        generated = operation["requestBody"]["content"]["multipart/form-data"]["schema"]["$ref"].rsplit("/", 1)[1]
        components.pop(generated, None)
        operation["requestBody"] = _photo_body(with_request)
    app.openapi_schema = spec
    return spec


def _photo_body(with_request: bool) -> dict[str, Any]:
    """The multipart body of a photo endpoint: a non-empty ``file`` and, to score it, the ``request`` part, a JSON
    object (PhotoRequest)."""
    properties: dict[str, Any] = {"file": {
        "type": "string", "format": "binary", "minLength": 1,
        "description": "the photo: JPEG, PNG, WebP or HEIC; EXIF orientation is applied"}}
    encoding = {"file": {"contentType": "image/jpeg, image/png, image/webp, image/heic"}}
    if with_request:
        properties["request"] = {"$ref": "#/components/schemas/PhotoRequest"}  # described there
        encoding["request"] = {"contentType": "application/json"}
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    return {"required": True, "content": {"multipart/form-data": {"schema": schema, "encoding": encoding}}}


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
            return _page(_plain_docs(app.openapi()))
        return _page(get_swagger_ui_html(openapi_url="/openapi.json", title="mjscore API",
                                         swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                         swagger_css_url="/docs-assets/swagger-ui.css",
                                         swagger_favicon_url="/docs-assets/favicon.png"))

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        if assets is None:
            return _page(_plain_docs(app.openapi()))
        return _page(get_redoc_html(openapi_url="/openapi.json", title="mjscore API",
                                    redoc_js_url="/docs-assets/redoc.standalone.js",
                                    redoc_favicon_url="/docs-assets/favicon.png", with_google_fonts=False))


def _page(page: str | HTMLResponse) -> HTMLResponse:
    """An HTML page with its own Content Security Policy (its inline scripts allowed by hash)."""
    html = page if isinstance(page, str) else bytes(page.body).decode()
    return HTMLResponse(html, headers=page_headers(html))


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
