"""`board99 replay` plays a record through the kind its first line names: a second game needs no change to it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from board99 import kinds
from board99.commands import main
from board99.peg_kind import PegBoard


class Tally:
    """A count that each line adds to: all a test game's replay needs."""

    def __init__(self) -> None:
        self.ply = 0
        self.total = 0


class Counting(PegBoard):
    """A test-only game kind whose records are '+N' lines that must keep the total at most 10.

    It inherits the peg-board kind's other members only so that the registry accepts it whatever the
    interface asks; the replay command uses nothing but what is defined here and ``for_record``.
    """

    name = "counting-test"
    title = "Counting (a test game)"
    record_magic = "# COUNTING test record"

    def replay_record(self, text: str) -> Iterator[tuple[int, str, Any]]:
        game = Tally()
        lines = text.rstrip("\n").split("\n")
        yield 1, lines[0], game
        for no, line in enumerate(lines[1:], start=2):
            if not line.startswith("+") or not line[1:].isdigit() or game.total + int(line[1:]) > 10:
                raise ValueError(f"line {no}: {line!r}: the total may not pass 10 (it is {game.total})")
            game.total += int(line[1:])
            game.ply += 1
            yield no, line, game

    def position_text(self, game: Any) -> str:
        return f"total {game.total}"


@pytest.fixture
def counting() -> Iterator[Counting]:
    kind = Counting()
    kinds.register(kind)
    try:
        yield kind
    finally:
        kinds.unregister(kind.name)


def test_a_second_games_record_replays_through_its_kind(counting, tmp_path, capsys) -> None:
    path = tmp_path / "count.txt"
    path.write_text("# COUNTING test record\n+3\n+4\n")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["    1  # COUNTING test record", "total 0", "    2  +3", "total 3", "    3  +4", "total 7",
                   f"{path}: every line follows the rules"]
    assert main(["replay", "--quiet", str(path)]) == 0
    assert "total" not in capsys.readouterr().out


def test_the_kind_refuses_a_line_and_the_command_says_which(counting, tmp_path, capsys) -> None:
    path = tmp_path / "count.txt"
    path.write_text("# COUNTING test record\n+3\n+9\n")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == f"board99 replay: {path}: line 3: '+9': the total may not pass 10 (it is 3)\n"


def test_a_record_of_no_installed_game_is_refused_by_its_first_line(tmp_path, capsys) -> None:
    path = tmp_path / "other.txt"
    path.write_text("# CHESS record\n1. e4\n")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"board99 replay: {path}: line 1: ") and "'# CHESS record'" in err
