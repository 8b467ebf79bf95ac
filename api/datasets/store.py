"""The datasets on disk: an SQLite index beside the photos and their labels in ultralytics' layout.

    MJ_DATA_DIR/
      index.sqlite3            the index: datasets, photos, every saved version of each photo's labels, the audit log
      <dataset>/images/<photo>      the photo, upright (EXIF orientation applied), .jpg/.png/.webp
      <dataset>/labels/<stem>.txt   its YOLO labels: "cls cx cy w h" per box, classes of vision.names.NAMES
      <dataset>/meta/<stem>.json    its sidecar: the labels object (boxes with sideways, melds, win, hand, group,
                                    status), the version, who saved it and when
      .deleted/<dataset>-<UTC time>/   a deleted dataset's folder, set aside with history.json: its rows

The database is the source of truth; the files are written from it, atomically, inside the same transaction
(``api.datasets.files.Staged``), so that a failed write or commit leaves the previous version, files included.
Each save names the version it was based on: a stale one is refused (``ConflictError`` version_conflict), so
that two people saving the same photo cannot overwrite each other's work. Writers queue on SQLite's lock
(``BEGIN IMMEDIATE``), which also holds across worker processes on one machine.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from api.datasets.errors import BadArchiveError, BadLabelsError, ConflictError, NotFoundError, storage_error
from api.datasets.files import Moved, Staged
from api.datasets.labels import FIELDS, STATUSES, Labels
from api.datasets.names import dataset_name, inside, photo_name
from vision.names import CLASS_ID

log = logging.getLogger(__name__)

# one writer of files at a time per data folder in this process, from its transaction to the old files dropped after
# the commit: a rename committed between a save's commit and its finish() moved the folder, and the save's old files
# were left in it (the race test, 2 of 80 runs)
_WRITERS: dict[Path, threading.RLock] = {}
_WRITERS_GUARD = threading.Lock()


def _writer(root: Path) -> threading.RLock:
    with _WRITERS_GUARD:
        return _WRITERS.setdefault(root.resolve(), threading.RLock())

DB_NAME = "index.sqlite3"
SCHEMA_VERSION = 1
BUSY_SECONDS = 30.0
TRASH = ".deleted"  # deleted datasets' folders: no dataset name starts with a dot
HISTORY = "history.json"  # in each: the deleted dataset's rows
HISTORY_FORMAT = 1
CHECKED = ("labelled", "reviewed")  # the statuses a person has looked at: what export and the tile counts use

_SCHEMA = """
CREATE TABLE IF NOT EXISTS info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS datasets (
    name TEXT PRIMARY KEY, created_at TEXT NOT NULL, created_by TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS photos (
    dataset TEXT NOT NULL REFERENCES datasets(name), name TEXT NOT NULL, sha256 TEXT NOT NULL,
    width INTEGER NOT NULL, height INTEGER NOT NULL, version INTEGER NOT NULL,
    status TEXT NOT NULL, grp TEXT NOT NULL, boxes INTEGER NOT NULL,
    added_at TEXT NOT NULL, added_by TEXT NOT NULL, saved_at TEXT NOT NULL, saved_by TEXT NOT NULL,
    PRIMARY KEY (dataset, name), UNIQUE (dataset, sha256));
CREATE TABLE IF NOT EXISTS versions (
    dataset TEXT NOT NULL, photo TEXT NOT NULL, version INTEGER NOT NULL, labels TEXT NOT NULL,
    saved_at TEXT NOT NULL, saved_by TEXT NOT NULL, PRIMARY KEY (dataset, photo, version));
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, who TEXT NOT NULL, action TEXT NOT NULL,
    dataset TEXT NOT NULL, photo TEXT, detail TEXT NOT NULL);
