"""The client core with a fake clock: no sockets, no threads, no sleeping.

``Link`` joins a ``ClientCore`` to the server's own ``Core`` (tests/core_kit.py's
``Desk``): the frames the client core sends go to the server core, and what the
server core sends comes back to the client core, with a clock that moves only
when a test moves it. Where a test needs a server that misbehaves, it hands
the client core frames of its own.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import msgpack
import pytest

from board99 import Draw, to_data
from board99.client.core import ClientCore, Pending, ServerError
from board99.client.pushes import Completed, Connection, Notice, Restarted, Snapshot, TableChange, Update
from board99.wire.table_info import TableInfo
from tests.core_kit import Desk


def frame(**msg: Any) -> bytes:
    return msgpack.packb(msg, use_bin_type=True)


class Link:
    """A client core talking to a desk's server core through a peer of the desk; ``up`` False drops every frame."""

    def __init__(self, desk: Desk, name: str = "ann", **options: Any) -> None:
        self.desk = desk
        self.core = ClientCore(name=name, now=desk.now, **options)
        self.up = True
        self.join(desk, name)

    def join(self, desk: Desk, name: str) -> None:
        """(Re)connect to ``desk`` as a new connection called ``name`` (a new link)."""
        self.desk = desk
        self.peer = desk.peer(name)
        self.peer.silent = True  # the client core pings for itself
        link = self

        def take(msg: dict) -> None:
            if link.up:
                link.core.receive(msgpack.packb(msg, use_bin_type=True), link.desk.now)

        self.peer.take = take  # type: ignore[method-assign]

    def flush(self) -> None:
        """Send what the core has; frames answered at once come back at once."""
        while out := self.core.outgoing():
            for o in out:
                if not self.up:
                    self.core.send_failed(o.rid, self.desk.now)
                    continue
                self.desk.deliver(self.desk.core.receive(self.peer.ident, [o.frame], self.desk.now))

    def call(self, kind: str, fields: dict, finish: Any = None, **options: Any) -> Pending:
        pending = self.core.request(kind, fields, self.desk.now, finish, **options)
        self.flush()
        return pending

    def wait(self, pending: Pending) -> Any:
        assert pending.done, f"{pending.kind} is not done"
        if pending.error is not None:
            raise pending.error
        return pending.result

    def advance(self, seconds: float, step: float = 0.05) -> None:
        """Move the clock on: the server's timers and the client's tick run each step."""
        end = self.desk.now + seconds
        while self.desk.now < end - 1e-9:
            self.desk.now = min(end, self.desk.now + step)
            if self.desk.now >= self.desk.core.deadline():
                self.desk.deliver(self.desk.core.tick(self.desk.now))
            self.core.tick(self.desk.now)
            self.flush()


@pytest.fixture
def desk(tmp_path: Path):
    d = Desk(tmp_path, epoch="first")
    yield d
    d.close()


def seated(link: Link, table: str, seat: int) -> TableInfo:
    def took(reply: dict) -> TableInfo:
        link.core.token = reply["token"]
        return link.core.follow(reply, table, seat)

    info: TableInfo = link.wait(link.call("take_seat", {"table": table, "seat": seat}, took))
    return info


def new_table(link: Link, players: int = 2) -> str:
    reply = link.wait(link.call("create_table", {"name": "den", "players": players, "mode": "guarded"}))
    table: str = reply["table"]["id"]
    return table


def test_a_hello_goes_first_and_each_reply_reaches_its_own_request(desk) -> None:
    link = Link(desk)
    sent = link.core.request("list_tables", {}, desk.now)
    kinds = [msgpack.unpackb(o.frame)["type"] for o in link.core.outgoing()]
    assert kinds == ["hello"]  # the list waits for the hello's reply: the server learns who this is first
    assert not sent.done
    # Answered out of order by hand: each reply goes to the request with its id, not the latest one.
    link.core.receive(frame(type="reply", id=1, version=1, server="den", epoch="e", heartbeat=1.0,
                            lost_after=3.0, curve=False, player=None), desk.now)
    out = {m["type"]: m for m in (msgpack.unpackb(o.frame) for o in link.core.outgoing())}
    assert set(out) == {"list_tables", "ping"}  # (a ping too: the server was heard for the first time)
    second = link.core.request("leaderboard", {}, desk.now)
    (board,) = link.core.outgoing()
    link.core.receive(frame(type="reply", id=msgpack.unpackb(board.frame)["id"], players=[], total=0), desk.now)
    link.core.receive(frame(type="reply", id=out["list_tables"]["id"], tables=[], total=0, offset=0), desk.now)
    assert link.wait(second)["total"] == 0 and link.wait(sent)["tables"] == []
    assert link.core.epoch == "e"


