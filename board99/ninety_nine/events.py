"""What an action caused: the events the game reports and its records hold.

Each event knows how it reads in a record (``text``) and what a seat may see
of it (``shown_to``, and ``seen_by`` as plain data): only ``Drew`` hides
anything, the card, from all but the drawer. ``from_data`` reads the plain data
back into the event (the client's events are these classes, as the engine's). Hands are never in an event; a player who goes out puts the cards
face down (000), so ``Out`` names none.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from .. import event_codec
from ..event_codec import flag, whole
from .cards import CARDS, Card

#: Why a player lost a token or went out: the rule, in words, and the document it comes from.
REASONS: dict[str, str] = {
    "cannot-play": "holds no card that keeps the total at 99 or under (000, 002, 003, 004)",
    "over-99": "played a card that took the total over 99 (004; 000, 002 and 003 put out a player who cannot "
               "play without it)",
    "wrong-total": "announced a wrong total (a house rule: the documents only have the total said)",
}


def _s(seat: int) -> str:
    return f"S{seat}"


def _as(value: int | None) -> str:
    return "" if value is None else f" as {value}"


class Dealt(NamedTuple):
    """Deal ``deal`` began: ``dealer`` dealt ``hand_size`` cards each."""

    deal: int
    dealer: int
    hand_size: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "dealt"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"deal {self.deal}: {_s(self.dealer)} deals {self.hand_size} cards each"


class TurnedUp(NamedTuple):
    """The top card of the stock was turned up as the dealer's play (000): the total is ``total``."""

    dealer: int
    card: Card
    value: int | None
    total: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "turned-up"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.dealer)} turns up {self.card}{_as(self.value)}: total {self.total}"


class Played(NamedTuple):
    """``seat`` played ``card`` (``value`` the amount chosen, for a card that gives a choice): total ``total``."""

    seat: int
    card: Card
    value: int | None
    total: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "played"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} plays {self.card}{_as(self.value)}: total {self.total}"


class Busted(NamedTuple):
    """``seat`` played ``card``, which would take the total to ``total``, over 99 (penalty tables)."""

    seat: int
    card: Card
    value: int | None
    total: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "busted"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} plays {self.card}{_as(self.value)}: {self.total} is over 99"


class Corrected(NamedTuple):
    """``seat`` announced ``said`` but the total is ``total``: corrected for everyone to see."""

    seat: int
    said: int
    total: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "corrected"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} said {self.said}: corrected, the total is {self.total}"


class Reversed(NamedTuple):
    """The direction of play reversed: ``direction`` 1 is clockwise (to the left), -1 counter-clockwise."""

    direction: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "reversed"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"play reverses: now {'clockwise' if self.direction == 1 else 'counter-clockwise'}"


class Skipped(NamedTuple):
    """``seat`` was skipped."""

    seat: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "skipped"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} is skipped"


class Owes(NamedTuple):
    """``seat`` must play ``cards`` cards, drawing for none of them: queens in a row (000)."""

    seat: int
    cards: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "owes"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        many = "a queen" if self.cards == 1 else f"{self.cards} queens"
        return f"{_s(self.seat)} must answer {many}: with a queen, or with {self.cards} card(s) drawing for none"


class Drew(NamedTuple):
    """``seat`` drew ``card`` from the stock (None: the stock was empty and the pile too small to rebuild it;
    or, as another seat sees the draw, the card it may not see)."""

    seat: int
    card: Card | None

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "drew"

    def text(self, reveal: bool = True) -> str:
        """Record notation; without ``reveal`` the card is not named."""
        if self.card is None:
            return f"{_s(self.seat)} finds no card to draw"
        return f"{_s(self.seat)} draws {self.card if reveal else 'a card'}"


class Forgot(NamedTuple):
    """``seat`` did not draw in time: that draw is lost, and the hand stays a card short (002, 003, 004)."""

    seat: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "forgot"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} forgot to draw: that draw is lost"


class Rebuilt(NamedTuple):
    """The stock ran out: the played pile but its top card became the new stock of ``cards`` cards."""

    cards: int
    shuffled: bool

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "rebuilt"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        how = "shuffled" if self.shuffled else "turned over unshuffled"
        return f"stock rebuilt from the played pile: {self.cards} cards, {how}"


