"""Tile styles drawn here from Debian's CJK fonts, so the classifier sees many more ways a tile is drawn.

Each drawn style is one seeded throw of the choices a tile maker makes: the fonts of the numerals, of 萬 and of the
honours; the variants printed (五 or 伍, 萬 or 万, 發 or 发); ink colours; whether an index numeral or letter stands
in a corner, and which; the coin of the dots and the stick of the bamboo, and the colours they take by place; the
white dragon's frame; the one of bamboo as a bird, a glyph or a big stick; the flowers as glyphs or drawn blooms
with their number, or captioned with English words as export sets are (a captioned flower shows any picture and no
number: the word alone names it). Three more styles come from the Unicode mahjong tiles (U+1F000...) of Symbola,
Noto Sans Symbols 2 and Hanazono Mincho, inked in two colours.

With ``--decoys`` it draws decoy styles instead, to teach a reader that a corner index names the tile: every style
indexed, and every suit tile's numeral, dots or sticks another number than its index says (the label is the index).
With ``--borrow FACES`` it draws captioned styles whose flowers show pictures cut from the fetched sets' flowers,
any picture on any flower, so that a reader learns that the caption names a captioned flower, and not a
picture it has seen on another set's flower; with ``--birds`` as well, most styles' one of bamboo shows the bird (or
stick) cut from a fetched set's one of bamboo: a picture without a caption is no flower.

Output as ``fetch_art.py``: ``<cache>/faces/dr_NN/<label>.png`` and ``uc_<font>/<label>.png`` (RGB, 150x200), or
``dx_NN/<label>.png``, ``bp_NN/<label>.png``, ``hk_NN``, ``hkx_NN``, ``hn_NN``, ``hnx_NN``, ``hd_NN``. Usage:
``python -m training drawn-art [--cache cache/art] [--styles 24] [--seed 0] [--decoys | --borrow cache/art/faces
[--birds] | --hk [--held-out] [--numeral-alone] | --seat-decoys cache/art/faces]``.
"""

from __future__ import annotations

import fnmatch
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from training import strokes
from training.fetch_art import FACE_H, FACE_W, contact_sheet, fetch_debs
from training.fonts import FONT_PACKAGES, Font, font_files, latin_fonts, mahjong_fonts
from training.palette import BLACK, BLUE, FACE, GREEN, RED, pick
from training.plants import FLOWER_PLANT, Plant, draw_plant, throw_plant
from training.styles import DECOY_PREFIX, DRAWN_STYLES, HELD_OUT_STYLES, MARKS_FILE, SKIP_STYLES
from training.unicode_tiles import unicode_faces
from vision.captions import CAPTIONS  # export sets' English captions: a style picks one word per flower
from vision.names import FACE_NAMES, FLOWER_NAMES

SS = 2  # drawn at twice the size, then reduced (smooth edges)
W, H = FACE_W * SS, FACE_H * SS
NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
SEASONS, FLOWERS = "春夏秋冬", "梅蘭菊竹"
LATIN_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif.ttf")



# Taiwanese and Hong Kong styles (``--hk``): picture flowers with their character and seat numeral, mostly blank white
# dragons, a coloured back; ``hkx_`` styles, drawn with ``--held-out``, only with these font families (and the
# ``hk_`` styles never with them), are the held-out variant ``bench/eval_tile_sets.py`` reads
HK, HK_HELD_OUT = "hk", "hkx"
NUMERAL_ALONE, NUMERAL_ALONE_HELD_OUT = "hn", "hnx"  # ... whose flowers print their seat numeral alone
# seat decoys (``--seat-decoys``): ``hk_``-like styles whose every suit tile prints a corner index in the seat
# numeral's ink, and whose 1s shows a fetched set's bird, in half of them among leaves: a picture and a corner numeral
# without a character is no flower (the held-out style's 1s is such a bird, with a red 1 in its corner)
SEAT_DECOYS = "hd"
HK_HELD_OUT_FAMILIES = ("bkai00mp", "cwheib")

@dataclass(frozen=True)
class Seat:
    """How a picture flower (``Look.flower`` 5, as Taiwanese and Hong Kong sets print them) shows its character and its
    seat numeral: the numeral Arabic (``latin``) or Chinese (一二三四), which top corner each stands in for the
    seasons and for the flowers (the character in the other), their inks and size (a share of the face's width)."""

    latin: bool
    season_numeral_left: bool
    flower_numeral_left: bool
    numeral_ink: tuple
    glyph_inks: tuple  # the seasons' character ink, the flowers'
    size: float
    alone: bool = False  # the numeral alone, no character: the set tells a row's flowers apart by their seat numeral


