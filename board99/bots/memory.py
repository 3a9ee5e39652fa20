"""What the other seats did in this deal, told apart from one seat's successive views.

A bot sees the table only on its own turns. Between two of its views every
other seat has acted once, in turn order; comparing the two views (and what
the bot itself did in between) tells what each did: the card it played and
the square it pegged, the card it discarded, or that it drew, and the board
and deck it did it on. That is what a player at a real table sees and may
remember. A bot that reads hands from moves (``inference.py``) keeps its
last few moves per seat here.

When the views do not fit that plain order (a penalty-mode offence, with its
extra actions, skips and shown cards; a new deal; counts that do not add up)
the memory starts again empty rather than guess. Two partners who both
pegged between two looks may fit either way round: their moves are kept for
their cards alone.
"""

from __future__ import annotations

from typing import NamedTuple

from ..actions import Action, Draw, Play
from ..view import SeatView

PLAY, DRAW, DISCARD = 0, 1, 2
#: Moves remembered per other seat: the bot weighs no more than these.
DEPTH = 10


class Move(NamedTuple):
    """One move another seat made, and the table it made it at."""

    seat: int
    kind: int  # PLAY, DRAW or DISCARD
    card: int  # -1 for a draw
    square: int  # -1 unless a play
    board: tuple[int | None, ...]  # before the move
    deck_size: int  # before the move


class MoveMemory:
    """The other seats' last ``depth`` moves each in this deal, oldest first, learnt from one seat's views."""

    def __init__(self, depth: int = DEPTH) -> None:
        self.depth = depth
        self.moves: list[Move] = []
        self._last: SeatView | None = None
        self._mine: Action | None = None

    def forget(self) -> None:
        """Start again: nothing is known of the others' moves."""
        self.moves = []

    def acted(self, view: SeatView, action: Action) -> None:
        """This seat chose ``action`` from ``view`` (call after each choice, with the view it was made from)."""
        self._last, self._mine = view, action

    def observe(self, view: SeatView) -> None:
        """Learn what the others did since this seat's last view (call at each turn, before choosing)."""
        moves = self._between(view)
        if moves is None:
            self.forget()
            return
        self.moves.extend(moves)
        seen: dict[int, int] = {}
        kept: list[Move] = []
        for move in reversed(self.moves):  # the newest ``depth`` of each seat
            seen[move.seat] = seen.get(move.seat, 0) + 1
            if seen[move.seat] <= self.depth:
                kept.append(move)
        self.moves = kept[::-1]

    def _between(self, view: SeatView) -> list[Move] | None:
        """The others' moves between the last view and this one, in order; None when they cannot be told."""
        last, mine = self._last, self._mine
        if (last is None or view.seat is None or last.seat != view.seat or last.players != view.players
                or last.deal != view.deal or view.ply <= last.ply or any(last.skips) or any(view.skips)
                or last.shown or view.shown):
            return None
        board = list(last.board)
        deck = last.deck_size
        if isinstance(mine, Play):
            board[mine.square] = last.side
        elif isinstance(mine, Draw):
            deck -= 1
        n = view.players
        actors = [(view.seat + k) % n for k in range(1, n)]
        # What each seat did, from its pile and hand size.
        acts: list[tuple[int, int, int]] = []  # (seat, kind, card); passes left out
        for s in actors:
            old, new = last.discards[s], view.discards[s]
            if new[:len(old)] != old or len(new) - len(old) > 1:
                return None
            grew = view.hand_sizes[s] - last.hand_sizes[s]
            if len(new) > len(old) and grew == -1:
                acts.append((s, PLAY, new[-1]))  # a play or a discard: the board says which
            elif len(new) == len(old) and grew == 1:
                acts.append((s, DRAW, -1))
            elif not (len(new) == len(old) and grew == 0):
                return None
        pegs = {q for q in range(100) if view.board[q] is not None and board[q] is None}
        if any(view.board[q] != board[q] for q in range(100) if board[q] is not None):
            return None
        squares = _squares(acts, pegs, view)
        if squares is None:
            return None
        moves: list[Move] = []
        for (s, kind, card), found in zip(acts, squares):
            # None: pegged, but which square is not known. Remembered for its card alone (a discard
            # tells nothing), and the board before later moves may miss a partner's peg.
            sq = -1 if found is None else found
            if kind == PLAY and sq < 0:
                kind = DISCARD
            moves.append(Move(s, kind, card, sq, tuple(board), deck))
            if sq >= 0:
                board[sq] = s % view.sides
            if kind == DRAW:
                deck -= 1
        if deck != view.deck_size or view.ply - last.ply != 1 + len(acts):
            return None  # an offence in between (its actions count too), or cards put back in the deck
        return moves


def _squares(acts: list[tuple[int, int, int]], pegs: set[int], view: SeatView) -> list[int | None] | None:
    """The square each act pegged (-1: none; None: a peg of its side, but which one cannot be told).

    Pegs are matched to acts side by side, by card (the square is the card's number or more). Two
    partners who both pegged may fit either way round; then their squares are unknown. None when no
    matching accounts for every new peg.
    """
    squares: list[int | None] = [-1] * len(acts)
    for side in range(view.sides):
        mine = [i for i, (s, kind, _) in enumerate(acts) if s % view.sides == side and kind != DRAW]
        new = {q for q in pegs if view.board[q] == side}
        found: list[list[int]] = [[]]
        for i in mine:  # at most two seats a side, so a handful of ways
            card = acts[i][2]
            options = [-1] + sorted(q for q in new if q >= card)
            found = [done + [q] for done in found for q in options if q < 0 or q not in done]
        whole = [done for done in found if {q for q in done if q >= 0} == new]
        if not whole:
            return None
        for i, at in zip(mine, zip(*whole)):
            squares[i] = at[0] if len(set(at)) == 1 else None
    return squares
