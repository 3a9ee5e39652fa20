"""`board99 arena`: bots against bots in this process, win rates with their intervals (docs/bots.md)."""

from __future__ import annotations

import argparse
import sys
import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from board99.arena import ArenaResult, run_arena
from board99.bots import BOTS

#: arena prints a progress line this often (seconds) when its output is not a terminal.
PROGRESS_EVERY = 30.0


def arena(args: argparse.Namespace) -> int:
    """`board99 arena`: many bot-against-bot games, and each side's win rate with its 95% interval."""
    names = [n.strip() for n in args.bots.split(",")]
    for name in names:
        if name not in BOTS:
            print(f"board99 arena: --bots: {name!r} is not a bot; choose from {', '.join(sorted(BOTS))}",
                  file=sys.stderr)
            return 2
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    started = time.perf_counter()
    tty = sys.stderr.isatty()
    said = [started]

    def progress(r: ArenaResult) -> None:
        bar.update(task, completed=r.games)
        now = time.perf_counter()
        # Not a terminal (a log, a pipe): a plain line now and then instead of the bar.
        if not tty and (now - said[0] >= PROGRESS_EVERY or r.games == args.games):
            said[0] = now
            left = (now - started) / r.games * (args.games - r.games)
            print(f"board99 arena: {r.games}/{args.games} games, {now - started:.0f} s, about {left:.0f} s to go",
                  file=sys.stderr, flush=True)

    with Progress(*columns, transient=True, disable=not tty) as bar:
        task = bar.add_task(" vs ".join(names), total=args.games)
        try:
            options = {} if args.budget is None else {"budget": args.budget}
            result = run_arena(names, args.players, args.games, args.seed, args.mode,
                               progress=progress, bot_options=options)
        except ValueError as exc:
            print(f"board99 arena: {exc}", file=sys.stderr)
            return 2
    elapsed = time.perf_counter() - started
    print(f"{result.games} games, {args.players} players, {args.mode} mode, seed {args.seed}, "
          f"opener alternating; {result.deals} deals, {elapsed:.1f} s"
          + ("" if args.budget is None else f"; search bots' budget {args.budget:g} s/move"))
    for side, name in enumerate(names):
        lo, hi = result.interval(side)
        print(f"  side {side} {name:<10} wins {result.wins[side]:>5}  "
              f"{result.rate(side):6.1%}  95% interval {lo:.1%} - {hi:.1%}")
    return 0
