"""Server speed: bots playing on loopback at 1, 100 and 1,000 concurrent tables, and a bare pyzmq echo.

Run: nice -n 10 .venv/bin/python bench/server.py [--tables 1,100,1000] [--paced-tables 100,1000]
                                                 [--think 0.6] [--seconds 8]

Each table count gets a fresh server process (``board99.server.loop.Server`` with its
SQLite journal in a temporary directory, server bots without delay, the rate
limiter off because one bench connection acts far faster than a person).
Every table has two seats: S0 is a remote random bot driven by this process,
S1 the server's own random bot. Tables are made with the client library
(``client.net.GameClient``: create, take the seat, add the bot); then one
DEALER per table resumes its seat with the token and all tables are played
concurrently from one poller loop. In the first rows each remote bot acts
as soon as its turn comes: the server is saturated, so latency there is
mostly queueing (Little's law: tables in flight / throughput). The paced
rows (``--paced-tables``) play again with each remote bot waiting
``--think`` seconds before acting, as `board99 serve` paces its own bots.
A finished game is followed by a rematch. Measured:

- act round trip: from sending ``act`` to its reply, at the client;
- actions per second: every accepted action (remote acts and server-bot moves);
- server CPU per action: the server process's user+system time over the games
  (warm-up and drain included) / every action in that span (pushes, pings and
  rematches included in the cost);
- server memory per table: the server's RSS growth over its idle start / tables;
- lost or duplicated actions: per table and game, the actions the client saw
  (its own acts and every ``update`` push) against the journal's rows, read
  after the server process is stopped (their plies must run 1 to n with no
  hole and no repeat); push sequence numbers must strictly increase.

The bare echo is a pyzmq ROUTER in its own process, with the same poller
loop, answering a request of the act request's size with a reply of the act
reply's size (medians from a short 1-table probe), half of its round trips
just before the first row and half just after, pooled. The GameClient's own
``act()`` round trip at 1 table is measured too.

With ``BENCH_WEB=1`` the server runs its web table too (an idle gateway thread, one more poll
item), as `board99 serve` does by default: the ZeroMQ rows must not move with it (docs/web.md).
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
import zmq  # noqa: E402

from board99 import SeatView, to_data  # noqa: E402
from board99.bots import make_bot  # noqa: E402
from board99.view import OCCUPANT  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import percentile  # noqa: E402
from procstat import cpu_seconds, rss_kib  # noqa: E402

WARMUP = 1.0  # seconds of play before latencies count
DRAIN = 10.0  # seconds allowed for outstanding replies after the measured window


def unchecked_view(data: dict) -> SeatView:
    """SeatView(**data) with the board's bytes read (protocol 3), skipping from_data's checks."""
    return SeatView(**{**data, "board": tuple(map(OCCUPANT.__getitem__, data["board"]))})


# -- the processes on the other side ---------------------------------------------------------------


def run_server(data_dir: str) -> None:
    """(Child process) the real board99 server on 127.0.0.1, a free port printed on stdout."""
    import logging

    from board99.server.loop import Server

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    # The limits a LAN server keeps for hostile clients are off: this measures capacity.
    server = Server("127.0.0.1", 0, data_dir, bot_delay=0.0, rate=None, max_tables=10_000, max_conns=100_000,
                    tables_per_conn=100_000, tables_per_host=100_000, conns_per_host=100_000, games_burst=1e9,
                    context=zmq.Context(), web_port=0 if os.environ.get("BENCH_WEB") else None)
    server.bind()
    print(server.port, flush=True)
    profile_to = os.environ.get("BENCH_PROFILE")  # a file for the server's cProfile stats (docs/benchmarks.md)
    if profile_to:
        import cProfile
        import signal

        def _end(*_: object) -> None:
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, _end)  # stop() terminates: the stats are written on the way out
        profiler = cProfile.Profile(time.thread_time)  # this thread's CPU: a busy machine preempts
        profiler.enable()
    try:
        server.serve_forever(collect=True)  # as `board99 serve` runs it
    finally:
        if profile_to:
            profiler.disable()
            profiler.dump_stats(profile_to)
        server.close()


def run_echo(reply_size: int) -> None:
    """(Child process) a bare ROUTER echo with the server's poller loop, replying ``reply_size`` bytes."""
    ctx = zmq.Context()
    router = ctx.socket(zmq.ROUTER)
    router.linger = 0
    port = router.bind_to_random_port("tcp://127.0.0.1")
    print(port, flush=True)
    poller = zmq.Poller()
    poller.register(router, zmq.POLLIN)
    pad = b"x" * max(0, reply_size - 40)
    while True:
        if not poller.poll(1000):
            continue
        for _ in range(2000):
            try:
                ident, frame = router.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                break
            msg = msgpack.unpackb(frame)  # decode and encode, as the server must
            router.send_multipart([ident, msgpack.packb({"type": "reply", "id": msg["id"], "pad": pad})])


