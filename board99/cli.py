"""The `board99` command: arena, replay, play (and the server and client commands)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .arena import ArenaResult, run_arena
from .bots import BOTS, make_bot
from .game import MODES, PLAYER_COUNTS, Game
from .match import MatchRecord, is_match_record, score
from .record import MAGIC as GAME_MAGIC
from .record import Record, RecordError, why_unreadable
from .render import board_text, status_text
from .settings import sides_for


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


def _show_game(record: Record, quiet: bool, first_line: int = 1) -> None:
    """Print a game record's lines (numbered as in the file), each action followed by the board."""
    last_ply = -1
    for no, line, game in record.steps():
        print(f"{no + first_line - 1:>5}  {line}")
        if not quiet and game.ply != last_ply and not line.startswith(" "):
            last_ply = game.ply
            print(board_text(game.view()))
            print(status_text(game.view()))


def _replay(args: argparse.Namespace) -> int:
    if args.window:
        from board99.client.gui.app import run_replay

        return run_replay(args.file)
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
                _show_game(game, args.quiet, start)
            won = score(sides_for(match.players), results)
            winner = match.format.winner(won)
            print(f"{match.format.text()}: score {'-'.join(map(str, won))}, "
                  + (f"side {winner} won the match" if winner is not None
                     else "level" if match.format.over(won) else "not decided"))
        else:
            _show_game(Record.loads(text), args.quiet)
    except (OSError, UnicodeDecodeError, RecordError) as exc:
        return _unreadable("replay", args.file, exc)
    print(f"{args.file}: every line follows the rules")
    return 0


def _unreadable(command: str, path: str, exc: OSError | UnicodeDecodeError | RecordError) -> int:
    """Say on stderr why ``path`` gave no record; the exit code: 1 for a record that breaks a rule, else 2."""
    if isinstance(exc, RecordError):
        print(f"board99 {command}: {path}: {exc}", file=sys.stderr)
        return 1
    print(f"board99 {command}: {path}: {why_unreadable(exc)}", file=sys.stderr)
    return 2


def _review(args: argparse.Namespace) -> int:
    from .review import DEFAULT, review_records

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
        return _unreadable("review", args.file, exc)
    players = records[0].players
    if not 0 <= args.seat < players:
        print(f"board99 review: --seat: a {players}-player game has seats 0-{players - 1}", file=sys.stderr)
        return 2
    if args.window:
        from board99.client.gui.app import run_replay

        return run_replay(args.file, review_seat=args.seat)
    options = DEFAULT._replace(seed=args.seed, **({"guesses": args.guesses} if args.guesses else {}))
    started = time.perf_counter()
    review = review_records(records, args.seat, options=options)
    if name:
        print(f"{args.file}: S{args.seat} is {name}")
    for line in review.lines():
        print(line)
    print(f"({time.perf_counter() - started:.1f} s)")
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


def reachable(command: str, server: str, key: str | None = None, timeout: float = 3.0) -> str | None:
    """The endpoint of a board99 server answering at ``server``, or None (the reason printed)."""
    from board99.client.net import GameClient, ServerError, endpoint_for

    try:
        endpoint = endpoint_for(server)
        with GameClient(endpoint, server_key=key, timeout=timeout) as client:
            client.hello()
        return endpoint
    except ValueError as exc:
        print(f"board99 {command}: {exc}", file=sys.stderr)
    except ServerError as exc:
        why = ("no board99 server answers there" if exc.code in ("timeout", "disconnected") else exc.message)
        print(f"board99 {command}: {server}: {why} (is `board99 serve` running, and is the port open?)",
              file=sys.stderr)
    return None


