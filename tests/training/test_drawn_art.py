"""Tile styles drawn from fonts: the dots and sticks drawn are the tile's count; Unicode tiles map to every name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from training import cli, drawn_art, fetch_art, fonts, strokes, unicode_tiles
from vision.names import FACE_NAMES, FLOWER_NAMES

DEJAVU = sorted(Path("/usr/share/fonts").rglob("DejaVuSans*.ttf"))
FULL = tuple(words[0] for words in drawn_art.CAPTIONS)  # SPRING ... BAMBOO
SHORT = ("SPR", "SUM", "AUT", "WIN", "PLU", "ORC", "CHR", "BAM")


def _look(**changes: object) -> drawn_art.Look:
    assert DEJAVU, "the tests draw with DejaVu (Debian: fonts-dejavu-core)"
    font = fonts.Font(DEJAVU[0], "dejavu", "")
    look = drawn_art.make_look(np.random.default_rng(0), [font], [DEJAVU[0]])
    for k, v in changes.items():
        setattr(look, k, v)
    return look


def _blobs(face: Image.Image, look: drawn_art.Look) -> int:
    """Outer outlines of ink (anything far from the face colour; what lies inside a coin's ring is part of it)."""
    img = np.asarray(face).astype(int)
    ink = (np.abs(img - np.array(look.face)).sum(2) > 120).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return sum(cv2.contourArea(c) > 40 for c in contours)


@pytest.mark.parametrize("n", range(1, 10))
def test_dots_drawn_are_the_count(n: int) -> None:
    look = _look(coin=1, coin_one=1, frame=None, index=None)  # solid coins: one patch each
    assert _blobs(drawn_art.draw_face(look, f"{n}p"), look) == n


@pytest.mark.parametrize("n", range(2, 10))
def test_an_index_numeral_stands_clear_of_the_dots(n: int) -> None:
    look = _look(coin=1, coin_one=1, frame=None, index="tr", index_size=0.18)
    assert _blobs(drawn_art.draw_face(look, f"{n}p"), look) == n + 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 9])
def test_sticks_drawn_are_the_count(n: int) -> None:
    look = _look(stick=0, frame=None, sticks={}, index=None)
    assert _blobs(drawn_art.draw_face(look, f"{n}s"), look) == n


@pytest.mark.parametrize(("n", "k"), [(n, k) for n, v in strokes.STICK_VARIANTS.items() for k in range(len(v))])
def test_other_stick_layouts_are_the_count(n: int, k: int) -> None:
    look = _look(stick=0, frame=None, sticks={n: strokes.STICK_VARIANTS[n][k]}, index=None)
    assert _blobs(drawn_art.draw_face(look, f"{n}s"), look) == n


def test_every_tile_draws_and_dots_and_bamboo_differ() -> None:
    look = _look()  # DejaVu has no CJK glyphs: characters and honours are not compared here
    faces = {label: np.asarray(drawn_art.draw_face(look, label)) for label in FACE_NAMES + FLOWER_NAMES}
    assert all(f.shape == (200, 150, 3) for f in faces.values())
    drawn = [faces[f"{n}{s}"].tobytes() for s in "ps" for n in range(1, 10)]
    assert len(set(drawn)) == 18


def test_unicode_order_names_every_tile_once() -> None:
    assert sorted(unicode_tiles.UNICODE_ORDER) == sorted(FACE_NAMES + FLOWER_NAMES)


def test_inside_outline_drops_the_drawn_frame_only() -> None:
    img = Image.new("L", (100, 140), 0)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 99, 139), outline=255, width=3)
    d.rectangle((20, 10, 30, 129), fill=255)  # a tall stroke inside, near the edge: not a frame
    box = unicode_tiles._inside_outline(np.asarray(img) > 127)
    assert box[0] in range(3, 8) and box[1] in range(3, 8)
    assert box[2] in range(93, 98) and box[3] in range(133, 138)
    assert box[0] < 20


