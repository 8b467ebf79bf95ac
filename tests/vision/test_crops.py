"""vision.crops: each tile cut from the photo centred on its box, straightened by its tilt."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.crops import crop_tiles, tile_sides, tilts
from vision.image import load_image

RAW = Path(__file__).resolve().parents[3] / "shared" / "real" / "camerash" / "raw-images"


def test_crop_centres_the_box() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    img[40:60, 90:110] = 255
    crop = crop_tiles(img, np.array([[90.0, 40.0, 110.0, 60.0]]), size=16, margin=2.0)[0]
    assert crop[8, 8].tolist() == [255, 255, 255]
    assert crop[0, 0].tolist() == [0, 0, 0]


@pytest.mark.parametrize("degrees", [0, 12, 30, -25, 40])
def test_a_tilted_tile_is_cut_straight(degrees: float, art_dir: Path) -> None:
    """A tile lying at an angle, cut turned by its tilt, looks as the same tile lying straight does, and it fills
    its crop as that one does; cut square around its box it is smaller and slanted."""
    import cv2

    img = np.full((400, 400, 3), (40, 110, 60), np.uint8)  # a tile on a green table: its face on its white body
    img[134:266, 149:251] = 235
    img[140:260, 155:245] = np.asarray(Image.open(art_dir / "fluffy" / "8m.png").convert("RGB").resize((90, 120)))
    straight = crop_tiles(img, np.array([[149.0, 134.0, 251.0, 266.0]]), 96)[0]
    turned = cv2.warpAffine(img, cv2.getRotationMatrix2D((200, 200), degrees, 1.0), (400, 400),
                            borderMode=cv2.BORDER_REPLICATE)
    ys, xs = np.nonzero(np.abs(turned.astype(int) - (40, 110, 60)).sum(2) > 60)
    box = np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float64)
    tilt = tilts(turned, box)
    assert np.degrees(tilt[0]) == pytest.approx(-degrees, abs=2.0)
    assert tile_sides(box, tilt)[0] == pytest.approx([102, 132], abs=6)
    cut = crop_tiles(turned, box, 96, tilt=tilt)[0]
    off = np.abs(cut.astype(int) - straight).mean()
    assert off < 20
    if abs(degrees) >= 12:
        assert np.abs(crop_tiles(turned, box, 96)[0].astype(int) - straight).mean() > 2 * off


def test_a_box_of_no_size_or_off_the_photo_has_no_tilt() -> None:
    """Boxes a look cut to the photo may have no width or height, at its edges too: each reads no tilt and is cut."""
    img = np.random.default_rng(0).integers(0, 255, (100, 200, 3), np.uint8)
    boxes = np.array([[200.0, 50, 200, 50], [200, 100, 200, 100], [0, 100, 0, 100], [0, 0, 0, 0], [-5, -5, 5, 5],
                      [300, 300, 310, 310], [195, 40, 200, 60]])
    assert tilts(img, boxes).tolist() == [0.0] * len(boxes)
    assert crop_tiles(img, boxes, 16, tilt=np.full(len(boxes), 0.3)).shape == (len(boxes), 16, 16, 3)


@pytest.mark.skipif(not RAW.exists(), reason="../shared/real not beside")
def test_a_close_up_showing_no_edge_is_not_turned() -> None:
    """camerash's 8p and 5p close-ups show no edge of their tiles, only dots in rows: the commonest direction of
    their gradients (43 degrees, along the rows of dots) is no clear one, and they are cut as they lie."""
    for name in ("395.jpg", "362.jpg"):
        rgb, _ = load_image(RAW.parent / "tiles-resized" / name)
        h, w = rgb.shape[:2]
        assert tilts(rgb, np.array([[0.04 * w, 0.03 * h, 0.96 * w, 0.97 * h]])).tolist() == [0.0]
