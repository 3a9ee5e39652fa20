"""Which screens show a game kind: kind name -> the view of its table and the view that replays its records.

The window names no game's screen itself: the app asks here for the table
screen of the table's kind and the replay screen of a record's kind. A second
game adds its screens and one ``register`` call (its package's
``client/gui`` module); nothing else in the window changes.

>>> for_kind("peg-board").table.__name__, for_kind("peg-board").replay.__name__
('TableView', 'ReplayView')
>>> for_kind("chess")
Traceback (most recent call last):
...
KeyError: "game: 'chess' has no screen in this window; it shows peg-board, ninety-nine"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from board99 import kinds


class Screens(NamedTuple):
    """One kind's screens (arcade View classes, or factories taking the same arguments)."""

    table: Callable[..., Any]  # (session, sounds, on_lobby=..., on_help=..., on_settings=..., on_quit=...)
    replay: Callable[..., Any]  # (record text, title, on_back=..., sounds=..., frames=..., review_seat=...)
    #: The record's frames for ``replay(frames=...)``; raises (board99.record.RecordError) on a text that is
    #: no record of the kind, before any window opens (`board99 replay`).
    load: Callable[[str], Any]


_SCREENS: dict[str, Screens] = {}


def register(kind: str, screens: Screens) -> Screens:
    """Install ``kind``'s screens (the kind's name as ``board99.kinds`` knows it). Returns them."""
    _SCREENS[kind] = screens
    return screens


def unregister(kind: str) -> None:
    """Take a kind's screens out again (tests that installed their own)."""
    _SCREENS.pop(kind, None)


def _installed() -> dict[str, Screens]:
    if kinds.DEFAULT not in _SCREENS:
        # Imported here: the peg-board screens import much of the window, which imports this module.
        from .replay_model import load
        from .replay_view import ReplayView
        from .table_view import TableView

        register(kinds.DEFAULT, Screens(TableView, ReplayView, load))
        from .ninety_replay import NinetyReplayView
        from .ninety_replay_model import load as load_ninety
        from .ninety_table import NinetyTable

        register("ninety-nine", Screens(NinetyTable, NinetyReplayView, load_ninety))
    return _SCREENS


def for_kind(name: str) -> Screens:
    """The screens of the kind called ``name``; KeyError naming the kinds this window shows otherwise."""
    screens = _installed()
    if name not in screens:
        raise KeyError(f"game: {name!r} has no screen in this window; it shows {', '.join(screens)}")
    return screens[name]


def for_record(text: str) -> Screens:
    """The screens of the kind whose record ``text`` is; the default kind's for a text that is no known record
    (its replay screen then says why the text cannot be shown)."""
    try:
        name = kinds.for_record(text).name
    except kinds.UnknownKind:
        name = kinds.DEFAULT
    return for_kind(name if name in _installed() else kinds.DEFAULT)
