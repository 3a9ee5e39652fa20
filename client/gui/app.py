"""Putting the client together: the window, its views, the session, and `board99 play` / `join`."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import arcade

from board99 import kinds
from board99.client import known_servers, player_key
from board99.client.net import GameClient, discover, endpoint_for
from board99.wire.table_info import TableInfo

from . import lesson_progress, preferences, screens
from .help_view import HelpView
from .lobby_lists import key_problem_words
from .lobby_view import LobbyView
from .messages import Resumed
from .preferences import Preferences
from .session import Session
from .settings_view import SettingsView
from .table_view import TableView
from .window import GameWindow

log = logging.getLogger(__name__)
PRACTICE_BOT = "rulebook"
FALLBACK_BOT = "random"


def endpoint_of(address: str) -> str:
    """A ZeroMQ endpoint from what a person types: 'host', 'host:port' or a full 'tcp://host:port'."""
    return endpoint_for(address.strip())


def _discover(pinned: str | None = None, **where: Any) -> list[dict]:
    """The servers heard in a second, each marked: the pinned key's and those used before first (kept whatever else).

    ``where``: the beacon port and address to listen on (tests), as ``discover`` takes them.
    """
    known = known_servers.load()
    found = discover(1.0, favoured=lambda server: known_servers.mark(server, known, pinned) is not None, **where)
    return known_servers.arrange(found, known, pinned)


def _host_port(endpoint: str) -> tuple[str, int] | None:
    host, _, port = endpoint.split("://")[-1].rpartition(":")
    return (host, int(port)) if host and port.isdigit() else None


def resume_saved(client: GameClient, saved: Path, players: int, mode: str, bot: str,
                 bot_pace: str = "quick", game: str = kinds.DEFAULT) -> TableInfo | None:
    """Sit again in the unfinished practice game saved in ``saved``, if it is the game asked for."""
    try:
        seat = json.loads(saved.read_text(encoding="utf-8"))
        # A seat saved before bot paces existed says none: its game goes on at whatever pace it has.
        # A seat saved before game kinds existed is the default game's.
        if (seat.get("game", kinds.DEFAULT), seat["players"], seat["mode"], seat["bot"],
                seat.get("bot_pace", bot_pace)) != (game, players, mode, bot, bot_pace):
            return None  # another kind of game was asked for: start it, keep the file until then
        table = client.resume(seat["table"], seat["seat"], seat["token"])
    except FileNotFoundError:
        return None
    except Exception as exc:  # unreadable file, table gone, token refused: a new game it is
        log.info("practice: the saved game cannot be resumed (%s)", exc)
        return None
    if table.state == "playing":
        return table
    client.leave()  # the game ended: free the seat, and a new table follows
    return None


def save_seat(client: GameClient, saved: Path, players: int, mode: str, bot: str,
              bot_pace: str = "quick", game: str = kinds.DEFAULT) -> None:
    """Keep the practice seat's token (readable by this user only) so the next `play` can resume it."""
    saved.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"table": client.table_id, "seat": client.seat, "token": client.token,
                       "players": players, "mode": mode, "bot": bot, "bot_pace": bot_pace, "game": game})
    fd = os.open(saved, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def practice_setup(players: int, mode: str, colour: str = "red", bot: str = PRACTICE_BOT,
                   name: str = "Practice", clock: float | None = None,
                   saved: Path | None = None, bot_pace: str = "quick",
                   game: str = kinds.DEFAULT,
                   options: dict[str, Any] | None = None) -> Callable[[GameClient], TableInfo | Resumed]:
    """The requests that make a practice table of ``game``: create it, sit in seat 0, bots in every other seat.

    The game's kind checks ``players`` and ``mode`` first (a SettingsError names the field), and a bot it
    does not have gives way to its stand-in bot.

    With ``saved``, an unfinished practice game of the same kind is resumed instead, and a new
    one's seat is saved there (the result is then ``Resumed``, so the table can say so). ``bot_pace``: how fast the bots move (`board99 play` asks for a
    person's pace unless told otherwise: docs/client.md, *Practice*).
    """

    kind = kinds.get(game)
    kind.check_settings(players, mode, options)
    if bot not in kind.bots:
        bot = kind.standin_bot
    # A kind of its own is named to the server; the default one is not, so an older server still answers.
    named: dict[str, Any] = {} if game == kinds.DEFAULT else {"game": game}
    if options:
        named["options"] = dict(options)  # the kind's further settings (a Ninety-Nine table's rule set)

    def setup(client: GameClient) -> TableInfo | Resumed:
        if saved is not None:
            table = resume_saved(client, saved, players, mode, bot, bot_pace, game)
            if table is not None:
                return Resumed(table)
        try:
            table = client.create_table(name, players, mode, clock, bot_pace=bot_pace, **named)
        except Exception as exc:
            # A server from before bot paces refuses the field: its bots are quick, but practice goes on.
            if getattr(exc, "code", "") != "bad-field" or "bot_pace" not in getattr(exc, "message", ""):
                raise
            table = client.create_table(name, players, mode, clock, **named)
        client.take_seat(table.id, 0, colour)
        chosen = bot
        for seat in range(1, players):
            try:
                table = client.add_bot(table.id, seat, chosen)
            except Exception as exc:
                # The rulebook bot may be missing from an older server: any bot will do for practice.
                if getattr(exc, "code", "") != "no-such-bot" or chosen == FALLBACK_BOT or FALLBACK_BOT not in kind.bots:
                    raise
                chosen = FALLBACK_BOT
                table = client.add_bot(table.id, seat, chosen)
        if saved is not None:
            save_seat(client, saved, players, mode, bot, bot_pace, game)
        return table

    return setup


def load_key(identity: str | None = None) -> tuple[str | None, str | None]:
    """The player key of ``identity`` (a name given with --as; None: the window's own), made on first use;
    or (None, what went wrong) when its file is unreadable."""
    try:
        return player_key.load_or_create(player_key.key_path(identity)), None
    except (ValueError, OSError) as exc:  # a broken key file must not stop the game: play as a guest
        log.warning("player key: %s", exc)
        return None, key_problem_words(str(exc))


class App:
    """Owns the window's session and switches between the lobby and the table."""

    def __init__(self, window: GameWindow, *, name: str = "player", server_key: bytes | str | None = None,
                 discover: Callable[[], list[dict]] | None = _discover, identity: str | None = None) -> None:
        self.window = window
        #: Whose key the window uses: a name given with --as (or switched to in the lobby), None for its own.
        self.identity = identity
        self.name = identity or name
        self.server_key = server_key
        pinned = server_key.decode() if isinstance(server_key, bytes) else server_key
        self.discover = (lambda: _discover(pinned)) if discover is _discover else discover
        #: The CurveZMQ key the current session was opened with (the pinned one, or a found server's).
        self.session_key: bytes | str | None = server_key
        self.session: Session | None = None
        self.server: Any = None  # the embedded server of `board99 play`, if any
        self.lobby: LobbyView | None = None
        self.table: TableView | None = None
        self.exit_loop: Callable[[], object] = arcade.exit  # how quit() leaves the event loop (tests swap it)
        #: The view the rules or settings screen goes back to.
        self.back_to: arcade.View | None = None
        #: The view the Learn screen goes back to (None: the lobby).
        self.learn_back: arcade.View | None = None
        #: The player key every session says hello with (the server knows a returning player by it);
        #: None, with the reason in ``key_problem``, when the key file cannot be read: a guest then.
        self.key, self.key_problem = load_key(identity)
        # Below the views' own handlers: a view that uses a key (a text field, the rules' Esc) keeps it.
        window.push_handlers(on_close=self.shutdown, on_key_press=self.on_key_press, on_text=self.on_text)

    def connect(self, address: str) -> Session:
        """Open a session to ``address`` (closing any other) and show the lobby."""
        endpoint = endpoint_of(address)
        if self.session is not None:
            self.session.close()
        name = self.lobby.my_name() if self.lobby is not None else self.name
        if self.identity is not None:
            name = self.identity  # a key of a name's own says hello under that name
        self.session_key = self.server_key or self._key_for(endpoint)
        self.session = Session(endpoint, name=name or self.name, server_key=self.session_key, key=self.key)
        self.show_lobby(address)
        return self.session

    def _found(self, endpoint: str) -> dict | None:
        """The server discovery found at ``endpoint``, if the lobby lists it."""
        where = _host_port(endpoint)
        servers = self.lobby.model.servers if self.lobby is not None else []
        return next((s for s in servers if (s.get("host"), s.get("port")) == where), None)

    def _key_for(self, endpoint: str) -> str | None:
        """The key to expect at ``endpoint``: the one it had when used before, else the one its beacon gave."""
        where = _host_port(endpoint)
        used = next((e for e in known_servers.load() if (e["host"], e["port"]) == where and e["key"]), None)
        if used is not None:
            return str(used["key"])  # a beacon cannot swap it: the server must prove this key
        found = self._found(endpoint)
        return found.get("key") if found is not None else None

    def reached(self, endpoint: str) -> None:
        """The lobby heard the server at ``endpoint`` answer: remember it (not `board99 play`'s own server)."""
        where = _host_port(endpoint)
        if where is None or (self.server is not None and endpoint == self.server.endpoint):
            return
        found = self._found(endpoint)
        key = self.session_key.decode() if isinstance(self.session_key, bytes) else self.session_key
        known_servers.remember(where[0], where[1], key, str(found.get("name")) if found else where[0])

    def show_lobby(self, address: str = "") -> LobbyView:
        """Show the lobby for the current session."""
        if self.lobby is not None and not address:
            address = self.lobby.address.text
        # The name the player last typed (a refused one may have been changed there) outlives the lobby.
        name = (self.lobby.my_name() if self.lobby is not None else "") or self.name
        previous = self.lobby  # the servers found stay listed in the new lobby
        table_name = self.lobby.table_name.text if self.lobby is not None else None
        self.lobby = LobbyView(self.session, address=address, on_connect=self.connect, on_table=self.show_table,
                               discover=self.discover, name=name, on_help=self.show_help,
                               on_settings=self.show_settings, on_quit=self.quit, prefs=self.window.prefs,
                               local_only=self.server is not None and self.session is not None
                               and self.session.endpoint == self.server.endpoint,
                               on_open_record=self.show_record, on_learn=self.show_learn,
                               on_reached=self.reached, on_switch=self.switch_identity,
                               on_known=self.note_identity)
        if previous is not None:
            self.lobby.model.servers, self.lobby.model.server_first = previous.model.servers, previous.model.server_first
        if table_name is not None:
            self.lobby.table_name.text = table_name  # what the player typed outlives the lobby too
        self.window.show_view(self.lobby)
        if self.key_problem:
            self.lobby.say(self.key_problem, bad=True)
        return self.lobby

    def switch_identity(self, name: str) -> str | None:
        """Play as ``name`` with that name's own key (made on first use) and say hello again; None if done,
        else why not (a seat kept for the player here, or an unreadable key)."""
        if self.session is not None and hasattr(self.session, "kept") and self.session.kept():
            return "You left a game that is still on: take your seat back, or let it end, before you switch"
        key, problem = load_key(name)
        if key is None:
            return problem
        self.identity, self.name, self.key, self.key_problem = name, name, key, None
        if self.lobby is not None:
            self.lobby.name_input.text = name
        if self.session is not None:
            self.connect(self.lobby.address.text if self.lobby is not None else self.session.endpoint)
        if self.lobby is not None:
            self.lobby.say(f"You play as {name} now, with {name}'s own key on this machine")
        return None

    def note_identity(self, name: str) -> None:
        """The server knows this window's key as ``name``: note it for the window's own key (``--as`` finds it)."""
        if self.identity is None and self.key is not None:
            player_key.note_name(player_key.key_path(None), name)

    def show_table(self, game: str = kinds.DEFAULT) -> TableView:
        """Show the table this session sits at (or watches), on the screen of the game it plays (screens.py)."""
        screen = screens.for_kind(game).table
        self.table = screen(self.session, self.window.sounds, on_lobby=self.show_lobby, on_help=self.show_help,
                            on_settings=self.show_settings, on_quit=self.quit)
        self.window.show_view(self.table)
        return self.table

    def practice(self, players: int = 2, mode: str = "guarded", bot: str = PRACTICE_BOT,
                 saved: Path | None = None, bot_pace: str = "quick", game: str = kinds.DEFAULT,
                 options: dict[str, Any] | None = None) -> TableView:
        """Create a table of ``game`` (with the kind's ``options``) with bots on the current session and sit
        at it (or resume the one in ``saved``)."""
        assert self.session is not None
        self.session.call("practice", practice_setup(players, mode, bot=bot, saved=saved, bot_pace=bot_pace,
                                                     game=game, options=options))
        return self.show_table(game)

    # -- the screens over the lobby and the table ------------------------------------------------

    def _cover(self) -> arcade.View | None:
        # Remember the lobby or table under a rules or settings screen (not another such screen).
        current = self.window.current_view
        if not isinstance(current, HelpView | SettingsView):
            self.back_to = current
        return self.back_to

    def go_back(self) -> None:
        """Leave the rules or settings screen for the view the player came from (the lobby if none)."""
        view = self.back_to
        self.back_to = None
        if view is None:
            self.show_lobby()
        else:
            self.window.show_view(view)

    def show_record(self, text: str, title: str) -> object:
        """Open a finished game's (or match's) record from the lobby's list in its game's replay screen; Esc comes
        back."""
        self._cover()
        view = screens.for_record(text).replay(text, title, on_back=self.go_back, sounds=self.window.sounds)
        self.window.show_view(view)
        return view

    def show_learn(self, selected: int | None = None) -> arcade.View:
        """Open the list of lessons (from the lobby, or back from a lesson); Back returns where it came from."""
        from board99.lessons.games import every_lesson

        from .learn_view import LearnView
        from .lesson_ninety import NinetyLessonView
        from .lesson_view import LessonView

        current = self.window.current_view
        if not isinstance(current, LessonView | NinetyLessonView | LearnView | HelpView | SettingsView):
            self.learn_back = current
        lessons = every_lesson()
        if isinstance(current, LessonView | NinetyLessonView):  # back from a lesson: that lesson chosen
            selected = current.first - 1 + current.index
        view = LearnView(lessons, lesson_progress.load(), on_open=self.show_lesson, on_back=self.leave_learn,
                         prefs=self.window.prefs, selected=selected)
        self.window.show_view(view)
        return view

    def leave_learn(self) -> None:
        """Back from the Learn screen to where it was opened from (the lobby if from nowhere)."""
        view, self.learn_back = self.learn_back, None
        if view is None:
            self.show_lobby()
        else:
            self.window.show_view(view)

    def show_lesson(self, index: int) -> arcade.View:
        """Open lesson ``index`` of the list: its table runs here, on the engine, without a server."""
        from board99.lessons.games import every_lesson

        from .lesson_ninety import NinetyLessonView
        from .lesson_view import LessonView

        name = (self.lobby.my_name() if self.lobby is not None else "") or self.name
        # Each game's lessons open at that game's table, with the lessons of that game to go on to.
        lessons = every_lesson()
        game = lessons[index].game
        mine = [i for i, lesson in enumerate(lessons) if lesson.game == game]
        kind = NinetyLessonView if game == "ninety-nine" else LessonView
        view = kind([lessons[i] for i in mine], mine.index(index), sounds=self.window.sounds,
                    name="You" if name == "player" else name, on_list=self.show_learn,
                    on_done=lesson_progress.mark_done, on_help=self.show_help, first=mine[0] + 1, count=len(lessons))
        self.window.show_view(view)
        return view

    def show_help(self) -> HelpView:
        """Open the rules over the current view: those of the game its table plays, when it says (``help_topic``)."""
        under = self._cover()
        topic = getattr(under, "help_topic", None)
        view = HelpView(on_back=self.go_back, prefs=self.window.prefs, on_learn=self.learn_from_help,
                        topic=topic() if callable(topic) else None)
        self.window.show_view(view)
        return view

    def learn_from_help(self) -> arcade.View:
        """The rules screen's Learn to play: the lessons, and Back from them to the view under the rules."""
        from .learn_view import LearnView
        from .lesson_ninety import NinetyLessonView
        from .lesson_view import LessonView

        under, self.back_to = self.back_to, None
        if under is not None and not isinstance(under, LessonView | NinetyLessonView | LearnView):
            self.learn_back = under
        return self.show_learn()

    def show_settings(self) -> SettingsView:
        """Open the settings over the current view."""
        self._cover()
        view = SettingsView(self.window.prefs, on_done=self.settings_done)
        self.window.show_view(view)
        return view

    def settings_done(self, prefs: Preferences | None) -> None:
        """The settings screen closed: apply and keep new settings (None: cancelled), then go back."""
        if prefs is not None:
            self.apply_prefs(prefs)
        self.go_back()

    def apply_prefs(self, prefs: Preferences, save: bool = True) -> None:
        """Make ``prefs`` the window's settings: sound, full screen; write them to the config file."""
        apply_prefs(self.window, prefs)
        if save:
            try:
                preferences.save(prefs)
            except OSError as exc:  # a read-only home must not stop the game
                log.warning("settings: could not write %s (%s)", preferences.config_path(), exc)

    def toggle_fullscreen(self) -> None:
        """Full screen on or off, remembered in the settings."""
        self.apply_prefs(replace(self.window.prefs, fullscreen=not self.window.prefs.fullscreen))

    def quit(self) -> None:
        """Close the session and the embedded server, then leave the event loop."""
        self.shutdown()
        self.exit_loop()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Keys that work on every screen: F1 rules, F11 full screen, Ctrl+Q quit."""
        self.window.awake()
        if symbol == arcade.key.F1:
            self.show_help()
        elif symbol == arcade.key.F11:
            self.toggle_fullscreen()
        elif symbol == arcade.key.Q and modifiers & arcade.key.MOD_CTRL:
            self.quit()
        else:
            return None
        return True

    def on_text(self, text: str) -> bool | None:
        """'?' opens the rules, unless the player is typing in a text field."""
        typing = getattr(self.window.current_view, "typing", False)
        if text == "?" and not typing and not isinstance(self.window.current_view, HelpView):
            self.show_help()
            return True
        return None

    def detach(self) -> None:
        """Take the app's handlers off the window (a test's window outlives its app)."""
        self.window.remove_handlers(on_close=self.shutdown, on_key_press=self.on_key_press, on_text=self.on_text)

    def shutdown(self) -> None:
        """Close the session and stop the embedded server (the window is closing)."""
        if self.session is not None:
            self.session.close()
            self.session = None
        if self.server is not None:
            try:
                self.server.stop()
            finally:
                self.server = None


def _first_table_frame_hook(window: GameWindow) -> None:
    # For bench/client.py: report the seconds from BOARD99_T0 to the first table frame, then quit.
    t0 = os.environ.get("BOARD99_T0")
    out = os.environ.get("BOARD99_FIRST_FRAME_FILE")
    if not t0 or not out:
        return

    def check(_dt: float) -> None:
        view = window.current_view
        if isinstance(view, TableView) and view.state.view is not None and view.drawn:
            Path(out).write_text(f"{time.time() - float(t0):.3f}\n")
            arcade.unschedule(check)
            # Leave the event loop rather than close here: the rest of this clock tick still runs
            # the window's frame, which needs its GL context (arcade 3.3's close() does not
            # unschedule that frame). run_play closes the window once the loop has returned.
            arcade.exit()

    arcade.schedule(check, 1 / 120)


def apply_prefs(window: GameWindow, prefs: Preferences) -> None:
    """Give the window these settings: its ``prefs``, the sounds' mute and volume, full screen."""
    window.prefs = prefs
    window.sounds.muted = prefs.muted
    window.sounds.volume = prefs.volume
    if window.fullscreen != prefs.fullscreen:
        try:
            window.set_fullscreen(prefs.fullscreen)
        except Exception as exc:  # a display without full-screen modes: stay windowed
            log.info("full screen unavailable: %s", exc)


