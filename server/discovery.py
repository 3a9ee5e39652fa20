"""LAN discovery: a UDP beacon, as in the ZeroMQ Guide (chapter 8, "Discovery").

A running server sends a small datagram every ``interval`` seconds to UDP
port ``BEACON_PORT`` (9098) as a broadcast on the LAN: to 255.255.255.255 and
to the broadcast address of every interface that is up (on Linux), because a
LAN without a gateway has no default route and the all-ones broadcast alone
would not leave the machine. Clients listen on that port for a moment and list
the servers they heard. The host comes from the
datagram's source address, never from its payload, so a beacon cannot point
clients at a third machine.

Payload (at most ``MAX_BEACON`` bytes): the magic ``b"BOARD99"``, then one
msgpack map ``{"v": 1, "name": str, "port": int, "key": str | None}`` where
``key`` is the server's CurveZMQ public key in Z85 (40 characters) or None
when the server runs without ``--curve``. A datagram with another magic or a
newer ``v`` is ignored (and logged), so old clients survive new servers.

>>> payload = beacon_payload("den", 9099, None)
>>> parse_beacon(payload)
{'name': 'den', 'port': 9099, 'key': None}
"""

from __future__ import annotations

import logging
import socket
import struct
import sys
import threading
import time
from collections.abc import Iterable

import msgpack

log = logging.getLogger("board99.discovery")

#: The UDP port beacons are sent to and listened for on.
BEACON_PORT = 9098
#: Bytes that open every beacon.
MAGIC = b"BOARD99"
#: The payload format version this module writes and reads.
BEACON_VERSION = 1
#: Largest beacon accepted or sent; a beacon is one small datagram.
MAX_BEACON = 512
#: Seconds between beacons: clients listening for one second hear every server.
INTERVAL = 0.5
#: The limited-broadcast address: every host on the local link.
BROADCAST = "255.255.255.255"
#: Ignored datagrams logged one by one per listen(); the rest are counted in one line.
LOG_IGNORED = 10
#: Longest server name carried in a beacon (characters).
MAX_NAME = 64


#: Beacon targets meaning "the LAN": the all-ones broadcast plus each interface's own.
LAN = "lan"

# Linux ioctls and interface flags (linux/sockios.h, linux/if.h).
_SIOCGIFFLAGS, _SIOCGIFBRDADDR = 0x8913, 0x8919
_IFF_UP, _IFF_BROADCAST, _IFF_LOOPBACK = 0x1, 0x2, 0x8


def broadcast_addresses() -> list[str]:
    """The IPv4 broadcast address of every interface that is up (Linux; elsewhere none)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                flags = struct.unpack("H", fcntl.ioctl(probe, _SIOCGIFFLAGS, request)[16:18])[0]
                if flags & _IFF_LOOPBACK or not flags & _IFF_UP or not flags & _IFF_BROADCAST:
                    continue
                address = socket.inet_ntoa(fcntl.ioctl(probe, _SIOCGIFBRDADDR, request)[20:24])
            except OSError:
                continue  # no IPv4 address on this interface
            if address != "0.0.0.0" and address not in found:
                found.append(address)
    return found


def lan_targets() -> list[str]:
    """Where a LAN beacon goes: 255.255.255.255 and each interface's broadcast address."""
    return [BROADCAST, *broadcast_addresses()]


class BadBeacon(ValueError):
    """A datagram on the beacon port that is not a board99 beacon this version reads."""


def beacon_payload(name: str, port: int, key: str | None) -> bytes:
    """The datagram a server at ``port`` sends; ValueError names a bad field."""
    if not isinstance(name, str) or not name or len(name) > MAX_NAME:
        raise ValueError(f"name: {name!r} must be 1 to {MAX_NAME} characters")
    if type(port) is not int or not 1 <= port <= 65535:
        raise ValueError(f"port: {port!r} must be a TCP port 1-65535")
    if key is not None and (not isinstance(key, str) or len(key) != 40):
        raise ValueError(f"key: {key!r} must be a Z85 CurveZMQ public key (40 characters) or None")
    data = MAGIC + msgpack.packb({"v": BEACON_VERSION, "name": name, "port": port, "key": key})
    if len(data) > MAX_BEACON:
        raise ValueError(f"beacon: {len(data)} bytes is over the {MAX_BEACON}-byte limit")
    return data


