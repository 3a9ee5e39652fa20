"""The presence sweep: forget silent connections, hand long-lost seats to a bot, free seats nobody waits for."""

from __future__ import annotations

import logging

from .state import State

log = logging.getLogger("board99.server")


def sweep(state: State) -> None:
    """One sweep at ``state.now`` (the core runs it about every half second)."""
    now, presence, tables = state.now, state.presence, state.lobby.tables
    for conn in presence.silent(now):
        # A lost connection keeps nothing: its routing id could be claimed by another socket once
        # the link is gone, so only `resume` with the seat token binds the seat again.
        log.info("event=conn-lost conn=%s table=%s seat=%s", conn.label, conn.table, conn.seat)
        t = tables.get(conn.table) if conn.table else None
        if t is None:
            continue
        if conn.seat is None:
            t.spectators.discard(conn.ident)
        elif t.seats[conn.seat].conn == conn.ident:
            t.seats[conn.seat].conn = None
            presence.lose(t.id, conn.seat, now)
            state.changed(t, "presence", save=False)
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
                state.changed(t, "takeover", save=False)
        else:
            # Before or after a game nobody waits for ever: the seat is freed for someone else.
            presence.back(table_id, seat)
            t.leave(s)
            log.info("event=seat-freed table=%s seat=%d state=%s", t.id, seat, t.state)
            state.changed(t, "seat-left")
