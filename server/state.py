"""Everything the core's handlers read and change, and the settings they follow.

One ``State`` lives as long as the server; each call into the core sets the
time of that call (``now``) and a fresh ``Outbox`` for what it leaves to send.
The handlers (``requests.py``, ``play.py``, ``sweep.py``) are plain functions
of the state, so each can be read, and tested, on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from board99 import seen_by
from board99.wire.protocol import CHANGES

from .journal import Journal
from .outbox import Outbox
from .presence import Presence
from .tables import Lobby, Table
from .timers import Timers


@dataclass(frozen=True)
class Settings:
    """How one server behaves; every default can be changed per server (``board99 serve``, tests)."""

    name: str = "board99"
    epoch: str = ""  # new at every start: clients see a restart
    curve: bool = False
    heartbeat: float = 1.0  # seconds between a client's pings when it has nothing else to send
    lost_after: float = 3.0  # seconds of silence after which a connection counts as lost
    rate: float | None = 1000.0  # messages per second a connection may send, sustained (None: no limit)
    burst: float = 2000.0  # ... and in one burst
    bot_delay: float = 0.0  # seconds a server bot waits before acting (`board99 serve` sets a pause)
    max_tables: int = 5000
    timers_max: int = 500  # timers run per tick before the loop reads its socket again


@dataclass
class State:
    """The server's tables, journal, connections and timers, plus the current call's time and outbox."""

    settings: Settings
    journal: Journal
    lobby: Lobby
    presence: Presence
    timers: Timers = field(default_factory=Timers)
    now: float = 0.0
    out: Outbox = field(default_factory=Outbox)

    def changed(self, t: Table, change: str, *, exclude: bytes | None = None, save: bool = True,
                dealt: bool = False) -> None:
        """The table's seats or state changed: next seq, journal it, tell every follower, set its timer.

        The journal has the change before anyone is told of it. ``dealt``: a game began with this
        change, and each push carries its first deal's ``dealt`` event.
        """
        assert change in CHANGES, change
        t.seq += 1
        if save:
            self.journal.save_table(t)
        opening = t.game.opening if dealt else ()
        self.out.push(t, "table", {"change": change, "info": t.describe(self.now)}, exclude=exclude,
                      per_seat=(lambda s: {"events": [seen_by(e, s) for e in opening]}) if dealt else None)
        self.schedule(t)

    def schedule(self, t: Table) -> None:
        """Set the table's next timer (its bot's move or its turn clock)."""
        self.timers.schedule(t, self.now, self.settings.bot_delay)
