"""The ends the table shows in a box: a game's result and a decided match's (pure).

A part of the table's state (``TableState.endings``): when each box opens,
what it says, and when it gives way (a click, a key, a rematch).
"""

from __future__ import annotations

from typing import NamedTuple

from board99 import SeatView
from board99.events import Won
from board99.wire.table_info import TableInfo

from . import wording
from .table_talk import Tone


class Result(NamedTuple):
    """The end of the game as the player reads it: "You won" / "You lost" and who completed what."""

    title: str
    line: str
    tone: Tone


def match_decided(table: TableInfo | None) -> bool:
    """True at a match table whose match is decided."""
    return table is not None and table.match is not None and table.match.over(table.sides)


class Endings:
    """The game's result and its box; the match result box, opened once per decided match."""

    def __init__(self) -> None:
        self.result: Result | None = None
        self.result_open = False  # the end-of-game box and celebration, until dismissed
        #: The match result box (a match table whose match is decided), until dismissed.
        self.match_open = False
        self._match_seen: tuple | None = None  # the decided match the box was last opened for

    @property
    def any_open(self) -> bool:
        """A box is on screen (a click anywhere or Esc closes it)."""
        return self.result_open or self.match_open

    def won(self, view: SeatView | None, table: TableInfo | None, colours: list[str], event: Won) -> None:
        """A side won (``event``): the result, and its box opens."""
        title = wording.result_title(view, event.side)
        tone: Tone = "bad" if title == "You lost" else "good"
        self.result = Result(title, wording.result_line(view, table, colours, event), tone)
        self.result_open = True

    def viewed(self, view: SeatView | None, table: TableInfo | None) -> None:
        """A view came: a game under way closes the last result; a match decided opens its box once."""
        if view is not None and not view.over and self.result is not None:
            self.result, self.result_open = None, False  # a rematch began
        # The match result box opens once per decided match, when its last game is over; a new
        # match (or a game under way) closes it.
        if table is None or table.match is None or view is None or not view.over or not match_decided(table):
            if self.match_open and (view is None or not view.over):
                self.match_open = False
            return
        key = (table.id, table.match.first_game, len(table.match.results))
        if key != self._match_seen:
            self._match_seen = key
            self.match_open = True

    def give_way(self, keep_match: bool) -> None:
        """The player did something: the result box closes, and the match box unless ``keep_match``."""
        self.result_open = False
        if not keep_match:
            self.match_open = False