def _play(args: argparse.Namespace) -> int:
    """`board99 play`: the window against bots (an embedded server unless --server), or --terminal."""
    if args.terminal:
        return _play_terminal(args)
    from board99.client.gui.app import run_play

    if args.server is not None:  # someone else's server: nothing of ours is kept
        endpoint = reachable("play", args.server)
        if endpoint is None:
            return 2
        return run_play(args.players, args.mode, args.bot, name=args.name, server=endpoint, muted=args.mute,
                        identity=args.as_name, bot_pace=args.bot_pace)
    # Our own server keeps its games: an unfinished practice game is picked up where it was left
    # (each person's own: --as NAME keeps NAME's seat apart).
    saved = SAVED_SEAT
    if args.as_name:
        from board99.client.player_key import file_stem

        saved = f"practice-seat-{file_stem(args.as_name)}.json"
    # Started before the window opens, so a journal in use or damaged is said here, in words.
    try:
        practice = start_practice_server()
    except RuntimeError as exc:
        print(f"board99 play: {exc}", file=sys.stderr)
        return 2
    try:
        return run_play(args.players, args.mode, args.bot, name=args.name, muted=args.mute,
                        start_server=lambda: practice, saved=play_data_dir() / saved, identity=args.as_name,
                        bot_pace=args.bot_pace)
    finally:
        practice.stop()  # already stopped when the window closed; not when no window could open


def _join(args: argparse.Namespace) -> int:
    """`board99 join [HOST[:PORT]]`: the window on a LAN server's lobby (or the servers discovery finds)."""
    from board99.client.gui.app import run_join

    address = args.server
    if address is not None:
        address = reachable("join", address, args.key)
        if address is None:
            return 2
    return run_join(address, name=args.name, server_key=args.key, muted=args.mute, identity=args.as_name)


def _learn(args: argparse.Namespace) -> int:
    """`board99 learn [LESSON]`: the lessons in the window (no server), or --list them here."""
    from board99.lessons import LessonError, catalogue

    try:
        lessons = catalogue()
    except LessonError as exc:
        print(f"board99 learn: {exc}", file=sys.stderr)
        return 1
    if args.list:
        for number, lesson in enumerate(lessons, 1):
            print(f"{number:2}. {lesson.title}  ({lesson.id}: {lesson.summary})")
        return 0
    index = None
    if args.lesson is not None:
        ids = [lesson.id for lesson in lessons]
        if args.lesson in ids:
            index = ids.index(args.lesson)
        elif args.lesson.isdigit() and 1 <= int(args.lesson) <= len(lessons):
            index = int(args.lesson) - 1
        else:
            print(f"board99 learn: {args.lesson!r} is not a lesson; give 1-{len(lessons)} or an id "
                  f"(board99 learn --list)", file=sys.stderr)
            return 2
    from board99.client.gui.app import run_learn

    return run_learn(index, name=args.name, muted=args.mute)


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

    try:
        client = GameClient(endpoint_for(args.server), server_key=args.key, name=args.name or f"{args.bot} bot")
    except (ValueError, ServerError) as exc:
        print(f"board99 bot: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
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


def _records(args: argparse.Namespace) -> int:
    """`board99 records`: list a server's (or a data folder's) finished games; write those asked for."""
    from board99.client.gui.records import match_name
    from board99.wire.listings import RecordEntry

    source: Any
    if args.data is not None:
        from board99.server.journal import JOURNAL_FILE, Journal, JournalDamaged

        if not (Path(args.data) / JOURNAL_FILE).exists():
            print(f"board99 records: --data {args.data}: no journal ({JOURNAL_FILE}) there", file=sys.stderr)
            return 2
        try:
            journal = Journal(args.data)
        except JournalDamaged as exc:
            print(f"board99 records: {exc}", file=sys.stderr)
            return 2
        except RuntimeError as exc:
            print(f"board99 records: {exc}; while the server runs, ask it with --server", file=sys.stderr)
            return 2

        def listing() -> tuple[list[RecordEntry], int]:
            rows, total = journal.finished_games(0, args.limit)
            return [RecordEntry(**r) for r in rows], total

        def fetch(table: str, game: int, match: bool) -> str:
            text = journal.match_record(table, game) if match else journal.record(table, game)
            if text is None:
                raise LookupError(f"no such finished game{' in a match' if match else ''} in this journal")
            return text
        source = journal
    else:
        from board99.client.net import GameClient, ServerError

        endpoint = reachable("records", args.server or "127.0.0.1", args.key)
        if endpoint is None:
            return 2
        source = GameClient(endpoint, server_key=args.key, name="records")

        def listing() -> tuple[list[RecordEntry], int]:
            entries, total = source.list_records(limit=args.limit)
            return list(entries), total

        def fetch(table: str, game: int, match: bool) -> str:
            try:
                return str(source.fetch_record(table, game, match=match))
            except ServerError as exc:
                raise LookupError(exc.message) from None
    try:
        entries, total = listing()
        if not args.get:
            print(f"{total} finished game{'s' if total != 1 else ''}" + (f"; the {len(entries)} newest:"
                                                                        if total > len(entries) else ":"))
            for e in entries:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.finished))
                names = ", ".join(n or "-" for n in e.names)
                kinds = [k for k, on in (("a match game", e.match), ("rated", e.rated)) if on]
                marks = f" ({', '.join(kinds)})" if kinds else ""
                print(f"  {e.table}:{e.game:<3} {when}  {e.table_name or '(no name)'}: {names}; side {e.winner} won"
                      + marks)
            return 0
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        status = 0
        for wanted in args.get:
            table, _, game_text = wanted.partition(":")
            if not game_text.isdigit():
                print(f"board99 records: --get {wanted}: write TABLE:GAME as the list shows it", file=sys.stderr)
                return 2
            try:
                text = fetch(table, int(game_text), args.match)
            except LookupError as exc:  # said once, in the words of whoever keeps the records
                print(f"board99 records: {wanted}: {exc}", file=sys.stderr)
                status = 1
                continue
            # A match's file is named for the games it holds, as the window names it, whichever game was asked.
            name = f"game-{game_text}"
            if args.match:
                match = MatchRecord.loads(text)[0]
                name = match_name(match.first_game, match.first_game + len(match.games) - 1)
            path = out / f"{table}-{name}.txt"
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return status
    finally:
        source.close()


