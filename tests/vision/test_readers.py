"""The readers' pure steps: whether a set prints index numerals, told by a sample read in two steps."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.names import NAMES
from vision.readers import marks_first, marks_printed


@pytest.mark.parametrize(("sample", "agree"), [(8, 0.8), (5, 0.8), (4, 0.8), (6, 0.5), (8, 0.75), (8, 1.0)])
def test_a_sample_whose_first_tiles_all_read_otherwise_tells_what_the_whole_sample_would(sample: int,
                                                                                           agree: float) -> None:
    p = np.zeros((sample, len(NAMES)))
    p[:, NAMES.index("5m")] = 0.99
    first = marks_first(sample, agree)
    assert 1 <= first <= sample
    for agreeing in itertools.product((False, True), repeat=sample):  # each tile read "5" or "6"
        q = np.zeros((sample, 10))
        q[np.arange(sample), np.where(agreeing, 4, 5)] = 0.97
        if not any(agreeing[:first]):
            assert not marks_printed(p, q, agree, 1), agreeing  # stopping there loses nothing
    # and no fewer would do: the first tiles but one reading otherwise, the rest as named, may say it prints them
    if first > 1:
        q = np.zeros((sample, 10))
        q[:, 4] = 0.97
        q[:first - 1, 4], q[:first - 1, 5] = 0.0, 0.97
        assert marks_printed(p, q, agree, 1)
