"""Where a web act's time goes in a live server: wall medians of each WebSeat, Core and gateway step.

Run: nice -n 0 .venv/bin/python bench/web_seat_steps.py [--acts 800] [--side web|zmq|remote]

A real server (``board99.server.loop.Server`` with its web table, as bench/web_play.py runs it) in its
own process, with a timer around each step of the act's path: the seat's ``from_page`` (the press
made a request), ``from_core`` (the core's answer read) and ``to_page`` (the scene and its patch;
``scene`` and ``_scene_text`` inside it), ``Core.receive_many`` and ``Core.tick`` (the core alone),
the gateway's ``ready`` and ``flush`` (the page's bytes in, the texts out). This process plays one
page at one table against the server's bot (bench/web_play.py's ``web_acts``), or with
``--side zmq`` GameClient.act() on the same kind of table, or with ``--side remote`` bench/server.py's
one-table row (its lean DEALER seat, for issue 20's one-table act), and prints the medians per call. Inside
the core, the journal's INSERT (``Journal.save_action``) and the reply's encoding (``Outbox.send``); around
it, the loop's read of a message (``Server._receive``) and its sends (``Server._deliver``).
"""

from __future__ import annotations

import argparse
import importlib.util
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import zmq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def timed_server(data_dir: str) -> None:
    """(Child process) the server with a wall timer on each step; prints its ports, the medians at SIGTERM."""
    from web_play import run_server

    from board99.server.core import Core
    from board99.server.journal import Journal
    from board99.server.loop import Server
    from board99.server.outbox import Outbox
    from board99.web import gateway
    from board99.web import seat as seat_module

    times: dict[str, list[float]] = defaultdict(list)

    def wrap(cls: Any, name: str, label: str) -> None:
        step = getattr(cls, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return step(*args, **kwargs)
            finally:
                times[label].append(time.perf_counter() - started)

        setattr(cls, name, timed)

    for name in ("from_page", "from_core", "to_page", "scene", "_scene_text"):
        wrap(seat_module.WebSeat, name, f"seat.{name}")
    wrap(Core, "receive_many", "core.receive_many")
    wrap(Core, "tick", "core.tick")
    wrap(gateway.Gateway, "ready", "gateway.ready")
    wrap(gateway.Gateway, "flush", "gateway.flush")
    wrap(Journal, "save_action", "journal.save_action")
    wrap(Outbox, "send", "outbox.send")
    wrap(Server, "_receive", "loop._receive")
    wrap(Server, "_deliver", "loop._deliver")

    def report(*_: object) -> None:
        for label in sorted(times):
            got = times[label]
            print(f"  {label:24s} {len(got):6d} calls, median {statistics.median(got) * 1000:.3f} ms",
                  file=sys.stderr, flush=True)
        raise SystemExit(0)

    signal.signal(signal.SIGUSR1, lambda *_: times.clear())  # the setup's calls are not counted
    signal.signal(signal.SIGTERM, report)
    run_server(data_dir)  # bench/web_play.py's own server, steps timed


def main(argv: list[str] | None = None) -> int:
    """Play the acts against a timed server and print its steps' medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", choices=("bench", "server"), default="bench", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    parser.add_argument("--acts", type=int, default=800)
    parser.add_argument("--side", choices=("web", "zmq", "remote"), default="web")
    args = parser.parse_args(argv)
    if args.role == "server":
        timed_server(args.data)
        return 0
    import web_play

    with tempfile.TemporaryDirectory(prefix="board99-bench-") as data:
        proc = subprocess.Popen([sys.executable, __file__, "--role", "server", "--data", data],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        zport, wport = map(int, proc.stdout.readline().split())
        try:
            endpoint = f"tcp://127.0.0.1:{zport}"
            if args.side == "web":
                (table,) = web_play.make_tables(endpoint, 1)
                proc.send_signal(signal.SIGUSR1)
                picks: list[float] = []
                acts = web_play.web_acts(wport, table, args.acts, picks)
                print(f"web act round trip p50 {statistics.median(acts) * 1000:.3f} ms, the card pick's "
                      f"{statistics.median(picks) * 1000:.3f} ms; the server's steps:", flush=True)
            elif args.side == "remote":
                # bench/server.py by its path: the name ``server`` is the checkout's server/ package.
                spec = importlib.util.spec_from_file_location("server_bench", ROOT / "bench" / "server.py")
                assert spec is not None and spec.loader is not None
                server_bench = sys.modules["server_bench"] = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(server_bench)  # (its dataclasses look their module up by name)
                ctx = zmq.Context()
                try:
                    tables = server_bench.make_tables(ctx, endpoint, 1)
                    proc.send_signal(signal.SIGUSR1)
                    run = server_bench.Run(1, args.acts / 2000, 0.0)  # about 2,000 acts a second
                    server_bench.play(ctx, endpoint, tables, run, 0.0)
                finally:
                    ctx.destroy(linger=0)
                print(f"bench/server.py's remote seat, act p50 {statistics.median(run.latencies) * 1000:.3f} ms "
                      f"({len(run.latencies)} acts); the server's steps:", flush=True)
            else:
                proc.send_signal(signal.SIGUSR1)
                acts = web_play.zmq_acts(endpoint, args.acts)
                print(f"GameClient.act() p50 {statistics.median(acts) * 1000:.3f} ms; the server's steps:",
                      flush=True)
        finally:
            web_play.stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