def _tournament(args: argparse.Namespace) -> int:
    """`board99 tournament new|next|show`: start and steer a club tournament on a server."""
    from board99.client.net import GameClient, ServerError

    from .match import MatchFormat

    if args.action != "new" and args.id is None:
        print(f"board99 tournament {args.action}: give the tournament's id", file=sys.stderr)
        return 2
    if args.action == "next" and not args.token:
        print("board99 tournament next: give --token, as `board99 tournament new` printed it", file=sys.stderr)
        return 2
    endpoint = reachable("tournament", args.server, args.key)
    if endpoint is None:
        return 2
    with GameClient(endpoint, server_key=args.key, name=args.host_name) as client:
        try:
            if args.action == "new":
                sides = [[n.strip() for n in side.split(",")] for side in args.side]
                fmt = MatchFormat("games", args.games) if args.games else MatchFormat("first-to", args.first_to)
                info, token = client.create_tournament(args.name, args.players, sides, args.rounds, fmt)
                print(f"tournament {info.id} ({info.format}, {info.rounds} rounds, {info.match}); "
                      f"steering token {token}\n(keep the token: `{next_command(info.id, args.server, token, args.key)}`"
                      f" opens each round)")
                return 0
            if args.action == "next":
                info = client.next_round(args.id, args.token)
                print(f"round {info.round} of {info.rounds} opened:")
                for p in info.pairings:
                    if p.round == info.round:
                        a = " & ".join(info.entrants[p.a])
                        b = "a bye" if p.b is None else " & ".join(info.entrants[p.b])
                        print(f"  {a} v {b}" + ("" if p.table is None else f"  at table {p.table}"))
                return 0
            found = next((t for t in client.tournaments() if t.id == args.id), None)
            if found is None:
                print(f"board99 tournament: no tournament {args.id} on {args.server}", file=sys.stderr)
                return 1
            print(f"{found.name}: {found.format}, {found.match}, round {found.round} of {found.rounds} ({found.state})")
            rows = standings_rows(found)
            for row in rows:
                print("  ".join(f"{cell:<14}" if i == 1 else f"{cell:>8}" for i, cell in enumerate(row)))
            if args.csv:
                import csv

                with open(args.csv, "w", newline="", encoding="utf-8") as f:
                    csv.writer(f).writerows(rows)
                print(f"wrote {args.csv}")
            return 0
        except ServerError as exc:
            print(f"board99 tournament: {exc.code}: {exc.message}", file=sys.stderr)
            return 1


