"""The one interface every bot has: it sees only its seat's view and returns an action."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action


class Bot(Protocol):
    """A player program: ``choose`` gets ``Game.view(seat)`` and nothing more."""

    name: str

    def choose(self, view: dict) -> Action:
        """The action this bot takes on its turn in the position ``view`` shows."""
        ...
