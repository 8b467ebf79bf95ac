"""The readers: networks that each read again, upright, the tiles that may be of their family (characters, flowers)
or the index numeral a set may print on them (marks), which tiles each reads, and how their readings are mixed into
the classifier's names (``read_again``, which ``vision/detector.py`` calls; ``python -m training reader`` trains
them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.crops import CROP, quarter_turned
from vision.errors import ModelNotFoundError
from vision.names import FLOWER_NAMES, NAMES

FLOWERS = np.array([NAMES.index(f) for f in FLOWER_NAMES])
# the mark reader's names: an index numeral a tile prints, or none (``other``); the numeral a tile of each name prints
# when its set prints one: a suit tile its number, a flower its number in its row (0..8 for 1..9; -1: none)
MARK_NAMES = (*"123456789", "other")
MARK_OF = np.array([int(n[0]) - 1 if n[1] in "mps" else (int(n[0]) - 1) % 4 if n[1] == "f" else -1
                    for n in NAMES[:-1]] + [-1])
NUMBERED = np.array([n[1] in "mps" for n in NAMES])  # the suits' tiles, which print their number where a set indexes
# the seat reader's names: a flower's seat, 1 to 4 (spring and plum 1 ... winter and bamboo 4), read by its seat
# numeral, character, caption or picture, or ``other`` for a tile not a flower; the seat of each flower (0..3, the
# numeral a set prints on it)
SEAT_NAMES = (*"1234", "other")
SEAT_OF = MARK_OF[FLOWERS]


@dataclass(frozen=True, slots=True)
class Reader:
    """A reader: a network that reads again, upright, the tiles that may be of its family (``load`` it)."""

    session: object  # an onnxruntime.InferenceSession
    ids: np.ndarray  # the NAMES ids of its names but the last, "other", in the order of its outputs
    side: int  # the crop side it was exported for
    marks: bool = False  # the mark reader: it reads a tile's index numeral (``MARK_NAMES``), not its name
    seats: bool = False  # the seat reader: it reads a flower's seat (``SEAT_NAMES``), not which of the two it is

    @property
    def flowers(self) -> bool:
        """The flower reader: it names flowers only (the seat reader, which reads their seats, is not one)."""
        return not self.seats and len(self.ids) > 0 and set(self.ids) <= set(FLOWERS)

    @classmethod
    def load(cls, session: object, path: Path) -> Reader:
        """A reader's session and its names, from the model's metadata (``names``: its names in order, ``other``
        last); a model without them is no reader."""
        names = session.get_modelmeta().custom_metadata_map.get("names", "").split(",")
        if tuple(names) == MARK_NAMES:
            return cls(session, np.zeros(0, np.int64), crop_side(session), marks=True)
        if tuple(names) == SEAT_NAMES:
            return cls(session, FLOWERS, crop_side(session), seats=True)
        if len(names) < 2 or names[-1] != "other" or not set(names[:-1]) <= set(NAMES) or len(set(names)) < len(names):
            msg = (f"{path} is no reader: its metadata names {names[:-1] or 'no tiles'}, a reader names some of the "
                   f"tiles and then 'other' (python -m training reader)")
            raise ModelNotFoundError(msg)
        return cls(session, np.array([NAMES.index(n) for n in names[:-1]]), crop_side(session))


def mix_reading(p: np.ndarray, q: np.ndarray, ids: np.ndarray, weight: float) -> np.ndarray:
    """The classifier's names ``p`` (N, 43) averaged with a reader's ``q`` (N, len(ids) + 1: the names ``ids``, then
    other), the reader's counting ``weight``. The reader's ``other`` is shared among the other names as the
    classifier shares them.

    >>> p = np.zeros((1, len(NAMES))); p[0, NAMES.index("1p")] = 0.8; p[0, NAMES.index("7f")] = 0.2
    >>> q = np.array([[0, 0, 0, 0, 0, 0, 0.9, 0, 0.1]])  # the flower reader: 7f, surely
    >>> m = mix_reading(p, q, np.arange(NAMES.index("1f"), NAMES.index("8f") + 1), 0.5)
    >>> NAMES[int(m.argmax())], round(float(m[0, NAMES.index("1p")]), 2), round(float(m.sum()), 6)
    ('7f', 0.45, 1.0)
    """
    r = p.copy()
    r[:, ids] = 0.0
    r *= q[:, -1:] / np.maximum(r.sum(1, keepdims=True), 1e-12)
    r[:, ids] = q[:, :-1]
    m = (1.0 - weight) * p + weight * r
    return m / m.sum(1, keepdims=True)  # when the classifier gave the family all, the reader's other went nowhere


def mix_marks(p: np.ndarray, q: np.ndarray, weight: float) -> np.ndarray:
    """The classifier's names ``p`` (N, 43) weighed by what the mark reader saw (``q``, N, 10: the numerals 1..9,
    then none): a tile of a name that prints numeral k (``MARK_OF``) may show k or, in a set without indices, none
    (q[k] + q[none]); any other tile shows none (q[none]). ``weight``: the power the reading is taken to (0: none).

    >>> p = np.zeros((1, len(NAMES))); p[0, NAMES.index("7p")] = 0.9; p[0, NAMES.index("6p")] = 0.1
    >>> q = np.array([[0, 0, 0, 0, 0, 0.98, 0, 0, 0, 0.02]])  # a "6", surely
    >>> m = mix_marks(p, q, 1.0); NAMES[int(m.argmax())], round(float(m.sum()), 6)
    ('6p', 1.0)
    >>> bool(np.allclose(mix_marks(p, np.eye(10)[[9]], 1.0), p))  # no numeral seen: the names as they were
    True
    """
    seen = np.where(MARK_OF >= 0, q[:, MARK_OF.clip(0)] + q[:, -1:], q[:, -1:])
    m = p * seen ** weight
    return m / np.maximum(m.sum(1, keepdims=True), 1e-12)


def marks_printed(p: np.ndarray, q: np.ndarray, agree: float, least: int) -> bool:
    """Whether a photo's set prints index numerals, as the mark reader reads (``q``, N, 10) its suits' tiles the
    classifier names surely (``p``, N, 43): ``least`` such tiles or more, and ``agree`` of them or more read with their
    name's numeral (at 0.5 or more). A set without indices shows none, and the reader, asked of tiles it need not
    read, may see one in a bamboo or a jade tile's veins.

    >>> p = np.zeros((5, len(NAMES))); p[:4, NAMES.index("5m")] = 0.99; p[4, NAMES.index("5m")] = 0.9  # 6m as 5m
    >>> q = np.zeros((5, 10)); q[:4, 4] = 0.99; q[4, 5] = 0.97  # "5" four times, then a "6"
    >>> marks_printed(p, q, 0.75, 4), marks_printed(p, q, 0.9, 4), marks_printed(p[:2], q[:2], 0.75, 4)
    (True, False, False)
    """
    return len(p) >= least and bool(np.mean(_as_named(p, q)) >= agree)


def marks_first(sample: int, agree: float) -> int:
    """How many tiles of a sample of ``sample`` tell, when none of them reads with its name's numeral, that fewer
    than ``agree`` of the sample can (``marks_printed``): one more than the sample may hold so. A set without indices
    is told so by that many tiles read, not the whole sample.

    >>> marks_first(8, 0.8), marks_first(4, 0.8), marks_first(5, 0.75), marks_first(8, 0.0), marks_first(8, 2.0)
    (2, 1, 2, 8, 1)
    """
    need = next((k for k in range(sample + 1) if k / max(sample, 1) >= agree), sample + 1)
    return max(1, min(sample, sample - need + 1))


def marks_doubt(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Which tiles the mark reader (``q``, N, 10) reads with a numeral, at 0.5 or more, not that of their name in ``p``
    (N, 43).

    >>> p = np.zeros((3, len(NAMES))); p[:, NAMES.index("5m")] = 0.9
    >>> q = np.zeros((3, 10)); q[0, 4] = q[1, 5] = q[2, 9] = 0.9  # "5", "6", none
    >>> marks_doubt(p, q).tolist()
    [False, True, False]
    """
    return ~_as_named(p, q) & (q[:, :-1].max(1) >= 0.5)


