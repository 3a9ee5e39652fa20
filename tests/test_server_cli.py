"""`board99 bot` seats a bot from another process; the server holds many tables of bots at once."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from board99.client.net import GameClient, endpoint_for
from board99.record import Record
from board99.server.loop import run_in_thread

ROOT = Path(__file__).resolve().parent.parent


def test_endpoint_for_reads_host_port_forms() -> None:
    assert endpoint_for("den") == "tcp://den:9099"
    assert endpoint_for("den:9100") == "tcp://den:9100"
    assert endpoint_for("10.0.0.5") == "tcp://10.0.0.5:9099"
    assert endpoint_for("tcp://10.0.0.5:1") == "tcp://10.0.0.5:1"


def test_board99_bot_plays_a_seat_from_another_process(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path)
    watcher = GameClient(handle.endpoint)
    try:
        table = watcher.create_table("remote", 2, "penalty").id
        watcher.spectate(table)
        watcher.add_bot(table, 1, "random")
        proc = subprocess.run(
            [sys.executable, "-m", "board99.commands", "bot", "--server", handle.endpoint.removeprefix("tcp://"),
             "--table", table, "--seat", "0", "--bot", "rulebook", "--colour", "green"],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert "seated at table" in proc.stdout and "game over" in proc.stdout
        game = Record.loads(watcher.fetch_record(table)).replay()
        assert game.winner is not None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and watcher.table.state != "over":
            watcher.poll(0.05)
        assert watcher.table.seats[0].colour == "green"
    finally:
        watcher.close()
        handle.stop()


def test_board99_bot_names_a_missing_table(tmp_path) -> None:
    handle = run_in_thread(data_dir=tmp_path)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "board99.commands", "bot", "--server", handle.endpoint, "--table", "nope",
             "--seat", "0"], cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
        assert proc.returncode == 1
        assert "no-such-table" in proc.stderr
    finally:
        handle.stop()


def every_table(client: GameClient) -> list:
    """Every table on the server, page by page."""
    tables, offset = [], 0
    while True:
        page = client.lobby_page(offset)
        tables += page.tables
        offset += len(page.tables)
        if offset >= page.total or not page.tables:
            return tables


@pytest.mark.slow
def test_the_server_holds_a_thousand_tables_of_bots(tmp_path) -> None:
    # One connection opens every table here: a club's host, with the per-connection limits raised.
    handle = run_in_thread(data_dir=tmp_path, tables_per_conn=1000, tables_per_host=1000, games_burst=2000,
                           rate=None)
    client = GameClient(handle.endpoint, timeout=20)
    try:
        ids = []
        for i in range(1000):
            ids.append(client.create_table(f"t{i}", 2, "guarded").id)
        # Fill them in a second pass: every table then plays itself on the server's timers.
        for tid in ids[:200]:
            client.add_bot(tid, 0, "random")
            client.add_bot(tid, 1, "random")
        assert client.lobby_page().total == 1000 and len(every_table(client)) == 1000
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            done = sum(t.state == "over" for t in every_table(client))
            if done == 200:
                break
            time.sleep(0.2)
        assert done == 200
        record = client.fetch_record(ids[0])
        assert Record.loads(record).replay().winner is not None
    finally:
        client.close()
        handle.stop()


@pytest.mark.slow
def test_connect_finds_the_server_by_discovery_and_names_what_it_heard(tmp_path) -> None:
    from board99.client.discovery import Listener
    from board99.client.net import ServerError, connect

    with Listener(port=0, bind="127.0.0.1") as probe:
        port = probe.port
    handle = run_in_thread(data_dir=tmp_path, name="den",
                           beacon={"beacon_port": port, "targets": ("127.0.0.1",), "interval": 0.05})
    try:
        with connect(name="ann", discovery_timeout=0.4, port=port, bind="127.0.0.1") as client:
            assert client.endpoint == handle.endpoint
            assert not client.list_tables()
        try:
            connect(server_name="attic", discovery_timeout=0.3, port=port, bind="127.0.0.1")
        except ServerError as exc:
            assert exc.code == "no-server" and "den (127.0.0.1:" in exc.message
        else:
            raise AssertionError("connect() took a server with another name")
    finally:
        handle.stop()
