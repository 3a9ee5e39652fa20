"""Golden screenshots of the lobby and a mid-game 4-player table, in a real window under Xvfb."""

from __future__ import annotations

import arcade
import pytest

from board99 import Draw, Play, fits
from board99.client.gui.messages import Events, StateChanged
from board99.client.gui.table_intents import Attempt, Pick
from board99.events import Dealt, Tied
from board99.layout import LAYOUT, POSITION
from tests.gui_harness import MAX_DIFFERENT, compare_golden, midgame_4p, screenshot, step, table_info, window

pytestmark = pytest.mark.timeout(120)


class StandIn:
    """Only what the lobby reads of a session, so the golden lobby shows fixed tables (real ids are random)."""

    endpoint = "tcp://192.168.1.20:9099"
    key = "a" * 64  # the window's player key, which the server knows as Ann:
    player = {"name": "Ann", "rating": 1612, "spread": 84, "games": 31}  # as on the leaderboard

    def drain(self) -> list[dict]:
        return []

    def list_tables(self) -> None:
        pass

    def kept(self) -> dict:
        return {"t3": object()}  # Ann left 'Tuesday six' during its game: the card offers her seat back


def stand_in_lobby(win, session=None):
    """The lobby of a stand-in session (Ann at 192.168.1.20:9099), shown in ``win``."""
    from board99.client.gui.lobby_view import LobbyView

    lobby = LobbyView(session or StandIn(), address="192.168.1.20:9099", name="Ann")  # type: ignore[arg-type]
    win.show_view(lobby)
    return lobby


def _seat(name: str | None, colour: str | None, occupant: str | None = "human", **more: object) -> dict:
    return {"colour": colour, "occupant": occupant if name else None, "name": name, "connected": bool(name), **more}


LOBBY_TABLES = [
    table_info([_seat("Ann", "red"), _seat(None, None), _seat("rulebook", "red", "bot"), _seat(None, None)],
               id="t1", name="Friday four", players=4, mode="guarded", clock=30.0, state="waiting"),
    table_info([_seat("Bo", "blue"), _seat("random", "green", "bot")],
               id="t2", name="Rules practice", players=2, mode="penalty", clock=None, state="playing",
               spectators=2, bot_pace="person"),
    table_info([_seat("Ann", "yellow", standin=True, left=True), _seat("Cy", "purple"), _seat("Di", "orange"),
                _seat("search", "yellow", "bot"), _seat("Eve", "purple"), _seat("Fay", "orange", connected=False)],
               id="t3", name="Tuesday six", players=6, mode="penalty", clock=60.0, state="playing", game=2),
    table_info([_seat("Gil", "green"), _seat(None, None), _seat(None, None)],
               id="t4", name="Three's company with a very long name indeed", players=3, mode="guarded",
               clock=15.0, state="waiting"),
    table_info([_seat("Hal", "red"), _seat(None, "blue")],
               id="t5", name="Last night", players=2, mode="guarded", clock=None, state="over"),
]


@pytest.fixture
def table_view():
    from board99.client.gui.table_view import TableView

    win = window()
    view, table, events = midgame_4p()
    tv = TableView(sounds=win.sounds)
    win.show_view(tv)
    tv.handle(StateChanged(view, table, True))
    tv.handle(Events(tuple(events)))
    tv.state.motions.finish()  # the golden shows the table at rest (motion has its own tests)
    step(win, 2)
    return tv


@pytest.mark.slow
def test_lobby_matches_golden():
    from board99.client.gui.lobby_view import LobbyView

    win = window()
    lobby = LobbyView(StandIn(), address="192.168.1.20:9099", name="Ann")  # type: ignore[arg-type]
    lobby.model.servers = [{"name": "Ann's server", "host": "192.168.1.20", "port": 9099, "key": None}]
    win.show_view(lobby)
    lobby.show_tables(LOBBY_TABLES)
    step(win, 3)
    assert compare_golden(screenshot(win), "lobby.png") <= MAX_DIFFERENT