def open_window(command: str, muted: bool) -> GameWindow | None:
    """The game window with the player's saved settings, or None (with the reason on stderr) where none opens."""
    try:
        prefs = preferences.load()
        if muted:
            prefs = replace(prefs, muted=True)  # --mute: this run only, the file keeps its setting
        window = GameWindow(muted=muted, prefs=prefs)
        apply_prefs(window, prefs)
        return window
    except Exception as exc:  # no display, no OpenGL: say so plainly instead of a traceback
        where = os.environ.get("DISPLAY") or "no $DISPLAY set"
        print(f"board99 {command}: cannot open a window ({where}): {exc}\n"
              f"  The window needs a desktop session and OpenGL 3.3 (Mesa works);"
              f" `board99 play --terminal` needs neither.", file=sys.stderr)
        return None


def run_play(players: int = 2, mode: str = "guarded", bot: str = PRACTICE_BOT, name: str = "player",
             server: str | None = None, muted: bool = False, *, start_server: Callable[[], Any] | None = None,
             saved: Path | None = None, identity: str | None = None, bot_pace: str = "person",
             game: str = kinds.DEFAULT, options: dict[str, Any] | None = None) -> int:
    """`board99 play`: a table with bots at ``server``, or at the server ``start_server()`` starts.

    ``start_server`` returns a handle with ``endpoint`` and ``stop()`` (the command line passes the
    embedded server: the client does not know the server's code). ``saved``: where the practice
    seat is kept, so an unfinished game is picked up again.
    """
    window = open_window("play", muted)
    if window is None:
        return 2
    app = App(window, name=name, identity=identity)
    if server is None:
        if start_server is None:
            raise ValueError("run_play: give a server address or a way to start one")
        app.server = start_server()
        server = app.server.endpoint
    app.connect(server)
    app.practice(players, mode, bot, saved=saved, bot_pace=bot_pace, game=game, options=options)
    _first_table_frame_hook(window)
    arcade.run()
    app.shutdown()
    if not window.closed:
        window.close()
    return 0


