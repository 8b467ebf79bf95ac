"""A photo taken from a player's seat, seen as from above (``vision/rectify.py``): the turn that sets its tiles
upright, the photo stretched and each box cut to its face, and the detector taking that reading where it is surer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.rectify import rectified
from vision.upright import turned_back, upright_turns

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = (MODELS / "tile_finder.onnx").exists() and (MODELS / "tile_classifier.onnx").exists()


def test_the_turn_sets_the_commonest_up_direction_up_and_the_edges_straight() -> None:
    up = np.eye(4)[[3, 3, 3, 0, 2]] * 0.9 + 0.025  # three tiles' tops point left (270 clockwise from up)
    face = np.array([True, True, True, True, False])
    assert upright_turns(up, face, np.radians(10.0)) == [pytest.approx(280.0)]
    assert upright_turns(up, np.zeros(5, bool), 0.0) == [0.0]  # no face: not turned
    # read in the photo so turned, the tops point up; as directions of the photo, left again
    assert turned_back(np.eye(4)[[0]], 270.0).argmax(1).tolist() == [3]


def test_a_near_split_between_two_quarters_tries_both() -> None:
    """Seen steeply, an upright face is shortened until it looks like one lying across: the votes split between two
    quarters (seed 9696's 000011, 53 degrees: 7 and 8), and both are tried; half a turn apart they are not."""
    up = np.eye(4)[[1] * 7 + [2] * 8]
    face = np.ones(15, bool)
    assert upright_turns(up, face, 0.0, 0.6) == [180.0, 90.0]
    assert upright_turns(up, face, 0.0, 2.0) == [180.0]  # (never split)
    assert upright_turns(np.eye(4)[[1] * 7 + [3] * 8], face, 0.0, 0.6) == [270.0]
    assert upright_turns(np.eye(4)[[1] * 4 + [2] * 8], face[:12], 0.0, 0.6) == [180.0]  # 4 < 0.6 * 8


def test_the_stretched_photo_holds_each_tile_cut_to_its_face() -> None:
    rgb = np.zeros((200, 300, 3), np.uint8)
    # an upright tile 30 wide, 45 high (face shortened and its near side below it), and one lying across, 45 x 30
    boxes = np.array([[100.0, 50.0, 130.0, 95.0], [140.0, 60.0, 185.0, 90.0], [60.0, 50.0, 90.0, 95.0]])
    img, faces = rectified(rgb, boxes, np.zeros(3), 0.0, 1.5)
    assert img.shape == (259, 300, 3)  # the canvas is 300 x 300; drawn to twice the longest tile below the faces
    widths, heights = faces[:, 2] - faces[:, 0], faces[:, 3] - faces[:, 1]
    assert widths.tolist() == [30.0, 45.0, 30.0]
    assert heights.round(1).tolist() == [40.0, 33.8, 40.0]  # an upright face 3:4, one lying across 4:3
    assert faces[0, 1] == pytest.approx(50 * 1.5)  # cut at the near side: the top stays where the box's top went
    # turned a quarter, the photo's width becomes its height and the tiles' sides swap: the first is 45 across and
    # its face no longer than the tile (30), the second upright now, its face 3:4
    img, faces = rectified(rgb, boxes, np.zeros(3), 90.0, 1.0)
    assert img.shape[0] <= 300 and img.shape[1] <= 200  # the canvas is 200 x 300, drawn where the tiles are
    assert (faces[:, 2:] - faces[:, :2]).round(1).tolist() == [[45.0, 30.0], [30.0, 40.0], [45.0, 30.0]]
    # no box: nothing to cut
    assert rectified(rgb, np.zeros((0, 4)), np.zeros(0), 0.0, 1.3)[1].shape == (0, 4)


def test_the_canvas_is_drawn_only_around_the_tiles_and_their_crops_are_the_whole_canvass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn only ``REACH`` beyond the faces, the canvas holds the pixels of the whole one there (the faces moved with
    it; OpenCV's fixed-point map, shifted, rounds a few a grey level the other way), so every crop of them is the
    same within a grey level: a hand in the middle of a big photo, turned and stretched."""
    from vision import rectify
    from vision.crops import crop_tiles

    rng = np.random.default_rng(5)
    rgb = rng.integers(0, 256, (900, 1400, 3), dtype=np.uint8)
    boxes = np.array([[500.0 + 32 * k, 400.0 + 3 * k, 530.0 + 32 * k, 445.0 + 3 * k] for k in range(14)])
    tilt = np.full(14, 0.05)
    img, faces = rectified(rgb, boxes, tilt, 20.0, 1.6)
    monkeypatch.setattr(rectify, "REACH", 1e6)  # the whole canvas
    whole, at = rectified(rgb, boxes, tilt, 20.0, 1.6)
    assert img.size < whole.size / 4
    x0, y0 = (at - faces)[0, :2].astype(int)
    assert np.allclose(at - faces, [x0, y0, x0, y0]) and (x0, y0) != (0, 0)
    off = np.abs(img.astype(int) - whole[y0:y0 + img.shape[0], x0:x0 + img.shape[1]]).max(2)
    assert off.max() <= 1 and (off > 0).mean() < 0.01
    for margin in (1.0, 1.15):
        off = crop_tiles(img, faces, 96, margin, tilt).astype(int) - crop_tiles(whole, at, 96, margin, tilt)
        assert np.abs(off).max() <= 1 and (off != 0).mean() < 0.01


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
def test_tiles_seen_from_a_seat_are_named_better_seen_as_from_above(art_dir: Path) -> None:
    from training import synth
    from vision.detector import TileDetector
    from vision.image import load_image

    styles = synth.load_styles(art_dir, include=["fluffy"] if (art_dir / "fluffy").exists() else None)
    seen = TileDetector(readers=())
    as_shot = TileDetector(readers=())
    as_shot.config = replace(as_shot.config, rectify_below=0.0)
    right = {"seen": 0, "as_shot": 0}
    for index in range(8):
        jpg, _, side = synth.make_scene(synth.SceneSpec(index, 5, "val", 1.0, 1.5, camera="seated"), styles)
        tiles = [t for t in side["tiles"] if t["visible"] >= 0.6]
        rgb, scale = load_image(jpg, seen.config.work_side)
        boxes = np.array([t["box"] for t in tiles]) * scale
        for name, det in (("seen", seen), ("as_shot", as_shot)):
            p = det.classify(rgb, boxes)[0]
            right[name] += sum(synth.NAMES[i] == t["label"] for i, t in zip(p.argmax(1), tiles, strict=True))
    assert right["seen"] > right["as_shot"], right


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
def test_a_photo_is_looked_at_again_only_where_its_names_are_unsure(art_dir: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from training import synth
    from vision import detector as detector_module
    from vision.detector import DetectorConfig, TileDetector

    styles = synth.load_styles(art_dir, include=["fluffy"] if (art_dir / "fluffy").exists() else None)
    jpg = synth.make_scene(synth.SceneSpec(0, 5, "val", 1.0, 1.5), styles)[0]
    named: list[int] = []
    looks: list[float] = []

    def counted(*args: object) -> object:
        looks.append(args[4])  # its stretch
        return rectified(*args)

    class Counting(TileDetector):
        def _named(self, *args: object, **kwargs: object) -> object:
            named.append(1)
            return super()._named(*args, **kwargs)

    monkeypatch.setattr(detector_module, "rectified", counted)
    stretches = DetectorConfig().stretches
    for below, times in ((0.0, 1), (1.01, 2)):
        named.clear()
        looks.clear()
        Counting(readers=(), config=DetectorConfig(rectify_below=below, join_halves=False,
                                                   unsure_backs=0.0)).detect(jpg)
        # each turn's stretches looked at by the classifier alone, the surest of them named in full
        assert len(named) == times and looks == list(stretches) * (times - 1), below


def test_a_stretch_of_nothing_or_no_stretch_is_refused() -> None:
    from vision.config import DetectorConfig

    for stretches in ((1.0, 0.0), ()):
        with pytest.raises(ValueError, match="stretches must be one or more, each above 0"):
            DetectorConfig(stretches=stretches)
    with pytest.raises(ValueError, match="turn_split must be 0 or more"):
        DetectorConfig(turn_split=-0.1)
