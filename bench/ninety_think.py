"""How long Ninety-Nine's search bot thinks a move as a table gets it: its default budget and guesses (``search.py``).

    nice -n 10 .venv/bin/python bench/ninety_think.py [--games 6] [--players 3] [--rules R,R]

Games of the search bot against sound bots at each rule set; every choice the search bot makes is timed (wall
clock, ``time.perf_counter``), a forced one (a draw owed, one kind of play) too, as the table waits for it.
Prints per rule set the moves, the median, 95th percentile and longest time, and the share of moves that ran into
the budget. Wall-clock figures grow with the machine's other load: run it on a quiet machine for the doc.
"""

from __future__ import annotations

import argparse
import statistics
import time

from board99.ninety_nine.bots import SoundBot
from board99.ninety_nine.game import Game
from board99.ninety_nine.rules import RULE_SETS, Table
from board99.ninety_nine.search import BUDGET, SAMPLES, SearchBot
from board99.ninety_nine.view import view_of


def main() -> None:
    """Time the search bot's moves and print the figures per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rules", default=",".join(RULE_SETS))
    args = parser.parse_args()
    print(f"search bot: budget {BUDGET} s, at most {SAMPLES} guesses a choice; {args.games} games a rule set, "
          f"{args.players} players, the search bot in seat 0 against sound bots")
    print("| rules | moves | median | p95 | longest | at the budget |")
    print("|---|---:|---:|---:|---:|---:|")
    everything: list[float] = []
    for rules in args.rules.split(","):
        times: list[float] = []
        for i in range(args.games):
            game = Game(args.players, "guarded", Table.build(args.players, {"rules": rules}), seed=i)
            bots: list[SearchBot | SoundBot] = [SearchBot(seed=i), *[SoundBot() for _ in range(args.players - 1)]]
            while not game.over:
                seat = game.pending[0] if game.pending else game.turn
                assert seat is not None
                view = view_of(game, seat)
                started = time.perf_counter()
                action = bots[seat].choose(view)
                if seat == 0:
                    times.append(time.perf_counter() - started)
                game.apply(seat, action)
        times.sort()
        everything += times
        full = sum(1 for t in times if t >= BUDGET)
        print(f"| {rules} | {len(times)} | {statistics.median(times) * 1e3:.0f} ms | "
              f"{times[int(0.95 * (len(times) - 1))] * 1e3:.0f} ms | {times[-1] * 1e3:.0f} ms | {full} |", flush=True)
    everything.sort()
    print(f"all: {len(everything)} moves, median {statistics.median(everything) * 1e3:.0f} ms, "
          f"p95 {everything[int(0.95 * (len(everything) - 1))] * 1e3:.0f} ms, longest {everything[-1] * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
