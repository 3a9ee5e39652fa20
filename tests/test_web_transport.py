"""The web transport (web/gateway.py, the loop's web PAIR): files, Origin, limits, and the bridge into the core.

Real sockets on 127.0.0.1: a server with its web table on a free port, the `websockets` sync client
as the browser, `http.client` and a raw socket for the page's files. ``RawSeat`` is a seat for the
transport's own tests: it passes the wire protocol through as JSON, so a test can speak to the core
directly. The last tests use the real WebSeat (web/seat.py) end to end, as a browser page does
(tests/test_web_seat.py checks the seat itself). Every wait is bounded in count and time.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import msgpack
import pytest
import zmq
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from board99.client.net import GameClient
from board99.record import Record
from board99.server.core import Core, web_named
from board99.server.loop import ServerThread, run_in_thread
from board99.server.serve import default_web_port, lan_address
from board99.web.address import qr_rows, qr_text, web_address
from board99.web.files import BadPath, load, name_of
from board99.web.gateway import LOG_MAX, Gateway, Limits, LogBudget, host_allowed, new_ident
from board99.web.seat import patched
from board99.wire.protocol import PROTOCOL_VERSION
from tests.browser_kit import browser  # noqa: F401 (a fixture)
from tests.browser_kit import until as browser_until
from tests.core_kit import Desk
from tests.server_kit import Offender, card_locations, drive, leaks, seat_table, settle

INDEX = b"<!doctype html><title>board99</title><script src=app.js></script>"
SECRET = b"a file next to the page's folder, never served"


class RawSeat:
    """A test seat: ``{"raw": {...}}`` from the page goes to the core as one request; every frame back
    goes to the page as ``{"raw": {...}}``; bad JSON is answered with a notice naming it."""

    made: list[RawSeat] = []

    def __init__(self, ident: bytes, host: str, now: float) -> None:
        self.ident, self.host = ident, host
        self.core: list[bytes] = []
        self.page: list[str] = []
        self.closed_at: float | None = None
        RawSeat.made.append(self)

    def from_page(self, text: str, now: float) -> None:
        try:
            msg = json.loads(text)
            raw = msg["raw"]
            if not isinstance(raw, dict):
                raise TypeError("raw is not an object")
        except (ValueError, KeyError, TypeError) as exc:
            self.page.append(json.dumps({"notice": {"text": f"not understood: {exc}", "tone": "bad"}}))
            return
        if raw.get("explode"):
            raise RuntimeError("a seat's bug")
        if "flood" in raw:  # many texts at once (each padded to ``pad`` characters)
            pad = "x" * int(raw.get("pad", 0))
            self.page.extend(json.dumps({"n": n, "pad": pad}) for n in range(int(raw["flood"])))
            return
        self.core.append(msgpack.packb(raw))

    def from_core(self, frame: bytes | dict, now: float) -> None:
        # The loop hands a web connection the core's message itself (server/outbox.py), not its frame.
        assert type(frame) is dict
        self.page.append(json.dumps({"raw": frame}, default=repr))

    def tick(self, now: float) -> None:
        pass

    def next_tick(self) -> float:
        return float("inf")

    def to_core(self) -> list[bytes]:
        out, self.core = self.core, []
        return out

    def to_page(self) -> list[str]:
        out, self.page = self.page, []
        return out

    def closed(self, now: float) -> None:
        self.closed_at = now


@pytest.fixture
def static(tmp_path: Path) -> Path:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "index.html").write_bytes(INDEX)
    (folder / "app.js").write_text("document.title = 'board99';\n")
    (folder / "app.css").write_text("body { margin: 0 }\n")
    (tmp_path / "secret.txt").write_bytes(SECRET)
    (folder / "escape.txt").symlink_to(tmp_path / "secret.txt")  # a link out of the folder
    return folder


def start(tmp_path: Path, static: Path, **options: Any) -> ServerThread:
    RawSeat.made.clear()
    return run_in_thread(data_dir=tmp_path / "data", web_port=0, web_seat=RawSeat, web_static=static,
                         lost_after=30.0, **options)


@pytest.fixture
def server(tmp_path: Path, static: Path) -> Iterator[ServerThread]:
    handle = start(tmp_path, static)
    yield handle
    handle.stop()


def web_url(handle: ServerThread, path: str = "/ws") -> str:
    return f"ws://127.0.0.1:{handle.server.web_port}{path}"


def page(handle: ServerThread, origin: str | None = "same", **options: Any) -> ClientConnection:
    """A browser page's WebSocket (its Origin the page's own unless given)."""
    if origin == "same":
        origin = f"http://127.0.0.1:{handle.server.web_port}"
    return connect(web_url(handle), origin=origin, open_timeout=5, close_timeout=2, **options)


def get(handle: ServerThread, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", handle.server.web_port, timeout=5)
    conn.request("GET", path, headers=headers or {})
    return conn.getresponse()


def raw_http(handle: ServerThread, request: bytes, source: str = "127.0.0.1") -> bytes:
    """What the server answers to ``request`` sent as it is (no client library to tidy the path), from ``source``."""
    with socket.create_connection(("127.0.0.1", handle.server.web_port), timeout=5,
                                  source_address=(source, 0)) as sock:
        sock.sendall(request)
        chunks = []
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def ask(ws: ClientConnection, request: dict, timeout: float = 5.0) -> dict:
    """Send one request through the page and return the core's answer to it (pushes on the way skipped)."""
    ws.send(json.dumps({"raw": request}))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        raw = msg.get("raw", {})
        if raw.get("id") == request.get("id") and raw.get("type") in ("reply", "error"):
            return raw
    raise AssertionError(f"no answer to {request}")


