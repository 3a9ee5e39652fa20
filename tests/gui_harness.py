"""Shared by the window tests: one real window on a virtual display, frame stepping, screenshots."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from board99 import SeatView, sides_for
from board99.client.gui import xvfb
from board99.wire.table_info import SeatInfo, TableInfo

GOLDEN = Path(__file__).parent / "golden"
#: Golden images match when at most this share of pixels differs by more than PIXEL_SLACK.
PIXEL_SLACK = 48
MAX_DIFFERENT = 0.01

_window = None
_xvfb = None


class HandClock:
    """A clock the test moves by hand (``clock.now += 0.3``), for the table state and its motions."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def display() -> None:
    """Make sure there is an X display: $DISPLAY, or an Xvfb started once for the test process."""
    global _xvfb
    if _xvfb is not None:
        return
    if not os.environ.get("DISPLAY") and shutil.which("Xvfb") is None:
        if os.environ.get("CI", "").lower() == "true":
            raise RuntimeError("CI=true: Xvfb is missing; `make test` installs it (Debian package xvfb)")
        pytest.skip("no display and no Xvfb: run `make gui-deps` (or apt-get install xvfb) for the window tests")
    _xvfb = xvfb.ensure_display()
    atexit.register(xvfb.stop, _xvfb)


def window():
    """The one GameWindow of the test process (arcade keeps one window per process), 1280x800."""
    global _window
    if _window is None:
        display()
        from board99.client.gui.window import GameWindow

        _window = GameWindow(1280, 800, muted=True)
    if (_window.width, _window.height) != (1280, 800):
        _window.set_size(1280, 800)
        step(_window, 2)
    return _window


def step(win, frames: int = 1) -> None:
    """Run frames by hand."""
    for _ in range(frames):
        win.step()


def run_until(win, done: Callable[[], bool], seconds: float, what: str) -> None:
    """Step frames until ``done()``; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        win.step()
        time.sleep(0.005)


def screenshot(win) -> Image.Image:
    """The window's pixels as an RGB image."""
    import arcade

    win.step()
    return arcade.get_image(0, 0, win.width, win.height).convert("RGB")


def compare_golden(image: Image.Image, name: str) -> float:
    """The share of pixels that differ from tests/golden/<name>; BOARD99_UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN / name
    if os.environ.get("BOARD99_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, optimize=True)
    assert path.exists(), f"{path} is missing; make it with BOARD99_UPDATE_GOLDEN=1 and look at it"
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"{name}: window {image.size} but golden {golden.size}"
    image.save(Path(tempfile.gettempdir()) / f"board99_last_{name.replace('/', '_')}")  # what this run saw
    r, g, b = ImageChops.difference(image, golden).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)
    histogram = worst.histogram()
    return sum(histogram[PIXEL_SLACK + 1:]) / (image.width * image.height)


def table_info(seats: list[dict], **fields: object) -> TableInfo:
    """A table description for a test: the seats and fields given, the rest as a new table has them."""
    players = fields.get("players", len(seats))
    sides = sides_for(players)  # type: ignore[arg-type]
    seat_defaults = {"colour": None, "occupant": None, "name": None, "connected": False, "standin": False}
    entries = tuple(SeatInfo(**{"seat": i, "side": i % sides, **seat_defaults, **seat})
                    for i, seat in enumerate(seats))
    table = {"id": "t", "name": "Table", "players": players, "mode": "guarded", "clock": None, "grace": 30.0,
             "state": "waiting", "game": 1, "votes": (), "turn_left": None, "spectators": 0}
    return TableInfo(**{**table, **fields, "seats": entries})


def midgame_4p() -> tuple[SeatView, TableInfo, list]:
    """A real 4-player penalty-mode game in mid-play, seen from seat 0: (view, table, events).

    Random bots (seeded) play 92 actions, then S2 discards out of turn, so the
    log holds a penalty with its rule and S2 has a skip pending.
    """
    from board99 import Discard, Game
    from board99.bots import make_bot
    from board99.events import shown_to

    game = Game(4, "penalty", seed=22)
    bots = [make_bot("random", seed=s) for s in range(4)]
    events = list(game.opening)
    while game.ply < 92:
        seat = game.turn
        events += game.apply(seat, bots[seat].choose(game.view(seat)))
    events += game.apply(2, Discard(game.hand(2)[0]))
    names = ["Ann", "Ben (bot)", "Cy", "Di (bot)"]
    table = table_info(
        [{"colour": ("green", "purple")[s % 2], "occupant": "bot" if s % 2 else "human", "name": names[s],
          "connected": True} for s in range(4)],
        id="golden", name="Friday four", players=4, mode="penalty", clock=None, state="playing",
    )
    return game.view(0), table, [shown_to(e, 0) for e in events]
