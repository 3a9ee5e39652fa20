"""The request handlers, one function per request type (docs/protocol.md, *Requests and replies*).

Each takes the server's state, the connection and the request's checked
fields, and returns the reply's fields, or None when it has queued its reply
itself; a refusal is raised (``ProtocolError`` or the engine's ``Refused``)
and the core turns it into an ``error``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from board99 import seen_by
from board99.wire.protocol import PROTOCOL_VERSION, ProtocolError

from .play import act
from .presence import Conn
from .state import State
from .tables import Table

log = logging.getLogger("board99.server")

Handler = Callable[[State, Conn, dict[str, Any]], "dict[str, Any] | None"]


def snapshot_of(state: State, t: Table, seat: int | None) -> dict[str, Any]:
    """The snapshot fields of a reply: the table, the seat, its seq and the seat's view."""
    return {"table": t.describe(state.now), "seat": seat, "seq": t.seq, "view": t.view(seat).to_data()}


def _opening(t: Table, seat: int | None) -> dict[str, Any]:
    # A game's first deal began: its `dealt` event, for the reply that says so.
    return {"events": [seen_by(e, seat) for e in t.game.opening]}


def _held(conn: Conn) -> ProtocolError:
    return ProtocolError("already-seated", f"this connection holds S{conn.seat} at table {conn.table}; leave it first")


