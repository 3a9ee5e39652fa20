"""Who you are in the lobby (issue 19): the name and rating the server knows this window by, "Play as"
another person with their own key, Ctrl+A in the text fields, and an address friends can really use.

Window tests run a real arcade window under Xvfb; the switch runs a real server on 127.0.0.1.
"""

from __future__ import annotations

import socket
import time

import arcade
import pytest

from board99.client import player_key
from board99.client.gui.lobby_cards import friends_line, port_open
from tests.gui_harness import run_until, step, window
from tests.test_gui_golden import StandIn, stand_in_lobby

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))  # never the player's own keys


def centre(widget) -> tuple[float, float]:
    return widget.rect.center_x, widget.rect.center_y


def words(lobby) -> str:
    return " ".join(w.text for w in lobby.dynamic if hasattr(w, "text"))


@pytest.mark.slow
def test_ctrl_a_selects_a_fields_text_so_typing_replaces_it():
    win = window()
    lobby = stand_in_lobby(win)
    step(win, 2)
    field = lobby.table_name
    assert field.text == "Table"
    win.click(*centre(field))
    step(win, 1)
    win.dispatch_event("on_key_press", arcade.key.A, arcade.key.MOD_CTRL)
    for letter in "Friday match":
        win.dispatch_event("on_text", letter)
    step(win, 1)
    assert field.text == "Friday match"  # not "TableFriday match"
    time.sleep(0.3)
    win.click(*centre(lobby.name_input))  # another field: Ctrl+A there too
    step(win, 1)
    win.dispatch_event("on_key_press", arcade.key.A, arcade.key.MOD_CTRL)
    win.dispatch_event("on_text", "B")
    step(win, 1)
    assert lobby.name_input.text == "B" and lobby.table_name.text == "Friday match"
    win.click(10, 10)
    step(win, 1)


@pytest.mark.slow
def test_the_lobby_says_who_you_are_and_that_a_guest_keeps_no_rating():
    win = window()
    lobby = stand_in_lobby(win)
    step(win, 2)
    assert "You are Ann · rating 1612 ± 84 · 31 rated games" in words(lobby)
    guest = StandIn()
    guest.key, guest.player = None, None  # type: ignore[assignment]
    lobby = stand_in_lobby(win, guest)
    step(win, 2)
    assert "You play as a guest: no rating is kept" in words(lobby)
    # A second window of the same person refused a second seat: said in the lobby's words.
    from board99.client.gui.messages import Failed

    lobby.handle(Failed("take_seat", "one-seat", "seat: Ann already holds S0 at table t1; ..."))
    assert lobby.model.status == ("The server refused taking the seat: You hold a seat there already: a rated or match "
                            "table seats each player once") and lobby.model.status_bad