def spawn(*args: str) -> tuple[subprocess.Popen, int]:
    """Start this file in another role; (process, the port it printed)."""
    proc = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    if not line.strip().isdigit():
        proc.kill()
        raise RuntimeError(f"{args[0]} did not start: {line!r}")
    return proc, int(line)


def stop(proc: subprocess.Popen) -> None:
    """End a child process started by spawn()."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# -- the bare echo ------------------------------------------------------------------------------------


def echo_latency(request_size: int, reply_size: int, count: int) -> list[float]:
    """Round trips (s) of one DEALER against the bare echo, request and reply of the given sizes."""
    proc, port = spawn("--role", "echo", "--reply-size", str(reply_size))
    try:
        ctx = zmq.Context()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(f"tcp://127.0.0.1:{port}")
        pad = "x" * max(0, request_size - 30)
        times = []
        for i in range(count + 200):
            frame = msgpack.packb({"type": "act", "id": i, "pad": pad})
            started = time.perf_counter()
            sock.send(frame)
            if not sock.poll(5000):
                raise RuntimeError("the echo did not answer in 5 s")
            sock.recv()
            if i >= 200:  # the first round trips set up the connection and warm the caches
                times.append(time.perf_counter() - started)
        ctx.destroy(linger=0)
        return times
    finally:
        stop(proc)


# -- the game tables ---------------------------------------------------------------------------------


@dataclass
class Seat:
    """One table's remote seat (S0), played through its own DEALER."""

    table: str
    token: str
    sock: zmq.Socket
    bot: object
    seq: int = -1
    view: dict | None = None
    state: str = "playing"
    game: int = 1
    pending: str | None = None  # the request awaiting its reply
    sent_at: float = 0.0
    last_sent: float = 0.0
    not_before: float = 0.0
    seen: dict[int, int] = field(default_factory=dict)  # game -> actions seen (own acts, update pushes)
    push_seqs: list[int] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)


@dataclass
class Run:
    """What one table count measured."""

    tables: int
    seconds: float
    think: float = 0.0
    latencies: list[float] = field(default_factory=list)
    actions: int = 0  # accepted actions in the window, both seats
    all_actions: int = 0  # ... from the first to the last, warm-up and drain included
    server_cpu: float = 0.0  # server CPU seconds over the same span
    remote_acts: int = 0
    rss_idle: int = 0
    rss_end: int = 0
    checked: int = 0  # (table, game) pairs compared with the journal
    lost: int = 0
    duplicated: int = 0
    unanswered: int = 0
    push_disorder: int = 0
    games: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    request_bytes: list[int] = field(default_factory=list)
    reply_bytes: list[int] = field(default_factory=list)
    setup_seconds: float = 0.0


