"""Dependencies of the routes: settings, the detector, the photo slots and upload checks.

``api.pipeline.Detector`` is a Protocol: tests put a fake in with
``app.dependency_overrides[get_detector] = lambda: fake``.
"""

from __future__ import annotations

import asyncio
import io
import warnings
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request, UploadFile
from starlette.exceptions import HTTPException

from api.config import Settings, get_settings
from api.pipeline import Detector
from vision.image import JPEG

T = TypeVar("T")


class ApiError(HTTPException):
    """An error answered as the contract's error object with ``status``; ``headers`` e.g. Retry-After.

    A subclass of Starlette's ``HTTPException`` so that it passes unchanged through FastAPI's body parsing.
    """

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status_code=status, detail=message, headers=headers)
        self.code = code
        self.message = message


SettingsDep = Annotated[Settings, Depends(get_settings)]


# --- the detector ------------------------------------------------------------------------------------------------


def get_detector(request: Request) -> Detector:
    """The detector loaded at start-up, or 503 when there is none (no weights yet, or loading failed)."""
    detector: Detector | None = getattr(request.app.state, "detector", None)
    if detector is None:
        reason = getattr(request.app.state, "model_error", None) or "the tile detector is not loaded"
        settings: Settings = request.app.state.settings
        raise ApiError(503, "model_not_ready", f"photo reading is not available: {reason}",
                       {"Retry-After": str(settings.retry_after_seconds)})
    return detector


DetectorDep = Annotated[Detector, Depends(get_detector)]


# --- how many photos at once -------------------------------------------------------------------------------------


class PhotoSlots:
    """At most ``size`` photos in work per process; an excess request waits ``wait`` seconds, then gets 503.

    The work runs on ``size`` threads of its own (``run``), always the same ones: a photo's large buffers then come
    from the same few malloc arenas, and the process's memory stays flat instead of growing with every thread of
    the shared pool that happens to decode a photo.
    """

    def __init__(self, size: int, wait: float, retry_after: int) -> None:
        self.size = size
        self.wait = wait
        self.retry_after = retry_after
        self._sem = asyncio.Semaphore(size)
        self._pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="photo")
        self.waiting = 0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a photo thread, once a slot is free (503 ``busy`` after ``wait`` seconds)."""
        async with self.slot():
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    @property
    def busy(self) -> int:
        return self.size - self._sem._value  # noqa: SLF001 - for /readyz and tests only

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        self.waiting += 1
        try:
            await asyncio.wait_for(self._sem.acquire(), timeout=self.wait)
        except TimeoutError:
            msg = f"all {self.size} photo slots are busy; retry in {self.retry_after} s"
            raise ApiError(503, "busy", msg, {"Retry-After": str(self.retry_after)}) from None
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self._sem.release()


def get_slots(request: Request) -> PhotoSlots:
    slots: PhotoSlots = request.app.state.photo_slots
    return slots


SlotsDep = Annotated[PhotoSlots, Depends(get_slots)]


# --- uploads -----------------------------------------------------------------------------------------------------

# (format name, Pillow's format) by their leading bytes; the header the client sends is not trusted
_HEIF_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1")
ACCEPTED = ("jpeg", "png", "webp", "heic")
_PILLOW_FORMATS = {"jpeg": set(JPEG), "png": {"PNG"}, "webp": {"WEBP"}, "heic": {"HEIF", "HEIC", "AVIF"}}
MIN_SIDE = 16


def sniff(data: bytes) -> str | None:
    """The image type from its first bytes: jpeg, png, webp, heic, or another name, or None when unknown.

    >>> sniff(b"\\xff\\xd8\\xff\\xe0..."), sniff(b"\\x89PNG\\r\\n\\x1a\\n..."), sniff(b"GIF89a"), sniff(b"hello")
    ('jpeg', 'png', 'gif', None)
    """
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return "heic"
    if data[4:8] == b"ftyp" and data[8:12] in (b"avif", b"avis"):
        return "avif"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if data[:4] == b"%PDF":
        return "pdf"
    return None


async def read_upload(upload: UploadFile, limit: int) -> bytes:
    """The uploaded bytes, reading no more than ``limit`` + 1 of them (413 beyond ``limit``)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = await upload.read(1 << 20)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            msg = f"the photo is larger than {limit} bytes (MJ_MAX_UPLOAD_BYTES)"
            raise ApiError(413, "too_large", msg)
        chunks.append(chunk)
    return b"".join(chunks)


