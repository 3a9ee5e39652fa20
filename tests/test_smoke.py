"""The package imports and the command runs."""

from board99.cli import main


def test_arena_command_plays_games(capsys):
    assert main(["arena", "--bots", "random,random", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "20 games" in out and "95% interval" in out


def test_the_rules_modules_import_neither_server_nor_client_nor_any_io_library():
    """The engine is pure: importing every rules module pulls in no network, window or server code."""
    import pkgutil
    import subprocess
    import sys

    import board99
    import board99.bots

    # The command-line entry point alone may reach into the server, the client and the wire.
    modules = [f"board99.{m.name}" for m in pkgutil.iter_modules(board99.__path__) if m.name != "cli"]
    modules += [f"board99.bots.{m.name}" for m in pkgutil.iter_modules(board99.bots.__path__)]
    code = (
        "import sys\n"
        f"for name in {modules!r}: __import__(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('server', 'client', 'zmq', 'arcade', 'pyglet', 'msgpack', 'sqlite3', 'socket', 'threading', 'rich')"
        " or m.startswith(('board99.server', 'board99.client', 'board99.wire')))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"rules modules import {out}"
