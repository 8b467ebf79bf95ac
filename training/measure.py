"""How well a detector reads labelled photos: the tiles read right (a labelled box matched by a detection at IoU 0.5
or more with the right name, each detection matching one box at most), the tiles found (matched, whatever the name:
the finder's recall), both per class, and the whole hands read exactly where the labels hold the hand.

``mjscore train`` measures the detector before and after on the dataset's held-out photos with it; the benchmarks
(``bench/eval_vision.py``, ``bench/learn.py``) match detections to true tiles with ``read_right``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.detection import Detection

IOU = 0.5


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of one xyxy box against many.

    >>> iou(np.array([0, 0, 10, 10.]), np.array([[0, 0, 10, 10.], [5, 0, 15, 10], [20, 20, 30, 30]])).round(3).tolist()
    [1.0, 0.333, 0.0]
    """
    x0, y0 = np.maximum(a[0], b[:, 0]), np.maximum(a[1], b[:, 1])
    x1, y1 = np.minimum(a[2], b[:, 2]), np.minimum(a[3], b[:, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a + area_b - inter, 1e-9)


def match(truth: Sequence[Sequence[float]], found: Sequence[Sequence[float]]) -> list[int | None]:
    """For each true box in turn, the index of the unused found box that overlaps it most at IoU 0.5 or more
    (None: none).

    >>> match([(0, 0, 10, 10), (20, 0, 30, 10)], [(21, 0, 31, 10), (1, 0, 11, 10), (0, 0, 9, 10)])
    [2, 0]
    """
    boxes = np.array(found, np.float64).reshape(-1, 4)
    used: set[int] = set()
    out: list[int | None] = []
    for box in truth:
        hit = None
        if len(boxes):
            ious = iou(np.array(box, np.float64), boxes)
            hit = next((int(j) for j in np.argsort(-ious) if ious[j] >= IOU and int(j) not in used), None)
        if hit is not None:
            used.add(hit)
        out.append(hit)
    return out


def read_right(truth: list[tuple[str, tuple]], dets: list[tuple[str, float, tuple]]) -> tuple[int, int]:
    """(true tiles matched at IoU >= 0.5 by a detection of the right name, true tiles); one detection per tile."""
    hits = match([box for _, box in truth], [d[2] for d in dets])
    return sum(j is not None and dets[j][0] == label for (label, _), j in zip(truth, hits, strict=True)), len(truth)


@dataclass
class Score:
    """What a detector read of some labelled photos."""

    photos: int = 0
    tiles: int = 0
    right: int = 0
    found: int = 0
    per_class: dict[str, list[int]] = field(default_factory=dict)  # name -> [read right, found, tiles]
    hands: int = 0  # photos whose labels hold the hand
    hands_exact: int = 0  # ... read exactly

    def add(self, names: Sequence[str], dets: Sequence[Detection], truth_boxes: Sequence[Sequence[float]]) -> None:
        self.photos += 1
        for name, j in zip(names, match(truth_boxes, [d.box for d in dets]), strict=True):
            counts = self.per_class.setdefault(name, [0, 0, 0])
            counts[2] += 1
            self.tiles += 1
            if j is not None:
                counts[1] += 1
                self.found += 1
                ok = dets[j].label == name
                counts[0] += ok
                self.right += ok

    def to_json(self) -> dict:
        share = lambda a, b: round(a / b, 4) if b else None  # noqa: E731
        return {"photos": self.photos, "tiles": self.tiles, "read_right": share(self.right, self.tiles),
                "found": share(self.found, self.tiles), "hands": self.hands,
                "hands_exact": share(self.hands_exact, self.hands),
                "per_class": {k: {"right": v[0], "found": v[1], "tiles": v[2]}
                              for k, v in sorted(self.per_class.items())}}


def same_hand(read: str | None, labelled: str) -> bool:
    """Whether the hand read is the labelled one, both in canonical notation (a hand that does not parse: no).

    >>> same_hand("456m123p[555z]789s5s+5s", "[555z]123p789s456m5s+5s"), same_hand("[555z]123p789s456m5s+5s", "x")
    (True, False)
    """
    from scorer import ScorerError, format_hand, parse_hand

    if not read:
        return False
    try:
        return format_hand(parse_hand(read)) == format_hand(parse_hand(labelled))
    except ScorerError:
        return False


def score_photos(detect: Callable[[Path], list[Detection]], photos: Sequence, progress: Callable[[], None] | None = None
                 ) -> Score:
    """``detect`` (a detector's ``detect``) scored on ``photos`` (``training.labelled.Photo``): tiles, and the hand
    read from the detections (``vision.relabel.read_hand``) where the photo's labels hold one."""
    from scorer import is_complete_tiles
    from vision.relabel import read_hand

    score = Score()
    for photo in photos:
        dets = detect(photo.image)
        score.add([t.name for t in photo.tiles], dets, [t.box for t in photo.tiles])
        if photo.hand:
            score.hands += 1
            score.hands_exact += same_hand(read_hand(dets, complete=is_complete_tiles)[0].hand, photo.hand)
        if progress:
            progress()
    return score
