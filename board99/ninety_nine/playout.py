"""A lean copy of one round of Ninety-Nine for the search bot's playouts: cards as rank numbers, no events, no log.

``Game`` (game.py) is the rules' one source of truth and checks every action; a playout plays hundreds of sound
moves a choice and needs none of that. ``Round`` holds what a playout needs of a game (the hands, the stock, the
pile, the total, the direction, the turn, queens owed, tokens, who is out) and plays a card as ``Game._play`` does
at a guarded table, the draw with the card: the same reverses (more than two in the round), skips, queen chains,
stock rebuilds (shuffled by the same generator, so the same cards come up), failures, tokens and seats going out.
It stops at what ends a playout (``search.SearchBot._playout``): a round that is over, or a game that is won;
it never deals again. tests/test_ninety_nine_bots.py plays it in step with ``Game`` to keep the two the same.

>>> from board99.ninety_nine.rules import Table
>>> g = Game(3, "guarded", Table.build(3, {"rules": "convention"}), seed=5)
>>> r = Round.of(g)
>>> r.total, [len(h) for h in r.hands], r.turn == g.turn
(0, [7, 7, 7], True)
"""

from __future__ import annotations

import random
from functools import lru_cache

from .cards import ALL_RANKS, Card, rank_of
from .game import Game
from .rules import Effect, Table

#: Rank number of every card ('AS' -> 0, 'KD' -> 12, 'joker' -> 13).
RANK_NO: dict[Card, int] = {}
for _card in ("joker", *(r + s for r in ALL_RANKS[:-1] for s in "SHDC")):
    RANK_NO[_card] = ALL_RANKS.index(rank_of(_card))


class Rules:
    """A table's rules as flat per-rank arrays (index: ``ALL_RANKS``), and the sound bot's order of plays."""

    def __init__(self, table: Table) -> None:
        effects = [table.effect(rank) for rank in ALL_RANKS]
        self.values = [e.values for e in effects]
        self.to99 = [e.to99 for e in effects]
        self.reverse = [e.reverse for e in effects]
        self.skip = [e.skip for e in effects]
        self.queen = [e.queen for e in effects]
        self.choice = [e.choice for e in effects]
        self.low = -10_000 if table.below_zero else 0
        self.tokens = table.tokens
        self.last_left = table.round_end == "last-left"
        self.shuffled = table.rule_set.shuffle_rebuilt
        # The sound bot's worth of a play (bots._worth) as one number, larger first: class * 1000 + 500 + amount.
        self.worth: list[dict[int, int]] = []
        for e in effects:
            special = e.to99 or e.reverse or e.skip or e.queen
            keys = {}
            for v in e.values:
                if not special and v > 0:
                    keys[v] = 3500 + v
                elif v >= 0:
                    keys[v] = 2500 - v
                else:
                    keys[v] = 500 + v
            self.worth.append(keys)
        # The searching seat's own order (``Round.keeper``): a card that could take the total down (a ten as +10 or
        # -10) is kept like a special, played up only once no plain card fits, before the cards that add nothing.
        self.keep_worth = [{v: (3000 + v if v > 0 and _kept(e) else k) for v, k in keys.items()}
                           for e, keys in zip(effects, self.worth)]


#: Which choice cards the searching seat keeps: 'minus' (a ten that may subtract), 'choice' (an ace too).
KEPT = "minus"


def _kept(effect: Effect) -> bool:
    return len(effect.values) > 1 and (min(effect.values) < 0 or KEPT == "choice")


@lru_cache(maxsize=64)
def rules_of(table: Table) -> Rules:
    """``Rules`` for ``table`` (made once per table)."""
    return Rules(table)