@pytest.mark.slow
def test_two_people_at_one_machine_each_play_as_themselves_with_their_own_keys(tmp_path):
    from board99.client.gui.app import App
    from board99.client.net import GameClient
    from board99.server.loop import run_in_thread

    server = run_in_thread(port=0, data_dir=tmp_path / "server")
    win = window()
    app = App(win, discover=None)  # `board99 join` with no name: the window's own key
    try:
        app.connect(server.endpoint)
        lobby = app.lobby
        run_until(win, lambda: "New here" in words(lobby), 10, "the lobby to say the key is new here")
        # Ann types her name and sits at a rated table: her window's key is Ann's from now on.
        lobby.name_input.text = "Ann"
        app.session.create_table("Rated", 2, "guarded", None, rated=True)
        run_until(win, lambda: bool(lobby.model.tables), 10, "the rated table's card")
        table_id = lobby.model.tables[0].id
        lobby.sit(table_id, 0)
        run_until(win, lambda: app.table is not None and win.current_view is app.table, 10, "Ann at the table")
        app.session.leave()
        app.show_lobby()
        lobby = app.lobby
        run_until(win, lambda: "You are Ann" in words(lobby), 10, "the lobby to say Ann")
        assert player_key.noted_name() == "Ann"
        # Bob, at the same machine, types his name and sits: the server refuses to make Ann's key Bob's.
        lobby.name_input.text = "Bob"
        lobby.sit(table_id, 1)
        run_until(win, lambda: lobby.model.status.startswith("Your key already has another name"), 10, "name-bound")
        assert "press Play as" in lobby.model.status and lobby.model.status_bad
        # "Play as" gives Bob a key of his own and a new hello: he is Bob, and Ann is still Ann.
        win.click(*centre(lobby.buttons["play-as"]))
        step(win, 1)
        lobby = app.lobby
        run_until(win, lambda: "You are Bob" in words(lobby), 10, "the lobby to say Bob")
        assert app.key != player_key.load_or_create(player_key.key_path(None))
        assert player_key.key_path("bob").exists() and player_key.key_path("Ann") == player_key.key_path(None)
        lobby.sit(table_id, 1)
        run_until(win, lambda: app.table is not None and win.current_view is app.table, 10, "Bob at the table")
        app.session.leave()
        app.show_lobby()
        lobby = app.lobby
        # Back to Ann in Bob's window: her name is taken on the server, but by her own key on this machine.
        lobby.name_input.text = "Ann"
        lobby.table_name.text = "Friday match"
        lobby.sit(table_id, 1)
        run_until(win, lambda: lobby.model.status.startswith("Ann has a key of their own"), 10, "the own-key hint")
        win.click(*centre(lobby.buttons["play-as"]))
        step(win, 1)
        lobby = app.lobby
        run_until(win, lambda: "You are Ann" in words(lobby), 10, "the lobby to say Ann again")
        assert app.key == player_key.load_or_create(player_key.key_path(None))  # the window's own key
        assert lobby.table_name.text == "Friday match"  # what was typed survives the switch
        lobby.sit(table_id, 0)
        run_until(win, lambda: app.table is not None and win.current_view is app.table, 10, "Ann at the table")
        with GameClient(server.endpoint, name="Cy") as cy:
            seats = next(t for t in cy.list_tables() if t.id == table_id).seats
            assert [s.name for s in seats] == ["Ann", None]  # Bob left; Ann sits
            assert [cy.player_history(n).rating.name for n in ("Ann", "Bob")] == ["Ann", "Bob"]
    finally:
        app.shutdown()
        app.detach()
        server.stop()
        time.sleep(0.05)
        win.show_view(arcade.View())


def test_a_server_on_this_machine_only_is_not_offered_to_friends():
    assert friends_line("tcp://127.0.0.1:9199", probe=lambda host, port: False) == (
        "Friends cannot join: this server listens on this machine only", False)
    line, reachable = friends_line("tcp://127.0.0.1:9199", probe=lambda host, port: True)
    assert reachable and line.startswith("Friends join with:  board99 join ") and "127.0.0.1" not in line
    assert friends_line("tcp://192.168.1.20:9099", probe=lambda host, port: False)[1]  # reached over the LAN


def test_the_probe_tells_a_listening_port_from_a_closed_one():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        assert port_open("127.0.0.1", port)
    assert not port_open("127.0.0.1", port)


def test_the_random_bots_bound_reads_below_the_floor_not_as_minus_451():
    from board99.client.gui.lobby_cards import who_sits
    from board99.client.gui.lobby_lists import leaderboard_cells
    from board99.server.ratings import BOT_RATINGS
    from board99.wire.listings import Rating
    from board99.wire.table_info import SeatInfo

    random_rating = BOT_RATINGS["random"].shown
    assert random_rating < 0  # the bound the arena gives (docs/ratings.md)
    seat = SeatInfo(1, 1, "blue", "bot", "random", True, False, rating=random_rating)
    assert who_sits(seat) == "random bot · < 100"
    assert leaderboard_cells(9, Rating("random", random_rating, 0, 0, 0, bot=True))[1:3] == (
        "random (bot, fixed)", "< 100")
    assert leaderboard_cells(1, Rating("Ann", 1612, 84, 31, 20))[2] == "1612 ± 84"
