"""The board: the canonical layout of squares 0-99 and the 192 lines of five.

Squares are named by their printed number (0-99). Internally each board cell
also has a *bit*: row * 11 + column, where column 10 is an always-empty guard
column, so shifting a bitboard by 1, 11, 12 or 10 walks east, south,
south-east or south-west without wrapping round an edge (the Connect-Four
trick). A side's pegs are one Python int with one bit per pegged cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SIZE = 10
SQUARES = range(100)
RUN = 5  # pegs in a line that win

#: 10 tuples of 10 square numbers, row 0 on top (docs/rules.md §1).
LAYOUT: tuple[tuple[int, ...], ...] = (
    (70, 71, 72, 73, 74, 75, 76, 77, 78, 79),
    (69, 56, 57, 58, 59, 60, 61, 62, 63, 80),
    (68, 55, 18, 19, 20, 21, 22, 23, 36, 81),
    (67, 54, 17, 12, 13, 14, 15, 24, 37, 82),
    (66, 53, 16, 11, 0, 1, 4, 25, 38, 83),
    (65, 52, 35, 10, 3, 2, 5, 26, 39, 84),
    (64, 51, 34, 9, 8, 7, 6, 27, 40, 85),
    (99, 50, 33, 32, 31, 30, 29, 28, 41, 86),
    (98, 49, 48, 47, 46, 45, 44, 43, 42, 87),
    (97, 96, 95, 94, 93, 92, 91, 90, 89, 88),
)

_STRIDE = SIZE + 1  # one guard column per row
#: Bit shifts for the four line directions: east, south, south-east, south-west.
DIRECTIONS: tuple[int, ...] = (1, _STRIDE, _STRIDE + 1, _STRIDE - 1)
_STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))

#: square number -> (row, column)
POSITION: tuple[tuple[int, int], ...] = tuple(
    pos for _, pos in sorted((LAYOUT[r][c], (r, c)) for r in range(SIZE) for c in range(SIZE))
)
#: square number -> its single bit in a bitboard
BIT: tuple[int, ...] = tuple(1 << (r * _STRIDE + c) for r, c in POSITION)


def mask(squares: Iterable[int]) -> int:
    """The bitboard holding exactly these squares."""
    m = 0
    for sq in squares:
        m |= BIT[sq]
    return m


def squares_of(bitboard: int) -> list[int]:
    """The square numbers set in a bitboard, in ascending number order."""
    return [sq for sq in SQUARES if bitboard & BIT[sq]]


def _all_lines() -> tuple[tuple[int, ...], ...]:
    lines = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in _STEPS:
                er, ec = r + dr * (RUN - 1), c + dc * (RUN - 1)
                if 0 <= er < SIZE and 0 <= ec < SIZE:
                    lines.append(tuple(LAYOUT[r + dr * k][c + dc * k] for k in range(RUN)))
    return tuple(lines)


#: Every line of five adjacent squares (rows, columns, both diagonals): 192.
LINES: tuple[tuple[int, ...], ...] = _all_lines()
#: The same lines as bitboards.
LINE_MASKS: tuple[int, ...] = tuple(mask(line) for line in LINES)
#: square number -> indices into LINES of the lines that pass through it
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if sq in line) for sq in SQUARES
)


def winning_squares(board: Sequence[int | None], side: int) -> tuple[int, ...]:
    """The free squares that would give ``side`` five in a line: it holds the other four of a line through each.

    >>> board = [None] * 100
    >>> for sq in (72, 58, 20, 14):
    ...     board[sq] = 1
    >>> winning_squares(board, 1), winning_squares(board, 0)
    ((4,), ())
    """
    found = set()
    for line in LINES:
        free = [sq for sq in line if board[sq] is None]
        if len(free) == 1 and all(board[sq] == side for sq in line if sq != free[0]):
            found.add(free[0])
    return tuple(sorted(found))


def has_five(bitboard: int) -> bool:
    """True if the bitboard holds five (or more) adjacent cells in a line."""
    for s in DIRECTIONS:
        pairs = bitboard & (bitboard >> s)
        if pairs & (pairs >> (2 * s)) & (bitboard >> (4 * s)):
            return True
    return False


def has_five_scan(bitboard: int) -> bool:
    """The same answer as has_five, by a plain scan of all 192 line masks."""
    for m in LINE_MASKS:
        if bitboard & m == m:
            return True
    return False


def winning_run(bitboard: int, square: int) -> tuple[int, ...] | None:
    """The longest run of five or more through ``square`` in the bitboard, if any."""
    row, col = POSITION[square]
    best: tuple[int, ...] | None = None
    for dr, dc in _STEPS:
        run = [square]
        for sign in (-1, 1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < SIZE and 0 <= c < SIZE and bitboard & BIT[LAYOUT[r][c]]:
                run.append(LAYOUT[r][c])
                r, c = r + sign * dr, c + sign * dc
        if len(run) >= RUN and (best is None or len(run) > len(best)):
            run.sort(key=lambda sq: POSITION[sq])
            best = tuple(run)
    return best

