"""Helpers of the API tests: an app without the real model, a fake detector, photos made on the fly."""

from __future__ import annotations

import io
import struct
import threading
import time
import types
import zlib
from typing import Any

from fastapi import FastAPI
from PIL import Image

from api.config import Settings
from api.deps import get_detector, get_photo
from api.main import create_app
from vision.detection import Detection
from vision.image import load_image

# a concealed hand in one row, the winning tile set apart: 234m456p34567s99s +8s
ROW = ["2m", "3m", "4m", "4p", "5p", "6p", "3s", "4s", "5s", "6s", "7s", "9s", "9s"]


class FakeDetector:
    """Answers the same 14 tiles for any photo, as a row across the image."""

    def __init__(self, labels: list[str] | None = None, delay: float = 0.0) -> None:
        self.labels = labels if labels is not None else [*ROW, "8s"]
        self.delay = delay
        self.calls = 0
        self.active = 0
        self.peak = 0
        self._lock = threading.Lock()

    def detect(self, image: Any) -> list[Detection]:
        with self._lock:
            self.calls += 1
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            load_image(image)  # decode as the real detector does (a broken photo raises BadImageError)
            if self.delay:
                time.sleep(self.delay)
            out = []
            for i, label in enumerate(self.labels):
                x = 10 + 40 * i + (40 if i == len(self.labels) - 1 else 0)
                out.append(Detection(label, 0.95, (float(x), 20.0, float(x + 36), 70.0)))
            return out
        finally:
            with self._lock:
                self.active -= 1


class BrokenDetector:
    def detect(self, image: Any) -> list[Detection]:
        raise RuntimeError("the model fell over")


def _stand_in_photo() -> types.ModuleType:
    """The interface of api.photo (issue 5), for as long as that module is not there."""
    from scorer.request import error_object, score_request

    def recognize(image: Any, detector: Any) -> dict[str, Any]:
        rgb, _ = load_image(image)
        dets = detector.detect(image)
        labels = [d.label for d in dets]
        hand = "".join(labels[:-1]) + "+" + labels[-1] if labels else None
        return {
            "image": {"width": int(rgb.shape[1]), "height": int(rgb.shape[0])},
            "detections": [{"tile": d.label, "confidence": d.confidence, "box": list(d.box),
                            "sideways": d.sideways} for d in dets],
            "hand": hand,
            "layout": {"rows": [], "melds": [], "win_tile_assumed": False, "notes": []},
        }

    def score_photo(image: Any, detector: Any, request: dict[str, Any]) -> dict[str, Any]:
        rec = recognize(image, detector)
        if rec["hand"] is None:
            return {"recognition": rec, "result": error_object("no_hand", "no tiles found")}
        return {"recognition": rec, "result": score_request({**request, "hand": rec["hand"]})}

    return types.SimpleNamespace(recognize=recognize, score_photo=score_photo)  # type: ignore[return-value]


def photo_module() -> Any:
    try:
        import api.photo as photo
    except ImportError:
        return _stand_in_photo()
    return photo


def make_app(detector: Any | None = None, **overrides: Any) -> FastAPI:
    settings = Settings(**{"load_model": False, "access_log": True, **overrides})
    app = create_app(settings)
    if detector is not None:
        app.state.detector = detector
        app.state.model_ok = True
        app.state.model_error = None
        app.dependency_overrides[get_detector] = lambda: detector
    module = photo_module()
    app.dependency_overrides[get_photo] = lambda: module
    return app


# --- photos ------------------------------------------------------------------------------------------------------


def jpeg(width: int = 640, height: int = 120, orientation: int | None = None, quality: int = 85) -> bytes:
    img = Image.new("RGB", (width, height), (30, 120, 60))
    buf = io.BytesIO()
    if orientation is None:
        img.save(buf, "JPEG", quality=quality)
    else:
        exif = Image.Exif()
        exif[0x0112] = orientation
        img.save(buf, "JPEG", quality=quality, exif=exif.tobytes())
    return buf.getvalue()


def encode(fmt: str, width: int = 640, height: int = 120) -> bytes:
    if fmt == "HEIF":
        from pillow_heif import register_heif_opener

        register_heif_opener()
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (30, 120, 60)).save(buf, fmt)
    return buf.getvalue()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` in its header but holds a few bytes: a decompression bomb's shape."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = chunk(b"IDAT", zlib.compress(b"\x00" * 64))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + idat + chunk(b"IEND", b"")


def error_of(response: Any) -> tuple[int, str]:
    body = response.json()
    assert body["ok"] is False, body
    assert set(body) == {"ok", "error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["message"], body
    return response.status_code, body["error"]["code"]
