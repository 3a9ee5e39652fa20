"""Instructions per action on the core's act path, counted by valgrind's callgrind: a figure a noisy machine cannot move.

Run: .venv/bin/python bench/act_instructions.py [--actions 2000] [--checkout DIR] [--top 25]

Plays bench/server.py's ``core_act_path`` (a ``Core`` with a real SQLite
journal, one table of a remote random bot against the server's) under
``valgrind --tool=callgrind``, counting only inside two zones: each person's
``act`` handed to ``Core.receive`` (decode, checks, the kind's check and
apply, the journal's INSERT committed, the reply encoded) and each
``Core.tick`` that makes the server bot's answer. A zone is a small C
function (compiled here with ``cc``) that calls back into Python, named to
callgrind with ``--toggle-collect``. Printed: instructions per act and per
bot move (means), and the functions with the most inclusive instructions
inside the act zone.

``--checkout DIR`` counts another checkout's code (its own ``.venv`` runs the
count, its bench/server.py plays), so two versions compare on the same
count. Counts are of user-space instructions: a system call (the journal's
write of its WAL frame) counts its few instructions of setup, not the
kernel's work; SQLite's page handling counts in full. The counting process
draws the games' seeds, the seat tokens and the bots' seeds from a fixed
generator (and ``PYTHONHASHSEED`` is fixed), so every run, in any checkout
whose engine deals alike, plays the same games: a difference between two
checkouts is their code's.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ZONE_C = """
#include <valgrind/callgrind.h>
void b99_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
"""


def build_zone(folder: Path) -> Path:
    """Compile the toggle (callgrind's client request) into a shared library in ``folder``."""
    source, lib = folder / "zone.c", folder / "libzone.so"
    source.write_text(ZONE_C)
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(source)], check=True)
    return lib


def play(checkout: Path, actions: int, lib: Path, zone: str) -> None:
    """(Under callgrind) play ``actions`` acts of ``checkout``'s core_act_path, counting inside ``zone`` only."""
    sys.path[:0] = [str(checkout), str(checkout / "bench")]
    import importlib.util
    import random
    import secrets

    # Seeds, tokens and table ids from a fixed generator: two checkouts play the very same games.
    drawn = random.Random(20)
    secrets.randbits = drawn.getrandbits  # type: ignore[assignment]
    secrets.token_hex = lambda n=32: drawn.getrandbits(8 * n).to_bytes(n, "big").hex()  # type: ignore[assignment]

    import msgpack

    from board99.server.core import Core

    spec = importlib.util.spec_from_file_location("bench_server", checkout / "bench" / "server.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)  # the checkout's bench/server.py (not its server package)
    sys.modules["bench_server"] = bench
    spec.loader.exec_module(bench)
    toggle = ctypes.CDLL(str(lib)).b99_toggle
    receive, tick = Core.receive, Core.tick
    counted = {"act": 0, "tick": 0}

    def receive_zoned(self, ident, frames, now, *args, **kwargs):  # noqa: ANN001, ANN202
        if zone != "act" or len(frames) != 1 or msgpack.unpackb(frames[0]).get("type") != "act":
            return receive(self, ident, frames, now, *args, **kwargs)
        counted["act"] += 1
        toggle()
        try:
            return receive(self, ident, frames, now, *args, **kwargs)
        finally:
            toggle()

    def tick_zoned(self, now):  # noqa: ANN001, ANN202
        if zone != "tick":
            return tick(self, now)
        counted["tick"] += 1
        toggle()
        try:
            return tick(self, now)
        finally:
            toggle()

    Core.receive, Core.tick = receive_zoned, tick_zoned  # type: ignore[method-assign]
    bench.core_act_path(actions)
    print(f"counted {counted[zone]}", flush=True)


def count(checkout: Path, actions: int, zone: str, folder: Path) -> tuple[int, int, str]:
    """Run the play under callgrind: (how many zones were counted, instructions in them, the annotated profile)."""
    lib = build_zone(folder)
    out = folder / f"callgrind.{zone}.out"
    python = checkout / ".venv" / "bin" / "python"
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
         str(python), str(Path(__file__).resolve()), "--checkout", str(checkout), "--actions", str(actions),
         "--zone", zone, "--play", str(lib)],
        cwd=checkout, env=env, capture_output=True, text=True, check=False)
    played = re.search(r"counted (\d+)", done.stdout)
    if done.returncode != 0 or played is None:
        raise SystemExit(f"the count failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    annotated = subprocess.run(["callgrind_annotate", "--threshold=100", str(out)],
                               capture_output=True, text=True, check=True).stdout
    total = re.search(r"([\d,]+)(?: \([^)]*\))?\s+PROGRAM TOTALS", annotated)
    assert total is not None, annotated[:2000]
    return int(played.group(1)), int(total.group(1).replace(",", "")), annotated


def where(annotated: str, per: int, top: int) -> list[str]:
    """The profile's lines as instructions per zone: by shared object (the library), then the top functions."""
    by_object: dict[str, int] = {}
    functions: list[tuple[int, str]] = []
    for line in annotated.splitlines():
        found = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S.*?)(?: \[(.*)\])?$", line)
        if not found or "PROGRAM TOTALS" in line:
            continue
        n = int(found.group(1).replace(",", ""))
        place = found.group(2)
        obj = Path(found.group(3) or "?").name
        by_object[obj] = by_object.get(obj, 0) + n
        functions.append((n, f"{place.rsplit('/', 1)[-1]} [{obj}]"))
    lines = ["by library (self instructions per zone):"]
    lines += [f"{n / per:>12,.0f}  {obj}" for obj, n in sorted(by_object.items(), key=lambda kv: -kv[1])[:8]]
    lines.append(f"the {top} functions with the most self instructions, per zone:")
    lines += [f"{n / per:>12,.0f}  {name[:120]}" for n, name in sorted(functions, reverse=True)[:top]]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the counts under callgrind and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000, help="person's acts to play (about as many bot moves)")
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--zones", default="act,tick", help="what to count: act (Core.receive of an act), tick")
    parser.add_argument("--top", type=int, default=20, help="functions listed, by their own instructions")
    parser.add_argument("--zone", help=argparse.SUPPRESS)  # in the process under callgrind
    parser.add_argument("--play", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()
    if args.play:
        play(checkout, args.actions, Path(args.play), args.zone)
        return 0
    if shutil.which("valgrind") is None or shutil.which("cc") is None:
        raise SystemExit("valgrind (with its headers) and a C compiler are needed: apt-get install valgrind gcc")
    print(f"# bench/act_instructions.py: {checkout}, {args.actions} acts")
    for zone in args.zones.split(","):
        with tempfile.TemporaryDirectory(prefix="board99-callgrind-") as tmp:
            n, total, annotated = count(checkout, args.actions, zone, Path(tmp))
        what = "act (Core.receive of a person's act)" if zone == "act" else "bot move (Core.tick)"
        print(f"\ninstructions per {what}: {total / max(1, n):,.0f} (over {n})")
        for line in where(annotated, max(1, n), args.top):
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