def next_command(tournament: str, server: str, token: str, key: str | None = None) -> str:
    """The command that opens a tournament's next round, every option it needs, quoted for a shell.

    >>> next_command("3f2a9c01", "den", "ab12")
    'board99 tournament next 3f2a9c01 --server den --token ab12'
    """
    import shlex

    words = ["board99", "tournament", "next", tournament, "--server", server, "--token", token]
    if key:
        words.append(f"--key={key}")  # a key may begin with '-': one word with its option
    return shlex.join(words)


def standings_rows(info: Any) -> list[list[str]]:
    """The standings as a table: a heading row naming each tie-break, then one row per side."""
    rows = [["place", "side", "played", "points", "buchholz", "sonneborn-berger", "game diff", "games won"]]
    for s in info.standings:
        rows.append([str(s.place), " & ".join(s.names), str(s.played), f"{s.points:g}", f"{s.buchholz:g}",
                     f"{s.sonneborn_berger:g}", str(s.game_diff), str(s.games_won)])
    return rows


AS_HELP = ("play as NAME with NAME's own player key (made on first use in the config folder): two people at "
           "one machine each keep their own name and rating")


def person_name(text: str) -> str:
    """A name for --as: not empty, at most the protocol's 40 characters."""
    from board99.wire.protocol import NAME_MAX

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


#: arena prints a progress line this often (seconds) when its output is not a terminal.
PROGRESS_EVERY = 30.0
BOT_LIST = ", ".join(sorted(BOTS))