def test_a_refused_hello_fails_the_request_that_waited_for_it(desk) -> None:
    bot_name = Link(desk, name="rulebook")  # a bot's name: the server refuses it to a person
    pending = bot_name.call("list_tables", {})
    with pytest.raises(ServerError) as refused:
        bot_name.wait(pending)
    assert refused.value.code == "name-taken"


def test_an_idle_client_pings_once_a_heartbeat_and_no_more(desk) -> None:
    link = Link(desk)
    link.wait(link.call("list_tables", {}))
    start = desk.now
    sent: list[tuple[float, str]] = []
    real = link.core.outgoing

    def watched() -> list:
        out = real()
        sent.extend((desk.now, msgpack.unpackb(o.frame)["type"]) for o in out)
        return out

    link.core.outgoing = watched  # type: ignore[method-assign]
    link.core.messages()
    link.advance(3.5, step=0.25)
    pings = [at - start for at, kind in sent if kind == "ping"]
    assert [round(p, 2) for p in pings] == [1.0, 2.0, 3.0]
    assert link.core.connected and link.core.messages() == []


def test_a_silent_server_counts_as_gone_and_a_frame_from_it_as_back(desk) -> None:
    link = Link(desk)
    link.wait(link.call("list_tables", {}))
    link.core.messages()
    link.up = False
    link.advance(3.2)
    assert not link.core.connected and link.core.messages() == [Connection(False)]
    link.up = True
    link.advance(1.0)  # the next heartbeat's ping is answered
    assert link.core.connected and link.core.messages() == [Connection(True)]


def test_a_request_without_a_reply_times_out_and_a_late_reply_is_ignored(desk) -> None:
    link = Link(desk, timeout=2.0)
    link.wait(link.call("list_tables", {}))
    pending = link.core.request("list_tables", {}, desk.now)
    (out,) = link.core.outgoing()  # never delivered
    link.core.tick(desk.now + 1.9)
    assert not pending.done
    link.core.tick(desk.now + 2.0)
    with pytest.raises(ServerError, match="timeout: no reply to 'list_tables'"):
        link.wait(pending)
    link.core.receive(frame(type="reply", id=msgpack.unpackb(out.frame)["id"], tables=[], total=0, offset=0),
                      desk.now + 2.5)
    assert pending.error is not None and pending.error.code == "timeout"


def test_a_send_that_fails_fails_its_request_at_once(desk) -> None:
    link = Link(desk)
    link.wait(link.call("list_tables", {}))
    link.up = False
    with pytest.raises(ServerError) as failed:
        link.wait(link.call("list_tables", {}))
    assert failed.value.code == "disconnected" and not link.core.connected


def test_pushes_come_out_in_order_and_a_gap_is_mended_by_a_snapshot(desk) -> None:
    link = Link(desk)
    table = new_table(link, players=4)
    seated(link, table, 0)
    desk.peer("bo").sit(table, 1)
    link.core.messages()
    link.up = False
    desk.peer("cy").sit(table, 2)  # this push is lost on the way
    link.up = True
    desk.peer("di").sit(table, 3)  # the game starts: a seq past the next one
    assert link.core.messages() == []  # nothing is taken past a gap
    link.flush()  # the gap asked for a snapshot; pushes wait for it
    (snap,) = link.core.messages()
    assert type(snap) is Snapshot and snap.seq == link.core.seq == view_at(desk, table).seq
    assert link.core.view == view_at(desk, table).view(0) and snap.info.state == "playing"


def view_at(desk: Desk, table: str) -> Any:
    return desk.core.state.lobby.tables[table]


def my_move(view: Any) -> dict:
    return to_data(Draw()) if view.can_draw else {"type": "discard", "card": max(view.hand)}


