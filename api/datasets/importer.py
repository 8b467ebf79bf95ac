"""Read a YOLO dataset archive (a zip) into a dataset, to go on labelling it.

Three layouts are read, each with its class names mapped to ours by name (``vision.names.NAMES``; case and
spaces ignored) and a clear error listing any name a label uses that is not a tile:

- ultralytics' (and ours, ``api.datasets.export``): a ``*.yaml`` with ``names``, photos under ``images/...`` and
  labels at the same path under ``labels/...``; our ``meta/...json`` sidecars, when there, bring back the
  sideways flags, melds, winning tile, hand, group and status;
- CVAT's "YOLO 1.1": ``obj.names``, ``obj.data``, and ``obj_train_data/`` holding photos and labels side by side;
- Label Studio's "YOLO": ``classes.txt``, ``images/``, ``labels/``.

A photo with a label file (or a sidecar) arrives as ``labelled`` (its sidecar's status when it has one), one
without as ``todo``. Photos are stored as uploads are (``api.datasets.images.upright``); the same photo twice is
kept once. A photo that cannot be read is skipped and listed; a bad archive is refused before anything is stored:

    archive = read_archive(fh)                                   # BadArchiveError: nothing stored
    report = import_archive(store, name, archive, who, check, max_photo_bytes)
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import IO, Any

import yaml

from api.datasets.errors import BadArchiveError, BadLabelsError, ConflictError
from api.datasets.images import upright
from api.datasets.labels import Labels
from api.datasets.names import photo_slug
from api.datasets.store import Store
from vision.errors import VisionError
from vision.names import CLASS_ID

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif"}
MAX_MEMBERS = 100_000
MAX_TEXT = 2_000_000  # bytes of one label, names or sidecar file


@dataclass
class Report:
    """What an import did."""

    dataset: str
    format: str
    added: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    ignored_classes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "format": self.format, "added": len(self.added),
                "duplicates": len(self.duplicates), "skipped": self.skipped, "photos": self.added,
                "ignored_classes": self.ignored_classes}


@dataclass(frozen=True)
class _Item:
    image: str  # member name of the photo
    labels: str | None  # member name of its YOLO labels
    meta: str | None  # member name of our sidecar


def _ours(name: str) -> str | None:
    key = str(name).strip().lower().replace(" ", "")
    return key if key in CLASS_ID else None


class _Archive:
    def __init__(self, fh: IO[bytes]) -> None:
        try:
            self.zf = zipfile.ZipFile(fh)
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise BadArchiveError(f"the archive is not a zip file: {exc}") from None
        infos = [i for i in self.zf.infolist() if not i.is_dir()]
        if len(infos) > MAX_MEMBERS:
            raise BadArchiveError(f"the archive holds {len(infos)} files; at most {MAX_MEMBERS}")
        self.members = {i.filename: i for i in infos if not i.filename.startswith("__MACOSX/")
                        and not PurePosixPath(i.filename).name.startswith(".")}

    def read(self, name: str, limit: int) -> bytes:
        info = self.members[name]
        if info.file_size > limit:
            raise BadArchiveError(f"{name} is {info.file_size} bytes; at most {limit}")
        try:
            with self.zf.open(info) as fh:
                data = fh.read(limit + 1)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as exc:  # encrypted, corrupt
            raise BadArchiveError(f"cannot read {name} from the archive: {exc}") from None
        if len(data) > limit:
            raise BadArchiveError(f"{name} is larger than {limit} bytes")
        return data

    def text(self, name: str) -> str:
        try:
            return self.read(name, MAX_TEXT).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BadArchiveError(f"{name} is not UTF-8 text") from None

    def find(self, filename: str) -> list[str]:
        """Members named ``filename`` at most two folders deep, shallowest first."""
        found = [m for m in self.members if PurePosixPath(m).name == filename and m.count("/") <= 2]
        return sorted(found, key=lambda m: (m.count("/"), m))


def _names(arc: _Archive) -> tuple[str, tuple[str, ...]]:
    """The archive's format and its class names, in class order."""
    for member in sorted((m for m in arc.members if m.endswith((".yaml", ".yml")) and m.count("/") <= 2),
                         key=lambda m: (m.count("/"), m)):
        try:
            data = yaml.safe_load(arc.text(member))
        except yaml.YAMLError as exc:
            raise BadArchiveError(f"{member} is not YAML: {str(exc)[:200]}") from None
        if isinstance(data, dict) and data.get("names") is not None:
            names = data["names"]
            if isinstance(names, dict):
                keys = sorted(names)
                if keys != list(range(len(keys))):
                    raise BadArchiveError(f"{member}: 'names' must number the classes 0, 1, 2, ...")
                names = [names[k] for k in keys]
            if not isinstance(names, list):
                raise BadArchiveError(f"{member}: 'names' must be a list or a mapping of class numbers to names")
            fmt = "mjscore" if arc.find("manifest.json") else "ultralytics"
            return fmt, tuple(str(n) for n in names)
    for filename, fmt in (("obj.names", "cvat"), ("classes.txt", "label_studio")):
        found = arc.find(filename)
        if found:
            return fmt, tuple(line.strip() for line in arc.text(found[0]).splitlines() if line.strip())
    raise BadArchiveError("the archive names no classes: it holds no data.yaml (ultralytics), obj.names (CVAT) "
                          "or classes.txt (Label Studio)")


