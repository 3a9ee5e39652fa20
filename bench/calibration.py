"""How far to trust the review's estimate: its win chances against how often those sides really won.

    python bench/calibration.py [--games 240] [--positions 6] [--workers 2] [--seed 1]
    python bench/calibration.py --time 12     # how long a whole game's review takes instead
    python bench/calibration.py --kinds rr2 --oracle --games 150   # where the error comes from

Plays arena games between bots (board99.arena.play_game), three kinds in turn:
2-player search v rulebook, 2-player search v search, and 4-player search v
rulebook (partners). The search bots play a fixed 16 guesses a move
(``SearchBot(rollouts=16, budget=None)``), so every game replays from its seed.
In each game ``--positions`` actions are picked at random (any seat, any
moment); for each the review weighs the move from its actor's own view
(``board99.review.review_move``, default options, exactly as a review does)
and notes the estimate *after* the move (and *before* it) against whether the
actor's side went on to win the game. Games run in ``--workers`` processes.

Prints, for the estimate after the move: buckets of 10 points, the positions in
each, the mean estimate, the observed win rate with a 95% interval, then the
Brier score beside that of always saying 50% and of always saying the observed
base rate. Positions from one game share its outcome, so the intervals come from
a bootstrap over whole games (2,000 resamples), not from the positions as if
independent. Also the Brier score per kind of game and for the estimate before.

``--time N`` instead plays N games (the kinds in turn, one process) and times the
review of seat 0's every move, as `board99 review` and the window do it.
``--kinds`` picks the kinds of game (``rr2``: 2-player rulebook v rulebook, the
playouts' own policy). ``--oracle`` also estimates each position with the true
other hands known (the real hands; the deck's order still shuffled): the
difference is what guessing the other hands costs.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import NamedTuple

from board99 import Game
from board99.arena import play_game
from board99.bots import RulebookBot, SearchBot
from board99.bots.base import Bot
from board99.bots.search import Playout
from board99.bots.tally import LineTally
from board99.record import Record
from board99.review import DEFAULT, PlayoutEstimator, review_move, review_record

#: Short name -> (name, players, side 0's bot, side 1's bot)
ALL_KINDS: dict[str, tuple[str, int, str, str]] = {
    "sr2": ("2p search v rulebook", 2, "search", "rulebook"),
    "ss2": ("2p search v search", 2, "search", "search"),
    "sr4": ("4p search v rulebook", 4, "search", "rulebook"),
    "rr2": ("2p rulebook v rulebook", 2, "rulebook", "rulebook"),
}
#: The kinds played, in turn (``--kinds``; the workers are forked after it is set).
KINDS: tuple[tuple[str, int, str, str], ...] = tuple(ALL_KINDS[k] for k in ("sr2", "ss2", "sr4"))
SEARCH_GUESSES = 16
BUCKETS = 10
RESAMPLES = 2000


class Point(NamedTuple):
    """One weighed position: the estimates for the actor's side, and whether that side won."""

    kind: str
    game: int
    actor: str  # the bot that made the move: search or rulebook
    after: float
    before: float
    won: int
    oracle: float | None = None  # the estimate knowing the other hands (--oracle)


def _bot(name: str, seed: int) -> Bot:
    return SearchBot(seed=seed, budget=None, rollouts=SEARCH_GUESSES) if name == "search" else RulebookBot()


