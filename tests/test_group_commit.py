"""Group commit: the actions of a batch (``Core.receive_many``) or of a tick, at different tables, share one
journal transaction; memory changes only once it is committed, and a failure loses nothing and tells everyone.

The journal is a real SQLite file; the statements it runs are counted with SQLite's own trace hook
(``Connection.set_trace_callback``), and failures are made at the file layer (``SmallDisk``).
"""

from __future__ import annotations

from collections.abc import Iterator

import msgpack
import pytest

from board99 import to_data
from board99.bots import make_bot
from tests.core_kit import Desk, Peer
from tests.test_server_defences import SmallDisk, full_desk


@pytest.fixture
def desk(tmp_path) -> Iterator[Desk]:
    d = Desk(tmp_path, lost_after=1e9)
    yield d
    d.close()


@pytest.fixture
def disk(tmp_path) -> Iterator[SmallDisk]:
    d = SmallDisk(tmp_path)
    yield d
    d.close()


def tables_of_two(desk: Desk, count: int) -> list[tuple[Peer, Peer]]:
    """``count`` 2-player tables, a person in each seat, their games started."""
    pairs = []
    for n in range(count):
        a, b = desk.peer(f"a{n}"), desk.peer(f"b{n}")
        table = a.ask("create_table", name=f"t{n}", players=2)["table"]["id"]
        a.sit(table, 0)
        b.sit(table, 1)
        pairs.append((a, b))
    return pairs


def to_move(pair: tuple[Peer, Peer]) -> Peer:
    return pair[0] if pair[0].view.my_turn else pair[1]


def act_frame(p: Peer, action: dict, ply: int) -> tuple[bytes, list[bytes], str, None]:
    """One ``act`` message of ``p``'s at ``ply``, as the loop hands it to ``receive_many``."""
    p._ids += 1
    fields = {"type": "act", "id": p._ids, "table": p.table, "seat": p.seat, "token": p.token, "action": action,
              "ply": ply}
    return p.ident, [msgpack.packb(fields)], "", None


def a_move(p: Peer, seed: int = 1) -> dict:
    return to_data(make_bot("random", seed=seed).choose(p.view))


class Statements:
    """The SQL statements the journal runs, from SQLite's trace hook."""

    def __init__(self, desk: Desk) -> None:
        self.seen: list[str] = []
        desk.journal.db.set_trace_callback(self.seen.append)

    def count(self, word: str) -> int:
        return sum(1 for s in self.seen if s.strip().upper().startswith(word))


def test_acts_at_several_tables_in_one_batch_share_one_commit_and_each_is_answered(desk: Desk) -> None:
    pairs = tables_of_two(desk, 4)
    movers = [to_move(pair) for pair in pairs]
    plies = [m.view.ply for m in movers]
    sql = Statements(desk)
    desk.deliver(desk.core.receive_many([act_frame(m, a_move(m), m.view.ply) for m in movers], desk.now))
    assert sql.count("INSERT INTO ACTIONS") == 4 and sql.count("COMMIT") == 1  # one transaction for four
    for m, pair, ply in zip(movers, pairs, plies):
        reply = m.received[-1]
        assert reply["type"] == "reply" and reply["id"] == m._ids and reply["view"]["ply"] == ply + 1
        other = pair[1] if m is pair[0] else pair[0]
        assert other.pushes("update")[-1]["by"] == m.seat and other.view.ply == ply + 1
    stored = desk.journal.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert stored == sum(plies) + 4


def test_a_second_act_at_the_same_table_in_a_batch_is_judged_after_the_first(desk: Desk) -> None:
    (pair,) = tables_of_two(desk, 1)
    mover = to_move(pair)
    ply = mover.view.ply
    first = act_frame(mover, a_move(mover), ply)
    again = act_frame(mover, a_move(mover), ply + 1)  # the same seat once more, on the position after it
    desk.deliver(desk.core.receive_many([first, again], desk.now))
    answers = [m for m in mover.received if m["type"] in ("reply", "error")][-2:]
    assert [m["type"] for m in answers] == ["reply", "error"]
    assert answers[1]["code"] == "out-of-turn"


def test_a_request_after_an_act_in_the_same_batch_sees_the_act_carried_out(desk: Desk) -> None:
    (pair,) = tables_of_two(desk, 1)
    mover = to_move(pair)
    watcher = desk.peer("watcher")
    watcher.ask("spectate", table=mover.table)
    ply = mover.view.ply
    watcher._ids += 1
    look = (watcher.ident, [msgpack.packb({"type": "snapshot", "id": watcher._ids})], "", None)
    desk.deliver(desk.core.receive_many([act_frame(mover, a_move(mover), ply), look], desk.now))
    snapshot = next(m for m in watcher.received if m.get("id") == watcher._ids)
    assert snapshot["type"] == "reply" and snapshot["view"]["ply"] == ply + 1


def test_bot_moves_due_together_share_one_commit(desk: Desk) -> None:
    people = []
    for n in range(3):
        p = desk.peer(f"p{n}")
        table = p.ask("create_table", name=f"t{n}", players=2)["table"]["id"]
        p.sit(table, 0)
        p.ask("add_bot", table=table, seat=1, bot="random", token=p.token)
        people.append(p)
    desk.advance(0.05)  # any bot that moves first does so now
    movers = [p for p in people if p.view.my_turn]
    assert movers
    desk.deliver(desk.core.receive_many([act_frame(p, a_move(p), p.view.ply) for p in movers], desk.now))
    sql = Statements(desk)
    desk.deliver(desk.core.tick(desk.core.deadline()))
    assert sql.count("INSERT INTO ACTIONS") == len(movers) and sql.count("COMMIT") == 1
    assert all(p.view.my_turn for p in movers)  # every bot answered, in the one tick


def test_a_batch_the_journal_cannot_take_changes_nothing_and_tells_every_actor(disk: SmallDisk) -> None:
    desk = full_desk(disk, lost_after=1e9)
    pairs = tables_of_two(desk, 3)
    movers = [to_move(pair) for pair in pairs]
    before = [(desk.core.lobby.tables[m.table].game.ply, desk.core.lobby.tables[m.table].seq) for m in movers]
    rows = desk.journal.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    disk.fill()
    desk.deliver(desk.core.receive_many([act_frame(m, a_move(m), m.view.ply) for m in movers], desk.now))
    for m, (ply, seq) in zip(movers, before):
        answer = m.received[-1]
        assert answer["type"] == "error" and answer["code"] == "internal", answer
        assert "could not be saved, so it did not happen" in answer["message"]
        t = desk.core.lobby.tables[m.table]
        assert (t.game.ply, t.seq) == (ply, seq)  # memory untouched
    disk.free()
    assert desk.journal.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == rows
    desk.deliver(desk.core.receive_many([act_frame(m, a_move(m), m.view.ply) for m in movers], desk.now))
    assert all(m.received[-1]["type"] == "reply" for m in movers)  # the same acts, once there is room
    assert desk.journal.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == rows + 3
    desk.close()
