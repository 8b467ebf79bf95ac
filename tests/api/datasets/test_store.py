"""The store: the index, versions, the audit log, renaming and deleting a dataset, and a disk that refuses writes
(nothing is lost)."""

from __future__ import annotations

import errno
import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from api.datasets import files
from api.datasets.errors import (
    BadNameError,
    ConflictError,
    NotFoundError,
    StorageError,
    StorageFullError,
)
from api.datasets.store import DB_NAME, Store
from tests.api.datasets.support import labels, photo, store_with


def _on_disk(root: Path, name: str = "set1") -> dict[str, bytes]:
    folder = root / name
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_photo_is_stored_in_ultralytics_layout(tmp_path: Path):
    store = store_with(tmp_path)
    rec = store.add_photo("set1", "hand.jpg", photo(1), labels(status="todo"), "alice")
    assert (rec["photo"], rec["version"], rec["saved_by"], rec["status"]) == ("hand.jpg", 1, "alice", "todo")
    disk = _on_disk(tmp_path)
    assert sorted(disk) == ["images/hand.jpg", "labels/hand.txt", "meta/hand.json"]
    assert disk["images/hand.jpg"] == photo(1)
    assert disk["labels/hand.txt"].decode() == labels().yolo()
    meta = json.loads(disk["meta/hand.json"])
    assert meta["version"] == 1 and meta["win"] == 13 and meta["photo"] == "hand.jpg"
    assert (tmp_path / DB_NAME).is_file()


def test_a_taken_name_gets_a_number_and_the_same_photo_is_refused(tmp_path: Path):
    store = store_with(tmp_path)
    store.add_photo("set1", "hand.jpg", photo(1), labels(), "a")
    assert store.add_photo("set1", "hand.png", photo(2), labels(), "a")["photo"] == "hand-2.png"  # one stem each
    with pytest.raises(ConflictError, match="as hand.jpg") as err:
        store.add_photo("set1", "other.jpg", photo(1), labels(), "a")
    assert err.value.code == "duplicate_photo"


def test_saves_make_versions_and_a_stale_one_is_refused(tmp_path: Path):
    store = store_with(tmp_path)
    store.add_photo("set1", "hand.jpg", photo(1), labels(status="todo"), "detector")
    v2 = store.save("set1", "hand.jpg", 1, labels(hand="234m456p34567s99s+8s"), "alice")
    assert v2["version"] == 2 and v2["hand"] == "234m456p34567s99s+8s" and v2["saved_by"] == "alice"
    before = _on_disk(tmp_path)
    with pytest.raises(ConflictError, match=r"saved by alice at .* \(version 2\)") as err:
        store.save("set1", "hand.jpg", 1, labels(status="reviewed"), "bob")
    assert err.value.code == "version_conflict"
    assert _on_disk(tmp_path) == before
    assert [v["version"] for v in store.versions("set1", "hand.jpg")] == [2, 1]
    assert [(e["who"], e["action"]) for e in store.audit("set1")] == [
        ("alice", "save"), ("detector", "add_photo"), ("tester", "create_dataset")]


def test_progress_counts_statuses_groups_and_tiles(tmp_path: Path):
    store = store_with(tmp_path)
    store.add_photo("set1", "a.jpg", photo(1), labels(group="h1", status="todo"), "x")
    store.add_photo("set1", "b.jpg", photo(2), labels(group="h1"), "x")
    store.add_photo("set1", "c.jpg", photo(3), labels(status="reviewed"), "x")
    got = store.progress("set1")
    assert {k: got[k] for k in ("photos", "todo", "labelled", "reviewed", "groups", "boxes")} == {
        "photos": 3, "todo": 1, "labelled": 1, "reviewed": 1, "groups": 2, "boxes": 42}
    assert got["tiles"]["9s"] == 4 and got["tiles"]["2m"] == 2  # the to-do photo is not counted
    assert list(got["tiles"])[:3] == ["2m", "3m", "4m"]
    # the names no checked photo shows, in the names' order: the row shows 2m-4m, 4p-6p, 3s-9s
    assert got["unshown"][:6] == ["1m", "5m", "6m", "7m", "8m", "9m"] and got["unshown"][-2:] == ["8f", "back"]
    assert not set(got["unshown"]) & set(got["tiles"]) and len(got["unshown"]) + len(got["tiles"]) == 43
    assert store.datasets()[0] | {"created_at": ""} == {"name": "set1", "created_at": "", "created_by": "tester",
                                                         "photos": 3, "todo": 1, "labelled": 1, "reviewed": 1}


