"""A match at the table, saving records and a spectator's look back, in a real window (and the state alone).

Goldens: table_match_strip.png (mid-match, 4 players, rated), table_match_result.png (the decided match).
"""

from __future__ import annotations

import arcade
import pytest

from board99 import Game
from board99.bots import make_bot
from board99.client.gui import records
from board99.client.gui.messages import Events, Failed, Replied, StateChanged
from board99.client.gui.table_intents import FetchHistory, FetchRecord, LookBack, SaveRecord
from board99.client.gui.table_state import TableState
from board99.events import shown_to
from board99.match import GameResult, to_result
from board99.record import Record
from board99.wire.table_info import MatchInfo
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, table_info, window

pytestmark = pytest.mark.timeout(180)
NAMES = ["Ann", "Ben", "Cy", "Di"]


def match_table(results: tuple[GameResult, ...], game: int, state: str = "playing", rated: bool = True):
    seats = [{"colour": ("red", "blue")[s % 2], "occupant": "human", "name": NAMES[s], "connected": True,
              "rating": (1512, 1480, 1603, 1391)[s] if rated else None} for s in range(4)]
    return table_info(seats, id="m1", name="Den", players=4, mode="guarded", state=state, game=game, rated=rated,
                      match=MatchInfo("first-to", 3, 1, tuple(to_result(r, 2) for r in results)))


RESULTS = (GameResult(1, 0, 2, (72, 58, 20, 14, 4), 1), GameResult(2, 1, 1, (90, 91, 92, 93, 94), 2),
           GameResult(3, 0, 0, (11, 12, 13, 14, 15), 1))


def bot_game(players: int = 4, seed: int = 7, until: int | None = None) -> Game:
    game = Game(players, seed=seed)
    bots = [make_bot("rulebook", seed=s) for s in range(players)]
    while (seat := game.turn) is not None and (until is None or game.ply < until):
        game.apply(seat, bots[seat].choose(game.view(seat)))
    return game


class Recorder:
    """Only what the table sends a session: its calls, kept."""

    endpoint = "tcp://127.0.0.1:1"

    def __init__(self) -> None:
        self.calls: list = []

    def call(self, op, run) -> None:
        self.calls.append(op)

    def submit(self, op, run, then=None) -> None:
        self.calls.append(op)

    def drain(self) -> list:
        return []


@pytest.fixture
def tv():
    from board99.client.gui.table_view import TableView

    win = window()
    view = TableView(sounds=win.sounds)
    win.show_view(view)
    yield view
    win.set_size(1280, 800)
    step(win, 2)


# -- the state alone -----------------------------------------------------------------------------------


def test_the_match_result_box_opens_once_when_the_match_is_decided_and_esc_closes_it():
    state = TableState()
    state.online = True
    over = bot_game()
    state.show(over.view(0), match_table(RESULTS[:2], 2, "over"))
    assert not state.match_open and not state.match_decided  # 1-1: the match goes on
    decided = match_table(RESULTS + (GameResult(4, 0, 2, (1, 2, 3, 4, 5), 1),), 4, "over")
    state.show(over.view(0), decided)
    assert state.match_decided and state.match_open
    state.perform(state.key("escape"))
    assert not state.match_open
    state.show(over.view(0), decided)
    assert not state.match_open  # the same decided match does not open it again


def test_save_record_asks_for_the_match_record_at_a_match_table_and_says_where_it_went(tmp_path):
    state = TableState()
    state.online = True
    state.show(bot_game().view(0), match_table(RESULTS, 3, "over"))
    commands = state.perform(SaveRecord())
    # Named for the games it holds (games 1 to 3), not "match-from-game-1", which a copy's -2 made read "games 1-2".
    assert commands == (FetchRecord("m1", 3, True, "den-match-games-1-to-3"),)
    assert state.notice == "Saving the record…"
    state.receive(Replied("save_record", tmp_path / "den-match-games-1-to-3.txt"))
    assert state.toasts[-1].text == f"Saved as den-match-games-1-to-3.txt in {tmp_path}"
    state.receive(Failed("save_record", "no-record", "no finished game yet"))
    assert state.notice == "The record was not saved: no finished game yet"


