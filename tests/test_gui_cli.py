"""`board99 play` and `board99 join` as commands: the real program, its embedded server and window."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.gui_harness import display

pytestmark = pytest.mark.timeout(120)


def board99(*args: str, env: dict, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "board99.commands", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.slow
def test_play_without_a_display_says_why_and_points_to_the_terminal_game():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = board99("play", env=env)
    assert out.returncode == 2
    assert "board99 play: cannot open a window" in out.stderr and "--terminal" in out.stderr


@pytest.mark.slow
def test_play_opens_the_window_on_a_table_with_bots_from_its_own_server(tmp_path):
    display()
    marker = tmp_path / "first_frame"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), BOARD99_T0=repr(time.time()),
               BOARD99_FIRST_FRAME_FILE=str(marker))
    out = board99("play", "--mute", "--players", "4", env=env)
    assert out.returncode == 0, out.stderr
    seconds = float(marker.read_text())  # written at the first drawn frame with a game in it
    assert 0 < seconds < 60
    journal = list((tmp_path / "data" / "board99" / "play").iterdir())
    assert journal, "the embedded server keeps its data in the user's data directory"


def test_join_and_play_list_their_options():
    env = dict(os.environ)
    join = board99("join", "--help", env=env)
    assert join.returncode == 0 and "HOST[:PORT]" in join.stdout
    play = board99("play", "--help", env=env)
    assert play.returncode == 0 and "--terminal" in play.stdout and "--server" in play.stdout



@pytest.mark.slow
def test_play_with_server_sits_at_a_new_table_on_that_server(tmp_path):
    from board99.client.net import GameClient
    from board99.server.loop import run_in_thread

    display()
    handle = run_in_thread(port=0, data_dir=tmp_path / "server", bot_delay=0.0)
    try:
        marker = tmp_path / "first_frame"
        port = handle.endpoint.rsplit(":", 1)[1]
        env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), BOARD99_T0=repr(time.time()),
                   BOARD99_FIRST_FRAME_FILE=str(marker))
        out = board99("play", "--mute", "--server", f"127.0.0.1:{port}", "--mode", "penalty",
                      "--name", "Ann", env=env)
        assert out.returncode == 0, out.stderr
        assert marker.exists()
        with GameClient(handle.endpoint, name="check") as client:
            tables = client.list_tables()
        assert len(tables) == 1 and tables[0].mode == "penalty"
        assert tables[0].seats[0].name == "Ann" and tables[0].seats[1].occupant == "bot"
        assert not (tmp_path / "data" / "board99" / "play").exists()  # no embedded server this time
    finally:
        handle.stop()


@pytest.mark.slow
def test_two_people_play_from_one_machine_as_themselves_with_their_own_keys(tmp_path):
    from board99.client.net import GameClient
    from board99.server.loop import run_in_thread

    display()
    handle = run_in_thread(port=0, data_dir=tmp_path / "server", bot_delay=0.0)
    try:
        port = handle.endpoint.rsplit(":", 1)[1]
        for who in ("Ann", "Bob"):  # one OS user, one config folder, two people
            env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), BOARD99_T0=repr(time.time()),
                       BOARD99_FIRST_FRAME_FILE=str(tmp_path / f"frame-{who}"),
                       BOARD99_CONFIG=str(tmp_path / "config" / "settings.toml"))
            out = board99("play", "--mute", "--server", f"127.0.0.1:{port}", "--as", who, env=env)
            assert out.returncode == 0, out.stderr
        keys = sorted(p.name for p in (tmp_path / "config" / "players").iterdir())
        assert keys == ["ann.key", "bob.key"]
        with GameClient(handle.endpoint, name="check") as client:
            assert sorted(s.name for t in client.list_tables() for s in t.seats if s.occupant == "human") == [
                "Ann", "Bob"]
            assert [client.player_history(n).rating.name for n in ("Ann", "Bob")] == ["Ann", "Bob"]
    finally:
        handle.stop()
