"""The flowers' caption reader: caption words, the shipped recogniser on drawn tiles, its part in naming (its build:
``tests/training/test_caption.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from vision.captions import CaptionReader, caption_flower
from vision.errors import ModelNotFoundError

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "models" / "caption_reader.onnx"
needs_model = pytest.mark.skipif(not SHIPPED.exists(), reason="no shipped caption reader in models/")
HKX = Path(__file__).parent / "tile_sets" / "hkx_03"


@pytest.mark.parametrize(("text", "flower"), [
    ("SPRING", 1), ("Summer", 2), ("FALL", 3), ("aut", 3), ("WIN", 4), ("PLUN", 5), ("Orchid", 6), ("MUM", 7),
    ("CHRYSANTHEMOM", 7), ("BAM-", 8),
    ("SUN", 2), ("MOM", 7), ("XUM", None), ("OR", None), ("", None), ("8", None), ("PLUMS", 5), ("WINTERS", 4),
    ("SPRINGTIME", None),
])
def test_a_caption_names_its_flower(text: str, flower: int | None) -> None:
    assert caption_flower(text) == flower


def _tile(word: str | None, side: int = 128) -> np.ndarray:
    """An upright flower tile filling a ``side`` square crop: a red bloom, ``word`` printed under it."""
    img = Image.new("RGB", (side, side), (90, 110, 80))  # the table around the face
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((14, 2, side - 14, side - 3), 8, fill=(240, 236, 220))
    d.ellipse((40, 16, 88, 64), fill=(200, 40, 40))
    if word:
        font = ImageFont.load_default(size=24)
        w = d.textlength(word, font=font)
        d.text(((side - w) / 2, 80), word, fill=(20, 20, 20), font=font)
    return np.asarray(img)


def _reader() -> CaptionReader:
    import onnxruntime as ort

    return CaptionReader(ort.InferenceSession(str(SHIPPED), providers=["CPUExecutionProvider"]), SHIPPED)


@needs_model
def test_the_shipped_reader_reads_a_caption_either_way_up() -> None:
    reader = _reader()
    tiles = np.stack([_tile("ORCHID"), _tile("Autumn")[::-1, ::-1], _tile("BAM"), _tile(None), _tile("PEONY")])
    # read at the bottom of the crop as it is, or of the crop turned half a turn: the up head may be wrong so
    read = reader.flowers(tiles)
    assert read.flower.tolist() == [6, 3, 8, 0, 0] and read.captioned.tolist() == [True, True, True, False, False]
    # ... or at its bottom only, where which way up it is is known: the upside-down AUTUMN then reads nothing
    assert reader.flowers(tiles, both=[False] * 5).flower.tolist() == [6, 0, 8, 0, 0]
    assert [text for text, _ in reader.read([_tile("Winter")[80:, 14:-14]])] == ["Winter"]
    # a tile cut from a box of no width or height reads nothing, and does not stop the others being read
    assert reader.flowers([np.zeros((1, 1, 3), np.uint8), _tile("PLUM"), np.zeros((128, 0, 3), np.uint8)]).flower \
        .tolist() == [0, 5, 0]


class _Counted:
    """A recogniser's session that counts its runs."""

    def __init__(self, session: object) -> None:
        self.session, self.runs = session, 0

    def run(self, names: object, feeds: dict) -> list:
        self.runs += 1
        return self.session.run(names, feeds)

    def __getattr__(self, name: str) -> object:
        return getattr(self.session, name)


@needs_model
def test_a_run_read_again_within_a_photo_is_remembered_and_reads_the_same() -> None:
    import threading

    reader = _reader()
    counted = reader._session = _Counted(reader._session)
    tiles = [_tile("ORCHID"), _tile("Autumn")[::-1, ::-1], _tile(None)]
    alone = reader.flowers(tiles)
    runs = counted.runs
    assert runs > 0 and reader.flowers(tiles).flower.tolist() == alone.flower.tolist() and counted.runs == 2 * runs
    with reader.remembering():
        first = reader.flowers(tiles)
        assert counted.runs == 3 * runs
        again = reader.flowers(tiles)
        assert counted.runs == 3 * runs  # nothing read again
        other = threading.Thread(target=reader.flowers, args=(tiles,))  # another thread (photo) remembers nothing
        other.start(), other.join()
        assert counted.runs == 4 * runs
        reader.flowers([_tile("PLUM")])  # other lines are read
        assert counted.runs > 4 * runs
        with reader.remembering():  # a block within the block: the same runs
            before = counted.runs
            reader.flowers(tiles)
            assert counted.runs == before
        before = counted.runs
        reader.flowers(tiles)  # ... and the outer block's runs are still remembered after it
        assert counted.runs == before
    assert [r.flower.tolist() for r in (first, again)] == [alone.flower.tolist()] * 2
    assert [r.captioned.tolist() for r in (first, again)] == [alone.captioned.tolist()] * 2
    before = counted.runs
    reader.flowers(tiles)  # the block is over: read again
    assert counted.runs == before + runs


