"""Every journal write goes through one helper (``State.journaled``), and a failed one changes nothing.

The failures are made at the file layer (``tests.test_server_defences.SmallDisk``: a tmpfs that
fills up, or the SQLite file capped at its size), on sites the other fault tests do not reach:
the coach's hint, a tournament made, an idle table closed.
"""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest

from tests.core_kit import CoreError
from tests.test_server_defences import SmallDisk, full_desk

SERVER = Path(__file__).resolve().parent.parent / "server"

#: The journal's methods that write (each one SQLite transaction).
WRITES = {"save_table", "save_seq", "save_action", "save_actions", "save_hint", "save_finished", "save_player", "save_tournament",
          "delete_table", "archive_table"}


@pytest.fixture
def disk(tmp_path):
    d = SmallDisk(tmp_path)
    yield d
    d.close()


def test_no_server_module_calls_a_journal_write_but_through_the_one_helper() -> None:
    """``journal.save_...(...)`` called anywhere but as ``State.journaled``'s argument would need its own try/except."""
    direct = []
    for path in sorted(SERVER.glob("*.py")):
        if path.name == "journal.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "journal"):
                direct.append(f"{path.name}:{node.lineno} {node.func.attr}")
    assert direct == []
    handlers = [path.name for path in SERVER.glob("*.py")
                if "journal-error" in path.read_text() and path.name != "state.py"]
    assert handlers == []  # the log line is written in one place


def test_a_hint_the_journal_cannot_take_is_not_given_and_nobody_hears_of_it(disk: SmallDisk, caplog) -> None:
    caplog.set_level(logging.INFO, logger="board99.server")
    desk = full_desk(disk, lost_after=1e9)
    me, other = desk.peer("me"), desk.peer("other")
    table = me.ask("create_table", name="t", players=2)["table"]["id"]
    me.sit(table, 0)
    other.sit(table, 1)
    t = desk.core.lobby.tables[table]
    asker = me if me.view.my_turn else other
    seq, heard = t.seq, len(other.pushes() + me.pushes())
    disk.fill()
    with pytest.raises(CoreError) as caught:
        asker.ask("hint", token=asker.token)
    assert caught.value.code == "internal" and "could not be saved, so it was not given" in caught.value.message
    assert t.seq == seq and t.hints == [] and t.advice == {}  # memory as it was: not even the seq moved
    assert len(other.pushes() + me.pushes()) == heard
    assert any(f"event=journal-error table={table} what=hint" in r.getMessage() for r in caplog.records)
    assert desk.journal.db.execute("SELECT seq FROM tables WHERE id=?", (table,)).fetchone()[0] <= seq
    disk.free()
    advice = asker.ask("hint", token=asker.token)
    assert advice["seq"] == seq + 1 and t.hints == [(asker.seat, t.game.ply)]
    assert desk.journal.hints(table, t.game_no) == [(asker.seat, t.game.ply)]
    desk.close()


def test_a_tournament_the_journal_cannot_take_is_not_made(disk: SmallDisk, caplog) -> None:
    caplog.set_level(logging.INFO, logger="board99.server")
    desk = full_desk(disk)
    host = desk.peer("host")
    disk.fill()
    with pytest.raises(CoreError) as caught:
        host.ask("create_tournament", name="cup", players=2, entrants=[["bot:random"], ["bot:rulebook"]], rounds=1,
                 match={"kind": "games", "target": 1})
    assert caught.value.code == "internal" and "was not made" in caught.value.message
    assert desk.core.state.tournaments.by_id == {}
    assert any("event=journal-error tournament=" in r.getMessage() and "what=created" in r.getMessage()
               for r in caplog.records)
    disk.free()
    made = host.ask("create_tournament", name="cup", players=2, entrants=[["bot:random"], ["bot:rulebook"]], rounds=1,
                    match={"kind": "games", "target": 1})
    assert list(desk.core.state.tournaments.by_id) == [made["tournament"]["id"]]
    desk.close()


def test_an_idle_table_the_journal_cannot_close_stays_until_it_can(disk: SmallDisk) -> None:
    desk = full_desk(disk, lost_after=1e9, empty_after=60.0)
    host = desk.peer("host")
    table = host.ask("create_table", name="t", players=2)["table"]["id"]
    disk.fill()
    desk.advance(70.0, step=1.0)  # nobody sat at it: due to close, but its rows cannot be deleted
    assert table in desk.core.lobby.tables
    assert desk.journal.db.execute("SELECT COUNT(*) FROM tables WHERE id=?", (table,)).fetchone()[0] == 1
    disk.free()
    desk.advance(10.0, step=1.0)  # the next round of housekeeping closes it
    assert table not in desk.core.lobby.tables
    assert desk.journal.db.execute("SELECT COUNT(*) FROM tables WHERE id=?", (table,)).fetchone()[0] == 0
    desk.close()
