"""vision.detect and its parts: the finder's looks, the classifier's turns, the readers, sideways, and the shipped
weights on a fresh photo (image loading and crops: test_image.py, test_crops.py)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import vision
from vision.detection import Detection
from vision.errors import ModelNotFoundError
from vision.image import load_image

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = all((MODELS / f).exists()
              for f in ("tile_finder.onnx", "tile_classifier.onnx", "flower_reader.onnx", "character_reader.onnx"))
RAW = Path(__file__).resolve().parents[3] / "shared" / "real" / "camerash" / "raw-images"


def test_missing_weights_raise_model_not_found(tmp_path: Path) -> None:
    from vision.detector import TileDetector

    with pytest.raises(ModelNotFoundError) as info:
        TileDetector(tmp_path / "none.pt", tmp_path / "none.onnx")
    assert info.value.code == "model_not_found"
    if SHIPPED:
        with pytest.raises(ModelNotFoundError, match="none.onnx"):
            TileDetector(readers=[tmp_path / "none.onnx"])
        with pytest.raises(ModelNotFoundError, match="tile_classifier.onnx is no reader: its metadata names no tiles"):
            TileDetector(readers=[MODELS / "tile_classifier.onnx"])  # the classifier passed as a reader
        with pytest.raises(ModelNotFoundError, match="tile_finder.pt is no ONNX model ONNX Runtime can load"):
            TileDetector(MODELS / "tile_finder.pt")  # the finder's PyTorch weights: detection runs its export
        with pytest.raises(ModelNotFoundError, match="tile_classifier.onnx is no tile finder: it takes"):
            TileDetector(MODELS / "tile_classifier.onnx")


def test_detection_is_frozen() -> None:
    d = Detection("5m", 0.9, (1.0, 2.0, 3.0, 4.0), False)
    with pytest.raises(AttributeError):
        d.label = "6m"  # type: ignore[misc]


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
@pytest.mark.parametrize("size", [(1, 1), (1, 5000), (5000, 1), (3, 600), (470, 480), (600, 800)])
def test_a_photo_of_any_shape_is_read(size: tuple[int, int]) -> None:
    buf = io.BytesIO()  # blank: no tile (a photo a pixel wide was shrunk, for a close-up's far look, to 0 px wide)
    Image.new("RGB", size, (90, 120, 90)).save(buf, "PNG")
    assert vision.detect(buf.getvalue()) == []


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area if area > 0 else 0.0


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
def test_detect_finds_the_tiles_of_a_fresh_photo(art_dir: Path) -> None:
    from training import synth

    styles = synth.load_styles(art_dir, include=["fluffy"] if (art_dir / "fluffy").exists() else None)
    found = read = total = 0
    for index in range(3):
        jpg, _lines, layout = synth.make_scene(synth.SceneSpec(index, 99, "test", 2.0, 3.0), styles)
        dets = vision.detect(jpg)
        assert all(isinstance(d, Detection) and d.label in synth.NAMES for d in dets)
        for t in (t for t in layout["tiles"] if t["visible"] >= 0.6):
            best = max(dets, key=lambda d: _iou(d.box, tuple(t["box"])), default=None)
            total += 1
            if best is not None and _iou(best.box, tuple(t["box"])) >= 0.5:
                found += 1
                read += best.label == t["label"]
    assert found / total >= 0.9, (found, total)
    assert read / total >= 0.8, (read, total)


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
def test_a_set_laid_out_is_looked_at_by_the_set_finder(art_dir: Path) -> None:
    from training import synth
    from vision.detector import DetectorConfig, TileDetector

    styles = synth.load_styles(art_dir, include=["fluffy"] if (art_dir / "fluffy").exists() else None)
    jpg, _lines, layout = synth.make_scene(synth.SceneSpec(1, 5, "test", 2.0, 2.0, sets=1.0), styles)
    truth = [tuple(t["box"]) for t in layout["tiles"] if t["visible"] >= 0.6]
    assert len(truth) >= 40  # more than any hand shows

    def found(det: TileDetector) -> int:
        boxes = [d.box for d in det.detect(jpg)]
        return sum(max(_iou(b, t) for b in boxes) >= 0.5 for t in truth)

    det = TileDetector(readers=())
    routed = found(det)
    hand_finder_alone = found(TileDetector(readers=(), set_finder=None))
    assert routed >= 0.8 * len(truth) and routed > 2 * hand_finder_alone, (routed, hand_finder_alone)
    never = TileDetector(readers=(), config=DetectorConfig(set_tiles=0))
    assert found(never) == hand_finder_alone
    with pytest.raises(ModelNotFoundError, match="none.onnx"):
        TileDetector(set_finder=art_dir / "none.onnx")


@pytest.mark.skipif(not SHIPPED or not RAW.exists(), reason="no shipped weights, or ../shared/real not beside")
def test_a_real_close_up_of_touching_tiles_is_read_tile_by_tile() -> None:
    from vision.detector import TileDetector

    # camerash's 1-6.jpg: 16 tiles in four rows of four, touching, each a quarter of the photo wide; read by eye,
    # row by row (some upside down). The finder alone boxed one (5f) at any zoom, or pairs of tiles
    rows = [["6p", "2p", "2p", "4z"], ["6s", "4m", "4m", "5m"], ["3p", "2z", "3p", "5p"], ["5m", "3s", "3p", "2z"]]
    dets = TileDetector().detect(RAW / "1-6.jpg")
    assert len(dets) == 16
    by_row = sorted(dets, key=lambda d: d.box[1] + d.box[3])
    read = [[d.label for d in sorted(by_row[4 * r:4 * r + 4], key=lambda d: d.box[0])] for r in range(4)]
    assert read == rows


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
def test_the_onnx_finder_boxes_as_ultralytics_boxes_with_its_pytorch_weights(art_dir: Path) -> None:
    import onnxruntime as ort
    from ultralytics import YOLO

    from training import synth
    from vision.detector import FINDER_WEIGHTS, MODELS, DetectorConfig
    from vision.finder import Finder

    c = DetectorConfig()
    finder = Finder(ort.InferenceSession(str(FINDER_WEIGHTS), providers=["CPUExecutionProvider"]), FINDER_WEIGHTS)
    torch_finder = YOLO(str(MODELS / "tile_finder.pt"), task="detect")
    styles = synth.load_styles(art_dir, include=["fluffy"] if (art_dir / "fluffy").exists() else None)
    jpg = synth.make_scene(synth.SceneSpec(0, 7, "test", 3.0, 3.0), styles)[0]
    rgb, _ = load_image(jpg, c.work_side)
    for imgsz in (416, 512):  # the letterbox, the network and the suppression: ultralytics' boxes, best first
        boxes, conf = finder.boxes(rgb, imgsz, c.conf, c.iou, c.max_det)
        r = torch_finder.predict(np.ascontiguousarray(rgb[..., ::-1]), conf=c.conf, iou=c.iou,
                                 imgsz=imgsz, agnostic_nms=True, verbose=False, max_det=c.max_det,
                                 device="cpu")[0]
        assert len(boxes) >= 5
        assert boxes == pytest.approx(r.boxes.xyxy.numpy(), abs=0.05)
        assert conf == pytest.approx(r.boxes.conf.numpy(), abs=1e-4)


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
    from vision.detector import CLOSE_HINT, FEW, DetectorConfig

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
    from vision.detector import FELT, DetectorConfig, TileDetector

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


def test_each_crop_is_named_from_its_turns() -> None:
    from vision.detector import NAMES, DetectorConfig, TileDetector

    class Session:  # a stand-in classifier: "1m" for an upright crop, "2m" for any turned one
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            x = feeds["crops"]
            self.batches.append(len(x))
            self.crops.append(x)
            upright = x[:, 0, 0, 0] > 0.5  # the crop's top-left pixel is white only when upright
            logits = np.full((len(x), len(NAMES)), -20.0)
            logits[upright, 0], logits[~upright, 1] = 20.0, 20.0
            return [logits, np.tile([0.0, 0.0, 5.0, 0.0], (len(x), 1)), _unlike(len(x))]

    session = Session()
    det = TileDetector.from_parts(session, crop=64)
    img = np.zeros((64, 64, 3), np.uint8)
    img[:8, :8] = 255
    box = np.array([[0.0, 0.0, 64 / 1.15, 64 / 1.15]])
    # the second batch: its turns by 90 (180, 270) degrees, and its upright view (a half turn: bin 2) if not among
    # them; when the up head is sure (0.98 here, ``upright_sure``), the upright view first, and it is also the look's
    for turns, upright_sure, want, second, first_turn in (
        (4, 1.01, [0.25, 0.75], 3, 1), (2, 1.01, [0.5, 0.5], 2, 1), (1, 1.01, [1.0, 0.0], 1, 2),
        (4, 0.8, [0.25, 0.75], 3, 2), (2, 0.8, [0.5, 0.5], 1, 2), (2, 0.99, [0.5, 0.5], 2, 1),
    ):
        det.config = DetectorConfig(turns=turns, turn_sure=1.01, upright_sure=upright_sure)
        session.batches, session.crops = [], []
        p, up = det.classify(img, box)
        assert p[0, :2].tolist() == pytest.approx(want) and session.batches == [1, second]
        first, again = session.crops
        assert np.array_equal(again[0], np.rot90(first[0], first_turn, axes=(1, 2)))
        assert up.argmax(1).tolist() == [2] and up.sum() == pytest.approx(1.0)
    # named surely as it lies (1m, at 1.0): not turned again but for its look (upright), its names kept
    det.config, session.batches, session.crops = DetectorConfig(turns=4), [], []
    p, _ = det.classify(img, box)
    assert p[0, :2].tolist() == pytest.approx([1.0, 0.0]) and session.batches == [1, 1]
    det.config, session.batches = DetectorConfig(turns=4, alike=1.01), []  # no agreement: no look's view
    det.classify(img, box)
    assert session.batches == [1]
    with pytest.raises(ValueError, match="turns"):
        DetectorConfig(turns=0)


def _unlike(n: int) -> np.ndarray:
    """Looks of ``n`` crops no two of which are alike (orthogonal)."""
    return np.eye(n, 128, dtype=np.float32)


def _stand_in_classifier(flower: float, up_bin: int) -> object:
    """Every crop: "1p" with 1 - ``flower``, "7f" with ``flower``; the art's up at ``up_bin``."""
    from vision.detector import NAMES

    class Session:
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            n = len(feeds["crops"])
            p = np.full((n, len(NAMES)), 1e-9)
            p[:, NAMES.index("1p")], p[:, NAMES.index("7f")] = 1 - flower, flower
            return [np.log(p), np.tile(np.eye(4)[up_bin] * 9, (n, 1)), _unlike(n)]

    return Session()


