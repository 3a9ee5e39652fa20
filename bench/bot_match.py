"""Two bots head to head: N 2-player games in parallel processes, the win rate with its 95% interval.

    .venv/bin/python bench/bot_match.py BOT_A BOT_B [--games N] [--first I] [--budget S] [--jobs K]
        [--seed SEED] [--json FILE]
    .venv/bin/python bench/bot_match.py --combine FILE [FILE ...]

Games come in pairs on the same deal seed: in game ``2p`` BOT_A sits in seat 0, in
game ``2p + 1`` in seat 1, and the same seat opens both, so each bot opens half the
games and meets the other's cards (duplicate style). Game ``i`` of a run is the
same game whatever the number of processes or the part it is in, so a match can
be played in parts (``--first 0 --games 50``, then ``--first 50 --games 50``),
each part saved with ``--json``, and the parts summed with ``--combine``. With
time budgets the bots' choices depend on the machine's speed, so a part re-run
gives the same deals but not necessarily the same games.

A game always ends with a winner (a tied deal is replayed inside the game), so
the tie count is there for the form; the tied deals are counted separately. The
rate is BOT_A's share of the games (a tie would count half) with the Wilson
95% interval; seconds per move are each bot's own ``choose`` calls, all of them
(forced moves included), timed in the worker process.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board99 import Game  # noqa: E402
from board99.arena import MAX_PLIES, wilson  # noqa: E402
from board99.bots import BOTS, make_bot  # noqa: E402

#: Deal seed of game pair p: SEED * SPREAD + p (as board99.arena spreads its games' seeds).
SPREAD = 1_000_003


def game_setup(seed: int, index: int) -> tuple[int, int, int]:
    """(deal seed, BOT_A's seat, opening seat) of game ``index``: pairs share a seed and swap seats."""
    pair = index // 2
    return seed * SPREAD + pair, index % 2, pair % 2


def play_one(task: tuple[str, str, float | None, str, int, int]) -> dict[str, Any]:
    """(In a worker) play game ``index``; who won, and each bot's seconds per ``choose`` call."""
    name_a, name_b, budget, mode, seed, index = task
    game_seed, seat_a, first = game_setup(seed, index)
    names = [name_a, name_b] if seat_a == 0 else [name_b, name_a]
    bots = [make_bot(names[s], seed=game_seed * 7 + s, budget=budget) for s in range(2)]
    game = Game(2, mode, seed=game_seed, first=first)
    times: list[list[float]] = [[], []]  # by seat
    while (seat := game.turn) is not None:
        if game.ply >= MAX_PLIES:
            break  # never seen: counted as a tie rather than lost
        view = game.view(seat)
        began = time.perf_counter()
        action = bots[seat].choose(view)
        times[seat].append(time.perf_counter() - began)
        game.apply(seat, action)
    winner = game.winner
    result = "tie" if winner is None else "win" if winner == seat_a else "loss"
    return {"index": index, "result": result, "deals": game.deal, "plies": game.ply,
            "a_opened": first == seat_a, "times_a": times[seat_a], "times_b": times[1 - seat_a]}


def play(name_a: str, name_b: str, games: int, first: int, budget: float | None, mode: str, seed: int,
         jobs: int, progress: bool = True) -> list[dict[str, Any]]:
    """Games ``first`` .. ``first + games - 1`` in ``jobs`` processes, in the order of their index."""
    tasks = [(name_a, name_b, budget, mode, seed, i) for i in range(first, first + games)]
    done: list[dict[str, Any]] = []
    started = time.perf_counter()
    if jobs == 1:
        results = map(play_one, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap_unordered(play_one, tasks)
    try:
        for r in results:
            done.append(r)
            if progress:
                wins = sum(g["result"] == "win" for g in done)
                print(f"  {len(done)}/{games} games, {name_a} won {wins}, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return sorted(done, key=lambda g: g["index"])


def summary(info: dict[str, Any], games: list[dict[str, Any]]) -> str:
    """The report: command lines, the score, the interval, seconds per move."""
    a, b = info["a"], info["b"]
    n = len(games)
    wins = sum(g["result"] == "win" for g in games)
    ties = sum(g["result"] == "tie" for g in games)
    losses = n - wins - ties
    points = wins + ties / 2
    lo, hi = wilson(round(points), n) if n else (0.0, 1.0)
    opened = [g for g in games if g["a_opened"]]
    lines = [f"command: {cmd}" for cmd in info["commands"]]
    indices = sorted(g["index"] for g in games)
    budget = "each bot's default budget" if info["budget"] is None else f"budget {info['budget']:g} s/move"
    lines.append(f"{a} v {b}: {n} games (indices {indices[0] if indices else '-'}-"
                 f"{indices[-1] if indices else '-'}, seed {info['seed']}), 2 players, {info['mode']} mode, {budget}")
    lines.append(f"{a}: {wins} wins, {ties} ties, {losses} losses: {points / n if n else 0:.1%} "
                 f"(95% Wilson interval {lo:.1%} - {hi:.1%})")
    lines.append(f"{a} opened {len(opened)} games and won {sum(g['result'] == 'win' for g in opened)}; "
                 f"tied deals replayed: {sum(g['deals'] - 1 for g in games)}; "
                 f"actions per game (mean): {statistics.mean(g['plies'] for g in games) if n else 0:.1f}")
    for name, key in ((a, "times_a"), (b, "times_b")):
        t = sorted(x for g in games for x in g[key])
        if t:
            p99 = t[min(len(t) - 1, int(0.99 * len(t)))]
            lines.append(f"{name} seconds per move: median {statistics.median(t):.4f}, 99th percentile "
                         f"{p99:.4f}, max {t[-1]:.4f} over {len(t)} moves")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", metavar="BOT", help=f"two bots: {', '.join(sorted(BOTS))}")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (to play a part)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per move for both bots "
                        "(bots without a budget ignore it; default: each bot's own, 0.2 s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--mode", choices=("guarded", "penalty"), default="guarded")
    parser.add_argument("--json", type=Path, help="save the games' results here, for --combine")
    parser.add_argument("--combine", type=Path, nargs="+", metavar="FILE", help="sum saved parts and report")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.combine:
        parts = [json.loads(p.read_text()) for p in args.combine]
        keys = {(p["info"]["a"], p["info"]["b"], p["info"]["budget"], p["info"]["mode"], p["info"]["seed"])
                for p in parts}
        if len(keys) != 1:
            parser.error("--combine: the parts are not of one match (bots, budget, mode and seed must agree)")
        games = sorted((g for p in parts for g in p["games"]), key=lambda g: g["index"])
        if len({g["index"] for g in games}) != len(games):
            parser.error("--combine: some games are in more than one part")
        info = dict(parts[0]["info"], commands=[c for p in parts for c in p["info"]["commands"]])
        print(summary(info, games))
        return 0
    if len(args.bots) != 2:
        parser.error("name two bots (or --combine saved parts)")
    for name in args.bots:
        if name not in BOTS:
            parser.error(f"{name!r} is not a bot; choose from {', '.join(sorted(BOTS))}")
    if args.games < 1 or args.first < 0 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1, --first at least 0")
    if args.budget is not None and not args.budget > 0:
        parser.error("--budget must be more than 0 seconds")
    python = os.path.relpath(sys.executable) if not os.path.relpath(sys.executable).startswith("..") else sys.executable
    command = shlex.join([python, "bench/bot_match.py", *(argv if argv is not None else sys.argv[1:])])
    started = time.perf_counter()
    games = play(args.bots[0], args.bots[1], args.games, args.first, args.budget, args.mode, args.seed,
                 min(args.jobs, args.games), progress=not args.quiet)
    info = {"a": args.bots[0], "b": args.bots[1], "budget": args.budget, "mode": args.mode, "seed": args.seed,
            "commands": [command]}
    print(summary(info, games))
    print(f"wall time {time.perf_counter() - started:.0f} s, {min(args.jobs, args.games)} processes")
    if args.json:
        args.json.write_text(json.dumps({"info": info, "games": games}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
