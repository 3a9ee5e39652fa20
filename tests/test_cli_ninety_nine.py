"""The command line with Ninety-Nine records: `board99 replay` checks them line by line (a match's too),
`board99 records` says each game's result in its own words, and a reader that goes away ends a command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from board99.client.net import GameClient
from board99.commands import main
from board99.commands.parser import BROKEN_PIPE
from board99.ninety_nine.game import Game
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.record import NinetyRecord
from board99.ninety_nine.rules import Table
from board99.server.loop import run_in_thread

ROOT = Path(__file__).resolve().parents[1]


def finished(players: int, rules: str, seed: int) -> Game:
    """A whole game, the turn clock's move at every turn (deterministic, quick)."""
    game = Game(players, "guarded", Table.build(players, {"rules": rules}), seed=seed)
    while not game.over:
        assert game.turn is not None
        game.apply(game.turn, NINETY_NINE.clock_action(game))
    return game


@pytest.fixture
def record(tmp_path) -> tuple[Path, Game]:
    game = finished(4, "glengariff", 3)
    path = tmp_path / "glen.txt"
    path.write_text(NinetyRecord.of(game).dumps(), encoding="utf-8")
    return path, game


def test_replay_checks_a_ninety_nine_record_line_by_line_and_shows_the_table(record, capsys) -> None:
    path, game = record
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    lines = path.read_text(encoding="utf-8").split("\n")
    numbered = [row for row in out if row[:5].strip().isdigit()]
    assert [int(row[:5]) for row in numbered] == list(range(8, len(lines)))  # every body line, in the file's numbers
    assert all(row[7:] == lines[int(row[:5]) - 1] for row in numbered)
    assert sum(row.startswith("deal ") for row in out) == game.ply  # the table after each action
    assert out[-1] == f"{path}: every line follows the rules"


def test_replay_names_the_first_line_of_a_ninety_nine_record_that_breaks_the_rules(record, capsys) -> None:
    path, _ = record
    lines = path.read_text(encoding="utf-8").split("\n")
    no = next(i for i, row in enumerate(lines) if row.startswith("  S") and " plays " in row and i > 20) + 1
    total = lines[no - 1].rsplit(" ", 1)[1]
    lines[no - 1] = lines[no - 1].removesuffix(total) + str(int(total) + 1)  # a total the rules do not give
    path.write_text("\n".join(lines), encoding="utf-8")
    assert main(["replay", "--quiet", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"board99 replay: {path}: line {no}: ") and "the rules give" in err


def test_replay_checks_a_ninety_nine_match_record_numbered_as_in_the_file(tmp_path, capsys) -> None:
    """Before: its first line was no game's record here."""
    settings = NINETY_NINE.check_settings(3, "guarded", {"rules": "three-card"})
    games = [finished(3, "three-card", seed) for seed in (1, 2)]
    text = NINETY_NINE.match_record_text(settings, ("first-to", 3), ("Ann", "Bo", "Cy"),
                                         [NINETY_NINE.record_text(g) for g in games], 1)
    path = tmp_path / "match.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", "--quiet", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = text.split("\n")
    assert all(row[7:] == rows[int(row[:5]) - 1] for row in out[:-1])
    second = [i + 1 for i, row in enumerate(rows) if row == "# NINETY-NINE record, board99 format 1"][1]
    assert any(int(row[:5]) > second for row in out[:-1])
    broken = text.split("\n")
    broken[-2] = broken[-2] + "!"  # the second game's last event
    path.write_text("\n".join(broken), encoding="utf-8")
    assert main(["replay", "--quiet", str(path)]) == 1
    assert f"line {len(broken) - 1}: " in capsys.readouterr().err


def _printed_into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)  # the reader has gone (`| head` has its lines)
    try:
        return subprocess.run([sys.executable, "-m", "board99.commands", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT)
    finally:
        os.close(write)


@pytest.mark.slow
@pytest.mark.parametrize("command", [["learn", "--list"], ["replay", "RECORD"], ["replay", "--quiet", "RECORD"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(record, command) -> None:
    """Before: `board99 learn --list | head` ended in a BrokenPipeError traceback, replay said 'cannot read it'."""
    path, _ = record
    done = _printed_into_a_closed_pipe(*(str(path) if arg == "RECORD" else arg for arg in command))
    assert (done.returncode, done.stderr) == (BROKEN_PIPE, "")


@pytest.mark.slow
def test_records_says_each_games_result_in_its_own_words(tmp_path, capsys) -> None:
    """Before: 'side N won' for every game, which for Ninety-Nine said nothing of the others' places."""
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.0)
    try:
        with GameClient(server.endpoint, name="Ann") as ann:
            cards = ann.create_table("cards", 3, game="ninety-nine", options={"rules": "tokens"})
            pegs = ann.create_table("pegs", 2)
            for table, seats, bot in ((cards.id, 3, "sound"), (pegs.id, 2, "rulebook")):
                for seat in range(seats):
                    ann.add_bot(table, seat, bot)
            deadline = time.monotonic() + 60
            while ann.list_records()[1] < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            entries, total = ann.list_records()
            assert total == 2
            capsys.readouterr()
            assert main(["records", "--server", server.endpoint.removeprefix("tcp://")]) == 0
    finally:
        server.stop()
    out = capsys.readouterr().out
    by_table = {e.table: e for e in entries}
    card_line = next(row for row in out.splitlines() if row.strip().startswith(f"{cards.id}:1"))
    peg_line = next(row for row in out.splitlines() if row.strip().startswith(f"{pegs.id}:1"))
    summary = by_table[cards.id].summary
    assert summary.startswith("S") and " won; then " in summary  # Ninety-Nine's: the whole finishing order
    assert card_line.endswith(f"; {summary} (Ninety-Nine)") and "side " not in card_line
    assert peg_line.endswith(f"; {by_table[pegs.id].summary}") and " won with " in peg_line
