"""What a connection's id says: libzmq's own form (a ZeroMQ peer the server named) or the web gateway's."""

from __future__ import annotations


def server_named(ident: bytes) -> bool:
    """True for a routing id of the form libzmq gives (5 bytes, the first zero); a client may choose one
    of this form too, and it then inherits nothing (docs/server.md, "What a routing id proves")."""
    return len(ident) == 5 and ident[0] == 0


#: The first byte of a web connection's id (web/gateway.py makes it: this byte and 8 random ones).
WEB_PREFIX = b"w"
WEB_IDENT_SIZE = 9


def web_named(ident: bytes) -> bool:
    """True for a web connection's id as the gateway makes it (``b"w"`` and 8 random bytes).

    The core takes such ids only from the loop's web pair (``receive_many(..., web=True)``), and
    from the ROUTER only ``server_named`` ones: a ZeroMQ client can never pose as a web connection.
    """
    return len(ident) == WEB_IDENT_SIZE and ident[:1] == WEB_PREFIX
