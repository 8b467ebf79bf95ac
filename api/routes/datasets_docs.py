"""OpenAPI documentation of /v1/datasets and /v1/layout: examples of each answer and body, and the errors."""

from __future__ import annotations

from typing import Any

from api import schemas
from api.datasets.labels import MAX_BOXES
from vision.names import NAMES

AT = "2025-05-01T10:00:00Z"
LABELS: dict[str, Any] = {
    "image": {"width": 640, "height": 120},
    "boxes": [{"tile": "5z", "box": [10.0, 20.0, 46.0, 70.0], "sideways": True},
              {"tile": "5z", "box": [50.0, 20.0, 86.0, 70.0], "sideways": False},
              {"tile": "5z", "box": [90.0, 20.0, 126.0, 70.0], "sideways": False}],
    "melds": [{"kind": "pung", "boxes": [0, 1, 2]}],
    "win": None,
    "hand": None,
    "group": "hand-7",
    "status": "labelled",
}
RECORD: dict[str, Any] = {"dataset": "my-set", "photo": "img-0042.jpg", "version": 3, "saved_at": AT,
                          "saved_by": "ana", "sha256": "9f2c...e41a", **LABELS}
PROGRESS: dict[str, Any] = {"name": "my-set", "photos": 12, "todo": 5, "labelled": 4, "reviewed": 3, "groups": 10,
                            "boxes": 168, "tiles": {"1m": 4, "5z": 3, "back": 4}, "unshown": ["4z", "7f", "8f"]}
DATASETS: dict[str, Any] = {"datasets": [{"name": "my-set", "created_at": AT, "created_by": "ana", "photos": 12,
                                          "todo": 5, "labelled": 4, "reviewed": 3}]}
PHOTOS: dict[str, Any] = {"photos": [{"photo": "img-0042.jpg", "version": 3, "status": "labelled", "group": "hand-7",
                                      "boxes": 14, "width": 4032, "height": 3024, "saved_at": AT, "saved_by": "ana"}]}
LOG: dict[str, Any] = {"log": [{"at": AT, "who": "ana", "action": "save", "photo": "img-0042.jpg",
                                "detail": "version 3: 14 boxes, labelled"}]}
VERSIONS: dict[str, Any] = {"versions": [{"version": 3, "saved_at": AT, "saved_by": "ana", **LABELS}]}
ADDED: dict[str, Any] = {**RECORD, "version": 1, "status": "todo", "saved_by": "ana", "note": "pre-labelled: 14 tiles"}
PRELABEL: dict[str, Any] = {**LABELS, "note": "pre-labelled: 3 tiles"}
IMPORTED: dict[str, Any] = {"dataset": "my-set", "format": "cvat", "added": 40, "duplicates": 2,
                            "skipped": [{"file": "obj_train_data/frame_000007.jpg",
                                         "reason": "the photo is a GIF file; send JPEG, PNG, WebP or HEIC"}],
                            "photos": ["frame_000001.jpg"], "ignored_classes": [], "created": False}
LAYOUT_REQUEST: dict[str, Any] = {"image": {"width": 640, "height": 120}, "detections": [
    {"tile": t, "box": [10 + 40 * i + (40 if i == 13 else 0), 20, 46 + 40 * i + (40 if i == 13 else 0), 70],
     "sideways": False}
    for i, t in enumerate(["2m", "3m", "4m", "4p", "5p", "6p", "3s", "4s", "5s", "6s", "7s", "9s", "9s", "8s"])]}
LAYOUT: dict[str, Any] = {"hand": "234m456p3456799s +8s", "reason": None, "melds": [], "win": 13,
                          "layout": {"rows": [], "melds": [], "win_tile_assumed": False, "notes": []}}