def parse_beacon(data: bytes) -> dict:
    """``{"name", "port", "key"}`` from a beacon datagram; BadBeacon says what is wrong."""
    if len(data) > MAX_BEACON:
        raise BadBeacon(f"{len(data)} bytes is over the {MAX_BEACON}-byte beacon limit")
    if not data.startswith(MAGIC):
        raise BadBeacon(f"does not start with {MAGIC!r}")
    try:
        body = msgpack.unpackb(data[len(MAGIC):], strict_map_key=True)
    except Exception as exc:  # msgpack raises several types (ExtraData, FormatError, ValueError, ...)
        raise BadBeacon(f"payload is not one msgpack value ({type(exc).__name__})") from None
    if not isinstance(body, dict):
        raise BadBeacon("payload is not a map")
    version = body.get("v")
    if type(version) is not int or version != BEACON_VERSION:
        raise BadBeacon(f"v: {version!r} is not beacon version {BEACON_VERSION}")
    name, port, key = body.get("name"), body.get("port"), body.get("key")
    if not isinstance(name, str) or not name or len(name) > MAX_NAME:
        raise BadBeacon(f"name: {name!r} is not a server name of 1-{MAX_NAME} characters")
    # type() not isinstance(): True is an int and must not pass as port 1
    if type(port) is not int or not 1 <= port <= 65535:
        raise BadBeacon(f"port: {port!r} is not a TCP port 1-65535")
    if key is not None and (not isinstance(key, str) or len(key) != 40):
        raise BadBeacon(f"key: {key!r} is not a 40-character Z85 public key")
    return {"name": name, "port": port, "key": key}


class Beacon:
    """A thread that announces one server every ``interval`` seconds until ``stop()``.

    ``targets`` are the addresses datagrams go to: ``(LAN,)`` (the default) is
    every broadcast address of this machine, looked up again at each round so
    an interface that comes up later is used; tests pass ``("127.0.0.1",)`` so
    nothing leaves the machine.
    """

    def __init__(
        self,
        name: str,
        port: int,
        key: str | None = None,
        *,
        beacon_port: int = BEACON_PORT,
        targets: Iterable[str] = (LAN,),
        interval: float = INTERVAL,
    ) -> None:
        self.payload = beacon_payload(name, port, key)
        self.beacon_port = beacon_port
        self.targets = tuple(targets)
        self.interval = interval
        self.sent = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Beacon:
        """Start announcing (the first beacon goes at once); returns self."""
        if self._thread is not None:
            raise RuntimeError("beacon: already started")
        self._thread = threading.Thread(target=self._run, name="board99-beacon", daemon=True)
        self._thread.start()
        log.info("event=beacon-start port=%d targets=%s interval=%.2f",
                 self.beacon_port, ",".join(self.targets), self.interval)
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop announcing and wait (at most ``timeout`` s) for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> Beacon:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            failing: set[str] = set()
            while True:
                targets = [t for target in self.targets for t in (lan_targets() if target == LAN else [target])]
                for target in targets:
                    try:
                        sock.sendto(self.payload, (target, self.beacon_port))
                        self.sent += 1
                        failing.discard(target)
                    except OSError as exc:
                        # No route (cable out, no gateway) must not stop the server; log once per outage.
                        if target not in failing:
                            log.info("event=beacon-error target=%s error=%r", target, exc)
                        failing.add(target)
                if self._stop.wait(self.interval):
                    return


class Listener:
    """A UDP socket bound to the beacon port that collects the servers it hears.

    ``port=0`` binds a free port (read it from ``.port``), for tests.
    """

    def __init__(self, port: int = BEACON_PORT, bind: str = "") -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        # Several clients on one machine may listen at once.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self.sock.bind((bind, port))
        self.port: int = self.sock.getsockname()[1]
        self.ignored = 0

    def listen(self, timeout: float = 1.0) -> list[dict]:
        """Listen ``timeout`` seconds; the servers heard, one entry per host and port."""
        heard: dict[tuple[str, int], dict] = {}
        ignored = 0
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data, (host, src_port) = self.sock.recvfrom(MAX_BEACON + 1)
            except TimeoutError:
                break
            try:
                found = parse_beacon(data)
            except BadBeacon as exc:
                self.ignored += 1
                ignored += 1
                if ignored <= LOG_IGNORED:  # a flood of junk must not flood the log too
                    log.warning("event=beacon-ignored from=%s:%d bytes=%d reason=%r",
                                host, src_port, len(data), str(exc))
                continue
            heard[(host, found["port"])] = {"name": found["name"], "host": host,
                                            "port": found["port"], "key": found["key"]}
        if ignored > LOG_IGNORED:
            log.warning("event=beacons-ignored count=%d logged=%d", ignored, LOG_IGNORED)
        return sorted(heard.values(), key=lambda s: (s["name"], s["host"], s["port"]))

    def close(self) -> None:
        """Release the port."""
        self.sock.close()

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def discover(timeout: float = 1.0, port: int = BEACON_PORT, bind: str = "") -> list[dict]:
    """Servers heard on the LAN within ``timeout`` seconds: ``{"name", "host", "port", "key"}``.

    OSError if the beacon port cannot be bound (another program holds it without SO_REUSEPORT).
    """
    with Listener(port, bind) as listener:
        return listener.listen(timeout)
