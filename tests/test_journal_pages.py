"""The journal's page size: 1 KiB for a new file; an older file keeps its own and works as before."""

from __future__ import annotations

import sqlite3

import pytest

from board99.server import journal as journal_module
from board99.server.journal import JOURNAL_FILE
from board99.wire.protocol import PROTOCOL_VERSION
from tests.core_kit import Desk


def _page_size(folder) -> int:
    db = sqlite3.connect(folder / JOURNAL_FILE)
    try:
        return int(db.execute("PRAGMA page_size").fetchone()[0])
    finally:
        db.close()


def _play_a_little(desk: Desk, name: str) -> tuple[str, int]:
    """A 2-player table of a person and a bot, a few actions played; the table's id and its ply."""
    person = desk.peer(name)
    person.ask("hello", version=PROTOCOL_VERSION, name=name)
    table = person.ask("create_table", name=name, players=2, mode="penalty")["table"]
    person.sit(table["id"], 0)
    person.ask("add_bot", table=table["id"], seat=1, token=person.token, bot="rulebook")
    for _ in range(3):
        if person.view.turn == 0:
            person.act({"type": "draw"})
        desk.advance(1.0)
    t = desk.core.lobby.get(table["id"])
    assert t.game.ply >= 3
    return t.id, t.game.ply


def test_a_new_journal_has_pages_of_one_kib_and_restores_its_tables(tmp_path) -> None:
    desk = Desk(tmp_path)
    table_id, ply = _play_a_little(desk, "ann")
    desk.close()
    assert _page_size(tmp_path) == 1024
    again = Desk(tmp_path)
    assert again.core.lobby.get(table_id).game.ply == ply
    again.close()


def test_an_older_journal_of_four_kib_pages_keeps_them_and_works_as_before(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_module, "PAGE_SIZE", 4096)  # as a server before this change made it
    desk = Desk(tmp_path)
    table_id, ply = _play_a_little(desk, "bob")
    desk.close()
    monkeypatch.undo()
    again = Desk(tmp_path)  # today's server on the old file
    assert again.core.lobby.get(table_id).game.ply == ply
    _play_a_little(again, "dee")  # and it journals new games' actions as before
    again.close()
    assert _page_size(tmp_path) == 4096


def test_the_documented_conversion_gives_an_older_journal_one_kib_pages(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(journal_module, "PAGE_SIZE", 4096)
    desk = Desk(tmp_path)
    table_id, ply = _play_a_little(desk, "cy")
    desk.close()
    monkeypatch.undo()
    # docs/server.md, "Page size": the server stopped, the file rebuilt out of WAL mode.
    db = sqlite3.connect(tmp_path / JOURNAL_FILE, isolation_level=None)
    for statement in ("PRAGMA journal_mode=DELETE", "PRAGMA page_size=1024", "VACUUM", "PRAGMA journal_mode=WAL"):
        db.execute(statement).fetchall()
    db.close()
    assert _page_size(tmp_path) == 1024
    again = Desk(tmp_path)
    assert again.core.lobby.get(table_id).game.ply == ply
    again.close()
