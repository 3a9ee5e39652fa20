"""Running a tournament from the command line: the command `new` prints works as printed, and every round's
tables can be told apart by name, also cut short as the lobby's cards cut them (docs/tournaments.md)."""

from __future__ import annotations

import shlex
import time

import pytest

from board99.client.net import GameClient
from board99.commands import main
from board99.commands.tournament import next_command
from board99.server.loop import run_in_thread
from board99.server.tournaments import table_name
from board99.wire.protocol import NAME_MAX

pytestmark = pytest.mark.timeout(120)


def printed_command(out: str) -> list[str]:
    """The command between the backticks of `tournament new`'s output, as a shell would split it."""
    return shlex.split(out.split("`")[1])


@pytest.mark.slow
def test_the_command_new_prints_opens_the_next_round_as_printed_and_each_rounds_tables_say_their_round(
        tmp_path, capsys) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    try:
        address = server.endpoint.removeprefix("tcp://")
        sides = ["--side", "bot:random", "--side", "bot:rulebook"] * 2
        assert main(["tournament", "new", "--server", address, "--players", "2", *sides, "--rounds", "2",
                     "--first-to", "1"]) == 0
        command = printed_command(capsys.readouterr().out)
        assert command[:3] == ["board99", "tournament", "next"] and command[command.index("--server") + 1] == address
        with GameClient(server.endpoint, name="Watcher") as watcher:
            tid = command[3]
            for number in (1, 2):
                assert main(command[1:]) == 0, capsys.readouterr().err  # exactly as printed, nothing added
                assert f"round {number} of 2 opened" in capsys.readouterr().out
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    info = next(t for t in watcher.tournaments() if t.id == tid)
                    if info.state != "playing":
                        break
                    time.sleep(0.05)
                assert info.round == number and info.state != "playing"
            names = {t.id: t.name for t in watcher.list_tables()}
        by_round = {n: sorted(names[p.table] for p in info.pairings if p.round == n and p.table) for n in (1, 2)}
        assert all(len(by_round[n]) == 2 for n in (1, 2))
        for number, tables in by_round.items():
            # The round comes first, so a card that cuts the name short still tells the rounds apart.
            assert all(name.startswith(f"Round {number} · Club night: ") for name in tables), tables
    finally:
        server.stop()


def test_the_printed_command_keeps_the_servers_key_as_one_word_whatever_its_letters() -> None:
    key = "-rQ9&x*[{}]$#<>?!=+/.:^@%()tokenkey0123456"  # Z85 letters, a leading dash among them
    command = next_command("3f2a9c01", "den:9199", "ab" * 16, key)
    words = shlex.split(command)
    assert words == ["board99", "tournament", "next", "3f2a9c01", "--server", "den:9199", "--token", "ab" * 16,
                     f"--key={key}"]


def test_a_long_tournament_name_is_cut_after_the_round_never_before_it() -> None:
    name = table_name("The Friday evening club championship", 10, ("Annabel", "Bartholomew"), ("Cy", "Di"))
    assert len(name) == NAME_MAX and name.startswith("Round 10 · The Friday") and name.endswith("…")
    assert table_name("Club night", 1, ("Ann",), ("Bo",)) == "Round 1 · Club night: Ann v Bo"