def test_an_update_push_is_typed_and_its_view_parsed_once(desk) -> None:
    link, bo = Link(desk), desk.peer("bo")
    table = new_table(link)
    seated(link, table, 0)
    bo.sit(table, 1)
    link.core.messages()
    while link.core.view.turn != 1:  # play our turns so Bo's comes
        link.wait(link.call("act", {"table": table, "seat": 0, "token": link.core.token,
                                    "action": my_move(link.core.view), "ply": link.core.view.ply},
                            link.core.take_moved))
        link.core.messages()
    bo.act(my_move(bo.view))
    (update,) = link.core.messages()
    assert type(update) is Update and update.by == 1 and update.events[0].kind in ("drew", "discarded")
    assert update.view is link.core.view and update.seq == link.core.seq
    assert update.as_dict()["type"] == "update"  # what GameClient.poll() returns


def test_a_new_link_rebinds_the_seat_with_its_token(desk) -> None:
    link = Link(desk)
    table = new_table(link)
    seated(link, table, 0)
    link.core.messages()
    link.join(desk, "ann again")  # libzmq reconnected: the server sees a new connection
    link.advance(1.5)  # the heartbeat's ping: the server links this connection to no seat
    snaps = [m for m in link.core.messages() if type(m) is Snapshot]
    assert len(snaps) == 1 and snaps[0].table == table
    assert (link.peer.ident, 0) in view_at(desk, table).members()


def test_an_action_refused_because_the_server_forgot_the_connection_is_sent_again_after_a_resume(desk) -> None:
    # The server forgets a connection it has not heard from for a while (a busy machine, a phone asleep):
    # the first the client hears of it is its action refused. It takes the seat back and acts once more.
    link, bo = Link(desk), desk.peer("bo")
    table = new_table(link)
    seated(link, table, 0)
    bo.sit(table, 1)
    link.core.messages()
    while link.core.view.turn != 0:
        bo.act(my_move(bo.view))
    ply = link.core.view.ply
    link.join(desk, "ann again")  # the server knows this connection as no seat's
    heard: list[str] = []
    link.core.on_receive = lambda msg: heard.append(str(msg.get("code") or msg["type"]))
    acted = link.call("act", lambda: {"table": table, "seat": 0, "token": link.core.token,
                                      "action": my_move(link.core.view), "ply": link.core.view.ply})
    assert acted.done and acted.error is None, acted.error
    assert heard == ["not-your-seat", "reply", "reply"]  # refused; the resume's reply; the act's
    assert acted.retried and (link.peer.ident, 0) in view_at(desk, table).members()
    assert view_at(desk, table).game.ply == ply + 1


def test_a_request_refused_twice_for_a_seat_it_cannot_get_back_fails_with_the_servers_words(desk) -> None:
    link = Link(desk)
    table = new_table(link)
    seated(link, table, 0)
    link.core.messages()
    link.join(desk, "ann again")
    token, link.core.token = link.core.token, "0" * 32  # the core's copy is not the seat's: its resume is refused
    heard: list[str] = []
    link.core.on_receive = lambda msg: heard.append(str(msg.get("code") or msg["type"]))
    with pytest.raises(ServerError) as refused:
        link.wait(link.call("act", {"table": table, "seat": 0, "token": token, "action": {"type": "draw"}, "ply": 0}))
    assert refused.value.code == "not-your-seat"
    assert heard == ["not-your-seat", "bad-token", "not-your-seat"]  # sent again once, not for ever
    assert any(m.as_dict()["type"] == "seat-lost" for m in link.core.messages())


def test_a_restarted_server_gets_a_hello_and_the_seat_back(tmp_path: Path) -> None:
    desk = Desk(tmp_path, epoch="first")
    link = Link(desk)
    table = new_table(link)
    seated(link, table, 0)
    link.core.messages()
    desk.close()
    again = Desk(tmp_path, epoch="second", start=desk.now)
    try:
        link.join(again, "ann")
        link.advance(1.2)
        got = link.core.messages()
        assert Restarted("second") in got
        assert any(type(m) is Snapshot and m.table == table for m in got)
        assert link.core.epoch == "second" and link.core.seat == 0 and link.core.table_id == table
    finally:
        again.close()


def test_a_seat_that_cannot_be_taken_back_is_said_and_dropped(desk) -> None:
    link = Link(desk)
    table = new_table(link)
    seated(link, table, 0)
    link.core.messages()
    link.core.token = "0" * 32  # not the seat's
    link.join(desk, "ann again")
    link.advance(1.5)
    lost = [m for m in link.core.messages() if m.as_dict()["type"] == "seat-lost"]
    assert lost and lost[0].as_dict()["code"] == "bad-token" and link.core.table_id is None


