"""The labelled photos ``mjscore train --data`` learns from, read and checked.

``--data`` names a dataset of the annotation store (its name, under ``MJ_DATA_DIR``: exported as the export zip
would be, ``api.datasets.export.write_tree``), a folder or zip in that export format, or a plain ultralytics dataset
(a ``data.yaml`` with ``names`` and ``train``/``val``, labels beside the images at ultralytics' paths). Our
``meta/<split>/<stem>.json`` sidecars, when there, add each box's sideways flag and the hand.

Every problem is a ``DatasetError`` naming the file and what is wrong: no ``data.yaml``, class names that are no
tiles, a label line that is no box, a label file without its photo, a photo that cannot be read, no photo with
labels to train on.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

import yaml

from vision.image import open_image
from vision.names import CLASS_ID, NAMES

SPLITS = ("train", "val")
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")
DATA_DIR = "mjscore-data"  # MJ_DATA_DIR's default, as the service has it (api/config.py)


class DatasetError(ValueError):
    """A dataset that cannot be trained on; the message names the file and what is wrong."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One labelled box: its tile name, xyxy pixels, and whether it lies sideways (None: the labels do not say)."""

    name: str
    box: tuple[float, float, float, float]
    sideways: bool | None = None


@dataclass(frozen=True, slots=True)
class Photo:
    """One labelled photo of a split, with the hand its sidecar holds (None: none)."""

    image: Path
    split: str
    tiles: tuple[Tile, ...]
    hand: str | None = None
    group: str | None = None  # the photos of one hand share a group (the export's sidecar; None: its own)

    @property
    def kept_with(self) -> str:
        """The name of the photos it is kept with in a split: its group, else itself."""
        return self.group or self.image.stem


@dataclass(frozen=True, slots=True)
class Labelled:
    """A dataset read: its name, its photos, and notes on what it lacks (no held-out photos ...)."""

    name: str
    photos: tuple[Photo, ...]
    notes: tuple[str, ...] = ()
    skipped: tuple[tuple[Path, str], ...] = ()  # photos left out, and why (read to measure, not to train)

    def split(self, name: str) -> tuple[Photo, ...]:
        return tuple(p for p in self.photos if p.split == name)

    @property
    def unshown(self) -> tuple[str, ...]:
        """The tile names that no train photo's labels show: the set's look of them is not learnt (20 photos of a
        hand each may show no north wind at all)."""
        shown = {t.name for p in self.split("train") for t in p.tiles}
        return tuple(n for n in NAMES if n not in shown)

    @property
    def held_out(self) -> tuple[Photo, ...]:
        """The photos to measure on: the val split, or the train split when there is no val (a note says so)."""
        return self.split("val") or self.split("train")

    def every_name_trained(self) -> Labelled:
        """The dataset with its held-out photos that show a tile no train photo shows moved to train, each with the
        photos of its group (a hand's photos stay together): a tile no train photo shows is not learnt, and 20
        photos of a hand each may show one 1f, held out. The group showing the most such names moves first (then
        by name). Where that would leave none held out, a train group whose tiles the other train photos all show
        takes its place, the first by name, if there is one. A note says what moved."""
        photos, notes = list(self.photos), list(self.notes)

        def names(split: str, but: str | None = None) -> set[str]:
            return {t.name for p in photos if p.split == split and p.kept_with != but for t in p.tiles}

        def move(group: str, split: str) -> None:
            photos[:] = [replace(p, split=split) if p.kept_with == group else p for p in photos]

        while missing := names("val") - names("train"):
            groups = {p.kept_with for p in photos if p.split == "val"}
            group = max(sorted(groups), key=lambda g: len(missing & {t.name for p in photos if p.kept_with == g
                                                                     for t in p.tiles}))
            move(group, "train")
            shown = sorted(missing & names("train"), key=NAMES.index)
            notes.append(f"held-out photos of {group} show {', '.join(shown)}, which no train photo showed: "
                         "trained on instead")
            if len(groups) == 1:
                trained = sorted({p.kept_with for p in photos if p.split == "train"})
                swap = next((g for g in trained if g != group and names("train", g) >= names("train")), None)
                if swap is not None:
                    move(swap, "val")
                    notes.append(f"the photos of {swap} held out in their place")
        return Labelled(self.name, tuple(photos), tuple(notes))


def read_dataset(source: str, work: Path, to_train: bool = True) -> Labelled:
    """The dataset ``source`` names (a store dataset, a folder, a zip or a data.yaml), unpacked under ``work`` where
    it needs to be, read and checked (``to_train``: see ``read_tree``)."""
    path = Path(source)
    if path.is_dir():
        return read_tree(_yaml_in(path), to_train)
    if path.is_file() and path.suffix.lower() == ".zip":
        return read_tree(_yaml_in(unzip(path, work / "data")), to_train)
    if path.is_file() and path.suffix.lower() in (".yaml", ".yml"):
        return read_tree(path, to_train)
    if path.exists():
        msg = f"{source} is neither a folder, a zip nor a data.yaml"
        raise DatasetError(msg)
    return read_tree(_yaml_in(_export(source, work / "data" / source)), to_train)


