"""A soft or dim photo's crops named clearer (``vision/clearer.py``, ``clearest``): how sharp and how
contrasted crops are, the unsharp mask and the levels, and which crops the detector names, with a stand-in classifier
that is surer of steeper edges."""

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
    from vision.clearer import sharpened, sharpness
    from vision.crops import network_input

    crops = [network_input(_photo(b)[None]) for b in (0, 1, 2, 4)]
    measured = [sharpness(c) for c in crops]
    assert measured == sorted(measured, reverse=True) and measured[3] < 0.05 * measured[0]
    assert sharpness(crops[0][:0]) == float("inf")  # no crop: nothing soft
    soft = crops[2]
    steeper = sharpened(soft, 2.0, 2.0)
    assert np.abs(np.diff(steeper[0, 0], axis=1)).max() > 1.5 * np.abs(np.diff(soft[0, 0], axis=1)).max()
    assert steeper.min() >= 0.0 and steeper.max() <= 1.0 and np.array_equal(steeper * 255, np.round(steeper * 255))
    assert sharpened(soft[:0], 1.0, 1.0).shape == (0, 3, 64, 64)


def test_a_soft_or_dim_photos_crops_are_named_clearer_where_the_classifier_is_surer_of_them() -> None:
    from vision.clearer import contrast, sharpness
    from vision.detector import DetectorConfig, TileDetector

    session = _Steep()
    det = TileDetector.from_parts(session, crop=64)
    box = np.array([[0.0, 0.0, 64 / 1.15, 64 / 1.15]])
    plain = dict(turns=1, alike=1.01, straighten=False, sharpen=((1.0, 1.5), (2.0, 2.0)))
    soft, dim, sharp = _photo(2.5), (_photo(0) * 0.3).astype(np.uint8), _photo(0)
    det.config = DetectorConfig(**plain)
    below = DetectorConfig()
    assert sharpness(det.cut(soft, box)[0]) < below.sharpen_below < sharpness(det.cut(sharp, box)[0])
    assert contrast(det.cut(dim, box)[0]) < below.dim_below < contrast(det.cut(sharp, box)[0])
    assert sharpness(det.cut(dim, box)[0]) > below.sharpen_below  # dim, not soft
    for photo, config, batches, kept in (
        # soft: named as cut and by each sharpening; the surer crops kept: the stronger mask's
        (soft, {"dim_below": 0.0}, 3, 2),
        (soft, {"dim_below": 0.0, "clearer_gain": 0.5}, 3, 0),  # ... unless they are not surer by clearer_gain
        (soft, {"dim_below": 0.0, "sharpen_below": 0.0}, 1, 0),  # never sharpened
        (dim, {}, 2, 1),  # dim: named as cut and levelled, the levelled kept
        (dim, {"dim_below": 0.0}, 1, 0),
        (sharp, {}, 1, 0),  # a sharp photo in daylight: named as cut
    ):
        det.config = DetectorConfig(**plain, **config)
        session.batches = []
        p, _ = det.classify(photo, box)
        assert len(session.batches) == batches
        named = session.batches[kept]
        steep = np.abs(np.diff(named[0, 0], axis=1)).max()
        assert p[0, 0] == pytest.approx(min(0.3 + steep, 0.99), abs=1e-6)
        if kept:  # the crops kept are the steepest named
            assert all(steep > np.abs(np.diff(b[0, 0], axis=1)).max() for b in session.batches if b is not named)
    with pytest.raises(ValueError, match="sharpen"):
        DetectorConfig(sharpen=((1.0, 0.0),))
    with pytest.raises(ValueError, match="clearer_gain"):
        DetectorConfig(clearer_gain=-0.1)


def test_a_photo_too_soft_for_the_classifier_is_named_by_the_soft_one() -> None:
    from vision.clearer import sharpness
    from vision.detector import DetectorConfig, TileDetector

    shipped, soft = _Steep(), _Steep()
    box = np.array([[0.0, 0.0, 64 / 1.15, 64 / 1.15]])
    plain = dict(turns=1, alike=1.01, straighten=False, sharpen_below=0.0, dim_below=0.0, soft_side=50.0)
    det = TileDetector.from_parts(shipped, crop=64, soft=soft, config=DetectorConfig(**plain))
    blurred, softer, sharp = _photo(2.5), _photo(4.0), _photo(0)
    gate = DetectorConfig().soft_below
    assert sharpness(det.cut(softer, box)[0]) < gate < sharpness(det.cut(blurred, box)[0])
    for photo, config, by in ((softer, {}, soft), (blurred, {}, shipped), (sharp, {}, shipped),
                              (softer, {"soft_below": 0.0}, shipped),  # 0: never
                              (softer, {"soft_side": 60.0}, shipped)):  # a small tile (56 px), soft from its enlarging
        det.config = DetectorConfig(**(plain | config))
        shipped.batches, soft.batches = [], []
        det.classify(photo, box)
        assert len(by.batches) == 1 and len((soft if by is shipped else shipped).batches) == 0
    det = TileDetector.from_parts(shipped, crop=64, config=DetectorConfig(**plain))  # none shipped beside it
    shipped.batches = []
    det.classify(softer, box)
    assert len(shipped.batches) == 1


