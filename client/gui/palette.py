"""Colours, side marks and sprite sizes: every look-and-feel constant in one place."""

from __future__ import annotations

RGB = tuple[int, int, int]

#: Side colour name (as the server's COLOURS) -> RGB: the standard palette.
#: The hues were searched (within each name's hue range, so a red peg still reads as red) to keep
#: every pair of pegs apart under deuteranopia, protanopia and tritanopia as well as normal vision:
#: red and green differ in lightness, not only hue (tests/test_gui_palette.py states the margins).
COLOUR_RGB: dict[str, RGB] = {
    "red": (213, 32, 9),
    "blue": (42, 78, 227),
    "green": (44, 148, 127),
    "yellow": (255, 255, 18),
    "purple": (141, 14, 109),
    "orange": (236, 149, 9),
}
#: One mark per side (side 0, 1, 2, 3), the same as the terminal board's, so sides differ without colour.
MARKS = "XO+#"

CELL = 100  # board.png pixels per square
CARD_SIZE = (140, 196)  # cards.png pixels per card
PEG_SIZE = 96  # pegs.png pixels per peg
CARD_BACK = 100  # index of the back in cards.png

TABLE_BG = (24, 70, 44)  # the green baize
PANEL_BG = (17, 44, 30)
TEXT = (240, 236, 220)
TEXT_DIM = (170, 190, 170)
WARN = (255, 200, 60)
BAD = (255, 110, 100)
GOOD = (140, 230, 140)
#: The review's marks (board99.review.MARKS), each also drawn with its symbol (?!, ?, ??) and, on the
#: replay's slider, at its own height: light sky blue, amber, pinkish red, chosen to stay at least 20
#: apart (CIEDE2000) under normal vision and simulated deuteranopia, protanopia and tritanopia, and from
#: the panel and the baize (tests/test_gui_palette.py).
REVIEW_MARK_RGB: dict[str, RGB] = {
    "inaccuracy": (120, 200, 255),
    "mistake": (255, 210, 60),
    "blunder": (255, 70, 110),
}
FONT = "DejaVu Sans"
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")

#: Palettes a player may pick: side colour name -> RGB. Every one keeps side colours apart for
#: the common colour-vision deficiencies (tests/test_gui_palette.py).
PALETTES: dict[str, dict[str, tuple[int, int, int]]] = {
    "standard": COLOUR_RGB,
    # Deeper reds and purples, a lighter green and a paler yellow: searched the same way, with the
    # hues held within 18 degrees of each name's, for players who find the standard set too bright.
    "deep": {"red": (187, 0, 2), "blue": (61, 87, 179), "green": (83, 186, 147),
             "yellow": (252, 255, 101), "purple": (94, 27, 88), "orange": (245, 145, 0)},
}


def side_rgb(colour: str, palette: str = "standard") -> tuple[int, int, int]:
    """The RGB a side colour is drawn in under the player's palette (unknown names: the standard one)."""
    return PALETTES.get(palette, COLOUR_RGB).get(colour, COLOUR_RGB.get(colour, (128, 128, 128)))
