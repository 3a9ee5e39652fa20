"""A routing id of libzmq's own form, chosen by a client, inherits nothing from the connection that had it (issue 19).

The server cannot tell such an id from one libzmq made (docs/server.md, "What a routing id proves"). What
protects a seat instead: a departed connection is lost as soon as its TCP link closes, so nothing is bound
to its id any more; an id heard over another link than before is a new connection; and every request
about a seat carries the seat's token. Real sockets on 127.0.0.1; the last test drives the core directly.
"""

from __future__ import annotations

import time

import msgpack
import pytest
import zmq

from board99.bots import make_bot
from board99.client.net import GameClient
from board99.server.loop import Server, run_in_thread
from board99.wire.protocol import PROTOCOL_VERSION
from tests.core_kit import Desk
from tests.server_kit import seat_table, settle


@pytest.fixture
def server(tmp_path):
    handle = run_in_thread(data_dir=tmp_path)
    yield handle
    handle.stop()


def ident_of(handle, table: str, seat: int) -> bytes:
    """The routing id the server gave the connection holding ``seat`` (what a perfect guess would be)."""
    return handle.server.lobby.tables[table].seats[seat].conn


@pytest.mark.slow
def test_a_client_taking_a_departed_players_routing_id_hears_nothing_of_the_seat(server) -> None:
    seated = seat_table(server.endpoint, 2, "guarded", spectate=False)
    attacker = zmq.Context.instance().socket(zmq.DEALER)
    attacker.linger = 0
    try:
        settle(seated)
        victim_seat = 1 - seated.clients[0].view.turn  # the seat not on turn: the other one acts next
        victim = seated.clients[victim_seat]
        ident = ident_of(server, seated.table, victim_seat)
        assert len(ident) == 5 and ident[0] == 0  # libzmq's own form
        token = victim.token
        victim.close()  # the player's link closes (a crash, a cable pulled)
        # libzmq refuses an id while the link that had it lives; a moment later it is free to claim,
        # well within the 3 s after which the server would notice a silent connection by itself.
        time.sleep(0.3)
        attacker.routing_id = ident
        attacker.connect(server.endpoint)
        time.sleep(0.3)  # the link is up; the attacker listens and says nothing
        mover = seated.clients[1 - victim_seat]
        mover.act(make_bot("random", seed=1).choose(mover.view))
        time.sleep(0.3)
        assert not attacker.poll(200), msgpack.unpackb(attacker.recv())  # no push of the seat reached it
        # Speaking, it is a new connection: nothing is bound to it, and a seat needs its token.
        for request in ({"type": "snapshot"}, {"type": "history"}, {"type": "rematch"}):
            attacker.send(msgpack.packb({**request, "id": 1}))
            assert attacker.poll(2000)
            reply = msgpack.unpackb(attacker.recv())
            assert (reply["type"], reply["code"]) == ("error", "not-seated"), reply
        attacker.send(msgpack.packb({"type": "act", "id": 2, "table": seated.table, "seat": victim_seat,
                                     "token": "0" * 32, "action": {"type": "draw"}, "ply": 0}))
        assert attacker.poll(2000)
        assert msgpack.unpackb(attacker.recv())["code"] == "bad-token"
        # The player comes back on a new connection with the token and plays on.
        with GameClient(server.endpoint, name="back") as back:
            back.resume(seated.table, victim_seat, token)
            assert back.view is not None and back.view.seat == victim_seat
    finally:
        attacker.close()
        seated.close()


def test_the_seat_is_unbound_when_its_link_closes_not_seconds_later(server) -> None:
    seated = seat_table(server.endpoint, 2, "guarded", spectate=False)
    try:
        settle(seated)
        seated.clients[1].close()
        deadline = time.monotonic() + 1.0  # the presence sweep would take lost_after (3 s)
        table = server.server.lobby.tables[seated.table]
        while table.seats[1].conn is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert table.seats[1].conn is None
    finally:
        seated.close()


