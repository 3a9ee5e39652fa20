"""Pegs drawn from the palette at run time (PIL only): one outline shape and one mark per side.

A side is told apart by three things at once: its colour, its peg's outline
(round, square, diamond, hexagon) and the mark on it (the terminal board's
``XO+#``), so no player depends on seeing colour.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFilter

from .palette import MARKS, RGB

#: The outline of each side's peg, side 0 to 3 (words for the seat labels and the docs).
SHAPES = ("round", "square", "diamond", "hexagon")
INK_DARK, INK_LIGHT = (20, 20, 20, 255), (255, 255, 255, 255)
OUTLINE = (25, 20, 15, 255)


def ink_for(rgb: RGB) -> tuple[int, int, int, int]:
    """Dark ink on a light colour, white ink on a dark one (relative luminance, WCAG weights)."""
    r, g, b = (c / 255 for c in rgb)
    return INK_DARK if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else INK_LIGHT


def _outline(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if shape == "square":
        s = r * 0.86  # a square of the circle's area would look bigger: keep the pegs' weight alike
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "diamond":
        s = r * 1.08
        return [(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)]
    if shape == "hexagon":
        return [(cx + r * math.cos(math.radians(30 + 60 * k)), cy + r * math.sin(math.radians(30 + 60 * k)))
                for k in range(6)]
    return []  # round: an ellipse, not a polygon


def _mark(d: ImageDraw.ImageDraw, mark: str, cx: float, cy: float, r: float, ink: tuple) -> None:
    width = max(2, int(r * 0.32))
    if mark == "X":
        d.line((cx - r, cy - r, cx + r, cy + r), fill=ink, width=width)
        d.line((cx - r, cy + r, cx + r, cy - r), fill=ink, width=width)
    elif mark == "O":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=width)
    elif mark == "+":
        d.line((cx - r * 1.15, cy, cx + r * 1.15, cy), fill=ink, width=width)
        d.line((cx, cy - r * 1.15, cx, cy + r * 1.15), fill=ink, width=width)
    else:  # "#": a filled square
        s = r * 0.85
        d.rectangle((cx - s, cy - s, cx + s, cy + s), fill=ink)


def peg_image(rgb: RGB, side: int, size: int = 96) -> Image.Image:
    """A ``size``-pixel RGBA peg of colour ``rgb`` with side ``side``'s outline and mark, on a soft shadow."""
    shape, mark = SHAPES[side % len(SHAPES)], MARKS[side % len(MARKS)]
    c = (size - 4) / 2
    r = size * 0.42
    shadow = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    sd = ImageDraw.Draw(shadow)
    points = _outline(shape, c + 4, c + 5, r)
    if points:
        sd.polygon(points, fill=(0, 0, 0, 110))
    else:
        sd.ellipse((c + 4 - r, c + 5 - r, c + 4 + r, c + 5 + r), fill=(0, 0, 0, 110))
    peg = shadow.filter(ImageFilter.GaussianBlur(max(1, size // 32)))
    d = ImageDraw.Draw(peg)
    border = max(2, size // 32)
    fill = (*rgb, 255)
    points = _outline(shape, c, c, r)
    if points:
        d.polygon(points, fill=fill, outline=OUTLINE, width=border)
    else:
        d.ellipse((c - r, c - r, c + r, c + r), fill=fill, outline=OUTLINE, width=border)
    light = tuple(min(255, v + 70) for v in rgb)
    d.ellipse((c - r * 0.55, c - r * 0.7, c - r * 0.05, c - r * 0.3), fill=(*light, 170))  # the shine
    _mark(d, mark, c, c, size * 0.2, ink_for(rgb))
    return peg
