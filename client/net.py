"""The network client library: one DEALER connection to a board99 server (no arcade here).

Used by the arcade client, by remote bots (`board99 bot`) and by the tests.
Lobby calls block until the reply (or ``timeout``); ``poll()`` drains what the
server pushed and keeps ``view`` and ``table`` current, resyncing with a
snapshot on a sequence gap and resuming the seat with its token after a
reconnect or a server restart (the Clone pattern). See docs/protocol.md.
What the connection knows and decides is the sans-IO ``ClientCore``
(client/core.py); ``GameClient`` owns the socket and the clock and drives it.
See docs/client.md.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import zmq

from board99 import kinds
from board99.match_format import MatchFormat
from board99.wire.curve import connect_curve, parse_key
from board99.wire.listings import PlayerHistory, Rating, RecordEntry, TournamentInfo
from board99.wire.protocol import (
    CLIENT_MAX_MESSAGE,
    COLOURS,
    DEFAULT_PORT,
    LIST_MAX,
    PAGE_MAX,
)
from board99.wire.table_info import TableInfo

from . import calls
from .calls import LobbyPage, page_of
from .core import ClientCore, Pending, ServerError, kind_of
from .handshake import HandshakeWatch, mismatch_message
from .pushes import Completed, Message

__all__ = ["COLOURS", "DEFAULT_PORT", "GameClient", "ServerError", "connect", "discover", "endpoint_for",
           "play_bot"]

log = logging.getLogger("board99.client")


def _core_field(name: str, doc: str) -> Any:
    """A GameClient attribute that is its core's (one copy of the state, read and set through the client)."""
    def get(self: GameClient) -> Any:
        return getattr(self.core, name)

    def put(self: GameClient, value: Any) -> None:
        setattr(self.core, name, value)

    return property(get, put, doc=doc)


def endpoint_for(server: str) -> str:
    """'host', 'host:port', '[ipv6]:port' or a full 'tcp://...' as a ZeroMQ endpoint (default port 9099).

    ValueError says what is wrong with an address a person typed.

    >>> endpoint_for("den:9100")
    'tcp://den:9100'
    >>> endpoint_for("nosuchhost:abc:9099")
    Traceback (most recent call last):
    ...
    ValueError: 'nosuchhost:abc:9099' is not an address: write HOST or HOST:PORT (e.g. den.local:9099)
    """
    text = server.strip()
    if text.startswith("tcp://"):
        return text  # a ZeroMQ endpoint already (programs may give a source address too)
    if "://" in text:
        raise ValueError(f"{server!r}: only tcp:// addresses are served; write HOST or HOST:PORT")
    if text.startswith("["):  # [IPv6] or [IPv6]:port
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else (str(DEFAULT_PORT) if not rest else "x")
        host = f"[{host}]"
    elif text.count(":") == 1:
        host, port = text.split(":")
    elif ":" not in text:
        host, port = text, str(DEFAULT_PORT)
    else:
        host, port = "", ""
    if not host or any(c.isspace() for c in host) or not port.isdigit():
        raise ValueError(f"{server!r} is not an address: write HOST or HOST:PORT (e.g. den.local:9099)")
    if not 1 <= int(port) <= 65535:
        raise ValueError(f"{server!r}: port {port} is not a TCP port (1 to 65535)")
    return f"tcp://{host}:{int(port)}"


def discover(timeout: float = 1.0, **options: Any) -> list[dict]:
    """Servers heard on the LAN: {"name", "host", "port", "key"} (see board99.client.discovery)."""
    from .discovery import discover as listen

    return listen(timeout, **options)


