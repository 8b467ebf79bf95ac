"""/v1/datasets: datasets of labelled photos, kept on the server for the annotation page (docs/annotate.md).

Every endpoint needs ``Authorization: Bearer <MJ_ANNOTATE_TOKEN>`` (reads too: the photos show people's tables);
with no token set, the endpoints answer 403 ``annotate_disabled``. Who did what goes to the audit log under the
name in ``X-Annotator`` (percent-encoded UTF-8; as given, not proven).
"""

from __future__ import annotations

import hmac
import os
import re
import tempfile
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import unquote

import anyio
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from starlette.background import BackgroundTask
from starlette.datastructures import UploadFile

from api import pipeline
from api.config import Settings
from api.datasets.errors import BadLabelsError, StorageError, storage_error
from api.datasets.export import VAL_PERCENT, write_zip
from api.datasets.images import upright
from api.datasets.importer import Archive, Report, import_archive, read_archive
from api.datasets.labels import STATUSES, Labels
from api.datasets.names import dataset_name, group_name, photo_slug
from api.datasets.store import CHECKED, Store
from api.deps import ApiError, Detector, SettingsDep, SlotsDep, check_photo, read_upload
from api.routes import datasets_docs as docs
from api.routes.score import read_json
from vision.errors import BadImageError, VisionError

router = APIRouter(prefix="/datasets", tags=["datasets"])

_WHO = re.compile(r"[^\x00-\x1f\x7f]{1,60}")
MEDIA = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


# --- who may: the token, and the annotator's name ----------------------------------------------------------------


def annotator(request: Request, settings: SettingsDep) -> str:
    """The annotator's name when the request carries the token (401 otherwise; 403 when no token is set)."""
    token = settings.annotate_token
    if token is None:
        raise ApiError(403, "annotate_disabled", "datasets are off on this service: start it with MJ_ANNOTATE_TOKEN "
                                                 "set to a secret of 16 characters or more (docs/annotate.md)")
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(),
                                                             token.get_secret_value().encode()):
        what = "the token is wrong" if given else "no token was sent"
        raise ApiError(401, "unauthorized", f"{what}: send 'Authorization: Bearer <MJ_ANNOTATE_TOKEN>'",
                       {"WWW-Authenticate": 'Bearer realm="datasets"'})
    name = unquote(request.headers.get("x-annotator", "")).strip()
    return name if _WHO.fullmatch(name) else "annotator"


WhoDep = Annotated[str, Depends(annotator)]


def get_store(settings: SettingsDep) -> Store:
    return Store(settings.data_dir)


StoreDep = Annotated[Store, Depends(get_store)]


def optional_detector(request: Request) -> Detector | None:
    """The detector when one is loaded (photos are still taken without it, with no boxes)."""
    return getattr(request.app.state, "detector", None)


OptionalDetectorDep = Annotated[Detector | None, Depends(optional_detector)]


READ_ONLY = ("dataset", "photo", "sha256", "saved_at", "saved_by", "note")  # in a GET's answer; a PUT ignores them


def _labels_body(body: Any) -> tuple[int, dict[str, Any]]:
    """The version a save is based on, and its labels fields (a GET's answer may be sent back as it is)."""
    if not isinstance(body, dict):
        raise ApiError(422, "bad_labels", "the body must be a labels object with 'version'")
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ApiError(422, "bad_labels", "'version' must be the version the changes were made on (1, 2, ...)")
    return version, {k: v for k, v in body.items() if k not in (*READ_ONLY, "version")}


# --- the photo pipeline: the one call into it --------------------------------------------------------------------


async def _prelabel(slots: Any, data: bytes, detector: Detector | None, group: str) -> tuple[Labels | None, str]:
    """The detector's labels for a photo (status todo), or None and why not."""
    if detector is None:
        return None, "not pre-labelled: the tile detector is not loaded"
    try:
        rec = await slots.run(pipeline.recognize, data, detector)
    except BadImageError:
        raise
    except ApiError as exc:  # every photo slot busy
        return None, f"not pre-labelled: {exc.message}"
    except VisionError as exc:
        return None, f"not pre-labelled: {exc}"
    try:
        labels = Labels.from_reading(rec, group)
    except BadLabelsError as exc:  # a detector's box outside the photo, say
        return None, f"not pre-labelled: the detector's reading is not valid labels: {exc}"
    return labels, f"pre-labelled: {len(rec['detections'])} tiles"


