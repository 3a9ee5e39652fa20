"""One table's game: seats, sides, deck, hands, the board, turns and penalties.

``Game`` is the single source of truth for the rules (docs/rules.md): the server,
the bots and the records all ask it; nothing else decides what is legal.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from .actions import Action, Discard, Play
from .errors import Refused
from .events import Dealt, Discarded, Drew, Event, Passed, Penalty, Played, Skipped, Tied, Won
from .layout import BIT, has_five, winning_run
from .rulings import classify, guarded_refusal
from .settings import MODES, PLAYER_COUNTS, check_settings, sides_for
from .view import EMPTY_BYTES, Board, SeatView, pack_board

_new_view = tuple.__new__
#: The same for the events every turn makes (Played, Drew, Discarded): what Played(...) does, less a Python call.
_new_event = tuple.__new__

__all__ = ["MODES", "PLAYER_COUNTS", "Game", "deal_rng", "sides_for"]


def deal_rng(seed: int, deal: int) -> random.Random:
    """The one generator behind every shuffle and random place in deal ``deal``."""
    # A str seed is hashed with SHA-512 by random.Random: stable across runs
    # and platforms, and independent of PYTHONHASHSEED.
    return random.Random(f"board99/{seed}/{deal}")


class Game:
    """A game of 99 at one table, from the first cut to a win (ties replay the deal).

    >>> from board99 import Draw
    >>> g = Game(players=2, seed=1, first=0)
    >>> g.turn, g.deck_size, g.hand(0)
    (0, 100, ())
    >>> [e.kind for e in g.apply(0, Draw())]
    ['drew']
    >>> len(g.hand(0)), g.turn
    (1, 1)
    """

    # The state of the deal being played (set by _new_deal).
    _rng: random.Random
    _deck: list[int]  # top card last, so a draw is a pop()
    _cut: tuple[int, ...] | None
    #: The seat whose turn it is; None once the deal is won. A plain attribute, not a property: the
    #: server reads it several times an action (a property is a Python call each time). Only the game sets it.
    turn: int | None
    _hands: list[list[int]]
    _discards: list[list[int]]
    _skips: list[int]
    _shown: list[int]  # cards shown by draw penalties this turn, and by the action that ended the last one
    _shown_before: int = 0  # how many of them were shown before the action being applied
    _board: list[int | None]
    _packed: bytearray  # the same board, one byte a square (255 free): what the view's board carries as its wire form
    _board_view: Board | None  # the board as views hold it, made once each time the board changes
    _pegs: list[int]  # per side, a bitboard
    _winner: int | None
    _line: tuple[int, ...] | None
    #: The last ``check`` that passed: (seat, the action object, ply, its offence). ``apply`` of that very
    #: action on the same position (ply counts every change) reuses it rather than judging it twice.
    _checked: tuple[int, Action, int, str | None] | None = None

    def __init__(
        self,
        players: int = 2,
        mode: str = "guarded",
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        first: int | None = None,
    ) -> None:
        check_settings(players, mode)
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
        self.log: list[tuple[int, Action, tuple[Event, ...]]] = []
        #: What began the first deal: its ``Dealt`` event.
        self.opening: tuple[Event, ...] = tuple(self._new_deal())

    # -- public state ------------------------------------------------------

    @property
    def deck_size(self) -> int:
        """Cards left in the deck."""
        return len(self._deck)

    @property
    def winner(self) -> int | None:
        """The side that won, or None while the game goes on."""
        return self._winner

    @property
    def over(self) -> bool:
        """True once a side has won (``board99.kinds.GameState``)."""
        return self._winner is not None

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
        return self.view(seat).legal_actions()

    def check(self, seat: int, action: Action) -> str | None:
        """What ``apply`` would make of ``action`` now, changing nothing: Refused, the offence, or None.

        >>> from board99 import Draw
        >>> Game(2, mode="penalty", seed=1, first=0).check(1, Draw())
        'draw-out-of-turn'
        """
        if self._winner is not None:
            raise Refused("deal-over", f"side {self._winner} has won; the game is over")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise Refused("no-such-seat", f"seat {seat!r} is not at this {self.players}-player table")
        offence = classify(seat, self.turn, self._hands[seat], self._board, len(self._deck), action)
        if offence is not None and self.mode == "guarded":
            raise guarded_refusal(offence, seat, self.turn, action)
        self._checked = (seat, action, self.ply, offence)
        return offence

    def apply(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Carry out ``action`` for ``seat``; return what it caused, or raise Refused.

        The events are the same tuple the game keeps in ``log`` (and writes
        into its record); a tuple, so no caller can change the record.
        """
        # The server checks an action before it journals it, then applies it: the same judgement, made
        # by this game on this position (the ply changes with every action), is not made twice.
        checked = self._checked
        if checked is not None and checked[1] is action and checked[0] is seat and checked[2] == self.ply:
            offence = checked[3]
        else:
            offence = self.check(seat, action)
        self._checked = None
        if offence is not None and offence.endswith("-out-of-turn"):
            self._skips[seat] += 1  # the offender loses its next turn
        self._shown_before = len(self._shown)
        if type(action) is Play:
            events = self._play(seat, action.card, action.square, offence)
        elif type(action) is Discard:
            events = self._discard(seat, action.card, offence)
        else:
            events = self._draw(seat, offence)
        done = tuple(events)
        self.ply += 1
        self.log.append((seat, action, done))
        return done

    def _play(self, seat: int, card: int, square: int, offence: str | None) -> list[Event]:
        self._to_discards(seat, card)
        if offence == "play-out-of-turn":
            # The peg goes in and comes straight out: the board never changes.
            return [Penalty(seat, offence, card, square)]
        if offence == "illegal-play":
            return self._end_turn([Penalty(seat, offence, card, square)])
        side = seat % self.sides
        self._board[square] = side
        self._packed[square] = side
        self._board_view = None
        pegs = self._pegs[side] | BIT[square]
        self._pegs[side] = pegs
        events: list[Event] = [_new_event(Played, (seat, card, square))]
        if has_five(pegs):
            line = winning_run(pegs, square)
            assert line is not None  # only the new peg can have made the run
            self._winner, self._line, self.turn = side, line, None
            events.append(Won(side, seat, line))
            return events
        return self._end_turn(events)

    def _draw(self, seat: int, offence: str | None) -> list[Event]:
        if offence == "draw-out-of-turn":
            return [self._show_and_return(seat, offence)]
        if offence == "illegal-draw":
            return self._end_turn([self._show_and_return(seat, offence)])
        card = self._deck.pop()
        self._hands[seat].append(card)
        return self._end_turn([_new_event(Drew, (seat, card))])

    def _show_and_return(self, seat: int, offence: str) -> Penalty:
        # The drawn card is shown to all, then cut back in at a uniformly random place.
        deck = self._deck
        card = deck.pop()
        deck.insert(self._rng.randrange(len(deck) + 1), card)
        self._shown.append(card)
        return Penalty(seat, offence, card, -1)

    def _discard(self, seat: int, card: int, offence: str | None) -> list[Event]:
        self._to_discards(seat, card)
        if offence == "discard-out-of-turn":
            return [Penalty(seat, offence, card, -1)]
        return self._end_turn([_new_event(Discarded, (seat, card))])

    def _to_discards(self, seat: int, card: int) -> None:
        # Every card a seat plays or throws away, peg kept or not, ends on its own discard pile.
        self._hands[seat].remove(card)
        self._discards[seat].append(card)

    def _end_turn(self, events: list[Event]) -> list[Event]:
        """Pass the turn to the left, through skips and automatic passes; tie when nothing is left."""
        deck, hands, skips = self._deck, self._hands, self._skips
        if not deck and not any(hands):
            events.append(Tied(self.deal))
            events.extend(self._new_deal())
            return events
        seat, n = self.turn, self.players
        assert seat is not None  # a turn ends only while the deal is being played
        # A shown card stays in view for a whole turn (docs/rules.md §10): only this action's stay.
        del self._shown[:self._shown_before]
        # Terminates: someone holds a card or the deck is not empty, and skips only fall.
        while True:
            seat = (seat + 1) % n
            if skips[seat]:
                skips[seat] -= 1
                events.append(Skipped(seat))
            elif not hands[seat] and not deck:
                events.append(Passed(seat))
            else:
                self.turn = seat
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
        self.turn = first
        self._hands = [[] for _ in range(n)]
        self._discards = [[] for _ in range(n)]
        self._skips = [0] * n  # a new deal starts clean: penalties belong to their deal
        self._shown = []
        self._board = [None] * 100
        self._packed = bytearray(EMPTY_BYTES)
        self._board_view = None
        self._pegs = [0] * self.sides
        self._winner = None
        self._line = None
        return [Dealt(self.deal, cut, first)]

    # -- what a seat may see -------------------------------------------------

    def view(self, seat: int | None = None) -> SeatView:
        """What ``seat`` may see (None: a spectator): docs/rules.md §8, as a ``SeatView``."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            raise ValueError(f"seat: {seat!r} is not a seat 0-{self.players - 1}")
        hands = self._hands
        board = self._board_view
        if board is None:  # the views of one position share one Board, which carries its wire form
            board = self._board_view = Board.of(self._board, bytes(self._packed))
        # tuple.__new__ with the fields in order is what SeatView(...) does, less a Python call of 18
        # arguments; map() rather than comprehensions: the server builds a view for every reply and push.
        return _new_view(SeatView, (
            seat, None if seat is None else seat % self.sides, self.players, self.sides, self.mode,
            self.deal, self.ply, self.turn, self._winner, self._line, self._cut, board,
            None if seat is None else tuple(hands[seat]), tuple(map(len, hands)),
            tuple(map(tuple, self._discards)), len(self._deck), tuple(self._skips), tuple(self._shown),
        ))

    def view_data(self, seat: int | None = None) -> dict[str, Any]:
        """``view(seat).to_data()``, the same map, built straight from the game (the server's replies and pushes).

        No ``SeatView`` and no 100-square board are made: the board goes as the bytes the game keeps.
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            raise ValueError(f"seat: {seat!r} is not a seat 0-{self.players - 1}")
        hands = self._hands
        board = self._board_view
        return {"seat": seat, "side": None if seat is None else seat % self.sides, "players": self.players,
                "sides": self.sides, "mode": self.mode, "deal": self.deal, "ply": self.ply, "turn": self.turn,
                "winner": self._winner, "line": self._line, "cut": self._cut,
                "board": bytes(self._packed) if board is None else board.packed,
                "hand": None if seat is None else tuple(hands[seat]), "hand_sizes": tuple(map(len, hands)),
                "discards": tuple(map(tuple, self._discards)), "deck_size": len(self._deck),
                "skips": tuple(self._skips), "shown": tuple(self._shown)}

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
        g._packed = bytearray(self._packed)
        g._pegs = list(self._pegs)
        g._rng = random.Random()
        g._rng.setstate(self._rng.getstate())
        return g

    @classmethod
    def from_view(
        cls,
        view: SeatView,
        hands: Sequence[Sequence[int]],
        deck: Sequence[int],
        seed: int | None = None,
    ) -> Game:
        """A game in the public state of ``view`` with these hands and deck (top first).

        Bots use it to play out guesses at what they cannot see. The cards in
        ``hands``, ``deck`` and the view's discard piles must be all 100.
        """
        players = view.players
        if len(hands) != players or any(len(h) != s for h, s in zip(hands, view.hand_sizes)):
            raise ValueError("hands: one list per seat, each as long as the view's hand size")
        cards = [c for h in hands for c in h] + list(deck) + [c for d in view.discards for c in d]
        if sorted(cards) != list(range(100)):
            raise ValueError("hands, deck and discard piles must hold each card 0-99 once")
        g = cls(players, view.mode, seed=seed, first=view.turn if view.turn is not None else 0)
        g.deal = view.deal
        g.ply = view.ply
        g._deck = list(reversed(deck))
        g._hands = [list(h) for h in hands]
        g._discards = [list(d) for d in view.discards]
        g._skips = list(view.skips)
        g._shown = list(view.shown)
        g._cut = view.cut
        g.turn = view.turn
        g._board = list(view.board)
        g._packed = bytearray(pack_board(view.board))
        g._board_view = None
        g._pegs = [0] * g.sides
        for sq, side in enumerate(g._board):
            if side is not None:
                g._pegs[side] |= BIT[sq]
        g._winner = view.winner
        g._line = view.line
        g.opening = ()
        return g
