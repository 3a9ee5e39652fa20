"""CurveZMQ: the key files, encrypted sockets, and a client refusing a server with another key."""

from __future__ import annotations

import stat
import time
from collections.abc import Iterator

import pytest
import zmq

from board99.bots import make_bot
from board99.client.handshake import HandshakeWatch, mismatch_message
from board99.client.net import GameClient, ServerError, play_bot
from board99.server import keys
from board99.server.keys import load_or_create
from board99.server.loop import run_in_thread
from board99.wire.curve import KeyPair, connect_curve, mechanism, parse_key, serve_curve


@pytest.fixture
def ctx() -> Iterator[zmq.Context]:
    context = zmq.Context()
    # A socket closed by garbage collection keeps the context's linger; an unsendable request
    # (the point of these tests) would then block term() for ever.
    context.linger = 0
    yield context
    context.destroy(linger=0)


def curve_router(ctx: zmq.Context, pair: KeyPair) -> tuple[zmq.Socket, str]:
    router = ctx.socket(zmq.ROUTER)
    serve_curve(router, pair)
    port = router.bind_to_random_port("tcp://127.0.0.1")
    return router, f"tcp://127.0.0.1:{port}"


def echo_once(router: zmq.Socket, timeout_ms: int = 2000) -> bool:
    if not router.poll(timeout_ms):
        return False
    router.send_multipart(router.recv_multipart())
    return True


def test_key_pair_is_made_once_and_saved_0600(tmp_path) -> None:
    pair = load_or_create(tmp_path)
    again = load_or_create(tmp_path)
    assert pair == again
    assert zmq.curve_public(pair.secret) == pair.public
    for name in (keys.SECRET_FILE, keys.PUBLIC_FILE):
        path = tmp_path / name
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert len(path.read_text().strip()) == 40
    assert (tmp_path / keys.PUBLIC_FILE).read_text().strip() == pair.public.decode()


def test_a_secret_key_readable_by_others_is_tightened(tmp_path) -> None:
    load_or_create(tmp_path)
    (tmp_path / keys.SECRET_FILE).chmod(0o644)
    load_or_create(tmp_path)
    assert stat.S_IMODE((tmp_path / keys.SECRET_FILE).stat().st_mode) == 0o600


def test_a_damaged_key_file_is_refused_naming_the_file(tmp_path) -> None:
    (tmp_path / keys.SECRET_FILE).write_text("not a key\n")
    with pytest.raises(ValueError, match=keys.SECRET_FILE):
        load_or_create(tmp_path)


@pytest.mark.parametrize("text, fault", [("abc", "40 Z85 characters"), ("~" * 40, "not Z85 characters")])
def test_a_bad_server_key_is_refused_naming_the_fault(text: str, fault: str) -> None:
    with pytest.raises(ValueError, match=f"server key: .*{fault}"):
        parse_key(text)


def test_right_key_talks_and_both_ends_use_curve(ctx: zmq.Context, tmp_path) -> None:
    pair = load_or_create(tmp_path)
    router, endpoint = curve_router(ctx, pair)
    dealer = ctx.socket(zmq.DEALER)
    connect_curve(dealer, pair.public.decode())
    watch = HandshakeWatch(dealer)
    dealer.connect(endpoint)
    dealer.send(b"hello")
    assert echo_once(router)
    assert dealer.poll(2000) and dealer.recv() == b"hello"
    assert mechanism(router) == "curve" and mechanism(dealer) == "curve"
    assert router.get(zmq.CURVE_SERVER) == 1 and dealer.get(zmq.CURVE_SERVER) == 0
    assert not watch.mismatch() and watch.succeeded == 1
    watch.close()


def test_wrong_key_is_named_within_a_bounded_time_and_nothing_arrives(ctx: zmq.Context, tmp_path) -> None:
    pair = load_or_create(tmp_path)
    router, endpoint = curve_router(ctx, pair)
    dealer = ctx.socket(zmq.DEALER)
    other = zmq.curve_keypair()[0]
    connect_curve(dealer, other)
    watch = HandshakeWatch(dealer)
    dealer.connect(endpoint)
    dealer.send(b"hello")
    started = time.monotonic()
    assert watch.wait(3.0) == "failed"
    assert time.monotonic() - started < 3.0
    assert watch.mismatch() and watch.succeeded == 0
    assert not router.poll(200)  # the server never saw the request
    text = mismatch_message(endpoint, other)
    assert "public key differs" in text and other.decode() in text
    watch.close()


