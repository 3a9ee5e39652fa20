"""No game lost: SIGKILL and restart, a dropped client coming back, a lost client's seat played by a bot, the clock."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest

from board99 import Discard, Draw
from board99.client.net import GameClient, ServerError
from board99.record import Record
from board99.server.loop import run_in_thread
from tests.server_kit import Seated, drive, seat_table, settle

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: Path) -> subprocess.Popen:
    """`board99 serve` as a real process; returns once it listens."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "board99.commands", "serve", "--bind", "127.0.0.1", "--port", str(port),
         "--data", str(data), "--no-beacon", "--bot-delay", "0.01"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    line = proc.stdout.readline()  # the server prints one line once bound
    assert "listening on" in line, line
    return proc


def play_until(seated: Seated, ply: int, seconds: float = 20.0) -> None:
    """Play the table's turns until it reaches ``ply`` actions."""
    drive(seated, seconds=seconds, stop=lambda s: min(c.view.ply for c in s.clients) >= ply)


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_every_table_resumes_and_finishes(tmp_path) -> None:
    port, data = free_port(), tmp_path / "data"
    proc = start_server(port, data)
    endpoint = f"tcp://127.0.0.1:{port}"
    tables: list[Seated] = []
    try:
        tables = [seat_table(endpoint, 2, "penalty", spectate=False, capture=False, timeout=2.0),
                  seat_table(endpoint, 4, "guarded", spectate=True, capture=False, timeout=2.0)]
        # A third table played by the server's own bots, followed by a spectator.
        watcher = GameClient(endpoint, timeout=2.0)
        bots_table = watcher.create_table("bots", 3, "penalty").id
        watcher.spectate(bots_table)
        for seated in tables:
            play_until(seated, 12)
            settle(seated)
        for seat in range(3):  # the bots start last, so the kill finds them mid-game
            watcher.add_bot(bots_table, seat, "random")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and watcher.view.ply < 5:
            watcher.poll(0.005)
        before = [[c.view for c in seated.clients] for seated in tables]
        spectator_ply = watcher.view.ply
        assert watcher.table.state == "playing" and spectator_ply > 0  # the bots are mid-game

        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        proc = start_server(port, data)

        # Every client notices the restart, resumes with its token and gets the same view back.
        deadline = time.monotonic() + 15
        for seated, views in zip(tables, before):
            for seat, c in enumerate(seated.clients):
                while time.monotonic() < deadline and not any(m["type"] == "snapshot" for m in c.poll(0.1)):
                    pass
                assert c.view == views[seat], f"table {seated.table} S{seat} came back at another position"
        # The bot table went on from at least what its spectator had been told.
        while time.monotonic() < deadline and not any(m["type"] == "snapshot" for m in watcher.poll(0.1)):
            pass
        assert watcher.view.ply >= spectator_ply
        for seated in tables:
            final = drive(seated, seconds=30)
            assert final.winner is not None
            game = Record.loads(seated.clients[0].fetch_record(seated.table)).replay()
            assert seated.clients[0].view == game.view(0)
        while time.monotonic() < deadline + 20 and watcher.table.state != "over":
            watcher.poll(0.1)
        assert watcher.table.state == "over"
        watcher.close()
    finally:
        for seated in tables:
            seated.close()
        proc.kill()
        proc.wait(5)


def test_a_restart_restores_the_journal_exactly(tmp_path) -> None:
    # In-process: stop, start again on the same data directory, compare every table's game state.
    handle = run_in_thread(data_dir=tmp_path)
    seated = seat_table(handle.endpoint, 3, "penalty", spectate=False, capture=False)
    play_until(seated, 30)
    games = {tid: (t.game.view(0), t.game.hand(1), t.game.hand(2), t.seq) for tid, t in handle.server.lobby.tables.items()}
    seated.close()
    handle.stop()
    again = run_in_thread(data_dir=tmp_path)
    try:
        restored = {tid: (t.game.view(0), t.game.hand(1), t.game.hand(2), t.seq)
                    for tid, t in again.server.lobby.tables.items()}
        assert restored == games
    finally:
        again.stop()


@pytest.fixture
def quick(tmp_path):
    """A server that notices a silent client within half a second."""
    handle = run_in_thread(data_dir=tmp_path, heartbeat=0.1, lost_after=0.4)
    yield handle
    handle.stop()


