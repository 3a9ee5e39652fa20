"""Everything the core's handlers read and change, and the settings they follow.

One ``State`` lives as long as the server; each call into the core sets the
time of that call (``now``) and a fresh ``Outbox`` for what it leaves to send.
The handlers (``requests.py``, ``play.py``, ``sweep.py``) are plain functions
of the state, so each can be read, and tested, on its own.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from board99.wire.protocol import CHANGES, ProtocolError

from .journal import Journal, SetAside, damaged
from .outbox import Outbox
from .players import Players
from .presence import Conn, Presence
from .tables import Lobby, Table
from .timers import Timers
from .tournaments import Tournaments

log = logging.getLogger("board99.server")

#: What a person is told when their table met damage in the journal and was set aside.
DAMAGED = ("the server's journal is damaged where this table is kept, so the change did not happen and the "
           "table was closed; the server's operator is told in its log")


@dataclass(frozen=True)
class Settings:
    """How one server behaves; every default can be changed per server (``board99 serve``, tests)."""

    name: str = "board99"
    epoch: str = ""  # new at every start: clients see a restart
    curve: bool = False
    web: str | None = None  # the address guests open for the web table (None: no web table); said in hello
    heartbeat: float = 1.0  # seconds between a client's pings when it has nothing else to send
    lost_after: float = 3.0  # seconds of silence after which a connection counts as lost
    rate: float | None = 200.0  # messages per second a connection may send, sustained (None: no limit)
    burst: float = 400.0  # ... and in one burst
    bot_delay: float = 0.0  # seconds a server bot waits before acting (`board99 serve` sets a pause)
    #: ... at a table whose bots move at a person's pace (bot_pace "person"): long enough for a person
    #: to act out of turn and confirm the warning (docs/server.md, *Bot pace*); never quicker than bot_delay.
    person_pace: float = 3.0
    max_tables: int = 5000
    max_conns: int = 1000  # connections served at once; more get `server-full`
    conns_per_host: int = 64  # ... and from one machine (peer address)
    tables_per_conn: int = 3  # tables still waiting for players one connection may have opened
    tables_per_host: int = 12  # ... and all the connections from one machine together
    games_per_hour: float = 120.0  # new games (tables, rematches) one connection may start, sustained ...
    games_burst: float = 20.0  # ... and at once
    empty_after: float = 120.0  # seconds a waiting table with nobody seated is kept before it closes
    archive_after: float = 600.0  # seconds a finished table with nobody here is kept before it closes
    timers_max: int = 100  # timers run per tick before the loop reads its socket again
    max_players: int = 100_000  # players (names with keys) the server registers
    hints_per_minute: float = 12.0  # hints one seat may ask the coach for, sustained (a repeat is free) ...
    hints_burst: float = 5.0  # ... and at once

    def pause_for(self, bot_pace: str) -> float:
        """Seconds a server bot waits before acting at a table of ``bot_pace`` (wire.protocol.BOT_PACES)."""
        return max(self.bot_delay, self.person_pace) if bot_pace == "person" else self.bot_delay


class JournalFailed(ProtocolError):
    """The journal could not take a change; nothing happened (an ``internal`` error to a person)."""

    def __init__(self, message: str) -> None:
        super().__init__("internal", message)


#: Most tables named in ``State.set_aside`` (a damaged journal could otherwise grow it with every new table).
SET_ASIDE_KEPT = 100


class Held(NamedTuple):
    """An action checked and written into the open group's transaction, carried out once the group commits."""

    table: Table
    seat: int
    action: Any
    offence: str | None  # what the kind's check found (penalty mode), as Table.check returns it
    actor: Conn | None  # the person's connection that sent it (None: a server bot or the clock)
    rid: int | None  # that request's id, for the reply
    by_clock: bool


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
    players: Players = field(default_factory=Players)
    tournaments: Tournaments = field(default_factory=Tournaments)
    #: Tables the journal holds but that could not be restored, or that met damage in the journal while
    #: running: named for the operator (the latest SET_ASIDE_KEPT), their rows left as they are.
    set_aside: deque[SetAside] = field(default_factory=lambda: deque(maxlen=SET_ASIDE_KEPT))
    #: Group commit (``play.settle``): while True, an accepted action is written into one open
    #: transaction and held; the group commits once, then each held action is carried out and told.
    #: Memory still changes only after the journal has the action; one commit serves many tables.
    grouping: bool = False
    held: list[Held] = field(default_factory=list)
    held_tables: set[str] = field(default_factory=set)  # ids of the tables with an action in ``held``

    def match_over(self, t: Table) -> None:
        """A game at ``t`` was finished: if that decided a tournament's match, the tournament counts it."""
        if t.tournament is None or not t.match_decided():
            return
        tournament = self.tournaments.by_id.get(t.tournament)
        updated = None if tournament is None else self.tournaments.with_result(tournament, t)
        if updated is None:
            return
        if not self.journaled("result", self.journal.save_tournament, updated.id, updated.to_data(),
                              tournament=updated.id):
            return
        self.tournaments.by_id[updated.id] = updated
        log.info("event=tournament-result tournament=%s table=%s round=%d", updated.id, t.id, updated.round)

    def commit(self, t: Table, staged: Table, change: str, *, exclude: bytes | None = None,
               dealt: bool = False) -> None:
        """A change made on ``staged`` (``t.staged()``): journaled, then adopted by ``t``, then announced.

        All or nothing: if the journal cannot take it, ``t`` is as it was and the caller gets
        ``internal`` ("the change could not be saved, so it did not happen"), as JournalFailed.
        """
        staged.seq = t.seq + 1
        self.journaled(change, self.journal.save_table, staged, table=t,
                       refusal="the change could not be saved, so it did not happen")
        t.adopt(staged)
        from .finish import finish_if_decided, next_game_by_itself  # (finish.py builds on this module)

        # A game its deal alone decided ends with the change that began it: the one push tells both.
        decided = dealt and finish_if_decided(self, t)
        self.announce(t, change, exclude=exclude, dealt=dealt)
        if decided:
            next_game_by_itself(self, t)  # a match table of bots plays on

    def journaled(self, what: str, write: Callable[..., object], *args: Any, table: Table | None = None,
                  tournament: str | None = None, refusal: str | None = None, quiet: bool = False) -> bool:
        """Run one journal write, ``write(*args)`` (one SQLite transaction): True once it is committed.

        The one place a journal write can fail. Each caller changes memory only after this returns
        True (a table's change is made on a staged copy, adopted after). On failure: the log's
        ``event=journal-error table=... what=...``; damage in the file sets ``table`` aside if it is
        in the lobby (``journal_damaged``); then JournalFailed is raised with ``refusal`` (DAMAGED
        if the table was set aside), or, for a write nobody waits on (``refusal`` None), False is
        returned. ``quiet``: a write that only keeps a counter (the seq): a warning without the
        traceback, and nothing set aside (the next real change meets the damage).
        """
        try:
            write(*args)
            return True
        except Exception as exc:
            subject = (f"table={table.id} " if table is not None else "") + \
                      (f"tournament={tournament} " if tournament is not None else "")
            if quiet:
                log.warning("event=journal-error %swhat=%s error=%r", subject, what, exc)
            else:
                log.exception("event=journal-error %swhat=%s", subject, what)
            aside = not quiet and table is not None and self.lobby.tables.get(table.id) is table and \
                self.journal_damaged(table, exc)
            if refusal is None:
                return False
            raise JournalFailed(DAMAGED if aside else refusal) from None

    def journal_damaged(self, t: Table, exc: BaseException) -> bool:
        """If ``exc`` is damage in the journal file, set ``t`` aside (True); a full disk or a lock is not (False).

        As a damaged row does at a restart: the table leaves the lobby and memory, its rows stay
        as they are, the operator finds it in the log (``event=table-set-aside``), and its
        followers get a ``closed`` change. The other tables play on while their writes succeed.
        """
        if not damaged(exc):
            return False
        reason = f"{type(exc).__name__}: {exc}"[:200]
        log.error("event=table-set-aside table=%s reason=%r while=running", t.id, reason)
        self.set_aside.append(SetAside(t.id, reason))
        self.forget(t)
        return True

    def forget(self, t: Table) -> None:
        """Take a table out of the lobby and out of memory, telling its followers (``closed``)."""
        t.seq += 1
        self.out.push(t, "table", {"change": "closed", "info": t.describe(self.now)})
        for ident, _ in t.members():
            conn = self.presence.conns.get(ident)
            if conn is not None and conn.table == t.id:
                conn.table = conn.seat = None
        self.lobby.remove(t)
        self.presence.forget_table(t.id)

    def changed(self, t: Table, change: str, *, exclude: bytes | None = None) -> None:
        """Who is present changed (not a journaled fact): next seq, kept in the journal if it can be, announced."""
        t.seq += 1  # not the journal's to refuse: who is present changed whatever it keeps
        self.journaled("seq", self.journal.save_seq, t, table=t, quiet=True)  # so a restart never takes it back
        self.announce(t, change, exclude=exclude)

    def announce(self, t: Table, change: str, *, exclude: bytes | None = None, dealt: bool = False,
                 by: int | None = None) -> None:
        """Tell every follower of ``t`` of a change already made (its seq counted), and set its timer.

        ``dealt``: a game began with this change, and each push carries its first deal's ``dealt`` event.
        ``by``: the seat the change is about, for a change that names one (``hint``).
        """
        assert change in CHANGES, change
        opening = t.game.opening if dealt else ()
        fields: dict[str, Any] = {"change": change, "info": t.describe(self.now)}
        if by is not None:
            fields["by"] = by
        self.out.push(t, "table", fields, exclude=exclude,
                      per_seat=(lambda s: {"events": [t.kind.event_for(e, s) for e in opening]}) if dealt else None)
        self.schedule(t)

    def schedule(self, t: Table) -> None:
        """Set the table's next timer (its bot's move or its turn clock)."""
        self.timers.schedule(t, self.now, self.settings.pause_for(t.bot_pace))
