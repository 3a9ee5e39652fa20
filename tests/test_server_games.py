"""Full games over real sockets on 127.0.0.1: 2, 3, 4 and 6 players, both modes, every penalty."""

from __future__ import annotations

import time

import pytest

from board99 import PENALTY_RULES, Discard, Draw, Play
from board99.client.net import GameClient, ServerError
from board99.record import Record
from board99.server.loop import run_in_thread
from tests.server_kit import OFFENCES, Offender, drive, seat_table, settle


@pytest.fixture
def server(tmp_path):
    handle = run_in_thread(data_dir=tmp_path)
    yield handle
    handle.stop()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["guarded", "penalty"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_full_game_over_the_wire_ends_with_every_view_exact(server, players, mode) -> None:
    seated = seat_table(server.endpoint, players, mode)
    try:
        offender = Offender() if mode == "penalty" else None
        final = drive(seated, offender=offender, seconds=40)
        assert final.winner is not None
        settle(seated)
        # The record replays under the rules to the very position every client ended with.
        game = Record.loads(seated.clients[0].fetch_record(seated.table)).replay()
        assert game.winner == final.winner
        for seat, client in seated.everyone():
            assert client.view == game.view(seat), f"seat {seat}'s view differs from the server's game"
            assert client.table.state == "over"
        if offender is not None:
            assert offender.pending == [], f"offences never committed: {offender.pending}"
            assert set(offender.done) == set(OFFENCES)
    finally:
        seated.close()


@pytest.mark.slow
def test_every_penalty_is_announced_to_the_whole_table_with_its_rule(server) -> None:
    seated = seat_table(server.endpoint, 4, "penalty")
    try:
        offender = Offender()
        drive(seated, offender=offender, seconds=40)
        settle(seated)  # what a client's own last request waited through is still in its inbox
        assert offender.pending == []
        for seat, _ in seated.everyone():
            announced = {}
            for msg in seated.pushed[seat] + [m for m in seated.received[seat] if m.get("type") == "reply"]:
                for e in msg.get("events", ()):
                    if e["kind"] == "penalty":
                        announced[e["offence"]] = e["rule"]
            assert announced == {o: PENALTY_RULES[o] for o in OFFENCES}, f"seat {seat} heard {announced}"
    finally:
        seated.close()


@pytest.mark.slow
def test_a_guarded_table_refuses_each_offence_to_the_sender_only(server) -> None:
    seated = seat_table(server.endpoint, 2, "guarded")
    try:
        clients = seated.clients
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # both seats draw until each holds a full hand
            seated.poll_all(0.01)
            turn = clients[0].view.turn
            if clients[turn].view.turn == turn and clients[turn].view.ply == clients[0].view.ply:
                if len(clients[turn].view.hand) == 5:
                    break
                clients[turn].act(Draw())
        settle(seated)
        turn = clients[0].view.turn
        mover, waiting = clients[turn], clients[1 - turn]
        before = {seat: c.seq for seat, c in seated.everyone()}
        ply = mover.view.ply
        card = waiting.view.hand[0]
        high = max(mover.view.hand)
        low_square = next(sq for sq in range(high) if mover.view.board[sq] is None)
        attempts = [
            (waiting, Discard(card), "out-of-turn"),
            (waiting, Play(card, 99), "out-of-turn"),
            (waiting, Draw(), "out-of-turn"),
            (mover, Play(high, low_square), "below-card"),
            (mover, Draw(), "hand-full"),
            (mover, Discard(100 if 100 not in mover.view.hand else 0), "no-such-card"),
        ]
        for client, action, code in attempts:
            with pytest.raises(ServerError) as refused:
                client.act(action)
            assert refused.value.code == code  # the engine's own code ...
            assert refused.value.message  # ... and its message naming the rule
        # Nobody heard of the refusals and nothing changed.
        seated.poll_all(0.1)
        for seat, c in seated.everyone():
            assert c.seq == before[seat]
            assert c.view.ply == ply
    finally:
        seated.close()


def test_server_side_bots_fill_seats_and_play_a_person_to_the_end(server) -> None:
    person = GameClient(server.endpoint, name="ada")
    try:
        table = person.create_table("with bots", 4, "penalty")
        person.take_seat(table.id, 0, "green")
        person.add_bot(table.id, 1, "rulebook")
        person.add_bot(table.id, 2, "random")
        with GameClient(server.endpoint) as other, pytest.raises(ServerError) as taken:
            other.take_seat(table.id, 3, "blue")  # side 1 plays the colour its bot took
        assert taken.value.code == "colour-taken"
        assert person.table.state == "waiting"
        info = person.add_bot(table.id, 3, "rulebook")
        assert info.state == "playing"
        assert [s.colour for s in info.seats] == ["green", "red", "green", "red"]
        from board99.bots import make_bot
        from board99.client.net import play_bot

        final = play_bot(person, make_bot("rulebook", seed=1), until=time.monotonic() + 30)
        assert final is not None and final.winner is not None
        game = Record.loads(person.fetch_record(table.id)).replay()
        assert person.view == game.view(0)
    finally:
        person.close()


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["search", "fastsearch", "infer"])
def test_a_search_bot_thinks_off_the_loop_and_moves(server, bot) -> None:
    watcher = GameClient(server.endpoint)
    try:
        table = watcher.create_table(bot, 2)
        watcher.spectate(table.id)
        watcher.add_bot(table.id, 0, bot)
        watcher.add_bot(table.id, 1, "random")
        # The compiled bots' worker may first compile its playouts (numba): a while on a loaded machine.
        deadline = time.monotonic() + (15 if bot == "search" else 60)
        while time.monotonic() < deadline and watcher.view.ply < 6:
            watcher.poll(0.1)
            # The loop stays responsive while the search bot thinks.
            assert len(watcher.list_tables()) == 1
        assert watcher.view.ply >= 6
    finally:
        watcher.close()


