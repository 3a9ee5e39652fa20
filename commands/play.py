"""`board99 play`, `board99 join` and `board99 learn`: the window against bots, on a LAN server's lobby, or at
the lessons; and `board99 play --terminal`, bots playing in the terminal."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import platformdirs

from board99 import kinds
from board99.bots import BOTS, make_bot
from board99.client.player_key import file_stem
from board99.game import Game
from board99.lessons import LessonError
from board99.render import board_text, status_text
from board99.server.loop import ServerThread, run_in_thread

from .remote import reachable


def play_terminal(args: argparse.Namespace) -> int:
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
    return Path(platformdirs.user_data_dir("board99")) / "play"


def start_practice_server(data: Path | None = None, bot_delay: float = PLAY_BOT_DELAY) -> ServerThread:
    """The same server as `board99 serve`, in a background thread on a free 127.0.0.1 port."""
    data = data or play_data_dir()
    data.mkdir(parents=True, exist_ok=True)
    return run_in_thread(port=0, data_dir=data, name="board99 play", bot_delay=bot_delay)


def game_options(args: argparse.Namespace) -> dict[str, object] | None:
    """The kind's options `board99 play` asks for (--rules), checked with the players and mode by the kind;
    SettingsError (naming the field) when the game does not allow them."""
    game = getattr(args, "game", kinds.DEFAULT)
    rules = getattr(args, "rules", None)
    if rules is not None and game != "ninety-nine":
        raise kinds.SettingsError("rules", "only ninety-nine has rule sets; add --game ninety-nine")
    options = {"rules": rules} if rules is not None else None
    kinds.get(game).check_settings(args.players, args.mode, options)
    return options


def play(args: argparse.Namespace) -> int:
    """`board99 play`: the window against bots (an embedded server unless --server), or --terminal."""
    game = getattr(args, "game", kinds.DEFAULT)
    if args.terminal:
        if game != kinds.DEFAULT:
            print("board99 play: --terminal plays the peg-board game only", file=sys.stderr)
            return 2
        return play_terminal(args)
    try:
        options = game_options(args)
    except kinds.SettingsError as exc:
        print(f"board99 play: --{exc.field.replace('_', '-')}: {exc.why}", file=sys.stderr)
        return 2
    from board99.client.gui.app import run_play  # the window (arcade) only when one opens

    if args.server is not None:  # someone else's server: nothing of ours is kept
        endpoint = reachable("play", args.server)
        if endpoint is None:
            return 2
        return run_play(args.players, args.mode, args.bot, name=args.name, server=endpoint, muted=args.mute,
                        identity=args.as_name, bot_pace=args.bot_pace, game=game, options=options)
    # Our own server keeps its games: an unfinished practice game is picked up where it was left
    # (each person's own: --as NAME keeps NAME's seat apart).
    saved = SAVED_SEAT
    if args.as_name:
        saved = f"practice-seat-{file_stem(args.as_name)}.json"
    if game != kinds.DEFAULT:  # each game and rule set keeps its own unfinished game
        saved = saved.replace(".json", f"-{game}-{(options or {}).get('rules', 'default')}.json")
    # Started before the window opens, so a journal in use or damaged is said here, in words.
    try:
        practice = start_practice_server()
    except RuntimeError as exc:
        print(f"board99 play: {exc}", file=sys.stderr)
        return 2
    try:
        return run_play(args.players, args.mode, args.bot, name=args.name, muted=args.mute,
                        start_server=lambda: practice, saved=play_data_dir() / saved, identity=args.as_name,
                        bot_pace=args.bot_pace, game=game, options=options)
    finally:
        practice.stop()  # already stopped when the window closed; not when no window could open


def join(args: argparse.Namespace) -> int:
    """`board99 join [HOST[:PORT]]`: the window on a LAN server's lobby (or the servers discovery finds)."""
    from board99.client.gui.app import run_join  # the window (arcade) only when one opens

    address = args.server
    if address is not None:
        address = reachable("join", address, args.key)
        if address is None:
            return 2
    return run_join(address, name=args.name, server_key=args.key, muted=args.mute, identity=args.as_name)


def learn(args: argparse.Namespace) -> int:
    """`board99 learn [LESSON]`: the lessons in the window (no server), or --list them here."""
    from board99.lessons.games import TITLES, every_lesson
    from board99.ninety_nine.lessons import LessonError as NinetyLessonError

    try:
        lessons = every_lesson()
    except (LessonError, NinetyLessonError) as exc:
        print(f"board99 learn: {exc}", file=sys.stderr)
        return 1
    if args.list:  # both games' lessons, grouped by game, numbered through the whole list
        game = None
        for number, lesson in enumerate(lessons, 1):
            if lesson.game != game:
                game = lesson.game
                print(("\n" if number > 1 else "") + TITLES.get(game, game))
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
    from board99.client.gui.app import run_learn  # the window (arcade) only when one opens

    return run_learn(index, name=args.name, muted=args.mute)