@needs_model
def test_runs_are_read_two_at_a_time_on_threads_of_their_own_and_read_as_one_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import vision.captions as captions

    reader = _reader()
    threads = []
    through = reader._through
    reader._through = lambda x: threads.append(threading.current_thread().name) or through(x)
    tiles = [_tile("ORCHID"), _tile("Autumn")[::-1, ::-1], _tile(None), _tile("PLUM"), _tile("BAM")]
    monkeypatch.setattr(captions, "RUNS", 1)
    alone = reader.flowers(tiles)
    assert threads and set(threads) == {threading.current_thread().name}  # one at a time: on the caller's thread
    threads.clear()
    monkeypatch.setattr(captions, "RUNS", 2)
    both = reader.flowers(tiles)
    # (a line band of five tiles at both ends: ten lines, five runs, read on the pool's threads; a lone run on the
    # caller's)
    assert sum(name.startswith("captions") for name in threads) >= 5
    assert both.flower.tolist() == alone.flower.tolist() == [6, 3, 0, 5, 8]
    assert both.captioned.tolist() == alone.captioned.tolist()
    pid, pool = reader._memo.pool
    reader._memo.pool = pid + 1, pool  # as a child forked from the process that made the threads finds them: gone
    assert reader.flowers(tiles).flower.tolist() == [6, 3, 0, 5, 8]
    assert reader._memo.pool[0] == pid and reader._memo.pool[1] is not pool  # threads of its own
    # another thread (the service names photos at once) reads on threads of its own, not this one's
    other: list[object] = []
    thread = threading.Thread(target=lambda: (reader.flowers(tiles), other.append(reader._memo.pool[1])))
    thread.start(), thread.join()
    assert other and other[0] is not reader._memo.pool[1]


def _face(name: str) -> np.ndarray:
    """A face of the held-out picture-flower style (``tile_sets/hkx_03``: 梅蘭菊竹 / 春夏秋冬 in a top corner, the seat
    numeral in the other), upright, filling its crop."""
    return np.asarray(Image.open(HKX / f"{name}.png").convert("RGB"))


@needs_model
def test_a_picture_flower_is_named_by_its_character_at_its_top() -> None:
    """A flower's character is read at the top of the tile as turned upright (its first end); turned the wrong way up,
    its top and corners hold no character (the second end's top band, read until 2026-11-30, named no flower more in
    any photo measured: ``CHARACTER_LINES``)."""
    reader = _reader()
    flowers = [_face(f"{n}f") for n in range(1, 9)]
    others = [_face(name) for name in ("1m", "4p", "7s", "5z", "back")]
    read = reader.flowers([*flowers, *others])
    assert read.flower.tolist() == [1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0]
    assert not read.captioned.any()  # a character is no English caption
    upside_down = [face[::-1, ::-1] for face in flowers]
    assert reader.flowers(upside_down).flower.tolist() == [0] * 8
    assert reader.flowers(upside_down, both=[False] * 8).flower.tolist() == [0] * 8
    # the characters alone, no caption band read
    assert reader.flowers(flowers, captions=False).flower.tolist() == [1, 2, 3, 4, 5, 6, 7, 8]


@needs_model
def test_a_character_in_the_middle_of_the_top_is_read_in_the_top_band(monkeypatch: pytest.MonkeyPatch) -> None:
    """A set printing its flower's character in the middle of the top, which each top corner cuts in half: the corners
    name nothing, the band across the top names it."""
    from vision import captions

    face = _face("6f")
    moved = face.copy()
    moved[:75] = face[5, 75]  # the top cleared to the face's ground, and 蘭 set in its middle
    moved[16:72, 50:100] = face[16:72, 16:66]
    reader = _reader()
    assert reader.flowers([moved]).flower.tolist() == [6]
    monkeypatch.setattr(captions, "TOP", 0.0)  # no band: the corners alone
    assert reader.flowers([moved]).flower.tolist() == [0]