def connect(server: str | None = None, *, name: str = "player", timeout: float = 5.0,
            server_name: str | None = None, server_key: bytes | str | None = None,
            discovery_timeout: float = 1.0, **discover_options: Any) -> GameClient:
    """A GameClient for ``server`` ('host[:port]'), or for a server found by LAN discovery.

    Without ``server``, listens for beacons for ``discovery_timeout`` seconds and
    takes the server called ``server_name`` (or the only one heard), with the
    CURVE key its beacon carries. ServerError('no-server') if none fits.
    """
    if server_key is not None:
        try:
            server_key = parse_key(server_key)
        except ValueError as exc:
            raise ServerError("bad-server-key", str(exc)) from None
    if server is not None:
        return GameClient(endpoint_for(server), server_key=server_key, name=name, timeout=timeout)
    heard = discover(discovery_timeout, **discover_options)
    fits = [s for s in heard if server_name is None or s["name"] == server_name]
    if server_key is not None and len(fits) > 1:
        # Several answer to the name (a forged beacon, perhaps): the key we were given decides.
        fits = [s for s in fits if s["key"] is not None and s["key"].encode() == server_key]
    if len(fits) != 1:
        names = ", ".join(sorted(f"{s['name']} ({s['host']}:{s['port']})" for s in heard)) or "none"
        want = f"a server called {server_name!r}" if server_name else "exactly one server"
        more = "; several answer to that name, so give its address (or its key)" if len(fits) > 1 else ""
        raise ServerError("no-server", f"discovery heard {len(heard)} server(s): {names}; expected {want}{more}")
    found = fits[0]
    return GameClient(f"tcp://{found['host']}:{found['port']}", server_key=found["key"] or server_key,
                      name=name, timeout=timeout)


