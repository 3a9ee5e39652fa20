"""`board99 replay` and `board99 review`: a record file checked against the rules and shown, or one seat's
moves weighed (docs/review.md)."""

from __future__ import annotations

import argparse
import sys
import time

from board99 import kinds
from board99.match import MatchRecord, is_match_record, score
from board99.record import MAGIC as GAME_MAGIC
from board99.record import Record, RecordError, why_unreadable
from board99.review import DEFAULT, review_records
from board99.settings import sides_for


def show_game(text: str, quiet: bool, first_line: int = 1) -> None:
    """Print a game record's lines (numbered as in the file), each action followed by the position.

    The record's first line names its game (``kinds.for_record``) and that kind replays it, checking every
    line (ValueError at the first the rules deny); the position is drawn when the kind draws one for a
    terminal (its ``position_text``), else the lines alone are shown.
    """
    kind = kinds.for_record(text)
    picture = None if quiet else getattr(kind, "position_text", None)
    last_ply = -1
    for no, line, game in kind.replay_record(text):
        print(f"{no + first_line - 1:>5}  {line}")
        if picture is not None and game.ply != last_ply and not line.startswith(" "):
            last_ply = game.ply
            print(picture(game))


def replay(args: argparse.Namespace) -> int:
    """`board99 replay FILE`: every line of a game's or a match's record checked, and the game shown."""
    if args.window:
        from board99.client.gui.app import run_replay  # the window (arcade) only when asked for

        return int(run_replay(args.file))
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
        if is_match_record(text):
            match, results = MatchRecord.loads(text)  # every game replayed and the score checked first
            lines = text.split("\n")
            starts = [i + 1 for i, row in enumerate(lines) if row == GAME_MAGIC]
            for n, (game, result, start) in enumerate(zip(match.games, results, starts), start=1):
                print(f"game {n}: side {result.side} won (S{result.seat} {match.names[result.seat]}), "
                      f"line {' '.join(map(str, result.line))}")
                show_game(game.dumps(), args.quiet, start)
            won = score(sides_for(match.players), results)
            winner = match.format.winner(won)
            print(f"{match.format.text()}: score {'-'.join(map(str, won))}, "
                  + (f"side {winner} won the match" if winner is not None
                     else "level" if match.format.over(won) else "not decided"))
        else:
            show_game(text, args.quiet)
    except BrokenPipeError:
        raise  # the reader went away (`board99 replay FILE | head`): the file was read fine (parser.main)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return unreadable("replay", args.file, exc)
    print(f"{args.file}: every line follows the rules")
    return 0


def unreadable(command: str, path: str, exc: OSError | UnicodeDecodeError | ValueError) -> int:
    """Say on stderr why ``path`` gave no record; the exit code: 1 for a record that breaks a rule, else 2."""
    if isinstance(exc, (OSError, UnicodeDecodeError)):
        print(f"board99 {command}: {path}: {why_unreadable(exc)}", file=sys.stderr)
        return 2
    print(f"board99 {command}: {path}: {exc}", file=sys.stderr)
    return 1


def review(args: argparse.Namespace) -> int:
    """`board99 review FILE --seat N`: one seat's moves weighed, the costly ones marked with a better move."""
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
        if is_match_record(text):
            match, _ = MatchRecord.loads(text)
            records, name = match.games, match.names[args.seat] if 0 <= args.seat < match.players else ""
        else:
            records, name = [Record.loads(text)], ""
            records[0].replay()  # every line checked before any time is spent weighing moves
    except (OSError, UnicodeDecodeError, RecordError) as exc:
        return unreadable("review", args.file, exc)
    players = records[0].players
    if not 0 <= args.seat < players:
        print(f"board99 review: --seat: a {players}-player game has seats 0-{players - 1}", file=sys.stderr)
        return 2
    if args.window:
        from board99.client.gui.app import run_replay

        return int(run_replay(args.file, review_seat=args.seat))
    options = DEFAULT._replace(seed=args.seed, **({"guesses": args.guesses} if args.guesses else {}))
    started = time.perf_counter()
    review = review_records(records, args.seat, options=options)
    if name:
        print(f"{args.file}: S{args.seat} is {name}")
    for line in review.lines():
        print(line)
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0