def test_a_network_without_its_characters_is_no_caption_reader() -> None:
    class Session:
        def get_modelmeta(self) -> object:
            return type("Meta", (), {"custom_metadata_map": {}})()

        def get_outputs(self) -> list:
            return [type("Output", (), {"shape": ["n", "t", 63]})()]

    with pytest.raises(ModelNotFoundError, match="r.onnx is no caption reader"):
        CaptionReader(Session(), Path("r.onnx"))


@needs_model
def test_a_set_that_captions_its_flowers_is_named_by_its_captions() -> None:
    """Two tiles the classifier takes for 5f (0.45) or 1s (0.35): the one captioned AUTUMN is 3f; the other, whose
    set captions its flowers but which shows none, is not taken for a flower so readily: 1s."""
    from vision.detector import NAMES, DetectorConfig, TileDetector

    class Classifier:
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 0.2 / (len(NAMES) - 2))
            p[:, NAMES.index("5f")], p[:, NAMES.index("1s")] = 0.45, 0.35
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), np.eye(len(p), 8, dtype=np.float32)]

    det = TileDetector.from_parts(Classifier(), crop=64, captions=_reader(), config=DetectorConfig(turns=1))
    img = np.concatenate([_tile("AUTUMN"), _tile(None)], axis=1)
    boxes = np.array([[14.0, 2.0, 114.0, 125.0], [142.0, 2.0, 242.0, 125.0]])
    p, _ = det.classify(img, boxes)
    assert [NAMES[int(k)] for k in p.argmax(1)] == ["3f", "1s"]
    assert p[0, NAMES.index("3f")] == pytest.approx(0.8 + 0.2 * 0.2 / 41, abs=1e-6)  # caption_weight 0.8
    det.config = DetectorConfig(turns=1, uncaptioned=1.0)  # a tile without a caption keeps its flowers
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["3f", "5f"]
    without = TileDetector.from_parts(Classifier(), crop=64, config=DetectorConfig(turns=1))  # no caption reader
    assert [NAMES[int(k)] for k in without.classify(img, boxes)[0].argmax(1)] == ["5f", "5f"]
    # boxes of no width or height (a look's boxes cut to the photo) are read as nothing
    flat = np.array([[14.0, 2.0, 14.0, 125.0], [142.0, 60.0, 242.0, 60.0], [0.0, 0.0, 0.0, 0.0]])
    assert [NAMES[int(k)] for k in det.classify(img, flat)[0].argmax(1)] == ["5f", "5f", "5f"]


@needs_model
def test_a_flower_named_surely_is_named_again_by_its_caption() -> None:
    """A fine-tuned classifier sure of the wrong flower (2f, 0.9) on a tile captioned SPRING: its caption is read,
    readers' gate or not, and names it 1f; a flower named surely that shows no caption (5f, 0.9) keeps its name."""
    from vision.detector import NAMES, DetectorConfig, TileDetector

    class Classifier:
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 0.1 / (len(NAMES) - 1))
            p[0, NAMES.index("2f")] = p[1, NAMES.index("5f")] = 0.9
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), np.eye(len(p), 8, dtype=np.float32)]

    det = TileDetector.from_parts(Classifier(), crop=64, captions=_reader(), config=DetectorConfig(turns=1))
    img = np.concatenate([_tile("SPRING"), _tile(None)], axis=1)
    boxes = np.array([[14.0, 2.0, 114.0, 125.0], [142.0, 2.0, 242.0, 125.0]])
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["1f", "5f"]


