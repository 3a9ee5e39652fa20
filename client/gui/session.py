"""The network side of the window: one background thread drives the connection (a GameClient over its core).

A pyzmq socket belongs to one thread and OpenGL to the main thread, so the
views never touch the client: each of ``Session``'s request methods posts a
request to the network thread, and the views take what came back with
``drain()`` once a frame, as the typed records of ``messages.py``. The thread
runs one loop, the client's (``GameClient.poll_typed``): what the server
pushed, and the requests the core reports done, come out of the client core
(client/core.py) as typed records in the order they happened, each push's view
parsed once there. An ``act`` (and a ``hint``) does not stop the loop while it
waits: its reply comes back as the core's ``Completed`` record, in its place
among the pushes.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

from board99 import Action, SeatView, kinds
from board99.client.core import Pending, read_events
from board99.client.net import GameClient
from board99.client.pushes import Completed, Snapshot, TableChange, Update
from board99.client.pushes import Message as CoreMessage
from board99.kinds import GameKind
from board99.match import MatchFormat
from board99.wire.table_info import TableInfo

from .messages import Events, Failed, Message, Pushed, Replied, Resumed, StateChanged

log = logging.getLogger(__name__)
#: The longest the thread sleeps with nothing to do: a request wakes it at once (a pipe), and so
#: does the server, so this only bounds how late a stop is noticed.
POLL_SECONDS = 1.0

#: A request as the network thread runs it: a call on the client, whose result is the reply.
Run = Callable[[GameClient], object]
#: What a sent request's result does on the network thread before the views hear of it (``submit``'s ``then``).
Then = Callable[[Any], Any]


def events_of(push: Any, kind: GameKind | None = None) -> tuple[Any, ...]:
    """The table events a pushed message carries (an ``update``'s list, a new game's deal); none for every other.

    The core's records carry them read already; a plain map (``GameClient.poll()``'s) has them read here by
    ``kind`` (default: the default kind), ValueError naming the event that is not one of its.
    """
    if isinstance(push, Update | TableChange):
        return push.events
    events = push.get("events") if isinstance(push, dict) else None
    return read_events(kind or kinds.get(kinds.DEFAULT), events) if isinstance(events, list) else ()


class KeptSeat(NamedTuple):
    """A seat the player left during a game: the server keeps it (a bot plays) until that game ends."""

    table: str
    seat: int
    token: str
    game: int  # the table's game number when left: a later game means the seat is gone

    def ended(self, table: TableInfo) -> bool:
        """True once ``table`` shows this seat's game over (finished, freed, or a later game)."""
        seat = table.seat_info(self.seat)
        return table.state != "playing" or table.game != self.game or seat is None or not seat.left