def make_tables(ctx: zmq.Context, endpoint: str, count: int) -> list[tuple[str, str]]:
    """``count`` two-seat tables made with the client library: (table id, S0's seat token) each."""
    from board99.client.net import GameClient

    made = []
    for n in range(count):
        # One connection holds one seat; close() keeps the seat held for its token.
        with GameClient(endpoint, name=f"bench {n}", timeout=10.0, context=ctx) as client:
            table = client.create_table(f"bench {n}", 2)
            client.take_seat(table.id, 0, "red")
            client.add_bot(table.id, 1, "random")  # the table starts now
            made.append((table.id, client.token))
    return made


def send(who: Seat, kind: str, run: Run | None = None, **fields) -> None:
    """Send one request for ``who`` and note what it waits for."""
    frame = msgpack.packb({"type": kind, "id": 1, **fields}, use_bin_type=True)
    who.sock.send(frame)
    who.pending = kind
    who.sent_at = who.last_sent = time.perf_counter()
    if run is not None and kind == "act":
        run.request_bytes.append(len(frame))


def on_message(seat: Seat, msg: dict, size: int, arrived: float, run: Run, counting: bool, think: float) -> None:
    """One message from the server for one seat: a push, or the reply to its pending request."""
    kind = msg["type"]
    if kind in ("update", "table"):
        seat.push_seqs.append(msg["seq"])
        if kind == "update":  # another seat's action (our own come back as replies)
            seat.seen[seat.game] = seat.seen.get(seat.game, 0) + 1
            run.actions += counting
            run.all_actions += 1
        if msg["seq"] > seat.seq:
            seat.seq = msg["seq"]
            seat.view = msg["view"]
            seat.state = msg["info"]["state"] if kind == "table" else msg["state"]
        return
    if kind == "error" and msg.get("id") is None:  # not an answer to a request (e.g. rate-limited)
        seat.refused[msg["code"]] = seat.refused.get(msg["code"], 0) + 1
        return
    request, seat.pending = seat.pending, None
    if kind == "error":
        seat.refused[msg["code"]] = seat.refused.get(msg["code"], 0) + 1
        return
    if request == "act":
        seat.seen[seat.game] = seat.seen.get(seat.game, 0) + 1
        run.all_actions += 1
        seat.not_before = arrived + think
        if counting:
            run.latencies.append(arrived - seat.sent_at)
            run.actions += 1
            run.remote_acts += 1
            run.reply_bytes.append(size)
    elif request in ("resume", "rematch"):
        # A snapshot: the actions of this game so far are the view's ply.
        seat.game = msg["table"]["game"]
        seat.seen[seat.game] = msg["view"]["ply"]
    if "view" in msg and msg["seq"] >= seat.seq:
        seat.seq = msg["seq"]
        seat.view = msg["view"]
        seat.state = msg["table"]["state"] if isinstance(msg.get("table"), dict) else msg.get("state", seat.state)


def drain(poller: zmq.Poller, seats: dict, timeout_ms: int, handle) -> None:
    """Hand every message that arrives within one poll to ``handle(seat, msg, size, arrived)``."""
    for sock, _ in poller.poll(timeout_ms):
        seat = seats[sock]
        while True:
            try:
                frame = sock.recv(zmq.NOBLOCK)
            except zmq.Again:
                break
            handle(seat, msgpack.unpackb(frame, raw=False), len(frame), time.perf_counter())


def play_tables(count: int, seconds: float, think: float) -> Run:
    """Play ``count`` tables concurrently on a fresh server for ``seconds``; what was measured."""
    run = Run(count, seconds, think)
    with tempfile.TemporaryDirectory(prefix="board99-bench-") as data:
        proc, port = spawn("--role", "server", "--data", data)
        endpoint = f"tcp://127.0.0.1:{port}"
        ctx = zmq.Context()
        try:
            time.sleep(0.2)
            run.rss_idle = rss_kib(proc.pid)
            started = time.perf_counter()
            tables = make_tables(ctx, endpoint, count)
            run.setup_seconds = time.perf_counter() - started
            cpu = cpu_seconds(proc.pid)
            seats = play(ctx, endpoint, tables, run, think)
            run.server_cpu = cpu_seconds(proc.pid) - cpu
            run.rss_end = rss_kib(proc.pid)
        finally:
            stop(proc)
            ctx.destroy(linger=0)
        check_journal(Path(data) / "board99.sqlite", seats, run)
    return run