@needs_model
def test_a_caption_is_read_at_the_end_the_flower_reader_says() -> None:
    """The up head takes an upside-down WINTER tile for upright; the flower reader, sure it is upside down, sends
    the caption reader to its top, one band (and the top corners of the tile turned so); unsure, both ends are
    read."""
    from vision.detector import NAMES, DetectorConfig, TileDetector
    from vision.readers import Reader

    class Classifier:  # 5f 0.45, 1s 0.35, the art upright as it lies
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 0.2 / (len(NAMES) - 2))
            p[:, NAMES.index("5f")], p[:, NAMES.index("1s")] = 0.45, 0.35
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), np.eye(len(p), 8, dtype=np.float32)]

    class FlowerReader:  # nothing it names surely; upside down with ``upside``
        def __init__(self, upside: float) -> None:
            self.upside = upside

        def get_modelmeta(self) -> object:
            return type("Meta", (), {"custom_metadata_map": {"names": "1f,2f,3f,4f,5f,6f,7f,8f,other"}})()

        def get_inputs(self) -> list:
            return [type("Input", (), {"shape": ["n", 3, 64, 64]})()]

        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            n = len(feeds["crops"])
            return [np.zeros((n, 9)), np.tile(np.log([1 - self.upside, 1e-6, self.upside, 1e-6]), (n, 1))]

    captions = _reader()
    bands = []
    run = captions._run
    captions._run = lambda lines: bands.append(len(lines)) or run(lines)  # type: ignore[method-assign]
    img, box = _tile("WINTER")[::-1, ::-1].copy(), np.array([[14.0, 2.0, 114.0, 125.0]])
    for upside, want, n in ((0.99, "4f", 1), (0.7, "4f", 2), (0.01, "5f", 1)):
        reader = Reader.load(FlowerReader(upside), Path("f.onnx"))
        det = TileDetector.from_parts(Classifier(), crop=64, readers=[reader], captions=captions,
                                      config=DetectorConfig(turns=1))
        # the caption bands read, then the top corners of a tile whose caption named no flower (two an end), then
        # its top band where they named none
        bands.clear()
        corners = 0 if want == "4f" else 3 * n
        assert NAMES[int(det.classify(img, box)[0].argmax())] == want and bands[0] == n and sum(bands[1:]) == corners


@needs_model
@pytest.mark.parametrize("degrees", [45, -40])
def test_a_tilted_caption_is_read_cut_straight(degrees: float) -> None:
    """A WINTER tile lying at an angle: cut square around its box the caption slants across the band and reads
    nothing; cut turned straight by its tilt (``DetectorConfig.straighten``) it reads WIN(TER). (At 40 degrees the
    recogniser with its largest weights stored as int8 reads the slanted caption too, as it does at 35.)"""
    import cv2

    from vision.detector import NAMES, DetectorConfig, TileDetector

    class Classifier:  # 5f 0.45, 1s 0.35, the art upright as it lies
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 0.2 / (len(NAMES) - 2))
            p[:, NAMES.index("5f")], p[:, NAMES.index("1s")] = 0.45, 0.35
            return [np.log(p), np.tile(np.eye(4)[0] * 9, (len(p), 1)), np.eye(len(p), 8, dtype=np.float32)]

    img = np.empty((400, 400, 3), np.uint8)
    img[:] = (90, 110, 80)
    img[136:264, 136:264] = _tile("WINTER")
    img = cv2.warpAffine(img, cv2.getRotationMatrix2D((200, 200), degrees, 1.0), (400, 400),
                         borderMode=cv2.BORDER_REPLICATE)
    ys, xs = np.nonzero((img > 200).all(2))  # the face
    box = np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float64)
    det = TileDetector.from_parts(Classifier(), crop=64, captions=_reader())
    for straighten, want in ((True, "4f"), (False, "5f")):
        det.config = DetectorConfig(turns=1, straighten=straighten)
        assert NAMES[int(det.classify(img, box)[0].argmax())] == want


def _named_as(rows: np.ndarray) -> object:
    """A classifier's stand-in naming a photo's crops by ``rows`` (N, 43), in order, each upright."""

    class Classifier:
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            n = len(feeds["crops"])
            return [np.log(rows[:n]), np.tile(np.eye(4)[0] * 9, (n, 1)), np.eye(n, 8, dtype=np.float32)]

    return Classifier()


