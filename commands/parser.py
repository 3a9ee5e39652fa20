"""The `board99` command line: its parser, the checks of its arguments, and the run of the subcommand asked for."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from board99 import MODES, PLAYER_COUNTS, kinds
from board99.bots import BOTS
from board99.ninety_nine.bots import BOTS as NINETY_BOTS
from board99.ninety_nine.rules import RULE_SETS
from board99.wire.protocol import BOT_PACES, NAME_MAX


def _command(module: str, function: str) -> Callable[[argparse.Namespace], int]:
    """``function`` of this package's ``module``, imported when it runs: `board99 replay` loads no ZeroMQ."""
    def run(args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(f"{__package__}.{module}"), function)(args))
    return run


AS_HELP = ("play as NAME with NAME's own player key (made on first use in the config folder): two people at "
           "one machine each keep their own name and rating")


def person_name(text: str) -> str:
    """A name for --as: not empty, at most the protocol's 40 characters."""
    name = text.strip()
    if not name or len(name) > NAME_MAX:
        raise argparse.ArgumentTypeError(f"a name is 1 to {NAME_MAX} characters, not {len(name)}")
    return name


#: A Z85 key may start with '-', which argparse takes for an option unless it is joined with '='.
KEY_HELP = "the server's CurveZMQ public key (servers run with --curve); write --key=KEY"


def port(text: str) -> int:
    """A TCP port for --port: 0 to 65535 (0: pick a free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port: give 1 to 65535, or 0 for a free one")
    return value


def positive(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: give at least 1")
    return value


def seconds(text: str) -> float:
    """A number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text}: give 0 or more seconds")
    return value