@dataclass
class Look:
    """One drawn style's choices."""
    face: tuple
    frame: tuple | None
    num_font: ImageFont.FreeTypeFont
    wan_font: ImageFont.FreeTypeFont
    honour_font: ImageFont.FreeTypeFont
    latin_font: ImageFont.FreeTypeFont
    num_ink: tuple
    wan_ink: tuple
    wind_ink: tuple
    wan: str
    five: str
    six: str
    fa: str
    fa_ink: tuple
    index: str | None          # corner of the index numeral / wind letter: "tl", "tr" or None
    index_ink: tuple
    index_size: float          # its side, a share of the face's width
    coin: int
    coin_one: int
    dot_inks: tuple            # three colour slots
    stick: int
    stick_inks: tuple
    sticks: dict               # n -> (rows, layout) where the style draws n sticks its own way
    one_sou: int               # 0 bird, 1 glyph, 2 big stick
    one_glyph: str
    white: int                 # white dragon: 0 blank, 1 frame, 2 double frame, 3 corner frame, 4 chain frame
    white_ink: tuple
    flower: int                # 0 glyph, 1 glyph and bloom, 2 bloom and number only, 3 picture and caption, 4 caption,
    #                            5 picture, character and seat numeral (``seat``, ``plants``)
    flower_inks: tuple
    pictures: tuple            # flower 3: each flower's picture (PICTURES kind, count, shape), whatever its name
    margin: float
    squeeze: float             # glyph height stretch
    caption: tuple             # the flowers' English words (one of each of CAPTIONS), used by flower 3 and 4
    borrowed: tuple = ()       # flower 3: per flower, a picture cut from a fetched set's tile (RGBA) or None (its own)
    bird: object = None        # the one of bamboo: a picture cut from a fetched set's 1s (RGBA), or None (its own)
    bird_plant: Plant | None = None  # drawn behind a borrowed bird: a bird among leaves (``--seat-decoys``)
    seat: Seat | None = None   # flower 5: how the character and the seat numeral stand on a picture flower
    plants: tuple = ()         # flower 5: per flower, its picture (``plants.Plant``)
    back: tuple | None = None  # the colour of the set's backs (a style of ``--hk`` draws its back.png), or None


def make_look(rng: np.random.Generator, fonts: list[Font], latin: list[Path]) -> Look:
    """One style's choices; fonts are drawn family first (Noto's fourteen weights count as two families)."""
    families = sorted({f.family for f in fonts})

    def font() -> Font:
        family = pick(rng, families)
        return pick(rng, [f for f in fonts if f.family == family])

    def load(f: Font) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(str(f.path), 160)

    num, wan, honour = font(), font(), font()
    wan = num if rng.random() < 0.4 else wan
    return Look(
        face=pick(rng, FACE), frame=pick(rng, BLUE + GREEN + BLACK) if rng.random() < 0.25 else None,
        num_font=load(num), wan_font=load(wan), honour_font=load(honour),
        latin_font=ImageFont.truetype(str(pick(rng, latin)), 80),
        num_ink=pick(rng, BLACK + BLUE + GREEN + BLACK), wan_ink=pick(rng, RED if rng.random() < 0.85 else BLACK),
        wind_ink=pick(rng, BLACK + BLUE + GREEN), wan="万" if "万" in wan.variants and rng.random() < 0.3 else "萬",
        five="伍" if "伍" in num.variants and rng.random() < 0.6 else "五",
        six="陸" if "陸" in num.variants and rng.random() < 0.08 else "六",
        fa="发" if "发" in honour.variants and rng.random() < 0.2 else "發", fa_ink=pick(rng, GREEN),
        one_glyph="幺", index=pick(rng, ("tl", "tr", "tr", "tr", None)),
        index_ink=pick(rng, RED + RED + BLACK + BLUE), index_size=float(rng.uniform(0.13, 0.22)),
        coin=int(rng.integers(6)), coin_one=int(rng.integers(6)),
        dot_inks=tuple(pick(rng, p) for p in pick(rng, ((GREEN, BLUE, RED), (BLUE, GREEN, RED), (GREEN, RED, BLUE),
                                                            (BLUE, RED, GREEN), (BLACK, RED, BLUE)))),
        stick=int(rng.integers(3)),
        stick_inks=tuple(pick(rng, p) for p in pick(rng, ((GREEN, BLUE, RED), (GREEN, GREEN, RED),
                                                              (BLUE, GREEN, RED), (GREEN, BLACK, RED)))),
        sticks={n: pick(rng, v) for n, v in strokes.STICK_VARIANTS.items() if rng.random() < 0.35},
        white=int(rng.integers(5)),
        one_sou=int(pick(rng, (0, 0, 0, 1, 2) if "幺" in num.variants else (0, 0, 0, 2))),
        white_ink=pick(rng, BLUE + BLACK + RED), flower=int(rng.integers(5)),
        flower_inks=(pick(rng, RED), pick(rng, GREEN), pick(rng, BLUE + BLACK)),
        margin=float(rng.uniform(0.06, 0.12)), squeeze=float(rng.uniform(0.85, 1.2)),
        caption=tuple(pick(rng, words) for words in CAPTIONS),
        pictures=tuple((int(rng.integers(len(PICTURES))), int(rng.integers(1, 6)), int(rng.integers(5, 9)))
                       for _ in range(8)),
    )


