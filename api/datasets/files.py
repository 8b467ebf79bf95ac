"""Atomic file writes: the bytes go to a temporary file beside the target, are flushed to the disk (fsync), and
replace the target in one rename; the folder is then flushed too. A reader sees the old file or the new one,
never a part of either, and a failed write leaves the old file as it was.

Several files change together in three steps, so that a database commit can sit between the last two:

    staged = Staged({path: data, other: None})   # temporary files written and flushed (None: remove the file)
    staged.apply()     # renamed into place; the old files kept aside (a failed rename puts them all back)
    staged.undo()      # ... the commit failed: put the old files back
    staged.finish()    # ... the commit held: drop the old files, flush the folders

``Staged.discard()`` removes whatever is left (temporary files, kept old files) when the work stops early.
``Moved`` renames a whole folder in the same three steps (a dataset renamed, or set aside when deleted).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _temp(target: Path, data: bytes, suffix: str = ".tmp") -> Path:
    """``data`` in a new temporary file beside ``target``, flushed to the disk."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


class Staged:
    """Files written beside their targets, to be renamed into place (see the module's docstring)."""

    def __init__(self, files: Mapping[Path, bytes | None]) -> None:
        self.files = dict(files)
        self._temps: dict[Path, Path] = {}
        self._old: dict[Path, Path | None] = {}  # each replaced target's old file (None: there was none)
        try:
            for path, data in self.files.items():
                if data is not None:
                    self._temps[path] = _temp(path, data)
        except BaseException:
            self.discard()
            raise

    def apply(self) -> None:
        """Rename every file into place, keeping the old ones aside; on a failure put back what was replaced."""
        try:
            for path in self.files:
                old = None
                if path.exists():
                    old = path.with_name(f".{path.name}.{uuid.uuid4().hex}.old")
                    os.link(path, old)  # the old file stays reachable until finish()
                self._old[path] = old
                if path in self._temps:
                    os.replace(self._temps[path], path)
                    del self._temps[path]
                elif old is not None:
                    path.unlink()
        except BaseException:
            self.undo()
            raise

    def undo(self) -> None:
        """Put back the old files (a file that did not exist before is removed)."""
        for path, old in self._old.items():
            with contextlib.suppress(OSError):
                if old is None:
                    path.unlink(missing_ok=True)
                elif path.exists() and os.path.samefile(old, path):  # not replaced yet (rename would do nothing)
                    old.unlink()
                else:
                    os.replace(old, path)
        self._old.clear()
        self.discard()

    def finish(self) -> None:
        """Drop the old files and flush the folders: the new files are there to stay."""
        self.discard()
        for folder in {p.parent for p in self.files}:
            if folder.exists():
                _fsync_dir(folder)

    def discard(self) -> None:
        for tmp in self._temps.values():
            with contextlib.suppress(OSError):
                tmp.unlink()
        self._temps.clear()
        for old in self._old.values():
            if old is not None:
                with contextlib.suppress(OSError):
                    old.unlink()
        self._old.clear()


class Moved:
    """A folder renamed within one file system, in the steps of ``Staged``: ``apply``, then ``undo`` or ``finish``.
    The target must not exist (an empty folder there would be replaced silently); its parent is made if missing."""

    def __init__(self, source: Path, target: Path) -> None:
        self.source, self.target = source, target
        self._moved = False
        self._made_parent = False

    def apply(self) -> None:
        if self.target.exists() or self.target.is_symlink():
            raise FileExistsError(errno.EEXIST, "the target exists already", str(self.target))
        if not self.target.parent.is_dir():
            self.target.parent.mkdir(parents=True)
            self._made_parent = True
        os.rename(self.source, self.target)
        self._moved = True

    def undo(self) -> None:
        """Move the folder back (and remove the parent made for it)."""
        with contextlib.suppress(OSError):
            if self._moved:
                os.rename(self.target, self.source)
                self._moved = False
            if self._made_parent:
                self.target.parent.rmdir()
                self._made_parent = False

    def finish(self) -> None:
        """Flush both parents: the rename is there to stay."""
        for folder in {self.source.parent, self.target.parent}:
            _fsync_dir(folder)


def write_file(path: Path, data: bytes) -> None:
    """Write one file atomically."""
    staged = Staged({path: data})
    staged.apply()
    staged.finish()