def test_too_soft_asks_a_soft_photo_of_big_tiles_only() -> None:
    from vision.clearer import too_soft
    from vision.crops import network_input

    soft, sharp = network_input(_photo(4.0)[None]), network_input(_photo(0)[None])
    big, small = np.array([[0.0, 0.0, 60.0, 80.0]]), np.array([[0.0, 0.0, 30.0, 40.0]])
    assert too_soft(big, soft, 0.006, 64.0) and not too_soft(big, sharp, 0.006, 64.0)
    assert not too_soft(small, soft, 0.006, 64.0)  # 40 px: soft from its enlarging
    assert not too_soft(big, soft, 0.0, 64.0) and not too_soft(big[:0], soft[:0], 0.006, 64.0)
    from vision.config import DetectorConfig

    for name in ("soft_below", "soft_side"):
        with pytest.raises(ValueError, match=name):
            DetectorConfig(**{name: -1.0})


def _texture(shake: int = 0, blur: float = 0.0) -> np.ndarray:
    """A photo 64 x 64 of grey blocks 4 px wide, shaken level by ``shake`` pixels or blurred by ``blur``."""
    import cv2

    img = np.kron(np.random.default_rng(5).integers(40, 220, (16, 16, 1)), np.ones((4, 4, 3))).astype(np.uint8)
    img = cv2.blur(img, (shake, 1)) if shake else img
    return cv2.GaussianBlur(img, (0, 0), blur) if blur else img


def test_a_shake_streaks_the_crops_and_a_blur_does_not() -> None:
    import cv2

    from vision.clearer import streak
    from vision.crops import network_input

    sound, level, blurred = (network_input(p[None]) for p in (_texture(), _texture(15), _texture(blur=2.5)))
    steep = network_input(cv2.warpAffine(_texture(15), cv2.getRotationMatrix2D((32, 32), 90, 1), (64, 64))[None])
    assert streak(level) < 0.05 and streak(steep) < 0.05  # along rows or along columns
    assert streak(sound) > 0.3 and streak(blurred) > 0.2  # a blur softens every way alike
    assert streak(sound[:0]) == 1.0  # no crop: nothing shaken


def test_a_shaken_photo_is_named_by_the_shaken_classifier_and_a_soft_one_by_the_soft() -> None:
    from vision.clearer import sharpness, streak
    from vision.detector import DetectorConfig, TileDetector

    shipped, soft, shaken = _Steep(), _Steep(), _Steep()
    box = np.array([[0.0, 0.0, 64 / 1.15, 64 / 1.15]])
    plain = dict(turns=1, alike=1.01, straighten=False, sharpen_below=0.0, dim_below=0.0, soft_side=50.0)
    det = TileDetector.from_parts(shipped, crop=64, soft=soft, shaken=shaken, config=DetectorConfig(**plain))
    level, sound = _texture(15), _texture()
    gate = DetectorConfig().shaken_below
    assert streak(det.cut(level, box)[0]) < gate < streak(det.cut(sound, box)[0])
    level_sharpness = sharpness(det.cut(level, box)[0])
    for photo, config, by in ((level, {}, shaken), (sound, {}, shipped),
                              (level, {"shaken_below": 0.0}, shipped),  # 0: never
                              (level, {"soft_side": 60.0}, shipped),  # a small tile (56 px)
                              (level, {"soft_below": level_sharpness * 1.1}, soft)):  # too soft comes first
        det.config = DetectorConfig(**(plain | config))
        nets = (shipped, soft, shaken)
        for net in nets:
            net.batches = []
        det.classify(photo, box)
        assert [len(net.batches) for net in nets] == [int(net is by) for net in nets]
    with pytest.raises(ValueError, match="shaken_below"):
        DetectorConfig(shaken_below=-1.0)


def test_a_dark_photo_is_brightened_before_it_is_read_and_a_sound_one_is_not() -> None:
    from PIL import Image

    from vision.clearer import brightened
    from vision.detector import DetectorConfig, TileDetector

    class Finder:  # a stand-in finder: it keeps the brightest grey of each photo it is shown, and finds nothing
        def __init__(self) -> None:
            self.seen: list[float] = []

        def boxes(self, rgb: np.ndarray, *_args: object) -> tuple[np.ndarray, np.ndarray]:
            self.seen.append(float(np.percentile(rgb.mean(2), 99.9)))
            return np.zeros((0, 4)), np.zeros(0)

    sound = np.kron(np.random.default_rng(5).integers(40, 220, (16, 16, 1)), np.ones((8, 8, 3))).astype(np.uint8)
    dark = (sound * 0.35).astype(np.uint8)  # a third of the light: its brightest 76
    assert brightened(sound, 128.0) is sound and brightened(dark, 0.0) is dark
    lit = brightened(dark, 128.0)
    assert np.percentile(lit.mean(2), 99.9) == pytest.approx(250, abs=3)
    assert np.corrcoef(lit.reshape(-1), dark.reshape(-1))[0, 1] > 0.999  # a gain: the same picture, brighter
    finder = Finder()
    for below, want in ((128.0, 250), (0.0, 76)):  # 0: never brightened
        det = TileDetector.from_parts(None, crop=64, finder=finder, config=DetectorConfig(dark_below=below))
        finder.seen = []
        assert det.detect(Image.fromarray(dark)) == []
        assert finder.seen and finder.seen[0] == pytest.approx(want, abs=3)
    with pytest.raises(ValueError, match="dark_below"):
        DetectorConfig(dark_below=-1.0)