def index_mark(look: Look, label: str) -> str:
    """The index ``label``'s face prints in ``look`` ("" for none): a suit tile its number and a wind its letter
    when the style is indexed, a numbered flower its number in the season or the flower row (1..4)."""
    n, suit = int(label[0]), label[1]
    if suit in "mps":
        return str(n) if look.index else ""
    if suit == "z":
        return "ESWN"[n - 1] if look.index and n <= 4 else ""
    if look.flower == 5:  # the seat numeral: a Chinese one is no index numeral the mark reader reads
        return str((n - 1) % 4 + 1) if look.seat is not None and look.seat.latin else ""
    return str((n - 1) % 4 + 1) if look.flower in (1, 2) or (look.flower == 0 and look.index) else ""


def _index(img: Image.Image, look: Look, text: str) -> None:
    if look.index is None:
        return
    s = W * look.index_size
    x0 = W * 0.05 if look.index == "tl" else W * 0.95 - s
    strokes.glyph(text, look.latin_font, look.index_ink, (x0, H * 0.03, x0 + s, H * 0.03 + s), img)


def _bird(d: ImageDraw.ImageDraw, look: Look, box: tuple) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    g, r, b = look.stick_inks[0], look.dot_inks[2], look.stick_inks[1]
    for k in range(5):  # tail feathers
        a = math.radians(200 + k * 22)
        ex, ey = x0 + w * 0.45 + math.cos(a) * w * 0.45, y0 + h * 0.62 - math.sin(a) * h * 0.35
        d.line((x0 + w * 0.45, y0 + h * 0.62, ex, ey), fill=(g, b)[k % 2], width=max(3, round(w * 0.06)))
        d.ellipse((ex - w * 0.07, ey - w * 0.07, ex + w * 0.07, ey + w * 0.07), fill=r)
    d.ellipse((x0 + w * 0.3, y0 + h * 0.4, x0 + w * 0.75, y0 + h * 0.72), fill=g)          # body
    d.ellipse((x0 + w * 0.6, y0 + h * 0.22, x0 + w * 0.82, y0 + h * 0.42), fill=b)         # head
    d.polygon([(x0 + w * 0.8, y0 + h * 0.3), (x0 + w * 0.95, y0 + h * 0.34), (x0 + w * 0.8, y0 + h * 0.37)], fill=r)
    d.line((x0 + w * 0.68, y0 + h * 0.42, x0 + w * 0.68, y0 + h * 0.55), fill=b, width=max(3, round(w * 0.05)))
    for lx in (0.48, 0.58):  # legs
        d.line((x0 + w * lx, y0 + h * 0.7, x0 + w * lx, y0 + h * 0.9), fill=r, width=max(2, round(w * 0.03)))


# what a captioned flower may show (sets draw butterflies, suns, leaves, a round flower like a coin, bamboo ...): any
# of these for any flower, so that a classifier learns to read the caption, not the picture
PICTURES = ("blooms", "suns", "coin", "sticks", "bird", "none")