@pytest.mark.slow
def test_a_thinking_bot_comes_back_from_the_worker_with_what_it_learnt() -> None:
    import zmq

    from board99 import Game
    from board99.bots import InferenceBot, RulebookBot
    from board99.server.outbox import Thought
    from board99.server.thinker import Thinker

    ctx = zmq.Context()
    thinker = Thinker(ctx, "memory-test")
    try:
        game = Game(2, seed=5, first=0)
        bot: InferenceBot = InferenceBot(seed=1, budget=0.05)
        other = RulebookBot()
        for ply in range(8):  # the table keeps the bot that came back, as server/play.py does
            if game.turn == 1:
                game.apply(1, other.choose(game.view(1)))
                continue
            thinker.submit(("t", ply), bot, game.view(0))
            answers: list = []
            deadline = time.monotonic() + 60  # the worker may compile the playouts first
            while not answers and time.monotonic() < deadline:
                thinker.wake.poll(200)
                answers = list(thinker.answers())
            [(key, thought)] = answers
            assert key == ("t", ply) and isinstance(thought, Thought), thought
            assert thought.bot is not bot and thought.bot.budget == 0.05
            bot = thought.bot
            game.apply(0, thought.action)
        assert bot.memory.moves, "the opponent's moves, seen across the worker's moves"
        assert all(move.seat == 1 for move in bot.memory.moves)
    finally:
        thinker.close()
        ctx.destroy(linger=0)


def test_an_action_chosen_on_an_older_position_is_refused_as_stale(server) -> None:
    seated = seat_table(server.endpoint, 2, "penalty", capture=False)
    try:
        settle(seated)
        mover = next(c for c in seated.clients if c.my_turn())
        other = seated.clients[1 - mover.seat]
        old_ply = other.view.ply
        mover.act(Draw())
        # The other seat has not read the update yet; in penalty mode its draw would be an offence.
        with pytest.raises(ServerError) as stale:
            other._request("act", table=seated.table, seat=other.seat, token=other.token,
                           action={"type": "draw"}, ply=old_ply)
        assert stale.value.code == "stale" and "moved on" in stale.value.message
        seated.poll_all(0.1)
        assert other.view.ply == old_ply + 1 and other.view.skips == (0, 0)
        other.act(Draw())  # with the current position it goes through
    finally:
        seated.close()


def test_poll_with_a_wake_descriptor_returns_when_it_is_written_not_at_its_timeout(server) -> None:
    import os
    import threading

    read, write = os.pipe()
    try:
        with GameClient(server.endpoint, name="waker", timeout=5.0) as client:
            client.poll(0.2)  # whatever the connection brought
            timer = threading.Timer(0.2, os.write, (write, b"!"))
            timer.start()
            start = time.monotonic()
            client.poll(60.0, wake=read)  # the server says nothing; only the wake ends this
            waited = time.monotonic() - start
            timer.join()
            assert waited < 30.0, f"poll waited {waited:.1f} s: the wake descriptor did not end it"
            assert os.read(read, 1) == b"!"  # left unread for the caller
    finally:
        os.close(read)
        os.close(write)