class Session:
    """One server connection run by a background thread; the views talk to it through queues."""

    def __init__(self, endpoint: str, *, name: str = "player", server_key: bytes | str | None = None,
                 timeout: float = 5.0, key: str | None = None) -> None:
        self.endpoint = endpoint
        self.name = name
        #: The player key (board99.client.player_key) the client says hello with; None plays as a guest.
        self.key = key
        #: What the server said of this player at its last accepted hello (name, rating, spread, games);
        #: None for a guest or before the hello's reply. Written by the network thread.
        self.player: dict | None = None
        #: The address guests open for the server's web table, as its hello said (None: it serves none).
        self.web: str | None = None
        self._requests: queue.Queue[tuple[str, Run, Then | None, bool]] = queue.Queue()
        self._then: dict[Pending, Then] = {}  # network thread only: a sent request's own step on success
        self._out: queue.Queue[Message] = queue.Queue()
        self._stop = threading.Event()
        #: The last StateChanged posted (a view shown later starts from it).
        self.latest_state: StateChanged | None = None
        #: Seats left during a game, by table id: the lobby offers to take them back (see ``take_back``).
        self._kept: dict[str, KeptSeat] = {}
        self._kept_lock = threading.Lock()  # written by the network thread, read by the views
        self._resumed: Resumed | None = None  # a seat taken back, until the table screen asks (take_resumed)
        self._server_key, self._timeout = server_key, timeout
        # The network thread sleeps in poll() until the server speaks or a byte arrives here
        # (a request, or close()), instead of waking fifty times a second to look: an idle window.
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self._thread = threading.Thread(target=self._run, name=f"board99-net {endpoint}", daemon=True)
        self._thread.start()

    # -- used by the views (main thread) ------------------------------------------------

    def drain(self, limit: int = 200) -> list[Message]:
        """What the network thread has for the views, oldest first (never blocks)."""
        out: list[Message] = []
        while len(out) < limit:
            try:
                out.append(self._out.get_nowait())
            except queue.Empty:
                break
        return out

    def call(self, op: str, run: Run) -> None:
        """Run ``run(client)`` on the network thread; its result comes back as ``Replied(op, result)``."""
        self._requests.put((op, run, None, False))
        self._wake()

    def submit(self, op: str, run: Run, then: Then | None = None) -> None:
        """Send the one request ``run(client)`` makes without stopping the network thread's loop.

        ``run`` calls one of the client's request methods (``GameClient.start``); the reply comes back
        as ``Replied(op, result)`` (or ``Failed``) in its place among the pushes, after ``then(result)``
        (run on the network thread; what it returns is the result the views get) if given.
        """
        self._requests.put((op, run, then, True))
        self._wake()

    def _wake(self) -> None:
        try:
            os.write(self._wake_write, b"!")
        except (BlockingIOError, OSError):  # the pipe is full (the thread will wake anyway) or closed
            pass

    def list_tables(self) -> None:
        """Ask for the server's tables (a list of TableInfo)."""
        self.submit("list_tables", lambda client: client.list_tables())

    def lobby_page(self, offset: int, limit: int) -> None:
        """Ask for one page of the server's tables (a ``LobbyPage``: tables, total, offset)."""
        self.submit("lobby_page", lambda client: client.lobby_page(offset, limit))

    def create_table(self, name: str, players: int, mode: str, clock: float | None, *,
                     match: MatchFormat | None = None, rated: bool = False, bot_pace: str = "quick") -> None:
        """Ask for a new table (a match of ``match`` games, rated or not, its bots at ``bot_pace``)."""
        self.submit("create_table", lambda client: client.create_table(name, players, mode, clock, match=match,
                                                                     rated=rated, bot_pace=bot_pace))

    def take_seat(self, table: str, seat: int, colour: str, name: str | None = None) -> None:
        """Ask to sit at ``seat`` of ``table`` playing ``colour`` (as ``name``, default the connection's)."""
        self.submit("take_seat", lambda client: client.take_seat(table, seat, colour, name=name))

    def add_bot(self, table: str, seat: int, bot: str = "rulebook") -> None:
        """Ask for a bot in an empty seat."""
        self.submit("add_bot", lambda client: client.add_bot(table, seat, bot))

    def spectate(self, table: str) -> None:
        """Ask to watch a table."""
        self.submit("spectate", lambda client: client.spectate(table))

    def act(self, action: Action, ply: int | None = None) -> None:
        """Send a PLAY, DRAW or DISCARD for this client's seat, chosen at ``ply``; its events follow the new state."""
        self.submit("act", lambda client: client.act(action, ply))

    def rematch(self) -> None:
        """Ask for a new game at the same table."""
        self.submit("rematch", lambda client: client.rematch())

    def leave(self) -> None:
        """Give up the seat (or stop watching); a seat left during a game is remembered in ``kept``."""

        held: list[KeptSeat] = []

        def run(client: GameClient) -> object:
            table, seat, token = client.table, client.seat, client.token
            if table is not None and table.state == "playing" and seat is not None and token is not None:
                held.append(KeptSeat(table.id, seat, token, table.game))
            client.leave()
            return None

        def left(result: object) -> object:
            for kept in held:
                # The server holds the seat for us until this game ends (docs/protocol.md, leave).
                with self._kept_lock:
                    self._kept[kept.table] = kept
            return result

        self.submit("leave", run, left)

    def take_back(self, table: str) -> None:
        """Resume the seat left at ``table`` with its token; the reply is ``Replied("resume", TableInfo)``."""
        kept = self.kept().get(table)
        if kept is None:
            self._post(Failed("resume", "not-kept", "no seat of yours is kept at that table"))
            return

        def resumed(info: Any) -> Any:
            with self._kept_lock:
                self._kept.pop(kept.table, None)
                # The lobby takes the reply; the table screen that opens next asks for this.
                self._resumed = Resumed(info)
            return info

        self.submit("resume", lambda client: client.resume(kept.table, kept.seat, kept.token), resumed)

    def take_resumed(self) -> Resumed | None:
        """The seat last taken back from the lobby (``take_back``), once: the table screen welcomes the player back."""
        with self._kept_lock:
            resumed, self._resumed = self._resumed, None
        return resumed

    def forget_ended(self, tables: tuple[TableInfo, ...] | list[TableInfo]) -> None:
        """Drop kept seats whose game is over (the table shows it finished, freed, or a later game)."""
        with self._kept_lock:
            for table in tables:
                kept = self._kept.get(table.id)
                if kept is not None and kept.ended(table):
                    del self._kept[table.id]

    def kept(self) -> dict[str, KeptSeat]:
        """The seats left during a game that the server still keeps for the player, by table id (a copy)."""
        with self._kept_lock:
            return dict(self._kept)

    def close(self, wait: float = 2.0) -> None:
        """Stop the thread and close the client."""
        self._stop.set()
        self._wake()
        self._thread.join(wait)
        if not self._thread.is_alive():
            for fd in (self._wake_read, self._wake_write):
                os.close(fd)

    # -- the network thread ----------------------------------------------------------

    def _post(self, msg: Message) -> None:
        self._out.put(msg)

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_read, 512):
                pass
        except (BlockingIOError, OSError):
            pass

    def _run(self) -> None:
        try:
            client = GameClient(self.endpoint, server_key=self._server_key, name=self.name, timeout=self._timeout,
                                key=self.key)
        except Exception as exc:
            self._post(Failed("connect", "connect", str(exc)))
            return
        try:
            while not self._stop.is_set():
                self._serve_requests(client)
                try:
                    messages = client.poll_typed(POLL_SECONDS, wake=self._wake_read)
                    self._drain_wake()
                except Exception as exc:  # the library handles reconnects; anything else is shown
                    log.warning("poll failed: %s", exc)
                    messages = []
                    self._stop.wait(POLL_SECONDS)
                self.player = client.player
                self.web = client.web
                self._post_messages(messages, client.connected)
                self._post_state(client.view, client.table, client.connected)
        finally:
            try:
                client.close()
            except Exception as exc:
                log.info("close failed: %s", exc)

    def _post_messages(self, messages: list[CoreMessage], connected: bool) -> None:
        table = self.latest_state.table if self.latest_state is not None else None
        for msg in messages:
            if isinstance(msg, Completed):
                self._post_completed(msg, msg.pending)
                continue
            # Each push's own view first, so the views see the table in the order it changed
            # (a game's start, then the events of its first moves). Parsed once, by the core.
            if isinstance(msg, Update | TableChange | Snapshot) and msg.view is not None:
                table = msg.info or table
                self._post_state(msg.view, table, connected)
            events = events_of(msg)
            clock = isinstance(msg, Update) and msg.clock
            self._post(Events(events, clock=clock) if events else Pushed(msg))

    def _post_completed(self, done: Completed, pending: Pending | None) -> None:
        then = self._then.pop(pending, None) if pending is not None else None
        if done.error is None and then is not None:
            try:
                done = done._replace(result=then(done.result))
            except Exception as exc:  # e.g. the record could not be written: said like any failure
                done = done._replace(error=exc)
        if done.error is not None:
            code = getattr(done.error, "code", type(done.error).__name__)
            self._post(Failed(done.op, code, getattr(done.error, "message", str(done.error))))
            return
        # The reply moved the client's copy on: show the board as it left it first, so a log line
        # never describes a position not yet on screen (nor the hint's count before the hint).
        self._post_state(done.view, done.table, done.connected)
        if done.op == "act" and done.result:
            # The server does not push an action back to its actor: the reply carries its events.
            self._post(Events(tuple(done.result)))
        self._post(Replied(done.op, done.result))

    def _post_state(self, view: SeatView | None, table: TableInfo | None, connected: bool) -> None:
        # Views and tables are immutable: the main thread may keep them while the client moves on.
        state = StateChanged(view, table, connected)
        if state != self.latest_state:
            self.latest_state = state
            self._post(state)

    def _serve_requests(self, client: GameClient) -> None:
        while True:
            try:
                op, run, then, sent = self._requests.get_nowait()
            except queue.Empty:
                return
            try:
                if sent:
                    # Its reply comes back through the core, as Completed(op), in order with the pushes.
                    pending = client.start(op, run)
                    if then is not None:
                        self._then[pending] = then
                    continue
                result = run(client)
            except Exception as exc:
                code = getattr(exc, "code", type(exc).__name__)
                message = getattr(exc, "message", str(exc))
                self._post(Failed(op, code, message))
                continue
            self._post(Replied(op, result))


