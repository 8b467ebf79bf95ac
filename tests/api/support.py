"""Helpers of the API tests: an app without the real model, fake detectors, detections and photos made on the fly."""

from __future__ import annotations

import io
import struct
import threading
import time
import zlib
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from PIL import Image

from api.config import Settings
from api.deps import get_detector
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

    def stands(self, i: int) -> float | None:
        """What the fake says of whether its ``i``-th tile stands: nothing."""
        return None

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
                out.append(Detection(label, 0.95, (float(x), 20.0, float(x + 36), 70.0), stands=self.stands(i)))
            return out
        finally:
            with self._lock:
                self.active -= 1


class FakeStandingDetector(FakeDetector):
    """``FakeDetector`` whose tiles stand, as the face network says (``Detection.stands``): 0.9 and more, each its
    own."""

    def stands(self, i: int) -> float | None:
        return round(0.9 + 0.005 * i, 4)


class FixedDetector:
    """A detector that decodes the photo as the real one does, then answers fixed detections."""

    def __init__(self, dets: list[Detection]) -> None:
        self.dets = dets
        self.calls = 0

    def detect(self, image: Any) -> list[Detection]:
        load_image(image, 512)
        self.calls += 1
        return list(self.dets)


def row(text: str, x: float = 100.0, y: float = 300.0) -> list[Detection]:
    """Upright tiles 40 x 54 px left to right from notation (``*`` after a digit: sideways; ``B``: a back); a space
    starts a new group 0.8 tile widths further on."""
    w_up, h_up = 40.0, 54.0
    out = []
    for group in text.split(" "):
        digits: list[str] = []
        for ch in group:
            if ch == "B":
                out.append(Detection("back", 0.9, (x, y, x + w_up, y + h_up), False))
                x += w_up + 1
            elif ch.isdigit():
                digits.append(ch)
            elif ch == "*":
                digits[-1] += "*"
            else:
                for d in digits:
                    side = d.endswith("*")
                    w, h = (h_up, w_up) if side else (w_up, h_up)
                    top = y + (h_up - w_up) if side else y
                    out.append(Detection(d[0] + ch, 0.9, (x, top, x + w, top + h), side))
                    x += w + 1
                digits = []
        x += 0.8 * w_up
    return out


def png(folder: Path, name: str = "hand.png", size: tuple[int, int] = (900, 500), fmt: str = "PNG") -> Path:
    """A plain green photo written to ``folder``."""
    p = folder / name
    Image.new("RGB", size, (30, 110, 60)).save(p, format=fmt)
    return p


class BrokenDetector:
    def detect(self, image: Any) -> list[Detection]:
        raise RuntimeError("the model fell over")


def make_app(detector: Any | None = None, **overrides: Any) -> FastAPI:
    settings = Settings(**{"load_model": False, "access_log": True, **overrides})
    app = create_app(settings)
    if detector is not None:
        app.state.detector = detector
        app.state.model_ok = True
        app.state.model_error = None
        app.dependency_overrides[get_detector] = lambda: detector
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
