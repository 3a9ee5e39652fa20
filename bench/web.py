"""The web table's transport: memory per web page, the time to a page's first scene, the page's load.

Run: nice -n 10 .venv/bin/python bench/web.py [--pages 200] [--tables 50]

A real `board99 serve` in its own process (127.0.0.1, free ports, a fresh data folder). Pages are
`websockets` sync clients speaking as the browser's page does (docs/web-scenes.md), spread over the
loopback addresses 127.0.0.2 and up, 50 from each, so the limit of connections per machine (64) is
not what is measured. Measured:

- the cold page load: the fresh server's first page, as a browser opens it (every file, the
  WebSocket, the welcome scene, the hello, the lobby's scene), its bytes and times;
- the page load: every file of the installed page (GET of each, one connection each, as the
  gateway serves them), its bytes and the time for all of them, median of 20 loads;
- time to the first scene: from opening the WebSocket to the welcome scene, p50 and p99;
- memory per page: the server's RSS growth, after one page not counted (the first imports the
  seat's modules), with ``--pages`` pages in the lobby (hello said, the lobby's scene received),
  then for ``--tables`` of them each seated at its own two-seat table against a server bot (the
  game started; the table's own memory is in the figure).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import weakref
from collections.abc import Callable
from pathlib import Path

from procstat import rss_kib
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
PER_SOURCE = 50  # pages from one loopback address


def start_server(data: str) -> tuple[subprocess.Popen, int]:
    """`board99 serve` on 127.0.0.1 with free ports; (process, web port)."""
    proc = subprocess.Popen([sys.executable, "-m", "board99.commands", "serve", "--bind", "127.0.0.1", "--port", "0",
                             "--web-port", "0", "--data", data, "--no-beacon", "--bot-delay", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    for _ in range(5):
        line = proc.stdout.readline()
        if line.startswith("Guests open "):
            return proc, int(line.split()[2].rsplit(":", 1)[1].strip("/"))
    proc.kill()
    raise RuntimeError("the server printed no web address")


def open_page(port: int, n: int) -> ClientConnection:
    """Page number ``n``'s WebSocket, from its loopback address."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(f"127.0.0.{2 + n // PER_SOURCE}", 0))
    return connect(f"ws://127.0.0.1:{port}/ws", sock=sock, origin=f"http://127.0.0.1:{port}",
                   open_timeout=10, max_size=None)


#: The last scene each page drew (a patch is read as the whole scene it makes, as the page draws it).
DRAWN: weakref.WeakKeyDictionary[ClientConnection, dict] = weakref.WeakKeyDictionary()


def read(ws: ClientConnection, text: str) -> dict:
    """One message from the server; a patch comes back as ``{"scene": ...}``, the scene it makes."""
    from board99.web.seat import patched

    msg = json.loads(text)
    if "patch" in msg:
        msg = {"scene": patched(DRAWN.get(ws, {}), msg["patch"])}
    if "scene" in msg:
        DRAWN[ws] = msg["scene"]
    return msg


def wait_for(ws: ClientConnection, check: Callable[[dict], bool], seconds: float = 10.0) -> dict:
    """The first message from the server that ``check`` accepts."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        msg = read(ws, ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if check(msg):
            return msg
    raise TimeoutError("not received")


def drain(pages: list[ClientConnection], seconds: float) -> None:
    """Read what the pages were sent for ``seconds`` (a page reads all the time, as a browser does)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for ws in pages:
            with contextlib.suppress(TimeoutError):
                while True:
                    read(ws, ws.recv(timeout=0))


def screen(name: str) -> Callable[[dict], bool]:
    return lambda msg: msg.get("scene", {}).get("screen") == name


def page_load(port: int, loads: int = 20) -> tuple[int, list[str], float]:
    """(bytes, files, median seconds) to GET every file of the page."""
    from board99.web.files import load, package_static

    names = sorted(load(package_static()))
    times, size = [], 0
    for _ in range(loads):
        started, size = time.perf_counter(), 0
        for name in names:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{name}", timeout=10) as answer:
                size += len(answer.read())
        times.append(time.perf_counter() - started)
    return size, names, statistics.median(times) if times else 0.0


