"""The web table at play: an act's round trip through the web against GameClient.act(), and 100 paced web seats.

Run: nice -n 10 .venv/bin/python bench/web_play.py [--rounds 3] [--acts 400] [--paced-tables 100]
                                                   [--think 0.6] [--seconds 20]

One server process per run (``board99.server.loop.Server`` with its web table on, on
127.0.0.1, its SQLite journal in a temporary folder, server bots without delay), with the
limits a LAN server keeps for hostile clients off, as bench/server.py does: the core's rate
limiter, and the gateway's frames a second and connections per machine (one bench client
acts faster than a person, and every page comes from 127.0.0.1). Each table has two seats:
S0 is ours, S1 the server's random bot. A table is made with the client library
(``GameClient``: create, take seat 0, add the bot) and left; then a web page takes S0 back
with its seat token in its hello, as a phone that slept does (docs/web-scenes.md,
"Coming back"). A web page here is a socket with websockets' sans-IO client protocol (``Page``), as lean as
the ZeroMQ rows' clients (a socket polled, no event-loop framework: an asyncio page added its own
scheduling to every round trip, docs/benchmarks.md), speaking the page's JSON: it
presses controls the scene offers and reads the scenes that follow, deciding nothing itself
(a random enabled card, then a random lit square; the picked card's Discard when no square
is lit; Draw when no card is held).

- **act round trip, 1 table**, rounds alternated web, ZeroMQ, web, ZeroMQ ...: the web's is
  from sending the press that makes the action (a lit square, Discard or Draw) to the
  arrival of the first scene that shows the action done (the server's reply taken by the
  WebSeat, its TableState moved on, the whole scene built, compared with the last one,
  JSON-encoded, framed by the loop's gateway, through the WebSocket, decoded and patched by
  the page). The
  pick of a card before it is one more press answered by the seat alone (no core): its
  round trip is given apart. ZeroMQ's is ``GameClient.act()`` on the same kind of table on
  the same kind of server: from the call to its return (request encoded, sent, the reply
  received and decoded, the client's copy of the table moved on).
- **paced, 100 tables**: each seat waits ``--think`` seconds after its action's scene
  before it acts again, as bench/server.py's paced row does (tables start out of step);
  from one process (one selector over every page's socket, as bench/server.py's paced row polls every
  DEALER from one loop), the act round trips as above, p50 and
  p99. The ZeroMQ paced row is bench/server.py's own (``play_tables``, web table on as
  here), run in the same rounds, alternated.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import orjson  # noqa: E402
import zmq  # noqa: E402
from figures import percentile  # noqa: E402
from procstat import cpu_seconds  # noqa: E402
from websockets.client import ClientProtocol  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402
from websockets.protocol import State  # noqa: E402
from websockets.typing import Origin  # noqa: E402
from websockets.uri import parse_uri  # noqa: E402

try:
    from board99.web.seat import patched
except ImportError:  # a checkout from before patches (--base): its server sends whole scenes only
    patched = None  # type: ignore[assignment]

WARMUP = 1.0  # seconds of play before latencies count (paced)


# -- the server ------------------------------------------------------------------------------------


def run_server(data_dir: str) -> None:
    """(Child process) the real server with its web table on 127.0.0.1; prints 'ZMQ-PORT WEB-PORT'."""
    import logging

    from board99.server.loop import Server
    from board99.web.gateway import Limits

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    big = 100_000
    server = Server("127.0.0.1", 0, data_dir, bot_delay=0.0, rate=None, max_tables=10_000, max_conns=big,
                    tables_per_conn=big, tables_per_host=big, conns_per_host=big, games_burst=1e9,
                    context=zmq.Context(), web_port=0,
                    web_limits=Limits(per_host=big, total=big, rate=1e9, burst=1e9))
    server.bind()
    print(server.port, server.web_port, flush=True)
    profile_to = os.environ.get("BENCH_PROFILE")  # a file for cProfile stats: the loop's thread, seats and all
    if profile_to:
        import cProfile
        import signal

        def _end(*_: object) -> None:
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, _end)  # stop() terminates: the stats are written on the way out
        profile = cProfile.Profile(time.thread_time)
        profile.enable()
    try:
        server.serve_forever(collect=True)  # as `board99 serve` runs it
    finally:
        if profile_to:
            profile.disable()
            profile.dump_stats(profile_to)
        server.close()


def spawn(data: str, checkout: Path = ROOT) -> tuple[subprocess.Popen, int, int]:
    """The server in its own process, from ``checkout`` (its own .venv): (process, ZeroMQ port, web port)."""
    python = sys.executable if checkout == ROOT else str(checkout / ".venv" / "bin" / "python")
    proc = subprocess.Popen([python, str(checkout / "bench" / "web_play.py"), "--role", "server", "--data", data],
                            stdout=subprocess.PIPE, text=True, cwd=checkout)
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    if len(line) != 2 or not all(p.isdigit() for p in line):
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return proc, int(line[0]), int(line[1])


def stop(proc: subprocess.Popen) -> None:
    """End the server process."""
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def make_tables(endpoint: str, count: int) -> list[tuple[str, str]]:
    """``count`` two-seat tables against a server bot, seat 0 taken and left: (table id, its token) each."""
    from board99.client.net import GameClient

    made = []
    ctx = zmq.Context()
    try:
        for n in range(count):
            with GameClient(endpoint, name=f"bench {n}", timeout=10.0, context=ctx) as client:
                table = client.create_table(f"bench {n}", 2)
                client.take_seat(table.id, 0, "red")
                client.add_bot(table.id, 1, "random")
                made.append((table.id, client.token))
    finally:
        ctx.destroy(linger=0)
    return made


# -- a web page -------------------------------------------------------------------------------------


def controls(scene: dict) -> dict[str, dict]:
    """The scene's controls by id (buttons, cards, squares)."""
    out: dict[str, dict] = {}
    for part in scene.get("parts", []):
        for item in part.get("items", []) + part.get("cells", []):
            if isinstance(item, dict) and "id" in item:
                out[item["id"]] = item
        for item in part.get("buttons", []):
            out[item["id"]] = item
    return out


