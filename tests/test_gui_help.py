"""The rules screen: every rule from board99.handbook, every offence, and F1/?/Esc from the lobby and the table."""

from __future__ import annotations

import arcade
import pytest

from board99 import OFFENCES
from board99.handbook import HINTS, SECTIONS, penalty_table
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, window

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def app(tmp_path, monkeypatch):
    from board99.client.gui.app import App

    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    win = window()
    app = App(win, name="Ann", discover=None)
    app.show_lobby()
    step(win, 2)
    yield app
    app.detach()
    win.show_view(arcade.View())


@pytest.mark.slow
def test_the_rules_show_every_offence_with_its_penalty_and_every_section(app):
    view = app.show_help()
    step(app.window, 2)
    text = view.all_text()
    assert len(penalty_table()) == len(OFFENCES)
    for row in penalty_table():
        assert row.offence in text and row.penalty in text
    for section in (*SECTIONS, HINTS):
        assert section.title in text and all(p in text for p in section.paragraphs)
    assert "F11" in text and "Ctrl+Q" in text


@pytest.mark.slow
def test_f1_from_the_lobby_opens_the_rules_and_esc_returns(app):
    from board99.client.gui.help_view import HelpView

    win, lobby = app.window, app.lobby
    win.press(arcade.key.F1)
    step(win, 1)
    assert isinstance(win.current_view, HelpView)
    win.press(arcade.key.ESCAPE)
    step(win, 1)
    assert win.current_view is lobby


@pytest.mark.slow
def test_question_mark_opens_the_rules_but_is_a_letter_in_a_text_field(app):
    from board99.client.gui.help_view import HelpView

    win, lobby = app.window, app.lobby
    win.dispatch_event("on_text", "?")
    step(win, 1)
    assert isinstance(win.current_view, HelpView)
    win.press(arcade.key.F1)  # F1 again closes them
    step(win, 1)
    assert win.current_view is lobby
    win.click(lobby.table_name.rect.right - 4, lobby.table_name.rect.center_y)
    win.dispatch_event("on_text", "?")
    step(win, 1)
    assert win.current_view is lobby and lobby.table_name.text == "Table?"


def rules_over_a_table(win):
    """A table on the screen, then F1: the table under the rules screen."""
    from board99.client.gui.table_view import TableView

    table = TableView(sounds=win.sounds)
    win.show_view(table)
    step(win, 1)
    win.press(arcade.key.F1)
    step(win, 1)
    return table


@pytest.mark.slow
def test_f1_from_a_table_opens_the_rules_and_esc_returns_to_the_same_table(app):
    from board99.client.gui.help_view import HelpView

    win = app.window
    table = rules_over_a_table(win)
    assert isinstance(win.current_view, HelpView)
    win.press(arcade.key.ESCAPE)
    step(win, 1)
    assert win.current_view is table


@pytest.mark.slow
def test_learn_from_the_rules_over_a_table_and_back_to_the_same_table(app):
    from board99.client.gui.learn_view import LearnView

    win = app.window
    table = rules_over_a_table(win)
    win.press(arcade.key.L)  # the rules screen is where a player at a table looks first
    step(win, 1)
    assert isinstance(win.current_view, LearnView)
    win.press(arcade.key.ESCAPE)
    step(win, 1)
    assert win.current_view is table


@pytest.mark.slow
def test_the_rules_scroll_and_stop_at_their_end(app):
    view = app.show_help()
    step(app.window, 1)
    assert view.content_height > view.page  # more than one screen at 1280x800
    app.window.press(arcade.key.END)
    assert view.scroll == pytest.approx(view.content_height - view.page)
    app.window.press(arcade.key.PAGEDOWN)
    assert view.scroll == pytest.approx(view.content_height - view.page)
    app.window.press(arcade.key.HOME)
    assert view.scroll == 0


@pytest.mark.slow
def test_rules_golden(app):
    app.show_help()
    step(app.window, 3)
    assert compare_golden(screenshot(app.window), "rules.png") <= MAX_DIFFERENT
