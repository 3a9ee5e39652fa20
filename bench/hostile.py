"""An honest game's act latency while one hostile client attacks the server, attack by attack (issue 8).

For each row a fresh `board99 serve` process (its defaults: the limits a LAN
server keeps) runs in a temporary folder. An honest person plays a 2-player
table against the server's rulebook bot (bot delay 0.02 s: a game every few seconds)
from this process with the client library; meanwhile one hostile client, in a
process of its own, does one thing from the attack found on the server:

- ``quiet``: nobody else (the baseline);
- ``flood``: pings as fast as a socket can send them (rate limit);
- ``lobby``: with 3,000 tables in the lobby, asks for its largest page as fast as
  allowed and never reads the replies (pages, bounded send queues);
- ``resume``: two sockets resume one seat in turn, as fast as they can;
- ``offences``: at a penalty table of its own, draws out of turn without end;
- ``search``: three tables of six search bots each, started at once;
- ``silent``: 500 TCP links that never speak;
- ``tables``: new connections creating tables as fast as allowed;
- ``garbage``: malformed requests as fast as allowed (log amplification).

The figure is the honest act's round trip (send to reply) over the measured
seconds; the target is p99 within 3x of the quiet row's. The attacker runs at
nice 10 and sends from 127.0.0.2: it stands for another machine on the LAN,
whose CPU is its own, and the server's limits per machine apply to it.

    .venv/bin/python bench/hostile.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
import zmq  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procstat import rss_kib  # noqa: E402

#: The server bot's pause before each move: a few honest acts a second, a game every few seconds.
BOT_DELAY = 0.02
ATTACKS = ("quiet", "flood", "lobby", "resume", "offences", "search", "silent", "tables", "garbage")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def seed_lobby(data: Path, count: int) -> None:
    """A journal holding ``count`` waiting tables, as many connections would have made them."""
    from board99.server.journal import Journal
    from board99.server.tables import Lobby

    journal, lobby = Journal(data), Lobby(max_tables=10_000)
    try:
        for n in range(count):
            journal.save_table(lobby.create(f"lobby table number {n:05}", 6, "penalty", 30.0, None), created=True)
    finally:
        journal.close()


def start_server(data: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "board99.commands", "serve", "--bind", "127.0.0.1", "--port", str(port),
                             "--data", str(data), "--no-beacon", "--bot-delay", str(BOT_DELAY)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "listening" in line, line
    return proc, f"127.0.0.1:{port}"


# -- the hostile client (a process of its own) -----------------------------------------------------------


def attack(kind: str, address: str, seconds: float) -> None:
    """(Child process) one attack for ``seconds``."""
    from board99.client.net import GameClient

    # The attacker stands for another machine on the LAN: on this one it must not take the server's
    # or the honest player's CPU, so it runs at a lower priority (nice 10).
    os.nice(10)
    ctx = zmq.Context()
    end = time.monotonic() + seconds
    # The attack comes from another machine (127.0.0.2 on the loopback network): the limits per machine
    # apply to it, not to the honest player.
    host, port = address.split(":")
    endpoint = f"tcp://127.0.0.2:0;{host}:{port}"

    def dealer() -> zmq.Socket:
        s = ctx.socket(zmq.DEALER)
        s.linger = 0
        s.connect(endpoint)
        return s

    def blast(sock: zmq.Socket, frame: bytes, read: bool = True) -> None:
        while time.monotonic() < end:
            try:
                sock.send(frame, zmq.NOBLOCK)
            except zmq.Again:
                time.sleep(0.001)
            while read and sock.poll(0):
                sock.recv()

    if kind == "flood":
        blast(dealer(), msgpack.packb({"type": "ping", "id": 1}))
    elif kind == "lobby":
        blast(dealer(), msgpack.packb({"type": "list_tables", "id": 1, "limit": 50}), read=False)
    elif kind == "resume":
        with GameClient(endpoint, name="spam") as c:
            table = c.create_table("spam", 2)
            c.take_seat(table.id, 0)
            token = c.token
        socks = [dealer(), dealer()]
        frame = msgpack.packb({"type": "resume", "id": 1, "table": table.id, "seat": 0, "token": token})
        while time.monotonic() < end:
            for s in socks:
                s.send(frame)
                while s.poll(0):
                    s.recv()
    elif kind == "offences":
        with GameClient(endpoint, name="pest") as c:
            table = c.create_table("pest", 2, "penalty")
            c.take_seat(table.id, 0)
            c.add_bot(table.id, 1, "rulebook")
            while time.monotonic() < end:
                try:
                    c.poll(0)
                    if c.view is not None and not c.view.my_turn and c.view.deck_size:
                        c._request("act", table=table.id, seat=0, token=c.token, action={"type": "draw"},
                                   ply=c.view.ply)
                    elif c.view is not None and c.view.my_turn:
                        c.act(c.view.legal_actions()[-1])
                except Exception:
                    pass
    elif kind == "search":
        clients = [GameClient(endpoint, name=f"search {n}") for n in range(3)]
        for c in clients:
            table = c.create_table("thinkers", 6)
            for seat in range(6):
                c.add_bot(table.id, seat, "search")
        time.sleep(max(0.0, end - time.monotonic()))
    elif kind == "silent":
        links = [socket.create_connection((host, int(port)), source_address=("127.0.0.2", 0)) for _ in range(500)]
        time.sleep(max(0.0, end - time.monotonic()))
        for link in links:
            link.close()
    elif kind == "tables":
        while time.monotonic() < end:
            s = dealer()
            for n in range(4):
                s.send(msgpack.packb({"type": "create_table", "id": n, "name": "spam", "players": 6}))
            time.sleep(0.002)
            s.close()
    elif kind == "garbage":
        blast(dealer(), msgpack.packb({"type": "take_seat", "id": 1, "table": "x" * 16, "seat": 9,
                                        "name": "y" * 40}))
    ctx.destroy(linger=0)


# -- the honest player ---------------------------------------------------------------------------------------


def honest(address: str, seconds: float, warmup: float = 1.0) -> list[float]:
    """Play against the rulebook bot for ``seconds``; each act's round trip."""
    from board99.bots import make_bot
    from board99.client.net import GameClient

    times: list[float] = []
    bot = make_bot("rulebook")
    start = time.monotonic()
    with GameClient(address, name="honest", timeout=10.0) as c:
        while time.monotonic() - start < warmup + seconds:
            table = c.create_table("honest", 2)
            c.take_seat(table.id, 0)
            c.add_bot(table.id, 1, "rulebook")
            while c.table is not None and c.table.state != "over" and time.monotonic() - start < warmup + seconds:
                c.poll(0.01 if not c.my_turn() else 0)
                if c.my_turn() and c.view is not None:
                    action = bot.choose(c.view)
                    t0 = time.perf_counter()
                    c.act(action)
                    if time.monotonic() - start > warmup:
                        times.append(time.perf_counter() - t0)
            c.leave()
    return times


