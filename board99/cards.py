"""The 100 cards "N to 99" and what each allows."""

from __future__ import annotations

#: Every card in the deck, one per number 0-99.
CARDS = range(100)
#: No hand ever holds more than this many cards (docs/rules.md §5).
HAND_LIMIT = 5


def fits(card: int, square: int) -> bool:
    """True if card "N to 99" lets its player peg this square (number N or more)."""
    return square >= card


def allowed(card: int) -> tuple[int, ...]:
    """Every square card "N to 99" lets its player peg (``fits``), in number order."""
    found = _ALLOWED.get(card)
    return found if found is not None else tuple(sq for sq in range(card, 100) if fits(card, sq))


#: ``allowed`` of each of the 100 cards, worked out once: every free-square question asks it.
_ALLOWED: dict[int, tuple[int, ...]] = {card: tuple(sq for sq in range(card, 100) if fits(card, sq)) for card in CARDS}


def label(card: int) -> str:
    """The card as printed: '7 to 99'."""
    return f"{card} to 99"
