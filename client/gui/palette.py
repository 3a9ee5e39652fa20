"""Colours, side marks and sprite sizes: every look-and-feel constant in one place."""

from __future__ import annotations

#: Side colour name (as the server's COLOURS) -> RGB; order is the pegs.png row order.
COLOUR_RGB: dict[str, tuple[int, int, int]] = {
    "red": (214, 48, 49),
    "blue": (41, 98, 214),
    "green": (46, 160, 67),
    "yellow": (244, 200, 40),
    "purple": (142, 68, 173),
    "orange": (235, 120, 20),
}
#: One mark per side (side 0, 1, 2, 3), the same as the terminal board's, so sides differ without colour.
MARKS = "XO+#"
#: Words for the marks, for the log and the seat labels.
MARK_NAMES = {"X": "cross", "O": "ring", "+": "plus", "#": "square"}

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
FONT = "DejaVu Sans"
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")

#: Palettes a player may pick: side colour name -> RGB. Every one keeps side colours apart for
#: the common colour-vision deficiencies (tests/test_gui_palette.py).
PALETTES: dict[str, dict[str, tuple[int, int, int]]] = {"standard": COLOUR_RGB}


def side_rgb(colour: str, palette: str = "standard") -> tuple[int, int, int]:
    """The RGB a side colour is drawn in under the player's palette (unknown names: the standard one)."""
    return PALETTES.get(palette, COLOUR_RGB).get(colour, COLOUR_RGB.get(colour, (128, 128, 128)))
