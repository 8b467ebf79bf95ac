"""The colours of drawn tiles (inks by kind, face grounds), and one seeded pick among choices."""

from __future__ import annotations

import numpy as np

RED = [(200, 30, 30), (180, 20, 40), (215, 50, 30), (160, 25, 25), (225, 60, 60)]
GREEN = [(20, 130, 60), (40, 110, 40), (10, 100, 80), (60, 150, 50), (20, 90, 50)]
BLUE = [(30, 60, 160), (20, 40, 120), (40, 90, 180), (20, 70, 130), (60, 60, 150)]
BLACK = [(20, 20, 20), (40, 30, 30), (30, 30, 50), (10, 10, 10)]
FACE = [(245, 242, 230), (250, 250, 245), (240, 232, 205), (236, 240, 232), (244, 236, 215), (232, 236, 240),
        (248, 244, 236), (225, 230, 215)]


def pick(rng: np.random.Generator, seq: list | tuple):  # noqa: ANN202 - an item of seq
    return seq[int(rng.integers(len(seq)))]
