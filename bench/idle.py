"""Idle CPU: what `board99 play` costs while nothing on the table changes (the player thinking).

    python bench/idle.py [--settle 6] [--seconds 20] [--runs 3]

Starts `board99 play` (a 2-player practice table, the embedded server in the
same process) on $DISPLAY or its own Xvfb, waits until the table is up and it
is the player's turn, then reads the process's CPU time (user + system, from
/proc) over a span in which nobody touches the window. The window draws at
its idle rate then (client/gui/window.py); the figure includes the embedded
server's idle loop.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from board99.client.gui import xvfb  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procstat import cpu_seconds  # noqa: E402


def idle_share(settle: float, seconds: float) -> float:
    """One run: the share of one core `board99 play` uses while idle."""
    with tempfile.TemporaryDirectory(prefix="board99-idle-") as home:
        env = {**os.environ, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home,
               "BOARD99_CONFIG": str(Path(home) / "settings.toml")}
        board99 = Path(sys.executable).with_name("board99")
        proc = subprocess.Popen([str(board99), "play", "--players", "2", "--mute", "--bot", "random"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(settle)  # the window opens, the deal is made, the bot's opening move (if any) is shown
            if proc.poll() is not None:
                raise RuntimeError(f"board99 play ended early (exit {proc.returncode})")
            start, t0 = cpu_seconds(proc.pid), time.monotonic()
            time.sleep(seconds)
            return (cpu_seconds(proc.pid) - start) / (time.monotonic() - t0)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> int:
    """Measure and print the idle CPU share, median of the runs."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--settle", type=float, default=6.0, help="seconds to wait for the table (default 6)")
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds measured per run (default 20)")
    ap.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    args = ap.parse_args()
    display = None if os.environ.get("DISPLAY") else xvfb.ensure_display()
    try:
        shares = [idle_share(args.settle, args.seconds) for _ in range(args.runs)]
    finally:
        if display is not None:
            xvfb.stop(display)
    print(f"# bench/idle.py, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores")
    print("idle `board99 play` (window + embedded server), share of one core: "
          + ", ".join(f"{s:.1%}" for s in shares) + f"; median {statistics.median(shares):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
