"""The one interface every bot has: it sees only its seat's view and returns an action."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..view import SeatView


class Bot(Protocol):
    """A player program: ``choose`` gets its seat's ``SeatView`` (``Game.view(seat)``) and nothing more."""

    name: str

    def choose(self, view: SeatView) -> Action:
        """The action this bot takes on its turn in the position ``view`` shows."""
        ...
