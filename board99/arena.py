"""Bot-against-bot matches: many full games, who opens alternating, win rates with 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .bots import Bot, make_bot
from .game import Game, sides_for

#: A game that has not ended after this many actions is a bug, not a long game.
MAX_PLIES = 100_000


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score 95% interval for a win rate of ``wins`` in ``games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class ArenaResult:
    """Wins per side's bot over a match."""

    bots: list[str]
    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    deals: int = 0  # deals played, ties included
    plies: int = 0

    def rate(self, side: int) -> float:
        """Share of games ``side``'s bot won."""
        return self.wins[side] / self.games if self.games else 0.0

    def interval(self, side: int) -> tuple[float, float]:
        """95% interval for ``side``'s win rate."""
        return wilson(self.wins[side], self.games)


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Play ``game`` to its end, each seat's bot choosing from that seat's view."""
    while (seat := game.turn) is not None:  # no turn once a side has won
        if game.ply >= MAX_PLIES:
            raise RuntimeError(f"game with seed {game.seed} did not end in {MAX_PLIES} actions")
        game.apply(seat, bots[seat].choose(game.view(seat)))
    return game


def run_arena(
    bot_names: Sequence[str],
    players: int = 2,
    games: int = 100,
    seed: int = 1,
    mode: str = "guarded",
    progress: Callable[[ArenaResult], None] | None = None,
    bot_options: dict[str, float] | None = None,
) -> ArenaResult:
    """Play ``games`` games, side k played by ``bot_names[k]``, the opener rotating over the seats."""
    sides = sides_for(players)
    if len(bot_names) != sides:
        raise ValueError(f"bots: a {players}-player game has {sides} sides, so name {sides} bots")
    result = ArenaResult(list(bot_names), players, wins=[0] * sides)
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        bots = [make_bot(bot_names[seat % sides], seed=game_seed * 7 + seat, **(bot_options or {}))
                for seat in range(players)]
        # Alternating the opener removes first-move advantage from the comparison.
        game = play_game(Game(players, mode, seed=game_seed, first=i % players), bots)
        result.games += 1
        assert game.winner is not None
        result.wins[game.winner] += 1
        result.deals += game.deal
        result.plies += game.ply
        if progress:
            progress(result)
    return result
