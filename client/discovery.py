"""LAN discovery on the client's side: listen for server beacons (format: board99.wire.beacon)."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable

from board99.wire.beacon import BEACON_PORT, MAX_BEACON, BadBeacon, parse_beacon

log = logging.getLogger("board99.discovery")

#: Ignored datagrams logged one by one per listen(); the rest are counted in one line.
LOG_IGNORED = 10
#: Servers kept from one source address, and in all: a host forging beacons by the thousand cannot
#: hide the real servers behind its own.
MAX_PER_HOST = 4
MAX_HEARD = 32
#: Servers the player trusts (``favoured``: a pinned key, a server used before) are kept apart from the
#: strangers' places, up to this many: no number of strangers' beacons pushes them out.
MAX_FAVOURED = 32


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

    def listen(self, timeout: float = 1.0, favoured: Callable[[dict], bool] | None = None) -> list[dict]:
        """Listen ``timeout`` seconds; the servers heard, one entry per host and port.

        ``favoured(server)``: True for a server the player trusts; those have places of their own
        (MAX_FAVOURED), so strangers filling MAX_HEARD cannot keep them out.
        """
        heard: dict[tuple[str, int], dict] = {}
        trusted: dict[tuple[str, int], dict] = {}
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
            server = {"name": found["name"], "host": host, "port": found["port"], "key": found["key"]}
            where = (host, found["port"])
            if favoured is not None and favoured(server):
                if where in trusted or len(trusted) < MAX_FAVOURED:
                    trusted[where] = server
                    heard.pop(where, None)
                    continue
            if where in trusted:
                continue  # a trusted server's place is not taken by a stranger's beacon from its address
            if where not in heard:
                if len(heard) >= MAX_HEARD or sum(1 for h, _ in heard if h == host) >= MAX_PER_HOST:
                    self.ignored += 1
                    ignored += 1
                    continue
            heard[where] = server
        if ignored > LOG_IGNORED:
            log.warning("event=beacons-ignored count=%d logged=%d", ignored, LOG_IGNORED)
        order = sorted(heard.values(), key=lambda s: (s["name"], s["host"], s["port"]))
        return sorted(trusted.values(), key=lambda s: (s["name"], s["host"], s["port"])) + order

    def close(self) -> None:
        """Release the port."""
        self.sock.close()

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def discover(timeout: float = 1.0, port: int = BEACON_PORT, bind: str = "",
             favoured: Callable[[dict], bool] | None = None) -> list[dict]:
    """Servers heard on the LAN within ``timeout`` seconds: ``{"name", "host", "port", "key"}``.

    The ``favoured`` (see ``Listener.listen``) first. OSError if the beacon port cannot be bound
    (another program holds it without SO_REUSEPORT).
    """
    with Listener(port, bind) as listener:
        return listener.listen(timeout, favoured)