def _picture(d: ImageDraw.ImageDraw, look: Look, art: tuple[int, int, int], box: tuple) -> None:
    """One of ``PICTURES`` in ``box``: ``art`` = (kind, count 1-5, shape 5-8: petals, rays or coin drawing)."""
    kind, count, shape = art
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    spots = [(0.5, 0.5)] if count == 1 else [(0.25 + 0.5 * ((j * 37) % 10) / 10, 0.2 + 0.6 * ((j * 53) % 10) / 10)
                                            for j in range(count)]
    r = min(w, h) * (0.42 if count == 1 else 0.18)
    inks = look.flower_inks
    if PICTURES[kind] == "blooms":
        for j, (u, v) in enumerate(spots):
            strokes.bloom(d, x0 + w * u, y0 + h * v, r, shape, inks[(j + 1) % 3], inks[j % 3])
    elif PICTURES[kind] == "suns":
        for j, (u, v) in enumerate(spots):
            strokes.sun(d, x0 + w * u, y0 + h * v, r, shape + 2, inks[(j + 2) % 3])
    elif PICTURES[kind] == "coin":
        strokes.coin(d, x0 + w / 2, y0 + h / 2, min(w, h) * 0.42, inks[1], shape % 6, inks[0], look.face)
    elif PICTURES[kind] == "sticks":
        for j in range(count):
            u = (j + 0.5) / count
            angle = math.radians((shape - 6.5) * 8 * (1 if j % 2 else -1))
            strokes.stick(d, x0 + w * u, y0 + h / 2, h * 0.85, w * min(0.16, 0.7 / count), inks[1 + j % 2], angle,
                          look.face, look.stick)
    elif PICTURES[kind] == "bird":
        _bird(d, look, box)


# a borrowed picture: the middle of a fetched set's flower, away from its corner numbers and captions (not its 1s
# bird, which names a suit tile: a bird is no flower's picture)
BORROWED_FROM = tuple(f"{n}f" for n in range(1, 9))
BORROWED_CUT = (0.12, 0.18, 0.88, 0.78)  # x0, y0, x1, y1 as shares of the face
BIRD_CUT = (0.06, 0.18, 0.94, 0.96)  # a 1s's bird fills the face below its corner number
# not borrowed: the held-out style, the skipped ones, and classic, whose flowers are glyphs (春 ... 竹), not pictures
NOT_BORROWED = (*HELD_OUT_STYLES, *SKIP_STYLES, "kd_classic")
NOT_BIRDS = (*HELD_OUT_STYLES, *SKIP_STYLES)  # classic's 1s is a bird like the others


def borrowable_pictures(faces: Path, skip: tuple[str, ...], labels: tuple[str, ...] = BORROWED_FROM,
                        region: tuple[float, float, float, float] = BORROWED_CUT) -> list[Image.Image]:
    """The pictures of the tiles ``labels`` (the flowers) of the fetched sets under ``faces`` (not the drawn ones, nor
    the sets in ``skip``), cut from the face's ``region`` and the face's own colour made transparent."""
    out = []
    for style in sorted(faces.iterdir()):
        if style.name in skip or any(fnmatch.fnmatchcase(style.name, p) for p in DRAWN_STYLES):
            continue
        for label in labels:
            if (style / f"{label}.png").exists():
                face = Image.open(style / f"{label}.png").convert("RGB")
                x0, y0, x1, y1 = region
                w, h = face.size
                cut = np.asarray(face.crop((round(x0 * w), round(y0 * h), round(x1 * w), round(y1 * h)))).astype(int)
                ground = np.median(np.concatenate([cut[0], cut[-1], cut[:, 0], cut[:, -1]]), axis=0)
                alpha = np.clip((np.abs(cut - ground).sum(2) - 40) * 4, 0, 255).astype(np.uint8)
                if (alpha > 128).mean() > 0.04:  # a blank flower (no picture) is no picture to borrow
                    out.append(Image.fromarray(np.dstack([cut, alpha]).astype(np.uint8), "RGBA"))
    return out


def _paste_picture(img: Image.Image, picture: Image.Image, box: tuple) -> None:
    x0, y0, x1, y1 = box
    k = min((x1 - x0) / picture.width, (y1 - y0) / picture.height)
    pic = picture.resize((max(1, round(picture.width * k)), max(1, round(picture.height * k))), Image.LANCZOS)
    img.paste(pic, (round((x0 + x1 - pic.width) / 2), round((y0 + y1 - pic.height) / 2)), pic)


