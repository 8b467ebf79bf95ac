"""The never-worse guard of ``mjscore train``: a fine-tuned network goes into the weights folder only if it reads
photos it was not trained on no worse than the shipped one.

Three checks, each read by the shipped detector and by the detector with a fine-tuned network in its place:

- ``held_out``: the dataset's held-out photos (its ``val`` split): tiles read right (``training/measure.py``);
- ``replay``: a seeded sample of the replay datasets' ``val`` photos (generated hands of the training styles; the
  fine-tune trains on their ``train`` split only): tiles read right;
- ``real``: a seeded sample of the camerash photos held out of all training, each pasted at hand-photo scale on a
  plain table (``training.real.in_scene``): the photos whose most confident detection names the tile.

The rule (``verdict``): the new network is kept when it reads at least as many of the held-out photos' tiles right
as the shipped one, and on each of the other two checks no fewer than the shipped one less one per ``LOSS_PER``
tiles (photos) of that check, rounded down (a check of 365 tiles allows 1 fewer, one of 120 photos none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from training.labelled import Photo, read_dataset
from training.measure import score_photos
from training.real import in_scene, real_photo_files
from vision.detection import Detection

LOSS_PER = 300  # the other checks allow one fewer read right per this many tiles (photos)
REPLAY_PHOTOS = 20  # replay val photos checked
REAL_PHOTOS = 120  # held-out real photos checked
CHECKS = ("held_out", "replay", "real")
RULE = (f"a fine-tuned network is kept when it reads at least as many of the dataset's held-out tiles right as the "
        f"shipped one, and no fewer of the replay photos' tiles and of the real photos than the shipped one less "
        f"one per {LOSS_PER} (rounded down)")


@dataclass(frozen=True)
class Checks:
    """The photos the guard reads: the dataset's held-out ones, replay photos not trained on, and real photos (their
    tile name and the photo pasted in a scene)."""

    held_out: tuple[Photo, ...]
    replay: tuple[Photo, ...] = ()
    real: tuple[tuple[str, bytes], ...] = ()

    def __len__(self) -> int:
        return len(self.held_out) + len(self.replay) + len(self.real)


def make_checks(held_out: Sequence[Photo], replay: Sequence[Path], real: Path | None, seed: int, work: Path,
                replay_photos: int = REPLAY_PHOTOS, real_photos: int = REAL_PHOTOS) -> Checks:
    """The checks of a run: ``replay_photos`` of the replay datasets' val photos and ``real_photos`` of the held-out
    real photos under ``real`` (None: none), both picked by ``seed``; the same for the same arguments."""
    rng = np.random.default_rng(seed)
    pool = [p for d in replay for p in read_dataset(str(d), work).split("val")]
    rep = tuple(pool[k] for k in sorted(rng.permutation(len(pool))[:replay_photos]))
    files = real_photo_files(real, holdout=True) if real else []
    scene = np.random.default_rng(seed + 1)
    picked = sorted(rng.permutation(len(files))[:real_photos])
    return Checks(tuple(held_out), rep, tuple((files[k][0], in_scene(files[k][1].read_bytes(), scene)) for k in picked))


def read(detect: Callable[..., list[Detection]], checks: Checks, progress: Callable[[], None] | None = None) -> dict:
    """What ``detect`` (a detector's ``detect``) reads of the checks' photos: the held-out photos' score in full
    (``Score.to_json``), and per check the count read right and of how many (``right``, ``of``)."""
    held = score_photos(detect, checks.held_out, progress)
    replay = score_photos(detect, checks.replay, progress)
    real = 0
    for name, jpg in checks.real:
        dets = detect(jpg)
        real += bool(dets) and max(dets, key=lambda d: d.confidence).label == name
        if progress:
            progress()
    return {"held_out": held.to_json(), "counts": {"held_out": [held.right, held.tiles],
                                                   "replay": [replay.right, replay.tiles],
                                                   "real": [real, len(checks.real)]}}


def allowed(check: str, of: int) -> int:
    """How many fewer than the shipped network a new one may read right on a check of ``of`` tiles (photos).

    >>> allowed("held_out", 900), allowed("replay", 365), allowed("real", 120), allowed("replay", 600)
    (0, 1, 0, 2)
    """
    return 0 if check == "held_out" else of // LOSS_PER


def verdict(shipped: dict, new: dict) -> tuple[bool, list[str]]:
    """Whether the new network's reading (``read``) is no worse than the shipped one's by the rule, and where it
    is worse ("real: 108 of 120 read right, shipped 110")."""
    worse = []
    for check in CHECKS:
        (before, of), (after, _) = shipped["counts"][check], new["counts"][check]
        if after < before - allowed(check, of):
            worse.append(f"{check}: {after} of {of} read right, shipped {before}")
    return not worse, worse
