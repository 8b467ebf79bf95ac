"""Import: our own zip, ultralytics', CVAT's YOLO 1.1 and Label Studio's YOLO; class names mapped by name."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from api.datasets.errors import BadArchiveError
from api.datasets.export import write_zip
from api.datasets.importer import import_archive, read_archive
from api.datasets.store import Store
from api.deps import ApiError, check_photo
from tests.api.datasets.support import HEIGHT, WIDTH, labels, photo, store_with


def _check(data: bytes) -> str:
    try:
        return check_photo(data, 10**8)[0]
    except ApiError as exc:  # as the route does: a photo refused is skipped
        raise ValueError(exc.message) from None


def _zip(files: dict[str, bytes | str]) -> io.BytesIO:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    buf.seek(0)
    return buf


def _import(store: Store, files: dict[str, bytes | str] | io.BytesIO, name: str = "set1"):
    fh = files if isinstance(files, io.BytesIO) else _zip(files)
    return import_archive(store, name, read_archive(fh), "importer", _check, 10**7)


def test_our_export_comes_back_whole(tmp_path: Path):
    store = store_with(tmp_path)
    store.add_photo("set1", "a.jpg", photo(1), labels(group="h1", status="reviewed", hand="234m456p34567s99s+8s",
                                                      melds=[{"kind": "chow", "boxes": [0, 1, 2]}]), "x")
    sideways = labels(group="h1")
    sideways = type(sideways).from_json({**sideways.to_json(), "boxes": [  # and whether two stand, as detected
        {**b, "sideways": i == 3, **({"stands": 0.9 - i / 10} if i < 2 else {})}
        for i, b in enumerate(sideways.to_json()["boxes"])]})
    store.add_photo("set1", "b.png", photo(2, "PNG"), sideways, "x")
    write_zip(store, "set1", tmp_path / "set1.zip")
    store.create("copy", "x")
    with open(tmp_path / "set1.zip", "rb") as fh:
        report = import_archive(store, "copy", read_archive(fh), "importer", _check, 10**7)
    assert report.format == "mjscore" and sorted(report.added) == ["a.jpg", "b.png"]
    assert report.duplicates == [] and report.skipped == []  # a photo in both splits is read once
    for name in ("a.jpg", "b.png"):
        assert store.labels_of("copy", name) == store.labels_of("set1", name)
    assert store.labels_of("copy", "b.png").boxes[3].sideways
    assert [b.stands for b in store.labels_of("copy", "b.png").boxes[:3]] == [0.9, 0.8, None]


def test_importing_twice_adds_nothing(tmp_path: Path):
    store = store_with(tmp_path)
    files = {"d/data.yaml": "train: images/train\nval: images/val\nnames: ['1m', '2m']\n",
             "d/images/train/x.jpg": photo(1), "d/labels/train/x.txt": "1 0.5 0.5 0.1 0.2\n"}
    first = _import(store, files)
    assert (first.format, first.added) == ("ultralytics", ["x.jpg"])
    again = _import(store, files)
    assert (again.added, again.duplicates) == ([], ["d/images/train/x.jpg"])
    lab = store.labels_of("set1", "x.jpg")
    assert lab.status == "labelled" and [b.tile for b in lab.boxes] == ["2m"]
    assert lab.boxes[0].box == (WIDTH * 0.45, HEIGHT * 0.4, WIDTH * 0.55, HEIGHT * 0.6)


def test_cvat_yolo_1_1(tmp_path: Path):
    store = store_with(tmp_path)
    report = _import(store, {
        "obj.names": "7z\nback\n1M\n",  # CVAT keeps the project's order and spelling
        "obj.data": "classes = 3\ntrain = data/train.txt\nnames = data/obj.names\nbackup = backup/\n",
        "train.txt": "data/obj_train_data/frame_000001.jpg\n",
        "obj_train_data/frame_000001.jpg": photo(1),
        "obj_train_data/frame_000001.txt": "0 0.5 0.5 0.1 0.2\n2 0.2 0.5 0.1 0.2\n1 0.8 0.5 0.1 0.2\n",
        "obj_train_data/frame_000002.jpg": photo(2),  # no labels: still to do
    })
    assert report.format == "cvat" and report.added == ["frame_000001.jpg", "frame_000002.jpg"]
    assert [b.tile for b in store.labels_of("set1", "frame_000001.jpg").boxes] == ["7z", "1m", "back"]
    assert store.labels_of("set1", "frame_000002.jpg").status == "todo"


def test_label_studio_yolo(tmp_path: Path):
    store = store_with(tmp_path)
    report = _import(store, {
        "classes.txt": "5p\ntable\n9s\n",
        "notes.json": "{}",
        "images/0a1b2c3d-IMG_1.png": photo(1, "PNG"),
        "labels/0a1b2c3d-IMG_1.txt": "2 0.5 0.5 0.1 0.2\n0 0.3 0.5 0.1 0.2\n",
    })
    assert report.format == "label_studio" and report.added == ["0a1b2c3d-img_1.png"]
    assert report.ignored_classes == ["table"]  # named, but no label uses it
    assert [b.tile for b in store.labels_of("set1", "0a1b2c3d-img_1.png").boxes] == ["9s", "5p"]


def test_unknown_class_names_are_listed(tmp_path: Path):
    store = store_with(tmp_path)
    with pytest.raises(BadArchiveError, match="these class names are not tiles: 'Red Dragon', 'bamboo-1'") as err:
        _import(store, {"classes.txt": "1m\nRed Dragon\nbamboo-1\n", "images/a.jpg": photo(1),
                        "labels/a.txt": "1 0.5 0.5 0.1 0.1\n2 0.5 0.5 0.1 0.1\n0 0.5 0.5 0.1 0.1\n"})
    assert err.value.code == "unknown_classes"
    assert store.photos("set1") == []  # refused before anything was stored


@pytest.mark.parametrize(("files", "message"), [
    (b"not a zip", "not a zip file"),
    ({"images/a.jpg": photo(1), "labels/a.txt": "0 0.5 0.5 0.1 0.1\n"}, "names no classes"),
    ({"classes.txt": "1m\n", "labels/a.txt": "0 0.5 0.5 0.1 0.1\n"}, "holds no photos"),
    ({"classes.txt": "1m\n", "images/a.jpg": photo(1), "labels/a.txt": "3 0.5 0.5 0.1 0.1\n"}, "class 3, but"),
    ({"classes.txt": "1m\n", "images/a.jpg": photo(1), "labels/a.txt": "x 0.5 0.5 0.1 0.1\n"}, "not a number"),
    ({"data.yaml": "names: [1m\n", "images/a.jpg": photo(1)}, "is not YAML"),
])
def test_a_bad_archive_is_refused(files, message):
    fh = io.BytesIO(files) if isinstance(files, bytes) else _zip(files)
    with pytest.raises(BadArchiveError, match=message):
        read_archive(fh)


def test_a_bad_photo_is_skipped_and_named(tmp_path: Path):
    store = store_with(tmp_path)
    report = _import(store, {"classes.txt": "1m\n", "images/a.jpg": photo(1), "images/b.jpg": b"GIF89a....",
                             "images/c.jpg": photo(3), "labels/c.txt": "0 0.5 0.5 0.1\n"})
    assert report.added == ["a.jpg"]
    assert [s["file"] for s in report.skipped] == ["images/b.jpg", "images/c.jpg"]
    assert "GIF" in report.skipped[0]["reason"] and "line 1" in report.skipped[1]["reason"]
