"""Service settings, read from the environment with the ``MJ_`` prefix (or a ``.env`` file).

Every field below is ``MJ_<NAME>`` in upper case, e.g. ``MJ_MAX_UPLOAD_BYTES=10000000``. Lists (``MJ_CORS_ORIGINS``,
``MJ_READER_WEIGHTS``) take a JSON list or comma-separated values. ``docs/api.md`` lists them with their defaults.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from vision.shipped import (
    CAPTION_WEIGHTS,
    CLASSIFIER_WEIGHTS,
    FACE_WEIGHTS,
    FINDER_WEIGHTS,
    READER_WEIGHTS,
    REFINER_WEIGHTS,
    ROW_FINDER_WEIGHTS,
    SET_FINDER_WEIGHTS,
    SHAKEN_CLASSIFIER_WEIGHTS,
    SOFT_CLASSIFIER_WEIGHTS,
)

MIN_TOKEN = 16  # characters of MJ_ANNOTATE_TOKEN
MAX_WORKERS = 64  # worker processes of `mjscore serve`: each loads the model (about 160 MB), so more exhaust memory


class Settings(BaseSettings):
    """Limits, model paths, CORS and logging of the HTTP service."""

    model_config = SettingsConfigDict(env_prefix="MJ_", env_file=".env", extra="ignore")

    # uploads and bodies
    max_upload_bytes: int = Field(20_000_000, ge=1, description="largest photo upload in bytes (413 beyond)")
    max_pixels: int = Field(100_000_000, ge=1, description="largest photo in pixels, checked before decoding (413)")
    max_decode_bytes: int = Field(300_000_000, ge=1, description="largest photo decoded, in bytes: width x height x "
                                  "channels x bytes per channel x frames, read from the header (413 beyond)")
    max_json_bytes: int = Field(4_000_000, ge=1, description="largest JSON body in bytes (413 beyond)")
    max_batch: int = Field(1000, ge=1, le=1000, description="most hands in one /v1/score/batch body")
    head_timeout_seconds: float = Field(20.0, gt=0, description="longest a request's line and headers may take to "
                                        "arrive, from the connection or the request's first byte (408)")
    body_timeout_seconds: float = Field(15.0, gt=0, description="longest wait for the next piece of a body (408)")
    body_max_seconds: float = Field(120.0, gt=0, description="longest a whole body may take to arrive (408)")
    # scoring, per worker process
    score_threads: int = Field(2, ge=1, description="threads that score, off the event loop")
    score_queue: int = Field(64, ge=0, description="score requests that may wait for a thread (503 busy beyond)")
    score_seconds: float = Field(10.0, gt=0, description="time budget of a score request from its arrival (503)")
    # the model
    load_model: bool = Field(True, description="load the detector at start-up (false: photo endpoints answer 503)")
    weights: Path | None = Field(None, description="a weights folder (mjscore train writes one) read instead of the "
                                                   "shipped weights and the files below; empty: those")
    finder_weights: Path = Field(FINDER_WEIGHTS, description="the YOLO tile finder")
    set_finder_weights: Path | None = Field(
        SET_FINDER_WEIGHTS, description="the finder for photos of a whole set laid out (many tiles); empty: none")
    classifier_weights: Path = Field(CLASSIFIER_WEIGHTS, description="the tile classifier")
    reader_weights: Annotated[list[Path], NoDecode] = Field(
        default_factory=lambda: list(READER_WEIGHTS),
        description="the readers, in the order they read (empty: the classifier names tiles alone)")
    caption_weights: Path | None = Field(
        CAPTION_WEIGHTS, description="the flowers' caption reader, read after the readers; empty: none")
    soft_classifier_weights: Path | None = Field(
        SOFT_CLASSIFIER_WEIGHTS, description="the classifier of photos too soft for the tile classifier (out of "
                                             "focus); empty: none")
    shaken_classifier_weights: Path | None = Field(
        SHAKEN_CLASSIFIER_WEIGHTS, description="the classifier of photos shaken as they were taken; empty: none")
    face_weights: Path | None = Field(
        FACE_WEIGHTS, description="the face network, by which photos of tiles standing are named from their faces "
                                  "cut flat; empty: none")
    row_finder_weights: Path | None = Field(
        ROW_FINDER_WEIGHTS, description="the finder of rows of tiles standing, which looks again at a photo whose "
                                        "tiles the face network finds standing; empty: none")
    refiner_weights: Path | None = Field(
        REFINER_WEIGHTS, description="the face refiner, by which the thin faces the face network finds (tiles seen "
                                     "at a grazing angle) are found again before they are cut flat; empty: none")
    detector: str = Field("", description="module:callable building another detector (benchmarks, demos); "
                                          "empty: the shipped TileDetector with the weights above")
    # photo concurrency, per worker process
    max_concurrent_photos: int = Field(1, ge=1, description="photos processed at once per worker")
    photo_queue_seconds: float = Field(5.0, ge=0, description="how long an excess photo waits for a slot (then 503)")
    retry_after_seconds: int = Field(2, ge=0, description="the Retry-After header of a 503")
    # HTTP
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list, description="allowed CORS origins")
    workers: int = Field(1, ge=1, le=MAX_WORKERS,
                         description="worker processes for `mjscore serve` (documented; see docs/api.md)")
    log_level: str = Field("INFO", description="level of the service's own log lines")
    access_log: bool = Field(True, description="one JSON log line per request on stderr")
    # datasets of labelled photos (the annotation page, docs/annotate.md)
    data_dir: Path = Field(Path("mjscore-data"), description="the datasets' folder (relative: to the working "
                                                              "directory); made on the first write")
    annotate_token: SecretStr | None = Field(
        None, description="the bearer token of the dataset endpoints; empty: the dataset endpoints answer 403")
    max_import_bytes: int = Field(2_000_000_000, ge=1, description="largest dataset archive to import, bytes")

    @field_validator("weights", "set_finder_weights", "caption_weights", "soft_classifier_weights",
                     "shaken_classifier_weights", "face_weights", "row_finder_weights", "refiner_weights",
                     "annotate_token", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("annotate_token")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < MIN_TOKEN:
            raise ValueError(f"MJ_ANNOTATE_TOKEN must be at least {MIN_TOKEN} characters (a random secret)")
        return value

    @field_validator("cors_origins", "reader_weights", mode="before")
    @classmethod
    def _split_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value


class SettingsError(ValueError):
    """The environment (or ``.env``) holds a setting the service cannot take; the message names each, by its
    variable."""

    code = "bad_request"


@lru_cache
def get_settings() -> Settings:
    """The settings of this process (read once; tests override the dependency or clear the cache); a
    ``SettingsError`` where a variable is wrong."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingsError(settings_message(exc)) from exc


def settings_message(exc: ValidationError) -> str:
    """Each wrong setting of ``exc`` as ``MJ_NAME='value': what is wrong`` (a secret's value not shown)."""
    wrong = []
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else ""
        field = Settings.model_fields.get(name)
        secret = field is not None and "SecretStr" in str(field.annotation)
        value = "" if secret or "input" not in error else f"={str(error['input'])[:60]!r}"
        wrong.append(f"MJ_{name.upper()}{value}: {error['msg']}")
    return "the service's settings (MJ_* in the environment or .env) are wrong: " + "; ".join(wrong)