def _items(arc: _Archive) -> list[_Item]:
    """Each photo in the archive with its label file and sidecar, where it has them."""
    items = []
    for member in sorted(arc.members):
        path = PurePosixPath(member)
        if path.suffix.lower() not in PHOTO_SUFFIXES:
            continue
        parts = list(path.parts)
        beside = str(path.with_suffix(".txt"))
        labels = meta = None
        if "images" in parts:
            k = len(parts) - 1 - parts[::-1].index("images")
            label_path = PurePosixPath(*parts[:k], "labels", *parts[k + 1:]).with_suffix(".txt")
            meta_path = PurePosixPath(*parts[:k], "meta", *parts[k + 1:]).with_suffix(".json")
            labels = str(label_path) if str(label_path) in arc.members else None
            meta = str(meta_path) if str(meta_path) in arc.members else None
        if labels is None and beside in arc.members:
            labels = beside
        items.append(_Item(member, labels, meta))
    return items


def _used_classes(arc: _Archive, items: list[_Item]) -> set[int]:
    used: set[int] = set()
    for item in items:
        if item.labels is None:
            continue
        for number, line in enumerate(arc.text(item.labels).splitlines(), 1):
            fields = line.split()
            if fields:
                try:
                    used.add(int(fields[0]))
                except ValueError:
                    raise BadArchiveError(f"{item.labels} line {number}: the class is not a number: "
                                          f"{line[:60]!r}") from None
    return used


@dataclass(frozen=True)
class Archive:
    """An archive read and checked (``read_archive``), ready to be added to a dataset (``import_archive``)."""

    zip: _Archive
    format: str
    names: tuple[str, ...]  # our name of each class number (a name no label uses may stay foreign)
    items: tuple[_Item, ...]
    ignored: tuple[str, ...]  # class names that are no tiles, which no label uses


def read_archive(fh: IO[bytes]) -> Archive:
    """Read and check an archive: its format, its class names (each one a label uses must be a tile) and its
    photos. Raises ``BadArchiveError`` (``unknown_classes`` listing the names) before anything is stored."""
    arc = _Archive(fh)
    fmt, names = _names(arc)
    items = _items(arc)
    if not items:
        raise BadArchiveError("the archive holds no photos (.jpg, .png, .webp, .heic); export it with its images")
    used = _used_classes(arc, items)
    outside = sorted(k for k in used if not 0 <= k < len(names))
    if outside:
        raise BadArchiveError(f"labels use class {outside[0]}, but the archive names only {len(names)} classes")
    unknown = sorted({names[k] for k in used if _ours(names[k]) is None})
    if unknown:
        raise BadArchiveError(f"these class names are not tiles: {', '.join(map(repr, unknown))}; rename them to "
                              "the tile names 1m..9m, 1p..9p, 1s..9s, 1z..7z (E S W N white green red), 1f..8f or "
                              "back, and export again", "unknown_classes")
    ignored = tuple(sorted({n for n in names if _ours(n) is None}))
    return Archive(arc, fmt, tuple(_ours(n) or n for n in names), tuple(items), ignored)


def import_archive(store: Store, name: str, archive: Archive, who: str, check: Callable[[bytes], str],
                   max_photo_bytes: int) -> Report:
    """Add a checked archive's photos and labels to the dataset ``name`` (which must exist). ``check(data)`` vets a
    photo's bytes as an upload is vetted and returns its type (``jpeg``, ``png``, ``webp``, ``heic``), or raises
    ``ValueError`` saying why the photo is refused (it is then skipped)."""
    store.progress(name)  # the dataset exists
    arc, fmt = archive.zip, archive.format
    report = Report(name, fmt, ignored_classes=list(archive.ignored))
    seen: set[str] = set()  # a photo in more than one split of the archive is read once
    for item in archive.items:
        where = item.image
        try:
            data = arc.read(item.image, max_photo_bytes)
            digest = hashlib.sha256(data).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            kind = check(data)
            stored, ext, width, height = upright(data, kind)
            labels = _labels(arc, item, archive.names, width, height)
            added = store.add_photo(name, photo_slug(item.image, ext), stored, labels, who, note=f"imported ({fmt})")
        except ConflictError as exc:
            if exc.code != "duplicate_photo":
                raise
            report.duplicates.append(where)
            continue
        except (BadLabelsError, BadArchiveError, VisionError, ValueError) as exc:
            report.skipped.append({"file": where, "reason": str(exc)})
            continue
        report.added.append(added["photo"])
    return report


def _labels(arc: _Archive, item: _Item, names: tuple[str, ...], width: int, height: int) -> Labels:
    if item.meta is not None:
        try:
            meta = json.loads(arc.text(item.meta))
        except json.JSONDecodeError as exc:
            raise BadLabelsError(f"{item.meta} is not JSON: {exc}") from None
        if not isinstance(meta, dict):
            raise BadLabelsError(f"{item.meta} must hold a JSON object")
        image = meta.get("image") or {}
        if (image.get("width"), image.get("height")) != (width, height):
            raise BadLabelsError(f"{item.meta} is for a {image.get('width')}x{image.get('height')} photo; the photo "
                                 f"is {width}x{height}")
        fields = {k: v for k, v in meta.items() if k not in ("photo", "version", "saved_at", "saved_by")}
        return Labels.from_json(fields, width, height)
    if item.labels is None:
        return Labels(width, height)
    lab = Labels.from_yolo(arc.text(item.labels), width, height, names, where=item.labels)
    return lab.with_status("labelled")
