"""POST /v1/recognize and /v1/score-photo: a photo (multipart) to detections, layout and hand; and its score.

Every upload is checked before decoding (size, type sniffed from the bytes, pixels from the header); the model
runs in a worker thread, at most ``MJ_MAX_CONCURRENT_PHOTOS`` photos at a time per process.
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, File, Form, Request, UploadFile

from api import pipeline, schemas
from api.deps import ApiError, DetectorDep, SettingsDep, SlotsDep, check_photo, read_upload
from api.jsonio import NotJSON, loads
from api.schemas import MAX_KONGS
from scorer.errors import ContextError
from scorer.request import MAX_TEXT, check_request

router = APIRouter(tags=["photo"])

PHOTO_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.ErrorPublic, "description": "the photo cannot be read (`bad_image`) or the request part "
                                                       "is not JSON (`bad_request`)"},
    408: {"model": schemas.ErrorPublic, "description": "the body stalled for MJ_BODY_TIMEOUT_SECONDS (`timeout`)"},
    413: {"model": schemas.ErrorPublic, "description": "larger than MJ_MAX_UPLOAD_BYTES (`too_large`), or more than "
                                                       "MJ_MAX_PIXELS or MJ_MAX_DECODE_BYTES to decode "
                                                       "(`image_too_large`)"},
    415: {"model": schemas.ErrorPublic, "description": "not JPEG, PNG, WebP or HEIC (`unsupported_media_type`)"},
    422: {"model": schemas.ErrorPublic, "description": "a part is missing or the request object is wrong"},
    503: {"model": schemas.ErrorPublic, "description": "no model loaded yet (`model_not_ready`) or every photo slot "
                                                       "busy (`busy`); see Retry-After"},
}

FileField = Annotated[UploadFile, File(description="the photo: JPEG, PNG, WebP or HEIC; EXIF orientation is applied")]


async def one_part_each(http: Request) -> None:
    """One ``file`` part and at most one ``request`` part: a second would be read by no one (the form keeps one of
    each name), so it is refused rather than silently dropped."""
    form = await http.form()  # (parsed already for the parts: this is that form)
    for name in ("file", "request"):
        count = len(form.getlist(name))
        if count > 1:
            msg = f"the body holds {count} '{name}' parts; a request reads one photo: send each in its own request"
            raise ApiError(422, "bad_request", msg)


async def _photo_bytes(file: UploadFile, settings: Any) -> bytes:
    data = await read_upload(file, settings.max_upload_bytes)
    await anyio.to_thread.run_sync(check_photo, data, settings.max_pixels, settings.max_decode_bytes)
    return data


@router.post(
    "/recognize",
    response_model=schemas.RecognitionPublic,
    summary="Read the tiles of a photo",
    responses={200: {"content": {"application/json": {"example": schemas.RECOGNITION_EXAMPLE}}}, **PHOTO_ERRORS},
    dependencies=[Depends(one_part_each)],
)
async def recognize(
    file: FileField, settings: SettingsDep, detector: DetectorDep, slots: SlotsDep
) -> dict[str, Any]:
    """A photo in (multipart part ``file``); the detections, the layout and the hand they read as out."""
    data = await _photo_bytes(file, settings)
    result: dict[str, Any] = await slots.run(pipeline.recognize, data, detector)
    return result


def parse_photo_request(text: str) -> dict[str, Any]:
    """The ``request`` part, checked before the photo is read (``scorer.request.check_request``: every field but
    the hand, ranges included): a request object whose ``hand``, when present, corrects the reading, plus the
    pipeline's own fields (``concealed_kongs``, ``win_tile``)."""
    try:
        obj = loads(text)
    except NotJSON as exc:
        raise ApiError(400, "bad_request", f"the request part: {exc}") from None
    if not isinstance(obj, dict):
        raise ApiError(422, "bad_request", "the request part must be a JSON object, e.g. {\"rules\": \"mcr\"}")
    if "hand" in obj and not isinstance(obj["hand"], str | None):
        raise ApiError(422, "bad_request", "'hand' (a corrected reading) must be a string in notation")
    kongs = obj.get("concealed_kongs")
    if isinstance(kongs, list) and (len(kongs) > MAX_KONGS or not all(isinstance(k, str) for k in kongs)
                                    or any(len(k) > MAX_TEXT for k in kongs)):
        msg = f"'concealed_kongs' lists at most {MAX_KONGS} kongs, each a tile such as \"9p\""
        raise ApiError(422, "bad_request", msg)
    try:
        check_request(obj, frozenset(pipeline.PHOTO_FIELDS))
    except ContextError as exc:
        raise ApiError(422, exc.code, str(exc)) from None
    return obj


@router.post(
    "/score-photo",
    response_model=schemas.ScorePhotoPublic,
    summary="Read a photo and score the hand",
    responses={
        200: {"content": {"application/json": {"example": {
            "recognition": schemas.RECOGNITION_EXAMPLE, "result": schemas.SCORE_RESULT_EXAMPLE,
        }}}},
        **PHOTO_ERRORS,
    },
    dependencies=[Depends(one_part_each)],
)
async def score_photo(
    file: FileField,
    request: Annotated[str, Form(
        description='the request object as JSON, without "hand" (read from the photo; a "hand" given here corrects '
                    'the reading), plus "concealed_kongs" and "win_tile" where the photo cannot show them',
        examples=['{"rules": "mcr", "discarder": "S"}'],
        json_schema_extra={"contentMediaType": "application/json",
                           "contentSchema": {"$ref": "#/components/schemas/PhotoRequest"}},
    )],
    settings: SettingsDep,
    detector: DetectorDep,
    slots: SlotsDep,
) -> dict[str, Any]:
    """A photo (part ``file``) and a request object (part ``request``) in; the recognition and the result out."""
    obj = parse_photo_request(request)
    data = await _photo_bytes(file, settings)
    answer: dict[str, Any] = await slots.run(pipeline.score_photo, data, detector, obj)
    return answer
