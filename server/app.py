"""The server: one thread owns a ROUTER socket and a poller loop that drains every ready message.

Requests come in over ROUTER/DEALER; each connection is known by the
identity the ROUTER gives it. Per-seat pushes go to that seat's identity
only, with that seat's view: there is no PUB socket, so no channel carries
anything a given reader may not see. Server-side bots, turn clocks,
presence (heartbeats) and grace-period takeovers all run from the same loop
on timers, so nothing spins and nothing needs a lock.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zmq

from board99 import Action, Refused, from_data, seen_by, to_data
from board99.wire.protocol import (
    CHANGES,
    DEFAULT_PORT,
    MAX_MESSAGE_SIZE,
    PROTOCOL_VERSION,
    ProtocolError,
    check_request,
    decode,
    encode,
    request_id,
)

from .journal import Journal, finished_record
from .tables import Lobby, Table
from .thinker import Thinker

log = logging.getLogger("board99.server")

#: Defaults; every one can be changed per server (see Server).
HEARTBEAT = 1.0  # seconds between a client's pings when it has nothing else to send
LOST_AFTER = 3.0  # seconds of silence after which a connection counts as lost
RATE = 1000.0  # messages per second a connection may send, sustained
BURST = 2000.0  # ... and in one burst
BOT_DELAY = 0.0  # seconds a server-side bot waits before acting (the GUI's `play` sets a pause)
DRAIN_MAX = 2000  # messages handled per loop round before timers get a turn
TIMERS_MAX = 500  # bot moves and clock expiries per loop round before the sockets get a turn
#: Bots that think for a while (the search bot's budget): they run on a worker thread, not in the loop.
SLOW_BOTS = frozenset({"search"})


@dataclass
class Conn:
    """What the server knows of one connection (one DEALER socket on the other side)."""

    ident: bytes
    last_seen: float
    tokens: float
    stamp: float
    name: str = "player"
    table: str | None = None
    seat: int | None = None  # None with a table: spectating
    warned: float = 0.0  # when the last rate-limit error went out
    rid: int | None = None  # the id of the request being handled
    label: str = field(init=False)

    def __post_init__(self) -> None:
        self.label = self.ident.hex()


class Server:
    """The board99 game server. Create, ``bind()``, then ``serve_forever()`` in the thread that owns it."""

    def __init__(
        self,
        bind: str = "*",
        port: int = DEFAULT_PORT,
        data_dir: str | Path | None = None,
        *,
        name: str = "board99",
        curve: Any = None,
        beacon: bool | dict = False,
        bot_delay: float = BOT_DELAY,
        heartbeat: float = HEARTBEAT,
        lost_after: float = LOST_AFTER,
        rate: float | None = RATE,
        burst: float = BURST,
        fsync: bool = False,
        max_tables: int = 5000,
        context: zmq.Context | None = None,
    ) -> None:
        self.bind_addr, self.port, self.name = bind, port, name
        self.data_dir = data_dir
        self.curve = curve  # board99.wire.curve.KeyPair or None
        self.beacon_opts = beacon
        self.bot_delay, self.heartbeat, self.lost_after = bot_delay, heartbeat, lost_after
        self.rate, self.burst = rate, burst
        self.epoch = secrets.token_hex(8)  # changes at every start: clients see a restart
        self.ctx = context or zmq.Context.instance()
        self.journal = Journal(data_dir, fsync=fsync)
        self.lobby = Lobby(max_tables)
        self.conns: dict[bytes, Conn] = {}
        self.timers: list[tuple[float, int, str, str, int, int]] = []
        self._tick = itertools.count()
        self._lost: set[tuple[str, int]] = set()  # seats whose person is away
        self._stop = False
        self._beacon = None
        self.router: zmq.Socket | None = None
        self.endpoint = ""
        self.handlers: dict[str, Callable[[Conn, dict], dict | None]] = {
            "hello": self._hello, "ping": self._ping, "list_tables": self._list_tables,
            "create_table": self._create_table, "take_seat": self._take_seat, "add_bot": self._add_bot,
            "spectate": self._spectate, "resume": self._resume, "leave": self._leave,
            "rematch": self._rematch, "snapshot": self._snapshot, "act": self._act,
            "fetch_record": self._fetch_record,
        }
        self._restore()

    # -- start and stop ------------------------------------------------------------

    def _restore(self) -> None:
        now = time.monotonic()
        for t in self.journal.restore():
            self.lobby.tables[t.id] = t
            for s in t.seats:
                if s.occupant == "human":  # nobody is connected after a restart: the grace period runs
                    s.lost_at = now
                    self._lost.add((t.id, s.seat))
            self._schedule(t)
            log.info("event=table-restored table=%s state=%s game=%d ply=%d seq=%d",
                     t.id, t.state, t.game_no, t.game.ply, t.seq)

    def bind(self) -> str:
        """Create and bind the sockets (in the thread that will serve); return the endpoint clients use."""
        router = self.ctx.socket(zmq.ROUTER)
        router.linger = 0
        router.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_SIZE)
        if self.curve is not None:
            from board99.wire.curve import serve_curve

            serve_curve(router, self.curve)
        where = f"tcp://{self.bind_addr}:{self.port if self.port else '*'}"
        router.bind(where)
        last = router.getsockopt_string(zmq.LAST_ENDPOINT)
        self.port = int(last.rsplit(":", 1)[1])
        host = "127.0.0.1" if self.bind_addr in ("*", "0.0.0.0") else self.bind_addr
        self.endpoint = f"tcp://{host}:{self.port}"
        self.router = router
        # libzmq drops a link by itself (an oversized message, a failed handshake): log each one.
        self._monitor = router.get_monitor_socket(
            zmq.EVENT_DISCONNECTED | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_HANDSHAKE_FAILED_AUTH)
        self._wake = self.ctx.socket(zmq.PAIR)
        self._wake_addr = f"inproc://board99-wake-{id(self)}-{self.epoch}"
        self._wake.bind(self._wake_addr)
        self.thinker = Thinker(self.ctx, f"{id(self)}-{self.epoch}")
        if self.beacon_opts:
            self._start_beacon()
        log.info("event=server-start endpoint=%s bind=%s protocol=%d curve=%s data=%s tables=%d",
                 self.endpoint, where, PROTOCOL_VERSION, self.curve is not None,
                 self.journal.path, len(self.lobby.tables))
        return self.endpoint

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
        if self._beacon is not None:
            self._beacon.stop()
        if self.router is not None:
            try:
                self.router.disable_monitor()
            except zmq.ZMQError:
                pass
            self._monitor.close(linger=0)
            self.router.close(linger=0)
            self._wake.close(linger=0)
            self.thinker.close()
        self.journal.close()
        log.info("event=server-stop endpoint=%s", self.endpoint)

    # -- the loop ----------------------------------------------------------------------

    def serve_forever(self) -> None:
        """Run the poller loop until ``stop()`` (or KeyboardInterrupt)."""
        if self.router is None:
            self.bind()
        router = self.router
        poller = zmq.Poller()
        poller.register(router, zmq.POLLIN)
        poller.register(self._wake, zmq.POLLIN)
        poller.register(self.thinker.wake, zmq.POLLIN)
        poller.register(self._monitor, zmq.POLLIN)
        sweep_every = min(0.5, self.lost_after / 3)
        next_sweep = time.monotonic() + sweep_every
        try:
            while not self._stop:
                now = time.monotonic()
                wait = min(next_sweep - now, 1.0)
                if self.timers:
                    wait = min(wait, self.timers[0][0] - now)
                ready = dict(poller.poll(max(0, int(wait * 1000) + (wait > 0))))
                if self._wake in ready or self._stop:
                    break
                if router in ready:
                    for _ in range(DRAIN_MAX):
                        try:
                            frames = router.recv_multipart(zmq.NOBLOCK)
                        except zmq.Again:
                            break
                        self._guarded(self._on_frames, frames)
                if self._monitor in ready:
                    self._guarded(self._log_links)
                if self.thinker.wake in ready or self.thinker.pending():
                    self._guarded(self._take_thoughts)
                self._guarded(self._run_timers)
                now = time.monotonic()
                if now >= next_sweep:
                    self._guarded(self._sweep, now)
                    next_sweep = now + sweep_every
        except KeyboardInterrupt:
            pass

    @staticmethod
    def _guarded(step: Callable[..., None], *args: Any) -> None:
        # A bug in one step must not end the loop (every table would stop): log it and go on.
        try:
            step(*args)
        except Exception:
            log.exception("event=internal-error step=%s", getattr(step, "__name__", step))

    def _log_links(self) -> None:
        from zmq.utils.monitor import parse_monitor_message

        names = {zmq.EVENT_DISCONNECTED: "disconnected", zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL: "handshake-protocol",
                 zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL: "handshake-failed",
                 zmq.EVENT_HANDSHAKE_FAILED_AUTH: "handshake-auth"}
        for _ in range(DRAIN_MAX):
            try:
                event = parse_monitor_message(self._monitor.recv_multipart(zmq.NOBLOCK))
            except zmq.Again:
                return
            endpoint = event["endpoint"].decode(errors="replace") if isinstance(event["endpoint"], bytes) \
                else event["endpoint"]
            log.info("event=link-dropped endpoint=%s reason=%s", endpoint,
                     names.get(event["event"], str(event["event"])))

    # -- sending ---------------------------------------------------------------------------

    def _send(self, ident: bytes, msg: dict) -> None:
        try:
            self.router.send_multipart([ident, encode(msg)], zmq.NOBLOCK)
        except zmq.ZMQError as exc:  # the peer is gone or its queue is full: it will resync
            log.debug("event=send-dropped conn=%s error=%s", ident.hex(), exc)

    def _error(self, ident: bytes, rid: int | None, code: str, message: str) -> None:
        self._send(ident, {"type": "error", "id": rid, "code": code, "message": message})

    def _push(self, t: Table, kind: str, extra: dict, exclude: bytes | None = None,
              per_seat: Callable[[int | None], dict] | None = None) -> None:
        """Send one push to every follower of ``t``, each with their own view (the Clone pattern's update)."""
        spectator_frame = None
        for ident, seat in t.members():
            if ident == exclude:
                continue
            if seat is None and spectator_frame is not None:
                self._send_frame(ident, spectator_frame)
                continue
            msg = {"type": kind, "table": t.id, "seq": t.seq, **extra, "view": t.game.view(seat).to_data()}
            if per_seat is not None:
                msg.update(per_seat(seat))
            frame = encode(msg)
            if seat is None:
                spectator_frame = frame
            self._send_frame(ident, frame)

    def _send_frame(self, ident: bytes, frame: bytes) -> None:
        try:
            self.router.send_multipart([ident, frame], zmq.NOBLOCK)
        except zmq.ZMQError as exc:
            log.debug("event=send-dropped conn=%s error=%s", ident.hex(), exc)

    def _changed(self, t: Table, change: str, exclude: bytes | None = None, save: bool = True) -> None:
        """The table's seats or state changed: next seq, journal it, tell every follower."""
        assert change in CHANGES, change
        t.seq += 1
        if save:
            self.journal.save_table(t)
        self._push(t, "table", {"change": change, "info": t.describe()}, exclude=exclude)
        self._schedule(t)

    # -- one inbound message -----------------------------------------------------------------

    def _on_frames(self, frames: list[bytes]) -> None:
        ident = frames[0]
        now = time.monotonic()
        conn = self.conns.get(ident)
        if conn is None:
            conn = self.conns[ident] = Conn(ident, now, self.burst, now)
            log.info("event=connect conn=%s", conn.label)
        conn.last_seen = now
        if self.rate is not None:
            conn.tokens = min(self.burst, conn.tokens + (now - conn.stamp) * self.rate)
            conn.stamp = now
            if conn.tokens < 1:
                if now - conn.warned >= 1.0:
                    conn.warned = now
                    log.warning("event=rate-limited conn=%s rate=%g burst=%g", conn.label, self.rate, self.burst)
                    self._error(ident, None, "rate-limited",
                                f"more than {self.rate:g} messages a second from this connection; "
                                f"messages are being dropped")
                return
            conn.tokens -= 1
        if len(frames) != 2:
            log.warning("event=bad-frames conn=%s frames=%d", conn.label, len(frames) - 1)
            self._error(ident, None, "bad-message", f"a message is one frame, not {len(frames) - 1}")
            return
        rid = None
        try:
            msg = decode(frames[1])
            rid = request_id(msg)
            kind, fields = check_request(msg)
            conn.rid = rid
            reply = self.handlers[kind](conn, fields)
        except ProtocolError as exc:
            log.info("event=error conn=%s code=%s message=%r", conn.label, exc.code, exc.message)
            self._error(ident, rid, exc.code, exc.message)
            return
        except Refused as exc:
            log.info("event=refused conn=%s code=%s message=%r", conn.label, exc.code, exc.message)
            self._error(ident, rid, exc.code, exc.message)
            return
        except Exception:
            log.exception("event=internal-error conn=%s", conn.label)
            self._error(ident, rid, "internal", "the server failed to handle this request; it was logged")
            return
        if reply is not None:
            self._send(ident, {"type": "reply", "id": rid, **reply})

    # -- handlers: each returns the reply's fields (None: it replied itself) or raises ---------------

    def _hello(self, conn: Conn, f: dict) -> dict:
        if f["version"] != PROTOCOL_VERSION:
            raise ProtocolError("bad-version", f"version: this server speaks protocol {PROTOCOL_VERSION}, "
                                               f"not {f['version']}")
        conn.name = f.get("name") or conn.name
        log.info("event=hello conn=%s name=%r", conn.label, conn.name)
        return {"version": PROTOCOL_VERSION, "server": self.name, "epoch": self.epoch,
                "heartbeat": self.heartbeat, "lost_after": self.lost_after, "curve": self.curve is not None}

    def _ping(self, conn: Conn, f: dict) -> dict:
        t = self.lobby.tables.get(conn.table) if conn.table else None
        return {"epoch": self.epoch, "table": conn.table, "seat": conn.seat, "seq": None if t is None else t.seq}

    def _list_tables(self, conn: Conn, f: dict) -> dict:
        return {"tables": [t.describe() for t in self.lobby.tables.values()]}

    def _create_table(self, conn: Conn, f: dict) -> dict:
        t = self.lobby.create(f["name"], f["players"], f.get("mode", "guarded"), f.get("clock"), f.get("grace"))
        try:
            self.journal.save_table(t, created=True)
        except BaseException:
            del self.lobby.tables[t.id]
            raise
        log.info("event=table-created table=%s conn=%s name=%r players=%d mode=%s clock=%s grace=%g",
                 t.id, conn.label, t.name, t.players, t.mode, t.clock, t.grace)
        return {"table": t.describe()}

    def _unfollow(self, conn: Conn) -> None:
        if conn.table is not None and conn.seat is None:
            t = self.lobby.tables.get(conn.table)
            if t is not None:
                t.spectators.discard(conn.ident)
            conn.table = None

    def _take_seat(self, conn: Conn, f: dict) -> dict:
        if conn.seat is not None:
            raise ProtocolError("already-seated", f"this connection holds S{conn.seat} at table {conn.table}; "
                                                  f"leave it first")
        t = self.lobby.get(f["table"])
        token = t.take(f["seat"], f.get("colour"), f.get("name") or conn.name, conn.ident)
        self._unfollow(conn)
        conn.table, conn.seat = t.id, f["seat"]
        started = t.start_if_full()
        log.info("event=seat-taken table=%s seat=%d conn=%s name=%r", t.id, conn.seat, conn.label, conn.name)
        self._changed(t, "started" if started else "seat-taken", exclude=conn.ident)
        if started:
            log.info("event=table-started table=%s game=%d", t.id, t.game_no)
        return {"token": token, **self._snapshot_of(t, conn.seat)}

    def _snapshot_of(self, t: Table, seat: int | None) -> dict:
        return {"table": t.describe(), "seat": seat, "seq": t.seq, "view": t.game.view(seat).to_data()}

    def _add_bot(self, conn: Conn, f: dict) -> dict:
        t = self.lobby.get(f["table"])
        t.add_bot(f["seat"], f.get("bot", "rulebook"))
        started = t.start_if_full()
        log.info("event=bot-seated table=%s seat=%d bot=%s conn=%s", t.id, f["seat"], t.seats[f["seat"]].bot,
                 conn.label)
        self._changed(t, "started" if started else "bot-seated")
        if started:
            log.info("event=table-started table=%s game=%d", t.id, t.game_no)
        if t.start_rematch_if_ready():  # the bot filled the last seat everyone's rematch waited for
            log.info("event=rematch table=%s game=%d", t.id, t.game_no)
            self._changed(t, "rematch")
        return {"table": t.describe()}

    def _spectate(self, conn: Conn, f: dict) -> dict:
        if conn.seat is not None:
            raise ProtocolError("already-seated", f"this connection holds S{conn.seat} at table {conn.table}; "
                                                  f"leave it first")
        t = self.lobby.get(f["table"])
        self._unfollow(conn)
        t.spectators.add(conn.ident)
        conn.table = t.id
        log.info("event=spectate table=%s conn=%s", t.id, conn.label)
        return self._snapshot_of(t, None)

    def _resume(self, conn: Conn, f: dict) -> dict:
        t = self.lobby.get(f["table"])
        seat = f["seat"]
        if conn.seat is not None and (conn.table, conn.seat) != (t.id, seat):
            raise ProtocolError("already-seated", f"this connection holds S{conn.seat} at table {conn.table}; "
                                                  f"leave it first")
        old = t.seat(seat).conn
        t.resume(seat, f["token"], conn.ident)
        if old is not None and old != conn.ident and old in self.conns:
            gone = self.conns[old]
            gone.table = gone.seat = None  # the seat followed its token to this connection
        self._unfollow(conn)
        conn.table, conn.seat = t.id, seat
        self._lost.discard((t.id, seat))
        log.info("event=resume table=%s seat=%d conn=%s", t.id, seat, conn.label)
        self._changed(t, "presence", exclude=conn.ident, save=False)
        return self._snapshot_of(t, seat)

    def _own_seat(self, conn: Conn, f: dict) -> None:
        """A seated connection's request about its seat must carry that seat's token."""
        if conn.seat is not None and conn.table is not None:
            t = self.lobby.get(conn.table)
            if "token" not in f:
                raise ProtocolError("bad-token", f"token: missing; requests for S{conn.seat} at table {t.id} "
                                                 f"carry the seat's token")
            t.check_token(conn.seat, f["token"])

    def _leave(self, conn: Conn, f: dict) -> dict:
        if conn.table is None:
            return {}
        self._own_seat(conn, f)
        t = self.lobby.tables.get(conn.table)
        if conn.seat is None:
            self._unfollow(conn)
            return {}
        seat, conn.table, conn.seat = conn.seat, None, None
        if t is not None:
            t.leave(t.seats[seat])
            self._lost.discard((t.id, seat))
            log.info("event=seat-left table=%s seat=%d conn=%s state=%s", t.id, seat, conn.label, t.state)
            self._changed(t, "seat-left")
        return {}

    def _seated(self, conn: Conn) -> Table:
        if conn.table is None or conn.seat is None:
            raise ProtocolError("not-seated", "this connection holds no seat; take one or resume with its token")
        return self.lobby.get(conn.table)

    def _rematch(self, conn: Conn, f: dict) -> dict:
        t = self._seated(conn)
        self._own_seat(conn, f)
        started = t.vote_rematch(conn.seat)
        if started:
            log.info("event=rematch table=%s game=%d", t.id, t.game_no)
        self._changed(t, "rematch" if started else "rematch-vote", exclude=conn.ident)
        return self._snapshot_of(t, conn.seat)

    def _snapshot(self, conn: Conn, f: dict) -> dict:
        if conn.table is None:
            raise ProtocolError("not-seated", "this connection follows no table; take a seat or spectate first")
        self._own_seat(conn, f)
        t = self.lobby.get(conn.table)
        return self._snapshot_of(t, conn.seat)

    def _act(self, conn: Conn, f: dict) -> None:
        t = self.lobby.get(f["table"])
        seat = f["seat"]
        t.check_token(seat, f["token"])
        if conn.table != t.id or conn.seat != seat:
            raise ProtocolError("not-your-seat", f"this connection does not hold S{seat} at table {t.id}; "
                                                 f"resume with the seat's token first")
        try:
            action = from_data(f["action"])
        except ValueError as exc:
            raise ProtocolError("bad-field", str(exc)) from None
        ply = f.get("ply")
        if ply is not None and ply != t.game.ply and t.state == "playing":
            # Chosen on a position that has since changed (a push still on its way, the clock, a bot).
            raise ProtocolError("stale", f"ply: the game is at action {t.game.ply}, not {ply}; "
                                         f"the table moved on, so look again")
        def reply_now(events: list) -> None:
            self._send(conn.ident, act_reply(t, seat, events, conn.rid))

        self._apply(t, seat, action, exclude=conn.ident, first=reply_now)
        return None  # already replied

    def _fetch_record(self, conn: Conn, f: dict) -> dict:
        t = self.lobby.get(f["table"])
        game = f.get("game")
        text = self.journal.record(t.id, game)
        if text is None:
            if game is None or game == t.game_no:
                raise ProtocolError("not-over", f"table {t.id}: no game has finished yet; a record is kept "
                                                f"secret (its seed too) until its game ends")
            raise ProtocolError("no-record", f"game: table {t.id} has no finished game {game}")
        return {"record": text}

    # -- play ------------------------------------------------------------------------------------

    def _apply(self, t: Table, seat: int, action: Action, exclude: bytes | None = None,
               first: Callable[[list], None] | None = None) -> list:
        """Apply an action through the engine, journal it, then tell the table (Refused propagates).

        ``first`` is called with the events once they are journaled, before the pushes: the
        actor's reply goes out first, so its round trip does not wait for the table's pushes.
        """
        events = t.apply(seat, action)
        t.seq += 1
        finished = finished_record(t) if t.state == "over" else None
        try:
            self.journal.save_action(t, seat, action, finished)
        except Exception:
            # The engine moved on but the journal did not: rebuild the table from the journal so
            # that nobody is ever told of an action that a restart would not have.
            log.exception("event=journal-error table=%s", t.id)
            self._reload(t)
            raise ProtocolError("internal", "the action could not be saved, so it did not happen") from None
        if first is not None:
            first(events)
        for e in events:
            if e.kind == "penalty":
                log.info("event=penalty table=%s seat=%d offence=%s card=%d rule=%r",
                         t.id, e.seat, e.offence, e.card, e.rule)
        extra = {"by": seat, "action": to_data(action), "state": t.state, "turn_left": t.turn_left()}
        if t.state == "over":
            # The game's end travels with the winning action (the seats may have changed: vacated
            # seats are freed), so the actor's reply and everyone's push stay one seq each.
            extra["info"] = t.describe()
            log.info("event=game-over table=%s game=%d winner=%s plies=%d deals=%d",
                     t.id, t.game_no, t.game.winner, t.game.ply, t.game.deal)
        self._push(t, "update", extra, exclude=exclude,
                   per_seat=lambda s: {"events": [seen_by(e, s) for e in events]})
        self._schedule(t)
        return events

    def _reload(self, t: Table) -> None:
        try:
            tables = self.journal.restore()
        except Exception:
            # The journal cannot even be read: the table in memory is ahead of it, so nobody may
            # use it any more; a restart brings it back as the journal has it.
            log.exception("event=table-withdrawn table=%s", t.id)
            del self.lobby.tables[t.id]
            return
        for restored in tables:
            if restored.id == t.id:
                members = t.members()
                self.lobby.tables[t.id] = restored
                for ident, seat in members:
                    if seat is None:
                        restored.spectators.add(ident)
                    else:
                        restored.seats[seat].conn = ident
                self._schedule(restored)

    # -- timers: bots, turn clocks ---------------------------------------------------------------

    def _schedule(self, t: Table) -> None:
        """Set the next timer for the table: its bot's move, or the turn clock."""
        if t.state != "playing":
            return
        g = t.game
        if t.bot_turn() is not None:
            due = time.monotonic() + self.bot_delay
            heapq.heappush(self.timers, (due, next(self._tick), "bot", t.id, t.game_no, g.ply))
        elif t.clock is not None:
            heapq.heappush(self.timers, (t.turn_since + t.clock, next(self._tick), "clock", t.id, t.game_no, g.ply))

    def _run_timers(self) -> None:
        timers = self.timers
        for _ in range(TIMERS_MAX):
            if not timers or timers[0][0] > time.monotonic():
                return
            _, _, kind, table_id, game_no, ply = heapq.heappop(timers)
            t = self.lobby.tables.get(table_id)
            if t is None or t.state != "playing" or t.game_no != game_no or t.game.ply != ply:
                continue  # stale: the table moved on
            seat = t.game.turn
            if kind == "bot":
                if t.bot_turn() is None:
                    continue
                if (t.seats[seat].bot or "") in SLOW_BOTS and not t.seats[seat].standin:
                    self._think(t, seat)
                    continue
                try:
                    action = t.bot_for(seat).choose(t.game.view(seat))
                except Exception:
                    log.exception("event=bot-error table=%s seat=%d", t.id, seat)
                    action = t.clock_action()
            else:
                if t.turn_since + t.clock > time.monotonic():
                    self._schedule(t)
                    continue
                action = t.clock_action()
                log.info("event=clock-expired table=%s seat=%d action=%r", t.id, seat, action.text())
            try:
                self._apply(t, seat, action)
            except (Refused, ProtocolError) as exc:
                log.error("event=bot-refused table=%s seat=%d action=%r code=%s", t.id, seat, action.text(),
                          getattr(exc, "code", "?"))
                self._apply(t, seat, t.clock_action())

    def _think(self, t: Table, seat: int) -> None:
        """Hand a slow bot's move to the worker thread; the loop applies it when it comes back."""
        self.thinker.submit((t.id, t.game_no, t.game.ply, seat), t.bot_for(seat), t.game.view(seat))

    def _take_thoughts(self) -> None:
        for (table_id, game_no, ply, seat), result in self.thinker.answers():
            t = self.lobby.tables.get(table_id)
            if t is None or (t.game_no, t.game.ply) != (game_no, ply) or t.bot_turn() != seat:
                continue  # the table moved on while the bot thought
            if isinstance(result, Exception):
                log.error("event=bot-error table=%s seat=%d error=%r", t.id, seat, result)
                result = t.clock_action()
            try:
                self._apply(t, seat, result)
            except (Refused, ProtocolError) as exc:
                log.error("event=bot-refused table=%s seat=%d action=%r code=%s", t.id, seat, result.text(),
                          getattr(exc, "code", "?"))
                self._apply(t, seat, t.clock_action())

    # -- presence ---------------------------------------------------------------------------------

    def _sweep(self, now: float) -> None:
        """Drop lost connections (their seats are held for the token), hand long-lost seats to a bot."""
        for conn in list(self.conns.values()):
            if now - conn.last_seen <= self.lost_after:
                continue
            # A lost connection keeps nothing: its routing id could be claimed by another socket once
            # the link is gone, so only `resume` with the seat token binds the seat again.
            del self.conns[conn.ident]
            log.info("event=conn-lost conn=%s table=%s seat=%s", conn.label, conn.table, conn.seat)
            t = self.lobby.tables.get(conn.table) if conn.table else None
            if t is None:
                continue
            if conn.seat is None:
                t.spectators.discard(conn.ident)
            elif t.seats[conn.seat].conn == conn.ident:
                s = t.seats[conn.seat]
                s.conn, s.lost_at = None, now
                self._lost.add((t.id, conn.seat))
                self._changed(t, "presence", save=False)
        for table_id, seat in list(self._lost):
            t = self.lobby.tables.get(table_id)
            if t is None:
                self._lost.discard((table_id, seat))
                continue
            s = t.seats[seat]
            if s.occupant != "human" or s.lost_at is None:
                self._lost.discard((table_id, seat))
            elif not s.standin and t.state == "playing" and now - s.lost_at >= t.grace:
                s.standin = True
                log.info("event=takeover table=%s seat=%d after=%.1fs", t.id, seat, now - s.lost_at)
                self._changed(t, "takeover", save=False)
            elif t.state != "playing" and now - s.lost_at >= t.grace:
                # Before or after a game nobody waits for ever: the seat is freed for someone else.
                self._lost.discard((table_id, seat))
                t.leave(s)
                log.info("event=seat-freed table=%s seat=%d state=%s", t.id, seat, t.state)
                self._changed(t, "seat-left")


def act_reply(t: Table, seat: int, events: list, rid: int | None) -> dict:
    """The reply to an accepted ``act``: the actor's view of its events and of the table after them."""
    reply = {"type": "reply", "id": rid, "events": [seen_by(e, seat) for e in events],
             "seq": t.seq, "view": t.game.view(seat).to_data(), "state": t.state, "turn_left": t.turn_left()}
    if t.state == "over":
        reply["table"] = t.describe()
    return reply


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


def _lan_address() -> str | None:
    """This machine's address on its LAN (the one its default route uses), or None."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 9))  # UDP connect sends nothing; it only picks a route
            return probe.getsockname()[0]
        except OSError:
            return None


def default_data_dir() -> Path:
    """Where `board99 serve` keeps its journal and keys unless --data says otherwise."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("board99")) / "server"


def serve(bind: str = "*", port: int = DEFAULT_PORT, data_dir: str | Path | None = None, *,
          curve: bool = False, name: str | None = None, beacon: bool = True, bot_delay: float = 0.6,
          fsync: bool = False) -> int:
    """Run a server in the foreground (`board99 serve`) until Ctrl-C or SIGTERM."""
    import signal
    import socket

    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    keys = None
    if curve:
        from .keys import load_or_create

        keys = load_or_create(folder)
    server = Server(bind, port, folder, name=name or socket.gethostname(), curve=keys, beacon=beacon,
                    bot_delay=bot_delay, fsync=fsync)
    try:
        server.bind()
    except zmq.ZMQError as exc:
        server.journal.close()
        raise OSError(f"--bind {bind} --port {port}: {exc}") from None
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    shown = f"tcp://{bind}:{server.port}"
    print(f"board99 server {server.name!r} listening on {shown} (protocol {PROTOCOL_VERSION}), "
          f"data in {folder}, {len(server.lobby.tables)} table(s) restored", flush=True)
    lan = _lan_address() if bind in ("*", "0.0.0.0") else None
    if lan is not None:
        print(f"players on the LAN: board99 join (finds it by discovery) or board99 join {lan}:{server.port}", flush=True)
    if keys is not None:
        # The --key=KEY form: a Z85 key may start with '-', which a separate argument cannot.
        public = keys.public.decode()
        print(f"CurveZMQ on; server public key: {public}\n"
              f"  clients give it as: board99 join HOST --key={public}", flush=True)
    try:
        server.serve_forever()
    finally:
        server.close()
    return 0