def arena_game(index: int, seed: int) -> Game:
    """Game ``index`` of the kinds in turn, played to its end from ``seed``."""
    name, players, first_bot, second_bot = KINDS[index % len(KINDS)]
    game_seed = seed * 1_000_003 + index
    bots = [_bot((first_bot, second_bot)[s % 2], game_seed * 7 + s) for s in range(players)]
    game = play_game(Game(players, seed=game_seed, first=index // len(KINDS) % players), bots)
    assert game.winner is not None
    return game


def with_true_cards(game: Game, seat: int, action: object, playouts: int, seed: int) -> float:
    """The side's chance after ``action`` knowing every hand; only the deck's order is guessed (shuffled)."""
    view = game.view(seat)
    tally = LineTally(view.board, view.sides)
    rng = random.Random(seed)
    total = 0.0
    for _ in range(playouts):
        hands = [list(game.hand(s)) for s in range(game.players)]
        deck = list(game._deck)
        rng.shuffle(deck)
        p = Playout(tally.copy(), hands, deck, seat, list(view.skips), game.players)
        result = p.act(action)  # type: ignore[arg-type]
        if result is None:
            result = p.run(random.Random(rng.getrandbits(64)))
        total += 1.0 if result == seat % game.sides else 1 / game.sides if result == -1 else 0.0
    return total / playouts


def one_game(spec: tuple[int, int, int, bool]) -> list[Point]:
    """Play game ``index`` (its kind: index mod the kinds) from ``seed``; weigh ``positions`` of its moves."""
    index, positions, seed, oracle = spec
    name, players, first_bot, second_bot = KINDS[index % len(KINDS)]
    game_seed = seed * 1_000_003 + index
    game = arena_game(index, seed)
    picks = sorted(random.Random(game_seed).sample(range(len(game.log)), min(positions, len(game.log))))
    replay = Game(players, seed=game_seed, first=index // len(KINDS) % players)
    estimator = PlayoutEstimator()
    points = []
    for ply, (seat, action, _) in enumerate(game.log):
        if ply in picks:
            view = replay.view(seat)
            m = review_move(view, action, estimator, DEFAULT._replace(seed=seed), game=index, ply=ply + 1)
            actor = (first_bot, second_bot)[seat % 2]
            true = with_true_cards(replay, seat, action, DEFAULT.guesses, game_seed + ply) if oracle else None
            points.append(Point(name, index, actor, m.after, m.before, int(game.winner == seat % replay.sides),
                                true))
        replay.apply(seat, action)
    return points


def brier(points: Sequence[Point], after: bool = True) -> float:
    """Mean squared error of the estimate against the outcome (0 perfect; always 50% scores 0.25)."""
    return sum(((p.after if after else p.before) - p.won) ** 2 for p in points) / len(points)


def bucket_of(p: float) -> int:
    """0 for 0-10%, ..., 9 for 90-100% (100% in the top bucket)."""
    return min(BUCKETS - 1, int(p * BUCKETS))


def bootstrap(points: Sequence[Point], rng: random.Random) -> list[tuple[float, float]]:
    """Per bucket, the 95% interval of the observed win rate, resampling whole games."""
    games: dict[int, list[Point]] = {}
    for p in points:
        games.setdefault(p.game, []).append(p)
    # per game: (positions, wins) in each bucket
    tallies = []
    for pts in games.values():
        t = [[0, 0] for _ in range(BUCKETS)]
        for p in pts:
            t[bucket_of(p.after)][0] += 1
            t[bucket_of(p.after)][1] += p.won
        tallies.append(t)
    rates: list[list[float]] = [[] for _ in range(BUCKETS)]
    for _ in range(RESAMPLES):
        n = [0] * BUCKETS
        w = [0] * BUCKETS
        for t in rng.choices(tallies, k=len(tallies)):
            for b in range(BUCKETS):
                n[b] += t[b][0]
                w[b] += t[b][1]
        for b in range(BUCKETS):
            if n[b]:
                rates[b].append(w[b] / n[b])
    out = []
    for r in rates:
        r.sort()
        out.append((r[int(0.025 * len(r))], r[min(len(r) - 1, int(0.975 * len(r)))]) if r else (0.0, 1.0))
    return out


def table(points: Sequence[Point]) -> list[str]:
    """The calibration table as Markdown rows, then the Brier scores."""
    intervals = bootstrap(points, random.Random(12345))
    rows = ["| estimate | positions | mean estimate | observed win rate | 95% interval (games resampled) |",
            "|---|---:|---:|---:|---|"]
    for b in range(BUCKETS):
        inside = [p for p in points if bucket_of(p.after) == b]
        label = f"{b * 10}–{(b + 1) * 10}%"
        if not inside:
            rows.append(f"| {label} | 0 | | | |")
            continue
        mean = sum(p.after for p in inside) / len(inside)
        rate = sum(p.won for p in inside) / len(inside)
        lo, hi = intervals[b]
        rows.append(f"| {label} | {len(inside)} | {mean:.1%} | {rate:.1%} | {lo:.1%} – {hi:.1%} |")
    base = sum(p.won for p in points) / len(points)
    rows.append("")
    rows.append(f"Brier score (after the move): {brier(points):.4f} over {len(points)} positions of "
                f"{len({p.game for p in points})} games; always 50%: 0.2500; always the base rate "
                f"{base:.1%}: {base * (1 - base):.4f}; the estimate before the move: {brier(points, False):.4f}")
    for name, *_ in ALL_KINDS.values():
        some = [p for p in points if p.kind == name]
        if some:
            rows.append(f"  {name}: {len(some)} positions, Brier {brier(some):.4f}")
    for actor in ("search", "rulebook"):
        some = [p for p in points if p.actor == actor]
        if some:
            est = sum(p.after for p in some) / len(some)
            won = sum(p.won for p in some) / len(some)
            rows.append(f"  moves by the {actor} bot: {len(some)} positions, mean estimate {est:.1%}, "
                        f"won {won:.1%}, Brier {brier(some):.4f}")
    known = [p for p in points if p.oracle is not None]
    if known:
        true = sum(p.oracle for p in known if p.oracle is not None) / len(known)
        guessed = sum(p.after for p in known) / len(known)
        won = sum(p.won for p in known) / len(known)
        true_brier = sum((p.oracle - p.won) ** 2 for p in known if p.oracle is not None) / len(known)
        rows.append(f"  knowing the other hands: mean estimate {true:.1%} (Brier {true_brier:.4f}); "
                    f"with guessed ones {guessed:.1%} (Brier {brier(known):.4f}); won {won:.1%}")
    return rows


def timing(games: int, seed: int) -> list[str]:
    """Review seat 0 of ``games`` arena games at the default effort; the seconds per game and per move."""
    rows = []
    per_kind: dict[str, list[tuple[float, int]]] = {}
    for index in range(games):
        game = arena_game(index, seed)
        started = time.perf_counter()
        review = review_record(Record.of(game), 0)
        spent = time.perf_counter() - started
        name = KINDS[index % len(KINDS)][0]
        per_kind.setdefault(name, []).append((spent, len(review.moves)))
    for name, runs in per_kind.items():
        seconds = [t for t, _ in runs]
        per_move = sum(seconds) / sum(n for _, n in runs)
        rows.append(f"  {name}: {len(runs)} games, review of seat 0 median {statistics.median(seconds):.1f} s, "
                    f"max {max(seconds):.1f} s, {statistics.median(n for _, n in runs):.0f} moves (median), "
                    f"{per_move * 1000:.0f} ms a move")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Play, weigh, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="games in all, the kinds taking turns")
    parser.add_argument("--positions", type=int, default=6, help="positions weighed per game")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and of the review")
    parser.add_argument("--time", type=int, default=0, metavar="N", help="time whole reviews of N games instead")
    parser.add_argument("--save", default=None, metavar="CSV", help="also write every position to this CSV file")
    parser.add_argument("--kinds", default="sr2,ss2,sr4",
                        help=f"kinds of game, in turn: {', '.join(f'{k} ({v[0]})' for k, v in ALL_KINDS.items())}")
    parser.add_argument("--oracle", action="store_true", help="also estimate knowing the other hands")
    args = parser.parse_args(argv)
    global KINDS
    try:
        KINDS = tuple(ALL_KINDS[k.strip()] for k in args.kinds.split(","))
    except KeyError as exc:
        parser.error(f"--kinds: {exc} is not one of {', '.join(ALL_KINDS)}")
    command = "python bench/calibration.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"$ {command}")
    if args.time:
        for row in timing(args.time, args.seed):
            print(row)
        return 0
    print(f"review options: {DEFAULT._replace(seed=args.seed)}; search bots: {SEARCH_GUESSES} guesses a move")
    started = time.perf_counter()
    specs = [(i, args.positions, args.seed, args.oracle) for i in range(args.games)]
    points: list[Point] = []
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for done, pts in enumerate(pool.imap_unordered(one_game, specs, chunksize=1), start=1):
            points.extend(pts)
            if done % 20 == 0 or done == args.games:
                print(f"  {done}/{args.games} games, {len(points)} positions, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    points.sort(key=lambda p: (p.game, p.after))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write("kind,game,actor,after,before,won,oracle\n")
            f.writelines(f"{p.kind},{p.game},{p.actor},{p.after:.6f},{p.before:.6f},{p.won},"
                         f"{'' if p.oracle is None else f'{p.oracle:.6f}'}\n" for p in points)
    for row in table(points):
        print(row)
    print(f"wall time {time.perf_counter() - started:.0f} s with {args.workers} processes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