class _StandInReader:
    """A flower reader: 7f (reader id 6) when the crop's top-left corner is white, i.e. it was turned upright; else
    2f."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def get_inputs(self) -> list:
        return [type("Input", (), {"shape": ["n", 3, 64, 64]})()]

    def get_modelmeta(self) -> object:
        return type("Meta", (), {"custom_metadata_map": {"names": "1f,2f,3f,4f,5f,6f,7f,8f,other"}})()

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        x = feeds["crops"]
        self.batches.append(len(x))
        upright = x[:, 0, 2, 2] > 0.5
        names = np.full((len(x), 9), -9.0)
        names[upright, 6], names[~upright, 1] = 9.0, 9.0
        return [names, np.zeros((len(x), 4))]


def test_the_flower_reader_reads_likely_flowers_turned_upright() -> None:
    from vision.detector import NAMES, DetectorConfig, TileDetector
    from vision.readers import Reader

    reader = _StandInReader()

    def detector(classifier: object) -> TileDetector:
        return TileDetector.from_parts(classifier, crop=64, readers=[Reader.load(reader, Path("r.onnx"))],
                                       config=DetectorConfig(turns=1))

    img = np.zeros((64, 64, 3), np.uint8)
    img[:8, -8:] = 255  # the art's top-left corner, its up pointing right (bin 1): at the image's top right
    box = np.array([[0.0, 0.0, 64 / 1.15, 64 / 1.15]])
    p, _ = detector(_stand_in_classifier(0.3, 1)).classify(img, box)
    # read upright (7f), averaged half and half with the classifier's 1p 0.7 / 7f 0.3
    assert NAMES[int(p.argmax())] == "7f" and p[0, NAMES.index("7f")] == pytest.approx(0.65, abs=1e-3)
    assert p[0, NAMES.index("1p")] == pytest.approx(0.35, abs=1e-3) and p.sum() == pytest.approx(1.0)
    assert reader.batches == [1]
    p, _ = detector(_stand_in_classifier(0.1, 1)).classify(img, box)  # hardly a flower: not read again
    assert NAMES[int(p.argmax())] == "1p" and reader.batches == [1]
    with pytest.raises(ValueError, match="reader_weight"):
        DetectorConfig(reader_weight=1.5)


class _Meta:
    """An ONNX session's stand-in that names ``names`` in its metadata and answers ``pick`` (an output id)."""

    def __init__(self, names: str, pick: int = 0) -> None:
        self.names, self.pick, self.batches = names, pick, []

    def get_modelmeta(self) -> object:
        return type("Meta", (), {"custom_metadata_map": {"names": self.names} if self.names else {}})()

    def get_inputs(self) -> list:
        return [type("Input", (), {"shape": ["n", 3, 64, 64]})()]

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.batches.append(len(feeds["crops"]))
        names = np.full((len(feeds["crops"]), len(self.names.split(","))), -20.0)
        names[:, self.pick] = 20.0
        return [names, np.zeros((len(names), 4))]


