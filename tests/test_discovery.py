"""LAN discovery (the UDP beacon), on loopback only: nothing is sent to a real LAN address."""

from __future__ import annotations

import logging
import socket
import time

import msgpack
import pytest
import zmq

from board99.client.discovery import Listener, discover
from board99.server.beacon import Beacon
from board99.wire.beacon import BEACON_PORT, MAGIC, MAX_BEACON, BadBeacon, beacon_payload, parse_beacon

LOOPBACK = ("127.0.0.1",)


def send(port: int, data: bytes) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(data, ("127.0.0.1", port))


def test_beacon_payload_round_trips_name_port_and_key() -> None:
    key = zmq.curve_keypair()[0].decode()
    assert parse_beacon(beacon_payload("den", 9099, key)) == {"name": "den", "port": 9099, "key": key}
    assert parse_beacon(beacon_payload("den", 9099, None))["key"] is None


def test_the_documented_beacon_port_is_9098() -> None:
    assert BEACON_PORT == 9098


@pytest.mark.slow
def test_a_server_is_heard_with_its_host_port_and_key() -> None:
    key = zmq.curve_keypair()[0].decode()
    with Listener(port=0, bind="127.0.0.1") as listener:
        with Beacon("den", 9123, key, beacon_port=listener.port, targets=LOOPBACK, interval=0.05):
            heard = listener.listen(0.5)
    assert heard == [{"name": "den", "host": "127.0.0.1", "port": 9123, "key": key}]


def test_repeated_beacons_are_listed_once_and_two_servers_both_listed() -> None:
    with Listener(port=0, bind="127.0.0.1") as listener:
        with Beacon("den", 9123, beacon_port=listener.port, targets=LOOPBACK, interval=0.02) as one, \
                Beacon("attic", 9124, beacon_port=listener.port, targets=LOOPBACK, interval=0.02):
            heard = listener.listen(0.4)
            assert one.sent >= 2  # several beacons arrived, yet each server is listed once
    assert [(s["name"], s["port"]) for s in heard] == [("attic", 9124), ("den", 9123)]


def test_discover_listens_for_the_timeout_and_returns_the_servers() -> None:
    with Listener(port=0, bind="127.0.0.1") as probe:
        port = probe.port
    # discover() binds the port itself; the beacon keeps sending until it is heard.
    with Beacon("den", 9099, beacon_port=port, targets=LOOPBACK, interval=0.05):
        started = time.monotonic()
        heard = discover(timeout=0.4, port=port, bind="127.0.0.1")
        elapsed = time.monotonic() - started
    assert [s["name"] for s in heard] == ["den"]
    assert 0.35 <= elapsed < 2.0


def test_silence_gives_an_empty_list_after_the_timeout() -> None:
    with Listener(port=0, bind="127.0.0.1") as listener:
        assert listener.listen(0.1) == []


def test_lan_targets_are_the_all_ones_broadcast_and_the_interfaces_own_never_loopback() -> None:
    from board99.server.beacon import lan_targets

    targets = lan_targets()
    assert targets[0] == "255.255.255.255" and len(set(targets)) == len(targets)
    for address in targets:
        socket.inet_aton(address)  # a dotted IPv4 address
        assert not address.startswith("127.")


