"""The holes an attack from 127.0.0.1 found in the server, each closed: one test per hole (issue 8).

Every test here failed against the server before its fix. Real sockets on 127.0.0.1, real SQLite
files; the core on a fake clock where time is what is tested.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest
import zmq

from board99 import to_data
from board99.client.net import GameClient
from board99.wire.protocol import PROTOCOL_VERSION
from tests.core_kit import CoreError, Desk, Peer

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: Path, *extra: str) -> subprocess.Popen:
    """`board99 serve` in its own process (a fresh libzmq, as on a LAN), ready when it prints its address."""
    proc = subprocess.Popen([sys.executable, "-m", "board99.commands", "serve", "--bind", "127.0.0.1", "--port", str(port),
                             "--data", str(data), "--no-beacon", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "listening" in line, line
    return proc


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


# -- 1. Identity comes from what a client proves --------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("curve", [False, True])
def test_a_client_naming_itself_as_the_next_connection_cannot_abort_the_server(tmp_path, curve) -> None:
    """libzmq's first automatic routing id was 0x6B8B4567 in every process: taking it, then any connection, aborted."""
    port = free_port()
    proc = start_server(port, tmp_path, *(["--curve"] if curve else []))
    key = (tmp_path / "curve_public.key").read_text().strip() if curve else None
    ctx = zmq.Context()
    try:
        for first_ids in range(4):
            attacker = ctx.socket(zmq.DEALER)
            attacker.linger = 0
            # The ids libzmq would give the next connections if its counter started where it used to.
            attacker.routing_id = b"\x00" + (0x6B8B4567 + first_ids).to_bytes(4, "big")
            if key:
                from board99.wire.curve import connect_curve

                connect_curve(attacker, key)
            attacker.connect(f"tcp://127.0.0.1:{port}")
            attacker.send(b"\x81\xa4type\xa4ping")
            with GameClient(f"127.0.0.1:{port}", server_key=key, timeout=5.0) as honest:
                assert honest.hello()["version"] == PROTOCOL_VERSION  # an ordinary connection after it
            attacker.close()
        time.sleep(0.2)
        assert proc.poll() is None, "the server died"
    finally:
        ctx.destroy(linger=0)
        stop(proc)


# -- a disk that fills up --------------------------------------------------------------------------------


class SmallDisk:
    """A data folder on a small file system of its own (tmpfs, when this test may mount one) that can be filled.

    Where mounting is not allowed, the journal's SQLite file is capped at its current size instead
    (``max_page_count``): SQLite then fails every write with SQLITE_FULL, as on a full disk.
    """

    def __init__(self, base: Path) -> None:
        self.path = base / "disk"
        self.path.mkdir()
        self.mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(self.path)],
                                      capture_output=True).returncode == 0
        self.journal = None  # set by the test when the page cap is used

    def fill(self) -> None:
        """No more room."""
        if self.mounted:
            if self.journal is not None:
                # The WAL emptied first: its last 4 KiB block of the tmpfs has room for up to three
                # more 1 KiB frames (the journal's page size), which a full disk still takes.
                self.journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            with open(self.path / "filler", "wb", buffering=0) as f:  # unbuffered: nothing left to fail at close
                try:
                    while True:
                        f.write(b"\0" * 65536)
                        f.flush()
                except OSError:
                    pass
        else:
            db = self.journal.db
            db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")

    def free(self) -> None:
        """Room again."""
        if self.mounted:
            (self.path / "filler").unlink(missing_ok=True)
        else:
            self.journal.db.execute("PRAGMA max_page_count=1073741823")

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


@pytest.fixture
def disk(tmp_path):
    d = SmallDisk(tmp_path)
    yield d
    d.close()


def full_desk(disk: SmallDisk, **settings) -> Desk:
    desk = Desk(disk.path / "data", **settings)
    disk.journal = desk.journal
    return desk


# -- 2. Seat hopping --------------------------------------------------------------------------------------


