"""The new-table form for Ninety-Nine: the rule set readable on the form, every house option on the "House
rules…" panel (a menu for what each rank does), refusals in the game's words, and table cards that show everyone
the house rules. Pure tests of the form's model, then a real window under Xvfb driven by clicks, with goldens."""

from __future__ import annotations

import pytest

from board99 import kinds
from board99.client.gui.lobby_model import NewTableForm, changed_words, face_words, option_groups
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, table_info, window
from tests.test_gui_golden import LOBBY_TABLES, _seat, stand_in_lobby
from tests.test_gui_kinds import StandIn

pytestmark = pytest.mark.timeout(120)
NN = kinds.get("ninety-nine")


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))  # never the player's own file


def ninety_form() -> NewTableForm:
    form = NewTableForm()
    form.choose_row("game", "ninety-nine")
    return form


def nn_table(players: int, options: dict, **fields) -> object:
    """A Ninety-Nine table as the server lists it: Ann in seat 0, the other seats free, every seat its own side."""
    settings = NN.check_settings(players, "guarded", options)
    seats = [_seat("Ann", "red")] + [_seat(None, None)] * (players - 1)
    table = table_info(seats, players=players, kind="ninety-nine", options=settings.options, **fields)
    return table._replace(seats=tuple(s._replace(side=i) for i, s in enumerate(table.seats)))


# -- the form's model, without a window ----------------------------------------------------------------------


def test_the_form_shows_the_rule_set_by_name_on_two_lines_and_every_other_option_on_the_panel():
    form = ninety_form()
    rows = {row.name: row for row in form.rows()}
    assert list(rows) == ["game", "players", "mode", "option-rules"]
    assert [c.words for c in rows["option-rules"].choices] == ["Glengariff", "Convention", "Tokens", "Three-card"]
    assert rows["option-rules"].lines == 2 and rows["players"].lines == 1  # room to read each name
    listed = [o.name for _, options in form.groups() for o in options]
    assert sorted(listed) == sorted(o.name for o in NN.options if o.name != "rules")  # all 23 others
    assert [heading for heading, _ in form.groups()] == ["Cards and tokens", "Play", "Penalty tables",
                                                          "What each card does"]


def test_a_kind_that_groups_nothing_keeps_its_options_on_the_face():
    lives = kinds.OptionSpec("lives", "Lives", (1, 2, 3), 3)
    many = tuple(kinds.OptionSpec(f"o{i}", f"Option {i}", (0, 1), 0) for i in range(4))

    class Plain:
        options = (lives,)

    class Many:
        options = many

    assert option_groups(Plain()) == ()
    assert option_groups(Many()) == (("More settings", many[2:]),)


def test_the_house_rules_said_are_those_that_differ_from_the_rule_sets_own():
    # Seven cards is Convention's own hand: choosing it is no house rule; five is.
    assert changed_words(NN, {"rules": "convention", "hand_size": 7}) == ()
    assert changed_words(NN, {"rules": "convention", "hand_size": 5, "tokens": 4}) == ("hand 5", "tokens 4")
    assert changed_words(NN, {"rules": "glengariff", "rank_Q": "queen", "rank_A": "1/11", "wrong_total": "token"}) == (
        "wrong total costs a token", "A adds 1 or 11")
    assert face_words(NN, {"rules": "three-card"}) == ("Three-card",)


def test_each_option_names_the_rule_sets_own_choice_from_the_engine():
    spec = {o.name: o for o in NN.options}
    assert spec["hand_size"].default_words({"rules": "three-card"}) == "3"
    assert spec["rank_K"].default_words({"rules": "three-card"}) == "makes the total 99"
    assert spec["rank_Q"].default_words({"rules": "glengariff"}) == "adds 0, the next player may not draw"
    assert spec["decks"].default_words({"rules": "convention"}) == "1, 2 from 6 players"
    assert spec["forgot_draw"].choice_words("next-play") == "next play"


def test_settings_the_game_refuses_are_said_in_its_words_and_nothing_is_sent():
    form = ninety_form()
    assert form.refusal() is None
    form.choose_row("option-wrong_total", "token")
    assert form.refusal() == "A wrong total: a wrong total can only cost a token at a table with tokens"
    form.choose_row("option-tokens", 2)
    assert form.refusal() is None
    form.choose_row("option-rules", "three-card")
    assert form.refusal() == "Players: the Three-card rules (004) are for 3 to 6 players, not 2"


