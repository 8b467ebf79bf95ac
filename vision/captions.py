"""Reading the caption of a flower tile: export sets print SPRING, Plum, AUT ... under the picture, Taiwanese and Hong
Kong sets the flower's character (春夏秋冬, 梅蘭菊竹) in a top corner beside a seat numeral; a set's pictures are its
own (a butterfly, a sun, a plant) while the words and characters are everyone's.

The caption reader is a text-line recogniser (PaddleOCR's PP-OCRv4 mobile recogniser, all its characters:
``training/caption.py``). A tile's English caption is read in the band under its picture, among the Latin letters and
digits; where that names no flower, its character in the band across its top, then in its two top corners where
that names none, among every character the recogniser knows (a brush-drawn 冬 it takes for 券 names nothing). A tile
is read for its caption at both ends, as if the classifier's up head were right and as if it were wrong by half a
turn (it is, on a third of an unseen style's captioned flowers), or at the one end the flower reader points to where
it is sure; for its character at the first end (``CHARACTER_LINES``); a band whose text is a caption word, or a top or
corner holding one flower's character, names that flower.
"""

from __future__ import annotations

import hashlib
import os
import string
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import NamedTuple

import numpy as np

from vision.config import DetectorConfig
from vision.crops import FACE, crop_tiles, tile_sides
from vision.errors import ModelNotFoundError
from vision.faces import Faces, face_crops
from vision.readers import FLOWERS, mix_reading

# each flower's words, 1f to 8f (the seasons spring to winter, then plum, orchid, chrysanthemum, bamboo), in full or
# cut short; compared in capitals
CAPTIONS = (
    ("SPRING", "Spring", "SPR"), ("SUMMER", "Summer", "SUM"), ("AUTUMN", "Autumn", "AUT", "FALL", "Fall"),
    ("WINTER", "Winter", "WIN"), ("PLUM", "Plum", "PLU"), ("ORCHID", "Orchid", "ORC"),
    ("CHRYSANTHEMUM", "Chrysanthemum", "MUM", "Mum", "CHR", "CHRYS"), ("BAMBOO", "Bamboo", "BAM"),
)
WORDS = {w.upper(): n for n, words in enumerate(CAPTIONS, 1) for w in words}
LATIN = string.digits + string.ascii_uppercase + string.ascii_lowercase  # what a caption is read among
# each flower's character, 1f to 8f, and the simplified form a set may print (兰)
CHARACTERS = {ch: n for n, chars in enumerate(("春", "夏", "秋", "冬", "梅", "蘭兰", "菊", "竹"), 1) for ch in chars}
# the recogniser's input height (as trained; at 40 and 32 it read 71 and 64 of the held-out style's 80 flower
# captions, at 48 76) and the caption band of an upright tile's crop: rows and columns as shares of its height and
# width
HEIGHT = 48
CAPTION_SIDE = 128  # the tiles are cut for it to crops of this many pixels, the tile box's long side
BAND_ROWS, BAND_COLS = (0.55, 0.95), (0.05, 0.95)
# ... and a picture flower's top corners, where it prints its character and its seat numeral: squares this share of
# the tile's width, each read alone (a band across both read the numeral and lost the character beside it: on the
# held-out picture flowers the classifier and readers misnamed, squares of 0.4, 0.45, 0.5, 0.55 and 0.6 of the width
# named 18, 23, 20, 17 and 10 of 54 by their character, a band of the top 0.05 to 0.45 fewer still; a band from the
# very top, ``TOP``, reads more than the corners)
CORNER = 0.45
# ... and the band across the top of the tile, this share of its width high, read as one line (on the 193 held-out
# picture flowers, their true boxes turned upright by the up head and read at both ends: the corners named 133 right,
# the band alone 141, the two 148; none named a wrong flower, nor any of the 492 suit tiles a flower)
TOP = 0.4
SURE = 0.5  # the least mean probability of a caption's characters
LONG = 10  # a caption word this long is known two letters off (CHRYSANTHEMUM read Chrsanthemm)
# ... and the least probability of a flower's character (the held-out picture flowers through the detector: from 0.5
# 0.8238 read right, from 0.35 0.8446; ``docs/photo.md``)
CHARACTER_SURE = 0.35
# ... and of a tile's to which the names give at least ``CHARACTER_LIKELY`` of a flower: the held-out picture flowers
# through the detector 0.8705 -> 0.8912 read right, camerash's raw 11.jpg its 梅 (5f, read 4f), every other guard
# alike; taken from 0.25 for every tile, a 5s the names gave 0.08 of a flower read 夏, and from 0.15 even so gated
# ``eval_layout`` lost a hand (``docs/photo.md``, "A flower's character taken less surely")
CHARACTER_LESS = 0.25
CHARACTER_LIKELY = 0.3
# a photo's tiles are read for this many at most, those most likely flowers (a hand sets aside at most 8 flowers; 2
# more for the look-alikes of a set laid out: held-out sets read right 0.9685 at 8, 0.971 at 10 to 1000): a photo of a
# whole table asks it of a tile in six, at some 60 ms each (10 against 8 on tables of 120-250 tiles: median 1.07 times
# the time)
CAPTION_MOST = 10
# the lines are read this many at a time, all of one width (the widest's): a run of many lines is slower a line, its
# activations spilling out of the cache (18 lines 48 x 96 at once: 122 ms on one thread, two at a time 71 ms), and
# the readings are the same
CHUNK = 2
# ... and this many runs at once, each on a thread of its own (the recogniser's session runs a run on one thread): on
# the two cores the fresh photos from in front read in 0.87 of the time, the slowest 20 of them in 0.79
# (``bench.captions_once --saving runs``, ``docs/photo.md``)
RUNS = 2


