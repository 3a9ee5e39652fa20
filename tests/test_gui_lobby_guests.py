"""The web table's address in the window's lobby: the server says it in hello; the lobby shows it and its QR code.

A real server on 127.0.0.1 for what hello says; a real arcade window under Xvfb for the lobby, whose QR
code is read back from the screen's pixels module by module (docs/web.md, "Serving it").
"""

from __future__ import annotations

import pytest

from board99.client.net import GameClient
from board99.server.loop import run_in_thread
from board99.web.address import qr_rows, web_address
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, window
from tests.test_gui_golden import LOBBY_TABLES, StandIn

pytestmark = pytest.mark.timeout(120)
URL = "http://192.168.1.20:9100/"


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))  # never the player's own file


@pytest.mark.parametrize("web", [True, False])
def test_hello_says_where_guests_open_the_web_table_when_the_server_serves_it(tmp_path, web) -> None:
    handle = run_in_thread(data_dir=tmp_path / "data", web_port=0 if web else None)
    try:
        client = GameClient(handle.endpoint, name="Ann", timeout=5)
        try:
            client.hello()
            if web:
                assert client.web == web_address(handle.server.web_port, "127.0.0.1")
                assert client.web == f"http://127.0.0.1:{handle.server.web_port}/"
            else:
                assert client.web is None
        finally:
            client.close()
    finally:
        handle.stop()


class Guests(StandIn):
    """A session whose server serves the web table at URL."""

    web = URL


def guests_lobby():
    from board99.client.gui.lobby_view import LobbyView

    win = window()
    lobby = LobbyView(Guests(), address="192.168.1.20:9099", name="Ann")  # type: ignore[arg-type]
    win.show_view(lobby)
    lobby.show_tables(LOBBY_TABLES)
    step(win, 3)
    return win, lobby


def texts(lobby) -> list[str]:
    return [w.text for w in lobby.dynamic if hasattr(w, "text")]


def test_the_lobby_names_the_guests_address_and_a_window_without_one_shows_none() -> None:
    from board99.client.gui.lobby_view import LobbyView

    win, lobby = guests_lobby()
    assert f"Guests: {URL}" in texts(lobby)
    assert "guests-qr" in lobby.buttons
    plain = LobbyView(StandIn(), address="192.168.1.20:9099", name="Ann")  # type: ignore[arg-type]
    win.show_view(plain)
    step(win, 2)
    assert not any(t.startswith("Guests:") for t in texts(plain)) and "guests-qr" not in plain.buttons


def test_the_qr_code_is_drawn_big_with_its_quiet_zone_and_reads_back_module_by_module() -> None:
    win, lobby = guests_lobby()
    lobby.button_set.actions["guests-qr"]()
    step(win, 2)
    shot = screenshot(win)
    assert lobby.qr is not None
    rows = qr_rows(URL, border=4)
    left, bottom, side = lobby.qr.square(win.width, win.height)
    module = side / len(rows)
    assert module >= 8 and side >= 0.5 * min(win.width, win.height)  # a phone reads it from across a table
    top = win.height - (bottom + side)  # the image's rows run down from the window's top
    wrong = []
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            x, y = int(left + (c + 0.5) * module), int(top + (r + 0.5) * module)
            lum = sum(shot.getpixel((x, y))) / 3
            if (lum < 60) != dark or 60 <= lum <= 195:
                wrong.append((r, c, lum))
    assert not wrong, wrong[:5]
    assert all(not dark for dark in rows[0] + rows[3] + [row[0] for row in rows])  # the quiet zone, light
    assert compare_golden(shot, "lobby_guests_qr.png") <= MAX_DIFFERENT
    lobby.on_mouse_press(10, 10, 1, 0)  # any click closes it
    step(win, 1)
    assert lobby.qr is None


@pytest.mark.slow
def test_the_lobby_with_the_guests_line_matches_golden() -> None:
    win, lobby = guests_lobby()
    assert compare_golden(screenshot(win), "lobby_guests.png") <= MAX_DIFFERENT
