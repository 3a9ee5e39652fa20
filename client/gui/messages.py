"""What the network thread tells the views: small typed records, taken with ``Session.drain()``.

The client core parses what the server sent once, into the records of
``board99.client.pushes``; these wrap them for the views (a push's view and
table arrive as ``StateChanged``, its events as ``Events``).

The session posts them in the order things happened at the table: a new
state before the events it explains, so a log line never describes a
position not yet on screen.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from board99 import SeatView
from board99.client.pushes import Push
from board99.wire.table_info import TableInfo


class StateChanged(NamedTuple):
    """The client's latest copy of the table changed: its view, table description and link."""

    view: SeatView | None
    table: TableInfo | None
    connected: bool


class Events(NamedTuple):
    """What happened at the table (an update push's, or our own act's): the game kind's own event classes
    (``board99.events.Played`` ...), as the player's seat may see them, read once by the client core.

    ``clock`` is the update push's own flag: True when the turn clock ran out and the server made
    the move for the seat, so the table says so instead of showing an ordinary draw or discard.
    """

    events: tuple[Any, ...]
    clock: bool = False


class Resumed(NamedTuple):
    """A practice setup's result when it sat again in the player's unfinished game (not a new one)."""

    table: TableInfo


class Replied(NamedTuple):
    """A request that succeeded: its name (``Session``'s method) and what the client library returned."""

    op: str
    result: Any


class Failed(NamedTuple):
    """A request the server (or the client library) refused, with the stable code and the reason."""

    op: str
    code: str
    message: str


class Pushed(NamedTuple):
    """Any other record the client core passed on (client/pushes.py): a table change without events,
    a lost or restored link, a restart, a lost seat, a server's notice."""

    push: Push


#: Everything ``Session.drain()`` returns.
Message = StateChanged | Events | Replied | Failed | Pushed
