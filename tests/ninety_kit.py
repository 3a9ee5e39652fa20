"""Helpers for the Ninety-Nine tests: a game with the hands, stock and total a rule's example needs."""

from __future__ import annotations

from collections.abc import Sequence

from board99.ninety_nine.game import Game
from board99.ninety_nine.rules import Table


def table(rules: str, players: int = 3, **options: object) -> Table:
    """The rules of ``rules`` (a rule set's name) for ``players``, with house options."""
    return Table.build(players, {"rules": rules, **options})


def rigged(rules: str, players: int = 3, mode: str = "guarded", hands: Sequence[Sequence[str]] | None = None,
           stock: Sequence[str] = (), total: int = 0, turn: int = 0, pile: Sequence[str] = ("2C",),
           **options: object) -> Game:
    """A game of ``rules`` in mid-deal: these hands, this stock (top card first), this total, ``turn`` to play.

    The cards need not add up to a deck: each test sets only what its rule looks at.
    """
    game = Game(players, mode, table(rules, players, **options), seed=1, dealer=(turn - 1) % players)
    if hands is not None:
        game._hands = [list(h) for h in hands]
    game._stock = list(reversed(stock))
    game._pile = list(pile)
    game._total, game._turn, game._direction = total, turn, 1
    game._chain, game._owed, game._played, game._skips, game._pending = 0, 1, 0, 0, []
    return game


def texts(events: Sequence[object]) -> list[str]:
    """The events' record lines."""
    return [e.text() for e in events]  # type: ignore[attr-defined]
