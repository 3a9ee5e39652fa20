"""The lobby's match and rated tables, leaderboard, finished games and tournaments; the player key.

Plain tests read the words and files of ``lobby_lists`` (pure); window tests
run a real arcade window under Xvfb with a stand-in session answering from
fixed data (tests/lobby_data.py), and compare golden screenshots.
"""

from __future__ import annotations

import time

import arcade
import pytest

from board99.client.gui.lobby_cards import setup_words, sides_of, who_sits
from board99.client.gui.lobby_lists import (
    key_problem_words,
    leaderboard_cells,
    name_taken_words,
    pairing_line,
    record_cells,
    standing_cells,
    standings_csv,
)
from board99.client.gui.lobby_panels import export_standings
from board99.client.gui.messages import Failed, Pushed
from board99.client.gui.records import slug
from board99.client.pushes import Notice
from board99.wire.table_info import SeatInfo
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, window
from tests.lobby_data import HISTORY, MATCH_TABLES, RATINGS, RECORD_TEXT, RECORDS, TOURNAMENT, ListsStandIn

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def fixed_world(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "config" / "settings.toml"))
    monkeypatch.setenv("BOARD99_RECORDS", str(tmp_path / "records"))
    monkeypatch.setenv("TZ", "UTC")  # the finished games' times, as the goldens show them
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# -- words (no window) ----------------------------------------------------------------------------


def test_name_taken_is_said_in_plain_words():
    words = name_taken_words("Ann")
    assert words.startswith("Another player already uses the name Ann on this server")
    assert "Use name" in words and "name-taken" not in words
    assert "guest" in key_problem_words("player.key: not a player key")


def test_match_cards_show_format_score_ratings_and_kept_seats():
    ladder, pairs, cup, three = MATCH_TABLES
    assert setup_words(ladder).startswith("First to 3 · 2–1 · ")
    assert setup_words(three).startswith("3 games · 1–2 · ")
    assert [row.title for row in sides_of(ladder)] == ["Red: Ann · 1612", "Blue: Bo · 1540"]
    assert who_sits(SeatInfo(1, 1, "blue", "bot", "rulebook", True, False, rating=1500)) == "rulebook bot · 1500"
    kept = sides_of(cup)[0].seats[0]
    assert kept.who == "kept for Ann (tournament)" and kept.sit_text is None
    assert sides_of(cup, me="ann")[0].seats[0].sit_text == "Sit here (kept for you)"
    assert "Sit" in (sides_of(pairs)[1].seats[0].sit_text or "")


def test_leaderboard_and_records_rows():
    assert leaderboard_cells(1, RATINGS[0]) == ("1", "Ann", "1612 ± 84", "31", "20")
    assert leaderboard_cells(3, RATINGS[2])[1] == "search (bot, fixed)"
    table, game, finished, players, winner, marks = record_cells(RECORDS[2])
    assert (table, game, finished) == ("Friday four", "1", "2025-03-13 19:05")
    assert players == "Ann & Di vs Cy & Bo" and winner == "Cy & Bo" and marks == ""
    assert record_cells(RECORDS[1])[5] == "match · rated"


def test_pairings_say_where_to_sit_and_standings_name_the_tie_breaks():
    lines = [pairing_line(TOURNAMENT, p) for p in TOURNAMENT.pairings if p.round == 2]
    assert lines[0] == "Round 2: Ann (table 3f2a…) vs Eve · 0–0"
    assert pairing_line(TOURNAMENT, TOURNAMENT.pairings[0]).endswith("3–1 · finished")
    assert standing_cells(TOURNAMENT.standings[4]) == ("5", "Bo", "1", "0", "1", "0", "−2", "1")
    csv = standings_csv(TOURNAMENT).splitlines()
    assert csv[0] == "place,entrant,played,points,buchholz,sonneborn_berger,game_difference,games_won"
    assert csv[1] == "1,Ann,1,1,1,1,2,3" and len(csv) == 7


def test_standings_are_never_overwritten(tmp_path):
    first = export_standings(TOURNAMENT, tmp_path / "new")
    second = export_standings(TOURNAMENT, tmp_path / "new")
    stem = f"{slug(TOURNAMENT.name)}-standings-round-{TOURNAMENT.round}"
    assert (first.name, second.name) == (f"{stem}.csv", f"{stem}-copy-2.csv")
    assert first.read_bytes() == second.read_bytes() == standings_csv(TOURNAMENT).encode()


def test_an_unreadable_key_file_leaves_a_guest_and_says_so(tmp_path, monkeypatch):
    from board99.client.gui import app

    key = tmp_path / "config" / "player.key"
    key.parent.mkdir(parents=True)
    key.write_text("not a key\n")
    assert app.load_key()[0] is None and "guest" in (app.load_key()[1] or "")
    key.unlink()
    made, problem = app.load_key()
    assert problem is None and made is not None and len(made) == 64 and key.read_text().strip() == made


# -- the window ----------------------------------------------------------------------------------


