"""The LAN discovery beacon's format, as in the ZeroMQ Guide (chapter 8, "Discovery").

A running server sends a small datagram every half second to UDP port
``BEACON_PORT`` (9098) as a broadcast on the LAN (``board99.server.beacon``);
clients listen on that port and list the servers they heard
(``board99.client.discovery``). The host comes from the datagram's source
address, never from its payload, so a beacon cannot point clients at a third
machine.

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

import msgpack

from .curve import parse_key

#: The UDP port beacons are sent to and listened for on.
BEACON_PORT = 9098
#: Bytes that open every beacon.
MAGIC = b"BOARD99"
#: The payload format version this module writes and reads.
BEACON_VERSION = 1
#: Largest beacon accepted or sent; a beacon is one small datagram.
MAX_BEACON = 512
#: Longest server name carried in a beacon (characters).
MAX_NAME = 64


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
    if key is not None:
        try:
            parse_key(key if isinstance(key, str) else "", "key")
        except ValueError as exc:
            raise BadBeacon(f"{exc}"[:120]) from None
    return {"name": name, "port": port, "key": key}
