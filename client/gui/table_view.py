"""The table screen: wires the session to the state, the state to the drawing parts, and input to the state.

``TableState`` (table_state.py) knows everything the screen shows and what
input means; each region of the screen is a part (table_board.py,
table_hand.py, table_seats.py, table_panel.py, table_overlays.py) drawing
through its own SpriteLists and prepared texts. This view only passes things
along: the session's messages to the state, the state to the parts, clicks
and keys to the state, and the state's commands to the session, the sounds
and the app.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import arcade

from . import preferences, wording
from .geometry import TableGeometry
from .messages import Message, Replied
from .palette import TABLE_BG
from .scale import ui_scale
from .session import Session
from .sounds import Sounds
from .table_board import BoardPart
from .table_coach import CoachPart
from .table_hand import HandPart
from .table_intents import (
    AddBot,
    AskRematch,
    Command,
    FetchHint,
    FetchHistory,
    FetchRecord,
    FetchReview,
    Intent,
    Leave,
    OpenScreen,
    SaveHints,
    Send,
    SetSound,
)
from .table_match import MatchPart
from .table_motion import MotionPart
from .table_overlays import OverlayPart
from .table_panel import PanelPart
from .table_seats import SeatsPart
from .table_state import TableState
from .textures import load_fonts, textures

TITLE = "GAME OF 99"

#: arcade's key codes -> the names TableState.key() reads.
KEY_NAMES: dict[int, str] = {
    arcade.key.KEY_1: "1", arcade.key.KEY_2: "2", arcade.key.KEY_3: "3", arcade.key.KEY_4: "4",
    arcade.key.KEY_5: "5", arcade.key.NUM_1: "1", arcade.key.NUM_2: "2", arcade.key.NUM_3: "3",
    arcade.key.NUM_4: "4", arcade.key.NUM_5: "5", arcade.key.D: "d", arcade.key.X: "x",
    arcade.key.ESCAPE: "escape", arcade.key.ENTER: "enter", arcade.key.RETURN: "enter",
    arcade.key.NUM_ENTER: "enter", arcade.key.M: "m", arcade.key.LEFT: "left", arcade.key.H: "h",
    arcade.key.R: "r",
}


class TableView(arcade.View):
    """One table, seen from the player's seat (or as a spectator)."""

    #: The panel's part (a lesson's table puts its task in a panel of its own kind).
    panel_part: type[PanelPart] = PanelPart

    def __init__(self, session: Session | None = None, sounds: Sounds | None = None,
                 on_lobby: Callable[[], object] | None = None, *,
                 on_help: Callable[[], object] | None = None, on_settings: Callable[[], object] | None = None,
                 on_quit: Callable[[], object] | None = None) -> None:
        super().__init__()
        load_fonts()
        self.sounds = sounds or Sounds(muted=True)
        self.state = TableState(muted=self.sounds.muted)
        self.session = session
        self.lobby_cb = on_lobby
        #: The app's screens the panel's small buttons open (a button without one is hidden).
        self.screens: dict[str, Callable[[], object] | None] = {"rules": on_help, "settings": on_settings,
                                                                 "quit": on_quit}
        self.drawn = False  # True once a frame with a game in it has been drawn
        self._title = ""  # the window may still carry another screen's title (a Ninety-Nine table's): set it at once
        tx = textures()
        self.panel = self.panel_part(self.window, tx)
        self.panel.show_screen_buttons(on_help is not None, on_settings is not None, on_quit is not None)
        self.board = BoardPart(self.window, tx)
        self.seats = SeatsPart(tx, self.window)
        self.hand = HandPart(tx)
        self.motion = MotionPart(self.window, tx)
        self.overlays = OverlayPart(tx)
        self.match = MatchPart(tx)
        self.coach = CoachPart(tx, self.panel)
        #: Drawing order, bottom first; a click goes to the topmost part it lands on.
        self.parts = [self.panel, self.board, self.seats, self.hand, self.coach, self.motion, self.match,
                      self.overlays]
        #: The look back at a live game while it is shown (a spectator's), else None.
        self.looking_back: arcade.View | None = None
        #: The review of the finished game while it is shown, else None; the seat it weighs (the player's own).
        self.reviewing: arcade.View | None = None
        self.review_seat = 0
        self._read_prefs()
        self.relayout()
        resumed = session.take_resumed() if isinstance(session, Session) else None
        if resumed is not None:  # a seat taken back from the lobby, which took the reply
            self.handle(Replied("resume", resumed))
        if session is not None and session.latest_state is not None:
            self.handle(session.latest_state)  # the lobby may have drained it before this view existed

    @property
    def session(self) -> Session | None:
        """The connection actions go to (None: a table shown without a server)."""
        return self._session

    @session.setter
    def session(self, session: Session | None) -> None:
        self._session = session
        self.state.online = session is not None

    # -- state to parts ------------------------------------------------------------------

    def relayout(self) -> None:
        """Lay every part out for the current window size and seating, then refresh them."""
        view = self.state.view
        width, height = self.window.width, self.window.height
        scale = ui_scale(width, height, self.window.prefs.ui_scale)
        #: Where everything sits (the window tests click squares at its positions); the board by the window alone.
        self.geo = TableGeometry(width, height, self.state.players, view.seat if view is not None else None, scale,
                                 base=ui_scale(width, height))
        ratio = self.window.get_pixel_ratio()
        for part in self.parts:
            part.relayout(self.geo, ratio)
        self.refresh()

    def refresh(self) -> None:
        """Bring every part in line with the state, and the window's title with whose turn it is."""
        for part in self.parts:
            part.refresh(self.state)
        self._set_title(wording.window_title(self.state.my_turn, TITLE))
        self.window.awake()

    def _set_title(self, title: str) -> None:
        if title != self._title:
            self._title = title
            self.window.set_caption(title)

    def _read_prefs(self) -> None:
        # The settings screen replaces window.prefs and shows this view again: read them each time.
        prefs = self.window.prefs
        self.state.hints = prefs.hints
        self.state.threats_pref = prefs.threats
        self.state.animation_factor = prefs.animation_factor
        self.sounds.volume = prefs.volume

    # -- the session to the state ----------------------------------------------------------------

    def handle(self, msg: Message) -> None:
        """One message from the session: the state takes it, the sounds play, the parts follow."""
        if isinstance(msg, Replied) and msg.op == "history":
            self._look_back(*msg.result)
            return
        if isinstance(msg, Replied) and msg.op == "review_record":
            self._review(msg.result)
            return
        received = self.state.receive(msg)
        for command in received.commands:
            self._carry_out(command)
        for name in received.sounds:
            self.sounds.play(name)
        if received.relayout:
            self.relayout()
        else:
            self.refresh()

    # -- input to the state, the state's commands to the world ----------------------------------

    def perform(self, intent: Intent | None) -> None:
        """Carry out what the player means (an intent from TableState.key or .click)."""
        if intent is None:
            return
        for command in self.state.perform(intent):
            self._carry_out(command)
        self.refresh()

    def _carry_out(self, command: Command) -> None:
        session = self.session
        match command:
            case Send(action) if session is not None:
                # Judged on the view on screen: the server carries it out only on that position.
                view = self.state.view
                session.act(action, ply=None if view is None else view.ply)
            case AskRematch() if session is not None:
                session.rematch()
            case AddBot(table, seat) if session is not None:
                session.add_bot(table, seat)
            case Leave():
                if session is not None:
                    session.leave()
                if self.lobby_cb is not None:
                    self.lobby_cb()
            case SetSound(muted):
                self.sounds.muted = muted
            case SaveHints(shown):
                self.window.prefs = dataclasses.replace(self.window.prefs, hints=shown)
                preferences.save(self.window.prefs)
            case OpenScreen(name):
                callback = self.screens.get(name)
                if callback is not None:
                    callback()
            case FetchRecord(table, game, match, stem) if session is not None:
                from .session import save_record

                save_record(session, table, game, match, stem)
            case FetchHistory() if session is not None:
                from .session import history

                history(session)
            case FetchHint() if session is not None:
                from .session import ask_hint

                ask_hint(session)
            case FetchReview(table, game, seat) if session is not None:
                from .session import review_record

                self.review_seat = seat
                review_record(session, table, game)

    def _look_back(self, lines: list[str], views: list) -> None:
        # A spectator's look back: the replay viewer over the public history; Esc, End or Right
        # at its end comes back here, where the messages that came meanwhile are taken in order.
        from .replay_model import Replay, frames_from_history
        from .replay_view import ReplayView

        state = self.state
        table = state.table
        if not views or state.view is None or not state.view.spectator or table is None:
            return
        frames = frames_from_history(lines, views, table)
        heading = f"{state.players} players · {state.view.mode} mode · the game so far"
        replay = Replay(frames, table, heading)
        title = f"{table.name}: looking back"
        view = ReplayView("", title, on_back=self._back_to_live, sounds=self.sounds, frames=replay,
                          on_live=self._back_to_live)
        self.looking_back = view
        self.window.show_view(view)

    def _review(self, text: str) -> None:
        # The finished game in the replay viewer, its review of the player's seat started at once;
        # Esc comes back here (the end-of-game box gone, the final board as it was).
        from board99.record import RecordError

        from .replay_model import load
        from .replay_view import ReplayView

        table = self.state.table
        self.state.tell("")
        title = f"{table.name}: game {table.game}" if table is not None else "The game"
        try:
            # The players' names and colours as at the table (a game's record keeps neither).
            replay = load(text, tuple(seat.name or "" for seat in table.seats) if table is not None else None)
            if table is not None:
                replay = replay._replace(table=table)
        except RecordError as exc:
            self.state.tell(wording.not_reviewed(str(exc)), "bad")
            self.refresh()
            return
        view = ReplayView(text, title, on_back=self._back_from_review, sounds=self.sounds, frames=replay,
                          review_seat=self.review_seat, review_now=True)
        self.reviewing = view
        self.window.show_view(view)

    def _back_from_review(self) -> None:
        self.reviewing = None
        self.window.show_view(self)

    def _back_to_live(self) -> None:
        self.looking_back = None
        self.window.show_view(self)

    # -- arcade callbacks -----------------------------------------------------------------------

    def on_show_view(self) -> None:
        """Read the player's settings (they may have changed) and lay out for the window."""
        self._read_prefs()
        self.relayout()

    def on_hide_view(self) -> None:
        """Give the window its own title back."""
        self._set_title(TITLE)

    def on_resize(self, width: int, height: int) -> None:
        """Lay everything out again for the new size."""
        self.relayout()

    def on_update(self, delta_time: float) -> None:
        """Take what the network thread has for us; let the parts follow the time (clock, banner)."""
        if self.session is not None:
            for msg in self.session.drain():
                self.handle(msg)
        for part in self.parts:
            part.tick(self.state)
        if self.state.clock_tick():
            self.sounds.play("tick")
        if self.state.motions.items or self.state.clock_left() is not None:
            self.window.awake(0.3)

    def on_draw(self) -> None:
        """Draw the baize, then every part in order."""
        self.clear(color=TABLE_BG)
        for part in self.parts:
            part.draw()
        if self.state.view is not None:
            self.drawn = True

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Tell the parts where the pointer is (buttons light, the square is outlined)."""
        for part in self.parts:
            part.hover(x, y)
        self.board.spot(self.panel.hovered_square)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click means what the state makes of the topmost thing it lands on."""
        self.state.motions.finish()  # a click ends running motions (the state is already the latest)
        target = next((t for part in reversed(self.parts) if (t := part.target_at(x, y)) is not None), None)
        self.perform(self.state.click(target))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """1-5 pick a card, D draws, X discards the picked card, Esc cancels, M mutes, Enter confirms, H: a hint."""
        name = KEY_NAMES.get(symbol)
        if name is not None:  # keys the table does not use (F1, F11, Ctrl+Q …) are left to the window
            self.state.motions.finish()
            self.perform(self.state.key(name))

