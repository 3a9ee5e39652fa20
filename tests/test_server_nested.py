"""A value nested a thousand lists deep, in any field a client sends, gets `bad-field`, never `internal` (issue 19).

Each request goes over a real socket to a real server on 127.0.0.1. msgpack decodes lists nested
about a thousand deep; Python's repr() of such a value raises RecursionError, so every place that
quotes, formats or walks a client's value must bound itself.
"""

from __future__ import annotations

import logging
from typing import Any

import msgpack
import pytest
import zmq

from board99.server.loop import run_in_thread
from board99.wire.protocol import PROTOCOL_VERSION, REQUESTS

#: A msgpack value: a list in a list ... 1,000 deep, around nil (libmsgpack's decoder takes it).
DEEP = b"\x91" * 1000 + b"\xc0"

#: A valid value for each request field, so that the one deep field is the one checked.
SAMPLE: dict[str, Any] = {
    "version": PROTOCOL_VERSION, "name": "Ann", "key": "ab" * 32, "offset": 0, "limit": 5, "players": 2, "mode": "guarded",
    "clock": 30, "grace": 30, "match": {"kind": "games", "target": 1}, "rated": False, "table": "nosuch",
    "seat": 0, "colour": "red", "token": "0" * 32, "bot": "random", "action": {"type": "draw"}, "ply": 0,
    "game": 1, "whole_match": False, "player": "Ann", "entrants": [["Ann"], ["Bo"]], "rounds": 1,
    "tournament": "nosuch",
}


def frame(fields: dict[str, Any], raw: dict[str, bytes]) -> bytes:
    """One msgpack map: ``fields`` packed as usual, ``raw`` values given already packed (too deep for packb)."""
    count = len(fields) + len(raw)
    assert count < 16
    body = bytes([0x80 | count])
    for key, value in fields.items():
        body += msgpack.packb(key) + msgpack.packb(value)
    for key, packed in raw.items():
        body += msgpack.packb(key) + packed
    return body


def nest(inner: dict[str, Any], key: str) -> bytes:
    """``inner`` as a msgpack map with ``key``'s value replaced by DEEP."""
    others = {k: v for k, v in inner.items() if k != key}
    return frame(others, {key: DEEP})


class Raw:
    """A bare DEALER: sends frames as given, returns the reply to each."""

    def __init__(self, endpoint: str) -> None:
        self.sock = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.linger = 0
        self.sock.connect(endpoint)
        self.ids = 0

    def ask(self, kind: str, fields: dict[str, Any], raw: dict[str, bytes] | None = None) -> dict:
        self.ids += 1
        self.sock.send(frame({"type": kind, "id": self.ids, **fields}, raw or {}))
        for _ in range(50):  # pushes may come first; 50 messages or 5 s at most
            assert self.sock.poll(5000), f"no reply to {kind}"
            msg = msgpack.unpackb(self.sock.recv())
            if msg.get("id") == self.ids and msg["type"] in ("reply", "error"):
                return msg
        raise AssertionError(f"no reply to {kind} among 50 messages")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def server(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="board99.server")
    handle = run_in_thread(data_dir=tmp_path)
    yield handle
    handle.stop()
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert failures == [], failures  # no traceback, no internal error, for any of it


FIELDS = [(kind, field) for kind, spec in REQUESTS.items() for field in spec]


@pytest.mark.parametrize(("kind", "field"), FIELDS, ids=[f"{k}.{f}" for k, f in FIELDS])
def test_a_deep_value_in_any_request_field_is_a_bad_field(server, kind, field) -> None:
    raw = Raw(server.endpoint)
    try:
        others = {name: SAMPLE[name] for name, (_, required) in REQUESTS[kind].items() if required and name != field}
        reply = raw.ask(kind, others, {field: DEEP})
        assert (reply["type"], reply["code"]) == ("error", "bad-field"), reply
        assert reply["message"].startswith(f"{field}: ") and len(reply["message"]) < 200
    finally:
        raw.close()


