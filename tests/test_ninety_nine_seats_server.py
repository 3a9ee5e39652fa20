"""Ninety-Nine's turn clock and stand-in bots through a real server on 127.0.0.1 (real SQLite journal)."""

from __future__ import annotations

import pytest

from board99.client.net import GameClient
from board99.ninety_nine.actions import Play
from board99.ninety_nine.kind import NINETY_NINE
from board99.server.loop import run_in_thread
from tests.ninety_server_kit import over, play_until, wait_for

pytestmark = pytest.mark.timeout(240)


def clock_moves(record: str, seat: int) -> list[tuple[object, object]]:
    """(the action ``seat`` took, the kind's clock action in the position it took it in) for each of its actions."""
    pairs = []
    before = None
    for _, line, game in NINETY_NINE.replay_record(record):
        if before is not None and game.ply == before.ply + 1:
            acted = line.split(" ", 1)
            if acted[0] == f"S{seat}":
                pairs.append((NINETY_NINE.parse_action(acted[1]), NINETY_NINE.clock_action(before)))
        if before is None or game.ply != before.ply:
            before = game.copy()
    return pairs


@pytest.mark.parametrize("rules", ["glengariff", "convention", "tokens", "three-card"])
def test_a_table_of_players_who_all_let_their_clocks_run_comes_to_an_end(rules: str) -> None:
    # The clock's card for everyone, at every table size: each game ends (a clock that kept the total lowest
    # held a 5-player Convention table below 99 for ever, its record growing at the clock's pace).
    from board99.ninety_nine.game import Game

    for players in NINETY_NINE.player_counts:
        if rules == "three-card" and players == 2:
            continue
        for mode in NINETY_NINE.modes:
            settings = NINETY_NINE.check_settings(players, mode, {"rules": rules})
            for seed in range(3):
                game = Game(players, mode, NINETY_NINE.table(settings), seed=seed)
                for _ in range(2000):
                    if game.over:
                        break
                    action = NINETY_NINE.clock_action(game)
                    assert game.check(game.turn, action) is None  # never an offence, in either mode
                    game.apply(game.turn, action)
                assert game.over, (rules, players, mode, seed, game.ply)


@pytest.mark.slow
@pytest.mark.parametrize("mode, rules", [("guarded", "convention"), ("penalty", "three-card")])
def test_the_turn_clock_plays_the_kinds_clock_action_for_a_seat_out_of_time(tmp_path, mode: str,
                                                                           rules: str) -> None:
    server = run_in_thread(data_dir=tmp_path)
    ann = GameClient(server.endpoint, name="Ann")
    bo = GameClient(server.endpoint, name="Bo")
    try:
        players = 3 if rules == "three-card" else 2
        info = ann.create_table("clocked", players, mode, clock=0.3, game="ninety-nine", options={"rules": rules})
        assert info.clock == 0.3
        ann.take_seat(info.id, 0)
        for seat in range(2, players):
            ann.add_bot(info.id, seat, "sound")
        pushed: list[dict] = []
        ann.on_receive = pushed.append
        bo.take_seat(info.id, 1)  # Bo sits and never acts (but stays connected: his client answers pings)
        play_until([ann], over(ann), seconds=120, idle=[bo])
        record = ann.fetch_record(info.id)
        moves = clock_moves(record, 1)
        assert len(moves) >= 2
        for taken, clock in moves:
            assert taken == clock, (taken, clock)
            assert isinstance(taken, Play) and taken.draw and taken.say is not None
        by_clock = [m for m in pushed if m.get("type") == "update" and m.get("by") == 1]
        assert by_clock and all(m["clock"] is True for m in by_clock)
        # (Ann's own moves are hers unless a loaded machine kept her client past 0.3 s: not checked here.)
        # Whatever the clock played, Bo's own view followed it: his hand is the record's.
        bo.poll(0.2)
        *_, (_, _, game) = NINETY_NINE.replay_record(record)
        assert bo.view.hand == game.hand(1) and bo.view.ply == game.ply
    finally:
        ann.close()
        bo.close()
        server.stop()