def draw_face(look: Look, label: str, decoy: int | None = None) -> Image.Image:
    """The face of ``label`` in ``look``; ``decoy``: a suit tile's numeral, dots or sticks drawn as this number
    instead, its corner index still saying the label's (a decoy style: the index names the tile)."""
    img = Image.new("RGB", (W, H), look.face)
    d = ImageDraw.Draw(img)
    if look.frame is not None:
        m = W * 0.03
        d.rounded_rectangle((m, m, W - m, H - m), radius=W * 0.06, outline=look.frame, width=3)
    n, suit = int(label[0]), label[1]
    shown = n if decoy is None else decoy  # the number the body of a suit tile shows
    m = look.margin
    # sets with index numerals print them on every suit tile; dots and bamboo then keep clear of the corner
    indexed = look.index is not None and suit in "ps"
    body = (W * m, H * (m + (0.13 if indexed else 0.0)), W * (1 - m), H * (1 - m))
    bx0, by0, bx1, by1 = body
    bw, bh = bx1 - bx0, by1 - by0
    if indexed:
        _index(img, look, index_mark(look, label))
    if suit == "m":
        numeral = {5: look.five, 6: look.six}.get(shown, NUMERALS[shown - 1])
        top = by0 + bh * (0.12 if look.index else 0.0)
        split = top + (by1 - top) * 0.42
        numeral_box = (bx0 + bw * 0.12, top, bx1 - bw * 0.12, split - bh * 0.03)
        strokes.glyph(numeral, look.num_font, look.num_ink, numeral_box, img)
        strokes.glyph(look.wan, look.wan_font, look.wan_ink, (bx0, split, bx1, by1), img, look.squeeze)
        _index(img, look, index_mark(look, label))
    elif suit == "p":
        if shown == 1:
            r = min(bw, bh) * 0.46
            cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
            strokes.coin(d, cx, cy, r, look.dot_inks[0], look.coin_one, look.dot_inks[2], look.face)
            strokes.coin(d, cx, cy, r * 0.45, look.dot_inks[1], look.coin, look.dot_inks[2], look.face)
        else:
            # coins as large as the layout lets them be without touching each other or the face's edge
            centres = [(bx0 + bw * x, by0 + bh * y, slot) for x, y, slot in strokes.DOTS[shown]]
            gap = min(math.dist(a[:2], b[:2]) for i, a in enumerate(centres) for b in centres[i + 1:])
            edge = min(min(x, W - x, y, H - y) for x, y, _ in centres) - W * 0.03
            r = min(gap * 0.47, edge)
            for x, y, slot in centres:
                accent = look.dot_inks[2 if slot != 2 else 0]
                strokes.coin(d, x, y, r, look.dot_inks[slot], look.coin, accent, look.face)
    elif suit == "s":
        if shown == 1:
            if look.bird is not None:
                if look.bird_plant is not None:
                    draw_plant(d, look.bird_plant, body)
                _paste_picture(img, look.bird, body)
            elif look.one_sou == 0:
                _bird(d, look, body)
            elif look.one_sou == 1:
                strokes.glyph(look.one_glyph, look.num_font, look.stick_inks[0], body, img)
            else:
                strokes.stick(d, (bx0 + bx1) / 2, (by0 + by1) / 2, bh * 0.9, bw * 0.28, look.stick_inks[0], 0,
                              look.face, look.stick)
                strokes.bloom(d, (bx0 + bx1) / 2, (by0 + by1) / 2, bw * 0.2, 6, look.stick_inks[2], look.face)
        else:
            rows, spots = look.sticks.get(shown, (3 if shown in (7, 9) else 2, strokes.STICKS[shown]))
            length = bh / rows * 0.86
            width = bw * (0.13 if shown == 8 else 0.16 if shown >= 6 or shown == 5 else 0.2)
            for x, y, slot, ang in spots:
                strokes.stick(d, bx0 + bw * x, by0 + bh * y, length, width, look.stick_inks[slot], math.radians(ang),
                       look.face, look.stick)
    elif suit == "z":
        if n <= 4:
            strokes.glyph(WINDS[n - 1], look.honour_font, look.wind_ink, body, img, look.squeeze)
            _index(img, look, index_mark(look, label))
        elif n == 6:
            strokes.glyph(look.fa, look.honour_font, look.fa_ink, body, img, look.squeeze)
        elif n == 7:
            red = look.wan_ink if look.wan_ink in RED else RED[0]
            strokes.glyph("中", look.honour_font, red, body, img, look.squeeze)
        else:
            _white(d, look, body)
    elif look.flower == 5:
        _picture_flower(img, d, look, label, body)
    else:  # flowers
        k = (n - 1) % 4
        glyph = (SEASONS if n <= 4 else FLOWERS)[k]
        ink = look.flower_inks[k % 3]
        if look.flower == 3 and look.borrowed and look.borrowed[n - 1] is not None:
            _paste_picture(img, look.borrowed[n - 1], (bx0, by0, bx1, by0 + bh * 0.68))
        elif look.flower == 3:
            _picture(d, look, look.pictures[n - 1], (bx0, by0, bx1, by0 + bh * 0.68))
        if look.flower in (1, 2):
            for j in range(3 + k):
                cx = bx0 + bw * (0.25 + 0.5 * ((j * 37) % 10) / 10)
                cy = by0 + bh * (0.45 + 0.45 * ((j * 53) % 10) / 10)
                if n <= 4:  # a season: a sun of rays, so that no season is drawn like the flower of its number
                    strokes.sun(d, cx, cy, bw * 0.14, 6 + k, look.flower_inks[(k + 2) % 3])
                else:
                    strokes.bloom(d, cx, cy, bw * 0.16, 5 + k, look.flower_inks[(k + 1) % 3], look.flower_inks[k % 3])
        if look.flower in (0, 1):
            gb = body if look.flower == 0 else (bx0, by0 + bh * 0.05, bx0 + bw * 0.55, by0 + bh * 0.45)
            strokes.glyph(glyph, look.honour_font, ink, gb, img)
        if look.flower in (3, 4):
            word = look.caption[n - 1]
            top = by0 + bh * (0.72 if look.flower == 3 else 0.35)
            strokes.glyph(word, look.latin_font, look.num_ink, (bx0, top, bx1, min(by1, top + bh * 0.25)), img)
        # the number in a corner; a captioned flower has none (as export sets print them), so the word names it
        if mark := index_mark(look, label):
            s = W * 0.22
            strokes.glyph(mark, look.latin_font, look.index_ink, (bx1 - s, by0, bx1, by0 + s), img)
    return img.resize((FACE_W, FACE_H), Image.LANCZOS)


