"""Ninety-Nine's arena over a grid of rule sets and player counts: the first bot's win rate, its Wilson 95% interval
and the fair share, one markdown row per table (docs/benchmarks.md, Ninety-Nine).

    nice -n 10 .venv/bin/python bench/ninety_arena.py --bots search,sound [--rules R,R] [--players 2,3,4,5,6]
        [--games G] [--seed 1] [--samples N] [--json out.jsonl]

Each table is ``board99 arena --game ninety-nine --rules R --players N --bots ...`` (``ninety_nine.arena``): the
seats rotate game by game, bots see their own views only. The search bot runs without a clock here (``--samples``
guesses a choice, default ``search.ARENA_SAMPLES``), so a seed gives the same games on any machine. Player counts a
rule set does not allow are left out. ``--json`` appends one line a table as it finishes (a long run keeps what it
has done).
"""

from __future__ import annotations

import argparse
import json
import time

from board99.arena import wilson
from board99.kinds import SettingsError
from board99.ninety_nine.arena import run_arena
from board99.ninety_nine.rules import RULE_SETS, Table
from board99.ninety_nine.search import ARENA_SAMPLES


def main() -> None:
    """Play every table of the grid in turn and print its row."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="search,sound")
    parser.add_argument("--rules", default=",".join(RULE_SETS))
    parser.add_argument("--players", default="2,3,4,5,6")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=ARENA_SAMPLES, help="the search bot's guesses a choice")
    parser.add_argument("--json", default=None, help="append each table's result to this file, one JSON line each")
    args = parser.parse_args()
    bots = args.bots.split(",")
    print(f"bots {args.bots}, {args.games} games a table, seed {args.seed}, search samples {args.samples}, "
          f"guarded, seats rotating")
    print("| rules | players | games | wins | rate | 95% interval | fair share | clear of it | time |")
    print("|---|---:|---:|---:|---:|---|---:|---|---:|")
    for rules in args.rules.split(","):
        for players in map(int, args.players.split(",")):
            try:
                Table.build(players, {"rules": rules})
            except SettingsError:
                continue
            started = time.perf_counter()
            result = run_arena(bots, players, args.games, args.seed, "guarded", {"rules": rules},
                               bot_options={"budget": None, "samples": args.samples})
            took = time.perf_counter() - started
            wins = result.wins[0]
            lo, hi = wilson(wins, result.games)
            fair = 1 / players
            verdict = "above" if lo > fair else "below" if hi < fair else "no"
            print(f"| {rules} | {players} | {result.games} | {wins} | {wins / result.games:.1%} | "
                  f"{lo:.1%} - {hi:.1%} | {fair:.1%} | {verdict} | {took:.0f} s |", flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"bots": bots, "rules": rules, "players": players, "games": result.games,
                                          "wins": result.wins, "seed": args.seed, "samples": args.samples,
                                          "seconds": round(took, 1), "plies": result.plies}) + "\n")


if __name__ == "__main__":
    main()
