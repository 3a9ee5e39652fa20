"""How long a review takes in the window, against `board99 review` on the same record.

    python bench/review_speed.py [--record docs/sample-match.txt] [--seat 0] [--load 2] [--runs 1]

First the review as `board99 review FILE` does it (``review_records`` in this
process), then as `board99 review FILE --window` does it: the replay viewer
runs the window's own event loop (``arcade.run``, on Xvfb when no display is
set, with its own draw rates) and the review's worker process, until the review
is there. Prints both times and the CPU the window's process used meanwhile.
``--load N`` keeps N busy-looping processes running throughout: a busy machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def burn(stop: multiprocessing.synchronize.Event) -> None:
    """(A load process) spin until told to stop."""
    while not stop.is_set():
        sum(range(10_000))


def cli_review(text: str, seat: int) -> float:
    """Seconds for the review as `board99 review` computes it."""
    from board99.client.gui.review_model import records_of
    from board99.review import DEFAULT, review_records

    started = time.perf_counter()
    review_records(records_of(text), seat, options=DEFAULT)
    return time.perf_counter() - started


def window_review(text: str, seat: int, name: str) -> tuple[float, float, int]:
    """(seconds, the window process's CPU seconds, frames drawn) for the review in the window's replay viewer."""
    import arcade
    import pyglet

    from board99.client.gui.replay_view import ReplayView
    from board99.client.gui.window import GameWindow

    win = GameWindow(1280, 800, muted=True)
    view = ReplayView(text, name, on_back=lambda: None, review_seat=seat, review_now=True)
    frames = 0
    drawn = view.on_draw

    def counted() -> None:
        nonlocal frames
        frames += 1
        drawn()

    view.on_draw = counted  # type: ignore[method-assign]
    started, cpu = time.perf_counter(), time.process_time()
    took: list[float] = []

    def check(_dt: float) -> None:
        if view.job is not None and view.job.finished and not took:
            took.extend([time.perf_counter() - started, time.process_time() - cpu])
            arcade.exit()

    win.show_view(view)
    pyglet.clock.schedule_interval(check, 0.05)
    arcade.run()
    pyglet.clock.unschedule(check)
    assert view.job is not None and view.job.review is not None, view.job and view.job.error
    win.close()
    return took[0], took[1], frames


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", default=str(ROOT / "docs" / "sample-match.txt"))
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--load", type=int, default=0, help="busy-looping processes running meanwhile")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()

    from board99.client.gui import xvfb

    text = Path(args.record).read_text(encoding="utf-8")
    moves = sum(1 for line in text.splitlines() if line.startswith(f"S{args.seat} "))
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    burners = [ctx.Process(target=burn, args=(stop,), daemon=True) for _ in range(args.load)]
    for p in burners:
        p.start()
    display = xvfb.ensure_display()
    try:
        for run in range(1, args.runs + 1):
            cli = cli_review(text, args.seat)
            seconds, cpu, frames = window_review(text, args.seat, Path(args.record).name)
            print(f"run {run}, {moves} moves of S{args.seat}, {args.load} load processes: "
                  f"board99 review {cli:.1f} s; in the window {seconds:.1f} s "
                  f"(window process {cpu:.1f} s CPU, {frames} frames drawn)")
    finally:
        stop.set()
        for p in burners:
            p.join(5)
        if display is not None:
            xvfb.stop(display)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