NO_HAND: dict[str, Any] = {"hand": None, "melds": [], "win": None, "layout": {"notes": []},
                           "reason": "read 13 tiles (kongs counted as 3) but a hand has 14 (17 in Fuzhou): 1 tile(s) "
                                     "missing; ..."}

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.ErrorPublic, "description": "a dataset, photo or group name that is not allowed "
                                                       "(`bad_name`), a photo that cannot be read (`bad_image`), a "
                                                       "body that is not JSON or multipart (`bad_request`)"},
    401: {"model": schemas.ErrorPublic, "description": "no token, or not MJ_ANNOTATE_TOKEN (`unauthorized`)"},
    403: {"model": schemas.ErrorPublic, "description": "MJ_ANNOTATE_TOKEN is not set (`annotate_disabled`)"},
    404: {"model": schemas.ErrorPublic, "description": "`dataset_not_found` or `photo_not_found`"},
    409: {"model": schemas.ErrorPublic, "description": "`version_conflict` (saved by someone else since; reload), "
                                                       "`dataset_exists`, `duplicate_photo`"},
    413: {"model": schemas.ErrorPublic, "description": "a photo or archive over its limit (`too_large`)"},
    415: {"model": schemas.ErrorPublic, "description": "not JPEG, PNG, WebP or HEIC (`unsupported_media_type`)"},
    422: {"model": schemas.ErrorPublic, "description": "`bad_labels`, `bad_archive`, `unknown_classes`, "
                                                       "`empty_export`, `bad_request`"},
    503: {"model": schemas.ErrorPublic, "description": "the data folder cannot be written (`storage_unavailable`), "
                                                       "or no detector (`model_not_ready`)"},
    507: {"model": schemas.ErrorPublic, "description": "the disk is full (`storage_full`); nothing was changed"},
}


def answers(example: dict[str, Any], status: int = 200) -> dict[int | str, dict[str, Any]]:
    """``responses`` for an endpoint answering JSON like ``example``, and the errors."""
    return {status: {"content": {"application/json": {"example": example}}}, **ERRORS}


def file_answer(media: tuple[str, ...], what: str) -> dict[int | str, dict[str, Any]]:
    """``responses`` for an endpoint answering a file."""
    return {200: {"description": what, "content": {m: {"schema": {"type": "string", "format": "binary"}}
                                                   for m in media}}, **ERRORS}


def json_body(examples: dict[str, Any], schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """``openapi_extra`` documenting a JSON body read by hand, with named examples (and its schema, when given)."""
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": schema or {"type": "object"},
        "examples": {name: {"summary": name, "value": value} for name, value in examples.items()}}}}}


# The body of POST /v1/layout as api.datasets.labels reads it; what a schema cannot say (a box inside the photo,
# x0 < x1, ``win`` an index of a box) is 422 bad_labels.
LAYOUT_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["image", "detections"],
    "properties": {
        "image": {"type": "object", "required": ["width", "height"], "properties": {
            "width": {"type": "integer", "minimum": 1}, "height": {"type": "integer", "minimum": 1}}},
        "detections": {"type": "array", "maxItems": MAX_BOXES, "items": {
            "type": "object", "required": ["tile", "box"], "additionalProperties": False, "properties": {
                "tile": {"enum": list(NAMES)},
                "box": {"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "number"}},
                "sideways": {"type": "boolean"}, "confidence": {"type": "number"},
                # a recognition's detections as they come: their alternatives and sideways_p not read, their
                # stands read as the layout reads a photo's
                "alternatives": {"type": "array", "items": {"type": "object"}},
                "sideways_p": {"type": "number"},
                "stands": {"type": "number", "minimum": 0, "maximum": 1}}}},
        "win": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
    },
}


def multipart(fields: dict[str, tuple[str, str | None]]) -> dict[str, Any]:
    """``openapi_extra`` documenting a multipart body read by hand: each part's description and example."""
    props = {}
    for name, (text, example) in fields.items():
        prop: dict[str, Any] = {"type": "string", "description": text}
        if name == "file":
            prop["format"] = "binary"
        else:
            prop["examples"] = [example]
        props[name] = prop
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
        "type": "object", "required": ["file"], "properties": props}}}}}