def run_join(address: str | None = None, name: str = "player", server_key: str | None = None,
             muted: bool = False, identity: str | None = None) -> int:
    """`board99 join [HOST[:PORT]]`: the lobby of a LAN server, or the servers discovery finds."""
    window = open_window("join", muted)
    if window is None:
        return 2
    app = App(window, name=name, server_key=server_key, identity=identity)
    if address:
        app.connect(address)
    else:
        lobby = app.show_lobby()
        lobby.find_servers()
    arcade.run()
    app.shutdown()
    if not window.closed:
        window.close()
    return 0


def run_replay(path: str | Path, muted: bool = False, review_seat: int | None = None) -> int:
    """`board99 replay FILE --window`: step through a game or match record; Esc quits.

    The record is read and replayed first: a file that is not one prints its RecordError and
    returns 1 without opening a window (2 for a file that cannot be read at all). With
    ``review_seat`` (`board99 review FILE --window`) the review of that seat starts at once.
    """
    from board99.record import RecordError, why_unreadable

    try:
        text = Path(path).read_text(encoding="utf-8")
        screen = screens.for_record(text)
        replay = screen.load(text)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"board99 replay: {path}: {why_unreadable(exc)}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"board99 replay: {path}: {exc}", file=sys.stderr)
        return 1
    window = open_window("replay", muted)
    if window is None:
        return 2
    app = App(window, discover=None)
    view = screen.replay(text, Path(path).name, on_back=app.quit, sounds=window.sounds, frames=replay,
                      review_seat=review_seat, review_now=review_seat is not None)
    window.show_view(view)
    arcade.run()
    app.shutdown()
    if not window.closed:
        window.close()
    return 0


def run_learn(lesson: int | None = None, name: str = "player", muted: bool = False) -> int:
    """`board99 learn`: the window on the list of lessons (or on lesson ``lesson``, counted from 0); no server.

    Back from the list shows the lobby, not connected: the player may then find a server.
    """
    window = open_window("learn", muted)
    if window is None:
        return 2
    app = App(window, name=name)
    app.show_learn(selected=lesson)
    if lesson is not None:
        app.show_lesson(lesson)
    _first_table_frame_hook(window)  # a lesson's table is a table: bench/tests time its first frame
    arcade.run()
    app.shutdown()
    if not window.closed:
        window.close()
    return 0
