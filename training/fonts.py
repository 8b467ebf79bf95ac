"""Which fonts draw a mahjong tile: Debian's CJK font packages, and of their files those that have and draw every
glyph a tile needs, the Latin letters and digits of an index or a caption, or the Unicode mahjong tiles."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import ImageFont

FONT_PACKAGES = (
    "fonts-arphic-ukai", "fonts-arphic-uming", "fonts-arphic-bkai00mp", "fonts-arphic-bsmi00lp",
    "fonts-arphic-gbsn00lp", "fonts-arphic-gkai00mp", "fonts-cwtex-kai", "fonts-cwtex-ming", "fonts-cwtex-heib",
    "fonts-cwtex-yen", "fonts-cwtex-fs", "fonts-wqy-zenhei", "fonts-wqy-microhei", "fonts-hanazono",
    "fonts-ipafont-mincho", "fonts-ipafont-gothic", "fonts-lxgw-wenkai", "fonts-klee", "fonts-seto",
    "fonts-noto-cjk", "fonts-noto-core", "fonts-ancient-scripts",
    # brush and hand-written ones: cursive numerals (草書, 行書) as older sets print them
    "fonts-aoyagi-kouzan-t", "fonts-aoyagi-soseki", "fonts-kouzan-mouhitsu", "fonts-kiloji", "fonts-dejima-mincho",
    "fonts-oradano-mincho-gsrr", "fonts-motoya-l-cedar", "fonts-babelstone-han", "fonts-cns11643-kai", "fonts-konatu",
)
NEEDED = "一二三四五六七八九萬東南西北中發梅蘭菊竹春夏秋冬"
VARIANTS = "伍陸万发幺"  # used where the font has them
LATIN_NEEDED = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Font:
    path: Path
    family: str
    variants: str  # which of VARIANTS it has


def font_files(root: Path) -> list[Font]:
    """Every unpacked font that has and draws all the glyphs a tile needs (of a collection, its first face)."""
    from fontTools.ttLib import TTCollection, TTFont

    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in (".ttf", ".otf", ".ttc"):
            continue
        try:
            faces = TTCollection(str(path), lazy=True).fonts if path.suffix.lower() == ".ttc" else [
                TTFont(str(path), lazy=True)]
        except Exception:  # noqa: BLE001 - a font fontTools cannot read is simply not used
            continue
        # of a collection the first face is enough (the others are the same glyphs for other locales)
        cmap = faces[0].getBestCmap() or {}
        if all(ord(c) in cmap for c in NEEDED):
            try:
                pil = ImageFont.truetype(str(path), 160, index=0)
            except OSError:  # a bitmap-only font does not scale
                continue
            if not all(pil.getmask(c).getbbox() for c in NEEDED):  # some map a glyph they leave blank
                continue
            found.append(Font(path, path.stem.split("-")[0].split("_")[0], "".join(
                c for c in VARIANTS if ord(c) in cmap and pil.getmask(c).getbbox())))
    return found


def latin_fonts(roots: list[Path]) -> list[Path]:
    """Every font under ``roots`` that draws the Latin letters and digits (an index numeral or a caption in any of
    them: Noto's, DejaVu's, and the CJK fonts' own; of a collection, its first face)."""
    from fontTools.ttLib import TTFont

    out = []
    for path in sorted(p for root in roots for p in root.rglob("*") if p.suffix.lower() in (".ttf", ".otf", ".ttc")):
        try:
            cmap = TTFont(str(path), lazy=True, fontNumber=0).getBestCmap() or {}
            pil = ImageFont.truetype(str(path), 80, index=0)
        except Exception:  # noqa: BLE001 - a font fontTools or FreeType cannot read is simply not used
            continue
        if all(ord(c) in cmap and pil.getmask(c).getbbox() for c in LATIN_NEEDED):
            out.append(path)
    return out


def mahjong_fonts(root: Path) -> list[Path]:
    from fontTools.ttLib import TTFont

    out = []
    for path in sorted(root.rglob("*.tt[fc]")):
        try:
            cmap = TTFont(str(path), lazy=True, fontNumber=0).getBestCmap() or {}
        except Exception:  # noqa: BLE001
            continue
        if all(cp in cmap for cp in range(0x1F000, 0x1F02A)):
            out.append(path)
    return out
