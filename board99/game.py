"""One table's game: seats, sides, deck, hands, the board, turns and penalties.

``Game`` is the single source of truth for the rules (RULES.md): the server,
the bots and the records all ask it; nothing else decides what is legal.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from .actions import Action, Discard, Draw, Play
from .cards import HAND_LIMIT
from .errors import Refused
from .events import Dealt, Discarded, Drew, Event, Passed, Penalty, Played, Skipped, Tied, Won
from .layout import BIT, has_five, winning_run

PLAYER_COUNTS = (2, 3, 4, 6)
MODES = ("guarded", "penalty")


def sides_for(players: int) -> int:
    """How many sides play: 2 or 3 players alone, 4 or 6 as sides of two partners."""
    return players if players <= 3 else players // 2


def deal_rng(seed: int, deal: int) -> random.Random:
    """The one generator behind every shuffle and random place in deal ``deal``."""
    # A str seed is hashed with SHA-512 by random.Random: stable across runs
    # and platforms, and independent of PYTHONHASHSEED.
    return random.Random(f"board99/{seed}/{deal}")


def _check_card(card: object) -> None:
    # type() not isinstance(): True is an int and must not pass as card 1
    if type(card) is not int or not 0 <= card <= 99:
        raise Refused("no-such-card", f"card {card!r}: a card is a whole number from 0 to 99")


def _check_square(square: object) -> None:
    if type(square) is not int or not 0 <= square <= 99:
        raise Refused("no-such-square", f"square {square!r}: squares are numbered 0 to 99")


class Game:
    """A game of 99 at one table, from the first cut to a win (ties replay the deal).

    >>> g = Game(players=2, seed=1, first=0)
    >>> g.turn, g.deck_size, g.hand(0)
    (0, 100, ())
    >>> [e.kind for e in g.apply(0, Draw())]
    ['drew']
    >>> len(g.hand(0)), g.turn
    (1, 1)
    """

    def __init__(
        self,
        players: int = 2,
        mode: str = "guarded",
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        first: int | None = None,
    ) -> None:
        if players not in PLAYER_COUNTS:
            raise ValueError(f"players: {players!r} is not allowed; the game is for 2, 3, 4 or 6")
        if mode not in MODES:
            raise ValueError(f"mode: {mode!r} is not a table mode; use 'guarded' or 'penalty'")
        if deck is not None and sorted(deck) != list(range(100)):
            raise ValueError("deck: must list each of the 100 cards 0-99 exactly once, top card first")
        if first is not None and (type(first) is not int or not 0 <= first < players):
            raise ValueError(f"first: {first!r} is not a seat 0-{players - 1}")
        if seed is not None and type(seed) is not int:
            raise ValueError(f"seed: {seed!r} must be a whole number")
        self.players = players
        self.mode = mode
        self.sides = sides_for(players)
        #: Secret until the game ends; a live server draws it from a secure source.
        self.seed = secrets.randbits(63) if seed is None else seed
        self.start_deck = None if deck is None else tuple(deck)
        self.start_first = first
        self.deal = 0
        self.ply = 0  # actions applied (not refused) so far, across deals
        #: Every applied action and what it caused; the record is written from it.
        self.log: list[tuple[int, Action, list[Event]]] = []
        self.opening: list[Event] = self._new_deal()

    # -- public state ------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is; None once the deal is won."""
        return self._turn

    @property
    def deck_size(self) -> int:
        """Cards left in the deck."""
        return len(self._deck)

    @property
    def winner(self) -> int | None:
        """The side that won, or None while the game goes on."""
        return self._winner

    @property
    def winning_line(self) -> tuple[int, ...] | None:
        """The squares of the winning run (five or more), or None."""
        return self._line

    @property
    def cut(self) -> tuple[int, ...] | None:
        """This deal's cut: one card shown per seat, or None if the opener was set."""
        return self._cut

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds, in the order drawn."""
        return tuple(self._hands[seat])

    def discards(self, seat: int) -> tuple[int, ...]:
        """``seat``'s face-up discard pile, oldest first."""
        return tuple(self._discards[seat])

    def skips(self, seat: int) -> int:
        """Turns ``seat`` will still lose to penalties."""
        return self._skips[seat]

    def occupant(self, square: int) -> int | None:
        """The side whose peg is on ``square``, or None if it is free."""
        return self._board[square]

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for; partners (seat s and s + n/2) share one."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat: {seat!r} is not a seat 0-{self.players - 1}")
        return seat % self.sides

    def partners(self, side: int) -> tuple[int, ...]:
        """The seats of one side."""
        return tuple(range(side, self.players, self.sides))

    def pegs(self, side: int) -> int:
        """The side's pegs as a bitboard (see board99.layout)."""
        return self._pegs[side]

    # -- the rules ---------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take without offence now (empty when not its turn)."""
        if self._winner is not None or seat != self._turn:
            return []
        hand = self._hands[seat]
        board = self._board
        actions: list[Action] = [
            Play(card, sq) for card in hand for sq in range(card, 100) if board[sq] is None
        ]
        if len(hand) < HAND_LIMIT and self._deck:
            actions.append(Draw())
        actions.extend(Discard(card) for card in hand)
        return actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out ``action`` for ``seat``; return what it caused, or raise Refused."""
        if self._winner is not None:
            raise Refused("deal-over", f"side {self._winner} has won; the game is over")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise Refused("no-such-seat", f"seat {seat!r} is not at this {self.players}-player table")
        kind = type(action)
        if kind is Play:
            events = self._play(seat, action.card, action.square)
        elif kind is Draw:
            events = self._draw(seat)
        elif kind is Discard:
            events = self._discard(seat, action.card)
        else:
            raise Refused("bad-action", f"{action!r} is not a Play, Draw or Discard")
        self.ply += 1
        self.log.append((seat, action, events))
        return events

    def _offence(self, code: str, message: str) -> None:
        # Called where an offence is about to happen: guarded mode refuses it.
        if self.mode == "guarded":
            raise Refused(code, message)

    def _play(self, seat: int, card: int, square: int) -> list[Event]:
        _check_card(card)
        _check_square(square)
        self._check_held(seat, card)
        if self._board[square] is not None:
            raise Refused("occupied", f"square {square} already holds a peg of side {self._board[square]}")
        if seat != self._turn:
            self._out_of_turn(seat)
            # The peg goes in and comes straight out: the board never changes.
            self._to_discards(seat, card)
            return [Penalty(seat, "play-out-of-turn", card, square)]
        if square < card:
            self._offence("below-card", f"card {card} allows squares {card} to 99, not square {square}")
            self._to_discards(seat, card)
            return self._end_turn([Penalty(seat, "illegal-play", card, square)])
        self._to_discards(seat, card)
        side = seat % self.sides
        self._board[square] = side
        pegs = self._pegs[side] | BIT[square]
        self._pegs[side] = pegs
        events: list[Event] = [Played(seat, card, square)]
        if has_five(pegs):
            line = winning_run(pegs, square)
            assert line is not None  # only the new peg can have made the run
            self._winner, self._line, self._turn = side, line, None
            events.append(Won(side, seat, line))
            return events
        return self._end_turn(events)

    def _draw(self, seat: int) -> list[Event]:
        deck = self._deck
        if not deck:
            raise Refused("deck-empty", "the deck is empty; play or discard instead")
        if seat != self._turn:
            self._out_of_turn(seat)
            return [self._show_and_return(seat, "draw-out-of-turn")]
        if len(self._hands[seat]) >= HAND_LIMIT:
            self._offence("hand-full", f"S{seat} already holds {HAND_LIMIT} cards; play or discard")
            return self._end_turn([self._show_and_return(seat, "illegal-draw")])
        card = deck.pop()
        self._hands[seat].append(card)
        return self._end_turn([Drew(seat, card)])

    def _show_and_return(self, seat: int, offence: str) -> Penalty:
        # The drawn card is shown to all, then cut back in at a uniformly random place.
        deck = self._deck
        card = deck.pop()
        deck.insert(self._rng.randrange(len(deck) + 1), card)
        self._shown.append(card)
        return Penalty(seat, offence, card, -1)

    def _discard(self, seat: int, card: int) -> list[Event]:
        _check_card(card)
        self._check_held(seat, card)
        if seat != self._turn:
            self._out_of_turn(seat)
            self._to_discards(seat, card)
            return [Penalty(seat, "discard-out-of-turn", card, -1)]
        self._to_discards(seat, card)
        return self._end_turn([Discarded(seat, card)])

    def _check_held(self, seat: int, card: int) -> None:
        if card not in self._hands[seat]:
            raise Refused("not-in-hand", f"S{seat} does not hold card {card}")

    def _to_discards(self, seat: int, card: int) -> None:
        # Every card a seat plays or throws away, peg kept or not, ends on its own discard pile.
        self._hands[seat].remove(card)
        self._discards[seat].append(card)

    def _out_of_turn(self, seat: int) -> None:
        # In guarded mode _offence refuses; in penalty mode the offender loses its next turn.
        self._offence("out-of-turn", f"it is S{self._turn}'s turn, not S{seat}'s")
        self._skips[seat] += 1

    def _end_turn(self, events: list[Event]) -> list[Event]:
        """Pass the turn to the left, through skips and automatic passes; tie when nothing is left."""
        deck, hands, skips = self._deck, self._hands, self._skips
        if not deck and not any(hands):
            events.append(Tied(self.deal))
            events.extend(self._new_deal())
            return events
        seat, n = self._turn, self.players
        # Terminates: someone holds a card or the deck is not empty, and skips only fall.
        while True:
            seat = (seat + 1) % n
            if skips[seat]:
                skips[seat] -= 1
                events.append(Skipped(seat))
            elif not hands[seat] and not deck:
                events.append(Passed(seat))
            else:
                self._turn = seat
                return events

    def _new_deal(self) -> list[Event]:
        """Start the next deal: fresh board, hands and piles, a new cut and shuffle."""
        self.deal += 1
        n = self.players
        rng = self._rng = deal_rng(self.seed, self.deal)
        first_deal = self.deal == 1
        if first_deal and self.start_first is not None:
            cut, first = None, self.start_first
        else:
            cut = tuple(rng.sample(range(100), n))
            first = cut.index(min(cut))
        if first_deal and self.start_deck is not None:
            deck = list(reversed(self.start_deck))  # kept top-last so draw is a pop()
        else:
            deck = list(range(100))
            rng.shuffle(deck)
        self._deck = deck
        self._cut = cut
        self._turn: int | None = first
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._discards: list[list[int]] = [[] for _ in range(n)]
        self._skips = [0] * n  # a new deal starts clean: penalties belong to their deal
        self._shown: list[int] = []
        self._board: list[int | None] = [None] * 100
        self._pegs = [0] * self.sides
        self._winner: int | None = None
        self._line: tuple[int, ...] | None = None
        return [Dealt(self.deal, cut, first)]

    # -- what a seat may see -------------------------------------------------

    def view(self, seat: int | None = None) -> dict:
        """What ``seat`` may see (None: a spectator), as plain data ready for msgpack."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat: {seat!r} is not a seat 0-{self.players - 1}")
        hands = self._hands
        return {
            "seat": seat,
            "side": None if seat is None else seat % self.sides,
            "players": self.players,
            "sides": self.sides,
            "mode": self.mode,
            "deal": self.deal,
            "ply": self.ply,
            "turn": self._turn,
            "winner": self._winner,
            "line": None if self._line is None else list(self._line),
            "cut": None if self._cut is None else list(self._cut),
            "board": list(self._board),
            "hand": None if seat is None else list(hands[seat]),
            "hand_sizes": [len(h) for h in hands],
            "discards": [list(d) for d in self._discards],
            "deck_size": len(self._deck),
            "skips": list(self._skips),
            "shown": list(self._shown),
        }

    # -- copies and scenarios ------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the whole state (without the log), for search."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.log = []
        g._deck = list(self._deck)
        g._hands = [list(h) for h in self._hands]
        g._discards = [list(d) for d in self._discards]
        g._skips = list(self._skips)
        g._shown = list(self._shown)
        g._board = list(self._board)
        g._pegs = list(self._pegs)
        g._rng = random.Random()
        g._rng.setstate(self._rng.getstate())
        return g

    @classmethod
    def from_view(
        cls,
        view: dict,
        hands: Sequence[Sequence[int]],
        deck: Sequence[int],
        seed: int | None = None,
    ) -> Game:
        """A game in the public state of ``view`` with these hands and deck (top first).

        Bots use it to play out guesses at what they cannot see. The cards in
        ``hands``, ``deck`` and the view's discard piles must be all 100.
        """
        players = view["players"]
        if len(hands) != players or any(len(h) != s for h, s in zip(hands, view["hand_sizes"])):
            raise ValueError("hands: one list per seat, each as long as the view's hand size")
        cards = [c for h in hands for c in h] + list(deck) + [c for d in view["discards"] for c in d]
        if sorted(cards) != list(range(100)):
            raise ValueError("hands, deck and discard piles must hold each card 0-99 once")
        g = cls(players, view["mode"], seed=seed, first=view["turn"] if view["turn"] is not None else 0)
        g.deal = view["deal"]
        g.ply = view["ply"]
        g._deck = list(reversed(deck))
        g._hands = [list(h) for h in hands]
        g._discards = [list(d) for d in view["discards"]]
        g._skips = list(view["skips"])
        g._shown = list(view["shown"])
        g._cut = None if view["cut"] is None else tuple(view["cut"])
        g._turn = view["turn"]
        g._board = list(view["board"])
        g._pegs = [0] * g.sides
        for sq, side in enumerate(g._board):
            if side is not None:
                g._pegs[side] |= BIT[sq]
        g._winner = view["winner"]
        g._line = None if view["line"] is None else tuple(view["line"])
        g.opening = []
        return g