@needs_model
def test_a_set_that_prints_its_flowers_characters_has_them_read_on_its_other_tiles() -> None:
    """A 梅 the classifier gives 5f 0.45 is asked and read by its character: the set prints its flowers' characters,
    so a 秋 it named 7f surely (0.9, 3f 0.06), which the readers' gate does not ask, is read too and named 3f; a tile
    asked whose corners hold no flower's character keeps its flowers (only an English caption read makes a set one
    that captions them all)."""
    from vision.detector import NAMES, DetectorConfig, TileDetector

    rows = np.full((3, len(NAMES)), 0.04 / (len(NAMES) - 2))
    rows[0, NAMES.index("5f")], rows[0, NAMES.index("1s")] = 0.45, 0.35  # the 梅
    rows[1] = 0.04 / (len(NAMES) - 2)
    rows[1, NAMES.index("7f")], rows[1, NAMES.index("3f")] = 0.9, 0.06  # the 秋, named surely and wrong
    rows[2, NAMES.index("5f")], rows[2, NAMES.index("1s")] = 0.45, 0.35  # a 1m the classifier takes for a flower
    rows /= rows.sum(1, keepdims=True)

    faces = [_face("5f"), _face("3f"), _face("1m")]
    img = np.concatenate([np.pad(f, ((10, 10), (10, 10), (0, 0)), constant_values=90) for f in faces], axis=1)
    boxes = np.array([[10.0 + 170 * k, 10.0, 160.0 + 170 * k, 210.0] for k in range(3)])
    det = TileDetector.from_parts(_named_as(rows), crop=64, captions=_reader(), config=DetectorConfig(turns=1))
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["5f", "3f", "5f"]
    det.config = DetectorConfig(turns=1, character_gate=1.0)  # the others not read for their characters
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["5f", "7f", "5f"]


@needs_model
def test_a_set_that_captions_its_flowers_has_its_other_likely_flowers_read() -> None:
    """An AUTUMN the classifier gives 5f 0.45 is asked and read by its caption: the set captions its flowers, so a
    WINTER it named 1s surely (0.8, its flowers 0.13: under the readers' gate) is read for its caption too and named
    4f; not where ``caption_gate`` is 1."""
    from vision.detector import NAMES, DetectorConfig, TileDetector

    rows = np.full((2, len(NAMES)), 0.2 / (len(NAMES) - 2))
    rows[0, NAMES.index("5f")], rows[0, NAMES.index("1s")] = 0.45, 0.35  # the AUTUMN
    rows[1] = 0.08 / (len(NAMES) - 2)
    rows[1, NAMES.index("1s")], rows[1, NAMES.index("4f")] = 0.8, 0.12  # the WINTER, named surely and wrong
    rows /= rows.sum(1, keepdims=True)

    img = np.concatenate([_tile("AUTUMN"), _tile("WINTER")], axis=1)
    boxes = np.array([[14.0, 2.0, 114.0, 125.0], [142.0, 2.0, 242.0, 125.0]])
    det = TileDetector.from_parts(_named_as(rows), crop=64, captions=_reader(), config=DetectorConfig(turns=1))
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["3f", "4f"]
    det.config = DetectorConfig(turns=1, caption_gate=1.0)
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["3f", "1s"]


@needs_model
def test_a_caption_is_read_a_quarter_turn_on_where_the_up_head_doubts() -> None:
    """A WINTER tile lying a quarter turn clockwise, which the up head takes for upright (0.6) or turned so (0.3):
    read as the up head has it, its caption is a column and names nothing; read a quarter turn on too
    (``caption_across``), it names 4f."""
    from vision.detector import NAMES, DetectorConfig, TileDetector

    class Classifier:  # 5f 0.45, 1s 0.35
        def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            p = np.full((len(feeds["crops"]), len(NAMES)), 0.2 / (len(NAMES) - 2))
            p[:, NAMES.index("5f")], p[:, NAMES.index("1s")] = 0.45, 0.35
            up = np.log([0.6, 0.3, 0.05, 0.05])
            return [np.log(p), np.tile(up, (len(p), 1)), np.eye(len(p), 8, dtype=np.float32)]

    img, box = np.rot90(_tile("WINTER"), -1).copy(), np.array([[3.0, 14.0, 126.0, 114.0]])
    det = TileDetector.from_parts(Classifier(), crop=64, captions=_reader())
    for across, want in ((0.8, "4f"), (0.0, "5f")):
        det.config = DetectorConfig(turns=1, caption_across=across)
        assert NAMES[int(det.classify(img, box)[0].argmax())] == want


