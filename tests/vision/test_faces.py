"""A tile's face found in its box and cut flat (``vision/faces.py``): the corners a face network gives, mapped from
its crop back to the photo, the face cut flat to a tile's shape, and a photo named from its faces only where they
cover little of their boxes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.config import DetectorConfig
from vision.crops import MARGIN, crop_matrices, network_input, shrunk_into
from vision.detector import TileDetector
from vision.errors import ModelNotFoundError
from vision.faces import (
    REFINE_INSET,
    FaceReader,
    FaceRefiner,
    canonical,
    face_crops,
    refine_frames,
    thinness,
    through,
)
from vision.finding import FELT
from vision.shipped import CLASSIFIER_WEIGHTS


class Corners:
    """A stand-in face network: each crop's face at the same corners (the crop's units), across or not, its tile
    standing or not."""

    def __init__(self, corners: list[list[float]], across: bool = False, size: int = 64, stands: bool = True) -> None:
        self.corners, self.across, self.size = np.array(corners, np.float32).reshape(1, 8), across, size
        self.stands = stands
        self.seen = 0

    def get_inputs(self) -> list:
        class Input:
            shape = ("n", 3, self.size, self.size)

        return [Input()]

    def get_outputs(self) -> list:
        return [type("Output", (), {"name": name})() for name in FaceReader.OUTPUTS]

    def run(self, _outputs: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        n = len(feed["crops"])
        assert feed["crops"].shape[1:] == (3, self.size, self.size)
        self.seen += n
        return [np.repeat(self.corners, n, 0), np.full((n, 1), 3.0 if self.across else -3.0, np.float32),
                np.full((n, 1), 3.0 if self.stands else -3.0, np.float32)]


def pattern(h: int = 80, w: int = 60) -> np.ndarray:
    """A face's art: four quadrants of different colours, so that a crop shows which way it was cut."""
    art = np.zeros((h, w, 3), np.uint8)
    art[: h // 2, : w // 2] = (250, 30, 30)
    art[: h // 2, w // 2:] = (30, 250, 30)
    art[h // 2:, : w // 2] = (30, 30, 250)
    art[h // 2:, w // 2:] = (250, 250, 30)
    return art


def test_a_face_seen_askew_is_cut_flat_as_drawn() -> None:
    art = pattern()
    quad = np.float32([[140, 60], [210, 80], [205, 190], [130, 200]])  # tl, tr, br, bl as the art's corners go
    photo = np.full((300, 300, 3), 90, np.uint8)
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [60, 0], [60, 80], [0, 80]]), quad)
    cv2.warpPerspective(art, m, (300, 300), photo, borderMode=cv2.BORDER_TRANSPARENT)
    crop = face_crops(photo, quad[None], np.array([False]), 92, MARGIN)[0].astype(int)
    # the face 80 px long, 60 wide, in the middle: each quadrant's colour where the art has it, the floor around it
    for (y, x), colour in (((30, 30), (250, 30, 30)), ((30, 60), (30, 250, 30)), ((62, 30), (30, 30, 250)),
                           ((62, 60), (250, 250, 30)), ((3, 46), (90, 90, 90))):
        assert np.abs(crop[y, x] - colour).max() < 40, (y, x, crop[y, x])
    # across: the same face cut lying, 60 long and 45 high, its top-left quadrant still first
    lying = face_crops(photo, quad[None], np.array([True]), 92, MARGIN)[0].astype(int)
    assert np.abs(lying[32, 25] - (250, 30, 30)).max() < 40 and np.abs(lying[32, 67] - (30, 250, 30)).max() < 40
    assert np.abs(lying[15, 46] - (90, 90, 90)).max() < 40


def test_corners_in_the_crop_map_back_to_the_photo() -> None:
    boxes = np.array([[100.0, 50.0, 160.0, 130.0], [20.0, 200.0, 120.0, 260.0]])
    corners = [[0.2, 0.1], [0.8, 0.15], [0.75, 0.9], [0.25, 0.85]]
    for tilt in (np.zeros(2), np.array([0.3, -0.2])):
        reader = FaceReader(Corners(corners))
        quads, across, stands, flat, rows = reader.faces(np.zeros((300, 300, 3), np.uint8), boxes, tilt)
        m = crop_matrices(boxes, 64, MARGIN, tilt)
        back_in_crop = np.einsum("nij,nkj->nki", m[:, :, :2], quads) + m[:, None, :, 2]
        assert np.allclose(back_in_crop / 64, corners, atol=1e-6)
        assert not across.any() and reader.size == 64 and np.allclose(stands, 1 / (1 + np.exp(-3.0)))
        assert not flat and rows is None  # found, not yet taken for the crops named; no network for rows


def looks(sure: float) -> object:
    """A stand-in classifier's look: every crop named 1m with probability ``sure`` (the rest spread evenly)."""

    def look(crops: np.ndarray) -> tuple:
        p = np.full((len(crops), 43), (1 - sure) / 42)
        p[:, 0] = sure
        return p, np.tile([1.0, 0, 0, 0], (len(crops), 1)), np.zeros((len(crops), 8))

    return look


def test_a_photo_is_named_from_its_faces_where_its_tiles_stand_and_are_named_surer() -> None:
    boxes = np.array([[100.0, 50.0, 160.0, 130.0], [170.0, 50.0, 230.0, 130.0]])
    rgb = np.random.default_rng(0).integers(0, 255, (300, 300, 3), np.uint8)
    crops = np.zeros((2, 3, 96, 96), np.float32)
    tilt = np.zeros(2)
    c = DetectorConfig()
    unsure = looks(0.5)(crops)
    corners = [[0.3, 0.2], [0.7, 0.2], [0.7, 0.8], [0.3, 0.8]]
    standing = FaceReader(Corners(corners))
    flat, again, faces = standing.flatter(rgb, boxes, tilt, crops, unsure, looks(0.8), c)
    assert again[0][0, 0] == 0.8 and faces.flat  # the faces' reading; the caption reader cuts them flat too
    assert np.array_equal(flat, network_input(face_crops(rgb, standing.faces(rgb, boxes, tilt).quads,
                                                         np.zeros(2, bool), 96)))
    # left as boxed: named surely already; the faces named no surer by faces_gain; the tiles lying (from above, from
    # a seat); or the face network never asked (faces_below 0)
    lying = FaceReader(Corners(corners, stands=False))
    for reader, first, second, config in (
            (standing, looks(0.95)(crops), looks(1.0), c), (standing, unsure, looks(0.51), c),
            (lying, unsure, looks(0.8), c), (standing, unsure, looks(0.8), DetectorConfig(faces_below=0.0))):
        asked = reader._session.seen
        out, named, faces = reader.flatter(rgb, boxes, tilt, crops, first, second, config)
        assert out is crops and named is first and (faces is None or not faces.flat)
        assert reader._session.seen == asked + (0 if first[0][0, 0] >= config.faces_below else 2)


class RowCorners(Corners):
    """A stand-in face network whose file holds a network for rows standing too, which finds each face at ``rows``
    (the crop's units), across."""

    def __init__(self, corners: list[list[float]], rows: list[list[float]], stands: bool = True) -> None:
        super().__init__(corners, stands=stands)
        self.rows = np.array(rows, np.float32).reshape(1, 8)

    def get_outputs(self) -> list:
        return [type("Output", (), {"name": name})() for name in FaceReader.OUTPUTS + FaceReader.ROW_OUTPUTS]

    def run(self, outputs: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        n = len(feed["crops"])
        return [*super().run(outputs, feed), np.repeat(self.rows, n, 0), np.full((n, 1), 3.0, np.float32)]


def test_a_photo_whose_tiles_stand_is_cut_flat_by_the_network_for_rows() -> None:
    boxes = np.array([[100.0, 50.0, 160.0, 130.0], [170.0, 50.0, 230.0, 130.0]])
    rgb = np.random.default_rng(0).integers(0, 255, (300, 300, 3), np.uint8)
    crops, tilt, c = np.zeros((2, 3, 96, 96), np.float32), np.zeros(2), DetectorConfig()
    corners, rows = [[0.3, 0.2], [0.7, 0.2], [0.7, 0.8], [0.3, 0.8]], [[0.2, 0.3], [0.8, 0.3], [0.8, 0.7], [0.2, 0.7]]
    standing = FaceReader(RowCorners(corners, rows))
    found = standing.faces(rgb, boxes, tilt)
    assert found.rows is not None and found.of(np.array([1])).rows[0].shape == (1, 4, 2)
    flat, _, faces = standing.flatter(rgb, boxes, tilt, crops, looks(0.5)(crops), looks(0.8), c)
    # cut by the rows network's corners, across as it says; the faces it gives are those the photo goes on with
    assert np.array_equal(faces.quads, found.rows[0]) and faces.across.all() and faces.flat and faces.rows is None
    assert np.array_equal(flat, network_input(face_crops(rgb, found.rows[0], np.ones(2, bool), 96)))
    assert not np.array_equal(found.rows[0], found.quads)
    # tiles lying: the first network's faces, as a file without the rows network gives them
    lying = FaceReader(RowCorners(corners, rows, stands=False))
    _, _, faces = lying.flatter(rgb, boxes, tilt, crops, looks(0.5)(crops), looks(0.8), c)
    alone = FaceReader(Corners(corners, stands=False)).faces(rgb, boxes, tilt)
    assert np.array_equal(faces.quads, alone.quads) and not faces.across.any() and not faces.flat


class FaceClassifier:
    """Names a crop 1m the surer the more of it is face (grey 200): more of a face cut flat than of the crop around
    its box, which holds the noise around it."""

    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []

    def run(self, _outputs: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        x = feed["crops"]
        self.crops.append(x)
        n = len(x)
        logits = np.zeros((n, 43), np.float32)
        logits[:, 0] = 12 * (np.abs(x - 200 / 255) < 0.01).all(1).mean(axis=(1, 2)) - 3
        return [logits, np.tile(np.float32([9, 0, 0, 0]), (n, 1)), np.zeros((n, 8), np.float32)]


def smooth_faces() -> tuple[np.ndarray, np.ndarray, Corners]:
    """A noisy photo of a hand's row of ten boxes, a smooth face (grey 200) inside each, and a stand-in face network
    that finds them."""
    rgb = np.random.default_rng(1).integers(0, 255, (300, 300, 3), np.uint8)
    boxes = np.array([[10.0 + 28 * i, 50.0, 36.0 + 28 * i, 130.0] for i in range(10)])
    for x0, _, x1, _ in boxes.astype(int):
        rgb[60:120, (x0 + x1) // 2 - 10:(x0 + x1) // 2 + 10] = 200
    return rgb, boxes, Corners([[0.4, 0.2], [0.6, 0.2], [0.6, 0.8], [0.4, 0.8]], size=32)


def plain(**settings: object) -> DetectorConfig:
    """The detector's settings with only the face network's parts at work (and ``settings``)."""
    return DetectorConfig(alike=1.0, backs_by_colour=False, kong_backs=False, sharpen_below=0, dim_below=0,
                          soft_below=0, shaken_below=0, turns=1, straighten=False, **settings)


def test_the_detector_names_an_unsure_standing_photo_from_its_faces() -> None:
    rgb, boxes, faces = smooth_faces()
    named = {}
    for below in (0.0, 0.9):
        det = TileDetector.from_parts(FaceClassifier(), crop=32, faces=FaceReader(faces),
                                      config=plain(faces_below=below))
        named[below] = det._named(rgb, boxes, clearer=True)
    boxed = det.cut(rgb, boxes)[0]
    assert np.array_equal(named[0.0].crops, boxed) and named[0.0].p[:, 0].max() < 0.9
    expected = face_crops(rgb, FaceReader(faces).faces(rgb, boxes, np.zeros(10)).quads, np.zeros(10, bool), 32)
    assert np.array_equal(named[0.9].crops, network_input(expected))
    assert named[0.9].p[:, 0].min() > named[0.0].p[:, 0].max()


def test_a_photo_seen_from_a_seat_is_also_looked_at_with_its_faces_cut_flat() -> None:
    rgb, boxes, faces = smooth_faces()
    flat = network_input(face_crops(rgb, FaceReader(faces).faces(rgb, boxes, np.zeros(10)).quads,
                                    np.zeros(10, bool), 32))
    sure = {}
    for on in (False, True):
        classifier = FaceClassifier()
        det = TileDetector.from_parts(classifier, crop=32, faces=FaceReader(faces),
                                      config=plain(faces_look=on, faces_below=0.0))
        again = det._seen_from_above(rgb, boxes, det._named(rgb, boxes, clearer=True))
        assert any(np.array_equal(x, flat) for x in classifier.crops) == on  # the faces cut flat looked at
        sure[on] = again.p.max(1).mean()
    assert sure[True] > sure[False]  # ... and their names taken, surer than any turn or stretch


def test_a_photo_of_tiles_standing_is_not_looked_at_stretched_as_from_a_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.detector

    rgb, boxes, faces = smooth_faces()
    stretched = []
    rectified = vision.detector.rectified
    monkeypatch.setattr(vision.detector, "rectified", lambda *a: stretched.append(a[-1]) or rectified(*a))
    for reader, rule in ((FaceReader(faces), True), (FaceReader(faces), False),
                         (FaceReader(Corners([[0.4, 0.2], [0.6, 0.2], [0.6, 0.8], [0.4, 0.8]], size=32, stands=False)),
                          True)):
        stretched.clear()
        det = TileDetector.from_parts(FaceClassifier(), crop=32, faces=reader,
                                      config=plain(faces_look=True, faces_gain=1.0, standing_not_stretched=rule))
        named = det._named(rgb, boxes, clearer=True)  # named as boxed (the faces named no surer by 1.0), unsurely
        assert named.faces is not None and not named.faces.flat
        det._seen_from_above(rgb, boxes, named)
        standing = reader._session is faces
        # standing, with the rule: only the faces cut flat looked at; without it, or lying: each stretch too
        assert stretched == ([] if standing and rule else list(DetectorConfig().stretches))


def test_the_faces_found_while_naming_are_looked_at_again_without_asking_the_network() -> None:
    rgb, boxes, faces = smooth_faces()
    reader = FaceReader(faces)
    det = TileDetector.from_parts(FaceClassifier(), crop=32, faces=reader, config=plain(faces_look=True,
                                                                                         faces_standing=2.0))
    named = det._named(rgb, boxes, clearer=True)  # asked (unsure), none standing enough: named as boxed
    assert named.faces is not None and faces.seen == len(boxes)
    det._seen_from_above(rgb, boxes, named)
    assert faces.seen == len(boxes)  # the faces look cut the same faces flat


def test_canonical_keeps_the_winding_and_starts_top_left() -> None:
    quads = np.array([[[5.0, 9], [1, 8], [2, 1], [6, 2]]])  # bl... clockwise as shown, starting bottom-right
    out = canonical(quads)[0]
    assert out[0].tolist() == [2.0, 1.0] and out[1].tolist() == [6.0, 2.0]


def test_a_network_that_is_no_face_network_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="is no face network of this version: its outputs are"):
        TileDetector(faces=CLASSIFIER_WEIGHTS)
    with pytest.raises(ModelNotFoundError, match="model weights not found"):
        TileDetector(faces=tmp_path / "none.onnx")


class StandInFinder:
    """A finder that boxes ``found`` in every look, ``sure`` sure (the surer by 0.05 when asked for 0.9 or more), and
    counts its looks in ``asked[kind]``."""

    def __init__(self, kind: str, found: np.ndarray, asked: dict, sure: float = 0.9) -> None:
        self.kind, self.found, self.asked, self.sure = kind, found, asked, sure

    def boxes(self, _rgb: np.ndarray, _imgsz: int, conf: float, _iou: float, _max_det: int) -> tuple:
        self.asked[self.kind] += 1
        return self.found.copy(), np.full(len(self.found), self.sure if conf < 0.9 else self.sure + 0.05)


def found_by(boxes: np.ndarray, rows: np.ndarray | None, stands: bool, sure: float = 0.9, rows_sure: float = 0.9,
             **settings: object) -> tuple[list, dict]:
    """The detections of ``smooth_faces``' photo whose tile finder boxes ``boxes`` (``sure``) and row finder ``rows``
    (None: none; ``rows_sure``), its faces found standing or not; and how many looks each finder took."""
    from PIL import Image

    rgb = smooth_faces()[0]
    asked = {"tile": 0, "row": 0}
    faces = Corners([[0.4, 0.2], [0.6, 0.2], [0.6, 0.8], [0.4, 0.8]], size=32, stands=stands)
    det = TileDetector.from_parts(
        FaceClassifier(), crop=32, faces=FaceReader(faces), finder=StandInFinder("tile", boxes, asked, sure),
        row_finder=StandInFinder("row", rows, asked, rows_sure) if rows is not None else None,
        config=plain(zoom_imgsz=0, turn_at=0, fine_imgsz=0, zoom_out=1.0, unsure_backs=0, join_halves=False,
                     **settings))
    return det.detect(Image.fromarray(rgb)), asked


def test_each_detection_carries_whether_its_tile_stands_where_the_face_network_was_asked() -> None:
    _, boxes, _ = smooth_faces()
    sigmoid = round(1 / (1 + np.exp(-3.0)), 4)
    for stands, settings, want in ((True, {}, sigmoid), (False, {}, round(1 - sigmoid, 4)),
                                   (True, {"faces_below": 0.0, "faces_look": True}, sigmoid),  # asked looking again
                                   (True, {"faces_below": 0.0, "faces_look": False}, None)):  # not asked
        found, _ = found_by(boxes, None, stands, **settings)
        assert len(found) == 10 and {d.stands for d in found} == {want}, (stands, settings)


def test_a_photo_of_tiles_standing_is_looked_at_again_by_the_row_finder() -> None:
    _, boxes, _ = smooth_faces()

    def read(stands: bool, row_finder: bool = True, **settings: object) -> tuple[float, int]:
        found, asked = found_by(boxes, boxes + [2, 0, 2, 0] if row_finder else None, stands, **settings)
        assert len(found) == 10
        return found[0].box[0], asked["row"]

    assert read(stands=True) == (12.0, 1)  # the row finder's boxes, named, in the tile finder's
    for lying in ({"stands": False}, {"stands": True, "rows_standing": 0.0}, {"stands": True, "faces_below": 0.0},
                  {"stands": True, "row_finder": False}):
        assert read(**lying) == (10.0, 0)  # tiles lying, the row finder off, the photo named surely


def test_the_row_finders_boxes_are_taken_where_the_tile_finder_boxed_their_parts() -> None:
    _, boxes, _ = smooth_faces()
    parts = np.concatenate([boxes + [4, 4, -4, -44], boxes + [4, 44, -4, -4]])  # each tile's upper and lower half
    small = {"faces_side": 40.0}  # parts too small for the face network to look at (the fresh photos' were)
    found, asked = found_by(parts, boxes, stands=False, sure=0.5, **small)
    assert [d.box for d in found] == [tuple(b) for b in boxes.tolist()] and asked["row"] == 1
    for tile_finder, sure, settings, looked, kept in (
            (parts, 0.9, small, 0, 20),  # the tile finder sure of its boxes: the row finder not asked
            (parts, 0.5, {**small, "rows_parts": 0.0}, 1, 20),  # the rule off: asked for the surer finder's, not taken
            (parts, 0.5, {**small, "rows_parts": 0.0, "rows_surer": 0.0}, 0, 20),  # both off
            (parts, 0.5, {**small, "rows_parts": 0.2, "rows_most": 20}, 0, 20),  # too many boxes for a hand's
            # the face network looked and found none standing, the tile finder doubted its boxes a little: not asked
            (parts, 0.65, {}, 0, 20),
            (parts, 0.5, {}, 1, 10),  # ... doubted them more (eval_cases' perspective 000009, 0.56): asked, taken
            (parts, 0.65, {"rows_lying_doubt": 1.0}, 1, 10),  # the rule off: asked, taken
            (boxes + [1, 0, 1, 0], 0.5, {}, 1, 10)):  # the same tiles boxed by both: asked, not taken
        found, asked = found_by(tile_finder, boxes, stands=False, sure=sure, **settings)
        assert len(found) == kept and asked["row"] == looked, settings


def test_the_row_finders_boxes_are_taken_where_it_is_the_surer_and_some_tiles_stand() -> None:
    _, boxes, _ = smooth_faces()
    rows = boxes + [2, 0, 2, 0]
    # the face network's 40% rule off: the row finder taken as the surer finder alone
    found, asked = found_by(boxes, rows, stands=True, sure=0.5, rows_standing=0.0)
    assert found[0].box[0] == 12.0 and asked["row"] == 1
    for stands, sure, rows_sure, settings, looked in (
            (False, 0.5, 0.9, {}, 1),  # no tile stands: asked, not taken
            (False, 0.65, 0.9, {}, 0),  # ... the tile finder's boxes doubted a little: not asked
            (False, 0.65, 0.9, {"rows_lying_doubt": 1.0}, 1),  # ... where that rule is off: asked, not taken
            (True, 0.5, 0.9, {"rows_surer": 0.0}, 1),  # the rule off
            (True, 0.6, 0.55, {}, 1),  # the tile finder the surer
            (True, 0.9, 0.95, {}, 0)):  # the tile finder sure of its boxes: the row finder not asked
        found, asked = found_by(boxes, rows, stands=stands, sure=sure, rows_sure=rows_sure, rows_standing=0.0,
                                **settings)
        assert found[0].box[0] == 10.0 and asked["row"] == looked, (stands, sure, rows_sure, settings)


def test_a_row_standing_of_which_the_tile_finder_found_fewer_than_a_hands_tiles_is_read_by_the_row_finder() -> None:
    _, boxes, _ = smooth_faces()
    rows = boxes + [2, 0, 2, 0]
    found, asked = found_by(boxes[:6], rows, stands=True)  # 6 of the 10 found, standing: the row finder's 10 taken
    assert len(found) == 10 and found[0].box[0] == 12.0 and asked["row"] == 1
    for tile_finder, row_finder, stands, settings, looked in (
            (boxes[:6], rows[:9], True, {}, 1),  # the row finder finds no hand's tiles either: asked, not taken
            (boxes[:6], rows, False, {}, 0),  # the tiles lie: a close-up of a few tiles, not asked
            (boxes[:6], rows, True, {"rows_few": False}, 0),  # the rule off
            (boxes[:4], rows, True, {}, 0)):  # fewer than half a hand's tiles: not asked
        found, asked = found_by(tile_finder, row_finder, stands=stands, **settings)
        assert len(found) == len(tile_finder) and asked["row"] == looked, (len(tile_finder), stands, settings)


class ShrunkFinder:
    """A finder that boxes ``parts`` in the photo (``sure`` sure) and, in the photo shrunk ``times`` times into a felt
    canvas (``zoomed_out``), ``wholes`` (``whole_sure``), where the photo lies on that canvas; it counts its looks."""

    def __init__(self, parts: np.ndarray, wholes: np.ndarray, sure: float, whole_sure: float, times: float) -> None:
        self.parts, self.wholes, self.sure, self.whole_sure, self.times = parts, wholes, sure, whole_sure, times
        self.looks = {"photo": 0, "shrunk": 0}

    def boxes(self, rgb: np.ndarray, imgsz: int, conf: float, _iou: float, _max_det: int) -> tuple:
        if rgb.shape[:2] == (300, 300):
            self.looks["photo"] += 1
            return self.parts.copy(), np.full(len(self.parts), self.sure)
        self.looks["shrunk"] += 1
        _, (left, top, sx, sy) = shrunk_into(np.zeros((300, 300, 3), np.uint8), self.times, imgsz, FELT)
        return self.wholes / [sx, sy, sx, sy] + [left, top, left, top], np.full(len(self.wholes), self.whole_sure)


def test_a_hand_boxed_by_its_circles_and_sticks_is_read_from_the_photo_shrunk() -> None:
    from PIL import Image

    rgb, boxes, faces = smooth_faces()
    # each tile boxed in four parts, as near tiles standing, bigger than the finder learnt, are: 40 boxes for 10 tiles
    parts = np.concatenate([boxes + [2 + 12 * (k % 2), 4 + 38 * (k // 2), -14 + 12 * (k % 2), -42 + 38 * (k // 2)]
                            for k in range(4)])

    def read(parts: np.ndarray = parts, sure: float = 0.5, whole_sure: float = 0.6, **settings: object) -> tuple:
        finder = ShrunkFinder(parts, boxes, sure, whole_sure, 1.5)
        det = TileDetector.from_parts(
            FaceClassifier(), crop=32, faces=FaceReader(faces), finder=finder,
            config=plain(zoom_imgsz=0, turn_at=0, fine_imgsz=0, zoom_out=1.0, unsure_backs=0, join_halves=False,
                         **settings))
        return np.array([d.box for d in det.detect(Image.fromarray(rgb))]), finder.looks["shrunk"]

    found, looked = read()
    assert looked == 1 and np.abs(found - boxes).max() < 1.0  # the tiles, boxed whole
    for settings, asked in (({"sure": 0.8}, 0),  # the finder sure of its parts: not asked
                            ({"shrunk": 1.0}, 0),  # the rule off
                            ({"parts": parts[:20]}, 0),  # a hand's count of boxes: as the finder boxed them
                            ({"parts": np.concatenate([parts, parts + 1])}, 0),  # more boxes than a hand photo's
                            ({"whole_sure": 0.4}, 1),  # the shrunk look less sure of its boxes
                            ({"shrunk_parts": 0.9, "parts": parts[np.arange(40) % 10 >= 2]}, 1)):  # 8 of 10 hold parts
        found, looked = read(**settings)
        assert looked == asked and len(found) == len(settings.get("parts", parts))


def test_a_tile_whose_face_cut_flat_is_named_surely_takes_that_name() -> None:
    """A tile lying seen at a grazing angle (fresh from in front: its face a thin strip of its box) named back or
    another tile by the photo's names takes the name its face cut flat gives it with ``flat_sure`` or more, where that
    look is surer than its crop as cut; not where the cut crop is the surer, nor below ``flat_sure``."""
    from vision.faces import flat_named
    from vision.names import NAMES

    def looks(*names: tuple[str, float]) -> np.ndarray:
        p = np.full((len(names), len(NAMES)), 0.0)
        for k, (name, q) in enumerate(names):
            p[k] = (1 - q) / (len(NAMES) - 1)
            p[k, NAMES.index(name)] = q
        return p

    photo = looks(("back", 0.5), ("2p", 0.6), ("5s", 0.7), ("7m", 0.8), ("1z", 0.9))
    flat = looks(("3p", 0.96), ("4p", 0.96), ("6s", 0.9), ("7m", 0.99), ("2z", 0.95))
    cut = looks(("back", 0.6), ("2p", 0.97), ("5s", 0.7), ("7m", 0.5), ("1z", 0.91))
    read = flat_named(photo, flat, cut, DetectorConfig().flat_sure)
    assert [NAMES[k] for k in read.argmax(1)] == ["3p", "2p", "5s", "7m", "2z"]
    assert np.array_equal(read[[1, 2, 3]], photo[[1, 2, 3]]) and np.array_equal(read[0], flat[0])
    never = flat_named(photo, flat, cut, DetectorConfig(flat_sure=1.0).flat_sure)
    assert np.array_equal(never, photo)


class WhiteFace:
    """A stand-in face refiner that finds the white face in its square (the corners of the white pixels' box, the
    square's units), as a trained one finds the face drawn; counts its runs."""

    def __init__(self, size: int = 64) -> None:
        self.size, self.runs = size, 0

    def get_inputs(self) -> list:
        return [type("Input", (), {"name": "faces", "shape": ("n", 3, self.size, self.size)})()]

    def get_outputs(self) -> list:
        return [type("Output", (), {"name": "corners"})()]

    def run(self, _outputs: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.runs += 1
        out = []
        for x in feed["faces"]:
            ys, xs = np.nonzero((x > 0.9).all(0))
            x0, y0, x1, y1 = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1) if len(xs) else (0, 0, 1, 1)
            out.append(np.array([x0, y0, x1, y0, x1, y1, x0, y1], np.float32) / self.size)
        return [np.array(out, np.float32).reshape(-1, 8)]


def thin_face() -> tuple[np.ndarray, np.ndarray]:
    """A dark photo with a white face 120 x 16 px (a tile lying seen at a grazing angle), and its quad."""
    rgb = np.full((200, 300, 3), 40, np.uint8)
    rgb[100:116, 90:210] = 255
    return rgb, np.array([[[90.0, 100], [210, 100], [210, 116], [90, 116]]])


def test_the_refiners_square_holds_the_face_found_in_from_its_edges_and_maps_back() -> None:
    rgb, quad = thin_face()
    frames = refine_frames(quad, 64)
    inside = through(frames, quad)[0]
    a, b = 64 * REFINE_INSET, 64 * (1 - REFINE_INSET)
    assert np.allclose(inside, [[a, a], [b, a], [b, b], [a, b]])  # the thin strip as tall as wide
    assert np.allclose(through(np.linalg.inv(frames), inside[None]), quad)
    assert refine_frames(np.zeros((0, 4, 2)), 64).shape == (0, 3, 3)


def test_a_face_found_off_its_place_is_found_again_where_it_lies() -> None:
    rgb, quad = thin_face()
    off = quad + np.array([[[-12.0, 4], [9, 5], [8, -3], [-10, -4]]])  # the face network's error: a third of its height
    refiner = FaceRefiner(WhiteFace())
    once, twice = refiner.refined(rgb, off), refiner.refined(rgb, off, passes=2)
    for again in (once, twice):  # (the stand-in boxes the face as warped by the face found: a little wider)
        err = np.abs(again - quad)
        assert err[:, :, 1].max() < 1.0 < 3 < np.abs(off - quad)[:, :, 1].max() and err[:, :, 0].max() < 4
    assert not np.allclose(once, twice)  # found again from the first refining
    assert np.array_equal(refiner.refined(rgb, off, passes=0), off) and refiner.refined(rgb, off[:0]).shape == (0, 4, 2)


def test_the_face_reader_refines_the_thin_faces_it_takes_when_asked() -> None:
    boxes = np.array([[100.0, 50.0, 160.0, 130.0], [170.0, 50.0, 230.0, 130.0]])
    rgb = np.random.default_rng(0).integers(0, 255, (300, 300, 3), np.uint8)
    # the first network's faces 0.67 as wide as tall (about square on), the rows network's 0.25 as tall as wide (thin)
    corners, rows = [[0.3, 0.2], [0.7, 0.2], [0.7, 0.8], [0.3, 0.8]], [[0.2, 0.4], [0.8, 0.4], [0.8, 0.55], [0.2, 0.55]]
    white = WhiteFace()
    reader = FaceReader(RowCorners(corners, rows), refiner=FaceRefiner(white))
    found = reader.faces(rgb, boxes, np.zeros(2))
    assert thinness(found.quads).round(2).tolist() == [0.67, 0.67] and thinness(found.rows[0]).max() < 0.3
    every = DetectorConfig(refine_thinner=1.0)
    for faces in (found, found.as_rows()):  # either network's faces, in one run
        again = reader.refined(rgb, faces, every)
        assert not np.allclose(again.quads, faces.quads) and np.array_equal(again.across, faces.across)
        assert np.array_equal(again.stands, faces.stands)
    assert white.runs == 2
    rows_again = reader.refined(rgb, found.as_rows(), every).quads
    thin = reader.refined(rgb, found.as_rows(), DetectorConfig())  # the thin ones alone (0.6): all of the rows'
    assert white.runs == 4 and np.allclose(thin.quads, rows_again)
    assert reader.refined(rgb, found, DetectorConfig()) is found and white.runs == 4  # none thin: not asked
    none = reader.refined(rgb, found.as_rows(), DetectorConfig(refine_thinner=0.1))  # no face thinner: not asked
    assert white.runs == 4 and np.array_equal(none.quads, found.rows[0])
    # the detector asks it as its settings say: faces_refined=0 leaves the faces as found
    crops, c = np.zeros((2, 3, 96, 96), np.float32), DetectorConfig()
    _, _, faces = reader.flatter(rgb, boxes, np.zeros(2), crops, looks(0.5)(crops), looks(0.8), c)
    assert white.runs == 5 and np.allclose(faces.quads, thin.quads)
    _, _, faces = reader.flatter(rgb, boxes, np.zeros(2), crops, looks(0.5)(crops), looks(0.8),
                                 DetectorConfig(faces_refined=0))
    assert white.runs == 5 and np.allclose(faces.quads, found.rows[0])


def test_a_network_that_is_no_face_refiner_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="is no face refiner: it takes .'crops'. and gives"):
        TileDetector(refiner=CLASSIFIER_WEIGHTS)
    with pytest.raises(ModelNotFoundError, match="model weights not found"):
        TileDetector(refiner=tmp_path / "none.onnx")
    TileDetector(faces=None, refiner=tmp_path / "none.onnx")  # no face network: no refiner asked for
