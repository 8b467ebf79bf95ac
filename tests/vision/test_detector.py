"""vision.detect and its parts: the classifier's turns, the readers, sideways, and the shipped weights on a fresh
photo (the finder's looks: test_finder_looks.py; image loading and crops: test_image.py, test_crops.py)."""

from __future__ import annotations

import io
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


@pytest.mark.skipif(not SHIPPED or not RAW.exists(), reason="no shipped weights, or ../shared/real not beside")
def test_a_real_close_up_of_one_tile_boxed_in_its_parts_is_read_as_one_tile() -> None:
    from vision.detector import TileDetector

    # camerash's photos of one tile filling the frame (240 x 320, held out from training), labelled so: the finder
    # boxes its circles or sticks, 11 to 31 boxes, and the classifier names most of them a blank white dragon
    det = TileDetector()
    for name, label in (("166.jpg", "8p"), ("298.jpg", "4s"), ("300.jpg", "8s"), ("302.jpg", "6s"), ("496.jpg", "3s")):
        dets = det.detect(RAW.parent / "tiles-resized" / name)
        assert [d.label for d in dets] == [label], name
        x0, y0, x1, y1 = dets[0].box
        assert (x1 - x0) * (y1 - y0) > 0.8 * 240 * 320, name


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
def test_the_onnx_finder_boxes_as_ultralytics_boxes_with_its_pytorch_weights(art_dir: Path) -> None:
    import onnxruntime as ort
    from ultralytics import YOLO

    from training import synth
    from vision.detector import DetectorConfig
    from vision.finder import Finder
    from vision.shipped import FINDER_WEIGHTS, MODELS

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


def test_the_seat_reader_shares_a_flower_again_among_the_flowers_by_the_seat_it_reads() -> None:
    from vision.detector import NAMES, DetectorConfig, TileDetector
    from vision.readers import FLOWERS, SEAT_NAMES, Reader

    class Classifier:  # 5f 0.35, 6f 0.3, 7f 0.15 (the seat numeral unread), 1s 0.2 for every crop, upright
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 1e-9)
            for name, share in (("5f", 0.35), ("6f", 0.3), ("7f", 0.15), ("1s", 0.2)):
                p[:, NAMES.index(name)] = share
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), _unlike(len(p))]

    reader = Reader.load(_Meta(",".join(SEAT_NAMES), pick=2), Path("seat.onnx"))  # seat 3 (三, 3), surely
    assert reader.seats and not reader.marks and not reader.flowers
    assert [NAMES[i] for i in reader.ids] == [f"{n}f" for n in range(1, 9)]
    det = TileDetector.from_parts(Classifier(), crop=64, readers=[reader], config=DetectorConfig(turns=1))
    boxes = np.array([[0.0, 0.0, 30.0, 30.0], [30.0, 30.0, 60.0, 60.0]])
    p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
    assert reader.session.batches == [2] and [NAMES[int(k)] for k in p.argmax(1)] == ["7f", "7f"]
    # the flowers keep their share, and the tile that is no flower its own
    assert p[:, FLOWERS].sum(1) == pytest.approx(0.8) and p[:, NAMES.index("1s")] == pytest.approx(0.2)
    det.config = DetectorConfig(turns=1, seat_weight=0.0)  # weighed not at all: the names as they were
    p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
    assert p[0, NAMES.index("5f")] == pytest.approx(0.35) and NAMES[int(p[0].argmax())] == "5f"


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
    # 7p at 0.7 is named surely enough: not read (two tiles, too few to tell whether the set prints indices)
    det = TileDetector.from_parts(Classifier(), crop=64, readers=[reader],
                                  config=DetectorConfig(turns=1, reader_sure=0.6))
    p, _ = det.classify(np.zeros((64, 64, 3), np.uint8), boxes)
    assert reader.session.batches == [2] and NAMES[int(p[0].argmax())] == "7p"


def test_in_a_set_that_prints_indices_a_tile_named_surely_is_weighed_by_a_numeral_not_its_own() -> None:
    from vision.detector import NAMES, DetectorConfig, TileDetector
    from vision.readers import MARK_NAMES, Reader

    class Classifier:  # 6p surely, but the last crop 7p surely (a set's 6 drawn unlike the sets learnt), 6p beside it
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 1e-9)
            p[:, NAMES.index("6p")] = 0.99
            p[-1, NAMES.index("6p")], p[-1, NAMES.index("7p")] = 0.05, 0.95
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), _unlike(len(p))]

    def named(reader: Reader, n: int, **config: float) -> list[str]:
        det = TileDetector.from_parts(Classifier(), crop=64, readers=[reader], config=DetectorConfig(turns=1, **config))
        boxes = np.array([[40.0 * i, 0.0, 40.0 * i + 30, 40.0] for i in range(n)])
        p, _ = det.classify(np.zeros((64, 64 * n, 3), np.uint8), boxes)
        return [NAMES[int(k)] for k in p.argmax(1)]

    six = Reader.load(_Meta(",".join(MARK_NAMES), pick=5), Path("mark.onnx"))  # a "6" on every tile, surely
    none = Reader.load(_Meta(",".join(MARK_NAMES), pick=9), Path("mark.onnx"))  # no numeral: a set without indices
    assert named(six, 5) == ["6p"] * 5  # four of five read as named: the set prints its indices
    assert six.session.batches == [2, 3]  # every tile read once, none of them unsure (two first: see below)
    assert named(six, 3) == ["6p", "6p", "7p"]  # three tiles: too few to tell
    assert named(six, 5, marks_agree=0.9) == ["6p"] * 4 + ["7p"]  # four of five agree, not nine in ten
    assert named(six, 5, marks_agree=2.0) == ["6p"] * 4 + ["7p"]  # (above 1: not asked)
    # two of five read with no numeral of their own: fewer than 0.8 of the five could, so the rest are not read
    assert named(none, 5) == ["6p"] * 4 + ["7p"] and none.session.batches == [2]
    # the first ``marks_sample`` tell; the others are read only where they tell the set prints indices
    six.session.batches.clear()
    assert named(six, 5, marks_sample=4) == ["6p"] * 5 and six.session.batches == [1, 3, 1]
    assert named(none, 5, marks_sample=4) == ["6p"] * 4 + ["7p"] and none.session.batches == [2, 1]
    assert named(none, 5, marks_agree=0.0) == ["6p"] * 4 + ["7p"] and none.session.batches == [2, 1, 5]
    # the last tile, named unsurely, is asked: the first of the four sure ones is read in its run
    six.session.batches.clear(), none.session.batches.clear()
    assert named(six, 5, reader_sure=0.96) == ["6p"] * 5 and six.session.batches == [2, 3]
    assert named(none, 5, reader_sure=0.96) == ["6p"] * 4 + ["7p"] and none.session.batches == [2]
    for least, sample in ((0, 8), (5, 4)):
        with pytest.raises(ValueError, match="marks_least"):
            DetectorConfig(marks_least=least, marks_sample=sample)