def caption_flower(text: str) -> int | None:
    """The flower (1 to 8) a caption names: a caption word, or a reading of three letters or more one letter off one
    word only, or two off a word of ``LONG`` letters or more (SUN is SUM; XUM, one letter off SUM and MUM, is none;
    OR is none; Chrsanthemm, two letters dropped, is CHRYSANTHEMUM).

    >>> caption_flower("AUT"), caption_flower("Chrysanthemun"), caption_flower("SUN"), caption_flower("XUM")
    (3, 7, 2, None)
    >>> caption_flower("Chrsanthemm"), caption_flower("Chrsanthem"), caption_flower("SPRNG"), caption_flower("SPNG")
    (7, None, 1, None)
    """
    word = "".join(ch for ch in text.upper() if ch.isalpha())
    if word in WORDS:
        return WORDS[word]
    near = {WORDS[w] for w in WORDS if len(word) > 2 and _edits(word, w, 2 if len(w) >= LONG else 1)}
    return near.pop() if len(near) == 1 else None


def _edits(a: str, b: str, most: int) -> bool:
    """Whether ``most`` letters or fewer changed, added or dropped make ``a`` into ``b`` (Levenshtein's distance;
    words whose lengths differ by more are not compared letter by letter).

    >>> _edits("SUN", "SUM", 1), _edits("CHRSANTHEMM", "CHRYSANTHEMUM", 2), _edits("", "MUM", 2)
    (True, True, False)
    >>> _edits("ORC", "MUM", 2), _edits("FALL", "FALL", 0)
    (False, True)
    """
    if abs(len(a) - len(b)) > most:
        return False
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1] <= most


def character_flower(read: Sequence[tuple[str, float]], sure: float = CHARACTER_SURE) -> int:
    """The flower (1 to 8) whose character a band's reading (each character and its probability) holds with ``sure``
    or more, the seat numeral and anything else beside it; 0 where none does, or two flowers' do.

    >>> character_flower([("4", 0.99), ("冬", 0.74)]), character_flower([("兰", 0.4)]), character_flower([("竹", 0.25)])
    (4, 6, 0)
    >>> character_flower([("春", 0.9), ("梅", 0.8)]), character_flower([("券", 0.86)])
    (0, 0)
    >>> character_flower([("竹", 0.25)], CHARACTER_LESS)
    8
    """
    named = {CHARACTERS[ch] for ch, prob in read if ch in CHARACTERS and prob >= sure}
    return named.pop() if len(named) == 1 else 0


