"""The web transport: the page's files and its WebSockets, served by the server's own loop.

The server's poller loop (server/loop.py) polls this gateway's listening
socket and every browser connection beside its ZeroMQ sockets, so a page's
press, the core's answer and the scene that shows it run in one thread, one
after the other: no hop between threads, no second interpreter lock holder
(docs/web.md, *Transport*). The WebSocket protocol is websockets' sans-IO
``ServerProtocol``; this module only moves the bytes. A GET of a page file is
answered from the installed package (``files.py``); ``/ws`` becomes a
WebSocket only for a page this server served (the ``Origin`` equals
``http://`` + the ``Host`` asked for, and that host is this machine's address
or name). Each WebSocket gets one seat (web/seat.py's ``WebSeat``): what the
seat owes the core leaves through ``take`` as ``(ident, frame, host)``, a page
gone as ``(ident, None, host)``; what the core sends that ident comes back
through ``from_core``. Limits (docs/web.md): connections per machine and in
all, frame size, messages a second, bytes owed to a page that does not read,
pings, a handshake time.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import re
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol

import zmq
from websockets.datastructures import Headers
from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State as WSState
from websockets.server import ServerProtocol

from board99.server.idents import WEB_PREFIX
from board99.server.presence import Bucket

from .files import BadPath, File, load, name_of, package_static

log = logging.getLogger("board99.web")

#: The one path that becomes a WebSocket.
WS_PATH = "/ws"
READ_SIZE = 65_536  # bytes read from a connection at a time (the poll comes back while more wait)
#: TCP connections beyond the WebSockets' own limits, for the page's files (a page load fetches three).
FILES_SPARE = 16
# The poll's flags as plain ints: pyzmq's are an IntFlag, whose every ``|`` and ``&`` is a Python call.
_POLLIN, _POLLOUT, _POLLERR = int(zmq.POLLIN), int(zmq.POLLOUT), int(zmq.POLLERR)
LOG_MAX = 20  # lines about connections logged a second: a storm of connections must not become one of log


class LogBudget:
    """At most LOG_MAX lines a second; the lines left out are counted in the next second's first line."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.window, self.used, self.skipped = -math.inf, 0, 0

    def __call__(self, level: int, message: str, *args: Any) -> None:
        now = self.clock()
        if now - self.window >= 1.0:
            if self.skipped:
                log.warning("event=web-log-skipped lines=%d", self.skipped)
            self.window, self.used, self.skipped = now, 0, 0
        if self.used >= LOG_MAX:
            self.skipped += 1
            return
        self.used += 1
        log.log(level, message, *args)


@dataclass(frozen=True)
class Limits:
    """What one web page may use (docs/web.md, "Limits")."""

    per_host: int = 64  # WebSockets open from one machine (the core's conns_per_host by default)
    total: int = 1000  # ... and in all (the core's max_conns)
    max_frame: int = 16 * 1024  # bytes in one frame from the page; a bigger one closes the connection
    rate: float = 30.0  # frames a second from one page, sustained ...
    burst: float = 60.0  # ... and at once; frames over it are dropped with a notice
    send_buffer: int = 1024 * 1024  # bytes owed to a page its socket would not take: more, and it is dropped
    ping_interval: float = 5.0  # seconds between WebSocket pings ...
    ping_timeout: float = 10.0  # ... and how long a pong may take before the connection is dropped
    open_timeout: float = 5.0  # seconds a new connection has to finish its HTTP request or handshake
    close_timeout: float = 2.0  # seconds the page has to answer the server's close before it is cut


class Seat(Protocol):
    """What the gateway needs of a web seat (web/seat.py's WebSeat; docs/web.md)."""

    def from_page(self, text: str, now: float) -> None: ...
    def from_core(self, frame: bytes | dict, now: float) -> None: ...
    def tick(self, now: float) -> None: ...
    def next_tick(self) -> float: ...
    def to_core(self) -> list[bytes]: ...
    def to_page(self) -> list[str]: ...
    def closed(self, now: float) -> None: ...


#: Makes the seat of a new connection: (ident, host, now).
SeatFactory = Callable[[bytes, str, float], Seat]
#: The loop's poller, as the gateway uses it: register(fd, events), unregister(fd).
Poller = Any


