"""Frame times in the replay viewer while a review runs, against the same viewer idle.

    python bench/review_window.py [--record docs/sample-match.txt] [--seat 0] [--thread]

Opens the window (on Xvfb when no display is set), shows the record in the
replay viewer, steps 120 frames by hand flat out, then starts the review of
``--seat`` and steps frames flat out until it is done. ``--thread`` weighs the
moves on a thread of the window's process instead of a process of its own (the
first design, for comparison).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def q(xs: list[float], share: float) -> float:
    """The ``share`` quantile of ``xs``."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(share * len(xs)))]


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", default=str(ROOT / "docs" / "sample-match.txt"))
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--thread", action="store_true", help="review on a thread of this process")
    args = parser.parse_args()

    from board99.client.gui import replay_view, xvfb
    from board99.client.gui.window import GameWindow

    display = xvfb.ensure_display()
    try:
        win = GameWindow(1280, 800, muted=True)
        view = replay_view.ReplayView(Path(args.record).read_text(encoding="utf-8"), "bench", on_back=lambda: None,
                                      review_seat=args.seat)
        win.show_view(view)

        def frames(n: int) -> list[float]:
            out = []
            for _ in range(n):
                t = time.perf_counter()
                win.step()
                out.append((time.perf_counter() - t) * 1000)
            return out

        frames(5)
        idle = frames(120)
        view.review_elsewhere = not args.thread
        view.start_review()
        started = time.perf_counter()
        busy: list[float] = []
        assert view.job is not None
        while not view.job.finished:
            busy += frames(1)
        took = time.perf_counter() - started
        print(f"idle: {len(idle)} frames, median {statistics.median(idle):.1f} ms, p99 {q(idle, .99):.1f} ms")
        print(f"reviewing ({'a thread' if args.thread else 'a process'}; {view.job.total} moves in {took:.1f} s): "
              f"{len(busy)} frames, median {statistics.median(busy):.1f} ms, p99 {q(busy, .99):.1f} ms, "
              f"max {max(busy):.1f} ms")
        win.close()
    finally:
        if display is not None:
            xvfb.stop(display)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