def test_a_known_routing_id_heard_over_another_link_is_a_new_connection(tmp_path) -> None:
    desk = Desk(tmp_path)
    host = desk.peer("host")

    def send(link: int, kind: str, **fields) -> dict:
        out = desk.core.receive(host.ident, [msgpack.packb({"type": kind, "id": 7, **fields})], desk.now, link=link)
        desk.deliver(out)
        return next(m for m in reversed(host.received) if m["type"] in ("reply", "error"))

    table = send(5, "create_table", name="t", players=2)["table"]["id"]  # first heard over link 5
    assert send(5, "take_seat", table=table, seat=0)["type"] == "reply"
    t = desk.core.lobby.tables[table]
    assert t.seats[0].conn == host.ident
    assert send(5, "snapshot", token="0" * 32)["code"] == "bad-token"  # the same link: still the seat's
    # The same id over link 9: the link-5 connection is lost (its seat unbound), this one holds nothing.
    assert send(9, "snapshot")["code"] == "not-seated"
    assert t.seats[0].conn is None and (table, 0) in desk.core.state.presence.away
    desk.close()


def test_a_closed_link_loses_only_the_connections_heard_over_it_and_the_link_index_stays_bounded(tmp_path) -> None:
    desk = Desk(tmp_path)
    peers = [desk.peer(f"p{n}") for n in range(6)]
    for n, p in enumerate(peers):  # links 100, 101, 102: two connections over each
        desk.deliver(desk.core.receive(p.ident, [msgpack.packb({"type": "ping", "id": 1})], desk.now, link=100 + n % 3))
    presence = desk.core.state.presence
    assert {link: len(idents) for link, idents in presence.links.items()} == {100: 2, 101: 2, 102: 2}
    desk.deliver(desk.core.link_closed(101, desk.now))
    assert set(presence.conns) == {p.ident for n, p in enumerate(peers) if n % 3 != 1}
    assert set(presence.links) == {100, 102}  # nothing kept of the closed link
    for p in peers:  # every connection goes silent: the index empties with them
        p.silent = True
    desk.advance(presence.lost_after + 1, step=0.5)
    assert presence.conns == {} and presence.links == {}
    desk.close()


def test_a_new_link_on_a_closed_links_descriptor_is_not_lost_with_it(tmp_path) -> None:
    """libzmq reports a closed link on the monitor socket, then may give its descriptor to the next link.

    Read in the middle of a batch, the new link's first message used to reach the core before that
    closing, which then lost the new connection (Core.link_closed goes by descriptor): a client that
    had just resumed its seat was told `not-your-seat`. The loop is stepped by hand on real sockets.
    """
    server = Server("127.0.0.1", 0, tmp_path)
    ctx = zmq.Context.instance()
    socks: list[zmq.Socket] = []

    def connect() -> zmq.Socket:
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(server.endpoint)
        socks.append(sock)
        return sock

    def ask(sock: zmq.Socket, rid: int) -> None:
        sock.send(msgpack.packb({"type": "hello", "id": rid, "version": PROTOCOL_VERSION, "name": f"p{rid}"}))
        assert server.router is not None and server.router.poll(5000)
        server._drain(server.router, server.core)  # the batch read mid-loop: no look at the monitor first
        assert sock.poll(5000), "no reply"
        assert msgpack.unpackb(sock.recv())["type"] == "reply"

    try:
        server.bind()
        reused = 0
        for _ in range(5):  # the kernel gives the lowest free descriptor: the closed link's, nearly always
            first = connect()
            ask(first, 1)
            (old,) = server.core.state.presence.conns.values()
            first.close()
            assert server._monitor.poll(5000)  # libzmq reported the link closed; the loop has not read it
            second = connect()
            ask(second, 2)
            (new,) = (c for c in server.core.state.presence.conns.values() if c.ident != old.ident)
            reused += new.link == old.link
            server._log_links()  # the loop's next round reads whatever the monitor still holds
            assert list(server.core.state.presence.conns) == [new.ident], "the new connection was lost"
            second.close()
            assert server._monitor.poll(5000)
            server._log_links()
            assert not server.core.state.presence.conns
        assert reused >= 3, "the descriptors were not reused: the test saw nothing"
    finally:
        for sock in socks:
            sock.close(linger=0)
        server.close()