def build_parser() -> argparse.ArgumentParser:
    from .wire.protocol import BOT_PACES
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="board99", description="The 1963 GAME OF 99, on a LAN.")
    sub = parser.add_subparsers(dest="command", required=True)

    arena = sub.add_parser("arena", help="play many bot-against-bot games and print win rates",
                           description="Bot against bot: win rates with 95% intervals, the opener alternating. "
                                       "rulebook vs random plays 1,000 games in seconds; the search bot thinks "
                                       "0.2 s a move, so 1,000 of its games take about an hour and a half "
                                       "(fastsearch and infer think at most as long).")
    arena.add_argument("--bots", default="rulebook,random",
                       help=f"one bot per side, comma-separated; bots: {BOT_LIST} (default rulebook,random)")
    arena.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2, help="players at the table")
    arena.add_argument("--games", type=positive, default=100, help="games to play (default 100)")
    arena.add_argument("--seed", type=int, default=1, help="seed of the first game; the rest follow from it")
    arena.add_argument("--mode", choices=MODES, default="guarded", help="table mode (bots commit no offences)")
    arena.add_argument("--budget", type=float, default=None,
                       help="seconds per move for the search, fastsearch and infer bots (default 0.2)")
    arena.set_defaults(run=_arena)

    replay = sub.add_parser("replay", help="check a game or match record against the rules and show it")
    replay.add_argument("file", help="a record, as `board99 records` or the window saves it (docs/ has a sample)")
    replay.add_argument("--quiet", action="store_true", help="print the lines only, no boards")
    replay.add_argument("--window", action="store_true", help="step through it in the window's replay viewer")
    replay.set_defaults(run=_replay)

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
    review.set_defaults(run=_review)

    play = sub.add_parser("play", help="play a game in a window against bots (or bots in the terminal)")
    play.add_argument("--terminal", action="store_true", help="watch bots play in the terminal instead")
    play.add_argument("--bots", default="random",
                      help=f"the bots in the terminal game, one per side or one for all; bots: {BOT_LIST}")
    play.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2, help="players at the table")
    play.add_argument("--mode", choices=MODES, default="guarded",
                      help="guarded refuses offences; penalty carries them out and punishes them")
    play.add_argument("--seed", type=int, default=None, help="the terminal game's seed (default: random)")
    play.add_argument("--delay", type=seconds, default=0.0, help="seconds to pause after each move (terminal)")
    play.add_argument("--bot", choices=sorted(BOTS), default="rulebook", help="the bot in the other seats (window)")
    play.add_argument("--server", default=None,
                      help="HOST[:PORT] of a running server (window; default: start one in the background)")
    play.add_argument("--name", default="player", help="your name at the table (window)")
    play.add_argument("--as", dest="as_name", type=person_name, default=None, metavar="NAME", help=AS_HELP)
    play.add_argument("--mute", action="store_true", help="start with the sound off (window)")
    play.add_argument("--bot-pace", choices=BOT_PACES, default="person",
                      help="how fast the bots move (window): person (default; time to act out of turn, as at a "
                           "real table) or quick")
    play.set_defaults(run=_play)

    join = sub.add_parser("join", help="open the window on a LAN server's lobby")
    join.add_argument("server", nargs="?", default=None,
                      help="HOST[:PORT] (default: list the servers found on the LAN)")
    join.add_argument("--name", default="player", help="your name at the table")
    join.add_argument("--as", dest="as_name", type=person_name, default=None, metavar="NAME", help=AS_HELP)
    join.add_argument("--key", default=None, help=KEY_HELP)
    join.add_argument("--mute", action="store_true", help="start with the sound off")
    join.set_defaults(run=_join)

    learn = sub.add_parser("learn", help="learn to play: short lessons in the window (see docs/lessons.md)",
                           description="Lessons at a table with bots, on this machine (no server): each sets up "
                                       "a position, gives a task or asks a question, then explains it with the "
                                       "1963 rulebook's words. Progress is kept in the config folder.")
    learn.add_argument("lesson", nargs="?", default=None, help="open this lesson (its number or id) at once")
    learn.add_argument("--list", action="store_true", help="list the lessons here instead of opening the window")
    learn.add_argument("--name", default="player", help="your name at the lessons' table")
    learn.add_argument("--mute", action="store_true", help="start with the sound off")
    learn.set_defaults(run=_learn)

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
    serve.set_defaults(run=_serve)

    bot = sub.add_parser("bot", help="seat a bot from this machine at a table on a server")
    bot.add_argument("--server", required=True, help="HOST[:PORT] of the server")
    bot.add_argument("--table", required=True, help="the table's id (the lobby shows it on the table's card)")
    bot.add_argument("--seat", type=int, required=True, help="the seat number, 0 to 5")
    bot.add_argument("--bot", choices=sorted(BOTS), default="rulebook", help="which bot plays (default rulebook)")
    bot.add_argument("--colour", default=None, help="side colour (default: the side's, or the first free)")
    bot.add_argument("--name", default=None, help="the name shown at the table (default: '<bot> bot')")
    bot.add_argument("--key", default=None, help=KEY_HELP)
    bot.add_argument("--rematch", action="store_true", help="ask for a rematch after each game")
    bot.set_defaults(run=_bot)

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
    records.set_defaults(run=_records)

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
    tour.set_defaults(run=_tournament)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `board99` command."""
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