def play(ctx: zmq.Context, endpoint: str, tables: list[tuple[str, str]], run: Run, think: float) -> list[Seat]:
    """The concurrent games: every remote seat acts as soon as its turn comes (plus ``think``)."""
    poller = zmq.Poller()
    seats: dict[zmq.Socket, Seat] = {}
    for n, (table, token) in enumerate(tables):
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(endpoint)
        seat = Seat(table, token, sock, make_bot("random", seed=n))
        seat.not_before = time.perf_counter() + think * n / len(tables)  # paced tables start out of step
        seats[sock] = seat
        poller.register(sock, zmq.POLLIN)
        send(seat, "resume", table=table, seat=0, token=token)
    t0 = time.perf_counter()
    measure_from, measure_to = t0 + WARMUP, t0 + WARMUP + run.seconds

    def handle(seat: Seat, msg: dict, size: int, arrived: float) -> None:
        on_message(seat, msg, size, arrived, run, measure_from <= arrived <= measure_to, think)

    while True:
        now = time.perf_counter()
        closing = now >= measure_to
        if closing and (not any(s.pending for s in seats.values()) or now > measure_to + DRAIN):
            break
        drain(poller, seats, 2, handle)
        if closing:
            continue
        now = time.perf_counter()
        for seat in seats.values():
            if seat.pending:
                continue
            if seat.state == "over":
                run.games += 1
                send(seat, "rematch", token=seat.token)
            elif seat.state == "playing" and seat.view["turn"] == 0 and now >= seat.not_before:
                send(seat, "act", run, table=seat.table, seat=0, token=seat.token,
                     # SeatView(**data) skips from_data's checks: this loop stands for many clients at once.
                     action=to_data(seat.bot.choose(unchecked_view(seat.view))), ply=seat.view["ply"])
            elif now - seat.last_sent > 1.0:
                send(seat, "ping")  # a heartbeat, so the server keeps the seat as present
    # Let every last push arrive (the server bots answer the final acts) before counting.
    run.unanswered = sum(1 for s in seats.values() if s.pending)
    quiet_until = time.perf_counter() + 0.5
    while time.perf_counter() < quiet_until:
        drain(poller, seats, 50, lambda seat, msg, size, arrived: on_message(seat, msg, size, arrived, run, False,
                                                                              think))
    for seat in seats.values():
        run.push_disorder += sum(b <= a for a, b in zip(seat.push_seqs, seat.push_seqs[1:]))
        for code, n in seat.refused.items():
            run.refused[code] = run.refused.get(code, 0) + n
    return list(seats.values())


