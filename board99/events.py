"""What an action caused: the events the engine reports and records.

Each event knows how it reads in a record (``text``) and what a given seat may
see of it (``shown_to``, and ``seen_by`` as plain data): only ``Drew`` hides
anything, the card, from all but the drawer. ``from_data`` reads the plain data
back into the event (the client's events are these classes, as the engine's).
"""

from __future__ import annotations

from typing import Any, NamedTuple, cast

from . import event_codec
from .event_codec import whole, whole_list

#: Offence code -> the rule that applies in penalty mode (docs/rules.md §7).
PENALTY_RULES: dict[str, str] = {
    "play-out-of-turn": (
        "play out of turn: the peg is removed, the card stays in the discard pile, "
        "the player's next turn is skipped"
    ),
    "discard-out-of-turn": (
        "discard out of turn: the card stays in the discard pile, "
        "the player's next turn is skipped"
    ),
    "draw-out-of-turn": (
        "draw out of turn: the card is shown to every player and cut back into the deck "
        "at random, the player's next turn is skipped"
    ),
    "illegal-play": (
        "illegal play: the square's number is below the card's; the peg is removed, "
        "the card stays in the discard pile, the turn ends"
    ),
    "illegal-draw": (
        "illegal draw: the hand already held 5 cards; the card is shown to every player "
        "and cut back into the deck at random, the turn ends"
    ),
}


class Dealt(NamedTuple):
    """A deal began: the cut (one card per seat, or None if the opener was set) and the opener."""

    deal: int
    cut: tuple[int, ...] | None
    first: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "dealt"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        cut = "none" if self.cut is None else " ".join(map(str, self.cut))
        return f"deal {self.deal} cut {cut} first S{self.first}"


class Drew(NamedTuple):
    """``seat`` drew ``card`` from the deck (None: a card the reader may not see, another seat's draw)."""

    seat: int
    card: int | None

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "drew"

    def text(self, reveal: bool = True) -> str:
        """Record notation; without ``reveal`` the card is not named."""
        return f"S{self.seat} drew {self.card if reveal else 'a card'}"


class Played(NamedTuple):
    """``seat`` pegged ``square`` for its side with ``card``."""

    seat: int
    card: int
    square: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "played"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"S{self.seat} pegged {self.square} with {self.card}"


class Discarded(NamedTuple):
    """``seat`` discarded ``card`` face up."""

    seat: int
    card: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "discarded"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"S{self.seat} discarded {self.card}"


class Penalty(NamedTuple):
    """``seat`` committed ``offence`` with ``card`` (on ``square``, -1 for none) and paid for it."""

    seat: int
    offence: str
    card: int
    square: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "penalty"

    @property
    def rule(self) -> str:
        """The rule that applied, in words."""
        return PENALTY_RULES[self.offence]

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        where = f" on {self.square}" if self.square >= 0 else ""
        return f"penalty S{self.seat} {self.offence} card {self.card}{where}: {self.rule}"


class Skipped(NamedTuple):
    """``seat`` lost this turn to a penalty."""

    seat: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "skipped"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"S{self.seat} loses the turn (penalty)"


class Passed(NamedTuple):
    """``seat`` could do nothing (empty hand, empty deck) and was passed."""

    seat: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "passed"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"S{self.seat} passes (empty hand, empty deck)"


class Won(NamedTuple):
    """``side`` won the deal: ``seat``'s peg completed ``line``."""

    side: int
    seat: int
    line: tuple[int, ...]

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "won"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"side {self.side} wins by S{self.seat} line {' '.join(map(str, self.line))}"


class Tied(NamedTuple):
    """Deal ``deal`` ended with deck and hands empty and no line of five: it is replayed."""

    deal: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "tied"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"tie in deal {self.deal}: deck and hands empty, the deal is replayed"


Event = Dealt | Drew | Played | Discarded | Penalty | Skipped | Passed | Won | Tied


#: The events by their wire kind: what ``from_data`` reads.
KINDS: dict[str, type[Event]] = {
    "dealt": Dealt, "drew": Drew, "played": Played, "discarded": Discarded, "penalty": Penalty,
    "skipped": Skipped, "passed": Passed, "won": Won, "tied": Tied,
}
_SEAT, _SQUARE = whole(0, 5), whole(0, 99)
_READ = event_codec.EventReader("GAME OF 99", KINDS, {
    "deal": whole(1, 1 << 31), "cut": whole_list(0, 99, 6), "first": _SEAT, "seat": _SEAT, "card": whole(0, 99),
    "square": whole(-1, 99), "side": whole(0, 2), "line": whole_list(0, 99, 10),
    "offence": event_codec.one_of(tuple(PENALTY_RULES), f"an offence of docs/rules.md ({', '.join(PENALTY_RULES)})"),
})


def shown_to(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` (None: a spectator) may see it: another seat's drawn card hidden (None)."""
    if type(event) is Drew and event.seat != seat:
        return event._replace(card=None)
    return event


def to_data(event: Event) -> dict[str, object]:
    """The event as plain data, all of it (a penalty with its rule in words); ``from_data`` reads it back."""
    data = event_codec.to_data(event)
    if type(event) is Penalty:
        data["rule"] = event.rule
    return data


#: Each event class's fields and wire kind, and its fields that may hold a tuple (sent as a list).
_SHAPES: dict[type, tuple[tuple[str, ...], str, tuple[str, ...]]] = {
    cls: (cls._fields, kind, tuple(name for name in cls._fields if "tuple" in str(cls.__annotations__[name])))
    for kind, cls in KINDS.items()
}


def seen_by(event: Event, seat: int | None) -> dict[str, object]:
    """The event as plain data for ``seat`` (None: a spectator); a drawn card only for its drawer.

    ``to_data(shown_to(event, seat))``, the same map, in one call: the server makes one for every
    event of every reply and push (tests/test_act_path_shortcuts.py compares the two).
    """
    cls = type(event)
    e: Any = event  # (read by index below: its class is known, the checker cannot follow `cls is`)
    # A literal map for the events of every turn (their fields in order, then the kind): no zip, no loop.
    if cls is Played:
        return {"seat": e[0], "card": e[1], "square": e[2], "kind": "played"}
    if cls is Drew:
        return {"seat": e[0], "card": e[1] if e[0] == seat else None, "kind": "drew"}
    if cls is Discarded:
        return {"seat": e[0], "card": e[1], "kind": "discarded"}
    shape = _SHAPES.get(cls)
    if shape is None:  # (not one of the engine's classes: the general way)
        return to_data(shown_to(event, seat))
    fields, kind, tuples = shape
    data: dict[str, object] = dict(zip(fields, event))
    data["kind"] = kind
    for name in tuples:
        value = data[name]
        if type(value) is tuple:
            data[name] = list(value)
    if cls is Penalty:
        data["rule"] = PENALTY_RULES[e[1]]
    return data


def from_data(data: object) -> Event:
    """The event plain data describes (``seen_by``'s or ``to_data``'s); ValueError naming the field otherwise.

    >>> from_data(seen_by(Drew(1, 42), 0)), from_data(seen_by(Penalty(1, "illegal-play", 60, 12), 0)).square
    (Drew(seat=1, card=None), 12)
    """
    return cast(Event, _READ(data))
