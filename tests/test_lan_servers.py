"""Forged beacons cannot hide the real server (issue 19): every server found is reachable in the lobby, the
trusted (a pinned key, a server used before) come first, marked, and are kept however many strangers call.

Forgeries come from other loopback addresses (127.0.0.2 and up: on a LAN a source address can be forged),
named to sort first. Nothing is sent anywhere but 127.0.0.0/8; the window runs under Xvfb.
"""

from __future__ import annotations

import socket
import time

import arcade
import pytest
import zmq

from board99.client import known_servers
from board99.client.discovery import MAX_FAVOURED, MAX_HEARD, Listener
from board99.server.beacon import Beacon
from board99.server.loop import run_in_thread
from board99.wire.beacon import beacon_payload
from tests.gui_harness import run_until, screenshot, step, window

pytestmark = pytest.mark.timeout(120)
LOOPBACK = ("127.0.0.1",)
#: Forging hosts, each sending beacons for 4 ports (the most one host gets): 160 strangers.
FORGERS = 40
#: In the window, fewer (each arrow click rebuilds the lobby): 12 strangers, seven pages with the real one.
WINDOW_FORGERS = 3


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))  # never the player's own files


def forge(beacon_port: int, hosts: int = FORGERS, key: str | None = None) -> int:
    """Beacons named "!den…" from 127.0.0.2 onwards, 4 ports each; how many were sent."""
    sent = 0
    for h in range(hosts):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind((f"127.0.0.{h + 2}", 0))
            for p in range(4):
                s.sendto(beacon_payload(f"!den {h}-{p}", 20000 + p, key), ("127.0.0.1", beacon_port))
                sent += 1
    return sent


def announce(beacon_port: int, name: str, port: int, key: str | None) -> None:
    """The real server's beacon, from 127.0.0.1, as its Beacon sends it (three times, as over a few intervals)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        for _ in range(3):
            s.sendto(beacon_payload(name, port, key), ("127.0.0.1", beacon_port))


@pytest.mark.slow
def test_a_server_used_before_is_kept_and_first_however_many_strangers_call() -> None:
    key = zmq.curve_keypair()[0].decode()
    known = [{"name": "den", "host": "127.0.0.1", "port": 9123, "key": key, "used": 1.0}]
    with Listener(port=0, bind="127.0.0.1") as listener:
        # Every stranger's place is taken before the real server is heard (sent in that order, so the
        # order is the test's, not a beacon thread's timing).
        forge(listener.port)
        announce(listener.port, "den", 9123, key)
        strangers_only = listener.listen(0.3)
        forge(listener.port)
        announce(listener.port, "den", 9123, key)
        heard = listener.listen(0.3, favoured=lambda s: known_servers.mark(s, known, None) is not None)
    assert "den" not in [s["name"] for s in strangers_only]  # the caps alone would have lost it
    arranged = known_servers.arrange(heard, known, None)
    assert arranged[0] == {"name": "den", "host": "127.0.0.1", "port": 9123, "key": key, "mark": "used"}
    assert len(heard) <= MAX_HEARD + MAX_FAVOURED and len(heard) == 1 + MAX_HEARD


def test_a_beacon_copying_a_known_name_or_key_from_elsewhere_is_a_stranger() -> None:
    key = zmq.curve_keypair()[0].decode()
    known = [{"name": "den", "host": "10.0.0.5", "port": 9099, "key": key, "used": 1.0}]
    assert known_servers.mark({"name": "den", "host": "10.0.0.6", "port": 9099, "key": key}, known, None) is None
    assert known_servers.mark({"name": "den", "host": "10.0.0.5", "port": 9099, "key": None}, known, None) is None
    assert known_servers.mark({"name": "x", "host": "10.0.0.7", "port": 1, "key": key}, known, key) == "pinned"


def test_the_list_of_servers_used_is_bounded_and_survives_a_broken_file(tmp_path) -> None:
    path = tmp_path / "servers.json"
    for n in range(known_servers.MOST_KNOWN + 5):
        known_servers.remember(f"10.0.0.{n}", 9099, None, f"s{n}", path)
    kept = known_servers.load(path)
    assert len(kept) == known_servers.MOST_KNOWN and kept[0]["host"] == f"10.0.0.{known_servers.MOST_KNOWN + 4}"
    path.write_text("{not json", encoding="utf-8")
    assert known_servers.load(path) == []


def centre(widget) -> tuple[float, float]:
    return widget.rect.center_x, widget.rect.center_y


@pytest.mark.slow
def test_the_lobby_lists_every_server_found_the_one_used_before_first_and_marked(tmp_path) -> None:
    from board99.client.gui.app import App, _discover

    server = run_in_thread(port=0, data_dir=tmp_path / "data")
    with Listener(port=0, bind="127.0.0.1") as probe:
        beacon_port = probe.port
    known_servers.remember("127.0.0.1", server.port, None, "den")  # played there last week
    win = window()
    app = App(win, name="Ann", discover=lambda: _discover(None, port=beacon_port, bind="127.0.0.1"))
    real = Beacon("den", server.port, beacon_port=beacon_port, targets=LOOPBACK, interval=0.05)
    try:
        lobby = app.show_lobby()
        step(win, 2)
        win.click(*centre(lobby.buttons["find"]))
        time.sleep(0.1)  # discovery is listening: the strangers call first, then the real server
        forge(beacon_port, hosts=WINDOW_FORGERS)
        real.start()
        run_until(win, lambda: bool(lobby.model.servers), 10, "the servers found")
        step(win, 2)
        image = screenshot(win)
        image.save(tmp_path / "lobby_servers.png")
        first = lobby.buttons["server0"].text
        assert first.startswith("★ den · 127.0.0.1:"), first
        assert "★ 1" in lobby.model.status and f"of {len(lobby.model.servers)}" in lobby.model.status
        # Every server found can be reached with the arrows (the discovery test above bounds the list).
        assert len(lobby.model.servers) == 1 + 4 * WINDOW_FORGERS
        seen = {lobby.buttons[k].text for k in lobby.buttons if k.startswith("server") and k[6:].isdigit()}
        for _ in range(len(lobby.model.servers)):
            if lobby.buttons["servers-ahead"].disabled:
                break
            win.click(*centre(lobby.buttons["servers-ahead"]))
            step(win)
            seen |= {lobby.buttons[k].text for k in lobby.buttons if k.startswith("server") and k[6:].isdigit()}
        assert len(seen) == len(lobby.model.servers)
        assert lobby.buttons["servers-back"].disabled is False
        screenshot(win).save(tmp_path / "lobby_servers_end.png")
        # Back to the start with the wheel, and join the trusted one.
        win.dispatch_event("on_mouse_scroll", *centre(lobby.buttons["servers-back"]), 0, 1)
        assert lobby.model.server_first == len(lobby.model.servers) - 3  # the wheel goes back one server
        lobby.model.server_first = 0
        lobby.build()
        win.click(*centre(lobby.buttons["server0"]))
        run_until(win, lambda: app.lobby is not None and app.lobby._reached, 10, "the lobby of the server joined")
        assert app.session is not None and app.session.endpoint == server.endpoint
        assert known_servers.load()[0]["host"] == "127.0.0.1" and known_servers.load()[0]["port"] == server.port
        assert app.lobby.model.servers and app.lobby.model.servers[0]["name"] == "den"  # the list stays after joining
    finally:
        real.stop()
        app.shutdown()
        app.detach()
        server.stop()
        win.show_view(arcade.View())
