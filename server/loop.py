"""The thin loop around the core: one thread owns the ROUTER socket, the poller and the real clock.

Everything the server decides happens in the core (``core.py``); this loop
only moves bytes and time into it and what it returns out to the sockets:
each message that arrives, each due tick, each slow bot's move from the
worker (``thinker.py``). One socket per purpose, one thread owns each
(ZeroMQ Guide): the ROUTER and the wake-up pair belong to this loop.
There is no PUB socket: every push is addressed to one connection, with
that connection's view only. With the web table on, the poller also polls
the web gateway's listening socket and browser connections (web/gateway.py):
its seats' messages join the core like the ROUTER's, for connections whose
ids the gateway made, and the core's frames for those ids go back to the
seats, in this same thread.
"""

from __future__ import annotations

import ctypes
import dataclasses
import logging
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import zmq
import zmq.backend
from zmq.utils.monitor import parse_monitor_message

from board99.wire.curve import KeyPair, serve_curve
from board99.wire.protocol import DEFAULT_PORT, MAX_MESSAGE_SIZE, PROTOCOL_VERSION, encode

from .collector import Collector
from .core import Core
from .journal import Journal
from .outbox import Outbox
from .state import Settings
from .tables import Lobby
from .thinker import Thinker

log = logging.getLogger("board99.server")

DRAIN_MAX = 2000  # messages handled per loop round before the thinker's answers get a turn
DRAIN_BATCH = 100  # messages handled between two looks at the core's due ticks
#: Messages handed to the core at once (Core.receive_many): their actions share one journal commit and
#: their replies leave after it. Small: a group's first reply waits for the whole group (16 kept one
#: table's act p50 at 100 tables flat out where one message at a time had it; 100 doubled it).
GROUP_MAX = 16
SEND_HWM = 500  # messages queued for one connection before libzmq drops the rest (it resyncs)
HANDSHAKE = 5.0  # seconds a new link has to complete its ZMTP handshake before libzmq closes it
LINK_LOG_MAX = 10  # link-dropped lines logged per second
#: Rounds of seats' frames to the core and its answers back in one turn of the loop (a seat's answer
#: may ask again at once: a snapshot after a gap); the rest waits for the next turn.
WEB_ROUNDS = 8
# pyzmq's constants are enums, and an enum's `|` runs in Python (about a microsecond): the hot path
# uses their plain values, or-ed once here.
_NOBLOCK = int(zmq.NOBLOCK)
_MORE_NOBLOCK = int(zmq.SNDMORE) | _NOBLOCK
_SRCFD = int(zmq.SRCFD)
_EVENTS, _POLLIN = int(zmq.EVENTS), int(zmq.POLLIN)
#: The compiled socket's send, under pyzmq's Python ``Socket.send`` (which only adds the routing_id
#: and group options of draft sockets, unused here): a few microseconds less per message.
_raw_send = zmq.backend.Socket.send


