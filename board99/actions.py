"""The three things a player can do on a turn: PLAY, DRAW, DISCARD."""

from __future__ import annotations

import re
from typing import NamedTuple

from .quote import quote

# NamedTuples rather than dataclasses: actions are made in the bots' hot loops,
# and a NamedTuple is about three times cheaper to build than a frozen dataclass.


class Play(NamedTuple):
    """PLAY ``card`` from the hand and peg ``square``."""

    card: int
    square: int

    def text(self) -> str:
        """Record notation: 'play 12 on 57'."""
        return f"play {self.card} on {self.square}"


class Draw(NamedTuple):
    """DRAW the top card of the deck."""

    def text(self) -> str:
        """Record notation: 'draw'."""
        return "draw"


class Discard(NamedTuple):
    """DISCARD ``card`` from the hand, face up."""

    card: int

    def text(self) -> str:
        """Record notation: 'discard 12'."""
        return f"discard {self.card}"


Action = Play | Draw | Discard
#: Each action type's fields on the wire, besides 'type'.
_FIELDS: dict[str, tuple[str, ...]] = {"play": ("card", "square"), "draw": (), "discard": ("card",)}

_CLASSES: dict[str, type[Action]] = {"play": Play, "draw": Draw, "discard": Discard}
_new = tuple.__new__

_PATTERNS = (
    (re.compile(r"play (\d+) on (\d+)"), lambda m: Play(int(m[1]), int(m[2]))),
    (re.compile(r"draw"), lambda m: Draw()),
    (re.compile(r"discard (\d+)"), lambda m: Discard(int(m[1]))),
)


def parse_action(text: str) -> Action:
    """Read an action in record notation ('play 12 on 57', 'draw', 'discard 3')."""
    for pattern, make in _PATTERNS:
        m = pattern.fullmatch(text.strip())
        if m:
            return make(m)
    raise ValueError(f"not an action: {text!r} (expected 'play N on S', 'draw' or 'discard N')")


def to_data(action: Action) -> dict[str, object]:
    """The action as plain data, ready for msgpack: {'type': 'play', 'card': 3, 'square': 40}."""
    if type(action) is Play:
        return {"type": "play", "card": action.card, "square": action.square}
    if type(action) is Discard:
        return {"type": "discard", "card": action.card}
    return {"type": "draw"}




def from_data(data: object) -> Action:
    """The action described by plain data; ValueError naming the bad field otherwise."""
    if not isinstance(data, dict):
        raise ValueError("action: expected a map with a 'type' field")
    kind = data.get("type")
    # type() first: a list or map in 'type' is a bad field too, not a crash on an unhashable key
    if type(kind) is not str or kind not in _FIELDS:
        raise ValueError(f"action.type: expected 'play', 'draw' or 'discard', got {quote(kind)}")
    values = []
    for name in _FIELDS[kind]:
        value = data.get(name)
        # bool is an int subclass; True must not pass as card 1
        if type(value) is not int:
            raise ValueError(f"action.{name}: expected a whole number 0-99, got {quote(value)}")
        values.append(value)
    # tuple.__new__ with the fields in order is what Play(...) does, less a Python call (every act makes one).
    action: Action = _new(_CLASSES[kind], values)
    return action
