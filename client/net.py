"""The network client library: one DEALER connection to a board99 server (no arcade here).

Used by the arcade client, by remote bots (`board99 bot`) and by the tests.
Lobby calls block until the reply (or ``timeout``); ``poll()`` drains what the
server pushed and keeps ``view`` and ``table`` current, resyncing with a
snapshot on a sequence gap and resuming the seat with its token after a
reconnect or a server restart (the Clone pattern). See docs/protocol.md.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import msgpack
import zmq

from board99 import kinds
from board99.match_format import MatchFormat
from board99.wire.curve import connect_curve, parse_key
from board99.wire.listings import PlayerHistory, Rating, RecordEntry, TournamentInfo
from board99.wire.protocol import (
    CLIENT_MAX_MESSAGE,
    CLIENT_UNPACK_LIMITS,
    COLOURS,
    DEFAULT_PORT,
    LIST_MAX,
    PAGE_MAX,
    PROTOCOL_VERSION,
)
from board99.wire.table_info import TableInfo

from .handshake import HandshakeWatch, mismatch_message

__all__ = ["COLOURS", "DEFAULT_PORT", "GameClient", "ServerError", "connect", "discover", "endpoint_for",
           "play_bot"]

log = logging.getLogger("board99.client")
#: Until the server's hello reply says otherwise.
HEARTBEAT = 1.0
LOST_AFTER = 3.0


class LobbyPage(NamedTuple):
    """One page of the lobby: its tables, how many tables there are in all, where the page starts."""

    tables: tuple[TableInfo, ...]
    total: int
    offset: int


class ServerError(Exception):
    """An error reply (or no reply): ``.code`` is stable, ``.message`` names the rule or field."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


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
    """One connection to one board99 server (a DEALER socket). Not thread-safe: one thread owns it."""

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
        self.name = name
        #: The player key (board99.client.player_key): with it the server knows this player again.
        self.key = key
        #: What the server said of this player at hello: name, rating, new (None for a guest or before hello).
        self.player: dict | None = None
        self.timeout = timeout
        if server_key is not None:
            try:
                server_key = parse_key(server_key)
            except ValueError as exc:  # the library's own error, naming the key, not a bare ValueError
                raise ServerError("bad-server-key", str(exc)) from None
        self.server_key = server_key
        #: Latest view of this client's seat (or the spectator view), kept current by poll().
        self.view: Any = None  # the seat's view, its game kind's (a board99.SeatView at a peg-board table)
        #: Latest table description (as list_tables entries).
        self.table: TableInfo | None = None
        #: False while the server is not answering.
        self.connected = False
        self.table_id: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.seq = -1
        self.epoch: str | None = None
        self.heartbeat, self.lost_after = HEARTBEAT, LOST_AFTER
        self._ctx = context or zmq.Context.instance()
        self._ids = itertools.count(1)
        self._handlers: dict[int, Callable[[dict], None]] = {}  # request id -> handler of its reply
        self._inbox: list[dict] = []
        self._snapshot_pending = False
        self._rebind_pending = False
        self._binding = 0  # bumped whenever the table or seat this client follows changes
        self._last_sent = 0.0
        self._last_heard = time.monotonic()
        self._watch: HandshakeWatch | None = None
        #: Called with every message received, replies included (tests capture traffic with it).
        self.on_receive: Callable[[dict], None] | None = None
        self._open()

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
        self._send_async("hello", self._hello_fields(), self._on_hello)

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

    def _send(self, kind: str, fields: dict, wait: float = 0.0) -> int:
        rid = next(self._ids)
        msg = {"type": kind, "id": rid, **fields}
        try:
            # Writable only once a connection is up (IMMEDIATE): a new client waits for its link here,
            # and learns at once if the handshake fails (a CURVE key mismatch).
            deadline = time.monotonic() + wait
            while not self._sock.poll(0, zmq.POLLOUT) and (left := deadline - time.monotonic()) > 0:
                if self._key_mismatch():
                    break
                self._sock.poll(max(1, int(min(left, 0.05) * 1000)), zmq.POLLOUT)
            self._sock.send(msgpack.packb(msg, use_bin_type=True), zmq.NOBLOCK)
        except zmq.Again:
            self._lost()
            raise ServerError("bad-server-key" if self._key_mismatch() else "disconnected",
                              self._unreachable()) from None
        self._last_sent = time.monotonic()
        return rid

    def _send_async(self, kind: str, fields: dict, handler: Callable[[dict], None]) -> bool:
        try:
            rid = self._send(kind, fields)
        except ServerError:
            return False  # not connected: the heartbeat tries again
        self._handlers[rid] = handler
        return True

    def _key_mismatch(self) -> bool:
        return self._watch is not None and self._watch.mismatch()

    def _unreachable(self) -> str:
        if self._key_mismatch():
            return mismatch_message(self.endpoint, self.server_key)
        return f"the server at {self.endpoint} is not answering"

    def _lost(self) -> None:
        if self.connected:
            self.connected = False
            self._inbox.append({"type": "connection", "connected": False})

    # -- receiving ------------------------------------------------------------------------

    def _receive(self, wait: float) -> dict | None:
        """One message from the server, waiting at most ``wait`` seconds."""
        if not self._sock.poll(max(0, int(wait * 1000))):
            return None
        frames = self._sock.recv_multipart()
        try:
            msg = msgpack.unpackb(frames[0], raw=False, **CLIENT_UNPACK_LIMITS)
        except Exception:  # msgpack raises several types; a broken or hostile server must not crash us
            msg = None
        if len(frames) != 1 or type(msg) is not dict or type(msg.get("type")) is not str:
            log.warning("event=bad-server-message endpoint=%s bytes=%d", self.endpoint, len(frames[0]))
            return None
        self._last_heard = time.monotonic()
        if self.on_receive is not None:
            self.on_receive(msg)
        if not self.connected:
            self.connected = True
            self._inbox.append({"type": "connection", "connected": True})
            self._ping()  # back after a silence: does the server still link us to our seat?
        return msg

    def _dispatch(self, msg: dict) -> None:
        try:
            self._handle(msg)
        except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
            log.warning("event=bad-server-message endpoint=%s type=%r error=%r", self.endpoint,
                        msg.get("type"), exc)

    def _handle(self, msg: dict) -> None:
        kind = msg.get("type")
        if kind in ("reply", "error"):
            rid = msg.get("id")
            handler = self._handlers.pop(rid, None) if type(rid) is int else None
            if handler is not None:
                handler(msg)
            elif kind == "error" and msg.get("id") is None:
                self._inbox.append(msg)  # e.g. rate-limited
            return
        self._on_push(msg)

    def _tick(self) -> None:
        """Heartbeat: ping when idle; notice a silent server."""
        now = time.monotonic()
        if now - self._last_sent >= self.heartbeat:
            self._ping()
            self._last_sent = now  # even when the send failed: one attempt per heartbeat
        if self.connected and now - self._last_heard > self.lost_after:
            self._lost()

    def _request(self, kind: str, **fields: Any) -> dict:
        """Send a request and wait for its reply; ServerError on an error reply or timeout."""
        if self.epoch is None and kind != "hello":
            # The hello sent on opening is dropped if the link was not up yet: the server learns
            # who this is (name, player key) before anything that depends on it.
            self.hello()
        fields = {k: v for k, v in fields.items() if v is not None}
        rid = self._send(kind, fields, wait=self.timeout)
        result: list[dict] = []
        self._handlers[rid] = result.append
        deadline = time.monotonic() + self.timeout
        while not result:
            left = deadline - time.monotonic()
            if left <= 0:
                self._handlers.pop(rid, None)
                if self._key_mismatch():
                    raise ServerError("bad-server-key", self._unreachable())
                limited = [m for m in self._inbox if m.get("type") == "error" and m.get("code") == "rate-limited"]
                if limited:
                    # The server dropped the request unanswered: say why rather than "no reply".
                    raise ServerError("rate-limited", f"'{kind}' was dropped: {limited[-1].get('message', '')}")
                raise ServerError("timeout", f"no reply to '{kind}' from {self.endpoint} within {self.timeout:g} s")
            msg = self._receive(min(left, self.heartbeat))
            if msg is not None:
                self._dispatch(msg)
            self._tick()
        reply = result[0]
        if reply["type"] == "error":
            raise ServerError(reply.get("code", "internal"), reply.get("message", ""))
        return reply

    # -- sync (Clone pattern) -----------------------------------------------------------------

    def _on_push(self, msg: dict) -> None:
        if msg.get("table") != self.table_id or self._snapshot_pending or self._rebind_pending:
            return  # another table's leftovers, or a snapshot is on its way and covers it
        seq = msg.get("seq")
        if type(seq) is not int or not isinstance(msg.get("view"), dict):
            raise ValueError("a push needs an integer seq and a view")
        if seq <= self.seq:
            return  # already seen
        if seq != self.seq + 1:
            self._ask_snapshot()
            return
        self._take(msg)
        self._inbox.append(msg)

    def _take(self, msg: dict) -> None:
        # Checked before anything is kept: a malformed view or table leaves the copy as it was.
        data = msg.get("info") or (msg.get("table") if isinstance(msg.get("table"), dict) else None)
        table = None if data is None else TableInfo.from_data(data)
        view = None if msg.get("view") is None else self._kind(table).view_from_data(msg["view"])
        if table is None and self.table is not None and "state" in msg:
            table = TableInfo.from_data({**self.table.to_data(), "state": msg["state"],
                                         "turn_left": msg.get("turn_left")})
        self.seq = msg["seq"]
        if view is not None:
            self.view = view
        if table is not None:
            self.table = table

    def _kind(self, table: TableInfo | None = None) -> kinds.GameKind:
        """The game kind of ``table``, else of the table this client follows (the default kind before one)."""
        table = table or self.table
        return kinds.get(kinds.DEFAULT if table is None else table.kind)

    def _seat_token(self) -> dict:
        return {"token": self.token} if self.seat is not None and self.token is not None else {}

    def _ask_snapshot(self) -> None:
        if not self._snapshot_pending:
            binding = self._binding
            self._snapshot_pending = self._send_async(
                "snapshot", self._seat_token(),
                lambda reply: self._on_snapshot(reply) if binding == self._binding else None)

    def _on_snapshot(self, reply: dict) -> None:
        self._snapshot_pending = False
        if reply["type"] == "error":
            self._inbox.append(reply)
            return
        self._take(reply)
        self._inbox.append({"type": "snapshot", "table": self.table_id, "seq": self.seq, "view": self.view,
                            "info": self.table})

    def _ping(self) -> None:
        # Replies are read against the binding they were asked under: a ping sent before take_seat
        # must not make the client think the server forgot its seat.
        binding = self._binding
        self._send_async("ping", {}, lambda reply: self._on_ping(reply, binding))

    def _hello_fields(self) -> dict:
        fields = {"version": PROTOCOL_VERSION, "name": self.name}
        if self.key is not None:
            fields["key"] = self.key
        return fields

    def _on_hello(self, reply: dict) -> None:
        if reply["type"] == "error":
            self._inbox.append(reply)
            return
        self.player = reply.get("player")
        if isinstance(self.player, dict) and isinstance(self.player.get("name"), str):
            self.name = self.player["name"]  # the key's name (a window that chose none is told its own)
        self.epoch = reply["epoch"]
        self.heartbeat = reply.get("heartbeat", HEARTBEAT)
        self.lost_after = reply.get("lost_after", LOST_AFTER)

    def _on_ping(self, reply: dict, binding: int) -> None:
        if reply["type"] == "error":
            return
        if reply.get("epoch") != self.epoch:
            if self.epoch is not None:
                self._inbox.append({"type": "restarted", "epoch": reply.get("epoch")})
            self.epoch = reply.get("epoch")
            self._send_async("hello", self._hello_fields(), self._on_hello)
        if self.table_id is None or self._rebind_pending or binding != self._binding:
            return
        if (reply.get("table"), reply.get("seat")) == (self.table_id, self.seat):
            seq = reply.get("seq")
            if type(seq) is int and seq > self.seq:
                self._ask_snapshot()  # the latest push never came (a gap with nothing after it)
            return
        # The server no longer knows this connection as ours (restart or new link): bind again.
        def rebound(reply: dict) -> None:
            if binding == self._binding:
                self._on_rebound(reply)

        if self.seat is not None and self.token is not None:
            sent = self._send_async("resume", {"table": self.table_id, "seat": self.seat, "token": self.token},
                                    rebound)
        else:
            sent = self._send_async("spectate", {"table": self.table_id}, rebound)
        self._rebind_pending = sent

    def _on_rebound(self, reply: dict) -> None:
        self._rebind_pending = False
        if reply["type"] == "error":
            self._inbox.append({"type": "seat-lost", "code": reply.get("code"), "message": reply.get("message")})
            self.table_id = self.seat = self.token = None
            self._binding += 1
            return
        self._snapshot_pending = False
        self._take(reply)
        self._inbox.append({"type": "snapshot", "table": self.table_id, "seq": self.seq, "view": self.view,
                            "info": self.table})

    def _wait_rebind(self) -> None:
        deadline = time.monotonic() + self.timeout
        while self._rebind_pending and time.monotonic() < deadline:
            msg = self._receive(min(0.1, deadline - time.monotonic()))
            if msg is not None:
                self._dispatch(msg)
            self._tick()

    def poll(self, timeout: float = 0.0, wake: zmq.Socket | int | None = None) -> list[dict]:
        """What the server pushed since the last call (each a dict with a 'type'); waits at most ``timeout``.

        With ``wake`` (a socket or a file descriptor), the wait also ends as soon as it is readable
        (it is left unread for the caller): a thread can sleep here until either the server or
        its own side speaks, instead of waking many times a second to look.
        """
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            wait = max(0.0, min(left, self.heartbeat)) if not self._inbox else 0
            if wake is not None and wait > 0:
                poller = zmq.Poller()
                poller.register(self._sock, zmq.POLLIN)
                poller.register(wake, zmq.POLLIN)
                ready = dict(poller.poll(int(wait * 1000)))
                if wake in ready and self._sock not in ready:
                    self._tick()
                    out, self._inbox = self._inbox, []
                    return out
            msg = self._receive(0 if wake is not None else wait)
            if msg is not None:
                self._dispatch(msg)
                while (msg := self._receive(0)) is not None:
                    self._dispatch(msg)
            self._tick()
            if self._inbox or time.monotonic() >= deadline:
                out, self._inbox = self._inbox, []
                return out

    # -- lobby -------------------------------------------------------------------------------------

    def hello(self) -> dict:
        """Check the server speaks our protocol; its name, epoch and heartbeat settings."""
        reply = self._request("hello", **self._hello_fields())
        self._on_hello(reply)
        return reply

    def list_tables(self) -> tuple[TableInfo, ...]:
        """The lobby's first page of tables (waiting ones first, newest first): see ``lobby_page``."""
        return self.lobby_page().tables

    def lobby_page(self, offset: int = 0, limit: int = PAGE_MAX) -> LobbyPage:
        """One page of the server's tables, in the lobby's order, and how many there are in all."""
        reply = self._request("list_tables", offset=offset, limit=limit)
        return LobbyPage(tuple(TableInfo.from_data(t) for t in reply["tables"]), reply["total"], reply["offset"])

    def create_table(self, name: str, players: int, mode: str | None = None, clock: float | None = None,
                     grace: float | None = None, match: MatchFormat | None = None,
                     rated: bool = False, bot_pace: str = "quick", game: str = kinds.DEFAULT,
                     options: dict[str, Any] | None = None) -> TableInfo:
        """A new table of ``game`` (a kind's name, ``board99.kinds``; it starts once every seat is filled).

        ``mode``: one of the kind's (default its first); ``options``: the kind's further settings; a
        ``match`` table plays games until it is decided; ``bot_pace``: how fast the table's server
        bots move (wire.protocol.BOT_PACES).
        """
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
        return TableInfo.from_data(self._request("create_table", name=name, players=players,
                                                 mode=mode or kind.modes[0], clock=clock, grace=grace,
                                                 **extra)["table"])

    def _follow(self, reply: dict, table_id: str, seat: int | None) -> TableInfo:
        self._binding += 1
        self.table_id, self.seat = table_id, seat
        self._snapshot_pending = self._rebind_pending = False
        self.seq = -1
        self._take(reply)
        assert self.table is not None
        return self.table

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
        reply = self._request("take_seat", table=table, seat=seat, colour=colour)
        self.token = reply["token"]
        return self._follow(reply, table, seat)

    def resume(self, table: str, seat: int, token: str) -> TableInfo:
        """Take back a seat held for us (after a restart of this program) with its token."""
        reply = self._request("resume", table=table, seat=seat, token=token)
        self.token = token
        return self._follow(reply, table, seat)

    def add_bot(self, table: str, seat: int, bot: str = "rulebook") -> TableInfo:
        """Put a server-side bot in an empty seat."""
        info = TableInfo.from_data(self._request("add_bot", table=table, seat=seat, bot=bot,
                                                 **self._seat_token())["table"])
        if table == self.table_id:
            self.table = info  # the push with the same news may still be queued behind this reply
        return info

    def spectate(self, table: str) -> TableInfo:
        """Follow a table with the public view."""
        reply = self._request("spectate", table=table)
        self.token = None
        return self._follow(reply, table, None)

    def leave(self) -> None:
        """Give up the seat (a bot plays on if the game is running) or stop spectating."""
        self._request("leave", **self._seat_token())
        self._binding += 1
        self.table_id = self.seat = self.token = None
        self.view = self.table = None
        self.seq = -1

    def rematch(self) -> TableInfo:
        """Ask for another game with the same seats; it starts when every person has asked."""
        self._wait_rebind()
        reply = self._request("rematch", **self._seat_token())
        if reply["seq"] > self.seq:
            self._take(reply)
        assert self.table is not None
        return self.table

    def act(self, action: Any, ply: int | None = None) -> list[dict]:
        """Carry out an action of the table's game kind (the peg-board game: play, draw or discard); the
        events it caused (this seat's view of them), or ServerError.

        ``ply``: the position the action was chosen on (default: the latest this client saw).
        """
        if self.table_id is None or self.seat is None or self.token is None:
            raise ServerError("not-seated", "this client holds no seat; take_seat() first")
        self._wait_rebind()
        # The ply we saw: if the table moved on meanwhile the server answers 'stale' instead of
        # applying an action chosen on an old position (in penalty mode that would be an offence).
        if ply is None:
            ply = self.view.ply if self.view is not None else None
        try:
            reply = self._request("act", table=self.table_id, seat=self.seat, token=self.token,
                                  action=self._kind().action_to_data(action), ply=ply)
        except ServerError as exc:
            if exc.code == "not-your-seat" and not self._rebind_pending:
                # The server does not know this connection as the seat's (it restarted, or the link
                # was re-made): ask now rather than at the next heartbeat, which acting keeps away.
                self._ping()
            raise
        if reply["seq"] > self.seq:
            if reply["seq"] > self.seq + 1:
                self._ask_snapshot()  # a table push went missing: its info comes with the snapshot
            self._take(reply)
        return reply["events"]

    def hint(self) -> Any:
        """The coach's advice for this client's seat now (casual tables only: ``hints-off`` elsewhere).

        The table is told that this seat asked (a ``hint`` change); the reply moves this client's
        copy of the table on past that change, as the others' pushes move theirs.
        """
        if self.table_id is None or self.seat is None or self.token is None:
            raise ServerError("not-seated", "this client holds no seat; take_seat() first")
        self._wait_rebind()
        reply = self._request("hint", token=self.token)
        if reply["seq"] > self.seq:
            if reply["seq"] > self.seq + 1:
                self._ask_snapshot()  # a push went missing meanwhile
            self._take(reply)
        return self._kind().advice_from_data(reply["advice"])

    def snapshot(self) -> Any:
        """Fetch the table's current state now (poll() does this by itself on a gap)."""
        reply = self._request("snapshot", **self._seat_token())
        self._take(reply)
        return self.view

    def fetch_record(self, table: str, game: int | None = None, match: bool = False) -> str:
        """A finished game's record text (the latest finished game unless ``game`` is given).

        With ``match``, the match record of the match that game belongs to (board99.match).
        """
        extra = {"whole_match": True} if match else {}
        return self._request("fetch_record", table=table, game=game, **extra)["record"]

    def history(self) -> tuple[list[str], list[Any]]:
        """What has happened in the followed table's game so far, as everyone may see it.

        The public record lines, and the public view after each action (the first: after the deal).
        """
        reply = self._request("history")
        kind = self._kind()
        return list(reply["lines"]), [kind.view_from_data(v) for v in reply["views"]]

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
