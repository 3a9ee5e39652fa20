"""Lobby, seats and tokens, rematch, leaving, records, and the wire format's checks, over real sockets."""

from __future__ import annotations

import time
from pathlib import Path

import msgpack
import pytest
import zmq

from board99 import Draw
from board99.client.net import GameClient, ServerError
from board99.record import Record
from board99.server.loop import run_in_thread
from board99.wire.protocol import MAX_MESSAGE_SIZE, PROTOCOL_VERSION
from tests.server_kit import drive, error_of, seat_table, settle

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture
def server(tmp_path):
    handle = run_in_thread(data_dir=tmp_path)
    yield handle
    handle.stop()


class Raw:
    """A bare DEALER speaking msgpack, to send what the client library never would."""

    def __init__(self, endpoint: str) -> None:
        self.sock = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.linger = 0
        self.sock.connect(endpoint)

    def send(self, payload: object, raw: bool = False) -> None:
        self.sock.send(payload if raw else msgpack.packb(payload))

    def recv(self, timeout: float = 2.0) -> dict:
        assert self.sock.poll(int(timeout * 1000)), "no reply"
        return msgpack.unpackb(self.sock.recv())

    def ask(self, payload: object, raw: bool = False) -> dict:
        self.send(payload, raw)
        return self.recv()

    def close(self) -> None:
        self.sock.close()


# -- seats and tokens ------------------------------------------------------------------------------

def test_seat_theft_without_the_token_or_with_another_seats_token_cannot_act(server) -> None:
    seated = seat_table(server.endpoint, 2, "penalty", capture=False)
    thief = Raw(server.endpoint)
    try:
        settle(seated)
        c0, c1 = seated.clients
        assert len(c0.token) == 32 and int(c0.token, 16) >= 0  # 128 random bits
        seq, ply, table = c0.seq, c0.view.ply, seated.table
        draw = {"type": "draw"}
        # A connection with no seat: no token, a made-up token, a seat's token it was never given.
        assert thief.ask({"type": "act", "id": 1, "table": table, "seat": 0, "action": draw,
                          "ply": ply})["code"] == "bad-field"
        assert thief.ask({"type": "act", "id": 2, "table": table, "seat": 0, "token": "0" * 32,
                          "action": draw, "ply": ply})["code"] == "bad-token"
        assert thief.ask({"type": "act", "id": 3, "table": table, "seat": 0, "token": c1.token,
                          "action": draw, "ply": ply})["code"] == "bad-token"
        # Even the right token does not let another connection act without taking the seat back.
        assert thief.ask({"type": "act", "id": 4, "table": table, "seat": 0, "token": c0.token,
                          "action": draw, "ply": ply})["code"] == "not-your-seat"
        # A seated player cannot act for the other seat, with or without its own token.
        for token, code in ((c1.token, "bad-token"), (c0.token, "not-your-seat")):
            assert error_of(lambda t=token: c1._request("act", table=table, seat=0, token=t, action=draw, ply=ply)).code \
                == code
        # Requests about a seat carry its token, even from the connection that holds it.
        for kind in ("snapshot", "leave", "rematch"):
            assert error_of(lambda k=kind: c0._request(k)).code == "bad-token"
            assert error_of(lambda k=kind: c0._request(k, token=c1.token)).code == "bad-token"
        # A spectator holds no seat at all.
        assert error_of(lambda: seated.spectator.act(Draw())).code == "not-seated"
        seated.poll_all(0.1)
        assert (c0.seq, c0.view.ply) == (seq, ply)  # nothing happened
    finally:
        thief.close()
        seated.close()


def test_the_journal_keeps_no_seat_token(server, tmp_path) -> None:
    seated = seat_table(server.endpoint, 2, "guarded", spectate=False, capture=False)
    try:
        raw = b"".join(p.read_bytes() for p in tmp_path.glob("board99.sqlite*"))
        for c in seated.clients:
            assert c.token.encode() not in raw
    finally:
        seated.close()