def _lobby(**options):
    from board99.client.gui.lobby_view import LobbyView

    win = window()
    lobby = LobbyView(ListsStandIn(), address="192.168.1.20:9099", name="Ann", **options)  # type: ignore[arg-type]
    win.show_view(lobby)
    return win, lobby


@pytest.mark.slow
def test_create_table_sends_the_chosen_match_and_rated():
    win, lobby = _lobby()
    step(win, 2)
    for key in ("match-first-to-5", "rated", "create"):
        win.click(lobby.buttons[key].rect.center_x, lobby.buttons[key].rect.center_y)
        step(win, 1)
    args, kwargs = lobby.session.created[-1]
    assert kwargs == {"match": (("first-to", 5)), "rated": True, "bot_pace": "quick"}
    for key in ("match-games", "games-more", "games-more"):
        win.click(lobby.buttons[key].rect.center_x, lobby.buttons[key].rect.center_y)
        step(win, 1)
    assert lobby.model.form.match == ("games", 5) and lobby.buttons["match-games"].text == "5 games"


@pytest.mark.slow
def test_match_cards_match_golden():
    win, lobby = _lobby()
    lobby.show_tables(MATCH_TABLES)
    step(win, 3)
    assert compare_golden(screenshot(win), "lobby_match.png") <= MAX_DIFFERENT


def _tab(win, lobby, tab: str) -> None:
    b = lobby.buttons[f"tab-{tab}"]
    win.click(b.rect.center_x, b.rect.center_y)
    step(win, 3)


@pytest.mark.slow
def test_leaderboard_matches_golden_and_a_name_opens_the_history():
    win, lobby = _lobby()
    _tab(win, lobby, "leaderboard")
    assert lobby.lists.ratings == RATINGS
    assert compare_golden(screenshot(win), "lobby_leaderboard.png") <= MAX_DIFFERENT
    rect, _ = lobby.links["player-Cy"]
    win.click(rect.left + 8, rect.center_y)
    step(win, 3)
    assert lobby.lists.history is not None and lobby.lists.history.rating.name == "Cy"
    texts = " ".join(w.text for w in lobby.dynamic if hasattr(w, "text"))
    assert "Partners: Di (5 games, 4 won)" in texts and "Opponents: Bo (12 games, 8 won)" in texts
    assert HISTORY.games[0].table_name in texts
    win.click(lobby.buttons["history-back"].rect.center_x, lobby.buttons["history-back"].rect.center_y)
    step(win, 2)
    assert lobby.lists.history is None


@pytest.mark.slow
def test_records_match_golden_open_and_save(tmp_path, monkeypatch):
    opened = []
    win, lobby = _lobby(on_open_record=lambda text, title: opened.append((text, title)))
    monkeypatch.setenv("BOARD99_RECORDS", "/home/ann/Documents/board99")  # the golden shows a fixed folder
    _tab(win, lobby, "records")
    assert compare_golden(screenshot(win), "lobby_records.png") <= MAX_DIFFERENT
    monkeypatch.setenv("BOARD99_RECORDS", str(tmp_path / "records"))
    ladder = lobby.buttons["open-m1-3"]
    win.click(ladder.rect.center_x, ladder.rect.center_y)
    step(win, 2)
    assert opened == [(RECORD_TEXT, "Ladder match · match · 2025-03-14 18:35")]
    assert lobby.session.client.fetched == ("m1", 3, True)  # a match game fetches the whole match
    for _ in range(2):
        save = lobby.buttons["save-t7-1"]
        win.click(save.rect.center_x, save.rect.center_y)
        step(win, 2)
    saved = sorted(p.name for p in (tmp_path / "records").iterdir())
    assert saved == ["friday-four-game-1-copy-2.txt", "friday-four-game-1.txt"]
    assert lobby.model.status.startswith("Saved as friday-four-game-1-copy-2.txt in ")


@pytest.mark.slow
def test_without_a_replay_screen_there_is_no_open():
    win, lobby = _lobby()
    _tab(win, lobby, "records")
    assert "save-m1-3" in lobby.buttons and not any(k.startswith("open-") for k in lobby.buttons)


@pytest.mark.slow
def test_tournament_matches_golden_and_exports_csv(tmp_path):
    win, lobby = _lobby()
    _tab(win, lobby, "tournaments")
    assert compare_golden(screenshot(win), "lobby_tournament.png") <= MAX_DIFFERENT
    texts = " ".join(w.text for w in lobby.dynamic if hasattr(w, "text"))
    for column in ("Points", "Buchholz", "Sonneborn-Berger", "Game diff.", "Games won"):
        assert column in texts
    win.click(lobby.buttons["export"].rect.center_x, lobby.buttons["export"].rect.center_y)
    step(win, 2)
    path = tmp_path / "records" / "spring-cup-standings-round-2.csv"
    assert path.read_text() == standings_csv(TOURNAMENT)
    assert str(path) in lobby.model.status


