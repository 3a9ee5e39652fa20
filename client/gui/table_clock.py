"""The turn clock as the table shows it: the seconds left, and a tick in the player's last seconds (pure).

A part of the table's state (``TableState.turn_clock``); the time comes from
the clock passed in, so tests move it by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from board99 import SeatView
from board99.wire.table_info import TableInfo

TICK_FROM = 5  # the turn clock ticks in its last seconds (the player's own turn)


class TurnClock:
    """When the turn and the table description last changed, and the last tick given."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        now = clock()
        self.turn_started = now  # when the seat to play last changed (the clock counts from it)
        self.table_at = now  # when the table description last came (its turn_left counts from it)
        self._ticked: int | None = None  # the last warning tick, in whole seconds left
        self._last_turn: tuple | None = None  # (deal, ply, turn) of the last view

    def described(self) -> None:
        """A table description came now."""
        self.table_at = self.clock()

    def viewed(self, view: SeatView | None) -> bool:
        """A view came: the clock restarts when the seat to play or the deal changed. True on a new deal."""
        turn_key = None if view is None else (view.deal, view.ply, view.turn)
        last = self._last_turn
        if turn_key is not None and (last is None or turn_key[2] != last[2] or turn_key[0] != last[0]):
            self.turn_started = self.clock()
            self._ticked = None
        new_deal = turn_key is not None and last is not None and turn_key[0] != last[0]
        self._last_turn = turn_key
        return new_deal

    def left(self, view: SeatView | None, table: TableInfo | None, waiting: bool) -> float | None:
        """Seconds left on the turn clock, or None when no clock runs."""
        if table is None or not table.clock or view is None or waiting or view.over:
            return None
        # The server's own count when the table info carries it; else ours since the turn changed.
        if table.turn_left is not None:
            return max(0.0, table.turn_left - (self.clock() - self.table_at))
        return max(0.0, table.clock - (self.clock() - self.turn_started))

    def tick(self, left: float | None, my_turn: bool) -> bool:
        """True once per second in the clock's last TICK_FROM seconds of the player's own turn."""
        if left is None or not my_turn or left > TICK_FROM or left <= 0:
            return False
        second = math.ceil(left)
        if second == self._ticked:
            return False
        self._ticked = second
        return True
