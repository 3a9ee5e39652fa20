"""The client's protocol without sockets or clocks (sans-IO): bytes and the time in, frames and typed records out.

``ClientCore`` holds everything a connection to a board99 server knows and
decides: the requests on their way and their replies, the copy of the
followed table kept current by pushes (the Clone pattern: seq, snapshots on a
gap), heartbeats, noticing a silent server, and binding the seat again with
its token after a new link or a restart. It never touches a socket and never
reads a clock: a driver hands it each frame received (``receive``), the time
(``tick``), sends what ``outgoing()`` gives, and says when a send failed
(``send_failed``). ``GameClient`` (net.py) drives it from blocking calls for
scripts and tests; the window's ``Session`` drives the same ``GameClient``
from its one network thread. Tests drive it with a fake clock
(tests/test_client_core.py). Every message is checked against
``wire.replies`` before anything of it is kept, except by a ``trusted`` core:
the web seat's, whose frames come from the server core in its own process
(docs/web.md, *What the seat trusts*). See docs/client.md.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any, NamedTuple

import msgpack

from board99 import kinds
from board99.wire.protocol import CLIENT_UNPACK_LIMITS, PROTOCOL_VERSION
from board99.wire.replies import BadReply, check_error, check_push, check_reply
from board99.wire.table_info import TableInfo

from .pushes import (
    Completed,
    Connection,
    Message,
    Notice,
    Restarted,
    SeatLost,
    Snapshot,
    TableChange,
    Update,
)

log = logging.getLogger("board99.client")
#: Until the server's hello reply says otherwise.
HEARTBEAT = 1.0
LOST_AFTER = 3.0


class ServerError(Exception):
    """An error reply (or no reply): ``.code`` is stable, ``.message`` names the rule or field."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def kind_of(info: TableInfo | None) -> kinds.GameKind:
    """The game kind a table plays (its description's ``kind``; the default kind before a table is known).

    UnknownKind (a ValueError) for a kind not installed here: what the client cannot read, it does not keep.
    """
    return kinds.get(kinds.DEFAULT if info is None else info.kind)


def read_events(kind: kinds.GameKind, data: object) -> tuple[Any, ...]:
    """A message's events, each read by the table's kind into its own event class (parsed once, here).

    ValueError naming the event and its field for anything that is not an event of that kind: the
    message is then not kept (a push is logged and dropped, a reply fails as ``bad-reply``).
    """
    if not isinstance(data, list | tuple):
        raise ValueError(f"events: expected a list, got {type(data).__name__}")
    events = []
    for number, item in enumerate(data):
        try:
            events.append(kind.event_from_data(item))
        except ValueError as exc:
            raise ValueError(f"events[{number}]: {exc}") from None
    return tuple(events)


class Outgoing(NamedTuple):
    """A frame for the driver to send: ``wait`` says a caller waits on it (the driver may wait for the link)."""

    rid: int
    frame: bytes
    wait: bool


#: A reply's handling: the reply's map in, the request's result out (ServerError or ValueError if unusable).
Finish = Callable[[dict], Any]


class Pending:
    """A request on its way: ``done`` once its reply (``result``) or its failure (``error``) is in."""

    __slots__ = ("kind", "rid", "fields", "finish", "after", "wait", "op", "deadline", "sent_at", "result",
                 "error", "done", "on_fail", "retried")

    def __init__(self, kind: str, fields: dict | Callable[[], dict], finish: Finish | None, *,
                 after: tuple[Pending, ...], wait: bool, op: str | None) -> None:
        self.kind, self.fields, self.finish = kind, fields, finish
        self.after = after  # sent only once these are done (not at all if one was a refused hello)
        self.wait, self.op = wait, op
        self.rid = 0
        self.deadline = float("inf")
        self.sent_at = 0.0
        self.result: Any = None
        self.error: ServerError | None = None
        self.done = False
        self.on_fail: Callable[[], None] | None = None  # the core's own requests: undo what "on its way" set
        self.retried = False  # sent again once after the core bound its seat again (``_retry_after_rebind``)


