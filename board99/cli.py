"""The `board99` command: arena, replay, play (and the server and client commands)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .arena import run_arena
from .bots import BOTS, make_bot
from .game import MODES, PLAYER_COUNTS, Game
from .record import Record, RecordError
from .render import board_text, status_text


def _arena(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    names = [n.strip() for n in args.bots.split(",")]
    for name in names:
        if name not in BOTS:
            print(f"board99 arena: --bots: {name!r} is not a bot; choose from {', '.join(sorted(BOTS))}",
                  file=sys.stderr)
            return 2
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    started = time.perf_counter()
    with Progress(*columns, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(" vs ".join(names), total=args.games)
        try:
            options = {} if args.budget is None else {"budget": args.budget}
            result = run_arena(names, args.players, args.games, args.seed, args.mode,
                               progress=lambda r: bar.update(task, completed=r.games), bot_options=options)
        except ValueError as exc:
            print(f"board99 arena: {exc}", file=sys.stderr)
            return 2
    elapsed = time.perf_counter() - started
    print(f"{result.games} games, {args.players} players, {args.mode} mode, seed {args.seed}, "
          f"opener alternating; {result.deals} deals, {elapsed:.1f} s"
          + ("" if args.budget is None else f"; search budget {args.budget:g} s/move"))
    for side, name in enumerate(names):
        lo, hi = result.interval(side)
        print(f"  side {side} {name:<10} wins {result.wins[side]:>5}  "
              f"{result.rate(side):6.1%}  95% interval {lo:.1%} - {hi:.1%}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            record = Record.loads(f.read())
        last_ply = -1
        for no, line, game in record.steps():
            print(f"{no:>5}  {line}")
            if not args.quiet and game.ply != last_ply and not line.startswith(" "):
                last_ply = game.ply
                print(board_text(game.view()))
                print(status_text(game.view()))
    except OSError as exc:
        print(f"board99 replay: {exc}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"board99 replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    print(f"{args.file}: every line follows the rules")
    return 0


def _play_terminal(args: argparse.Namespace) -> int:
    """A game between bots in the terminal, the board drawn after each move."""
    names = [n.strip() for n in args.bots.split(",")]
    game = Game(args.players, args.mode, seed=args.seed)
    if len(names) == 1:
        names = names * game.sides
    if len(names) != game.sides or any(n not in BOTS for n in names):
        print(f"board99 play: --bots: name one bot per side ({game.sides}) from {', '.join(sorted(BOTS))}",
              file=sys.stderr)
        return 2
    bots = [make_bot(names[seat % game.sides], seed=seat) for seat in range(game.players)]
    print(board_text(game.view()))
    while (seat := game.turn) is not None:  # no turn once a side has won
        action = bots[seat].choose(game.view(seat))
        events = game.apply(seat, action)
        print(f"\nS{seat} {action.text()}: " + "; ".join(e.text(reveal=False) for e in events))
        print(board_text(game.view()))
        print(status_text(game.view()))
        if args.delay:
            time.sleep(args.delay)
    return 0


#: Seconds a bot waits before acting in `board99 play`, so a person can follow the bots' moves.
PLAY_BOT_DELAY = 0.6
#: In `board99 play`'s data directory: the seat of the practice game in progress, to go back to.
SAVED_SEAT = "practice-seat.json"


def play_data_dir() -> Path:
    """Where `board99 play` keeps its embedded server's data and its practice seat: the user data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("board99")) / "play"


def start_practice_server(data: Path | None = None, bot_delay: float = PLAY_BOT_DELAY) -> Any:
    """The same server as `board99 serve`, in a background thread on a free 127.0.0.1 port."""
    from board99.server.loop import run_in_thread

    data = data or play_data_dir()
    data.mkdir(parents=True, exist_ok=True)
    return run_in_thread(port=0, data_dir=data, name="board99 play", bot_delay=bot_delay)


def _play(args: argparse.Namespace) -> int:
    """`board99 play`: the window against bots (an embedded server unless --server), or --terminal."""
    if args.terminal:
        return _play_terminal(args)
    from board99.client.gui.app import run_play

    if args.server is not None:  # someone else's server: nothing of ours is kept
        return run_play(args.players, args.mode, args.bot, name=args.name, server=args.server, muted=args.mute)
    # Our own server keeps its games: an unfinished practice game is picked up where it was left.
    return run_play(args.players, args.mode, args.bot, name=args.name, muted=args.mute,
                    start_server=start_practice_server, saved=play_data_dir() / SAVED_SEAT)


def _join(args: argparse.Namespace) -> int:
    """`board99 join [HOST[:PORT]]`: the window on a LAN server's lobby (or the servers discovery finds)."""
    from board99.client.gui.app import run_join

    return run_join(args.server, name=args.name, server_key=args.key, muted=args.mute)


