"""The window against a real server: a whole game driven by clicks and keys, and penalty practice.

A real server runs in a thread on 127.0.0.1 (real ZeroMQ sockets, a real
SQLite journal in a temporary folder); the real window runs on Xvfb; every
action is a synthetic click or key press going through the window's handlers.
"""

from __future__ import annotations

import json
import time

import arcade
import pytest

from board99 import PENALTY_RULES, Discard, Draw
from board99.bots import make_bot
from board99.client.gui.lobby_view import LobbyView
from board99.client.gui.table_view import TableView
from board99.layout import POSITION
from tests.gui_harness import run_until, step, window

pytestmark = pytest.mark.timeout(150)

DIGITS = (arcade.key.KEY_1, arcade.key.KEY_2, arcade.key.KEY_3, arcade.key.KEY_4, arcade.key.KEY_5)


@pytest.fixture
def server(request, tmp_path):
    """A real server in a thread; its bots act at once unless the test passes a pause (indirect param)."""
    from board99.server.loop import run_in_thread

    handle = run_in_thread(port=0, data_dir=tmp_path, bot_delay=getattr(request, "param", 0.0))
    yield handle
    handle.stop()


@pytest.fixture
def app(server):
    from board99.client.gui.app import App

    win = window()
    application = App(win, name="Tester", discover=None)
    application.connect(server.endpoint)
    yield application
    application.shutdown()
    step(win, 1)


def table_ready(tv) -> bool:
    v, table = tv.state.view, tv.state.table
    return v is not None and table is not None and table.state == "playing" and v.seat is not None


def do(win, tv, action) -> None:
    """Carry out ``action`` the way a person would: keys 1-5, D, X and a click on the square."""
    hand = tv.state.view.hand
    if type(action) is Draw:
        win.press(arcade.key.D)
        return
    win.press(DIGITS[hand.index(action.card)])
    assert tv.state.picked_card == action.card
    if type(action) is Discard:
        win.press(arcade.key.X)
    else:
        x, y = tv.geo.square_centre(*POSITION[action.square])
        win.click(x, y)


@pytest.mark.slow
def test_a_whole_game_against_a_bot_played_with_clicks_and_keys(app):
    win = app.window
    tv = app.practice(players=2, mode="guarded", bot="rulebook")
    run_until(win, lambda: table_ready(tv), 15, "the practice table to start")
    me = make_bot("random", seed=4)
    acted_at_ply = -1
    deadline = time.monotonic() + 60
    actions = 0
    while tv.state.table is None or tv.state.table.state != "over":
        assert time.monotonic() < deadline, (
            f"the game did not end in 60 s ({actions} actions by the window); "
            f"turn {tv.state.view.turn} ply {tv.state.view.ply} notice {tv.state.notice!r} "
            f"warning {tv.state.warning} log {list(tv.state.log)[-4:]}")
        v = tv.state.view
        if v.turn == v.seat and v.winner is None and v.ply != acted_at_ply:
            acted_at_ply = v.ply
            do(win, tv, me.choose(v))
            actions += 1
        step(win)
    run_until(win, lambda: tv.state.view.winner is not None, 5, "the final view")
    run_until(win, lambda: tv.board.line.visible, 5, "the winning line, drawn through once its motion ends")
    v = tv.state.view
    assert actions >= 3
    assert len(v.line) >= 5
    assert any(" wins! " in line and " completed " in line for line in tv.state.log)
    assert tv.state.result is not None and tv.state.result.title == ("You won" if v.winner == v.side else "You lost")
    assert tv.state.result.title in tv.panel.t_result.text  # beside the board, not over it
    assert "win" in win.sounds.asked and "peg" in win.sounds.asked
    assert not tv.panel.b_rematch.disabled  # the game is over: a rematch may be asked for
    assert "Refused" not in tv.state.notice
    click_button(win, tv, "Rematch")
    run_until(win, lambda: tv.state.table.state == "playing" and tv.state.view.winner is None, 10,
              "the rematch to start")
    assert not tv.board.line.visible and tv.panel.b_rematch.disabled
    log = tv.state.log
    assert log[0].startswith("Game 1 ") and "drew the lowest card and start" in log[0]
    assert any(e.startswith("Game 2 ") for e in log)


