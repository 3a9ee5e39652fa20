"""The server's core, without sockets: messages and the time go in, what to send comes out.

Like the sans-IO protocol libraries (h11, wsproto), the core owns no socket,
thread or clock. The loop (``loop.py``) calls

- ``receive(connection, frames, now)`` for each message that arrived,
- ``tick(now)`` when ``deadline()`` has passed (bot moves, turn clocks, the
  presence sweep),
- ``thought(key, move, now)`` when a slow bot's move comes back from the worker,

and each returns an ``Outbox``: the frames to send, in order, and any slow
bot moves to think about. Tests drive it with a fake clock; the benchmark
times its act path alone. Every accepted change is in the journal before the
outbox that tells of it is returned.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from board99.kinds import Refusal
from board99.wire.protocol import ProtocolError, check_request, decode, request_id

from .finish import finish_game
from .idents import server_named, web_named
from .journal import Journal, SetAside
from .outbox import Outbox, Sink, Thought, packer
from .play import run_timers, settle, thought
from .presence import Conn, Presence
from .ratings import bot_ratings
from .requests import HANDLERS
from .state import Settings, State
from .sweep import housekeeping, lost, sweep
from .tables import Lobby
from .tournaments import Tournament

log = logging.getLogger("board99.server")

#: Seconds between looks for tables nobody will use (sweep.housekeeping).
HOUSEKEEPING_EVERY = 5.0


def _rid_of(frames: list[bytes]) -> int | None:
    # The request's id for a refusal made before the request is read, so the client can match it.
    try:
        return request_id(decode(frames[0])) if len(frames) == 1 else None
    except ProtocolError:
        return None


class Core:
    """One server's tables and connections, driven by ``receive``, ``tick`` and ``thought``."""

    def __init__(self, journal: Journal, settings: Settings, now: float) -> None:
        self.settings = settings
        self.state = State(settings, journal, Lobby(settings.max_tables),
                           Presence(settings.lost_after, settings.rate, settings.burst, settings.max_conns,
                                    (settings.games_per_hour, settings.games_burst), settings.conns_per_host))
        #: Seconds between presence sweeps: a lost connection is noticed within a third of lost_after.
        self.sweep_every = min(0.5, settings.lost_after / 3)
        self._encode = packer()  # this core's encoder: the core runs in one thread
        #: The loop's sink for the outboxes (outbox.py): frames it sends at once; None keeps all in the outbox.
        self.sink: Sink | None = None
        self._next_sweep = now + self.sweep_every
        self._next_housekeeping = now + HOUSEKEEPING_EVERY
        self._restore(now)

    @property
    def set_aside(self) -> list[SetAside]:
        """Tables the journal holds but could not restore (a damaged row) or met damage in while running."""
        return list(self.state.set_aside)

    def knows(self, ident: bytes) -> bool:
        """True if ``ident`` is a connection the core follows already."""
        return ident in self.state.presence.conns

    @property
    def lobby(self) -> Lobby:
        """Every table, by id."""
        return self.state.lobby

    def _restore(self, now: float) -> None:
        state = self.state
        state.now = now
        state.players.max_players = self.settings.max_players
        for player in state.journal.players():
            state.players.adopt(player)
        for data in state.journal.tournaments():
            tournament = Tournament.from_data(data)
            state.tournaments.by_id[tournament.id] = tournament
        tables, aside = state.journal.restore()
        state.set_aside.extend(aside)
        for t in tables:
            state.lobby.add(t)
            for s in t.seats:
                known = state.players.by_id.get(s.player) if s.player is not None else None
                fixed = bot_ratings(t.kind, t.settings).get(s.bot or "")
                s.rating = (known.standing(t.kind.name).skill.shown if known is not None else
                            fixed.shown if fixed is not None else None)
            if t.unfinished:
                t.played_by = [(s.name, s.player) for s in t.seats]
                t.state = "over"
                t.free_vacated()
                finish_game(state, t)
            t.turn_since = now  # a turn clock starts afresh after a restart
            for s in t.people():
                if s.vacated:
                    s.standin = True  # left during the game: a bot plays on, as before the restart
                else:  # nobody is connected after a restart: the grace period runs
                    state.presence.lose(t.id, s.seat, now)
            state.schedule(t)
            log.info("event=table-restored table=%s state=%s game=%d ply=%d seq=%d",
                     t.id, t.state, t.game_no, t.game.ply, t.seq)

    def _begin(self, now: float) -> State:
        state = self.state
        state.now = now
        state.out = Outbox(self._encode, self.sink)
        return state

    # -- inputs ------------------------------------------------------------------------------

    def receive(self, ident: bytes, frames: list[bytes], now: float, host: str = "",
                link: int | None = None, *, web: bool = False) -> Outbox:
        """One message from connection ``ident`` (its frames after the routing id), received at ``now``.

        ``host``: the peer's address, for the limits per machine. ``link``: the TCP link it came
        over (its socket descriptor), when the loop can tell. ``web``: it came from the web gateway
        (its ids are ``web_named``), not the ROUTER.
        """
        state = self._begin(now)
        self._handle(state, ident, frames, now, host, link, web)
        return state.out

    def receive_many(self, messages: Sequence[tuple[bytes, list[bytes], str, int | None]], now: float, *,
                     web: bool = False) -> Outbox:
        """Several messages received together, each ``(connection, frames, host, link)`` as ``receive`` takes them.

        The same as ``receive`` for each in turn, but the actions among them (``act`` at different
        tables) are journaled as one group, in one transaction (``play.settle``): any other request
        first settles the group, so it sees every earlier action carried out. One outbox for all.
        ``web``: every message came from the web gateway (``receive``).
        """
        state = self._begin(now)
        if len(messages) == 1:  # a lone message has no group to join: its action is one statement at once
            ident, frames, host, link = messages[0]
            self._handle(state, ident, frames, now, host, link, web)
            return state.out
        state.grouping = True
        try:
            for ident, frames, host, link in messages:
                self._handle(state, ident, frames, now, host, link, web)
        finally:
            state.grouping = False
            settle(state)
        return state.out

    def _handle(self, state: State, ident: bytes, frames: list[bytes], now: float, host: str,
                link: int | None, web: bool = False) -> None:
        known = state.presence.conns.get(ident)
        if known is not None and link is not None and known.link is not None and known.link != link:
            settle(state)  # the lost connection's tables are read with their held actions carried out
            # The routing id of a connection whose link has closed (libzmq refuses it while the link
            # lives), come over another link: a client chose it. The old connection is lost now, and
            # this one is new: it inherits no seat, table or name.
            state.presence.forget(known)
            lost(state, known, "id-reused")
            known = None
        if web:
            if not web_named(ident):  # the gateway makes every web id; anything else is a bug there
                log.warning("event=bad-identity ident=%s web=true", ident[:16].hex())
                return
        elif not server_named(ident):
            # Identity comes from what a connection proves (its seat token), never from a name it
            # chose: such a connection could claim a departed player's name. It is not served.
            log.warning("event=bad-identity ident=%s", ident[:16].hex())
            state.out.error(ident, _rid_of(frames), "bad-identity", "this connection chose its own ZeroMQ routing id; the "
                                                         "server names connections itself, so leave it unset")
            return
        conn: Conn | None
        if known is not None:  # Presence.heard's answer for a connection it follows, without the call
            conn, why = known, "known"
            known.last_seen = now
        else:
            conn, why = state.presence.heard(ident, now, host)
        if conn is None:
            state.out.error(ident, _rid_of(frames), "server-full", why)
            return
        if why == "new":
            state.presence.bind_link(conn, link)
            log.info("event=connect conn=%s host=%s", conn.label, host)
        if not state.presence.admit(conn, now):
            if now - conn.warned >= 1.0:
                conn.warned = now
                s = self.settings
                log.warning("event=rate-limited conn=%s rate=%g burst=%g", conn.label, s.rate, s.burst)
                state.out.error(ident, None, "rate-limited", f"more than {s.rate:g} messages a second from "
                                                             f"this connection; messages are being dropped")
            return
        if len(frames) != 1:
            log.warning("event=bad-frames conn=%s frames=%d", conn.label, len(frames))
            state.out.error(ident, None, "bad-message", f"a message is one frame, not {len(frames)}")
            return
        rid = None
        try:
            msg = decode(frames[0])
            rid = request_id(msg)
            kind, fields = check_request(msg)
            if kind != "act":
                settle(state)  # every request but an action sees the group's held actions carried out
            conn.rid = rid
            reply = HANDLERS[kind](state, conn, fields)
        except (ProtocolError, Refusal) as exc:
            # A connection's errors are logged a few a second at most: a log is not an amplifier.
            if conn.log_budget.take(now):
                log.info("event=%s conn=%s code=%s message=%r", "refused" if isinstance(exc, Refusal) else "error",
                         conn.label, exc.code, exc.message[:200])
            else:
                conn.unlogged += 1
            state.out.error(ident, rid, exc.code, exc.message)
            return
        except Exception:
            log.exception("event=internal-error conn=%s", conn.label)
            state.out.error(ident, rid, "internal", "the server failed to handle this request; it was logged")
            return
        if reply is not None:
            state.out.reply(ident, rid, reply)


    def link_closed(self, link: int, now: float) -> Outbox:
        """libzmq closed the TCP link ``link``: the connections that spoke over it are lost now, not when silent.

        So the routing id of a departed connection, claimed by a new link, finds nothing bound to it.
        """
        state = self._begin(now)
        for conn in state.presence.over_link(link):
            lost(state, conn, "link-closed")
        return state.out

    def web_closed(self, ident: bytes, now: float) -> Outbox:
        """The web page of connection ``ident`` went away (web/gateway.py): it is lost now, as a closed link's.

        Its seat is kept (the seat token binds it again, from the same page after a reconnect).
        """
        state = self._begin(now)
        conn = state.presence.conns.get(ident) if web_named(ident) else None
        if conn is not None:
            state.presence.forget(conn)
            lost(state, conn, "link-closed")
        return state.out

    def tick(self, now: float) -> Outbox:
        """Run what is due at ``now``: bot moves and turn clocks, and the presence sweep.

        The moves due together are journaled as one group (``play.settle``); a move made due by
        another (a bot answering a bot) comes in the next group, up to ``timers_max`` in all.
        """
        state = self._begin(now)
        budget = self.settings.timers_max
        state.grouping = True
        try:
            timers = state.timers
            while budget > 0:
                done = run_timers(state, budget)
                settle(state)
                due = timers.next_due()
                if not done or due is None or due > now:  # (nothing more due now: no look that finds nothing)
                    break
                budget -= done
        finally:
            state.grouping = False
            settle(state)
        if now >= self._next_sweep:
            self._next_sweep = now + self.sweep_every
            sweep(state)
        if now >= self._next_housekeeping:
            self._next_housekeeping = now + HOUSEKEEPING_EVERY
            housekeeping(state)
        return state.out

    def thought(self, key: Any, move: Thought | Exception, now: float) -> Outbox:
        """A slow bot's answer (or the error it raised) for the request ``key`` of an earlier ``Think``."""
        state = self._begin(now)
        thought(state, key, move)
        return state.out

    def deadline(self) -> float:
        """When ``tick`` next has something to do."""
        due = self.state.timers.next_due()
        soonest = min(self._next_sweep, self._next_housekeeping)
        return soonest if due is None else min(due, soonest)
