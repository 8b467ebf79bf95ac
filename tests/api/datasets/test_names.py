"""Dataset and photo names: the strict patterns, the slug of an uploaded file's name, and paths that stay inside."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from api.datasets.errors import BadNameError
from api.datasets.names import dataset_name, group_name, inside, photo_name, photo_slug

BAD_NAMES = [
    pytest.param("", id="empty"),
    pytest.param("..", id="dotdot"),
    pytest.param("../x", id="parent"),
    pytest.param("a/b", id="slash"),
    pytest.param("a\\b", id="backslash"),
    pytest.param("/etc", id="absolute"),
    pytest.param("a\x00b", id="nul"),
    pytest.param("a\nb", id="newline"),
    pytest.param("Set", id="upper-case"),
    pytest.param("ｓｅｔ", id="fullwidth"),
    pytest.param("sеt", id="cyrillic-e"),
    pytest.param("set\u200b", id="zero-width-space"),
    pytest.param("-set", id="leading-dash"),
    pytest.param(".hidden", id="leading-dot"),
    pytest.param("a" * 64, id="too-long"),
    pytest.param(None, id="not-a-string"),
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_dataset_names_are_refused(name):
    with pytest.raises(BadNameError, match="dataset name"):
        dataset_name(name)


@pytest.mark.parametrize("name", [*BAD_NAMES, pytest.param("a.jpeg", id="jpeg-suffix"),
                                  pytest.param("a.jpg.exe", id="double-suffix"), pytest.param("a", id="no-suffix"),
                                  pytest.param("a.JPG", id="upper-suffix")])
def test_bad_photo_names_are_refused(name):
    with pytest.raises(BadNameError, match="photo name"):
        photo_name(name)


@pytest.mark.parametrize("name", ["a", "my-set_2", "0" * 63])
def test_good_dataset_names(name):
    assert dataset_name(name) == name


@pytest.mark.parametrize("name", ["a.jpg", "img-0042.png", "x_y.webp"])
def test_good_photo_names(name):
    assert photo_name(name) == name


@pytest.mark.parametrize(("filename", "ext", "slug"), [
    ("IMG_0042.JPG", "jpg", "img_0042.jpg"),
    ("../../etc/passwd", "png", "passwd.png"),
    ("C:\\Users\\me\\Photo 1 (2).heic", "jpg", "photo-1-2.jpg"),
    ("/abs/olute.webp", "webp", "olute.webp"),
    ("ＩＭＧ１.jpg", "jpg", "img1.jpg"),  # full-width letters fold to ASCII (NFKC)
    ("牌.jpg", "jpg", "photo.jpg"),
    ("a\x00b.jpg", "jpg", "a-b.jpg"),
    ("", "jpg", "photo.jpg"),
    ("...", "jpg", "photo.jpg"),
    ("x" * 300 + ".jpg", "jpg", "x" * 100 + ".jpg"),
])
def test_upload_names_become_safe_photo_names(filename, ext, slug):
    assert photo_slug(filename, ext) == slug
    photo_name(slug)


def test_group_names():
    assert group_name("hand-7.b") == "hand-7.b"
    for bad in ("", "../x", "a b", "a/b", "é"):
        with pytest.raises(BadNameError, match="group"):
            group_name(bad)


def test_inside_keeps_to_the_data_folder(tmp_path: Path):
    assert inside(tmp_path, "set", "images", "a.jpg") == tmp_path.resolve() / "set" / "images" / "a.jpg"
    for parts in (("..", "x"), ("set", ".."), ("/etc",), ("set/../..",), ("a\x00",), ("",)):
        with pytest.raises(BadNameError):
            inside(tmp_path, *parts)


def test_inside_refuses_symbolic_links(tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "data"
    (root / "set").mkdir(parents=True)
    os.symlink(outside, root / "set" / "images")  # a link leading out
    with pytest.raises(BadNameError, match="symbolic link"):
        inside(root, "set", "images", "a.jpg")
    (root / "set" / "real").mkdir()
    os.symlink(root / "set" / "real", root / "set" / "labels")  # a link that stays inside is refused too
    with pytest.raises(BadNameError, match="symbolic link"):
        inside(root, "set", "labels", "a.txt")