def test_a_reader_is_known_by_the_names_in_its_metadata() -> None:
    from vision.detector import NAMES
    from vision.readers import MARK_NAMES, Reader

    characters = ",".join(f"{n}m" for n in range(1, 10)) + ",other"
    reader = Reader.load(_Meta(characters), Path("m.onnx"))
    assert [NAMES[i] for i in reader.ids] == [f"{n}m" for n in range(1, 10)] and reader.side == 64
    # the flower reader, whose up head tells the caption reader which end to read; the mark reader names no tile
    flowers = Reader.load(_Meta(",".join(f"{n}f" for n in range(1, 9)) + ",other"), Path("f.onnx"))
    marks = Reader.load(_Meta(",".join(MARK_NAMES)), Path("mark.onnx"))
    assert (reader.flowers, flowers.flowers, marks.flowers) == (False, True, False)
    for bad in ("", "other", "1m,2m", "1m,1m,other", "1m,9x,other"):
        with pytest.raises(ModelNotFoundError, match="m.onnx is no reader"):
            Reader.load(_Meta(bad), Path("m.onnx"))


def test_each_reader_reads_only_the_tiles_that_may_be_of_its_family() -> None:
    from vision.detector import NAMES, DetectorConfig, TileDetector
    from vision.readers import Reader

    class Classifier:  # 6m 0.6, 5m 0.4 for every crop, upright
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 1e-9)
            p[:, NAMES.index("6m")], p[:, NAMES.index("5m")] = 0.6, 0.4
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), _unlike(len(p))]

    flowers = _Meta(",".join(f"{n}f" for n in range(1, 9)) + ",other", pick=6)  # 7f, surely
    characters = _Meta(",".join(f"{n}m" for n in range(1, 10)) + ",other", pick=4)  # 5m, surely
    readers = [Reader.load(flowers, Path("f.onnx")), Reader.load(characters, Path("m.onnx"))]
    det = TileDetector.from_parts(Classifier(), crop=64, readers=readers, config=DetectorConfig(turns=1))
    boxes = np.array([[0.0, 0.0, 30.0, 30.0], [30.0, 30.0, 60.0, 60.0]])
    p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
    assert flowers.batches == [] and characters.batches == [2]  # no flower probability: the flower reader not asked
    # 5m: half the classifier's 0.4, half the reader's 1.0
    assert [NAMES[int(k)] for k in p.argmax(1)] == ["5m", "5m"] and p[:, NAMES.index("5m")] == pytest.approx(0.7)
    for config in (DetectorConfig(turns=1, reader_gate=1.01),  # above 1: no reader asks
                   DetectorConfig(turns=1, reader_sure=0.5)):  # 6m at 0.6 is named surely enough: not read again
        det.config = config
        p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
        assert characters.batches == [2] and [NAMES[int(k)] for k in p.argmax(1)] == ["6m", "6m"]


