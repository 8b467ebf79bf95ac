"""A tile the finder missed in a row (``vision/gaps.py``): the one-tile gaps of a row that goes on beyond them, and
the box the finder was unsure of that fills one."""

from __future__ import annotations

import numpy as np
import pytest

from vision.gaps import gap_boxes, row_gaps


def _row(xs: list[float], y: float = 0.0, w: float = 60.0, h: float = 80.0) -> np.ndarray:
    return np.array([[x, y, x + w, y + h] for x in xs])


def test_a_tile_missing_in_a_row_leaves_a_gap_at_its_place() -> None:
    row = _row([0, 60, 120, 240, 300])  # 180 missing
    assert row_gaps(row).tolist() == [[210.0, 40.0]]
    # a row down the photo, and one turned a little: the gap where the tile stood
    down = np.array([[0.0, y, 80, y + 60] for y in (0, 60, 180, 240)])
    assert row_gaps(down).tolist() == [[40.0, 150.0]]
    turned = np.array([[x, 0.1 * x, x + 60, 0.1 * x + 80] for x in (0.0, 60, 180, 240)])
    assert row_gaps(turned).round(1).tolist() == [[150.0, 52.0]]


@pytest.mark.parametrize("xs", [
    [0, 60, 120, 240],  # the gap at the row's end: a winning tile set apart
    [0, 60, 120, 150, 240, 300],  # a box between: no gap
    [0, 60, 120, 270, 330],  # two tiles and a half apart: groups of a row
    [0, 60, 120, 170, 230],  # a tile apart less a sliver: groups of a row
])
def test_no_gap_where_no_tile_is_missing_in_the_row(xs: list[float]) -> None:
    assert row_gaps(_row(xs)).tolist() == []


def test_tiles_of_other_sizes_or_out_of_line_leave_no_gap() -> None:
    row = _row([0, 60, 120, 240, 300])
    bigger = row.copy()
    bigger[3] = [240, 0, 330, 120]  # half as big again
    assert row_gaps(bigger).tolist() == []
    beyond = row.copy()
    beyond[4] = [300, 60, 360, 140]  # the next tile beyond, out of line by 60
    assert row_gaps(beyond).tolist() == []


def test_the_box_that_fills_a_gap_is_centred_in_it_as_big_as_the_tiles_and_covering_little() -> None:
    row = _row([0, 60, 120, 240, 300])
    gaps = row_gaps(row)
    low = np.array([
        [186.0, 6, 246, 86],   # the missing tile, boxed a little off
        [180, 0, 240, 80],     # ... and boxed again, in its place: the nearer one is taken
        [195, 20, 225, 50],    # a part of it
        [150, 0, 210, 80],     # over half a neighbour
        [500, 0, 560, 80],     # elsewhere
    ])
    assert gap_boxes(gaps, row, low).tolist() == [1]
    assert gap_boxes(gaps, row, low[[0, 2, 3, 4]]).tolist() == [0]
    assert gap_boxes(gaps, row, low[2:]).tolist() == []
    assert gap_boxes(np.zeros((0, 2)), row, low).tolist() == []


class RowFinder:
    """A finder that boxes a row of tiles but the sixth surely, and the sixth too at 0.2 when asked down to 0.1 (the
    look again); it counts the looks again."""

    def __init__(self, row: np.ndarray, missing: int | None = 5) -> None:
        self.row, self.missing, self.again = row, missing, 0

    def boxes(self, _rgb: np.ndarray, _imgsz: int, conf: float, _iou: float, _max_det: int) -> tuple:
        keep = np.arange(len(self.row)) != self.missing
        if conf > 0.15:
            return self.row[keep], np.full(int(keep.sum()), 0.9)
        self.again += 1
        return self.row, np.where(keep, 0.9, 0.2)


class Sure:
    """A classifier that names every crop 1m, ``sure`` sure, upright."""

    def __init__(self, sure: float) -> None:
        self.sure = sure

    def run(self, _outputs: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        n = len(feed["crops"])
        p = np.full((n, 43), (1 - self.sure) / 42, np.float32)
        p[:, 0] = self.sure
        return [np.log(p), np.tile(np.float32([9, 0, 0, 0]), (n, 1)), np.zeros((n, 8), np.float32)]


def test_the_detector_reads_the_tile_its_finder_missed_in_a_row_where_it_is_named_a_face_surely() -> None:
    from PIL import Image

    from vision.config import DetectorConfig
    from vision.detector import TileDetector

    row = np.array([[20.0 + 60 * i, 100, 80 + 60 * i, 180] for i in range(12)])  # a hand's row: 11 boxes found
    photo = Image.fromarray(np.random.default_rng(3).integers(0, 255, (300, 780, 3), np.uint8))

    def read(sure: float = 0.95, missing: int | None = 5, **settings: object) -> tuple[int, int]:
        finder = RowFinder(row, missing)
        config = DetectorConfig(zoom_imgsz=0, turn_at=0, fine_imgsz=0, zoom_out=1.0, join_halves=False, turns=1,
                                straighten=False, alike=1.0, sharpen_below=0, dim_below=0, soft_below=0,
                                shaken_below=0, rectify_below=0.0, **settings)
        found = TileDetector.from_parts(Sure(sure), crop=32, finder=finder, config=config).detect(photo)
        return len(found), finder.again

    assert read() == (12, 1)  # the sixth tile read
    assert read(sure=0.6) == (11, 1)  # named unsurely: not a tile
    assert read(gap_sure=1.0) == (11, 0)  # the rule off: not looked for
    assert read(missing=None) == (12, 0)  # no gap: not looked again
    assert read(missing=0) == (11, 0)  # the first tile missing: a tile set apart, no gap
