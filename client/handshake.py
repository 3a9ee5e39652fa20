"""Noticing a failed handshake on a client socket, so a key mismatch is named instead of timing out.

With the wrong server key (or none, at a ``--curve`` server) the handshake
never completes; libzmq retries quietly and a request would just wait.
``HandshakeWatch`` reads the socket's monitor events so the client can say
"the server's key differs" instead of "timeout".
"""

from __future__ import annotations

import time

import zmq
from zmq.utils.monitor import parse_monitor_message

_HANDSHAKE_EVENTS = (
    zmq.EVENT_HANDSHAKE_SUCCEEDED
    | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_HANDSHAKE_FAILED_AUTH
)


class HandshakeWatch:
    """Follows a client socket's handshakes, so a silent key mismatch can be named.

    Create it right after the socket (before ``connect``); call ``mismatch()``
    when a request has waited too long. Owned by the thread that owns the socket.
    """

    def __init__(self, sock: zmq.Socket) -> None:
        self._sock = sock
        self._monitor = sock.get_monitor_socket(_HANDSHAKE_EVENTS)
        self.succeeded = 0
        self.failed = 0
        #: The outcome of the latest handshake: "succeeded", "failed" or None before the first.
        self.last: str | None = None

    def update(self) -> None:
        """Read the monitor events that arrived (never blocks)."""
        while True:
            try:
                frames = self._monitor.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            event = parse_monitor_message(frames)["event"]
            if event == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                self.succeeded += 1
                self.last = "succeeded"
            else:
                self.failed += 1
                self.last = "failed"

    def wait(self, timeout: float) -> str | None:
        """Block at most ``timeout`` seconds for the first handshake's outcome: 'succeeded', 'failed' or None.

        A fresh socket's first request can come before its handshake has finished
        either way; a client calls this before calling the server unreachable.
        """
        deadline = time.monotonic() + timeout
        self.update()
        while self.last is None and (left := deadline - time.monotonic()) > 0:
            if self._monitor.poll(max(1, int(left * 1000))):
                self.update()
        return self.last

    def mismatch(self) -> bool:
        """True when the latest handshake failed: with CURVE, the server's key is not the one expected."""
        self.update()
        return self.last == "failed"

    def close(self) -> None:
        """Stop watching (call before closing the socket)."""
        try:
            self._sock.disable_monitor()
        except zmq.ZMQError:
            pass  # the socket is already closed
        self._monitor.close(linger=0)


def mismatch_message(endpoint: str, server_key: str | bytes | None) -> str:
    """Plain-English text for a client whose handshake with ``endpoint`` keeps failing."""
    if server_key is None:
        return (f"the server at {endpoint} refused the connection handshake: it runs with --curve; "
                "give its public key (shown at its start and by discovery)")
    key = server_key.decode() if isinstance(server_key, bytes) else server_key
    return (f"the server at {endpoint} did not complete the CURVE handshake: its public key differs "
            f"from the expected {key} (or it does not run with --curve)")