class GameClient:
    """One connection to one board99 server (a DEALER socket) driving a ``ClientCore``. Not thread-safe.

    The socket and the clock live here; everything the connection knows and decides lives in the
    core (client/core.py). Lobby calls block until their reply: they queue a request in the core
    and pump the socket (``_pump``) until it is done, the same loop ``poll()`` runs.
    """

    def __init__(
        self,
        endpoint: str = f"tcp://127.0.0.1:{DEFAULT_PORT}",
        *,
        server_key: bytes | str | None = None,
        name: str = "player",
        timeout: float = 5.0,
        context: zmq.Context | None = None,
        key: str | None = None,
    ) -> None:
        self.endpoint = endpoint_for(endpoint)
        if server_key is not None:
            try:
                server_key = parse_key(server_key)
            except ValueError as exc:  # the library's own error, naming the key, not a bare ValueError
                raise ServerError("bad-server-key", str(exc)) from None
        self.server_key = server_key
        #: The protocol state: requests, the followed table's copy, heartbeats, rebinding.
        self.core = ClientCore(name=name, key=key, timeout=timeout, now=time.monotonic(), endpoint=self.endpoint)
        self._ctx = context or zmq.Context.instance()
        self._watch: HandshakeWatch | None = None
        self._starting: str | None = None  # inside start(): the op its request is reported as
        self._started: Pending | None = None
        self._last_started: Pending | None = None  # the latest request start() sent, while on its way
        self._open()

    # -- the core's state, read (and a few set) as the client's own ---------------------------

    name = _core_field("name", "the name this client says hello with (the server's spelling after hello)")
    key = _core_field("key", "the player key (board99.client.player_key): with it the server knows this player")
    player = _core_field("player", "what the server said of this player at hello (None for a guest)")
    timeout = _core_field("timeout", "seconds a request waits for its reply")
    view = _core_field("view", "latest view of this client's seat (or the spectator view), kept current by poll()")
    table = _core_field("table", "latest table description (as list_tables entries)")
    connected = _core_field("connected", "False while the server is not answering")
    table_id = _core_field("table_id", "the table followed")
    seat = _core_field("seat", "the seat held (None: watching, or nothing)")
    token = _core_field("token", "the held seat's token")
    seq = _core_field("seq", "the followed table's latest seq taken")
    epoch = _core_field("epoch", "the server's epoch (new at every start)")
    heartbeat = _core_field("heartbeat", "seconds between pings (the server's hello says)")
    lost_after = _core_field("lost_after", "seconds of silence after which the server counts as gone")
    on_receive = _core_field("on_receive", "called with every message received, replies included")

    # -- the socket --------------------------------------------------------------------

    def _open(self) -> None:
        sock = self._ctx.socket(zmq.DEALER)
        sock.linger = 0
        # Queue only on a live connection: a request made while the server is away fails at once
        # instead of being delivered, stale, after the reconnect.
        sock.setsockopt(zmq.IMMEDIATE, 1)
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
        sock.setsockopt(zmq.MAXMSGSIZE, CLIENT_MAX_MESSAGE)

        if self.server_key is not None:
            connect_curve(sock, self.server_key)
        # Watched even without a key: a plain client at a --curve server fails its handshake too.
        self._watch = HandshakeWatch(sock)
        sock.connect(self.endpoint)
        self._sock = sock
        self.core.say_hello(time.monotonic())
        self._flush()

    def close(self) -> None:
        """Close the connection (the seat stays held; leave() gives it up)."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None
        self._sock.close(linger=0)

    def __enter__(self) -> GameClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _flush(self) -> None:
        """Send what the core has for the server; a request a caller waits on may wait for the link first."""
        for out in self.core.outgoing():
            try:
                if out.wait:
                    # Writable only once a connection is up (IMMEDIATE): a new client waits for its link here,
                    # and learns at once if the handshake fails (a CURVE key mismatch).
                    deadline = time.monotonic() + self.core.timeout
                    while not self._sock.poll(0, zmq.POLLOUT) and (left := deadline - time.monotonic()) > 0:
                        if self._key_mismatch():
                            break
                        self._sock.poll(max(1, int(min(left, 0.05) * 1000)), zmq.POLLOUT)
                self._sock.send(out.frame, zmq.NOBLOCK)
            except zmq.Again:
                self.core.send_failed(out.rid, time.monotonic(), self._unreachable(), self._key_mismatch())

    def _key_mismatch(self) -> bool:
        return self._watch is not None and self._watch.mismatch()

    def _unreachable(self) -> str:
        if self._key_mismatch():
            return mismatch_message(self.endpoint, self.server_key)
        return f"the server at {self.endpoint} is not answering"

    # -- receiving ------------------------------------------------------------------------

    def _receive(self, wait: float) -> bool:
        """Hand the core one frame from the server, waiting at most ``wait`` seconds; False if none came."""
        if not self._sock.poll(max(0, int(wait * 1000))):
            return False
        frames = self._sock.recv_multipart()
        if len(frames) != 1:
            log.warning("event=bad-server-message endpoint=%s frames=%d", self.endpoint, len(frames))
            return True
        self.core.receive(frames[0], time.monotonic())
        return True

    def _pump(self, wait: float, wake: zmq.Socket | int | None = None, until: Pending | None = None) -> bool:
        """One turn of the loop: wait at most ``wait`` for the server (or ``wake``), take what it sent, tick, send.

        With ``until``, reading stops once that request is done, so a blocking call returns with the
        client's copy as its reply left it (what came after waits in the socket for the next call).
        True when ``wake`` became readable (it is left unread for the caller).
        """
        woken = False
        wait = max(0.0, min(wait, self.core.next_tick() - time.monotonic()))
        if wake is not None and wait > 0:
            poller = zmq.Poller()
            poller.register(self._sock, zmq.POLLIN)
            poller.register(wake, zmq.POLLIN)
            ready = dict(poller.poll(int(wait * 1000)))
            woken = wake in ready
            wait = 0.0
        if self._receive(wait):
            while not (until is not None and until.done) and self._receive(0):
                pass
        self.core.tick(time.monotonic())
        self._flush()
        return woken

    def wait_for(self, pending: Pending) -> Any:
        """Pump until ``pending`` is done: its result, or its ServerError raised."""
        self._flush()
        # The core fails every request in time (its own deadlines); this bound only guards the loop.
        give_up = time.monotonic() + 3 * self.core.timeout + 1.0
        while not pending.done:
            if time.monotonic() > give_up:
                raise ServerError("timeout", f"no reply to '{pending.kind}' from {self.endpoint}")
            self._pump(self.core.timeout, until=pending)
        if pending.error is not None:
            error = pending.error
            if error.code == "timeout" and self._key_mismatch():
                raise ServerError("bad-server-key", self._unreachable())
            raise ServerError(error.code, error.message)
        return pending.result

    def _request(self, kind: str, **fields: Any) -> dict:
        """Send a request and wait for its reply; ServerError on an error reply or timeout."""
        if self._starting is not None:
            raise ValueError(f"{self._starting}: '{kind}' reads its reply after it came, so it cannot be started")
        reply: dict = self.wait_for(self.core.request(kind, fields, time.monotonic(), after=self._chain()))
        return reply

    def _chain(self) -> Pending | None:
        """The started request still on its way, which the next request waits for.

        Requests go one after another, started ones too, as blocking calls do: each may read what
        the one before it changed (a take_seat's token, before an add_bot at that table).
        """
        if self._last_started is not None and self._last_started.done:
            self._last_started = None
        return self._last_started

    def _call(self, kind: str, fields: dict | Callable[[], dict], finish: Callable[[dict], Any], *,
              after: Pending | None = None, on_fail: Callable[[Pending], None] | None = None) -> Any:
        """Send a request and give its reply to ``finish`` (run by the core as the reply arrives); wait for it.

        Inside ``start`` it does not wait: the request's ``Pending`` is what ``start`` returns.
        """
        pending = self.core.request(kind, fields, time.monotonic(), finish, after=(self._chain(), after),
                                    op=self._starting)
        if on_fail is not None:
            pending.on_fail = lambda: on_fail(pending)
        if self._starting is not None:
            if self._started is not None:
                raise ValueError(f"{self._starting}: more than one request cannot be started as one")
            self._started = self._last_started = pending
            return pending
        return self.wait_for(pending)

    def _run(self, call: calls.Call) -> Any:
        """Send a request built by client/calls.py, as ``_call``."""
        return self._call(call.kind, call.fields, call.finish, after=call.after, on_fail=call.on_fail)

    def start(self, op: str, call: Callable[[GameClient], object]) -> Pending:
        """Make the one request ``call(self)`` makes without waiting for its reply; its ``Pending``.

        ``call`` is a call of one of this client's request methods (``lambda c: c.take_seat(t, 0)``),
        whose result is then not waited for: it comes back as the core's ``Completed(op)`` record,
        in order with the pushes (``poll_typed``). The window's network thread sends this way, so
        it never stops its loop for a reply. ServerError if the request cannot be made at all.
        """
        self._starting, self._started = op, None
        try:
            call(self)
            pending = self._started
        finally:
            self._starting, self._started = None, None
        if pending is None:
            raise ValueError(f"{op}: the call made no request of its own")
        self._flush()
        return pending

    def poll(self, timeout: float = 0.0, wake: zmq.Socket | int | None = None) -> list[dict]:
        """What the server pushed since the last call (each a dict with a 'type'); waits at most ``timeout``.

        With ``wake`` (a socket or a file descriptor), the wait also ends as soon as it is readable
        (it is left unread for the caller): a thread can sleep here until either the server or
        its own side speaks, instead of waking many times a second to look.
        """
        return [m.as_dict() for m in self.poll_typed(timeout, wake) if not isinstance(m, Completed)]

    def poll_typed(self, timeout: float = 0.0, wake: zmq.Socket | int | None = None) -> list[Message]:
        """As ``poll()``, the core's typed records (client/pushes.py), ``Completed`` requests included."""
        deadline = time.monotonic() + timeout
        self._flush()
        while True:
            left = deadline - time.monotonic()
            woken = self._pump(left if not self.core.has_messages() else 0.0, wake)
            if woken or self.core.has_messages() or time.monotonic() >= deadline:
                return self.core.messages()

    # -- lobby -------------------------------------------------------------------------------------

    def hello(self) -> dict:
        """Check the server speaks our protocol; its name, epoch and heartbeat settings."""
        reply: dict = self.wait_for(self.core.hello(time.monotonic()))
        return reply

    def list_tables(self) -> tuple[TableInfo, ...]:
        """The lobby's first page of tables (waiting ones first, newest first): see ``lobby_page``."""
        tables: tuple[TableInfo, ...] = self._call("list_tables", {"offset": 0, "limit": PAGE_MAX},
                                                   lambda reply: page_of(reply).tables)
        return tables

    def lobby_page(self, offset: int = 0, limit: int = PAGE_MAX) -> LobbyPage:
        """One page of the server's tables, in the lobby's order, and how many there are in all."""
        page: LobbyPage = self._call("list_tables", {"offset": offset, "limit": limit}, page_of)
        return page

    def create_table(self, name: str, players: int, mode: str | None = None, clock: float | None = None,
                     grace: float | None = None, match: MatchFormat | None = None,
                     rated: bool = False, bot_pace: str = "quick", game: str = kinds.DEFAULT,
                     options: dict[str, Any] | None = None) -> TableInfo:
        """A new table of ``game`` (a kind's name, ``board99.kinds``; it starts once every seat is filled).

        ``mode``: one of the kind's (default its first); ``options``: the kind's further settings; a
        ``match`` table plays games until it is decided; ``bot_pace``: how fast the table's server
        bots move (wire.protocol.BOT_PACES).
        """
        info: TableInfo = self._run(calls.create_table(name, players, mode, clock, grace, match, rated, bot_pace,
                                                       game, options))
        return info

    def take_seat(self, table: str, seat: int, colour: str | None = None, name: str | None = None) -> TableInfo:
        """Sit at ``table`` in ``seat`` playing ``colour`` (as ``name``, default the client's); the token stays here.

        A new ``name`` is first said to the server (``hello``), which checks that no other player has it.
        """
        if name is not None and name != self.name:
            old, self.name = self.name, name
            try:
                self.hello()
            except ServerError:
                self.name = old
                raise

        info: TableInfo = self._run(calls.take_seat(self.core, table, seat, colour))
        return info

    def resume(self, table: str, seat: int, token: str) -> TableInfo:
        """Take back a seat held for us (after a restart of this program) with its token."""
        info: TableInfo = self._run(calls.resume(self.core, table, seat, token))
        return info

    def add_bot(self, table: str, seat: int, bot: str = "rulebook") -> TableInfo:
        """Put a server-side bot in an empty seat."""
        info: TableInfo = self._run(calls.add_bot(self.core, table, seat, bot))
        return info

    def spectate(self, table: str) -> TableInfo:
        """Follow a table with the public view."""
        info: TableInfo = self._run(calls.spectate(self.core, table))
        return info

    def leave(self) -> None:
        """Give up the seat (a bot plays on if the game is running) or stop spectating."""
        self._run(calls.leave(self.core))

    def rematch(self) -> TableInfo:
        """Ask for another game with the same seats; it starts when every person has asked (after a rebind)."""
        info: TableInfo = self._run(calls.rematch(self.core))
        return info

    def act(self, action: Any, ply: int | None = None) -> tuple[Any, ...]:
        """Carry out an action of the table's game kind (the peg-board game: play, draw or discard); the
        events it caused (this seat's view of them, each the kind's own event class), or ServerError.

        ``ply``: the position the action was chosen on (default: the latest this client saw). Sent
        once a rebind on its way is done, with the seat and ply as that left them.
        """
        events: tuple[Any, ...] = self._run(calls.act(self.core, action, ply))
        return events

    def hint(self) -> Any:
        """The coach's advice for this client's seat now (casual tables only: ``hints-off`` elsewhere).

        The table is told that this seat asked (a ``hint`` change); the reply moves this client's
        copy of the table on past that change, as the others' pushes move theirs.
        """
        if self.table_id is None or self.seat is None or self.token is None:
            raise ServerError("not-seated", "this client holds no seat; take_seat() first")
        core = self.core

        def fields() -> dict:
            if core.token is None:
                raise ServerError("not-seated", "the seat was lost and could not be resumed with its token")
            return {"token": core.token}

        def advised(reply: dict) -> Any:
            advice = kind_of(core.table).advice_from_data(reply["advice"])  # checked before the copy moves on
            core.take_moved(reply)
            return advice

        return self._call("hint", fields, advised, after=core.rebinding)

    def snapshot(self) -> Any:
        """Fetch the table's current state now (poll() does this by itself on a gap)."""
        def took(reply: dict) -> Any:
            self.core.take_snapshot(reply)
            return self.core.view

        return self._call("snapshot", self.core.seat_token, took)

    def fetch_record(self, table: str, game: int | None = None, match: bool = False) -> str:
        """A finished game's record text (the latest finished game unless ``game`` is given).

        With ``match``, the match record of the match that game belongs to (board99.match).
        """
        extra = {"whole_match": True} if match else {}
        record: str = self._call("fetch_record", {"table": table, "game": game, **extra},
                                 lambda reply: reply["record"])
        return record

    def history(self) -> tuple[list[str], list[Any]]:
        """What has happened in the followed table's game so far, as everyone may see it.

        The public record lines, and the public view after each action (the first: after the deal).
        """
        kind = kind_of(self.table)  # the views are the table's game's
        lines_views: tuple[list[str], list[Any]] = self._call(
            "history", {}, lambda reply: (list(reply["lines"]), [kind.view_from_data(v) for v in reply["views"]]))
        return lines_views

    def list_records(self, offset: int = 0, limit: int = LIST_MAX,
                     player: str | None = None) -> tuple[tuple[RecordEntry, ...], int]:
        """Finished games the server keeps, newest first (only ``player``'s if given); and how many in all."""
        reply = self._request("list_records", offset=offset, limit=limit, player=player)
        return tuple(RecordEntry.from_data(r) for r in reply["records"]), reply["total"]

    def leaderboard(self, offset: int = 0, limit: int = LIST_MAX,
                    game: str = kinds.DEFAULT) -> tuple[tuple[Rating, ...], int]:
        """The server's players (and bots) by their rating in ``game`` (a kind's name), best first; how many in all."""
        extra = {} if game == kinds.DEFAULT else {"game": game}
        reply = self._request("leaderboard", offset=offset, limit=limit, **extra)
        return tuple(Rating.from_data(r) for r in reply["players"]), reply["total"]

    def player_history(self, name: str, game: str = kinds.DEFAULT) -> PlayerHistory:
        """A player's rating in ``game`` (a kind's name), partners, opponents and latest games on this server."""
        extra = {} if game == kinds.DEFAULT else {"game": game}
        return PlayerHistory.from_data(self._request("player", name=name, **extra)["player"])

    def create_tournament(self, name: str, players: int, entrants: list[list[str]], rounds: int,
                          match: MatchFormat, game: str = kinds.DEFAULT) -> tuple[TournamentInfo, str]:
        """A new tournament of ``game`` (a kind's name) and its steering token (keep it: ``next_round`` needs it)."""
        extra = {} if game == kinds.DEFAULT else {"game": game}
        reply = self._request("create_tournament", name=name, players=players, entrants=entrants, rounds=rounds,
                              match={"kind": match.kind, "target": match.target}, **extra)
        return TournamentInfo.from_data(reply["tournament"]), reply["token"]

    def next_round(self, tournament: str, token: str) -> TournamentInfo:
        """Start the tournament's next round: the server opens its match tables."""
        return TournamentInfo.from_data(self._request("next_round", tournament=tournament,
                                                      token=token)["tournament"])

    def tournaments(self) -> tuple[TournamentInfo, ...]:
        """The server's tournaments, newest first."""
        return tuple(TournamentInfo.from_data(t) for t in self._request("list_tournaments")["tournaments"])

    # -- convenience -------------------------------------------------------------------------------

    def my_turn(self) -> bool:
        """True when the game is running and it is this client's seat's turn."""
        return (self.view is not None and self.seat is not None and self.table is not None
                and self.table.state == "playing" and self.view.turn == self.seat)


def play_bot(client: GameClient, bot: Any, *, until: float | None = None, on_message: Callable | None = None,
             max_actions: int = 100_000) -> Any:
    """Play ``client``'s seat with ``bot`` until the game is over (or ``until``, a monotonic time).

    Survives timeouts and reconnects: after an error it waits for the next
    push or snapshot and tries again. Returns the final view, or None if
    time ran out first.
    """
    actions = 0
    while until is None or time.monotonic() < until:
        for msg in client.poll(0.05 if not client.my_turn() else 0):
            if on_message is not None:
                on_message(msg)
        if client.table is not None and client.table.state == "over":
            return client.view
        if client.table_id is None:  # the seat could not be resumed (see the 'seat-lost' message)
            raise ServerError("not-seated", "the seat was lost and could not be resumed with its token")
        if client.my_turn() and actions < max_actions and client.view is not None:
            try:
                client.act(bot.choose(client.view))
                actions += 1
            except ServerError as exc:
                if exc.code in ("timeout", "disconnected", "not-your-seat", "not-seated", "deal-over"):
                    continue
                if exc.code in ("stale", "out-of-turn"):  # our view was old; the next push corrects it
                    continue
                raise
    return None
