"""Synthetic phone photos of revealed mahjong hands, in YOLO layout, with the true layout beside each image.

Each scene: a table (wood, felt, cloth or paper, drawn procedurally), a revealed hand of 13 to 18 tiles in one or two
rows (exposed melds with one tile sideways, concealed kongs with two or four backs, the winning tile set apart,
flowers aside), loose distractor tiles and clutter, seen by a phone (top-down to 30 degrees tilt, any rotation,
perspective), with soft shadows, glare, blur, noise and JPEG artefacts (``training/scene.py``). Or, asked for, a tile
set laid out in a grid, or real tile photos laid flat or seen close; the hand's tiles standing on their edges, shot
low and from the side by a pinhole camera (``--camera low``, ``training/standing.py``); a whole table around the
hand (``--table N``, ``training/table.py``); a share of 16 + 1 tile hands (``--sixteen``) or of hands whose
winning tile is not set apart (``--apart``).

Output (``generate(out, ...)``)::

    DIR/images/{train,val}/NNNNNN.jpg
    DIR/labels/{train,val}/NNNNNN.txt      # cls cx cy w h (0..1), class ids in NAMES order
    DIR/layout/{train,val}/NNNNNN.json     # the true layout: hand notation, groups, every tile's box and flags
    DIR/data.yaml                          # train, val, names (no path, no download)

Usage: ``python -m training synth --out cache/datasets/hands --train 2000 --val 200 --seed 0``.
The same seed gives the same images (each image is seeded by ``seed`` and its index).
Tile art comes from ``python -m training fetch-art`` (``--art cache/art/faces``).
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training import paths
from training.hands import FLOWERS, Group, random_hand
from training.real import real_photos
from training.scene import VIEWS, layout_set, render_scene, table_texture
from training.standing import render_standing
from training.styles import DECOY_PREFIX, HELD_OUT_STYLES, MARKS_FILE, Style, camerash_styles, load_styles, plain_style
from training.table import layout_table
from vision.names import CLASS_ID, NAMES

# the generator's face, as tests, benchmarks and training use it
__all__ = ["DECOY_PREFIX", "FLOWERS", "HELD_OUT_STYLES", "MARKS_FILE", "NAMES", "SceneSpec", "Style", "generate",
           "load_styles", "make_closeup_scene", "make_flat_scene", "make_scene", "plain_style", "random_hand",
           "render_scene"]


@dataclass(frozen=True)
class SceneSpec:
    index: int
    seed: int
    split: str
    min_mp: float
    max_mp: float
    flowers: tuple[float, int] = FLOWERS
    sets: float = 0.0  # the share of scenes that are a tile set laid out in a grid (``layout_set``), not a hand
    camera: str = "phone"  # "phone": tiles lying, seen from above (``render_scene``); "seated": lying, seen from a
    # player's seat, lower and nearer (``scene.VIEWS``); "low": standing, seen low and from the side; "front": standing,
    # seen nearly from in front and a little above (``training/standing.py``)
    sixteen: float | None = None  # the share of 16 + 1 tile hands (None: ``random_hand``'s own)
    table: int = 0  # more tiles around the hand, a whole table's (``training/table.py``): about this many in all
    apart: float = 1.0  # the share of hands whose winning tile is set apart (the others: touching the concealed row)


def make_scene(spec: SceneSpec, styles: list[Style]) -> tuple[bytes, list[str], dict]:
    """Render one scene: JPEG bytes, YOLO label lines, and the sidecar layout dict."""
    rng = np.random.default_rng([spec.seed, spec.index])
    style = styles[int(rng.integers(len(styles)))]
    # drawn apart, so that the hands of a dataset without sets are what they were
    a_set = spec.sets > 0 and np.random.default_rng([spec.seed, spec.index, 17]).random() < spec.sets
    if a_set:
        placed = layout_set(rng, style)
        groups, hand = [Group("set", [p.label for p in placed])], None
    else:
        placed, (groups, hand) = None, random_hand(rng, style.has_flowers, spec.flowers, **_sixteen(spec))
    mp = rng.uniform(spec.min_mp, spec.max_mp) * 1e6
    aspect = float(rng.choice([4 / 3, 3 / 4, 16 / 9, 9 / 16, 1.0], p=[0.35, 0.35, 0.1, 0.1, 0.1]))
    w = int(math.sqrt(mp * aspect))
    h = int(mp / w)
    # drawn apart, so that the scenes of a dataset where every winning tile is set apart are what they were
    apart = spec.apart >= 1 or np.random.default_rng([spec.seed, spec.index, 19]).random() < spec.apart
    if spec.camera not in VIEWS:
        img, tiles, low = render_standing(rng, style, groups, w, h, apart, spec.camera)
        camera = {"kind": spec.camera, "azimuth": round(low.azimuth, 2), "elevation": round(low.elevation, 2),
                  "distance": round(low.distance, 2), "fov": round(low.fov, 2), "roll": round(low.roll, 2)}
    else:
        if spec.table:
            placed = layout_table(rng, style, groups, spec.table, apart)
        img, tiles, cam = render_scene(rng, style, groups, w, h, distractors=not a_set and not spec.table,
                                       placed=placed, apart=apart, view=spec.camera)
        camera = {"tilt": round(cam.tilt, 2), "rotation": round(cam.rotation, 2)}
        if spec.camera != "phone":
            camera["kind"] = spec.camera
    quality = int(rng.integers(45, 96))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        msg = "JPEG encoding failed"
        raise RuntimeError(msg)
    lines = []
    for t in tiles:
        if t["visible"] < 0.6:
            continue  # mostly out of frame: not labelled (the image shows too little of it)
        x0, y0, x1, y1 = t["box"]
        lines.append(f"{CLASS_ID[t['label']]} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
                     f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
    group_list = [{"id": i, "kind": g.kind, "tiles": g.tiles, "backs": g.backs, "red": g.red,
                   "sideways_index": g.sideways} for i, g in enumerate(groups)]
    group_list.append({"id": len(groups), "kind": "distractor"})
    layout = {"image": {"width": w, "height": h}, "style": style.name, "seed": spec.seed, "index": spec.index,
              "hand": hand, "groups": group_list, "tiles": tiles, "jpeg_quality": quality, "camera": camera,
              "win_apart": bool(apart)}
    if style.marks:
        layout["marks"] = style.marks  # the style's index marks, where known (fetch_art.set_marks)
    return buf.tobytes(), lines, layout


def _sixteen(spec: SceneSpec) -> dict[str, float]:
    return {} if spec.sixteen is None else {"sixteen": spec.sixteen}


def make_flat_scene(spec: SceneSpec, photos: list[tuple[str, np.ndarray]]) -> tuple[bytes, list[str], dict]:
    """A scene of real tile photos laid flat, seen from straight above: 1 to 14 of them, in a row or scattered, on
    a table, each a quarter turn one way or another. Teaches the finder tiles that show only their face (a close-up
    photo has no sides and hardly an edge); the classifier's real crops come from the same photos."""
    rng = np.random.default_rng([spec.seed, spec.index, 7])
    img = _flat_table(spec, rng)
    h, w = img.shape[:2]
    n = int(rng.integers(1, 15))
    th = int(min(h, w) * rng.uniform(0.06, 0.22))  # tile height, pixels
    row = rng.random() < 0.6
    turn = int(rng.integers(4))
    tiles, boxes = [], []
    x = float(rng.uniform(0.02, 0.2)) * w
    y = float(rng.uniform(0.1, 0.8)) * h
    for _ in range(n):
        label, photo = photos[int(rng.integers(len(photos)))]
        tw = max(4, round(th * photo.shape[1] / photo.shape[0]))
        k = turn if row else int(rng.integers(4))
        face = np.ascontiguousarray(np.rot90(cv2.resize(photo, (tw, th), interpolation=cv2.INTER_AREA), -k))
        fh, fw = face.shape[:2]
        if not row:
            x, y = float(rng.uniform(0, w - fw)), float(rng.uniform(0, h - fh))
        x0, y0 = int(x), int(y)
        if x0 + fw > w or y0 + fh > h or any(_overlap((x0, y0, x0 + fw, y0 + fh), b) for b in boxes):
            continue
        img[y0:y0 + fh, x0:x0 + fw] = face
        boxes.append((x0, y0, x0 + fw, y0 + fh))
        tiles.append({"label": label, "box": [float(v) for v in boxes[-1]], "sideways": False, "group": 0,
                      "red": False, "up_angle": 90.0 * k, "visible": 1.0})
        if row:
            x += fw + rng.uniform(0, 0.15) * fw
    return _flat_photo(img, tiles, spec, rng, "flat_real")