def hand(scene: dict) -> list[str]:
    """The ids of the hand's cards."""
    for part in scene.get("parts", []):
        if part.get("id") == "hand":
            return [item["id"] for item in part["items"]]
    return []


def board(scene: dict) -> tuple:
    """The board's pegs, square by square."""
    for part in scene.get("parts", []):
        if part.get("id") == "board":
            return tuple(cell["peg"] for cell in part["cells"])
    return ()


def done_mark(scene: dict) -> tuple:
    """What an action changes on the scene: the board's pegs and the hand (a play, a draw, a discard)."""
    return board(scene), tuple(c["face"] for p in scene.get("parts", []) if p.get("id") == "hand"
                               for c in p["items"])


@dataclass
class Wait:
    """What a page's play waits for: a scene ``check`` accepts, for at most ``seconds`` (then TimeoutError)."""

    check: Callable[[dict], object]
    seconds: float = 10.0


@dataclass
class Sleep:
    """A page's play pauses ``seconds`` (a person thinking)."""

    seconds: float


#: A page's play: a generator that yields what it waits for and is sent the scene it waited for.
Play = Generator["Wait | Sleep", "dict | None", Any]


@dataclass(eq=False)  # a page is itself (a key of the driver's tables)
class Page:
    """One web page at its own table: a socket, websockets' sans-IO client protocol, the scene it draws.

    As lean as GameClient is on the ZeroMQ side (a blocking request, a socket polled, no event loop
    framework): the act round trip measures the server's web path, not a page's Python machinery. A
    browser's page does the same steps (a frame read, JSON.parse, the patch applied) in compiled code.
    """

    n: int
    table: str
    token: str
    sock: socket.socket | None = None
    proto: ClientProtocol | None = None
    scene: dict = field(default_factory=dict)
    games: int = 0
    notices: dict[str, int] = field(default_factory=dict)
    closed: bool = False
    arrived: float = 0.0  # when the page last finished reading a scene or patch (perf_counter)

    def open(self, port: int) -> None:
        """Connect, open the WebSocket, say hello with the kept seat token, wait for the table's scene."""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws"),
                                    origin=Origin(f"http://127.0.0.1:{port}"), max_size=None)
        self.proto.send_request(self.proto.connect())
        self._flush()
        while self.proto.state is not State.OPEN:  # the handshake's answer
            if self.closed:
                raise RuntimeError(f"page {self.n}: the WebSocket did not open: {self.proto.handshake_exc}")
            self.feed(self.sock.recv(1 << 16))
        self.press_raw({"hello": {"name": f"bench {self.n}", "key": None,
                                  "seat": {"table": self.table, "seat": 0, "token": self.token}}})
        self.wait(lambda s: s.get("screen") == "table" and bool(board(s)), 30)

    def feed(self, data: bytes) -> None:
        """Bytes from the server: the scenes and patches they carry drawn, pings answered."""
        proto = self.proto
        assert proto is not None
        if data:
            proto.receive_data(data)
        else:
            proto.receive_eof()
            self.closed = True
        for event in proto.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                # orjson stands for the browser's JSON.parse (Python's json takes three times as long).
                msg = orjson.loads(event.data)
                if "patch" in msg:
                    self.scene = patched(self.scene, msg["patch"])
                    self.arrived = time.perf_counter()
                elif "scene" in msg:
                    self.scene = msg["scene"]
                    self.arrived = time.perf_counter()
                elif "notice" in msg and msg["notice"]["tone"] == "bad":
                    words = msg["notice"]["text"][:60]
                    self.notices[words] = self.notices.get(words, 0) + 1
        self._flush()  # a pong, or the close's answer

    def wait(self, check: Callable[[dict], object], seconds: float = 10.0) -> dict:
        """Read (blocking) until the scene is one ``check`` accepts."""
        assert self.sock is not None
        deadline = time.monotonic() + seconds
        while not check(self.scene):
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                raise TimeoutError(f"page {self.n}: no such scene")
            self.sock.settimeout(left)
            self.feed(self.sock.recv(1 << 16))
        return self.scene

    def press(self, control: str) -> None:
        self.press_raw({"press": control})

    def press_raw(self, message: dict) -> None:
        assert self.proto is not None
        self.proto.send_text(orjson.dumps(message))
        self._flush()

    def _flush(self) -> None:
        assert self.proto is not None and self.sock is not None
        out = b"".join(self.proto.data_to_send())
        if out:
            self.sock.sendall(out)

    def close(self) -> None:
        if self.proto is not None and self.sock is not None and not self.closed:
            with contextlib.suppress(OSError):
                self.proto.send_close()
                self._flush()
        if self.sock is not None:
            self.sock.close()


