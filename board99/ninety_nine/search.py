"""The strong Ninety-Nine bot: determinized search over guesses at the hidden cards, read from the others' plays.

On each turn with a real choice the bot deals ``SAMPLES`` guesses at what it cannot see (the other hands, the
stock and the played pile under its top card), each consistent with its view and its memory of the deal
(``memory.PlayMemory``): the pile's known cards are in no hand, and each other hand is dealt from the cards its
remembered plays allow, as the peg-board ``infer`` bot weighs its guesses by the moves made: a card a sound player
would have played instead (``refused_ranks``) was not in that hand when it played, unless that player strayed
(each remembered play is believed with chance ``TRUST``). Then every distinct play (cards that do the same thing
count once) is tried in every guess and played out by the sound policy (``bots.SoundBot``) for every seat until
this seat fails (goes out, loses a token, sits the round out), the round ends, or ``HORIZON`` actions pass; a
play scores the share of the others who failed before this seat. The playouts run on ``playout.Round``, a lean
copy of the round, and in them this seat keeps a ten that may subtract for a high total (``KEEP``): the sound
order plays it up as +10, so a search whose own later moves did the same could never see what keeping it is worth. The sound play stands unless another beats it
over the same guesses by ``Z`` standard errors. The bot gets views only: it never reads a hidden card.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from functools import lru_cache

from .actions import Action, Draw, Play
from .bots import _worth, plays_or_draw
from .cards import Card, deck, rank_of
from .game import Game
from .memory import PlayMemory, Seen
from .playout import RANK_NO, Round
from .rules import Table
from .view import NinetyView

#: Guesses at the hidden cards per choice.
SAMPLES = 48
#: Actions a playout may last before it is scored as nobody's failure.
HORIZON = 80
#: The chance a player makes the sound play; the rest is spread over all its plays (people and other bots stray).
TRUST = 0.8
#: Standard errors by which a play's mean gain over the sound play must clear 0 for the bot to choose it instead.
Z = 1.0
#: Seconds a move may take at most by default (the server's bot worker may give less); None: ``SAMPLES`` always.
BUDGET = 1.0
#: In its own playouts the bot keeps a ten that may subtract like a special (``playout.Rules.keep_worth``).
KEEP = True
#: Guesses a choice gets in the arena, where the bot runs without a clock (``arena.py``, bench/ninety_arena.py).
ARENA_SAMPLES = 16
#: Guesses a move gets however short its budget.
MIN_SAMPLES = 2


def sound_play(plays: Sequence[Play], total: int, table: Table) -> Play:
    """The sound bot's pick among ``plays`` (``bots.SoundBot``), without a view."""
    return max(plays, key=lambda a: _worth(a, total, table.effect(rank_of(a.card))))


@lru_cache(maxsize=4096)
def refused_ranks(table: Table, seen: Seen) -> frozenset[str]:
    """The ranks a sound player would have played rather than the card of ``seen``, on the total it played on:
    a hand holding one of them then was unlikely to make that play (at 50, a 2 played says no 3-8 was held)."""
    made = _worth(Play(seen.card, seen.value, table.after(seen.before, table.effect(rank_of(seen.card)),
                                                             seen.value)), seen.before, table.effect(rank_of(seen.card)))
    refused = set()
    for rank, effect in table.effects:
        for value in effect.values or (None,):
            chosen = value if effect.choice else None
            after = table.after(seen.before, effect, chosen)
            if table.fits(after) and _worth(Play(rank, chosen, after), seen.before, effect) > made:
                refused.add(rank)
    return frozenset(refused)