def four_people(desk: Desk) -> list[Peer]:
    people = [desk.peer(f"P{s}") for s in range(4)]
    table = people[0].ask("create_table", name="t", players=4, mode="penalty")["table"]["id"]
    for s, p in enumerate(people):
        p.sit(table, s)
    return people


def hands_seen(peer: Peer) -> set[tuple]:
    """Every hand any message to ``peer`` carried, with the seat it was for."""
    return {(m["view"]["seat"], m["deal"] if "deal" in m else m["view"]["deal"])
            for m in peer.received if isinstance(m.get("view"), dict) and m["view"].get("hand")}


def test_a_player_who_leaves_cannot_take_another_seat_of_the_same_deal(tmp_path) -> None:
    desk = Desk(tmp_path)
    people = four_people(desk)
    p1, p2 = people[1], people[2]
    for _ in range(8):  # everyone draws twice
        mover = next(p for p in people if p.view.my_turn)
        mover.act({"type": "draw"})
    p2.ask("leave", token=p2.token)  # a bot plays seat 2 on
    p1.ask("leave", token=p1.token)
    with pytest.raises(CoreError) as caught:
        p1.ask("take_seat", table=p1.table, seat=2)
    assert caught.value.code == "seat-taken" and "kept for" in caught.value.message
    assert {seat for seat, _ in hands_seen(p1)} == {1}  # never seat 2's hand
    # Each may come back to their own seat with its token, and the bot steps aside.
    p1.ask("resume", table=p1.table, seat=1, token=p1.token)
    p2.ask("resume", table=p2.table, seat=2, token=p2.token)
    info = people[0].pushes("table")[-1]["info"]
    assert [s["left"] for s in info["seats"]] == [False] * 4 and not info["seats"][2]["standin"]
    assert {seat for seat, _ in hands_seen(p1)} == {1}
    desk.close()


# -- 3. Penalty mode stays bounded ------------------------------------------------------------------------


def test_repeated_offences_are_capped_and_no_message_grows(tmp_path) -> None:
    desk = Desk(tmp_path, lost_after=1e9)
    host, pest = desk.peer("host"), desk.peer("pest")
    table = host.ask("create_table", name="t", players=2, mode="penalty")["table"]["id"]
    host.sit(table, 0)
    pest.sit(table, 1)
    refused = 0
    for _ in range(300):
        if host.view.deck_size < 5 or host.view.over:
            break
        on_turn = host if host.view.my_turn else pest
        other = pest if on_turn is host else host
        try:
            other.act({"type": "draw"})  # out of turn, every time
        except CoreError as exc:
            assert exc.code == "too-many-offences"
            refused += 1
            on_turn.act({"type": "draw"} if len(on_turn.view.hand) < 5 else
                        {"type": "discard", "card": on_turn.view.hand[0]})
    assert refused > 50
    sizes = [len(msgpack.packb(m)) for m in host.received]
    views = [m["view"] for m in host.received if isinstance(m.get("view"), dict)]
    assert max(len(v["shown"]) for v in views) <= 3  # a shown card lasts its turn
    assert max(sizes) < 4096
    game = desk.core.lobby.tables[table].game
    assert sum(1 for _, _, events in game.log for e in events if e.kind == "penalty") <= 2 * 30 * game.deal
    desk.close()


# -- 4. The lobby cannot be filled for good ----------------------------------------------------------------


def test_one_connection_cannot_fill_the_lobby_and_empty_tables_close(tmp_path) -> None:
    desk = Desk(tmp_path, lost_after=1e9, empty_after=60.0)
    spammer = desk.peer("spammer")
    made = [spammer.ask("create_table", name=f"t{n}", players=2)["table"]["id"] for n in range(3)]
    with pytest.raises(CoreError) as caught:
        spammer.ask("create_table", name="t4", players=2)
    assert caught.value.code == "too-many-tables" and "waiting" in caught.value.message
    desk.advance(70.0, step=1.0)  # nobody sat at them: they close
    assert not set(made) & set(desk.core.lobby.tables)
    spammer.ask("create_table", name="again", players=2)
    # ... and they do not come back after a restart.
    desk.journal.close()
    again = Desk(tmp_path)
    assert set(again.core.lobby.tables) and not set(made) & set(again.core.lobby.tables)
    again.close()


