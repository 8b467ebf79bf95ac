"""Tile styles from a font's Unicode mahjong tiles (U+1F000...): each glyph's inside, inked top and bottom apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from training.fetch_art import FACE_H, FACE_W
from training.palette import BLACK, BLUE, FACE, GREEN, RED, pick

# ------------------------------------------------------------------------------- Unicode mahjong glyphs ----
UNICODE_ORDER = (["1z", "2z", "3z", "4z", "7z", "6z", "5z"] + [f"{n}m" for n in range(1, 10)]
                 + [f"{n}s" for n in range(1, 10)] + [f"{n}p" for n in range(1, 10)]
                 + ["5f", "6f", "8f", "7f", "1f", "2f", "3f", "4f"])


def _inside_outline(ink: np.ndarray) -> tuple[int, int, int, int]:
    """The box inside a glyph's drawn tile outline: past the outermost near-full rows and columns of ink."""
    h, w = ink.shape
    cols, rows = ink.sum(0) > 0.7 * h, ink.sum(1) > 0.7 * w

    def inward(full: np.ndarray, n: int) -> tuple[int, int]:
        """Skip the outline's run of full lines at each end (only the run that starts at the edge)."""
        lo, hi = 0, n - 1
        while lo < n // 5 and not full[lo]:
            lo += 1
        while lo < n // 5 and full[lo]:
            lo += 1
        while hi > n - n // 5 and not full[hi]:
            hi -= 1
        while hi > n - n // 5 and full[hi]:
            hi -= 1
        pad = max(2, n // 60)
        return (lo + pad, hi - pad + 1) if lo < n // 5 and hi > n - n // 5 else (0, n)

    x0, x1 = inward(cols, w)
    y0, y1 = inward(rows, h)
    return x0, y0, x1, y1


def unicode_faces(font_path: Path, dest: Path, rng: np.random.Generator) -> None:
    """A style from a font's mahjong tiles (U+1F000...): the glyph's inside, inked top and bottom apart."""
    font = ImageFont.truetype(str(font_path), 400)
    face = pick(rng, FACE)
    dest.mkdir(parents=True, exist_ok=True)
    for i, label in enumerate(UNICODE_ORDER):
        mask = Image.new("L", (700, 700), 0)
        ImageDraw.Draw(mask).text((100, 50), chr(0x1F000 + i), font=font, fill=255)
        bb = mask.getbbox()
        mask = mask.crop(bb)
        inner = mask.crop(_inside_outline(np.asarray(mask) > 127))
        ink_top = pick(rng, BLACK + BLUE) if label[1] in "mz" else pick(rng, GREEN + BLUE)
        ink_bottom = pick(rng, RED) if label[1] == "m" else ink_top
        if label in ("7z",):
            ink_top = ink_bottom = pick(rng, RED)
        if label == "6z":
            ink_top = ink_bottom = pick(rng, GREEN)
        canvas = Image.new("RGB", inner.size, face)
        ink = Image.new("RGB", inner.size, ink_top)
        ink.paste(Image.new("RGB", (inner.width, inner.height // 2), ink_bottom), (0, inner.height // 2))
        canvas.paste(ink, (0, 0), inner)
        canvas.resize((FACE_W, FACE_H), Image.LANCZOS).save(dest / f"{label}.png")
