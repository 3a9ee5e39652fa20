"""Guesses per second: the search bot's Python playouts against the fastsearch bot's compiled ones, on the same positions.

    .venv/bin/python bench/playout_speed.py [--positions N] [--guesses G] [--repeat R]

Positions come from rulebook self-play (2 players, after 10 to 40 actions). On
each, both engines play G guesses with every one of the search's candidates
and no early stop (``fastplay.guesses`` directly; ``SearchBot`` with its pruning
turned off), R times; the medians of the R runs per guess are printed, and
their ratio. Run it with nothing else on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board99 import Discard, Game, Play  # noqa: E402
from board99.bots import RulebookBot  # noqa: E402
from board99.bots import search as search_module  # noqa: E402
from board99.bots.fast_search import engine, no_moves  # noqa: E402
from board99.bots.search import PLAYOUT_NOISE, SearchBot, candidates  # noqa: E402
from board99.bots.tally import LineTally  # noqa: E402


def positions(count: int) -> list:
    """Views of the seat to act, from rulebook self-play."""
    views = []
    rng = random.Random(11)
    bot = RulebookBot()
    while len(views) < count:
        game = Game(2, seed=rng.getrandbits(32), first=0)
        stop = rng.randrange(10, 40)
        while game.ply < stop and game.winner is None:
            game.apply(game.turn, bot.choose(game.view(game.turn)))
        if game.winner is None and game.view(game.turn).hand:
            view = game.view(game.turn)
            if len(candidates(LineTally(view.board, 2), list(view.hand), view.side, view.deck_size)) > 1:
                views.append(view)
    return views


def python_time(view, guesses: int) -> float:
    """Seconds per guess for SearchBot with no early stop."""
    bot = SearchBot(seed=1, budget=None, rollouts=guesses)
    began = time.perf_counter()
    bot.choose(view)
    return (time.perf_counter() - began) / max(1, bot.last_guesses)


def compiled_time(view, guesses: int) -> float:
    """Seconds per guess for fastplay.guesses on the same candidates."""
    fastplay = engine()
    tally = LineTally(view.board, view.sides)
    acts = candidates(tally, list(view.hand), view.side, view.deck_size)
    seen = set(view.hand)
    for pile in view.discards:
        seen.update(pile)
    board, count, owner, value, threat = fastplay.arrays(tally)
    began = time.perf_counter()
    fastplay.guesses(
        view.seat, view.sides, view.players, board, count, owner, value, threat,
        np.array(view.hand, dtype=np.int64), np.array([c for c in range(100) if c not in seen], dtype=np.int64),
        np.array(view.hand_sizes, dtype=np.int64), np.array(view.skips, dtype=np.int64),
        np.array([a.card if isinstance(a, (Play, Discard)) else -1 for a in acts], dtype=np.int64),
        np.array([a.square if isinstance(a, Play) else -1 for a in acts], dtype=np.int64),
        np.ones(len(acts), dtype=np.bool_), guesses, PLAYOUT_NOISE, 5, 0, *no_moves(view.sides),
        fastplay.LINE_SQUARES, fastplay.THROUGH, fastplay.WEIGHT,
    )
    return (time.perf_counter() - began) / guesses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--guesses", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    search_module.MIN_GUESSES = 10**9  # no pruning and no early stop: every candidate on every guess
    views = positions(args.positions)
    engine()  # compiled (or loaded) before timing
    py_runs, c_runs = [], []
    for _ in range(args.repeat):
        py_runs.append(statistics.median(python_time(v, args.guesses) for v in views))
        c_runs.append(statistics.median(compiled_time(v, args.guesses) for v in views))
    py, c = statistics.median(py_runs), statistics.median(c_runs)
    print(f"command: .venv/bin/python bench/playout_speed.py --positions {args.positions} "
          f"--guesses {args.guesses} --repeat {args.repeat}")
    print(f"{len(views)} positions, {args.guesses} guesses each, medians of {args.repeat} runs")
    print(f"search (Python): {py * 1e3:.3f} ms per guess")
    print(f"fastsearch (compiled): {c * 1e3:.3f} ms per guess")
    print(f"ratio: {py / c:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