def test_midgame_table_matches_golden(table_view):
    win = table_view.window
    table_view.perform(Pick(1))  # card 44: the free squares 44-99 light up
    step(win, 2)
    assert compare_golden(screenshot(win), "table_4p.png") <= MAX_DIFFERENT


def test_picked_card_highlights_exactly_the_free_squares_it_allows(table_view):
    view = table_view.state.view
    table_view.perform(Pick(1))
    card = view.hand[1]
    lit = {sq for sq, s in enumerate(table_view.board.highlights) if s.visible}
    assert lit == {sq for sq in range(100) if view.board[sq] is None and fits(card, sq)}


def test_every_peg_shows_its_side_and_the_log_names_the_penalty_rule(table_view):
    view = table_view.state.view
    shown = {sq for sq, s in enumerate(table_view.board.pegs) if s.visible}
    assert shown == {sq for sq in range(100) if view.board[sq] is not None}
    assert any(line.startswith("Penalty: Cy discarded out of turn") and "Rule: discard out of turn" in line
               for line in table_view.state.log)
    assert "misses 1 turn" in table_view.seats.t_seats[2].text


def test_click_on_a_square_is_a_play_of_the_picked_card(table_view):
    sent = []

    class Recorder:
        def act(self, action, ply=None):
            sent.append(action)

        def drain(self):
            return []

    table_view.session = Recorder()
    win = table_view.window
    free = next(sq for sq in range(44, 100) if table_view.state.view.board[sq] is None)
    win.press(arcade.key.KEY_2)
    x, y = table_view.geo.square_centre(*POSITION[free])
    win.click(x, y)
    assert sent == [Play(44, free)]
    assert LAYOUT[POSITION[free][0]][POSITION[free][1]] == free


@pytest.mark.slow
def test_window_resizes_and_keeps_the_board_inside(table_view):
    win = table_view.window
    try:
        for size in ((1024, 700), (1600, 960)):
            win.set_size(*size)
            step(win, 3)
            g = table_view.geo
            assert (g.width, g.height) == size
            assert g.board.left >= 0 and g.board.top <= size[1] and g.board.right <= g.panel.left
            assert table_view.board.board_sprite.width == pytest.approx(g.board.width)
    finally:
        win.set_size(1280, 800)
        step(win, 2)


def test_guarded_mode_shows_draw_disabled_with_the_reason_when_it_is_not_our_turn(table_view):
    view = table_view.state.view._replace(mode="guarded", turn=1)
    table_view.handle(StateChanged(view, None, True))
    step(table_view.window)
    assert table_view.panel.b_draw.disabled and table_view.panel.b_discard.disabled
    assert "Draw, Play, Discard: it is Ben (bot)'s turn" in table_view.panel.t_disabled.text
    table_view.perform(Attempt(Draw()))
    assert table_view.state.notice == "Not possible now: it is Ben (bot)'s turn"


def test_a_tie_and_the_replayed_deal_are_announced(table_view):
    table_view.handle(Events((Tied(1), Dealt(2, (40, 7, 93, 12), 1))))
    step(table_view.window)
    assert "Tie in deal 1: deck and hands are empty. The deal is replayed." in table_view.state.log
    assert "Deal 2: Ben (bot) drew the lowest card and starts" in table_view.panel.t_toasts.text
    assert table_view.panel.toast_back.visible  # in the panel: nothing covers the board


def test_the_turn_clock_counts_down_for_the_seat_to_play(table_view):
    table = table_view.state.table._replace(clock=30.0)
    table_view.handle(StateChanged(table_view.state.view, table, True))
    now = table_view.state.clock()
    table_view.state.clock = lambda: now  # held still: the figure must not depend on how long a frame takes
    table_view.state.turn_clock.turn_started = now - 12.2  # the turn began 12.2 s ago
    step(table_view.window)
    assert "Turn clock: 18 s of 30" in table_view.panel.t_deck.text


def test_the_turn_clock_shows_the_servers_time_left_when_the_table_carries_it(table_view):
    table_view.handle(StateChanged(table_view.state.view, table_view.state.table._replace(clock=30.0, turn_left=9.6),
                                   True))
    step(table_view.window)
    assert "Turn clock: 10 s of 30" in table_view.panel.t_deck.text
