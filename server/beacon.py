"""The server's LAN beacon: a thread that announces the server by UDP broadcast (format: board99.wire.beacon).

Datagrams go to 255.255.255.255 and to the broadcast address of every
interface that is up (on Linux), because a LAN without a gateway has no
default route and the all-ones broadcast alone would not leave the machine.
"""

from __future__ import annotations

import logging
import socket
import struct
import sys
import threading
from collections.abc import Iterable

from board99.wire.beacon import BEACON_PORT, beacon_payload

log = logging.getLogger("board99.discovery")

#: Seconds between beacons: clients listening for one second hear every server.
INTERVAL = 0.5
#: The limited-broadcast address: every host on the local link.
BROADCAST = "255.255.255.255"


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
