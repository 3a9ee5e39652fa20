"""A server that answers with the wrong fields: the client library says which, as a ServerError, and keeps nothing.

A fake ROUTER on 127.0.0.1 answers each request the way the test tells it;
the client is the real ``GameClient`` over real sockets.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import msgpack
import pytest
import zmq

from board99.client.net import GameClient, ServerError

pytestmark = pytest.mark.timeout(30)

HELLO = {"version": 1, "server": "fake", "epoch": "e", "heartbeat": 1.0, "lost_after": 3.0, "curve": False,
         "player": None}


class FakeServer:
    """Answers requests with ``answers[type](request)`` (fields of the reply; None: no reply, then ``instead``).

    Pings and hellos as a server would.
    """

    def __init__(self, ctx: zmq.Context, answers: dict[str, Callable[[dict], dict | None]],
                 instead: dict | None = None) -> None:
        self.sock = ctx.socket(zmq.ROUTER)
        self.sock.linger = 0
        self.port = self.sock.bind_to_random_port("tcp://127.0.0.1")
        self.answers = answers
        self.instead = instead  # a message sent in place of a reply withheld

    def serve(self, seconds: float, until: Callable[[], bool]) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not until():
            if not self.sock.poll(10):
                continue
            ident, frame = self.sock.recv_multipart()
            msg = msgpack.unpackb(frame)
            kind = msg["type"]
            if kind == "hello":
                fields = HELLO
            elif kind == "ping":
                fields = {"epoch": "e", "table": None, "seat": None, "seq": None}
            else:
                answer = self.answers[kind](msg)
                if answer is None:
                    if self.instead is not None:
                        self.sock.send_multipart([ident, msgpack.packb(self.instead)])
                    continue
                fields = answer
            self.sock.send_multipart([ident, msgpack.packb({"type": "reply", "id": msg["id"], **fields})])


@pytest.fixture
def ctx():
    context = zmq.Context()
    yield context
    context.destroy(linger=0)


def ask(ctx: zmq.Context, answers: dict[str, Callable[[dict], dict]], call: Callable[[GameClient], object]):
    """Run ``call`` on a client of a fake server answering with ``answers``; what it raised (or returned)."""
    import threading

    fake = FakeServer(ctx, answers)
    done = threading.Event()
    server = threading.Thread(target=fake.serve, args=(10.0, done.is_set), daemon=True)
    server.start()
    client = GameClient(f"tcp://127.0.0.1:{fake.port}", timeout=2.0, context=ctx)
    try:
        return call(client), client
    except Exception as exc:
        return exc, client
    finally:
        done.set()
        server.join(5)
        client.close()
        fake.sock.close(0)


def test_a_reply_with_a_field_of_the_wrong_type_is_a_bad_reply_naming_the_field(ctx) -> None:
    got, _ = ask(ctx, {"list_tables": lambda m: {"tables": "all of them", "total": 1, "offset": 0}},
                 lambda c: c.lobby_page())
    assert isinstance(got, ServerError), got
    assert got.code == "bad-reply" and "list_tables" in got.message and "tables: expected a list" in got.message


def test_a_reply_missing_a_field_is_a_bad_reply(ctx) -> None:
    got, _ = ask(ctx, {"fetch_record": lambda m: {}}, lambda c: c.fetch_record("t1"))
    assert isinstance(got, ServerError) and got.code == "bad-reply" and "record: missing" in got.message


def test_a_seat_whose_view_is_not_a_view_is_refused_and_nothing_is_kept(ctx) -> None:
    table = {"id": "t1", "name": "den", "players": 2, "mode": "guarded", "clock": None, "grace": 30.0,
             "state": "waiting", "game": 1, "votes": [], "turn_left": None, "spectators": 0,
             "seats": [{"seat": s, "side": s, "colour": None, "occupant": None, "name": None, "connected": False,
                        "standin": False} for s in (0, 1)]}
    got, client = ask(ctx, {"take_seat": lambda m: {"token": "ab" * 16, "table": table, "seat": 0, "seq": 1,
                                                    "view": {"board": "nothing like it"}}},
                      lambda c: c.take_seat("t1", 0))
    assert isinstance(got, ServerError) and got.code == "bad-reply", got
    assert client.view is None and client.table_id is None


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_everything_a_real_server_sends_in_a_game_fits_the_schemas(tmp_path, caplog) -> None:
    """The schemas are the server's too: a whole penalty game (offences, a hint, a rematch) and not one misfit."""
    from board99.server.loop import run_in_thread
    from board99.wire.replies import check_error, check_push
    from tests.server_kit import Offender, drive, seat_table

    caplog.set_level(logging.WARNING, "board99.client")
    handle = run_in_thread(port=0, data_dir=tmp_path, bot_delay=0.0)
    seated = seat_table(handle.endpoint, 4, "penalty")
    try:
        seated.clients[0].hint()
        final = drive(seated, offender=Offender(), seconds=40)
        assert final is not None and final.winner is not None
        seated.clients[0].rematch()
        kinds = set()
        for messages in seated.received.values():
            for msg in messages:
                kinds.add(msg["type"])
                if msg["type"] == "error":
                    check_error(msg)
                elif msg["type"] != "reply":
                    check_push(msg)  # raises BadReply naming the field
        assert {"reply", "update", "table"} <= kinds
        assert "bad-server" not in caplog.text, caplog.text  # no reply failed its schema, no push was dropped
    finally:
        seated.close()
        handle.stop()


