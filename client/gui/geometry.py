"""Where everything sits on the table screen, for any window size (pure arithmetic, no arcade).

The player's own seat is at the bottom; the other seats follow clockwise
(play passes to the left: bottom, left, top, right), so partners sit opposite.
"""

from __future__ import annotations

import math
from typing import NamedTuple

PANEL_W = 380  # the right-hand panel: status, deck, buttons, event log
HAND_H = 190  # the strip under the board: the player's hand
TOP_H = 96  # the strip above the board: the seat(s) opposite
RAISE = 14  # how far the picked card rises (at scale 1)
OWN_LABEL = 190  # the player's own label beside the hand: its width (at scale 1)
COUNT_HALF = 46  # half the width of a pile's count ("12 discarded") at scale 1


def line_height(points: float, scale: float) -> float:
    """About how tall one line of text of ``points`` (at scale 1) is in pixels at ``scale`` (never below 9 pt)."""
    return max(min(points, 9.0), points * scale) * 96 / 72 * 1.3


class Rect(NamedTuple):
    """An axis-aligned rectangle in window pixels (y up, as arcade draws)."""

    left: float
    bottom: float
    width: float
    height: float

    @property
    def right(self) -> float:
        """The right edge."""
        return self.left + self.width

    @property
    def top(self) -> float:
        """The top edge."""
        return self.bottom + self.height

    @property
    def cx(self) -> float:
        """The centre's x."""
        return self.left + self.width / 2

    @property
    def cy(self) -> float:
        """The centre's y."""
        return self.bottom + self.height / 2

    @property
    def center_x(self) -> float:
        """The centre's x (arcade's name)."""
        return self.cx

    @property
    def center_y(self) -> float:
        """The centre's y (arcade's name)."""
        return self.cy

    @property
    def center(self) -> tuple[float, float]:
        """The centre point."""
        return self.cx, self.cy

    def contains(self, x: float, y: float) -> bool:
        """True if the point lies inside."""
        return self.left <= x < self.right and self.bottom <= y < self.top


class SeatSpot(NamedTuple):
    """Where one seat's things go: its label box (left, top, width), discard pile centre, pile count.

    The count's text is centred on ``count_x`` (or starts there, ``count_from_left``) and, like the
    label, stays between ``lo`` and ``hi`` (the seat's own stretch of the table, off the board and panel).
    """

    label_left: float
    label_top: float
    label_width: float
    pile_x: float
    pile_y: float
    count_x: float
    count_y: float
    lo: float = 0.0
    hi: float = 0.0
    count_from_left: bool = False


