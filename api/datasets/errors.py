"""The dataset store's errors: each carries the HTTP status and the stable code the service answers with.

    DatasetError                      code            status
    ├── BadNameError                  bad_name          400
    ├── NotFoundError                 *_not_found       404   (dataset_not_found, photo_not_found)
    ├── ConflictError                 *                 409   (dataset_exists, duplicate_photo, version_conflict)
    ├── BadLabelsError                bad_labels        422
    ├── BadArchiveError               bad_archive       422   (and unknown_classes, empty_export)
    └── StorageError                  storage_unavailable 503; storage_full 507 (no space or quota left)
"""

from __future__ import annotations

import errno
import sqlite3


class DatasetError(Exception):
    """Base of the store's errors: ``code`` and ``status`` are what the HTTP answer carries."""

    code = "dataset_error"
    status = 400

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class BadNameError(DatasetError):
    code = "bad_name"
    status = 400


class NotFoundError(DatasetError):
    code = "not_found"
    status = 404


class ConflictError(DatasetError):
    code = "conflict"
    status = 409


class BadLabelsError(DatasetError):
    code = "bad_labels"
    status = 422


class BadArchiveError(DatasetError):
    code = "bad_archive"
    status = 422


class StorageError(DatasetError):
    """The disk refused a write (or a read): nothing was changed."""

    code = "storage_unavailable"
    status = 503


class StorageFullError(StorageError):
    code = "storage_full"
    status = 507


_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def storage_error(exc: OSError | sqlite3.Error, doing: str) -> StorageError:
    """The store's error for a failed disk or database operation; ``doing`` says what failed (``saving x``)."""
    text = str(exc)
    if isinstance(exc, OSError) and exc.errno in _FULL or "disk is full" in text or "disk quota" in text:
        return StorageFullError(f"{doing} failed: the disk is full ({text}); nothing was changed")
    if "readonly" in text or "read-only" in text or isinstance(exc, OSError) and exc.errno in (errno.EROFS,
                                                                                            errno.EACCES,
                                                                                            errno.EPERM):
        return StorageError(f"{doing} failed: the data folder is read-only ({text}); nothing was changed")
    if "locked" in text or "busy" in text:
        return StorageError(f"{doing} failed: the database stayed busy ({text}); retry in a moment")
    return StorageError(f"{doing} failed: the data folder cannot be written ({text}); nothing was changed")