@pytest.mark.parametrize("flower", [1, 2, 3, 4])
def test_no_two_flowers_are_drawn_alike(flower: int) -> None:
    # with blooms drawn (and DejaVu, without the CJK glyphs), a season must still differ from the flower of its number
    look = _look(flower=flower, index=None, caption=SHORT)
    faces = [np.asarray(drawn_art.draw_face(look, f"{n}f")).tobytes() for n in range(1, 9)]
    assert len(set(faces)) == 8


def test_the_caption_is_drawn_below_the_blooms() -> None:
    with_words = np.asarray(drawn_art.draw_face(_look(flower=3, index=None, caption=FULL), "5f"))
    blank = np.asarray(drawn_art.draw_face(_look(flower=3, index=None, caption=("",) * 8), "5f"))
    rows = np.flatnonzero(np.abs(with_words.astype(int) - blank).sum(axis=(1, 2)) > 0)
    assert rows.size and rows.min() > 0.6 * 200  # the word stands in the lowest part of the face


def test_a_captioned_flower_shows_any_picture_and_the_word_names_it() -> None:
    coin = ((drawn_art.PICTURES.index("coin"), 1, 6),) * 8  # every flower drawn with one big coin, like 1p
    look = _look(flower=3, index=None, caption=FULL, pictures=coin)
    spring, mum = (np.asarray(drawn_art.draw_face(look, label)) for label in ("1f", "7f"))
    assert np.array_equal(spring[:110], mum[:110])  # the same picture above ...
    assert not np.array_equal(spring, mum)  # ... and the words below tell them apart


@pytest.mark.parametrize("flower", [3, 4])
def test_a_captioned_flower_has_no_corner_number(flower: int) -> None:
    # sets that caption their flowers in English print no number on them, even where their suits carry indices
    plain, indexed = (_look(flower=flower, index=index, caption=FULL) for index in (None, "tr"))
    for n in range(1, 9):
        assert np.array_equal(drawn_art.draw_face(plain, f"{n}f"), drawn_art.draw_face(indexed, f"{n}f"))


def test_a_glyph_flower_keeps_the_corner_number_of_an_indexed_style() -> None:
    plain, indexed = (_look(flower=0, index=index) for index in (None, "tr"))
    assert not np.array_equal(drawn_art.draw_face(plain, "2f"), drawn_art.draw_face(indexed, "2f"))


def test_each_flower_is_captioned_with_one_of_its_own_words() -> None:
    font = fonts.Font(DEJAVU[0], "dejavu", "")
    captions = {drawn_art.make_look(np.random.default_rng(seed), [font], [DEJAVU[0]]).caption for seed in range(40)}
    for caption in captions:
        assert all(word in words for word, words in zip(caption, drawn_art.CAPTIONS, strict=True))
    assert len(captions) > 10  # the words are thrown per flower, not as one of a few fixed sets


@pytest.mark.parametrize("kind", drawn_art.PICTURES)
def test_every_picture_is_drawn_above_the_caption(kind: str) -> None:
    art = ((drawn_art.PICTURES.index(kind), 3, 6),) * 8
    look = _look(flower=3, index=None, frame=None, caption=("",) * 8, pictures=art)
    face = np.asarray(drawn_art.draw_face(look, "5f"))
    ink = (np.abs(face.astype(int) - np.array(look.face)).sum(2) > 120)
    assert not ink[140:].any()  # nothing in the caption's place
    assert ink[:140].any() == (kind != "none")


def _fetched_set(root: Path, name: str, ground: tuple, ink: tuple) -> None:
    """A fetched set's flowers on ``ground``: the n-th shows n ink squares, stepped (the 8th none: a blank flower)."""
    (root / name).mkdir(parents=True)
    for n in range(1, 9):
        face = Image.new("RGB", (150, 200), ground)
        for k in range(n if n < 8 else 0):
            ImageDraw.Draw(face).rectangle((25 + 8 * k, 45 + 8 * k, 55 + 8 * k, 75 + 8 * k), fill=ink)
        face.save(root / name / f"{n}f.png")