BOT_LIST = ", ".join(sorted(BOTS))
NINETY_RULES = tuple(RULE_SETS)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="board99", description="The 1963 GAME OF 99, on a LAN.")
    sub = parser.add_subparsers(dest="command", required=True)

    arena = sub.add_parser("arena", help="play many bot-against-bot games and print win rates",
                           description="Bot against bot: win rates with 95% intervals, the opener alternating. "
                                       "rulebook vs random plays 1,000 games in seconds; the search bot thinks "
                                       "0.2 s a move, so 1,000 of its games take about an hour and a half "
                                       "(fastsearch and infer think at most as long).")
    arena.add_argument("--bots", default=None,
                       help=f"one bot per side, comma-separated; bots: {BOT_LIST} (default rulebook,random; "
                            f"ninety-nine: search,sound)")
    arena.add_argument("--game", choices=("peg-board", "ninety-nine"), default="peg-board",
                       help="the game: peg-board (default) or ninety-nine (then --bots names one bot per seat, "
                            "the last filling the rest; bots: random, sound, search)")
    arena.add_argument("--rules", choices=NINETY_RULES, default=None,
                       help="ninety-nine's rule set (default convention; docs/ninety-nine.md)")
    arena.add_argument("--players", type=int, choices=sorted({*PLAYER_COUNTS, 5}), default=None,
                       help="players at the table (default 2; 5 only for ninety-nine)")
    arena.add_argument("--games", type=positive, default=100, help="games to play (default 100)")
    arena.add_argument("--seed", type=int, default=1, help="seed of the first game; the rest follow from it")
    arena.add_argument("--mode", choices=MODES, default="guarded", help="table mode (bots commit no offences)")
    arena.add_argument("--budget", type=float, default=None,
                       help="seconds per move for the search, fastsearch and infer bots (default 0.2; "
                            "ninety-nine's search bot: no clock, a fixed number of guesses)")
    arena.set_defaults(run=_command("arena", "arena"))

    replay = sub.add_parser("replay", help="check a game or match record against the rules and show it")
    replay.add_argument("file", help="a record, as `board99 records` or the window saves it (docs/ has a sample)")
    replay.add_argument("--quiet", action="store_true", help="print the lines only, no boards")
    replay.add_argument("--window", action="store_true", help="step through it in the window's replay viewer")
    replay.set_defaults(run=_command("replay", "replay"))

    review = sub.add_parser("review", help="weigh one seat's moves in a finished game: win chances, marks, hints",
                            description="Each of the seat's moves with its side's estimated chance to win before "
                                        "and after, the moves that lost most marked (inaccuracy ?!, mistake ?, "
                                        "blunder ??) with the better move and the hint broken (docs/review.md).")
    review.add_argument("file", help="a finished game's or match's record")
    review.add_argument("--seat", type=int, default=0, help="the seat to review (default 0)")
    review.add_argument("--guesses", type=positive, default=None,
                        help="guesses a move on the first look (default 40; fewer is faster and rougher)")
    review.add_argument("--seed", type=int, default=0, help="the review's seed (default 0: the same review each time)")
    review.add_argument("--window", action="store_true", help="show the review in the window's replay viewer")
    review.set_defaults(run=_command("replay", "review"))

    play = sub.add_parser("play", help="play a game in a window against bots (or bots in the terminal)")
    play.add_argument("--terminal", action="store_true", help="watch bots play in the terminal instead")
    play.add_argument("--bots", default="random",
                      help=f"the bots in the terminal game, one per side or one for all; bots: {BOT_LIST}")
    play.add_argument("--game", choices=kinds.names(), default=kinds.DEFAULT,
                      help="the game (window): peg-board (the default, the 1963 GAME OF 99) or ninety-nine, the "
                           "counting card game")
    play.add_argument("--rules", choices=tuple(RULE_SETS), default=None,
                      help="ninety-nine's rule set (default convention): glengariff (000), convention (002), "
                           "tokens (003) or three-card (004)")
    play.add_argument("--players", type=int, choices=sorted({*PLAYER_COUNTS, 5}), default=2,
                      help="players at the table (peg-board: 2, 3, 4 or 6; ninety-nine: 2-6, three-card 3-6)")
    play.add_argument("--mode", choices=MODES, default="guarded",
                      help="guarded refuses offences; penalty carries them out and punishes them")
    play.add_argument("--seed", type=int, default=None, help="the terminal game's seed (default: random)")
    play.add_argument("--delay", type=seconds, default=0.0, help="seconds to pause after each move (terminal)")
    play.add_argument("--bot", choices=sorted({*BOTS, *NINETY_BOTS}), default="rulebook",
                      help="the bot in the other seats (window; a game without it plays its stand-in bot)")
    play.add_argument("--server", default=None,
                      help="HOST[:PORT] of a running server (window; default: start one in the background)")
    play.add_argument("--name", default="player", help="your name at the table (window)")
    play.add_argument("--as", dest="as_name", type=person_name, default=None, metavar="NAME", help=AS_HELP)
    play.add_argument("--mute", action="store_true", help="start with the sound off (window)")
    play.add_argument("--bot-pace", choices=BOT_PACES, default="person",
                      help="how fast the bots move (window): person (default; time to act out of turn, as at a "
                           "real table) or quick")
    play.set_defaults(run=_command("play", "play"))

    join = sub.add_parser("join", help="open the window on a LAN server's lobby")
    join.add_argument("server", nargs="?", default=None,
                      help="HOST[:PORT] (default: list the servers found on the LAN)")
    join.add_argument("--name", default="player", help="your name at the table")
    join.add_argument("--as", dest="as_name", type=person_name, default=None, metavar="NAME", help=AS_HELP)
    join.add_argument("--key", default=None, help=KEY_HELP)
    join.add_argument("--mute", action="store_true", help="start with the sound off")
    join.set_defaults(run=_command("play", "join"))

    learn = sub.add_parser("learn", help="learn to play: short lessons in the window (see docs/lessons.md)",
                           description="Lessons at a table with bots, on this machine (no server): each sets up "
                                       "a position, gives a task or asks a question, then explains it with the "
                                       "1963 rulebook's words. Progress is kept in the config folder.")
    learn.add_argument("lesson", nargs="?", default=None, help="open this lesson (its number or id) at once")
    learn.add_argument("--list", action="store_true", help="list the lessons here instead of opening the window")
    learn.add_argument("--name", default="player", help="your name at the lessons' table")
    learn.add_argument("--mute", action="store_true", help="start with the sound off")
    learn.set_defaults(run=_command("play", "learn"))

    serve = sub.add_parser("serve", help="run the LAN game server (see docs/server.md)")
    serve.add_argument("--bind", default="*", help="address to listen on (default: all interfaces)")
    serve.add_argument("--port", type=port, default=9099, help="TCP port (default 9099; 0 picks a free one)")
    serve.add_argument("--data", default=None, help="data directory: journal, records, keys "
                                                    "(default: the user data directory)")
    serve.add_argument("--curve", action="store_true", help="encrypt with CurveZMQ; shows the server's key")
    serve.add_argument("--name", default=None, help="server name announced on the LAN (default: host name)")
    serve.add_argument("--no-beacon", action="store_true", help="do not announce the server on the LAN")
    serve.add_argument("--bot-delay", type=seconds, default=0.6,
                       help="seconds a server bot waits before moving (default 0.6)")
    serve.add_argument("--fsync", action="store_true", help="wait for the disk at every journal commit")
    serve.add_argument("--web-port", type=port, default=None,
                       help="TCP port of the web table guests open in a browser (default: --port + 1, so 9100; "
                            "0 picks a free one); see docs/web.md")
    serve.add_argument("--no-web", action="store_true", help="serve no web table (ZeroMQ clients only)")
    serve.add_argument("--qr", action="store_true", help="also print the web table's address as a QR code")
    serve.set_defaults(run=_command("serve", "serve"))

    bot = sub.add_parser("bot", help="seat a bot from this machine at a table on a server")
    bot.add_argument("--server", required=True, help="HOST[:PORT] of the server")
    bot.add_argument("--table", required=True, help="the table's id (the lobby shows it on the table's card)")
    bot.add_argument("--seat", type=int, required=True, help="the seat number, 0 to 5")
    bot.add_argument("--bot", choices=sorted(BOTS), default="rulebook", help="which bot plays (default rulebook)")
    bot.add_argument("--colour", default=None, help="side colour (default: the side's, or the first free)")
    bot.add_argument("--name", default=None, help="the name shown at the table (default: '<bot> bot')")
    bot.add_argument("--key", default=None, help=KEY_HELP)
    bot.add_argument("--rematch", action="store_true", help="ask for a rematch after each game")
    bot.set_defaults(run=_command("remote", "bot"))

    records = sub.add_parser("records", help="list finished games and write their records to files",
                             description="Lists the finished games a server keeps (or a stopped server's data "
                                         "folder), newest first; with --get, writes those records to files.")
    where = records.add_mutually_exclusive_group()
    where.add_argument("--server", default=None, help="HOST[:PORT] of a running server (default 127.0.0.1)")
    where.add_argument("--data", default=None, help="a stopped server's data folder (its journal)")
    records.add_argument("--get", nargs="+", default=None, metavar="TABLE:GAME", help="write these games' records")
    records.add_argument("--match", action="store_true", help="write the whole match each game belongs to")
    records.add_argument("--out", default=".", help="folder to write records into (default: here)")
    records.add_argument("--limit", type=positive, default=50, help="how many games to list (default 50, most 100)")
    records.add_argument("--key", default=None, help=KEY_HELP)
    records.set_defaults(run=_command("records", "records"))

    tour = sub.add_parser("tournament", help="start and steer a club tournament on a server (docs/tournaments.md)")
    tour.add_argument("action", choices=("new", "next", "show"),
                      help="new: make one; next: open its next round; show: its standings")
    tour.add_argument("id", nargs="?", default=None, help="the tournament's id (next, show)")
    tour.add_argument("--server", required=True, help="HOST[:PORT] of the server")
    tour.add_argument("--name", default="Club night", help="the tournament's name (new)")
    tour.add_argument("--players", type=int, choices=(2, 4), default=4, help="players per table (new)")
    tour.add_argument("--side", action="append", default=[],
                      help="one side: a name, or two for partners ('Ann,Bo'); bot:rulebook for a bot (new)")
    tour.add_argument("--rounds", type=positive, default=3, help="rounds to play (new)")
    tour.add_argument("--first-to", type=int, choices=(1, 3, 5), default=3, help="a match: first to N wins (new)")
    tour.add_argument("--games", type=int, default=None, help="a match: this many games instead (new)")
    tour.add_argument("--token", default=None, help="the steering token `new` printed (next)")
    tour.add_argument("--csv", default=None, help="also write the standings to this CSV file (show)")
    tour.add_argument("--host-name", default="tournament host", help="the name this command connects as")
    tour.add_argument("--key", default=None, help=KEY_HELP)
    tour.set_defaults(run=_command("tournament", "tournament"))
    return parser


#: The exit status of a command whose reader went away (128 + SIGPIPE, as a shell reports `cat` stopped by one).
BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `board99` command."""
    try:
        args = build_parser().parse_args(argv)  # --help prints here
        code = int(args.run(args))
        sys.stdout.flush()  # a reader gone away shows here, not in Python's own flush at exit
        return code
    except BrokenPipeError:
        # `board99 learn --list | head`: head has what it wanted and closed the pipe. Stop quietly, as cat
        # does; what is still buffered goes nowhere, so the flush at exit cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return BROKEN_PIPE