class Server:
    """The board99 game server. Create, ``bind()``, then ``serve_forever()`` in the thread that owns it."""

    def __init__(
        self,
        bind: str = "*",
        port: int = DEFAULT_PORT,
        data_dir: str | Path | None = None,
        *,
        name: str = "board99",
        curve: KeyPair | None = None,
        beacon: bool | dict = False,
        bot_delay: float = 0.0,
        heartbeat: float = 1.0,
        lost_after: float = 3.0,
        rate: float | None = 200.0,
        burst: float = 400.0,
        fsync: bool = False,
        max_tables: int = 5000,
        context: zmq.Context | None = None,
        clock: Callable[[], float] = time.monotonic,
        handshake: float = HANDSHAKE,
        web_port: int | None = None,
        web_seat: Callable[[bytes, str, float], Any] | None = None,
        web_static: Any = None,
        web_port_exact: bool = True,
        web_limits: Any = None,
        **limits: Any,
    ) -> None:
        """``limits``: further ``state.Settings`` fields (max_conns, tables_per_conn, empty_after, archive_after).

        ``web_port``: serve the web table there too (0: a free port; None: no web table), with
        ``web_seat`` as the seat class (web/seat.py's WebSeat unless given) and the page's files from
        ``web_static`` (the installed package's unless given). ``web_port_exact`` False: a free port
        when ``web_port`` is taken (the port chosen is ``web_port`` once bound). ``web_limits``: the
        gateway's ``Limits`` (default: its own, with this server's connection limits per machine and in all).
        """
        self.bind_addr, self.port = bind, port
        self.web_port = web_port
        self._web_seat, self._web_static, self._web_exact = web_seat, web_static, web_port_exact
        self._web_limits = web_limits
        self.gateway: Any = None
        self.curve = curve
        self.beacon_opts = beacon
        self.clock = clock
        self.ctx = context or zmq.Context.instance()
        self.journal = Journal(data_dir, fsync=fsync)
        # The epoch changes at every start, so clients can tell a restart.
        self.handshake = handshake
        self.settings = Settings(name=name, epoch=secrets.token_hex(8), curve=curve is not None,
                                 heartbeat=heartbeat, lost_after=lost_after, rate=rate, burst=burst,
                                 bot_delay=bot_delay, max_tables=max_tables, **limits)
        try:
            self.core = Core(self.journal, self.settings, clock())
        except BaseException:
            self.journal.close()
            raise
        self._stop = False
        self._link_window, self._links_logged, self._links_unlogged = 0.0, 0, 0
        self._beacon: Any = None
        self.router: zmq.Socket | None = None
        self.endpoint = ""

    @property
    def name(self) -> str:
        """The name announced on the LAN and given in `hello`."""
        return self.settings.name

    @property
    def lobby(self) -> Lobby:
        """The core's tables (read them only once the loop has stopped)."""
        return self.core.lobby

    # -- start and stop ------------------------------------------------------------

    def bind(self) -> str:
        """Create and bind the sockets (in the thread that will serve); return the endpoint clients use."""
        unpredictable_routing_ids()
        more_descriptors()
        router = self.ctx.socket(zmq.ROUTER)
        router.linger = 0
        router.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_SIZE)
        # What the server queues for one connection that does not read is bounded: beyond SEND_HWM
        # messages libzmq drops them (the client resyncs with a snapshot).
        router.setsockopt(zmq.SNDHWM, SEND_HWM)
        # ZMTP heartbeats: libzmq closes a link whose peer stops answering, and a link that has not
        # finished its handshake in time, so silent connections do not hold descriptors for ever.
        router.setsockopt(zmq.HEARTBEAT_IVL, int(self.settings.heartbeat * 1000))
        router.setsockopt(zmq.HEARTBEAT_TIMEOUT, int(self.settings.lost_after * 1000))
        router.setsockopt(zmq.HANDSHAKE_IVL, int(self.handshake * 1000))
        if self.curve is not None:
            serve_curve(router, self.curve)
        where = f"tcp://{self.bind_addr}:{self.port if self.port else '*'}"
        router.bind(where)
        last = router.getsockopt_string(zmq.LAST_ENDPOINT)
        self.port = int(last.rsplit(":", 1)[1])
        host = "127.0.0.1" if self.bind_addr in ("*", "0.0.0.0") else self.bind_addr
        self.endpoint = f"tcp://{host}:{self.port}"
        self.router = router
        # A person's reply leaves the moment the core makes it, before the rest of the step.
        self.core.sink = self._send_now
        # libzmq drops a link by itself (an oversized message, a failed handshake): log each one.
        self._monitor = router.get_monitor_socket(
            zmq.EVENT_DISCONNECTED | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_HANDSHAKE_FAILED_AUTH)
        self._wake = self.ctx.socket(zmq.PAIR)
        self._wake_addr = f"inproc://board99-wake-{id(self)}-{self.settings.epoch}"
        self._wake.bind(self._wake_addr)
        self.thinker = Thinker(self.ctx, f"{id(self)}-{self.settings.epoch}")
        if self.beacon_opts:
            self._start_beacon()
        if self.web_port is not None:
            try:
                self._start_web()
            except BaseException:
                self._close_sockets()
                raise
        log.info("event=server-start endpoint=%s bind=%s protocol=%d curve=%s data=%s tables=%d",
                 self.endpoint, where, PROTOCOL_VERSION, self.curve is not None,
                 self.journal.path, len(self.lobby.tables))
        return self.endpoint

    def _start_web(self) -> None:
        from board99.web.gateway import Gateway, Limits

        limits = self._web_limits or Limits(per_host=self.settings.conns_per_host, total=self.settings.max_conns)
        ports = [self.web_port or 0] + ([0] if self.web_port and not self._web_exact else [])
        for n, port in enumerate(ports):
            try:
                self.gateway = Gateway(self.bind_addr, port, limits=limits, seat=self._web_seat,
                                       static=self._web_static, clock=self.clock).start()
                break
            except OSError as exc:
                if n + 1 == len(ports):
                    raise
                log.warning("event=web-port-taken port=%d error=%s", port, exc)
        self.web_port = self.gateway.port
        from board99.web.address import web_address

        # The hello reply says where guests go, so a window connected here can show it (and its QR code).
        self.settings = dataclasses.replace(self.settings, web=web_address(self.web_port, self.bind_addr))
        self.core.settings = self.core.state.settings = self.settings

    def _start_beacon(self) -> None:
        from .beacon import Beacon

        opts = self.beacon_opts if isinstance(self.beacon_opts, dict) else {}
        key = self.curve.public.decode() if self.curve is not None else None
        self._beacon = Beacon(self.name, self.port, key, **opts).start()

    def stop(self) -> None:
        """Ask the loop to end (safe from any thread)."""
        self._stop = True
        sock = self.ctx.socket(zmq.PAIR)
        sock.linger = 0
        try:
            sock.connect(self._wake_addr)
            sock.send(b"stop", zmq.NOBLOCK)
        except (zmq.ZMQError, AttributeError):
            pass  # the loop sees the flag within one poll timeout anyway
        finally:
            sock.close()

    def close(self) -> None:
        """Release sockets, the beacon and the journal (the loop has ended)."""
        self._close_sockets()
        self.journal.close()
        log.info("event=server-stop endpoint=%s", self.endpoint)

    def _close_sockets(self) -> None:
        self.core.sink = None  # nothing to send through now (and no server <-> core cycle left behind)
        if self.gateway is not None:
            self.gateway.close()
            self.gateway = None
        if self._beacon is not None:
            self._beacon.stop()
            self._beacon = None
        if self.router is not None:
            try:
                self.router.disable_monitor()
            except zmq.ZMQError:
                pass
            self._monitor.close(linger=0)
            self.router.close(linger=0)
            self._wake.close(linger=0)
            self.thinker.close()
            self.router = None

    # -- the loop ----------------------------------------------------------------------

    def serve_forever(self, *, collect: bool = False) -> None:
        """Run the poller loop until ``stop()`` (or KeyboardInterrupt).

        ``collect``: the process is the server's own (`board99 serve`): the loop runs Python's cycle
        collector itself, while nothing waits (server/collector.py). A server in a thread of another
        program (the window's practice table, tests) leaves the program's collector as it is.
        """
        if self.router is None:
            self.bind()
        router, core, clock = self.router, self.core, self.clock
        assert router is not None
        poller = zmq.Poller()
        poller.register(router, zmq.POLLIN)
        poller.register(self._wake, zmq.POLLIN)
        poller.register(self.thinker.wake, zmq.POLLIN)
        poller.register(self._monitor, zmq.POLLIN)
        web = self.gateway
        if web is not None:
            web.attach(poller)  # the web table's listening socket and, as they come, each browser's
        collector = Collector()
        if collect:
            collector.start(clock())  # the loop collects cycles itself, between messages
        try:
            while not self._stop:
                ready = None
                if collect and collector.due(clock()):
                    ready = dict(poller.poll(0))
                    if not ready or collector.overdue():
                        collector.collect(clock())  # nothing waits (or far too much was made): now, not mid-act
                if not ready:
                    wait = min(core.deadline() - clock(), 1.0)
                    if web is not None:
                        wait = min(wait, web.deadline() - clock())
                    ready = dict(poller.poll(max(0, int(wait * 1000) + (wait > 0))))
                if self._wake in ready or self._stop:
                    break
                if self._monitor in ready:
                    # Before the messages: a closed link's connection is lost before a new link
                    # that claims its routing id is heard (Core.link_closed).
                    self._log_links()
                if router in ready:
                    self._drain(router, core)
                if web is not None:
                    self._web_step(web.ready, ready)
                if self.thinker.wake in ready or self.thinker.pending():
                    for key, move in self.thinker.answers():
                        self._deliver_step(core.thought, key, move)
                if clock() >= core.deadline():
                    self._deliver_step(core.tick)
                if web is not None:
                    if clock() >= web.deadline():
                        self._web_step(web.tick)
                    if web.pending():
                        self._web_step(self._web_turn, web)
        except KeyboardInterrupt:
            pass
        finally:
            collector.stop()

    def _drain(self, router: zmq.Socket, core: Core) -> None:
        """Hand the messages waiting on the ROUTER to the core, with its due ticks between batches."""
        clock = self.clock
        # Messages in batches, with the core's due ticks between them: timers (bot
        # moves, turn clocks) run on time whatever the queue holds.
        # Up to GROUP_MAX at once go to the core: their actions at different tables share
        # one journal commit (Core.receive_many), and their replies leave after it.
        for _ in range(DRAIN_MAX // DRAIN_BATCH):
            got = 0
            while got < DRAIN_BATCH:
                group: list[tuple[bytes, list[bytes], str, int | None]] = []
                while len(group) < GROUP_MAX:
                    try:
                        message = self._receive(router)
                    except zmq.Again:
                        break
                    if not core.knows(message[0]) and self._links_pending():
                        # A new connection, and links closed while this batch was read: one of
                        # them may be the descriptor this link reuses. Its closing goes first.
                        if group:
                            self._deliver_step(core.receive_many, group)
                            got, group = got + len(group), []
                        self._log_links()
                    group.append(message)
                    # A lone message goes to the core at once: asking whether more wait (about 9,500
                    # instructions) costs far less than the failed read whose zmq.Again would say so
                    # (about 27,500), before its reply can leave.
                    if len(group) == 1 and not router.getsockopt(_EVENTS) & _POLLIN:  # type: ignore[operator]
                        break
                if group:
                    self._deliver_step(core.receive_many, group)
                got += len(group)
                if len(group) < GROUP_MAX:
                    break
            if clock() >= core.deadline():
                self._deliver_step(core.tick)
            if got < DRAIN_BATCH:
                break

    def _links_pending(self) -> bool:
        """True if libzmq has reported links closed that the loop has not handed to the core yet."""
        # libzmq reports a closed link before it closes the descriptor, and accepts a new link on that
        # descriptor only after: a new connection's first message can be read in the middle of a batch
        # while the old link's closing waits on the monitor socket. Handed over late, that closing
        # would lose the new connection (Core.link_closed goes by descriptor).
        return bool(self._monitor.get(zmq.EVENTS) & zmq.POLLIN)

    def _receive(self, router: zmq.Socket) -> tuple[bytes, list[bytes], str, int | None]:
        """One message: its routing id, its frames, for a connection the core does not know yet its
        address, and the TCP link (socket descriptor) it came over."""
        # Uncopied frames: the first body frame tells the peer's address and link, and each frame's
        # own `more` flag is cheaper than recv_multipart's getsockopt(RCVMORE) per frame.
        frame = router.recv(_NOBLOCK, copy=False)
        ident = frame.bytes
        if not frame.more:
            return ident, [], "", None
        frame = router.recv(_NOBLOCK, copy=False)
        host = ""
        if not self.core.knows(ident):
            # The peer's address (for the limits per machine) comes with the message's own frame.
            host = str(frame.get("Peer-Address") or "")
        # Which link a routing id speaks over: one that moves to another link was chosen by a client.
        link = _link_of(frame)
        frames = [frame.bytes]
        while frame.more:  # a message of more frames is refused by the core, read whole all the same
            frame = router.recv(_NOBLOCK, copy=False)
            frames.append(frame.bytes)
        return ident, frames, host, link

    def _web_step(self, step: Callable[..., None], *args: Any) -> None:
        """One of the web gateway's steps, with the time now (the seat's own faults drop only its page)."""
        # A bug in the transport must not end the loop (the ZeroMQ clients' tables would stop with it).
        try:
            step(*args, self.clock())
        except Exception:
            log.exception("event=internal-error step=web-%s", getattr(step, "__name__", step))

    def _web_turn(self, web: Any, now: float) -> None:
        """The web seats' frames to the core, its answers back to them, then each touched seat's page."""
        core = self.core
        for _ in range(WEB_ROUNDS):
            events = web.take()
            if not events:
                break
            group: list[tuple[bytes, list[bytes], str, int | None]] = []
            for ident, frame, host in events:
                if frame is not None:
                    group.append((ident, [frame], host, None))
                    if len(group) < GROUP_MAX:
                        continue
                if group:  # what the page sent before it went comes first
                    self._deliver_step(core.receive_many, group, web=True)
                    group = []
                if frame is None:
                    self._deliver_step(core.web_closed, ident)
            if group:
                self._deliver_step(core.receive_many, group, web=True)
        web.flush(self.clock())  # not ``now``: the core's work took time

    def _deliver_step(self, step: Callable[..., Outbox], *args: Any, **kwargs: Any) -> None:
        """Call the core with ``args`` and the time now, and deliver what it returns."""
        # A bug in one step must not end the loop (every table would stop): log it and go on.
        try:
            out = step(*args, self.clock(), **kwargs)
        except Exception:
            log.exception("event=internal-error step=%s", getattr(step, "__name__", step))
            return
        self._deliver(out)

    def _send_now(self, ident: bytes, frame: bytes) -> bool:
        """The core's sink (outbox.py): a ZeroMQ connection's frame sent at once (a web link's never comes here)."""
        router = self.router
        assert router is not None
        try:
            # Two sends, not send_multipart: it type-checks each part and or-s enum flags in Python.
            # The ROUTER drops (or refuses) a message at its first part, so no part is sent alone.
            _raw_send(router, ident, _MORE_NOBLOCK)
            _raw_send(router, frame, _NOBLOCK)
        except zmq.ZMQError as exc:  # the peer is gone or its queue is full: it will resync
            log.debug("event=send-dropped conn=%s error=%s", ident.hex(), exc)
        return True

    def _deliver(self, out: Outbox) -> None:
        """What the core's step left in its outbox: web links' messages to their seats, frames sent, thinking handed off."""
        for ident, frame in out.sends:
            if not isinstance(frame, bytes):  # a web connection's message itself (outbox.py): to its seat
                web = self.gateway
                if web is not None and ident in web.links:
                    web.from_core(ident, frame, self.clock())
                    continue
                frame = encode(frame)  # a web-shaped id from the ROUTER (the core refused it): packed for it
            self._send_now(ident, frame)
        for think in out.thinks:
            self.thinker.submit(think.key, think.bot, think.view)

    def _log_links(self) -> None:
        # At most LINK_LOG_MAX lines a second: a storm of dropped links must not become a storm of log.
        now = self.clock()
        if now - self._link_window >= 1.0:
            if self._links_unlogged:
                log.info("event=links-dropped-unlogged count=%d", self._links_unlogged)
            self._link_window, self._links_logged, self._links_unlogged = now, 0, 0
        names: dict[int, str] = {zmq.EVENT_DISCONNECTED: "disconnected", zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL: "handshake-protocol",
                 zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL: "handshake-failed",
                 zmq.EVENT_HANDSHAKE_FAILED_AUTH: "handshake-auth"}
        for _ in range(DRAIN_MAX):
            try:
                event = parse_monitor_message(self._monitor.recv_multipart(zmq.NOBLOCK))
            except zmq.Again:
                return
            if int(event["event"]) == zmq.EVENT_DISCONNECTED:
                self._deliver_step(self.core.link_closed, int(event["value"]))
            if self._links_logged >= LINK_LOG_MAX:
                self._links_unlogged += 1
                continue
            self._links_logged += 1
            raw = event["endpoint"]
            endpoint = raw.decode(errors="replace") if isinstance(raw, bytes) else str(raw)
            log.info("event=link-dropped endpoint=%s reason=%s", endpoint,
                     names.get(int(event["event"]), str(event["event"])))


def _link_of(frame: zmq.Frame) -> int | None:
    """The socket descriptor of the TCP link a message came over (libzmq's ZMQ_SRCFD), or None."""
    try:
        return int(frame.get(_SRCFD))
    except (AttributeError, zmq.ZMQError, TypeError, ValueError):  # pragma: no cover - a libzmq without it
        return None


def unpredictable_routing_ids() -> None:
    """Seed the C library's rand() from a secure source, before a ROUTER socket is made.

    libzmq names each connection that sets no routing id ``\\x00`` plus a counter that starts
    at ``rand()``; unseeded, that is 0x6B8B4567 in every process. A client that set its own id
    to the next one, followed by any ordinary connection, made libzmq abort the whole server (an
    assertion on the duplicate). With a secret start the next id cannot be guessed, and the core
    refuses ids that are not libzmq's own form (``Core.receive``).
    """
    try:
        libc = ctypes.CDLL(None)
        libc.srand(ctypes.c_uint(secrets.randbits(32)))
    except (OSError, AttributeError):  # pragma: no cover - no C library to seed (not on Linux or macOS)
        log.warning("event=routing-ids-predictable reason=no-srand")


def more_descriptors() -> None:
    """Raise the open-file limit to what the system allows: each connection holds one descriptor."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = max(soft, 65536) if hard == resource.RLIM_INFINITY else hard
        if target > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError) as exc:  # pragma: no cover - not POSIX, or not allowed
        log.info("event=descriptors-kept reason=%r", exc)


class ServerThread:
    """A server running in a background thread (tests, `board99 play`): ``.endpoint``, ``.stop()``."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="board99-server", daemon=True)

    def _run(self) -> None:
        try:
            self.server.bind()
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            self.server.journal.close()
            return
        self._ready.set()
        try:
            self.server.serve_forever()
        finally:
            self.server.close()

    def start(self, timeout: float = 10.0) -> ServerThread:
        """Start the thread and wait until the socket is bound."""
        self.thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the server thread did not bind in time")
        if self._error is not None:
            raise self._error
        return self

    @property
    def endpoint(self) -> str:
        """Where clients connect: tcp://host:port."""
        return self.server.endpoint

    @property
    def port(self) -> int:
        """The TCP port the server is bound to."""
        return self.server.port

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the loop and wait for the thread to finish."""
        self.server.stop()
        self.thread.join(timeout)

    def __enter__(self) -> ServerThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def run_in_thread(port: int = 0, data_dir: str | Path | None = None, *, bind: str = "127.0.0.1",
                  **options: Any) -> ServerThread:
    """Start a server in a background thread; ``options`` are Server's keywords. Returns the running handle."""
    return ServerThread(Server(bind, port, data_dir, **options)).start()