def test_pictures_are_borrowed_from_fetched_sets_only_their_ink_kept(tmp_path: Path) -> None:
    _fetched_set(tmp_path, "kd_default", (120, 20, 20), (250, 250, 250))  # white ink on a dark red face
    _fetched_set(tmp_path, "kd_traditional", (240, 240, 230), (0, 0, 200))  # held out: never borrowed
    _fetched_set(tmp_path, "dr_00", (240, 240, 230), (0, 200, 0))  # drawn here: not a fetched set
    pictures = drawn_art.borrowable_pictures(tmp_path, drawn_art.NOT_BORROWED)
    assert len(pictures) == 7  # the blank eighth flower has no picture
    for picture in pictures:
        rgba = np.asarray(picture).astype(int)
        shown = rgba[..., 3] > 128
        assert shown.any() and (rgba[shown][:, :3] > 200).all()  # only the white ink, the red face left out


def test_a_borrowed_picture_is_drawn_above_the_caption_on_the_drawn_face(tmp_path: Path) -> None:
    _fetched_set(tmp_path, "kd_default", (120, 20, 20), (250, 250, 250))
    picture = drawn_art.borrowable_pictures(tmp_path, ())[2]  # the third flower's squares
    look = _look(flower=3, index=None, frame=None, caption=("",) * 8, face=(240, 240, 230),
                 borrowed=(None, picture, *(None,) * 6))
    own, borrowed = (np.asarray(drawn_art.draw_face(look, label)).astype(int) for label in ("1f", "2f"))
    white = (borrowed > 235).all(2) & ~(own > 235).all(2)
    assert white[:140].sum() > 100 and not white[140:].any()  # the borrowed ink above the caption's place ...
    assert not (np.abs(borrowed - (120, 20, 20)).sum(2) < 60).any()  # ... and none of its face's red


def test_a_borrowed_bird_is_the_one_of_bamboo_below_its_index(tmp_path: Path) -> None:
    for name, ink in (("kd_default", (0, 150, 0)), ("kd_traditional", (0, 0, 200)), ("dr_00", (200, 0, 0))):
        (tmp_path / name).mkdir()
        face = Image.new("RGB", (150, 200), (240, 240, 230))
        ImageDraw.Draw(face).ellipse((30, 60, 120, 180), fill=ink)  # the bird, low on the face as sets draw it
        face.save(tmp_path / name / "1s.png")
    birds = drawn_art.borrowable_pictures(tmp_path, drawn_art.NOT_BIRDS, ("1s",), drawn_art.BIRD_CUT)
    assert len(birds) == 1  # neither the held-out set's nor a drawn style's
    rgba = np.asarray(birds[0]).astype(int)
    assert (rgba[rgba[..., 3] > 128][:, :3] == (0, 150, 0)).all()  # the green ink, the face left out
    look = _look(index="tr", frame=None, face=(250, 250, 245), bird=birds[0], index_ink=(200, 30, 30))
    face = np.asarray(drawn_art.draw_face(look, "1s")).astype(int)
    green = np.abs(face - (0, 150, 0)).sum(2) < 60
    red = np.abs(face - (200, 30, 30)).sum(2) < 90
    assert green.sum() > 2000 and not green[:25].any()  # the bird below the index's band ...
    assert red[:30, 75:].any()  # ... and the style's own index in its corner
    assert (np.asarray(drawn_art.draw_face(replace(look, bird=None), "1s")).astype(int) != face).any()


