"""The seats region: each seat's name, colour and mark, hand size and skips, and its discard pile."""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99 import PLAYER_COUNTS

from . import wording
from .drawing import Part, make_text, set_text, show_only
from .geometry import TableGeometry
from .palette import TEXT, TEXT_DIM, WARN
from .table_state import TableState
from .textures import Textures

MOST_SEATS = max(PLAYER_COUNTS)
EMPTY_PILE = (18, 52, 32, 255)  # an empty pile shows its place on the table
PLAIN = (255, 255, 255, 255)
SEAT_PEG = 24  # the side's peg beside a seat's name


class SeatsPart(Part):
    """Every seat round the board, clockwise from the player's at the bottom; the seat to play is lit."""

    def __init__(self, tx: Textures) -> None:
        self.tx = tx
        self.geo: TableGeometry | None = None
        self.pile_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.turn_marks = [arcade.Sprite(tx.white) for _ in range(MOST_SEATS)]
        for s in self.turn_marks:
            s.color = WARN
        self.piles = [arcade.Sprite(tx.cards[0]) for _ in range(MOST_SEATS)]
        self.seat_pegs = [arcade.Sprite(tx.pegs[("red", 0)]) for _ in range(MOST_SEATS)]
        # pile_list holds the shown ones of these, in this order (see show_only): the turn mark under its pile
        self.sprites = [*self.turn_marks, *self.piles, *self.seat_pegs]
        self._shown: tuple[int, ...] = ()
        self.batch = Batch()
        self.t_seats = [make_text(self.batch, 12, bold=True, multiline=True) for _ in range(MOST_SEATS)]
        self.t_piles = [make_text(self.batch, 10, color=TEXT_DIM) for _ in range(MOST_SEATS)]

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Size the piles and pegs for this window."""
        self.geo = geo
        for pile, peg in zip(self.piles, self.seat_pegs):
            pile.width, pile.height = geo.pile_w, geo.pile_h
            peg.width = peg.height = 26

    def refresh(self, state: TableState) -> None:
        """Each seat's label, peg, pile and pile count where the seating puts it; light the seat to play."""
        g, tx, view = self.geo, self.tx, state.view
        assert g is not None
        colours, players = state.colours(), state.players
        for seat in range(MOST_SEATS):
            pile, peg, label, count, mark = (self.piles[seat], self.seat_pegs[seat], self.t_seats[seat],
                                             self.t_piles[seat], self.turn_marks[seat])
            if seat >= players:
                pile.visible = peg.visible = mark.visible = False
                set_text(label, "")
                set_text(count, "")
                continue
            spot = g.seat_spot(seat)
            side = state.side_of(seat)
            discards = view.discards[seat] if view is not None else ()
            pile.visible = True
            pile.texture = tx.cards[discards[-1]] if discards else tx.white
            pile.color = PLAIN if discards else EMPTY_PILE
            pile.position = spot.pile_x, spot.pile_y
            pile.width, pile.height = g.pile_w, g.pile_h
            set_text(count, wording.pile_label(len(discards)))
            count.position = spot.count_x, spot.count_y
            text = wording.seat_label(seat, side, view, state.table, colours[side])
            label.width = max(60, int(spot.label_width - 30))
            label.position = spot.label_left + 30, spot.label_top
            peg.texture = tx.pegs[(colours[side], side)]
            peg.width = peg.height = SEAT_PEG
            peg.visible = True
            peg.position = spot.label_left + 12, spot.label_top - 10
            is_turn = state.turn_lit(seat)
            mark.visible = is_turn
            if is_turn:
                mark.position = spot.pile_x, spot.pile_y
                mark.width, mark.height = g.pile_w + 12, g.pile_h + 12
            set_text(label, text, WARN if is_turn else TEXT)
        self._shown = show_only(self.pile_list, self.sprites, self._shown)

    def draw(self) -> None:
        """The turn marks, piles and pegs, then the labels."""
        self.pile_list.draw()
        self.batch.draw()