def hello(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Check the protocol version; the server's name, epoch and heartbeat settings."""
    if f["version"] != PROTOCOL_VERSION:
        raise ProtocolError("bad-version", f"version: this server speaks protocol {PROTOCOL_VERSION}, "
                                           f"not {f['version']}")
    conn.name = f.get("name") or conn.name
    log.info("event=hello conn=%s name=%r", conn.label, conn.name)
    s = state.settings
    return {"version": PROTOCOL_VERSION, "server": s.name, "epoch": s.epoch,
            "heartbeat": s.heartbeat, "lost_after": s.lost_after, "curve": s.curve}


def ping(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Heartbeat: which table and seat the server links to this connection, and that table's seq."""
    t = state.lobby.tables.get(conn.table) if conn.table else None
    return {"epoch": state.settings.epoch, "table": conn.table, "seat": conn.seat,
            "seq": None if t is None else t.seq}


def list_tables(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Every table on the server."""
    return {"tables": [t.describe(state.now) for t in state.lobby.tables.values()]}


def create_table(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A new table, journaled before it is in the lobby."""
    t = state.lobby.create(f["name"], f["players"], f.get("mode", "guarded"), f.get("clock"), f.get("grace"))
    state.journal.save_table(t, created=True)
    state.lobby.add(t)
    log.info("event=table-created table=%s conn=%s name=%r players=%d mode=%s clock=%s grace=%g",
             t.id, conn.label, t.name, t.players, t.mode, t.clock, t.grace)
    return {"table": t.describe(state.now)}


def _unfollow(state: State, conn: Conn) -> None:
    if conn.table is not None and conn.seat is None:
        t = state.lobby.tables.get(conn.table)
        if t is not None:
            t.spectators.discard(conn.ident)
        conn.table = None


def take_seat(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Sit a person; the reply carries the secret seat token. Filling the last seat starts the game."""
    if conn.seat is not None:
        raise _held(conn)
    t = state.lobby.get(f["table"])
    token = t.take(f["seat"], f.get("colour"), f.get("name") or conn.name, conn.ident)
    _unfollow(state, conn)
    conn.table, conn.seat = t.id, f["seat"]
    started = t.start_if_full(state.now)
    log.info("event=seat-taken table=%s seat=%d conn=%s name=%r", t.id, conn.seat, conn.label, conn.name)
    state.changed(t, "started" if started else "seat-taken", exclude=conn.ident,
                  dealt=started)
    if started:
        log.info("event=table-started table=%s game=%d", t.id, t.game_no)
    reply = {"token": token, **snapshot_of(state, t, conn.seat)}
    if started:
        reply.update(_opening(t, conn.seat))
    return reply


def add_bot(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A server bot in an empty seat (which may start the game, or the rematch waiting for it)."""
    t = state.lobby.get(f["table"])
    t.add_bot(f["seat"], f.get("bot", "rulebook"))
    started = t.start_if_full(state.now)
    log.info("event=bot-seated table=%s seat=%d bot=%s conn=%s", t.id, f["seat"], t.seats[f["seat"]].bot,
             conn.label)
    state.changed(t, "started" if started else "bot-seated", dealt=started)
    if started:
        log.info("event=table-started table=%s game=%d", t.id, t.game_no)
    if t.start_rematch_if_ready(state.now):  # the bot filled the last seat everyone's rematch waited for
        log.info("event=rematch table=%s game=%d", t.id, t.game_no)
        state.changed(t, "rematch", dealt=True)
    return {"table": t.describe(state.now)}


def spectate(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Follow a table with the public view."""
    if conn.seat is not None:
        raise _held(conn)
    t = state.lobby.get(f["table"])
    _unfollow(state, conn)
    t.spectators.add(conn.ident)
    conn.table = t.id
    log.info("event=spectate table=%s conn=%s", t.id, conn.label)
    return snapshot_of(state, t, None)


def resume(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Take a seat back with its token, on this connection."""
    t = state.lobby.get(f["table"])
    seat = f["seat"]
    if conn.seat is not None and (conn.table, conn.seat) != (t.id, seat):
        raise _held(conn)
    old = t.seat(seat).conn
    t.resume(seat, f["token"], conn.ident)
    if old is not None and old != conn.ident and old in state.presence.conns:
        gone = state.presence.conns[old]
        gone.table = gone.seat = None  # the seat followed its token to this connection
    _unfollow(state, conn)
    conn.table, conn.seat = t.id, seat
    was_away = state.presence.back(t.id, seat)
    log.info("event=resume table=%s seat=%d conn=%s", t.id, seat, conn.label)
    if was_away or (old is not None and old != conn.ident):
        # Only a real change of presence is news: the seat was away, or moved to a new connection.
        state.changed(t, "presence", exclude=conn.ident, save=False)
    return snapshot_of(state, t, seat)


def _own_seat(state: State, conn: Conn, f: dict[str, Any]) -> None:
    """A seated connection's request about its seat must carry that seat's token."""
    if conn.seat is not None and conn.table is not None:
        t = state.lobby.get(conn.table)
        if "token" not in f:
            raise ProtocolError("bad-token", f"token: missing; requests for S{conn.seat} at table {t.id} "
                                             f"carry the seat's token")
        t.check_token(conn.seat, f["token"])


def leave(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Give up the seat (a bot plays on if the game is running) or stop spectating."""
    if conn.table is None:
        return {}
    _own_seat(state, conn, f)
    t = state.lobby.tables.get(conn.table)
    if conn.seat is None:
        _unfollow(state, conn)
        return {}
    seat, conn.table, conn.seat = conn.seat, None, None
    if t is not None:
        t.leave(t.seats[seat])
        state.presence.back(t.id, seat)
        log.info("event=seat-left table=%s seat=%d conn=%s state=%s", t.id, seat, conn.label, t.state)
        state.changed(t, "seat-left")
    return {}


def _seated(state: State, conn: Conn) -> Table:
    if conn.table is None or conn.seat is None:
        raise ProtocolError("not-seated", "this connection holds no seat; take one or resume with its token")
    return state.lobby.get(conn.table)


def rematch(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """This seat asks for another game; it starts when every person at the table has asked."""
    t = _seated(state, conn)
    _own_seat(state, conn, f)
    assert conn.seat is not None
    started = t.vote_rematch(conn.seat, state.now)
    if started:
        log.info("event=rematch table=%s game=%d", t.id, t.game_no)
    state.changed(t, "rematch" if started else "rematch-vote", exclude=conn.ident,
                  dealt=started)
    reply = snapshot_of(state, t, conn.seat)
    if started:
        reply.update(_opening(t, conn.seat))
    return reply


def snapshot(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """The current state of the table this connection follows."""
    if conn.table is None:
        raise ProtocolError("not-seated", "this connection follows no table; take a seat or spectate first")
    _own_seat(state, conn, f)
    t = state.lobby.get(conn.table)
    return snapshot_of(state, t, conn.seat)


def fetch_record(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A finished game's record (seed revealed); a game in progress has none yet."""
    t = state.lobby.get(f["table"])
    game = f.get("game")
    text = state.journal.record(t.id, game)
    if text is None:
        if game is None or game == t.game_no:
            raise ProtocolError("not-over", f"table {t.id}: no game has finished yet; a record is kept "
                                            f"secret (its seed too) until its game ends")
        raise ProtocolError("no-record", f"game: table {t.id} has no finished game {game}")
    return {"record": text}


#: Request type -> its handler (the request types of board99.wire.protocol.REQUESTS).
HANDLERS: dict[str, Handler] = {
    "hello": hello, "ping": ping, "list_tables": list_tables, "create_table": create_table,
    "take_seat": take_seat, "add_bot": add_bot, "spectate": spectate, "resume": resume, "leave": leave,
    "rematch": rematch, "snapshot": snapshot, "act": act, "fetch_record": fetch_record,
}
