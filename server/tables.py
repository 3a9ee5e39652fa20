"""The lobby and its tables: each table its seating, its game in play, and what wraps its games.

No sockets and no clock here: the core passes the time in and turns what
these objects do into replies and pushes. Every rule of play is the table's
game kind's (``board99.kinds``); a table is three parts (``Seating``,
``InPlay``, ``Wraps``) and what the lobby knows of it (its id, name, creator
and how long it has been idle). A change is staged on a copy, journaled, and
only then adopted (``staged``/``adopt``).
"""

from __future__ import annotations

import copy
import secrets
from dataclasses import dataclass

from board99 import kinds
from board99.kinds import GameKind, Settings
from board99.match_format import MatchFormat
from board99.wire.protocol import DEFAULT_GRACE, ProtocolError
from board99.wire.table_info import MatchInfo, SeatInfo, TableInfo

from .in_play import MAX_DEAL_OFFENCES, MAX_TURN_OFFENCES, InPlay
from .seating import Seat, Seating, seats_for, token_digest
from .wraps import Wraps

__all__ = ["MAX_DEAL_OFFENCES", "MAX_TURN_OFFENCES", "Lobby", "Seat", "Table", "token_digest"]


@dataclass
class Table(Seating, InPlay, Wraps):
    """A table in the lobby: its seating, its game in play and what wraps its games, and its place in the lobby."""

    id: str
    name: str
    grace: float = DEFAULT_GRACE
    seq: int = 0
    creator: bytes | None = None  # the connection that created it (while it waits for players)
    creator_host: str = ""  # and the machine it came from
    idle_since: float | None = None  # since when nobody it waits for is here (see sweep.housekeeping)
    bot_pace: str = "quick"  # how fast its server bots move (BOT_PACES; the seconds are Settings')
    unfinished: bool = False  # restored with its game over but the game's bookkeeping not journaled

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats, self.colours = seats_for(self.kind, self.settings)
        self._deal_new(self.seed)

    # -- changes are staged, journaled, then adopted --------------------------------------

    def staged(self) -> Table:
        """A copy to make a change on: the core journals the copy, and only then adopts it (``adopt``)."""
        twin = copy.copy(self)
        self._stage_seating(twin)
        self._stage_play(twin)
        self._stage_wraps(twin)
        return twin

    def adopt(self, staged: Table) -> None:
        """Take on the state of ``staged``, a copy of this table that the journal now has."""
        self.__dict__.update(staged.__dict__)

    # -- what everyone may know ------------------------------------------------

    def info(self, now: float) -> TableInfo:
        """The table as the lobby lists it (no tokens, no cards)."""
        return TableInfo(
            self.id, self.name, self.players, self.mode, self.clock, self.grace, self.state, self.game_no,
            tuple(sorted(self.votes)), self.turn_left(now), len(self.spectators),
            tuple(SeatInfo(s.seat, s.side, self.colours[s.side], s.occupant, s.name, s.connected, s.standin,
                           s.vacated, s.rating, s.reserved, sum(1 for seat, _ in self.hints if seat == s.seat))
                  for s in self.seats),
            self.rated,
            None if self.match is None else MatchInfo(self.match.kind, self.match.target, self.match_first,
                                                      tuple(self.results)),
            self.tournament,
            self.coach,
            self.bot_pace,
            self.kind.name,
            self.settings.options,
        )

    def describe(self, now: float) -> dict:
        """The table description as plain data, ready for msgpack."""
        return self.info(now).to_data()


class Lobby:
    """Every table on the server, by id."""

    def __init__(self, max_tables: int = 5000) -> None:
        self.tables: dict[str, Table] = {}
        self.max_tables = max_tables

    def create(self, name: str, players: int, mode: str, clock: float | None, grace: float | None,
               creator: bytes | None = None, per_creator: int | None = None, host: str = "",
               per_host: int | None = None, match: MatchFormat | None = None, rated: bool = False,
               bot_pace: str = "quick", kind: GameKind | None = None, settings: Settings | None = None) -> Table:
        """A new empty table with a fresh id (not yet in the lobby: ``add`` it once it is journaled).

        ``kind``: the game (default ``board99.kinds.DEFAULT``); ``settings``: its checked settings
        (default: the kind's check of ``players`` and ``mode``). ``per_creator``: how many tables still
        waiting for players one connection may have opened.
        """
        kind = kind or kinds.get(kinds.DEFAULT)
        settings = settings or kind.check_settings(players, mode)
        if len(self.tables) >= self.max_tables:
            raise ProtocolError("too-many-tables", f"the server holds {self.max_tables} tables, its limit; "
                                                   f"try again when a game ends")
        if per_creator is not None and creator is not None:
            mine = sum(1 for t in self.tables.values() if t.creator == creator and t.state == "waiting")
            if mine >= per_creator:
                raise ProtocolError("too-many-tables", f"this connection has {mine} tables waiting for players, the "
                                                       f"most one may open; sit at one or wait until one starts")
        if per_host is not None and host:
            ours = sum(1 for t in self.tables.values() if t.creator_host == host and t.state == "waiting")
            if ours >= per_host:
                raise ProtocolError("too-many-tables", f"{host} has {ours} tables waiting for players, the most one "
                                                       f"machine may open; sit at one or wait until one starts")
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self.tables:
                break
        table = Table(table_id, name, DEFAULT_GRACE if grace is None else grace, kind=kind, settings=settings,
                      clock=clock, creator=creator, creator_host=host, match=match, rated=rated, bot_pace=bot_pace)
        return table

    def add(self, table: Table) -> None:
        """Put a table in the lobby."""
        self.tables[table.id] = table

    def remove(self, table: Table) -> None:
        """Take a table out of the lobby (closed: its records stay in the journal)."""
        self.tables.pop(table.id, None)

    def in_order(self) -> list[Table]:
        """The tables as the lobby lists them: waiting first, then playing, then over; newest first in each."""
        rank = {"waiting": 0, "playing": 1, "over": 2}
        return sorted(reversed(list(self.tables.values())), key=lambda t: rank.get(t.state, 3))

    def get(self, table_id: str) -> Table:
        """The table, or ProtocolError('no-such-table')."""
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no-such-table", f"table: there is no table {table_id!r} on this server")
        return table