def test_lobby_errors_name_the_field_or_rule(server) -> None:
    a, b = GameClient(server.endpoint, name="ann"), GameClient(server.endpoint, name="bob")
    try:
        assert error_of(lambda: a.create_table("x", 5)).code == "bad-field"
        assert "players" in error_of(lambda: a.create_table("x", 5)).message
        assert error_of(lambda: a.create_table("x", 2, mode="strict")).code == "bad-field"
        assert error_of(lambda: a.create_table("", 2)).code == "bad-field"
        assert error_of(lambda: a.create_table("x", 2, clock=-1)).code == "bad-field"
        table = a.create_table("den", 4, "guarded", clock=30, grace=10)
        assert table.state == "waiting" and table.clock == 30 and table.grace == 10
        assert [t.id for t in b.list_tables()] == [table.id]
        tid = table.id
        assert error_of(lambda: a.take_seat("nope", 0, "red")).code == "no-such-table"
        assert error_of(lambda: a.take_seat(tid, 4, "red")).code == "no-such-seat"
        assert error_of(lambda: a.take_seat(tid, 0, "pink")).code == "bad-field"
        a.take_seat(tid, 0, "red")
        assert error_of(lambda: a.take_seat(tid, 1, "blue")).code == "already-seated"
        assert error_of(lambda: b.take_seat(tid, 0, "red")).code == "seat-taken"
        assert error_of(lambda: b.take_seat(tid, 1, "red")).code == "colour-taken"  # another side's colour
        assert error_of(lambda: b.take_seat(tid, 2, "blue")).code == "colour-taken"  # partner plays red
        b.take_seat(tid, 2, None)  # no colour given: the side's own
        assert b.table.seats[2].colour == "red"
        assert error_of(lambda: a.add_bot(tid, 1, "clever")).code == "no-such-bot"
        assert error_of(lambda: a.act(Draw())).code == "not-started"
        assert error_of(lambda: a.fetch_record(tid)).code == "not-over"
        a.add_bot(tid, 1, "random")
        info = a.add_bot(tid, 3, "random")
        assert info.state == "playing"
        assert info.seats[1].colour == info.seats[3].colour not in ("red", None)
    finally:
        a.close()
        b.close()


def test_leaving_frees_a_waiting_seat_and_hands_a_running_one_to_a_bot(server) -> None:
    seated = seat_table(server.endpoint, 2, "guarded", capture=False)
    try:
        drive(seated, seconds=10, stop=lambda s: s.clients[0].view.ply >= 4)
        quitter = seated.clients[1]
        quitter.leave()
        watcher = seated.spectator
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not watcher.table.seats[1].left:
            watcher.poll(0.02)
        # A bot plays on; the seat stays the leaver's (they may come back with its token) until the game ends.
        assert watcher.table.seats[1].left and watcher.table.seats[1].standin
        # S0 plays on against the bot to the end; the free seat is then open for a rematch.
        from board99.bots import make_bot
        from board99.client.net import play_bot

        final = play_bot(seated.clients[0], make_bot("random", seed=3), until=time.monotonic() + 20)
        assert final is not None and final.winner is not None
        assert seated.clients[0].table.seats[1].occupant is None
        newcomer = GameClient(server.endpoint, name="cat")
        try:
            newcomer.take_seat(seated.table, 1, None)
            seated.clients[0].rematch()
            info = newcomer.rematch()
            assert info.state == "playing" and info.game == 2
        finally:
            newcomer.close()
    finally:
        seated.close()


@pytest.mark.slow
def test_a_rematch_keeps_the_seats_and_both_records_stay_fetchable(server) -> None:
    seated = seat_table(server.endpoint, 2, "penalty", capture=False)
    try:
        drive(seated, seconds=20)
        first = seated.clients[0].fetch_record(seated.table)
        c0, c1 = seated.clients
        assert error_of(lambda: c0.act(Draw())).code == "deal-over"
        info = c0.rematch()
        assert info.state == "over" and info.votes == (0,)
        info = c1.rematch()
        assert info.state == "playing" and info.game == 2
        seated.poll_all(0.1)
        assert c0.view.ply == 0 and c0.table.game == 2
        assert [s.name for s in info.seats] == ["S0", "S1"]
        drive(seated, seconds=20)
        second = c0.fetch_record(seated.table)
        assert second != first and c0.fetch_record(seated.table, 1) == first
        assert Record.loads(second).replay().winner is not None
        assert error_of(lambda: c0.fetch_record(seated.table, 9)).code == "no-record"
    finally:
        seated.close()


# -- the wire ----------------------------------------------------------------------------------------

def test_bad_input_gets_a_clear_error_and_harms_nobody(server) -> None:
    raw = Raw(server.endpoint)
    seated = seat_table(server.endpoint, 2, "guarded", capture=False)
    try:
        assert raw.ask(b"\xc1\xff garbage", raw=True)["code"] == "bad-message"
        assert raw.ask([1, 2, 3])["code"] == "bad-message"
        assert raw.ask({"type": "dance", "id": 7}) == {
            "type": "error", "id": 7, "code": "unknown-type",
            "message": "type: 'dance' is not a message type this server handles (see docs/protocol.md)"}
        reply = raw.ask({"type": "take_seat", "id": 8, "table": seated.table, "seat": True})
        assert reply["code"] == "bad-field" and reply["message"].startswith("seat:")
        reply = raw.ask({"type": "act", "id": 9, "table": seated.table, "seat": 0, "token": "x",
                         "action": {"type": "play", "card": "7", "square": 9}})
        assert reply["code"] == "bad-field", reply
        assert raw.ask({"type": "hello", "id": 10, "version": 99})["code"] == "bad-version"
        assert raw.ask({"type": "ping", "id": 11, "extra": 1})["code"] == "bad-field"
        raw.sock.send_multipart([b"two", b"frames"])
        assert raw.recv()["code"] == "bad-message"
        # Oversized: libzmq cuts the link (MAXMSGSIZE); the server carries on.
        big = Raw(server.endpoint)
        big.send(b"\x00" * (MAX_MESSAGE_SIZE + 1), raw=True)
        big.close()
        final = drive(seated, seconds=20)
        assert final.winner is not None
    finally:
        raw.close()
        seated.close()