def test_the_panel_opens_only_for_a_game_with_house_options_and_undo_keeps_the_rule_set():
    form = NewTableForm()
    form.open_house()
    assert not form.house_open  # the peg-board game has none
    form.choose_row("game", "ninety-nine")
    form.open_house()
    form.choose_row("option-rules", "tokens")
    form.choose_row("option-hand_size", 6)
    form.open_menu("rank_Q")
    form.choose_row("option-rank_Q", "99")
    assert form.menu is None and form.changed() == ("hand 6", "Q makes the total 99")
    form.reset_house()
    assert form.changed() == () and form.options["rules"] == "tokens"


# -- in a real window -------------------------------------------------------------------------------------------


def _click(win, lobby, key: str) -> None:
    button = lobby.buttons[key]
    win.click(button.rect.center_x, button.rect.center_y)
    step(win, 1)


def _texts(lobby) -> list[str]:
    return [getattr(w, "text", "") for w in lobby.dynamic]


@pytest.mark.slow
def test_a_host_sets_house_rules_with_clicks_and_the_table_is_asked_for_with_them():
    win = window()
    session = StandIn()
    lobby = stand_in_lobby(win, session)
    step(win, 2)
    for key in ("game-ninety-nine", "option-rules-Tokens", "players-4", "house-rules"):
        _click(win, lobby, key)
    # Every house option is on the panel: a row of buttons, or a button opening its menu.
    for option in NN.options[1:]:
        assert f"house-{option.name}-{option.choices[0]}" in lobby.buttons or f"house-{option.name}" in lobby.buttons
    assert "Tokens: 4 · cards dealt to each player" in _texts(lobby)  # the rule set's own, in the engine's words
    for key in ("house-hand_size-5", "house-rank_9", "menu-rank_9-+0"):
        _click(win, lobby, key)
    assert "house-rank_9" in lobby.buttons and lobby.buttons["house-rank_9"].text.startswith("adds 0")
    assert "Tokens: makes the total 99" in _texts(lobby)
    _click(win, lobby, "house-done")
    assert "hand 5, 9 adds 0" in _texts(lobby)  # beside the form's "House rules…" button
    _click(win, lobby, "create")
    args, kwargs = session.client.created[-1]
    assert args[1:3] == (4, "guarded") and kwargs["game"] == "ninety-nine"
    assert {k: v for k, v in kwargs["options"].items() if v != "rule"} == {
        "rules": "tokens", "hand_size": 5, "rank_9": "+0", "wrong_total": "corrected"}
    NN.check_settings(4, "guarded", kwargs["options"])


@pytest.mark.slow
def test_a_refused_table_is_said_in_the_games_words_and_not_asked_for():
    win = window()
    session = StandIn()
    lobby = stand_in_lobby(win, session)
    step(win, 2)
    for key in ("game-ninety-nine", "house-rules", "house-wrong_total-token"):
        _click(win, lobby, key)
    why = "A wrong total: a wrong total can only cost a token at a table with tokens"
    assert f"Not allowed: {why}" in _texts(lobby)
    _click(win, lobby, "create")
    assert session.client.created == [] and lobby.model.status == f"This table cannot be made: {why}"
    assert lobby.model.status_bad


@pytest.mark.slow
def test_table_cards_show_everyone_the_game_its_rule_set_and_its_house_rules():
    win = window()
    lobby = stand_in_lobby(win)
    tables = [nn_table(4, {"rules": "convention", "hand_size": 5, "tokens": 4}, id="n1", name="Cards"),
              nn_table(6, {"rules": "glengariff"}, id="n2", name="Six"), *LOBBY_TABLES[:2]]
    lobby.show_tables(tables)
    step(win, 2)
    texts = _texts(lobby)
    assert "Ninety-Nine · Convention · 4 players · guarded · no clock" in texts
    assert "house rules: hand 5, tokens 4" in texts
    assert not any(t.startswith("house rules") and "Six" in t for t in texts)
    # Six players each alone: two to a line, every seat's buttons inside its card.
    for left, bottom, width, height, table in lobby.card_rects:
        for seat in range(table.players):
            for key in (f"sit-{table.id}-{seat}", f"bot-{table.id}-{seat}"):
                if key in lobby.buttons:
                    r = lobby.buttons[key].rect
                    assert left <= r.left and r.right <= left + width and bottom <= r.bottom <= bottom + height, key


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_the_form_and_the_panel_fit_small_and_large_windows(size):
    win = window()
    try:
        win.set_size(*size)
        step(win, 2)
        lobby = stand_in_lobby(win)
        lobby.model.form.choose_row("game", "ninety-nine")
        lobby.model.form.open_house()
        lobby.build()
        step(win, 2)
        rects = {key: b.rect for key, b in lobby.buttons.items() if key.startswith(("house", "option", "create"))}
        for key, r in rects.items():
            assert 0 <= r.left and r.right <= win.width and 0 <= r.bottom and r.top <= win.height, key
        keys = sorted(rects)
        for i, a in enumerate(keys):  # no two buttons overlap
            for b in keys[i + 1:]:
                ra, rb = rects[a], rects[b]
                assert (ra.right <= rb.left + 1 or rb.right <= ra.left + 1 or ra.top <= rb.bottom + 1
                        or rb.top <= ra.bottom + 1), (a, b)
        assert lobby.buttons["create"].rect.bottom > lobby.box(0, 766, 1, 1)[1]  # above the status line
    finally:
        win.set_size(1280, 800)
        step(win, 2)