def test_left_looks_back_only_for_a_spectator_of_a_game_under_way():
    state = TableState()
    state.online = True
    game = bot_game(until=12)
    state.show(game.view(0), match_table((), 1, rated=False))
    assert state.perform(state.key("left")) == () and "watch" in state.notice
    state.show(game.view(None))
    assert state.key("left") == LookBack() and state.perform(LookBack()) == (FetchHistory(),)


def test_records_are_never_overwritten(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_RECORDS", str(tmp_path / "recs"))
    first = records.write_new("one", "den-game-2")
    second = records.write_new("two", "den-game-2")
    third = records.write_new("three", "den-game-2")
    assert [p.name for p in (first, second, third)] == ["den-game-2.txt", "den-game-2-copy-2.txt",
                                                         "den-game-2-copy-3.txt"]
    assert first.read_text() == "one" and third.read_text() == "three"
    assert records.file_stem("Friday four!", 2) == "friday-four-game-2"
    assert records.file_stem("Friday match", 2, 1) == "friday-match-match-games-1-to-2"
    assert records.file_stem("Friday match", 1, 1) == "friday-match-match-game-1"
    again = records.write_new("again", records.file_stem("Friday match", 2, 1))
    assert records.write_new("again", records.file_stem("Friday match", 2, 1)).name == \
        "friday-match-match-games-1-to-2-copy-2.txt" and again.name == "friday-match-match-games-1-to-2.txt"
    assert records.shown_path(records.records_dir()) == str(tmp_path / "recs")  # outside the home folder
    monkeypatch.setenv("HOME", str(tmp_path))
    assert records.shown_path(records.records_dir()) == "~/recs"


# -- in the window -------------------------------------------------------------------------------------


def test_the_score_strip_mid_match_with_ratings_matches_its_golden(tv):
    win = tv.window
    game = bot_game(until=40)
    tv.handle(StateChanged(game.view(0), match_table(RESULTS[:2], 3), True))
    step(win, 2)
    assert tv.match.t_strip_head.text == "First to 3 · game 3" and tv.match.t_strip_score.text == "Red 1 – Blue 1"
    assert "Ann · 1512 (you)" in tv.seats.t_seats[0].text and "Rated" in tv.panel.t_status.text
    assert tv.panel.b_rematch.text == "Next game"
    strip = tv.match.strip_back
    for seat in range(4):  # the strip covers no seat's label and stays off the board and the panel
        label = tv.seats.t_seats[seat]
        assert label.y - label.content_height >= strip.top or label.y <= strip.bottom or label.x >= strip.right \
            or label.x + label.content_width <= strip.left
    assert strip.right <= tv.geo.panel.left and strip.bottom >= tv.geo.board.top
    assert compare_golden(screenshot(win), "table_match_strip.png") <= MAX_DIFFERENT


def test_the_match_result_box_matches_its_golden_and_its_buttons_work(tv):
    win = tv.window
    rec = Recorder()
    tv.session = rec
    game = bot_game()
    final = RESULTS + (GameResult(4, 0, 2, tuple(game.winning_line), 1),)
    table = match_table(final, 4, "over")
    tv.handle(StateChanged(game.view(0), table, True))
    step(win, 2)
    assert tv.match.box_shown and tv.match.t_title.text == "You won the match"  # red 3, blue 1
    lines = tv.match.t_lines.text
    assert lines.startswith("First to 3: Red 3 – Blue 1") and "Game 2: Blue. Ben completed 90–91–92–93–94 (2 deals)" \
        in lines and "Red: Ann & Cy" in lines and "Blue: Ben & Di" in lines
    assert tv.panel.b_rematch.text == "New match"
    assert compare_golden(screenshot(win), "table_match_result.png") <= MAX_DIFFERENT
    win.click(*tv.match.b_save.rect.center)
    assert rec.calls == ["save_record"] and tv.match.box_shown  # the box stays while saving
    win.press(arcade.key.ESCAPE)
    step(win)
    assert not tv.match.box_shown and tv.board.line.visible


def test_save_record_from_the_end_of_game_box_writes_a_new_file(tv, tmp_path, monkeypatch):
    """The session's save_record on a stand-in client: the record fetched, written, and the toast says where."""
    from board99.client.gui import session as session_module

    monkeypatch.setenv("BOARD99_RECORDS", str(tmp_path))
    game = bot_game(players=2)
    text = Record.of(game).dumps()

    class Client:
        def fetch_record(self, table, game=None, match=False):
            assert (table, game, match) == ("t", 1, False)
            return text

    class Inline(Recorder):
        """Runs each call at once on a stand-in client, and gives its reply back on the next drain."""

        def __init__(self) -> None:
            super().__init__()
            self.out: list = []

        def call(self, op, run) -> None:
            self.out.append(Replied(op, run(Client())))

        def submit(self, op, run, then=None) -> None:
            result = run(Client())
            self.out.append(Replied(op, result if then is None else then(result)))

        def drain(self) -> list:
            out, self.out = self.out, []
            return out

    win = tv.window
    tv.session = Inline()
    table = table_info([{"colour": "red", "occupant": "human", "name": "Ann", "connected": True},
                        {"colour": "blue", "occupant": "bot", "name": "rulebook", "connected": True}],
                       name="Den", state="over")
    winner = game.log[-1][0]
    tv.handle(StateChanged(game.view(0), table, True))
    tv.handle(Events(tuple(shown_to(e, 0) for e in game.log[-1][2])))
    step(win, 2)
    assert tv.panel.b_save.visible and winner == 0  # seed 7: S0 completes the line
    for _ in range(2):
        win.click(*tv.panel.b_save.rect.center)
        step(win, 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["den-game-1-copy-2.txt", "den-game-1.txt"]
    assert (tmp_path / "den-game-1.txt").read_text() == text
    assert tv.state.toasts[-1].text == f"Saved as den-game-1-copy-2.txt in {records.shown_path(tmp_path)}"
    assert session_module.save_record is not None


@pytest.mark.slow
def test_a_spectator_looks_back_and_comes_back_to_the_live_table(tv):
    from board99.client.gui.replay_view import ReplayView

    win = tv.window
    rec = Recorder()
    tv.session = rec
    game = bot_game(until=20)
    table = match_table((), 1, rated=False)
    tv.handle(StateChanged(game.view(None), table, True))
    step(win, 2)
    assert tv.panel.b_look.visible
    win.press(arcade.key.LEFT)
    assert rec.calls == ["history"]
    replay = Game(4, seed=7)
    views = [replay.view(None)]
    for seat, action, _ in game.log:
        replay.apply(seat, action)
        views.append(replay.view(None))
    tv.handle(Replied("history", (Record.of(game, reveal=False).lines, views)))
    step(win, 2)
    looking = win.current_view
    assert isinstance(looking, ReplayView) and looking.cursor.at_end
    assert looking.frame.hands is None  # public only: every hand shows as backs, one per card held
    backs = [sum(1 for c in row if c.visible) for row in looking.seats.cards[:4]]
    assert backs == list(game.view(None).hand_sizes)
    win.press(arcade.key.LEFT)
    assert not looking.cursor.at_end and "Ann" in looking.seats.t_names[0].text
    win.press(arcade.key.END)  # back to the live game
    assert win.current_view is tv
    tv.on_key_press(arcade.key.LEFT, 0)
    tv.handle(Replied("history", (Record.of(game, reveal=False).lines, views)))
    win.press(arcade.key.RIGHT)  # at the live end: Right goes back too
    assert win.current_view is tv


def test_against_a_real_server_the_match_record_is_saved_and_the_history_makes_frames(tmp_path, monkeypatch):
    """Two bots play a first-to-1 match on a real server; the window's calls save its record and look back."""
    import time

    from board99.client.gui import replay_model
    from board99.client.gui.session import Session, history, save_record
    from board99.client.net import GameClient
    from board99.match import MatchFormat, MatchRecord
    from board99.server.loop import run_in_thread

    monkeypatch.setenv("BOARD99_RECORDS", str(tmp_path / "records"))
    server = run_in_thread(0, tmp_path / "data")
    try:
        with GameClient(server.endpoint, name="watcher") as client:
            table = client.create_table("Den", 2, "guarded", match=MatchFormat("first-to", 1))
            client.add_bot(table.id, 0, "random")
            client.add_bot(table.id, 1, "random")
            client.spectate(table.id)
            deadline = time.monotonic() + 60
            while client.table is None or client.table.state != "over":
                assert time.monotonic() < deadline, "the bots' game did not end"
                client.poll(0.2)
            info = client.table
            assert info.match is not None and info.match.over(info.sides)
            lines, views = client.history()
            frames = replay_model.frames_from_history(lines, views, info)
            assert frames[-1].result is not None and frames[-1].view.line == views[-1].line
        session = Session(server.endpoint, name="saver")
        try:
            stem = records.file_stem("Den", info.game, info.match.first_game)
            save_record(session, info.id, info.game, True, stem)
            history(session)  # the saver follows no table: the server says so, as a Failed message
            replies: list = []
            deadline = time.monotonic() + 20
            while len(replies) < 2:
                assert time.monotonic() < deadline, f"no reply: {replies}"
                replies += [m for m in session.drain() if isinstance(m, Replied | Failed)]
                time.sleep(0.02)
        finally:
            session.close()
        saved = next(m for m in replies if m.op == "save_record")
        assert isinstance(saved, Replied), saved
        assert saved.result == tmp_path / "records" / "den-match-game-1.txt"
        record, results = MatchRecord.loads(saved.result.read_text(encoding="utf-8"))
        assert len(results) == 1 and replay_model.load(saved.result.read_text(encoding="utf-8")).frames
        failed = next(m for m in replies if m.op == "history")
        assert isinstance(failed, Failed)
    finally:
        server.stop()


def test_a_new_game_clears_the_last_games_vote_line_and_since_your_turn_and_the_words_match_the_button():
    from board99.client.gui import wording
    from board99.client.gui.table_intents import Rematch

    state = TableState()
    state.online = True
    first = bot_game(seed=7)
    state.show(first.view(0), match_table(RESULTS[:1], 1, "playing"))
    state.take_events([shown_to(e, 0) for e in first.log[-1][2]])
    for seat, _action, events in first.log[-6:]:
        if seat != 0:
            state.take_events([shown_to(e, 0) for e in events])
    assert state.since  # others moved since the player's last move in game 1
    over = match_table(RESULTS[:1], 1, "over")._replace(votes=(1,))
    state.show(first.view(0), over)
    assert wording.rematch_label(over) == "Next game"
    state.perform(Rematch())
    # Said in the button's own words, in the notice and in the status.
    assert state.notice == "Next game asked for"
    status = wording.status_lines(first.view(0), over, True, None)
    assert "Next game asked by Ben" in status and not any("Rematch" in line for line in status)
    second = Game(4, seed=8)
    state.show(second.view(0), match_table(RESULTS[:1], 2, "playing"))
    state.take_events([shown_to(e, 0) for e in second.opening])
    assert not state.since  # the last game's moves are gone
    assert "asked" not in state.notice
    casual = table_info([{"colour": "red", "occupant": "human", "name": "Ann", "connected": True},
                         {"colour": "blue", "occupant": "human", "name": "Bo", "connected": True}],
                        name="Den", state="over", votes=(1,))
    assert "Rematch asked by Bo" in wording.status_lines(None, casual, True, None)
