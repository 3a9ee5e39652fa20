"""The coach at the table: the Hint key and button, the hint on the board and in the panel, others told.

Golden: table_coach.png (the rulebook's own example: the opponent holds 72, 58, 20 and 14; the hint rings
square 4 and frames the player's 3, the only card of the hand 0-4).
"""

from __future__ import annotations

from types import SimpleNamespace

import arcade
import pytest

from board99 import Game, Play, SeatView
from board99.client.gui import wording
from board99.client.gui.messages import Failed, Pushed, Replied, StateChanged
from board99.client.gui.table_intents import AskCoach, Attempt, Cancel, FetchHint, OnButton, OnSquare
from board99.client.gui.table_state import TableState
from board99.client.pushes import TableChange
from board99.coach import advise
from board99.layout import POSITION
from board99.wire.table_info import MatchInfo, TableInfo
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, table_info, window

pytestmark = pytest.mark.timeout(180)

#: The opponent's four of the rulebook's example, and a few more pegs of each side around the board.
THEIRS = (72, 58, 20, 14, 44, 87, 33)
MINE = (57, 59, 61, 25, 92, 41)
HAND = (3, 40, 77)


def example_view(ply: int = 30) -> SeatView:
    board: list[int | None] = [None] * 100
    for sq in THEIRS:
        board[sq] = 1
    for sq in MINE:
        board[sq] = 0
    discards = ((50, 66, 81, 93, 95, 84), (60, 70, 90, 45, 88, 39, 12))
    return SeatView.before_deal(2, "guarded", 0)._replace(
        deal=1, ply=ply, turn=0, board=tuple(board), hand=HAND, hand_sizes=(3, 4), discards=discards,
        deck_size=100 - 13 - 13 - 7, cut=(41, 78))


def casual_table(**more: object):
    seats = [{"colour": "green", "occupant": "human", "name": "Ann", "connected": True},
             {"colour": "purple", "occupant": "human", "name": "Ben", "connected": True}]
    fields = {"id": "c1", "name": "Practice", "players": 2, "mode": "guarded", "state": "playing", "coach": True,
              **more}
    return table_info(seats, **fields)


class Recorder:
    """Only what the table sends a session: its calls, kept."""

    endpoint = "tcp://127.0.0.1:1"

    def __init__(self) -> None:
        self.calls: list = []

    def call(self, op, run) -> None:
        self.calls.append(op)

    def submit(self, op, start) -> None:
        self.calls.append(op)

    def act(self, action, ply=None) -> None:
        self.calls.append(("act", action))

    def drain(self) -> list:
        return []


def seated_state(table=None, view: SeatView | None = None) -> TableState:
    state = TableState()
    state.online = True
    state.receive(StateChanged(view or example_view(), table or casual_table(), True))
    return state


# -- the state alone ----------------------------------------------------------------------------------------


def test_h_asks_the_coach_and_the_answer_shows_until_esc() -> None:
    state = seated_state()
    assert state.coach_shown and state.coach_off is None
    assert state.key("h") == AskCoach() and state.click(OnButton("coach")) == AskCoach()
    assert state.perform(AskCoach()) == (FetchHint(),)
    assert state.notice == wording.ASKING_COACH and state.coach_asking
    advice = advise(state.view)
    state.receive(Replied("hint", advice))
    assert state.coach == advice and not state.coach_asking and state.notice == "Coach picked your 3: click square 4"
    assert advice.hints[0].squares == (4,) and advice.hints[0].cards == (0, 1, 2, 3, 4)
    state.perform(Cancel())
    assert state.coach is None
    state.receive(Replied("hint", advice))
    assert state.perform(AskCoach()) == () and state.coach is None  # H again closes it


def test_the_hint_closes_when_the_position_changes_and_a_late_answer_is_not_shown() -> None:
    state = seated_state()
    advice = advise(state.view)
    state.receive(Replied("hint", advice))
    state.receive(StateChanged(example_view(ply=31), state.table, True))
    assert state.coach is None
    state.receive(Replied("hint", advice))  # the answer for ply 30 arrives at ply 31
    assert state.coach is None


