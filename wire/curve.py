"""CurveZMQ as both ends use it: key pairs, Z85 key checks, and sockets set up as server or client.

With ``board99 serve --curve`` every connection is encrypted and the client
checks the server: a client is given the server's public key (shown at server
start and carried in the discovery beacon) and its handshake only completes
with the server holding the matching secret key.

Clients are *not* authenticated by key. The server installs no ZAP handler,
and a CURVE server with no ZAP handler accepts any client key; that is
intended: a client makes a fresh key pair per connection, and what a
connection may do is decided by the seat tokens of the protocol, not by keys.

Where the server keeps its key pair is the server's business
(``board99.server.keys``); noticing a failed handshake is the client's
(``board99.client.handshake``).
"""

from __future__ import annotations

from typing import NamedTuple

import zmq
from zmq.utils import z85

Z85_CHARS = frozenset(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")


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
    >>> parse_key("short")
    Traceback (most recent call last):
    ...
    ValueError: server key: a CurveZMQ key is 40 Z85 characters, got 5
    """
    raw = text.encode("ascii", "replace") if isinstance(text, str) else bytes(text)
    raw = raw.strip()
    if len(raw) != 40:
        raise ValueError(f"{field}: a CurveZMQ key is 40 Z85 characters, got {len(raw)}")
    bad = sorted({chr(c) for c in raw if c not in Z85_CHARS})
    if bad:
        raise ValueError(f"{field}: {''.join(bad)!r} are not Z85 characters")
    if len(z85.decode(raw)) != 32:  # pragma: no cover - 40 Z85 characters always decode to 32 bytes
        raise ValueError(f"{field}: does not decode to a 32-byte key")
    return raw


def new_key_pair() -> KeyPair:
    """A fresh key pair."""
    require_curve()
    return KeyPair(*zmq.curve_keypair())


def public_of(secret: bytes) -> bytes:
    """The public half that belongs to a secret key."""
    return zmq.curve_public(secret)


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
    own = new_key_pair()
    sock.curve_serverkey = parse_key(server_key)
    sock.curve_publickey = own.public
    sock.curve_secretkey = own.secret
    return own


def mechanism(sock: zmq.Socket) -> str:
    """The security mechanism ``sock`` uses: 'curve' or 'null'."""
    names: dict[int, str] = {zmq.CURVE: "curve", zmq.NULL: "null", zmq.PLAIN: "plain"}
    return names.get(int(sock.get(zmq.MECHANISM)), "other")