def one_action(page: Page, rng: random.Random, picks: list[float] | None = None) -> Play:
    """Play the seat's turn through the scene's controls; returns the act press's round trip (s), or None."""
    scene = page.scene
    if scene.get("headline", {}).get("text", "").startswith("Waiting"):
        return None
    have = controls(scene)
    if have.get("rematch", {}).get("enabled"):
        page.games += 1
        before = id(page.scene)
        page.press("rematch")
        yield Wait(lambda s: id(s) != before)
        return None
    if not scene.get("turn"):
        return None
    mark = done_mark(scene)
    cards = [c for c in hand(scene) if have[c].get("enabled")]
    act = None
    if cards:
        card = rng.choice(cards)
        before = id(page.scene)
        started = time.perf_counter()
        page.press(card)
        picked = yield Wait(lambda s: id(s) != before)
        if picks is not None:
            picks.append(page.arrived - started)
        assert picked is not None
        have = controls(picked)
        lit = [i for i, c in have.items() if i.startswith("sq-") and c.get("lit") and c.get("enabled")]
        if lit:
            act = rng.choice(lit)
        elif have.get("discard", {}).get("enabled"):
            act = "discard"
    if act is None and have.get("draw", {}).get("enabled"):
        act = "draw"
    if act is None:
        raise RuntimeError(f"page {page.n}: no action offered on its turn")
    started = time.perf_counter()
    page.press(act)
    yield Wait(lambda s: done_mark(s) != mark)
    # Until the page held the scene, as a browser would then draw it; the bench's own look for which
    # scene it waits for (done_mark reads the whole board) is not the web's time.
    return page.arrived - started


def turn_or_rematch(scene: dict) -> bool:
    """The page may act: its turn, or a finished game's rematch."""
    return bool(scene.get("turn") or controls(scene).get("rematch", {}).get("enabled"))