@pytest.mark.slow
def test_the_ninety_nine_form_and_cards_match_golden():
    win = window()
    lobby = stand_in_lobby(win)
    lobby.show_tables([nn_table(4, {"rules": "convention", "hand_size": 5, "tokens": 4}, id="n1", name="Cards"),
                       nn_table(6, {"rules": "glengariff"}, id="n2", name="Six"), *LOBBY_TABLES[:3]])
    lobby.model.form.choose_row("game", "ninety-nine")
    lobby.model.form.choose_row("option-rules", "glengariff")
    lobby.build()
    step(win, 2)
    assert compare_golden(screenshot(win), "lobby_ninety_form.png") <= MAX_DIFFERENT


@pytest.mark.slow
@pytest.mark.parametrize(("menu", "golden"), [(None, "lobby_house_rules.png"), ("rank_Q", "lobby_house_menu.png")])
def test_the_house_rules_panel_and_a_ranks_menu_match_golden(menu, golden):
    win = window()
    lobby = stand_in_lobby(win)
    form = lobby.model.form
    form.choose_row("game", "ninety-nine")
    form.choose(players=4)
    form.choose_row("option-rules", "glengariff")
    form.open_house()
    for name, value in (("hand_size", 5), ("tokens", 2), ("rank_7", "face"), ("wrong_total", "token")):
        form.choose_row(f"option-{name}", value)
    form.open_menu(menu)
    lobby.build()
    step(win, 2)
    assert compare_golden(screenshot(win), golden) <= MAX_DIFFERENT



@pytest.mark.slow
def test_a_table_with_house_rules_made_on_a_real_server_shows_them_on_its_card(tmp_path):
    from board99.client.gui.app import App
    from board99.server.loop import run_in_thread
    from tests.gui_harness import run_until

    server = run_in_thread(port=0, data_dir=tmp_path, bot_delay=0.0)
    win = window()
    app = App(win, name="Ann", discover=None)
    try:
        app.connect(server.endpoint)
        lobby = app.lobby
        assert lobby is not None
        run_until(win, lambda: "game-ninety-nine" in lobby.buttons, 10, "the game row")
        for key in ("game-ninety-nine", "option-rules-Tokens", "players-4", "house-rules", "house-hand_size-5",
                    "house-rank_K", "menu-rank_K-99", "house-done", "create"):
            _click(win, lobby, key)
        run_until(win, lambda: bool(lobby.model.tables), 10, "the new table's card")
        (table,) = lobby.model.tables
        assert (table.kind, table.players, dict(table.options)["hand_size"]) == ("ninety-nine", 4, 5)
        texts = _texts(lobby)
        assert "Ninety-Nine · Tokens · 4 players · guarded · no clock" in texts
        assert "house rules: hand 5, K makes the total 99" in texts
    finally:
        app.shutdown()
        step(win, 1)
        server.stop()


def test_a_penalty_tables_bots_move_at_a_persons_pace_unless_the_host_picks_a_pace() -> None:
    """Penalty practice needs time: to act out of turn, or to draw before the next player (a bot) plays."""
    form = NewTableForm()
    assert form.bot_pace == "quick"
    form.choose(mode="penalty")
    assert form.bot_pace == "person" and form.request("t").bot_pace == "person"
    form.choose(mode="guarded")
    assert form.bot_pace == "quick"
    form.choose(mode="penalty")
    form.choose(bot_pace="quick")  # the host's own choice stands whatever the mode
    form.choose(mode="guarded")
    form.choose(mode="penalty")
    assert form.bot_pace == "quick"