@pytest.mark.slow
def test_name_taken_is_said_and_another_name_can_be_used():
    win, lobby = _lobby()
    step(win, 2)
    lobby.handle(Pushed(Notice("name-taken", "name: taken", {"type": "error", "code": "name-taken",
                                                            "message": "name: taken"})))
    assert lobby.model.status == name_taken_words("Ann") and "use-name" in lobby.buttons
    lobby.name_input.text = "Bo"  # taken too (the fake server says so)
    lobby.use_name()
    step(win, 2)
    assert lobby.model.status == name_taken_words("Bo")
    lobby.name_input.text = "Ann2"
    win.click(lobby.buttons["use-name"].rect.center_x, lobby.buttons["use-name"].rect.center_y)
    step(win, 2)
    assert lobby.model.status == "You play as Ann2 on this server" and "use-name" not in lobby.buttons
    lobby.handle(Failed("add_bot", "rated-table", "rated"))
    assert "seats people with a player key only" in lobby.model.status


@pytest.mark.slow
@pytest.mark.parametrize("tab", ["tables", "leaderboard", "records", "tournaments"])
def test_every_tab_fits_a_small_window(tab):
    win, lobby = _lobby(on_open_record=lambda text, title: None)
    lobby.show_tables(MATCH_TABLES)
    try:
        win.set_size(1024, 640)
        step(win, 2)
        _tab(win, lobby, tab)
        for key, b in lobby.buttons.items():
            assert 0 <= b.rect.left and b.rect.right <= 1024 and 0 <= b.rect.bottom and b.rect.top <= 640, key
        screenshot(win).save(f"/tmp/board99_small_{tab}.png")
    finally:
        win.set_size(1280, 800)
        step(win, 2)


# -- against a real server ----------------------------------------------------------------------


@pytest.mark.slow
def test_a_real_server_refuses_a_taken_name_then_lists_rated_match_tables_games_and_players(tmp_path):
    from board99.client.gui.app import App
    from board99.client.net import GameClient
    from board99.server.loop import run_in_thread
    from tests.gui_harness import run_until

    server = run_in_thread(port=0, data_dir=tmp_path / "server", bot_delay=0.0)
    win = window()
    owner = GameClient(server.endpoint, name="Ann", key="a" * 64)  # another key already holds "Ann"
    app = App(win, name="Ann", discover=None)
    try:
        owner.hello()
        assert owner.player is not None and owner.player["name"] == "Ann"
        bots = owner.create_table("Bots only", 2, "guarded")  # a finished game for the records list
        owner.add_bot(bots.id, 0, "random")
        owner.add_bot(bots.id, 1, "random")
        app.connect(server.endpoint)
        lobby = app.lobby
        run_until(win, lambda: lobby.model.name_taken, 10, "the lobby to say the name is taken")
        assert lobby.model.status == name_taken_words("Ann")
        lobby.name_input.text = "Ann2"
        lobby.use_name()
        run_until(win, lambda: lobby.model.status == "You play as Ann2 on this server", 10, "the new name accepted")
        for key in ("match-first-to-3", "rated", "create"):
            win.click(lobby.buttons[key].rect.center_x, lobby.buttons[key].rect.center_y)
            step(win, 1)
        run_until(win, lambda: any(t.rated for t in lobby.model.tables), 10, "the rated match table's card")
        table = next(t for t in lobby.model.tables if t.rated)
        assert setup_words(table).startswith("First to 3 · 0–0") and f"bot-{table.id}-0" not in lobby.buttons
        _tab(win, lobby, "leaderboard")
        run_until(win, lambda: bool(lobby.lists.ratings), 10, "the leaderboard")
        assert any(r.bot for r in lobby.lists.ratings)
        _tab(win, lobby, "records")
        run_until(win, lambda: bool(lobby.lists.records), 20, "the bots' finished game")
        entry = lobby.lists.records[0]
        save = lobby.buttons[f"save-{entry.table}-{entry.game}"]
        win.click(save.rect.center_x, save.rect.center_y)
        run_until(win, lambda: lobby.model.status.startswith("Saved as"), 10, "the record saved")
        saved = list((tmp_path / "records").iterdir())
        assert len(saved) == 1 and saved[0].read_text().startswith("# GAME OF 99 record")
        # Open: the app shows the record in the replay viewer, and Esc comes back to this lobby.
        from board99.client.gui.replay_view import ReplayView

        opener = lobby.buttons[f"open-{entry.table}-{entry.game}"]
        win.click(opener.rect.center_x, opener.rect.center_y)
        run_until(win, lambda: isinstance(win.current_view, ReplayView), 10, "the replay viewer")
        win.current_view.on_key_press(arcade.key.ESCAPE, 0)
        step(win, 1)
        assert win.current_view is lobby
        _tab(win, lobby, "tournaments")
        run_until(win, lambda: "tournaments" not in lobby.lists.asked, 10, "the tournaments")
    finally:
        owner.close()
        app.shutdown()
        app.detach()
        server.stop()
        time.sleep(0.05)

        win.show_view(arcade.View())