def drive(plays: dict[Page, Play], until: float) -> None:
    """Run every page's play to its end (or ``until``): read what arrives, resume a play whose wait is met.

    One selector over every page's socket, as bench/server.py's ZeroMQ rows poll every DEALER from one loop.
    """
    sel = selectors.DefaultSelector()
    waits: dict[Page, tuple[Wait, float]] = {}
    sleeps: dict[Page, float] = {}

    def step(page: Page, value: dict | None, error: BaseException | None = None) -> None:
        # Resume a play until it waits for a scene not here yet, sleeps, or ends.
        play = plays[page]
        while True:
            try:
                what = play.throw(error) if error is not None else play.send(value)
            except StopIteration:
                sel.unregister(page.sock)  # type: ignore[arg-type]
                del plays[page]
                return
            error = None
            if isinstance(what, Sleep):
                sleeps[page] = time.perf_counter() + what.seconds
                return
            if what.check(page.scene):
                value = page.scene
                continue
            waits[page] = (what, time.perf_counter() + what.seconds)
            return

    for page in plays:
        assert page.sock is not None
        page.sock.setblocking(False)
        sel.register(page.sock, selectors.EVENT_READ, page)
    for page in list(plays):
        step(page, None)
    while plays and time.perf_counter() < until:
        now = time.perf_counter()
        soonest = min([*sleeps.values(), *(at for _, at in waits.values())], default=now + 0.05)
        for key, _ in sel.select(max(0.0, min(soonest - now, 0.05))):
            page = key.data
            try:
                data = page.sock.recv(1 << 16)
            except BlockingIOError:
                continue
            page.feed(data)
            waited = waits.get(page)
            if waited is not None and waited[0].check(page.scene):
                del waits[page]
                step(page, page.scene)
        now = time.perf_counter()
        for page in [p for p, at in sleeps.items() if at <= now]:
            del sleeps[page]
            step(page, None)
        for page in [p for p, (_, at) in waits.items() if at <= now]:
            del waits[page]
            step(page, None, TimeoutError(f"page {page.n}: no such scene"))
    sel.close()


def web_acts(port: int, table: tuple[str, str], count: int, picks: list[float]) -> list[float]:
    """``count`` act round trips of one web page at one table, flat out."""
    page = Page(0, *table)
    page.open(port)
    rng = random.Random(1)
    times: list[float] = []

    def play() -> Play:
        while len(times) < 50 + count:
            took = yield from one_action(page, rng, picks if len(times) >= 50 else None)
            if took is None:
                yield Wait(turn_or_rematch)
            else:
                times.append(took)

    try:
        drive({page: play()}, time.perf_counter() + 120)
    finally:
        page.close()
    return times[50:]  # the first round trips warm the caches and the connection


def zmq_acts(endpoint: str, count: int) -> list[float]:
    """``count`` GameClient.act() round trips at one table against the server bot (bench/server.py's)."""
    from board99.bots import make_bot
    from board99.client.net import GameClient

    times: list[float] = []
    with GameClient(endpoint, name="bench zmq", timeout=10.0) as client:
        bot = make_bot("random", seed=1)
        deadline = time.monotonic() + 120
        while len(times) < 50 + count and time.monotonic() < deadline:
            table = client.create_table("bench zmq", 2)
            client.take_seat(table.id, 0, "red")
            client.add_bot(table.id, 1, "random")
            while len(times) < 50 + count and client.table is not None and client.table.state != "over":
                client.poll(0.01 if not client.my_turn() else 0)
                if client.my_turn() and client.view is not None:
                    action = bot.choose(client.view)
                    started = time.perf_counter()
                    client.act(action)
                    times.append(time.perf_counter() - started)
            client.leave()
    return times[50:]


def round_trip(side: str, count: int, base: Path | None = None) -> dict:
    """One run of one side on a fresh server: its act round trips (and the web's card picks)."""
    with tempfile.TemporaryDirectory(prefix="board99-bench-") as data:
        proc, zport, wport = spawn(data, base if side == "base" and base is not None else ROOT)
        try:
            endpoint = f"tcp://127.0.0.1:{zport}"
            picks: list[float] = []
            cpu = cpu_seconds(proc.pid)
            if side in ("web", "base"):
                (table,) = make_tables(endpoint, 1)
                cpu = cpu_seconds(proc.pid)
                times = web_acts(wport, table, count, picks)
            else:
                times = zmq_acts(endpoint, count)
            cpu = cpu_seconds(proc.pid) - cpu
        finally:
            stop(proc)
    return {"times": times, "picks": picks, "cpu": cpu}


