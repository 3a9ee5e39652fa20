"""What the server sends: every reply's and every push's fields and their checks, as ``protocol`` states requests'.

A client checks each message it receives here before it keeps anything of
it: a server that is broken, old or hostile gets a ``BadReply`` naming the
message and the field, never a crash deep in the client. The checks are of
shape and type; the data inside a field (a table description, a view, an
advice) is read by its own ``from_data``, which names its own bad fields.
Fields not listed here are ignored (a newer server may add some:
docs/protocol.md, *Data*). docs/protocol.md lists the same fields; a test
reads both ways.

>>> check_reply("ping", {"type": "reply", "id": 3, "epoch": "41490f9a", "table": None, "seat": None, "seq": None})
{'epoch': '41490f9a', 'table': None, 'seat': None, 'seq': None}
>>> check_push({"type": "update", "table": "0034d728", "seq": "3"})
Traceback (most recent call last):
...
board99.wire.replies.BadReply: update: seq: expected a whole number, got '3'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from board99.quote import quote

#: A field's check: returns the value, or raises ValueError saying what was expected.
Check = Callable[[Any], Any]


class BadReply(ValueError):
    """A message from the server that breaks its schema: ``message`` names the message type and the field."""

    def __init__(self, what: str, field: str, why: str) -> None:
        super().__init__(f"{what}: {field}: {why}")
        self.what, self.field, self.why = what, field, why


def _expected(want: str, value: Any) -> ValueError:
    return ValueError(f"expected {want}, got {quote(value, width=40)}")


def whole(value: Any) -> int:
    """An int (not a bool)."""
    if type(value) is not int:
        raise _expected("a whole number", value)
    return value


def number(value: Any) -> float:
    """A finite int or float (not a bool)."""
    if type(value) not in (int, float) or not math.isfinite(value):
        raise _expected("a number", value)
    return value


def text(value: Any) -> str:
    """A str."""
    if type(value) is not str:
        raise _expected("text", value)
    return value


def flag(value: Any) -> bool:
    """True or false."""
    if type(value) is not bool:
        raise _expected("true or false", value)
    return value


def mapping(value: Any) -> dict:
    """A map (its own ``from_data`` reads inside it)."""
    if type(value) is not dict:
        raise _expected("a map", value)
    return value


def nullable(inner: Check) -> Check:
    """``inner`` or nil."""
    def check(value: Any) -> Any:
        return None if value is None else inner(value)
    return check


def list_of(inner: Check) -> Check:
    """A list whose every item passes ``inner``."""
    def check(value: Any) -> list:
        if type(value) is not list:
            raise _expected("a list", value)
        for i, item in enumerate(value):
            try:
                inner(item)
            except ValueError as exc:
                raise ValueError(f"item {i}: {exc}") from None
        return value
    return check


def event(value: Any) -> dict:
    """A table event: a map with a text ``kind`` (the game kind's own fields besides)."""
    if type(value) is not dict or type(value.get("kind")) is not str:
        raise _expected("an event (a map with a text 'kind')", value)
    return value


EVENTS = list_of(event)
#: Fields a reply carries when it is a snapshot of the table (docs/protocol.md, the Clone pattern).
SNAPSHOT: dict[str, tuple[Check, bool]] = {
    "table": (mapping, True), "seat": (nullable(whole), True), "seq": (whole, True), "view": (mapping, True),
}

#: Reply (to request type) -> {field: (check, required)}: the fields of a ``reply`` besides ``type`` and ``id``.
REPLIES: dict[str, dict[str, tuple[Check, bool]]] = {
    "hello": {"version": (whole, True), "server": (text, True), "epoch": (text, True),
              "heartbeat": (number, True), "lost_after": (number, True), "curve": (flag, True),
              "player": (nullable(mapping), True), "web": (text, False)},
    "ping": {"epoch": (text, True), "table": (nullable(text), True), "seat": (nullable(whole), True),
             "seq": (nullable(whole), True)},
    "list_tables": {"tables": (list_of(mapping), True), "total": (whole, True), "offset": (whole, True)},
    "create_table": {"table": (mapping, True)},
    "take_seat": {"token": (text, True), **SNAPSHOT, "events": (EVENTS, False)},
    "add_bot": {"table": (mapping, True)},
    "spectate": dict(SNAPSHOT),
    "resume": dict(SNAPSHOT),
    "leave": {},
    "rematch": {**SNAPSHOT, "events": (EVENTS, False)},
    "snapshot": dict(SNAPSHOT),
    "act": {"events": (EVENTS, True), "seq": (whole, True), "view": (mapping, True), "state": (text, True),
            "turn_left": (nullable(number), True), "table": (mapping, False)},
    "fetch_record": {"record": (text, True)},
    "history": {"lines": (list_of(text), True), "views": (list_of(mapping), True)},
    "list_records": {"records": (list_of(mapping), True), "total": (whole, True)},
    "leaderboard": {"players": (list_of(mapping), True), "total": (whole, True)},
    "player": {"player": (mapping, True)},
    "create_tournament": {"tournament": (mapping, True), "token": (text, True)},
    "next_round": {"tournament": (mapping, True)},
    "list_tournaments": {"tournaments": (list_of(mapping), True), "total": (whole, True)},
    "hint": {"advice": (mapping, True), **SNAPSHOT},
}

#: The fields of an ``error`` besides ``type`` (its ``id`` is nil when the server could not read the request's).
ERROR: dict[str, tuple[Check, bool]] = {"id": (nullable(whole), True), "code": (text, True),
                                        "message": (text, True)}

#: Push type -> {field: (check, required)}: the fields of a push besides ``type``.
PUSHES: dict[str, dict[str, tuple[Check, bool]]] = {
    "update": {"table": (text, True), "seq": (whole, True), "by": (whole, True), "action": (mapping, True),
               "clock": (flag, True), "events": (EVENTS, True), "state": (text, True),
               "turn_left": (nullable(number), True), "view": (mapping, True), "info": (mapping, False)},
    "table": {"table": (text, True), "seq": (whole, True), "change": (text, True), "info": (mapping, True),
              "view": (mapping, True), "events": (EVENTS, False), "by": (whole, False)},
}


def _check(what: str, spec: dict[str, tuple[Check, bool]], msg: dict) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for field, (check, required) in spec.items():
        if field not in msg:
            if required:
                raise BadReply(what, field, "missing")
            continue
        try:
            fields[field] = check(msg[field])
        except ValueError as exc:
            raise BadReply(what, field, str(exc)) from None
    return fields


def check_reply(request: str, msg: dict) -> dict[str, Any]:
    """The listed fields of the ``reply`` to a ``request``-type request; BadReply naming the field otherwise."""
    spec = REPLIES.get(request)
    if spec is None:
        raise BadReply(f"reply to '{request}'", "type", "not a request this client knows")
    return _check(f"reply to '{request}'", spec, msg)


def check_error(msg: dict) -> dict[str, Any]:
    """The fields of an ``error``; BadReply naming the field otherwise."""
    return _check("error", ERROR, msg)


def check_push(msg: dict) -> dict[str, Any]:
    """The listed fields of a push (its ``type`` one of PUSHES); BadReply naming the field otherwise."""
    kind = msg.get("type")
    if type(kind) is not str or kind not in PUSHES:
        raise BadReply("push", "type", f"{quote(kind, width=40)} is not a message a server sends")
    return _check(kind, PUSHES[kind], msg)
