"""One person, one seat (issue 19): a player key holds one seat at a rated, match or tournament table,
and a key keeps its name; against a real server on 127.0.0.1 and its real journal."""

from __future__ import annotations

import sqlite3

import pytest

from board99.client.net import GameClient
from board99.match import MatchFormat
from board99.server.journal import JOURNAL_FILE, Journal
from board99.server.loop import run_in_thread
from board99.wire.protocol import ProtocolError
from tests.server_kit import error_of, key

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def server(tmp_path):
    handle = run_in_thread(data_dir=tmp_path)
    yield handle
    handle.stop()


@pytest.mark.parametrize("kind", ["rated", "match"])
def test_two_windows_with_one_key_get_one_seat_of_a_rated_or_match_table(server, kind) -> None:
    first = GameClient(server.endpoint, name="Alice", key=key(1))
    second = GameClient(server.endpoint, name="Alice", key=key(1))  # the same OS user's second window
    bob = GameClient(server.endpoint, name="Bob", key=key(2))
    try:
        options = {"rated": True} if kind == "rated" else {"match": MatchFormat("first-to", 3)}
        table = first.create_table("Friday", 2, **options)
        first.take_seat(table.id, 0)
        refused = error_of(lambda: second.take_seat(table.id, 1))
        assert refused.code == "one-seat"
        assert "Alice already holds S0" in refused.message and "one player key, one seat" in refused.message
        info = bob.take_seat(table.id, 1)  # another person takes the seat: the game starts
        assert info.state == "playing" and [s.name for s in info.seats] == ["Alice", "Bob"]
    finally:
        for c in (first, second, bob):
            c.close()


def test_a_casual_table_lets_one_key_play_two_seats_hot_seat(server) -> None:
    first = GameClient(server.endpoint, name="Alice", key=key(1))
    second = GameClient(server.endpoint, name="Alice", key=key(1))
    try:
        table = first.create_table("Hot seat", 2)
        first.take_seat(table.id, 0)
        assert second.take_seat(table.id, 1).state == "playing"
    finally:
        first.close()
        second.close()


def test_a_key_cannot_take_back_another_players_rated_seat_even_with_its_token(server) -> None:
    alice = GameClient(server.endpoint, name="Alice", key=key(1))
    bob = GameClient(server.endpoint, name="Bob", key=key(2))
    alice_again = GameClient(server.endpoint, name="Alice", key=key(1))
    keyless = GameClient(server.endpoint, name="Watcher")
    try:
        table = alice.create_table("Rated", 2, rated=True)
        alice.take_seat(table.id, 0)
        bob.take_seat(table.id, 1)
        refused = error_of(lambda: alice_again.resume(table.id, 1, bob.token))
        assert refused.code == "one-seat" and "is Bob's" in refused.message
        assert alice_again.resume(table.id, 0, alice.token).seats[0].name == "Alice"  # her own seat: yes
        # Without a key the token alone is the proof (a reconnect before its hello): still Bob's seat.
        assert keyless.resume(table.id, 1, bob.token).seats[1].name == "Bob"
    finally:
        for c in (alice, bob, alice_again, keyless):
            c.close()


def test_a_key_keeps_its_name_and_another_name_is_refused_not_renamed(server) -> None:
    alice = GameClient(server.endpoint, name="Alice", key=key(1))
    assert alice.hello()["player"]["name"] == "Alice"
    as_bob = GameClient(server.endpoint, name="Bob", key=key(1))  # Alice's window, Bob's name typed
    try:
        refused = error_of(as_bob.hello)
        assert refused.code == "name-bound"
        assert "Alice's" in refused.message and "board99 join --as Bob" in refused.message
        # Alice is still Alice; Bob, with a key of his own, is Bob.
        again = GameClient(server.endpoint, name="ALICE", key=key(1))
        assert again.hello()["player"]["name"] == "ALICE"  # her own name in another case is hers
        again.close()
        bob = GameClient(server.endpoint, name="Bob", key=key(2))
        assert bob.hello()["player"]["name"] == "Bob"
        bob.close()
        table = alice.create_table("Rated", 2, rated=True)
        refused = error_of(lambda: alice.take_seat(table.id, 0, name="Carol"))  # a new name on sitting
        assert refused.code == "name-bound" and alice.name == "Alice"
        # The end: a tournament names Alice, and the server still knows her by that name.
        _, token = alice.create_tournament("Club", 2, [["ALICE"], ["Bob"]], 1, MatchFormat("first-to", 1))
        assert token and alice.player_history("Alice").rating.name == "ALICE"
    finally:
        alice.close()
        as_bob.close()


def test_a_journal_with_one_player_in_two_seats_restores_the_second_seat_unrated(tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path)
    try:
        alice = GameClient(server.endpoint, name="Alice", key=key(1))
        bob = GameClient(server.endpoint, name="Bob", key=key(2))
        table = alice.create_table("Rated", 2, rated=True)
        alice.take_seat(table.id, 0)
        bob.take_seat(table.id, 1)
        alice.close()
        bob.close()
    finally:
        server.stop()
    # A journal written before the rule: Alice's player in both seats.
    db = sqlite3.connect(tmp_path / JOURNAL_FILE)
    with db:
        alice_id = db.execute("SELECT id FROM players WHERE name='Alice'").fetchone()[0]
        db.execute("UPDATE seats SET player=? WHERE table_id=? AND seat=1", (alice_id, table.id))
    db.close()
    journal = Journal(tmp_path)
    try:
        restored = journal.restore_table(table.id)
    finally:
        journal.close()
    assert [s.player for s in restored.seats] == [alice_id, None]
    assert [s.name for s in restored.seats] == ["Alice", "Bob"]  # Bob plays on, and no rating moves


def test_a_window_without_a_name_is_told_its_keys_name_and_the_placeholder_registers_nobody(server) -> None:
    fresh = GameClient(server.endpoint, key=key(1))  # name "player": the window's placeholder
    try:
        assert fresh.hello()["player"] is None  # not registered as "player"
        table = fresh.create_table("Casual", 2)
        fresh.take_seat(table.id, 0, name="Ann")  # the name the person typed registers the key
        assert fresh.player is not None and fresh.player["name"] == "Ann"
    finally:
        fresh.close()
    back = GameClient(server.endpoint, key=key(1))  # the next start of that window
    try:
        assert back.hello()["player"]["name"] == "Ann" and back.name == "Ann"
        other = GameClient(server.endpoint, name="Ann", key=key(2))
        assert error_of(other.hello).code == "name-taken"
        other.close()
    finally:
        back.close()


def test_a_key_an_older_server_registered_as_the_placeholder_may_still_take_a_real_name() -> None:
    from board99.server.players import Player, Players, key_digest

    players = Players()
    players.adopt(Player(1, "player", key_digest(key(1))))  # the window's default name, registered before
    renamed = players.claim("Ann", key(1), "127.0.0.1", 0.0, 2)
    assert renamed is not None and (renamed.id, renamed.name) == (1, "Ann")
    players.adopt(renamed)
    with pytest.raises(ProtocolError) as refused:
        players.claim("Bob", key(1), "127.0.0.1", 0.0, 2)
    assert refused.value.code == "name-bound"