@pytest.mark.slow
@pytest.mark.parametrize("server", [2.0], indirect=True)  # the bot's turn lasts 2 s: time to act out of turn
def test_out_of_turn_play_warns_first_then_shows_the_rulebook_penalty(app):
    win = app.window
    tv = app.practice(players=2, mode="penalty", bot="rulebook")
    run_until(win, lambda: table_ready(tv), 15, "the practice table to start")
    run_until(win, lambda: tv.state.view.turn == tv.state.view.seat, 10, "our first turn")
    win.press(arcade.key.D)  # our turn, empty hand: no warning, the draw goes to the server
    run_until(win, lambda: tv.state.view.turn != tv.state.view.seat and tv.state.view.hand, 5,
              "our draw to go through")
    hand_before = tv.state.view.hand
    card = hand_before[0]
    square = next(sq for sq in range(card, 100) if tv.state.view.board[sq] is None)
    win.press(DIGITS[0])
    x, y = tv.geo.square_centre(*POSITION[square])
    win.click(x, y)
    # First the warning, nothing sent yet.
    assert tv.state.warning is not None and tv.overlays.warn_back.visible
    assert PENALTY_RULES["play-out-of-turn"] in tv.overlays.t_warn.text
    assert tv.state.view.hand == hand_before
    win.press(arcade.key.ENTER)
    run_until(win, lambda: any(line.startswith("Penalty: You") for line in tv.state.log), 10, "the penalty")
    line = next(line for line in tv.state.log if line.startswith("Penalty: You"))
    assert PENALTY_RULES["play-out-of-turn"] in line
    step(win, 2)
    # on screen, not only in the log: in the panel, beside the board
    assert "Penalty: You" in tv.panel.t_toasts.text and tv.panel.toast_back.visible
    assert "penalty" in win.sounds.asked
    v = tv.state.view
    assert v.board[square] is None  # the peg was removed again
    assert v.discards[0][-1] == card  # the card stays in the discard pile
    assert v.skips[0] == 1  # the next turn is lost (the bot's own turn still runs: it lasts 2 s)
    run_until(win, lambda: any("You lose this turn (penalty)" in entry for entry in tv.state.log), 10, "the lost turn")
    assert tv.state.view.skips[0] == 0


def click_button(win, view, text: str) -> None:
    """Click the button showing ``text`` (where a person would click)."""
    step(win, 2)  # lay the widgets out first
    widgets = [*view.panel.buttons, *view.overlays.buttons] if isinstance(view, TableView) else [
        *view.buttons.values()]
    found = [w for w in widgets if w.text == text and w.visible]
    assert found, f"no button {text!r} on screen"
    win.click(*found[0].rect.center)


@pytest.mark.slow
def test_lobby_creates_a_table_seats_the_player_and_fills_the_other_seats_with_bots(app):
    win = app.window
    lobby = app.lobby
    assert isinstance(win.current_view, LobbyView)
    click_button(win, lobby, "4")
    click_button(win, lobby, "penalty")
    click_button(win, lobby, "blue")
    click_button(win, lobby, "Create table")
    run_until(win, lambda: len(lobby.model.tables) == 1, 10, "the new table in the lobby")
    table = lobby.model.tables[0]
    assert (table.players, table.mode, table.state) == (4, "penalty", "waiting")
    click_button(win, lobby, "random")
    win.click(*lobby.buttons[f"bot-{table.id}-1"].rect.center)  # the "+ bot" of seat 1 on the table's card
    run_until(win, lambda: lobby.model.tables[0].seats[1].occupant == "bot", 10, "the random bot in S1")
    bot_colour = lobby.model.tables[0].seats[1].colour
    assert bot_colour != "blue" and lobby.model.tables[0].seats[3].colour == bot_colour  # partners share it
    # The window's key is Tester's: Nell, at the same window, plays as herself with a key of her own.
    lobby.name_input.text = "Nell"
    step(win, 2)
    win.click(*lobby.buttons["play-as"].rect.center)
    step(win, 1)
    lobby = app.lobby
    run_until(win, lambda: f"sit-{table.id}-2" in lobby.buttons and lobby.model.me is not None
              and lobby.model.me.get("name") == "Nell", 10, "the lobby to know Nell")
    win.click(*lobby.buttons[f"sit-{table.id}-2"].rect.center)  # seat 2's "Sit here" on the table's card
    run_until(win, lambda: isinstance(win.current_view, TableView), 10, "the table view")
    tv = win.current_view
    run_until(win, lambda: tv.state.table is not None and tv.panel.b_bots.visible, 10, "the waiting table")
    assert tv.panel.t_turn.text == "Waiting for players" and "2 empty seats" in tv.panel.t_status.text
    click_button(win, tv, "Fill seats with bots")
    run_until(win, lambda: table_ready(tv), 15, "the game to start with three bots")
    seats = tv.state.table.seats
    assert [s.occupant for s in seats] == ["bot", "bot", "human", "bot"]
    assert seats[2].colour == seats[0].colour == "blue" and tv.state.view.seat == 2
    assert seats[1].colour == seats[3].colour == bot_colour
    label = tv.seats.t_seats[2].text  # the name typed in the lobby, and the rating her player key has
    assert label.startswith("Nell · 1500 (you)"), label


