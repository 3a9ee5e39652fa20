"""What just happened at the table: the latest events, each seat's latest peg, the moves since the player's own.

A part of the table's state (``TableState.recent``), pure: the board marks
the latest pegs and the panel lists the moves since the player's turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from board99 import SeatView
from board99.events import Discarded, Drew, Event, Penalty, Played, Skipped
from board99.wire.table_info import TableInfo

from . import wording

SINCE_SHOWN = 8  # the "since your turn" list keeps this many moves
#: Events that are a seat's move.
MOVES = (Played, Drew, Discarded, Penalty)


class Since(NamedTuple):
    """One entry of the "since your turn" list: another seat's move, and the square it lights (or None)."""

    text: str
    square: int | None
    side: int


class Recent:
    """The latest Events message and what it left behind: latest pegs (fading) and moves since the player's."""

    def __init__(self) -> None:
        #: The latest Events message's events, and how many events came in all: a part that marks or
        #: animates what just happened compares the count with the one it last saw.
        self.recent_events: tuple[Event, ...] = ()
        self.events_seen = 0
        #: Moves by others since the player's own last move (the panel lists them; hovering lights squares).
        self.since: deque[Since] = deque(maxlen=SINCE_SHOWN)
        self.moves = 0  # moves seen (the recent-peg marks fade by it)
        #: Seat -> (square, side, move number) of its most recent peg.
        self.last_peg: dict[int, tuple[int, int, int]] = {}

    def came(self, events: tuple[Event, ...]) -> None:
        """A batch of events came."""
        self.recent_events = events
        self.events_seen += len(events)

    def note_move(self, event: Event, me: int | None, table: TableInfo | None, side_of: Callable[[int], int]) -> None:
        """Count a seat's move, keep its peg (for the side ``side_of`` its seat), list it since the player's own."""
        if not isinstance(event, (*MOVES, Skipped)):
            return
        seat = event.seat
        if isinstance(event, MOVES):
            self.moves += 1
        if isinstance(event, Played):
            self.last_peg[seat] = (event.square, side_of(seat), self.moves)
        if seat == me and isinstance(event, MOVES):
            self.since.clear()  # the player's own move: the list starts again
        elif seat != me:
            text = wording.since_line(event, table)
            if text is not None:
                shown = event.square if isinstance(event, Played) else None
                self.since.append(Since(text, shown, side_of(seat)))

    def pegs(self, view: SeatView | None, players: int) -> list[tuple[int, int, float]]:
        """(square, side, strength 1..0): each seat's latest peg, fading over the next round of moves."""
        if view is None:
            return []
        fade = players + 1
        out = []
        for square, side, at in self.last_peg.values():
            strength = 1.0 - (self.moves - at) / fade
            if strength > 0 and view.board[square] == side:
                out.append((square, side, strength))
        return out
