"""One table's act path, cut for speed without losing a defence: the seat token proved once per connection, and
no push built for a table nobody else follows (docs/server.md, *Seat tokens*; docs/benchmarks.md).

The core on a fake clock (tests/core_kit.py) over a real SQLite journal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest

from board99 import to_data
from board99.bots import make_bot
from board99.server import seating
from tests.core_kit import CoreError, Desk, Peer


@pytest.fixture
def desk(tmp_path) -> Iterator[Desk]:
    d = Desk(tmp_path, lost_after=1e9)
    yield d
    d.close()


def against_a_bot(desk: Desk, name: str = "ann") -> Peer:
    """A 2-player table: ``name`` in S0, the server's random bot in S1; the game has started."""
    p = desk.peer(name)
    table = p.ask("create_table", name="t", players=2)["table"]["id"]
    p.sit(table, 0)
    p.ask("add_bot", table=table, seat=1, bot="random", token=p.token)
    return p


def my_move(p: Peer, desk: Desk) -> dict:
    """Wait (on the fake clock) for ``p``'s turn, then its random move."""
    for _ in range(200):
        if p.view.my_turn:
            return to_data(make_bot("random", seed=p.view.ply).choose(p.view))
        desk.advance(0.01)
    raise AssertionError("never S0's turn")


class Digests:
    """Counts the SHA-256 digests the seating module makes."""

    def __init__(self) -> None:
        self.made = 0
        self.sha256 = hashlib.sha256

    def __call__(self, data: bytes = b"") -> object:
        self.made += 1
        return self.sha256(data)


def test_a_connection_acting_again_with_the_token_it_proved_skips_the_sha256(desk: Desk, monkeypatch) -> None:
    p = against_a_bot(desk)
    p.act(my_move(p, desk))  # the first act proves the token
    digests = Digests()
    monkeypatch.setattr(seating.hashlib, "sha256", digests)
    for _ in range(3):
        p.act(my_move(p, desk))
    assert digests.made == 0
    # A wrong token on the same connection is still refused, and is hashed to be compared.
    with pytest.raises(CoreError) as refused:
        p.ask("act", table=p.table, seat=0, token="0" * 32, action=my_move(p, desk), ply=p.view.ply)
    assert refused.value.code == "bad-token" and digests.made == 1
    p.act(my_move(p, desk))  # and the right one goes on working


def test_a_proved_token_proves_nothing_once_the_seat_has_another_token(desk: Desk) -> None:
    ann = against_a_bot(desk)
    table, old = ann.table, ann.token
    for _ in range(2000):  # Ann plays the game to its end, proving her token on each act
        if ann.view.winner is not None:
            break
        if ann.view.my_turn:
            ann.act(my_move(ann, desk))
        else:
            desk.advance(0.01)
    assert ann.view.winner is not None
    ann.ask("leave", token=old)  # the game is over: her seat is freed
    bob = desk.peer("bob")
    bob.sit(table, 0)  # a new token for S0
    with pytest.raises(CoreError) as refused:  # Ann's connection proved the old one: it proves nothing now
        ann.ask("act", table=table, seat=0, token=old, action={"type": "draw"}, ply=0)
    assert refused.value.code == "bad-token"
    eve = desk.peer("eve")  # nor does another connection get anything from Ann's proof
    with pytest.raises(CoreError) as refused:
        eve.ask("act", table=table, seat=0, token=old, action={"type": "draw"}, ply=0)
    assert refused.value.code == "bad-token"


def test_a_table_of_one_person_and_a_bot_sends_the_actor_its_reply_and_nothing_else(desk: Desk) -> None:
    p = against_a_bot(desk)
    move = my_move(p, desk)
    before = len(p.received)
    out = desk.core.receive(p.ident, [__import__("msgpack").packb(
        {"type": "act", "id": 99, "table": p.table, "seat": 0, "token": p.token, "action": move,
         "ply": p.view.ply})], desk.now)
    assert [ident for ident, _ in out.sends] == [p.ident]  # the reply; no push built for nobody
    desk.deliver(out)
    assert p.received[before]["type"] == "reply" and p.received[before]["id"] == 99


def test_a_spectator_still_gets_the_push_of_each_action(desk: Desk) -> None:
    p = against_a_bot(desk)
    watcher = desk.peer("watcher")
    watcher.ask("spectate", table=p.table)
    move = my_move(p, desk)  # (the bot may move first)
    seen = len(watcher.pushes("update"))
    p.act(move)
    updates = watcher.pushes("update")
    assert len(updates) == seen + 1 and updates[-1]["by"] == 0