def make_closeup_scene(spec: SceneSpec, photos: list[tuple[str, np.ndarray]]) -> tuple[bytes, list[str], dict]:
    """Real tile photos laid flat and seen close: a grid of 1 to 4 by 1 to 4 faces, each 25% to 90% of the photo's
    short side tall, touching or nearly, the grid anywhere, so that faces are cut by the photo's edge (those showing
    less than 60% of themselves are not labelled, as in the hands). Teaches the finder whole tiles where a tile fills
    much of the photo (a close-up of one tile, a few tiles side by side), which it boxed in parts."""
    rng = np.random.default_rng([spec.seed, spec.index, 11])
    img = _flat_table(spec, rng)
    h, w = img.shape[:2]
    th = int(min(h, w) * rng.uniform(0.25, 0.9))
    tw = int(th * rng.uniform(0.7, 0.8))
    turn = int(rng.integers(4))
    fh, fw = (th, tw) if turn % 2 == 0 else (tw, th)
    gap = rng.uniform(0.0, 0.04) * fw
    rows, cols = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    gx = rng.uniform(-0.4 * fw, max(w - cols * (fw + gap), -0.4 * fw + 1))
    gy = rng.uniform(-0.4 * fh, max(h - rows * (fh + gap), -0.4 * fh + 1))
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x0, y0 = int(gx + c * (fw + gap)), int(gy + r * (fh + gap))
            cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x0 + fw, w), min(y0 + fh, h)
            if cx1 <= cx0 or cy1 <= cy0:
                continue
            label, photo = photos[int(rng.integers(len(photos)))]
            face = np.rot90(cv2.resize(photo, (tw, th), interpolation=cv2.INTER_AREA), -turn)
            img[cy0:cy1, cx0:cx1] = face[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
            visible = (cx1 - cx0) * (cy1 - cy0) / (fw * fh)
            tiles.append({"label": label, "box": [float(cx0), float(cy0), float(cx1), float(cy1)], "sideways": False,
                          "group": 0, "red": False, "up_angle": 90.0 * turn, "visible": round(visible, 3)})
    return _flat_photo(img, tiles, spec, rng, "closeup_real")


def _flat_table(spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """The bare table of a scene of faces laid flat: ``spec``'s megapixels, 4:3, 3:4 or square, a procedural texture
    or a plain colour."""
    mp = rng.uniform(spec.min_mp, spec.max_mp) * 1e6
    aspect = float(rng.choice([4 / 3, 3 / 4, 1.0]))
    w = int(math.sqrt(mp * aspect))
    h = int(mp / w)
    return table_texture(rng, h, w) if rng.random() < 0.7 else np.full((h, w, 3), rng.integers(30, 220, 3), np.uint8)


def _flat_photo(img: np.ndarray, tiles: list[dict], spec: SceneSpec, rng: np.random.Generator,
                style: str) -> tuple[bytes, list[str], dict]:
    """A scene of faces laid flat, blurred or not, as a JPEG, its YOLO lines (tiles showing 60% of themselves or more)
    and its layout."""
    h, w = img.shape[:2]
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    quality = int(rng.integers(55, 96))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        msg = "JPEG encoding failed"
        raise RuntimeError(msg)
    lines = [f"{CLASS_ID[t['label']]} {(t['box'][0] + t['box'][2]) / 2 / w:.6f} "
             f"{(t['box'][1] + t['box'][3]) / 2 / h:.6f} {(t['box'][2] - t['box'][0]) / w:.6f} "
             f"{(t['box'][3] - t['box'][1]) / h:.6f}" for t in tiles if t["visible"] >= 0.6]
    layout = {"image": {"width": w, "height": h}, "style": style, "seed": spec.seed, "index": spec.index,
              "hand": None, "groups": [{"id": 0, "kind": "flat"}], "tiles": tiles, "jpeg_quality": quality}
    return buf.tobytes(), lines, layout


def _overlap(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def write_yaml(out: Path, splits: list[str]) -> Path:
    lines = [f"{s}: images/{s}" for s in splits]
    if "val" not in splits:
        lines.append(f"val: images/{splits[0]}")
    lines.append("names:")
    lines += [f"  {i}: '{n}'" for i, n in enumerate(NAMES)]
    path = out / "data.yaml"
    path.write_text("# written by python -m training synth; root = this folder (no path, no download)\n"
                    + "\n".join(lines) + "\n")
    return path


def _progress(done: int, total: int, t0: float) -> None:
    rate = done / max(time.time() - t0, 1e-6)
    bar = "#" * int(30 * done / total)
    sys.stderr.write(f"\r[{bar:<30}] {done}/{total} {rate:.2f} img/s")
    sys.stderr.flush()


def _work(args: tuple[SceneSpec, str, list[str] | None, list[str] | None, str]) -> int:
    spec, art, include, exclude, out = args
    if art.startswith(("flat:", "closeup:")):
        if art not in _PHOTO_CACHE:
            _PHOTO_CACHE[art] = real_photos(Path(art.split(":", 1)[1]))
        make = make_flat_scene if art.startswith("flat:") else make_closeup_scene
        jpg, lines, layout = make(spec, _PHOTO_CACHE[art])
    else:
        jpg, lines, layout = make_scene(spec, _styles_cached(art, tuple(include or ()), tuple(exclude or ())))
    o = Path(out)
    name = f"{spec.index:06d}"
    (o / "images" / spec.split / f"{name}.jpg").write_bytes(jpg)
    (o / "labels" / spec.split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    (o / "layout" / spec.split / f"{name}.json").write_text(json.dumps(layout, ensure_ascii=True))
    return len(lines)


_STYLE_CACHE: dict[tuple, list[Style]] = {}
_PHOTO_CACHE: dict[str, list[tuple[str, np.ndarray]]] = {}


def _styles_cached(art: str, include: tuple, exclude: tuple) -> list[Style]:
    key = (art, include, exclude)
    if art == "plain":
        return [plain_style()]
    if art.startswith("camerash:"):
        return camerash_styles(Path(art.split(":", 1)[1]))
    if key not in _STYLE_CACHE:
        _STYLE_CACHE[key] = load_styles(Path(art), list(include) or None, list(exclude) or None)
    return _STYLE_CACHE[key]


def generate(out: Path, counts: dict[str, int], seed: int, art: Path | None = None,
             include: list[str] | None = None, exclude: list[str] | None = None, min_mp: float = 3.0,
             max_mp: float = 12.0, workers: int = 1, progress: bool = True,
             flowers: tuple[float, int] = FLOWERS, sets: float = 0.0, camera: str = "phone", table: int = 0,
             sixteen: float | None = None, apart: float = 1.0) -> Path:
    """Write the dataset and its data.yaml; returns the yaml path. Image indices run on across splits.
    ``art``: a folder of faces (default: the fetched art, ``paths.art() / "faces"``), ``plain``, ``camerash:ROOT``,
    ``flat:ROOT`` or ``closeup:ROOT`` (``_work``); ``flowers``: as ``random_hand``'s; ``sets``: the share of scenes
    that are tile sets laid out (``layout_set``); ``camera``, ``table``, ``sixteen``, ``apart``: as ``SceneSpec``'s."""
    art = paths.art() / "faces" if art is None else art
    specs = []
    idx = 0
    for split, n in counts.items():
        for d in ("images", "labels", "layout"):
            (out / d / split).mkdir(parents=True, exist_ok=True)
        for _ in range(n):
            specs.append(SceneSpec(idx, seed, split, min_mp, max_mp, flowers, sets, camera, sixteen, table, apart))
            idx += 1
    jobs = [(s, str(art), include, exclude, str(out)) for s in specs]
    t0 = time.time()
    done = 0
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            for _ in pool.imap_unordered(_work, jobs, chunksize=4):
                done += 1
                if progress:
                    _progress(done, len(jobs), t0)
    else:
        for j in jobs:
            _work(j)
            done += 1
            if progress:
                _progress(done, len(jobs), t0)
    if progress:
        sys.stderr.write(f"\n{done} images in {time.time() - t0:.1f} s "
                         f"({done / max(time.time() - t0, 1e-6):.2f} images/second)\n")
    return write_yaml(out, list(counts))