@pytest.mark.parametrize("kind", ["create_table", "create_tournament"])
@pytest.mark.parametrize("inner", ["kind", "target"])
def test_a_deep_match_kind_or_target_is_a_bad_field(server, kind, inner) -> None:
    raw = Raw(server.endpoint)
    try:
        fields = {"name": "t", "players": 2}
        if kind == "create_tournament":
            fields |= {"entrants": [["bot:random"], ["bot:rulebook"]], "rounds": 1}
        reply = raw.ask(kind, fields, {"match": nest({"kind": "games", "target": 1}, inner)})
        assert (reply["type"], reply["code"]) == ("error", "bad-field"), reply
        assert reply["message"].startswith("match") and len(reply["message"]) < 200
    finally:
        raw.close()


def test_a_deep_side_in_a_tournament_is_a_bad_field(server) -> None:
    raw = Raw(server.endpoint)
    try:
        sides = b"\x92" + msgpack.packb(["bot:random"]) + DEEP
        reply = raw.ask("create_tournament", {"name": "t", "players": 2, "rounds": 1,
                                              "match": {"kind": "games", "target": 1}}, {"entrants": sides})
        assert (reply["type"], reply["code"]) == ("error", "bad-field"), reply
    finally:
        raw.close()


@pytest.mark.parametrize(("action", "inner"), [("draw", "type"), ("discard", "card"), ("play", "card"),
                                               ("play", "square")])
def test_a_seated_act_with_a_deep_type_card_or_square_is_a_bad_field(server, action, inner) -> None:
    raw = Raw(server.endpoint)
    try:
        table = raw.ask("create_table", {"name": "t", "players": 2})["table"]["id"]
        token = raw.ask("take_seat", {"table": table, "seat": 0})["token"]
        assert raw.ask("add_bot", {"table": table, "seat": 1, "token": token})["type"] == "reply"
        data = {"type": action, "card": 50, "square": 60}
        reply = raw.ask("act", {"table": table, "seat": 0, "token": token, "ply": 0}, {"action": nest(data, inner)})
        assert (reply["type"], reply["code"]) == ("error", "bad-field"), reply
        assert reply["message"].startswith(f"action.{inner}: expected") and "[[[" in reply["message"]
        assert len(reply["message"]) < 120
    finally:
        raw.close()


@pytest.mark.parametrize("inner", ["type", "card", "value", "say", "draw"])
def test_a_seated_ninety_nine_act_with_a_deep_field_is_a_bad_field(server, inner) -> None:
    raw = Raw(server.endpoint)
    try:
        table = raw.ask("create_table", {"name": "t", "players": 2, "game": "ninety-nine",
                                         "options": {"rules": "convention"}})["table"]["id"]
        token = raw.ask("take_seat", {"table": table, "seat": 0})["token"]
        assert raw.ask("add_bot", {"table": table, "seat": 1, "bot": "sound", "token": token})["type"] == "reply"
        data = {"type": "play", "card": "AS", "value": 1, "say": 1, "draw": True}
        reply = raw.ask("act", {"table": table, "seat": 0, "token": token, "ply": 0}, {"action": nest(data, inner)})
        assert (reply["type"], reply["code"]) == ("error", "bad-field"), reply
        assert reply["message"].startswith(f"action.{inner}: expected") and "[[[" in reply["message"]
        assert len(reply["message"]) < 120
    finally:
        raw.close()


@pytest.mark.parametrize("inner", ["rules", "hand_size", "rank_A"])
def test_a_deep_ninety_nine_option_is_a_bad_field(server, inner) -> None:
    raw = Raw(server.endpoint)
    try:
        reply = raw.ask("create_table", {"name": "t", "players": 2, "game": "ninety-nine"},
                        {"options": nest({"rules": "convention", inner: 0}, inner)})
        assert (reply["type"], reply["code"]) == ("error", "bad-field"), reply
        assert reply["message"].startswith(f"options.{inner}: ") and len(reply["message"]) < 300, reply
    finally:
        raw.close()