def test_a_finished_table_nobody_is_at_is_archived_and_its_record_stays_fetchable(tmp_path) -> None:
    desk = Desk(tmp_path, lost_after=1.0, archive_after=30.0)
    host = desk.peer("host")
    table = host.ask("create_table", name="t", players=2)["table"]["id"]
    host.sit(table, 0)
    host.ask("add_bot", table=table, seat=1, bot="rulebook", token=host.token)
    from board99.bots import make_bot

    bot = make_bot("random", seed=1)
    for _ in range(2000):
        if host.view.over:
            break
        if host.view.my_turn:
            host.act(to_data(bot.choose(host.view)))
        desk.advance(0.01)
    assert host.view.over
    host.silent = True
    desk.advance(40.0, step=1.0)
    assert table not in desk.core.lobby.tables
    reader = desk.peer("reader")
    assert "wins by" in reader.ask("fetch_record", table=table)["record"]
    desk.close()


# -- 5. A big lobby stalls nobody ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_lobby_of_five_thousand_tables_is_read_a_page_at_a_time(tmp_path) -> None:
    desk = Desk(tmp_path, tables_per_conn=10_000, games_burst=10_000, rate=None)
    host = desk.peer("host")
    for n in range(5000):
        host.send("create_table", name=f"table {n}", players=6)
    reader = desk.peer("reader")
    out = desk.core.receive(reader.ident, [msgpack.packb({"type": "list_tables", "id": 1, "limit": 50})], desk.now)
    (frame,) = [f for ident, f in out.sends if ident == reader.ident]
    reply = msgpack.unpackb(frame)
    assert reply["total"] == 5000 and len(reply["tables"]) == 50 and len(frame) < 64 * 1024
    assert reply["tables"][0]["name"] == "table 4999"  # newest first
    desk.close()


