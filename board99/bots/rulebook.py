"""The rulebook bot: the 1963 rulebook's playing hints, in order, as a policy.

1. Win at once when a card in hand completes a line of five.
2. Block an opponent's four (four pegs of one other side and the fifth square
   free) with the highest card that fits the fifth square.
3. Don't run out of cards: with two live cards or fewer, draw while the deck
   lasts, rather than play them.
4. Otherwise peg the square worth most (``LineTally.value``): every line of
   five through it that some side can still complete, weighted 1, 4, 16, 64 by
   that side's pegs in it -- its own lines to build "in more than one
   direction", the opponents' lines to cut -- less 0.15 per point of waste
   (square - card). The card is always the highest that fits, so the low
   cards are saved for the low squares in the centre, and high cards go on
   high squares. A play worth less than 4 is not made while a draw is possible.
5. Discard a dead card (every square it fits is taken) when the hand is full.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Discard, Draw, Play
from ..cards import HAND_LIMIT
from ..view import SeatView
from .tally import TAKEN, WASTE, LineTally

#: Below this score a play is not worth a turn while the deck still lets the bot draw.
THRESHOLD = 4.0
#: Cards to keep in hand ("avoid playing the last two cards") unless winning or blocking.
RESERVE = 2


def highest_fitting(hand: Sequence[int], square: int) -> int:
    """The highest card in ``hand`` that allows ``square`` (the caller knows one does)."""
    return max(c for c in hand if c <= square)


def win_square(tally: LineTally, side: int, lowest: int) -> int:
    """A free square that completes a five for ``side`` with a card >= ``lowest``, or -1."""
    best = -1
    for sq in tally.threats[side]:
        if sq >= lowest and sq > best:
            best = sq
    return best


def block_square(tally: LineTally, side: int, lowest: int) -> int:
    """An opponent's winning square that a card >= ``lowest`` can peg first, or -1.

    With several, the highest-numbered: most cards fit it, so the opponent is
    likeliest to hold one.
    """
    best = -1
    for s in range(tally.sides):
        if s != side:
            for sq in tally.threats[s]:
                if sq >= lowest and sq > best:
                    best = sq
    return best


def ranked_plays(tally: LineTally, cards: Sequence[int], limit: int = 1) -> list[tuple[float, int, int]]:
    """The ``limit`` best plays as (score, card, square), best first; each square with its highest fitting card."""
    live = sorted(cards)
    value = tally.value
    scored: list[tuple[float, int, int]] = []
    for k, card in enumerate(live):
        end = tally.free_top + 1 if k + 1 == len(live) else min(live[k + 1], tally.free_top + 1)
        scored.extend((value[sq] + WASTE * card, card, sq) for sq in range(card, end) if value[sq] > TAKEN / 2)
    scored.sort(reverse=True)
    return scored[:limit]


def best_play(
    tally: LineTally,
    live: Sequence[int],
    rng: random.Random | None = None,
    noise: float = 0.0,
) -> tuple[float, int, int]:
    """The best play as (score, card, square), as ``ranked_plays`` ranks them; ``live`` sorted, not empty.

    The playouts' inner loop: one C-level ``max`` per card. ``noise`` adds up to
    that much, drawn from ``rng``, to each card's best score, so playouts vary.
    """
    value = tally.value
    best_v, best_c, best_sq = TAKEN, -1, -1
    top = tally.free_top + 1
    n = len(live)
    for k in range(n):
        card = live[k]
        end = top if k + 1 == n else min(live[k + 1], top)
        if end <= card:
            continue
        segment = value[card:end]
        m = max(segment)
        if m <= TAKEN / 2:
            continue  # every square this card alone reaches is taken
        v = m + WASTE * card
        if noise:
            v += noise * rng.random()  # type: ignore[union-attr]
        if v > best_v:
            best_v, best_c, best_sq = v, card, card + segment.index(m)
    return best_v, best_c, best_sq


def decide(
    tally: LineTally,
    hand: Sequence[int],
    side: int,
    deck_size: int,
    rng: random.Random | None = None,
    noise: float = 0.0,
) -> Action:
    """The rulebook's choice for ``side`` holding ``hand`` on this board (always legal in guarded mode)."""
    if not hand:
        return Draw()
    can_draw = len(hand) < HAND_LIMIT and deck_size > 0
    lowest = min(hand)
    sq = win_square(tally, side, lowest)
    if sq >= 0:
        return Play(highest_fitting(hand, sq), sq)
    sq = block_square(tally, side, lowest)
    if sq >= 0:
        return Play(highest_fitting(hand, sq), sq)
    top = tally.free_top
    live = [c for c in hand if c <= top]
    dead = [c for c in hand if c > top]
    if not live:
        return Draw() if can_draw else Discard(max(dead))
    if deck_size > 0 and len(live) <= RESERVE:
        return Draw() if can_draw else Discard(max(dead))  # a full hand here holds >= 3 dead cards
    live.sort()
    best = best_play(tally, live, rng, noise)
    if best[1] < 0:  # no free square fits a live card: cannot happen, but stay legal
        return Draw() if can_draw else Discard(max(hand))
    if best[0] < THRESHOLD and deck_size > 0:
        if can_draw:
            return Draw()
        if dead:
            return Discard(max(dead))
    return Play(best[1], best[2])


class RulebookBot:
    """Plays the rulebook's hints: win, block a four, keep two cards, best square for the highest card."""

    name = "rulebook"

    def __init__(self, seed: int | None = None) -> None:
        # Deterministic: the seed is accepted for the common bot interface only.
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        """The rulebook's action for the view's seat (the view must be on its turn)."""
        assert view.hand is not None and view.side is not None, "a bot plays a seat, not a spectator's view"
        tally = LineTally(view.board, view.sides)
        return decide(tally, view.hand, view.side, view.deck_size)
