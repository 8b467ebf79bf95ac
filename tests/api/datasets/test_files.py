"""Atomic writes: all the files of a version change, or none."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from api.datasets import files
from api.datasets.files import Moved, Staged, write_file


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_staged_files_appear_only_when_applied(tmp_path: Path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    write_file(a, b"old a")
    staged = Staged({a: b"new a", b: b"new b"})
    assert a.read_bytes() == b"old a" and not b.exists()
    staged.apply()
    staged.finish()
    assert a.read_bytes() == b"new a" and b.read_bytes() == b"new b"
    assert _leftovers(tmp_path) == []


def test_undo_puts_the_old_files_back(tmp_path: Path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    write_file(a, b"old a")
    staged = Staged({a: b"new a", b: b"new b"})
    staged.apply()
    staged.undo()  # e.g. the database commit failed
    assert a.read_bytes() == b"old a" and not b.exists()
    assert _leftovers(tmp_path) == []


def test_a_full_disk_while_writing_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    write_file(a, b"old a")
    real = os.fsync
    calls = []

    def fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:  # the second file does not fit
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(files.os, "fsync", fsync)
    with pytest.raises(OSError, match="No space"):
        Staged({a: b"new a", b: b"new b"})
    assert a.read_bytes() == b"old a" and not b.exists()
    assert _leftovers(tmp_path) == []


def test_a_failed_rename_puts_back_what_was_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    write_file(a, b"old a")
    write_file(b, b"old b")
    staged = Staged({a: b"new a", b: b"new b"})
    real = os.replace

    def replace(src: str, dst: str) -> None:
        if Path(dst) == b and str(src).endswith(".tmp"):
            raise OSError(errno.EIO, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(OSError, match="Input/output"):
        staged.apply()
    assert a.read_bytes() == b"old a" and b.read_bytes() == b"old b"
    assert _leftovers(tmp_path) == []


def test_none_removes_a_file(tmp_path: Path):
    a = tmp_path / "a.txt"
    write_file(a, b"x")
    staged = Staged({a: None})
    staged.apply()
    assert not a.exists()
    staged.undo()
    assert a.read_bytes() == b"x"


def test_a_moved_folder_goes_back_on_undo_and_never_replaces_one(tmp_path: Path):
    source = tmp_path / "set1"
    write_file(source / "labels" / "a.txt", b"x")
    move = Moved(source, tmp_path / ".deleted" / "set1-1")
    move.apply()
    assert (tmp_path / ".deleted" / "set1-1" / "labels" / "a.txt").read_bytes() == b"x" and not source.exists()
    move.undo()  # e.g. the commit failed: back, and the parent made for it gone
    assert (source / "labels" / "a.txt").read_bytes() == b"x" and sorted(tmp_path.iterdir()) == [source]
    (tmp_path / "set2").mkdir()  # os.rename would replace an empty folder silently
    with pytest.raises(FileExistsError):
        Moved(source, tmp_path / "set2").apply()
    assert (source / "labels" / "a.txt").exists()
