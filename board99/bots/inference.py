"""The infer bot: fastsearch whose guesses at the hidden hands follow what the other seats' moves revealed.

A player who plays a card on a square shows more than the card: the search
bot (and the rulebook) always takes a square with the highest card in hand
that fits it, never leaves a due win or block undone, and mostly draws where
the rulebook would draw and plays where it would play. So a hand that held a
card between the one played and the square, or a card that fitted a four it
left standing, is not the hand that player holds. This bot remembers the
other seats' moves in the deal (``memory.MoveMemory``) and, for each guess,
deals several candidate hands and keeps one in proportion to how likely it
made those moves (``fastplay.guesses``; the odds are ``fastplay.ODDS_*``).
Everything else is the fastsearch bot's search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from ..view import SeatView
from .fast_search import FastSearchBot, no_moves
from .memory import MoveMemory
from .tally import LineTally

if TYPE_CHECKING:
    import numpy as np

#: Hands dealt per guess, one kept in proportion to how likely it made the remembered moves.
SAMPLES = 32


class InferenceBot(FastSearchBot):
    """The fastsearch bot, its guesses weighted by the other seats' remembered moves in this deal."""

    name = "infer"

    def __init__(self, seed: int | None = None, budget: float | None = 0.2, rollouts: int | None = None) -> None:
        super().__init__(seed=seed, budget=budget, rollouts=rollouts)
        self.memory = MoveMemory()

    def choose(self, view: SeatView) -> Action:
        """Learn the others' moves since the last turn, then search as fastsearch does with weighted guesses."""
        self.memory.observe(view)
        action = super().choose(view)
        self.memory.acted(view, action)
        return action

    def evidence(self, view: SeatView) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """The remembered moves, newest first, as ``fastplay.guesses`` weighs them."""
        import numpy as np

        from .fastplay import arrays

        moves = self.memory.moves[::-1]
        if not moves:
            return no_moves(view.sides)
        codes = np.zeros((len(moves), 6), dtype=np.int64)
        boards = np.zeros((len(moves), 100), dtype=np.int64)
        values = np.zeros((len(moves), 100), dtype=np.float64)
        threats = np.zeros((len(moves), view.sides, 101), dtype=np.int64)
        for i, move in enumerate(moves):
            tally = LineTally(move.board, view.sides)
            boards[i], _, _, values[i], threats[i] = arrays(tally)
            codes[i] = (move.seat, move.kind, move.card, move.square, move.deck_size, tally.free_top)
        return codes, boards, values, threats, SAMPLES
