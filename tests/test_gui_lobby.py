"""The lobby: cards in a player's words, places that stay put, the name field's caret, and a seat taken back.

Window tests run a real arcade window under Xvfb; the end-to-end test runs a real
server on 127.0.0.1 and clicks the lobby's own buttons.
"""

from __future__ import annotations

import time

import arcade
import pytest

from board99 import Draw, sides_for
from board99.client.gui.lobby_cards import keep_places, lobby_order, sides_of, state_words, who_sits
from board99.wire.table_info import SeatInfo
from tests.gui_harness import run_until, step, table_info, window
from tests.test_gui_golden import LOBBY_TABLES, StandIn, stand_in_lobby

pytestmark = pytest.mark.timeout(120)


def centre(widget) -> tuple[float, float]:
    return widget.rect.center_x, widget.rect.center_y


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))  # never the player's own file


def test_partners_show_opposite_each_other_before_anyone_sits():
    empty = table_info([{}] * 6, players=6)
    rows = sides_of(empty)
    assert len(rows) == sides_for(6)
    assert [[slot.seat for slot in row.seats] for row in rows] == [[0, 3], [1, 4], [2, 5]]
    assert all(slot.sit_text == "Sit here" for row in rows for slot in row.seats)


def test_a_free_seat_says_whom_it_joins():
    four = LOBBY_TABLES[0]  # Ann (red) sits in seat 0; seat 2, her partner's place, holds a bot
    red, other = sides_of(four, "blue")
    assert red.title == "Red: Ann & rulebook bot"
    assert other.title == "Side 2: (free) & (free)"
    alone = sides_of(table_info([{"colour": "green", "occupant": "human", "name": "Gil", "connected": True},
                                 {}, {}], players=3), "red")
    assert [slot.sit_text for row in alone for slot in row.seats] == [None, "Sit here (red)", "Sit here (red)"]
    partner = sides_of(table_info([{"colour": "red", "occupant": "human", "name": "Ann", "connected": True},
                                   {}, {}, {}], players=4))[0]
    assert partner.seats[1].sit_text == "Sit with Ann"


def test_finished_and_playing_tables_offer_no_free_seat():
    finished = LOBBY_TABLES[4]
    assert finished.free_seats() and state_words(finished) == "Finished"
    assert all(slot.sit_text is None for row in sides_of(finished) for slot in row.seats)


def test_seats_are_named_in_words_not_numbers():
    left = SeatInfo(0, 0, "red", "human", "Ann", False, True, left=True)
    assert who_sits(left) == "Ann (left)"
    assert who_sits(SeatInfo(1, 1, "blue", "bot", "rulebook", True, False)) == "rulebook bot"
    assert who_sits(SeatInfo(1, 1, None, None, None, False, False)) == "(free)"


def test_kept_seats_then_open_tables_come_first_and_a_refresh_keeps_places():
    t1, t2, t3, t4, t5 = LOBBY_TABLES
    assert [t.id for t in lobby_order([t5, t2, t1, t3, t4], {"t3"})] == ["t3", "t1", "t4", "t2", "t5"]
    # t2 went away and a new table arrived: it takes t2's place, the others stay where they were.
    new = table_info([{}, {}], id="t6")
    assert [t.id for t in keep_places(["t1", "t2", "t3"], [new, t3, t1])] == ["t1", "t6", "t3"]


@pytest.mark.slow
def test_a_refresh_does_not_move_the_button_under_the_pointer():
    win = window()
    lobby = stand_in_lobby(win)
    lobby.show_tables(LOBBY_TABLES)
    step(win, 2)
    aimed = lobby.buttons["sit-t1-1"].rect
    places = [t.id for t in lobby.model.tables]
    # A friend's new table arrives first in the server's order: the periodic refresh keeps places.
    newcomer = table_info([{}, {}], id="t9", name="Newcomer")
    lobby.show_tables([newcomer, *LOBBY_TABLES])
    step(win, 2)
    assert lobby.buttons["sit-t1-1"].rect == aimed
    assert [t.id for t in lobby.model.tables] == [*places, "t9"] and "sit-t9-0" in lobby.buttons  # the free sixth place
    # Hovering a button changes its look, never its size.
    win.dispatch_event("on_mouse_motion", *map(int, centre(lobby.buttons["sit-t1-1"])), 0, 0)
    step(win, 2)
    assert lobby.buttons["sit-t1-1"].rect == aimed


@pytest.mark.slow
def test_a_click_in_the_name_field_puts_the_caret_where_clicked():
    win = window()
    lobby = stand_in_lobby(win)
    step(win, 2)
    field = lobby.name_input
    win.click(field.rect.right - 4, field.rect.center_y)  # past the end of "Ann"
    step(win, 1)
    assert lobby.typing
    win.dispatch_event("on_text", "e")
    step(win, 1)
    assert field.text == "Anne"
    time.sleep(0.3)  # a second click within 0.25 s is a double click, which selects the word
    win.click(field.rect.left + 2, field.rect.center_y)  # before the first letter
    win.dispatch_event("on_text", "J")
    step(win, 1)
    assert field.text == "JAnne"
    win.click(10, 10)  # elsewhere: the field lets go of the keyboard
    step(win, 1)
    assert not lobby.typing