# -- paced ------------------------------------------------------------------------------------------


def web_paced(port: int, tables: list[tuple[str, str]], think: float, seconds: float, pid: int) -> dict:
    """Every page plays its table, waiting ``think`` after each action's scene; the measured round trips."""
    pages = [Page(n, *t) for n, t in enumerate(tables)]
    for page in pages:  # one at a time: the opening is not what is measured
        page.open(port)
    t0 = time.perf_counter()
    measure_from, measure_to = t0 + WARMUP, t0 + WARMUP + seconds
    times: list[float] = []
    cpu, own = cpu_seconds(pid), time.process_time()

    def play(page: Page) -> Play:
        rng = random.Random(page.n)
        yield Sleep(think * page.n / len(pages))  # paced tables start out of step
        while time.perf_counter() < measure_to:
            started = time.perf_counter()
            took = yield from one_action(page, rng)
            if took is None:
                try:
                    yield Wait(turn_or_rematch, max(0.1, measure_to - time.perf_counter()))
                except TimeoutError:
                    pass
                continue
            if measure_from <= started and time.perf_counter() <= measure_to:
                times.append(took)
            yield Sleep(think)

    try:
        drive({page: play(page) for page in pages}, measure_to + 15)
        cpu, own = cpu_seconds(pid) - cpu, time.process_time() - own
        spent = time.perf_counter() - t0
    finally:
        for page in pages:
            page.close()
    notices: dict[str, int] = {}
    for page in pages:
        for words, n in page.notices.items():
            notices[words] = notices.get(words, 0) + n
    return {"times": times, "games": sum(p.games for p in pages), "notices": notices,
            "server_share": cpu / spent, "pages_share": own / spent}


def paced(side: str, count: int, think: float, seconds: float) -> dict:
    """One paced run of one side: the web's here, ZeroMQ's through bench/server.py's own row."""
    if side == "zmq":
        os.environ["BENCH_WEB"] = "1"  # its server with the web table on, as here
        # bench/server.py by its path: its file name is also a folder of the checkout (server/).
        spec = importlib.util.spec_from_file_location("bench_server", Path(__file__).with_name("server.py"))
        assert spec is not None and spec.loader is not None
        zbench = importlib.util.module_from_spec(spec)
        sys.modules["bench_server"] = zbench  # its dataclasses look their module up there
        spec.loader.exec_module(zbench)

        run = zbench.play_tables(count, seconds, think)
        return {"times": run.latencies, "games": run.games, "notices": run.refused, "lost": run.lost,
                "duplicated": run.duplicated}
    with tempfile.TemporaryDirectory(prefix="board99-bench-") as data:
        proc, zport, wport = spawn(data)
        try:
            tables = make_tables(f"tcp://127.0.0.1:{zport}", count)
            return web_paced(wport, tables, think, seconds, proc.pid)
        finally:
            stop(proc)


# -- report ------------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def ratio_line(what: str, zmq_name: str, web: list[dict], zmq_: list[dict], q: float) -> str:
    """One row's percentile per round on both sides, web / ZeroMQ per round, and the ratios' median."""
    webs = [percentile(r["times"], q) for r in web]
    zmqs = [percentile(r["times"], q) for r in zmq_]
    ratios = [w / z for w, z in zip(webs, zmqs)]
    return (f"{what} per round: web {', '.join(ms(v) for v in webs)} ms; {zmq_name} "
            f"{', '.join(ms(v) for v in zmqs)} ms; web / ZeroMQ per round {', '.join(f'{r:.2f}' for r in ratios)}; "
            f"median {statistics.median(ratios):.2f}")


