"""Playing cards as short strings ('AS', '10H', 'QD', 'joker'), and the deck a table plays with.

>>> rank_of("10H"), rank_of("AS"), rank_of("joker")
('10', 'A', 'joker')
>>> len(deck(1, 2)), len(deck(2, 0))
(54, 104)
"""

from __future__ import annotations

#: A card: rank then suit ('AS', '10H', 'KD'), or 'joker'. Two decks hold two of each.
Card = str
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Spades, hearts, diamonds, clubs.
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER: Card = "joker"
#: Every rank a card may have, the joker last (the order the house options list them in).
ALL_RANKS: tuple[str, ...] = (*RANKS, JOKER)
_RANK: dict[Card, str] = {r + s: r for r in RANKS for s in SUITS} | {JOKER: JOKER}
#: Every distinct card.
CARDS: frozenset[Card] = frozenset(_RANK)
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


def is_card(value: object) -> bool:
    """True if ``value`` names a card ('AS', '10H', 'joker')."""
    return type(value) is str and value in CARDS


def rank_of(card: Card) -> str:
    """The card's rank ('A', '2' .. '10', 'J', 'Q', 'K' or 'joker'); KeyError for a string that is no card."""
    return _RANK[card]


def words(card: Card) -> str:
    """The card for a person: 'ace of spades', '10 of hearts', 'joker'."""
    rank = _RANK[card]
    if rank == JOKER:
        return "joker"
    return f"{_RANK_WORDS.get(rank, rank)} of {_SUIT_WORDS[card[-1]]}"


def deck(decks: int, jokers: int) -> list[Card]:
    """``decks`` full 52-card decks, each with ``jokers`` jokers, in a fixed order (shuffle it)."""
    one = [r + s for s in SUITS for r in RANKS] + [JOKER] * jokers
    return one * decks