def test_a_seat_decoy_bird_stands_among_leaves(tmp_path: Path) -> None:
    """A seat decoy's 1s: a plant picture as a picture flower shows, the borrowed bird over it, the corner index in
    the seat numeral's ink, and no character: a picture and a numeral that are no flower."""
    bird = Image.new("RGBA", (60, 60), (0, 0, 0, 0))
    ImageDraw.Draw(bird).ellipse((10, 10, 50, 50), fill=(0, 0, 200, 255))
    plant = drawn_art.throw_plant(np.random.default_rng(1), "bamboo")
    look = _look(index="tl", frame=None, face=(250, 250, 245), bird=bird, bird_plant=plant, index_ink=(200, 30, 30))
    among, alone = (np.asarray(drawn_art.draw_face(replace(look, bird_plant=p), "1s")).astype(int)
                    for p in (plant, None))
    blue = np.abs(among - (0, 0, 200)).sum(2) < 60
    assert blue.sum() > 1000 and (blue == (np.abs(alone - (0, 0, 200)).sum(2) < 60)).mean() > 0.99  # the bird on top
    leaves = (np.abs(among - alone).sum(2) > 60) & ~blue
    assert leaves.sum() > 500  # the plant around it
    red = np.abs(among - (200, 30, 30)).sum(2) < 90
    assert red[:30, :60].any() and not red[:30, 90:].any()  # the index in its corner, no character in the other


def test_seat_decoys_draw_alone(tmp_path: Path) -> None:
    for kind in ({"hk": True}, {"decoys": True}, {"borrow": tmp_path}):
        with pytest.raises(ValueError, match="one of them"):
            drawn_art.draw_styles(tmp_path, 1, seat_decoys=tmp_path, **kind)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError, match="no fetched ones of bamboo"):
        drawn_art.draw_styles(tmp_path, 1, seat_decoys=tmp_path)
    assert not any(tmp_path.iterdir())  # refused before anything is fetched or drawn


def test_only_the_packages_not_yet_fetched_are_downloaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    monkeypatch.setattr(fetch_art, "_run", lambda cmd, **kw: calls.append(cmd))
    (tmp_path / "debs").mkdir()
    (tmp_path / "debs" / "fonts-a_1.0_all.deb").write_bytes(b"")
    (tmp_path / "debs" / "fonts-a-extra_1.0_all.deb").write_bytes(b"")  # another package, not asked for
    fetch_art.fetch_debs(tmp_path, ("fonts-a", "fonts-b"))
    assert calls[0] == ["apt-get", "download", "fonts-b"]  # a package added to the list is fetched
    assert [Path(c[2]).name for c in calls[1:]] == ["fonts-a_1.0_all.deb"]  # fonts-b's deb never came: nothing else


@pytest.mark.parametrize("blank", ["", "萬", "伍"])
def test_a_font_that_leaves_a_glyph_blank_is_not_used(tmp_path: Path, blank: str) -> None:
    from fontTools.ttLib import TTFont

    font = TTFont(str(DEJAVU[0]))  # every glyph a tile needs mapped to "A", one of them (blank) to the space
    for table in font["cmap"].tables:
        if table.isUnicode():
            table.cmap.update({ord(c): "space" if c == blank else "A" for c in fonts.NEEDED + fonts.VARIANTS})
    font.save(str(tmp_path / "made.ttf"))
    found = fonts.font_files(tmp_path)
    if blank and blank in fonts.NEEDED:
        assert found == []
    else:  # a blank variant is only not offered
        assert [f.path.name for f in found] == ["made.ttf"]
        assert found[0].variants == fonts.VARIANTS.replace(blank, "")


def test_a_decoy_character_tile_shows_another_numeral_under_its_own_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decoy 5m shows the 3m's numeral: it differs from the 3m only in its index corner, from the 5m outside."""
    monkeypatch.setattr(drawn_art, "NUMERALS", "ABCDEFGHI")  # numerals DejaVu has (no CJK font is needed)
    look = _look(index="tr", frame=None, five="E", six="F")
    five_as_three = np.asarray(drawn_art.draw_face(look, "5m", decoy=3)).astype(int)
    changed = lambda label: np.abs(five_as_three - np.asarray(drawn_art.draw_face(look, label))).sum(2) > 60  # noqa: E731
    h, w = five_as_three.shape[:2]  # the face's size (drawn at SS times it)
    side = w * look.index_size
    corner = np.zeros((h, w), bool)  # the index's box, with a margin for anti-aliasing
    corner[: int(h * 0.03 + side) + 3, int(w * 0.95 - side) - 3:] = True
    assert changed("3m").any() and not (changed("3m") & ~corner).any()
    assert (changed("5m") & ~corner).sum() > 200


