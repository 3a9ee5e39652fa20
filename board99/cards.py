"""The 100 cards "N to 99" and what each allows."""

from __future__ import annotations

#: Every card in the deck, one per number 0-99.
CARDS = range(100)
#: No hand ever holds more than this many cards (docs/rules.md §5).
HAND_LIMIT = 5


def fits(card: int, square: int) -> bool:
    """True if card "N to 99" lets its player peg this square (number N or more)."""
    return square >= card


def label(card: int) -> str:
    """The card as printed: '7 to 99'."""
    return f"{card} to 99"