def _picture_flower(img: Image.Image, d: ImageDraw.ImageDraw, look: Look, label: str, body: tuple) -> None:
    """A flower as Taiwanese and Hong Kong sets print it: a plant picture filling the face, its character (春夏秋冬,
    梅蘭菊竹) in one top corner and its seat numeral (1-4, the same on a season and on the flower of its row) in the
    other."""
    n = int(label[0])
    k, season = (n - 1) % 4, n <= 4
    seat = look.seat
    if seat is None:
        msg = "a picture flower (Look.flower 5) needs its Look.seat"
        raise ValueError(msg)
    x0, y0, x1, y1 = body
    bw, bh = x1 - x0, y1 - y0
    draw_plant(d, look.plants[n - 1], (x0 + bw * 0.08, y0 + bh * 0.22, x1 - bw * 0.08, y1))
    s = W * seat.size
    numeral_left = seat.season_numeral_left if season else seat.flower_numeral_left
    left, right = (x0, y0, x0 + s, y0 + s * 1.15), (x1 - s, y0, x1, y0 + s * 1.15)
    glyph_box, numeral_box = (right, left) if numeral_left else (left, right)
    if not seat.alone:
        character = (SEASONS if season else FLOWERS)[k]
        strokes.glyph(character, look.honour_font, seat.glyph_inks[0 if season else 1], glyph_box, img)
    nx0, ny0, nx1, ny1 = numeral_box
    inset = s * 0.18  # a numeral is smaller than the character beside it
    numeral_box = (nx0 + inset, ny0 + inset * 0.5, nx1 - inset, ny1 - inset)
    if seat.latin:
        strokes.glyph(str(k + 1), look.latin_font, seat.numeral_ink, numeral_box, img)
    else:
        strokes.glyph(NUMERALS[k], look.num_font, seat.numeral_ink, numeral_box, img)


def throw_seat(rng: np.random.Generator) -> Seat:
    """A picture-flower set's choices (``Seat``): as the real ones, most print the season's numeral on the left and the
    flower's on the right, some the other way or both alike."""
    season_left = bool(rng.random() < 0.7)
    flower_left = (not season_left) if rng.random() < 0.75 else season_left
    ink = pick(rng, RED + BLUE + BLACK)
    return Seat(latin=bool(rng.random() < 0.75), season_numeral_left=season_left, flower_numeral_left=flower_left,
                numeral_ink=pick(rng, RED + BLUE + BLACK), glyph_inks=(ink, ink if rng.random() < 0.6 else pick(
                    rng, RED + BLUE + BLACK + GREEN)), size=float(rng.uniform(0.24, 0.32)))


