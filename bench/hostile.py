"""Photos a hostile client sends (issue 29), made on the fly: small on the wire, costly or lying once read."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def png_zeros(width: int, height: int, depth: int = 8, colour_type: int = 2) -> bytes:
    """A PNG of zeros: small on the wire, ``width x height x channels x depth / 8`` bytes once inflated
    (``png_zeros(9999, 9999, 16, 6)``: 777 kB that inflate to 800 MB of 16-bit RGBA)."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    row = b"\0" * (1 + width * channels * depth // 8)
    deflate = zlib.compressobj(9)
    idat = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def lying_jpeg(width: int, height: int) -> bytes:
    """A small, whole JPEG whose header (SOF) says ``width`` x ``height``: its data ends long before that."""
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (30, 120, 60)).save(buf, "JPEG")
    data = bytearray(buf.getvalue())
    i = 2
    while data[i + 1] not in (0xC0, 0xC1, 0xC2):  # to the start-of-frame marker
        i += 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]
    data[i + 5 : i + 9] = struct.pack(">HH", height, width)
    return bytes(data)