def test_missing_things_and_bad_names(tmp_path: Path):
    store = Store(tmp_path / "data")
    assert store.datasets() == [] and not (tmp_path / "data").exists()  # reading creates nothing
    with pytest.raises(NotFoundError) as err:
        store.progress("nope")
    assert err.value.code == "dataset_not_found"
    store.create("set1", "x")
    with pytest.raises(ConflictError, match="exists"):
        store.create("set1", "x")
    with pytest.raises(NotFoundError) as err:
        store.photo("set1", "gone.jpg")
    assert err.value.code == "photo_not_found"
    for bad in ("../set1", "set1/..", "SET1"):
        with pytest.raises(BadNameError):
            store.progress(bad)
    with pytest.raises(BadNameError):
        store.photo("set1", "../index.sqlite3")


def test_delete_removes_the_photo_and_its_files(tmp_path: Path):
    store = store_with(tmp_path)
    store.add_photo("set1", "a.jpg", photo(1), labels(), "x")
    with pytest.raises(ConflictError):
        store.delete_photo("set1", "a.jpg", 2, "x")
    store.delete_photo("set1", "a.jpg", 1, "x")
    assert store.photos("set1") == [] and _on_disk(tmp_path) == {}
    store.add_photo("set1", "a.jpg", photo(1), labels(), "x")  # may come back


# --- a disk that refuses writes: a clear error, and the previous version intact --------------------------------


def _saved(tmp_path: Path) -> tuple[Store, dict[str, Any], dict[str, bytes]]:
    store = store_with(tmp_path)
    store.add_photo("set1", "a.jpg", photo(1), labels(status="todo"), "x")
    rec = store.save("set1", "a.jpg", 1, labels(), "alice")
    return store, rec, _on_disk(tmp_path)


def _intact(store: Store, tmp_path: Path, rec: dict[str, Any], disk: dict[str, bytes]) -> None:
    assert store.photo("set1", "a.jpg") == rec
    assert _on_disk(tmp_path) == disk  # no temporary file left either
    assert [v["version"] for v in store.versions("set1", "a.jpg")] == [2, 1]


@pytest.mark.parametrize(("code", "error", "status"), [
    (errno.ENOSPC, StorageFullError, "storage_full"),
    (errno.EDQUOT, StorageFullError, "storage_full"),
    (errno.EROFS, StorageError, "storage_unavailable"),
    (errno.EIO, StorageError, "storage_unavailable"),
])
def test_a_refused_write_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code, error, status):
    store, rec, disk = _saved(tmp_path)

    def refuse(fd: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.os, "fsync", refuse)
    with pytest.raises(error) as err:
        store.save("set1", "a.jpg", 2, labels(status="reviewed", hand="234m456p34567s99s+8s"), "bob")
    assert err.value.code == status and "nothing was changed" in str(err.value)
    with pytest.raises(error):
        store.add_photo("set1", "b.jpg", photo(2), labels(), "bob")
    monkeypatch.undo()
    _intact(store, tmp_path, rec, disk)
    assert store.save("set1", "a.jpg", 2, labels(status="reviewed"), "bob")["version"] == 3  # and goes on


def test_a_failed_rename_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store, rec, disk = _saved(tmp_path)
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        if str(dst).endswith(".json") and str(src).endswith(".tmp"):  # the labels file is renamed, the sidecar not
            raise OSError(errno.EIO, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(StorageError, match="Input/output"):
        store.save("set1", "a.jpg", 2, labels(status="reviewed"), "bob")
    monkeypatch.undo()
    _intact(store, tmp_path, rec, disk)


class _CommitFails:
    """A connection whose COMMIT fails as SQLite's does on a full disk."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)


def test_a_failed_commit_puts_the_files_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store, rec, disk = _saved(tmp_path)
    real = Store._connect
    monkeypatch.setattr(Store, "_connect", lambda self, write: _CommitFails(real(self, write)))
    with pytest.raises(StorageFullError, match="disk is full"):
        store.save("set1", "a.jpg", 2, labels(status="reviewed"), "bob")
    with pytest.raises(StorageFullError):
        store.add_photo("set1", "b.jpg", photo(2), labels(), "bob")
    monkeypatch.undo()
    _intact(store, tmp_path, rec, disk)


def test_a_read_only_database_is_read_but_not_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store, rec, disk = _saved(tmp_path)

    def read_only(self: Store, write: bool) -> sqlite3.Connection:
        con = sqlite3.connect(f"{self.db.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        con.row_factory = sqlite3.Row
        return con

    monkeypatch.setattr(Store, "_connect", read_only)
    assert store.photo("set1", "a.jpg") == rec
    with pytest.raises(StorageError, match="read-only") as err:
        store.save("set1", "a.jpg", 2, labels(status="reviewed"), "bob")
    assert err.value.code == "storage_unavailable"
    monkeypatch.undo()
    _intact(store, tmp_path, rec, disk)


# --- renaming and deleting a dataset ---------------------------------------------------------------------------


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``root`` but the index."""
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))
            if not p.name.startswith(DB_NAME)}