@pytest.mark.parametrize(("label", "shown"), [("6p", 7), ("4p", 5), ("7s", 9), ("2s", 6)])
def test_a_decoy_suit_tile_shows_another_count_under_its_own_index(label: str, shown: int) -> None:
    look = _look(coin=1, coin_one=1, stick=0, frame=None, sticks={}, index="tr", index_size=0.18)
    decoy = drawn_art.draw_face(look, label, decoy=shown)
    assert _blobs(decoy, look) == shown + 1  # the count shown and the index
    assert not np.array_equal(np.asarray(decoy), np.asarray(drawn_art.draw_face(look, f"{shown}{label[1]}")))


def test_birds_are_borrowed_only_beside_the_flowers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["drawn-art", "--cache", str(tmp_path), "--birds"])
    assert "--birds goes with --borrow FACES" in capsys.readouterr().err
    with pytest.raises(ValueError, match="birds go with borrow"):
        drawn_art.draw_styles(tmp_path, 1, birds=True)
    assert not any(tmp_path.iterdir())  # refused before anything is fetched or drawn


def test_a_style_records_the_index_marks_it_draws() -> None:
    indexed, plain = _look(index="tr", flower=4), _look(index=None, flower=4)
    assert [drawn_art.index_mark(indexed, t) for t in ("6p", "9m", "1s", "1z", "4z", "5z", "7f")] == [
        "6", "9", "1", "E", "N", "", ""]  # a captioned flower: no number
    assert {drawn_art.index_mark(plain, t) for t in (*FACE_NAMES, *FLOWER_NAMES)} == {""}
    for flower in (1, 2):  # numbered flowers: their number in their row, indexed set or not
        assert [drawn_art.index_mark(_look(index=None, flower=flower), t) for t in ("3f", "7f")] == ["3", "3"]
    # what is recorded is what is drawn: an indexed wind differs from a plain one only in its corner, by its letter
    face, bare = (np.asarray(drawn_art.draw_face(_look(index=i, frame=None), "1z")) for i in ("tr", None))
    changed = np.argwhere(np.abs(face.astype(int) - bare).sum(2) > 60)
    assert len(changed) and changed[:, 0].max() < 0.3 * face.shape[0] and changed[:, 1].min() > 0.6 * face.shape[1]


def test_a_numeral_alone_flower_prints_its_seat_and_no_character() -> None:
    """``--numeral-alone``: the picture flower as a Hong Kong set prints it, but for its character, whose corner stays
    blank; the numeral, its corner and the picture are the same as with the character."""
    rng = np.random.default_rng(3)
    seat = replace(drawn_art.throw_seat(rng), latin=True, season_numeral_left=True, flower_numeral_left=False)
    look = _look(flower=5, plants=drawn_art.throw_plants(rng), seat=seat)
    for label in ("2f", "7f"):
        both = np.asarray(drawn_art.draw_face(look, label)).astype(int)
        alone = np.asarray(drawn_art.draw_face(replace(look, seat=replace(seat, alone=True)), label)).astype(int)
        ink = np.abs(alone - np.array(look.face)).sum(2) > 120
        # the top corners inside the face's frame: the numeral's, the character's
        numeral, character = (slice(10, 70), slice(80, 140)) if label == "2f" else (slice(80, 140), slice(10, 70))
        assert ink[8:55, numeral].any() and not ink[8:55, character].any(), label
        assert (both != alone).any(2)[8:55, character].any()  # the character was there
        assert np.array_equal(both[:55, numeral], alone[:55, numeral]) and np.array_equal(both[80:], alone[80:])


def test_numeral_alone_and_held_out_go_with_hk(tmp_path: Path) -> None:
    for kind in ({"numeral_alone": True}, {"held_out": True}):
        with pytest.raises(ValueError, match="goes with hk"):
            drawn_art.draw_styles(tmp_path, 1, **kind)  # type: ignore[arg-type]
    assert not any(tmp_path.iterdir())