@pytest.mark.parametrize("table,why", [
    (casual_table(coach=False, rated=True), "Hints are off at rated tables"),
    (casual_table(coach=False, match=MatchInfo("first-to", 3, 1, ())), "Hints are off at match tables"),
])
def test_at_rated_and_match_tables_there_is_no_button_and_h_says_why(table, why) -> None:
    state = seated_state(table)
    assert not state.coach_shown and state.coach_off == why
    assert state.key("h") == AskCoach()
    assert state.perform(AskCoach()) == () and state.notice == why


def test_a_server_without_a_coach_shows_no_hint_button_and_a_spectator_none() -> None:
    old = seated_state(casual_table(coach=False))
    assert not old.coach_shown and old.perform(AskCoach()) == () and old.notice == "This server gives no hints"
    state = TableState()
    state.online = True
    state.receive(StateChanged(Game(2, seed=1).view(None), casual_table(), True))
    assert not state.coach_shown
    assert state.perform(AskCoach()) == () and state.notice == wording.COACH_NOT_NOW


def test_another_player_asking_is_logged_and_announced_and_a_refusal_is_said() -> None:
    state = seated_state()
    table = casual_table().to_data()
    table["seats"][1]["hints"] = 1
    push = {"type": "table", "change": "hint", "by": 1, "table": "c1", "info": table}
    state.receive(Pushed(TableChange("c1", 1, "hint", 1, (), None, TableInfo.from_data(table), push)))
    assert state.log[-1] == "Ben asked the coach for a hint"
    assert any(t.text == "Ben asked the coach for a hint" for t in state.toasts_now())
    push = {"type": "table", "change": "hint", "by": 0, "table": "c1", "info": table}
    state.receive(Pushed(TableChange("c1", 1, "hint", 0, (), None, TableInfo.from_data(table), push)))
    assert state.log[-1] == "Ben asked the coach for a hint"  # the player's own ask is not announced to them
    state.receive(Failed("hint", "too-often", "hint: S0 has asked the coach 5 times in a short while, the most it "
                                              "may; try again in 4 s"))
    assert state.notice == "No hint now: try again in 4 s"


def test_the_seat_label_counts_a_players_hints() -> None:
    table = casual_table()
    seats = list(table.seats)
    seats[1] = seats[1]._replace(hints=2)
    label = wording.seat_label(1, 1, example_view(), table._replace(seats=tuple(seats)), "purple")
    assert label.endswith("· 2 hints")


def test_the_coachs_words_name_the_players() -> None:
    table = casual_table(players=2)
    assert wording.coach_words("S1 holds 72; S0 and S1", table) == "Ben holds 72; Ann and Ben"
    assert wording.coach_title("Win now") == "Coach: Win now"
    assert wording.coach_title("Win now", my_turn=False) == "Coach: Win now (for your turn)"


def test_the_hint_picks_the_card_it_suggests_so_a_click_on_the_ringed_square_plays_it() -> None:
    state = seated_state()
    state.receive(Replied("hint", advise(state.view)))
    assert state.coach.action == Play(3, 4)
    assert state.picked_card == 3  # the framed card is the picked card, not just a look-alike
    assert "click square 4" in state.notice
    assert state.click(OnSquare(4)) == Attempt(Play(3, 4))
    # Off the player's turn nothing is picked (the advice is for the turn when it comes).
    waiting = seated_state(view=example_view()._replace(turn=1))
    waiting.receive(Replied("hint", advise(waiting.view)))
    assert waiting.coach is not None and waiting.picked is None


# -- in the window ------------------------------------------------------------------------------------------


@pytest.fixture
def table_view():
    from board99.client.gui.table_view import TableView

    win = window()
    tv = TableView(sounds=win.sounds)
    tv.session = Recorder()  # type: ignore[assignment]
    win.show_view(tv)
    tv.handle(StateChanged(example_view(), casual_table(), True))
    tv.state.motions.finish()
    step(win, 2)
    return tv