def _state(store: Store, name: str = "set1") -> dict[str, Any]:
    """What the index says of a dataset: progress, photos, each photo's versions, the log."""
    photos = store.photos(name)
    return {"progress": {k: v for k, v in store.progress(name).items() if k != "name"}, "photos": photos,
            "versions": {p["photo"]: store.versions(name, p["photo"]) for p in photos}, "log": store.audit(name)}


def test_rename_keeps_photos_versions_files_and_the_log(tmp_path: Path):
    store, rec, disk = _saved(tmp_path)
    before = _state(store)
    got = store.rename("set1", "hands-2", "bob")
    assert got["name"] == "hands-2" and got["photos"] == 1
    assert [d["name"] for d in store.datasets()] == ["hands-2"]
    after = _state(store, "hands-2")
    assert after["log"][0] | {"at": ""} == {"at": "", "who": "bob", "action": "rename_dataset", "photo": None,
                                            "detail": "from set1"}
    assert {**after, "log": after["log"][1:]} == before
    assert store.photo("hands-2", "a.jpg") == {**rec, "dataset": "hands-2"}
    assert _on_disk(tmp_path, "hands-2") == disk and not (tmp_path / "set1").exists()
    assert store.save("hands-2", "a.jpg", 2, labels(status="reviewed"), "bob")["version"] == 3  # and goes on
    with pytest.raises(NotFoundError) as err:
        store.save("set1", "a.jpg", 3, labels(), "late")
    assert err.value.code == "dataset_not_found"
    store.create("set1", "x")  # the old name is free again
    assert store.progress("set1")["photos"] == 0


def test_rename_refuses_a_taken_name_a_stray_folder_a_bad_name_and_an_unknown_dataset(tmp_path: Path):
    store, _, _ = _saved(tmp_path)
    store.create("other", "x")
    (tmp_path / "stray").mkdir()
    before = (_state(store), _tree(tmp_path))
    for taken in ("other", "stray"):
        with pytest.raises(ConflictError, match=repr(taken)) as err:
            store.rename("set1", taken, "bob")
        assert err.value.code == "dataset_exists"
    for bad in ("Set1", "../x", ".deleted", "", "a" * 64):
        with pytest.raises(BadNameError, match="dataset name"):
            store.rename("set1", bad, "bob")
    with pytest.raises(NotFoundError) as err:
        store.rename("nope", "fresh", "bob")
    assert err.value.code == "dataset_not_found"
    assert store.rename("set1", "set1", "bob")["name"] == "set1"  # its own name: nothing to do
    assert (_state(store), _tree(tmp_path)) == before


