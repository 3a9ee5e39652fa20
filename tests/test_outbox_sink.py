"""The outbox: its sink (a frame the loop can send leaves the moment the core makes it, in the order made)
and the core's encoder (msgpack's bytes, made by ormsgpack).

A person's reply no longer waits for the rest of the core's step (scheduling the bot's answer, the
table's pushes); frames the sink leaves (a web link's) stay in the outbox for the end of the step.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import uuid
from typing import Any, NamedTuple

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board99.server.outbox import Outbox, packer
from board99.wire.protocol import PROTOCOL_VERSION, encode
from tests.core_kit import Desk


class Sent:
    """A sink that sends every frame but those of ``keep`` (a web link's), and remembers what it sent."""

    def __init__(self, keep: frozenset[bytes] = frozenset()) -> None:
        self.keep = keep
        self.frames: list[tuple[bytes, dict]] = []

    def __call__(self, ident: bytes, frame: bytes) -> bool:
        if ident in self.keep:
            return False
        self.frames.append((ident, msgpack.unpackb(frame)))
        return True


def test_a_sink_gets_every_frame_at_once_in_the_order_made_and_leaves_the_rest_in_the_outbox() -> None:
    sink = Sent(keep=frozenset({b"web"}))
    out = Outbox(packer(), sink)
    out.reply(b"a", 1, {"x": 1})
    out.send(b"web", {"type": "table"})
    assert [(i, m["type"]) for i, m in sink.frames] == [(b"a", "reply")]  # sent before the next is made
    out.error(b"b", 2, "bad-field", "why")
    out.send(b"web", {"type": "update"})
    assert [(i, m["type"]) for i, m in sink.frames] == [(b"a", "reply"), (b"b", "error")]
    assert [(i, msgpack.unpackb(f)["type"]) for i, f in out.sends] == [(b"web", "table"), (b"web", "update")]


def test_without_a_sink_every_frame_waits_in_the_outbox() -> None:
    out = Outbox(packer())
    out.reply(b"a", 1, {"x": 1})
    out.error(b"b", 2, "bad-field", "why")
    assert [i for i, _ in out.sends] == [b"a", b"b"]


def _table_of_one_person_and_a_bot(desk: Desk, spectators: int = 0):
    person = desk.peer("ann")
    person.ask("hello", version=PROTOCOL_VERSION, name="ann")
    table = person.ask("create_table", name="ann", players=2, mode="guarded")["table"]
    person.sit(table["id"], 0)
    person.ask("add_bot", table=table["id"], seat=1, token=person.token, bot="random")
    watchers = []
    for n in range(spectators):
        w = desk.peer(f"watcher {n}")
        w.ask("hello", version=PROTOCOL_VERSION, name=f"watcher {n}")
        w.ask("spectate", table=table["id"])
        watchers.append(w)
    while person.view.turn != 0:
        desk.advance(0.5)
    return person, table["id"], watchers


def test_a_persons_act_is_answered_through_the_sink_with_the_bytes_the_outbox_would_hold(tmp_path) -> None:
    """The same act at a core with a sink and at one without: the reply, then the push, each time."""
    for n, use_sink in enumerate((False, True)):
        desk = Desk(tmp_path / str(n))
        person, table, (watcher,) = _table_of_one_person_and_a_bot(desk, spectators=1)
        sink = Sent()
        desk.core.sink = sink if use_sink else None
        frame = msgpack.packb({"type": "act", "id": 99, "table": table, "seat": 0, "token": person.token,
                               "action": {"type": "draw"}, "ply": person.view.ply})
        out = desk.core.receive(person.ident, [frame], desk.now)
        if use_sink:
            assert out.sends == []  # every frame left through the sink
            got = sink.frames
        else:
            got = [(i, msgpack.unpackb(f)) for i, f in out.sends]
        # The actor's reply first, then the spectator's push of the same action: one seq, one position.
        assert [(i, m["type"]) for i, m in got] == [(person.ident, "reply"), (watcher.ident, "update")]
        (_, reply), (_, push) = got
        assert reply["id"] == 99 and push["by"] == 0
        assert reply["seq"] == push["seq"] and reply["view"]["ply"] == push["view"]["ply"] == person.view.ply + 1
        desk.close()


class Pair(NamedTuple):
    """A NamedTuple, as kinds' views hold: msgpack packs it as an array."""

    a: Any
    b: Any


_SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
            | st.floats(allow_nan=False) | st.text(max_size=40) | st.binary(max_size=300))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (st.lists(inner, max_size=8) | st.lists(inner, max_size=8).map(tuple)
                   | st.tuples(inner, inner).map(lambda t: Pair(*t))
                   | st.dictionaries(st.text(max_size=12) | st.integers(-1000, 1000), inner, max_size=8)),
    max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_the_cores_encoder_gives_msgpacks_bytes_for_any_wire_value(value) -> None:
    assert packer()({"type": "reply", "id": 1, "value": value}) == encode({"type": "reply", "id": 1, "value": value})


def test_the_cores_encoder_refuses_what_msgpack_refuses_and_packs_odd_keys_as_it_does() -> None:
    pack = packer()
    for bad, error in ((object(), TypeError), ({1.5j: 1}, TypeError), (1 << 64, OverflowError)):
        with pytest.raises(error):
            encode({"x": bad})
        with pytest.raises(error):
            pack({"x": bad})
    for odd in ({(1, 2): 3}, {None: 1}, {b"k": 1}, {True: 1}):  # keys ormsgpack leaves to msgpack
        assert pack({"x": odd}) == encode({"x": odd})


class Colour(enum.Enum):
    RED = "red"


class Side(enum.StrEnum):
    BLUE = "blue"


@dataclasses.dataclass
class Point:
    x: int


def test_what_ormsgpack_would_pack_but_msgpack_refuses_is_refused() -> None:
    """A dataclass, a datetime, a UUID or a plain Enum is no wire value: refused as msgpack refuses it."""
    pack = packer()
    for bad in (Point(1), datetime.datetime(2026, 1, 1), uuid.UUID(int=7), Colour.RED):
        with pytest.raises(TypeError):
            encode({"x": bad})
        with pytest.raises(TypeError):
            pack({"x": bad})
    assert pack({"x": Side.BLUE}) == encode({"x": Side.BLUE})  # a str's Enum is that str to both


def test_every_frame_of_whole_games_is_encoded_as_msgpack_would(tmp_path) -> None:
    """A game of a person, a bot and a spectator to its end: each frame the core made is msgpack's bytes."""
    desk = Desk(tmp_path)
    person, table, _ = _table_of_one_person_and_a_bot(desk, spectators=1)
    made: list[tuple[dict, bytes]] = []
    encoder = desk.core._encode

    def kept(msg: dict) -> bytes:
        frame = encoder(msg)
        made.append((msg, frame))
        return frame

    desk.core._encode = kept
    for _ in range(400):
        if person.view.winner is not None:
            break
        if person.view.turn == 0:
            person.act({"type": "draw"} if len(person.view.hand) < 5 else {"type": "discard", "card": person.view.hand[0]})
        desk.advance(0.5)
    assert len(made) > 50
    assert all(frame == encode(msg) for msg, frame in made)
    desk.close()