@pytest.mark.slow
def test_the_hint_on_screen_matches_golden(table_view) -> None:
    win = table_view.window
    assert table_view.panel.b_coach.visible and not table_view.panel.b_coach.disabled
    win.press(arcade.key.H)
    assert table_view.session.calls == ["hint"]
    advice = advise(table_view.state.view)
    table_view.handle(Replied("hint", advice))
    step(win, 2)
    assert table_view.coach.shown
    centres = {table_view.geo.square_centre(*POSITION[sq]): sq for sq in range(100)}
    ringed = {centres[tuple(r.position)] for r in table_view.coach.rings if r.visible}
    assert 4 in ringed and set(THEIRS[:4]) <= ringed
    framed = [f for f in table_view.coach.frames if f.visible]
    assert framed and all(f.position[0] == table_view.geo.hand_card(0).cx for f in framed)  # the 3, first in hand
    assert "Coach: Block the threat" in table_view.coach.t_head.text
    assert "only square 4 blocks it" in table_view.coach.t_main.text
    assert table_view.hand.glow.visible and table_view.state.picked_card == 3  # raised and lit: picked for real
    assert compare_golden(screenshot(win), "table_coach.png") <= MAX_DIFFERENT
    win.press(arcade.key.ESCAPE)
    step(win)
    assert not table_view.coach.shown and table_view.state.coach is None
    win.click(*table_view.geo.square_centre(*POSITION[4]))  # the square the hint ringed: the picked 3 goes there
    assert table_view.session.calls[-1] == ("act", Play(3, 4))


@pytest.mark.slow
def test_at_a_match_table_the_button_is_hidden_and_h_says_why(table_view) -> None:
    table = casual_table(coach=False, match=MatchInfo("first-to", 3, 1, ()))
    table_view.handle(StateChanged(example_view(), table, True))
    step(table_view.window)
    assert not table_view.panel.b_coach.visible
    table_view.window.press(arcade.key.H)
    assert table_view.session.calls == [] and table_view.state.notice == "Hints are off at match tables"
    assert not table_view.coach.shown


# -- against a real server ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_at_a_practice_table_h_brings_the_coachs_hint_from_a_real_server(tmp_path, monkeypatch) -> None:
    # The window, a real server on 127.0.0.1 and a rulebook bot: H on the player's turn, after a few
    # draws, shows the coach's advice of the player's own view.
    from board99 import Play
    from board99.client.gui.app import App
    from board99.server.loop import run_in_thread
    from tests.gui_harness import run_until

    # The server's game gets seed 5, not a secret one: the same deal, so the same advice, every run.
    monkeypatch.setattr("board99.game.secrets", SimpleNamespace(randbits=lambda bits: 5))
    server = run_in_thread(port=0, data_dir=tmp_path)
    win = window()
    app = App(win, name="Tester", discover=None)
    try:
        app.connect(server.endpoint)
        tv = app.practice(players=2, mode="guarded", bot="rulebook")

        def my_turn() -> bool:
            s = tv.state
            return s.my_turn and s.table is not None and s.table.state == "playing" and not s.coach_asking

        for _ in range(3):  # draw three cards, so the coach has a hand to speak of
            run_until(win, my_turn, 15, "the player's turn")
            ply = tv.state.view.ply
            tv.perform(tv.state.key("d"))
            run_until(win, lambda p=ply: tv.state.view.ply > p, 15, "the draw")
        run_until(win, my_turn, 15, "the player's turn")
        assert tv.panel.b_coach.visible and tv.state.table.coach
        win.press(arcade.key.H)
        run_until(win, lambda: tv.state.coach is not None, 15, "the coach's hint")
        advice = tv.state.coach
        assert advice == advise(tv.state.view) and advice.ply == tv.state.view.ply
        assert tv.coach.shown and tv.state.table.seats[tv.state.view.seat].hints == 1
        assert advice.action == Play(5, 10) and advice.kinds() == ("high-card-high-square",)  # hand 75, 5, 98
        win.press(arcade.key.H)
        step(win)
        assert not tv.coach.shown
    finally:
        app.shutdown()
        step(win, 1)
        server.stop()
