"""`board99 bot --server ...` end to end: a real `board99 serve` process and remote bot processes."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from board99.bots import make_bot
from board99.client.net import GameClient, play_bot

ROOT = Path(__file__).resolve().parent.parent


class Process:
    """A `board99` command run as its own process, its output lines read as they come."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "board99.commands", *args], cwd=ROOT, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[str] = queue.Queue()
        self.err: list[str] = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self.err.append), daemon=True).start()

    @staticmethod
    def _read(stream, put) -> None:
        for line in stream:
            put(line.rstrip("\n"))

    def line_with(self, text: str, timeout: float = 15.0) -> str:
        """The first stdout line containing ``text``; fails after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r} within {timeout} s; stderr: {self.err[-5:]}")

    def wait(self, timeout: float = 30.0) -> int:
        return self.proc.wait(timeout)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def serve(tmp: Path, *extra: str) -> tuple[Process, int]:
    server = Process("serve", "--bind", "127.0.0.1", "--port", "0", "--data", str(tmp), "--no-beacon",
                     "--bot-delay", "0", *extra)
    line = server.line_with("listening on tcp://127.0.0.1:")
    port = int(line.split("tcp://127.0.0.1:")[1].split()[0])
    return server, port


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory) -> Iterator[int]:
    server, port = serve(tmp_path_factory.mktemp("serve"))
    yield port
    server.stop()


@pytest.mark.slow
def test_a_remote_bot_takes_a_seat_in_a_partnership_and_plays_to_the_end(plain_server: int) -> None:
    port = plain_server
    with GameClient(f"tcp://127.0.0.1:{port}", name="host", timeout=5.0) as me:
        table = me.create_table("remote partner", 4, mode="penalty").id
        me.take_seat(table, 0, "red")
        me.add_bot(table, 2, "random")  # my partner
        me.add_bot(table, 3, "random")
        bot = Process("bot", "--server", f"127.0.0.1:{port}", "--table", table, "--seat", "1", "--bot", "random")
        try:
            seated = bot.line_with(f"seated at table {table} as S1")
            deadline = time.monotonic() + 30
            while me.table.state != "playing" and time.monotonic() < deadline:
                me.poll(0.1)
            assert me.table.seats[1].occupant == "human" and me.table.seats[1].name == "random bot"
            view = play_bot(me, make_bot("random", seed=2), until=time.monotonic() + 30)
            assert view is not None and view.winner is not None
            over = bot.line_with("game over", timeout=15)
            assert f"side {view.winner} won after {view.ply} actions" in over
            assert bot.wait(15) == 0
        finally:
            bot.stop()
        assert "(red)" not in seated  # S1 plays for side 1, and no two sides look alike
        assert any(line.startswith("S1 ") for line in me.fetch_record(table).splitlines())


def test_a_remote_bot_sent_to_a_taken_seat_stops_and_says_why(plain_server: int) -> None:
    port = plain_server
    with GameClient(f"tcp://127.0.0.1:{port}", name="host", timeout=5.0) as me:
        table = me.create_table("full", 2).id
        me.take_seat(table, 0, "red")
        bot = Process("bot", "--server", f"127.0.0.1:{port}", "--table", table, "--seat", "0", "--bot", "random")
        try:
            assert bot.wait(20) == 1
        finally:
            bot.stop()
        assert any("seat-taken" in line for line in bot.err), bot.err


@pytest.mark.slow
def test_a_remote_bot_with_the_server_key_plays_and_with_another_key_is_refused(tmp_path: Path) -> None:
    server, port = serve(tmp_path, "--curve")
    try:
        key = server.line_with("server public key:").rsplit(" ", 1)[1]
        assert len(key) == 40
        with GameClient(f"tcp://127.0.0.1:{port}", server_key=key, name="host", timeout=5.0) as me:
            table = me.create_table("encrypted", 2).id
            me.take_seat(table, 0, "red")
            wrong = Process("bot", "--server", f"127.0.0.1:{port}", "--table", table, "--seat", "1",
                            "--key=-" + "0" * 39)  # another key, and one starting with '-' (Z85 allows it)
            try:
                assert wrong.wait(20) == 1
            finally:
                wrong.stop()
            assert any("bad-server-key" in line and "differs" in line for line in wrong.err), wrong.err
            right = Process("bot", "--server", f"127.0.0.1:{port}", "--table", table, "--seat", "1",
                            "--bot", "random", f"--key={key}")
            try:
                right.line_with(f"seated at table {table} as S1")
                view = play_bot(me, make_bot("random", seed=4), until=time.monotonic() + 30)
                assert view is not None and view.winner is not None
                assert right.wait(15) == 0
            finally:
                right.stop()
    finally:
        server.stop()