class FlowersRead(NamedTuple):
    """``CaptionReader.flowers``' answer for N tiles: the flower each names (0: none), and whether by an English
    caption (a set that captions its flowers captions them all: ``DetectorConfig.uncaptioned``)."""

    flower: np.ndarray     # (N,) int, 0 to 8
    captioned: np.ndarray  # (N,) bool


Verdicts = dict[int, tuple[int, bool]]  # a naming's tiles read: by tile, the flower named (0: none) and by caption


class Steps(NamedTuple):
    """A text line as the recogniser read it, step by step (T steps), kept as its readings need it: the likeliest of
    all its columns (the blank, 0, and each character) and that column's probability, for a character; the
    probabilities of the blank and the Latin letters and digits (T, 1 + 62), for a caption."""

    best: np.ndarray   # (T,) int
    prob: np.ndarray   # (T,) float
    latin: np.ndarray  # (T, 1 + len(LATIN))


class CaptionReader:
    """``CaptionReader(session, path).flowers(crops)``: the flower each upright tile crop's caption or character
    names, or 0.

    Within ``remembering()`` (one photo, on one thread), a run of lines the recogniser has read already is not read
    again: a photo is named more than once (as it lies, then as seen from above), and its tiles' captions are read
    each time."""

    def __init__(self, session: object, path: Path) -> None:
        chars = session.get_modelmeta().custom_metadata_map.get("characters", "")
        outputs = session.get_outputs()
        if not chars or outputs[0].shape[-1] != len(chars) + 1:
            msg = (f"{path} is no caption reader: a caption reader's metadata lists its characters (``characters``), "
                   f"one for each of its outputs but the first, the blank (build it: python -m training caption WHEEL)")
            raise ModelNotFoundError(msg)
        self._session, self._input, self._chars = session, session.get_inputs()[0].name, chars
        self._latin = np.array([0] + [1 + i for i, ch in enumerate(chars) if ch in LATIN])  # the blank and LATIN
        # a thread's own: ``remembering``'s runs read, by their input's digest (``runs``); the threads its runs are
        # read on at once, made when first needed, and the process they were made in (``pool``): a photo's own, as
        # the service names several photos at once (``max_concurrent_photos``)
        self._memo = threading.local()

    @contextmanager
    def remembering(self) -> Iterator[None]:
        """Runs read within this block (on this thread) are read once: a run read again takes its first reading,
        which is the same (the lines of a run are read together, at one width, so a run is remembered whole)."""
        before = getattr(self._memo, "runs", None)  # a block within a block shares its runs
        self._memo.runs = {} if before is None else before
        try:
            yield
        finally:
            self._memo.runs = before

    def named(self, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, p: np.ndarray, up: np.ndarray,
              half: np.ndarray, ask: np.ndarray, c: DetectorConfig, faces: Faces | None = None,
              known: Verdicts | None = None) -> tuple[np.ndarray, Verdicts]:
        """The names ``p`` (N, 43) of the tiles at ``boxes`` in the photo ``rgb``, with the flower named by its caption
        or its character given ``caption_weight`` of each tile ``ask`` (those that may be a flower and are named
        unsurely: ``caption_unsure``) whose caption or character is read; when an English caption is, the set captions
        its flowers: the other tiles with ``caption_gate`` of a flower are read for their captions too, and the
        flowers of the tiles asked that name none are weighed by ``uncaptioned``; when a character is, the set prints
        them, and the other tiles with ``character_gate`` of a flower are read for theirs too.
        ``up``: the up head's probabilities (N, 4); ``half``: the flower reader's probability that each tile, turned
        upright by the up head, is upside down (NaN: not read): a tile is read for its caption at both ends, or at
        one where the flower reader is sure which (``caption_sure``), and for its character at the first.
        ``faces``: the tiles' faces, where the classifier named them cut flat (``Faces.flat``): the tiles are read so
        cut too, as the classifier and the readers saw them (a flower lying in front of a standing hand, seen low:
        its box holds its side too, under the caption).
        ``known``: what an earlier naming of the same tiles read (its ``Verdicts``): those tiles are not read again,
        their verdicts taken. Returns the names, and the verdicts of every tile read (``known``'s among them)."""
        verdicts = dict(known or {})
        likely = p[:, FLOWERS].sum(1) >= CHARACTER_LIKELY  # their characters taken from CHARACTER_LESS
        read = partial(self._read_once, known or {}, verdicts, partial(
            self._read, rgb, boxes, tilt, up, half, c=c, faces=faces if faces is not None and faces.flat else None,
            likely=likely))
        unsure = _likeliest_flowers(p, ask)
        named, captioned = read(unsure, captions=True)
        # ... and the tiles named a flower however surely, for their English captions alone: a caption read corrects
        # a sure misnaming (a fine-tuned classifier's Spring named 2f); one not read takes nothing from them
        shown = _likeliest_flowers(p, np.setdiff1d(np.flatnonzero(np.isin(p.argmax(1), FLOWERS)), unsure))
        by_caption, in_captions = read(shown, captions=True, characters=False)
        ask, named, captioned = np.r_[unsure, shown], np.r_[named, by_caption], np.r_[captioned, in_captions]
        if c.caption_gate < 1.0 and captioned.any():  # the set captions its flowers: the likelier ones for theirs too
            likely = (p[:, FLOWERS].sum(1) >= c.caption_gate) & ~np.isin(p.argmax(1), FLOWERS)
            more = _likeliest_flowers(p, np.setdiff1d(np.flatnonzero(likely), ask))
            also = read(more, captions=True, characters=False)
            ask, named, captioned = np.r_[ask, more], np.r_[named, also.flower], np.r_[captioned, also.captioned]
        if c.character_gate < 1.0 and ((named > 0) & ~captioned).any():  # the set prints its flowers' characters
            more = _likeliest_flowers(p, np.setdiff1d(np.flatnonzero(p[:, FLOWERS].sum(1) >= c.character_gate),
                                                      np.r_[unsure, ask[named > 0]]))  # not read again
            by_character, _ = read(more, captions=False)
            ask, named = np.r_[ask, more], np.r_[named, by_character]
        if not named.any():
            return p, verdicts
        out = p.copy()
        read = ask[named > 0]  # a caption read as a flower reader sure of that flower
        out[read] = mix_reading(p[read], np.eye(len(FLOWERS) + 1)[named[named > 0] - 1], FLOWERS, c.caption_weight)
        if c.uncaptioned < 1.0 and captioned.any():
            blank = ask[(named == 0) & ~np.isin(ask, shown)]
            out[blank[:, None], FLOWERS] *= c.uncaptioned
            out[blank] /= out[blank].sum(1, keepdims=True)
        return out, verdicts

    @staticmethod
    def _read_once(known: Verdicts, verdicts: Verdicts, read: Callable[..., FlowersRead], ask: np.ndarray,
                   **how: bool) -> FlowersRead:
        """``read(ask, **how)`` for the tiles of ``ask`` not ``known``, and the verdicts of those that are; each tile
        read adds its verdict to ``verdicts`` (a tile read twice, for its caption then its character: the flower
        either named)."""
        new = np.array([i for i in ask.tolist() if i not in known], int)
        fresh = read(new, **how) if len(new) else FlowersRead(np.zeros(0, int), np.zeros(0, bool))
        got = dict(zip(new.tolist(), zip(fresh.flower.tolist(), fresh.captioned.tolist(), strict=True), strict=True))
        for i, (flower, captioned) in got.items():
            if flower or i not in verdicts:
                verdicts[i] = flower, captioned
        both = [known[i] if i in known else got[i] for i in ask.tolist()]
        return FlowersRead(np.array([f for f, _ in both], int), np.array([cap for _, cap in both], bool))

    def _read(self, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, up: np.ndarray, half: np.ndarray,
              ask: np.ndarray, c: DetectorConfig, likely: np.ndarray, captions: bool, characters: bool = True,
              faces: Faces | None = None) -> FlowersRead:
        """``tiles_flowers`` of the tiles ``ask`` (``faces``: all the tiles' faces, cut flat; ``likely``: all the
        tiles' flags, whose characters are taken from ``CHARACTER_LESS``), each read at both ends (its caption; its
        character at the first), or at the one the flower reader is sure of (``half``, ``caption_sure``); where that
        names no flower and the up head (``up``) gives its likeliest turn less than ``caption_across`` and its second
        a quarter turn from it, read at both ends of the second too."""
        sure = np.maximum(half[ask], 1 - half[ask]) >= c.caption_sure  # not read by the flower reader (NaN): unsure
        read = self.tiles_flowers(rgb, boxes[ask], tilt[ask], up[ask].argmax(1), sure & (half[ask] > 0.5),
                                  both=~sure, captions=captions, characters=characters,
                                  faces=None if faces is None else faces.of(ask), likely=likely[ask])
        turns = np.argsort(-up[ask], 1, kind="stable")[:, 1]
        across = (up[ask].max(1) < c.caption_across) & ((turns - up[ask].argmax(1)) % 2 == 1) & (read.flower == 0)
        if not across.any():
            return read
        other = self.tiles_flowers(rgb, boxes[ask][across], tilt[ask][across], turns[across],
                                   np.zeros(across.sum(), bool), both=np.ones(across.sum(), bool), captions=captions,
                                   characters=characters, faces=None if faces is None else faces.of(ask[across]),
                                   likely=likely[ask][across])
        flower, captioned = read.flower.copy(), read.captioned.copy()
        flower[across], captioned[across] = other.flower, other.captioned
        return FlowersRead(flower, captioned)

    def tiles_flowers(self, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, turns: np.ndarray,
                      flip: np.ndarray, both: np.ndarray, captions: bool = True,
                      characters: bool = True, faces: Faces | None = None,
                      likely: np.ndarray | None = None) -> FlowersRead:
        """The flower (``flowers``) each box (N, 4) of the photo ``rgb`` names, its tile cut out straight (``tilt``,
        N radians), or its face cut flat where ``faces`` (theirs) are given, as wide as the tile, turned upright by
        ``turns`` quarter turns and, where ``flip``, half a turn more; read at both ends where ``both``; by its
        characters alone where not ``captions``, by its caption alone where not ``characters``; its character taken
        from ``CHARACTER_LESS`` where ``likely``."""
        if len(boxes) == 0:
            return FlowersRead(np.zeros(0, int), np.zeros(0, bool))
        if faces is None:
            crops, sides = crop_tiles(rgb, boxes, CAPTION_SIDE, margin=1.0, tilt=tilt), tile_sides(boxes, tilt)
        else:  # each face as long as the crop, FACE as wide, upright or across
            crops = face_crops(rgb, faces.quads, faces.across, CAPTION_SIDE, margin=1.0)
            sides = np.where(faces.across[:, None], [1.0, FACE], [FACE, 1.0])
        tiles = []
        for crop, (w, h), turn, half in zip(crops, sides, turns, flip, strict=True):
            width = CAPTION_SIDE * (h if turn % 2 else w) / max(w, h)  # the upright tile's width in the crop
            cut = min(max(0, round((CAPTION_SIDE - width) / 2)), CAPTION_SIDE // 2 - 1)
            tiles.append(np.rot90(crop, int(turn) + 2 * half)[:, cut:CAPTION_SIDE - cut])
        return self.flowers(tiles, both=both, captions=captions, characters=characters, likely=likely)

    def flowers(self, tiles: Sequence[np.ndarray], both: Sequence[bool] | np.ndarray | None = None,
                captions: bool = True, characters: bool = True,
                likely: Sequence[bool] | np.ndarray | None = None) -> FlowersRead:
        """Upright tile crops (RGB uint8, the tile filling each) -> the flower each names (0: none), by the caption
        at its bottom (where ``captions``) or the character at its top (``CHARACTER_LINES``, where ``characters``),
        read as it stands and, where ``both`` (default: every tile), turned half a turn (0 when they name two
        flowers); its character taken from ``CHARACTER_LESS`` where ``likely`` (default: from ``CHARACTER_SURE``)."""
        both = np.ones(len(tiles), bool) if both is None else np.asarray(both, bool)
        likely = np.zeros(len(tiles), bool) if likely is None else np.asarray(likely, bool)
        ends = [(tile, tile[::-1, ::-1]) if two else (tile,) for tile, two in zip(tiles, both, strict=True)]
        bands, owner = [], []
        for i, tile_ends in enumerate(ends):
            h, w = tile_ends[0].shape[:2]
            rows, cols = slice(round(h * BAND_ROWS[0]), round(h * BAND_ROWS[1])), slice(round(w * BAND_COLS[0]),
                                                                                       round(w * BAND_COLS[1]))
            bands += [end[rows, cols] for end in tile_ends]
            owner += [i] * len(tile_ends)
        # the captions and the character lines each read at their own width (the captions as they were read alone)
        caption, character = np.zeros(len(tiles), int), np.zeros(len(tiles), int)
        for i, steps in zip(owner, self._run(bands) if captions else [None] * len(owner), strict=True):
            text, sure = _mean(_decoded(steps, self._latin, self._chars))
            n = caption_flower(text) if sure >= SURE else None
            if n:
                caption[i] = n if caption[i] in (0, n) else -1
        # the top band of a tile whose caption named no flower (a captioned set prints no character), then its
        # corners where it named none (``CHARACTER_LINES``)
        for k, cut in CHARACTER_LINES if characters else ():
            asked = [i for i, tile_ends in enumerate(ends)
                     if len(tile_ends) > k and caption[i] == 0 and character[i] == 0]
            lines = [cut(ends[i][k]) for i in asked]
            for i, steps in zip(np.repeat(asked, [len(x) for x in lines]).astype(int),
                                self._run([line for x in lines for line in x]), strict=True):
                sure = CHARACTER_LESS if likely[i] else CHARACTER_SURE
                n = character_flower(_decoded(steps, None, self._chars), sure)
                if n:
                    character[i] = n if character[i] in (0, n) else -1
        caption, character = np.maximum(caption, 0), np.maximum(character, 0)
        flower = np.where((caption > 0) & (character > 0) & (caption != character), 0, np.maximum(caption, character))
        return FlowersRead(flower, (caption > 0) & (flower > 0))

    def read(self, lines: list[np.ndarray]) -> list[tuple[str, float]]:
        """Each text line (RGB uint8, any size) read as a caption, among the Latin letters and digits: its text and
        the mean probability of its characters (CTC, greedy)."""
        return [_mean(_decoded(steps, self._latin, self._chars)) for steps in self._run(lines)]

    def _run(self, lines: list[np.ndarray]) -> list[Steps | None]:
        """Each text line (RGB uint8, any size) through the recogniser: its ``Steps``; None for an empty line."""
        import cv2

        seen = [i for i, line in enumerate(lines) if line.size]  # an empty line reads nothing
        out: list[Steps | None] = [None] * len(lines)
        if not seen:
            return out
        widths = [max(8, round(lines[i].shape[1] * HEIGHT / lines[i].shape[0])) for i in seen]
        x = np.zeros((len(seen), 3, HEIGHT, max(widths)), np.float32)
        for j, (i, w) in enumerate(zip(seen, widths, strict=True)):
            x[j, :, :, :w] = cv2.resize(lines[i], (w, HEIGHT)).transpose(2, 0, 1) / 127.5 - 1.0
        read = [steps for chunk in self._chunks([x[k:k + CHUNK] for k in range(0, len(x), CHUNK)]) for steps in chunk]
        for i, steps in zip(seen, read, strict=True):
            out[i] = steps
        return out

    def _chunks(self, chunks: list[np.ndarray]) -> list[list[Steps]]:
        """Runs of lines (each (n, 3, HEIGHT, W)) through the recogniser, ``RUNS`` at once, each on its own thread
        (its session runs a run on one: ``vision.sessions``), or as ``remembering`` read them before. Each run is read
        alone, as one at a time reads it, so the readings are the same."""
        runs = getattr(self._memo, "runs", None)
        keys = [None if runs is None else hashlib.blake2b(x.tobytes(), digest_size=16).digest() + repr(x.shape).encode()
                for x in chunks]
        out = [None if key is None else runs.get(key) for key in keys]
        todo = [k for k, read in enumerate(out) if read is None]
        if len(todo) > 1 and RUNS > 1:
            pool = getattr(self._memo, "pool", None)
            if pool is None or pool[0] != os.getpid():  # a child forked keeps no thread of its parent
                pool = self._memo.pool = os.getpid(), ThreadPoolExecutor(RUNS, thread_name_prefix="captions")
            read = list(pool[1].map(self._through, [chunks[k] for k in todo]))
        else:
            read = [self._through(chunks[k]) for k in todo]
        for k, steps in zip(todo, read, strict=True):
            out[k] = steps
            if keys[k] is not None:
                runs[keys[k]] = steps
        return out

    def _through(self, x: np.ndarray) -> list[Steps]:
        """A run of lines (n, 3, HEIGHT, W) through the recogniser."""
        return [Steps(steps.argmax(1), steps.max(1), steps[:, self._latin])
                for steps in self._session.run(None, {self._input: x})[0]]


def _likeliest_flowers(p: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Of the tiles ``ids``, the ``CAPTION_MOST`` likeliest flowers by the names ``p``, in order."""
    return np.sort(ids[np.argsort(-p[ids][:, FLOWERS].sum(1), kind="stable")[:CAPTION_MOST]])


def _corners(tile: np.ndarray) -> list[np.ndarray]:
    """An upright tile's two top corners, squares of ``CORNER`` of its width."""
    side = round(tile.shape[1] * CORNER)
    return [tile[:side, :side], tile[:side, tile.shape[1] - side:]]


def _top(tile: np.ndarray) -> list[np.ndarray]:
    """An upright tile's top band, ``TOP`` of its width high."""
    return [tile[:round(tile.shape[1] * TOP)]]


# the lines read for a tile's character, each only where the lines before named no flower: (the end, 0 as the tile
# stands, 1 turned half a turn; the cut). Through the detector (``bench.eval_tile_sets``' 193 picture flowers): the
# corners of both ends 0.8187 read right, the bands of both 0.8342, the band then the corners of the first end 0.8549
# (and as many with the second end's band or corners after them, or with the corners first). Where nothing names a
# flower (a brush-drawn set's characters), these lines are 1.75 times as wide as the corners of both ends (a band
# reads as 120 pixels, a corner 48): camerash's six whole sets of 143 to 156 tiles take 1.26 times as long (medians
# of 5). The second end's band, read after these until 2026-11-30 for the tiles the up head might turn upside down,
# named no flower more: the 193 picture flowers, their photos upright and turned half a turn (161 of 193 right each
# way, with it or without), and camerash's held-out flowers read alike without it; it was a fifth of the lines read
# on photos from in front (``docs/photo.md``, "A tile's character read at its first end")
CHARACTER_LINES = ((0, _top), (0, _corners))


def _decoded(steps: Steps | None, columns: np.ndarray | None, chars: str) -> list[tuple[str, float]]:
    """A line's ``steps`` decoded greedily (CTC: blanks and repeats dropped), among the Latin ``columns`` (the blank's
    first, as ``steps.latin`` holds them; None: among all), their probabilities taken among those columns alone:
    each character and its probability."""
    if steps is None:
        return []
    if columns is None:
        best, prob = steps.best, steps.prob
    else:
        latin = steps.latin / steps.latin.sum(1, keepdims=True)
        best, prob = latin.argmax(1), latin.max(1)
    keep = (best != 0) & np.r_[True, best[1:] != best[:-1]]
    ids = best[keep] if columns is None else columns[best[keep]]
    return [(chars[k - 1], float(p)) for k, p in zip(ids, prob[keep], strict=True)]


def _mean(read: list[tuple[str, float]]) -> tuple[str, float]:
    """A reading's text and the mean probability of its characters (0 for none)."""
    return "".join(ch for ch, _ in read), float(np.mean([p for _, p in read])) if read else 0.0