def server_rss(pid: int) -> int:
    """Resident memory of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.slow
def test_a_client_that_never_reads_cannot_grow_the_server_and_bots_keep_their_pace(tmp_path) -> None:
    port = free_port()
    proc = start_server(port, tmp_path)
    ctx = zmq.Context()
    try:
        with GameClient(f"127.0.0.1:{port}", timeout=5.0) as host:
            for _ in range(3):  # a full page of tables, each reply as large as a reply gets
                with GameClient(f"127.0.0.1:{port}", timeout=5.0) as maker:
                    maker.create_table("x" * 40, 6)
            table = host.create_table("bots", 2)
            host.spectate(table.id)
            host.add_bot(table.id, 0, "random")
            host.add_bot(table.id, 1, "random")
            before = server_rss(proc.pid)
            reader = ctx.socket(zmq.DEALER)
            reader.linger = 0
            reader.connect(f"tcp://127.0.0.1:{port}")
            started, plies = time.monotonic(), []
            while time.monotonic() - started < 6.0:
                for i in range(200):  # as fast as it is allowed, and never read
                    reader.send(msgpack.packb({"type": "list_tables", "id": i, "limit": 50}))
                host.poll(0.05)
                plies.append((time.monotonic() - started, host.view.ply))
            grown = server_rss(proc.pid) - before
            assert grown < 64 * 1024, f"the server grew {grown} KiB"
            # The bots (0.6 s a move in `board99 serve`) kept moving while the flood went on.
            assert plies[-1][1] >= 6
            assert host.hello()["version"] == PROTOCOL_VERSION
    finally:
        ctx.destroy(linger=0)
        stop(proc)


# -- 6. Silent connections ------------------------------------------------------------------------------------


def fds(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


@pytest.mark.slow
def test_silent_connections_are_closed_and_do_not_hold_descriptors(tmp_path) -> None:
    code = ("import sys; from board99.server.loop import Server\n"
            "s = Server('127.0.0.1', 0, sys.argv[1], handshake=3.0); s.bind(); print(s.port, flush=True)\n"
            "s.serve_forever()\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                            stderr=subprocess.DEVNULL)
    socks = []
    try:
        port = int(proc.stdout.readline())
        idle = fds(proc.pid)
        for _ in range(200):  # TCP links that never say a word of ZMTP
            s = socket.create_connection(("127.0.0.1", port))
            socks.append(s)
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline and fds(proc.pid) < idle + 150:
            time.sleep(0.05)
        assert fds(proc.pid) >= idle + 150  # accepted, and held while they might still speak
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and fds(proc.pid) > idle + 10:
            time.sleep(0.2)
        assert fds(proc.pid) <= idle + 10, "the server still holds the silent links"
    finally:
        for s in socks:
            s.close()
        proc.kill()
        proc.wait(5)


def test_connections_beyond_the_cap_are_told_the_server_is_full(tmp_path) -> None:
    desk = Desk(tmp_path, max_conns=3)
    for n in range(3):
        desk.peer(f"c{n}").ask("ping")
    with pytest.raises(CoreError) as caught:
        desk.peer("one too many").ask("ping")
    assert caught.value.code == "server-full"
    assert len(desk.core.state.presence.conns) == 3
    desk.close()


# -- 7, 8. A full disk, a failed write ------------------------------------------------------------------------


def test_a_seat_taken_on_a_full_disk_stays_free(disk) -> None:
    desk = full_desk(disk)
    host, guest = desk.peer("host"), desk.peer("guest")
    table = host.ask("create_table", name="t", players=2)["table"]["id"]
    host.sit(table, 0)
    disk.fill()
    with pytest.raises(CoreError) as caught:
        guest.sit(table, 1)
    assert caught.value.code == "internal" and "did not happen" in caught.value.message
    t = desk.core.lobby.tables[table]
    assert t.seats[1].occupant is None and t.state == "waiting" and t.seats[1].token_hash is None
    disk.free()
    guest.sit(table, 1)
    assert desk.core.lobby.tables[table].state == "playing"
    desk.close()


def test_a_failed_write_keeps_the_away_and_stand_in_marks_and_replays_nothing(disk, monkeypatch) -> None:
    desk = full_desk(disk, lost_after=0.5)
    host, gone = desk.peer("host"), desk.peer("gone")
    table = host.ask("create_table", name="t", players=2, grace=0.5)["table"]["id"]
    host.sit(table, 0)
    gone.sit(table, 1)
    gone.silent = True
    desk.advance(2.0)  # lost, then a bot stands in
    t = desk.core.lobby.tables[table]
    assert t.seats[1].standin and (table, 1) in desk.core.state.presence.away
    restores = []
    monkeypatch.setattr(desk.journal, "restore", lambda: restores.append(1) or ([], []))
    if host.view.my_turn:
        host.act({"type": "draw"})  # now it is the stand-in's turn
    disk.fill()
    with pytest.raises(CoreError) as caught:
        host.act({"type": "draw"})  # out of turn in guarded mode: refused before the disk is touched ...
    assert caught.value.code == "out-of-turn"
    desk.advance(5.0)  # ... while the stand-in's moves fail to be saved, again and again
    t = desk.core.lobby.tables[table]
    assert t.seats[1].standin and (table, 1) in desk.core.state.presence.away
    assert restores == []  # nothing was rebuilt from the journal
    assert t.retry_after >= 2.0  # the retries back off
    disk.free()
    desk.advance(40.0)
    assert host.view.my_turn  # the stand-in moved once the disk had room
    desk.close()


def test_one_failed_write_in_a_bot_move_invents_no_penalty(disk) -> None:
    desk = full_desk(disk)
    host = desk.peer("host")
    table = host.ask("create_table", name="t", players=2, mode="penalty")["table"]["id"]
    host.sit(table, 0)
    host.ask("add_bot", table=table, seat=1, bot="rulebook", token=host.token)
    for _ in range(6):
        if host.view.my_turn:
            host.act({"type": "draw"})
        else:
            disk.fill()  # the bot's move cannot be saved once ...
            desk.advance(0.1)
            disk.free()  # ... and then can
            desk.advance(1.0)
    game = desk.core.lobby.tables[table].game
    assert not [e for _, _, events in game.log for e in events if e.kind == "penalty"]
    plies = [ply for ply, in desk.journal.db.execute("SELECT ply FROM actions WHERE table_id=?", (table,))]
    assert plies == list(range(1, game.ply + 1))  # every action once, none twice
    desk.close()


# -- 9. One damaged row ------------------------------------------------------------------------------------------


DAMAGE = {
    "illegal action": "UPDATE actions SET action='play 99 on 0' WHERE table_id=? AND ply=2",
    "garbled action": "UPDATE actions SET action='dance' WHERE table_id=? AND ply=1",
    "seat out of range": "UPDATE seats SET seat=9 WHERE table_id=? AND seat=1",
    "bad occupant": "UPDATE seats SET occupant='ghost' WHERE table_id=? AND seat=0",
    "bad player count": "UPDATE tables SET players=5 WHERE id=?",
    "bad mode": "UPDATE tables SET mode='chaos' WHERE id=?",
    "bad colours": "UPDATE tables SET colours='red,red,red,red' WHERE id=?",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_one_damaged_table_is_set_aside_and_every_other_comes_back(tmp_path, damage) -> None:
    desk = Desk(tmp_path)
    ids = []
    for n in range(3):
        p = desk.peer(f"p{n}")
        table = p.ask("create_table", name=f"t{n}", players=2)["table"]["id"]
        p.sit(table, 0)
        p.ask("add_bot", table=table, seat=1, bot="random", token=p.token)
        for _ in range(3):
            if p.view.my_turn:
                p.act({"type": "draw"})
            desk.advance(0.05)
        ids.append(table)
    desk.journal.db.execute(DAMAGE[damage], (ids[1],))
    desk.journal.close()
    again = Desk(tmp_path)
    assert set(again.core.lobby.tables) == {ids[0], ids[2]}
    assert [a.table for a in again.core.set_aside] == [ids[1]] and again.core.set_aside[0].reason
    again.close()


def test_serve_names_a_damaged_table_and_starts_without_a_traceback(tmp_path) -> None:
    desk = Desk(tmp_path)
    p = desk.peer("p")
    table = p.ask("create_table", name="t", players=2)["table"]["id"]
    desk.journal.db.execute(DAMAGE["bad mode"], (table,))
    desk.journal.close()
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "board99.commands", "serve", "--bind", "127.0.0.1", "--port",
                             str(port), "--data", str(tmp_path), "--no-beacon"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        first, second = proc.stdout.readline(), proc.stdout.readline()
        assert "listening" in first
        assert f"table {table} could not be restored and was set aside" in second and "mode" in second
    finally:
        stop(proc)
        err = proc.stderr.read()
    assert "Traceback" not in err and "event=table-set-aside" in err


# -- 10. Resume spam ------------------------------------------------------------------------------------------


def test_resume_spam_is_limited_and_grows_neither_pushes_nor_timers(tmp_path) -> None:
    desk = Desk(tmp_path, rate=None)  # the limit on resumes, not the limit on messages
    host, guest = desk.peer("host"), desk.peer("guest")
    table = host.ask("create_table", name="t", players=2, clock=60.0)["table"]["id"]
    host.sit(table, 0)
    guest.sit(table, 1)
    other = desk.peer("guest's other socket")
    pushed = len(host.received)
    refused = 0
    for n in range(1000):
        who = other if n % 2 else guest
        try:
            who.ask("resume", table=table, seat=1, token=guest.token)
        except CoreError as exc:
            assert exc.code == "too-often"
            refused += 1
    assert refused > 450  # (the other half asked for the seat where it already was: nothing to do)
    assert len(host.received) - pushed <= 10
    assert len(desk.core.state.timers) <= 10
    desk.close()


# -- 11. Search bots share the thinking --------------------------------------------------------------------------


@pytest.mark.slow
def test_search_bots_from_one_client_do_not_starve_another_tables_bot() -> None:
    from board99 import Game
    from board99.bots import SearchBot
    from board99.server.thinker import FAIR_WAIT, Thinker

    ctx = zmq.Context()
    thinker = Thinker(ctx, "fairness-test")
    try:
        view = Game(2, seed=3, first=0).view(0)
        for n in range(40):  # forty tables' search bots, queued at once
            thinker.submit(("hostile", n), SearchBot(seed=n, budget=0.2), view)
        thinker.submit(("honest", 0), SearchBot(seed=99, budget=0.2), view)
        answered: set = set()
        deadline = time.monotonic() + 30
        while ("honest", 0) not in answered and time.monotonic() < deadline:
            thinker.wake.poll(200)
            answered |= {key for key, _ in thinker.answers()}
        assert ("honest", 0) in answered
        # What thought before the honest table's bot, together, took about FAIR_WAIT (not 40 x 0.2 s).
        assert sum(thinker.budgets[:40]) <= 1.5 * FAIR_WAIT
    finally:
        thinker.close()
        ctx.destroy(linger=0)


# -- 12. Logs are not an amplifier ---------------------------------------------------------------------------------


def test_one_connections_errors_are_logged_a_few_a_second(tmp_path, caplog) -> None:
    desk = Desk(tmp_path, rate=None)
    loud = desk.peer("loud")
    with caplog.at_level("INFO", logger="board99.server"):
        for _ in range(5000):
            loud.send("take_seat", table="x" * 16, seat=0, name="y" * 40)
        desk.advance(2.0)
    lines = [r.getMessage() for r in caplog.records if loud.ident.hex() in r.getMessage()]
    assert len(lines) <= 40
    assert any("event=log-suppressed" in line for line in lines)
    assert all(len(line) < 400 for line in lines)
    desk.close()


# -- 13. Secrets stay private ----------------------------------------------------------------------------------------


def test_the_data_folder_and_journal_are_readable_by_the_server_only(tmp_path) -> None:
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    desk = Desk(folder)
    desk.peer("p").ask("create_table", name="t", players=2)
    assert folder.stat().st_mode & 0o777 == 0o700
    for f in folder.glob("board99.sqlite*"):
        assert f.stat().st_mode & 0o777 == 0o600, f
    desk.close()


# -- Low -------------------------------------------------------------------------------------------------------------


def test_an_action_type_that_is_a_list_and_deep_nesting_get_a_field_error(tmp_path) -> None:
    desk = Desk(tmp_path)
    p = desk.peer("p")
    table = p.ask("create_table", name="t", players=2)["table"]["id"]
    p.sit(table, 0)
    p.ask("add_bot", table=table, seat=1, bot="random", token=p.token)
    for action in ({"type": ["play"]}, {"type": {"a": 1}}):
        with pytest.raises(CoreError) as caught:
            p.act(action)
        assert caught.value.code == "bad-field" and caught.value.message.startswith("action.type")
    deep: object = 0
    for _ in range(990):
        deep = [deep]
    frame = msgpack.packb({"type": "take_seat", "id": 1, "table": deep, "seat": 0})
    out = desk.core.receive(p.ident, [frame], desk.now)
    reply = msgpack.unpackb(out.sends[-1][1])
    assert reply["code"] == "bad-field" and len(reply["message"]) < 200
    desk.close()


@pytest.mark.parametrize("name", ["Ann\u200b", "Ann\u202eeL", "Ann\x1b[31m", "Ann\nLee", "Ann\x00"])
def test_names_that_cannot_be_shown_safely_are_refused(tmp_path, name) -> None:
    desk = Desk(tmp_path)
    p = desk.peer("p")
    with pytest.raises(CoreError) as caught:
        p.ask("create_table", name=name, players=2)
    assert caught.value.code == "bad-field" and "cannot be shown safely" in caught.value.message
    assert p.ask("hello", version=PROTOCOL_VERSION, name="  Ann   Lee ")["version"] == PROTOCOL_VERSION
    desk.close()


def test_only_a_player_at_the_table_or_its_creator_may_add_bots(tmp_path) -> None:
    desk = Desk(tmp_path)
    host, stranger = desk.peer("host"), desk.peer("stranger")
    table = host.ask("create_table", name="t", players=2)["table"]["id"]
    with pytest.raises(CoreError) as caught:
        stranger.ask("add_bot", table=table, seat=1, bot="random")
    assert caught.value.code == "not-seated"
    host.ask("add_bot", table=table, seat=1, bot="random")  # the creator may
    desk.close()


@pytest.mark.slow
def test_forged_beacons_cannot_hide_or_impersonate_the_real_server(tmp_path) -> None:
    from board99.client.discovery import Listener
    from board99.client.net import ServerError, connect
    from board99.server.keys import load_or_create
    from board99.wire.beacon import MAGIC

    keys = load_or_create(tmp_path)
    with Listener(0, "127.0.0.1") as listener:
        from board99.server.beacon import Beacon

        real = Beacon("den", 9099, keys.public.decode(), beacon_port=listener.port, targets=("127.0.0.1",),
                      interval=0.05)
        with real, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as forger:
            forger.bind(("127.0.0.2", 0))  # another host on the loopback network
            for n in range(2000):  # names that sort first, from one host (this one, another port range)
                forger.sendto(MAGIC + msgpack.packb({"v": 1, "name": f"aaa{n:04}", "port": 10000 + n,
                                                     "key": None}), ("127.0.0.1", listener.port))
            forger.sendto(MAGIC + msgpack.packb({"v": 1, "name": "den", "port": 9100, "key": "x" * 40}),
                          ("127.0.0.1", listener.port))  # not Z85: ignored
            heard = listener.listen(1.0)
    assert any(s["name"] == "den" and s["port"] == 9099 for s in heard)
    assert len(heard) <= 32 and not any(s["port"] == 9100 for s in heard)
    with pytest.raises(ServerError) as caught:
        connect(server_key="!" * 40 + "x")
    assert caught.value.code == "bad-server-key"


def test_a_restart_never_takes_a_tables_seq_back(tmp_path) -> None:
    desk = Desk(tmp_path, lost_after=0.3)
    host, guest = desk.peer("host"), desk.peer("guest")
    table = host.ask("create_table", name="t", players=3)["table"]["id"]
    host.sit(table, 0)
    guest.sit(table, 1)
    for _ in range(5):  # presence changes: lost, back, lost, back ...
        guest.silent = True
        desk.advance(0.6)
        guest.silent = False
        guest.ask("resume", table=table, seat=1, token=guest.token)
        desk.advance(0.1)
    seq = desk.core.lobby.tables[table].seq
    desk.journal.close()
    again = Desk(tmp_path)
    assert again.core.lobby.tables[table].seq >= seq
    again.close()


def test_a_connection_starts_only_so_many_games_in_a_short_while(tmp_path) -> None:
    desk = Desk(tmp_path, tables_per_conn=100, games_burst=5)
    p = desk.peer("p")
    for n in range(5):
        p.ask("create_table", name=f"t{n}", players=2)
    with pytest.raises(CoreError) as caught:
        p.ask("create_table", name="one more", players=2)
    assert caught.value.code == "too-often" and "try again in" in caught.value.message
    desk.close()


def test_an_act_sent_twice_is_carried_out_once(tmp_path) -> None:
    desk = Desk(tmp_path)
    host, guest = desk.peer("host"), desk.peer("guest")
    table = host.ask("create_table", name="t", players=2, mode="penalty")["table"]["id"]
    host.sit(table, 0)
    guest.sit(table, 1)
    mover = host if host.view.my_turn else guest
    fields = {"table": table, "seat": mover.seat, "token": mover.token, "action": {"type": "draw"}}
    with pytest.raises(CoreError) as caught:
        mover.ask("act", **fields)  # without its ply
    assert caught.value.code == "bad-field" and caught.value.message.startswith("ply")
    ply = mover.view.ply
    mover.ask("act", **fields, ply=ply)
    with pytest.raises(CoreError) as caught:
        mover.ask("act", **fields, ply=ply)  # the same request again: not a second (penalised) draw
    assert caught.value.code == "stale"
    assert desk.core.lobby.tables[table].game.ply == ply + 1
    desk.close()
