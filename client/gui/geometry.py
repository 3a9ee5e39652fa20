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
    def center(self) -> tuple[float, float]:
        """The centre point."""
        return self.cx, self.cy

    def contains(self, x: float, y: float) -> bool:
        """True if the point lies inside."""
        return self.left <= x < self.right and self.bottom <= y < self.top


class SeatSpot(NamedTuple):
    """Where one seat's things go: its label box (left, top, width), discard pile centre, pile count."""

    label_left: float
    label_top: float
    label_width: float
    pile_x: float
    pile_y: float
    count_x: float
    count_y: float


class TableGeometry:
    """Every position on the table screen for one window size and seating."""

    def __init__(self, width: int, height: int, players: int, me: int | None, scale: float = 1.0) -> None:
        self.width, self.height = width, height
        self.players = players
        self.me = 0 if me is None else me
        #: Text, cards and the panel grow with the window (scale.ui_scale); the board takes what is left.
        self.scale = s = scale
        hand_h, top_h = HAND_H * s, TOP_H * s
        self.hand_h = hand_h
        # The panel gives up some width in small windows so the board stays large.
        play_w = max(200, width - max(300 * s, min(PANEL_W * s, width * 0.3)))
        margin = (150 if play_w < 860 * s else 170) * s
        side = max(160.0, min(height - hand_h - top_h - 12, play_w - 2 * margin))
        self.board = Rect((play_w - side) / 2, hand_h + (height - hand_h - top_h - side) / 2, side, side)
        self.cell = side / 10
        self.panel = Rect(play_w, 0, width - play_w, height)
        self.hand = Rect(0, 0, play_w, hand_h)
        self.card_w = max(40.0, min(84.0 * s, (play_w - 360 * s) / 5.6))
        self.card_h = self.card_w * 1.4
        self.pile_w = min(56.0 * s, self.card_w * 0.62)
        self.pile_h = self.pile_w * 1.4
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
        s = self.scale
        gap = self.card_w * 0.14
        total = 5 * self.card_w + 4 * gap
        left = self.hand.cx - total / 2 + index * (self.card_w + gap) - 90 * s
        bottom = 38 * s + (14 * s if raised else 0)
        return Rect(left, bottom, self.card_w, self.card_h)

    def place(self, seat: int) -> float:
        """The seat's angle round the table in degrees: 270 at the bottom (me), clockwise from there."""
        offset = (seat - self.me) % self.players
        return (270 - 360 * offset / self.players) % 360

    def seat_spot(self, seat: int) -> SeatSpot:
        """Where ``seat``'s label and discard pile go, in front of that seat."""
        b, pw, ph, s, hh = self.board, self.pile_w, self.pile_h, self.scale, self.hand_h
        if seat == self.me:
            last = self.hand_card(4)
            x = last.right + 16 * s
            room = max(120 * s, self.panel.left - x - pw - 24 * s)
            width = min(184 * s, room)
            pile_x = x + width + pw / 2
            return SeatSpot(x, hh - 24 * s, width, pile_x, hh / 2 - 10 * s, pile_x - pw / 2, hh / 2 - 10 * s - ph / 2 - 4)
        rad = math.radians(self.place(seat))
        dx, dy = math.cos(rad), math.sin(rad)
        if abs(dy) > 0.9:  # straight across: above the board
            y = b.top + (self.height - b.top) / 2
            return SeatSpot(b.cx - 250 * s, self.height - 8, 230 * s, b.cx + pw / 2, y, b.cx + pw + 10, y + 8)
        # to the left or right of the board, higher or lower with the angle
        room = b.left if dx < 0 else self.panel.left - b.right
        left = 8 if dx < 0 else b.right + 8
        width = room - 16
        y = b.cy + dy * b.height * 0.5  # two seats on one side (6 players) sit well apart
        x = left + width / 2
        return SeatSpot(left, y + ph / 2 + 78 * s, width, x, y, x - pw / 2, y - ph / 2 - 4)

    def seat_hand(self, seat: int) -> tuple[float, float]:
        """Where a seat's cards come from and go to in a motion: the player's hand, else its label."""
        if seat == self.me:
            return self.hand_card(2).center
        spot = self.seat_spot(seat)
        return spot.label_left + spot.label_width / 2, spot.label_top - 30 * self.scale
