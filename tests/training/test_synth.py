"""The synthetic hand generator: a valid YOLO dataset, reproducible, labels that match the drawing."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from training import cli, fetch_art, scene, synth
from training.classifier import load_synth
from vision.names import FACE_NAMES, FLOWER_NAMES, NAMES

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_NAMES = (
    [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 9)] + ["back"]
)


def _small(out: Path, seed: int = 0, art: Path = Path("plain")) -> Path:
    return synth.generate(out, {"train": 3, "val": 2}, seed, art, min_mp=0.3, max_mp=0.4, progress=False)


def test_names_are_the_contract_tiles() -> None:
    assert list(NAMES) == CONTRACT_NAMES
    text = (ROOT / "datasets" / "hands.yaml").read_text()
    assert re.findall(r"^\s+\d+: '([^']+)'", text, re.M) == CONTRACT_NAMES
    assert not re.search(r"^(download|path)\s*:", text, re.M)


def test_dataset_passes_ultralytics_checker(tmp_path: Path) -> None:
    from ultralytics.data.utils import check_det_dataset

    yaml = _small(tmp_path / "ds")
    text = yaml.read_text()
    assert not re.search(r"^(download|path)\s*:", text, re.M)
    data = check_det_dataset(str(yaml), autodownload=False)
    assert data["nc"] == 43
    assert list(data["names"].values()) == CONTRACT_NAMES
    assert len(list((tmp_path / "ds" / "images" / "train").glob("*.jpg"))) == 3
    assert len(list((tmp_path / "ds" / "labels" / "val").glob("*.txt"))) == 2


def test_same_seed_same_images(tmp_path: Path) -> None:
    _small(tmp_path / "a", seed=7)
    _small(tmp_path / "b", seed=7)
    for f in sorted((tmp_path / "a").rglob("*.*")):
        if f.name == "data.yaml":
            continue
        assert f.read_bytes() == (tmp_path / "b" / f.relative_to(tmp_path / "a")).read_bytes(), f


def test_labels_match_what_was_drawn() -> None:
    red = synth.plain_style((230, 25, 25), "red", text=False)
    for index in range(6):
        jpg, lines, layout = synth.make_scene(synth.SceneSpec(index, 3, "train", 0.4, 0.6), [red])
        img = cv2.cvtColor(cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        h, w = img.shape[:2]
        shown = [t for t in layout["tiles"] if t["visible"] >= 0.6]
        assert len(lines) == len(shown)
        for line, t in zip(lines, shown, strict=True):
            cls, cx, cy, bw, bh = line.split()
            assert NAMES[int(cls)] == t["label"]
            x0, y0, x1, y1 = t["box"]
            assert float(cx) == pytest.approx((x0 + x1) / 2 / w, abs=1e-5)
            assert float(bw) == pytest.approx((x1 - x0) / w, abs=1e-5)
            quad = np.array(t["quad"])
            assert quad[:, 0].min() >= x0 - 1 and quad[:, 0].max() <= x1 + 1 or t["visible"] < 1
            if t["label"] != "back" and t["visible"] == 1:
                # the middle of a face-up tile is the face's red, not table or back
                cxp, cyp = quad.mean(0).astype(int)
                r, g, b = img[cyp - 1:cyp + 2, cxp - 1:cxp + 2].reshape(-1, 3).mean(0)
                assert r > g + 40 and r > b + 40, (index, t["label"], (r, g, b))


def _count_notation(hand: str) -> int:
    return sum(len(m.group(1)) for m in re.finditer(r"(\d+)[mpszf]", hand))


def test_sidecar_holds_the_true_layout(tmp_path: Path) -> None:
    _small(tmp_path / "ds", seed=11)
    for js in sorted((tmp_path / "ds" / "layout").rglob("*.json")):
        layout = json.loads(js.read_text())
        hand = layout["hand"]
        assert hand.count("+") == 1
        groups = {g["id"]: g for g in layout["groups"]}
        hand_tiles = [t for t in layout["tiles"] if groups[t["group"]]["kind"] != "distractor"]
        # every tile of the hand is drawn once, in its group
        assert len(hand_tiles) == _count_notation(hand)
        for gid, g in groups.items():
            if g["kind"] == "distractor":
                continue
            drawn = [t for t in layout["tiles"] if t["group"] == gid]
            assert len(drawn) == len(g["tiles"])
            want = sorted("back" if b else t for t, b in zip(g["tiles"], g["backs"], strict=True))
            assert sorted(t["label"] for t in drawn) == want
            side = [t for t in drawn if t["sideways"]]
            assert len(side) == (1 if g["kind"] in ("chow", "pung", "kong") and g["sideways_index"] >= 0 else 0)
        kinds = [g["kind"] for g in groups.values()]
        assert hand.count("(") == kinds.count("concealed_kong")
        assert hand.count("[") == sum(kinds.count(k) for k in ("chow", "pung", "kong"))


# stand-in "photos": a solid colour per tile name, so that the pixels under each box say which tile it is
COLOURS = {"1m": (230, 25, 25), "5p": (25, 230, 25), "9s": (25, 25, 230)}
PHOTOS = [(name, np.full((64, 48, 3), c, np.uint8)) for name, c in COLOURS.items()]


def _check_labels(jpg: bytes, lines: list[str], tiles: list[dict]) -> tuple[int, int]:
    """Each YOLO line is its tile's name and box, and the photo shows that tile's colour in the box's middle; returns
    the photo's height and width."""
    img = cv2.cvtColor(cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    h, w = img.shape[:2]
    assert len(lines) == len(tiles)
    for line, t in zip(lines, tiles, strict=True):
        cls, cx, cy, bw, bh = (float(v) for v in line.split())
        x0, y0, x1, y1 = t["box"]
        assert NAMES[int(cls)] == t["label"] and 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert (cx, cy, bw, bh) == pytest.approx(((x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w,
                                                  (y1 - y0) / h), abs=1e-5)
        middle = img[int(y0 + y1) // 2 - 1:int(y0 + y1) // 2 + 2, int(x0 + x1) // 2 - 1:int(x0 + x1) // 2 + 2]
        assert np.abs(middle.reshape(-1, 3).mean(0) - COLOURS[t["label"]]).max() < 40
    return h, w


def test_flat_scenes_label_each_photo_where_it_lies() -> None:
    seen = 0
    for index in range(8):
        jpg, lines, layout = synth.make_flat_scene(synth.SceneSpec(index, 3, "train", 0.3, 0.4), PHOTOS)
        assert layout["hand"] is None and len(layout["tiles"]) >= 1
        _check_labels(jpg, lines, layout["tiles"])
        seen += len(lines)
    assert seen >= 8


def test_closeup_scenes_label_the_faces_mostly_in_the_photo() -> None:
    big = cut = 0
    for index in range(12):
        jpg, lines, layout = synth.make_closeup_scene(synth.SceneSpec(index, 3, "train", 0.3, 0.4), PHOTOS)
        shown = [t for t in layout["tiles"] if t["visible"] >= 0.6]
        assert layout["hand"] is None
        h, w = _check_labels(jpg, lines, shown)
        cut += len(layout["tiles"]) - len(shown)
        big += sum(max(t["box"][3] - t["box"][1], t["box"][2] - t["box"][0]) >= 0.25 * min(h, w) for t in shown)
    assert big >= 12 and cut >= 1  # faces a quarter of the photo or more; some cut off by its edge, not labelled


def test_styles_are_chosen_by_name_or_pattern(tmp_path: Path) -> None:
    face = np.full((200, 150, 3), 230, np.uint8)
    for style in ("dr_00", "dr_01", "kd_x", "uc_y"):
        (tmp_path / style).mkdir()
        for label in FACE_NAMES:
            cv2.imwrite(str(tmp_path / style / f"{label}.png"), face)

    def names(**kw: list[str]) -> list[str]:
        return [s.name for s in synth.load_styles(tmp_path, **kw)]

    assert names() == ["kd_x"]  # the drawn styles only when asked for
    assert names(include=["dr_*", "uc_y"]) == ["dr_00", "dr_01", "uc_y"]
    assert names(include=["kd_*", "dr_00"]) == ["dr_00", "kd_x"]
    assert names(exclude=["dr_*", "uc_*"]) == ["kd_x"]
    assert names(include=["dr_*"], exclude=["dr_01"]) == ["dr_00"]


@pytest.mark.parametrize("kd_set", fetch_art.KD_SETS)
def test_every_kmahjongg_set_names_each_tile_once(kd_set: str) -> None:
    labels = sorted((fetch_art.KD_IDS | fetch_art.KD_SET_IDS.get(kd_set, {})).values())
    assert labels == sorted(FACE_NAMES + FLOWER_NAMES)


def test_classic_reads_its_flowers_by_name() -> None:
    ids = fetch_art.KD_IDS | fetch_art.KD_SET_IDS["classic"]
    assert (ids["FLOWER_1"], ids["FLOWER_2"], ids["FLOWER_3"]) == ("6f", "5f", "7f")  # orchid, plum, mum


def test_a_flower_rich_set_sets_flowers_aside_in_every_hand() -> None:
    def flowers(spec: tuple[float, int], seed: int) -> list[int]:
        groups, hand = synth.random_hand(np.random.default_rng(seed), True, spec)
        aside = [g.tiles for g in groups if g.kind == "flowers"]
        if aside:  # written last in the hand's notation
            assert hand.split()[-1] == "".join(t[0] for t in aside[0]) + "f"
        return [len(a) for a in aside]

    rich = [flowers((1.0, 8), seed) for seed in range(200)]
    assert all(len(r) == 1 for r in rich)  # every hand
    assert max(r[0] for r in rich) == 8 and min(r[0] for r in rich) == 1
    usual = [n for seed in range(200) for n in flowers(synth.FLOWERS, seed)]
    assert 60 < len(usual) < 140 and max(usual) == 3  # about half the hands, at most three
    assert flowers((0.0, 8), 1) == []


def test_flowers_option_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (["2", "3"], ["1", "9"], ["1", "2.5"], ["1", "x"]):
        with pytest.raises(SystemExit):
            cli.main(["synth", "--out", "unused", "--flowers", *bad])
        assert "--flowers" in capsys.readouterr().err


def test_a_style_s_index_marks_go_with_its_photos(tmp_path: Path) -> None:
    face = np.full((200, 150, 3), 230, np.uint8)
    for style in ("kd_default", "gn_smooth", "kd_traditional"):  # indexed, plain, not read (held out)
        (tmp_path / style).mkdir()
        for label in FACE_NAMES:
            cv2.imwrite(str(tmp_path / style / f"{label}.png"), face)
    fetch_art.write_marks(tmp_path)
    assert sorted(p.parent.name for p in tmp_path.glob(f"*/{synth.MARKS_FILE}")) == ["gn_smooth", "kd_default"]
    styles = {s.name: s for s in synth.load_styles(tmp_path, include=["*"])}
    assert styles["kd_default"].marks["6p"] == "6" and styles["kd_default"].marks["7f"] == "3"
    assert set(styles["gn_smooth"].marks.values()) == {""} and styles["kd_traditional"].marks == {}
    for style in styles.values():
        spec = synth.SceneSpec(0, 0, "val", 0.3, 0.4)
        layout = synth.make_scene(spec, [style])[2]
        assert layout.get("marks") == (style.marks or None)


def test_load_synth_gives_each_crop_its_index_mark(tmp_path: Path) -> None:
    face = np.full((200, 150, 3), 230, np.uint8)
    (tmp_path / "art" / "kd_jade").mkdir(parents=True)
    for label in FACE_NAMES:
        cv2.imwrite(str(tmp_path / "art" / "kd_jade" / f"{label}.png"), face)
    fetch_art.write_marks(tmp_path / "art")
    data = synth.generate(tmp_path / "ds", {"train": 0, "val": 2}, 3, tmp_path / "art", min_mp=0.3, max_mp=0.4,
                          progress=False).parent
    marks: list = []
    _, cls, _ = load_synth(data, "val", 1, np.random.default_rng(0), size=32, index_marks=marks)
    names = [NAMES[c] for c in cls]
    assert len(marks) == len(names) > 10
    for name, mark in zip(names, marks, strict=True):  # suits their number, backs none, honours not known
        assert mark == (name[0] if name[1] in "mps" else "" if name == "back" else None)


def test_a_tile_set_is_laid_out_in_a_grid_of_its_tiles() -> None:
    from collections import Counter

    style = synth.plain_style()
    kinds = Counter()
    for seed in range(40):
        placed = scene.layout_set(np.random.default_rng(seed), style)
        counts = Counter(p.label for p in placed)
        assert all(n <= (1 if label.endswith("f") else 4) for label, n in counts.items())  # no more than a set has
        families = {label[1] for label in counts}
        kinds["whole" if len(placed) == 144 else "family" if len(families) == 1 else "part"] += 1
        xs, ys = sorted({p.x for p in placed}), sorted({p.y for p in placed})
        assert len({(p.x, p.y) for p in placed}) == len(placed)  # a tile on each place of the grid
        assert len(xs) * len(ys) - max(len(xs), len(ys)) < len(placed)  # but for the end of its last line
        step = np.diff(xs).min() if len(xs) > 1 else scene.TILE_W
        assert scene.TILE_W <= step <= scene.TILE_W * 1.08 + 1e-9  # touching or nearly
    assert min(kinds.values()) >= 4 and len(kinds) == 3


def test_set_scenes_label_every_tile_and_leave_hands_as_they_were() -> None:
    style = synth.plain_style((230, 25, 25), "red", text=False)
    spec = synth.SceneSpec(2, 3, "train", 0.5, 0.6)
    assert synth.make_scene(spec, [style])[0] == synth.make_scene(replace(spec, sets=0.0), [style])[0]
    for index in range(3):
        jpg, lines, layout = synth.make_scene(synth.SceneSpec(index, 3, "train", 0.5, 0.6, sets=1.0), [style])
        assert layout["hand"] is None and layout["groups"][0]["kind"] == "set"
        assert len(layout["tiles"]) == len(layout["groups"][0]["tiles"]) >= 20
        assert len(lines) == sum(t["visible"] >= 0.6 for t in layout["tiles"]) > 0.8 * len(layout["tiles"])


def test_photos_of_one_set_show_its_one_back() -> None:
    """A set has one back: its photos (``Style.one_back``) all show it; the back thrown for each photo is still drawn,
    so that every other choice of a scene is what it was."""
    style = synth.plain_style()
    one = replace(style, one_back=True)
    thrown = {scene.throw_back(np.random.default_rng(s), style)[0] for s in range(40)}
    assert {scene.throw_back(np.random.default_rng(s), one) for s in range(40)} == {(scene.set_back(one), False)}
    assert len(thrown) > 6 and scene.set_back(one) in scene.BACK_COLOURS
    for camera in ("phone", "low"):
        spec = synth.SceneSpec(1, 4, "val", 0.4, 0.5, camera=camera)
        boxes = [[t["box"] for t in synth.make_scene(spec, [s])[2]["tiles"]] for s in (style, one)]
        assert boxes[0] == boxes[1]
    own = replace(one, back=np.full((200, 150, 3), (10, 20, 200), np.uint8))  # a drawn style's back.png
    assert scene.throw_back(np.random.default_rng(0), own) == ((10, 20, 200), True)


def test_sets_option_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["synth", "--out", "unused", "--sets", "1.5"])
    assert "--sets" in capsys.readouterr().err


# ------------------------------------------------------------------ the camera shot low, tables, 16 + 1, apart ----
def test_a_low_camera_shows_standing_tiles_growing_along_the_row() -> None:
    """Tiles standing in a row shot low and from the side: every hand tile labelled, its box where its pixels are,
    the near end of the concealed row clearly bigger than the far end, neighbouring boxes overlapping."""
    style = synth.plain_style((30, 30, 160), "blue")
    grown, overlaps = [], 0
    for index in range(6):
        jpg, lines, side = synth.make_scene(synth.SceneSpec(index, 5, "val", 0.5, 0.6, camera="low"), [style])
        assert side["camera"]["kind"] == "low" and 0 < side["camera"]["elevation"] < 30
        conc = [t for t in side["tiles"] if t["group"] == 0]
        assert len(conc) == len(side["groups"][0]["tiles"]) and all(t["visible"] >= 0.6 for t in conc)
        heights = [t["box"][3] - t["box"][1] for t in sorted(conc, key=lambda t: t["box"][0])]
        grown.append(max(heights[0], heights[-1]) / min(heights[0], heights[-1]))
        boxes = sorted((t["box"] for t in conc), key=lambda b: b[0])
        overlaps += sum(a[2] > b[0] for a, b in zip(boxes, boxes[1:], strict=False))
        img = cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)
        assert img.shape[:2] == (side["image"]["height"], side["image"]["width"])
        assert len(lines) == sum(t["visible"] >= 0.6 for t in side["tiles"])
    assert max(grown) > 1.5 and overlaps > 0


def test_a_camera_in_front_shows_standing_tiles_nearly_alike() -> None:
    """Tiles standing, seen nearly from in front and a little above (``camera="front"``): the camera's place recorded
    within its ranges, every hand tile labelled, and the row's ends nearly as big as each other (unlike "low")."""
    style = synth.plain_style((30, 30, 160), "blue")
    grown = []
    for index in range(6):
        _, _, side = synth.make_scene(synth.SceneSpec(index, 5, "val", 0.5, 0.6, camera="front"), [style])
        cam = side["camera"]
        assert cam["kind"] == "front" and 12 <= cam["elevation"] <= 40 and abs(cam["azimuth"]) <= 25
        conc = sorted((t for t in side["tiles"] if t["group"] == 0), key=lambda t: t["box"][0])
        assert len(conc) == len(side["groups"][0]["tiles"])
        heights = [t["box"][3] - t["box"][1] for t in conc]
        grown.append(max(heights[0], heights[-1]) / min(heights[0], heights[-1]))
    assert max(grown) < 1.5


def test_a_seated_camera_sees_lying_tiles_from_lower_and_nearer() -> None:
    """Tiles lying, seen from a player's seat (``camera="seated"``): tilted 30 to 55 degrees, the same hand drawn as
    from above but for the camera, every tile shown labelled."""
    style = synth.plain_style((30, 30, 160), "blue")
    for index in range(4):
        _, lines, side = synth.make_scene(synth.SceneSpec(index, 5, "val", 0.5, 0.6, camera="seated"), [style])
        phone = synth.make_scene(synth.SceneSpec(index, 5, "val", 0.5, 0.6), [style])[2]
        assert side["camera"]["kind"] == "seated" and 30 <= side["camera"]["tilt"] <= 55
        assert phone["camera"]["tilt"] <= 30 and "kind" not in phone["camera"]
        assert side["hand"] == phone["hand"] and len(lines) == sum(t["visible"] >= 0.6 for t in side["tiles"])


def test_a_whole_table_holds_about_the_tiles_asked() -> None:
    style = synth.plain_style((230, 25, 25), "red", text=False)
    for total in (60, 200):
        _, lines, side = synth.make_scene(synth.SceneSpec(1, 9, "val", 2.0, 2.0, table=total), [style])
        hand = [t for t in side["tiles"] if t["group"] < len(side["groups"]) - 1]
        assert len(side["tiles"]) == pytest.approx(total, rel=0.1)
        assert len(hand) >= 14 and len(lines) > 0.8 * len(side["tiles"])
        assert sum(t["label"] == "back" for t in side["tiles"]) > (0.2 * total if total > 100 else 0)


def test_sixteen_and_apart_shares() -> None:
    """--sixteen 1: every hand holds five sets and a pair; --apart 0: the winning tile touches the concealed tiles
    (a gap no wider than theirs), where by default it stands apart; the default draws are what they were."""
    style = synth.plain_style((230, 25, 25), "red", text=False)
    spec = synth.SceneSpec(4, 2, "val", 0.4, 0.5)
    assert synth.make_scene(spec, [style])[0] == synth.make_scene(replace(spec, apart=1.0, sixteen=None), [style])[0]
    for index in range(6):
        _, _, side = synth.make_scene(replace(spec, index=index, sixteen=1.0), [style])
        sets = [g for g in side["groups"] if g["kind"] in ("chow", "pung", "kong", "concealed_kong")]
        conc = next(g for g in side["groups"] if g["kind"] == "concealed")
        assert 3 * len(sets) + len(conc["tiles"]) + 1 == 17
    for apart, seen in ((1.0, True), (0.0, False)):
        for index in range(4):
            _, _, side = synth.make_scene(replace(spec, index=index, apart=apart), [style])
            assert side["win_apart"] is seen
            win = next(i for i, g in enumerate(side["groups"]) if g["kind"] == "win")
            quads = {t["group"]: t["quad"] for t in side["tiles"]}
            conc = [np.array(t["quad"]) for t in side["tiles"] if t["group"] == 0]
            w = np.array(quads[win])
            gap = min(float(np.linalg.norm(w.mean(0) - q.mean(0))) for q in conc)
            width = float(np.linalg.norm(w[1] - w[0]))
            assert (gap > 1.3 * width) is seen


@pytest.mark.parametrize(("flag", "value"), [("--sixteen", "2"), ("--apart", "-1"), ("--table", "-5")])
def test_scene_options_are_checked(capsys: pytest.CaptureFixture[str], flag: str, value: str) -> None:
    with pytest.raises(SystemExit):
        cli.main(["synth", "--out", "unused", flag, value])
    assert flag in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["synth", "--out", "unused", "--camera", "low", "--table", "100"])
    assert "--table" in capsys.readouterr().err
