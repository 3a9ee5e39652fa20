"""What one call into the core leaves to be done: frames to send, and slow bots' moves to think about.

The core never sends anything itself; the loop (``loop.py``) takes each
``Outbox`` and does the sending and hands the thinking to its worker thread.
The loop may also give the outbox a *sink*: a function that sends a frame
the moment the core queues it (a person's reply then leaves before the rest
of the step, such as scheduling the bot's answer, is done), in the order
queued. Without one, frames wait in ``sends`` for the end of the step.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

import msgpack
import ormsgpack

from board99.wire.protocol import encode

from .idents import web_named
from .tables import Table


class Think(NamedTuple):
    """A slow bot's move to work out away from the loop: answer ``key`` with ``bot.choose(view)``."""

    key: Hashable
    bot: Any  # the kind's bot: ``choose(view)`` gives its action
    view: Any  # the seat's view, the kind's


class Thought(NamedTuple):
    """A slow bot's answer from the worker: its move, and the bot as it stands after choosing it.

    The bot comes back because it may have learnt from the view (the infer bot remembers the other
    seats' moves in the deal); the table keeps the returned one for its next move.
    """

    action: Any
    bot: Any


#: A sink takes (connection, frame) and says whether it sent the frame (True) or left it to the outbox.
Sink = Callable[[bytes, bytes], bool]


def _as_list(value: Any) -> list[Any]:
    # ormsgpack packs a tuple but not a tuple's subclass (a NamedTuple): msgpack packs that as an array.
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not a wire value")


def packer() -> Callable[[Any], bytes]:
    """An encoder that gives the same bytes as ``wire.protocol.encode``, for one thread (one core's).

    ormsgpack (Rust, like orjson) packs a reply in about half msgpack's time; anything it will not
    pack, or that msgpack would refuse, goes to a kept msgpack ``Packer`` (``encode`` makes a Packer for
    every message), so the bytes and the errors are msgpack's (tests/test_outbox_sink.py compares them).
    """
    fast = ormsgpack.packb
    # Int keys as msgpack keeps them; what ormsgpack would pack and msgpack refuses (a dataclass, a
    # datetime, a UUID, an Enum's value) goes on to msgpack, which refuses it: no frame msgpack would not make.
    options = (ormsgpack.OPT_NON_STR_KEYS | ormsgpack.OPT_PASSTHROUGH_DATACLASS | ormsgpack.OPT_PASSTHROUGH_DATETIME
               | ormsgpack.OPT_PASSTHROUGH_UUID | ormsgpack.OPT_PASSTHROUGH_ENUM)
    slow = msgpack.Packer(use_bin_type=True).pack

    def pack(msg: Any) -> bytes:
        try:
            return fast(msg, default=_as_list, option=options)
        except TypeError:
            return slow(msg)

    return pack


class Outbox:
    """Frames for connections, in the order they are to go out, and thinking to hand off."""

    __slots__ = ("sends", "thinks", "_encode", "_sink")

    def __init__(self, encoder: Callable[[Any], bytes] = encode, sink: Sink | None = None) -> None:
        #: Each connection's frame, in order; a web connection's is the message itself (``idents.web_named``).
        self.sends: list[tuple[bytes, bytes | dict[str, Any]]] = []
        self.thinks: list[Think] = []
        self._encode = encoder
        self._sink = sink

    def send(self, ident: bytes, msg: dict[str, Any]) -> None:
        """Queue one message for one connection (or hand it to the sink, which may send it at once).

        A web connection's stays the map itself (``idents.web_named``), for its seat once the core's step is done.
        """
        if web_named(ident):
            self.sends.append((ident, msg))
            return
        frame = self._encode(msg)
        if self._sink is None or not self._sink(ident, frame):
            self.sends.append((ident, frame))

    def reply(self, ident: bytes, rid: int | None, fields: dict[str, Any]) -> None:
        """Queue the reply to request ``rid``."""
        self.send(ident, {"type": "reply", "id": rid, **fields})

    def error(self, ident: bytes, rid: int | None, code: str, message: str) -> None:
        """Queue an error reply naming the rule or field."""
        self.send(ident, {"type": "error", "id": rid, "code": code, "message": message})

    def push(self, t: Table, kind: str, extra: dict[str, Any], *, exclude: bytes | None = None,
             per_seat: Callable[[int | None], dict[str, Any]] | None = None) -> None:
        """One push to every follower of ``t``, each with their own view (the Clone pattern's update)."""
        spectator_frame: bytes | None = None  # every spectator sees the same: packed once ...
        spectator_map: dict[str, Any] | None = None  # ... and for web connections made once (``idents.web_named``)
        sink = self._sink
        for ident, seat in t.members():
            if ident == exclude:
                continue
            web = web_named(ident)
            if seat is None and web and spectator_map is not None:
                self.sends.append((ident, spectator_map))
                continue
            if seat is None and not web and spectator_frame is not None:
                if sink is None or not sink(ident, spectator_frame):
                    self.sends.append((ident, spectator_frame))
                continue
            msg = {"type": kind, "table": t.id, "seq": t.seq, **extra, "view": t.view_data(seat)}
            if per_seat is not None:
                msg.update(per_seat(seat))
            if web:  # the map itself, for the seat once the core's step is done
                if seat is None:
                    spectator_map = msg
                self.sends.append((ident, msg))
                continue
            frame = self._encode(msg)
            if seat is None:
                spectator_frame = frame
            if sink is None or not sink(ident, frame):
                self.sends.append((ident, frame))

    def think(self, key: Hashable, bot: Any, view: Any) -> None:
        """Ask for a slow bot's move; the answer comes back through ``Core.thought``."""
        self.thinks.append(Think(key, bot, view))
