"""Web seats (web/seat.py) talking to a real server core in-process, with a fake clock: no sockets, no threads.

A ``Room`` holds a ``Desk`` (tests/core_kit.py: a Core over a real SQLite
journal) and the web seats of its guests. ``pump`` hands each seat's frames to
the core as the loop does (``receive_many`` with the seat's ident and host) and
each frame the core sends back to the seat of its ident. A ``Page`` is what a
browser holds: the last scene, the notices heard, what it was told to keep.
"""

from __future__ import annotations

import inspect
import json
import secrets
import zlib
from pathlib import Path
from typing import Any

from board99.server.core import Core
from board99.server.outbox import Outbox, Thought
from board99.web.seat import WebSeat, patched
from tests.core_kit import Desk

HOST = "127.0.0.1"
#: The core takes web idents (b"w" + 8 bytes) from the loop's web pair once the transport is in
#: (``receive_many(..., web=True)``); before that, an ident of libzmq's own form.
WEB = "web" in inspect.signature(Core.receive_many).parameters


class Page:
    """One browser: its seat on the server and what it was sent."""

    def __init__(self, room: Room, name: str) -> None:
        self.room = room
        self.ident = (b"w" + secrets.token_bytes(8)) if WEB else b"\x00" + zlib.crc32(
            name.encode() + secrets.token_bytes(4)).to_bytes(4, "big")
        self.seat = WebSeat(self.ident, HOST, room.now)
        self.scene: dict = {}
        self.scenes = 0
        self.texts: list[str] = []  # every text the page was sent
        self.drawn: list[dict] = []  # every scene it drew: each whole one, each patch applied to the one before
        self.notices: list[dict] = []
        self.kept: dict = {}
        room.pages[self.ident] = self
        self.read()

    def send(self, message: Any) -> None:
        """One frame from the page (a map as JSON, or raw text), then the room settles."""
        text = message if isinstance(message, str) else json.dumps(message)
        self.seat.from_page(text, self.room.now)
        self.room.pump()

    def hello(self, name: str, key: str | None = None, seat: dict | None = None) -> None:
        """The page's first frame."""
        self.send({"hello": {"name": name, "key": key if key is not None else secrets.token_hex(32),
                             "seat": seat}})

    def press(self, control: str, **fields: str) -> None:
        """Press a control of the scene (a form's submit with its fields)."""
        self.send({"press": control, "fields": fields} if fields else {"press": control})

    def key(self, name: str) -> None:
        """A key the scene lists."""
        self.send({"key": name})

    def read(self) -> None:
        """Take what the seat has for the page."""
        for text in self.seat.to_page():
            self.texts.append(text)
            msg = json.loads(text)
            if "scene" in msg or "patch" in msg:
                self.scene = msg["scene"] if "scene" in msg else patched(self.scene, msg["patch"])
                self.drawn.append(self.scene)
                self.scenes += 1
            elif "notice" in msg:
                self.notices.append(msg["notice"])
            elif "keep" in msg:
                self.kept.update(msg["keep"])

    def heard(self) -> list[str]:
        """The notices' words, oldest first."""
        return [n["text"] for n in self.notices]

    def part(self, part_id: str) -> dict | None:
        """The scene's part with this id."""
        return next((p for p in self.scene.get("parts", ()) if p.get("id") == part_id), None)

    def parts(self, kind: str) -> list[dict]:
        """The scene's parts of one type."""
        return [p for p in self.scene.get("parts", ()) if p.get("type") == kind]

    def buttons(self) -> dict[str, dict]:
        """Every button of the scene (rows, cards, dialogs) by id."""
        found: dict[str, dict] = {}
        for p in self.scene.get("parts", ()):
            items = p.get("items") if p.get("type") in ("buttons",) else p.get("buttons") if p.get(
                "type") == "dialog" else [b for c in p["items"] for b in c["buttons"]] if p.get(
                "type") == "tables" else []
            for item in items or ():
                found[item["id"]] = item
        return found


class Room:
    """A core and the web pages talking to it."""

    def __init__(self, data_dir: Path, **settings: Any) -> None:
        self.desk = Desk(data_dir, **settings)
        self.pages: dict[bytes, Page] = {}

    @property
    def now(self) -> float:
        return self.desk.now

    def page(self, name: str) -> Page:
        """A new browser connection."""
        return Page(self, name)

    def pump(self, rounds: int = 100) -> None:
        """Frames from every seat to the core and back until all is quiet."""
        for _ in range(rounds):
            batch = [(ident, [frame], HOST, None) for ident, page in self.pages.items()
                     for frame in page.seat.to_core()]
            if not batch:
                break
            extra = {"web": True} if WEB else {}
            self.deliver(self.desk.core.receive_many(batch, self.now, **extra))
        for page in self.pages.values():
            page.read()

    def deliver(self, out: Outbox) -> None:
        """Each frame to its seat; slow bots' moves worked out at once (as the loop's worker would)."""
        pending = [out]
        while pending:
            box = pending.pop(0)
            for ident, frame in box.sends:
                page = self.pages.get(ident)
                if page is not None:
                    page.seat.from_core(frame, self.now)
            for think in box.thinks:
                pending.append(self.desk.core.thought(think.key, Thought(think.bot.choose(think.view), think.bot),
                                                      self.now))

    def advance(self, seconds: float, step: float = 0.25) -> None:
        """Time passes: the seats' heartbeats and the core's ticks run as they fall due."""
        end = self.now + seconds
        while self.now < end:
            self.desk.now = min(end, self.now + step)
            for page in self.pages.values():
                if page.seat.next_tick() <= self.now:
                    page.seat.tick(self.now)
            if self.now >= self.desk.core.deadline():
                self.deliver(self.desk.core.tick(self.now))
            self.pump()

    def close(self) -> None:
        """Close the journal."""
        self.desk.close()
