"""Tile styles: the faces a generated photo's tiles show, one folder of PNGs per style (``training/fetch_art.py``,
``training/drawn_art.py``), plain faces drawn here for tests, or the real camerash photos as faces."""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from training.real import real_photos
from vision.names import CLASS_ID, FACE_NAMES, FLOWER_NAMES

MARKS_FILE = "marks.json"  # per style: each tile's index mark, where known (fetch_art.set_marks, drawn_art.index_mark)
HELD_OUT_STYLES = ("kd_traditional",)
SKIP_STYLES = ("gn_edu_kang_xi",)  # radicals for teaching, not mahjong faces
# styles drawn here (training/drawn_art.py): not in the shipped weights' data; used only when asked for by name or
# pattern, so the default style set (and every photo drawn from it) stays what it was
DECOY_PREFIX = "dx_"  # decoy styles (drawn-art --decoys): a suit tile's label is its index, not its body
DRAWN_STYLES = ("dr_*", "uc_*", f"{DECOY_PREFIX}*", "bp_*", "hk_*", "hkx_*", "hn_*", "hnx_*", "hd_*")



@dataclass
class Style:
    name: str
    faces: dict[str, np.ndarray]  # label -> RGB uint8 (H, W, 3)
    red: dict[str, np.ndarray] = field(default_factory=dict)  # "5m" -> red-five art
    back: np.ndarray | None = None
    marks: dict[str, str] = field(default_factory=dict)  # label -> its index mark ("" none), where known (marks.json)
    # photos of one physical set: every face-down tile shows the set's one back (``scene.throw_back``), not a back
    # thrown for each photo
    one_back: bool = False

    @property
    def has_flowers(self) -> bool:
        return all(f in self.faces for f in FLOWER_NAMES)


def _named(name: str, patterns: list[str] | None) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns or ())


def load_styles(art: Path, include: list[str] | None = None, exclude: list[str] | None = None) -> list[Style]:
    """The styles under ``art``; ``include`` and ``exclude`` hold names or shell patterns (``'dr_*'``); the drawn
    styles (``DRAWN_STYLES``) only when ``include`` names them."""
    styles = []
    for d in sorted(p for p in art.iterdir() if p.is_dir()) if art.is_dir() else ():
        if d.name in SKIP_STYLES or (include and not _named(d.name, include)) or _named(d.name, exclude):
            continue
        if _named(d.name, list(DRAWN_STYLES)) and not include:
            continue
        faces, red, back = {}, {}, None
        for f in d.glob("*.png"):
            img = cv2.cvtColor(cv2.imread(str(f)), cv2.COLOR_BGR2RGB)
            if f.stem == "back":
                back = img
            elif f.stem.endswith("_red"):
                red[f.stem[:2]] = img
            elif f.stem in CLASS_ID:
                faces[f.stem] = img
        if all(lbl in faces for lbl in FACE_NAMES):
            marks = json.loads((d / MARKS_FILE).read_text()) if (d / MARKS_FILE).exists() else {}
            styles.append(Style(d.name, faces, red, back, marks))
    if not styles:
        there = sorted(p.name for p in art.iterdir() if p.is_dir()) if art.is_dir() else []
        if there and (include or exclude):  # styles there, none of them asked for
            msg = (f"no tile style under {art} is both asked for ({', '.join(include) if include else 'all'}) and "
                   f"not left out ({', '.join(exclude) if exclude else 'none'}); the styles there: "
                   f"{', '.join(there[:12])}{' ...' if len(there) > 12 else ''}")
        else:
            msg = f"no tile styles under {art}; run python -m training fetch-art"
        raise FileNotFoundError(msg)
    return styles


def plain_style(rgb: tuple[int, int, int] = (235, 235, 225), name: str = "plain", text: bool = True) -> Style:
    """A style drawn here, no art needed: each face is ``rgb`` with its tile name written on it (for tests)."""
    faces = {}
    for label in FACE_NAMES + FLOWER_NAMES:
        img = np.empty((200, 150, 3), np.uint8)
        img[:] = rgb
        if text:
            cv2.putText(img, label, (12, 125), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (20, 20, 20), 5, cv2.LINE_AA)
        faces[label] = img
    return Style(name, faces)


def camerash_styles(root: Path, count: int = 8) -> list[Style]:
    """Styles whose faces are real tile photos (camerash, training part only): style k takes each tile's k-th photo."""
    photos: dict[str, list[np.ndarray]] = {}
    for label, img in real_photos(root):
        h, w = img.shape[:2]
        face = img[int(0.05 * h):int(0.95 * h), int(0.06 * w):int(0.94 * w)]
        photos.setdefault(label, []).append(cv2.resize(face, (150, 200), interpolation=cv2.INTER_AREA))
    if not all(lbl in photos for lbl in FACE_NAMES):
        return []
    return [Style(f"camerash_{k}", {lbl: imgs[k % len(imgs)] for lbl, imgs in photos.items()}) for k in range(count)]
