"""Ninety-Nine bot-against-bot matches: full games, the seats rotating, win rates with 95% intervals.

A match names one bot per seat (``search,sound,sound``); fewer names fill the remaining seats with the last one
(``search,sound`` at 4 players is search against three sound bots). Game ``i`` seats the named bots rotated by
``i`` places, so each sits at every seat and deals first as often as the others; a bot's win rate is over all its
games, to compare with the fair share ``1 / players``. Bots get their seat's view only (``view.view_of``). The
search bot plays without a clock here, ``search.ARENA_SAMPLES`` guesses a choice (``search_options``), so a seed
gives the same games on any machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..arena import wilson
from .game import Game
from .rules import Table
from .search import ARENA_SAMPLES, SearchBot
from .view import view_of

#: A game that has not ended after this many actions is a bug, not a long game.
MAX_PLIES = 100_000


def arena_bots() -> dict[str, Callable[..., Any]]:
    """Every Ninety-Nine bot by name (the kind's ``bots``)."""
    from .kind import NINETY_NINE

    return dict(NINETY_NINE.bots)


def seat_bots(names: Sequence[str], players: int) -> list[str]:
    """One bot name per seat: ``names`` with the last one repeated; ValueError for too many or unknown names."""
    known = arena_bots()
    if not names or len(names) > players:
        raise ValueError(f"bots: name 1 to {players} bots for {players} players, not {len(names)}")
    for name in names:
        if name not in known:
            raise ValueError(f"bots: {name!r} is not a Ninety-Nine bot; choose from {', '.join(sorted(known))}")
    return [*names, *[names[-1]] * (players - len(names))]


def search_options(bot_options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The search bot's options in the arena: without a clock and with ``search.ARENA_SAMPLES`` guesses a choice
    unless ``bot_options`` name a ``budget`` (seconds a move) or ``samples``."""
    options = dict(bot_options or {})
    options.setdefault("budget", None)
    if options["budget"] is None:
        options.setdefault("samples", ARENA_SAMPLES)
    return options


@dataclass
class NinetyArenaResult:
    """Wins per seat's bot (by its place in the bot list) over a match."""

    bots: list[str]
    players: int
    rules: str
    games: int = 0
    wins: list[int] = field(default_factory=list)
    deals: int = 0
    plies: int = 0

    def rate(self, entry: int) -> float:
        """Share of games bot ``entry`` of the list won."""
        return self.wins[entry] / self.games if self.games else 0.0

    def interval(self, entry: int) -> tuple[float, float]:
        """95% interval (Wilson) for bot ``entry``'s win rate."""
        return wilson(self.wins[entry], self.games)


def play_game(game: Game, bots: Sequence[Any]) -> Game:
    """Play ``game`` to its end: a seat that owes a draw first, then the seat to play, each from its own view."""
    while not game.over:
        if game.ply >= MAX_PLIES:
            raise RuntimeError(f"game with seed {game.seed} did not end in {MAX_PLIES} actions")
        pending = game.pending
        seat = pending[0] if pending else game.turn
        assert seat is not None
        game.apply(seat, bots[seat].choose(view_of(game, seat)))
    return game


def run_arena(bot_names: Sequence[str], players: int = 3, games: int = 100, seed: int = 1,
              mode: str = "guarded", options: Mapping[str, object] | None = None,
              progress: Callable[[NinetyArenaResult], None] | None = None,
              bot_options: Mapping[str, Any] | None = None) -> NinetyArenaResult:
    """Play ``games`` games of these rules; game ``i`` seats bot list entry ``k`` at seat ``(k + i) % players``."""
    names = seat_bots(bot_names, players)
    table = Table.build(players, dict(options or {}))
    known = arena_bots()
    result = NinetyArenaResult(names, players, table.rule_set.name, wins=[0] * players)
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        entry_at = [(s - i) % players for s in range(players)]  # seat -> its bot's place in the list
        bots = []
        for s in range(players):
            factory = known[names[entry_at[s]]]
            extra = search_options(bot_options) if isinstance(factory, type) and issubclass(factory, SearchBot) else {}
            bots.append(factory(seed=game_seed * 7 + s, **extra))
        game = play_game(Game(players, mode, table, seed=game_seed), bots)
        assert game.winner is not None
        result.games += 1
        result.wins[entry_at[game.winner]] += 1
        result.deals += game.deal
        result.plies += game.ply
        if progress:
            progress(result)
    return result
