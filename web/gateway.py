"""The web transport: a thread serving the page's files and its WebSocket, bridged to the server's loop.

One thread runs an asyncio ``websockets`` server beside the ZeroMQ loop
(``server/loop.py``). A GET of a page file is answered from the installed
package (``files.py``); ``/ws`` is upgraded to a WebSocket only for a page
this server served (the ``Origin`` equals ``http://`` + the ``Host`` asked
for, and that host is this machine's address or name). Each WebSocket gets
one ``WebSeat`` (``seat.py``), a client of the core like the window: what it
sends the core goes over an inproc PAIR to the loop as
``[b"m", ident, host, frame]``, and a page that goes away as
``[b"x", ident]``; the loop sends ``[ident, frame]`` back for the seat.
Limits (docs/web.md): connections per machine and in all, frame size,
messages a second, a bounded send queue per page, pings, a handshake time.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol

import zmq
import zmq.asyncio
from websockets.asyncio.server import Server as WSServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State as WSState

from board99.server.core import WEB_PREFIX
from board99.server.loop import WEB_CLOSED as CLOSED
from board99.server.loop import WEB_HWM as PAIR_HWM
from board99.server.loop import WEB_MESSAGE as MESSAGE
from board99.server.presence import Bucket

from .files import BadPath, File, load, name_of, package_static

log = logging.getLogger("board99.web")

#: The one path that becomes a WebSocket.
WS_PATH = "/ws"
#: Seconds a page's texts wait for the answer to the request its press sent (a person sees no wait this short).
ANSWER_WAIT = 0.05


@dataclass(frozen=True)
class Limits:
    """What one web page may use (docs/web.md, "Limits")."""

    per_host: int = 64  # WebSockets open from one machine (the core's conns_per_host by default)
    total: int = 1000  # ... and in all (the core's max_conns)
    max_frame: int = 16 * 1024  # bytes in one frame from the page; a bigger one closes the connection
    rate: float = 30.0  # frames a second from one page, sustained ...
    burst: float = 60.0  # ... and at once; frames over it are dropped with a notice
    send_queue: int = 64  # texts queued for a page that is not reading before it is dropped
    write_limit: int = 64 * 1024  # bytes the socket buffers for a page before a send waits
    ping_interval: float = 5.0  # seconds between WebSocket pings ...
    ping_timeout: float = 10.0  # ... and how long a pong may take before the connection is dropped
    open_timeout: float = 5.0  # seconds a new connection has to finish its HTTP request or handshake


class Seat(Protocol):
    """What the gateway needs of a web seat (web/seat.py's WebSeat; docs/web.md)."""

    def from_page(self, text: str, now: float) -> None: ...
    def from_core(self, frame: bytes, now: float) -> None: ...
    def tick(self, now: float) -> None: ...
    def next_tick(self) -> float: ...
    def to_core(self) -> list[bytes]: ...
    def to_page(self) -> list[str]: ...
    def closed(self, now: float) -> None: ...


#: Makes the seat of a new connection: (ident, host, now).
SeatFactory = Callable[[bytes, str, float], Seat]


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


def peer_host(connection: ServerConnection) -> str:
    """The browser's IP address as the TCP socket saw it (a header is never believed)."""
    address = connection.remote_address
    host = str(address[0]) if address else ""
    return host.removeprefix("::ffff:")  # an IPv4 peer on a dual-stack socket counts as its IPv4 address


class Link:
    """One open WebSocket: its seat, and the texts waiting to go to the page."""

    __slots__ = ("ws", "seat", "ident", "host", "queue", "bucket", "warned", "dropped", "why", "later")

    def __init__(self, ws: ServerConnection, seat: Seat, ident: bytes, host: str, limits: Limits,
                 now: float) -> None:
        self.ws, self.seat, self.ident, self.host = ws, seat, ident, host
        self.queue: asyncio.Queue[str] = asyncio.Queue(limits.send_queue)
        self.bucket = Bucket(limits.rate, limits.burst, now)
        self.warned = -1e9
        self.dropped = False
        self.why: tuple[int, str] = (1000, "")  # the close code and reason when dropped
        self.later: asyncio.TimerHandle | None = None  # the page's texts, held while its request is answered


class Gateway:
    """The web transport's thread. ``start()`` binds (port 0 picks one: ``.port``), ``stop()`` ends it."""

    def __init__(self, context: zmq.Context, pair: str, bind: str = "*", port: int = 0, *,
                 limits: Limits = Limits(), seat: SeatFactory | None = None,
                 static: Traversable | Path | str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """``pair``: the inproc address of the loop's web PAIR; ``seat``: the seat class (WebSeat)."""
        self.context, self.pair_addr = context, pair
        self.bind_addr, self.port = ("" if bind in ("*", "0.0.0.0") else bind), port
        self.limits, self.clock = limits, clock
        self.seat_factory = seat  # None: web/seat.py's WebSeat, imported at the first connection
        self.files: dict[str, File] = load(static if static is not None else package_static())
        self.names = own_names()
        self.links: dict[bytes, Link] = {}
        self.opened = 0  # WebSockets opened since the start (each got a seat)
        #: Connections past the Origin check, by peer address, until they close (the limits count them).
        self.opening: dict[str, set[ServerConnection]] = {}
        self._thread = threading.Thread(target=self._run, name="board99-web", daemon=True)
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._wake: asyncio.Event | None = None
        self._pair: Any = None

    # -- start and stop ------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> Gateway:
        """Start the thread; return once it listens (OSError if the port cannot be bound)."""
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the web gateway did not start in time")
        if self._error is not None:
            raise self._error
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Close every page's connection and end the thread (safe from any thread)."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:
                pass  # the loop has just ended
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # a bind error before ready: start() raises it
            if not self._ready.is_set():
                self._error = exc
                self._ready.set()
            else:
                log.exception("event=web-gateway-failed")

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping, self._wake = asyncio.Event(), asyncio.Event()
        actx = zmq.asyncio.Context(shadow=self.context)
        pair = self._pair = actx.socket(zmq.PAIR)
        pair.linger = 0
        pair.sndhwm = pair.rcvhwm = PAIR_HWM
        pair.connect(self.pair_addr)
        lim = self.limits
        try:
            server: WSServer = await serve(
                self._handler, self.bind_addr or None, self.port,
                process_request=self._request, max_size=lim.max_frame, max_queue=16,
                write_limit=lim.write_limit, ping_interval=lim.ping_interval, ping_timeout=lim.ping_timeout,
                open_timeout=lim.open_timeout, close_timeout=2.0, compression=None, server_header=None)
        except BaseException:
            pair.close(linger=0)
            raise
        self.port = int(next(iter(server.sockets)).getsockname()[1])
        log.info("event=web-start port=%d files=%d", self.port, len(self.files))
        self._ready.set()
        tasks = [asyncio.create_task(self._from_loop(pair)), asyncio.create_task(self._ticker())]
        try:
            await self._stopping.wait()
        finally:
            server.close()  # closes each page's WebSocket (1001, going away): their handlers tell the loop
            await server.wait_closed()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            pair.close(linger=0)
            log.info("event=web-stop port=%d", self.port)

    # -- HTTP: the page's files, and the checks before a WebSocket ------------------------------

    def _request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer a file, or refuse; None lets a /ws upgrade go on (websockets' process_request)."""
        host = request.headers.get("Host", "")
        try:
            name = name_of(request.path)
        except BadPath as exc:
            return self._plain(400, f"Bad request: {exc}.\n")
        if request.path.split("?", 1)[0] != WS_PATH:
            return self._file(name, host, request.headers.get("If-None-Match"))
        return self._may_open(connection, request, host)

    def _may_open(self, connection: ServerConnection, request: Request, host: str) -> Response | None:
        """The checks before a WebSocket opens, before any seat code runs: Origin, then the limits."""
        origin = request.headers.get_all("Origin")
        peer = peer_host(connection)
        if not host_allowed(host, self.names):
            log.warning("event=web-refused why=host host=%r peer=%s", host[:100], peer)
            return self._plain(403, "Forbidden: open the address board99 serve printed.\n")
        if origin != [f"http://{host}"]:
            # A page from anywhere else (or no page at all) cannot drive a seat here.
            log.warning("event=web-refused why=origin origin=%r host=%r peer=%s", origin[:1], host[:100], peer)
            return self._plain(403, "Forbidden: the table's own page connects here, no other.\n")
        self._prune()
        here = self.opening.setdefault(peer, set())
        if len(here) >= self.limits.per_host:
            log.warning("event=web-refused why=per-host peer=%s open=%d", peer, len(here))
            return self._plain(503, f"Too many connections: {self.limits.per_host} are open from this "
                                    "machine already, the most one machine gets.\n")
        if sum(len(s) for s in self.opening.values()) >= self.limits.total:
            log.warning("event=web-refused why=full peer=%s", peer)
            return self._plain(503, f"The server serves {self.limits.total} web connections, its limit; "
                                    "try again later.\n")
        here.add(connection)
        return None

    def _prune(self) -> None:
        """Forget connections that closed without a handler to do it (a handshake that failed after the checks)."""
        for peer, conns in list(self.opening.items()):
            for conn in [c for c in conns if c.state is WSState.CLOSED]:
                conns.discard(conn)
            if not conns:
                del self.opening[peer]

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

    # -- WebSockets -------------------------------------------------------------------------------

    async def _handler(self, ws: ServerConnection) -> None:
        """One page's WebSocket, from its open to its close: frames to its seat, what the seat owes out."""
        now = self.clock()
        host, ident = peer_host(ws), new_ident()
        try:
            if self.seat_factory is None:
                self.seat_factory = default_seat()
            seat = self.seat_factory(ident, host, now)
        except Exception:
            log.exception("event=web-seat-failed conn=%s", ident.hex())
            await ws.close(1011, "the server could not open a seat")
            return
        link = self.links[ident] = Link(ws, seat, ident, host, self.limits, now)
        self.opened += 1
        log.info("event=web-connect conn=%s host=%s", ident.hex(), host)
        sender = asyncio.create_task(self._sender(link))
        assert self._wake is not None
        self._wake.set()
        try:
            self._flush(link)
            async for message in ws:
                now = self.clock()
                if not isinstance(message, str):
                    await ws.close(1003, "the page sends text frames only")
                    break
                if not link.bucket.take(now):
                    self._too_fast(link, now)
                    continue
                if not self._call(link, seat.from_page, message, now):
                    break
                self._flush(link, hold=True)
            if link.dropped:
                await ws.close(*link.why)
        except ConnectionClosed:
            pass
        finally:
            if link.later is not None:
                link.later.cancel()
            self._gone(link)
            sender.cancel()
            self.opening.get(host, set()).discard(ws)
            if not self.opening.get(host, True):
                del self.opening[host]
            log.info("event=web-disconnect conn=%s host=%s code=%s", ident.hex(), host, ws.close_code)

    def _gone(self, link: Link) -> None:
        """The page went away: its seat hears it, then the loop (the core loses the connection, keeps the seat)."""
        self.links.pop(link.ident, None)
        if self._call(link, link.seat.closed, self.clock()):
            try:
                for frame in link.seat.to_core():
                    self._to_loop([MESSAGE, link.ident, link.host.encode(), frame])
            except Exception:
                log.exception("event=web-seat-failed conn=%s", link.ident.hex())
        self._to_loop([CLOSED, link.ident])

    def _call(self, link: Link, step: Callable[..., None], *args: Any) -> bool:
        """Run one of the seat's steps; a failure is logged and drops this page only."""
        try:
            step(*args)
            return True
        except Exception:
            log.exception("event=web-seat-failed conn=%s step=%s", link.ident.hex(), step.__name__)
            self._drop(link, 1011, "the server failed on this page's message; it was logged")
            return False

    def _too_fast(self, link: Link, now: float) -> None:
        if now - link.warned < 1.0:
            return
        link.warned = now
        text = json.dumps({"notice": {"text": f"more than {self.limits.rate:g} messages a second from this page; "
                                              "some were dropped", "tone": "bad"}})
        self._to_page(link, text)

    def _flush(self, link: Link, hold: bool = False) -> None:
        """Hand on what the seat owes: frames to the loop, texts to the page.

        ``hold``: after a page's press that sent the core a request, its texts wait up to ANSWER_WAIT
        for the answer, and one scene shows both (a scene of the request on its way, built and sent
        just before the answer's, would cost the answer its time: docs/web.md, *Scenes*).
        """
        # The frames go to the loop before the scene is built: the core works on them meanwhile.
        try:
            frames = link.seat.to_core()
        except Exception:
            log.exception("event=web-seat-failed conn=%s step=drain", link.ident.hex())
            self._drop(link, 1011, "the server failed on this page; it was logged")
            return
        for frame in frames:
            self._to_loop([MESSAGE, link.ident, link.host.encode(), frame])
        if frames and hold:
            if link.later is None:
                link.later = asyncio.get_running_loop().call_later(ANSWER_WAIT, self._flush, link)
            return
        if link.later is not None:
            link.later.cancel()
            link.later = None
        try:
            texts = link.seat.to_page()
        except Exception:
            log.exception("event=web-seat-failed conn=%s step=drain", link.ident.hex())
            self._drop(link, 1011, "the server failed on this page; it was logged")
            return
        for text in texts:
            self._to_page(link, text)

    def _to_page(self, link: Link, text: str) -> None:
        if link.dropped:
            return
        try:
            link.queue.put_nowait(text)
        except asyncio.QueueFull:
            # A page that does not read is dropped; it comes back to its seat and gets the whole scene.
            log.info("event=web-slow-page conn=%s queued=%d", link.ident.hex(), link.queue.qsize())
            self._drop(link, 1013, "this page fell behind; reconnect to catch up")

    def _drop(self, link: Link, code: int, reason: str) -> None:
        if not link.dropped:
            link.dropped, link.why = True, (code, reason)
            asyncio.get_running_loop().create_task(link.ws.close(code, reason))

    async def _sender(self, link: Link) -> None:
        try:
            while True:
                text = await link.queue.get()
                await link.ws.send(text)
        except ConnectionClosed:
            pass

    def _to_loop(self, parts: list[bytes]) -> None:
        try:
            self._pair.send_multipart(parts, flags=zmq.NOBLOCK).result()
        except zmq.ZMQError as exc:  # the loop is behind by PAIR_HWM messages: the seat's request times out
            log.warning("event=web-to-loop-dropped conn=%s error=%s", parts[1].hex(), exc)

    # -- from the loop, and the seats' clocks ----------------------------------------------------

    async def _from_loop(self, pair: Any) -> None:
        """Frames the core sent to web connections: each to its seat (one whose page has gone: dropped)."""
        while True:
            parts = await pair.recv_multipart()
            if len(parts) != 2:
                continue
            link = self.links.get(parts[0])
            if link is None:
                continue
            if self._call(link, link.seat.from_core, parts[1], self.clock()):
                self._flush(link)
                # Let the page's sender go before the next frame's scene is built (a reply's scene is
                # otherwise held back behind the scene of the bot's move that came right after it).
                await asyncio.sleep(0)

    async def _ticker(self) -> None:
        """Each seat's tick when it is due (heartbeats to the core, request timeouts, clocks)."""
        wake = self._wake
        assert wake is not None
        while True:
            now = self.clock()
            soonest = now + 1.0
            for link in list(self.links.values()):
                try:
                    due = link.seat.next_tick()
                except Exception:
                    log.exception("event=web-seat-failed conn=%s step=next_tick", link.ident.hex())
                    self._drop(link, 1011, "the server failed on this page; it was logged")
                    continue
                if due <= now and not link.dropped:
                    if self._call(link, link.seat.tick, now):
                        self._flush(link)
                        due = link.seat.next_tick()
                soonest = min(soonest, due)
            wake.clear()
            try:
                await asyncio.wait_for(wake.wait(), max(0.01, min(1.0, soonest - self.clock())))
            except TimeoutError:
                pass