def default_seat() -> SeatFactory:
    """The real web seat (web/seat.py)."""
    from .seat import WebSeat

    return WebSeat


def new_ident() -> bytes:
    """A web connection's id: ``b"w"`` and 8 random bytes (the core's ``web_named``)."""
    return WEB_PREFIX + secrets.token_bytes(8)


_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(:[0-9]{1,5})?")


def own_names() -> set[str]:
    """The names this machine answers to besides its addresses: localhost, its host name, name.local, FQDN."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names |= {name.lower(), name.lower().split(".")[0] + ".local"}
    return names


def host_allowed(host_header: str, names: set[str]) -> bool:
    """True for a Host header naming this machine: an IP address, or one of ``names``.

    Any other name is refused: a page of another site whose name was pointed at this machine
    (DNS rebinding) would otherwise have an Origin that equals its Host.
    """
    match = _HOST.fullmatch(host_header)
    if match is None:
        return False
    name = match.group(1).strip("[]").lower()
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name.rstrip(".") in names


def peer_of(address: Any) -> str:
    """The browser's IP address as the TCP socket saw it (a header is never believed)."""
    host = str(address[0]) if address else ""
    return host.removeprefix("::ffff:")  # an IPv4 peer on a dual-stack socket counts as its IPv4 address


class Conn:
    """One TCP connection from a browser: a request for a file, or a page's WebSocket and its seat."""

    __slots__ = ("sock", "fd", "proto", "peer", "since", "out", "eof", "ident", "seat", "bucket", "warned",
                 "ping", "ping_at", "closing_at", "dead", "watching")

    def __init__(self, sock: socket.socket, peer: str, max_frame: int, now: float) -> None:
        self.sock, self.fd, self.peer, self.since = sock, sock.fileno(), peer, now
        self.proto = ServerProtocol(max_size=max_frame)
        self.out = bytearray()  # bytes owed to the browser that its socket has not taken yet
        self.eof = False  # the protocol is done writing: close once ``out`` is sent
        self.ident = b""
        self.seat: Seat | None = None  # a WebSocket's seat, from the handshake on
        self.bucket: Bucket | None = None
        self.warned = -math.inf
        self.ping: bytes | None = None  # the ping awaiting its pong ...
        self.ping_at = math.inf  # ... when it was sent, or when the next is due
        self.closing_at: float | None = None  # when the server asked to close
        self.dead = False
        self.watching = _POLLIN  # the poll events registered for this connection