def cold_load(port: int) -> tuple[int, int, float, float]:
    """The first page a fresh server serves, as a browser opens it: every file, the WebSocket, the welcome
    scene, the hello, the lobby's scene. (file bytes, WebSocket bytes received, seconds to the welcome
    scene, seconds to the lobby's scene)."""
    from board99.web.files import load, package_static

    started, size = time.perf_counter(), 0
    for name in sorted(load(package_static())):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/{name}", timeout=10) as answer:
            size += len(answer.read())
    received = 0
    with open_page(port, 0) as ws:
        deadline = time.monotonic() + 10
        welcome_at = lobby_at = 0.0
        while not lobby_at and time.monotonic() < deadline:
            text = ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            received += len(text.encode())
            got = read(ws, text).get("scene", {}).get("screen")
            if got == "welcome" and not welcome_at:
                welcome_at = time.perf_counter() - started
                ws.send(json.dumps({"hello": {"name": "cold", "key": None, "seat": None}}))
            elif got == "lobby":
                lobby_at = time.perf_counter() - started
    return size, received, welcome_at, lobby_at


def sit_at_own_table(ws: ClientConnection, n: int) -> None:
    """Create a two-seat table, sit in seat 1, put a bot in seat 2 (through the lobby's controls)."""
    form = {"name": f"bench {n}", "players": "2", "mode": "guarded", "clock": "none", "match": "single",
            "pace": "quick", "rated": "no"}
    ws.send(json.dumps({"press": "create", "fields": form}))

    def own_card(msg: dict) -> bool:
        return any(item.get("title", "").startswith(f"bench {n} ") for part in msg.get("scene", {}).get("parts", [])
                   if part.get("type") == "tables" for item in part["items"])

    scene = wait_for(ws, own_card)["scene"]
    (card,) = [item for part in scene["parts"] if part.get("type") == "tables" for item in part["items"]
               if item["title"].startswith(f"bench {n} ")]
    table = card["id"].removeprefix("t-")
    ws.send(json.dumps({"press": f"bot-{table}-1", "fields": {}}))  # the creator may seat a bot
    wait_for(ws, lambda msg: any(f"sit-{table}-0" == b["id"] and "bot" in " ".join(item["lines"]).lower()
                                 for part in msg.get("scene", {}).get("parts", []) if part.get("type") == "tables"
                                 for item in part["items"] for b in item["buttons"]))
    ws.send(json.dumps({"press": f"sit-{table}-0", "fields": {}}))
    wait_for(ws, screen("table"))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--tables", type=int, default=50)
    args = parser.parse_args(argv)
    print(f"# bench/web.py, {time.strftime('%Y-%m-%d %H:%M')}: {os.cpu_count()} cores, "
          f"loadavg {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory() as data:
        proc, port = start_server(data)
        try:
            files, texts, welcome_at, lobby_at = cold_load(port)
            print(f"cold page load (the fresh server's first page): files {files:,} bytes, the WebSocket's texts "
                  f"{texts:,} bytes; the welcome scene after {welcome_at * 1000:.1f} ms, the lobby's scene after "
                  f"{lobby_at * 1000:.1f} ms")
            size, names, load = page_load(port)
            print(f"page load: {len(names)} files, {size:,} bytes, median {load * 1000:.1f} ms for all of them "
                  f"over loopback ({', '.join(names) or 'no page files installed'})")
            with contextlib.ExitStack() as stack:
                # One page first, not counted: the seat's and the screens' modules are imported at the first.
                warm = stack.enter_context(open_page(port, args.pages))
                wait_for(warm, screen("welcome"))
                warm.send(json.dumps({"hello": {"name": "warm-up", "key": None, "seat": None}}))
                wait_for(warm, screen("lobby"))
                sit_at_own_table(warm, args.pages)
                time.sleep(1.0)
                idle = rss_kib(proc.pid)
                firsts = []
                pages = []
                for n in range(args.pages):
                    started = time.perf_counter()
                    ws = stack.enter_context(open_page(port, n))
                    wait_for(ws, screen("welcome"))
                    firsts.append(time.perf_counter() - started)
                    ws.send(json.dumps({"hello": {"name": f"guest {n}", "key": None, "seat": None}}))
                    pages.append(ws)
                for ws in pages:
                    wait_for(ws, screen("lobby"))
                drain(pages, 2.0)
                lobby = rss_kib(proc.pid)
                cuts = statistics.quantiles(firsts, n=100)
                print(f"first scene: p50 {statistics.median(firsts) * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms "
                      f"({len(firsts)} pages)")
                print(f"{args.pages} pages in the lobby: server RSS {idle / 1024:.1f} -> {lobby / 1024:.1f} MiB, "
                      f"{(lobby - idle) / args.pages:.0f} KiB a page")
                for n, ws in enumerate(pages[:args.tables]):
                    sit_at_own_table(ws, n)
                drain(pages, 3.0)
                seated = rss_kib(proc.pid)
                print(f"... then {args.tables} of them seated at their own tables against a bot: server RSS "
                      f"{seated / 1024:.1f} MiB, {(seated - lobby) / max(1, args.tables):.0f} KiB more a seated page "
                      "(its table included)")
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
