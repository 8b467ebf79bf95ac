"""The camera's faults the classifier trains on (``training.classifier.camera_faults``): out of focus and shaken crops
keep their light and spread a point, a lamp's highlight only brightens, and the share asked is the share changed."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from training.classifier import augment, camera_faults  # noqa: E402


def _point(n: int, side: int = 48) -> torch.Tensor:
    x = torch.zeros(n, 3, side, side)
    x[:, :, side // 2, side // 2] = 1.0
    return x


def test_no_share_changes_nothing() -> None:
    x = torch.rand(16, 3, 32, 32, generator=torch.Generator().manual_seed(0))
    assert torch.equal(camera_faults(x, torch.Generator().manual_seed(1), 0.0), x)


def test_every_crop_is_blurred_shaken_or_lit_and_keeps_its_shape() -> None:
    x = _point(90)
    out = camera_faults(x, torch.Generator().manual_seed(2), 1.0)
    assert out.shape == x.shape and float(out.min()) >= 0 and float(out.max()) <= 1
    assert torch.equal(x, _point(90))  # the input is left as it was
    spread = out.amax((1, 2, 3)) < 0.9  # the point spread out: out of focus or shaken
    lit = out.mean((1, 2, 3)) > 0.02  # a highlight brightens the crop's ground
    assert not (spread & lit).any()
    assert (spread | lit).all()
    assert 20 <= int(spread.sum()) <= 70 and 10 <= int(lit.sum()) <= 45  # a third of them each, roughly
    kept = out[spread].sum((1, 2, 3)) / 3  # a blur moves the light, it does not add or take it
    assert torch.allclose(kept, torch.ones_like(kept), atol=1e-4)


def test_a_streak_runs_one_way_and_a_defocus_every_way() -> None:
    out = camera_faults(_point(200), torch.Generator().manual_seed(3), 1.0)
    lit = out[:, 0] > 1e-3
    rows, cols = lit.any(2).sum(1), lit.any(1).sum(1)
    spread = out.amax((1, 2, 3)) < 0.9
    long_thin = spread & ((rows >= 3 * cols) | (cols >= 3 * rows))
    assert long_thin.sum() >= 10  # streaks along or across the crop
    round_ = spread & ((rows - cols).abs() <= 1) & (rows >= 5)
    assert round_.sum() >= 20  # defocused points are discs


def test_the_share_asked_is_the_share_changed() -> None:
    x = torch.rand(400, 3, 24, 24, generator=torch.Generator().manual_seed(4))
    out = camera_faults(x, torch.Generator().manual_seed(5), 0.3)
    changed = (out - x).abs().amax((1, 2, 3)) > 1e-6
    assert 90 <= int(changed.sum()) <= 150


def test_augment_gives_faults_only_when_asked() -> None:
    x = _point(64)
    plain = augment(x.clone(), torch.Generator().manual_seed(6), strong=False)
    faulty = augment(x.clone(), torch.Generator().manual_seed(6), strong=False, faults=1.0)
    assert not torch.allclose(plain, faulty)
    assert plain.shape == faulty.shape == x.shape


def test_the_kinds_and_the_blur_asked_are_the_ones_given() -> None:
    out = camera_faults(_point(60), torch.Generator().manual_seed(7), 1.0, kinds=(1.0, 0.0, 0.0), blur=(2.0, 3.0))
    lit = out[:, 0] > 1e-3
    rows, cols = lit.any(2).sum(1), lit.any(1).sum(1)
    assert ((rows - cols).abs() <= 1).all() and (rows >= 9).all()  # every one a wide disc: out of focus, 2 px or more
    assert (out.amax((1, 2, 3)) < 0.05).all()