def run_row(kind: str, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="board99-hostile-") as folder:
        data = Path(folder)
        if kind == "lobby":
            seed_lobby(data, 3000)
        proc, address = start_server(data)
        attacker = None
        try:
            if kind != "quiet":
                attacker = subprocess.Popen([sys.executable, __file__, "--role", "attack", "--kind", kind,
                                             "--address", address, "--seconds", str(seconds + 2)])
                time.sleep(1.0)  # the attack is under way before the measurement starts
            rss0 = rss_kib(proc.pid)
            times = honest(address, seconds)
            grown = rss_kib(proc.pid) - rss0
        finally:
            if attacker is not None:
                attacker.kill()
                attacker.wait()
            proc.terminate()
            proc.wait(10)
    times.sort()
    return {"acts": len(times), "p50": statistics.median(times), "p99": times[int(len(times) * 0.99)],
            "rss_kib": grown}


def main(argv: list[str] | None = None) -> int:
    """Run every row and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", choices=("bench", "attack"), default="bench", help=argparse.SUPPRESS)
    parser.add_argument("--kind", choices=ATTACKS, default="quiet", help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per row")
    parser.add_argument("--rows", default=",".join(ATTACKS), help="attacks to run, comma-separated")
    args = parser.parse_args(argv)
    if args.role == "attack":
        attack(args.kind, args.address, args.seconds)
        return 0
    print(f"# bench/hostile.py, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
          f"loadavg {os.getloadavg()[0]:.2f}", flush=True)
    rows = {}
    for kind in args.rows.split(","):
        rows[kind] = run_row(kind, args.seconds)
        print(f"  {kind}: {rows[kind]['acts']} acts", flush=True)
    quiet = rows.get("quiet", next(iter(rows.values())))
    print()
    print("| attack | honest acts | act p50 ms | act p99 ms | p99 / quiet p99 | server RSS growth MiB |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind, r in rows.items():
        print(f"| {kind} | {r['acts']} | {r['p50'] * 1000:.2f} | {r['p99'] * 1000:.2f} "
              f"| {r['p99'] / quiet['p99']:.2f} | {r['rss_kib'] / 1024:.1f} |")
    return 0


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    sys.exit(main())
