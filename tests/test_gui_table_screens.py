"""The table screen in a real window: results beside the board, penalties shown, any size, honest questions.

Goldens: table_won.png, table_lost.png, table_penalty_shown.png, table_6p_small.png, table_6p_large.png.
Motions read a fake clock here, so a screenshot catches one exact instant of them.
"""

from __future__ import annotations

import arcade
import pytest

from board99 import Draw, Game, Play
from board99.bots import make_bot
from board99.client.gui.messages import Events, StateChanged
from board99.client.gui.motion import LIFT_SECONDS
from board99.client.gui.table_intents import Attempt, Pick
from board99.events import shown_to
from board99.layout import POSITION
from tests.gui_harness import MAX_DIFFERENT, HandClock, compare_golden, screenshot, step, table_info, window
from tests.scenario import position

pytestmark = pytest.mark.timeout(180)
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


class Recorder:
    """Only what the table sends to a session: the actions, kept."""

    def __init__(self) -> None:
        self.sent: list = []

    def act(self, action, ply=None) -> None:
        self.sent.append(action)

    def leave(self) -> None:
        self.sent.append("leave")

    def drain(self) -> list:
        return []


def table_for(players: int, mode: str, colours=("red", "blue", "green")):
    sides = 2 if players in (2, 4) else 3 if players == 6 else players
    seats = [{"colour": colours[s % sides], "occupant": "human", "name": NAMES[s], "connected": True}
             for s in range(players)]
    return table_info(seats, players=players, mode=mode, state="playing", name="Screens")


@pytest.fixture
def tv(request):
    from board99.client.gui.table_view import TableView

    win = window()
    view = TableView(sounds=win.sounds)
    clock = HandClock(100.0)
    view.state.motions.clock = clock
    view.clock = clock
    win.show_view(view)
    yield view
    win.set_size(1280, 800)
    step(win, 2)


def finish_game(tv, winner_seat: int, me: int) -> None:
    """Seat ``winner_seat`` completes the rulebook's line 72-58-20-14-4 (square 4 last), seen from ``me``."""
    side = winner_seat % 2
    game = position(players=2, pegs={side: (72, 58, 20, 14), 1 - side: (90, 91, 93, 30)},
                    hands={0: (3, 50), 1: (2, 60)}, turn=winner_seat)
    events = game.apply(winner_seat, Play((3, 2)[winner_seat], 4))
    tv.handle(StateChanged(game.view(me), table_for(2, "guarded"), True))
    tv.handle(Events(tuple(shown_to(e, me) for e in events)))


@pytest.mark.parametrize(("winner", "golden", "title"), [(0, "table_won.png", "You won"),
                                                          (1, "table_lost.png", "You lost")])
@pytest.mark.slow
def test_the_end_of_a_game_is_said_beside_the_board_and_the_final_board_stays_visible(tv, winner, golden, title):
    win = tv.window
    finish_game(tv, winner, me=0)
    assert tv.state.result.title == title
    tv.clock.now += 0.9  # the line is drawn, the celebration is under way
    step(win, 2)
    assert len(tv.motion.sprite_list) > 5  # the winner's pegs burst over the board
    assert not tv.overlays.shown  # nothing covers the board
    tv.clock.now += 5  # the motions are over
    step(win, 2)
    assert tv.board.line.visible and title in tv.panel.t_result.text
    assert "Esc" in tv.panel.t_result_line.text
    assert compare_golden(screenshot(win), golden) <= MAX_DIFFERENT
    win.press(arcade.key.ESCAPE)  # dismissed: the box gives way, the board and its line stay
    step(win)
    assert not tv.state.result_open and tv.board.line.visible and "Esc" not in tv.panel.t_result_line.text
    assert not tv.panel.b_rematch.disabled and tv.panel.b_lobby.visible


@pytest.mark.slow
def test_a_penalised_peg_is_shown_then_lifted_off(tv):
    win = tv.window
    game = Game(2, "penalty", seed=5, first=1)
    for _ in range(6):
        seat = game.turn
        game.apply(seat, make_bot("rulebook", seed=1).choose(game.view(seat)))
    tv.handle(StateChanged(game.view(0), table_for(2, "penalty"), True))
    seat = game.turn
    card = max(game.hand(seat))
    square = next(sq for sq in range(card) if game.view(0).board[sq] is None)
    events = game.apply(seat, Play(card, square))  # below the card: an illegal play, penalised
    tv.handle(StateChanged(game.view(0), None, True))
    tv.handle(Events(tuple(shown_to(e, 0) for e in events)))
    assert game.view(0).board[square] is None  # the true board already has no peg there…
    tv.clock.now += LIFT_SECONDS * 0.6
    step(win, 2)
    x, y = tv.geo.peg_centre(*POSITION[square])
    lifted = [s for s in tv.motion.sprite_list if s in tv.motion.pegs]
    assert lifted and lifted[0].center_y > y and 0 < lifted[0].alpha < 255  # …the motion lifts it off
    assert "Penalty:" in tv.panel.t_toasts.text
    assert compare_golden(screenshot(win), "table_penalty_shown.png") <= MAX_DIFFERENT
    win.click(5, 5)  # a click ends the motions at once
    step(win)
    assert len(tv.motion.sprite_list) == 0