@needs_model
def test_an_unsure_tile_with_a_little_of_the_flowers_is_read_for_its_caption() -> None:
    """A PLUM the fine-tuned classifier names 6s (0.39) or 4s (0.3), 5f 0.11: under the readers' gate (0.2) but over
    ``caption_unsure`` (0.1) its caption is read, and names it 5f; a tile named as unsurely with less of the flowers
    is not read."""
    from vision.detector import NAMES, DetectorConfig, TileDetector

    rows = np.full((2, len(NAMES)), 0.19 / (len(NAMES) - 3))
    rows[:, NAMES.index("6s")], rows[:, NAMES.index("4s")], rows[0, NAMES.index("5f")] = 0.39, 0.3, 0.11
    rows /= rows.sum(1, keepdims=True)

    img = np.concatenate([_tile("PLUM"), _tile("PLUM")], axis=1)
    boxes = np.array([[14.0, 2.0, 114.0, 125.0], [142.0, 2.0, 242.0, 125.0]])
    det = TileDetector.from_parts(_named_as(rows), crop=64, captions=_reader(), config=DetectorConfig(turns=1))
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["5f", "6s"]
    det.config = DetectorConfig(turns=1, caption_unsure=0.2)  # the readers' gate
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["6s", "6s"]


@pytest.mark.parametrize("name", ["caption_unsure", "caption_gate", "caption_across"])
def test_the_caption_gates_are_shares(name: str) -> None:
    from vision.detector import DetectorConfig

    for value in (-0.1, 1.2):
        with pytest.raises(ValueError, match=f"{name} must be 0 to 1"):
            DetectorConfig(**{name: value})


@needs_model
def test_a_flower_seen_low_is_read_from_its_face_cut_flat() -> None:
    import cv2

    from vision.faces import Faces

    # a tile lying in front of a standing hand, shot low: its face foreshortened to the top of its box, the tile's
    # side (blank) under it, where the caption band of a crop cut around the box falls
    photo = np.full((300, 400, 3), (90, 110, 80), np.uint8)
    photo[150:230, 100:196] = (200, 190, 170)  # the side
    face = _tile("ORCHID")[2:125, 14:114]  # 100 x 123
    quad = np.float32([[104, 100], [192, 100], [196, 150], [100, 150]])  # 50 px high: a fifth of its width and more
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [99, 0], [99, 122], [0, 122]]), quad)
    shown = cv2.warpPerspective(face, warp, (400, 300))
    inside = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), warp, (400, 300)) > 0
    photo[inside] = shown[inside]
    boxes, tilt = np.array([[100.0, 100.0, 196.0, 230.0]]), np.zeros(1)
    reader, up, once = _reader(), np.zeros(1, int), np.zeros(1, bool)
    assert reader.tiles_flowers(photo, boxes, tilt, up, once, both=once).flower.tolist() == [0]
    faces = Faces(quad[None].astype(np.float64), np.zeros(1, bool), np.ones(1), flat=True)
    assert reader.tiles_flowers(photo, boxes, tilt, up, once, both=once, faces=faces).flower.tolist() == [6]
    # in naming: read so where the classifier named the faces cut flat (``Faces.flat``), else around the box
    from vision.detector import NAMES, DetectorConfig

    p = np.full((1, len(NAMES)), 0.2 / (len(NAMES) - 2))
    p[0, NAMES.index("5f")], p[0, NAMES.index("1s")] = 0.45, 0.35
    named = [NAMES[int(reader.named(photo, boxes, tilt, p, np.eye(4)[:1], np.full(1, np.nan), np.arange(1),
                                    DetectorConfig(), seen)[0].argmax())]
             for seen in (faces, faces._replace(flat=False))]
    assert named == ["6f", "5f"]


