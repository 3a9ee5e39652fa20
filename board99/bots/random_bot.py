"""The random bot: any legal action, each equally likely."""

from __future__ import annotations

import random

from ..actions import Action, Discard, Draw, Play
from ..cards import HAND_LIMIT
from ..view import SeatView


class RandomBot:
    """Picks uniformly among every legal action of the view's seat."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """A uniformly random legal action (the view must be this seat's, on its turn)."""
        board, hand, rng = view.board, view.hand or (), self.rng
        # Count instead of listing every Play: card c has one play per free square >= c.
        counts = [board[c:].count(None) for c in hand]
        can_draw = len(hand) < HAND_LIMIT and view.deck_size > 0
        total = sum(counts) + can_draw + len(hand)
        pick = rng.randrange(total)
        for card, count in zip(hand, counts):
            if pick < count:
                # Rejection sampling picks a free square >= card uniformly.
                while True:
                    square = rng.randrange(card, 100)
                    if board[square] is None:
                        return Play(card, square)
            pick -= count
        if can_draw:
            if pick == 0:
                return Draw()
            pick -= 1
        return Discard(hand[pick])
