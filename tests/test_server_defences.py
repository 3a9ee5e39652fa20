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

import pytest
import zmq

from board99.client.net import GameClient

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: Path, *extra: str) -> subprocess.Popen:
    """`board99 serve` in its own process (a fresh libzmq, as on a LAN), ready when it prints its address."""
    proc = subprocess.Popen([sys.executable, "-m", "board99.cli", "serve", "--bind", "127.0.0.1", "--port", str(port),
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
                assert honest.hello()["version"] == 1  # an ordinary connection after it
            attacker.close()
        time.sleep(0.2)
        assert proc.poll() is None, "the server died"
    finally:
        ctx.destroy(linger=0)
        stop(proc)