def test_the_beacon_thread_stops_promptly() -> None:
    beacon = Beacon("den", 9099, beacon_port=9, targets=LOOPBACK, interval=10.0).start()
    time.sleep(0.05)
    started = time.monotonic()
    beacon.stop()
    assert time.monotonic() - started < 1.0
    assert beacon.sent == 1  # the first beacon goes at once, the next would be 10 s later


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "does not start with"),
        (b"HELLO" * 4, "does not start with"),
        (MAGIC, "not one msgpack value"),
        (MAGIC + b"\xc1", "not one msgpack value"),
        (MAGIC + msgpack.packb([1, 2]), "not a map"),
        (MAGIC + msgpack.packb({"v": 2, "name": "x", "port": 1, "key": None}), "v: 2"),
        (MAGIC + msgpack.packb({"v": True, "name": "x", "port": 1, "key": None}), "v: True"),
        (MAGIC + msgpack.packb({"v": 1, "name": "", "port": 1, "key": None}), "name"),
        (MAGIC + msgpack.packb({"v": 1, "name": "x", "port": True, "key": None}), "port: True"),
        (MAGIC + msgpack.packb({"v": 1, "name": "x", "port": 70000, "key": None}), "port: 70000"),
        (MAGIC + msgpack.packb({"v": 1, "name": "x", "port": 1, "key": "short"}), "key"),
        (MAGIC + msgpack.packb({"v": 1, "name": "x", "port": 1, "key": None}) + b"\x00", "not one msgpack"),
        (MAGIC + b"\x00" * MAX_BEACON, "over the"),
    ],
)
def test_malformed_datagrams_are_refused_with_the_reason(data: bytes, reason: str) -> None:
    with pytest.raises(BadBeacon, match=reason):
        parse_beacon(data)


def test_malformed_datagrams_are_ignored_and_logged_and_real_servers_still_heard(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="board99.discovery")
    with Listener(port=0, bind="127.0.0.1") as listener:
        send(listener.port, b"garbage")
        send(listener.port, MAGIC + b"\xc1\xc1")
        send(listener.port, MAGIC + b"\xff" * 4000)
        with Beacon("den", 9099, beacon_port=listener.port, targets=LOOPBACK, interval=0.05):
            heard = listener.listen(0.3)
    assert [s["name"] for s in heard] == ["den"]
    assert listener.ignored == 3
    ignored = [r.getMessage() for r in caplog.records if "beacon-ignored" in r.getMessage()]
    assert len(ignored) == 3 and all("from=127.0.0.1:" in line for line in ignored)


def test_a_flood_of_junk_is_logged_in_a_bounded_number_of_lines(caplog: pytest.LogCaptureFixture) -> None:
    from board99.client.discovery import LOG_IGNORED

    caplog.set_level(logging.WARNING, logger="board99.discovery")
    with Listener(port=0, bind="127.0.0.1") as listener:
        for _ in range(100):  # well within the socket's receive buffer
            send(listener.port, b"junk")
        with Beacon("den", 9099, beacon_port=listener.port, targets=LOOPBACK, interval=0.05):
            heard = listener.listen(0.3)
    assert [s["name"] for s in heard] == ["den"]
    assert listener.ignored == 100
    lines = [r.getMessage() for r in caplog.records]
    assert sum("event=beacon-ignored" in line for line in lines) == LOG_IGNORED
    assert "event=beacons-ignored count=100" in lines[-1]


def test_a_bad_beacon_is_refused_at_the_server_naming_the_field() -> None:
    with pytest.raises(ValueError, match="port"):
        beacon_payload("den", 0, None)
    with pytest.raises(ValueError, match="name"):
        beacon_payload("x" * 65, 9099, None)
    with pytest.raises(ValueError, match="key"):
        beacon_payload("den", 9099, "not-a-key")


@pytest.mark.slow
def test_a_running_server_is_discovered_with_its_curve_key_and_can_be_joined(tmp_path) -> None:
    from board99.client.net import GameClient
    from board99.client.net import discover as client_discover
    from board99.server.keys import load_or_create
    from board99.server.loop import run_in_thread

    pair = load_or_create(tmp_path)
    with Listener(port=0, bind="127.0.0.1") as probe:
        port = probe.port
    handle = run_in_thread(0, tmp_path, name="den", curve=pair,
                           beacon={"beacon_port": port, "targets": LOOPBACK, "interval": 0.05})
    try:
        heard = client_discover(timeout=0.4, port=port, bind="127.0.0.1")
        assert heard == [{"name": "den", "host": "127.0.0.1", "port": handle.port, "key": pair.public.decode()}]
        found = heard[0]
        with GameClient(f"tcp://{found['host']}:{found['port']}", server_key=found["key"], timeout=5.0) as client:
            assert not client.list_tables()
    finally:
        handle.stop()
    # Stopping the server stops its beacon.
    assert discover(timeout=0.2, port=port, bind="127.0.0.1") == []
