"""The core's timers: each playing table's next bot move or turn-clock expiry, due at a time.

Stale timers are not removed: a timer names the table's game and ply, and is
skipped when it fires if the table has moved on since.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator
from typing import NamedTuple

from .tables import Table


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

    def __len__(self) -> int:
        return len(self._heap)

    def schedule(self, t: Table, now: float, bot_delay: float) -> None:
        """Set the table's next timer: its bot's move, or the turn clock (nothing unless it is playing)."""
        if t.state != "playing":
            return
        if t.bot_turn() is not None:
            self._add(now + bot_delay, "bot", t)
        elif t.clock is not None:
            self._add(t.turn_since + t.clock, "clock", t)

    def _add(self, due: float, kind: str, t: Table) -> None:
        heapq.heappush(self._heap, Timer(due, next(self._ticks), kind, t.id, t.game_no, t.game.ply))

    def next_due(self) -> float | None:
        """When the earliest timer is due, or None."""
        return self._heap[0].due if self._heap else None

    def due(self, now: float, limit: int) -> Iterator[Timer]:
        """Pop the timers due by ``now``, earliest first, at most ``limit``."""
        heap = self._heap
        for _ in range(limit):
            if not heap or heap[0].due > now:
                return
            yield heapq.heappop(heap)
