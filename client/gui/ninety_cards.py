"""Playing-card pictures for the Ninety-Nine table: arcade's own card set, loaded once.

>>> card_path("10H"), card_path("QS"), card_path("joker"), card_path(None)
(':resources:images/cards/cardHearts10.png', ':resources:images/cards/cardSpadesQ.png', ':resources:images/cards/cardJoker.png', ':resources:images/cards/cardBack_blue2.png')
"""

from __future__ import annotations

from functools import cache

import arcade

from board99.ninety_nine.cards import JOKER, Card

_SUITS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
#: The pictures' own size in pixels (width, height): cards are drawn at this ratio.
CARD_W, CARD_H = 140, 190


def card_path(card: Card | None) -> str:
    """The resource name of ``card``'s picture (None: the back)."""
    if card is None:
        return ":resources:images/cards/cardBack_blue2.png"
    if card == JOKER:
        return ":resources:images/cards/cardJoker.png"
    return f":resources:images/cards/card{_SUITS[card[-1]]}{card[:-1]}.png"


@cache
def card_texture(card: Card | None) -> arcade.Texture:
    """``card``'s picture (None: the back), loaded once."""
    return arcade.load_texture(card_path(card))
