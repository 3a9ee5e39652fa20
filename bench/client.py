"""Client benchmark: frame times with a full board (still, and with motions running), and `board99 play` to the first table frame.

    python bench/client.py [--frames 300] [--starts 5]

Runs on $DISPLAY, or starts its own Xvfb (Mesa software GL, as in CI). A
frame is what the window does each tick: input, update, draw, and a GL
finish so the software rasteriser's work is counted, not just queued.
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

from board99 import Game, SeatView  # noqa: E402
from board99.bots import make_bot  # noqa: E402
from board99.client.gui import xvfb  # noqa: E402
from board99.events import Discarded, Drew, Penalty, Played, Won, shown_to  # noqa: E402
from board99.wire.table_info import SeatInfo, TableInfo  # noqa: E402


def full_board_view() -> tuple[SeatView, TableInfo, list[dict]]:
    """A 4-player view with all 100 squares pegged, five cards in hand, piles and a long log."""
    game = Game(4, "penalty", seed=3)
    bots = [make_bot("random", seed=s) for s in range(4)]
    events = list(game.opening)
    while game.ply < 60 and game.winner is None:
        seat = game.turn
        events += game.apply(seat, bots[seat].choose(game.view(seat)))
    view = game.view(0)
    view = view._replace(
        board=tuple((sq * 7 + sq // 10) % 2 for sq in range(100)),  # every square pegged
        hand=(5, 17, 42, 63, 88),
        hand_sizes=(5, *view.hand_sizes[1:]),
    )
    seats = tuple(SeatInfo(s, s % 2, ("red", "blue")[s % 2], "human", f"P{s}", True, False) for s in range(4))
    table = TableInfo("bench", "Benchmark", 4, "penalty", 30.0, 30.0, "playing", 1, (), None, 0, seats)
    return view, table, [shown_to(e, 0) for e in events]


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


#: Events whose motions the animated run keeps going: a card to a square and its peg dropping, a draw, a
#: discard, a penalised peg lifted off with its card, a shown card, the winning line and its celebration.
MOTION_EVENTS = (
    Played(1, 40, 55),
    Drew(2, None),
    Discarded(3, 77),
    Penalty(1, "illegal-play", 60, 12),
    Penalty(2, "draw-out-of-turn", 31, -1),
    Won(0, 0, (72, 58, 20, 14, 4)),
)


def frame_times(frames: int, full: bool, animated: bool = False) -> list[float]:
    """Milliseconds per frame of the table view, 1280x800, full or empty board; ``animated``: motions running."""
    import arcade

    from board99.client.gui.messages import Events, StateChanged
    from board99.client.gui.table_intents import Pick
    from board99.client.gui.table_view import TableView

    window = arcade.get_window() if _has_window() else _new_window()
    view, table, events = full_board_view()
    if not full:
        view = view._replace(board=(None,) * 100)
    tv = TableView(sounds=window.sounds)
    window.show_view(tv)
    tv.handle(StateChanged(view, table, True))
    tv.handle(Events(tuple(events)))
    tv.perform(Pick(2))
    from board99.client.gui.motion import plan

    def restart() -> None:
        # The longest motions (the celebration) last under 2.5 s: start them again before they end.
        tv.state.motions.start(plan(MOTION_EVENTS, 0, lambda seat: seat % 2), 1.0)
        tv.refresh()

    for _ in range(30):  # warm-up: textures into the atlas, text laid out
        if animated:
            restart()
        window.step()
    times = []
    for i in range(frames):
        if animated and i % 60 == 0:
            restart()
        t0 = time.perf_counter()
        window.step()
        window.ctx.finish()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def _has_window() -> bool:
    import arcade

    try:
        arcade.get_window()
        return True
    except RuntimeError:
        return False


def _new_window():
    from board99.client.gui.window import GameWindow

    return GameWindow(1280, 800, muted=True)


def startup_times(starts: int) -> list[float]:
    """Seconds from launching `board99 play` to the first drawn frame of the table, each run."""
    exe = ROOT / ".venv" / "bin" / "board99"
    command = [str(exe) if exe.exists() else "board99", "play", "--mute"]
    out = []
    with tempfile.TemporaryDirectory() as home:
        for _ in range(starts):
            marker = Path(home) / "first_frame"
            marker.unlink(missing_ok=True)
            # A fresh data directory each run: the embedded server starts from nothing, as on first use.
            env = dict(os.environ, BOARD99_FIRST_FRAME_FILE=str(marker), XDG_DATA_HOME=tempfile.mkdtemp(dir=home))
            env["BOARD99_T0"] = repr(time.time())
            subprocess.run(command, env=env, timeout=60, check=True, stdout=subprocess.DEVNULL)
            out.append(float(marker.read_text()))
    return out


def main() -> int:
    """Run both measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    display = xvfb.ensure_display()
    try:
        import arcade

        full = frame_times(args.frames, full=True)
        moving = frame_times(args.frames, full=True, animated=True)
        empty = frame_times(args.frames, full=False)
        window = arcade.get_window()
        print(f"GL renderer: {window.ctx.info.RENDERER}; window {window.width}x{window.height}, no multisampling")
        for name, times in (("full board (100 pegs)", full), ("full board, motions running", moving),
                            ("empty board", empty)):
            print(f"frame, {name}: median {statistics.median(times):.1f} ms, "
                  f"p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms over {len(times)} frames")
        print(f"full / empty median: {statistics.median(full) / statistics.median(empty):.2f}")
        window.close()
        starts = startup_times(args.starts)
        print(f"`board99 play` to first table frame: median {statistics.median(starts):.2f} s, "
              f"max {max(starts):.2f} s over {len(starts)} starts ({', '.join(f'{s:.2f}' for s in starts)})")
    finally:
        xvfb.stop(display)
    return 0


if __name__ == "__main__":
    sys.exit(main())
