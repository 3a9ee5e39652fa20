"""Light buttons for the table screen: one sprite and one prepared text each.

The table redraws every frame, and an ``arcade.gui`` manager blends a
window-sized surface each frame, which costs several milliseconds under
software GL; these buttons live in the table's own SpriteList and text
batch instead. (The lobby, which is mostly still, uses ``arcade.gui``.)
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
from pyglet.graphics import Batch

from .geometry import Rect
from .palette import FONT

NORMAL = (44, 62, 80, 255)
HOVER = (64, 90, 116, 255)
DISABLED = (90, 100, 100, 255)
TEXT_ON = (255, 255, 255, 255)
TEXT_OFF = (190, 190, 190, 255)


class Button:
    """A clickable rectangle with a label; ``on_click`` runs when it is clicked while enabled."""

    def __init__(self, text: str, on_click: Callable[[], None], texture: arcade.Texture,
                 sprites: arcade.SpriteList, batch: Batch, size: int = 12) -> None:
        self.on_click = on_click
        self.sprite = arcade.Sprite(texture)
        self.sprite.color = NORMAL
        sprites.append(self.sprite)
        self.label = arcade.Text(text, 0, 0, TEXT_ON, size, font_name=FONT, anchor_x="center",
                                 anchor_y="center", batch=batch)
        self.rect = Rect(-1000, -1000, 10, 10)
        self._disabled = False
        self._visible = True
        self._hovered = False

    @property
    def text(self) -> str:
        """The label."""
        return self.label.text

    @text.setter
    def text(self, value: str) -> None:
        if self.label.text != value:
            self.label.text = value

    @property
    def disabled(self) -> bool:
        """Shown greyed out, and clicks do nothing."""
        return self._disabled

    @disabled.setter
    def disabled(self, value: bool) -> None:
        if value != self._disabled:
            self._disabled = value
            self._paint()

    @property
    def visible(self) -> bool:
        """Drawn and clickable at all."""
        return self._visible

    @visible.setter
    def visible(self, value: bool) -> None:
        if value != self._visible:
            self._visible = value
            self.sprite.visible = value
            self.label.visible = value

    def place(self, left: float, bottom: float, width: float, height: float) -> None:
        """Put the button at this rectangle (window pixels)."""
        rect = Rect(left, bottom, width, height)
        if rect == self.rect:
            return
        self.rect = rect
        self.sprite.position = rect.cx, rect.cy
        self.sprite.width, self.sprite.height = width, height
        self.label.position = rect.cx, rect.cy

    def hover(self, x: float, y: float) -> None:
        """Light up while the pointer is over it."""
        hovered = self._visible and self.rect.contains(x, y)
        if hovered != self._hovered:
            self._hovered = hovered
            self._paint()

    def click(self, x: float, y: float) -> bool:
        """Handle a click at (x, y); True if it landed on this button (enabled or not)."""
        if not self._visible or not self.rect.contains(x, y):
            return False
        if not self._disabled:
            self.on_click()
        return True

    def _paint(self) -> None:
        self.sprite.color = DISABLED if self._disabled else HOVER if self._hovered else NORMAL
        self.label.color = TEXT_OFF if self._disabled else TEXT_ON
