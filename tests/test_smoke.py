"""The package imports and the command runs."""

import pytest

from board99.commands import main


def test_arena_command_plays_games(capsys):
    assert main(["arena", "--bots", "random,random", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "20 games" in out and "95% interval" in out


def test_the_rules_modules_import_neither_server_nor_client_nor_any_io_library():
    """The engine is pure: importing every rules module pulls in no network, window or server code."""
    import pkgutil

    import board99
    import board99.bots

    # The command line (board99.commands, folder commands/) is a layer of its own above them all.
    modules = [f"board99.{m.name}" for m in pkgutil.iter_modules(board99.__path__)]
    # fastplay is the one exception below: numba, its compiler, imports threading and socket itself.
    modules += [f"board99.bots.{m.name}" for m in pkgutil.iter_modules(board99.bots.__path__) if m.name != "fastplay"]
    out = imported_io(modules, ("socket", "threading"))
    assert out == "", f"rules modules import {out}"


@pytest.mark.slow
def test_the_compiled_playouts_import_no_project_io_and_load_only_when_played():
    """fastplay brings numba (whose runtime imports threading and socket) but nothing of ours that does I/O,
    and naming the fastsearch or infer bot, as the server's loop does, loads neither numba nor numpy."""
    assert imported_io(["board99.bots.fastplay"]) == ""
    named = ["board99.bots", "board99.bots.fast_search", "board99.bots.inference", "board99.bots.memory"]
    assert imported_io(named, ("numba", "numpy", "socket", "threading")) == ""


def imported_io(modules: list[str], also: tuple[str, ...] = ()) -> str:
    """The I/O (and ``also``) modules that importing ``modules`` in a fresh interpreter pulls in, comma-joined."""
    import subprocess
    import sys

    banned = ("server", "client", "zmq", "arcade", "pyglet", "msgpack", "sqlite3", "rich", *also)
    code = (
        "import sys\n"
        f"for name in {modules!r}: __import__(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {banned!r}"
        " or m.startswith(('board99.server', 'board99.client', 'board99.wire')))\n"
        "print(','.join(bad))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_the_offline_commands_load_neither_zeromq_nor_sqlite_nor_the_window():
    """The command line imports only the module of the subcommand run (docs/architecture.md, commands/)."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from board99.commands.parser import build_parser\n"
            "build_parser()\n"
            "import board99.commands.replay, board99.commands.arena\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('zmq', 'sqlite3', 'arcade', 'pyglet')"
            " or m.startswith(('board99.server', 'board99.client')))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
