"""A damaged journal file (issue 19): `board99 serve` says which file and what to do, and never writes to it;
damage met while the server runs sets the affected table aside, and the others play on.

Faults are made at the file layer: random bytes, a truncated copy, a page overwritten, another program's
SQLite file, all real files that `board99 serve` is started on as a real process.
"""

from __future__ import annotations

import logging
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from board99 import Draw
from board99.client.net import GameClient, ServerError
from board99.server.journal import JOURNAL_FILE
from board99.server.loop import run_in_thread
from tests.core_kit import Desk
from tests.server_kit import seat_table, settle

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def journal_bytes(tmp_path_factory) -> bytes:
    """A real journal's bytes: a few tables, some with a game under way (the core on a fake clock)."""
    folder = tmp_path_factory.mktemp("journal")
    desk = Desk(folder)
    for n in range(12):
        p = desk.peer(f"p{n}")
        table = p.ask("create_table", name=f"table {n}", players=2)["table"]["id"]
        p.sit(table, 0)
        p.ask("add_bot", table=table, seat=1, bot="random", token=p.token)
        for _ in range(8):
            if p.view.my_turn and len(p.view.hand) < 5:
                p.act({"type": "draw"})
            desk.advance(0.05)
    desk.close()
    assert not (folder / (JOURNAL_FILE + "-wal")).exists()  # checkpointed on closing: one file holds it all
    return (folder / JOURNAL_FILE).read_bytes()


def other_program(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, title TEXT)")
    db.execute("INSERT INTO photos VALUES (1, 'holiday')")
    db.commit()
    db.close()


DAMAGES = {
    "8 KB of random bytes": lambda good, path: path.write_bytes(random.Random(1).randbytes(8192)),
    "truncated to half": lambda good, path: path.write_bytes(good[:len(good) // 2]),
    "truncated to one page": lambda good, path: path.write_bytes(good[:4096]),
    "a page in the middle overwritten": lambda good, path: path.write_bytes(
        good[:len(good) // 2 // 4096 * 4096] + random.Random(2).randbytes(4096)
        + good[len(good) // 2 // 4096 * 4096 + 4096:]),
    "another program's SQLite file": lambda good, path: other_program(path),
}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "board99.commands", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


@pytest.mark.slow
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_serve_on_a_damaged_journal_names_the_file_says_what_to_do_and_leaves_it_as_it_was(
        tmp_path, journal_bytes, damage) -> None:
    path = tmp_path / JOURNAL_FILE
    DAMAGES[damage](journal_bytes, path)
    before = path.read_bytes()
    done = run_cli("serve", "--bind", "127.0.0.1", "--port", "0", "--data", str(tmp_path), "--no-beacon")
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and done.stdout == ""
    said = " ".join(done.stderr.split())
    assert f"the journal {path} is damaged or is not a board99 journal" in said
    assert "left exactly as it is" in said and f"mv {path} {path}.damaged" in said and ".recover" in said
    assert said.count("board99 serve:") == 1
    assert path.read_bytes() == before  # not a byte written
    assert sorted(p.name for p in tmp_path.iterdir()) == [JOURNAL_FILE]  # no -wal or -shm made beside it
    # `board99 records --data` reads the same file: the same words, and not "ask the server" advice.
    listed = run_cli("records", "--data", str(tmp_path))
    assert listed.returncode == 2 and "Traceback" not in listed.stderr
    assert "is damaged or is not a board99 journal" in listed.stderr and "--server" not in listed.stderr
    assert path.read_bytes() == before


def test_a_good_journal_still_opens(tmp_path, journal_bytes) -> None:
    (tmp_path / JOURNAL_FILE).write_bytes(journal_bytes)
    desk = Desk(tmp_path)
    assert len(desk.core.lobby.tables) == 12 and desk.core.set_aside == []
    desk.close()


def damage_pages(path: Path, pages: list[int], size: int) -> None:
    """Overwrite the file's pages ``pages`` (numbered from 1, as SQLite does) with random bytes."""
    with open(path, "r+b") as f:
        for page in pages:
            f.seek((page - 1) * size)
            f.write(random.Random(page).randbytes(size))


@pytest.mark.slow
def test_damage_met_while_running_sets_the_table_aside_and_the_server_serves_on(tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="board99.server")
    handle = run_in_thread(data_dir=tmp_path)
    seated = seat_table(handle.endpoint, 2, "guarded", spectate=True)
    waiting = GameClient(handle.endpoint, name="waiting")
    try:
        other = waiting.create_table("untouched", 2).id
        waiting.take_seat(other, 0)
        settle(seated)
        mover = next(c for c in seated.clients if c.my_turn())
        mover.act(Draw())
        settle(seated)
        db = handle.server.journal.db
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file, where the damage goes
        # The pages of the actions kept: only the table that has played has any.
        pages = [p for p, in db.execute("SELECT pageno FROM dbstat WHERE name='actions'")]
        assert {t for t, in db.execute("SELECT DISTINCT table_id FROM actions")} == {seated.table}
        damage_pages(tmp_path / JOURNAL_FILE, pages, db.execute("PRAGMA page_size").fetchone()[0])
        db.execute("PRAGMA shrink_memory")  # the server's page cache let go: its next read is of the file
        mover = next(c for c in seated.clients if c.my_turn())
        with pytest.raises(ServerError) as caught:
            mover.act(Draw())
        assert caught.value.code == "internal" and "journal is damaged" in caught.value.message
        assert "table was closed" in caught.value.message
        # Its followers heard it closed; the server names it as set aside; its rows were not touched.
        seated.poll_all(0.3)
        assert [m.get("change") for m in seated.received[None] if m["type"] == "table"][-1:] == ["closed"]
        assert [a.table for a in handle.server.core.set_aside] == [seated.table]
        assert any("event=table-set-aside" in r.getMessage() and seated.table in r.getMessage()
                   for r in caplog.records)
        # The server serves on: the lobby without the damaged table, a new table made and joined.
        with GameClient(handle.endpoint, name="newcomer") as newcomer:
            ids = {t.id for t in newcomer.list_tables()}
            assert other in ids and seated.table not in ids
            fresh = newcomer.create_table("after the damage", 2).id
            newcomer.take_seat(fresh, 0)
    finally:
        seated.close()
        waiting.close()
        handle.stop()
    # Started again on the damaged file: the clear words, nothing written.
    before = (tmp_path / JOURNAL_FILE).read_bytes()
    done = run_cli("serve", "--bind", "127.0.0.1", "--port", "0", "--data", str(tmp_path), "--no-beacon")
    assert done.returncode == 2 and "is damaged or is not a board99 journal" in done.stderr
    assert "Traceback" not in done.stderr and (tmp_path / JOURNAL_FILE).read_bytes() == before


@pytest.mark.slow
def test_play_on_a_damaged_practice_journal_says_so_before_any_window(tmp_path) -> None:
    folder = tmp_path / "board99" / "play"  # platformdirs' user data folder under XDG_DATA_HOME
    folder.mkdir(parents=True)
    path = folder / JOURNAL_FILE
    path.write_bytes(random.Random(3).randbytes(8192))
    before = path.read_bytes()
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"} | {"XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "board99.commands", "play"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"board99 play: --data {folder}: the journal {path} is damaged" in " ".join(done.stderr.split())
    assert path.read_bytes() == before
