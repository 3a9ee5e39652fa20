"""A lesson's position made into the engine's ``Game``: its own deal, or every card put where the lesson says.

``stage`` is the one place that lays a position out. With ``deal = true``
the engine deals from the table's seed and dealer, as at any table (the
turned-up card, 000, is the engine's), and the lesson's hands and turned-up
card are checked against that deal. Otherwise the game is made as a deal
would make it and its state is then set card by card, as the search bot
sets its guesses (``search._world``): the hands, the pile, the stock's top
cards (the rest of the deck below them, shuffled by the seed), the total,
the direction, the turn, the tokens and who is out. A position the engine
could not have reached is a ``LessonError``: a card used twice, a hand
larger than the table deals, a total the table does not allow, a seat to
play that holds nothing that fits (the engine would have put it out).
"""

from __future__ import annotations

import random
from collections import Counter

from ..cards import Card, deck, words
from ..game import Game
from .model import Lesson, LessonError


def stage(lesson: Lesson) -> Game:
    """The engine's game at ``lesson``'s position (before its setup actions)."""
    t, p = lesson.table, lesson.position
    rules = t.build()
    game = Game(t.players, t.mode, rules, seed=t.seed, dealer=p.dealer)

    def fail(field: str, message: str) -> LessonError:
        return LessonError(lesson.name, "position." + field, message)

    if p.deal:
        if p.turned_up is not None and (not game.pile or game.pile[0] != p.turned_up):
            turned = game.pile[0] if game.pile else None
            raise fail("turned_up", f"the deal turns up {turned or 'no card'}, not {p.turned_up}")
        for seat, hand in enumerate(p.hands):
            if hand and sorted(hand) != sorted(game.hand(seat)):  # an empty list: that hand is not checked
                raise fail(f"hands[{seat + 1}]", f"the deal gives S{seat} {', '.join(game.hand(seat))}")
        return game
    pool = Counter(deck(rules.decks, rules.jokers))
    placed = [*p.pile, *p.stock, *(c for hand in p.hands for c in hand)]
    for card, n in Counter(placed).items():
        if n > pool[card]:
            raise fail("hands", f"the {words(card)} is placed {n} times; this table's deck has {pool[card]}")
    pool.subtract(placed)
    for seat, hand in enumerate(p.hands):
        if seat in p.out and hand:
            raise fail(f"hands[{seat + 1}]", f"S{seat} is out of the game: its hand is empty")
        if len(hand) > rules.hand_size:
            raise fail(f"hands[{seat + 1}]", f"{len(hand)} cards, but this table deals {rules.hand_size}")
    if p.tokens is not None and rules.tokens and any(
            p.tokens[s] == 0 for s in range(t.players) if s not in p.out):
        raise fail("tokens", "a seat with no token left is out of the game: list it in position.out")
    if not rules.fits(p.total):
        raise fail("total", f"{p.total} is not a total this table allows")
    rest: list[Card] = sorted(pool.elements())
    random.Random(f"board99-nn-lesson/{t.seed}").shuffle(rest)
    # The engine's own state, as a deal and the plays before it would have left it (the engine's names).
    game._hands = [list(hand) for hand in p.hands]
    game._pile = list(p.pile)
    game._stock = list(reversed([*p.stock, *rest]))  # the engine draws from the end
    game._gone = []
    game._total, game._direction, game._turn = p.total, p.direction, p.turn
    game._chain, game._owed, game._played, game._skips = 0, 1, 0, 0
    game._pending = []
    game._sat_out = [False] * t.players
    game.tokens = list(p.tokens) if p.tokens is not None else [rules.tokens] * t.players
    game.out = [seat in p.out for seat in range(t.players)]
    game.places = list(p.out)
    game.opening = ()
    if not game.can_play(p.turn):
        raise fail("turn", f"S{p.turn} holds nothing that fits a total of {p.total}: the engine puts such a "
                           f"player out as the turn comes to them; let a scripted play pass the turn to them")
    return game
