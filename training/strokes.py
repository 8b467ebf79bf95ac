"""The strokes tile faces are drawn with: a glyph fitted into a box, a dot's coin, a bamboo stick, a bloom, a sun;
and where the dots and sticks of each number stand on a face (with the other layouts sets use for the sticks)."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont


def glyph(text: str, font: ImageFont.FreeTypeFont, ink: tuple[int, int, int], box: tuple[float, float, float, float],
           canvas: Image.Image, stretch: float = 1.0) -> None:
    """Draw ``text`` fitted into ``box`` (x0, y0, x1, y1), keeping its shape (``stretch`` > 1 makes it taller)."""
    x0, y0, x1, y1 = box
    mask = Image.new("L", (font.size * (len(text) + 1), font.size * 2), 0)
    ImageDraw.Draw(mask).text((font.size // 4, font.size // 4), text, font=font, fill=255)
    bb = mask.getbbox()
    if bb is None:
        return
    mask = mask.crop(bb)
    bw, bh = x1 - x0, y1 - y0
    scale = min(bw / mask.width, bh / (mask.height * stretch))
    size = (max(1, round(mask.width * scale)), max(1, round(mask.height * scale * stretch)))
    mask = mask.resize(size, Image.LANCZOS)
    at = (round(x0 + (bw - size[0]) / 2), round(y0 + (bh - size[1]) / 2))
    canvas.paste(Image.new("RGB", size, ink), at, mask)


def coin(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple, kind: int, accent: tuple,
          face: tuple) -> None:
    """One dot: ``kind`` picks the coin's drawing (rings, petals, solid, spokes ...)."""
    def circ(rr: float, fill: tuple | None = None, outline: tuple | None = None, width: int = 0) -> None:
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=outline, width=width)

    lw = max(2, round(r * 0.16))
    if kind == 0:  # concentric rings
        circ(r, outline=ink, width=lw)
        circ(r * 0.55, outline=ink, width=lw)
        circ(r * 0.18, fill=ink)
    elif kind == 1:  # solid with a light ring and centre
        circ(r, fill=ink)
        circ(r * 0.62, outline=face, width=lw)
        circ(r * 0.2, fill=face)
    elif kind == 2:  # ring with petals
        circ(r, outline=ink, width=lw)
        for k in range(8):
            a = k * math.pi / 4
            px, py = cx + math.cos(a) * r * 0.55, cy + math.sin(a) * r * 0.55
            d.ellipse((px - r * 0.17, py - r * 0.17, px + r * 0.17, py + r * 0.17), fill=ink)
        circ(r * 0.2, fill=accent)
    elif kind == 3:  # spokes
        circ(r, outline=ink, width=lw)
        for k in range(6):
            a = k * math.pi / 6
            dx, dy = math.cos(a) * r * 0.8, math.sin(a) * r * 0.8
            d.line((cx - dx, cy - dy, cx + dx, cy + dy), fill=ink, width=max(1, lw // 2))
        circ(r * 0.3, fill=face, outline=ink, width=lw)
    elif kind == 4:  # thick ring, accent centre
        circ(r, fill=ink)
        circ(r * 0.7, fill=face)
        circ(r * 0.42, fill=accent)
    else:  # double ring with a square hole (a cash coin)
        circ(r, fill=ink)
        circ(r * 0.82, fill=face)
        circ(r * 0.68, fill=ink)
        s = r * 0.22
        d.rectangle((cx - s, cy - s, cx + s, cy + s), fill=face)


def stick(d: ImageDraw.ImageDraw, cx: float, cy: float, length: float, width: float, ink: tuple, angle: float,
           face: tuple, kind: int) -> None:
    """One bamboo stick centred at (cx, cy), ``angle`` in radians from vertical, with its joints."""
    ux, uy = math.sin(angle), -math.cos(angle)   # along the stick
    vx, vy = -uy, ux                             # across
    hl, hw = length / 2, width / 2

    def quad(t0: float, t1: float, w: float) -> list[tuple[float, float]]:
        return [(cx + ux * t0 + vx * w, cy + uy * t0 + vy * w), (cx + ux * t1 + vx * w, cy + uy * t1 + vy * w),
                (cx + ux * t1 - vx * w, cy + uy * t1 - vy * w), (cx + ux * t0 - vx * w, cy + uy * t0 - vy * w)]

    if kind == 0:  # solid stick, light joints
        d.polygon(quad(-hl, hl, hw), fill=ink)
        for t in (-hl * 0.92, 0, hl * 0.92):
            d.polygon(quad(t - width * 0.08, t + width * 0.08, hw * 1.25), fill=ink)
            d.line([quad(t, t, hw * 0.8)[0], quad(t, t, hw * 0.8)[2]], fill=face, width=max(1, round(width * 0.1)))
    elif kind == 1:  # outlined stick with a centre line
        d.polygon(quad(-hl, hl, hw), outline=ink, width=max(2, round(width * 0.18)))
        d.line([(cx - ux * hl * 0.9, cy - uy * hl * 0.9), (cx + ux * hl * 0.9, cy + uy * hl * 0.9)], fill=ink,
               width=max(1, round(width * 0.15)))
        for t in (-hl, 0, hl):
            d.polygon(quad(t - width * 0.1, t + width * 0.1, hw * 1.3), fill=ink)
    else:  # two segments with bulging joints
        for t0, t1 in ((-hl, -width * 0.12), (width * 0.12, hl)):
            d.polygon(quad(t0, t1, hw * 0.85), fill=ink)
        for t in (-hl, 0, hl):
            p = (cx + ux * t, cy + uy * t)
            d.ellipse((p[0] - hw * 1.1, p[1] - hw * 0.55, p[0] + hw * 1.1, p[1] + hw * 0.55), fill=ink)


# where the n dots / sticks stand, in a unit box (x, y), and which colour slot each takes
DOTS: dict[int, list[tuple[float, float, int]]] = {
    2: [(0.5, 0.27, 0), (0.5, 0.73, 1)],
    3: [(0.22, 0.2, 0), (0.5, 0.5, 1), (0.78, 0.8, 2)],
    4: [(0.27, 0.27, 0), (0.73, 0.27, 1), (0.27, 0.73, 1), (0.73, 0.73, 0)],
    5: [(0.24, 0.22, 0), (0.76, 0.22, 1), (0.5, 0.5, 2), (0.24, 0.78, 1), (0.76, 0.78, 0)],
    6: [(0.28, 0.16, 0), (0.72, 0.16, 0), (0.28, 0.5, 2), (0.72, 0.5, 2), (0.28, 0.84, 2), (0.72, 0.84, 2)],
    7: [(0.18, 0.12, 0), (0.5, 0.22, 0), (0.82, 0.32, 0), (0.3, 0.6, 2), (0.7, 0.6, 2), (0.3, 0.88, 2),
        (0.7, 0.88, 2)],
    8: [(0.28, 0.12, 1), (0.72, 0.12, 1), (0.28, 0.37, 1), (0.72, 0.37, 1), (0.28, 0.63, 1), (0.72, 0.63, 1),
        (0.28, 0.88, 1), (0.72, 0.88, 1)],
    9: [(x, y, row) for row, y in enumerate((0.17, 0.5, 0.83)) for x in (0.18, 0.5, 0.82)],
}
STICKS: dict[int, list[tuple[float, float, int, float]]] = {  # x, y, colour slot, angle (degrees)
    2: [(0.5, 0.27, 0, 0), (0.5, 0.73, 1, 0)],
    3: [(0.5, 0.27, 0, 0), (0.3, 0.73, 1, 0), (0.7, 0.73, 1, 0)],
    4: [(0.3, 0.27, 0, 0), (0.7, 0.27, 1, 0), (0.3, 0.73, 1, 0), (0.7, 0.73, 0, 0)],
    5: [(0.22, 0.27, 0, 0), (0.78, 0.27, 1, 0), (0.5, 0.5, 2, 0), (0.22, 0.73, 1, 0), (0.78, 0.73, 0, 0)],
    6: [(x, y, c, 0) for y, c in ((0.27, 0), (0.73, 1)) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17, 2, 0)] + [(x, y, c, 0) for y, c in ((0.5, 0), (0.83, 1)) for x in (0.2, 0.5, 0.8)],
    8: [(0.13, 0.27, 0, 0), (0.37, 0.27, 0, 25), (0.63, 0.27, 0, -25), (0.87, 0.27, 0, 0),
        (0.13, 0.73, 1, 0), (0.37, 0.73, 1, -25), (0.63, 0.73, 1, 25), (0.87, 0.73, 1, 0)],
    9: [(x, y, col, 0) for y in (0.17, 0.5, 0.83) for col, x in enumerate((0.2, 0.5, 0.8))],
}
# other ways tile sets arrange the sticks; each layout with the number of rows its sticks stand in
STICK_VARIANTS: dict[int, list[tuple[int, list]]] = {
    4: [(2, [(x, y, c, 0) for y in (0.27, 0.73) for c, x in enumerate((0.15, 0.85))])],
    5: [(3, [(0.25, 0.17, 0, 0), (0.75, 0.17, 1, 0), (0.5, 0.5, 2, 0), (0.25, 0.83, 1, 0), (0.75, 0.83, 0, 0)])],
    6: [(3, [(x, y, c, 0) for y in (0.17, 0.5, 0.83) for c, x in enumerate((0.3, 0.7))])],
    8: [(2, [(x, y, c, 0) for y, c in ((0.27, 0), (0.73, 1)) for x in (0.13, 0.37, 0.63, 0.87)]),
        (4, [(x, y, c, 0) for y in (0.125, 0.375, 0.625, 0.875) for c, x in enumerate((0.3, 0.7))])],
}


def bloom(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, petals: int, ink: tuple, centre: tuple) -> None:
    for k in range(petals):
        a = k * 2 * math.pi / petals
        px, py = cx + math.cos(a) * r * 0.6, cy + math.sin(a) * r * 0.6
        d.ellipse((px - r * 0.4, py - r * 0.4, px + r * 0.4, py + r * 0.4), fill=ink)
    d.ellipse((cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3), fill=centre)


def sun(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, rays: int, ink: tuple) -> None:
    d.ellipse((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy + r * 0.45), fill=ink)
    for k in range(rays):
        a = k * 2 * math.pi / rays
        d.line((cx + math.cos(a) * r * 0.6, cy + math.sin(a) * r * 0.6, cx + math.cos(a) * r, cy + math.sin(a) * r),
               fill=ink, width=max(2, round(r * 0.12)))
