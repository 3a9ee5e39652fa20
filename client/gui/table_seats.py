"""The seats region: each seat's name, colour and mark, hand size and skips, and its discard pile."""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99 import PLAYER_COUNTS

from . import wording
from .drawing import Part, fit_height, fit_width, make_text, rescale, set_text, show_only
from .geometry import SeatSpot, TableGeometry, line_height
from .palette import BAD, GOOD, TEXT, TEXT_DIM, WARN
from .table_clock import TICK_FROM
from .table_state import TableState
from .textures import Textures, peg_texture

MOST_SEATS = max(PLAYER_COUNTS)
EMPTY_PILE = (18, 52, 32, 255)  # an empty pile shows its place on the table
PLAIN = (255, 255, 255, 255)
SEAT_PEG = 24  # the side's peg beside a seat's name
CLOCK_BACK = (10, 30, 20, 255)  # the turn clock's empty bar


class SeatsPart(Part):
    """Every seat round the board, clockwise from the player's at the bottom; the seat to play is lit."""

    def __init__(self, tx: Textures, window: arcade.Window | None = None) -> None:
        self.tx = tx
        self.window = window
        self.scale = 1.0
        self.geo: TableGeometry | None = None
        self.pile_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.turn_marks = [arcade.Sprite(tx.white) for _ in range(MOST_SEATS)]
        for s in self.turn_marks:
            s.color = WARN
        self.piles = [arcade.Sprite(tx.cards[0]) for _ in range(MOST_SEATS)]
        self.seat_pegs = [arcade.Sprite(peg_texture("red", 0)) for _ in range(MOST_SEATS)]
        # The turn clock: a bar under the label of the seat to play, emptying as the time runs.
        self.clock_back = arcade.Sprite(tx.white)
        self.clock_back.color = CLOCK_BACK
        self.clock_bar = arcade.Sprite(tx.white)
        self.clock_back.visible = self.clock_bar.visible = False
        # pile_list holds the shown ones of these, in this order (see show_only): the turn mark under its pile
        self.sprites = [*self.turn_marks, *self.piles, *self.seat_pegs, self.clock_back, self.clock_bar]
        self._turn_seat: int | None = None
        self._shown: tuple[int, ...] = ()
        self.batch = Batch()
        self.t_seats = [make_text(self.batch, 12, bold=True, multiline=True) for _ in range(MOST_SEATS)]
        self.t_piles = [make_text(self.batch, 10, color=TEXT_DIM) for _ in range(MOST_SEATS)]
        self.t_turns = [make_text(self.batch, 11, bold=True, color=WARN) for _ in range(MOST_SEATS)]

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Size the piles and pegs for this window."""
        self.geo = geo
        self.scale = geo.scale
        rescale([*self.t_seats, *self.t_piles, *self.t_turns], geo.scale)
        for pile, peg in zip(self.piles, self.seat_pegs):
            pile.width, pile.height = geo.pile_w, geo.pile_h
            peg.width = peg.height = SEAT_PEG * geo.scale

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
                set_text(self.t_turns[seat], "")
                continue
            spot = g.seat_spot(seat)
            side = state.side_of(seat)
            discards = view.discards[seat] if view is not None else ()
            text = wording.seat_label(seat, side, view, state.table, colours[side])
            sc = self.scale
            label.width = max(60, int(spot.label_width - 30 * sc))
            is_turn = state.turn_lit(seat)
            set_text(label, text, WARN if is_turn else TEXT)
            fit_width(label, label.width or 60, sc)  # a long name smaller rather than over the board
            if spot.pile_y < g.hand_h:  # the player's own label keeps above the tip's row, turn line and clock too
                fit_height(label, spot.label_top - g.tip_h - self.below_label(state) - 2 * sc)
            top, pile_y = self._label_top(spot, label, state)
            pile.visible = True
            pile.texture = tx.cards[discards[-1]] if discards else tx.white
            pile.color = PLAIN if discards else EMPTY_PILE
            pile.position = spot.pile_x, pile_y
            g.piles_drawn[seat] = spot.pile_x, pile_y
            pile.width, pile.height = g.pile_w, g.pile_h
            set_text(count, wording.pile_label(len(discards)))
            cx = spot.count_x if spot.count_from_left else spot.count_x - count.content_width / 2
            count.position = (round(max(spot.lo, min(cx, spot.hi - count.content_width))),
                              round(spot.count_y - (spot.pile_y - pile_y)))
            label.position = round(spot.label_left + 30 * sc), round(top)
            palette = getattr(getattr(self.window, "prefs", None), "palette", "standard")
            peg.texture = peg_texture(colours[side], side, palette)
            peg.width = peg.height = SEAT_PEG * sc
            peg.visible = True
            peg.position = spot.label_left + 12 * sc, top - 10 * sc
            mark.visible = is_turn
            if is_turn:
                mark.position = spot.pile_x, pile_y
                mark.width, mark.height = g.pile_w + 12, g.pile_h + 12
            turn = self.t_turns[seat]
            mine = view is not None and seat == view.seat
            set_text(turn, ("▶ your turn" if mine else "▶ playing") if is_turn else "")
            turn.position = round(spot.label_left + 30 * sc), round(top - label.content_height - 2 * sc)
        self._turn_seat = next((seat for seat in range(players) if state.turn_lit(seat)), None)
        self._refresh_clock(state)
        self._shown = show_only(self.pile_list, self.sprites, self._shown)

    def below_label(self, state: TableState) -> float:
        """How much room a seat's label needs under its text: the turn line, and the clock bar at a timed table."""
        sc = self.scale
        clock = 30 * sc if state.table is not None and state.table.clock else 0.0
        return max(line_height(11, sc) + 2 * sc, clock)

    def _label_top(self, spot: SeatSpot, label: arcade.Text, state: TableState) -> tuple[float, float]:
        # A label beside the board stands over its pile, the count under the pile; the three keep inside
        # the seat's band of the side (two seats on a side share it at the middle between their piles):
        # a tall label rises, and at the band's top the pile goes down instead; nothing runs over another.
        g = self.geo
        assert g is not None
        if spot.count_from_left or spot.pile_y < g.hand_h:  # the seat across, and the player's own: fixed
            return spot.label_top, spot.pile_y
        sc = self.scale
        extra = self.below_label(state) + 6 * sc + g.pile_h + line_height(10, sc) + 4 * sc
        # The strip above the board belongs to the seat across, when there is one (an even number of players).
        lo, hi = g.hand_h + 2, g.board.top if g.players % 2 == 0 else g.height - 4
        for other in range(g.players):
            o = g.seat_spot(other)
            if o.pile_y < g.hand_h or o.count_from_left or o.lo != spot.lo or o.pile_y == spot.pile_y:
                continue  # not a seat on this side of the board
            middle = (o.pile_y + spot.pile_y) / 2
            if o.pile_y < spot.pile_y:
                lo = max(lo, middle + 2 * sc)
            else:
                hi = min(hi, middle - 4 * sc)  # the peg beside the label reaches a little above it
        fit_height(label, hi - lo - extra)  # a band too low for the label's lines: smaller text
        need = label.content_height + self.below_label(state) + 6 * sc
        stack = label.content_height + extra
        top = min(hi, max(spot.label_top, spot.pile_y + g.pile_h / 2 + need))
        top = max(top, lo + stack)
        return top, top - need - g.pile_h / 2

    def tick(self, state: TableState) -> None:
        """The clock bar empties as the turn's time runs."""
        if self.clock_bar.visible or state.clock_left() is not None:
            self._refresh_clock(state)
            self._shown = show_only(self.pile_list, self.sprites, self._shown)

    def _refresh_clock(self, state: TableState) -> None:
        g, seat, left = self.geo, self._turn_seat, state.clock_left()
        total = state.table.clock if state.table is not None else None
        if g is None or seat is None or left is None or not total:
            self.clock_back.visible = self.clock_bar.visible = False
            return
        spot, sc = g.seat_spot(seat), self.scale
        label = self.t_seats[seat]
        width = max(60.0, min(spot.label_width - 30 * sc, 200 * sc))
        y = label.y - label.content_height - 24 * sc
        x = spot.label_left + 30 * sc
        self.clock_back.width, self.clock_back.height = width, 8 * sc
        self.clock_back.position = x + width / 2, y
        share = max(0.0, min(1.0, left / total))
        self.clock_bar.width, self.clock_bar.height = max(1.0, width * share), 8 * sc
        self.clock_bar.position = x + self.clock_bar.width / 2, y
        self.clock_bar.color = BAD if left <= TICK_FROM else GOOD
        self.clock_back.visible = self.clock_bar.visible = True

    def draw(self) -> None:
        """The turn marks, piles and pegs, then the labels."""
        self.pile_list.draw()
        self.batch.draw()
