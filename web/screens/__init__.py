"""The web table's screens: the welcome, the lobby, the rules page, and a table screen per game kind.

A table screen is the server-side view model of one table for one web guest
(``TableScreen``): it takes the records the client core's pushes and replies
become (client/gui/messages.py), builds the table's scene, and says what a press
or a key means as commands for its seat (web/seat.py) to carry out. The page
draws scenes and sends presses; it decides nothing (docs/web.md, *Scenes*).

``screen_for(kind)`` finds the table screen class of a game kind: the registry
names each kind's module and class here, imported when first asked for, so a
kind's screen lives in its own module (peg.py is the reference).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from board99.client.gui.messages import Message
from board99.kinds import GameKind

#: A command a screen gives its seat: ("act", action), ("rematch", None), ("leave", None),
#: ("add_bot", seat), ("rules", None) (open the rules page), ("notice", (text, tone)).
Command = tuple[str, Any]


class TableScreen(Protocol):
    """One table as a web guest sees it (the window's table screen, without drawing)."""

    def __init__(self, kind: GameKind, name: str, clock: Callable[[], float] | None = None) -> None:
        """``name``: the guest's own name; ``clock``: the seat's time (its ``now``), default time.monotonic."""

    def take(self, msg: Message) -> None:
        """One record of what happened (StateChanged, Events, Replied, Failed, Pushed)."""

    def scene(self, now: float) -> dict:
        """The table's scene: {"title", "turn", "headline", "keys", "parts"} (the seat adds screen and colours)."""

    def changes_at(self, now: float) -> float:
        """When the scene next changes by time alone, after ``now`` (inf: not by time; the clock's count aside).

        The seat builds no scene while nothing it reads changed and this time has not come (docs/web.md,
        *Scenes*); a screen without this method is built every time the seat is asked."""

    def press(self, control: str, fields: dict[str, str], now: float) -> list[Command]:
        """What pressing ``control`` (an id of the last scene) means: commands for the seat."""

    def key(self, name: str, now: float) -> list[Command]:
        """What a key (one of the scene's ``keys``) means: commands for the seat."""

    def notices(self) -> list[tuple[str, str]]:
        """What the table said since the last call that the guest must hear as notices: (text, tone)."""

    def rules(self) -> tuple[str, list[dict]]:
        """The rules page of this table (its title and parts), with this screen's keys."""


class NoScreen(LookupError):
    """No table screen for a game kind here (the message says which, in a player's words)."""


#: kind name -> (module under board99.web.screens, class name): imported when first needed.
PLACES: dict[str, tuple[str, str]] = {
    "peg-board": ("peg", "PegScreen"),
    "ninety-nine": ("ninety", "NinetyScreen"),
}
_LOADED: dict[str, type] = {}


def register(kind: str, screen: type) -> None:
    """Use ``screen`` for tables of ``kind`` (tests and further kinds)."""
    _LOADED[kind] = screen


def screen_for(kind: str) -> type:
    """The table screen class for tables of ``kind``; NoScreen when this server has none."""
    if kind in _LOADED:
        return _LOADED[kind]
    place = PLACES.get(kind)
    if place is None:
        raise NoScreen(f"the web page cannot show tables of {kind!r} yet: play them in the board99 window")
    try:
        module = importlib.import_module(f"{__name__}.{place[0]}")
    except ImportError:
        raise NoScreen(f"the web page cannot show tables of {kind!r} yet: play them in the board99 window") from None
    screen: type = getattr(module, place[1])
    _LOADED[kind] = screen
    return screen