@pytest.mark.slow
def test_a_lost_server_shows_reconnecting_and_the_window_keeps_drawing(app, server):
    win = app.window
    tv = app.practice(players=2, mode="guarded", bot="rulebook")
    run_until(win, lambda: table_ready(tv), 15, "the practice table to start")
    server.stop()
    started = time.monotonic()
    run_until(win, lambda: not tv.state.connected, 10, "the client to notice the server is gone")
    step(win, 2)
    assert "Reconnecting…" in tv.panel.t_toasts.text and tv.panel.toast_back.visible
    assert "Reconnecting…" in tv.panel.t_status.text
    # Never a frozen window: frames go on at once while the network thread waits.
    before = time.monotonic()
    step(win, 10)
    assert time.monotonic() - before < 2.0
    assert time.monotonic() - started < 12


@pytest.mark.slow
def test_guarded_mode_shows_impossible_actions_disabled_with_the_reason(app):
    win = app.window
    tv = app.practice(players=2, mode="guarded", bot="rulebook")
    run_until(win, lambda: table_ready(tv), 15, "the practice table to start")
    run_until(win, lambda: tv.state.view.turn == tv.state.view.seat, 10, "our turn")
    assert not tv.panel.b_draw.disabled  # empty hand, our turn: DRAW is possible
    # Nothing in hand yet: the line says so, as the tip does (not "pick a card first", with nothing to pick).
    assert tv.panel.b_discard.disabled and "Discard: your hand is empty: draw a card (D)" in tv.panel.t_disabled.text
    win.press(arcade.key.X)  # X with no card picked: told why, nothing sent
    assert "Pick a card to discard first" in tv.state.notice
    # Back to the lobby (a bot plays on in our seat) and watch the same table.
    click_button(win, tv, "Lobby")
    assert "A bot will play your seat" in tv.overlays.t_warn.text  # asked first: a game is on
    click_button(win, tv, "Leave (Enter)")
    run_until(win, lambda: isinstance(win.current_view, LobbyView), 5, "the lobby")
    lobby = win.current_view
    run_until(win, lambda: len(lobby.model.tables) == 1, 10, "the table list")
    click_button(win, lobby, "Watch")
    run_until(win, lambda: isinstance(win.current_view, TableView), 10, "the spectator's table view")
    watcher = win.current_view
    run_until(win, lambda: watcher.state.view is not None, 10, "the spectator view")
    assert watcher.state.view.seat is None and watcher.state.view.hand is None
    assert watcher.hand.t_hand.text == "You are watching"


@pytest.mark.slow
def test_the_lobby_finds_a_server_by_discovery_and_connects_to_it(tmp_path):
    from board99.client.discovery import Listener
    from board99.client.gui.app import App
    from board99.server.loop import run_in_thread

    win = window()
    with Listener(port=0, bind="127.0.0.1") as listener:
        # The beacon goes to loopback only, to this test's own listening port.
        handle = run_in_thread(port=0, data_dir=tmp_path, name="den",
                               beacon={"beacon_port": listener.port, "targets": ("127.0.0.1",), "interval": 0.05})
        application = App(win, name="Tester", discover=lambda: listener.listen(0.5))
        try:
            lobby = application.show_lobby()
            click_button(win, lobby, "Find servers")
            run_until(win, lambda: lobby.model.servers, 10, "the server's beacon")
            port = handle.endpoint.rsplit(":", 1)[1]
            assert lobby.model.servers[0]["name"] == "den" and str(lobby.model.servers[0]["port"]) == port
            click_button(win, lobby, f"den · 127.0.0.1:{port}")
            run_until(win, lambda: application.session is not None and win.current_view is not lobby, 5,
                      "the lobby of the found server")
            assert application.session.endpoint == f"tcp://127.0.0.1:{port}"
            lobby = win.current_view
            click_button(win, lobby, "Create table")
            run_until(win, lambda: len(lobby.model.tables) == 1, 10, "a table on the found server")
        finally:
            application.shutdown()
            handle.stop()
            step(win)


