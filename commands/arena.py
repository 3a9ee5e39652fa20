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
    if args.game == "ninety-nine":
        return ninety_arena(args)
    if args.rules is not None:
        print("board99 arena: --rules: the peg-board game has no rule sets; it is for --game ninety-nine",
              file=sys.stderr)
        return 2
    if args.players == 5:
        print("board99 arena: --players: the peg-board game is for 2, 3, 4 or 6 players", file=sys.stderr)
        return 2
    args.players = 2 if args.players is None else args.players
    names = [n.strip() for n in (args.bots or "rulebook,random").split(",")]
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


def ninety_arena(args: argparse.Namespace) -> int:
    """`board99 arena --game ninety-nine`: one bot per seat (the last filling the rest), seats rotating."""
    from board99.ninety_nine.arena import NinetyArenaResult
    from board99.ninety_nine.arena import run_arena as run_ninety

    names = [n.strip() for n in (args.bots or "search,sound").split(",")]
    players = 2 if args.players is None else args.players
    rules = args.rules or "convention"
    started = time.perf_counter()
    said = [started]

    def progress(r: NinetyArenaResult) -> None:
        now = time.perf_counter()
        if now - said[0] >= PROGRESS_EVERY or r.games == args.games:
            said[0] = now
            left = (now - started) / r.games * (args.games - r.games)
            print(f"board99 arena: {r.games}/{args.games} games, {now - started:.0f} s, about {left:.0f} s to go",
                  file=sys.stderr, flush=True)

    try:
        result = run_ninety(names, players, args.games, args.seed, args.mode, {"rules": rules}, progress=progress,
                            bot_options={"budget": args.budget})
    except ValueError as exc:  # a SettingsError too: it names the field
        print(f"board99 arena: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    print(f"{result.games} games of Ninety-Nine, {rules} rules, {players} players, {args.mode} mode, seed {args.seed}, "
          f"seats rotating; {result.deals} deals, {elapsed:.1f} s; a fair share is {1 / players:.1%}")
    for entry, name in enumerate(result.bots):
        lo, hi = result.interval(entry)
        print(f"  seat {entry} {name:<10} wins {result.wins[entry]:>5}  "
              f"{result.rate(entry):6.1%}  95% interval {lo:.1%} - {hi:.1%}")
    return 0