class Gateway:
    """The web transport, driven by the server's loop. ``start()`` binds (port 0 picks one: ``.port``)."""

    def __init__(self, bind: str = "*", port: int = 0, *, limits: Limits = Limits(), seat: SeatFactory | None = None,
                 static: Traversable | Path | str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """``seat``: the seat class (WebSeat unless given); ``static``: the page's files' folder."""
        self.bind_addr, self.port = ("" if bind in ("*", "0.0.0.0") else bind), port
        self.limits, self.clock = limits, clock
        self.seat_factory = seat  # None: web/seat.py's WebSeat, imported at the first WebSocket
        self.files: dict[str, File] = load(static if static is not None else package_static())
        self.names = own_names()
        self.listener: socket.socket | None = None
        self.conns: dict[int, Conn] = {}  # every open TCP connection, by descriptor
        self.links: dict[bytes, Conn] = {}  # the open WebSockets, by connection id
        self.opened = 0  # WebSockets opened since the start (each got a seat)
        self.per_peer: dict[str, int] = {}  # open WebSockets by machine (the limits count them)
        self._tcp: dict[str, int] = {}  # open TCP connections by machine
        self._events: list[tuple[bytes, bytes | None, str]] = []  # for the core, in order
        self._touched: dict[bytes, Conn] = {}  # seats that may owe the core or the page something
        self._due = math.inf
        self._poller: Poller = None
        self._log = LogBudget(clock)

    # -- start and stop ------------------------------------------------------------------------

    def start(self) -> Gateway:
        """Bind and listen (OSError if the port cannot be bound)."""
        if self.bind_addr:
            family = socket.AF_INET6 if ":" in self.bind_addr else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            where: tuple = (self.bind_addr, self.port)
        else:
            try:  # every address, IPv4 and IPv6 on one socket where the system allows
                sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                where = ("::", self.port)
            except OSError:
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                where = ("0.0.0.0", self.port)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(where)
            sock.listen(128)
            sock.setblocking(False)
        except BaseException:
            sock.close()
            raise
        self.listener = sock
        self.port = int(sock.getsockname()[1])
        log.info("event=web-start port=%d files=%d", self.port, len(self.files))
        return self

    def attach(self, poller: Poller) -> None:
        """Poll the listening socket and every connection with ``poller`` (the loop's)."""
        assert self.listener is not None
        self._poller = poller
        poller.register(self.listener.fileno(), zmq.POLLIN)
        for conn in self.conns.values():
            poller.register(conn.fd, conn.watching)

    def close(self) -> None:
        """Close every connection (a page's WebSocket with 1001, going away) and stop listening."""
        now = self.clock()
        for conn in list(self.conns.values()):
            # (A close half read when Ctrl-C came leaves the protocol open with the page's close in hand.)
            if conn.seat is not None and conn.proto.state is WSState.OPEN and conn.proto.close_rcvd is None:
                conn.proto.send_close(1001, "the server is stopping")
                self._write(conn, now)
            self._kill(conn, now)
        if self.listener is not None:
            if self._poller is not None:
                self._poller.unregister(self.listener.fileno())
            self.listener.close()
            self.listener = None
            log.info("event=web-stop port=%d", self.port)

    # -- what the loop calls ---------------------------------------------------------------------

    def ready(self, events: dict[Any, int], now: float) -> None:
        """Handle what the poll found ready among this gateway's sockets (the other keys are not its own)."""
        listener = self.listener
        for key, flags in events.items():
            if type(key) is not int:
                continue
            if listener is not None and key == listener.fileno():
                self._accept(now)
                continue
            conn = self.conns.get(key)
            if conn is None:
                continue
            if flags & _POLLOUT:
                self._send(conn, now)
            if flags & (_POLLIN | _POLLERR) and not conn.dead:
                self._read(conn, now)

    def take(self) -> list[tuple[bytes, bytes | None, str]]:
        """What the seats owe the core, in order: ``(ident, frame, host)``, and ``(ident, None, host)`` for a page gone."""
        for conn in self._touched.values():
            if conn.seat is not None and not conn.dead:
                try:
                    frames = conn.seat.to_core()
                except Exception:
                    self._failed(conn, "to_core")
                    continue
                self._events.extend((conn.ident, frame, conn.peer) for frame in frames)
        out, self._events = self._events, []
        return out

    def from_core(self, ident: bytes, frame: bytes | dict, now: float) -> None:
        """What the core sent to web connection ``ident``: the message itself from the loop (server/outbox.py
        keeps a web connection's unpacked), or its frame (one whose page has gone: dropped)."""
        conn = self.links.get(ident)
        if conn is None or conn.seat is None:
            return
        self._touched[ident] = conn
        self._call(conn, conn.seat.from_core, frame, now)

    def flush(self, now: float) -> None:
        """Send each touched seat's texts to its page."""
        if not self._touched:
            return
        touched, self._touched = self._touched, {}
        for conn in touched.values():
            seat = conn.seat
            if seat is None or conn.dead:
                continue
            try:
                texts = seat.to_page()
                due = seat.next_tick()
            except Exception:
                self._failed(conn, "to_page")
                continue
            if due < self._due:
                self._due = due
            if conn.proto.state is not WSState.OPEN:
                continue
            for text in texts:
                conn.proto.send_text(text.encode())
            self._write(conn, now)

    def pending(self) -> bool:
        """True while a seat may owe the core or its page something (``take`` and ``flush`` are due)."""
        return bool(self._touched or self._events)

    def deadline(self) -> float:
        """When ``tick`` is next due: a seat's tick, a ping, a timeout."""
        return self._due

    def tick(self, now: float) -> None:
        """Seats' ticks, pings, and the time limits of connections that are opening, quiet or closing."""
        lim = self.limits
        self._due = now + 1.0  # set properly below; a fault on the way must not leave the loop spinning
        due = math.inf
        for conn in list(self.conns.values()):
            if conn.dead:
                continue
            if conn.closing_at is not None:  # the server asked to close: the page has close_timeout to answer
                if now - conn.closing_at >= lim.close_timeout:
                    self._kill(conn, now)
                    continue
                due = min(due, conn.closing_at + lim.close_timeout)
                continue
            seat = conn.seat
            if seat is None:  # a file's request or a handshake, not yet done
                if now - conn.since >= lim.open_timeout:
                    self._log(logging.INFO, "event=web-open-timeout peer=%s", conn.peer)
                    self._kill(conn, now)
                    continue
                due = min(due, conn.since + lim.open_timeout)
                continue
            if conn.ping is not None and now - conn.ping_at >= lim.ping_timeout:
                self._log(logging.INFO, "event=web-ping-timeout conn=%s", conn.ident.hex())
                self._close(conn, 1011, "keepalive ping timeout", now)
                due = min(due, now + lim.close_timeout)
                continue
            if conn.ping is None and now >= conn.ping_at:
                conn.ping = secrets.token_bytes(4)
                conn.ping_at = now
                try:
                    conn.proto.send_ping(conn.ping)
                except InvalidState:
                    pass
                self._write(conn, now)
            due = min(due, conn.ping_at + (lim.ping_timeout if conn.ping is not None else 0.0))
            try:
                if seat.next_tick() <= now:
                    self._touched[conn.ident] = conn
                    seat.tick(now)
                due = min(due, seat.next_tick())
            except Exception:
                self._failed(conn, "tick")
        self._due = due

    # -- connections ----------------------------------------------------------------------------------

    def _accept(self, now: float) -> None:
        assert self.listener is not None
        for _ in range(64):  # a burst of new connections is taken a part at a time; the poll comes back
            try:
                sock, address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # out of descriptors, say: the others are served on
                self._log(logging.WARNING, "event=web-accept-failed error=%s", exc)
                return
            peer = peer_of(address)
            lim = self.limits
            if self._tcp.get(peer, 0) >= lim.per_host + FILES_SPARE or len(self.conns) >= lim.total + FILES_SPARE:
                self._log(logging.WARNING, "event=web-refused why=tcp peer=%s open=%d", peer, self._tcp.get(peer, 0))
                sock.close()
                continue
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = Conn(sock, peer, lim.max_frame, now)
            self.conns[conn.fd] = conn
            self._tcp[peer] = self._tcp.get(peer, 0) + 1
            if self._poller is not None:
                self._poller.register(conn.fd, _POLLIN)
            self._due = min(self._due, now + lim.open_timeout)

    def _read(self, conn: Conn, now: float) -> None:
        try:
            data = conn.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._kill(conn, now)
            return
        proto = conn.proto
        if data:
            proto.receive_data(data)
        else:
            proto.receive_eof()
        for event in proto.events_received():
            if conn.dead:
                return
            if isinstance(event, Request):
                self._handshake(conn, event, now)
            elif isinstance(event, Frame):
                self._frame(conn, event, now)
        self._write(conn, now)
        if not data and not conn.dead and not conn.out:
            self._kill(conn, now)  # the browser closed its side: nothing more will come

    def _frame(self, conn: Conn, frame: Frame, now: float) -> None:
        seat = conn.seat
        if seat is None:
            return
        opcode = frame.opcode
        if opcode is Opcode.PONG:
            if frame.data == conn.ping:
                conn.ping, conn.ping_at = None, now + self.limits.ping_interval
            return
        if opcode is Opcode.BINARY:
            self._close(conn, 1003, "the page sends text frames only", now)
            return
        if opcode is Opcode.CONT or (opcode is Opcode.TEXT and not frame.fin):
            # A browser sends each message in one frame; a message in pieces is not taken.
            self._close(conn, 1003, "the page sends each message in one frame", now)
            return
        if opcode is not Opcode.TEXT or conn.closing_at is not None:
            return  # a ping (the protocol answers it) or a close (the protocol answers it too)
        assert conn.bucket is not None
        if not conn.bucket.take(now):
            self._too_fast(conn, now)
            return
        try:
            text = bytes(frame.data).decode()
        except UnicodeDecodeError:
            self._close(conn, 1007, "a text frame that is not UTF-8", now)
            return
        self._touched[conn.ident] = conn
        self._call(conn, seat.from_page, text, now)

    def _handshake(self, conn: Conn, request: Request, now: float) -> None:
        response = self._request(conn, request)
        if response is None:
            response = conn.proto.accept(request)
            if response.status_code == 101:
                conn.proto.send_response(response)
                self._open(conn, now)
                return
        conn.proto.send_response(response)  # a file, or a refusal: then the connection ends

    def _open(self, conn: Conn, now: float) -> None:
        """The WebSocket is open: its seat is made, and the loop hears of it with its first frame."""
        conn.ident = new_ident()
        try:
            if self.seat_factory is None:
                self.seat_factory = default_seat()
            conn.seat = self.seat_factory(conn.ident, conn.peer, now)
        except Exception:
            log.exception("event=web-seat-failed conn=%s", conn.ident.hex())
            conn.seat = None
            conn.proto.send_close(1011, "the server could not open a seat")
            conn.closing_at = now
            return
        lim = self.limits
        conn.bucket = Bucket(lim.rate, lim.burst, now)
        conn.ping_at = now + lim.ping_interval
        self.links[conn.ident] = conn
        self.per_peer[conn.peer] = self.per_peer.get(conn.peer, 0) + 1
        self.opened += 1
        self._touched[conn.ident] = conn
        self._due = min(self._due, conn.ping_at)
        self._log(logging.INFO, "event=web-connect conn=%s host=%s", conn.ident.hex(), conn.peer)

    def _close(self, conn: Conn, code: int, reason: str, now: float) -> None:
        """Ask the page to close (it has close_timeout to answer before it is cut)."""
        if conn.closing_at is None and conn.proto.state is WSState.OPEN:
            conn.proto.send_close(code, reason)
            conn.closing_at = now
            self._due = min(self._due, now + self.limits.close_timeout)
            self._write(conn, now)

    def _kill(self, conn: Conn, now: float) -> None:
        """The connection is over: its socket closed, its seat told, and the loop (the core keeps the seat)."""
        if conn.dead:
            return
        conn.dead = True
        self.conns.pop(conn.fd, None)
        if self._poller is not None:
            self._poller.unregister(conn.fd)
        try:
            conn.sock.close()
        except OSError:
            pass
        left = self._tcp.get(conn.peer, 1) - 1
        if left > 0:
            self._tcp[conn.peer] = left
        else:
            self._tcp.pop(conn.peer, None)
        if conn.seat is None or self.links.pop(conn.ident, None) is None:
            return
        self._touched.pop(conn.ident, None)
        left = self.per_peer.get(conn.peer, 1) - 1
        if left > 0:
            self.per_peer[conn.peer] = left
        else:
            self.per_peer.pop(conn.peer, None)
        seat = conn.seat
        try:
            seat.closed(now)
            self._events.extend((conn.ident, frame, conn.peer) for frame in seat.to_core())
        except Exception:
            log.exception("event=web-seat-failed conn=%s step=closed", conn.ident.hex())
        self._events.append((conn.ident, None, conn.peer))
        self._log(logging.INFO, "event=web-disconnect conn=%s host=%s code=%s", conn.ident.hex(), conn.peer,
                 conn.proto.close_code)

    def _write(self, conn: Conn, now: float) -> None:
        for data in conn.proto.data_to_send():
            if data:
                conn.out += data
            else:
                conn.eof = True
        self._send(conn, now)

    def _send(self, conn: Conn, now: float) -> None:
        if conn.dead:
            return
        if conn.out:
            try:
                sent = conn.sock.send(conn.out)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                self._kill(conn, now)
                return
            del conn.out[:sent]
            if len(conn.out) > self.limits.send_buffer:
                # A page that does not read is dropped; it comes back to its seat and gets the whole scene.
                self._log(logging.INFO, "event=web-slow-page conn=%s owed=%d", conn.ident.hex(), len(conn.out))
                self._kill(conn, now)
                return
        if not conn.out and conn.eof:  # the protocol is done (a close answered, a failure, an HTTP answer)
            self._kill(conn, now)
            return
        watching = _POLLOUT | _POLLIN if conn.out else _POLLIN
        if watching != conn.watching and self._poller is not None:
            conn.watching = watching
            self._poller.register(conn.fd, watching)  # registering again changes the events polled for

    def _call(self, conn: Conn, step: Callable[..., None], *args: Any) -> None:
        """Run one of the seat's steps; a failure is logged and drops this page only."""
        try:
            step(*args)
        except Exception:
            self._failed(conn, step.__name__)

    def _failed(self, conn: Conn, step: str) -> None:
        log.exception("event=web-seat-failed conn=%s step=%s", conn.ident.hex(), step)
        self._close(conn, 1011, "the server failed on this page's message; it was logged", self.clock())

    def _too_fast(self, conn: Conn, now: float) -> None:
        if now - conn.warned < 1.0:
            return
        conn.warned = now
        text = json.dumps({"notice": {"text": f"more than {self.limits.rate:g} messages a second from this page; "
                                              "some were dropped", "tone": "bad"}})
        conn.proto.send_text(text.encode())
        self._write(conn, now)

    # -- HTTP: the page's files, and the checks before a WebSocket ------------------------------

    def _request(self, conn: Conn, request: Request) -> Response | None:
        """Answer a file, or refuse; None lets a /ws upgrade go on."""
        host = request.headers.get("Host", "")
        try:
            name = name_of(request.path)
        except BadPath as exc:
            return self._plain(400, f"Bad request: {exc}.\n")
        if request.path.split("?", 1)[0] != WS_PATH:
            return self._file(name, host, request.headers.get("If-None-Match"))
        return self._may_open(conn, request, host)

    def _may_open(self, conn: Conn, request: Request, host: str) -> Response | None:
        """The checks before a WebSocket opens, before any seat code runs: Origin, then the limits."""
        origin = request.headers.get_all("Origin")
        peer = conn.peer
        if not host_allowed(host, self.names):
            self._log(logging.WARNING, "event=web-refused why=host host=%r peer=%s", host[:100], peer)
            return self._plain(403, "Forbidden: open the address board99 serve printed.\n")
        if origin != [f"http://{host}"]:
            # A page from anywhere else (or no page at all) cannot drive a seat here.
            self._log(logging.WARNING, "event=web-refused why=origin origin=%r host=%r peer=%s", origin[:1], host[:100], peer)
            return self._plain(403, "Forbidden: the table's own page connects here, no other.\n")
        if self.per_peer.get(peer, 0) >= self.limits.per_host:
            self._log(logging.WARNING, "event=web-refused why=per-host peer=%s open=%d", peer, self.per_peer.get(peer, 0))
            return self._plain(503, f"Too many connections: {self.limits.per_host} are open from this "
                                    "machine already, the most one machine gets.\n")
        if len(self.links) >= self.limits.total:
            self._log(logging.WARNING, "event=web-refused why=full peer=%s", peer)
            return self._plain(503, f"The server serves {self.limits.total} web connections, its limit; "
                                    "try again later.\n")
        return None

    def _file(self, name: str, host: str, etag: str | None) -> Response:
        file = self.files.get(name)
        if file is None:
            return self._plain(404, "Not found.\n")
        headers = self._headers(host)
        headers["ETag"] = file.etag
        if etag is not None and etag == file.etag:
            return Response(304, "Not Modified", headers, b"")
        headers["Content-Type"] = file.type
        headers["Content-Length"] = str(len(file.body))
        return Response(200, "OK", headers, file.body)

    def _plain(self, status: int, text: str) -> Response:
        body = text.encode()
        headers = self._headers("")
        headers["Content-Type"] = "text/plain; charset=utf-8"
        headers["Content-Length"] = str(len(body))
        reasons = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 503: "Service Unavailable"}
        return Response(status, reasons.get(status, "Error"), headers, body)

    def _headers(self, host: str) -> Headers:
        """The headers of every HTTP answer: no caching without a check, no sniffing, no framing, CSP."""
        ws = f" ws://{host}" if _HOST.fullmatch(host) else ""
        return Headers([
            ("Cache-Control", "no-cache"),  # the browser asks again each load (ETag: a 304 when unchanged)
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy",
             "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
             f"media-src 'self'; connect-src 'self'{ws}; object-src 'none'; base-uri 'none'; "
             "form-action 'none'; frame-ancestors 'none'"),
            ("Connection", "close"),
        ])