"""

# the tables that hold a dataset's rows, each with the column naming the dataset, and the columns history.json keeps
_KEYS = {"datasets": "name", "photos": "dataset", "versions": "dataset", "audit": "dataset"}
_COLUMNS = {
    "datasets": ("name", "created_at", "created_by"),
    "photos": ("dataset", "name", "sha256", "width", "height", "version", "status", "grp", "boxes", "added_at",
               "added_by", "saved_at", "saved_by"),
    "versions": ("dataset", "photo", "version", "labels", "saved_at", "saved_by"),
    "audit": ("at", "who", "action", "dataset", "photo", "detail"),
}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _stem(photo: str) -> str:
    return photo.rsplit(".", 1)[0]


@dataclass(frozen=True, slots=True)
class Current:
    """One photo's current version, as export reads it."""

    photo: str
    version: int
    labels: Labels
    image: Path
    saved_at: str
    saved_by: str

    def meta(self) -> dict[str, Any]:
        """The photo's JSON sidecar (as ``meta/<stem>.json`` holds it)."""
        return {"photo": self.photo, "version": self.version, "saved_at": self.saved_at,
                "saved_by": self.saved_by, **self.labels.to_json()}


class Store:
    """The datasets under ``root`` (``MJ_DATA_DIR``). Every method opens its own connection: thread-safe."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    # --- connections -------------------------------------------------------------------------------------------

    @property
    def db(self) -> Path:
        return self.root / DB_NAME

    def _connect(self, write: bool) -> sqlite3.Connection:
        if write:
            self.root.mkdir(parents=True, exist_ok=True)
            con = sqlite3.connect(self.db, timeout=BUSY_SECONDS, isolation_level=None)
        else:  # a read never creates the database (and works on a read-only disk)
            con = sqlite3.connect(f"{self.db.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_SECONDS,
                                  isolation_level=None)
        con.row_factory = sqlite3.Row
        if write:
            con.execute("PRAGMA synchronous=FULL")
            if con.execute("SELECT count(*) FROM sqlite_master WHERE name='audit'").fetchone()[0] == 0:
                con.executescript(_SCHEMA)
                con.execute("INSERT OR IGNORE INTO info VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        return con

    @contextlib.contextmanager
    def _read(self, doing: str) -> Iterator[sqlite3.Connection | None]:
        """A connection for reading, or None when there is no database yet; the block reads in one transaction, so
        that its queries see one state (a rename committed between a dataset's row and its photo's read answered
        photo_not_found for a photo the dataset held under its old name)."""
        if not self.db.exists():
            yield None
            return
        try:
            con = self._connect(write=False)
        except sqlite3.Error as exc:
            raise storage_error(exc, doing) from exc
        try:
            con.execute("BEGIN")  # inside: a BEGIN that fails still closes the connection
            yield con
        except (sqlite3.OperationalError, OSError) as exc:
            raise storage_error(exc, doing) from exc
        finally:
            self._rollback(con)
            con.close()

    @contextlib.contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``: one writer at a time), committed when the block ends."""
        try:
            con = self._connect(write=True)
        except (sqlite3.Error, OSError) as exc:
            raise storage_error(exc, doing) from exc
        try:
            con.execute("BEGIN IMMEDIATE")
            yield con
            con.execute("COMMIT")
        except (sqlite3.OperationalError, OSError) as exc:
            self._rollback(con)
            raise storage_error(exc, doing) from exc
        except BaseException:
            self._rollback(con)
            raise
        finally:
            con.close()

    @contextlib.contextmanager
    def _changing(self, doing: str) -> Iterator[tuple[sqlite3.Connection, list[Staged | Moved]]]:
        """A write transaction that also changes files: the block stages them (``Staged`` or ``Moved``, added to the
        list) and applies them before the commit; if anything fails, the commit included, the old files are put
        back, the last change first."""
        staged: list[Staged | Moved] = []
        with _writer(self.root):
            try:
                with self._write(doing) as con:
                    yield con, staged
            except BaseException:
                for files in reversed(staged):
                    files.undo()
                raise
            for files in staged:
                try:
                    files.finish()
                except OSError as exc:  # committed already; only the folder's flush failed
                    log.warning("flushing the data folder failed after a commit: %s", exc)

    @staticmethod
    def _rollback(con: sqlite3.Connection) -> None:
        if con.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")

    @staticmethod
    def _audit(con: sqlite3.Connection, who: str, action: str, dataset: str, photo: str | None, detail: str) -> None:
        con.execute("INSERT INTO audit (at, who, action, dataset, photo, detail) VALUES (?, ?, ?, ?, ?, ?)",
                    (_now(), who, action, dataset, photo, detail))

    def _files(self, dataset: str, photo: str, labels: Labels, version: int, at: str, who: str,
               image: bytes | None = None) -> dict[Path, bytes | None]:
        """The files of one photo's version: its YOLO labels, its sidecar, and the image when given."""
        stem = _stem(photo)
        meta = Current(photo, version, labels, Path(photo), at, who).meta()
        files: dict[Path, bytes | None] = {
            inside(self.root, dataset, "labels", f"{stem}.txt"): labels.yolo().encode(),
            inside(self.root, dataset, "meta", f"{stem}.json"): json.dumps(meta, indent=1).encode(),
        }
        if image is not None:
            files[inside(self.root, dataset, "images", photo)] = image
        return files

    # --- datasets ----------------------------------------------------------------------------------------------

    def create(self, name: str, who: str) -> dict[str, Any]:
        """A new, empty dataset (``ConflictError`` dataset_exists when the name is taken)."""
        dataset_name(name)
        folder = inside(self.root, name)
        with self._write(f"creating dataset {name}") as con:
            if con.execute("SELECT 1 FROM datasets WHERE name=?", (name,)).fetchone():
                raise ConflictError(f"dataset {name!r} exists already", "dataset_exists")
            for sub in ("images", "labels", "meta"):
                (folder / sub).mkdir(parents=True, exist_ok=True)
            con.execute("INSERT INTO datasets VALUES (?, ?, ?)", (name, _now(), who))
            self._audit(con, who, "create_dataset", name, None, "")
            answer = self._progress(con, name)
        return answer

    def _free(self, con: sqlite3.Connection, name: str) -> Path:
        """The folder a dataset named ``name`` would have; ``ConflictError`` dataset_exists when it is taken."""
        folder = inside(self.root, name)
        if con.execute("SELECT 1 FROM datasets WHERE name=?", (name,)).fetchone():
            raise ConflictError(f"dataset {name!r} exists already", "dataset_exists")
        if folder.exists() or folder.is_symlink():
            raise ConflictError(f"a folder named {name!r} lies in the data folder already (not a dataset of the "
                                f"index); move it away first", "dataset_exists")
        return folder

    def rename(self, name: str, new: str, who: str) -> dict[str, Any]:
        """Rename a dataset: its rows (photos, versions, the log) and its folder change in one transaction; the log
        says ``rename_dataset``. ``ConflictError`` dataset_exists when ``new`` is taken (renaming to the same name
        changes nothing)."""
        dataset_name(new)
        if new == name:
            return self.progress(name)
        with self._changing(f"renaming dataset {name}") as (con, staged):
            self._require(con, name)
            target = self._free(con, new)
            for table, key in _KEYS.items():
                con.execute(f"UPDATE {table} SET {key}=? WHERE {key}=?", (new, name))
            self._audit(con, who, "rename_dataset", new, None, f"from {name}")
            move = Moved(inside(self.root, name), target)
            staged.append(move)
            move.apply()
            answer = self._progress(con, new)
        return answer

    def delete(self, name: str, who: str) -> str:
        """Delete a dataset, losing nothing: its folder is set aside as ``.deleted/<name>-<UTC time>/`` with a
        ``history.json`` of its rows (the dataset, its photos, every version, its log), and its rows leave the
        index; one ``delete_dataset`` row stays in the log, saying where it went. Returns the folder's name under
        ``.deleted`` (``restore`` brings it back)."""
        dataset_name(name)
        with self._changing(f"deleting dataset {name}") as (con, staged):
            self._require(con, name)
            at = _now()
            kept = self._trash_name(name, at)
            history = {"format": HISTORY_FORMAT, "deleted_at": at, "deleted_by": who,
                       **{table: self._rows(con, table, name) for table in _KEYS}}
            for table, key in _KEYS.items():
                con.execute(f"DELETE FROM {table} WHERE {key}=?", (name,))
            self._audit(con, who, "delete_dataset", name, None, f"moved to {TRASH}/{kept}")
            target = inside(self.root, TRASH, kept)
            move = Moved(inside(self.root, name), target)
            staged.append(move)
            move.apply()
            files = Staged({target / HISTORY: json.dumps(history, indent=1, ensure_ascii=False).encode()})
            staged.append(files)
            files.apply()
        return kept

    def _trash_name(self, name: str, at: str) -> str:
        """``<name>-<UTC time>`` (``set1-20250501T100000Z``), with ``-2``, ``-3`` ... when that is taken."""
        stamp = at.replace("-", "").replace(":", "")
        kept, n = f"{name}-{stamp}", 1
        while inside(self.root, TRASH, kept).exists():
            n += 1
            kept = f"{name}-{stamp}-{n}"
        return kept

    @staticmethod
    def _rows(con: sqlite3.Connection, table: str, name: str) -> list[dict[str, Any]]:
        """A dataset's rows of ``table`` as ``history.json`` holds them (each version's labels as an object)."""
        rows = [dict(r) for r in con.execute(f"SELECT {', '.join(_COLUMNS[table])} FROM {table} WHERE "
                                             f"{_KEYS[table]}=? ORDER BY rowid", (name,))]
        return [{**r, "labels": json.loads(r["labels"])} if table == "versions" else r for r in rows]

    def restore(self, kept: str, who: str, name: str | None = None) -> dict[str, Any]:
        """Bring back a deleted dataset from ``.deleted/<kept>/``, as ``name`` (by default the name it had): its
        rows from ``history.json`` go back into the index and its folder back into place; the log says
        ``restore_dataset``. ``NotFoundError`` dataset_not_found when there is no such folder."""
        folder = inside(self.root, TRASH, kept)
        try:
            history = json.loads((folder / HISTORY).read_bytes())
            rows = {table: history[table] for table in _KEYS}
            name = dataset_name(name or rows["datasets"][0]["name"])
        except FileNotFoundError:
            raise NotFoundError(f"no deleted dataset {kept!r} in {TRASH}", "dataset_not_found") from None
        except OSError as exc:
            raise storage_error(exc, f"reading {TRASH}/{kept}/{HISTORY}") from exc
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise BadArchiveError(f"{TRASH}/{kept}/{HISTORY} is not a history this store wrote: {exc!r}") from None
        with self._changing(f"restoring dataset {name}") as (con, staged):
            target = self._free(con, name)
            for table, key in _KEYS.items():
                columns = _COLUMNS[table]
                insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
                for row in rows[table]:
                    values = {**row, key: name}
                    if table == "versions":
                        values["labels"] = json.dumps(row["labels"])
                    con.execute(insert, [values[c] for c in columns])
            self._audit(con, who, "restore_dataset", name, None, f"from {TRASH}/{kept}")
            move = Moved(folder, target)
            staged.append(move)
            move.apply()
            files = Staged({target / HISTORY: None})
            staged.append(files)
            files.apply()
            answer = self._progress(con, name)
        return answer

    def exists(self, name: str) -> bool:
        dataset_name(name)
        with self._read(f"reading dataset {name}") as con:
            return con is not None and con.execute("SELECT 1 FROM datasets WHERE name=?", (name,)).fetchone() \
                is not None

    def _require(self, con: sqlite3.Connection | None, name: str) -> sqlite3.Connection:
        dataset_name(name)
        if con is None or not con.execute("SELECT 1 FROM datasets WHERE name=?", (name,)).fetchone():
            raise NotFoundError(f"no dataset named {name!r}; create it first", "dataset_not_found")
        return con

    def datasets(self) -> list[dict[str, Any]]:
        """Every dataset with its photo counts by status."""
        with self._read("listing datasets") as con:
            if con is None:
                return []
            rows = con.execute("SELECT name, created_at, created_by FROM datasets ORDER BY name").fetchall()
            return [{"name": r["name"], "created_at": r["created_at"], "created_by": r["created_by"],
                     **self._counts(con, r["name"])} for r in rows]

    @staticmethod
    def _counts(con: sqlite3.Connection, name: str) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for row in con.execute("SELECT status, count(*) FROM photos WHERE dataset=? GROUP BY status", (name,)):
            counts[row[0]] = row[1]
        return {"photos": sum(counts.values()), **counts}

    def progress(self, name: str) -> dict[str, Any]:
        """Photos by status, groups, boxes, the count of each tile over the photos a person has checked, and the
        tile names none of them shows (``unshown``: a fine-tune cannot learn the set's look of those)."""
        with self._read(f"reading dataset {name}") as con:
            return self._progress(self._require(con, name), name)

    def _progress(self, con: sqlite3.Connection, name: str) -> dict[str, Any]:
        """``progress`` on ``con`` (a writer answers what it committed, whatever commits next)."""
        tiles: Counter[str] = Counter()
        for row in self._latest(con, name, CHECKED):
            lab = json.loads(row["labels"])
            tiles.update(b["tile"] for b in lab["boxes"])
        boxes = con.execute("SELECT coalesce(sum(boxes), 0) FROM photos WHERE dataset=?", (name,)).fetchone()[0]
        groups = con.execute("SELECT count(DISTINCT CASE grp WHEN '' THEN name ELSE grp END) FROM photos "
                             "WHERE dataset=?", (name,)).fetchone()[0]
        return {"name": name, **self._counts(con, name), "groups": groups, "boxes": boxes,
                "tiles": dict(sorted(tiles.items(), key=lambda kv: _tile_order(kv[0]))),
                "unshown": [tile for tile in CLASS_ID if tile not in tiles]}

    @staticmethod
    def _latest(con: sqlite3.Connection, name: str, statuses: tuple[str, ...]) -> list[sqlite3.Row]:
        marks = ",".join("?" * len(statuses))
        return con.execute(
            f"SELECT p.name, p.version, p.saved_at, p.saved_by, v.labels FROM photos p JOIN versions v "
            f"ON v.dataset=p.dataset AND v.photo=p.name AND v.version=p.version "
            f"WHERE p.dataset=? AND p.status IN ({marks}) ORDER BY p.name", (name, *statuses)).fetchall()

    # --- photos ------------------------------------------------------------------------------------------------

    def photos(self, name: str) -> list[dict[str, Any]]:
        """The dataset's photos in name order: status, group, version, box count, size, who saved last and when."""
        with self._read(f"listing the photos of {name}") as con:
            con = self._require(con, name)
            rows = con.execute("SELECT name, version, status, grp, boxes, width, height, saved_at, saved_by "
                               "FROM photos WHERE dataset=? ORDER BY name", (name,)).fetchall()
            return [{"photo": r["name"], "version": r["version"], "status": r["status"], "group": r["grp"],
                     "boxes": r["boxes"], "width": r["width"], "height": r["height"], "saved_at": r["saved_at"],
                     "saved_by": r["saved_by"]} for r in rows]

    def add_photo(self, name: str, filename: str, image: bytes, labels: Labels, who: str,
                  note: str = "") -> dict[str, Any]:
        """Store a new photo (``filename``: a valid photo name; ``-2``, ``-3`` ... is added when it is taken) with
        its first labels as version 1. ``ConflictError`` duplicate_photo when the same bytes are there already."""
        photo_name(filename)
        sha = hashlib.sha256(image).hexdigest()
        with self._changing(f"adding {filename} to {name}") as (con, staged):
            self._require(con, name)
            same = con.execute("SELECT name FROM photos WHERE dataset=? AND sha256=?", (name, sha)).fetchone()
            if same:
                raise ConflictError(f"{filename}: the same photo is in {name!r} already, as {same[0]}",
                                    "duplicate_photo")
            photo = self._free_name(con, name, filename)
            at = _now()
            files = Staged(self._files(name, photo, labels, 1, at, who, image))
            staged.append(files)
            con.execute("INSERT INTO photos VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)",
                        (name, photo, sha, labels.width, labels.height, labels.status, labels.group,
                         len(labels.boxes), at, who, at, who))
            con.execute("INSERT INTO versions VALUES (?, ?, 1, ?, ?, ?)",
                        (name, photo, json.dumps(labels.to_json()), at, who))
            self._audit(con, who, "add_photo", name, photo,
                        f"{labels.width}x{labels.height}, {len(labels.boxes)} boxes{'; ' + note if note else ''}")
            files.apply()
            answer = self._record(con, name, photo)
        return answer

    @staticmethod
    def _free_name(con: sqlite3.Connection, name: str, filename: str) -> str:
        stem, ext = filename.rsplit(".", 1)
        taken = {r[0] for r in con.execute("SELECT name FROM photos WHERE dataset=?", (name,))}
        candidate, n = filename, 1
        while candidate in taken or _stem(candidate) in {_stem(t) for t in taken}:
            n += 1
            candidate = f"{stem[:95]}-{n}.{ext}"
        return candidate

    def photo(self, name: str, photo: str) -> dict[str, Any]:
        """The photo's current labels with its version and who saved it when."""
        photo_name(photo)
        with self._read(f"reading {photo}") as con:
            return self._record(self._require(con, name), name, photo)

    @staticmethod
    def _record(con: sqlite3.Connection, name: str, photo: str) -> dict[str, Any]:
        """``photo`` on ``con`` (a writer answers what it committed, whatever commits next)."""
        row = con.execute("SELECT p.version, p.saved_at, p.saved_by, p.sha256, v.labels FROM photos p JOIN "
                          "versions v ON v.dataset=p.dataset AND v.photo=p.name AND v.version=p.version "
                          "WHERE p.dataset=? AND p.name=?", (name, photo)).fetchone()
        if row is None:
            raise NotFoundError(f"no photo {photo!r} in dataset {name!r}", "photo_not_found")
        return {"dataset": name, "photo": photo, "version": row["version"], "saved_at": row["saved_at"],
                "saved_by": row["saved_by"], "sha256": row["sha256"], **json.loads(row["labels"])}

    def image_path(self, name: str, photo: str) -> Path:
        """The photo's file (after checking that the dataset holds it)."""
        self.photo(name, photo)
        return inside(self.root, name, "images", photo)

    def labels_of(self, name: str, photo: str) -> Labels:
        """The photo's current labels."""
        rec = self.photo(name, photo)
        return Labels.from_json({k: rec[k] for k in FIELDS}, rec["image"]["width"], rec["image"]["height"])

    def save(self, name: str, photo: str, base: int, labels: Labels, who: str) -> dict[str, Any]:
        """Save ``labels`` as the next version of ``photo`` if its current version is ``base``; else
        ``ConflictError`` version_conflict (nothing is written)."""
        photo_name(photo)
        with self._changing(f"saving {photo}") as (con, staged):
            self._require(con, name)
            row = con.execute("SELECT version, width, height, saved_at, saved_by FROM photos WHERE dataset=? AND "
                              "name=?", (name, photo)).fetchone()
            if row is None:
                raise NotFoundError(f"no photo {photo!r} in dataset {name!r}", "photo_not_found")
            if row["version"] != base:
                msg = (f"{photo} was saved by {row['saved_by']} at {row['saved_at']} (version {row['version']}) "
                       f"after the version {base} these changes were made on; reload it to see theirs")
                raise ConflictError(msg, "version_conflict")
            if (labels.width, labels.height) != (row["width"], row["height"]):
                raise BadLabelsError(f"the labels are for a {labels.width}x{labels.height} photo; {photo} is "
                                     f"{row['width']}x{row['height']}")
            version, at = base + 1, _now()
            files = Staged(self._files(name, photo, labels, version, at, who))
            staged.append(files)
            con.execute("INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?)",
                        (name, photo, version, json.dumps(labels.to_json()), at, who))
            con.execute("UPDATE photos SET version=?, status=?, grp=?, boxes=?, saved_at=?, saved_by=? "
                        "WHERE dataset=? AND name=?",
                        (version, labels.status, labels.group, len(labels.boxes), at, who, name, photo))
            self._audit(con, who, "save", name, photo, f"version {version}: {len(labels.boxes)} boxes, {labels.status}")
            files.apply()
            answer = self._record(con, name, photo)
        return answer

    def delete_photo(self, name: str, photo: str, base: int, who: str) -> None:
        """Remove a photo, its files and its versions (if its current version is ``base``)."""
        photo_name(photo)
        with self._changing(f"deleting {photo}") as (con, staged):
            self._require(con, name)
            row = con.execute("SELECT version FROM photos WHERE dataset=? AND name=?", (name, photo)).fetchone()
            if row is None:
                raise NotFoundError(f"no photo {photo!r} in dataset {name!r}", "photo_not_found")
            if row["version"] != base:
                raise ConflictError(f"{photo} changed (version {row['version']}) since version {base}; reload it",
                                    "version_conflict")
            stem = _stem(photo)
            files = Staged({inside(self.root, name, "images", photo): None,
                            inside(self.root, name, "labels", f"{stem}.txt"): None,
                            inside(self.root, name, "meta", f"{stem}.json"): None})
            staged.append(files)
            con.execute("DELETE FROM photos WHERE dataset=? AND name=?", (name, photo))
            con.execute("DELETE FROM versions WHERE dataset=? AND photo=?", (name, photo))
            self._audit(con, who, "delete_photo", name, photo, f"at version {base}")
            files.apply()

    def versions(self, name: str, photo: str) -> list[dict[str, Any]]:
        """Every saved version of a photo's labels, newest first."""
        photo_name(photo)
        with self._read(f"reading the versions of {photo}") as con:
            con = self._require(con, name)
            rows = con.execute("SELECT version, labels, saved_at, saved_by FROM versions WHERE dataset=? AND "
                               "photo=? ORDER BY version DESC", (name, photo)).fetchall()
            if not rows:
                raise NotFoundError(f"no photo {photo!r} in dataset {name!r}", "photo_not_found")
            return [{"version": r["version"], "saved_at": r["saved_at"], "saved_by": r["saved_by"],
                     **json.loads(r["labels"])} for r in rows]

    def audit(self, name: str, limit: int = 200) -> list[dict[str, Any]]:
        """Who did what to the dataset, newest first."""
        with self._read(f"reading the log of {name}") as con:
            con = self._require(con, name)
            rows = con.execute("SELECT at, who, action, photo, detail FROM audit WHERE dataset=? ORDER BY at DESC, "
                               "id DESC LIMIT ?", (name, limit)).fetchall()
            return [dict(r) for r in rows]

    def note(self, name: str, who: str, action: str, detail: str) -> None:
        """An entry in the audit log for something that changes nothing (an export)."""
        with self._write(f"logging {action}") as con:
            self._audit(con, who, action, name, None, detail)

    def current(self, name: str, statuses: tuple[str, ...] = CHECKED) -> list[Current]:
        """The current version of every photo with one of ``statuses``, in name order."""
        with self._read(f"reading dataset {name}") as con:
            con = self._require(con, name)
            rows = self._latest(con, name, statuses)
        out = []
        for row in rows:
            lab = json.loads(row["labels"])
            out.append(Current(row["name"], row["version"],
                               Labels.from_json(lab, lab["image"]["width"], lab["image"]["height"]),
                               inside(self.root, name, "images", row["name"]), row["saved_at"], row["saved_by"]))
        return out


def _tile_order(tile: str) -> int:
    return CLASS_ID.get(tile, len(CLASS_ID))
