"""Engine speed: full random-bot games per second, and the cost of one win check.

Run: .venv/bin/python bench/engine.py [--games N] [--repeats R]
Prints medians over R repeats, all measured in this one run on one core.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board99 import Game  # noqa: E402
from board99.arena import play_game  # noqa: E402
from board99.bots import make_bot  # noqa: E402
from board99.layout import has_five, has_five_scan, mask  # noqa: E402


def games_per_second(players: int, games: int) -> tuple[float, float]:
    """Full random-bot games per second (bots choose from views), and actions per game."""
    bots = [make_bot("random", seed=s) for s in range(players)]
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        plies += play_game(Game(players, seed=seed), bots).ply
    return games / (time.perf_counter() - start), plies / games


def per_call(check, boards: list[int], loops: int) -> float:
    """Seconds per call of ``check`` over a fixed set of boards."""
    start = time.perf_counter()
    for _ in range(loops):
        for b in boards:
            check(b)
    return (time.perf_counter() - start) / (loops * len(boards))


def main() -> None:
    """Run every measurement and print a Markdown table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, pinned to one")
    print("| players | games/s (median) | actions per game |")
    print("|---|---|---|")
    for players in (2, 4, 6):
        runs = [games_per_second(players, args.games) for _ in range(args.repeats)]
        print(f"| {players} | {statistics.median(r[0] for r in runs):,.0f} | {runs[0][1]:.0f} |")
    # Realistic boards: one side's pegs in mid-game, 10-30 of them, mostly not five.
    rng = random.Random(1)
    boards = [mask(rng.sample(range(100), rng.randint(10, 30))) for _ in range(1000)]
    fast = statistics.median(per_call(has_five, boards, 50) for _ in range(args.repeats))
    scan = statistics.median(per_call(has_five_scan, boards, 5) for _ in range(args.repeats))
    print()
    print("| win check | time per call (median) |")
    print("|---|---|")
    print(f"| bitboard shifts (has_five) | {fast * 1e6:.2f} µs |")
    print(f"| plain scan of 192 lines (has_five_scan) | {scan * 1e6:.2f} µs |")
    print(f"| ratio scan / bitboard | {scan / fast:.1f}x |")


if __name__ == "__main__":
    main()
