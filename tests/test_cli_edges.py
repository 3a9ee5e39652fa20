"""The commands' rough edges: every bad option gets a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from board99.client.net import endpoint_for
from board99.commands import main

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    return subprocess.run([sys.executable, "-m", "board99.commands", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_serve_refuses_a_port_that_is_not_one(port) -> None:
    out = run("serve", "--port", port, "--no-beacon", "--data", "/nonexistent")
    assert out.returncode == 2 and "--port" in out.stderr and "Traceback" not in out.stderr
    assert "not a" in out.stderr


def test_play_refuses_a_bot_that_does_not_exist_and_lists_the_bots() -> None:
    out = run("play", "--bot", "nosuch")
    assert out.returncode == 2 and "nosuch" in out.stderr
    assert "rulebook" in out.stderr and "search" in out.stderr


@pytest.mark.parametrize("games", ["-3", "0", "many"])
def test_arena_refuses_a_number_of_games_that_is_not_one(games) -> None:
    out = run("arena", "--games", games)
    assert out.returncode == 2 and "--games" in out.stderr and "Traceback" not in out.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_play_at_an_address_where_nobody_answers_says_so_and_stops() -> None:
    out = run("play", "--server", f"127.0.0.1:{free_port()}", timeout=30)
    assert out.returncode == 2 and "no board99 server answers there" in out.stderr


@pytest.mark.slow
@pytest.mark.parametrize("address", ["nosuchhost:abc:9099", "den:99999", "ho st:9099", "http://den"])
def test_a_malformed_address_is_named_not_turned_into_an_endpoint(address) -> None:
    with pytest.raises(ValueError) as caught:
        endpoint_for(address)
    assert address in str(caught.value)
    out = run("join", address)
    assert out.returncode == 2 and "Traceback" not in out.stderr and address in out.stderr


def test_the_forms_a_person_types_become_endpoints() -> None:
    assert endpoint_for(" den ") == "tcp://den:9099"
    assert endpoint_for("[::1]:9100") == "tcp://[::1]:9100"
    assert endpoint_for("[::1]") == "tcp://[::1]:9099"


def test_replay_of_a_binary_file_says_it_is_not_a_record(tmp_path) -> None:
    path = tmp_path / "game.bin"
    path.write_bytes(bytes(range(256)) * 4)
    out = run("replay", str(path))
    assert out.returncode == 2 and "not a game record" in out.stderr and "Traceback" not in out.stderr


def test_every_option_of_every_command_has_help_and_the_bots_are_named() -> None:
    from board99.commands import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        for action in command._actions:
            if action.dest != "help":
                assert action.help, f"board99 {name} {action.option_strings or action.dest}: no help text"
    assert "rulebook" in run("arena", "--help").stdout and "hour" in run("arena", "--help").stdout


def test_arena_prints_progress_when_its_output_is_not_a_terminal(capsys, monkeypatch) -> None:
    import board99.commands.arena as cli

    monkeypatch.setattr(cli, "PROGRESS_EVERY", 0.0)
    assert main(["arena", "--bots", "random,random", "--games", "5"]) == 0
    err = capsys.readouterr().err
    assert "board99 arena: 5/5 games" in err and "to go" in err