@needs_model
def test_a_naming_takes_what_an_earlier_naming_of_its_tiles_read() -> None:
    """A tile an earlier naming read (its verdicts: ``Named.captions``) is not read again: the naming of a photo's look
    as from above takes the first naming's verdicts. Tiles not read before are read, and every verdict is returned."""
    from vision.detector import NAMES, DetectorConfig

    words = ["PLUM", None, "WINTER"]
    photo = np.concatenate([_tile(w) for w in words], axis=1)
    boxes = np.array([[128.0 * k + 14, 2, 128 * k + 114, 125] for k in range(3)])
    p = np.full((3, len(NAMES)), 0.2 / (len(NAMES) - 2))
    p[:, NAMES.index("5f")], p[:, NAMES.index("1s")] = 0.45, 0.35
    reader, args = _reader(), (boxes, np.zeros(3), p, np.eye(4)[[0, 0, 0]], np.full(3, 0.0))
    named, verdicts = reader.named(photo, *args, np.arange(3), DetectorConfig())
    assert [NAMES[k] for k in named.argmax(1)] == ["5f", "1s", "4f"]
    assert verdicts == {0: (5, True), 1: (0, False), 2: (4, True)}
    lines = []
    run = reader._run

    def counted(batch: list) -> list:
        lines.extend(batch)
        return run(batch)

    reader._run = counted
    blank = np.full_like(photo, 128)  # a look in which nothing can be read: the verdicts are taken
    again, carried = reader.named(blank, *args, np.arange(3), DetectorConfig(), known=verdicts)
    assert not lines and carried == verdicts and np.allclose(again, named)
    _, some = reader.named(photo, *args, np.arange(3), DetectorConfig(), known={0: (5, True)})  # 1 and 2 read
    assert len(lines) > 0 and some == verdicts


class _Unsure:
    """A recogniser's stand-in that reads every line as 竹 (8f) with ``prob``: its characters 竹, a, b (then the
    space), 竹 the likeliest of each step, the blank next."""

    def __init__(self, prob: float) -> None:
        self.prob = prob

    def get_modelmeta(self) -> object:
        return type("Meta", (), {"custom_metadata_map": {"characters": "竹ab "}})()

    def get_inputs(self) -> list:
        return [type("Input", (), {"name": "x"})()]

    def get_outputs(self) -> list:
        return [type("Output", (), {"shape": ["n", "t", 5]})()]

    def run(self, _names: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        rest = (1 - self.prob - 0.2) / 3
        step = np.array([0.2, self.prob, rest, rest, rest], np.float32)  # the blank, 竹, a, b, the space
        return [np.tile(step, (len(feeds["x"]), 4, 1))]


def test_a_likely_flower_s_character_is_taken_less_surely() -> None:
    """A flower's character read with less than ``CHARACTER_SURE`` but ``CHARACTER_LESS`` or more names it only on a
    tile flagged ``likely`` (the names give it ``CHARACTER_LIKELY`` of a flower or more)."""
    from vision import captions

    tile = np.full((128, 96, 3), 200, np.uint8)
    reader = CaptionReader(_Unsure((captions.CHARACTER_LESS + captions.CHARACTER_SURE) / 2), Path("unsure.onnx"))
    assert reader.flowers([tile, tile], likely=[True, False]).flower.tolist() == [8, 0]
    assert reader.flowers([tile, tile]).flower.tolist() == [0, 0]
    sure = CaptionReader(_Unsure(captions.CHARACTER_SURE + 0.05), Path("sure.onnx"))
    assert sure.flowers([tile, tile]).flower.tolist() == [8, 8]


def test_a_tile_the_names_give_little_of_a_flower_needs_its_character_read_surely() -> None:
    """Through the naming, each tile's 竹 read less surely: the one the names give 0.45 of a flower, asked, is named
    8f; the other, which they give 0.15 (under ``CHARACTER_LIKELY``), read for its character because the first's was
    (``character_gate``), keeps its name, 5s (as a held-out 5s beside a flower so read kept it, read 夏)."""
    from vision import captions
    from vision.detector import NAMES, DetectorConfig, TileDetector

    rows = np.full((2, len(NAMES)), 0.1 / (len(NAMES) - 2))
    rows[0, NAMES.index("8f")], rows[0, NAMES.index("5s")] = 0.45, 0.45
    rows[1, NAMES.index("8f")], rows[1, NAMES.index("5s")] = 0.15, 0.75
    rows /= rows.sum(1, keepdims=True)
    img = np.full((220, 340, 3), 90, np.uint8)
    img[10:210, 10:160] = img[10:210, 180:330] = 200
    boxes = np.array([[10.0, 10.0, 160.0, 210.0], [180.0, 10.0, 330.0, 210.0]])
    reader = CaptionReader(_Unsure((captions.CHARACTER_LESS + captions.CHARACTER_SURE) / 2), Path("unsure.onnx"))
    det = TileDetector.from_parts(_named_as(rows), crop=64, captions=reader, config=DetectorConfig(turns=1))
    assert [NAMES[int(k)] for k in det.classify(img, boxes)[0].argmax(1)] == ["8f", "5s"]