def until(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return check()


def hello(ws: ClientConnection, name: str = "guest") -> dict:
    return ask(ws, {"type": "hello", "id": 1, "version": PROTOCOL_VERSION, "name": name})


# -- the page's files ----------------------------------------------------------------------------------


def test_the_page_is_served_with_its_type_cache_rule_and_a_policy_of_its_own_host_only(server) -> None:
    answer = get(server, "/")
    assert answer.status == 200 and answer.read() == INDEX
    assert answer.getheader("Content-Type") == "text/html; charset=utf-8"
    assert answer.getheader("Cache-Control") == "no-cache"
    assert answer.getheader("X-Content-Type-Options") == "nosniff"
    policy = answer.getheader("Content-Security-Policy")
    host = f"127.0.0.1:{server.server.web_port}"
    assert "default-src 'self'" in policy and f"connect-src 'self' ws://{host};" in policy
    assert "frame-ancestors 'none'" in policy and "http:" not in policy and "*" not in policy
    script = get(server, "/app.js?v=1")
    assert script.status == 200 and script.getheader("Content-Type") == "text/javascript; charset=utf-8"
    assert get(server, "/app.css").getheader("Content-Type") == "text/css; charset=utf-8"
    etag = script.getheader("ETag")
    assert get(server, "/app.js", {"If-None-Match": etag}).status == 304  # unchanged: not sent again


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/static/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt",
    "/%252e%252e/secret.txt", "/..\\secret.txt", "/%5c..%5csecret.txt", "/index.html%00.js", "//etc/passwd",
    "/escape.txt", "/nothing-here.js", "/.hidden", "/%ff",
])
def test_a_path_out_of_the_pages_folder_or_not_in_it_is_refused(server, path: str) -> None:
    answer = raw_http(server, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None
    assert status in (400, 404, None), answer[:200]  # None: the request line was not even HTTP
    assert SECRET not in answer and b"root:" not in answer


def test_request_paths_are_read_as_names_only() -> None:
    assert name_of("/") == "index.html" and name_of("/app.js?x=/../y") == "app.js"
    for bad in ("/..", "/a/../b", "/%2e%2e/", "/%252e%252E/x", "/a\\b", "/a%5cb", "/a%00", "relative", "/%c3%28"):
        with pytest.raises(BadPath):
            name_of(bad)


def test_only_regular_files_inside_the_folder_are_loaded(static: Path) -> None:
    (static / "sub").mkdir()
    (static / "sub" / "inner.js").write_text("x")
    assert set(load(static)) == {"index.html", "app.js", "app.css"}  # no link out, no folder, no subfolder
    assert set(load(str(static))) == set(load(static))  # a folder named by a string too


# -- Origin, Host and the handshake ----------------------------------------------------------------------


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1", None])
def test_a_websocket_from_another_origin_or_none_is_refused_before_any_seat(server, origin) -> None:
    with pytest.raises(InvalidStatus) as refused:
        page(server, origin=origin if origin is None else (origin if origin != "https://127.0.0.1" else
                                                           f"https://127.0.0.1:{server.server.web_port}"))
    assert refused.value.response.status_code == 403
    assert RawSeat.made == []


def test_a_page_whose_name_was_pointed_here_is_refused(server) -> None:
    # DNS rebinding: evil.example resolves to this machine, so its page's Origin equals its Host.
    port = server.server.web_port
    answer = raw_http(server, (f"GET /ws HTTP/1.1\r\nHost: evil.example:{port}\r\nOrigin: http://evil.example:{port}\r\n"
                               "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert answer.startswith(b"HTTP/1.1 403"), answer[:100]
    assert RawSeat.made == []
    assert host_allowed(f"127.0.0.1:{port}", set()) and host_allowed(f"[::1]:{port}", set())
    assert host_allowed("localhost:9100", {"localhost"}) and not host_allowed("evil.example:9100", {"localhost"})
    assert not host_allowed("127.0.0.1:80\r\nX: y", set())


def test_the_own_page_connects_and_speaks_to_the_core(server) -> None:
    with page(server) as ws:
        reply = hello(ws)
        assert reply["type"] == "reply" and reply["server"] == "board99", reply
    (seat,) = RawSeat.made
    assert web_named(seat.ident) and seat.host == "127.0.0.1"
    assert until(lambda: seat.closed_at is not None)


# -- limits ------------------------------------------------------------------------------------------------


def test_an_oversized_frame_closes_the_connection(server) -> None:
    with page(server) as ws:
        hello(ws)
        ws.send(json.dumps({"raw": {"type": "ping", "id": 2, "pad": "x" * 17_000}}))
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(10):
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    with page(server) as ws:  # the server serves on
        assert hello(ws)["type"] == "reply"


def test_a_binary_frame_closes_the_connection(server) -> None:
    with page(server) as ws:
        ws.send(b"\x00\x01")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003


def test_a_message_in_pieces_closes_the_connection(server) -> None:
    with page(server) as ws:
        hello(ws)
        with pytest.raises(ConnectionClosed) as closed:
            # One message in two frames (no browser does): the close may come before the second is sent.
            ws.send(iter(['{"raw": ', '{"type": "ping", "id": 2}}']))
            for _ in range(10):
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003


def test_a_text_frame_that_is_not_utf8_closes_the_connection(server) -> None:
    port = server.server.web_port
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101")
        mask, payload = b"\x01\x02\x03\x04", b"\xff\xfe\xfd"
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        closing = sock.recv(64)
        assert closing[0] == 0x88 and int.from_bytes(closing[2:4], "big") == 1007, closing  # a close frame: 1007


def test_a_page_owed_more_than_its_send_buffer_holds_is_dropped(tmp_path, static) -> None:
    handle = start(tmp_path, static, web_limits=Limits(send_buffer=64 * 1024))
    try:
        with page(handle) as ws:
            # 8 MB at once: more than the page's socket takes, and what is left over the server's buffer.
            ws.send(json.dumps({"raw": {"flood": 8000, "pad": 1000}}))
            assert until(lambda: RawSeat.made[0].closed_at is not None)  # dropped; its seat (its token) is kept
            with pytest.raises(ConnectionClosed):
                for _ in range(10_000):
                    ws.recv(timeout=5)
        with page(handle) as ws:
            ws.send(json.dumps({"raw": {"flood": 64}}))  # as much as the socket takes: all of it arrives
            assert [json.loads(ws.recv(timeout=5))["n"] for _ in range(64)] == list(range(64))
    finally:
        handle.stop()


@pytest.mark.slow
def test_a_silent_socket_and_a_page_that_stops_answering_pings_are_closed(tmp_path, static) -> None:
    limits = Limits(open_timeout=0.5, ping_interval=0.2, ping_timeout=0.3)
    handle = start(tmp_path, static, web_limits=limits)
    try:
        port = handle.server.web_port
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:  # says nothing at all
            started = time.monotonic()
            assert sock.recv(100) == b""  # closed by the server after its handshake time
            assert time.monotonic() - started < 4
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n").encode())
            assert sock.recv(12) == b"HTTP/1.1 101"
            assert until(lambda: len(RawSeat.made) == 1)
            # The page never answers a ping: the server closes its side and the seat hears it.
            assert until(lambda: RawSeat.made[0].closed_at is not None, 4.0)
    finally:
        handle.stop()


def test_more_connections_from_one_machine_than_allowed_are_refused(tmp_path, static) -> None:
    handle = start(tmp_path, static, conns_per_host=3, max_conns=4)
    try:
        port = handle.server.web_port
        for n in range(5):  # past the Origin check, then no WebSocket: these hold no place afterwards
            answer = raw_http(handle, f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                      f"Origin: http://127.0.0.1:{port}\r\n\r\n".encode(), source=f"127.0.0.{2 + n}")
            assert answer.startswith(b"HTTP/1.1 426"), answer[:60]  # Upgrade Required
        with contextlib.ExitStack() as stack:
            pages = [stack.enter_context(page(handle)) for _ in range(3)]
            with pytest.raises(InvalidStatus) as refused:
                page(handle)
            assert refused.value.response.status_code == 503
            assert b"from this machine" in refused.value.response.body
            pages[0].close()
            assert until(lambda: RawSeat.made[0].closed_at is not None)
            with page(handle) as another:  # one went: one may come
                assert hello(another)["type"] == "reply"
    finally:
        handle.stop()


def test_garbage_is_answered_and_a_failing_seat_drops_only_its_own_page(server) -> None:
    with page(server) as calm, page(server) as ws:
        for text in ("{", "[]", '{"raw": 3}', "\u0000" * 100, json.dumps({"x": [1] * 1000})):
            ws.send(text)
            notice = json.loads(ws.recv(timeout=5))
            assert notice["notice"]["tone"] == "bad"
        ws.send(json.dumps({"raw": {"explode": True}}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
        assert hello(calm)["type"] == "reply"  # the other page and the server go on


def test_frames_faster_than_the_rate_are_dropped_with_a_notice(server) -> None:
    with page(server) as ws:
        hello(ws)
        for n in range(100):  # over the burst of 60 at once
            ws.send(json.dumps({"raw": {"type": "ping", "id": 10 + n}}))
        texts = []
        while True:
            try:
                texts.append(json.loads(ws.recv(timeout=1)))
            except TimeoutError:
                break
        assert any("messages a second" in t.get("notice", {}).get("text", "") for t in texts)
        assert sum(1 for t in texts if "raw" in t) < 100


# -- the bridge: the core, ZeroMQ beside it, and identities ------------------------------------------------


def test_zeromq_clients_play_on_beside_web_pages(server) -> None:
    endpoint = server.endpoint
    with page(server) as ws:
        hello(ws)
        client = GameClient(endpoint, name="zmq", timeout=5)
        try:
            info = client.create_table("beside", 2, "guarded")
            client.take_seat(info.id, 0)
            client.add_bot(info.id, 1)
            for n in range(5):  # the page talks while the ZeroMQ client plays
                assert ask(ws, {"type": "list_tables", "id": 100 + n})["type"] == "reply"
                assert client.list_tables()
            assert client.view is not None and client.table is not None
        finally:
            client.close()


def test_a_web_page_that_goes_away_mid_game_loses_its_connection_and_keeps_its_seat(server) -> None:
    client = GameClient(server.endpoint, name="zmq", timeout=5)
    try:
        with page(server) as ws:
            hello(ws, "webby")
            made = ask(ws, {"type": "create_table", "id": 2, "name": "t", "players": 2, "mode": "guarded"})
            table = made["table"]["id"]
            sat = ask(ws, {"type": "take_seat", "id": 3, "table": table, "seat": 0})
            assert sat["type"] == "reply" and sat["token"]
            client.take_seat(table, 1)  # the game starts
            (seat,) = RawSeat.made
            presence = server.server.core.state.presence
            assert seat.ident in presence.conns
        # The page closed: the core hears it at once (not after lost_after, which is 30 s here).
        assert until(lambda: seat.ident not in presence.conns, 5.0)
        assert until(lambda: (table, 0) in presence.away, 5.0)
        t = server.server.lobby.tables[table]
        assert t.state == "playing" and t.seats[0].name == "webby" and t.seats[0].conn is None
        with page(server) as again:  # the seat's token brings the page back to it
            hello(again, "webby")
            back = ask(again, {"type": "resume", "id": 4, "table": table, "seat": 0, "token": sat["token"]})
            assert back["type"] == "reply", back
    finally:
        client.close()


@pytest.mark.slow
def test_a_web_spectator_receives_no_card_it_may_not_see(server) -> None:
    # The hidden-information check of tests/test_server_hidden.py, on what reaches the pages.
    seated = seat_table(server.endpoint, 3, "penalty", spectate=False)
    received: list[dict] = []
    stop = threading.Event()

    def read(ws: ClientConnection, into: list[dict]) -> None:  # a page reads all the time, as a browser does
        while not stop.is_set():
            try:
                into.append(json.loads(ws.recv(timeout=0.1))["raw"])
            except TimeoutError:
                continue
            except ConnectionClosed:
                return

    try:
        with page(server) as watcher:
            hello(watcher, "watcher")
            assert ask(watcher, {"type": "spectate", "id": 2, "table": seated.table})["type"] == "reply"
            reader = threading.Thread(target=read, args=(watcher, received), daemon=True)
            reader.start()
            try:
                drive(seated, offender=Offender(), seconds=40, bot="random")  # penalties show cards to some
                settle(seated)
                time.sleep(0.3)  # the last pushes reach the page
            finally:
                stop.set()
                reader.join(5)
        text = seated.clients[0].fetch_record(seated.table)
        states, seed = card_locations(text), Record.loads(text).seed
        assert len(received) > 20 and any(m.get("type") == "update" for m in received)
        found = leaks(received, None, states, seed)
        assert not found, "; ".join(found[:5])
    finally:
        seated.close()


def test_a_zeromq_client_with_a_web_shaped_routing_id_is_refused(server) -> None:
    dealer = zmq.Context.instance().socket(zmq.DEALER)
    dealer.linger = 0
    dealer.routing_id = new_ident()
    try:
        dealer.connect(server.endpoint)
        dealer.send(msgpack.packb({"type": "hello", "id": 1, "version": PROTOCOL_VERSION, "name": "poser"}))
        assert dealer.poll(5000)
        answer = msgpack.unpackb(dealer.recv(), raw=False)
        assert answer["type"] == "error" and answer["code"] == "bad-identity"
    finally:
        dealer.close()


def test_the_core_takes_web_ids_only_from_the_web_pair(tmp_path) -> None:
    desk = Desk(tmp_path)
    core: Core = desk.core
    frame = msgpack.packb({"type": "ping", "id": 1})
    web = new_ident()
    out = core.receive(web, [frame], 1000.0, "10.0.0.1")  # from the ROUTER
    # (A web id's message stays a map in the Outbox: the loop packs it for the ROUTER, tested below.)
    assert [f["code"] for _, f in out.sends] == ["bad-identity"] and not core.knows(web)
    out = core.receive(b"\x00abcd", [frame], 1000.0, "10.0.0.1", web=True)  # a ROUTER-shaped id from the PAIR
    assert out.sends == [] and not core.knows(b"\x00abcd")
    out = core.receive(web, [frame], 1000.0, "10.0.0.1", web=True)
    assert core.knows(web) and out.sends[0][1]["type"] == "reply"
    core.web_closed(web, 1000.1)
    assert not core.knows(web)


# -- board99 serve: where guests go --------------------------------------------------------------------------


def test_the_web_address_is_the_lan_address_and_reads_as_a_qr_code() -> None:
    lan = lan_address()
    assert web_address(9100) == f"http://{lan or '127.0.0.1'}:9100/"
    assert web_address(9100, "10.1.2.3") == "http://10.1.2.3:9100/" and web_address(80, "::1") == "http://[::1]:80/"
    assert default_web_port(9099) == 9100 and default_web_port(0) == 0 and default_web_port(65535) == 0
    rows = qr_rows("http://10.1.2.3:9100/", border=0)
    assert len(rows) == len(rows[0]) == 25  # a version 2 code: 25 modules square
    assert rows[0][:7] == [True] * 7  # a finder pattern's top edge in the corner
    text = qr_text("http://10.1.2.3:9100/").splitlines()
    assert len(text) == (25 + 2 * 4 + 1) // 2 and set("".join(text)) <= set("█▀▄ ")


@pytest.mark.slow
def test_board99_serve_prints_the_web_address_and_serves_it(tmp_path) -> None:
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen([sys.executable, "-m", "board99.commands", "serve", "--bind", "127.0.0.1", "--port", "0",
                             "--web-port", "0", "--qr", "--data", str(tmp_path), "--no-beacon"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=root,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        assert "listening" in lines[0], lines
        (guests,) = [line for line in lines if line.startswith("Guests open ")]
        url = guests.split()[2]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")  # the address it was bound to
        port = int(url.rsplit(":", 1)[1].strip("/"))
        assert "█" in lines[2]  # the QR code follows
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/../x")
        assert conn.getresponse().status == 400
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/")
        index = conn.getresponse()  # the installed package's page
        assert index.status == 200 and index.read() == (root / "web" / "static" / "index.html").read_bytes()
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}/ws", origin="http://evil.example", open_timeout=5)
        assert refused.value.response.status_code == 403
        with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}", open_timeout=5) as ws:
            texts_until(ws, screen("welcome"))  # the real seat greets the page
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


# -- with the real seat (web/seat.py's WebSeat): what a browser page meets ------------------------------------


@pytest.fixture
def real(tmp_path: Path) -> Iterator[ServerThread]:
    handle = run_in_thread(data_dir=tmp_path / "data", web_port=0, lost_after=30.0)  # WebSeat, the package's page
    yield handle
    handle.stop()


#: The last scene each test page drew (a patch is read as the scene it makes, as the page draws it).
DRAWN: weakref.WeakKeyDictionary[ClientConnection, dict] = weakref.WeakKeyDictionary()


def texts_until(ws: ClientConnection, check: Callable[[dict], bool], seconds: float = 5.0) -> list[dict]:
    """The page's messages up to and including the first that ``check`` accepts (AssertionError if none comes).

    A patch comes back as ``{"scene": ...}``, the whole scene it makes of the one before.
    """
    got: list[dict] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        except TimeoutError:
            break
        if "patch" in msg:
            msg = {"scene": patched(DRAWN.get(ws, {}), msg["patch"])}
        if "scene" in msg:
            DRAWN[ws] = msg["scene"]
        got.append(msg)
        if check(got[-1]):
            return got
    raise AssertionError(f"not among the page's messages: {[json.dumps(m)[:300] for m in got]}")


def screen(name: str) -> Callable[[dict], bool]:
    return lambda msg: msg.get("scene", {}).get("screen") == name


@contextlib.contextmanager
def guest(handle: ServerThread, name: str, seat: dict | None = None) -> Iterator[ClientConnection]:
    """A page that has said hello as the page does (its name, no key, the seat token it kept if any)."""
    with page(handle) as ws:
        texts_until(ws, screen("welcome"))
        ws.send(json.dumps({"hello": {"name": name, "key": None, "seat": seat}}))
        yield ws


def test_garbage_from_a_page_is_answered_in_words_by_the_real_seat(real) -> None:
    with guest(real, "Guest") as ws:
        texts_until(ws, screen("lobby"))
        for text in ("{", "[]", '{"press": 3}', '{"nonsense": {}}', json.dumps({"press": "x" * 2000})):
            ws.send(text)
            (notice,) = [m for m in texts_until(ws, lambda m: "notice" in m) if "notice" in m]
            assert notice["notice"]["tone"] == "bad" and notice["notice"]["text"]
        ws.send(json.dumps({"press": "game-ninety-nine", "fields": {}}))  # and it goes on
        texts_until(ws, lambda m: "Ninety-Nine" in json.dumps(m.get("scene", {}).get("parts", [])))


def test_a_guest_whose_page_goes_mid_game_keeps_the_seat_and_comes_back_to_it(real) -> None:
    client = GameClient(real.endpoint, name="zmq", timeout=5)
    presence = real.server.core.state.presence
    try:
        with guest(real, "Guest") as ws:
            texts_until(ws, screen("lobby"))
            form = {"name": "web", "players": "2", "mode": "guarded", "clock": "none", "match": "single",
                    "pace": "quick", "rated": "no"}
            ws.send(json.dumps({"press": "create", "fields": form}))
            texts_until(ws, lambda m: '"sit-' in json.dumps(m.get("scene", {})))  # its card in the lobby
            (table,) = real.server.lobby.tables
            ws.send(json.dumps({"press": f"sit-{table}-0", "fields": {}}))
            kept = [m["keep"] for m in texts_until(ws, lambda m: bool(m.get("keep", {}).get("seat"))) if "keep" in m]
            client.take_seat(table, 1)  # the game starts
            texts_until(ws, lambda m: "starts" in m.get("notice", {}).get("text", ""))
            (ident,) = [i for i in presence.conns if web_named(i)]
        assert until(lambda: ident not in presence.conns)  # at once, not after lost_after (30 s here)
        assert until(lambda: (table, 0) in presence.away)
        t = real.server.lobby.tables[table]
        assert t.state == "playing" and t.seats[0].name == "Guest" and t.seats[0].conn is None
        with guest(real, "Guest", kept[-1]["seat"]) as again:  # the token the page kept brings it back
            texts_until(again, screen("table"))
            assert until(lambda: t.seats[0].conn is not None and web_named(t.seats[0].conn))
            assert (table, 0) not in presence.away
    finally:
        client.close()


# -- in a real browser (Debian's Chromium through Playwright: tests/browser_kit.py) ------------------------------

EVIL = """<!doctype html><title>elsewhere</title><script src="evil.js"></script>"""
EVIL_JS = """window.result = "pending";
const sock = new WebSocket("ws://127.0.0.1:PORT/ws");
sock.onopen = () => { window.result = "open"; };
sock.onerror = () => { window.result = "refused"; };
sock.onmessage = () => { window.result = "open"; };
"""


@pytest.mark.slow
def test_in_a_browser_the_page_runs_under_its_policy_and_a_page_from_elsewhere_is_refused(
        real, browser, tmp_path) -> None:  # noqa: F811 (the fixture)
    port = real.server.web_port
    context = browser.new_context(viewport={"width": 375, "height": 667})
    problems: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"http://127.0.0.1:{port}/")
        browser_until(page, "() => document.title !== ''")
        page.locator("input").first.fill("Browser")
        page.keyboard.press("Enter")
        browser_until(page, "() => document.title.startsWith('Lobby')")  # through the gateway, seat and core
        assert problems == []  # the gateway's policy refuses nothing of the page's own
        for path in ("/%2e%2e/pyproject.toml", "/..%2fpyproject.toml", "/nothing.js"):
            answer = page.goto(f"http://127.0.0.1:{port}{path}")
            assert answer is not None and answer.status in (400, 404)
            assert "[project]" not in page.content()
        # A page from another origin (another port: another origin) opens a WebSocket to the gateway.
        (tmp_path / "evil").mkdir()
        (tmp_path / "evil" / "index.html").write_text(EVIL)
        (tmp_path / "evil" / "evil.js").write_text(EVIL_JS.replace("PORT", str(port)))
        elsewhere = PlainSite(tmp_path / "evil")
        try:
            other = context.new_page()
            other.goto(elsewhere.url)
            browser_until(other, "() => window.result !== 'pending'")
            assert other.evaluate("() => window.result") == "refused"
        finally:
            elsewhere.close()
        assert real.server.gateway.opened == 1  # the guest's own page only: no seat for the other
    finally:
        context.close()


class PlainSite:
    """A folder over HTTP on 127.0.0.1 with no policy of its own (a page of another site)."""

    def __init__(self, root: Path) -> None:
        handler = functools.partial(_Silent, directory=str(root))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


class _Silent(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_connection_lines_are_logged_at_most_log_max_a_second(caplog) -> None:
    # A storm of refused or dropped connections must not become a storm of log lines.
    clock = [0.0]
    budget = LogBudget(lambda: clock[0])
    with caplog.at_level(logging.INFO, logger="board99.web"):
        for n in range(100):
            budget(logging.WARNING, "event=web-refused why=origin n=%d", n)
        clock[0] = 1.5
        budget(logging.INFO, "event=web-connect")
    lines = [r.getMessage() for r in caplog.records if r.name == "board99.web"]
    assert len(lines) == LOG_MAX + 2
    assert lines[LOG_MAX:] == [f"event=web-log-skipped lines={100 - LOG_MAX}", "event=web-connect"]


def test_a_fault_in_the_web_transport_is_logged_and_the_loop_serves_on(tmp_path, static, monkeypatch, caplog) -> None:
    faults = []
    ready = Gateway.ready

    def faulty(self: Gateway, events: dict, now: float) -> None:
        if not faults and any(type(key) is int for key in events):
            faults.append(now)
            raise RuntimeError("a bug in the transport")
        ready(self, events, now)

    monkeypatch.setattr(Gateway, "ready", faulty)
    caplog.set_level(logging.ERROR, "board99.server")
    handle = start(tmp_path, static)
    try:
        with page(handle) as ws:  # its first bytes met the fault; the poll finds them again
            assert hello(ws)["type"] == "reply"
        with GameClient(handle.endpoint, name="zmq", timeout=5) as client:
            assert list(client.list_tables()) == []
    finally:
        handle.stop()
    assert faults
    assert any("event=internal-error step=web-" in r.getMessage() for r in caplog.records)
