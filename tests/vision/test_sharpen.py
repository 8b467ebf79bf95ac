"""A soft photo's crops named sharpened (``vision/sharpen.py``, ``TileDetector._sharpest``): how sharp crops are, the
unsharp mask, and which crops the detector names, with a stand-in classifier that is surer of steeper edges."""

from __future__ import annotations

import numpy as np
import pytest


def _photo(blur: float) -> np.ndarray:
    """A photo 64 x 64 of a light face with six dark strokes 3 px wide, blurred by ``blur`` pixels."""
    import cv2

    img = np.full((64, 64, 3), 200, np.uint8)
    for x0 in range(8, 56, 8):
        img[8:56, x0:x0 + 3] = 40
    return cv2.GaussianBlur(img, (0, 0), blur) if blur else img


class _Steep:
    """A stand-in classifier: "1m" with a probability that grows with the steepest step between neighbouring pixels of
    the crop (a blurred edge is named unsurely), the rest shared by the other names."""

    def __init__(self) -> None:
        self.batches: list[np.ndarray] = []

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        from vision.detector import NAMES

        x = feeds["crops"]
        self.batches.append(x)
        steep = np.abs(np.diff(x[:, 0], axis=2)).max((1, 2))
        p = np.empty((len(x), len(NAMES)))
        p[:, 0] = np.clip(0.3 + steep, 0.3, 0.99)
        p[:, 1:] = (1 - p[:, :1]) / (len(NAMES) - 1)
        return [np.log(p), np.tile([9.0, 0, 0, 0], (len(x), 1)), np.eye(len(x), 128, dtype=np.float32)]


def test_sharpness_falls_with_blur_and_the_mask_steepens_an_edge() -> None:
    from vision.crops import network_input
    from vision.sharpen import sharpened, sharpness

    crops = [network_input(_photo(b)[None]) for b in (0, 1, 2, 4)]
    measured = [sharpness(c) for c in crops]
    assert measured == sorted(measured, reverse=True) and measured[3] < 0.05 * measured[0]
    assert sharpness(crops[0][:0]) == float("inf")  # no crop: nothing soft
    soft = crops[2]
    steeper = sharpened(soft, 2.0, 2.0)
    assert np.abs(np.diff(steeper[0, 0], axis=1)).max() > 1.5 * np.abs(np.diff(soft[0, 0], axis=1)).max()
    assert steeper.min() >= 0.0 and steeper.max() <= 1.0 and np.array_equal(steeper * 255, np.round(steeper * 255))
    assert sharpened(soft[:0], 1.0, 1.0).shape == (0, 3, 64, 64)


def test_a_soft_photos_crops_are_named_sharpened_where_the_classifier_is_surer_of_them() -> None:
    from vision.detector import DetectorConfig, TileDetector
    from vision.sharpen import sharpness

    session = _Steep()
    det = TileDetector.from_parts(session, crop=64)
    box = np.array([[0.0, 0.0, 64 / 1.15, 64 / 1.15]])
    plain = dict(turns=1, alike=1.01, straighten=False, sharpen=((1.0, 1.5), (2.0, 2.0)))
    soft = _photo(2.5)
    det.config = DetectorConfig(**plain)
    assert sharpness(det.cut(soft, box)[0]) < DetectorConfig().sharpen_below < sharpness(det.cut(_photo(0), box)[0])
    for photo, config, batches, sharp in (
        (soft, {}, 3, True),  # soft: named as cut and by each sharpening; the sharper, surer crops kept
        (soft, {"sharpen_gain": 0.5}, 3, False),  # ... unless they are not surer by sharpen_gain
        (soft, {"sharpen_below": 0.0}, 1, False),  # never sharpened
        (_photo(0), {}, 1, False),  # a sharp photo: named as cut
    ):
        det.config = DetectorConfig(**plain, **config)
        session.batches = []
        p, _ = det.classify(photo, box)
        assert len(session.batches) == batches
        named = session.batches[-1] if sharp else session.batches[0]
        steep = np.abs(np.diff(named[0, 0], axis=1)).max()
        assert p[0, 0] == pytest.approx(min(0.3 + steep, 0.99), abs=1e-6)
        if sharp:  # the surest of the two masks: the stronger
            assert steep > np.abs(np.diff(session.batches[1][0, 0], axis=1)).max()
    with pytest.raises(ValueError, match="sharpen"):
        DetectorConfig(sharpen=((1.0, 0.0),))
    with pytest.raises(ValueError, match="sharpen_gain"):
        DetectorConfig(sharpen_gain=-0.1)
