"""The outbox's sink: a frame the loop can send leaves the moment the core makes it, in the order made.

A person's reply no longer waits for the rest of the core's step (scheduling the bot's answer, the
table's pushes); frames the sink leaves (a web link's) stay in the outbox for the end of the step.
"""

from __future__ import annotations

import msgpack

from board99.server.outbox import Outbox, packer
from board99.wire.protocol import PROTOCOL_VERSION
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
    """The same act at two cores in the same position: one with a sink, one without; the same frames, in order."""
    results = []
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
        # The actor's reply first, then the spectator's push of the same action.
        assert [(i, m["type"]) for i, m in got] == [(person.ident, "reply"), (watcher.ident, "update")]
        assert got[0][1]["id"] == 99
        results.append([(m["type"], m.get("seq"), m["view"]["ply"]) for _, m in got])
        desk.close()
    assert results[0] == results[1]
