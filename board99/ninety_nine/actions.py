"""What a Ninety-Nine player does: PLAY a card (with its value where the card gives a choice, the total said, and
whether the draw comes with it), and DRAW, a step of its own at a penalty table.

>>> a = Play("10H", value=-10, say=89)
>>> a.text(), parse_action(a.text()) == a, from_data(to_data(a)) == a
('play 10H as -10 says 89', True, True)
>>> Play("7S", say=17, draw=False).text(), parse_action("draw")
('play 7S says 17 without drawing', Draw())
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..quote import quote
from .cards import Card, is_card

#: The bounds of a number an action may carry (an announced total, a chosen value).
LIMIT = 1000


class Play(NamedTuple):
    """Play ``card`` from the hand: ``value`` the amount chosen for a card that gives a choice (ace, ten), ``say``
    the total announced, ``draw`` False to leave the draw for a later step (penalty tables)."""

    card: Card
    value: int | None = None
    say: int | None = None
    draw: bool = True

    def text(self) -> str:
        """Record notation: 'play AS as 11 says 45', 'play 7S without drawing'."""
        parts = [f"play {self.card}"]
        if self.value is not None:
            parts.append(f"as {self.value}")
        if self.say is not None:
            parts.append(f"says {self.say}")
        if not self.draw:
            parts.append("without drawing")
        return " ".join(parts)


class Draw(NamedTuple):
    """Draw the top card of the stock: the draw owed for a card played earlier (penalty tables)."""

    def text(self) -> str:
        """Record notation: 'draw'."""
        return "draw"


Action = Play | Draw

_PLAY = re.compile(r"play (\S+)(?: as (-?\d{1,3}))?(?: says (-?\d{1,3}))?( without drawing)?")


def parse_action(text: str) -> Action:
    """Read an action in record notation ('play 10H as -10 says 89', 'draw'); ValueError otherwise."""
    text = text.strip()
    if text == "draw":
        return Draw()
    m = _PLAY.fullmatch(text)
    if m is None or not is_card(m[1]):
        raise ValueError(f"not an action: {text!r} (expected 'play <card> [as N] [says N] [without drawing]' "
                         f"or 'draw')")
    return Play(m[1], None if m[2] is None else int(m[2]), None if m[3] is None else int(m[3]), m[4] is None)


def to_data(action: Action) -> dict[str, object]:
    """The action as plain data: {'type': 'play', 'card': '10H', 'value': -10, 'say': 89, 'draw': True}."""
    if type(action) is Play:
        return {"type": "play", "card": action.card, "value": action.value, "say": action.say, "draw": action.draw}
    return {"type": "draw"}


def _number(data: dict[object, object], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    # type(): True is an int and must not pass for 1
    if type(value) is not int or not -LIMIT < value < LIMIT:
        raise ValueError(f"action.{name}: expected a whole number or nothing, got {quote(value)}")
    return value


def from_data(data: object) -> Action:
    """The action plain data describes; ValueError naming the bad field otherwise (clients are hostile)."""
    if not isinstance(data, dict):
        raise ValueError("action: expected a map with a 'type' field")
    kind = data.get("type")
    if type(kind) is not str or kind not in ("play", "draw"):
        raise ValueError(f"action.type: expected 'play' or 'draw', got {quote(kind)}")
    if kind == "draw":
        return Draw()
    card = data.get("card")
    if not is_card(card):
        raise ValueError(f"action.card: expected a card such as 'AS', '10H' or 'joker', got {quote(card)}")
    assert isinstance(card, str)
    draw = data.get("draw", True)
    if type(draw) is not bool:
        raise ValueError(f"action.draw: expected true or false, got {quote(draw)}")
    return Play(card, _number(data, "value"), _number(data, "say"), draw)
