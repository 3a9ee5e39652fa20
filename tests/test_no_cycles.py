"""The server's steps and the client core make no reference cycles: what an act makes is freed as it is dropped.

`board99 serve` turns CPython's allocation-driven collector off and collects now and then while idle
(server/collector.py): that is sound only while a game's steps leave no garbage in cycles. Each test
plays with the collector off and asks a full collection, keeping what it finds, to name what leaked.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from board99.bots import make_bot
from board99.client.net import GameClient
from board99.server.loop import Server, ServerThread
from tests.web_seat_kit import Room

TURNS = 60


@contextmanager
def cycles_made() -> Iterator[Counter]:
    """The types of the objects left in reference cycles by the block (collected once it is done)."""
    found: Counter = Counter()
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield found
    finally:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            found.update(type(o).__qualname__ for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            if was_enabled:
                gc.enable()


def test_web_seats_playing_a_game_leave_no_cycles(room: Room) -> None:
    from tests.test_web_seat import over, play_turn, seated_pair

    ann, bo, _ = seated_pair(room)
    with cycles_made() as found:
        for _ in range(TURNS):
            if over(ann) and over(bo):
                ann.press("rematch")
                bo.press("rematch")
                continue
            play_turn(ann if ann.scene["turn"] else bo)
    assert not found, f"left in cycles by the web seats, the client core and the server core: {found}"


def test_a_web_seat_against_a_bot_leaves_no_cycles(room: Room) -> None:
    from tests.test_web_seat import new_table, over, play_turn

    ann = room.page("ann")
    ann.hello("Ann")
    table = new_table(ann, name="Den", players="2")
    ann.press(f"bot-{table}-1")  # the lobby's "+ bot" on the table's card
    ann.press(f"sit-{table}-0")
    assert ann.scene["screen"] == "table"
    with cycles_made() as found:
        for _ in range(TURNS):
            if over(ann):
                break
            room.advance(0.5)  # the bot's moves come on the core's clock
            if ann.scene["turn"]:
                play_turn(ann)
    assert not found, f"left in cycles by an act and a bot's move: {found}"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerThread]:
    thread = ServerThread(Server("127.0.0.1", 0, tmp_path, bot_delay=0.0, rate=None)).start()
    yield thread
    thread.stop()


def test_a_game_client_acting_against_a_server_bot_leaves_no_cycles(served: ServerThread) -> None:
    with GameClient(served.endpoint, name="Ann", timeout=10.0) as client:
        table = client.create_table("Den", 2)
        client.take_seat(table.id, 0, "red")
        client.add_bot(table.id, 1, "random")
        bot = make_bot("random", seed=3)
        acted = 0
        with cycles_made() as found:
            for _ in range(400):
                if client.table is None or client.table.state == "over" or acted >= TURNS:
                    break
                client.poll(0.01)
                if client.my_turn() and client.view is not None:
                    client.act(bot.choose(client.view))
                    acted += 1
        assert acted >= 10
        assert not found, f"left in cycles by GameClient.act() and the server's act and bot move: {found}"


def test_a_web_seat_at_a_ninety_nine_table_of_bots_leaves_no_cycles(room: Room) -> None:
    import random

    from tests.test_web_ninety import page_move, seated_among_bots

    ann = seated_among_bots(room)
    rng = random.Random(4)
    with cycles_made() as found:
        for _ in range(TURNS):
            if ann.part("result") is not None:
                break
            if not page_move(ann, rng):
                room.advance(0.5)  # the bots' turns
    assert not found, f"left in cycles by a Ninety-Nine game's acts, bots and scenes: {found}"