def check_photo(data: bytes, max_pixels: int, max_bytes: int | None = None) -> tuple[str, int, int]:
    """Check an upload before any decoding: its type from the bytes, then its size from the header alone.

    Returns (type, width, height) as stored (before EXIF orientation). Raises ``ApiError``: 400 ``bad_image`` (empty,
    unreadable header, too small), 415 ``unsupported_media_type``, 413 ``image_too_large`` (more than ``max_pixels``,
    or more than ``max_bytes`` to decode, ``decoded_bytes``: e.g. a decompression bomb).
    """
    if not data:
        raise ApiError(400, "bad_image", "the photo is empty")
    kind = sniff(data)
    if kind not in ACCEPTED:
        what = f"a {kind.upper()} file" if kind else "not an image this service knows"
        msg = f"the photo is {what}; send JPEG, PNG, WebP or HEIC"
        raise ApiError(415, "unsupported_media_type", msg)
    _register_heif()
    from PIL import Image, UnidentifiedImageError

    from vision.errors import ImageTooLargeError
    from vision.image import open_image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = open_image(io.BytesIO(data))  # reads the header only; no pixel is decoded here
            width, height = img.size
            fmt = img.format
            decoded = decoded_bytes(img, data)
    except ImageTooLargeError as exc:
        msg = f"the photo has too many pixels: {exc.__cause__}"
        raise ApiError(413, "image_too_large", msg) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, ImportError) as exc:
        what = "not an image Pillow knows" if isinstance(exc, UnidentifiedImageError) else type(exc).__name__
        msg = f"cannot read the photo's {kind.upper()} header ({what})"
        raise ApiError(400, "bad_image", msg) from exc
    if fmt not in _PILLOW_FORMATS[kind]:
        msg = f"the photo starts like {kind.upper()} but reads as {fmt}"
        raise ApiError(400, "bad_image", msg)
    if width * height > max_pixels:
        msg = f"the photo is {width}x{height} = {width * height} pixels, more than {max_pixels} (MJ_MAX_PIXELS)"
        raise ApiError(413, "image_too_large", msg)
    if max_bytes is not None and decoded > max_bytes:
        msg = (f"the photo would take {decoded} bytes to decode ({width}x{height}, {_layout(img, data)}), more than "
               f"{max_bytes} (MJ_MAX_DECODE_BYTES)")
        raise ApiError(413, "image_too_large", msg)
    if min(width, height) < MIN_SIDE:
        msg = f"the photo is {width}x{height}; a side of at least {MIN_SIDE} pixels is needed"
        raise ApiError(400, "bad_image", msg)
    return kind, width, height


def decoded_bytes(img: Any, data: bytes) -> int:
    """What decoding a photo produces, from its header alone: width x height x channels x bytes per channel x
    frames (every frame counted, though the reader decodes the first). A PNG's depth and channels are its IHDR's
    (Pillow reads 16 bits as 8 but still inflates every byte); a palette counts as RGB, which it becomes.

    >>> from PIL import Image
    >>> from api.deps import decoded_bytes
    >>> decoded_bytes(Image.new("RGB", (100, 50)), b"")
    15000
    """
    width, height = img.size
    channels, depth, frames = _samples(img, data)
    return int(width * height * channels * depth * frames)


_PNG_CHANNELS = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}  # IHDR colour type -> channels decoded (a palette becomes RGB)
_MODE_DEPTH = {"I;16": 2, "I;16B": 2, "I;16L": 2, "I": 4, "F": 4}


def _samples(img: Any, data: bytes) -> tuple[int, int, int]:
    """(channels, bytes per channel, frames) of the decoded photo, as its header says."""
    frames = max(1, int(getattr(img, "n_frames", 1) or 1))
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 26:
        return _PNG_CHANNELS.get(data[25], 4), 2 if data[24] == 16 else 1, frames
    depth = int(img.info.get("bit_depth", 8) or 8)  # HEIC: pillow-heif's; others 8 bits
    return len(img.getbands()), max(_MODE_DEPTH.get(img.mode, 1), 2 if depth > 8 else 1), frames


def _layout(img: Any, data: bytes) -> str:
    channels, depth, frames = _samples(img, data)
    return f"{channels} channels of {8 * depth} bits" + (f", {frames} frames" if frames > 1 else "")


_heif_registered = False


def _register_heif() -> None:
    global _heif_registered
    if _heif_registered:
        return
    try:
        from pillow_heif import register_heif_opener

        register_heif_opener()
    except ImportError:  # pragma: no cover - pillow-heif is a dependency; without it HEIC gets 400
        pass
    _heif_registered = True