def throw_plants(rng: np.random.Generator) -> tuple[Plant, ...]:
    """A picture-flower set's eight pictures: each flower its own plant (or, in one set of five, any), each season
    any plant, potted or not."""
    flowers = [throw_plant(rng, FLOWER_PLANT[f] if rng.random() < 0.8 else None) for f in FLOWER_NAMES[4:]]
    seasons = [throw_plant(rng, None, potted=0.5) for _ in range(4)]
    return (*seasons, *flowers)


# the colours of the backs of the sets drawn with ``--hk`` (a back is coloured: green, blue, yellow, pink, ...)
BACKS = [(30, 120, 70), (20, 80, 160), (230, 190, 40), (235, 140, 170), (190, 40, 40), (40, 150, 150), (120, 60, 150),
         (235, 120, 30), (25, 45, 95), (120, 190, 90), (110, 170, 220), (40, 40, 40), (150, 90, 50)]


def draw_back(rgb: tuple, rng: np.random.Generator) -> Image.Image:
    """A set's back: its colour, a little lighter at the top, in a third of the sets a faint motif pressed in."""
    img = Image.new("RGB", (W, H), rgb)
    d = ImageDraw.Draw(img)
    for y in range(0, H, 8):
        k = 1.06 - 0.12 * y / H
        d.rectangle((0, y, W, y + 8), fill=tuple(min(255, round(c * k)) for c in rgb))
    if rng.random() < 0.35:
        shade = tuple(round(c * 0.85) for c in rgb)
        r = W * rng.uniform(0.2, 0.3)
        d.ellipse((W / 2 - r, H / 2 - r, W / 2 + r, H / 2 + r), outline=shade, width=max(3, round(W * 0.02)))
    return img.resize((FACE_W, FACE_H), Image.LANCZOS)


