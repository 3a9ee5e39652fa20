"""The thin window: size, title, sounds, and a way to step frames by hand (tests and benchmarks)."""

from __future__ import annotations

import time

import arcade

from .preferences import Preferences
from .sounds import Sounds

WIDTH, HEIGHT = 1280, 800
TITLE = "GAME OF 99"
#: Frames a second while something moves or the player is using the window, and while idle.
BUSY_RATE, IDLE_RATE = 1 / 60, 1 / 2
#: Updates (the network queue, timers) while idle: a reply waits at most this long to be shown.
IDLE_UPDATE_RATE = 1 / 20
#: How long the window stays at the busy rate after an input or a change.
AWAKE_SECONDS = 0.5


class GameWindow(arcade.Window):
    """The one window; each screen is an arcade.View shown in it."""

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, *, muted: bool = False,
                 visible: bool = True, prefs: Preferences | None = None) -> None:
        # No multisampling: under software GL it costs about 20 ms a frame.
        super().__init__(width, height, TITLE, resizable=True, antialiasing=False, visible=visible,
                         vsync=False, update_rate=BUSY_RATE, draw_rate=BUSY_RATE)
        self.set_minimum_size(960, 640)
        #: The player's settings (the app loads them from the config folder; tests pass their own).
        self.prefs = prefs or Preferences()
        self.sounds = Sounds(muted=muted or self.prefs.muted)
        self._awake_until = 0.0
        self.awake()

    def awake(self, seconds: float = AWAKE_SECONDS) -> None:
        """Draw at the full rate for the next ``seconds`` (something moves, or the player acts).

        An idle window draws IDLE_RATE and updates IDLE_UPDATE_RATE times a second, so it
        costs almost no CPU; anything that changes the screen wakes it.
        """
        self._awake_until = max(self._awake_until, time.monotonic() + seconds)
        if self._draw_rate != BUSY_RATE:
            self.set_update_rate(BUSY_RATE)
            self.set_draw_rate(BUSY_RATE)

    @property
    def busy(self) -> bool:
        """True while the window draws at the full rate."""
        return self._draw_rate == BUSY_RATE

    def on_update(self, delta_time: float) -> None:
        """Drop to the idle draw rate once nothing has asked for frames for a while."""
        if self._draw_rate == BUSY_RATE and time.monotonic() > self._awake_until:
            self.set_draw_rate(IDLE_RATE)
            self.set_update_rate(IDLE_UPDATE_RATE)

    # Any input wakes the window (the views' own handlers run first and let these run too).

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The pointer moved: draw at the full rate for a moment."""
        self.awake()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click: draw at the full rate for a moment."""
        self.awake()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """A key: draw at the full rate for a moment."""
        self.awake()

    def on_resize(self, width: int, height: int) -> None:
        """A new size: lay out as arcade does, then draw at the full rate for a moment."""
        super().on_resize(width, height)
        self.awake()

    def step(self, dt: float = 1 / 60) -> None:
        """Run one frame by hand: handle pending input, update, draw, show."""
        # pyglet's own event loop turns its event queue off so handlers run at once; stepping
        # by hand must do the same, or each frame would draw what the previous one queued.
        self._enable_event_queue = False
        self.switch_to()
        self.dispatch_events()
        self.dispatch_event("on_update", dt)
        self.dispatch_event("on_draw")
        self.flip()

    # Synthetic input goes into pyglet's window event queue like input from X, and is
    # handled by the same handlers (buttons first, then the view) when the queue is pumped.

    def click(self, x: float, y: float) -> None:
        """A synthetic left click (move, press, release) at window pixel (x, y), handled at once."""
        self.switch_to()
        self.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)
        self.dispatch_event("on_mouse_press", int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)
        self.dispatch_event("on_mouse_release", int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)
        self.dispatch_events()

    def press(self, symbol: int) -> None:
        """A synthetic key press and release, handled at once."""
        self.switch_to()
        self.dispatch_event("on_key_press", symbol, 0)
        self.dispatch_event("on_key_release", symbol, 0)
        self.dispatch_events()
