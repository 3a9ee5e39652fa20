"""The window's frame rate: full while something moves or the player acts, low while nothing changes."""

from __future__ import annotations

import arcade
import pytest

from board99.client.gui.window import BUSY_RATE, IDLE_RATE
from tests.gui_harness import run_until, window

pytestmark = pytest.mark.timeout(60)


@pytest.mark.slow
def test_an_untouched_window_drops_to_the_idle_rate_and_input_wakes_it():
    win = window()
    win.show_view(arcade.View())  # nothing on screen that moves
    run_until(win, lambda: not win.busy, 5.0, "the idle draw rate")
    assert win._draw_rate == IDLE_RATE
    win.dispatch_event("on_mouse_motion", 10, 10, 1, 1)  # the player moves the pointer
    assert win.busy and win._draw_rate == BUSY_RATE
    run_until(win, lambda: not win.busy, 5.0, "the idle draw rate again")
    win.awake(1.0)  # a view starts a motion
    assert win.busy
