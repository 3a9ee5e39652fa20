"""Bot speed: rulebook time per move, playouts per second, and the search bot's time per move against its budget.

Run: .venv/bin/python bench/bots.py [--moves N] [--budget S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from board99 import Game
from board99.bots import RulebookBot, SearchBot
from board99.bots.search import Playout
from board99.bots.tally import LineTally


def sample_views(games: int, seed: int) -> list[dict]:
    """Views on the mover's turn from rulebook-against-rulebook games (2 players)."""
    views = []
    bot = RulebookBot()
    for i in range(games):
        game = Game(2, seed=seed + i, first=i % 2)
        while game.winner is None:
            view = game.view(game.turn)
            views.append(view)
            game.apply(game.turn, bot.choose(view))
    return views


def per_call(fn, items) -> list[float]:
    """Seconds each call of ``fn`` took, one per item."""
    times = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=150, help="search moves to time")
    parser.add_argument("--budget", type=float, default=0.2)
    args = parser.parse_args()

    views = sample_views(40, seed=1)
    rulebook = RulebookBot()
    t = per_call(rulebook.choose, views)
    print(f"rulebook: {len(t)} moves, median {statistics.median(t) * 1e6:.0f} us, max {max(t) * 1e6:.0f} us")

    def playout(seed: int) -> None:
        rng = random.Random(seed)
        deck = list(range(100))
        rng.shuffle(deck)
        Playout(LineTally([None] * 100, 2), [[], []], deck, 0, [0, 0], 2).run(rng)

    t = per_call(playout, range(500))
    print(f"playout (2 players, whole deal from an empty board): median {statistics.median(t) * 1e3:.2f} ms, "
          f"{1 / statistics.mean(t):.0f} per second")

    searched = [v for v in views if v.hand]
    searched = random.Random(2).sample(searched, min(args.moves, len(searched)))
    bot = SearchBot(seed=3, budget=args.budget)
    guesses: list[int] = []

    def search(view: dict) -> None:
        bot.choose(view)
        guesses.append(bot.last_guesses)

    t = per_call(search, searched)
    print(f"search, budget {args.budget} s: {len(t)} moves, median {statistics.median(t) * 1e3:.0f} ms, "
          f"max {max(t) * 1e3:.0f} ms, median guesses per move {statistics.median(guesses):.0f}")


if __name__ == "__main__":
    main()
