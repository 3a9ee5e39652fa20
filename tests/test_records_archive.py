"""`board99 records --data`: a stopped server's journal read by the server package (server/archive.py), read only."""

from __future__ import annotations

import ast
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from board99.client.net import GameClient
from board99.commands import main
from board99.server.archive import Archive, JournalTooOld, NoJournal
from board99.server.journal import JOURNAL_FILE
from board99.server.loop import run_in_thread

ROOT = Path(__file__).resolve().parents[1]


def snapshot_of_a_live_journal(tmp_path: Path) -> tuple[Path, str]:
    """A server's journal folder as a power cut or `kill -9` leaves it: the database and its -wal, not checkpointed.

    Copied while the server runs and idles (its game finished and committed), which is what the disk
    holds at that instant; the server is then stopped and its own folder left alone.
    """
    live, copy = tmp_path / "live", tmp_path / "copy"
    server = run_in_thread(data_dir=live, bot_delay=0.0)
    try:
        with GameClient(server.endpoint, name="Ann") as ann:
            info = ann.create_table("bots", 2)
            ann.add_bot(info.id, 0)
            ann.add_bot(info.id, 1)
            deadline = time.monotonic() + 30
            while not ann.list_records()[0] and time.monotonic() < deadline:
                time.sleep(0.05)
            assert ann.list_records()[1] == 1
        copy.mkdir()
        for name in (JOURNAL_FILE, JOURNAL_FILE + "-wal"):
            shutil.copy2(live / name, copy / name)
    finally:
        server.stop()
    return copy, info.id


@pytest.mark.slow
def test_records_data_reads_a_crashed_servers_journal_and_writes_not_a_byte_of_it(tmp_path, capsys) -> None:
    data, table = snapshot_of_a_live_journal(tmp_path)
    before = {name: (data / name).read_bytes() for name in (JOURNAL_FILE, JOURNAL_FILE + "-wal")}
    assert main(["records", "--data", str(data)]) == 0
    assert f"{table}:1" in capsys.readouterr().out  # the game only the -wal holds is listed
    assert main(["records", "--data", str(data), "--get", f"{table}:1", "--out", str(tmp_path / "out")]) == 0
    assert main(["replay", "--quiet", str(tmp_path / "out" / f"{table}-game-1.txt")]) == 0
    # Opened read only: the journal and its -wal are as the server left them (no checkpoint, no schema).
    assert {name: (data / name).read_bytes() for name in before} == before


def test_a_folder_without_a_journal_and_an_empty_journal_are_said_so(tmp_path, capsys) -> None:
    with pytest.raises(NoJournal, match="no journal"):
        Archive(tmp_path)
    (tmp_path / JOURNAL_FILE).write_bytes(b"")
    assert main(["records", "--data", str(tmp_path)]) == 2
    assert "is empty" in capsys.readouterr().err
    assert (tmp_path / JOURNAL_FILE).read_bytes() == b""  # no schema made in it


def test_a_journal_from_an_older_board99_is_not_brought_up_to_date_by_reading_it(tmp_path, capsys) -> None:
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:  # the first schema's records table, without later columns
        db.execute("CREATE TABLE tables (id TEXT PRIMARY KEY)")
        db.execute("CREATE TABLE records (table_id TEXT, game_no INTEGER, winner INTEGER, record TEXT, finished REAL)")
    db.close()
    before = (tmp_path / JOURNAL_FILE).read_bytes()
    with pytest.raises(JournalTooOld, match="board99 serve --data"):
        Archive(tmp_path)
    assert main(["records", "--data", str(tmp_path)]) == 2
    assert "older board99" in capsys.readouterr().err
    assert (tmp_path / JOURNAL_FILE).read_bytes() == before


def test_the_commands_open_no_sqlite_themselves() -> None:
    # The journal is the server's: the command asks server.archive, and no module of commands/ touches SQLite.
    for path in (ROOT / "commands").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "sqlite3" or n.startswith("board99.server.journal") for n in names), path