def six_player_table(tv) -> None:
    game = Game(6, "guarded", seed=8, first=0)
    bots = [make_bot("random", seed=s) for s in range(6)]
    while game.ply < 40 and game.winner is None:
        seat = game.turn
        game.apply(seat, bots[seat].choose(game.view(seat)))
    recent = []
    while game.turn != 0 or not recent:
        seat = game.turn
        recent += game.apply(seat, bots[seat].choose(game.view(seat)))
    tv.handle(StateChanged(game.view(0), table_for(6, "guarded"), True))
    tv.handle(Events(tuple(shown_to(e, 0) for e in recent)))
    tv.state.motions.finish()


@pytest.mark.parametrize(("size", "golden"), [((960, 640), "table_6p_small.png"),
                                               ((2560, 1440), "table_6p_large.png")])
@pytest.mark.slow
def test_six_players_fit_small_and_large_windows_with_text_that_scales(tv, size, golden):
    win = tv.window
    win.set_size(*size)
    step(win, 3)
    six_player_table(tv)
    tv.perform(Pick(0))
    step(win, 2)
    g = tv.geo
    assert (g.width, g.height) == size
    scale = g.scale
    assert tv.panel.t_turn.font_size == pytest.approx(24 * scale, abs=0.1)
    assert tv.hand.cards[0].width == pytest.approx(g.card_w)
    for seat in range(6):  # every seat's label inside the window and off the board
        label = tv.seats.t_seats[seat]
        assert 0 <= label.x and label.x + label.content_width <= g.panel.left + 1
        assert label.y <= size[1]
        inside_board = g.board.contains(label.x + 1, label.y - 1) and g.board.contains(
            label.x + label.content_width - 1, label.y - label.content_height + 1)
        assert not inside_board
    assert compare_golden(screenshot(win), golden) <= MAX_DIFFERENT


def test_text_grows_with_the_window():
    from board99.client.gui.geometry import TableGeometry
    from board99.client.gui.scale import ui_scale

    small, large = ui_scale(960, 640), ui_scale(2560, 1440)
    assert large > 1.5 * small
    g = TableGeometry(2560, 1440, 6, 0, large)
    assert g.card_w > 120 and g.panel.width > 500


def test_a_warning_that_went_stale_closes_and_enter_then_sends_nothing(tv):
    win = tv.window
    rec = Recorder()
    tv.session = rec
    game = Game(2, "penalty", seed=3, first=1)
    game.apply(1, Draw())
    view = game.view(0)._replace(turn=1, hand=(40, 50))
    tv.handle(StateChanged(view, table_for(2, "penalty"), True))
    win.press(arcade.key.D)  # out of turn: warned
    step(win)
    assert tv.overlays.shown and "Bo's turn" in tv.overlays.t_warn.text
    box = tv.overlays.warn_back
    for seat in range(2):  # the question covers no seat's label
        label = tv.seats.t_seats[seat]
        assert label.y - label.content_height >= box.top or label.y <= box.bottom or label.x >= box.right \
            or label.x + label.content_width <= box.left
    tv.handle(StateChanged(view._replace(turn=0), None, True))  # Bo moved on: now it is our turn
    step(win)
    assert not tv.overlays.shown and tv.state.notice.startswith("It is your turn now")
    win.press(arcade.key.ENTER)
    step(win)
    assert rec.sent == []  # no action the closed warning described


def test_lobby_during_a_live_game_asks_first(tv):
    win = tv.window
    rec = Recorder()
    tv.session = rec
    left = []
    tv.lobby_cb = lambda: left.append(True)
    game = Game(2, "guarded", seed=3, first=0)
    tv.handle(StateChanged(game.view(0), table_for(2, "guarded"), True))
    step(win)
    win.click(*tv.panel.b_lobby.rect.center)
    step(win)
    assert tv.overlays.shown and "A bot will play your seat" in tv.overlays.t_warn.text
    assert tv.overlays.b_confirm.text == "Leave (Enter)" and tv.overlays.b_back.text == "Stay (Esc)"
    win.press(arcade.key.ESCAPE)
    step(win)
    assert not tv.overlays.shown and rec.sent == [] and left == []
    win.click(*tv.panel.b_lobby.rect.center)
    win.click(*tv.overlays.b_confirm.rect.center)
    assert rec.sent == ["leave"] and left == [True]


