"""``TileDetector.find``'s looks, with stand-in finders (no weights): the region looked at again, the tiles a later
look lost kept, a hand filling the photo looked at once, a row near 45 degrees turned straight, close-ups shrunk, and
photos of many tiles shown to the set finder."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest


def test_the_finder_looks_again_at_the_tiles_region() -> None:
    from vision.detector import DetectorConfig, TileDetector

    seen: list[tuple[tuple[int, ...], int]] = []

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        seen.append((rgb.shape[:2], imgsz))
        if imgsz == 416:  # the first look: three tiles 20 px wide at x 100..160, y 200..230
            return np.array([[100.0, 200, 120, 230], [120, 200, 140, 230], [140, 200, 160, 230]]), np.ones(3) * 0.9
        return np.array([[30.0, 30, 50, 60]]), np.array([0.8])  # one tile, in the crop's pixels

    # no weights: the finder's two passes with a stand-in network
    det = TileDetector.from_parts(finder=_StandInFinder(predict), config=DetectorConfig(
        imgsz=416, first_imgsz=416, zoom_imgsz=512, zoom_margin=1.0, zoom_out=0))
    boxes, conf = det.find(np.zeros((1000, 800, 3), np.uint8))
    # the region: the three boxes plus one tile size (30 px, the median of their longer sides) on every side
    assert seen == [((1000, 800), 416), ((90, 120), 512)]
    # (30, 30) in the crop, whose corner is (70, 170); the two tiles the first look found surely and the second lost
    # are kept beside it (``first_kept``)
    assert boxes.tolist() == [[100.0, 200.0, 120.0, 230.0], [120, 200, 140, 230], [140, 200, 160, 230]]
    assert conf.tolist() == [0.8, 0.9, 0.9]
    det.config = DetectorConfig(imgsz=416, first_imgsz=416, zoom_imgsz=512, zoom_margin=1.0, zoom_out=0,
                                first_kept=0.95)
    assert det.find(np.zeros((1000, 800, 3), np.uint8))[0].tolist() == [[100.0, 200.0, 120.0, 230.0]]
    det.config = DetectorConfig(first_imgsz=416, zoom_imgsz=0, zoom_out=0)
    seen.clear()
    assert len(det.find(np.zeros((1000, 800, 3), np.uint8))[0]) == 3 and len(seen) == 1


def test_a_tile_lying_alone_that_the_region_look_loses_is_kept() -> None:
    from vision.detector import DetectorConfig, TileDetector

    hand = [[100.0, 200, 120, 230], [120, 200, 140, 230], [140, 200, 160, 230]]

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        if imgsz == 416:  # the first look: the hand's three tiles, a back alone below it (0.6) and a doubtful box
            return np.array([*hand, [110, 300, 130, 330], [160, 300, 175, 320]]), np.array([0.9, 0.9, 0.9, 0.6, 0.35])
        # the region's look (its corner at (70, 170)): the hand's tiles, one boxed as two halves, and not the back
        return (np.array([[30.0, 30, 50, 60], [50, 30, 60, 60], [60, 30, 70, 60], [70, 30, 90, 60]]),
                np.array([0.95, 0.5, 0.5, 0.95]))

    det = TileDetector.from_parts(finder=_StandInFinder(predict), config=DetectorConfig(
        imgsz=416, first_imgsz=416, zoom_imgsz=512, zoom_margin=1.0, zoom_out=0))
    boxes, conf = det.find(np.zeros((1000, 800, 3), np.uint8))
    # the back kept, the doubtful box not (0.35 < first_kept), nor the tile the halves cover
    assert boxes[4:].tolist() == [[110, 300, 130, 330]] and conf[4:].tolist() == [0.6]
    assert len(boxes) == 5


def test_a_tile_alone_that_the_look_turned_straight_loses_is_kept() -> None:
    import cv2

    from vision.detector import DetectorConfig, TileDetector

    # a row of six faces turned 40 degrees, and a back lying alone square to the photo
    photo = np.full((900, 900, 3), 40, np.uint8)
    for k in range(6):
        photo[410:490, 270 + 62 * k:330 + 62 * k] = 230
    photo = cv2.warpAffine(photo, cv2.getRotationMatrix2D((450, 450), 40, 1.0), (900, 900), borderValue=(40, 40, 40))
    photo[760:810, 100:150] = 200
    seen: list[tuple[int, ...]] = []

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        # bright blobs boxed, the surer the more of its box a blob fills; turned straight, the small one is lost
        seen.append(rgb.shape[:2])
        _count, _labels, stats, _centres = cv2.connectedComponentsWithStats((rgb[..., 0] > 128).astype(np.uint8))
        x, y, w, h, area = stats[1:].T
        keep = (area > 3000) | (rgb.shape[0] <= 900)
        return np.stack([x, y, x + w, y + h], 1).astype(np.float64)[keep], (area / (w * h))[keep]

    config = DetectorConfig(imgsz=416, first_imgsz=416, zoom_imgsz=0, zoom_out=0)
    det = TileDetector.from_parts(finder=_StandInFinder(predict), config=config)
    boxes, conf = det.find(photo)
    assert len(seen) == 2 and len(boxes) == 7  # the look turned straight taken: its six faces, and the back kept
    assert boxes[-1].tolist() == [100, 760, 150, 810] and conf[-1] == 1.0
    det.config = DetectorConfig(imgsz=416, first_imgsz=416, zoom_imgsz=0, zoom_out=0, first_kept=1.1)
    assert len(det.find(photo)[0]) == 6


def test_a_hand_that_fills_the_photo_is_looked_at_once() -> None:
    from vision.detector import DetectorConfig
    from vision.finding import CLOSE_HINT, FEW

    seen: list[tuple[tuple[int, ...], int]] = []
    row: list[np.ndarray] = []

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        assert finder is hand
        seen.append((rgb.shape[:2], imgsz))
        return row[0], np.full(len(row[0]), 0.9)

    det, hand, _sets = _two_finders(DetectorConfig(imgsz=416, first_imgsz=512, zoom_imgsz=512, zoom_gain=1.2,
                                                   zoom_margin=1.0, zoom_out=0), predict)
    photo = np.zeros((800, 1000, 3), np.uint8)

    def tiles(n: int, x0: float, side: float) -> np.ndarray:  # a row of n tiles side px wide and high, at y 300
        return np.array([[x0 + side * k, 300, x0 + side * (k + 1), 300 + side] for k in range(n)])

    for found, looks in (
        # a hand across the photo: its region (the whole width with the margins) gains nothing
        (tiles(12, 50, 75), [((800, 1000), 512)]),
        # a hand in a third of the photo: its region (280 px) looked at again, 3.6 times the pixels
        (tiles(12, 360, 20), [((800, 1000), 512), ((60, 280), 512)]),
        # too few tiles, or big ones: perhaps a close-up, looked at again at 416, then its region at 512 (even the
        # whole photo's: 1.23 times the pixels of a look at 416)
        (tiles(FEW - 1, 100, 40), [((800, 1000), 512), ((800, 1000), 416), ((120, 440), 512)]),
        (tiles(FEW, 0, 1000 * CLOSE_HINT + 1), [((800, 1000), 512), ((800, 1000), 416), ((453, 1000), 512)]),
    ):
        row[:] = [found]
        seen.clear()
        det.find(photo)
        assert seen == looks
    seen.clear()
    row[:] = [tiles(12, 10, 20)]
    det.find(np.zeros((300, 450, 3), np.uint8))  # a small photo is not enlarged for its first look
    assert seen[0] == ((300, 450), 450)
    seen.clear()
    det.find(np.zeros((300, 400, 3), np.uint8))  # ... nor looked at smaller than the finder learnt
    assert seen[0] == ((300, 400), 416)


def test_a_row_lying_near_45_degrees_is_looked_at_turned_straight() -> None:
    import cv2

    from vision.detector import DetectorConfig, TileDetector

    # a row of six faces 60 x 80 px, 2 px apart, turned 40 degrees on a dark table
    photo = np.full((900, 900, 3), 40, np.uint8)
    for k in range(6):
        photo[410:490, 270 + 62 * k:330 + 62 * k] = 230
    turn = cv2.getRotationMatrix2D((450, 450), 40, 1.0)
    photo = cv2.warpAffine(photo, turn, (900, 900), borderValue=(40, 40, 40))
    faces = np.array([[270.0 + 62 * k, 410, 330 + 62 * k, 490] for k in range(6)])
    corners = np.stack([faces[:, [0, 1]], faces[:, [2, 1]], faces[:, [2, 3]], faces[:, [0, 3]]], 1)
    turned = corners @ turn[:, :2].T + turn[:, 2]
    truth = np.concatenate([turned.min(1), turned.max(1)], 1)  # each face's box in the photo

    seen: list[tuple[int, ...]] = []

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        # a finder that boxes bright blobs, the surer the more of its box a blob fills (a straight face: all of it)
        seen.append(rgb.shape[:2])
        count, _labels, stats, _centres = cv2.connectedComponentsWithStats((rgb[..., 0] > 128).astype(np.uint8))
        x, y, w, h, area = stats[1:].T
        return np.stack([x, y, x + w, y + h], 1).astype(np.float64), area / (w * h)

    det = TileDetector.from_parts(finder=_StandInFinder(predict),
                                  config=DetectorConfig(imgsz=416, first_imgsz=416, zoom_imgsz=0, zoom_out=0))
    boxes, conf = det.find(photo)
    assert len(seen) == 2 and seen[1][0] > 900  # the photo as it lies, then turned straight on a larger canvas
    assert len(boxes) == 6 and conf.min() > 0.95  # each face boxed alone, its box filled
    found = sorted(boxes.tolist())
    for want, got in zip(sorted(truth.tolist()), found, strict=True):
        assert got == pytest.approx(want, abs=3)  # ... mapped back to the photo: the face's box
    # as it lies, each face fills about half its box; that look is all where the tilt is under turn_at, or with 0
    for turn_at in (45.0, 0.0):
        det.config = DetectorConfig(imgsz=416, first_imgsz=416, zoom_imgsz=0, zoom_out=0, turn_at=turn_at)
        seen.clear()
        assert det.find(photo)[1].max() < 0.7 and len(seen) == 1
    # ... or where it is the surer on average

    def unsure_of_straight(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        boxes, fill = predict(rgb, imgsz, finder)
        return boxes, 1 - fill

    det = TileDetector.from_parts(finder=_StandInFinder(unsure_of_straight), config=DetectorConfig(
        imgsz=416, first_imgsz=416, zoom_imgsz=0, zoom_out=0))
    seen.clear()
    assert det.find(photo)[1].min() > 0.3 and len(seen) == 2
    straight = np.full((900, 900, 3), 40, np.uint8)
    for k in range(6):
        straight[410:490, 270 + 70 * k:330 + 70 * k] = 230
    det = TileDetector.from_parts(finder=_StandInFinder(predict),
                                  config=DetectorConfig(imgsz=416, first_imgsz=416, zoom_imgsz=0, zoom_out=0))
    seen.clear()
    assert len(det.find(straight)[0]) == 6 and len(seen) == 1  # a straight row: one look


def test_a_photo_of_parts_of_tiles_is_looked_at_again_shrunk() -> None:
    from vision.detector import DetectorConfig, TileDetector
    from vision.finding import FELT

    photo = np.full((400, 300, 3), 255, np.uint8)  # a close-up: one white face fills the photo
    first: list[tuple[np.ndarray, np.ndarray]] = []
    canvases: list[np.ndarray] = []
    far_conf = [0.8]

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        if rgb.shape[:2] == photo.shape[:2]:
            return first[0]
        canvases.append(rgb)  # the photo shrunk 4 times, 104 x 78 px, in the middle of 416 x 312 px of felt
        return np.array([[117.0, 156, 195, 260]]), np.array(far_conf)  # the face, as a hand's tile

    # no weights: a stand-in network
    det = TileDetector.from_parts(finder=_StandInFinder(predict),
                                  config=DetectorConfig(imgsz=416, zoom_imgsz=0, zoom_out=4.0))
    glyphs = (np.array([[50.0, 60, 150, 160], [150, 200, 250, 300]]), np.array([0.5, 0.4]))
    for found, far in ((glyphs, True), ((np.zeros((0, 4)), np.zeros(0)), True),
                       ((glyphs[0], np.array([0.9, 0.4])), True),  # its surest box surer, the far look on average
                       ((glyphs[0], np.array([0.9, 0.75])), False),  # the first look surer on average: kept
                       ((glyphs[0], np.array([0.8, 0.8])), False)):  # as sure: kept
        first[:] = [found]
        canvases.clear()
        boxes, conf = det.find(photo)
        assert len(canvases) == 1 and canvases[0].shape == (416, 312, 3)
        assert (canvases[0][:156] == FELT).all() and (canvases[0][156:260, 117:195] == 255).all()
        if far:  # the face mapped back to the photo: all of it
            assert boxes.tolist() == [[0.0, 0.0, 300.0, 400.0]] and conf.tolist() == [0.8]
        else:
            assert boxes.tolist() == found[0].tolist()
    far_conf[:] = [0.5]  # a shrunk box the finder is unsure of is no tile (an empty table's pattern, say)
    first[:] = [(np.zeros((0, 4)), np.zeros(0))]
    assert det.find(photo)[0].tolist() == [] and len(canvases) == 2
    first[:] = [(np.tile([[50.0, 60, 120, 130]], (10, 1)), np.full(10, 0.5))]  # as many tiles as a hand: no second
    canvases.clear()                                                              # look, their side 70 < 0.2 * 400
    assert len(det.find(photo)[0]) == 10 and canvases == []
    first[:], far_conf[:] = [(np.tile(glyphs[0][:1], (10, 1)), np.full(10, 0.5))], [0.8]  # side 100: a close-up
    assert det.find(photo)[0].tolist() == [[0.0, 0.0, 300.0, 400.0]] and len(canvases) == 1


def _table(first: tuple[list, float], fine: tuple[int, float, float], far: float | None = None
           ) -> Callable[[np.ndarray, int, object], tuple[np.ndarray, np.ndarray]]:
    """A finder's answers on a photo 1600 x 1200 px of a table: at 512 px (and 416) the ``first`` look's boxes and
    their confidence; at 1024 ``fine``: that many boxes of that side (photo px) and confidence; the canvas of a
    close-up's look shrunk (``far``): one box of that confidence."""

    def answer(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        if imgsz == 1024:
            n, side, conf = fine
            xy = np.array([[60.0 + 40 * (k % 30), 100.0 + 60 * (k // 30)] for k in range(n)])
            return np.hstack([xy, xy + side]), np.full(n, conf)
        if rgb.shape[:2] != (1200, 1600):
            return np.array([[10.0, 10, 40, 50]]), np.array([far or 0.0])
        boxes, conf = first
        return np.array(boxes, float), np.full(len(boxes), conf)

    return answer


def test_a_table_of_small_tiles_is_looked_at_finer() -> None:
    from vision.detector import DetectorConfig, TileDetector

    photo = np.zeros((1200, 1600, 3), np.uint8)
    config = DetectorConfig(zoom_imgsz=0, zoom_out=0, set_tiles=0, turn_at=0, unsure_backs=0)
    blobs = [[100.0 + 300 * k, 300, 250 + 300 * k, 450] for k in range(4)]
    sizes: list[int] = []

    def find(first: tuple[list, float], fine: tuple[int, float, float], far: float | None = None,
             **settings: object) -> tuple[int, float]:
        answer = _table(first, fine, far)

        def seen(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
            sizes.append(imgsz)
            return answer(rgb, imgsz, finder)

        sizes.clear()
        det = TileDetector.from_parts(finder=_StandInFinder(seen), config=DetectorConfig(**{
            **{f: getattr(config, f) for f in ("zoom_imgsz", "zoom_out", "set_tiles", "turn_at", "unsure_backs")},
            **settings}))
        boxes, conf = det.find(photo)
        return len(boxes), round(float(conf.mean()), 2)

    # the first look boxes four blocks of tiles, unsurely (fewer than a hand: seen again at 416, as close-ups are);
    # at 1024 the finder boxes 90 tiles 24 px wide, surer
    assert find((blobs, 0.45), (90, 24, 0.7)) == (90, 0.7) and sizes == [512, 416, 1024]
    assert find((blobs, 0.45), (90, 24, 0.7), fine_imgsz=0) == (4, 0.45) and sizes == [512, 416]
    # not surer by FINE_GAIN, or big boxes (parts of a close-up's tiles): not taken
    assert find((blobs, 0.45), (90, 24, 0.46)) == (4, 0.45)
    assert find((blobs, 0.45), (90, 120, 0.7)) == (4, 0.45)
    # a first look sure of its tiles: no finer look
    assert find((blobs, 0.7), (90, 24, 0.9)) == (4, 0.7) and sizes == [512, 416]
    # a photo smaller than the finer look: none
    assert find((blobs, 0.45), (90, 24, 0.7), fine_imgsz=2048) == (4, 0.45) and sizes == [512, 416]
    # the blocks taken for a close-up's big tiles, its look shrunk keeping one tile surely (0.8): the finer look's
    # 90 tiles are less sure than that one, but surer than the first look, and many: taken
    close = {"zoom_out": 5.0, "set_tiles": 32}
    assert find((blobs, 0.45), (90, 24, 0.62), far=0.8, **close) == (90, 0.62)
    assert find((blobs, 0.45), (20, 24, 0.62), far=0.8, **close) == (1, 0.8)  # fewer than set_tiles
    # ... however unsure: the first look's blocks say nothing of the tiles (less sure than them by 0.05 now)
    assert find((blobs, 0.45), (90, 24, 0.40), far=0.8, **close) == (90, 0.4)


def _coordinates(h: int, w: int) -> np.ndarray:
    """A photo whose every pixel tells where it lies (x and y, under 4096), so that a stand-in finder knows which part
    of the photo it is shown."""
    y, x = np.mgrid[:h, :w]
    return np.stack([x % 256, y % 256, (x // 256) * 16 + y // 256], 2).astype(np.uint8)


def _where(rgb: np.ndarray) -> tuple[int, int]:
    """The photo's (x, y) of the top-left pixel of ``rgb``, a part of a ``_coordinates`` photo."""
    r, g, b = (int(v) for v in rgb[0, 0])
    return r + 256 * (b // 16), g + 256 * (b % 16)


def test_a_whole_table_is_looked_at_in_slices() -> None:
    from vision.detector import DetectorConfig, TileDetector

    photo = _coordinates(1200, 1600)
    # a table's walls: a ring of 98 tiles 20 x 28 px around a square 600 px a side, mostly empty
    rows = [[500.0 + 20 * k, y, 520 + 20 * k, y + 28] for y in (300, 872) for k in range(30)]
    cols = [[x, 328.0 + 28 * k, x + 20, 356 + 28 * k] for x in (500, 1080) for k in range(19)]
    table = np.array(rows + cols)
    grid = np.array([[500.0 + 20 * i, 300 + 28 * j, 520 + 20 * i, 328 + 28 * j] for i in range(10) for j in range(10)])
    looks: list[tuple[tuple[int, int], int]] = []

    def finder(tiles: np.ndarray, whole: int) -> Callable[[np.ndarray, int, object], tuple[np.ndarray, np.ndarray]]:
        """The whole photo's look finds the first ``whole`` tiles (0.7); a part's, every tile in it, cut to it."""

        def answer(rgb: np.ndarray, imgsz: int, _: object) -> tuple[np.ndarray, np.ndarray]:
            x, y = _where(rgb)
            looks.append(((x, y), imgsz))
            if rgb.shape[:2] == photo.shape[:2]:
                return tiles[:whole], np.full(whole, 0.7)
            h, w = rgb.shape[:2]
            inside = np.clip(tiles - [x, y, x, y], 0, [w, h, w, h])
            seen = (inside[:, 2] - inside[:, 0] > 4) & (inside[:, 3] - inside[:, 1] > 4)
            return inside[seen], np.full(seen.sum(), 0.8)

        return answer

    def find(tiles: np.ndarray, whole: int, **settings: object) -> np.ndarray:
        looks.clear()
        config = DetectorConfig(zoom_out=0, turn_at=0, zoom_gain=100.0, **settings)  # no region look: slices alone
        return TileDetector.from_parts(finder=_StandInFinder(finder(tiles, whole)), config=config).find(photo)[0]

    # the walls across (60 tiles) found by the look at the whole photo; the four slices find all 98, each tile once
    # (those a slice's inner edge cuts are its neighbour's)
    boxes = find(table, 60)
    assert sorted(map(tuple, boxes.tolist())) == sorted(map(tuple, table.tolist()))
    assert [size for _, size in looks] == [512] * 5 and len({where for where, _ in looks[1:]}) == 4
    assert len(find(table, 60, table_slices=0)) == 60 and len(looks) == 1  # not asked
    assert len(find(table, 20)) == 20 and len(looks) == 1  # fewer than set_tiles: no table
    # a set laid out, its tiles filling their region: left as found
    assert len(find(grid, 100)) == 100 and len(looks) == 1
    # tiles big in the slices (69 px: a set's, seen close): not taken
    assert len(find(table, 60, zoom_imgsz=1280)) == 60 and [size for _, size in looks] == [512] + [1280] * 4


class _StandInFinder:
    """A finder network's stand-in: ``answer(rgb, imgsz, finder)`` gives its boxes and confidences, ``finder`` being
    this stand-in (so that one answer can tell two finders apart)."""

    def __init__(self, answer: Callable[[np.ndarray, int, object], tuple[np.ndarray, np.ndarray]]) -> None:
        self.answer = answer

    def boxes(self, rgb: np.ndarray, imgsz: int, conf: float, iou: float, max_det: int) -> tuple[np.ndarray, ...]:
        return self.answer(rgb, imgsz, self)


def _two_finders(config: object, answer: Callable[[np.ndarray, int, object], tuple[np.ndarray, np.ndarray]]
                 ) -> tuple[object, object, object]:
    """A detector without weights whose tile finder and set finder are stand-ins that ``answer``: the detector, its
    tile finder and its set finder."""
    from vision.detector import TileDetector

    hand, sets = _StandInFinder(answer), _StandInFinder(answer)
    return TileDetector.from_parts(finder=hand, set_finder=sets, config=config), hand, sets


def test_a_close_up_of_several_touching_tiles_is_boxed_by_the_set_finder() -> None:
    from vision.detector import DetectorConfig
    from vision.finding import CLOSE, CLOSE_ZOOMS, FELT

    photo = np.zeros((800, 600, 3), np.uint8)
    first: list[tuple[np.ndarray, np.ndarray]] = []
    far: dict[object, list] = {}
    seen: list[tuple[str, float]] = []

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        if rgb.shape[:2] == photo.shape[:2]:
            return first[0]
        shown = int((rgb != FELT).any(2).any(1).sum())  # the photo's rows in the canvas: 416 / times
        times = round(416 / shown, 1)
        name = "hand" if finder is hand else "set"
        k = len([s for s in seen if s[0] == name])
        seen.append((name, times))
        boxes, conf = far[finder][k]
        return np.asarray(boxes, np.float64).reshape(-1, 4), np.asarray(conf, np.float64)

    det, hand, sets = _two_finders(DetectorConfig(imgsz=416, zoom_imgsz=0, zoom_out=5.0), predict)
    pair = [[150.0, 150, 250, 250], [170, 170, 240, 240]]  # boxes in the canvas, in its middle
    one = [[160.0, 160, 240, 240]]
    for found, hand_far, set_looks, want in (
        # parts of one tile: the hand finder's single tile, the set finder not asked
        ((np.zeros((0, 4)), np.zeros(0)), (one, [0.8]), None, "hand"),
        # two tiles from afar: the set finder's looks, the surest on average (its second) taken
        ((np.zeros((0, 4)), np.zeros(0)), (pair, [0.9, 0.9]),
         [(pair, [0.7, 0.6]), (pair + one, [0.9, 0.8, 0.85]), (one, [0.5])], "set1"),
        # many big tiles found: the set finder even though the hand finder sees one from afar
        ((np.tile([[0.0, 0, 200, 250]], (10, 1)), np.full(10, 0.4)), (one, [0.9]),
         [(pair, [0.75, 0.75]), (pair, [0.5, 1.0]), (one, [0.55])], "set0"),  # as sure on average: the first
        # no set look sure of a box: the hand finder's
        ((np.zeros((0, 4)), np.zeros(0)), (pair, [0.9, 0.7]), [(pair, [0.5, 0.5])] * 3, "hand"),
    ):
        first[:] = [found]
        seen.clear()
        far.clear()
        far[hand], far[sets] = [hand_far], set_looks or []
        boxes, conf = det.find(photo)
        assert seen == [("hand", 5.0)] + ([("set", k) for k in CLOSE_ZOOMS] if set_looks else [])
        want_conf = hand_far[1] if want == "hand" else set_looks[int(want[-1])][1]
        assert conf.tolist() == want_conf
    assert 250 > CLOSE * 800  # the ten tiles found first are big: a side more than CLOSE of the photo's long side


def test_a_photo_of_many_unsure_tiles_is_shown_to_the_set_finder() -> None:
    from vision.detector import DetectorConfig
    from vision.finding import SET_PROBE, SET_UNSURE

    photo = np.zeros((1200, 1600, 3), np.uint8)
    asked: list[tuple[str, int]] = []
    found: dict[object, int] = {}
    sure: dict[object, float] = {}

    def predict(rgb: np.ndarray, imgsz: int, finder: object) -> tuple[np.ndarray, np.ndarray]:
        asked.append(("hand" if finder is hand else "set", imgsz))
        n = found[finder]  # a row of small tiles, 20 px apart
        boxes = np.array([[100.0 + 20 * k, 500, 118 + 20 * k, 524] for k in range(n)])
        return boxes, np.full(n, sure[finder])

    # (the stand-in boxes the same pixels of every crop it is shown: no first look's tile kept beside a later one's)
    # (and no finer look: ``test_a_table_of_small_tiles_is_looked_at_finer``)
    det, hand, sets = _two_finders(DetectorConfig(zoom_imgsz=512, zoom_out=5.0, set_tiles=32, first_kept=1.1,
                                                  fine_imgsz=0), predict)
    for n_hand, p_hand, n_set, want in ((28, SET_UNSURE - 0.1, 140, "set"),  # a set of small tiles: the set finder's
                                        (28, SET_UNSURE - 0.1, 25, "hand"),  # a hand, unsure: the set finder asked
                                        (28, SET_UNSURE + 0.1, 140, "hand"),  # a hand, sure: not asked
                                        (SET_PROBE - 1, 0.3, 140, "hand")):  # too few tiles to be asked
        found.update({hand: n_hand, sets: n_set})
        sure.update({hand: p_hand, sets: 0.8})
        asked.clear()
        boxes, _ = det.find(photo)
        assert len(boxes) == (n_set if want == "set" else n_hand)
        probed = n_hand >= SET_PROBE and p_hand < SET_UNSURE
        # the set finder's first look is taken once: its second look is the zoomed one
        assert asked == [("hand", 512), ("hand", 512)] + ([("set", 416)] if probed else []) + (
            [("set", 512)] if want == "set" else [])
