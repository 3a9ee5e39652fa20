"""The coach over the wire: real ZeroMQ sockets on 127.0.0.1, a hint asked, announced, refused, bounded."""

from __future__ import annotations

import secrets

import pytest

from board99 import Draw
from board99.client.net import GameClient
from board99.coach import advise
from board99.match import MatchFormat
from board99.record import Record
from board99.server.loop import run_in_thread
from tests.server_kit import Seated, drive, error_of, seat_table, settle


@pytest.fixture
def server(tmp_path):
    handle = run_in_thread(data_dir=tmp_path)
    yield handle
    handle.stop()


def draw_once(seated: Seated) -> None:
    """The seat to move draws; everyone hears of it."""
    settle(seated)
    turn = seated.clients[0].view.turn
    seated.clients[turn].act(Draw())
    settle(seated)


def hint_pushes(seated: Seated, seat: int | None) -> list[dict]:
    return [m for m in seated.received.get(seat, []) if m.get("type") == "table" and m.get("change") == "hint"]


def test_a_hint_at_a_casual_table_is_the_seats_own_advice_and_the_table_hears_of_it(server) -> None:
    seated = seat_table(server.endpoint, 2, "guarded")
    try:
        for _ in range(4):
            draw_once(seated)
        me, other = seated.clients
        assert me.table.coach and not me.table.rated
        seq = me.seq
        advice = me.hint()
        assert advice == advise(me.view)  # this seat's own view, and nothing else
        assert advice.ply == me.view.ply and advice.hints and advice.applies is not None
        assert me.seq == seq + 1 and me.table.seats[0].hints == 1
        settle(seated)
        for seat in (1, None):  # the other player and the spectator
            pushes = hint_pushes(seated, seat)
            assert len(pushes) == 1, seat
            push = pushes[0]
            assert push["by"] == 0 and push["info"]["seats"][0]["hints"] == 1
            # The announcement says who asked, never what the coach said.
            assert set(push) == {"type", "table", "seq", "change", "info", "by", "view"}
        assert other.table.seats[0].hints == 1 and other.seq == me.seq
        # Asked again at the same position: the same advice, and nobody is told twice.
        assert me.hint() == advice and me.seq == seq + 1
        settle(seated)
        assert len(hint_pushes(seated, 1)) == 1
        # The finished game's record names the hint.
        hint_ply = advice.ply
        drive(seated, seconds=40)
        settle(seated)
        record = Record.loads(me.fetch_record(seated.table))
        assert record.hints == ((0, hint_ply),)
        assert record.replay().winner is not None
    finally:
        seated.close()


def test_hints_are_off_at_match_tables_and_rated_tables(server) -> None:
    seated = seat_table(server.endpoint, 2, "guarded", spectate=False, match=MatchFormat("first-to", 3))
    try:
        assert not seated.clients[0].table.coach
        err = error_of(seated.clients[0].hint)
        assert err.code == "hints-off" and "match" in err.message
    finally:
        seated.close()
    ann = GameClient(server.endpoint, name="Ann", key=secrets.token_hex(32))
    bo = GameClient(server.endpoint, name="Bo", key=secrets.token_hex(32))
    try:
        info = ann.create_table("rated", 2, rated=True)
        ann.take_seat(info.id, 0)
        bo.take_seat(info.id, 1)
        err = error_of(ann.hint)
        assert err.code == "hints-off" and "rated" in err.message and not ann.table.coach
    finally:
        ann.close()
        bo.close()


def test_only_a_seated_player_of_a_game_under_way_may_ask(server) -> None:
    ann = GameClient(server.endpoint, name="Ann")
    watcher = GameClient(server.endpoint, name="watcher")
    try:
        assert error_of(ann.hint).code == "not-seated"
        info = ann.create_table("den", 2)
        ann.take_seat(info.id, 0)
        assert error_of(ann.hint).code == "not-started"
        watcher.spectate(info.id)
        assert error_of(watcher.hint).code == "not-seated"
    finally:
        ann.close()
        watcher.close()


def test_new_positions_draw_on_the_seats_quota_and_a_repeat_is_free(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path, hints_burst=2, hints_per_minute=0.6)
    seated = seat_table(handle.endpoint, 2, "guarded", spectate=False)
    try:
        me = seated.clients[0]
        draw_once(seated)
        me.hint()
        me.hint()  # the same position: free
        draw_once(seated)
        me.hint()
        draw_once(seated)
        err = error_of(me.hint)
        assert err.code == "too-often" and err.message.startswith("hint: S0 has asked the coach 2 times")
        assert me.table.seats[0].hints == 2
        # The quota is the seat's, not the connection's: a new connection for the seat has no more.
        token, table = me.token, seated.table
        me.close()
        again = GameClient(handle.endpoint, name="S0")
        seated.clients[0] = again
        again.resume(table, 0, token)
        assert error_of(again.hint).code == "too-often"
    finally:
        seated.close()
        handle.stop()


def test_hints_survive_a_restart_in_the_table_and_in_the_record(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path)
    seated = seat_table(handle.endpoint, 2, "guarded", spectate=False)
    try:
        draw_once(seated)
        ply = seated.clients[0].view.ply
        seated.clients[0].hint()
        seq = seated.clients[0].seq
        token, table = seated.clients[0].token, seated.table
    finally:
        seated.close()
        handle.stop()
    handle = run_in_thread(data_dir=tmp_path)
    try:
        ann = GameClient(handle.endpoint, name="S0")
        info = ann.resume(table, 0, token)
        assert info.seats[0].hints == 1 and ann.seq >= seq
        seq = ann.seq
        assert ann.hint().ply == ply  # asked at this position before the restart: told, not counted again
        assert ann.seq == seq and ann.table.seats[0].hints == 1
        ann.close()
    finally:
        handle.stop()
    assert handle.server.core.lobby.tables[table].hints == [(0, ply)]


@pytest.mark.slow
def test_a_game_with_a_hint_every_turn_leaks_no_card_to_anyone(tmp_path) -> None:
    # S0 asks the coach on each of its turns: every answer is the coach's reading of S0's own view,
    # and no message to anyone (the announcements included) shows a card its reader may not see.
    from board99.record import Record as R
    from tests.server_kit import card_locations, leaks

    server = run_in_thread(data_dir=tmp_path, hints_burst=1000)  # a hint every turn, as fast as bots play
    seated = seat_table(server.endpoint, 4, "guarded")
    me = seated.clients[0]
    asked: list[tuple[int, object]] = []

    def ask(s: Seated) -> bool:
        if me.my_turn() and me.view.hand and (not asked or asked[-1][0] != me.view.ply):
            advice = me.hint()
            assert advice == advise(me.view)
            asked.append((me.view.ply, advice))
        return False

    try:
        drive(seated, seconds=60, bot="rulebook", stop=ask)
        settle(seated)
        text = me.fetch_record(seated.table)
        record = R.loads(text)
        assert len(asked) >= 5 and record.hints == tuple((0, ply) for ply, _ in asked)
        states = card_locations(text)
        for seat, messages in seated.received.items():
            plain = [{k: v for k, v in m.items() if k != "advice"} for m in messages]
            found = leaks(plain, seat, states, record.seed)
            assert not found, f"seat {seat}: " + "; ".join(found[:5])
            if seat not in (0,):
                assert not any("advice" in m for m in messages)
                assert len([m for m in messages if m.get("change") == "hint"]) == len(asked)
    finally:
        seated.close()
        server.stop()