class SearchBot:
    """Determinized search with guesses weighted by the others' remembered plays (module docstring)."""

    name = "search"

    def __init__(self, seed: int | None = None, samples: int = SAMPLES, horizon: int = HORIZON,
                 budget: float | None = BUDGET) -> None:
        if budget is not None and not budget > 0:
            raise ValueError(f"budget: {budget!r} seconds per move must be more than 0")
        #: Seconds per move at most (the server's bot worker reads and sets it); None: no clock, the same
        #: ``samples`` guesses every time (arena runs and tests: the same seed gives the same game).
        self.budget = budget
        self.rng = random.Random(seed)
        self.samples = samples
        self.horizon = horizon
        self.memory = PlayMemory()

    def choose(self, view: NinetyView) -> Action:
        """A draw it owes first; else the play with the best average playout over weighted guesses."""
        plays = plays_or_draw(view)
        if isinstance(plays, Draw):
            return plays
        self.memory.observe(view)
        action = self._search(view, plays)
        self.memory.acted(view, action)
        return action

    def _search(self, view: NinetyView, plays: list[Play]) -> Play:
        table = view.table
        sound = sound_play(plays, view.total, table)
        distinct: dict[tuple[object, ...], Play] = {}
        for a in sorted(plays, key=lambda a: a != sound):  # the sound play stands for its kind
            distinct.setdefault((table.effect(rank_of(a.card)), a.value), a)
        if len(distinct) == 1:
            return sound
        options = list(distinct.values())
        moves = [(RANK_NO[a.card], a.value) for a in options]
        gains: list[list[float]] = [[] for _ in options]  # per play, per guess: its score less the sound play's
        base = _base_game(view)
        me = view.seat
        assert me is not None
        others = sum(1 for s in range(view.players) if not view.out[s] and not view.sat_out[s]) - 1
        ends = None if self.budget is None else time.perf_counter() + self.budget
        while len(gains[0]) < self.samples:
            if ends is not None and len(gains[0]) >= MIN_SAMPLES and time.perf_counter() > ends:
                break
            world = Round.of(self._world(view, base))
            world.keeper = me if KEEP else -1
            scores = [self._playout(world.copy(), me, move, others) for move in moves]
            for i, score in enumerate(scores):
                gains[i].append(score - scores[0])
        best, edge = 0, 0.0
        for i in range(1, len(options)):
            sure = _sure_gain(gains[i])
            if sure > edge:
                best, edge = i, sure
        return options[best]

    def play_out(self, world: Game, view: NinetyView, action: Play) -> float:
        """``action`` played out in ``world`` (one guess at the hidden cards, as ``_world`` deals them) from ``view``'s
        seat, scored as a choice's playouts are (``_playout``); ``world`` is left as it was."""
        me = view.seat
        assert me is not None
        round_ = Round.of(world)
        round_.keeper = me if KEEP else -1
        others = sum(1 for s in range(view.players) if not view.out[s] and not view.sat_out[s]) - 1
        return self._playout(round_, me, (RANK_NO[action.card], action.value), others)

    def _playout(self, game: Round, me: int, move: tuple[int, int | None], others: int) -> float:
        """Play ``move`` then the sound policy for all until this seat fails or the round ends; the share of
        the ``others`` who failed first (a round that ends without this seat failing: 1)."""
        game.play(me, *move)
        failed = 0
        for ply in range(self.horizon):
            if game.failed:
                for seat in game.failed:
                    if seat == me:
                        return failed / others
                    failed += 1
                game.failed.clear()
            if game.ended:
                return 1.0
            if ply == self.horizon - 1:
                break
            seat = game.turn
            sound = game.sound(seat)
            assert sound is not None  # the seat to play can play, or it would have failed
            game.play(seat, *sound)
        return (failed + (others - failed) / 2) / others  # the horizon: an even chance against the rest

    def _world(self, view: NinetyView, base: Game) -> Game:
        """One guess at the hidden cards, drawn to fit the remembered plays (``refused_ranks``)."""
        table = view.table
        me = view.seat
        assert me is not None and view.hand is not None
        pool = deck(table.decks, table.jokers)
        for card in view.hand:
            pool.remove(card)
        known: list[Card] = []
        for card in self.memory.pile:
            if card in pool:
                pool.remove(card)
                known.append(card)
        others = [s for s in range(view.players) if s != me]
        need = sum(view.hand_sizes[s] for s in others) + view.stock_size
        while len(pool) < need and len(known) > 1:  # a rebuild the memory missed: those cards are hidden again
            pool.append(known.pop(0))
        self.rng.shuffle(pool)
        # Each other hand, its oldest cards first, from cards its remembered plays allow (``refused_ranks``): a
        # card held when a play was made is not one a sound player would have played instead. Each play is
        # believed with chance TRUST (people and other bots stray); a card no place allows goes to the stock.
        believed = [m for m in self.memory.seen if self.rng.random() < TRUST]
        refused = [(m, refused_ranks(table, m)) for m in believed]
        hands: list[list[Card]] = [[] for _ in range(view.players)]
        rest: list[Card] = []
        for s in others:
            size = view.hand_sizes[s]
            bans = [set().union(*(r for m, r in refused if m.seat == s and j < size - m.drawn_since))
                    for j in range(size)]
            hand: list[Card | None] = [None] * size
            for j in sorted(range(size), key=lambda j: -len(bans[j])):  # the most constrained places first
                for i, card in enumerate(pool):
                    if rank_of(card) not in bans[j]:
                        hand[j] = pool.pop(i)
                        break
            if None in hand:  # no card left fits a place: fill it from what is left, unconstrained
                hand = [c if c is not None else pool.pop() for c in hand]
            hands[s] = [c for c in hand if c is not None]
        rest = pool
        hands[me] = list(view.hand)
        stock = rest[:view.stock_size]
        under = rest[view.stock_size:view.stock_size + max(0, view.pile_size - len(known))]
        gone = rest[view.stock_size + len(under):]
        pile = under + known
        if view.top is not None and (not pile or pile[-1] != view.top):
            pile = [c for c in pile if c != view.top] + [view.top]
        game = base.copy()
        game._hands = hands
        game._stock = list(stock)
        game._pile = pile
        game._gone = list(gone)
        game._rng = random.Random(self.rng.random())
        return game


def _sure_gain(gains: Sequence[float]) -> float:
    """The mean gain less ``Z`` standard errors (paired over the same guesses): above 0 only when the gain is clear.

    Few guesses score every play noisily, and the best of several noisy scores flatters its play: the sound play
    stands unless another beats it clearly.
    """
    k = len(gains)
    if k < 2:
        return 0.0
    mean = sum(gains) / k
    var = sum((g - mean) ** 2 for g in gains) / (k - 1)
    return mean - Z * math.sqrt(var / k) - 1e-9


def _base_game(view: NinetyView) -> Game:
    """A game in the state ``view`` shows, every hidden card still to be filled in (``SearchBot._world``)."""
    game = Game(view.players, view.mode, view.table, seed=0, dealer=view.dealer or 0)
    game.deal, game.ply = view.deal, view.ply
    game.tokens, game.out, game.places = list(view.tokens), list(view.out), list(view.places)
    game.winner = view.winner
    game._total, game._direction, game._turn = view.total, view.direction, view.turn
    game._chain, game._owed = view.chain, view.owed
    game._played, game._skips = max(1, view.chain) - view.owed, 0
    game._pending = list(view.pending)
    game._sat_out = list(view.sat_out)
    return game