def _white(d: ImageDraw.ImageDraw, look: Look, body: tuple) -> None:
    x0, y0, x1, y1 = body
    ink, lw = look.white_ink, max(3, round(W * 0.035))
    if look.white == 0:
        return
    d.rectangle((x0, y0, x1, y1), outline=ink, width=lw)
    if look.white == 2:
        g = W * 0.07
        d.rectangle((x0 + g, y0 + g, x1 - g, y1 - g), outline=ink, width=max(2, lw // 2))
    elif look.white == 3:
        c = W * 0.12
        for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            d.rectangle((cx - c / 2, cy - c / 2, cx + c / 2, cy + c / 2), fill=ink)
    elif look.white == 4:
        g = W * 0.06
        step = (y1 - y0 - 2 * g) / 10
        for k in range(10):
            for x in (x0 + g, x1 - g):
                d.rectangle((x - step * 0.3, y0 + g + k * step, x + step * 0.3, y0 + g + (k + 0.7) * step), fill=ink)
        step = (x1 - x0 - 2 * g) / 7
        for k in range(7):
            for y in (y0 + g, y1 - g):
                d.rectangle((x0 + g + k * step, y - step * 0.3, x0 + g + (k + 0.7) * step, y + step * 0.3), fill=ink)


@dataclass(frozen=True)
class Drawn:
    """What ``draw_styles`` drew: the faces' folder, its drawn styles, the CJK fonts they drew from, the Unicode-tile
    styles, and the contact sheet to check them by eye."""

    faces: Path
    styles: int
    fonts: int
    unicode: int
    sheet: Path


def draw_styles(cache: Path, count: int = 24, seed: int = 0, decoys: bool = False, borrow: Path | None = None,
                any_latin: bool = False, birds: bool = False, hk: bool = False, held_out: bool = False,
                seat_decoys: Path | None = None, numeral_alone: bool = False) -> Drawn:
    """Draw ``count`` styles (seeded by ``seed``) into ``cache/faces`` from the fonts of Debian's packages (fetched
    into ``cache/fonts``), then, unless ``decoys``, ``borrow``, ``hk`` or ``seat_decoys``, the Unicode-tile styles;
    ``decoys``, ``borrow``, ``any_latin``, ``birds``, ``hk``, ``held_out``, ``seat_decoys`` (the fetched faces
    the birds are cut from) and ``numeral_alone`` as the command's options say (``python -m training drawn-art
    --help``)."""
    if sum((decoys, borrow is not None, hk, seat_decoys is not None)) > 1:
        msg = "decoys, borrow, hk and seat_decoys draw different styles: one of them"
        raise ValueError(msg)
    if (held_out or numeral_alone) and not hk:
        msg = f"{'held_out' if held_out else 'numeral_alone'} goes with hk"
        raise ValueError(msg)
    if birds and borrow is None:
        msg = "birds go with borrow FACES"
        raise ValueError(msg)
    pictures = borrowable_pictures(borrow, NOT_BORROWED) if borrow else []
    birds_from = seat_decoys or (borrow if birds else None)
    birds_cut = borrowable_pictures(birds_from, NOT_BIRDS, ("1s",), BIRD_CUT) if birds_from else []
    if borrow and not pictures or birds_from and not birds_cut:
        msg = f"no fetched {'flowers' if borrow and not pictures else 'ones of bamboo'} to borrow under {birds_from}"
        raise FileNotFoundError(msg)
    root = fetch_debs(cache / "fonts", FONT_PACKAGES)
    fonts = font_files(root)
    if hk or seat_decoys:  # the held-out variant draws with font families no training style of its kind draws with
        fonts = [f for f in fonts if (f.family in HK_HELD_OUT_FAMILIES) == held_out]
    if not fonts:
        msg = f"no CJK font with the tile glyphs under {root}"
        raise FileNotFoundError(msg)
    latin = [p for p in Path("/usr/share/fonts").rglob("*.ttf") if p.name in LATIN_FONTS] or [fonts[0][0]]
    if any_latin:
        latin = latin_fonts([root, Path("/usr/share/fonts")]) or latin
    faces = cache / "faces"
    rng = np.random.default_rng(seed)
    bird_rng = np.random.default_rng([seed, 1])
    for k in range(count):
        look = make_look(rng, fonts, latin)
        if decoys:
            look = replace(look, index=pick(rng, ("tl", "tr", "tr")))
        if pictures:
            look = replace(look, flower=3 if rng.random() < 0.85 else 4, borrowed=tuple(
                pick(rng, pictures) if rng.random() < 0.75 else None for _ in range(8)))
        if birds and birds_cut and bird_rng.random() < 0.75:
            look = replace(look, bird=pick(bird_rng, birds_cut))
        if hk or seat_decoys:
            look = replace(look, flower=5, seat=replace(throw_seat(rng), alone=numeral_alone),
                           plants=throw_plants(rng), back=pick(rng, BACKS),
                           white=0 if rng.random() < 0.7 else look.white)
        if seat_decoys and look.seat is not None:
            look = replace(look, index=pick(bird_rng, ("tl", "tr")), index_ink=look.seat.numeral_ink,
                           bird=pick(bird_rng, birds_cut),
                           bird_plant=throw_plant(bird_rng) if bird_rng.random() < 0.5 else None)
        hk_prefix = ((NUMERAL_ALONE_HELD_OUT if held_out else NUMERAL_ALONE) if numeral_alone else
                     HK_HELD_OUT if held_out else HK)
        prefix = (DECOY_PREFIX[:-1] if decoys else "bp" if pictures else hk_prefix if hk else
                  SEAT_DECOYS if seat_decoys else "dr")
        dest = faces / f"{prefix}_{k:02d}"
        dest.mkdir(parents=True, exist_ok=True)
        if look.back is not None:
            draw_back(look.back, rng).save(dest / "back.png")
        labels = [*FACE_NAMES, *FLOWER_NAMES]
        (dest / MARKS_FILE).write_text(json.dumps({label: index_mark(look, label) for label in labels}, indent=0))
        for label in labels:
            n = int(label[0])
            decoy = 1 + (n - 1 + int(rng.integers(1, 9))) % 9 if decoys and label[1] in "mps" else None
            img = draw_face(look, label, decoy)
            if rng.random() < 0.3:
                img = img.filter(ImageFilter.GaussianBlur(0.6))
            img.save(dest / f"{label}.png")
    tiled = [] if decoys or pictures or hk or seat_decoys else mahjong_fonts(root)
    for path in tiled:
        unicode_faces(path, faces / f"uc_{path.stem.split('-')[0].split('_')[0].lower()}", rng)
    contact_sheet(faces, cache / "contact_sheet.png")
    return Drawn(faces, count, len(fonts), len(tiled), cache / "contact_sheet.png")
