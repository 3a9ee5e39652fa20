"""The board as text, for the terminal game and `board99 replay` (returns strings, prints nothing)."""

from __future__ import annotations

from .layout import LAYOUT
from .view import SeatView

#: One mark per side, so sides differ without colour.
SIDE_MARKS = "XO+#"


def board_text(view: SeatView) -> str:
    """The 10x10 board of a view: free squares show their number, pegged ones their side's mark."""
    board = view.board
    line = set(view.line or ())
    rows = []
    for row in LAYOUT:
        cells = []
        for sq in row:
            side = board[sq]
            if side is None:
                cells.append(f"{sq:>3}")
            else:
                mark = SIDE_MARKS[side]
                cells.append(f" {mark}{mark}" if sq in line else f"  {mark}")
        rows.append(" ".join(cells))
    return "\n".join(rows)


def status_text(view: SeatView) -> str:
    """One line: deal, turn, deck, hand sizes, skips, winner."""
    parts = [f"deal {view.deal}", f"deck {view.deck_size}"]
    parts.append("hands " + " ".join(f"S{s}:{n}" for s, n in enumerate(view.hand_sizes)))
    if any(view.skips):
        parts.append("skips " + " ".join(f"S{s}:{n}" for s, n in enumerate(view.skips) if n))
    if view.winner is not None:
        parts.append(f"side {view.winner} ({SIDE_MARKS[view.winner]}) wins")
    else:
        parts.append(f"S{view.turn} to play")
    return " | ".join(parts)
