"""What the client core tells whoever drives it: typed records, parsed once where the message came in.

Pushes from the server (``Update``, ``TableChange``), what the core noticed
itself (``Snapshot``, ``Connection``, ``Restarted``, ``SeatLost``), a server
error that answers no waiting request (``Notice``), and a request finished
for a driver that asked to be told (``Completed``). Each push carries the
view, the table description and the events already parsed, through the
table's game kind: an event is the kind's own class (``board99.events.Played``,
``board99.ninety_nine.events.Played`` ...), never a map read by its ``kind``.
``as_dict()`` gives the plain map ``GameClient.poll()`` has always returned
(scripts and tests read those), so the library's API stays as it was.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from board99.wire.table_info import TableInfo


class Update(NamedTuple):
    """An action was carried out at the followed table (by a person, a server bot, or the turn clock)."""

    table: str
    seq: int
    by: int
    clock: bool  # the turn clock ran out and the server moved for ``by``
    events: tuple[Any, ...]  # the game kind's events (its own classes) as this reader may see them
    view: Any  # the reader's view after it, parsed by the table's kind
    info: TableInfo | None  # the table description when the action ended the game
    data: dict  # the push as it came

    def as_dict(self) -> dict:
        """The push as ``poll()`` returns it."""
        return self.data


class TableChange(NamedTuple):
    """The followed table's seats or state changed (``change`` one of ``wire.protocol.CHANGES``)."""

    table: str
    seq: int
    change: str
    by: int | None  # the seat the change is about, when it names one (``hint``)
    events: tuple[Any, ...]  # a new game's first deal, for ``started`` and ``rematch`` (the kind's classes)
    view: Any
    info: TableInfo
    data: dict

    def as_dict(self) -> dict:
        """The push as ``poll()`` returns it."""
        return self.data


class Snapshot(NamedTuple):
    """The client took the whole table again (after a gap in the pushes, or a rebind): its view and description."""

    table: str | None
    seq: int
    view: Any
    info: TableInfo | None

    def as_dict(self) -> dict:
        """As ``poll()`` returns it."""
        return {"type": "snapshot", "table": self.table, "seq": self.seq, "view": self.view, "info": self.info}


class Connection(NamedTuple):
    """The server stopped answering, or answers again."""

    connected: bool

    def as_dict(self) -> dict:
        """As ``poll()`` returns it."""
        return {"type": "connection", "connected": self.connected}


class Restarted(NamedTuple):
    """The server restarted (its epoch changed); the core says hello and binds its seat again by itself."""

    epoch: str | None

    def as_dict(self) -> dict:
        """As ``poll()`` returns it."""
        return {"type": "restarted", "epoch": self.epoch}


class SeatLost(NamedTuple):
    """The seat (or spectating) could not be taken back after a restart or a new link: the server's refusal."""

    code: str | None
    message: str | None

    def as_dict(self) -> dict:
        """As ``poll()`` returns it."""
        return {"type": "seat-lost", "code": self.code, "message": self.message}


class Notice(NamedTuple):
    """A server error no caller waits for: ``rate-limited``, or the refusal of the core's own hello or snapshot."""

    code: str
    message: str
    data: dict

    def as_dict(self) -> dict:
        """The error as ``poll()`` returns it."""
        return self.data


class Completed(NamedTuple):
    """A request a driver asked to be told of is done: its result, or the ``ServerError`` that ended it.

    ``view``, ``table`` and ``connected`` are the client's copy as the reply left it (later pushes
    may move the copy on before the driver reads this).
    """

    op: str
    result: Any
    error: Exception | None
    view: Any
    table: TableInfo | None
    connected: bool
    pending: Any = None  # the core's Pending it reports (a driver may have kept it)


#: Everything the core hands its driver, in the order it happened.
Message = Update | TableChange | Snapshot | Connection | Restarted | SeatLost | Notice | Completed
#: What ``GameClient.poll()`` passes on (as dicts): all but ``Completed``.
Push = Update | TableChange | Snapshot | Connection | Restarted | SeatLost | Notice
