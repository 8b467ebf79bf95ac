"""Export: the split keeps a hand's photos together and never moves; the zip is what ultralytics trains on."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from api.datasets.errors import BadArchiveError
from api.datasets.export import split, write_tree, write_zip
from api.datasets.store import Store
from tests.api.datasets.support import ROW, labels, photo, store_with
from vision.names import NAMES


def _fill(store: Store, groups: int, per_group: int = 3, start: int = 0) -> None:
    for g in range(start, start + groups):
        for k in range(per_group):
            i = g * per_group + k
            store.add_photo("set1", f"p{i:03d}.jpg", photo(i), labels(group=f"hand{g}"), "x")


def test_the_split_keeps_groups_together_and_is_stable(tmp_path: Path):
    store = store_with(tmp_path)
    _fill(store, 20, per_group=2)
    first = split(store.current("set1"))
    by_group: dict[str, set[tuple[str, ...]]] = {}
    for cur in store.current("set1"):
        by_group.setdefault(cur.labels.group, set()).add(first[cur.photo])
    assert all(len(s) == 1 for s in by_group.values())  # one split per hand
    val = sum(s == {("val",)} for s in by_group.values())
    assert 1 <= val <= 10
    _fill(store, 5, per_group=2, start=20)  # more photos: no group moves
    again = split(store.current("set1"))
    assert {p: again[p] for p in first} == first


def test_a_split_is_never_empty(tmp_path: Path):
    store = store_with(tmp_path)
    _fill(store, 2)
    splits = split(store.current("set1"), val_percent=1)
    assert sorted(set(splits.values())) == [("train",), ("val",)]
    assert set(split(store.current("set1"), val_percent=99).values()) == {("train",), ("val",)}


def test_one_group_goes_to_both_splits(tmp_path: Path):
    store = store_with(tmp_path)
    _fill(store, 1)
    manifest = write_tree(store, "set1", tmp_path / "out")
    assert manifest["counts"] == {"train": 3, "val": 3} and "one group only" in manifest["notes"][0]


def test_only_checked_photos_are_exported_unless_asked(tmp_path: Path):
    store = store_with(tmp_path)
    store.add_photo("set1", "a.jpg", photo(1), labels(status="todo"), "x")
    with pytest.raises(BadArchiveError, match="no labelled or reviewed photo") as err:
        write_tree(store, "set1", tmp_path / "out")
    assert err.value.code == "empty_export"
    manifest = write_tree(store, "set1", tmp_path / "out", statuses=("todo", "labelled", "reviewed"))
    assert [p["photo"] for p in manifest["photos"]] == ["a.jpg"]


def test_the_zip_passes_ultralytics_dataset_check(tmp_path: Path):
    from ultralytics.data.dataset import YOLODataset
    from ultralytics.data.utils import check_det_dataset

    store = store_with(tmp_path / "data")
    _fill(store, 6, per_group=2)
    store.save("set1", "p000.jpg", 1, labels(group="hand0", hand="234m456p34567s99s+8s",
                                               boxes=[{"tile": "1z", "box": [1, 1, 30, 30], "sideways": True}],
                                               win=None), "alice")
    out = tmp_path / "set1.zip"
    manifest = write_zip(store, "set1", out)
    with zipfile.ZipFile(out) as zf:
        names = zf.namelist()
        zf.extractall(tmp_path / "unzipped")
    assert all(n.startswith("set1/") for n in names)
    root = tmp_path / "unzipped" / "set1"
    yaml_text = (root / "data.yaml").read_text()
    assert "path:" not in yaml_text and "download" not in yaml_text
    data = check_det_dataset(str(root / "data.yaml"), autodownload=False)
    assert data["nc"] == len(NAMES) and list(data["names"].values()) == list(NAMES)
    seen = {}
    for part in ("train", "val"):
        ds = YOLODataset(img_path=data[part], data=data, task="detect", imgsz=320, augment=False)
        for lab in ds.get_labels():
            seen[Path(lab["im_file"]).name] = sorted(int(c) for c in lab["cls"].ravel())
    assert len(seen) == 12 == manifest["counts"]["train"] + manifest["counts"]["val"]
    assert seen["p000.jpg"] == [NAMES.index("1z")]
    assert seen["p001.jpg"] == sorted(NAMES.index(t) for t in ROW)
    split_of = {p["photo"]: p["splits"][0] for p in manifest["photos"]}
    meta = json.loads((root / "meta" / split_of["p000.jpg"] / "p000.json").read_text())
    assert meta["boxes"][0]["sideways"] is True and meta["hand"] == "234m456p34567s99s+8s" and meta["version"] == 2


def test_write_tree_and_write_zip_hold_the_same_files(tmp_path: Path):
    store = store_with(tmp_path / "data")
    _fill(store, 3)
    write_tree(store, "set1", tmp_path / "tree")
    write_zip(store, "set1", tmp_path / "z.zip")
    tree = {str(p.relative_to(tmp_path / "tree")) for p in (tmp_path / "tree").rglob("*") if p.is_file()}
    with zipfile.ZipFile(io.BytesIO((tmp_path / "z.zip").read_bytes())) as zf:
        zipped = {n.removeprefix("set1/") for n in zf.namelist()}
    assert tree == zipped