class LostToken(NamedTuple):
    """``seat`` lost a token (``reason``, one of ``REASONS``): ``left`` remain."""

    seat: int
    reason: str
    left: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "lost-token"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} loses a token ({self.reason}): {self.left} left"


class Out(NamedTuple):
    """``seat`` is out of the game (``reason``, one of ``REASONS``), its cards face down; ``place`` 0 is the best."""

    seat: int
    reason: str
    place: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "out"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} is out of the game ({self.reason}): place {self.place + 1}"


class SatOut(NamedTuple):
    """``seat`` is out of this round (``reason``, one of ``REASONS``), its cards face down, until the next deal."""

    seat: int
    reason: str

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "sat-out"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} is out of this round ({self.reason})"


class RoundOver(NamedTuple):
    """Deal ``deal`` ended (someone lost a token); a new one follows."""

    deal: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "round-over"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"deal {self.deal} is over"


class Won(NamedTuple):
    """``seat`` is the last player left: the game is won."""

    seat: int

    @property
    def kind(self) -> str:
        """The event's kind, as it travels on the wire."""
        return "won"

    def text(self, reveal: bool = True) -> str:
        """Record notation."""
        return f"{_s(self.seat)} wins: the last player left"


Event = (Dealt | TurnedUp | Played | Busted | Corrected | Reversed | Skipped | Owes | Drew | Forgot | Rebuilt
         | LostToken | Out | SatOut | RoundOver | Won)


#: The events by their wire kind: what ``from_data`` reads.
KINDS: dict[str, type[Event]] = {
    "dealt": Dealt, "turned-up": TurnedUp, "played": Played, "busted": Busted, "corrected": Corrected,
    "reversed": Reversed, "skipped": Skipped, "owes": Owes, "drew": Drew, "forgot": Forgot, "rebuilt": Rebuilt,
    "lost-token": LostToken, "out": Out, "sat-out": SatOut, "round-over": RoundOver, "won": Won,
}
_SEAT, _COUNT, _AMOUNT = whole(0, 5), whole(0, 1 << 16), whole(-(1 << 16), 1 << 16)
_READ = event_codec.EventReader("Ninety-Nine", KINDS, {
    "deal": whole(1, 1 << 31), "dealer": _SEAT, "seat": _SEAT, "hand_size": _COUNT, "cards": _COUNT,
    "card": event_codec.one_of(CARDS, "a card ('AS', '10H', 'QD', 'joker')"), "value": _AMOUNT, "total": _AMOUNT,
    "said": _AMOUNT, "direction": event_codec.one_of((1, -1), "1 (clockwise) or -1 (counter-clockwise)"),
    "shuffled": flag, "reason": event_codec.text(), "left": _COUNT, "place": whole(0, 5),
})


def shown_to(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` (None: a spectator) may see it: another seat's drawn card hidden (None)."""
    if type(event) is Drew and event.seat != seat:
        return event._replace(card=None)
    return event


def to_data(event: Event) -> dict[str, object]:
    """The event as plain data, all of it; ``from_data`` reads it back."""
    return event_codec.to_data(event)


def seen_by(event: Event, seat: int | None) -> dict[str, object]:
    """The event as plain data for ``seat`` (None: a spectator); a drawn card only for its drawer.

    >>> seen_by(Drew(1, "7H"), 0), seen_by(Drew(1, "7H"), 1)["card"]
    ({'seat': 1, 'card': None, 'kind': 'drew'}, '7H')
    """
    return to_data(shown_to(event, seat))


def from_data(data: object) -> Event:
    """The event plain data describes (``seen_by``'s or ``to_data``'s); ValueError naming the field otherwise.

    >>> from_data(seen_by(Played(2, "10H", -10, 79), None))
    Played(seat=2, card='10H', value=-10, total=79)
    >>> from_data({"kind": "played", "seat": 2, "card": "11H", "value": None, "total": 79})
    Traceback (most recent call last):
    ...
    ValueError: event.card: expected a card ('AS', '10H', 'QD', 'joker'), got '11H' (a 'played' event)
    """
    return cast(Event, _READ(data))
