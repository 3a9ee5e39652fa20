"""The settings screen: choices applied to the window, kept in the config file, and back to where the player was."""

from __future__ import annotations

import arcade
import pytest

from board99.client.gui import preferences
from board99.client.gui.preferences import Preferences
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, window

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def app(tmp_path, monkeypatch):
    from board99.client.gui.app import App

    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    win = window()
    win.prefs = Preferences()
    app = App(win, name="Ann", discover=None)
    app.show_lobby()
    step(win, 2)
    yield app
    app.detach()
    win.prefs = Preferences()
    win.sounds.muted = True
    win.show_view(arcade.View())


def click(win, widget) -> None:
    win.click(widget.rect.center_x, widget.rect.center_y)
    step(win, 1)


def buttons(view) -> dict[str, object]:
    """The settings screen's buttons by their text."""
    return {button.text: button for button in view.buttons.values()}


@pytest.mark.slow
def test_saved_settings_reach_the_window_and_the_file_and_the_lobby_comes_back(app):
    win, lobby = app.window, app.lobby
    click(win, lobby.buttons["settings"])
    from board99.client.gui.settings_view import SettingsView

    view = win.current_view
    assert isinstance(view, SettingsView)
    for text in ("muted", "25 %", "slow", "never", "hidden"):
        click(win, buttons(view)[text])
    click(win, buttons(view)["Save"])
    assert win.current_view is lobby
    want = Preferences(muted=True, volume=0.25, animation="slow", threats="never", hints=False)
    assert win.prefs == want
    assert win.sounds.muted and win.sounds.volume == 0.25
    assert preferences.load() == want  # written to $BOARD99_CONFIG, read back as saved


@pytest.mark.slow
def test_cancel_and_esc_change_nothing(app):
    win = app.window
    view = app.show_settings()
    step(win, 1)
    click(win, buttons(view)["slow"])
    assert view.prefs.animation == "slow"
    win.press(arcade.key.ESCAPE)
    step(win, 1)
    assert win.current_view is app.lobby and win.prefs == Preferences()
    assert not preferences.config_path().exists()


@pytest.mark.slow
def test_settings_golden(app):
    app.show_settings()
    step(app.window, 3)
    assert compare_golden(screenshot(app.window), "settings.png") <= MAX_DIFFERENT


@pytest.mark.slow
def test_quit_closes_the_session_and_the_embedded_server_and_leaves_the_loop(app):
    stopped, exited = [], []

    class Server:
        def stop(self) -> None:
            stopped.append(True)

    app.server = Server()
    app.exit_loop = lambda: exited.append(True)
    app.window.dispatch_event("on_key_press", arcade.key.Q, arcade.key.MOD_CTRL)
    assert stopped == [True] and exited == [True] and app.server is None


@pytest.mark.slow
def test_f11_toggles_full_screen_and_remembers_it(app):
    win = app.window
    win.press(arcade.key.F11)
    step(win, 2)
    try:
        assert win.prefs.fullscreen and preferences.load().fullscreen
    finally:
        app.apply_prefs(Preferences(), save=False)
        win.set_size(1280, 800)
        step(win, 2)
    assert not win.fullscreen