def main(argv: list[str] | None = None) -> int:
    """Run the alternated rounds and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", choices=("bench", "server"), default="bench", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--acts", type=int, default=400, help="act round trips per side and round, 1 table")
    parser.add_argument("--paced-tables", type=int, default=100, help="tables of the paced rows (0: none)")
    parser.add_argument("--think", type=float, default=0.6)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds of each paced run")
    parser.add_argument("--sides", default="web,zmq", help="which sides run (web alone: for BENCH_PROFILE)")
    parser.add_argument("--base", type=Path, help="another checkout (with its .venv and this file in bench/): "
                        "its web act round trip runs too, first in each round ('base')")
    args = parser.parse_args(argv)
    if args.role == "server":
        run_server(args.data)
        return 0
    print(f"# bench/web_play.py, {time.strftime('%Y-%m-%d %H:%M')}: {os.cpu_count()} cores, "
          f"loadavg {os.getloadavg()[0]:.2f}", flush=True)
    sides = args.sides.split(",")
    acts: dict[str, list[dict]] = {"base": [], "web": [], "zmq": []}
    paces: dict[str, list[dict]] = {"web": [], "zmq": []}
    for n in range(args.rounds):
        for side in (["base"] if args.base else []) + sides:
            if args.acts:
                got = round_trip(side, args.acts, args.base)
                acts[side].append(got)
                print(f"  round {n + 1}, {side}, 1 table: {len(got['times'])} acts, p50 {ms(percentile(got['times'], 50))}"
                      f" ms, p99 {ms(percentile(got['times'], 99))} ms", flush=True)
        for side in sides:
            if args.paced_tables:
                got = paced(side, args.paced_tables, args.think, args.seconds)
                paces[side].append(got)
                print(f"  round {n + 1}, {side}, {args.paced_tables} tables paced {args.think:g} s: "
                      f"{len(got['times'])} acts, p50 {ms(percentile(got['times'], 50))} ms, "
                      f"p99 {ms(percentile(got['times'], 99))} ms, games {got['games']}, "
                      f"refusals {got['notices'] or 'none'}"
                      + (f", server CPU {got['server_share']:.0%} of a core, the pages' process "
                         f"{got['pages_share']:.0%}" if "server_share" in got else ""), flush=True)
    print()
    if args.acts and sides == ["web", "zmq"]:
        zmq_ = [percentile(r["times"], 50) for r in acts["zmq"]]
        print(ratio_line("act round trip, 1 table, p50", "GameClient.act()", acts["web"], acts["zmq"], 50))
        if acts["base"]:
            old = [percentile(r["times"], 50) for r in acts["base"]]
            print(f"   the base checkout's web ({args.base}), p50 per round: {', '.join(ms(v) for v in old)} ms; "
                  f"base / ZeroMQ per round {', '.join(f'{o / z:.2f}' for o, z in zip(old, zmq_))}; median "
                  f"{statistics.median(o / z for o, z in zip(old, zmq_)):.2f}; its card pick p50 "
                  f"{', '.join(ms(percentile(r['picks'], 50)) for r in acts['base'])} ms")
        print(f"   p99 per round: web {', '.join(ms(percentile(r['times'], 99)) for r in acts['web'])} ms; "
              f"GameClient.act() {', '.join(ms(percentile(r['times'], 99)) for r in acts['zmq'])} ms")
        print(f"   the web's card pick (a press the seat answers alone), p50 per round: "
              f"{', '.join(ms(percentile(r['picks'], 50)) for r in acts['web'])} ms")
        per_act = {side: ", ".join(f"{r['cpu'] / max(1, len(r['times']) + 50) * 1e6:.0f}" for r in acts[side])
                   for side in acts}
        print(f"   server CPU per act (the whole process; the bot's answer, and on the web the card pick's scene "
              f"included): web {per_act['web']} µs; ZeroMQ {per_act['zmq']} µs"
              + (f"; base's web {per_act['base']} µs" if acts["base"] else ""))
    if args.paced_tables and sides == ["web", "zmq"]:
        print(ratio_line(f"{args.paced_tables} tables paced {args.think:g} s, p99", "ZeroMQ", paces["web"],
                         paces["zmq"], 99))
        print(f"   p50 per round: web {', '.join(ms(percentile(r['times'], 50)) for r in paces['web'])} ms; "
              f"ZeroMQ {', '.join(ms(percentile(r['times'], 50)) for r in paces['zmq'])} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
