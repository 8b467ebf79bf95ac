"""Round things on the table (``vision/discs.py``): a coin or a chip boxed and named a back is no tile; a back, face up
or down, square or turned, seen from above or with its sides showing, is one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.discs import round_boxes

FELT = (40, 90, 40)


def _table(seed: int = 0, grain: bool = False) -> np.ndarray:
    """A photo of a table, plain felt or grained wood."""
    img = np.full((400, 600, 3), FELT, np.uint8)
    if grain:
        rng = np.random.default_rng(seed)
        stripes = (np.sin(np.arange(600) / 7.0 + rng.normal(0, 0.3, (400, 600)).cumsum(0) * 0.05) * 18)
        img = np.clip(np.array([120, 80, 50], np.float32) + stripes[..., None], 0, 255).astype(np.uint8)
    return img


def _bounds(points: np.ndarray) -> list[float]:
    return [float(points[:, 0].min()) - 2, float(points[:, 1].min()) - 2, float(points[:, 0].max()) + 2,
            float(points[:, 1].max()) + 2]


@pytest.mark.parametrize("grain", [False, True])
def test_coins_and_chips_are_round_and_backs_are_not(grain: bool) -> None:
    img = _table(grain=grain)
    boxes = []
    cv2.circle(img, (60, 80), 34, (200, 40, 40), -1, cv2.LINE_AA)  # a red chip
    boxes.append([24, 44, 96, 116])
    cv2.ellipse(img, (180, 80), (40, 22), 15, 0, 360, (230, 200, 60), -1, cv2.LINE_AA)  # a coin seen in perspective
    boxes.append(_bounds(cv2.boxPoints(((180, 80), (80, 44), 15))))
    cv2.rectangle(img, (280, 50), (324, 110), (30, 110, 200), -1)  # a blue back, square with the photo
    boxes.append([278, 48, 326, 112])
    turned = cv2.boxPoints(((430, 85), (46, 62), 20))  # a green back turned 20 degrees
    cv2.fillConvexPoly(img, np.round(turned).astype(np.int32), (20, 140, 60), cv2.LINE_AA)
    boxes.append(_bounds(turned))
    # a back seen from a seat: its top, and its ivory side below it (a hexagon's outline, nearly)
    cv2.fillConvexPoly(img, np.int32([[500, 60], [560, 60], [566, 110], [494, 110]]), (200, 120, 30))
    cv2.fillConvexPoly(img, np.int32([[494, 110], [566, 110], [566, 128], [494, 128]]), (235, 230, 215))
    boxes.append([490, 56, 570, 132])
    face = np.int32([[60, 220], [106, 220], [106, 282], [60, 282]])  # a face up: ivory, a red circle on it (a 1p)
    cv2.fillConvexPoly(img, face, (240, 236, 225))
    cv2.circle(img, (83, 251), 18, (200, 40, 40), -1)
    boxes.append([58, 218, 108, 284])
    assert round_boxes(img, np.array(boxes, np.float64)).tolist() == [True, True, False, False, False, False]


def test_a_back_among_its_neighbours_or_at_the_photos_edge_is_not_taken_for_round() -> None:
    img = _table()
    for x in (100, 146, 192):  # a row of backs, touching: each box's margin holds its neighbours
        cv2.rectangle(img, (x, 100), (x + 44, 160), (30, 110, 200), -1)
    cv2.circle(img, (20, 300), 30, (200, 40, 40), -1)  # a chip cut by the photo's edge: no margin to judge it by
    boxes = np.array([[98.0, 98, 146, 162], [144, 98, 192, 162], [0, 268, 52, 332]])
    assert round_boxes(img, boxes).tolist() == [False, False, False]
    assert round_boxes(img, np.zeros((0, 4))).tolist() == []
    assert round_boxes(img, np.array([[10.0, 10, 12, 12]])).tolist() == [False]  # too small to tell


class Boxes:
    """A finder that boxes what it is given, surely."""

    def __init__(self, boxes: np.ndarray) -> None:
        self.found = boxes

    def boxes(self, _rgb: np.ndarray, _imgsz: int, conf: float, _iou: float, _max_det: int) -> tuple:
        return self.found, np.full(len(self.found), 0.9)


class Backs:
    """A classifier that names every crop a back, surely, upright."""

    def run(self, _outputs: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        from vision.names import NAMES

        n = len(feed["crops"])
        p = np.full((n, len(NAMES)), 0.01 / 42, np.float32)
        p[:, NAMES.index("back")] = 0.99
        return [np.log(p), np.tile(np.float32([9, 0, 0, 0]), (n, 1)), np.zeros((n, 8), np.float32)]


def test_the_detector_reads_no_tile_where_a_chip_is_named_a_back() -> None:
    from PIL import Image

    from vision.config import DetectorConfig
    from vision.detector import TileDetector

    img = _table()
    cv2.circle(img, (60, 80), 34, (200, 40, 40), -1, cv2.LINE_AA)
    cv2.rectangle(img, (280, 50), (324, 110), (30, 110, 200), -1)
    boxes = np.array([[24.0, 44, 96, 116], [278, 48, 326, 112]])

    def read(**settings: object) -> list[tuple[str, tuple]]:
        config = DetectorConfig(zoom_imgsz=0, turn_at=0, fine_imgsz=0, zoom_out=1.0, join_halves=False, turns=1,
                                straighten=False, alike=1.0, sharpen_below=0, dim_below=0, soft_below=0,
                                shaken_below=0, rectify_below=0.0, unsure_backs=0.0, backs_by_colour=False,
                                kong_backs=False, **settings)
        found = TileDetector.from_parts(Backs(), crop=32, finder=Boxes(boxes), config=config).detect(
            Image.fromarray(img))
        return [(d.label, d.box) for d in found]

    assert read() == [("back", (278.0, 48.0, 326.0, 112.0))]  # the chip is gone, the back stays
    assert len(read(round_backs=False)) == 2  # the rule off: both
