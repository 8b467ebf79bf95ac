"""``bench/eval_degraded.py``'s kinds of photo: each made from a photo, its true boxes scaled with it."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image


def _scene() -> tuple[bytes, list]:
    img = np.full((300, 400, 3), 90, np.uint8)
    img[100:200, 150:225] = 235  # a face with strokes
    img[120:180, 160:215:8] = 20
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=95)
    return buf.getvalue(), [("1s", (150.0, 100.0, 225.0, 200.0))]


def test_each_kind_makes_a_photo_and_scales_its_boxes() -> None:
    from bench.eval_degraded import KINDS, degraded
    from vision.clearer import sharpness
    from vision.crops import network_input

    jpg, truth = _scene()
    made = {kind: degraded([(jpg, truth)], kind)[0] for kind in KINDS}
    rgb = {kind: np.asarray(Image.open(io.BytesIO(photo)).convert("RGB")) for kind, (photo, _) in made.items()}
    resized = {kind: img.shape[:2] for kind, img in rgb.items() if img.shape[:2] != (300, 400)}
    assert resized == {"small_800": (600, 800)}
    assert made["small_800"][1] == [("1s", (300.0, 200.0, 450.0, 400.0))] and made["blur_0.1"][1] == truth

    def face_sharpness(kind: str) -> float:
        return sharpness(network_input(rgb[kind][None, 90:210, 140:235]))

    assert [face_sharpness(k) for k in ("blur_0.25", "blur_0.1", "blur_0.05", "none")] == sorted(
        face_sharpness(k) for k in ("blur_0.25", "blur_0.1", "blur_0.05", "none"))
    assert rgb["dark"].mean() < 0.5 * rgb["none"].mean() and rgb["glare"].mean() > rgb["none"].mean()
    warm, cool = rgb["warm"].reshape(-1, 3).mean(0), rgb["cool"].reshape(-1, 3).mean(0)
    assert warm[0] > warm[2] and cool[2] > cool[0]


def test_a_shake_streaks_a_point_level_or_turned() -> None:
    from bench.eval_degraded import _shaken

    dot = np.zeros((101, 101, 3), np.float32)
    dot[50, 50] = 255.0
    for degrees in (0.0, 30.0):
        ys, xs = np.nonzero(_shaken(0.2, degrees)(dot)[..., 0] > 1.0)  # a streak of 20 px
        assert xs.max() - xs.min() >= 14 and abs(ys.max() - ys.min() - np.tan(np.radians(degrees)) * 17) <= 4
        assert np.polyfit(xs - 50.0, 50.0 - ys, 1)[0] == pytest.approx(np.tan(np.radians(degrees)), abs=0.12)