@pytest.mark.slow
def test_the_lobby_reads_at_960_by_640_and_grows_at_2560_by_1440():
    win = window()
    lobby = stand_in_lobby(win)
    lobby.show_tables(LOBBY_TABLES)
    try:
        heights = {}
        for size in ((960, 640), (2560, 1440)):
            win.set_size(*size)
            step(win, 3)
            for b in lobby.buttons.values():  # every button inside the window
                assert 0 <= b.rect.left and b.rect.right <= size[0] and 0 <= b.rect.bottom and b.rect.top <= size[1]
            heights[size] = lobby.buttons["create"].rect.height
        assert heights[(960, 640)] >= 28 and heights[(2560, 1440)] > 1.6 * heights[(960, 640)]
    finally:
        win.set_size(1280, 800)
        step(win, 2)


# -- leaving a game and taking the seat back, with a real server ------------------------------


@pytest.mark.slow
def test_a_seat_left_during_a_game_is_taken_back_from_the_lobby(tmp_path):
    from board99.client.gui.app import App
    from board99.client.gui.table_view import TableView
    from board99.server.loop import run_in_thread

    # The bots wait long enough that nothing moves between our leaving and our coming back.
    server = run_in_thread(port=0, data_dir=tmp_path, bot_delay=5.0)
    win = window()
    app = App(win, name="Ann", discover=None)
    try:
        session = app.connect(server.endpoint)
        lobby = app.lobby
        session.create_table("Den", 2, "guarded", None)
        run_until(win, lambda: bool(lobby.model.tables), 10, "the new table's card")
        table_id = lobby.model.tables[0].id
        win.click(*centre(lobby.buttons[f"sit-{table_id}-0"]))
        run_until(win, lambda: isinstance(win.current_view, TableView), 10, "the table after sitting")
        session.add_bot(table_id, 1, "random")

        def playing() -> bool:
            st = session.latest_state
            return st is not None and st.table is not None and st.table.state == "playing" and st.view is not None

        run_until(win, playing, 10, "the game to start")
        if session.latest_state.view.turn == 0:
            session.act(Draw())  # a card in hand, so the hand we come back to is worth comparing
            run_until(win, lambda: session.latest_state.view.hand, 10, "our drawn card")
        seat, hand = session.latest_state.view.seat, session.latest_state.view.hand
        session.leave()  # what the table's "leave" does once the player confirms
        run_until(win, lambda: table_id in session.kept(), 10, "the session to remember the kept seat")
        app.show_lobby()
        lobby = app.lobby
        run_until(win, lambda: f"back-{table_id}" in lobby.buttons, 10, "the card's 'Take my seat back'")
        card = next(t for t in lobby.model.tables if t.id == table_id)
        assert card.seats[seat].left and card.seats[seat].standin  # a bot stands in meanwhile
        assert lobby.buttons[f"back-{table_id}"].text == "Take my seat back"
        win.click(*centre(lobby.buttons[f"back-{table_id}"]))
        run_until(win, lambda: isinstance(win.current_view, TableView), 10, "the table after taking the seat back")
        tv = win.current_view

        def back() -> bool:
            st = tv.state
            return (st.view is not None and st.view.seat == seat and st.table is not None
                    and not st.table.seats[seat].left)

        run_until(win, back, 10, "our own seat, with the stand-in gone")
        assert tv.state.view.hand == hand
        # Said as what it is: the player's own game going on, not a game starting.
        assert tv.state.log[0].startswith("Welcome back: your unfinished game goes on (game 1, deal 1)")
        seat_info = tv.state.table.seats[seat]
        assert (seat_info.occupant, seat_info.standin, seat_info.name) == ("human", False, "Ann")
        assert table_id not in session.kept()
    finally:
        app.shutdown()
        app.detach()
        server.stop()
        time.sleep(0.05)
        win.show_view(arcade.View())


@pytest.mark.slow
def test_a_practice_server_is_not_offered_to_friends():
    from board99.client.gui.lobby_view import LobbyView

    win = window()
    texts = {}
    for local_only in (False, True):
        lobby = LobbyView(StandIn(), address="127.0.0.1:9099", name="Ann", local_only=local_only)
        win.show_view(lobby)
        step(win, 2)
        texts[local_only] = " ".join(w.text for w in lobby.dynamic if hasattr(w, "text"))
    assert "Friends join with:" in texts[False]
    assert "Friends join with:" not in texts[True] and "this machine only" in texts[True]
