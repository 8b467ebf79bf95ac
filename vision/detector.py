"""The tile detector: a one-class YOLO finder boxes every tile, a small CNN names each crop, and a second one reads
the tiles that may be flowers again, turned upright.

The only module that imports ultralytics. Weights are passed in explicitly (``models/tile_finder.pt``,
``models/tile_classifier.onnx`` and ``models/flower_reader.onnx`` are the shipped ones, see ``models/README.md``);
nothing is downloaded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.crops import CROP, crop_tiles
from vision.detection import Detection
from vision.errors import ModelNotFoundError
from vision.image import ImageInput, load_image

os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_AUTOINSTALL", "false")

MODELS = Path(__file__).resolve().parents[1] / "models"
FINDER_WEIGHTS = MODELS / "tile_finder.pt"
CLASSIFIER_WEIGHTS = MODELS / "tile_classifier.onnx"
READER_WEIGHTS = MODELS / "flower_reader.onnx"
NAMES: tuple[str, ...] = tuple(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 9)] + ["back"]
)


FLOWERS = slice(NAMES.index("1f"), NAMES.index("8f") + 1)  # the reader's first eight names, in this order; then "other"
RANKED = 4  # names kept per tile in Detection.ranked
RANKED_MIN = 0.01  # ... down to this probability


@dataclass(frozen=True, slots=True)
class DetectorConfig:
    conf: float = 0.3  # finder confidence threshold
    iou: float = 0.5  # NMS IoU (class-agnostic)
    imgsz: int = 416  # finder input size (long side), as trained
    zoom_imgsz: int = 512  # second look at the region holding the tiles, at this size (0: one pass only)
    zoom_margin: float = 1.5  # that region's margin around the tiles found first, in tile sizes
    work_side: int = 1600  # the photo is decoded to at most this long side (JPEG DCT scaling); crops come from it
    max_det: int = 120
    # name each crop from this many quarter turns of it (1 to 4), averaged: 1 as it lies, 2 also turned a quarter; two
    # keep most of four's gain at half the naming time (`models/README.md`)
    turns: int = 2
    # the flower reader reads the tiles whose flower probability (the classifier's) is at least this (above 1: none);
    # 0.05, 0.1, 0.2 and 0.3 named the training styles' true boxes alike (0.9852 to 0.9853), 0.2 reads the fewest
    read_flowers: float = 0.2
    reader_weight: float = 0.5  # its share when its names and the classifier's are averaged

    def __post_init__(self) -> None:
        if self.turns not in (1, 2, 3, 4):
            msg = f"DetectorConfig.turns must be 1 to 4 quarter turns, got {self.turns!r}"
            raise ValueError(msg)
        if not 0.0 <= self.reader_weight <= 1.0:
            msg = f"DetectorConfig.reader_weight must be 0 to 1, got {self.reader_weight!r}"
            raise ValueError(msg)


class TileDetector:
    """Find and name every tile of a photo: ``TileDetector(finder, classifier).detect(photo)``."""

    def __init__(self, finder: Path = FINDER_WEIGHTS, classifier: Path = CLASSIFIER_WEIGHTS,
                 config: DetectorConfig | None = None, reader: Path | None = READER_WEIGHTS) -> None:
        """``reader``: the flower reader's weights, or None to name tiles by the classifier alone."""
        for p in (finder, classifier, reader):
            if p is not None and not Path(p).exists():
                msg = f"model weights not found: {p}"
                raise ModelNotFoundError(msg)
        import onnxruntime as ort
        from ultralytics import YOLO

        self.config = config or DetectorConfig()
        self._finder = YOLO(str(finder), task="detect")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 2
        self._classifier = ort.InferenceSession(str(classifier), opts, providers=["CPUExecutionProvider"])
        self._crop = _crop_side(self._classifier)
        self._reader = None
        if reader is not None:
            self._reader = ort.InferenceSession(str(reader), opts, providers=["CPUExecutionProvider"])
            names = self._reader.get_outputs()[0].shape[-1]
            if names != len(NAMES[FLOWERS]) + 1:  # the eight flowers and other
                msg = f"{reader} is no flower reader: it gives {names} names, a reader 9 (the 8 flowers and other)"
                raise ModelNotFoundError(msg)

    def find(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (N, 4, xyxy px of ``rgb``) and the finder's confidences (N,).

        Two passes: the whole photo at ``imgsz`` shows where the tiles lie; that region (with a margin of
        ``zoom_margin`` tile sizes) is looked at again at ``zoom_imgsz``, so that small tiles in a big photo get
        more pixels (on 100 held-out photos, hands with every tile found: 69 in one pass, 92 in two; the first finder).
        """
        c = self.config
        boxes, conf = self._predict(rgb, c.imgsz)
        if not c.zoom_imgsz or len(boxes) < 3:
            return boxes, conf
        h, w = rgb.shape[:2]
        size = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        pad = c.zoom_margin * size
        x0, y0 = (max(0, int(v - pad)) for v in boxes[:, :2].min(0))
        x1, y1 = int(min(w, boxes[:, 2].max() + pad)), int(min(h, boxes[:, 3].max() + pad))
        boxes2, conf2 = self._predict(rgb[y0:y1, x0:x1], c.zoom_imgsz)
        return boxes2 + np.array([x0, y0, x0, y0], np.float64), conf2

    def _predict(self, rgb: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        c = self.config
        bgr = np.ascontiguousarray(rgb[..., ::-1])
        r = self._finder.predict(bgr, conf=c.conf, iou=c.iou, imgsz=imgsz, agnostic_nms=True, verbose=False,
                                 max_det=c.max_det, device="cpu")[0]
        return r.boxes.xyxy.cpu().numpy().astype(np.float64), r.boxes.conf.cpu().numpy().astype(np.float64)

    def classify(self, rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per box: the probabilities of the names (N, 43) and of the up direction (N, 4: 0, 90, 180, 270 degrees
        clockwise from the image's up)."""
        if len(boxes) == 0:
            return np.zeros((0, len(NAMES))), np.zeros((0, 4))
        x = _network_input(crop_tiles(rgb, boxes, self._crop))
        turns = self.config.turns
        # the crops turned by 0, 90 (180, 270) degrees in one batch; the names' probabilities are averaged
        batch = np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in range(turns)])
        logits, up = self._classifier.run(None, {"crops": np.ascontiguousarray(batch)})
        p = _softmax(logits).reshape(turns, len(boxes), -1).mean(0)
        up = _softmax(up[: len(boxes)])
        return self._read_flowers(rgb, boxes, x, p, up), up

    def _read_flowers(self, rgb: np.ndarray, boxes: np.ndarray, crops: np.ndarray, p: np.ndarray,
                      up: np.ndarray) -> np.ndarray:
        """``p`` with the flower reader's names averaged in, for the tiles the classifier thinks may be flowers.

        Each is read once, turned upright by the classifier's up direction. That head is wrong by half a turn on a
        third of an unseen style's flowers, so the reader learnt to read them either way up (``models/README.md``)."""
        if self._reader is None:
            return p
        ask = np.flatnonzero(p[:, FLOWERS].sum(1) >= self.config.read_flowers)
        if len(ask) == 0:
            return p
        side = _crop_side(self._reader)
        x = crops[ask] if side == self._crop else _network_input(crop_tiles(rgb, boxes[ask], side))
        # bin k: the art's up is k quarter turns clockwise; k turns back make it upright
        x = np.stack([np.rot90(c, int(k), axes=(1, 2)) for c, k in zip(x, up[ask].argmax(1), strict=True)])
        q = _softmax(self._reader.run(None, {"crops": np.ascontiguousarray(x)})[0])
        out = p.copy()
        out[ask] = mix_reading(p[ask], q, self.config.reader_weight)
        return out

    def detect(self, image: ImageInput) -> list[Detection]:
        """All tiles of ``image`` (a path, bytes or PIL image), boxes in pixels of the upright full image."""
        rgb, scale = load_image(image, self.config.work_side)
        boxes, conf = self.find(rgb)
        probs, up = self.classify(rgb, boxes)
        side, side_p = _sideways(probs.argmax(1), up)
        out = []
        for b, c, p, s, sp in zip(boxes / scale, conf, probs, side, side_p, strict=True):
            x0, y0, x1, y1 = (round(float(v), 1) for v in b)
            order = [int(k) for k in np.argsort(-p)[:RANKED] if k == p.argmax() or p[k] >= RANKED_MIN]
            ranked = tuple((NAMES[k], round(float(p[k]), 4)) for k in order)
            out.append(Detection(NAMES[order[0]], round(float(c * p[order[0]]), 4), (x0, y0, x1, y1), bool(s),
                                 ranked, round(float(sp), 4)))
        out.sort(key=lambda d: (d.box[0], d.box[1]))
        return out


