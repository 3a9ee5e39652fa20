"""The thin window: size, title, sounds, and a way to step frames by hand (tests and benchmarks)."""

from __future__ import annotations

import arcade

from .sounds import Sounds

WIDTH, HEIGHT = 1280, 800
TITLE = "GAME OF 99"


class GameWindow(arcade.Window):
    """The one window; each screen is an arcade.View shown in it."""

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, *, muted: bool = False,
                 visible: bool = True) -> None:
        # No multisampling: under software GL it costs about 20 ms a frame.
        super().__init__(width, height, TITLE, resizable=True, antialiasing=False, visible=visible,
                         vsync=False)
        self.set_minimum_size(960, 640)
        self.sounds = Sounds(muted=muted)

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
