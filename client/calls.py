"""Each request a seat makes, built once for any driver of a ``ClientCore``: its fields and what its reply does.

``GameClient`` (net.py, blocking calls over a socket) and the web table's
``WebSeat`` (web/seat.py, no socket at all) send the same requests: the
functions here build each as a ``Call`` (the request's kind, its fields, or a
function making them when it is sent, and what its reply does to the core's
copy of the table), and the driver queues it with ``ClientCore.request``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from board99 import kinds
from board99.match_format import MatchFormat
from board99.wire.table_info import TableInfo

from .core import ClientCore, Finish, Pending, ServerError, kind_of, read_events


class Call(NamedTuple):
    """A request ready to queue: ``ClientCore.request(kind, fields, now, finish, after=after)``."""

    kind: str
    fields: dict | Callable[[], dict]
    finish: Finish
    after: Pending | None = None  # sent only once this is done (a rebind on its way)
    on_fail: Callable[[Pending], None] | None = None  # run when it fails (after the core's own handling)


class LobbyPage(NamedTuple):
    """One page of the lobby: its tables, how many tables there are in all, where the page starts."""

    tables: tuple[TableInfo, ...]
    total: int
    offset: int


def page_of(reply: dict) -> LobbyPage:
    """A ``list_tables`` reply as a LobbyPage (each description checked)."""
    return LobbyPage(tuple(TableInfo.from_data(t) for t in reply["tables"]), reply["total"], reply["offset"])


def list_tables(offset: int, limit: int) -> Call:
    """One page of the lobby's tables, in the lobby's order: a LobbyPage."""
    return Call("list_tables", {"offset": offset, "limit": limit}, page_of)


def create_table(name: str, players: int, mode: str | None = None, clock: float | None = None,
                 grace: float | None = None, match: MatchFormat | None = None, rated: bool = False,
                 bot_pace: str = "quick", game: str = kinds.DEFAULT,
                 options: dict[str, Any] | None = None) -> Call:
    """A new table of ``game``: only what was chosen beyond every server's fields is sent (an older one answers)."""
    kind = kinds.get(game)
    extra: dict[str, Any] = {}
    if game != kinds.DEFAULT:
        extra["game"] = game
    if options:
        extra["options"] = options
    if bot_pace != "quick":  # sent only when chosen, so a server from before bot paces still answers
        extra["bot_pace"] = bot_pace
    if match is not None:
        extra["match"] = {"kind": match.kind, "target": match.target}
    if rated:
        extra["rated"] = True
    return Call("create_table", {"name": name, "players": players, "mode": mode or kind.modes[0], "clock": clock,
                                 "grace": grace, **extra}, lambda reply: TableInfo.from_data(reply["table"]))


def take_seat(core: ClientCore, table: str, seat: int, colour: str | None = None) -> Call:
    """Sit at ``table`` in ``seat`` (playing ``colour``): the core follows the table and keeps the seat's token."""
    def seated(reply: dict) -> TableInfo:
        info = core.follow(reply, table, seat)
        core.token = reply["token"]
        return info

    return Call("take_seat", {"table": table, "seat": seat, "colour": colour}, seated)


def resume(core: ClientCore, table: str, seat: int, token: str) -> Call:
    """Take back a seat held for this player with its token."""
    def resumed(reply: dict) -> TableInfo:
        info = core.follow(reply, table, seat)
        core.token = token
        return info

    return Call("resume", {"table": table, "seat": seat, "token": token}, resumed)


def add_bot(core: ClientCore, table: str, seat: int, bot: str = "rulebook") -> Call:
    """A server-side bot in an empty seat (with this client's seat token when it sits at that table)."""
    def added(reply: dict) -> TableInfo:
        info = TableInfo.from_data(reply["table"])
        if table == core.table_id:
            core.table = info  # the push with the same news may still be queued behind this reply
        return info

    return Call("add_bot", lambda: {"table": table, "seat": seat, "bot": bot, **core.seat_token()}, added)


def spectate(core: ClientCore, table: str) -> Call:
    """Follow ``table`` with the public view."""
    def watching(reply: dict) -> TableInfo:
        info = core.follow(reply, table, None)
        core.token = None
        return info

    return Call("spectate", {"table": table}, watching)


def leave(core: ClientCore) -> Call:
    """Give up the seat (a bot plays on if the game is running) or stop watching."""
    return Call("leave", core.seat_token, lambda reply: core.unfollow())


def rematch(core: ClientCore) -> Call:
    """Ask for another game with the same seats (after a rebind on its way)."""
    def voted(reply: dict) -> TableInfo:
        if reply["seq"] > core.seq:
            core.take_snapshot(reply)
        assert core.table is not None
        return core.table

    return Call("rematch", core.seat_token, voted, after=core.rebinding)


def act(core: ClientCore, action: Any, ply: int | None = None) -> Call:
    """An action of the table's game for this seat, chosen at ``ply`` (default: the latest view's); its events.

    ServerError('not-seated') at once when no seat is held. Sent once a rebind on its way is done,
    with the seat and ply as that left them; a ``not-your-seat`` refusal asks the server at once
    which seat it links to this connection (rather than at the next heartbeat).
    """
    if core.table_id is None or core.seat is None or core.token is None:
        raise ServerError("not-seated", "this client holds no seat; take_seat() first")
    data = kind_of(core.table).action_to_data(action)  # the table's game kind writes its actions

    def fields() -> dict:
        if core.table_id is None or core.seat is None or core.token is None:
            raise ServerError("not-seated", "the seat was lost and could not be resumed with its token")
        # The ply we saw: if the table moved on meanwhile the server answers 'stale' instead of
        # applying an action chosen on an old position (in penalty mode that would be an offence).
        seen = ply if ply is not None else (core.view.ply if core.view is not None else None)
        return {"table": core.table_id, "seat": core.seat, "token": core.token, "action": data, "ply": seen}

    def acted(reply: dict) -> tuple[Any, ...]:
        events = read_events(kind_of(core.table), reply["events"])  # read before the copy moves on
        core.take_moved(reply)
        return events

    def refused(pending: Pending) -> None:
        # The server does not know this connection as the seat's (it restarted, or the link was
        # re-made): ask now rather than at the next heartbeat, which acting keeps away.
        if pending.error is not None and pending.error.code == "not-your-seat" and core.rebinding is None:
            core.ping_now()

    return Call("act", fields, acted, after=core.rebinding, on_fail=refused)