@pytest.mark.slow
def test_a_plain_client_cannot_talk_to_a_curve_server(ctx: zmq.Context, tmp_path) -> None:
    router, endpoint = curve_router(ctx, load_or_create(tmp_path))
    dealer = ctx.socket(zmq.DEALER)
    watch = HandshakeWatch(dealer)
    dealer.connect(endpoint)
    dealer.send(b"hello")
    assert not router.poll(500)
    assert watch.mismatch() and mechanism(dealer) == "null"
    watch.close()


def test_a_plain_handshake_is_seen_to_succeed(ctx: zmq.Context) -> None:
    router = ctx.socket(zmq.ROUTER)
    port = router.bind_to_random_port("tcp://127.0.0.1")
    dealer = ctx.socket(zmq.DEALER)
    watch = HandshakeWatch(dealer)
    dealer.connect(f"tcp://127.0.0.1:{port}")
    assert watch.wait(3.0) == "succeeded" and not watch.mismatch()
    watch.close()


def test_curve_traffic_is_not_plaintext_on_the_wire(ctx: zmq.Context, tmp_path) -> None:
    # A raw TCP listener stands between client and server and records the bytes the client sends.
    import socket
    import threading

    pair = load_or_create(tmp_path)
    router, endpoint = curve_router(ctx, pair)
    server_port = int(endpoint.rsplit(":", 1)[1])
    relay = socket.create_server(("127.0.0.1", 0))
    seen = bytearray()

    def pump(src: socket.socket, dst: socket.socket, record: bool) -> None:
        try:
            while data := src.recv(65536):
                if record:
                    seen.extend(data)
                dst.sendall(data)
        except OSError:
            pass

    def accept() -> None:
        relay.settimeout(3.0)
        client, _ = relay.accept()
        upstream = socket.create_connection(("127.0.0.1", server_port))
        threading.Thread(target=pump, args=(upstream, client, False), daemon=True).start()
        pump(client, upstream, True)

    threading.Thread(target=accept, daemon=True).start()
    dealer = ctx.socket(zmq.DEALER)
    connect_curve(dealer, pair.public)
    dealer.connect(f"tcp://127.0.0.1:{relay.getsockname()[1]}")
    secret = b"my hand holds card 42 and card 77"
    dealer.send(secret)
    assert echo_once(router, 3000)
    assert dealer.poll(3000) and dealer.recv() == secret
    dealer.close(0)
    relay.close()
    assert b"CURVE" in bytes(seen)[:64]  # the ZMTP greeting names the mechanism
    assert len(seen) > len(secret) and secret not in bytes(seen) and b"card 42" not in bytes(seen)


# -- the real server with --curve ------------------------------------------------------------------


@pytest.fixture(scope="module")
def curve_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("curve-server")
    pair = load_or_create(folder)
    handle = run_in_thread(0, folder, curve=pair)
    yield handle, pair
    handle.stop()


def test_a_client_with_the_server_key_plays_a_whole_game(curve_server) -> None:
    handle, pair = curve_server
    assert mechanism(handle.server.router) == "curve"
    with GameClient(handle.endpoint, server_key=pair.public.decode(), timeout=5.0) as client:
        table = client.create_table("encrypted", 2)
        client.take_seat(table.id, 0, "red")
        client.add_bot(table.id, 1, "random")
        view = play_bot(client, make_bot("random", seed=3), until=time.monotonic() + 30)
        assert view is not None and view.winner is not None
        assert client.table.state == "over"
        assert "play" in client.fetch_record(table.id)


@pytest.mark.parametrize("expected", ["other key", "no key"])
def test_a_client_expecting_another_key_is_refused_clearly_and_quickly(curve_server, expected: str) -> None:
    handle, _ = curve_server
    key = zmq.curve_keypair()[0] if expected == "other key" else None
    started = time.monotonic()
    with GameClient(handle.endpoint, server_key=key, timeout=2.0) as client:
        with pytest.raises(ServerError) as refused:
            client.list_tables()
    assert time.monotonic() - started < 3.0
    assert refused.value.code == "bad-server-key"
    assert "curve" in refused.value.message.lower()
