"""Names of datasets and photos, and the paths they map to: a strict pattern first, then a check that the
resolved path stays inside the data folder (no ``..``, no absolute path, no symlink, no NUL, no look-alike
letter can lead out).

>>> dataset_name("my-set_2")
'my-set_2'
>>> photo_slug("../../IMG 0042 (copy).JPG", "jpg")
'img-0042-copy.jpg'
>>> photo_slug("牌.jpeg", "jpg")
'photo.jpg'
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from api.datasets.errors import BadNameError

DATASET = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
PHOTO = re.compile(r"[a-z0-9][a-z0-9_-]{0,99}\.(?:jpg|png|webp)")
GROUP = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
STEM_MAX = 100


def _shown(name: object) -> str:
    return repr(name)[:80]


def _valid(pattern: re.Pattern[str], name: str, what: str, rule: str) -> str:
    if not isinstance(name, str) or not pattern.fullmatch(name):
        raise BadNameError(f"{what} {_shown(name)} is not allowed: use {rule}")
    return name


def dataset_name(name: str) -> str:
    """``name`` when it is a valid dataset name; else ``BadNameError``."""
    return _valid(DATASET, name, "dataset name", "1 to 63 lower-case letters a-z, digits, '-' or '_', starting "
                                                 "with a letter or digit")


def photo_name(name: str) -> str:
    """``name`` when it is a valid photo name (``stem.jpg``, ``.png`` or ``.webp``); else ``BadNameError``."""
    return _valid(PHOTO, name, "photo name", "a stem of lower-case letters a-z, digits, '-' or '_' (up to 100, "
                                             "starting with a letter or digit) and .jpg, .png or .webp")


def group_name(name: str) -> str:
    """``name`` when it is a valid group (hand) id; else ``BadNameError``."""
    return _valid(GROUP, name, "group", "1 to 64 ASCII letters, digits, '-', '_' or '.', starting with a letter "
                                        "or digit")


def photo_slug(filename: str, ext: str) -> str:
    """A valid photo name made from an uploaded file's name (its folders dropped) and the extension of what the
    file really is (``jpg``, ``png``, ``webp``)."""
    base = re.split(r"[\\/]", filename or "")[-1]
    stem = unicodedata.normalize("NFKC", base).rsplit(".", 1)[0] if "." in base else base
    ascii_stem = stem.encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9_-]+", "-", ascii_stem).strip("-_")[:STEM_MAX].strip("-_")
    return photo_name(f"{slug or 'photo'}.{ext}")


def inside(root: Path, *parts: str) -> Path:
    """``root / parts...``, refused (``BadNameError``) unless it resolves to a path inside ``root`` with no
    symbolic link on the way. Each part must already be a checked name; this is the second line of defence."""
    base = root.resolve()
    path = base.joinpath(*parts)
    for part in parts:
        if not part or "\x00" in part or os.sep in part or part in (".", ".."):
            raise BadNameError(f"path part {_shown(part)} is not allowed")
    probe = base
    for part in parts:  # a link that stays inside is refused too: the data folder holds none
        probe = probe / part
        if probe.is_symlink():
            raise BadNameError(f"{_shown('/'.join(parts))} is a symbolic link; the data folder holds none")
    resolved = path.resolve()
    if resolved != path or not resolved.is_relative_to(base):
        raise BadNameError(f"{_shown('/'.join(parts))} leads outside the data folder")
    return path