# -- records and history (issue 10): added here as plain functions so the class above stays as it was --


def save_record(session: Session, table: str, game: int, match: bool, stem: str) -> None:
    """Fetch a finished game's record (its match's with ``match``) and write it to a new file in the records folder.

    Both happen on the network thread (the fetch is sent without stopping its loop, the write runs once
    the record came); the reply is ``Replied("save_record", path)`` or ``Failed("save_record", code, message)``.
    """
    from .records import write_new

    session.submit("save_record", lambda client: client.fetch_record(table, game, match=match),
                   lambda text: write_new(text, stem))


def review_record(session: Session, table: str, game: int) -> None:
    """Fetch a finished game's record for its review: ``Replied("review_record", text)`` or ``Failed(...)``."""
    session.submit("review_record", lambda client: client.fetch_record(table, game, match=False))


def history(session: Session) -> None:
    """Ask for the followed table's public history: ``Replied("history", (lines, views))``."""
    session.submit("history", lambda client: client.history())


def ask_hint(session: Session) -> None:
    """Ask the coach for a hint for the player's seat: ``Replied("hint", Advice)`` or ``Failed("hint", ...)``.

    The reply moves the client's table on past the announcement the others get: that state is
    posted first, so the hint's count shows with the hint.
    """
    session.submit("hint", lambda client: client.hint())