def test_a_table_takes_the_window_title_from_a_screen_before_it(tv):
    # The same window showed a Ninety-Nine table before (lobby, a Ninety-Nine game, the lobby, a peg-board game).
    win = tv.window
    win.set_caption("Your turn · Ninety-Nine")
    from board99.client.gui.table_view import TableView

    again = TableView(sounds=win.sounds)
    win.show_view(again)
    again.handle(StateChanged(Game(2, "guarded", seed=3, first=1).view(0), table_for(2, "guarded"), True))
    step(win)
    assert win.caption == "GAME OF 99"
    win.show_view(tv)


def test_the_turn_is_unmistakable_and_the_title_says_so(tv):
    win = tv.window
    game = Game(2, "guarded", seed=3, first=1)
    tv.handle(StateChanged(game.view(0), table_for(2, "guarded"), True))
    step(win)
    assert win.caption == "GAME OF 99" and tv.panel.t_turn.text == "Bo's turn" and not tv.hand.turn_glow.visible
    asked = len(win.sounds.asked)
    game.apply(1, Draw())
    tv.handle(StateChanged(game.view(0), None, True))
    step(win)
    assert win.caption == "Your turn — GAME OF 99" and tv.panel.t_turn.text == "Your turn"
    assert tv.hand.turn_glow.visible and tv.panel.turn_back.visible
    assert win.sounds.asked[asked:] == ["turn"]
    tv.on_hide_view()
    assert win.caption == "GAME OF 99"


def test_the_hint_turns_itself_off_and_saves_that(tv, tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    from board99.client.gui import preferences

    win = tv.window
    before = win.prefs
    try:
        tv.handle(StateChanged(Game(2, "guarded", seed=3, first=0).view(0), table_for(2, "guarded"), True))
        step(win)
        assert tv.hand.b_hint_off.visible and tv.hand.t_hint.text
        win.click(*tv.hand.b_hint_off.rect.center)
        step(win)
        assert not win.prefs.hints and not preferences.load().hints
        assert not tv.hand.b_hint_off.visible and tv.hand.t_hint.text == ""
    finally:
        win.prefs = before


def test_rules_settings_and_quit_buttons_call_the_app_and_the_table_leaves_f1_alone():
    from board99.client.gui.table_view import TableView

    win = window()
    called = []
    tv = TableView(sounds=win.sounds, on_help=lambda: called.append("help"), on_quit=lambda: called.append("quit"))
    win.show_view(tv)
    step(win)
    assert tv.panel.b_rules.visible and tv.panel.b_quit.visible and not tv.panel.b_settings.visible
    win.click(*tv.panel.b_rules.rect.center)
    win.click(*tv.panel.b_quit.rect.center)
    assert called == ["help", "quit"]
    notice = tv.state.notice
    tv.on_key_press(arcade.key.F1, 0)
    assert tv.state.notice == notice and called == ["help", "quit"]  # F1 is the window's, not the table's
    tv.perform(Attempt(Draw()))  # no game: nothing to do, said in words
    assert tv.state.notice.startswith("Not possible now")


def test_the_first_game_tip_says_what_the_player_may_do_now_from_the_views_legal_actions(tv):
    win = tv.window
    empty = position(players=2, pegs={0: (50, 51), 1: (60, 61)}, hands={0: (), 1: (2, 70)}, turn=0)
    tv.handle(StateChanged(empty.view(0), table_for(2, "guarded"), True))
    step(win, 2)
    assert tv.state.hint_shown
    assert tv.hand.t_hint.text == "Tip: your hand is empty: draw a card (D)."  # not "pick a card (1-5)"
    full = position(players=2, pegs={0: (50, 51), 1: (60, 61)}, hands={0: (3, 10, 20, 30, 40), 1: (2,)}, turn=0)
    tv.handle(StateChanged(full.view(0), None, True))
    step(win)
    assert "draw" not in tv.hand.t_hint.text.lower() and "click a lit square" in tv.hand.t_hint.text
    tv.handle(StateChanged(full.view(0)._replace(turn=1), None, True))
    step(win)
    assert tv.hand.t_hint.text.startswith("Tip: not your turn yet")