def _serve(args: argparse.Namespace) -> int:
    """Run the LAN game server in the foreground."""
    from board99.server.serve import serve

    try:
        return serve(args.bind, args.port, args.data, curve=args.curve, name=args.name,
                     beacon=not args.no_beacon, bot_delay=args.bot_delay, fsync=args.fsync)
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"board99 serve: {exc}", file=sys.stderr)
        return 2


def _bot(args: argparse.Namespace) -> int:
    """Seat a bot from this machine at a table on a server, and play until the game ends."""
    from board99.client.net import GameClient, ServerError, endpoint_for, play_bot

    if args.bot not in BOTS:
        print(f"board99 bot: --bot: {args.bot!r} is not a bot; choose from {', '.join(sorted(BOTS))}",
              file=sys.stderr)
        return 2
    client = GameClient(endpoint_for(args.server), server_key=args.key, name=args.name or f"{args.bot} bot")
    try:
        client.take_seat(args.table, args.seat, args.colour)
        assert client.table is not None
        print(f"seated at table {args.table} as S{args.seat} ({client.table.seats[args.seat].colour})", flush=True)
        while True:
            view = play_bot(client, make_bot(args.bot), until=None)
            if view is not None:
                print(f"game over: side {view.winner} won after {view.ply} actions", flush=True)
            if not args.rematch:
                break
            client.rematch()
    except ServerError as exc:
        print(f"board99 bot: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        client.close()
    return 0


#: A Z85 key may start with '-', which argparse takes for an option unless it is joined with '='.
KEY_HELP = "the server's CurveZMQ public key (servers run with --curve); write --key=KEY"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="board99", description="The 1963 GAME OF 99, on a LAN.")
    sub = parser.add_subparsers(dest="command", required=True)

    arena = sub.add_parser("arena", help="play many bot-against-bot games and print win rates")
    arena.add_argument("--bots", default="rulebook,random", help="one bot per side, comma-separated")
    arena.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2)
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--mode", choices=MODES, default="guarded")
    arena.add_argument("--budget", type=float, default=None,
                       help="seconds per move for the search bot (default 0.2)")
    arena.set_defaults(run=_arena)

    replay = sub.add_parser("replay", help="check a game record against the rules and show it")
    replay.add_argument("file")
    replay.add_argument("--quiet", action="store_true", help="print the lines only, no boards")
    replay.set_defaults(run=_replay)

    play = sub.add_parser("play", help="play a game in a window against bots (or bots in the terminal)")
    play.add_argument("--terminal", action="store_true", help="bots play in the terminal")
    play.add_argument("--bots", default="random")
    play.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2)
    play.add_argument("--mode", choices=MODES, default="guarded")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each move (terminal)")
    play.add_argument("--bot", default="rulebook", help="the bot in the other seats (window)")
    play.add_argument("--server", default=None,
                      help="HOST[:PORT] of a running server (window; default: start one in the background)")
    play.add_argument("--name", default="player", help="your name at the table (window)")
    play.add_argument("--mute", action="store_true", help="start with the sound off (window)")
    play.set_defaults(run=_play)

    join = sub.add_parser("join", help="open the window on a LAN server's lobby")
    join.add_argument("server", nargs="?", default=None,
                      help="HOST[:PORT] (default: list the servers found on the LAN)")
    join.add_argument("--name", default="player", help="your name at the table")
    join.add_argument("--key", default=None, help=KEY_HELP)
    join.add_argument("--mute", action="store_true", help="start with the sound off")
    join.set_defaults(run=_join)

    serve = sub.add_parser("serve", help="run the LAN game server (see docs/server.md)")
    serve.add_argument("--bind", default="*", help="address to listen on (default: all interfaces)")
    serve.add_argument("--port", type=int, default=9099, help="TCP port (default 9099; 0 picks a free one)")
    serve.add_argument("--data", default=None, help="data directory: journal, records, keys "
                                                    "(default: the user data directory)")
    serve.add_argument("--curve", action="store_true", help="encrypt with CurveZMQ; shows the server's key")
    serve.add_argument("--name", default=None, help="server name announced on the LAN (default: host name)")
    serve.add_argument("--no-beacon", action="store_true", help="do not announce the server on the LAN")
    serve.add_argument("--bot-delay", type=float, default=0.6, help="seconds a server bot waits before moving")
    serve.add_argument("--fsync", action="store_true", help="wait for the disk at every journal commit")
    serve.set_defaults(run=_serve)

    bot = sub.add_parser("bot", help="seat a bot from this machine at a table on a server")
    bot.add_argument("--server", required=True, help="HOST[:PORT] or tcp://HOST:PORT")
    bot.add_argument("--table", required=True, help="the table's id (as the lobby lists it)")
    bot.add_argument("--seat", type=int, required=True)
    bot.add_argument("--bot", default="rulebook")
    bot.add_argument("--colour", default=None, help="side colour (default: the side's, or the first free)")
    bot.add_argument("--name", default=None)
    bot.add_argument("--key", default=None, help=KEY_HELP)
    bot.add_argument("--rematch", action="store_true", help="ask for a rematch after each game")
    bot.set_defaults(run=_bot)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `board99` command."""
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
