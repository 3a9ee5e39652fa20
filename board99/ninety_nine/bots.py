"""Ninety-Nine bots: programs that play a seat from its view alone (``choose(view) -> action``).

``SoundBot`` follows 002's strategy notes: get rid of high cards while the
total is low, keep low cards and the special cards for when it is high, and
of the specials spend the ones that add nothing first, a 99 next and a minus
ten last. ``RandomBot`` plays any proper action.

>>> from board99.ninety_nine.game import Game
>>> from board99.ninety_nine.rules import Table
>>> from board99.ninety_nine.view import view_of
>>> g = Game(2, "penalty", Table.build(2, {"rules": "convention"}), seed=3)
>>> action = SoundBot().choose(view_of(g, g.turn))
>>> action in g.legal_actions(g.turn)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action, Draw, Play
from .cards import rank_of
from .rules import Effect
from .view import NinetyView


def plays_or_draw(view: NinetyView) -> Draw | list[Play]:
    """What a bot chooses among from ``view``: the draw it owes first (penalty tables), else its proper plays;
    ValueError when its seat has nothing to do now (every bot's ``choose`` starts here)."""
    actions = view.legal_actions()
    if not actions:
        raise ValueError("choose: this seat has nothing to do now")
    if Draw() in actions:
        return Draw()
    return [a for a in actions if isinstance(a, Play)]


class RandomBot:
    """Picks uniformly among the proper actions of its seat (a late draw it owes first)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: NinetyView) -> Action:
        """A uniformly random proper action (the view must be this seat's, on its turn or owing a draw)."""
        plays = plays_or_draw(view)
        return plays if isinstance(plays, Draw) else self.rng.choice(plays)


class SoundBot:
    """Simple sound play: high cards early, low cards and specials kept for a high total."""

    name = "sound"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # the bot is deterministic; the seed is the factories' common signature

    def choose(self, view: NinetyView) -> Action:
        """The plain card that adds the most while it fits, else a special: 0-adders, then 99, then minus."""
        plays = plays_or_draw(view)
        if isinstance(plays, Draw):
            return plays
        table = view.table
        return max(plays, key=lambda a: _worth(a, view.total, table.effect(rank_of(a.card))))


def _worth(action: Play, total: int, effect: Effect) -> tuple[int, int]:
    """(class, amount): plain cards that add (the more the better), then 0-adders, then 99s, then minus."""
    assert action.say is not None
    added = action.say - total
    special = effect.to99 or effect.reverse or effect.skip or effect.queen
    if not special and added > 0:
        return (3, added)
    if not effect.to99 and added >= 0:
        return (2, -added)  # a reverse, a skip, a pass: the ones adding least first
    if effect.to99:
        return (1, -added)  # a 99 that adds least first (the total already high)
    return (0, added)  # minus ten: the last resort (002)


#: Bot name -> factory taking ``seed=``.
BOTS: dict[str, Callable[..., RandomBot | SoundBot]] = {"random": RandomBot, "sound": SoundBot}