def _export(name: str, dest: Path) -> Path:
    """The store's dataset ``name`` written to ``dest`` as its export (labelled and reviewed photos)."""
    from api.datasets.errors import DatasetError as StoreError
    from api.datasets.export import write_tree
    from api.datasets.store import Store

    root = Path(os.environ.get("MJ_DATA_DIR") or DATA_DIR)
    store = Store(root)
    try:
        known = [d["name"] for d in store.datasets()]
    except StoreError as exc:
        msg = f"cannot read the datasets in {root} (MJ_DATA_DIR): {exc}"
        raise DatasetError(msg) from exc
    if name not in known:
        have = f"its datasets: {', '.join(known)}" if known else "it holds no dataset"
        msg = f"no dataset {name!r}: not a folder, a zip or a data.yaml, nor a dataset in {root} (MJ_DATA_DIR; {have})"
        raise DatasetError(msg)
    shutil.rmtree(dest, ignore_errors=True)
    try:
        write_tree(store, name, dest)
    except StoreError as exc:
        msg = f"dataset {name!r} in {root}: {exc}"
        raise DatasetError(msg) from exc
    return dest


def unzip(archive: Path, dest: Path) -> Path:
    """The zip ``archive`` unpacked into ``dest`` (emptied first); a member that would land outside is refused."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    try:
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                parts = PurePosixPath(info.filename).parts
                if info.filename.startswith("/") or ".." in parts or "\\" in info.filename:
                    msg = f"{archive}: member {info.filename!r} would be written outside the dataset's folder"
                    raise DatasetError(msg)
                if not info.is_dir() and parts and parts[0] != "__MACOSX":
                    zf.extract(info, dest)
    except (zipfile.BadZipFile, OSError) as exc:
        msg = f"{archive} is not a zip that can be read: {exc}"
        raise DatasetError(msg) from exc
    return dest


def _yaml_in(folder: Path) -> Path:
    """The dataset's YAML: ``data.yaml`` (or another ``*.yaml`` with ``names``) in ``folder`` or one folder down
    (an export unzipped: ``<name>/data.yaml``)."""
    for depth in ("*", "*/*"):
        found = sorted(p for p in folder.glob(f"{depth}.y*ml") if p.suffix in (".yaml", ".yml"))
        found.sort(key=lambda p: p.name != "data.yaml")
        for path in found:
            try:
                if isinstance(data := yaml.safe_load(path.read_text(encoding="utf-8")), dict) and "names" in data:
                    return path
            except (yaml.YAMLError, UnicodeDecodeError):
                continue
    msg = f"{folder} holds no data.yaml with the class names (an export of the annotation page, or ultralytics')"
    raise DatasetError(msg)


def read_tree(data_yaml: Path, to_train: bool = True) -> Labelled:
    """The photos of the dataset described by ``data_yaml``, their labels checked (``DatasetError`` else). Not
    ``to_train`` (a set read to measure a detector on, ``bench/eval_labelled.py``): its train photos need no labelled
    box, and a photo that cannot be read, or whose labels cannot, is left out and listed (``Labelled.skipped``)
    rather than refused with the whole set."""
    try:
        data = yaml.safe_load(data_yaml.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        msg = f"{data_yaml} cannot be read as YAML: {exc}"
        raise DatasetError(msg) from exc
    if not isinstance(data, dict):
        msg = f"{data_yaml} must hold a mapping with names, train and val"
        raise DatasetError(msg)
    names = _names(data.get("names"), data_yaml)
    root = data_yaml.parent / str(data.get("path") or "")
    photos: list[Photo] = []
    skipped: list[tuple[Path, str]] = []
    read: set[Path] = set()  # a val folder that is a train folder holds no held-out photo
    for split in SPLITS:
        for folder in _folders(data.get(split), root):
            if folder.resolve() not in read:
                read.add(folder.resolve())
                photos += _read_folder(folder, split, names, None if to_train else skipped)
    name = data_yaml.parent.name
    if not photos and not skipped:
        msg = f"dataset {name!r} ({data_yaml}) holds no photo under its train and val folders"
        raise DatasetError(msg)
    train = [p for p in photos if p.split == "train"]
    if to_train and not any(p.tiles for p in train):
        msg = f"dataset {name!r} ({data_yaml}) has no labelled box in its train photos: label some first"
        raise DatasetError(msg)
    notes = []
    if not any(p.split == "val" for p in photos):
        notes.append("no held-out (val) photos: before and after are measured on the photos trained on")
    return Labelled(name, tuple(photos), tuple(notes), tuple(skipped))


def _names(raw: object, where: Path) -> tuple[str | None, ...]:
    """Our tile name for each class number (None for a class that is no tile, an error if a label uses it)."""
    if isinstance(raw, dict):
        if sorted(raw) != list(range(len(raw))):
            msg = f"{where}: 'names' must number the classes 0, 1, 2, ..."
            raise DatasetError(msg)
        raw = [raw[k] for k in range(len(raw))]
    if not isinstance(raw, list) or not raw:
        msg = f"{where}: 'names' must be a list of class names (or a mapping of class numbers to names)"
        raise DatasetError(msg)
    return tuple(key if (key := str(n).strip().lower().replace(" ", "")) in CLASS_ID else None for n in raw)


def _folders(entry: object, root: Path) -> list[Path]:
    entries = entry if isinstance(entry, list) else [entry] if entry else []
    return [p if (p := Path(str(e))).is_absolute() else root / p for e in entries]


def beside(image: Path, kind: str, suffix: str) -> Path:
    """ultralytics' path rule: the last ``images`` folder of the photo's path becomes ``kind`` (``labels``, our
    ``meta``, the generator's ``layout``)."""
    parts = list(image.parts)
    if "images" not in parts:
        return image.with_suffix(suffix)
    k = len(parts) - 1 - parts[::-1].index("images")
    return Path(*parts[:k], kind, *parts[k + 1:]).with_suffix(suffix)


def _read_folder(folder: Path, split: str, names: tuple[str | None, ...],
                 skipped: list[tuple[Path, str]] | None = None) -> list[Photo]:
    """The photos of ``folder``; where ``skipped`` is given, one that cannot be read is listed there, not refused."""
    if not folder.is_dir():
        return []
    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    stems = {p.stem for p in images}
    labels_dir = beside(folder / "x.jpg", "labels", ".txt").parent
    if labels_dir != folder and labels_dir.is_dir():
        orphan = sorted(p.name for p in labels_dir.glob("*.txt") if p.stem not in stems)
        if orphan:
            msg = f"{labels_dir / orphan[0]} has no photo beside it in {folder} ({len(orphan)} label files so)"
            raise DatasetError(msg)
    out = []
    for image in images:
        try:
            out.append(_read_photo(image, split, names))
        except DatasetError as exc:
            if skipped is None:
                raise
            skipped.append((image, str(exc)))
    return out


def _read_photo(image: Path, split: str, names: tuple[str | None, ...]) -> Photo:
    try:
        with open_image(image) as img:  # (a decompression bomb: an ImageTooLargeError, a ValueError)
            width, height = img.size
    except (OSError, SyntaxError, ValueError) as exc:
        msg = f"{image} cannot be read as a photo: {exc}"
        raise DatasetError(msg) from exc
    label = beside(image, "labels", ".txt")
    tiles = _read_labels(label, names, width, height) if label.exists() else []
    hand = group = None
    meta = beside(image, "meta", ".json")
    if meta.exists():
        tiles, hand, group = _with_meta(meta, tiles)
    return Photo(image, split, tuple(tiles), hand, group)


def _read_labels(path: Path, names: tuple[str | None, ...], width: int, height: int) -> list[Tile]:
    tiles = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        try:
            cls, cx, cy, w, h = int(fields[0]), *(float(v) for v in fields[1:5])
            if len(fields) != 5 or not all(0 <= v <= 1 for v in (cx, cy, w, h)):
                raise ValueError
        except ValueError:
            msg = f"{path} line {number}: not a box 'class cx cy w h' (0 to 1): {line[:60]!r}"
            raise DatasetError(msg) from None
        if not 0 <= cls < len(names):
            msg = f"{path} line {number}: class {cls}, but the dataset names only {len(names)} classes"
            raise DatasetError(msg)
        name = names[cls]
        if name is None:
            msg = (f"{path} line {number}: class {cls} is no tile; name the classes 1m..9m, 1p..9p, 1s..9s, 1z..7z, "
                   f"1f..8f or back")
            raise DatasetError(msg)
        box = ((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        tiles.append(Tile(name, box))
    return tiles


def _with_meta(path: Path, tiles: list[Tile]) -> tuple[list[Tile], str | None, str | None]:
    """The tiles with the sideways flags of the sidecar ``path`` (its boxes are the label file's, in order), the
    hand it holds and the group of photos it belongs to."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
        boxes = meta.get("boxes", [])
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError) as exc:
        msg = f"{path} is not the JSON object of a photo's labels: {exc}"
        raise DatasetError(msg) from exc
    if len(boxes) != len(tiles) or any(b.get("tile") != t.name for b, t in zip(boxes, tiles, strict=False)):
        msg = f"{path} does not describe the boxes of its label file ({len(boxes)} boxes, the labels {len(tiles)})"
        raise DatasetError(msg)
    hand = meta.get("hand") if isinstance(meta.get("hand"), str) else None
    group = meta.get("group") if isinstance(meta.get("group"), str) and meta.get("group") else None
    return [Tile(t.name, t.box, bool(b.get("sideways"))) for t, b in zip(tiles, boxes, strict=True)], hand, group
