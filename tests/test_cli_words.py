"""A file that is not there, not a record, or a game that is not kept: said once, in words, with a non-zero exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from board99.commands import main
from board99.server.loop import run_in_thread
from tests.core_kit import Desk

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess:
    # No display: a window must not be needed to say that a file cannot be shown.
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    return subprocess.run([sys.executable, "-m", "board99.commands", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("command", [["replay"], ["replay", "--window"], ["review"], ["review", "--window"]])
def test_a_missing_file_is_called_missing_not_errno(tmp_path, command) -> None:
    missing = tmp_path / "nosuch.txt"
    out = run(*command[:1], str(missing), *command[1:])
    assert out.returncode == 2
    assert out.stderr == f"board99 {command[0]}: {missing}: no such file\n"


@pytest.mark.slow
@pytest.mark.parametrize("window", [False, True])
def test_a_binary_file_is_not_a_game_record_in_the_window_too(tmp_path, window) -> None:
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 8)
    out = run("replay", str(garbage), *(["--window"] if window else []))
    assert out.returncode == 2
    assert out.stderr == f"board99 replay: {garbage}: not a game record (not UTF-8 text)\n"


@pytest.mark.slow
def test_a_folder_is_not_a_record_file(tmp_path) -> None:
    out = run("replay", str(tmp_path), "--window")
    assert out.returncode == 2 and out.stderr == f"board99 replay: {tmp_path}: a folder, not a record file\n"


def test_records_get_of_a_missing_game_says_so_once(tmp_path, capsys) -> None:
    server = run_in_thread(data_dir=tmp_path / "data")
    try:
        address = server.endpoint.removeprefix("tcp://")
        assert main(["records", "--server", address, "--get", "nosuch:3", "--out", str(tmp_path)]) == 1
    finally:
        server.stop()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("board99 records: nosuch:3: "), err
    assert "there is no table 'nosuch'" in err
    # From a stopped server's data folder: once too.
    Desk(tmp_path / "data").close()
    assert main(["records", "--data", str(tmp_path / "data"), "--get", "nosuch:3", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == "board99 records: nosuch:3: no such finished game in this journal\n"
