"""board99: the rules of the 1963 GAME OF 99 as a pure library (no I/O).

>>> import board99
>>> g = board99.Game(players=4, mode="penalty", seed=7)
>>> g.side_of(0) == g.side_of(2)
True
"""

from .actions import Action, Discard, Draw, Play, from_data, parse_action, to_data
from .cards import CARDS, HAND_LIMIT, fits, label
from .errors import CODES, Refused
from .events import PENALTY_RULES, Event, seen_by
from .game import Game
from .layout import LAYOUT, LINES
from .rulings import OFFENCES
from .settings import MODES, PLAYER_COUNTS, sides_for
from .view import Ruling, SeatView

__version__ = "0.1.0"

__all__ = [
    "CARDS", "CODES", "HAND_LIMIT", "LAYOUT", "LINES", "MODES", "OFFENCES", "PENALTY_RULES", "PLAYER_COUNTS",
    "Action", "Discard", "Draw", "Event", "Game", "Play", "Refused", "Ruling", "SeatView",
    "fits", "from_data", "label", "parse_action", "seen_by", "sides_for", "to_data",
]