def test_delete_sets_the_folder_aside_with_its_history(tmp_path: Path):
    store, rec, disk = _saved(tmp_path)
    before = _state(store)
    kept = store.delete("set1", "bob")
    assert re.fullmatch(r"set1-\d{8}T\d{6}Z", kept)
    assert store.datasets() == [] and not (tmp_path / "set1").exists()
    folder = tmp_path / ".deleted" / kept
    assert _on_disk(tmp_path, f".deleted/{kept}") == {**disk, "history.json": (folder / "history.json").read_bytes()}
    history = json.loads((folder / "history.json").read_text())
    assert history["deleted_by"] == "bob" and history["datasets"][0]["name"] == "set1"
    assert [(v["photo"], v["version"], v["labels"]["status"]) for v in history["versions"]] == [
        ("a.jpg", 1, "todo"), ("a.jpg", 2, "labelled")]
    assert history["versions"][1]["labels"]["boxes"] == rec["boxes"]
    assert [a["action"] for a in history["audit"]] == ["create_dataset", "add_photo", "save"]
    assert [p["name"] for p in history["photos"]] == ["a.jpg"]
    with pytest.raises(NotFoundError):
        store.progress("set1")
    with pytest.raises(NotFoundError):
        store.delete("set1", "bob")

    store.create("set1", "carol")  # the name is free; its log says where the old one went
    assert [(e["action"], e["detail"]) for e in store.audit("set1")] == [
        ("create_dataset", ""), ("delete_dataset", f"moved to .deleted/{kept}")]
    again = store.delete("set1", "carol")
    assert again != kept and sorted(p.name for p in (tmp_path / ".deleted").iterdir()) == sorted([kept, again])

    restored = store.restore(kept, "dan")  # the first one comes back whole
    assert restored["photos"] == 1 and store.photo("set1", "a.jpg") == rec
    now = _state(store)
    assert {k: now[k] for k in ("progress", "photos", "versions")} == {k: before[k] for k in
                                                                       ("progress", "photos", "versions")}
    assert now["log"][0]["action"] == "restore_dataset"
    seen = {(e["who"], e["action"], e["detail"]) for e in now["log"][1:]}  # one second here: the order is by time
    assert len(now["log"]) == 5 and seen == {(e["who"], e["action"], e["detail"]) for e in before["log"]} | {
        ("carol", "delete_dataset", f"moved to .deleted/{again}")}
    assert _on_disk(tmp_path) == disk and not folder.exists()
    assert store.restore(again, "dan", name="set1-empty")["photos"] == 0
    with pytest.raises(NotFoundError):
        store.restore(kept, "dan")
    with pytest.raises(ConflictError):
        store.restore(store.delete("set1-empty", "dan"), "dan", name="set1")


@pytest.mark.parametrize(("code", "error"), [(errno.ENOSPC, StorageFullError), (errno.EROFS, StorageError),
                                             (errno.EXDEV, StorageError)])
def test_a_refused_move_renames_and_deletes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code, error):
    store, _, _ = _saved(tmp_path)
    before = (_state(store), _tree(tmp_path))

    def refuse(src: Any, dst: Any) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.os, "rename", refuse)
    with pytest.raises(error, match="renaming dataset set1 failed: .*nothing was changed"):
        store.rename("set1", "hands", "bob")
    with pytest.raises(error, match="deleting dataset set1 failed: .*nothing was changed"):
        store.delete("set1", "bob")
    monkeypatch.undo()
    assert (_state(store), _tree(tmp_path)) == before  # no .deleted folder left either


def test_a_full_disk_while_writing_the_history_deletes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store, _, _ = _saved(tmp_path)
    before = (_state(store), _tree(tmp_path))

    def refuse(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", refuse)
    with pytest.raises(StorageFullError, match="the disk is full"):
        store.delete("set1", "bob")
    monkeypatch.undo()
    assert (_state(store), _tree(tmp_path)) == before


def test_a_failed_commit_moves_the_folder_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store, _, _ = _saved(tmp_path)
    store.create("old", "x")
    store.add_photo("old", "b.jpg", photo(2), labels(), "x")
    kept = store.delete("old", "x")
    before = (_state(store), _tree(tmp_path))
    real = Store._connect
    monkeypatch.setattr(Store, "_connect", lambda self, write: _CommitFails(real(self, write)))
    with pytest.raises(StorageFullError, match="disk is full"):
        store.rename("set1", "hands", "bob")
    with pytest.raises(StorageFullError, match="disk is full"):
        store.delete("set1", "bob")
    with pytest.raises(StorageFullError, match="disk is full"):
        store.restore(kept, "bob")
    monkeypatch.undo()
    assert (_state(store), _tree(tmp_path)) == before
    assert store.datasets()[0]["name"] == "set1" and len(store.datasets()) == 1


def test_a_read_only_database_renames_and_deletes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store, _, _ = _saved(tmp_path)
    before = (_state(store), _tree(tmp_path))

    def read_only(self: Store, write: bool) -> sqlite3.Connection:
        con = sqlite3.connect(f"{self.db.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        con.row_factory = sqlite3.Row
        return con

    monkeypatch.setattr(Store, "_connect", read_only)
    for change in (lambda: store.rename("set1", "hands", "bob"), lambda: store.delete("set1", "bob")):
        with pytest.raises(StorageError, match="read-only") as err:
            change()
        assert err.value.code == "storage_unavailable"
    monkeypatch.undo()
    assert (_state(store), _tree(tmp_path)) == before
