"""What ``mjscore train --data`` reads (``training/labelled.py``): a dataset of the annotation store by name, its
export as a folder or a zip, a plain ultralytics dataset; and every bad dataset refused with the file named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from api.datasets.export import write_tree, write_zip
from tests.api.datasets.support import ROW, labels, photo, store_with
from training import synth
from training.labelled import DatasetError, Labelled, Photo, Tile, read_dataset
from vision.names import NAMES

HAND = "234m456p345s67s99s+8s"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    """A store (MJ_DATA_DIR) with the dataset 'set1': ten labelled photos, one group each, one to do."""
    monkeypatch.setenv("MJ_DATA_DIR", str(tmp_path / "data"))
    store = store_with(tmp_path / "data")
    for i in range(10):
        store.add_photo("set1", f"p{i}.jpg", photo(i), labels(group=f"g{i}", hand=HAND if i % 2 else None), "t")
    store.add_photo("set1", "todo.jpg", photo(99), labels(status="todo"), "t")
    return store


def test_a_store_dataset_is_read_by_name_with_its_splits_sideways_and_hands(store, tmp_path: Path) -> None:  # noqa: ANN001
    store.save("set1", "p3.jpg", 1, labels(group="g3", hand=HAND).__class__.from_json(
        {**labels(group="g3").to_json(), "boxes": [{**b, "sideways": k == 1} for k, b in enumerate(
            labels().to_json()["boxes"])]}), "t")
    data = read_dataset("set1", tmp_path / "work")
    assert data.name == "set1" and data.notes == ()
    assert len(data.photos) == 10 and {p.split for p in data.photos} == {"train", "val"}  # the to-do photo left out
    assert 0 < len(data.split("val")) < 10 and data.held_out == data.split("val")  # the export's split, by group
    p3 = next(p for p in data.photos if p.image.name == "p3.jpg")
    assert [t.name for t in p3.tiles][:3] == ["2m", "3m", "4m"] and p3.tiles[0].box == pytest.approx((10, 20, 46, 70))
    assert [t.sideways for t in p3.tiles][:3] == [False, True, False] and p3.hand is None
    assert {p.hand for p in data.photos if p.image.stem in ("p1", "p5")} == {HAND}
    # every photo shows the same row: the other names are shown by no train photo, their look not learnt
    assert data.unshown == tuple(n for n in NAMES if n not in ROW)
    assert data.unshown[:3] == ("1m", "5m", "6m") and "2m" not in data.unshown and "back" in data.unshown


def test_an_export_folder_or_zip_reads_as_the_store_does(store, tmp_path: Path) -> None:  # noqa: ANN001
    by_name = read_dataset("set1", tmp_path / "w0")
    write_tree(store, "set1", tmp_path / "tree" / "set1")
    write_zip(store, "set1", tmp_path / "set1.zip")
    for source in (tmp_path / "tree", tmp_path / "tree" / "set1", tmp_path / "tree" / "set1" / "data.yaml",
                   tmp_path / "set1.zip"):
        data = read_dataset(str(source), tmp_path / "w1")
        assert [(p.image.name, p.split, p.tiles, p.hand) for p in data.photos] == [
            (p.image.name, p.split, p.tiles, p.hand) for p in by_name.photos], source


def test_a_plain_ultralytics_dataset_is_read_without_sideways_or_hands(tmp_path: Path) -> None:
    yaml = synth.generate(tmp_path / "ds", {"train": 2, "val": 1}, 0, Path("plain"), min_mp=0.2, max_mp=0.3,
                          progress=False)
    data = read_dataset(str(yaml.parent), tmp_path / "work")
    assert data.name == "ds" and [len(data.split(s)) for s in ("train", "val")] == [2, 1]
    lines = (yaml.parent / "labels" / "train" / "000000.txt").read_text().splitlines()
    first = data.split("train")[0]
    assert len(first.tiles) == len(lines) > 10 and {t.sideways for t in first.tiles} == {None} and not first.hand


def test_a_dataset_without_val_photos_is_measured_on_its_train_photos(tmp_path: Path) -> None:
    yaml = synth.generate(tmp_path / "ds", {"train": 2}, 0, Path("plain"), min_mp=0.2, max_mp=0.3, progress=False)
    data = read_dataset(str(yaml), tmp_path / "work")
    assert data.held_out == data.split("train") and "no held-out (val) photos" in data.notes[0]


def _labelled(*photos: tuple[str, str, str, str | None]) -> Labelled:
    """A dataset of photos (stem, split, their tiles' names, space apart, group)."""
    return Labelled("set", tuple(Photo(Path(f"{stem}.jpg"), split, tuple(Tile(n, (0, 0, 1, 1)) for n in names.split()),
                                       group=group) for stem, split, names, group in photos))


def test_held_out_photos_showing_a_tile_no_train_photo_shows_are_trained_on_with_their_group() -> None:
    data = _labelled(("a", "train", "1m 2m", None), ("b", "train", "1m", None), ("c", "val", "3m 1f", "g1"),
                     ("d", "val", "3m", "g1"), ("e", "val", "1m 4p", None), ("f", "val", "1m 1f", None))
    taught = data.every_name_trained()
    assert [(p.image.stem, p.split) for p in taught.photos] == [
        ("a", "train"), ("b", "train"), ("c", "train"), ("d", "train"), ("e", "train"), ("f", "val")]
    assert taught.notes == ("held-out photos of g1 show 3m, 1f, which no train photo showed: trained on instead",
                            "held-out photos of e show 4p, which no train photo showed: trained on instead")
    assert {"3m", "1f", "4p"} <= set(data.unshown) and not {"3m", "1f", "4p"} & set(taught.unshown)
    assert data.photos[2].kept_with == "g1" and data.photos[0].kept_with == "a"
    alone = _labelled(("a", "train", "1m 2m", None), ("b", "train", "1m", None), ("c", "val", "5p", None))
    assert [p.split for p in alone.every_name_trained().photos] == ["train", "val", "train"]  # b takes its place
    assert alone.every_name_trained().notes[1] == "the photos of b held out in their place"
    none_to_spare = _labelled(("a", "train", "1m", None), ("c", "val", "5p", None))
    assert [p.split for p in none_to_spare.every_name_trained().photos] == ["train", "train"]
    assert none_to_spare.every_name_trained().held_out == none_to_spare.every_name_trained().split("train")
    shown = _labelled(("a", "train", "1m", None), ("c", "val", "1m", None))
    for same in (shown, _labelled(("a", "train", "1m", None))):
        assert same.every_name_trained() == same  # nothing to move


def test_mjscore_train_reads_the_group_of_each_photo_from_the_export(store, tmp_path: Path) -> None:  # noqa: ANN001
    data = read_dataset("set1", tmp_path / "work")
    assert sorted(p.group for p in data.photos) == [f"g{i}" for i in range(10)]


def _ultralytics(root: Path, names: str = "['1m', '2m', back]", label: str = "0 0.5 0.5 0.2 0.4\n") -> Path:
    (root / "images" / "train").mkdir(parents=True)
    (root / "labels" / "train").mkdir(parents=True)
    (root / "data.yaml").write_text(f"train: images/train\nval: images/val\nnames: {names}\n")
    (root / "images" / "train" / "a.jpg").write_bytes(photo(1))
    (root / "labels" / "train" / "a.txt").write_text(label)
    return root


@pytest.mark.parametrize(("make", "message"), [
    (lambda r: r, "no dataset 'ds1': not a folder, a zip or a data.yaml, nor a dataset in .* holds no dataset"),
    (lambda r: (r.mkdir(), r)[-1], "holds no data.yaml with the class names"),
    (lambda r: (r.mkdir(), (r / "data.yaml").write_text("names: [1m]\ntrain: images/train\n"), r)[-1],
     "holds no photo under its train and val folders"),
    (lambda r: _ultralytics(r, label=""), "has no labelled box in its train photos"),
    (lambda r: _ultralytics(r, names="[cat, dog]"), r"a.txt line 1: class 0 is no tile; name the classes 1m..9m"),
    (lambda r: _ultralytics(r, label="7 0.5 0.5 0.2 0.4\n"), "a.txt line 1: class 7, but the dataset names only 3"),
    (lambda r: _ultralytics(r, label="0 0.5 0.5 0.2\n"), r"a.txt line 1: not a box 'class cx cy w h'"),
    (lambda r: _ultralytics(r, label="0 0.5 1.5 0.2 0.4\n"), r"a.txt line 1: not a box"),
    (lambda r: (_ultralytics(r), (r / "labels" / "train" / "b.txt").write_text("0 .5 .5 .1 .1\n"), r)[-1],
     r"b.txt has no photo beside it in .*images/train"),
    (lambda r: (_ultralytics(r), (r / "images" / "train" / "a.jpg").write_bytes(b"not a photo"), r)[-1],
     "a.jpg cannot be read as a photo"),
    (lambda r: (_ultralytics(r), (r / "data.yaml").write_text("names: 1m\n"), r)[-1],
     "data.yaml: 'names' must be a list of class names"),
    (lambda r: (r.parent.mkdir(exist_ok=True), (r.with_suffix(".zip")).write_bytes(b"PK no zip"), r.with_suffix(
        ".zip"))[-1], "is not a zip that can be read"),
], ids=["unknown-name", "no-yaml", "no-photos", "no-labels", "unknown-classes", "class-out-of-range", "short-line",
        "outside-photo", "missing-image", "unreadable-image", "names-not-a-list", "bad-zip"])
def test_a_bad_dataset_is_refused_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make,  # noqa: ANN001
                                                   message: str) -> None:
    monkeypatch.setenv("MJ_DATA_DIR", str(tmp_path / "data"))
    source = make(tmp_path / "ds1")
    with pytest.raises(DatasetError, match=message):
        read_dataset(str(source) if source.exists() else source.name, tmp_path / "work")


