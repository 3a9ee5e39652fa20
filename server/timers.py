"""The core's timers: each playing table's next bot move or turn-clock expiry, due at a time.

A table has at most one timer that counts (``_pending``): setting the same
timer again (same kind, game and ply) keeps the one already set, so a stream of
presence changes cannot grow the heap; a new one replaces it, and the replaced
entry is skipped when it comes up. A timer also names the table's game and
ply, and the core skips it if the table has moved on since.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator
from typing import NamedTuple

from .tables import Table

_new = tuple.__new__


class Timer(NamedTuple):
    """One thing due at ``due``: a ``kind`` ("bot" or "clock") for a table at one game and ply."""

    due: float
    tick: int  # breaks ties in insertion order
    kind: str
    table: str
    game_no: int
    ply: int


class Timers:
    """A heap of timers."""

    def __init__(self) -> None:
        self._heap: list[Timer] = []
        self._ticks = itertools.count()
        self._pending: dict[str, Timer] = {}  # table id -> its timer that counts

    def __len__(self) -> int:
        return len(self._heap)

    def schedule(self, t: Table, now: float, bot_delay: float) -> None:
        """Set the table's next timer: its bot's move, or the turn clock (nothing unless it is playing)."""
        if t.state != "playing":
            self._pending.pop(t.id, None)
            return
        if t.bot_turn() is not None:
            self._add(now + bot_delay, "bot", t)
        elif t.clock is not None:
            self._add(t.turn_since + t.clock, "clock", t)
        else:
            self._pending.pop(t.id, None)

    def retry(self, t: Table, due: float) -> None:
        """Try the table's server move again at ``due`` (after the journal failed)."""
        self._add(due, "bot" if t.bot_turn() is not None else "clock", t, replace=True)

    def _add(self, due: float, kind: str, t: Table, replace: bool = False) -> None:
        old = self._pending.get(t.id)
        if not replace and old is not None and (old.kind, old.game_no, old.ply) == (kind, t.game_no, t.game.ply):
            return  # already set
        # tuple.__new__ is what Timer(...) does, less a Python call (every action sets a timer).
        timer = _new(Timer, (due, next(self._ticks), kind, t.id, t.game_no, t.game.ply))
        self._pending[t.id] = timer
        heapq.heappush(self._heap, timer)

    def next_due(self) -> float | None:
        """When the earliest timer is due, or None."""
        return self._heap[0].due if self._heap else None

    def due(self, now: float, limit: int) -> Iterator[Timer]:
        """Pop the timers due by ``now``, earliest first, at most ``limit``."""
        heap, given = self._heap, 0
        while given < limit and heap and heap[0].due <= now:
            timer = heapq.heappop(heap)
            if self._pending.get(timer.table) is timer:  # else replaced by a later one: skipped
                del self._pending[timer.table]
                given += 1
                yield timer