def test_a_hostile_server_gets_a_clear_error_and_changes_nothing(desk, caplog) -> None:
    link = Link(desk)
    table = new_table(link)
    seated(link, table, 0)
    link.core.messages()
    view, seq = link.core.view, link.core.seq
    caplog.set_level(logging.WARNING, "board99.client")
    # Garbage, a map without a type, a push with a text seq, a push whose view is not a view.
    for bad in (b"\xc1\xff", frame(kind="update"), frame(type="update", table=table, seq="9"),
                frame(type="update", table=table, seq=seq + 1, by=1, action={}, clock=False, events=[],
                      state="playing", turn_left=None, view={"board": "no"}),
                frame(type="table", table=table, seq=seq + 1, change="presence", info=[], view={})):
        link.core.receive(bad, desk.now)
    assert (link.core.view, link.core.seq) == (view, seq)
    assert "seq: expected a whole number" in caplog.text and "info: expected a map" in caplog.text
    # A reply with a field of the wrong type fails its request, naming the field.
    pending = link.core.request("list_tables", {}, desk.now)
    (out,) = link.core.outgoing()
    rid = msgpack.unpackb(out.frame)["id"]
    link.core.receive(frame(type="reply", id=rid, tables="all of them", total=1, offset=0), desk.now)
    with pytest.raises(ServerError) as bad:
        link.wait(pending)
    assert bad.value.code == "bad-reply" and "tables: expected a list" in bad.value.message
    # An error with no id and a code that is not text: logged, nothing else.
    link.core.receive(frame(type="error", id=None, code=7, message="x"), desk.now)
    assert link.core.messages() == []


def test_a_request_a_driver_asked_about_is_reported_in_order_with_the_pushes(desk) -> None:
    link, bo = Link(desk), desk.peer("bo")
    table = new_table(link)
    seated(link, table, 0)
    link.core.messages()
    pending = link.core.request("snapshot", {"token": link.core.token}, desk.now,
                                lambda reply: reply["seq"], op="look")
    bo.sit(table, 1)  # its push reaches us before the snapshot's reply: the server answers in order
    link.flush()
    got = link.core.messages()
    assert [type(m) for m in got] == [TableChange, Completed]
    assert got[1].op == "look" and got[1].result == pending.result == got[0].seq


def test_a_rate_limited_notice_names_why_a_request_went_unanswered(desk) -> None:
    link = Link(desk, timeout=1.0)
    link.wait(link.call("list_tables", {}))
    link.core.messages()
    pending = link.core.request("list_tables", {}, desk.now)
    link.core.outgoing()  # dropped by the server
    link.core.receive(frame(type="error", id=None, code="rate-limited", message="slow down"), desk.now + 0.1)
    link.core.tick(desk.now + 1.0)
    with pytest.raises(ServerError, match="rate-limited: 'list_tables' was dropped: slow down"):
        link.wait(pending)
    assert [type(m) for m in link.core.messages()] == [Notice]



def test_a_request_held_behind_another_is_sent_after_its_reply_with_what_that_left(desk) -> None:
    link = Link(desk)
    table = new_table(link)

    def took(reply: dict) -> TableInfo:
        info = link.core.follow(reply, table, 0)
        link.core.token = reply["token"]
        return info

    sit = link.core.request("take_seat", {"table": table, "seat": 0}, desk.now, took, op="sit")
    bot = link.core.request("add_bot", lambda: {"table": table, "seat": 1, **link.core.seat_token()}, desk.now,
                            after=sit, op="bot")
    first = link.core.outgoing()
    assert [msgpack.unpackb(o.frame)["type"] for o in first] == ["take_seat"]  # the add_bot waits for its reply
    for o in first:
        desk.deliver(desk.core.receive(link.peer.ident, [o.frame], desk.now))
    (out,) = [o for o in link.core.outgoing() if msgpack.unpackb(o.frame)["type"] == "add_bot"]
    assert msgpack.unpackb(out.frame)["token"] == link.core.token  # read when sent, after the seat was taken
    desk.deliver(desk.core.receive(link.peer.ident, [out.frame], desk.now))
    done = [m for m in link.core.messages() if type(m) is Completed]
    assert [(m.op, m.error) for m in done] == [("sit", None), ("bot", None)]
    assert bot.result["table"]["state"] == "playing"
