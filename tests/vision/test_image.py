"""vision.image: photos as RGB arrays, turned upright by their EXIF orientation, JPEGs decoded by simplejpeg with
PIL's pixels, shrunk to a working size; an unreadable photo is a typed error."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps

from vision.errors import BadImageError, ImageTooLargeError, VisionError
from vision.image import load_image


def _jpeg(w: int, h: int, orientation: int | None = None) -> bytes:
    img = Image.new("RGB", (w, h), (200, 30, 30))
    img.paste((30, 30, 200), (0, 0, w // 2, h // 2))  # blue top-left quarter
    buf = io.BytesIO()
    exif = Image.Exif()
    if orientation:
        exif[0x0112] = orientation
    img.save(buf, "JPEG", exif=exif.tobytes(), quality=95)
    return buf.getvalue()


@pytest.mark.parametrize("kind", ["bytes", "path", "pil"])
def test_load_image_applies_exif_orientation(kind: str, tmp_path: Path) -> None:
    data = _jpeg(40, 20, orientation=6)  # stored landscape, shown rotated 90 degrees clockwise
    src: object = data
    if kind == "path":
        src = tmp_path / "p.jpg"
        src.write_bytes(data)
    elif kind == "pil":
        src = Image.open(io.BytesIO(data))
    rgb, scale = load_image(src)  # type: ignore[arg-type]
    assert rgb.shape == (40, 20, 3)
    assert scale == 1.0
    assert rgb[2, 17, 2] > 150  # the blue quarter is now top-right


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_is_turned_as_pil_turns_it(orientation: int) -> None:
    rng = np.random.default_rng(orientation)
    img, buf, exif = Image.fromarray(rng.integers(0, 256, (3, 4, 3), np.uint8)), io.BytesIO(), Image.Exif()
    img = img.resize((40, 30))
    exif[0x0112] = orientation
    img.save(buf, "JPEG", exif=exif.tobytes(), quality=95)
    upright = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(buf.getvalue()))))
    for src in (buf.getvalue(), Image.open(io.BytesIO(buf.getvalue()))):  # decoded by simplejpeg, then by PIL
        rgb, scale = load_image(src)  # type: ignore[arg-type]
        assert rgb.flags.c_contiguous and scale == 1.0
        assert np.array_equal(rgb, upright)


@pytest.mark.parametrize(("size", "scale"), [((4000, 3000), 2), ((3062, 2296), 1), ((4430, 2492), 2), ((900, 700), 1)])
def test_a_jpeg_is_decoded_by_simplejpeg_with_pils_pixels(size: tuple[int, int], scale: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """At the DCT scale PIL's draft picks (1/2 for 4000 x 3000; none for 3062 x 2296, which TurboJPEG alone would
    decode at 5/8), then shrunk as PIL's image was."""
    import simplejpeg

    calls = []
    decode = simplejpeg.decode_jpeg
    monkeypatch.setattr(simplejpeg, "decode_jpeg", lambda *a, **k: calls.append(k) or decode(*a, **k))
    data = _jpeg(*size)
    rgb, got = load_image(data, max_side=1600)
    pil = Image.open(io.BytesIO(data))
    if max(size) > 1600:
        pil.draft("RGB", (int(size[0] * 1600 / max(size)) + 1, int(size[1] * 1600 / max(size)) + 1))
    if max(pil.size) > 2400:
        pil = pil.resize((round(pil.width * 1600 / max(pil.size)), round(pil.height * 1600 / max(pil.size))),
                         Image.BILINEAR)
    assert len(calls) == 1 and calls[0]["min_width"] in (0, -(-size[0] // scale))
    assert np.array_equal(rgb, np.asarray(pil)) and got == max(pil.size) / max(size)


def test_a_cmyk_jpeg_is_left_to_pil() -> None:
    buf = io.BytesIO()
    Image.new("CMYK", (50, 20), (0, 200, 200, 0)).save(buf, "JPEG")
    rgb, _ = load_image(buf.getvalue())
    assert np.array_equal(rgb, np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")))


def test_load_image_shrinks_large_jpegs() -> None:
    rgb, scale = load_image(_jpeg(4000, 3000), max_side=1600)  # decoded at 1/2 by DCT scaling
    assert rgb.shape == (1500, 2000, 3)
    assert scale == pytest.approx(0.5)
    png = io.BytesIO()
    Image.new("RGB", (4000, 3000)).save(png, "PNG")
    rgb, scale = load_image(png.getvalue(), max_side=1600)
    assert rgb.shape == (1200, 1600, 3)
    assert scale == pytest.approx(0.4)


def test_a_multi_picture_jpeg_is_read_as_its_first_picture() -> None:
    rng = np.random.default_rng(0)
    photo, gain_map = (Image.fromarray(rng.integers(0, 256, (30, 40, 3), np.uint8)).resize(size, Image.NEAREST)
                       for size in ((4000, 3000), (1000, 750)))
    buf = io.BytesIO()  # as phones write an HDR gain map after the photo: PIL reads it as MPO
    photo.save(buf, "MPO", save_all=True, append_images=[gain_map], quality=90)
    pil = Image.open(io.BytesIO(buf.getvalue()))
    pil.draft("RGB", (1601, 1201))
    rgb, scale = load_image(buf.getvalue(), max_side=1600)  # decoded at 1/2, as a JPEG is
    assert pil.format == "MPO" and np.array_equal(rgb, np.asarray(pil)) and scale == 0.5


def test_a_corrupt_jpeg_is_a_typed_error_even_with_its_end_marker() -> None:
    img, buf = Image.new("RGB", (400, 300), (200, 30, 30)), io.BytesIO()
    img.paste((30, 30, 200), (0, 0, 200, 150))
    img.save(buf, "JPEG")
    data = bytearray(buf.getvalue())
    data[627] = 0xFF  # a marker byte in the scan: OpenCV's decoder warned on stderr and gave an image of garbage
    with pytest.raises(BadImageError, match="cannot read the image"):
        load_image(bytes(data))
    cut = buf.getvalue()[:400] + buf.getvalue()[-2:]  # cut short, its end marker kept
    with pytest.raises(BadImageError, match="cannot read the image"):
        load_image(cut)


def test_a_grey_jpeg_is_read_as_colour() -> None:
    buf = io.BytesIO()
    Image.new("L", (50, 20), 90).save(buf, "JPEG")
    rgb, _ = load_image(buf.getvalue())
    assert rgb.shape == (20, 50, 3) and abs(int(rgb[5, 5, 0]) - 90) <= 2


def test_bad_image_is_a_typed_error() -> None:
    with pytest.raises(BadImageError) as info:
        load_image(b"not an image")
    assert isinstance(info.value, VisionError)
    assert info.value.code == "bad_image"


@pytest.mark.parametrize("kind", ["bytes", "path"])
def test_a_decompression_bomb_is_a_typed_error_from_its_header(kind: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)  # PIL refuses twice this: a 100 x 100 photo is a bomb here
    buf = io.BytesIO()
    Image.new("RGB", (100, 100)).save(buf, "PNG")
    src: bytes | Path = buf.getvalue()
    if kind == "path":
        src = tmp_path / "bomb.png"
        src.write_bytes(buf.getvalue())
    said = r"more pixels than this reader decodes \(Image size \(10000 pixels\)"
    with pytest.raises(ImageTooLargeError, match=said) as info:
        load_image(src)
    assert isinstance(info.value, BadImageError) and info.value.code == "image_too_large"