def test_an_illegal_play_on_our_turn_warns_then_the_turn_ends_with_the_penalty(app):
    win = app.window
    tv = app.practice(players=2, mode="penalty", bot="rulebook")
    run_until(win, lambda: table_ready(tv), 15, "the practice table to start")
    # Draw until we hold a card above 0 on our own turn.
    deadline = time.monotonic() + 30
    while not (tv.state.view.turn == tv.state.view.seat and any(c > 0 for c in tv.state.view.hand)):
        assert time.monotonic() < deadline, "never held a card above 0 on our turn"
        v = tv.state.view
        if v.turn == v.seat:
            ply = v.ply
            win.press(arcade.key.D)
            run_until(win, lambda p=ply: tv.state.view.ply != p, 5, "our draw")
        step(win)
    v = tv.state.view
    index, card = next((i, c) for i, c in enumerate(v.hand) if c > 0)
    square = next(sq for sq in range(card) if v.board[sq] is None)  # below the card: an offence
    win.press(DIGITS[index])
    assert not tv.board.highlights[square].visible  # not a square the card allows
    win.click(*tv.geo.square_centre(*POSITION[square]))
    assert tv.state.warning is not None and PENALTY_RULES["illegal-play"] in tv.overlays.t_warn.text
    win.press(arcade.key.ENTER)
    run_until(win, lambda: any(line.startswith("Penalty: You") for line in tv.state.log), 10, "the penalty")
    line = next(line for line in tv.state.log if line.startswith("Penalty: You"))
    assert f"card {card} on square {square}" in line and PENALTY_RULES["illegal-play"] in line
    run_until(win, lambda: tv.state.view.ply > v.ply, 5, "the view after the penalty")
    assert tv.state.view.board[square] is None and card in tv.state.view.discards[0]


@pytest.mark.slow
def test_play_picks_up_an_unfinished_practice_game_after_a_restart(tmp_path):
    """`board99 play` keeps its seat's token: closed mid-game, the next start resumes that game."""
    from board99.client.gui.app import App
    from board99.commands.play import SAVED_SEAT, start_practice_server

    data, saved = tmp_path / "data", tmp_path / "data" / SAVED_SEAT
    win = window()

    def start(players: int) -> tuple[App, TableView]:
        application = App(win, name="Tester", discover=None)
        application.server = start_practice_server(data, bot_delay=0.0)  # stopped by shutdown()
        application.connect(application.server.endpoint)
        tv = application.practice(players=players, mode="guarded", bot="rulebook", saved=saved)
        run_until(win, lambda: table_ready(tv), 15, "the practice table to start")
        return application, tv

    first, tv = start(2)
    try:
        run_until(win, lambda: tv.state.view.turn == tv.state.view.seat, 10, "our turn")
        win.press(arcade.key.D)
        run_until(win, lambda: tv.state.view.hand, 5, "our draw")
        table_id, hand = tv.state.table.id, tv.state.view.hand
        run_until(win, lambda: tv.state.view.turn == tv.state.view.seat, 10, "the bot's answer")
        ply = tv.state.view.ply
    finally:
        first.shutdown()
    assert saved.stat().st_mode & 0o777 == 0o600  # the token is a secret

    again, tv = start(2)
    try:
        assert tv.state.table.id == table_id
        assert tv.state.view.ply == ply and tv.state.view.hand == hand
        # Said as what it is: the player's own game going on, not a game starting (the word that the
        # seat was resumed may come a frame after the table screen's first view).
        run_until(win, lambda: tv.state.log[0].startswith("Welcome back"), 5, "the welcome-back line")
        assert tv.state.log[0] == f"Welcome back: your unfinished game goes on (game 1, deal {tv.state.view.deal})"
        assert not any(line.startswith("Game 1 ") for line in tv.state.log)
    finally:
        again.shutdown()

    other, tv = start(4)  # another kind of game: a new table, and its seat is the one saved now
    try:
        assert tv.state.table.id != table_id and tv.state.view.players == 4
        assert json.loads(saved.read_text())["table"] == tv.state.table.id
    finally:
        other.shutdown()
        step(win, 1)


@pytest.mark.slow
def test_the_lobby_lists_joinable_tables_first_and_the_newest_first(app, server):
    """On a server with more tables than a page holds, a new table is on the first page, not hidden behind old ones."""
    from board99.client.gui.lobby_view import PER_PAGE
    from board99.client.net import GameClient

    win, lobby = app.window, app.lobby
    with GameClient(server.endpoint, name="host", timeout=5.0) as other:
        started = other.create_table("Under way", 2).id
        other.add_bot(started, 0, "random")
        other.add_bot(started, 1, "random")
        for n in range(PER_PAGE + 1):  # one connection may keep only a few waiting tables open
            with GameClient(server.endpoint, name=f"host {n}", timeout=5.0) as host:
                host.create_table(f"T{n}", 2)
    lobby.refresh_now()
    run_until(win, lambda: lobby.model.total == PER_PAGE + 2, 10, "every table counted in the lobby")
    assert [t.name for t in lobby.model.tables] == [f"T{n}" for n in range(PER_PAGE, 0, -1)]  # the newest on top
    step(win, 2)
    assert f"sit-{lobby.model.tables[0].id}-0" in lobby.buttons  # its card is on screen, with a seat to take
    click_button(win, lobby, "Next ›")
    run_until(win, lambda: [t.name for t in lobby.model.tables] == ["T0", "Under way"], 10, "the second page")