class Round:
    """One round of a game in rank numbers, played card by card with the draw (module docstring)."""

    __slots__ = ("rules", "players", "hands", "stock", "pile", "total", "direction", "turn", "chain", "owed",
                 "played", "skips", "tokens", "out", "sat_out", "alive", "left", "rng", "failed", "ended", "keeper")

    rules: Rules
    players: int
    hands: list[list[int]]
    stock: list[int]  # top card last
    pile: list[int]
    total: int
    direction: int
    turn: int
    chain: int
    owed: int
    played: int
    skips: int
    tokens: list[int]
    out: list[bool]
    sat_out: list[bool]
    alive: int  # seats in the round (not out, not sitting out)
    left: int  # seats in the game
    rng: random.Random
    failed: list[int]  # seats that failed since the last ``take_failed``, in order
    ended: bool  # the round is over or the game won: the playout stops
    keeper: int  # the seat that plays by ``Rules.keep_worth`` (the searching seat; -1: none)

    @classmethod
    def of(cls, game: Game) -> Round:
        """The round ``game`` is in (its turn must be a seat's)."""
        r = cls.__new__(cls)
        r.rules = rules_of(game.table)
        r.players = game.players
        r.hands = [[RANK_NO[c] for c in game._hands[s]] for s in range(game.players)]
        r.stock = [RANK_NO[c] for c in game._stock]
        r.pile = [RANK_NO[c] for c in game._pile]
        r.total, r.direction = game._total, game._direction
        assert game._turn is not None
        r.turn, r.chain, r.owed, r.played, r.skips = game._turn, game._chain, game._owed, game._played, game._skips
        r.tokens, r.out, r.sat_out = list(game.tokens), list(game.out), list(game._sat_out)
        r.alive = sum(1 for s in range(game.players) if not r.out[s] and not r.sat_out[s])
        r.left = sum(1 for s in range(game.players) if not r.out[s])
        r.rng = random.Random()
        r.rng.setstate(game._rng.getstate())  # the game's own generator stays the game's
        r.failed, r.ended, r.keeper = [], False, -1
        return r

    def copy(self) -> Round:
        """An independent copy (its own generator in the same state)."""
        r = Round.__new__(Round)
        r.rules, r.players = self.rules, self.players
        r.hands = [h[:] for h in self.hands]
        r.stock, r.pile = self.stock[:], self.pile[:]
        r.total, r.direction, r.turn = self.total, self.direction, self.turn
        r.chain, r.owed, r.played, r.skips = self.chain, self.owed, self.played, self.skips
        r.tokens, r.out, r.sat_out = self.tokens[:], self.out[:], self.sat_out[:]
        r.alive, r.left = self.alive, self.left
        r.rng = random.Random()
        r.rng.setstate(self.rng.getstate())
        r.failed, r.ended, r.keeper = [], False, self.keeper
        return r

    # -- choosing ----------------------------------------------------------------------------

    def sound(self, seat: int) -> tuple[int, int | None] | None:
        """The sound bot's play for ``seat`` as (rank, value; None for no choice), or None when nothing fits (the
        ``keeper`` seat's own order for it: ``Rules.keep_worth``)."""
        rules = self.rules
        total, low = self.total, rules.low
        best: tuple[int, int | None] | None = None
        best_key = -1
        keeper, keep = seat == self.keeper, rules.keep_worth
        for rank in self.hands[seat]:
            if rules.to99[rank]:
                key = 1500 - (99 - total)
                if key > best_key:
                    best, best_key = (rank, None), key
                continue
            worth = keep[rank] if keeper else rules.worth[rank]
            choice = rules.choice[rank]
            for v in rules.values[rank]:
                if low <= total + v <= 99:
                    key = worth[v]
                    if key > best_key:
                        best, best_key = (rank, v if choice else None), key
        return best

    def can_play(self, seat: int) -> bool:
        """True if ``seat`` holds a card that keeps the total fit."""
        rules = self.rules
        total, low = self.total, rules.low
        for rank in self.hands[seat]:
            if rules.to99[rank]:
                return True
            for v in rules.values[rank]:
                if low <= total + v <= 99:
                    return True
        return False

    # -- playing -----------------------------------------------------------------------------

    def play(self, seat: int, rank: int, value: int | None) -> None:
        """``seat`` plays a card of ``rank`` (``value`` for a card with a choice) that fits, and draws with it."""
        rules = self.rules
        self.hands[seat].remove(rank)
        self.total = 99 if rules.to99[rank] else self.total + (rules.values[rank][0] if value is None else value)
        self.pile.append(rank)
        first = self.played == 0
        self.played += 1
        if rules.reverse[rank] and self.alive > 2:
            self.direction = -self.direction
        if rules.skip[rank]:
            self.skips += 1
        if self.chain == 0:
            self._draw(seat)
        queen = rules.queen[rank]
        if self.chain > 0 and first and queen:
            next_chain, done = self.chain + 1, True
        else:
            self.owed -= 1
            next_chain, done = (1 if queen else 0), self.owed == 0
        if not done:
            if not self.can_play(seat):
                self._fail(seat)
            return
        self._pass_turn(seat, self.skips, next_chain)

    def _draw(self, seat: int) -> None:
        if not self.stock:
            self._rebuild()
        if not self.stock:
            return
        self.hands[seat].append(self.stock.pop())
        if not self.stock:
            self._rebuild()

    def _rebuild(self) -> None:
        pile = self.pile
        if len(pile) < 2:
            return
        rest, self.pile = pile[:-1], pile[-1:]
        if self.rules.shuffled:
            self.rng.shuffle(rest)
            self.stock = rest
        else:
            self.stock = rest[::-1]

    def _next(self, seat: int) -> int:
        out, sat_out, n, d = self.out, self.sat_out, self.players, self.direction
        while True:
            seat = (seat + d) % n
            if not out[seat] and not sat_out[seat]:
                return seat

    def _pass_turn(self, seat: int, skips: int, chain: int) -> None:
        while True:  # a seat that cannot play fails and the turn passes on (Game._pass_turn and _fail)
            seat = self._next(seat)
            for _ in range(skips):
                seat = self._next(seat)
            self.turn, self.chain, self.owed, self.played, self.skips = seat, chain, max(1, chain), 0, 0
            if self.can_play(seat):
                return
            if not self._fail_only(seat):
                return
            skips, chain = 0, 0

    def _fail(self, seat: int) -> None:
        if self._fail_only(seat):
            self._pass_turn(seat, 0, 0)

    def _fail_only(self, seat: int) -> bool:
        """``seat`` fails (Game._fail): True when play goes on from it this round."""
        self.failed.append(seat)
        if self.rules.tokens == 0:
            self._put_out(seat)
            return not self.ended
        self.tokens[seat] -= 1
        if self.tokens[seat] == 0:
            self._put_out(seat)
            if self.ended:
                return False
        if self.rules.last_left and not self.out[seat]:
            self.sat_out[seat] = True
            self.alive -= 1
            self.hands[seat] = []
        if self.rules.last_left and self.alive > 1:
            return True
        self.ended = True  # the round is over
        return False

    def _put_out(self, seat: int) -> None:
        self.out[seat] = True
        self.hands[seat] = []
        self.left -= 1
        if not self.sat_out[seat]:
            self.alive -= 1
        if self.left == 1:
            self.ended = True  # the game is won