class TableGeometry:
    """Every position on the table screen for one window size and seating.

    Two scales: ``base`` comes from the window alone and sizes the regions (the board, the hand and
    top strips, the panel's width, the cards); ``scale`` is ``base`` times the player's text size and
    sizes the text and the room made for it. A larger text size never takes room from the board: the
    regions around it give way (the cards get a little smaller to leave the tip its two lines).
    """

    def __init__(self, width: int, height: int, players: int, me: int | None, scale: float = 1.0,
                 base: float | None = None) -> None:
        self.width, self.height = width, height
        self.players = players
        self.me = 0 if me is None else me
        #: Text (and the room around it) grows with the window and the player's text size (scale.ui_scale).
        self.scale = s = scale
        #: The regions grow with the window only: the board's size never depends on the text size.
        self.base = b = scale if base is None else base
        hand_h, top_h = HAND_H * b, TOP_H * b
        self.hand_h = hand_h
        # The panel gives up some width in small windows so the board stays large.
        play_w = max(200, width - max(300 * b, min(PANEL_W * b, width * 0.3)))
        margin = (150 if play_w < 860 * b else 170) * b
        side = max(160.0, min(height - hand_h - top_h - 12, play_w - 2 * margin))
        self.board = Rect((play_w - side) / 2, hand_h + (height - hand_h - top_h - side) / 2, side, side)
        self.cell = side / 10
        self.panel = Rect(play_w, 0, width - play_w, height)
        self.hand = Rect(0, 0, play_w, hand_h)
        #: The row along the bottom of the hand strip: the first-game tip (two lines) and its button, or the caption.
        self.tip_h = float(round(2 * line_height(10, s) + 6 * b))  # whole pixels: a 1 px stroke at y+0.5 vanishes
        #: Where the cards stand: over the tip's row, with room above for the raised card and the turn's lift.
        self.card_bottom = self.tip_h + 4 * b
        room = hand_h - self.card_bottom - RAISE * b - 12 * b
        self.card_w = max(36.0, min(84.0 * b, (play_w - 360 * b) / 5.6, room / 1.4))
        self.card_h = self.card_w * 1.4
        self.pile_w = min(56.0 * b, self.card_w * 0.62)
        self.pile_h = self.pile_w * 1.4
        #: Where the seats part drew each pile, when not where seat_spot puts it (motions fly to it).
        self.piles_drawn: dict[int, tuple[float, float]] = {}
        deck_w, deck_h = self.pile_w * 1.25, self.pile_h * 1.25
        #: The deck, in the panel under its title and the turn line.
        self.deck = Rect(self.panel.left + 24 * s, height - 168 * s - deck_h, deck_w, deck_h)

    def square_centre(self, row: int, column: int) -> tuple[float, float]:
        """The centre of the board cell at (row, column); row 0 is the top row."""
        b, c = self.board, self.cell
        return b.left + (column + 0.5) * c, b.top - (row + 0.5) * c

    def peg_centre(self, row: int, column: int) -> tuple[float, float]:
        """Where a peg stands in a cell: below the printed number, so the number stays readable."""
        x, y = self.square_centre(row, column)
        return x, y - self.cell * 0.12

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (row, column) under a point, or None off the board."""
        b = self.board
        if not b.contains(x, y):
            return None
        return int((b.top - y) // self.cell), int((x - b.left) // self.cell)

    def hand_card(self, index: int, raised: bool = False) -> Rect:
        """The rectangle of the player's ``index``-th card (0-4)."""
        b = self.base
        gap = self.card_w * 0.14
        total = 5 * self.card_w + 4 * gap
        # A little left of centre; further left when the player's label and pile need the room (large text).
        need = OWN_LABEL * self.scale + self.pile_w + COUNT_HALF * self.scale + 40 * b
        first = max(12 * b, min(self.hand.cx - total / 2 - 90 * b, self.panel.left - need - total))
        left = first + index * (self.card_w + gap)
        bottom = self.card_bottom + (RAISE * b if raised else 0)
        return Rect(left, bottom, self.card_w, self.card_h)

    def tip_row(self) -> Rect:
        """The row under the cards for the first-game tip and its button (or the hand's caption)."""
        first = self.hand_card(0)
        left = round(first.left)
        return Rect(left, 3.0, round(self.panel.left - 8 * self.base) - left, self.tip_h - 3)

    def place(self, seat: int) -> float:
        """The seat's angle round the table in degrees: 270 at the bottom (me), clockwise from there."""
        offset = (seat - self.me) % self.players
        return (270 - 360 * offset / self.players) % 360

    def seat_spot(self, seat: int) -> SeatSpot:
        """Where ``seat``'s label and discard pile go, in front of that seat (the label's top is the highest it starts)."""
        b, pw, ph, s, hh = self.board, self.pile_w, self.pile_h, self.scale, self.hand_h
        base = self.base
        if seat == self.me:
            # Between the cards and the panel, over the tip's row: the label, then the pile at the right.
            last = self.hand_card(4)
            x = last.right + 16 * base
            width = OWN_LABEL * s
            pile_x = min(x + width + COUNT_HALF * s + 6 * base, self.panel.left - 8 * base - COUNT_HALF * s)
            width = min(width, pile_x - COUNT_HALF * s - 6 * base - x)  # clear of the pile's count under it
            pile_y = (self.tip_h + hh) / 2 + 8 * base
            return SeatSpot(x, hh - 8 * base, width, pile_x, pile_y, pile_x, pile_y - ph / 2 - 2 * base,
                            last.right + 4 * base, self.panel.left - 4 * base)
        rad = math.radians(self.place(seat))
        dx, dy = math.cos(rad), math.sin(rad)
        if abs(dy) > 0.9:  # straight across: above the board, the label left of the pile and as wide as it needs
            y = b.top + (self.height - b.top) / 2
            pile_x = b.cx + b.width * 0.2
            right = pile_x - pw / 2 - 12 * base
            left = max(8.0, right - 330 * s)
            return SeatSpot(left, self.height - 6 * base, right - left, pile_x, y, pile_x + pw / 2 + 10 * base,
                            y + 8 * base, 4 * base, self.panel.left - 4 * base, True)
        # to the left or right of the board, higher or lower with the angle; the label stands over the pile
        room = b.left if dx < 0 else self.panel.left - b.right
        left = 8 * base if dx < 0 else b.right + 8 * base
        width = room - 16 * base
        y = b.cy + dy * b.height * 0.5  # two seats on one side (6 players) sit well apart
        x = left + width / 2
        lo, hi = (4 * base, b.left - 4 * base) if dx < 0 else (b.right + 4 * base, self.panel.left - 4 * base)
        return SeatSpot(left, y + ph / 2 + 78 * s, width, x, y, x, y - ph / 2 - 2 * base, lo, hi)

    def seat_pile(self, seat: int) -> tuple[float, float]:
        """The centre of ``seat``'s discard pile as drawn (the seats part may lower it to fit a tall label)."""
        spot = self.seat_spot(seat)
        return self.piles_drawn.get(seat, (spot.pile_x, spot.pile_y))

    def seat_hand(self, seat: int) -> tuple[float, float]:
        """Where a seat's cards come from and go to in a motion: the player's hand, else its label."""
        if seat == self.me:
            return self.hand_card(2).center
        spot = self.seat_spot(seat)
        return spot.label_left + spot.label_width / 2, spot.label_top - 30 * self.scale
