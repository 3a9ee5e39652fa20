"""The fastsearch bot: the search bot's search, with its guesses played out in compiled code.

It chooses exactly as ``SearchBot`` does -- the same candidates, hidden cards
dealt at random by the known hand sizes, every candidate played out on the
same guesses with the noisy rulebook policy, the rulebook's choice kept unless
another candidate is PICK_Z standard errors better, candidates dropped DROP_Z
behind, a stop when the leader is clear -- but the guesses are dealt and played
out by ``fastplay`` in machine code, so the same budget buys far more of them
(docs/benchmarks.md has the figures), and the estimate behind each choice is that
much less noisy. The guesses come in batches; the clock is checked between
batches, and a batch is started only while the slowest so far still fits.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import TYPE_CHECKING

from ..actions import Action, Discard, Draw, Play
from ..view import SeatView
from .search import DROP_Z, MIN_GUESSES, PICK_Z, PLAYOUT_NOISE, SearchBot, candidates, unseen_cards
from .tally import LineTally

if TYPE_CHECKING:
    import numpy as np

#: Guesses played per call into the compiled code, between looks at the clock.
BATCH = 8


class FastSearchBot(SearchBot):
    """The search bot's search (its options too), with the guesses played out in compiled code."""

    name = "fastsearch"

    def choose(self, view: SeatView) -> Action:
        """The action whose playouts won most often, from the view's seat (the view must be on its turn)."""
        import numpy as np  # here, not at the top: naming the bot loads neither numpy nor numba

        fastplay = engine()  # before the clock starts: the first call in a process loads the compiled code
        start = time.perf_counter()
        deadline = None if self.budget is None else start + self.budget
        assert view.seat is not None and view.side is not None and view.hand is not None, \
            "a bot plays a seat, not a spectator's view"
        seat, side, players, sides = view.seat, view.side, view.players, view.sides
        hand = list(view.hand)
        self.last_guesses = 0
        if not hand:
            return Draw()
        tally = LineTally(view.board, sides)
        acts = candidates(tally, hand, side, view.deck_size)
        if len(acts) == 1:
            return acts[0]
        cards_unseen, known = self.unseen(view)
        moves, mboard, mvalue, mthreat, samples = self.evidence(view)
        unseen = np.array(cards_unseen, dtype=np.int64)
        board, count, owner, value, threat = fastplay.arrays(tally)
        cards = np.array([a.card if isinstance(a, (Play, Discard)) else -1 for a in acts], dtype=np.int64)
        squares = np.array([a.square if isinstance(a, Play) else -1 for a in acts], dtype=np.int64)
        alive = np.ones(len(acts), dtype=np.bool_)
        tie_value = 1.0 / sides
        rows: list[np.ndarray] = []
        guesses = 0
        slowest = 0.0
        while self.rollouts is None or guesses < self.rollouts:
            began = time.perf_counter()
            if deadline is not None and began + slowest > deadline:
                break
            rounds = BATCH if self.rollouts is None else min(BATCH, self.rollouts - guesses)
            out = fastplay.guesses(
                seat, sides, players, board, count, owner, value, threat,
                np.array(hand, dtype=np.int64), unseen, np.array(view.hand_sizes, dtype=np.int64),
                np.array(view.skips, dtype=np.int64), cards, squares, alive, rounds, PLAYOUT_NOISE,
                self.rng.getrandbits(63), known, moves, mboard, mvalue, mthreat, samples,
                fastplay.LINE_SQUARES, fastplay.THROUGH, fastplay.WEIGHT,
            )
            rows.append(np.where(out == side, 1.0, np.where(out == fastplay.TIE, tie_value, 0.0)))
            guesses += rounds
            slowest = max(slowest, time.perf_counter() - began)
            if guesses >= MIN_GUESSES:
                scores = np.concatenate(rows)
                rows = [scores]
                if _prune(alive, scores):
                    break
        self.last_guesses = guesses
        if not rows:
            return acts[0]
        return acts[_pick(alive, np.concatenate(rows))]


    def unseen(self, view: SeatView) -> tuple[list[int], int]:
        """The cards this seat has not seen, and how many of them lead the list as known (0: none)."""
        return unseen_cards(view), 0

    def evidence(self, view: SeatView) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """The other seats' moves to weigh each guess by (``fastplay.guesses``), and hands dealt per guess.

        None here: the hidden cards are dealt uniformly.
        """
        return no_moves(view.sides)


def _edges(scores: np.ndarray, lead: int) -> np.ndarray:
    """For each candidate, how many standard errors the leader's mean lies above it (paired, guess by guess).

    The same statistic as ``search._edge``, for all candidates at once.
    """
    import numpy as np

    n = scores.shape[0]
    d = scores[:, lead:lead + 1] - scores
    se = np.sqrt((np.sum(d * d, axis=0) + 1.0) / (n + 1) / n)
    return np.asarray(np.sum(d, axis=0) / n / se)


def _leader(alive: np.ndarray, totals: np.ndarray) -> int:
    """The live candidate with the best total, the earlier one on a tie."""
    import numpy as np

    live = np.flatnonzero(alive)
    return int(live[np.argmax(totals[live])])


def _prune(alive: np.ndarray, scores: np.ndarray) -> bool:
    """Drop candidates DROP_Z standard errors behind the leader (never the rulebook's); True when it is clear."""
    import numpy as np

    lead = _leader(alive, scores.sum(axis=0))
    behind = _edges(scores, lead) >= DROP_Z
    clear = True
    for i in np.flatnonzero(alive):
        if i == lead:
            continue
        if not behind[i]:
            clear = False
        elif i != 0:
            alive[i] = False
    return clear


def _pick(alive: np.ndarray, scores: np.ndarray) -> int:
    """The best live candidate PICK_Z standard errors ahead of the rulebook's choice (candidate 0), else it."""
    import numpy as np

    totals = scores.sum(axis=0)
    ahead = -_edges(scores, 0)  # how far each candidate lies above candidate 0
    best = 0
    for i in np.flatnonzero(alive):
        if i and totals[i] > totals[best] and ahead[i] > PICK_Z:
            best = int(i)
    return best


def no_moves(sides: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """``evidence`` with no moves to weigh: empty arrays of the right shapes, one hand dealt per guess."""
    import numpy as np

    return (np.zeros((0, 6), dtype=np.int64), np.zeros((0, 100), dtype=np.int64),
            np.zeros((0, 100), dtype=np.float64), np.zeros((0, sides, 101), dtype=np.int64), 1)


_engine: ModuleType | None = None


def engine() -> ModuleType:
    """``fastplay``, its code compiled (or loaded from numba's cache) and run once in this process.

    Imported here rather than at the top so that a process that only names the
    fastsearch bot (the server's loop, which hands its moves to a worker) never loads numba.
    """
    global _engine
    if _engine is not None:
        return _engine
    import numpy as np

    from . import fastplay

    tally = LineTally([None] * 100, 2)
    board, count, owner, value, threat = fastplay.arrays(tally)
    fastplay.guesses(
        0, 2, 2, board, count, owner, value, threat, np.array([5, 50], dtype=np.int64),
        np.array([c for c in range(100) if c not in (5, 50)], dtype=np.int64), np.array([2, 2], dtype=np.int64),
        np.zeros(2, dtype=np.int64), np.array([-1, 50], dtype=np.int64), np.array([-1, 60], dtype=np.int64),
        np.ones(2, dtype=np.bool_), 1, PLAYOUT_NOISE, 1, 0, *no_moves(2), fastplay.LINE_SQUARES, fastplay.THROUGH,
        fastplay.WEIGHT,
    )
    _engine = fastplay
    return fastplay