def check_journal(path: Path, seats: list[Seat], run: Run) -> None:
    """Compare the actions each seat saw, per game, with the journal's rows: none lost, none twice."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = {(t, g): (n, top) for t, g, n, top in
            db.execute("SELECT table_id, game_no, COUNT(*), MAX(ply) FROM actions GROUP BY table_id, game_no")}
    db.close()
    for seat in seats:
        for game, seen in seat.seen.items():
            stored, top = rows.get((seat.table, game), (0, 0))
            run.checked += 1
            if stored != (top or 0):
                run.duplicated += abs(stored - top)  # plies must be 1..n without a hole or a repeat
            if seen < stored:
                run.lost += stored - seen
            elif seen > stored:
                run.duplicated += seen - stored


def client_latency(count: int) -> list[float]:
    """``GameClient.act()`` round trips (s) at one table against a server bot (the library's own cost)."""
    from board99.client.net import GameClient

    with tempfile.TemporaryDirectory(prefix="board99-bench-") as data:
        proc, port = spawn("--role", "server", "--data", data)
        try:
            times: list[float] = []
            with GameClient(f"tcp://127.0.0.1:{port}", name="bench", timeout=10.0) as client:
                bot = make_bot("random", seed=1)
                deadline = time.monotonic() + 60
                while len(times) < count and time.monotonic() < deadline:
                    table = client.create_table("bench", 2)
                    client.take_seat(table.id, 0, "red")
                    client.add_bot(table.id, 1, "random")
                    while len(times) < count and client.table is not None and client.table.state != "over":
                        client.poll(0.01 if not client.my_turn() else 0)
                        if client.my_turn() and client.view is not None:
                            action = bot.choose(client.view)
                            started = time.perf_counter()
                            client.act(action)
                            times.append(time.perf_counter() - started)
                    client.leave()
            return times
        finally:
            stop(proc)


def core_act_path(actions: int) -> dict[str, list[float]]:
    """What one action costs inside the server: the core's own act path, timed in this process.

    A ``Core`` (``board99.server.core``) with a real SQLite journal in WAL mode in a temporary
    folder, driven as the loop drives it: each person's ``act`` is one ``Core.receive`` with the
    request's frame (decode, checks, engine, journal commit, the reply encoded); each server
    bot's answer is one ``Core.tick`` (bot choice, engine, journal commit, the push encoded).
    """
    from board99.server.core import Core
    from board99.server.journal import Journal
    from board99.server.state import Settings

    times: dict[str, list[float]] = {"act": [], "bot": []}
    bot = make_bot("random", seed=2)
    clock = time.perf_counter
    me = b"\x00bnch"  # a routing id of libzmq's own form (5 bytes, the first zero)
    now = 0.0
    ids = iter(range(1, 1 << 62))

    def ask(core: Core, kind: str, **fields: object) -> dict:
        out = core.receive(me, [msgpack.packb({"type": kind, "id": next(ids), **fields})], now)
        replies = [msgpack.unpackb(frame) for ident, frame in out.sends if ident == me]
        reply = next(r for r in replies if r["type"] in ("reply", "error"))
        if reply["type"] == "error":
            raise RuntimeError(f"{kind}: {reply['code']}: {reply['message']}")
        return reply

    with tempfile.TemporaryDirectory(prefix="board99-bench-") as data:
        journal = Journal(data)
        core = Core(journal, Settings(rate=None, lost_after=1e9, max_tables=1_000_000, tables_per_conn=1_000_000,
                                      games_burst=1e9), now)
        try:
            while len(times["act"]) < actions:
                table = ask(core, "create_table", name="bench", players=2)["table"]["id"]
                seat = ask(core, "take_seat", table=table, seat=0)
                token, view = seat["token"], SeatView.from_data(seat["view"])
                ask(core, "add_bot", table=table, seat=1, bot="random", token=token)
                view = SeatView.from_data(ask(core, "snapshot", token=token)["view"])
                while view.winner is None and len(times["act"]) < actions:
                    now += 0.001
                    if view.turn == 0:
                        frame = msgpack.packb({"type": "act", "id": next(ids), "table": table, "seat": 0,
                                               "token": token, "action": to_data(bot.choose(view)),
                                               "ply": view.ply})
                        t0 = clock()
                        out = core.receive(me, [frame], now)
                        times["act"].append(clock() - t0)
                    else:
                        t0 = clock()
                        out = core.tick(now)
                        times["bot"].append(clock() - t0)
                    for ident, frame in out.sends:
                        msg = msgpack.unpackb(frame)
                        if ident == me and "view" in msg:
                            view = SeatView.from_data(msg["view"])
                ask(core, "leave", token=token)
        finally:
            journal.close()
    return times


# -- report ----------------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", choices=("bench", "server", "echo"), default="bench", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    parser.add_argument("--reply-size", type=int, default=64, help=argparse.SUPPRESS)
    parser.add_argument("--tables", default="1,100,1000", help="table counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per table count")
    parser.add_argument("--paced-tables", default="100,1000", help="table counts played again with --think")
    parser.add_argument("--think", type=float, default=0.6,
                        help="seconds a paced remote bot waits before acting (0.6: `board99 serve`'s bot delay)")
    parser.add_argument("--echo-count", type=int, default=5000)
    args = parser.parse_args(argv)
    if args.role == "server":
        run_server(args.data)
        return 0
    if args.role == "echo":
        run_echo(args.reply_size)
        return 0

    # A count of 0 is no row (``--paced-tables 0``: no paced rows), not a row of no tables.
    plan = [(int(n), 0.0) for n in args.tables.split(",") if n and int(n) > 0]
    plan += [(int(n), args.think) for n in args.paced_tables.split(",") if n and int(n) > 0]
    print(f"# bench/server.py, {time.strftime('%Y-%m-%d %H:%M')}, {platform.node()}: {os.cpu_count()} cores, "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"pyzmq {zmq.pyzmq_version()}, libzmq {zmq.zmq_version()}, loadavg {os.getloadavg()[0]:.2f}",
          flush=True)
    runs = []
    # The echo runs just before and just after the first row (a short probe gives the act sizes), so both
    # meet the same conditions on a shared machine; its samples are pooled.
    probe = play_tables(1, 0.5, 0.0)
    request_size = int(statistics.median(probe.request_bytes))
    reply_size = int(statistics.median(probe.reply_bytes))
    echo = echo_latency(request_size, reply_size, args.echo_count // 2)
    lib: list[float] = []
    for count, think in plan:
        run = play_tables(count, args.seconds, think)
        runs.append(run)
        print(f"  {count} tables, think {think:g} s: {run.remote_acts} acts measured, "
              f"setup {run.setup_seconds:.1f} s", flush=True)
        if not lib:
            echo += echo_latency(request_size, reply_size, args.echo_count - args.echo_count // 2)
            lib = client_latency(2000)
    echo_p50 = percentile(echo, 50)

    print()
    print(f"Bare pyzmq ROUTER echo ({request_size}-byte request, {reply_size}-byte reply, msgpack both ways, "
          f"{len(echo)} round trips): p50 {ms(echo_p50)} ms, p99 {ms(percentile(echo, 99))} ms")
    print(f"GameClient.act() at 1 table ({len(lib)} acts): p50 {ms(percentile(lib, 50))} ms, "
          f"p99 {ms(percentile(lib, 99))} ms")
    core = core_act_path(5000)
    print(f"Inside the server, the core's own path (this process, median of {len(core['act'])} person's acts "
          f"and {len(core['bot'])} bot moves): act {statistics.median(core['act']) * 1e6:.1f} µs, "
          f"bot move {statistics.median(core['bot']) * 1e6:.1f} µs")
    print()
    print("| tables | think s | acts measured | act p50 ms | act p99 ms | p50 / echo p50 | actions/s (both seats) "
          "| server CPU µs per action | server RSS idle → end MiB | KiB per table | games finished | lost | duplicated | unanswered "
          "| push seq out of order | refusals |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in runs:
        p50 = percentile(r.latencies, 50)
        per_table = (r.rss_end - r.rss_idle) / r.tables
        print(f"| {r.tables} | {r.think:g} | {r.remote_acts} | {ms(p50)} | {ms(percentile(r.latencies, 99))} "
              f"| {p50 / echo_p50:.2f} | {r.actions / r.seconds:,.0f} "
              f"| {r.server_cpu / max(1, r.all_actions) * 1e6:.0f} "
              f"| {r.rss_idle / 1024:.1f} → {r.rss_end / 1024:.1f} | {per_table:.0f} | {r.games} "
              f"| {r.lost} | {r.duplicated} | {r.unanswered} | {r.push_disorder} "
              f"| {', '.join(f'{k} {v}' for k, v in sorted(r.refused.items())) or 'none'} |")
    print()
    print(f"(journal checked for {sum(r.checked for r in runs)} table-games; "
          f"{args.seconds:g} s measured per row after {WARMUP:g} s of warm-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
