"""Light buttons for the table screen: one sprite and one prepared text each.

The table redraws every frame, and an ``arcade.gui`` manager blends a
window-sized surface each frame, which costs several milliseconds under
software GL; these buttons live in the table's own SpriteList and text
batch instead. (The lobby, which is mostly still, uses ``arcade.gui``.)
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from .geometry import Rect
from .palette import FONT
from .table_intents import OnButton

NORMAL = (44, 62, 80, 255)
HOVER = (64, 90, 116, 255)
DISABLED = (90, 100, 100, 255)
TEXT_ON = (255, 255, 255, 255)
TEXT_OFF = (190, 190, 190, 255)


class Button:
    """A clickable rectangle with a label, called ``name``; a click on it is ``OnButton(name, enabled)``.

    Its sprite goes into the owning part's SpriteList, its label into the part's text batch.
    """

    def __init__(self, name: str, text: str, texture: arcade.Texture, batch: Batch, size: int = 12) -> None:
        self.name = name
        self.sprite = arcade.Sprite(texture)
        self.sprite.color = NORMAL
        self.label = arcade.Text(text, 0, 0, TEXT_ON, size, font_name=FONT, anchor_x="center",
                                 anchor_y="center", batch=batch)
        self.rect = Rect(-1000, -1000, 10, 10)
        #: The label's size when it fits; a label wider than its button is drawn smaller (never below 8 pt).
        self.points = float(size)
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
            self.fit()

    def fit(self) -> None:
        """The label at its size, or smaller until it fits inside the button (large text in a narrow panel)."""
        if self.rect.left <= -1000:
            return  # not placed yet: nothing to fit into
        label, size = self.label, self.points
        if label.font_size != size:
            label.font_size = size
        room = self.rect.width - 8
        while label.content_width > room and size > 8:
            # Straight to about the size that fits (each size costs a layout of the label), then in half points.
            size = max(8.0, min(size - 0.5, int(size * room / label.content_width * 2) / 2))
            label.font_size = size

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
        self.label.position = round(rect.cx), round(rect.cy)
        self.fit()

    def hover(self, x: float, y: float) -> None:
        """Light up while the pointer is over it."""
        hovered = self._visible and self.rect.contains(x, y)
        if hovered != self._hovered:
            self._hovered = hovered
            self._paint()

    def target_at(self, x: float, y: float) -> OnButton | None:
        """A click at (x, y) on this button (a disabled one swallows it), or None if it lands elsewhere."""
        if not self._visible or not self.rect.contains(x, y):
            return None
        return OnButton(self.name, enabled=not self._disabled)

    def _paint(self) -> None:
        self.sprite.color = DISABLED if self._disabled else HOVER if self._hovered else NORMAL
        self.label.color = TEXT_OFF if self._disabled else TEXT_ON
