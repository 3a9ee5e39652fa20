"""Driving the server's core with a fake clock: no sockets, no threads, no sleeping.

A ``Desk`` holds a ``Core`` over a real SQLite journal file and a clock that
only moves when a test moves it; ``Peer``s are connections that send requests
(msgpack frames, as on the wire) and keep every frame the core sends them.
Slow bots' moves are worked out at once, where the loop's worker would.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from board99 import SeatView
from board99.server.core import Core
from board99.server.journal import Journal
from board99.server.outbox import Outbox, Thought
from board99.server.state import Settings


class CoreError(Exception):
    """An error reply from the core."""

    def __init__(self, reply: dict) -> None:
        super().__init__(f"{reply['code']}: {reply['message']}")
        self.code, self.message = reply["code"], reply["message"]


@dataclass
class Peer:
    """One connection to the core: what it sent and everything it was sent."""

    desk: Desk
    ident: bytes
    received: list[dict] = field(default_factory=list)
    silent: bool = False  # a silent peer sends no heartbeat pings
    token: str | None = None
    table: str | None = None
    seat: int | None = None
    view: SeatView | None = None
    _ids: int = 0

    def send(self, kind: str, **fields: Any) -> int:
        """Send one request; its id."""
        self._ids += 1
        frame = msgpack.packb({"type": kind, "id": self._ids, **fields})
        self.desk.deliver(self.desk.core.receive(self.ident, [frame], self.desk.now))
        return self._ids

    def ask(self, kind: str, **fields: Any) -> dict:
        """Send a request and return its reply; CoreError on an error reply."""
        rid = self.send(kind, **fields)
        # An error the core could not tie to a request (server-full, bad-identity) carries no id.
        reply = next(m for m in reversed(self.received) if m["type"] in ("reply", "error")
                     and (m.get("id") == rid or (m["type"] == "error" and m.get("id") is None)))
        if reply["type"] == "error":
            raise CoreError(reply)
        if "view" in reply:
            self.view = SeatView.from_data(reply["view"])
        return reply

    def sit(self, table: str, seat: int, colour: str | None = None) -> dict:
        """Take a seat and keep its token."""
        reply = self.ask("take_seat", table=table, seat=seat, colour=colour)
        self.token, self.table, self.seat = reply["token"], table, seat
        return reply

    def act(self, action: dict) -> dict:
        """Act for this peer's seat on the position it last saw."""
        assert self.view is not None
        return self.ask("act", table=self.table, seat=self.seat, token=self.token, action=action, ply=self.view.ply)

    def pushes(self, kind: str | None = None) -> list[dict]:
        """The pushes received ("update" and "table"), or those of one type."""
        return [m for m in self.received if m["type"] in ("update", "table") and kind in (None, m["type"])]

    def take(self, msg: dict) -> None:
        self.received.append(msg)
        if msg["type"] in ("update", "table") and "view" in msg:
            self.view = SeatView.from_data(msg["view"])


class Desk:
    """A core, a fake clock and the peers talking to it."""

    def __init__(self, data_dir: Path | None = None, start: float = 1000.0, **settings: Any) -> None:
        self.now = start
        self.journal = Journal(data_dir)
        self.core = Core(self.journal, Settings(**settings), self.now)
        self.peers: dict[bytes, Peer] = {}

    def peer(self, name: str) -> Peer:
        """A new connection, with a routing id of libzmq's own form made from ``name`` (same name, same id)."""
        ident = b"\x00" + zlib.crc32(name.encode()).to_bytes(4, "big")
        p = self.peers[ident] = Peer(self, ident)
        return p

    def deliver(self, out: Outbox) -> None:
        """Hand each frame to its peer; work out slow bots' moves at once (as the loop's worker would)."""
        pending = [out]
        while pending:
            box = pending.pop(0)
            for ident, frame in box.sends:
                if ident in self.peers:
                    self.peers[ident].take(msgpack.unpackb(frame))
            for think in box.thinks:
                thought = Thought(think.bot.choose(think.view), think.bot)
                pending.append(self.core.thought(think.key, thought, self.now))

    def advance(self, seconds: float, step: float = 0.05) -> None:
        """Move the clock on in steps: present peers ping each step (their heartbeat); due ticks run."""
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + step)
            for p in list(self.peers.values()):
                if not p.silent:
                    p.send("ping")
            if self.now >= self.core.deadline():
                self.deliver(self.core.tick(self.now))

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()