@pytest.mark.slow
def test_the_windows_session_keeps_its_loop_going_while_a_reply_is_on_its_way(ctx) -> None:
    """A request the server is slow to answer stops nothing: what the server says meanwhile reaches the views."""
    import threading

    from board99.client.gui.messages import Failed, Pushed
    from board99.client.gui.session import Session
    from board99.client.pushes import Notice

    notice = {"type": "error", "id": None, "code": "rate-limited", "message": "slow down"}
    asked = threading.Event()

    def withheld(msg: dict) -> None:
        asked.set()  # not answered: the server says something else instead, while the request waits
        return None

    fake = FakeServer(ctx, {"list_tables": withheld}, instead=notice)
    done = threading.Event()
    server = threading.Thread(target=fake.serve, args=(10.0, done.is_set), daemon=True)
    server.start()
    session = Session(f"tcp://127.0.0.1:{fake.port}", name="Ann", timeout=3.0)
    try:
        session.lobby_page(0, 10)
        seen: list = []
        deadline = time.monotonic() + 2.0  # well before the request's 3 s are up
        while time.monotonic() < deadline and not any(type(m) is Pushed and type(m.push) is Notice for m in seen):
            seen.extend(session.drain())
            time.sleep(0.01)
        assert asked.is_set()
        notices = [m.push for m in seen if type(m) is Pushed and type(m.push) is Notice]
        assert notices == [Notice("rate-limited", "slow down", notice)]
        assert not any(type(m) is Failed for m in seen)  # the request still waits
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and not any(type(m) is Failed for m in seen):
            seen.extend(session.drain())
            time.sleep(0.02)
        failed = next(m for m in seen if type(m) is Failed)
        assert (failed.op, failed.code) == ("lobby_page", "rate-limited")  # the notice says why it went unanswered
    finally:
        session.close()
        done.set()
        server.join(5)
        fake.sock.close(0)


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_everything_a_real_server_sends_in_a_ninety_nine_game_fits_the_schemas(tmp_path, caplog) -> None:
    """A whole Ninety-Nine penalty game (forgotten draws, wrong totals, a spectator, a rematch): not one misfit."""
    from board99.server.loop import run_in_thread
    from board99.wire.replies import check_error, check_push
    from tests.ninety_server_kit import over, play_until
    from tests.server_kit import seat_table
    from tests.test_server_hidden import offending

    caplog.set_level(logging.WARNING, "board99.client")
    handle = run_in_thread(port=0, data_dir=tmp_path, bot_delay=0.0)
    seated = seat_table(handle.endpoint, 4, "penalty", game="ninety-nine", options={"rules": "glengariff"})
    try:
        clients = [c for _, c in seated.everyone()]
        play_until(clients, over(seated.clients[0]), seconds=60, choose=offending)
        seated.clients[0].rematch()
        seated.spectator.history()
        kinds = set()
        for messages in seated.received.values():
            for msg in messages:
                kinds.add(msg["type"])
                if msg["type"] == "error":
                    check_error(msg)
                elif msg["type"] != "reply":
                    check_push(msg)  # raises BadReply naming the field
        assert {"reply", "update", "table"} <= kinds
        assert "bad-server" not in caplog.text, caplog.text  # no reply failed its schema, no push was dropped
    finally:
        seated.close()
        handle.stop()
