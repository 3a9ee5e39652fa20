"""What knowing the hidden hands would be worth: fastsearch told the other seats' true hands, against search.

    .venv/bin/python bench/informed_match.py [--games N] [--first I] [--budget S] [--jobs K] [--seed SEED]

An experiment, not a bot anyone may play: the informed bot is handed the
opponent's real cards before each move (the deck's order stays hidden and is
still guessed), which no seat can know at a real table. It is otherwise the
fastsearch bot, and the games are bench/bot_match.py's (same deal seeds, the
seats swapped in each pair), so its win rate against `search` says how much
better guesses at the hidden hands could ever gain. Played 2-player, guarded.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_match import game_setup  # noqa: E402

from board99 import Game, SeatView  # noqa: E402
from board99.arena import MAX_PLIES, wilson  # noqa: E402
from board99.bots import FastSearchBot, make_bot  # noqa: E402


class InformedBot(FastSearchBot):
    """The fastsearch bot, told the other hands before each move (experiments only)."""

    name = "informed"

    def __init__(self, seed: int | None = None, budget: float | None = 0.2) -> None:
        super().__init__(seed=seed, budget=budget)
        self.hands: list[tuple[int, ...]] = []

    def unseen(self, view: SeatView) -> tuple[list[int], int]:
        """The other seats' true hands first, in seat order (all known), then the rest of the unseen cards."""
        cards, _ = super().unseen(view)
        told = [c for seat, hand in enumerate(self.hands) if seat != view.seat for c in hand]
        return told + [c for c in cards if c not in told], len(told)


def play_one(task: tuple[float, int, int]) -> dict[str, Any]:
    """(In a worker) game ``index`` of the match; whether the informed bot won."""
    budget, seed, index = task
    game_seed, seat_a, first = game_setup(seed, index)
    informed = InformedBot(seed=game_seed * 7 + seat_a, budget=budget)
    other = make_bot("search", seed=game_seed * 7 + 1 - seat_a, budget=budget)
    game = Game(2, "guarded", seed=game_seed, first=first)
    while (seat := game.turn) is not None and game.ply < MAX_PLIES:
        if seat == seat_a:
            informed.hands = [game.hand(s) for s in range(2)]
            action = informed.choose(game.view(seat))
        else:
            action = other.choose(game.view(seat))
        game.apply(seat, action)
    return {"index": index, "won": game.winner == seat_a}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tasks = [(args.budget, args.seed, i) for i in range(args.first, args.first + args.games)]
    began = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        results = pool.map(play_one, tasks, chunksize=1)
    wins = sum(r["won"] for r in results)
    lo, hi = wilson(wins, len(results))
    print(f"command: .venv/bin/python bench/informed_match.py --games {args.games} --first {args.first} "
          f"--budget {args.budget:g} --jobs {args.jobs} --seed {args.seed}")
    print(f"informed fastsearch v search: {wins} of {len(results)} games, {wins / len(results):.1%} "
          f"(95% Wilson interval {lo:.1%} - {hi:.1%}); wall time {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
