"""Alternating runs of bench/server.py in several checkouts, so versions are compared under the same noise.

Run: .venv/bin/python bench/alternate.py --rounds 3 /work/wt/old /work/wt/today . [--bench "bench/server.py's options"]

Each checkout needs its own virtual environment (``make .venv/.installed`` there). One
round runs bench/server.py once in every checkout, in the order given; rounds repeat
that. The medians per checkout of each row's act p50, p50 / echo, actions a second,
server CPU per action and act p99 are printed as a Markdown table, then the core's own
act path. A shared machine swings by half or more between runs of the same code:
compare medians of alternating rounds, never two single runs.
"""

from __future__ import annotations

import argparse
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

ROW = re.compile(r"^\| (\d+) \| ([\d.]+) \| \d+ \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d,]+) \| (\d+) \|", re.M)
CORE = re.compile(r"core's own path .*?: act ([\d.]+) µs, bot move ([\d.]+) µs")


def run(checkout: Path, options: list[str]) -> str:
    """One bench/server.py run in ``checkout`` with its own environment; its output."""
    python = checkout / ".venv" / "bin" / "python"
    done = subprocess.run([str(python), "bench/server.py", *options], cwd=checkout, capture_output=True,
                          text=True, timeout=900, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: bench/server.py failed:\n{done.stderr[-2000:]}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    """Run the rounds and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bench", default="--tables 1,100 --paced-tables 100 --seconds 6",
                        help="bench/server.py's options, as one string (default: the issue 20 rows)")
    parser.add_argument("checkouts", nargs="+", type=Path)
    args = parser.parse_args(argv)
    options = shlex.split(args.bench)
    rows: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    core: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for checkout in args.checkouts:
            name = str(checkout)
            out = run(checkout.resolve(), options)
            for tables, think, p50, p99, ratio, rate, cpu in ROW.findall(out):
                for what, value in (("act p50 ms", p50), ("p50 / echo", ratio), ("actions/s", rate),
                                    ("server CPU µs/action", cpu), ("act p99 ms", p99)):
                    rows.setdefault((tables, think, what), {}).setdefault(name, []).append(
                        float(value.replace(",", "")))
            found = CORE.search(out)
            if found:
                core.setdefault(name, []).append(float(found.group(1)))
    names = [str(c) for c in args.checkouts]
    print(f"| tables | think s | measure | {' | '.join(names)} |")
    print(f"|---:|---:|---|{'---:|' * len(names)}")
    for (tables, think, what), by in rows.items():
        cells = [f"{statistics.median(by[n]):g}" if n in by else "-" for n in names]
        print(f"| {tables} | {think} | {what} | {' | '.join(cells)} |")
    if core:
        print("\ncore's own act path, µs (median of rounds): "
              + ", ".join(f"{n} {statistics.median(core[n]):.0f}" for n in names if n in core))
    return 0


if __name__ == "__main__":
    sys.exit(main())