def test_a_set_read_to_measure_on_lists_the_photos_it_cannot_read_and_needs_no_train_labels(tmp_path: Path) -> None:
    root = _ultralytics(tmp_path / "ds", label="")  # no labelled box in its train photos
    (root / "images" / "train" / "b.jpg").write_bytes(b"not a photo")
    (root / "images" / "train" / "c.jpg").write_bytes(photo(2))
    (root / "labels" / "train" / "c.txt").write_text("0 0.5 1.5 0.2 0.4\n")  # a bad label line
    data = read_dataset(str(root), tmp_path / "work", to_train=False)
    assert [p.image.name for p in data.photos] == ["a.jpg"] and not data.photos[0].tiles
    assert [(image.name, "cannot be read as a photo" in why or "not a box" in why) for image, why in data.skipped] == \
        [("b.jpg", True), ("c.jpg", True)]
    with pytest.raises(DatasetError, match="b.jpg cannot be read as a photo"):  # to train on: refused, as before
        read_dataset(str(root), tmp_path / "work")


def test_a_photo_with_more_pixels_than_pillow_decodes_is_refused_naming_it(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = _ultralytics(tmp_path / "ds")
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 10)  # every photo here is a decompression bomb to PIL
    with pytest.raises(DatasetError, match="a.jpg cannot be read as a photo: the image has more pixels than this"):
        read_dataset(str(root), tmp_path / "work")


def test_a_store_dataset_with_nothing_labelled_is_refused(store, tmp_path: Path) -> None:  # noqa: ANN001
    store.create("empty", "t")
    store.add_photo("empty", "a.jpg", photo(1), labels(status="todo"), "t")
    with pytest.raises(DatasetError, match="dataset 'empty' in .*: dataset 'empty' has no labelled or reviewed photo"):
        read_dataset("empty", tmp_path / "work")
    with pytest.raises(DatasetError, match="no dataset 'other': .* its datasets: empty, set1"):
        read_dataset("other", tmp_path / "work")


def test_a_zip_member_that_would_land_outside_is_refused(tmp_path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(tmp_path / "evil.zip", "w") as zf:
        zf.writestr("../outside.txt", "x")
    with pytest.raises(DatasetError, match="would be written outside"):
        read_dataset(str(tmp_path / "evil.zip"), tmp_path / "work")
    assert not (tmp_path / "work" / "outside.txt").exists() and not (tmp_path / "outside.txt").exists()
    shutil.rmtree(tmp_path / "work", ignore_errors=True)