def test_the_mark_reader_weighs_the_unsure_tiles_names_by_the_numeral_it_reads() -> None:
    from vision.detector import NAMES, DetectorConfig, TileDetector
    from vision.readers import MARK_NAMES, Reader

    class Classifier:  # 7p 0.7, 6p 0.2, 5z 0.1 for every crop, upright
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 1e-9)
            p[:, NAMES.index("7p")], p[:, NAMES.index("6p")], p[:, NAMES.index("5z")] = 0.7, 0.2, 0.1
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), _unlike(len(p))]

    reader = Reader.load(_Meta(",".join(MARK_NAMES), pick=5), Path("mark.onnx"))  # a "6", surely
    assert reader.marks and len(reader.ids) == 0
    det = TileDetector.from_parts(Classifier(), crop=64, readers=[reader], config=DetectorConfig(turns=1))
    boxes = np.array([[0.0, 0.0, 30.0, 30.0], [30.0, 30.0, 60.0, 60.0]])
    p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
    assert reader.session.batches == [2] and [NAMES[int(k)] for k in p.argmax(1)] == ["6p", "6p"]
    assert p[:, NAMES.index("6p")] == pytest.approx(1.0, abs=1e-6)  # nothing else prints a 6
    none = Reader.load(_Meta(",".join(MARK_NAMES), pick=9), Path("mark.onnx"))  # no numeral: names as they were
    det = TileDetector.from_parts(Classifier(), crop=64, readers=[none], config=DetectorConfig(turns=1))
    p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
    assert p[:, NAMES.index("7p")] == pytest.approx(0.7, abs=1e-6)
    # 7p at 0.7 is named surely enough: not read
    det = TileDetector.from_parts(Classifier(), crop=64, readers=[reader],
                                  config=DetectorConfig(turns=1, reader_sure=0.6))
    p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
    assert reader.session.batches == [2] and NAMES[int(p[0].argmax())] == "7p"


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
    from vision.detector import CLOSE, CLOSE_ZOOMS, FELT, DetectorConfig

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
    from vision.detector import SET_PROBE, SET_UNSURE, DetectorConfig

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
    det, hand, sets = _two_finders(DetectorConfig(zoom_imgsz=512, zoom_out=5.0, set_tiles=32, first_kept=1.1),
                                   predict)
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