# --- datasets ----------------------------------------------------------------------------------------------------


@router.get("", summary="List the datasets", responses=docs.answers(docs.DATASETS))
def list_datasets(who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """Every dataset with its photo counts (todo, labelled, reviewed)."""
    return {"datasets": store.datasets()}


@router.post("", status_code=201, summary="Create a dataset", responses=docs.answers(docs.PROGRESS, 201),
             openapi_extra=docs.json_body({"a new dataset": {"name": "my-set"}}))
async def create_dataset(request: Request, who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """Body ``{"name": "my-set"}``; answers the new dataset's progress."""
    name = _name_body(await read_json(request), "my-set")
    return await anyio.to_thread.run_sync(store.create, name, who)


def _name_body(body: Any, example: str) -> str:
    """The dataset name of a body ``{"name": ...}`` (422 bad_request for another shape, 400 bad_name)."""
    if not isinstance(body, dict) or set(body) != {"name"}:
        raise ApiError(422, "bad_request", f'the body must be {{"name": "{example}"}}')
    return dataset_name(body["name"])


@router.get("/{dataset}", summary="A dataset's progress", responses=docs.answers(docs.PROGRESS))
def progress(dataset: str, who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """Photos by status (todo, labelled, reviewed), groups, boxes, and the count of each tile in checked photos."""
    return store.progress(dataset)


@router.patch("/{dataset}", summary="Rename a dataset", responses=docs.answers(docs.PROGRESS | {"name": "my-set-2"}),
              openapi_extra=docs.json_body({"a new name": {"name": "my-set-2"}}))
async def rename_dataset(dataset: str, request: Request, who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """Body ``{"name": "my-set-2"}``: the dataset, its photos, versions and log under the new name; its progress."""
    dataset_name(dataset)
    new = _name_body(await read_json(request), "my-set-2")
    return await anyio.to_thread.run_sync(store.rename, dataset, new, who)


@router.delete("/{dataset}", status_code=204, summary="Delete a dataset", responses=docs.ERRORS)
def delete_dataset(dataset: str, who: WhoDep, store: StoreDep) -> Response:
    """Take the dataset out of the list; its folder is kept under ``.deleted/`` with its history (docs/annotate.md)."""
    store.delete(dataset, who)
    return Response(status_code=204)


@router.get("/{dataset}/log", summary="Who changed what", responses=docs.answers(docs.LOG))
def audit_log(dataset: str, who: WhoDep, store: StoreDep,
              limit: Annotated[int, Query(ge=1, le=10_000)] = 200) -> dict[str, Any]:
    """The dataset's audit log, newest first: when, who, what (create, rename, add, save, delete, import, export)."""
    return {"log": store.audit(dataset, limit)}


# --- photos ------------------------------------------------------------------------------------------------------


@router.get("/{dataset}/photos", summary="The photos of a dataset", responses=docs.answers(docs.PHOTOS))
def list_photos(dataset: str, who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """Each photo's status, group, version, box count and size, in name order."""
    return {"photos": store.photos(dataset)}


async def _form_file(request: Request, fields: tuple[str, ...] = ()) -> tuple[UploadFile, dict[str, str]]:
    """The multipart body's ``file`` part and its text fields, read once the token has been checked."""
    try:
        form = await request.form(max_files=1, max_fields=len(fields) + 1)
    except Exception as exc:  # not multipart, or more parts than allowed
        raise ApiError(400, "bad_request", f"the body must be multipart/form-data with a 'file' part: {exc}") from None
    file = form.get("file")
    if not isinstance(file, UploadFile):
        raise ApiError(422, "bad_request", "the multipart part 'file' is missing")
    unknown = sorted(set(form) - {"file", *fields})
    if unknown:
        raise ApiError(422, "bad_request", f"unknown part {unknown[0]!r}; the parts are file, {', '.join(fields)}")
    return file, {k: v for k, v in form.items() if isinstance(v, str)}


@router.post("/{dataset}/photos", status_code=201, summary="Add a photo", responses=docs.answers(docs.ADDED, 201),
             openapi_extra=docs.multipart({
                 "file": ("the photo: JPEG, PNG, WebP or HEIC", None),
                 "group": ("the hand this photo shows (empty: the photo alone)", "hand-7"),
                 "prelabel": ("true (default): let the detector label it first; false: no boxes", "true")}))
async def add_photo(dataset: str, request: Request, who: WhoDep, store: StoreDep, settings: SettingsDep,
                    slots: SlotsDep, detector: OptionalDetectorDep) -> dict[str, Any]:
    """A photo in (part ``file``); stored upright, pre-labelled by the detector as version 1 (status todo)."""
    dataset_name(dataset)
    file, form = await _form_file(request, ("group", "prelabel"))
    group = form.get("group", "").strip()
    if group:
        group_name(group)
    if form.get("prelabel", "true").lower() not in ("true", "false", "1", "0"):
        raise ApiError(422, "bad_request", "'prelabel' must be true or false")
    data = await read_upload(file, settings.max_upload_bytes)
    kind, _, _ = check_photo(data, settings.max_pixels)
    try:
        stored, ext, width, height = await anyio.to_thread.run_sync(upright, data, kind)
    except VisionError as exc:
        raise ApiError(400, "bad_image", str(exc)) from None
    name = photo_slug(file.filename or "photo", ext)
    labels, note = None, ""
    if form.get("prelabel", "true").lower() in ("true", "1"):
        labels, note = await _prelabel(slots, stored, detector, group)
    if labels is None:
        labels = Labels(width, height, group=group)
    rec = await anyio.to_thread.run_sync(store.add_photo, dataset, name, stored, labels, who, note)
    return {**rec, "note": note}


@router.get("/{dataset}/photos/{photo}", summary="A photo's labels", responses=docs.answers(docs.RECORD))
def get_photo(dataset: str, photo: str, who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """The photo's current labels (boxes, melds, win, hand, group, status), its version, who saved it, when."""
    return store.photo(dataset, photo)


@router.get("/{dataset}/photos/{photo}/image", summary="The photo itself", response_class=FileResponse,
            responses=docs.file_answer(tuple(MEDIA.values()), "the photo, upright"))
def get_image(dataset: str, photo: str, who: WhoDep, store: StoreDep) -> FileResponse:
    """The stored photo, upright."""
    path = store.image_path(dataset, photo)
    if not path.is_file():
        raise StorageError(f"{photo} is in the index but its file is missing from the data folder")
    return FileResponse(path, media_type=MEDIA[photo.rsplit(".", 1)[1]],
                        headers={"Cache-Control": "private, no-store"})


@router.put("/{dataset}/photos/{photo}", summary="Save a photo's labels", responses=docs.answers(docs.RECORD),
            openapi_extra=docs.json_body({"labels made on version 2": {"version": 2, **docs.LABELS}}))
async def save_photo(dataset: str, photo: str, request: Request, who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """Body: the labels object and ``version``, the version the changes were made on; 409 when it is stale."""
    version, fields = _labels_body(await read_json(request))
    current = await anyio.to_thread.run_sync(store.labels_of, dataset, photo)
    labels = Labels.from_json(fields, current.width, current.height)
    return await anyio.to_thread.run_sync(store.save, dataset, photo, version, labels, who)


@router.delete("/{dataset}/photos/{photo}", status_code=204, summary="Remove a photo", responses=docs.ERRORS)
def delete_photo(dataset: str, photo: str, who: WhoDep, store: StoreDep,
                 version: Annotated[int, Query(ge=1, description="the version last seen")]) -> Response:
    """Remove the photo, its labels and its versions (409 when it changed since ``version``)."""
    store.delete_photo(dataset, photo, version, who)
    return Response(status_code=204)


@router.get("/{dataset}/photos/{photo}/versions", summary="A photo's saved versions",
            responses=docs.answers(docs.VERSIONS))
def versions(dataset: str, photo: str, who: WhoDep, store: StoreDep) -> dict[str, Any]:
    """Every saved version of the photo's labels, newest first, with who saved it and when."""
    return {"versions": store.versions(dataset, photo)}


@router.post("/{dataset}/photos/{photo}/prelabel", summary="The detector's labels for a photo",
             responses=docs.answers(docs.PRELABEL))
async def prelabel_photo(dataset: str, photo: str, who: WhoDep, store: StoreDep, slots: SlotsDep,
                         detector: OptionalDetectorDep) -> dict[str, Any]:
    """What the detector reads on the stored photo, as a labels object (not saved)."""
    path = await anyio.to_thread.run_sync(store.image_path, dataset, photo)
    if detector is None:
        raise ApiError(503, "model_not_ready", "photo reading is not available: the tile detector is not loaded")
    data = await anyio.Path(path).read_bytes()
    current = await anyio.to_thread.run_sync(store.labels_of, dataset, photo)
    labels, note = await _prelabel(slots, data, detector, current.group)
    if labels is None:
        raise ApiError(503, "model_not_ready", note)
    return {**labels.to_json(), "status": current.status, "note": note}


# --- export and import -------------------------------------------------------------------------------------------


@router.get("/{dataset}/export", summary="The dataset as a zip ultralytics trains on", response_class=FileResponse,
            responses=docs.file_answer(("application/zip",), "data.yaml, images/, labels/, meta/, manifest.json"))
async def export(dataset: str, who: WhoDep, store: StoreDep,
                 include: Annotated[str, Query(pattern="^(checked|all)$",
                                               description="checked: labelled and reviewed photos; all: todo too")
                                    ] = "checked",
                 val: Annotated[int, Query(ge=1, le=50, description="percent of the groups to validate on")
                                ] = VAL_PERCENT) -> FileResponse:
    """A zip of ``data.yaml``, ``images/{train,val}``, ``labels/{train,val}``, ``meta/{train,val}`` (docs)."""
    dataset_name(dataset)
    statuses = CHECKED if include == "checked" else STATUSES
    fd, tmp = tempfile.mkstemp(prefix=f"mjscore-{dataset}-", suffix=".zip")
    os.close(fd)
    try:
        manifest = await anyio.to_thread.run_sync(write_zip, store, dataset, Path(tmp), statuses, val)
        await anyio.to_thread.run_sync(store.note, dataset, who, "export",
                                       f"{len(manifest['photos'])} photos ({include}), val {val}%")
    except OSError as exc:
        os.unlink(tmp)
        raise storage_error(exc, "writing the export") from exc
    except BaseException:
        os.unlink(tmp)
        raise
    return FileResponse(tmp, media_type="application/zip", filename=f"{dataset}.zip",
                        background=BackgroundTask(os.unlink, tmp), headers={"Cache-Control": "private, no-store"})


@router.post("/{dataset}/import", summary="Add a YOLO dataset archive",
             responses={**docs.answers(docs.IMPORTED), **docs.answers(docs.IMPORTED | {"created": True}, 201)},
             openapi_extra=docs.multipart({"file": ("a zip: ours, ultralytics', CVAT's YOLO 1.1 or Label Studio's YOLO",
                                                    None)}))
async def import_zip(dataset: str, request: Request, who: WhoDep, store: StoreDep,
                     settings: SettingsDep) -> JSONResponse:
    """A YOLO archive in; its photos and labels added to the dataset (created when missing) to go on labelling."""
    dataset_name(dataset)
    file, _ = await _form_file(request)
    await file.seek(0)
    archive = await anyio.to_thread.run_sync(read_archive, file.file)  # a bad archive stores nothing
    created = not await anyio.to_thread.run_sync(store.exists, dataset)
    if created:
        await anyio.to_thread.run_sync(store.create, dataset, who)
    report = await anyio.to_thread.run_sync(_import, store, dataset, archive, who, settings)
    return JSONResponse({**report.to_json(), "created": created}, status_code=201 if created else 200)


def _import(store: Store, dataset: str, archive: Archive, who: str, settings: Settings) -> Report:
    def check(data: bytes) -> str:
        try:
            return check_photo(data, settings.max_pixels)[0]
        except ApiError as exc:
            raise ValueError(exc.message) from None

    report = import_archive(store, dataset, archive, who, check, settings.max_upload_bytes)
    store.note(dataset, who, "import", f"{report.format}: {len(report.added)} added, {len(report.duplicates)} "
                                       f"duplicates, {len(report.skipped)} skipped")
    return report
