"""Helpers that set up rule scenarios: stacked decks and positions built from pegs and hands."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from board99 import Game

if TYPE_CHECKING:
    from board99.bots.search import Playout


def stacked(top: Iterable[int]) -> list[int]:
    """A full deck, top card first: ``top`` in that order, then every other card ascending."""
    top = list(top)
    return top + [c for c in range(100) if c not in top]


def position(
    players: int = 2,
    mode: str = "guarded",
    pegs: Mapping[int, Iterable[int]] | None = None,
    hands: Mapping[int, Iterable[int]] | None = None,
    turn: int = 0,
    deck_top: Iterable[int] = (),
    seed: int = 0,
) -> Game:
    """A game in a chosen position: ``pegs`` per side, ``hands`` per seat, ``turn`` to act.

    The cards behind the pegs count as discarded by the side's first seat, so
    all 100 cards stay accounted for; the deck is ``deck_top`` then the rest.
    """
    view = Game(players, mode, seed=seed, first=turn).view(None)
    hands_list = [list((hands or {}).get(s, ())) for s in range(players)]
    held = {c for h in hands_list for c in h}
    board = [None] * 100
    discards: list[list[int]] = [[] for _ in range(players)]
    spare = [c for c in range(100) if c not in held and c not in set(deck_top)]
    for side, squares in (pegs or {}).items():
        for sq in squares:
            board[sq] = side
            # the lowest spare card that fits paid for this peg
            card = next(c for c in spare if c <= sq)
            spare.remove(card)
            discards[side].append(card)
    view = view._replace(board=tuple(board), discards=tuple(map(tuple, discards)),
                         hand_sizes=tuple(len(h) for h in hands_list), turn=turn)
    deck = list(deck_top) + spare
    return Game.from_view(view, hands_list, deck, seed=seed)


def reshuffled_unseen(game: Game, seat: int | None, salt: int = 0) -> Game:
    """The same game with every card ``seat`` cannot see (other hands, the deck) dealt anew."""
    import random

    view = game.view(seat)
    others = [s for s in range(game.players) if s != seat]
    unseen = [c for s in others for c in game.hand(s)] + list(game._deck)
    random.Random(salt).shuffle(unseen)
    hands: list[list[int]] = []
    for s in range(game.players):
        if s == seat:
            hands.append(list(game.hand(s)))
        else:
            size = len(game.hand(s))
            hands.append(unseen[:size])
            unseen = unseen[size:]
    return Game.from_view(view, hands, unseen, seed=game.seed)


def mid_game(players: int, plies: int, seed: int) -> Game:
    """A game the rulebook bot has played for ``plies`` actions from seat 0's opening (sooner if won)."""
    from board99.bots import RulebookBot

    game = Game(players, seed=seed, first=0)
    bot = RulebookBot()
    while game.ply < plies and game.winner is None:
        game.apply(game.turn, bot.choose(game.view(game.turn)))
    return game


def fresh_playout(seed: int, skips: list[int] | None = None) -> Playout:
    """A deal's start as a search playout: 2, 3, 4 or 6 players by ``seed``, empty hands, a deck shuffled
    from ``seed``, seat ``seed % players`` to act; ``skips`` per seat (none by default)."""
    from board99 import sides_for
    from board99.bots.search import Playout
    from board99.bots.tally import LineTally

    players = (2, 3, 4, 6)[seed % 4]
    deck = list(range(100))
    random.Random(seed).shuffle(deck)
    return Playout(LineTally([None] * 100, sides_for(players)), [[] for _ in range(players)], deck, seed % players,
                   list(skips) if skips is not None else [0] * players, players)


def play_legally(game: Game, bots: list, plies: int, rng: random.Random):
    """Let ``bots`` play ``game`` for up to ``plies`` turns, asserting each move legal and no penalty; yield
    after each. In penalty mode someone now and then draws out of turn, so the bots meet shown cards and
    pending skips too."""
    from board99 import Draw

    for _ in range(plies):
        if game.winner is not None:
            return
        if game.mode == "penalty" and game.deck_size and rng.random() < 0.05:
            offender = (game.turn + 1) % game.players
            assert game.apply(offender, Draw())[0].kind == "penalty"
            continue
        seat = game.turn
        action = bots[seat].choose(game.view(seat))
        assert action in game.legal_actions(seat), (seat, action, game.view(seat))
        assert all(e.kind != "penalty" for e in game.apply(seat, action))
        yield
