"""A dataset as ultralytics trains on it: ``data.yaml``, ``images/{train,val}``, ``labels/{train,val}``, and
beside them what YOLO labels cannot hold, ``meta/{train,val}/<stem>.json`` (sideways flags, melds, the winning
tile, the hand, the group) and ``manifest.json`` (every photo's split, group, status and version).

The split keeps the photos of one hand together: each group (a photo without one is its own group) goes to
``val`` when a hash of its name falls in the lowest ``val_percent`` of 100, so the split is the same on every
export and a group never moves when photos are added. Should that leave a split empty while there are two groups
or more, the group nearest the threshold moves; a dataset of one group is put in both (the manifest says so).

``write_tree`` writes the folder (what ``mjscore train`` reads); ``write_zip`` writes the same tree in a zip,
under a folder named after the dataset.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from api.datasets.errors import BadArchiveError
from api.datasets.store import CHECKED, Current, Store
from vision.names import NAMES

SPLITS = ("train", "val")
VAL_PERCENT = 20


def group_of(cur: Current) -> str:
    return cur.labels.group or cur.photo.rsplit(".", 1)[0]


def _bucket(group: str) -> int:
    """0..99 from the group's name, the same on every machine."""
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % 100


def split(photos: list[Current], val_percent: int = VAL_PERCENT) -> dict[str, tuple[str, ...]]:
    """Each photo's splits (``("train",)``, ``("val",)``, or both for a dataset of one group).

    >>> from api.datasets.labels import Labels
    >>> lab = Labels(10, 10)
    >>> photos = [Current(f"p{i}.jpg", 1, lab, Path(f"p{i}.jpg"), "", "") for i in range(10)]
    >>> [p for p, s in split(photos).items() if s == ("val",)]
    ['p1.jpg', 'p3.jpg', 'p5.jpg', 'p7.jpg']
    """
    groups = sorted({group_of(p) for p in photos}, key=lambda g: (_bucket(g), g))
    if len(groups) == 1:
        return {p.photo: SPLITS for p in photos}
    val = {g for g in groups if _bucket(g) < val_percent}
    if not val:
        val = {groups[0]}
    elif len(val) == len(groups):
        val.discard(groups[-1])
    return {p.photo: ("val",) if group_of(p) in val else ("train",) for p in photos}


def data_yaml(name: str, counts: dict[str, int]) -> str:
    """The dataset's ``data.yaml``: the splits and the contract's class names (no ``path``, no ``download``)."""
    lines = [f"# mjscore dataset '{name}': {counts['train']} photos to train on, {counts['val']} to validate on.",
             "# Sideways flags, melds, the winning tile and the hand of each photo: meta/<split>/<stem>.json.",
             "train: images/train", "val: images/val", f"nc: {len(NAMES)}", "names:"]
    lines += [f"  {k}: '{n}'" for k, n in enumerate(NAMES)]
    return "\n".join(lines) + "\n"


def _plan(store: Store, name: str, statuses: tuple[str, ...], val_percent: int
          ) -> tuple[list[tuple[str, str, bytes | Path]], dict[str, Any]]:
    """(split-relative path, kind, content or image file) for every file of the export, and its manifest."""
    photos = store.current(name, statuses)
    if not photos:
        which = " or ".join(statuses)
        raise BadArchiveError(f"dataset {name!r} has no {which} photo to export; label and save some first",
                              "empty_export")
    splits = split(photos, val_percent)
    files: list[tuple[str, str, bytes | Path]] = []
    counts = dict.fromkeys(SPLITS, 0)
    for cur in photos:
        stem = cur.photo.rsplit(".", 1)[0]
        for part in splits[cur.photo]:
            counts[part] += 1
            files.append((f"images/{part}/{cur.photo}", "image", cur.image))
            files.append((f"labels/{part}/{stem}.txt", "text", cur.labels.yolo().encode()))
            files.append((f"meta/{part}/{stem}.json", "text", json.dumps(cur.meta(), indent=1).encode()))
    notes = []
    if len({group_of(p) for p in photos}) == 1:
        notes.append("one group only: its photos are in both train and val, so val measures nothing held out")
    manifest = {
        "dataset": name,
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "statuses": list(statuses),
        "val_percent": val_percent,
        "counts": counts,
        "names": list(NAMES),
        "notes": notes,
        "photos": [{"photo": p.photo, "splits": list(splits[p.photo]), "group": group_of(p),
                    "status": p.labels.status, "version": p.version, "boxes": len(p.labels.boxes)} for p in photos],
    }
    files.append(("data.yaml", "text", data_yaml(name, counts).encode()))
    files.append(("manifest.json", "text", json.dumps(manifest, indent=1).encode()))
    return files, manifest


def write_tree(store: Store, name: str, dest: Path, statuses: tuple[str, ...] = CHECKED,
               val_percent: int = VAL_PERCENT) -> dict[str, Any]:
    """Write the dataset's export into the folder ``dest`` (made if needed); returns the manifest."""
    files, manifest = _plan(store, name, statuses, val_percent)
    for rel, _kind, content in files:
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.read_bytes() if isinstance(content, Path) else content)
    return manifest


def write_zip(store: Store, name: str, out: Path, statuses: tuple[str, ...] = CHECKED,
              val_percent: int = VAL_PERCENT, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Write the dataset's export as a zip at ``out``, under the folder ``<name>/``; returns the manifest."""
    files, manifest = _plan(store, name, statuses, val_percent)
    with zipfile.ZipFile(out, "w") as zf:
        for done, (rel, kind, content) in enumerate(files, 1):
            arc = f"{name}/{rel}"
            if isinstance(content, Path):  # photos are compressed already
                zf.write(content, arc, compress_type=zipfile.ZIP_STORED)
            else:
                zf.writestr(arc, content, compress_type=zipfile.ZIP_DEFLATED if kind == "text" else zipfile.ZIP_STORED)
            if progress:
                progress(done)
    return manifest
