"""Reading the English caption of a flower tile: export sets print SPRING, Plum, AUT ... under the picture, and a set's
pictures are its own (a butterfly, a sun, a leaf) while the words are everyone's.

The caption reader is a text-line recogniser (PaddleOCR's PP-OCRv4 mobile recogniser, cut to the Latin letters and
digits: ``training/caption.py``). A tile is read at both ends, its caption band taken as if the classifier's up head
were right and as if it were wrong by half a turn (it is, on a third of an unseen style's flowers), or at the one end
the flower reader points to where it is sure; a band whose text is a caption word names that flower.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.crops import crop_tiles, tile_sides
from vision.errors import ModelNotFoundError

# each flower's words, 1f to 8f (the seasons spring to winter, then plum, orchid, chrysanthemum, bamboo), in full or
# cut short; compared in capitals
CAPTIONS = (
    ("SPRING", "Spring", "SPR"), ("SUMMER", "Summer", "SUM"), ("AUTUMN", "Autumn", "AUT", "FALL", "Fall"),
    ("WINTER", "Winter", "WIN"), ("PLUM", "Plum", "PLU"), ("ORCHID", "Orchid", "ORC"),
    ("CHRYSANTHEMUM", "Chrysanthemum", "MUM", "Mum", "CHR", "CHRYS"), ("BAMBOO", "Bamboo", "BAM"),
)
WORDS = {w.upper(): n for n, words in enumerate(CAPTIONS, 1) for w in words}
# the recogniser's input height (as trained; at 40 and 32 it read 71 and 64 of the held-out style's 80 flower
# captions, at 48 76) and the caption band of an upright tile's crop: rows and columns as shares of its height and
# width
HEIGHT = 48
CAPTION_SIDE = 128  # the tiles are cut for it to crops of this many pixels, the tile box's long side
BAND_ROWS, BAND_COLS = (0.55, 0.95), (0.05, 0.95)
SURE = 0.5  # the least mean probability of a reading's characters
# the lines are read this many at a time, all of one width (the widest's): a run of many lines is slower a line, its
# activations spilling out of the cache (18 lines 48 x 96 at once: 122 ms on one thread, two at a time 71 ms), and
# the readings are the same
CHUNK = 2


def caption_flower(text: str) -> int | None:
    """The flower (1 to 8) a caption names: a caption word, or a reading of three letters or more one letter off one
    word only (SUN is SUM; XUM, one letter off SUM and MUM, is none; OR is none).

    >>> caption_flower("AUT"), caption_flower("Chrysanthemun"), caption_flower("SUN"), caption_flower("XUM")
    (3, 7, 2, None)
    """
    word = "".join(ch for ch in text.upper() if ch.isalpha())
    if word in WORDS:
        return WORDS[word]
    near = {WORDS[w] for w in WORDS if len(word) > 2 and _one_off(word, w)}
    return near.pop() if len(near) == 1 else None


def _one_off(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one letter changed, added or dropped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


class CaptionReader:
    """``CaptionReader(session, path).flowers(crops)``: the flower each upright tile crop's caption names, or 0."""

    def __init__(self, session: object, path: Path) -> None:
        chars = session.get_modelmeta().custom_metadata_map.get("characters", "")
        outputs = session.get_outputs()
        if not chars or outputs[0].shape[-1] != len(chars) + 1:
            msg = (f"{path} is no caption reader: a caption reader's metadata lists its characters (``characters``), "
                   f"one for each of its outputs but the first, the blank (build it: python -m training caption WHEEL)")
            raise ModelNotFoundError(msg)
        self._session, self._input, self._chars = session, session.get_inputs()[0].name, chars

    def tiles_flowers(self, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, turns: np.ndarray,
                      flip: np.ndarray, both: np.ndarray) -> np.ndarray:
        """The flower (``flowers``) each box (N, 4) of the photo ``rgb`` names, its tile cut out straight (``tilt``,
        N radians), as wide as the tile, turned upright by ``turns`` quarter turns and, where ``flip``, half a turn
        more; read at both ends where ``both``."""
        if len(boxes) == 0:
            return np.zeros(0, int)
        tiles = []
        for crop, (w, h), turn, half in zip(crop_tiles(rgb, boxes, CAPTION_SIDE, margin=1.0, tilt=tilt),
                                            tile_sides(boxes, tilt), turns, flip, strict=True):
            width = CAPTION_SIDE * (h if turn % 2 else w) / max(w, h)  # the upright tile's width in the crop
            cut = min(max(0, round((CAPTION_SIDE - width) / 2)), CAPTION_SIDE // 2 - 1)
            tiles.append(np.rot90(crop, int(turn) + 2 * half)[:, cut:CAPTION_SIDE - cut])
        return self.flowers(tiles, both=both)

    def flowers(self, tiles: Sequence[np.ndarray], both: Sequence[bool] | np.ndarray | None = None) -> np.ndarray:
        """Upright tile crops (RGB uint8, the tile filling each) -> (N,) the flower each names (0: none), read at its
        bottom and, where ``both`` (default: every tile), at its top turned half a turn (0 too when the two ends name
        two flowers)."""
        both = np.ones(len(tiles), bool) if both is None else np.asarray(both, bool)
        bands, owner = [], []
        for i, (tile, two) in enumerate(zip(tiles, both, strict=True)):
            h, w = tile.shape[:2]
            rows, cols = slice(round(h * BAND_ROWS[0]), round(h * BAND_ROWS[1])), slice(round(w * BAND_COLS[0]),
                                                                                       round(w * BAND_COLS[1]))
            ends = (tile, tile[::-1, ::-1]) if two else (tile,)
            bands += [end[rows, cols] for end in ends]
            owner += [i] * len(ends)
        out = np.zeros(len(tiles), int)
        for i, (text, sure) in zip(owner, self.read(bands), strict=True):
            n = caption_flower(text) if sure >= SURE else None
            if n:
                out[i] = n if out[i] in (0, n) else -1
        return np.maximum(out, 0)

    def read(self, lines: list[np.ndarray]) -> list[tuple[str, float]]:
        """Each text line (RGB uint8, any size) read: its text and the mean probability of its characters (CTC,
        greedy)."""
        import cv2

        seen = [i for i, line in enumerate(lines) if line.size]  # an empty line reads nothing
        if not seen:
            return [("", 0.0)] * len(lines)
        widths = [max(8, round(lines[i].shape[1] * HEIGHT / lines[i].shape[0])) for i in seen]
        x = np.zeros((len(seen), 3, HEIGHT, max(widths)), np.float32)
        for j, (i, w) in enumerate(zip(seen, widths, strict=True)):
            x[j, :, :, :w] = cv2.resize(lines[i], (w, HEIGHT)).transpose(2, 0, 1) / 127.5 - 1.0
        read = np.concatenate([self._session.run(None, {self._input: x[k:k + CHUNK]})[0]
                               for k in range(0, len(x), CHUNK)])
        out = [("", 0.0)] * len(lines)
        for i, steps in zip(seen, read, strict=True):
            best, prob = steps.argmax(1), steps.max(1)
            keep = (best != 0) & np.r_[True, best[1:] != best[:-1]]  # blanks and repeats dropped
            text = "".join(self._chars[k - 1] for k in best[keep])
            out[i] = (text, float(prob[keep].mean()) if keep.any() else 0.0)
        return out