@pytest.mark.slow
def test_a_flood_from_one_connection_is_rate_limited_while_others_play(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path, rate=1000, burst=200)
    flood = Raw(handle.endpoint)
    seated = seat_table(handle.endpoint, 2, "guarded", capture=False)
    try:
        for i in range(3000):
            flood.send({"type": "ping", "id": i})
        replies = []
        while flood.sock.poll(300):
            replies.append(msgpack.unpackb(flood.sock.recv()))
        limited = [r for r in replies if r.get("code") == "rate-limited"]
        answered = [r for r in replies if r["type"] == "reply"]
        assert limited and "messages a second" in limited[0]["message"]
        assert 200 <= len(answered) < 2500
        assert drive(seated, seconds=20).winner is not None
    finally:
        flood.close()
        seated.close()
        handle.stop()


@pytest.mark.slow
def test_a_rematch_waiting_for_an_empty_seat_starts_when_a_bot_fills_it(server) -> None:
    seated = seat_table(server.endpoint, 2, "guarded", spectate=False, capture=False)
    try:
        drive(seated, seconds=20)
        c0, c1 = seated.clients
        c1.leave()
        info = c0.rematch()
        assert info.state == "over" and info.seats[1].occupant is None
        info = c0.add_bot(seated.table, 1, "random")
        assert info.state == "playing" and info.game == 2
    finally:
        seated.close()


def test_a_client_written_from_the_protocol_page_alone_plays_a_game(server) -> None:
    # Only what docs/protocol.md says: one DEALER, one msgpack map per frame, ids, seq, snapshots.
    raw = Raw(server.endpoint)
    try:
        ids = iter(range(1, 100_000))

        def ask(kind: str, **fields) -> dict:
            rid = next(ids)
            raw.send({"type": kind, "id": rid, **fields})
            while True:
                msg = raw.recv()
                if msg["type"] in ("reply", "error") and msg["id"] == rid:
                    return msg

        assert ask("hello", version=PROTOCOL_VERSION, name="stranger")["version"] == PROTOCOL_VERSION
        table = ask("create_table", name="by the page", players=2, mode="penalty")["table"]["id"]
        seat = ask("take_seat", table=table, seat=0, colour="orange")
        token = seat["token"]
        seat = ask("add_bot", table=table, seat=1, bot="random", token=token)  # fills the last seat: play begins
        snap = ask("snapshot", token=token)
        view, seq = snap["view"], snap["seq"]
        from board99 import SeatView, to_data
        from board99.bots import make_bot

        bot = make_bot("rulebook", seed=2)
        deadline = time.monotonic() + 30
        while view["winner"] is None and time.monotonic() < deadline:
            if view["turn"] == 0:
                reply = ask("act", table=table, seat=0, token=token, ply=view["ply"],
                            action=to_data(bot.choose(SeatView.from_data(view))))
                assert reply["type"] == "reply", reply
                view, seq = reply["view"], reply["seq"]
                continue
            if not raw.sock.poll(1000):
                continue
            push = msgpack.unpackb(raw.sock.recv())
            if push["type"] in ("update", "table") and push["table"] == table:
                if push["seq"] == seq + 1:
                    view, seq = push["view"], push["seq"]
                elif push["seq"] > seq + 1:
                    snap = ask("snapshot", token=token)
                    view, seq = snap["view"], snap["seq"]
        assert view["winner"] is not None
        record = ask("fetch_record", table=table)["record"]
        assert Record.loads(record).replay().view(0) == SeatView.from_data(view)
    finally:
        raw.close()


@pytest.mark.slow
def test_a_request_the_rate_limit_dropped_is_reported_as_such_not_as_silence(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path, rate=1, burst=3)
    try:
        with GameClient(handle.endpoint, name="quick", timeout=1.0) as client:
            with pytest.raises(ServerError) as caught:
                for _ in range(10):  # the hello and the first requests fit the burst; then one is dropped
                    client.list_tables()
            assert caught.value.code == "rate-limited", caught.value
            assert "dropped" in str(caught.value)
    finally:
        handle.stop()
