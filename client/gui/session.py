"""The network side of the window: one background thread owns the GameClient.

A pyzmq socket belongs to one thread and OpenGL to the main thread, so the
views never touch the client: they post requests (``request`` and the named
helpers) and take what came back with ``drain`` once a frame. Every message
to the views is a dict with a ``type``:

- ``state``: ``view``, ``table``, ``connected`` — the client's latest copy, sent when it changes
- ``events``: ``events`` — what happened at the table, as board99.seen_by dicts
- ``reply``: ``op``, ``result`` — a request that succeeded
- ``error``: ``op``, ``code``, ``message`` — a request the server (or the client library) refused
- ``push``: ``push`` — any other message the server pushed (presence, table changes)
"""

from __future__ import annotations

import copy
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from board99 import Action

log = logging.getLogger(__name__)
POLL_SECONDS = 0.02  # how long the thread waits for pushes between looks at the request queue


def events_of(push: dict) -> list[dict]:
    """The table events inside one pushed message (none for presence and table changes)."""
    if "kind" in push:
        return [push]
    if isinstance(push.get("events"), list):
        return [e for e in push["events"] if isinstance(e, dict)]
    if isinstance(push.get("event"), dict):
        return [push["event"]]
    return []


class Session:
    """One server connection run by a background thread; the views talk to it through queues."""

    def __init__(self, endpoint: str, *, name: str = "player", server_key: bytes | str | None = None,
                 timeout: float = 5.0, client_factory: Callable[..., Any] | None = None) -> None:
        self.endpoint = endpoint
        self.name = name
        self._requests: queue.Queue[tuple[str, tuple, dict]] = queue.Queue()
        self._out: queue.Queue[dict] = queue.Queue()
        self._stop = threading.Event()
        self._factory = client_factory
        #: The last 'state' message posted (a view shown later starts from it).
        self.latest_state: dict | None = None
        self._client_args = {"server_key": server_key, "name": name, "timeout": timeout}
        self._thread = threading.Thread(target=self._run, name=f"board99-net {endpoint}", daemon=True)
        self._thread.start()

    # -- used by the views (main thread) ------------------------------------------------

    def request(self, op: str, *args: Any, **kwargs: Any) -> None:
        """Ask the network thread to call ``GameClient.<op>(*args, **kwargs)``; the answer comes via drain()."""
        self._requests.put((op, args, kwargs))

    def drain(self, limit: int = 200) -> list[dict]:
        """What the network thread has for the views, oldest first (never blocks)."""
        out = []
        while len(out) < limit:
            try:
                out.append(self._out.get_nowait())
            except queue.Empty:
                break
        return out

    def call(self, op: str, fn: Callable[[Any], Any]) -> None:
        """Run ``fn(client)`` on the network thread (several requests in a row); replies as ``op``."""
        self._requests.put((op, (fn,), {"__call__": True}))

    def list_tables(self) -> None:
        """Ask for the server's tables."""
        self.request("list_tables")

    def create_table(self, name: str, players: int, mode: str, clock: float | None) -> None:
        """Ask for a new table."""
        self.request("create_table", name, players, mode, clock)

    def take_seat(self, table: str, seat: int, colour: str, name: str | None = None) -> None:
        """Ask to sit at ``seat`` of ``table`` playing ``colour`` (as ``name``, default the connection's)."""
        if name is None:
            self.request("take_seat", table, seat, colour)
        else:
            self.request("take_seat", table, seat, colour, name=name)

    def add_bot(self, table: str, seat: int, bot: str = "rulebook") -> None:
        """Ask for a bot in an empty seat."""
        self.request("add_bot", table, seat, bot)

    def spectate(self, table: str) -> None:
        """Ask to watch a table."""
        self.request("spectate", table)

    def act(self, action: Action) -> None:
        """Send a PLAY, DRAW or DISCARD for this client's seat."""
        self.request("act", action)

    def rematch(self) -> None:
        """Ask for a new game at the same table."""
        self.request("rematch")

    def leave(self) -> None:
        """Give up the seat (or stop watching)."""
        self.request("leave")

    def close(self, wait: float = 2.0) -> None:
        """Stop the thread and close the client."""
        self._stop.set()
        self._thread.join(wait)

    @property
    def alive(self) -> bool:
        """True while the network thread runs."""
        return self._thread.is_alive()

    # -- the network thread ----------------------------------------------------------

    def _post(self, msg: dict) -> None:
        self._out.put(msg)

    def _make_client(self) -> Any:
        if self._factory is not None:
            return self._factory(self.endpoint, **self._client_args)
        from board99.client.net import GameClient

        return GameClient(self.endpoint, **self._client_args)

    def _run(self) -> None:
        try:
            client = self._make_client()
        except Exception as exc:
            self._post({"type": "error", "op": "connect", "code": "connect", "message": str(exc)})
            return
        self._last_state: tuple = (None, None, None)
        try:
            while not self._stop.is_set():
                self._serve_requests(client)
                try:
                    pushes = client.poll(POLL_SECONDS)
                except Exception as exc:  # the library handles reconnects; anything else is shown
                    log.warning("poll failed: %s", exc)
                    pushes = []
                    self._stop.wait(POLL_SECONDS)
                table = self._last_state[1]
                for push in pushes:
                    # Each push's own view first, so the views see the table in the order it changed
                    # (a game's start, then the events of its first moves).
                    if isinstance(push.get("view"), dict):
                        if isinstance(push.get("info"), dict):
                            table = push["info"]
                        self._post_state(push["view"], table, client.connected)
                    events = events_of(push)
                    if events:
                        self._post({"type": "events", "events": events})
                    else:
                        self._post({"type": "push", "push": push})
                self._post_state(client.view, client.table, client.connected)
        finally:
            try:
                client.close()
            except Exception as exc:
                log.info("close failed: %s", exc)

    def _post_state(self, view: dict | None, table: dict | None, connected: bool) -> None:
        # Copies: the client may change its dicts in place while the views read them.
        state = (copy.deepcopy(view), copy.deepcopy(table), connected)
        if state != self._last_state:
            self._last_state = state
            msg = {"type": "state", "view": state[0], "table": state[1], "connected": state[2]}
            self.latest_state = msg
            self._post(msg)

    def _serve_requests(self, client: Any) -> None:
        while True:
            try:
                op, args, kwargs = self._requests.get_nowait()
            except queue.Empty:
                return
            try:
                if kwargs.pop("__call__", False):
                    result = args[0](client)
                else:
                    result = getattr(client, op)(*args, **kwargs)
            except Exception as exc:
                code = getattr(exc, "code", type(exc).__name__)
                message = getattr(exc, "message", str(exc))
                self._post({"type": "error", "op": op, "code": code, "message": message})
                continue
            if op == "act":
                # The reply already moved the client's view on: show the board as the action left it
                # before its events, so a log line never describes a position not yet on screen.
                self._post_state(client.view, client.table, client.connected)
            self._post({"type": "reply", "op": op, "result": result})
            if op == "act" and result:
                # The server does not push an action back to its actor: the reply carries its events.
                self._post({"type": "events", "events": result})
