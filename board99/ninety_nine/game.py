"""One table's game of Ninety-Nine: deals, the running total, the direction, skips, queens, tokens, draws.

``Game`` is the single source of truth for the rules (docs/ninety-nine.md): the
kind, the bots, the views and the records all ask it. It is deterministic from
its seed: the first dealer and every shuffle come from ``deal_rng``.

>>> from board99.ninety_nine.rules import Table
>>> g = Game(3, "guarded", Table.build(3, {"rules": "convention"}), seed=5)
>>> g.total, len(g.hand(0)), g.stock_size, g.turn == (g.dealer + 1) % 3
(0, 7, 31, True)
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from .actions import Action, Draw, Play
from .cards import Card, deck, is_card, rank_of, words
from .errors import Refused
from .events import (
    Busted,
    Corrected,
    Dealt,
    Drew,
    Event,
    Forgot,
    LostToken,
    Out,
    Owes,
    Played,
    Rebuilt,
    Reversed,
    RoundOver,
    SatOut,
    Skipped,
    TurnedUp,
    Won,
)
from .rules import Effect, Table

MODES: tuple[str, ...] = ("guarded", "penalty")


def deal_rng(seed: int, deal: int) -> random.Random:
    """The one generator behind deal ``deal``'s shuffle and its stock rebuilds (deal 0: the first dealer)."""
    return random.Random(f"board99/ninety-nine/{seed}/{deal}")