def mix_reading(p: np.ndarray, q: np.ndarray, weight: float) -> np.ndarray:
    """The classifier's names ``p`` (N, 43) averaged with the flower reader's ``q`` (N, 9: 1f..8f, other), the reader's
    counting ``weight``. The reader's ``other`` is shared among the other names as the classifier shares them.

    >>> p = np.zeros((1, len(NAMES))); p[0, NAMES.index("1p")] = 0.8; p[0, NAMES.index("7f")] = 0.2
    >>> q = np.array([[0, 0, 0, 0, 0, 0, 0.9, 0, 0.1]])  # the reader: 7f, surely
    >>> m = mix_reading(p, q, 0.5)
    >>> NAMES[int(m.argmax())], round(float(m[0, NAMES.index("1p")]), 2), round(float(m.sum()), 6)
    ('7f', 0.45, 1.0)
    """
    r = p.copy()
    r[:, FLOWERS] = 0.0
    r *= q[:, -1:] / np.maximum(r.sum(1, keepdims=True), 1e-12)
    r[:, FLOWERS] = q[:, :-1]
    m = (1.0 - weight) * p + weight * r
    return m / m.sum(1, keepdims=True)  # when the classifier gave the flowers all, the reader's other went nowhere


def _network_input(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) uint8 crops -> (N, 3, S, S) float32 in 0..1, as the tile networks take them."""
    return crops.astype(np.float32).transpose(0, 3, 1, 2) / 255


def _crop_side(session: object) -> int:
    """The crop side an ONNX tile network was exported for (its input's last dimension)."""
    side = session.get_inputs()[0].shape[-1]
    return side if isinstance(side, int) else CROP


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _sideways(cls: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A face-up tile is sideways when its up direction is across the most common one (backs never are); returns
    the flags and each tile's probability of lying sideways (0 for backs).

    >>> flags, p = _sideways(np.array([0, 0, 0, 42]), np.eye(4)[[0, 2, 1, 1]] * 0.9 + 0.025)
    >>> flags.tolist(), p.round(2).tolist()
    ([False, False, True, False], [0.05, 0.05, 0.95, 0.0])
    """
    face = cls != NAMES.index("back")
    if not face.any():
        return np.zeros(len(cls), bool), np.zeros(len(cls))
    axis = up.argmax(1) % 2
    main = 1 if (axis[face] == 1).sum() > (axis[face] == 0).sum() else 0
    across = up[:, 1 - main] + up[:, 3 - main]
    return face & (axis != main), np.where(face, across, 0.0)