def _as_named(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Whether the mark reader (``q``) reads each tile with its name's numeral in ``p``, at 0.5 or more (never for a
    name that prints none)."""
    k = MARK_OF[p.argmax(1)]
    return (q[np.arange(len(q)), k.clip(0)] >= 0.5) & (k >= 0)


def mix_seats(p: np.ndarray, q: np.ndarray, weight: float) -> np.ndarray:
    """The classifier's names ``p`` (N, 43) with each tile's flower probability shared again among the flowers by
    the seat reader's reading (``q``, N, 5: the seats 1..4, then other): each flower's share weighed by its seat's
    probability, taken to the power ``weight`` (0: not at all). What the reader gives ``other`` (a tile it does not
    know for a flower: a real set's, unlike any it learnt) says nothing of the seat, and is shared evenly among the
    four. Which of a seat's two flowers (spring or plum) and how likely a flower at all stay the classifier's.

    >>> p = np.zeros((1, len(NAMES))); p[0, NAMES.index("5f")] = 0.4; p[0, NAMES.index("7f")] = 0.3
    >>> p[0, NAMES.index("3f")] = 0.1; p[0, NAMES.index("1s")] = 0.2
    >>> q = np.array([[0.01, 0.01, 0.9, 0.01, 0.07]])  # seat 3, surely
    >>> m = mix_seats(p, q, 1.0)
    >>> NAMES[int(m.argmax())], round(float(m[0, FLOWERS].sum()), 6), float(m[0, NAMES.index("1s")])
    ('7f', 0.8, 0.2)
    >>> m = mix_seats(p, np.array([[0.02, 0.02, 0.05, 0.02, 0.89]]), 1.0)  # no flower it knows: 5f stays first
    >>> NAMES[int(m.argmax())], round(float(m[0, NAMES.index("5f")]), 3)
    ('5f', 0.377)
    """
    seat = q[:, :4] + q[:, 4:] / 4
    seat /= np.maximum(seat.sum(1, keepdims=True), 1e-12)
    flowers = p[:, FLOWERS]
    w = flowers * seat[:, SEAT_OF] ** weight
    out = p.copy()
    out[:, FLOWERS] = w * flowers.sum(1, keepdims=True) / np.maximum(w.sum(1, keepdims=True), 1e-12)
    return out


def crop_side(session: object) -> int:
    """The crop side an ONNX tile network was exported for (its input's last dimension)."""
    side = session.get_inputs()[0].shape[-1]
    return side if isinstance(side, int) else CROP


Cut = Callable[[np.ndarray, int], np.ndarray]  # the tiles at these indices cut for a network of this crop side


def asked(p: np.ndarray, family: np.ndarray, config: object, gate: float | None = None) -> np.ndarray:
    """The tiles a reader of ``family`` (names' ids or a mask) reads: those the names ``p`` give the family ``gate``
    (None: ``config.reader_gate``) or more, and their own name less than ``config.reader_sure``."""
    gate = config.reader_gate if gate is None else gate
    return np.flatnonzero((p[:, family].sum(1) >= gate) & (p.max(1) < config.reader_sure))


def read_again(reader: Reader, cut: Cut, p: np.ndarray, up: np.ndarray, config: object
               ) -> tuple[np.ndarray, np.ndarray]:
    """``p`` with ``reader``'s names mixed in, for the tiles the classifier thinks may be of its family and does not
    name surely (``asked``); and, for those tiles, the probability the reader gives to their being upside down as
    turned (NaN for the others). ``cut``: the tiles cut as the reader takes them.

    Each is read once, turned upright by the classifier's up direction (``up``). That head is wrong by half a turn on
    a third of an unseen style's flowers, so the readers learnt to read tiles either way up (``models/README.md``).
    The mark reader reads the suits' tiles named surely too, where the set prints indices (``_indexed``): the first
    of them in the same run as the tiles asked."""
    c = config
    ask = asked(p, MARK_OF >= 0 if reader.marks else reader.ids, c)
    if reader.seats:  # a tile named a flower: its flowers' share, gathered on one, would outweigh a back's
        ask = ask[np.isin(p[ask].argmax(1), FLOWERS)]
    sure = _sample_of(p, c) if reader.marks else np.zeros(0, int)
    first = sure[:marks_first(min(len(sure), c.marks_sample), c.marks_agree)]
    upside = np.full(len(p), np.nan)
    out = p.copy()
    if len(ask) + len(first) == 0:
        return out, upside
    q, turns = _reading(reader, cut, up, np.concatenate([ask, first]))
    if len(ask):
        qa, turns = q[:len(ask)], turns[:len(ask)]
        upside[ask] = turns[:, 2] / (turns[:, 0] + turns[:, 2])
        out[ask] = (mix_marks(p[ask], qa, c.mark_weight) if reader.marks else mix_seats(p[ask], qa, c.seat_weight)
                    if reader.seats else mix_reading(p[ask], qa, reader.ids, c.reader_weight))
    if len(first):
        out = _indexed(reader, cut, up, p, out, sure, q[len(ask):], c)
    return out, upside


def _reading(reader: Reader, cut: Cut, up: np.ndarray, read: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``reader``'s names and up directions (softmaxed) of the tiles ``read``, each turned upright by ``up``."""
    # bin k: the art's up is k quarter turns clockwise; k turns back make it upright
    names, turns = reader.session.run(None, {"crops": quarter_turned(cut(read, reader.side), up[read].argmax(1))})
    return softmax(names), softmax(turns)


def _sample_of(p: np.ndarray, config: object) -> np.ndarray:
    """The suits' tiles ``p`` names surely (``reader_sure`` or more), which tell whether the set prints indices:
    none where they are fewer than ``marks_least``, or where the mark reader is not asked (``marks_agree`` above 1)."""
    c = config
    sure = np.flatnonzero(NUMBERED[p.argmax(1)] & (p.max(1) >= c.reader_sure))
    return np.zeros(0, int) if c.marks_agree > 1 or len(sure) < c.marks_least else sure


def _indexed(reader: Reader, cut: Cut, up: np.ndarray, p: np.ndarray, out: np.ndarray, sure: np.ndarray,
             q: np.ndarray, config: object) -> np.ndarray:
    """``out`` with the mark reader's reading mixed in for the suits' tiles ``p`` names surely (``sure``) that it
    reads with a numeral not their name's, where the photo's set prints indices (``marks_printed``), as the first
    ``marks_sample`` of them read it. The first ``marks_first`` of those are read already (``q``): where they all read
    otherwise, the set prints none, and the rest of the sample is not read. The others are read only where it
    prints them."""
    c = config
    sample = sure[:c.marks_sample]
    if len(q) < len(sample):
        if not _as_named(p[sample[:len(q)]], q).any():
            return out  # however the rest of the sample read, too few would agree
        q = np.concatenate([q, _reading(reader, cut, up, sample[len(q):])[0]])
    if not marks_printed(p[sample], q, c.marks_agree, c.marks_least):
        return out
    if len(sure) > len(sample):
        q = np.concatenate([q, _reading(reader, cut, up, sure[len(sample):])[0]])
    doubted = marks_doubt(p[sure], q)
    out = out.copy()
    out[sure[doubted]] = mix_marks(p[sure[doubted]], q[doubted], c.mark_weight)
    return out


def softmax(z: np.ndarray) -> np.ndarray:
    """Each row of logits ``z`` (N, K) as probabilities."""
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)