@pytest.mark.slow
def test_the_clock_in_penalty_mode_plays_for_the_turn_not_for_a_draw_still_owed(tmp_path) -> None:
    # Ann plays without drawing; the clock then runs only for the seat to play, and Ann's draw stays hers to make
    # until that seat has played (Convention: lost once the next player has played and drawn, 002).
    server = run_in_thread(data_dir=tmp_path)
    ann = GameClient(server.endpoint, name="Ann")
    bo = GameClient(server.endpoint, name="Bo")
    try:
        info = ann.create_table("clocked", 2, "penalty", clock=0.5, game="ninety-nine",
                                options={"rules": "convention"})
        ann.take_seat(info.id, 0)
        bo.take_seat(info.id, 1)
        wait_for([ann, bo], lambda: ann.view is not None and ann.view.started)
        if not ann.view.my_turn:  # Bo deals first: his clock plays his first card
            wait_for([ann, bo], lambda: ann.view.my_turn)
        hand = len(ann.view.hand)
        ann.act(NINETY_NINE.bots["sound"]().choose(ann.view)._replace(draw=False))
        assert ann.view.pending == (0,) and len(ann.view.hand) == hand - 1
        ply = ann.view.ply
        wait_for([ann, bo], lambda: ann.view.ply > ply, seconds=5)  # the clock played Bo's card
        assert ann.view.turn == 0 and ann.view.pending == () and len(ann.view.hand) == hand - 1
        lines = ann.history()[0]
        assert any(line == "  S0 forgot to draw: that draw is lost" for line in lines), lines[-6:]
    finally:
        ann.close()
        bo.close()
        server.stop()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["leaves", "goes silent"])
def test_a_stand_in_bot_plays_a_ninety_nine_seat_for_a_player_who_is_gone(tmp_path, how: str) -> None:
    server = run_in_thread(data_dir=tmp_path, lost_after=1.5, heartbeat=0.3)
    ann = GameClient(server.endpoint, name="Ann")
    bo = GameClient(server.endpoint, name="Bo")
    cy = GameClient(server.endpoint, name="Cy")
    try:
        info = ann.create_table("three", 3, "penalty", grace=0.2, game="ninety-nine", options={"rules": "tokens"})
        for seat, c in enumerate((ann, bo, cy)):
            c.take_seat(info.id, seat)
        play_until([ann, bo, cy], lambda: ann.view is not None and ann.view.ply >= 4)
        token = cy.token
        if how == "leaves":
            cy.leave()
        else:
            cy.close()  # no goodbye: the server notices the silence, then the grace period passes
        wait_for([ann, bo], lambda: ann.table.seats[2].standin, seconds=10)
        seat = ann.table.seats[2]
        assert seat.left == (how == "leaves") and not seat.connected
        ply = ann.view.ply
        play_until([ann, bo], lambda: ann.view.ply >= ply + 9 or ann.table.state == "over", seconds=60)
        lines = ann.history()[0]
        assert any(line.startswith("S2 play") for line in lines[-40:]) or ann.view.out[2]
        if how == "goes silent":
            # Cy comes back with his token and plays his seat again; the stand-in stops.
            cy = GameClient(server.endpoint, name="Cy")
            cy.resume(info.id, 2, token)
            wait_for([ann, cy], lambda: not ann.table.seats[2].standin)
            assert cy.view.hand is not None and cy.view.seat == 2
        play_until([ann, bo, cy] if how == "goes silent" else [ann, bo], over(ann), seconds=90)
        *_, (_, _, game) = NINETY_NINE.replay_record(ann.fetch_record(info.id))
        assert game.over and ann.view.winner == game.winner
    finally:
        for c in (ann, bo, cy):
            c.close()
        server.stop()


@pytest.mark.slow
def test_a_search_bot_at_a_ninety_nine_table_thinks_in_the_worker_and_moves(tmp_path, caplog) -> None:
    import logging

    caplog.set_level(logging.INFO, "board99.server")
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.0)
    ann = GameClient(server.endpoint, name="Ann")
    try:
        info = ann.create_table("search", 2, "penalty", game="ninety-nine", options={"rules": "tokens"})
        ann.take_seat(info.id, 0)
        ann.add_bot(info.id, 1, "search")

        def moves() -> int:
            return sum(line.startswith("S1 play") for line in ann.history()[0]) if ann.view.ply else 0

        play_until([ann], lambda: ann.view is not None and (ann.view.ply >= 5 or ann.table.state == "over"),
                   seconds=90)
        assert moves() >= 2
        # Every one of its moves came back from the worker: none was the fallback a failed bot gets.
        assert "event=bot-error" not in caplog.text and "event=bot-refused" not in caplog.text
    finally:
        ann.close()
        server.stop()
