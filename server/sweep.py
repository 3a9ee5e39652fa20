"""The sweeps: forget silent connections, hand long-lost seats to a bot, free seats nobody waits for, close idle tables."""

from __future__ import annotations

import logging

from board99.wire.protocol import ProtocolError

from .presence import Conn
from .state import State
from .tables import Table

log = logging.getLogger("board99.server")


def sweep(state: State) -> None:
    """One presence sweep at ``state.now`` (the core runs it about every half second)."""
    now, presence, tables = state.now, state.presence, state.lobby.tables
    for conn in presence.silent(now):
        lost(state, conn, "silent")
    for conn in presence.conns.values():
        if conn.unlogged and conn.log_budget.available(now) >= 1:
            log.warning("event=log-suppressed conn=%s lines=%d", conn.label, conn.unlogged)
            conn.unlogged = 0
    for (table_id, seat), since in list(presence.away.items()):
        t = tables.get(table_id)
        s = None if t is None else t.seats[seat]
        if t is None or s is None or s.occupant != "human" or s.conn is not None:
            presence.back(table_id, seat)  # the table or the person is gone, or they came back
        elif now - since < t.grace:
            continue
        elif t.state == "playing":
            if not s.standin:
                s.standin = True
                log.info("event=takeover table=%s seat=%d after=%.1fs", t.id, seat, now - since)
                state.changed(t, "takeover")
        else:
            # Before or after a game nobody waits for ever: the seat is freed for someone else.
            staged = t.staged()
            staged.leave(staged.seats[seat])
            try:
                state.commit(t, staged, "seat-left")
            except ProtocolError:
                continue  # the journal failed: nothing changed; the next sweep tries again
            presence.back(table_id, seat)
            log.info("event=seat-freed table=%s seat=%d state=%s", t.id, seat, t.state)


def lost(state: State, conn: Conn, why: str) -> None:
    """A connection the presence has just forgotten (``why``: "silent", or "link-closed"): its seat is unbound."""
    # A lost connection keeps nothing: only `resume` with the seat token binds the seat again.
    log.info("event=conn-lost conn=%s table=%s seat=%s why=%s", conn.label, conn.table, conn.seat, why)
    if conn.unlogged:
        log.warning("event=log-suppressed conn=%s lines=%d", conn.label, conn.unlogged)
    t = state.lobby.tables.get(conn.table) if conn.table else None
    if t is None:
        return
    if conn.seat is None:
        t.spectators.discard(conn.ident)
    elif t.seats[conn.seat].conn == conn.ident:
        t.seats[conn.seat].conn = None
        state.presence.lose(t.id, conn.seat, state.now)
        state.changed(t, "presence")


def housekeeping(state: State) -> None:
    """Close tables nobody will use: waiting with nobody seated, or over with nobody here (every few seconds).

    A waiting table with no person seated for ``empty_after`` seconds is deleted (it never had a
    game); a finished table with no person connected for ``archive_after`` seconds is archived:
    it leaves the lobby and memory, and its records stay fetchable. Either way its followers get
    a `closed` change. So one client cannot fill the lobby for good.
    """
    now, settings = state.now, state.settings
    for t in list(state.lobby.tables.values()):
        if t.state == "waiting":
            idle, after = not t.people(), settings.empty_after
        elif t.state == "over":
            idle, after = not any(s.conn is not None for s in t.people()), settings.archive_after
        else:
            idle, after = False, 0.0
        if t.tournament is not None and not t.match_decided():
            idle = False  # a tournament's table waits for its players as long as its match lasts
        if not idle:
            t.idle_since = None
            continue
        if t.idle_since is None:
            t.idle_since = now
        if now - t.idle_since >= after:
            close(state, t)


def close(state: State, t: Table) -> None:
    """Take a table out of the lobby and out of memory (deleted if it never had a game, else archived)."""
    never_played = t.state == "waiting" and t.game_no == 1
    write = state.journal.delete_table if never_played else state.journal.archive_table
    if not state.journaled("close", write, t.id, table=t):
        return  # kept as it is (unless set aside); the next round tries again
    now = state.now
    state.forget(t)
    log.info("event=table-closed table=%s state=%s game=%d idle=%.0fs", t.id, t.state, t.game_no,
             now - (t.idle_since or now))