class ClientCore:
    """One connection's protocol state: no sockets, no threads, no clock of its own."""

    def __init__(self, *, name: str = "player", key: str | None = None, timeout: float = 5.0,
                 now: float = 0.0, endpoint: str = "the server", trusted: bool = False) -> None:
        self.name = name
        #: Whether the frames come from this very process's server core (the web seat's: web/seat.py), whose
        #: replies and pushes then need no field checks (``wire.replies``, the view's ``from_data``): they are
        #: read as the core made them. Off for every client of a server over a network (GameClient, the
        #: window): a server there may be broken or hostile, and everything it sends is checked (docs/web.md).
        self.trusted = trusted
        #: The player key (board99.client.player_key): with it the server knows this player again.
        self.key = key
        self.timeout = timeout
        self.endpoint = endpoint  # only for messages and the log
        #: What the server said of this player at hello: name, rating, new (None for a guest or before hello).
        self.player: dict | None = None
        self.web: str | None = None
        #: Latest view of the followed seat (or the spectator view), as the table's kind reads it.
        self.view: Any = None
        #: Latest table description.
        self.table: TableInfo | None = None
        #: False while the server is not answering.
        self.connected = False
        self.table_id: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.seq = -1
        self.epoch: str | None = None
        self.heartbeat, self.lost_after = HEARTBEAT, LOST_AFTER
        #: Called with every message received, replies included (tests capture traffic with it).
        self.on_receive: Callable[[dict], None] | None = None
        self._ids = itertools.count(1)
        self._out: list[Outgoing] = []
        self._sent: dict[int, Pending] = {}  # request id -> request waiting for its reply
        self._held: list[Pending] = []  # requests waiting for another one first
        self._messages: list[Message] = []
        self._hello: Pending | None = None
        self._snapshot_pending = False
        self._rebind_pending = False
        self._binding = 0  # bumped whenever the table or seat this client follows changes
        self._last_sent = now
        self._last_heard = now
        self._rate_limited: tuple[float, str] | None = None  # when the server last said it dropped messages, why
        self._rebind: Pending | None = None
        self._now = now  # the time the driver last gave

    # -- what the driver calls -------------------------------------------------------------

    def outgoing(self) -> list[Outgoing]:
        """The frames to send now, in order (each once)."""
        out, self._out = self._out, []
        return out

    def send_failed(self, rid: int, now: float, message: str = "", key_mismatch: bool = False) -> None:
        """The driver could not send request ``rid`` (no link): it fails, and the server counts as gone.

        ``key_mismatch``: the driver saw the CURVE handshake fail (the server's key is not the one expected).
        """
        self._now = now
        pending = self._sent.pop(rid, None)
        self._lost()
        if pending is not None:
            self._fail(pending, ServerError("bad-server-key" if key_mismatch else "disconnected",
                                            message or f"the server at {self.endpoint} is not answering"))

    def receive(self, frame: bytes, now: float) -> None:
        """One frame from the server: checked, then taken (a bad one is logged and changes nothing)."""
        self._now = now
        try:
            msg = msgpack.unpackb(frame, raw=False, **CLIENT_UNPACK_LIMITS)
        except Exception:  # msgpack raises several types; a broken or hostile server must not crash us
            msg = None
        if type(msg) is not dict or type(msg.get("type")) is not str:
            log.warning("event=bad-server-message endpoint=%s bytes=%d", self.endpoint, len(frame))
            return
        self._taken(msg, now)

    def receive_message(self, msg: dict, now: float) -> None:
        """One message as the server core in this very process made it, not packed: a trusted core's only.

        What ``receive`` takes once msgpack has read the frame (the web seat's: docs/web.md, *What the seat
        trusts*). The map may hold tuples where a frame read back holds lists, and may be shared by other
        receivers (a push to every spectator): it is read, never changed.
        """
        if not self.trusted:
            raise ValueError("only a trusted core takes a message unpacked: every other frame is checked")
        self._now = now
        if type(msg) is not dict or type(msg.get("type")) is not str:
            log.warning("event=bad-server-message endpoint=%s message=%s", self.endpoint, type(msg).__name__)
            return
        self._taken(msg, now)

    def _taken(self, msg: dict, now: float) -> None:
        # A message read (``receive``) or handed over (``receive_message``): heard, then handled.
        self._last_heard = now
        if self.on_receive is not None:
            self.on_receive(msg)
        if not self.connected:
            self.connected = True
            self._messages.append(Connection(True))
            self._ping(now)  # back after a silence: does the server still link us to our seat?
        try:
            self._handle(msg, now)
        except (BadReply, KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
            log.warning("event=bad-server-message endpoint=%s type=%r error=%s", self.endpoint,
                        msg.get("type"), exc)

    def tick(self, now: float) -> None:
        """The time passed: ping when idle, notice a silent server, fail requests past their time."""
        self._now = now
        if now - self._last_sent >= self.heartbeat:
            self._ping(now)
            self._last_sent = now  # even when the send fails: one attempt per heartbeat
        if self.connected and now - self._last_heard > self.lost_after:
            self._lost()
        for pending in [p for p in self._sent.values() if p.deadline <= now]:
            del self._sent[pending.rid]
            self._fail(pending, self._timed_out(pending))
        for pending in [p for p in self._held if p.deadline <= now]:
            self._held.remove(pending)
            waited = ", ".join(f"'{p.kind}'" for p in pending.after if not p.done)
            self._fail(pending, ServerError("timeout", f"'{pending.kind}' waited too long for {waited}"))

    def next_tick(self) -> float:
        """When ``tick`` has something to do next (a heartbeat, a silence, a request's time running out)."""
        due = self._last_sent + self.heartbeat
        if self.connected:
            due = min(due, self._last_heard + self.lost_after)
        for pending in itertools.chain(self._sent.values(), self._held):
            due = min(due, pending.deadline)
        return due

    def messages(self) -> list[Message]:
        """What happened since the last call, oldest first."""
        out, self._messages = self._messages, []
        return out

    def has_messages(self) -> bool:
        """True while ``messages()`` has something."""
        return bool(self._messages)

    # -- requests ---------------------------------------------------------------------------

    def request(self, kind: str, fields: dict | Callable[[], dict], now: float, finish: Finish | None = None, *,
                after: Pending | tuple[Pending | None, ...] | None = None, wait: bool = True,
                op: str | None = None) -> Pending:
        """Queue a request; its ``Pending`` is done when its reply (through ``finish``) or failure is in.

        ``fields`` may be a function, called when the request is sent (after ``after``), so a request
        held behind another reads the client's state as that one left it. ``op``: also report it as
        a ``Completed`` record, in order with the pushes. Until the server has answered a hello, one
        is sent first (it tells the server who this is), and a refused hello fails the request too.
        """
        self._now = now
        deps = tuple(p for p in (after if isinstance(after, tuple) else (after,)) if p is not None)
        if not deps and kind != "hello" and self.epoch is None:
            if self._hello is None or self._hello.done:
                self._hello = self.request("hello", self._hello_fields, now, self._took_hello, wait=wait)
            deps = (self._hello,)
        pending = Pending(kind, fields, finish, after=deps, wait=wait, op=op)
        pending.deadline = now + 2 * self.timeout if deps else now + self.timeout
        if not all(p.done for p in deps):
            self._held.append(pending)
        else:
            self._release(pending, now)
        return pending

    def _release(self, pending: Pending, now: float) -> None:
        for after in pending.after:
            if after.error is not None and after.kind == "hello":
                self._fail(pending, after.error)
                return
        try:
            fields = pending.fields() if callable(pending.fields) else pending.fields
        except ServerError as exc:
            self._fail(pending, exc)
            return
        pending.rid = next(self._ids)
        pending.sent_at, pending.deadline = now, now + self.timeout
        msg = {"type": pending.kind, "id": pending.rid, **{k: v for k, v in fields.items() if v is not None}}
        self._sent[pending.rid] = pending
        self._out.append(Outgoing(pending.rid, msgpack.packb(msg, use_bin_type=True), pending.wait))
        self._last_sent = now

    def _timed_out(self, pending: Pending) -> ServerError:
        if self._rate_limited is not None and self._rate_limited[0] >= pending.sent_at:
            # The server dropped the request unanswered: say why rather than "no reply".
            return ServerError("rate-limited", f"'{pending.kind}' was dropped: {self._rate_limited[1]}")
        return ServerError("timeout", f"no reply to '{pending.kind}' from {self.endpoint} "
                                      f"within {self.timeout:g} s")

    def _fail(self, pending: Pending, error: ServerError) -> None:
        pending.error, pending.done = error, True
        on_fail, pending.on_fail = pending.on_fail, None
        if on_fail is not None:
            on_fail()
        self._completed(pending)
        self._release_after(pending)

    def _succeed(self, pending: Pending, result: Any) -> None:
        pending.result, pending.done = result, True
        # A done request needs no undo: dropped, as the callers' ``on_fail`` holds the very Pending (a cycle,
        # which left every act and its events to the cycle collector: its pauses were most of a server's p99).
        pending.on_fail = None
        self._completed(pending)
        self._release_after(pending)

    def _completed(self, pending: Pending) -> None:
        if pending.op is not None:
            self._messages.append(Completed(pending.op, pending.result, pending.error, self.view, self.table,
                                            self.connected, pending))

    def _release_after(self, done: Pending) -> None:
        ready = [p for p in self._held if done in p.after and all(a.done for a in p.after)]
        if not ready:
            return
        self._held = [p for p in self._held if p not in ready]
        for pending in ready:
            self._release(pending, self._now)

    # -- receiving --------------------------------------------------------------------------

    def _handle(self, msg: dict, now: float) -> None:
        kind = msg["type"]
        if kind not in ("reply", "error"):
            self._on_push(msg)
            return
        rid = msg.get("id")
        pending = self._sent.pop(rid, None) if type(rid) is int else None
        if pending is None:
            if kind == "error" and rid is None:
                error = check_error(msg)  # e.g. rate-limited
                if error["code"] == "rate-limited":
                    self._rate_limited = (now, error["message"])
                self._messages.append(Notice(error["code"], error["message"], msg))
            return  # a reply nobody waits for any more (its request timed out)
        try:
            if kind == "error":
                error = check_error(msg)
                if self._retry_after_rebind(pending, error["code"], now):
                    return
                raise ServerError(error["code"], error["message"])
            if not self.trusted:
                check_reply(pending.kind, msg)
            result = pending.finish(msg) if pending.finish is not None else msg
        except ServerError as exc:
            self._fail(pending, exc)
        except (BadReply, KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
            log.warning("event=bad-server-reply endpoint=%s request=%s error=%s", self.endpoint, pending.kind, exc)
            self._fail(pending, ServerError("bad-reply", f"the server's reply to '{pending.kind}' is not usable: "
                                                         f"{exc}"))
        else:
            self._succeed(pending, result)

    def _retry_after_rebind(self, pending: Pending, code: str, now: float) -> bool:
        """A request about our seat refused because the server no longer links this connection to it: bind
        the seat again (its token) and send the request once more after. True if it is held for that."""
        # The server forgets a connection it has not heard for a while (a laptop's Wi-Fi, a phone asleep,
        # a machine too busy to send its heartbeat): the first the client hears of it may be this refusal.
        # A refused request changed nothing at the server, so sending it again is safe.
        if code not in _UNBOUND or pending.retried or pending.kind not in _SEAT_REQUESTS or self.table_id is None:
            return False
        if not self._rebind_pending:
            self._rebind_now(self._binding, now)
        rebind = self._rebind
        if rebind is None or rebind.done:
            return False
        pending.retried = True
        pending.after = (rebind,)
        pending.deadline = now + 2 * self.timeout
        self._held.append(pending)
        return True

    def _on_push(self, msg: dict) -> None:
        fields = msg if self.trusted else check_push(msg)  # the checks return the listed fields as they are
        if fields["table"] != self.table_id or self._snapshot_pending or self._rebind_pending:
            return  # another table's leftovers, or a snapshot is on its way and covers it
        seq = fields["seq"]
        if seq <= self.seq:
            return  # already seen
        if seq != self.seq + 1:
            self._ask_snapshot()
            return
        # The events are read by the table's kind with the view and table, before anything is kept:
        # a push with an event this client cannot read changes nothing (logged; the gap asks a snapshot).
        table, view = self._read(msg)
        events = read_events(kind_of(table or self.table), fields.get("events", ()))
        self._keep(msg, table, view)
        if msg["type"] == "update":
            info = self.table if "info" in fields else None
            self._messages.append(Update(fields["table"], seq, fields["by"], fields["clock"], events, self.view,
                                         info, msg))
        else:
            assert self.table is not None
            self._messages.append(TableChange(fields["table"], seq, fields["change"], fields.get("by"), events,
                                              self.view, self.table, msg))

    def _take(self, msg: dict) -> None:
        # Checked before anything is kept: a malformed view or table leaves the copy as it was.
        table, view = self._read(msg)
        self._keep(msg, table, view)

    def _read(self, msg: dict) -> tuple[TableInfo | None, Any]:
        # The table description and the view a message carries, read and checked (None: it carries none).
        data = msg.get("info") or (msg.get("table") if isinstance(msg.get("table"), dict) else None)
        table = None if data is None else TableInfo.from_data(data)
        if table is None and self.table is not None and "state" in msg:
            # Only these two fields change: the rest is not read again (nor checked, by a trusted core).
            table = self.table.moved_on_trusted(msg) if self.trusted else self.table.moved_on(msg)
        # The view is read by the table's own kind (parsed once, here: the records carry it on).
        raw = msg.get("view")
        if raw is None:
            return table, None
        kind = kind_of(table or self.table)
        view = kinds.view_from_trusted(kind, raw) if self.trusted else kind.view_from_data(raw)
        return table, view

    def _keep(self, msg: dict, table: TableInfo | None, view: Any) -> None:
        self.seq = msg["seq"]
        if view is not None:
            self.view = view
        if table is not None:
            self.table = table

    def take_snapshot(self, reply: dict) -> None:
        """Take a reply that carries the table (``seq``, ``view``, perhaps ``table``) as the client's copy."""
        self._take(reply)

    def _lost(self) -> None:
        if self.connected:
            self.connected = False
            self._messages.append(Connection(False))

    # -- sync (the Clone pattern) and binding --------------------------------------------------

    def follow(self, reply: dict, table_id: str, seat: int | None) -> TableInfo:
        """The client now follows ``table_id`` (in ``seat``, None: watching) from this reply's snapshot."""
        self._take(reply)  # first: a reply that is not usable leaves the client as it was
        self._binding += 1
        self.table_id, self.seat = table_id, seat
        self._snapshot_pending = self._rebind_pending = False
        assert self.table is not None
        return self.table

    def unfollow(self) -> None:
        """The client follows no table any more (it left)."""
        self._binding += 1
        self.table_id = self.seat = self.token = None
        self.view = self.table = None
        self.seq = -1

    def seat_token(self) -> dict:
        """The ``token`` field a request about this client's own seat carries (none when watching)."""
        return {"token": self.token} if self.seat is not None and self.token is not None else {}

    def take_moved(self, reply: dict) -> None:
        """Take a reply that moved the table on (``act``, ``hint``): newer than the copy, and asking after a gap."""
        if reply["seq"] > self.seq:
            if reply["seq"] > self.seq + 1:
                self._ask_snapshot()  # a push went missing meanwhile: its info comes with the snapshot
            self._take(reply)

    @property
    def rebinding(self) -> Pending | None:
        """The core's own resume or spectate after a new link, while it is on its way."""
        return self._rebind if self._rebind_pending else None

    def _ask_snapshot(self) -> None:
        if self._snapshot_pending:
            return
        binding = self._binding

        def took(reply: dict) -> None:
            if binding == self._binding:
                self._snapshot_pending = False
                self._take(reply)
                self._messages.append(Snapshot(self.table_id, self.seq, self.view, self.table))

        pending = self.request("snapshot", self.seat_token(), self._now, took, after=_NO_HELLO, wait=False)
        self._on_own_failure(pending, "snapshot", binding)
        self._snapshot_pending = not pending.done

    def _on_own_failure(self, pending: Pending, what: str, binding: int) -> None:
        def failed() -> None:
            if binding != self._binding:
                return
            if what == "snapshot":
                self._snapshot_pending = False
            else:
                self._rebind_pending = False
            error = pending.error
            if error is None or error.code in ("disconnected", "timeout"):
                return  # not sent, or unanswered: the heartbeat tries again
            if what == "snapshot":
                self._messages.append(Notice(error.code, error.message,
                                             {"type": "error", "code": error.code, "message": error.message}))
            else:
                self._messages.append(SeatLost(error.code, error.message))
                self.table_id = self.seat = self.token = None
                self._binding += 1

        pending.on_fail = failed
        if pending.done and pending.error is not None:
            failed()

    def ping_now(self) -> None:
        """Ask the server now which table and seat it links to this connection (rather than at the next heartbeat)."""
        self._ping(self._now)

    def _ping(self, now: float) -> None:
        # Replies are read against the binding they were asked under: a ping sent before take_seat
        # must not make the client think the server forgot its seat.
        binding = self._binding
        self.request("ping", {}, now, lambda reply: self._took_ping(reply, binding, now), after=_NO_HELLO,
                     wait=False)

    def _hello_fields(self) -> dict:
        fields = {"version": PROTOCOL_VERSION, "name": self.name}
        if self.key is not None:
            fields["key"] = self.key
        return fields

    def hello(self, now: float, op: str | None = None) -> Pending:
        """Say hello (the protocol version, the name, the player key); done with the reply's map.

        ``op``: also report it as a ``Completed`` record (a driver that does not wait, the web seat).
        """
        self._hello = self.request("hello", self._hello_fields, now, self._took_hello, op=op)
        return self._hello

    def say_hello(self, now: float) -> None:
        """Say hello without waiting (on opening, and after a restart): a refusal comes as a ``Notice``."""
        pending = self.request("hello", self._hello_fields, now, self._took_hello, wait=False)
        self._hello = pending

        def refused() -> None:
            error = pending.error
            if error is not None and error.code not in ("disconnected", "timeout"):
                self._messages.append(Notice(error.code, error.message,
                                             {"type": "error", "code": error.code, "message": error.message}))

        pending.on_fail = refused

    def _took_hello(self, reply: dict) -> dict:
        player = reply.get("player")
        self.player = player
        if isinstance(player, dict) and isinstance(player.get("name"), str):
            self.name = player["name"]  # the key's name (a window that chose none is told its own)
        self.epoch = reply["epoch"]
        self.heartbeat = reply.get("heartbeat", HEARTBEAT)
        self.lost_after = reply.get("lost_after", LOST_AFTER)
        self.web = reply.get("web")  # where guests open the server's web table; None: it serves none
        return reply

    def _took_ping(self, reply: dict, binding: int, now: float) -> None:
        if reply.get("epoch") != self.epoch:
            if self.epoch is not None:
                self._messages.append(Restarted(reply.get("epoch")))
            self.epoch = reply.get("epoch")
            self.say_hello(now)
        if self.table_id is None or self._rebind_pending or binding != self._binding:
            return
        if (reply.get("table"), reply.get("seat")) == (self.table_id, self.seat):
            seq = reply.get("seq")
            if type(seq) is int and seq > self.seq:
                self._ask_snapshot()  # the latest push never came (a gap with nothing after it)
            return
        # The server no longer knows this connection as ours (restart or new link): bind again.
        self._rebind_now(binding, now)

    def _rebind_now(self, binding: int, now: float) -> None:
        def rebound(reply: dict) -> None:
            if binding != self._binding:
                return
            self._rebind_pending = False
            self._snapshot_pending = False
            self._take(reply)
            self._messages.append(Snapshot(self.table_id, self.seq, self.view, self.table))

        if self.seat is not None and self.token is not None:
            kind, fields = "resume", {"table": self.table_id, "seat": self.seat, "token": self.token}
        else:
            kind, fields = "spectate", {"table": self.table_id}
        pending = self.request(kind, fields, now, rebound, after=_NO_HELLO, wait=False)
        self._rebind = pending
        self._on_own_failure(pending, "rebind", binding)
        self._rebind_pending = not pending.done


#: The server's words for "this connection holds no seat / follows no table" (it forgot the connection).
_UNBOUND = frozenset({"not-your-seat", "not-seated"})
#: Requests about the followed seat or table that the core sends again once it has bound the seat again.
_SEAT_REQUESTS = frozenset({"act", "hint", "rematch", "leave", "history"})

#: The core's own requests (pings, snapshots, rebinds) need no hello first: a done, successful stand-in.
_NO_HELLO = Pending("hello", {}, None, after=(), wait=False, op=None)
_NO_HELLO.done = True
