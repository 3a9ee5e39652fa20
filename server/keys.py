"""CurveZMQ for `board99 serve --curve`: the server's key pair, and sockets set up to use it.

With ``--curve`` every connection is encrypted and the client checks the
server: a client is given the server's public key (shown at server start and
carried in the discovery beacon) and its handshake only completes with the
server holding the matching secret key.

Clients are *not* authenticated by key. The server installs no ZAP handler,
and a CURVE server with no ZAP handler accepts any client key; that is
intended: a client makes a fresh key pair per connection, and what a
connection may do is decided by the seat tokens of the protocol, not by keys.

With the wrong server key the handshake never completes; libzmq retries
quietly and a request would just wait. ``HandshakeWatch`` reads the socket's
monitor events so the client can say "the server's key differs" instead of
"timeout".

The key pair lives in the data directory as two Z85 text files (40
characters and a newline), ``curve_secret.key`` and ``curve_public.key``,
both created with mode 0600.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import NamedTuple

import zmq
from zmq.utils import z85
from zmq.utils.monitor import parse_monitor_message

log = logging.getLogger("board99.keys")

SECRET_FILE = "curve_secret.key"
PUBLIC_FILE = "curve_public.key"
_Z85_CHARS = frozenset(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")


class KeyPair(NamedTuple):
    """A CurveZMQ key pair, both halves as 40-byte Z85 text."""

    public: bytes
    secret: bytes


def require_curve() -> None:
    """RuntimeError unless this libzmq was built with CURVE (libsodium)."""
    if not zmq.has("curve"):
        raise RuntimeError(f"--curve: libzmq {zmq.zmq_version()} was built without CURVE support")


def parse_key(text: str | bytes, field: str = "server key") -> bytes:
    """A Z85 public or secret key as bytes; ValueError naming ``field`` and the fault otherwise.

    >>> parse_key("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7")
    b'rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7'
    """
    raw = text.encode("ascii", "replace") if isinstance(text, str) else bytes(text)
    raw = raw.strip()
    if len(raw) != 40:
        raise ValueError(f"{field}: a CurveZMQ key is 40 Z85 characters, got {len(raw)}")
    bad = sorted({chr(c) for c in raw if c not in _Z85_CHARS})
    if bad:
        raise ValueError(f"{field}: {''.join(bad)!r} are not Z85 characters")
    if len(z85.decode(raw)) != 32:  # pragma: no cover - 40 Z85 characters always decode to 32 bytes
        raise ValueError(f"{field}: does not decode to a 32-byte key")
    return raw


def _write_private(path: Path, data: bytes) -> None:
    # Created 0600 from the start (never world-readable, even for an instant), then moved into place.
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def load(data_dir: str | os.PathLike) -> KeyPair:
    """The key pair saved in ``data_dir``; FileNotFoundError if there is none, ValueError if damaged."""
    folder = Path(data_dir)
    secret_path = folder / SECRET_FILE
    secret = parse_key(secret_path.read_bytes(), f"{secret_path}")
    mode = secret_path.stat().st_mode & 0o777
    if mode & 0o077:
        # Like ssh, a secret others can read is a fault; tighten it and say so.
        log.warning("event=key-permissions path=%s mode=%o action=chmod-600", secret_path, mode)
        secret_path.chmod(0o600)
    public = zmq.curve_public(secret)
    public_path = folder / PUBLIC_FILE
    if not public_path.exists() or public_path.read_bytes().strip() != public:
        # The public half is derived from the secret one; the file is only for people to read.
        _write_private(public_path, public)
    return KeyPair(public, secret)


def load_or_create(data_dir: str | os.PathLike) -> KeyPair:
    """The server's key pair from ``data_dir``, made and saved there on first use."""
    require_curve()
    folder = Path(data_dir)
    try:
        return load(folder)
    except FileNotFoundError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    public, secret = zmq.curve_keypair()
    _write_private(folder / SECRET_FILE, secret)
    _write_private(folder / PUBLIC_FILE, public)
    log.info("event=key-created dir=%s public=%s", folder, public.decode())
    return KeyPair(public, secret)


def serve_curve(sock: zmq.Socket, keys: KeyPair) -> None:
    """Make ``sock`` (the server's ROUTER, before bind) a CURVE server with ``keys``."""
    require_curve()
    sock.curve_secretkey = keys.secret
    sock.curve_publickey = keys.public
    sock.curve_server = True


def connect_curve(sock: zmq.Socket, server_key: str | bytes) -> KeyPair:
    """Make ``sock`` (a client DEALER, before connect) a CURVE client expecting ``server_key``.

    The client's own key pair is fresh and thrown away with the socket: the
    server does not authenticate clients by key (see the module docstring).
    """
    require_curve()
    own = KeyPair(*zmq.curve_keypair())
    sock.curve_serverkey = parse_key(server_key)
    sock.curve_publickey = own.public
    sock.curve_secretkey = own.secret
    return own


def mechanism(sock: zmq.Socket) -> str:
    """The security mechanism ``sock`` uses: 'curve' or 'null'."""
    return {zmq.CURVE: "curve", zmq.NULL: "null", zmq.PLAIN: "plain"}.get(sock.get(zmq.MECHANISM), "other")


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