@pytest.mark.slow
def test_a_dropped_client_comes_back_with_its_token_and_plays_on(quick) -> None:
    seated = seat_table(quick.endpoint, 2, "guarded", capture=False)
    try:
        play_until(seated, 8)
        settle(seated)
        gone = seated.clients[1]
        table, token, view = gone.table_id, gone.token, gone.view
        gone.close()
        back = GameClient(quick.endpoint, name="S1 again")
        # Another connection with no token, or with the other seat's token, cannot have the seat.
        with pytest.raises(ServerError) as stolen:
            back.resume(table, 1, seated.clients[0].token)
        assert stolen.value.code == "bad-token"
        back.resume(table, 1, token)
        assert back.view == view  # the same hand, the same position
        seated.clients[1] = back
        final = drive(seated, seconds=30)
        assert final.winner is not None
    finally:
        seated.close()


@pytest.mark.slow
def test_a_lost_push_is_noticed_by_its_seq_and_mended_by_a_snapshot(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    watcher = GameClient(handle.endpoint)
    try:
        table = watcher.create_table("bots", 2, "guarded").id
        watcher.spectate(table)
        watcher.add_bot(table, 0, "random")
        watcher.add_bot(table, 1, "random")
        # The network loses every 7th message on the way in (a PUB at its high-water mark would).
        receive, count = watcher.core.receive, [0]

        def lossy(frame: bytes, now: float) -> None:
            msg = msgpack.unpackb(frame)
            if msg.get("type") == "update":
                count[0] += 1
                if count[0] % 7 == 0 or msg.get("state") == "over":  # the very last one too
                    return
            receive(frame, now)

        watcher.core.receive = lossy  # type: ignore[method-assign]
        snapshots = 0
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and watcher.table.state != "over":
            snapshots += sum(m["type"] == "snapshot" for m in watcher.poll(0.05))
        assert watcher.table.state == "over"
        assert snapshots >= 3
        game = Record.loads(watcher.fetch_record(table)).replay()
        assert watcher.view == game.view(None)
    finally:
        watcher.close()
        handle.stop()


@pytest.mark.slow
def test_a_second_server_on_the_same_data_directory_is_refused(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path)
    try:
        with pytest.raises(RuntimeError, match="in use by another board99 server"):
            run_in_thread(data_dir=tmp_path)
        with GameClient(handle.endpoint) as client:
            assert client.create_table("still fine", 2).state == "waiting"
    finally:
        handle.stop()


def mover_of(seated: Seated) -> GameClient:
    """The client whose turn it is, once every client has heard of the latest action."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        seated.poll_all(0.01)
        ply = max(c.view.ply for c in seated.clients)
        ready = [c for c in seated.clients if c.view.ply == ply and c.my_turn()]
        if ready and all(c.view.ply == ply for c in seated.clients):
            return ready[0]
    raise AssertionError("no client's turn came")


@pytest.mark.slow
def test_a_full_disk_refuses_the_action_and_nobody_is_told_of_it(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path)
    seated = seat_table(handle.endpoint, 2, "guarded", capture=False)
    try:
        play_until(seated, 6)
        settle(seated)
        db = handle.server.journal.db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count={pages}")  # SQLite now answers "database or disk is full"
        failed, ply = 0, -1
        for _ in range(300):  # fill the last free pages, then the next write fails
            mover = mover_of(seated)
            ply = mover.view.ply
            hand = mover.view.hand
            # Draw and discard only: no peg, so the game cannot end before the disk is full.
            action = Draw() if len(hand) < 5 and mover.view.deck_size else Discard(hand[0])
            try:
                mover.act(action)
            except ServerError as exc:
                assert exc.code == "internal" and "could not be saved" in exc.message
                failed += 1
                break
        assert failed == 1
        seated.poll_all(0.2)
        # Nothing happened and nobody heard of it: every view is still at the ply before.
        assert {c.view.ply for _, c in seated.everyone()} == {ply}
        assert handle.server.lobby.tables[seated.table].game.ply == ply
        db.execute("PRAGMA max_page_count=1073741823")
        assert drive(seated, seconds=30).winner is not None
    finally:
        seated.close()
        handle.stop()


# -- Ninety-Nine -----------------------------------------------------------------------------------------


def snapshot_after_restart(clients: list[GameClient], seconds: float = 15.0) -> None:
    """Poll each client until it has resumed its seat on the restarted server and taken a snapshot."""
    deadline = time.monotonic() + seconds
    for c in clients:
        while not any(m["type"] == "snapshot" for m in c.poll(0.1)):
            assert time.monotonic() < deadline, "a client did not come back after the restart"


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_sigkill_in_a_ninety_nine_match_game_loses_nothing(tmp_path) -> None:
    from board99.match import MatchFormat
    from board99.ninety_nine.actions import Draw as NinetyDraw
    from board99.ninety_nine.kind import NINETY_NINE
    from tests.ninety_server_kit import play_until as play_ninety
    from tests.server_kit import key

    port, data = free_port(), tmp_path / "data"
    proc = start_server(port, data)
    endpoint = f"tcp://127.0.0.1:{port}"
    people = [GameClient(endpoint, name=n, key=key(i + 1), timeout=2.0) for i, n in enumerate(("Ann", "Bo", "Cy"))]
    ann = people[0]
    watcher = GameClient(endpoint, name="Watcher", timeout=2.0)
    try:
        # Tokens (003) at a penalty table, a wrong total costing a token (the house rule), in a match to 3.
        info = ann.create_table("pub", 3, "penalty", match=MatchFormat("first-to", 3), game="ninety-nine",
                                options={"rules": "tokens", "wrong_total": "token"})
        for seat, c in enumerate(people):
            c.take_seat(info.id, seat)
        watcher.spectate(info.id)
        play_ninety(people, lambda: ann.table.state == "over", seconds=90, idle=[watcher])  # game 1: 1-0-0
        for c in people:
            c.rematch()
        sound = NINETY_NINE.bots["sound"]()
        bo_cy = people[1:]

        def ann_to_play() -> bool:
            return ann.view.my_turn and len({c.view.ply for c in people}) == 1

        play_ninety(bo_cy, ann_to_play, idle=[ann])
        play = sound.choose(ann.view)
        ann.act(play._replace(say=play.say + 7, draw=False))  # a wrong total: corrected, a token lost (house rule)
        ann.act(NinetyDraw())  # ... and her draw made late, a step of its own
        lines: list[str] = []
        for _ in range(6):  # Ann plays without drawing and the next player plays: her draw is lost (003)
            play_ninety(bo_cy, ann_to_play, idle=[ann])
            lines = ann.history()[0]
            if any("forgot to draw" in line for line in lines):
                break
            ann.act(sound.choose(ann.view)._replace(draw=False))
        assert ann.table.game == 2 and ann.table.state == "playing"
        # Ann plays her card and has not drawn yet when the server dies: her draw is still owed.
        ann.act(sound.choose(ann.view)._replace(draw=False))
        deadline = time.monotonic() + 5
        while len({c.view.ply for c in people}) > 1:
            assert time.monotonic() < deadline
            for c in people:
                c.poll(0.01)
        assert ann.view.pending == (0,)
        lines = ann.history()[0]
        assert "S0 draw" in lines and any("forgot to draw" in line for line in lines) and any(
            "corrected" in line for line in lines), "\n".join(lines)
        watcher.poll(0.2)
        seen = watcher.view
        assert seen.hand is None and seen.ply == ann.view.ply
        before = [(c.view, c.table.match, c.token, c.table.seats) for c in people]
        record_1 = ann.fetch_record(info.id, game=1)

        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        proc = start_server(port, data)

        snapshot_after_restart([*people, watcher])
        assert watcher.view == seen  # the spectator follows the table again, at the same public position
        deadline = time.monotonic() + 10
        while not all(s.connected for c in people for s in c.table.seats):  # each has resumed its seat
            assert time.monotonic() < deadline, "a seat was not taken back"
            for c in people:
                c.poll(0.02)
        for c, (view, match, token, seats) in zip(people, before):
            # The same position for each seat: the total, its own hand, the tokens, the draw owed ...
            assert c.view == view, f"S{c.seat} came back at another position"
            assert c.view.hand == view.hand and c.view.tokens == view.tokens and c.view.total == view.total
            # ... the same match score, the same seat token, the same seats.
            assert c.table.match == match and c.token == token and c.table.seats == seats
        assert ann.history()[0] == lines
        assert ann.fetch_record(info.id, game=1) == record_1
        hand = len(ann.view.hand)
        ann.act(NinetyDraw())  # the draw she owed before the kill is hers to make still
        assert ann.view.pending == () and len(ann.view.hand) == hand + 1
        play_ninety(people, lambda: ann.table.state == "over", seconds=90)
        record_2 = ann.fetch_record(info.id, game=2)
        *_, (_, _, game) = NINETY_NINE.replay_record(record_2)
        public = NINETY_NINE.record_text(game, reveal=False).partition("\n\n")[2].splitlines()
        assert public[:len(lines)] == lines  # the game went on from exactly where it stood
        assert ann.view == NINETY_NINE.view(game, None, 0)._replace(seat=0, hand=game.hand(0))
        assert len(ann.table.match.results) == 2
    finally:
        for c in (*people, watcher):
            c.close()
        proc.kill()
        proc.wait(5)
