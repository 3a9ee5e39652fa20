"""A running tally of the 192 lines of five: who can still complete each, and how far each side is.

Both the rulebook bot and the search bot's playouts read the board through it:
``place`` updates only the lines through the new peg, so a playout pays about
twenty line updates per peg instead of a scan of the whole board.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..layout import LINES, LINES_THROUGH

#: Value of a line a side can still complete, by how many of its pegs it holds.
#: Geometric, so one line with three pegs outweighs several with one; four pegs
#: mean the fifth square is a threat, which the bots handle before any score.
WEIGHTS: tuple[int, ...] = (1, 4, 16, 64, 256, 0)

MIXED = -1  # a line holding pegs of two sides: nobody can complete it

#: Score lost per point of a square's number, so that high squares are taken with high cards:
#: a play's waste (square - card) costs WASTE per point ("play high cards on high squares").
WASTE = 0.15
#: The value of an occupied square: below any play.
TAKEN = -1e9

_NLINES = len(LINES)
#: square -> (line index, its five squares) for each line through it, for ``place``'s loop
_THROUGH = tuple(tuple((i, LINES[i]) for i in LINES_THROUGH[sq]) for sq in range(100))


class LineTally:
    """Per line: pegs in it and whose they are; per square: the value of pegging it."""

    __slots__ = ("board", "sides", "count", "owner", "value", "threats", "free_top")

    def __init__(self, board: Sequence[int | None], sides: int) -> None:
        self.board: list[int | None] = list(board)
        self.sides = sides
        #: line index -> pegs in the line
        self.count = [0] * _NLINES
        #: line index -> None (empty), the side holding all its pegs, or MIXED
        self.owner: list[int | None] = [None] * _NLINES
        #: side -> free squares that would complete one of its lines (it holds four of the five)
        self.threats: list[set[int]] = [set() for _ in range(sides)]
        board = self.board
        #: square -> what pegging it is worth to whoever moves: WEIGHTS summed over the lines
        #: through it, for every side that can still complete them (building one's own lines and
        #: cutting the opponents' weigh the same), less WASTE per point of the square's number;
        #: TAKEN for an occupied square. A list, so a play is found by ``max`` over a slice.
        self.value = [TAKEN if board[sq] is not None else -WASTE * sq for sq in range(100)]
        for i, line in enumerate(LINES):
            n, owner = 0, None
            for sq in line:
                s = board[sq]
                if s is not None:
                    n += 1
                    owner = s if owner is None or owner == s else MIXED
            self.count[i], self.owner[i] = n, owner
            if owner != MIXED:
                w = WEIGHTS[n] * (sides if owner is None else 1)
                for sq in line:
                    self.value[sq] += w
            if n == 4 and owner is not None and owner != MIXED:
                self.threats[owner].update(sq for sq in line if board[sq] is None)
        #: the highest free square (-1 if the board is full): cards above it are dead
        self.free_top = max((sq for sq in range(100) if board[sq] is None), default=-1)

    def copy(self) -> LineTally:
        """An independent copy, for a playout."""
        t = LineTally.__new__(LineTally)
        t.board = self.board[:]
        t.sides = self.sides
        t.count = self.count[:]
        t.owner = self.owner[:]
        t.value = self.value[:]
        t.threats = [set(s) for s in self.threats]
        t.free_top = self.free_top
        return t

    def place(self, square: int, side: int) -> bool:
        """Peg ``square`` for ``side``; True if that completes a line of five (a win)."""
        board, count, owner, value = self.board, self.count, self.owner, self.value
        board[square] = side
        value[square] = TAKEN
        won = False
        # An empty line now counts one peg for side and is dead for every other side.
        opened = WEIGHTS[1] - WEIGHTS[0] - (self.sides - 1) * WEIGHTS[0]
        for i, line in _THROUGH[square]:
            o = owner[i]
            n = count[i]
            count[i] = n + 1
            if o == MIXED:
                continue
            if o is None:
                owner[i] = side
                d = opened
            elif o == side:
                d = WEIGHTS[n + 1] - WEIGHTS[n]
                if n == 3:
                    self.threats[side].update(sq for sq in line if board[sq] is None)
                elif n == 4:
                    won = True
            else:
                owner[i] = MIXED
                d = -WEIGHTS[n]
            a, b, c, e, f = line  # unrolled: this is the playouts' hottest loop
            value[a] += d
            value[b] += d
            value[c] += d
            value[e] += d
            value[f] += d
        for th in self.threats:
            th.discard(square)
        if square == self.free_top:
            while self.free_top >= 0 and board[self.free_top] is not None:
                self.free_top -= 1
        return won