class Game:
    """A game of Ninety-Nine at one table, from the first deal until one player is left."""

    # The deal in play (set by _new_deal).
    _rng: random.Random
    _stock: list[Card]  # top card last: a draw is a pop()
    _pile: list[Card]  # the played pile, oldest first
    _hands: list[list[Card]]
    _total: int
    _direction: int  # 1: clockwise (to the left, seat + 1), -1: counter-clockwise
    _turn: int | None
    _chain: int  # queens in a row the seat to play answers (000); 0: none
    _owed: int  # cards the seat to play must still play this turn
    _played: int  # cards it has played this turn
    _skips: int  # players the end of this turn skips
    _pending: list[int]  # seats that played and may still draw, in order of play (penalty tables)
    _gone: list[Card]  # cards out of play this deal: the hands of players gone out, cards that went over 99
    _sat_out: list[bool]  # per seat: out of this round (round_end 'last-left'), back in at the next deal

    def __init__(self, players: int, mode: str = "guarded", table: Table | None = None,
                 seed: int | None = None, dealer: int | None = None) -> None:
        if type(players) is not int or not 2 <= players <= 6:
            raise ValueError(f"players: {players!r} is not allowed; Ninety-Nine is for 2 to 6 here")
        if mode not in MODES:
            raise ValueError(f"mode: {mode!r} is not a table mode; use 'guarded' or 'penalty'")
        if seed is not None and type(seed) is not int:
            raise ValueError(f"seed: {seed!r} must be a whole number")
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < players):
            raise ValueError(f"dealer: {dealer!r} is not a seat 0-{players - 1}")
        self.players = players
        self.mode = mode
        self.table = Table.build(players) if table is None else table
        #: Secret until the game ends; a live server draws it from a secure source.
        self.seed: int = secrets.randbits(63) if seed is None else seed
        self.start_dealer = dealer
        self.deal = 0
        self.ply = 0
        self.tokens = [self.table.tokens] * players
        self.out = [False] * players
        self.places: list[int] = []  # seats in the order they went out
        self.winner: int | None = None
        self.dealer = deal_rng(self.seed, 0).randrange(players) if dealer is None else dealer
        #: Every applied action and what it caused; the record is written from it.
        self.log: list[tuple[int, Action, tuple[Event, ...]]] = []
        #: What began the game: the first deal's events.
        self.opening: tuple[Event, ...] = tuple(self._new_deal(first=True))

    # -- public state ------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to play; None once the game is won."""
        return self._turn

    @property
    def over(self) -> bool:
        """True once one player is left (``board99.kinds.GameState``)."""
        return self.winner is not None

    @property
    def total(self) -> int:
        """The running total."""
        return self._total

    @property
    def direction(self) -> int:
        """1: play goes clockwise (to the left), -1: counter-clockwise."""
        return self._direction

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self._stock)

    @property
    def pile(self) -> tuple[Card, ...]:
        """The played pile since the stock was last rebuilt, oldest first (face up: everyone sees it)."""
        return tuple(self._pile)

    @property
    def chain(self) -> int:
        """Queens in a row the seat to play must answer (000); 0 when none."""
        return self._chain

    @property
    def owed(self) -> int:
        """Cards the seat to play must still play this turn (more than 1 only after queens)."""
        return self._owed

    @property
    def pending(self) -> tuple[int, ...]:
        """Seats that played without drawing and may still draw, in order of play (penalty tables)."""
        return tuple(self._pending)

    @property
    def gone(self) -> tuple[Card, ...]:
        """Cards out of play this deal, face down: the hands of players gone out, cards that went over 99."""
        return tuple(self._gone)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, in the order it got them."""
        return tuple(self._hands[seat])

    def in_game(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return tuple(s for s in range(self.players) if not self.out[s])

    def in_round(self) -> tuple[int, ...]:
        """The seats still playing this round: in the game and not sitting it out."""
        return tuple(s for s in range(self.players) if not self.out[s] and not self._sat_out[s])

    @property
    def sat_out(self) -> tuple[bool, ...]:
        """Per seat: out of this round only (tokens with round_end 'last-left'), back at the next deal."""
        return tuple(self._sat_out)

    def effect(self, card: Card) -> Effect:
        """What ``card`` does at this table."""
        return self.table.effect(rank_of(card))

    def fits(self, total: int) -> bool:
        """True if the total may be ``total`` at this table (``Table.fits``)."""
        return self.table.fits(total)

    def playable(self, seat: int) -> list[tuple[Card, int | None]]:
        """Each (card, value) ``seat`` may play now keeping the total fit; value None when the card gives no choice."""
        return self.table.playable(self._hands[seat], self._total)

    def can_play(self, seat: int) -> bool:
        """True if ``seat`` holds a card it may play without taking the total over 99 (or below zero)."""
        return bool(self.playable(seat))

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now without refusal or offence: its plays (saying the right total and
        drawing with the card), and a draw it still owes itself."""
        actions: list[Action] = []
        if self._turn == seat and self.winner is None:
            for card, value in self.playable(seat):
                effect = self.effect(card)
                actions.append(Play(card, value, self.new_total(effect, value)))
        if seat in self._pending and self.winner is None:  # a game that is over takes no action, a draw neither
            actions.append(Draw())
        return actions

    def new_total(self, effect: Effect, value: int | None) -> int:
        """The total after a card with ``effect`` played as ``value``."""
        return self.table.after(self._total, effect, value)

    # -- the rules ---------------------------------------------------------------------------

    def check(self, seat: int, action: Action) -> str | None:
        """What ``apply`` would make of ``action``, changing nothing: Refused, the offence's code, or None."""
        if self.winner is not None:
            raise Refused("game-over", f"S{self.winner} has won; the game is over")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise Refused("no-such-seat", f"seat {seat!r} is not at this {self.players}-player table")
        if self.out[seat]:
            raise Refused("seat-out", f"S{seat} is out of the game")
        if type(action) is Draw:
            if self.mode == "guarded":
                raise Refused("draw-automatic", "at a guarded table the draw comes with the card you play")
            if seat not in self._pending:
                raise Refused("no-draw-owed", "you have no draw to make: you draw after your own card, unless a "
                                              "queen stops it, and a draw that was lost cannot be made up")
            return None
        if type(action) is not Play:
            raise Refused("bad-action", f"{action!r} is not a Play or a Draw")
        if seat != self._turn:
            raise Refused("out-of-turn", f"it is S{self._turn}'s turn to play, not S{seat}'s")
        card = action.card
        if not is_card(card):
            raise Refused("not-in-hand", f"{card!r} is not a card (such as 'AS', '10H' or 'joker')")
        if not (action.say is None or type(action.say) is int) or not (
                action.value is None or type(action.value) is int):
            raise Refused("bad-value", "a value chosen and a total said are whole numbers")
        if card not in self._hands[seat]:
            raise Refused("not-in-hand", f"S{seat} does not hold the {words(card)}")
        effect = self.effect(card)
        value = action.value
        if effect.to99:
            if value is not None:
                raise Refused("bad-value", f"the {words(card)} makes the total 99: it has no value to choose")
        elif effect.choice:
            if value not in effect.values:
                raise Refused("bad-value", f"the {words(card)} {effect.words()}: choose "
                                           f"{' or '.join(map(str, effect.values))}")
        elif value is not None and value != effect.values[0]:
            raise Refused("bad-value", f"the {words(card)} {effect.words()}: it has no other value")
        total = self.new_total(effect, value)
        if total < 0 and not self.table.below_zero:
            raise Refused("below-zero", f"the total may not go below zero at this table ({self._total} "
                                        f"{total - self._total:+d} is {total})")
        if self.mode == "penalty" and action.say is None:
            raise Refused("say-total", "at a penalty table you say the new total as you play your card")
        if total > 99:
            if self.mode == "guarded":
                raise Refused("over-99", f"the {words(card)} would take the total to {total}, over 99; "
                                         f"play a card that keeps it at 99 or under")
            return "over-99"
        if action.say is not None and action.say != total:
            if self.mode == "guarded":
                raise Refused("wrong-total", f"the total would be {total}, not {action.say}")
            return "wrong-total"
        return None

    def apply(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Carry out ``action`` for ``seat``; the events it caused (also kept in ``log``), or raise Refused."""
        offence = self.check(seat, action)
        if type(action) is Play:
            events = self._play(seat, action, offence)
        else:
            events = self._late_draw(seat)
        done = tuple(events)
        self.ply += 1
        self.log.append((seat, action, done))
        return done

    def _play(self, seat: int, action: Play, offence: str | None) -> list[Event]:
        events = self._expire_on_play(seat)
        card = action.card
        self._hands[seat].remove(card)
        effect = self.effect(card)
        total = self.new_total(effect, action.value)
        shown = action.value if effect.choice else None
        if offence == "over-99":
            # The card goes face down with the hand (out) or with the round (a token lost); the total stands.
            self._gone.append(card)
            events.append(Busted(seat, card, shown, total))
            events += self._fail(seat, "over-99")
            return events
        self._pile.append(card)
        self._total = total
        events.append(Played(seat, card, shown, total))
        if offence == "wrong-total":
            assert action.say is not None
            events.append(Corrected(seat, action.say, total))
            if self.table.wrong_total == "token":
                events += self._lose_token(seat, "wrong-total")
                if self.winner is not None:
                    return events
                if self.out[seat]:
                    events += self._pass_turn(seat, 0, 0)
                    return events
        first = self._played == 0
        self._played += 1
        if effect.reverse and len(self.in_round()) > 2:
            self._direction = -self._direction
            events.append(Reversed(self._direction))
        if effect.skip:
            self._skips += 1
        if self._chain == 0:
            if self.mode == "guarded" or action.draw:
                events += self._draw(seat)
            else:
                self._pending.append(seat)
        if self._chain > 0 and first and effect.queen:
            next_chain, done = self._chain + 1, True
        else:
            self._owed -= 1
            next_chain, done = (1 if effect.queen else 0), self._owed == 0
        if not done:
            if not self.can_play(seat):
                events += self._fail(seat, "cannot-play")
            return events
        events += self._pass_turn(seat, self._skips, next_chain)
        return events

    def _expire_on_play(self, seat: int) -> list[Event]:
        """Draws lost as ``seat`` plays: its own (its turn came again), and with 003's rule everyone's."""
        pending = self._pending
        lost = [s for s in pending if s == seat or self.table.forgot == "next-play"]
        self._pending = [s for s in pending if s not in lost]
        return [Forgot(s) for s in lost]

    def _late_draw(self, seat: int) -> list[Event]:
        """A pending seat draws (penalty tables); with 002's rule the seats pending before it lose their draws."""
        at = self._pending.index(seat)
        before = self._pending[:at]
        del self._pending[at]
        events: list[Event] = []
        if self.table.forgot == "next-draw":
            events += [Forgot(s) for s in before]
            del self._pending[:at]
        return events + self._take_card(seat)

    def _draw(self, seat: int) -> list[Event]:
        """``seat`` draws with the card it played; with 002's rule every seat still pending loses its draw."""
        events: list[Event] = []
        if self.table.forgot == "next-draw":
            events += [Forgot(s) for s in self._pending]
            self._pending = []
        return events + self._take_card(seat)

    def _take_card(self, seat: int) -> list[Event]:
        """The top card of the stock to ``seat``'s hand, the stock rebuilt when it runs out."""
        events: list[Event] = []
        if not self._stock:
            events += self._rebuild()
        if not self._stock:
            events.append(Drew(seat, None))
            return events
        card = self._stock.pop()
        self._hands[seat].append(card)
        events.append(Drew(seat, card))
        if not self._stock:
            events += self._rebuild()  # 002: the player who picks up the last card turns the pile over
        return events

    def _rebuild(self) -> list[Event]:
        """The played pile but its top card becomes the stock: shuffled, or turned over as it lies (000)."""
        if len(self._pile) < 2:
            return []
        rest, self._pile = self._pile[:-1], self._pile[-1:]
        shuffled = self.table.rule_set.shuffle_rebuilt
        if shuffled:
            self._rng.shuffle(rest)
            self._stock = rest
        else:
            self._stock = rest[::-1]  # turned over: the oldest card played is the first drawn
        return [Rebuilt(len(rest), shuffled)]

    def _next(self, seat: int) -> int:
        """The next seat still in the round in the direction of play."""
        while True:
            seat = (seat + self._direction) % self.players
            if not self.out[seat] and not self._sat_out[seat]:
                return seat

    def _pass_turn(self, seat: int, skips: int, chain: int) -> list[Event]:
        """The turn passes on from ``seat`` past ``skips`` players; the one reached answers ``chain`` queens."""
        events: list[Event] = []
        seat = self._next(seat)
        for _ in range(skips):
            events.append(Skipped(seat))
            seat = self._next(seat)
        self._turn, self._chain, self._owed, self._played, self._skips = seat, chain, max(1, chain), 0, 0
        if chain:
            events.append(Owes(seat, chain))
        if not self.can_play(seat):
            events += self._fail(seat, "cannot-play")
        return events

    def _fail(self, seat: int, reason: str) -> list[Event]:
        """``seat`` cannot play (or went over 99): out of the game, or a token lost and the round over."""
        if self.table.tokens == 0:
            events = self._put_out(seat, reason)
            if self.winner is None:
                events += self._pass_turn(seat, 0, 0)
            return events
        events = self._lose_token(seat, reason)
        if self.winner is not None:
            return events
        if self.table.round_end == "last-left" and not self.out[seat]:
            self._sat_out[seat] = True  # cards face down until the next deal (000: "goes out")
            self._gone += self._hands[seat]
            self._hands[seat] = []
            self._pending = [s for s in self._pending if s != seat]
            events.append(SatOut(seat, reason))
        if self.table.round_end == "last-left" and len(self.in_round()) > 1:
            events += self._pass_turn(seat, 0, 0)
            return events
        events.append(RoundOver(self.deal))
        events += self._new_deal()
        return events

    def _lose_token(self, seat: int, reason: str) -> list[Event]:
        self.tokens[seat] -= 1
        events: list[Event] = [LostToken(seat, reason, self.tokens[seat])]
        if self.tokens[seat] == 0:
            events += self._put_out(seat, reason)
        return events

    def _put_out(self, seat: int, reason: str) -> list[Event]:
        """``seat`` is out of the game: its cards go face down, out of play."""
        place = self.players - 1 - len(self.places)
        self.out[seat] = True
        self.places.append(seat)
        self._gone += self._hands[seat]
        self._hands[seat] = []
        self._pending = [s for s in self._pending if s != seat]
        events: list[Event] = [Out(seat, reason, place)]
        left = self.in_game()
        if len(left) == 1:
            self.winner, self._turn = left[0], None
            events.append(Won(left[0]))
        return events

    def _new_deal(self, first: bool = False) -> list[Event]:
        """Deal again: a full deck shuffled, hands dealt from the dealer's left, the total back to 0."""
        self.deal += 1
        n = self.players
        if not first:
            self.dealer = self._next_in(self.dealer)  # 004: the player to the dealer's left still in the game
        rng = self._rng = deal_rng(self.seed, self.deal)
        table = self.table
        stock = deck(table.decks, table.jokers)
        rng.shuffle(stock)
        self._stock = stock
        self._pile = []
        self._hands = [[] for _ in range(n)]
        self._total, self._direction = 0, 1
        self._chain, self._owed, self._played, self._skips = 0, 1, 0, 0
        self._pending = []
        self._gone = []
        self._sat_out = [False] * n
        order = []
        seat = self.dealer
        for _ in self.in_game():
            seat = self._next_in(seat)
            order.append(seat)
        for _ in range(table.hand_size):
            for seat in order:
                self._hands[seat].append(stock.pop())
        events: list[Event] = [Dealt(self.deal, self.dealer, table.hand_size)]
        if not table.rule_set.turn_up:
            events += self._pass_turn(self.dealer, 0, 0)
            return events
        # 000: the top card of the stock is turned up and acts as if the dealer had played it.
        card = stock.pop()
        effect = self.effect(card)
        values = [v for v in effect.values if self.fits(v)]
        value = values[0] if values else 0  # the dealer's choice is made for them: the first value that fits
        self._total = 99 if effect.to99 else value
        self._pile.append(card)
        events.append(TurnedUp(self.dealer, card, value if effect.choice else None, self._total))
        if effect.reverse and len(self.in_round()) > 2:
            self._direction = -1
            events.append(Reversed(-1))
        events += self._pass_turn(self.dealer, int(effect.skip), int(effect.queen))
        return events

    def _next_in(self, seat: int) -> int:
        """The next seat to the left (clockwise) still in the game: dealing goes that way."""
        while True:
            seat = (seat + 1) % self.players
            if not self.out[seat]:
                return seat

    # -- copies ----------------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the whole state (without the log), for search and staging."""
        g = Game.__new__(Game)
        state: dict[str, Any] = dict(self.__dict__)
        g.__dict__.update(state)
        g.log = []
        g.tokens, g.out, g.places = list(self.tokens), list(self.out), list(self.places)
        g._stock, g._pile, g._pending = list(self._stock), list(self._pile), list(self._pending)
        g._gone, g._sat_out = list(self._gone), list(self._sat_out)
        g._hands = [list(h) for h in self._hands]
        g._rng = random.Random()
        g._rng.setstate(self._rng.getstate())
        return g

