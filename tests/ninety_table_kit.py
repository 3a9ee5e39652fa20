"""A Ninety-Nine table in mid-game for the window tests: a seeded game played by the sound bot, as seat 0 sees it."""

from __future__ import annotations

from board99.ninety_nine.bots import BOTS
from board99.ninety_nine.events import Event, shown_to
from board99.ninety_nine.game import Game
from board99.ninety_nine.rules import Table
from board99.ninety_nine.view import NinetyView, view_of
from board99.wire.table_info import TableInfo
from tests.gui_harness import table_info

NAMES = ("Ann", "Bo", "Cy", "Di", "Eve", "Fay")


def midgame(players: int = 4, rules: str = "convention", mode: str = "guarded", seed: int = 5,
            plies: int = 9) -> tuple[NinetyView, TableInfo, list[Event]]:
    """Seat 0's view after ``plies`` actions of a seeded game, its table, and the last plies' events it saw."""
    game = Game(players, mode, Table.build(players, {"rules": rules}), seed=seed)
    bots = [BOTS["sound"](seed=s) for s in range(players)]
    events: list[Event] = []
    while game.ply < plies and game.turn is not None:
        seat = game.turn
        action = bots[seat].choose(view_of(game, seat))
        events += [shown_to(e, 0) for e in game.apply(seat, action)]
        if game.turn == 0 and game.ply >= plies - 2:
            break
    seats = [{"name": NAMES[s], "colour": None, "occupant": "human" if s == 0 else "bot", "connected": True}
             for s in range(players)]
    info = table_info(seats, players=players, mode=mode, state="playing", kind="ninety-nine",
                      options=game.table.options, name="Friday cards")
    return view_of(game, 0), info, events[-8:]
