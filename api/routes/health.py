"""GET /healthz (the process is up) and GET /readyz (this worker can read photos too)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api import schemas

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=schemas.HealthPublic, summary="Liveness",
            responses={200: {"content": {"application/json": {"example": {"status": "ok"}}}}})
async def healthz() -> dict[str, str]:
    """The process is up and answering (it never checks the model)."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=schemas.ReadyPublic,
    summary="Readiness",
    responses={
        200: {"content": {"application/json": {"example": {"ready": True, "score": True, "photo": True,
                                                              "detail": "model loaded; warm-up answered"}}}},
        503: {"model": schemas.ReadyPublic, "description": "no model loaded: scoring works, photos do not",
              "content": {"application/json": {"example": {
                  "ready": False, "score": True, "photo": False,
                  "detail": "model weights not found: models/tile_finder.onnx"}}}},
    },
)
async def readyz(request: Request) -> JSONResponse:
    """Ready when the model is loaded and answered a warm-up image at start-up; 503 otherwise."""
    state = request.app.state
    ready = getattr(state, "detector", None) is not None and getattr(state, "model_ok", False)
    detail = "model loaded; warm-up answered" if ready else (getattr(state, "model_error", None) or "model not loaded")
    body = {"ready": ready, "score": True, "photo": ready, "detail": detail}
    return JSONResponse(body, status_code=200 if ready else 503)
