"""The window's one kind of button: a sprite (three for an outlined one) and one prepared text each.

Every screen's buttons are these. The table redraws every frame, and an
``arcade.gui`` manager blends a window-sized surface each frame, which costs
several milliseconds under software GL; so a button lives in its owner's
SpriteList and text batch instead: a table part's own (the part asks
``target_at`` where a click landed: an ``OnButton``), or a ``ButtonSet`` on a
screen without parts (the lobby, settings, help, the lessons' list), which
runs the button's action when a click is released on it.

Two looks: ``TABLE`` (flat, lit while the pointer is on it) and ``MENU``
(the menus' buttons: outlined when hovered or chosen, light while pressed).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple

import arcade
from pyglet.graphics import Batch

from .geometry import Rect
from .palette import FONT, RGB
from .table_intents import OnButton

RGBA = tuple[int, int, int, int]
NORMAL = (44, 62, 80, 255)
HOVER = (64, 90, 116, 255)
DISABLED = (90, 100, 100, 255)
TEXT_ON = (255, 255, 255, 255)
TEXT_OFF = (190, 190, 190, 255)
WHITE = (255, 255, 255)
#: The menus' colours: a button's background, the chosen option of a row of choices.
BUTTON_BG = (44, 62, 80)
CHOSEN = (39, 174, 96)


class Paint(NamedTuple):
    """How a button is painted in one state: background, outline (None: none) and text colour."""

    bg: RGBA
    border: RGBA | None
    fg: RGBA


class Look(NamedTuple):
    """A button's paint in each state, and its outline's width."""

    normal: Paint
    hover: Paint
    press: Paint
    disabled: Paint
    border_width: float = 0


def rgba(rgb: RGB) -> RGBA:
    """An opaque RGBA from an RGB."""
    return (*rgb, 255)


def text_on(rgb: RGB) -> RGB:
    """Dark text on a light background, white on a dark one."""
    r, g, b = (c / 255 for c in rgb)
    return (20, 20, 20) if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else WHITE


#: The table's buttons: flat, lit under the pointer.
TABLE = Look(Paint(NORMAL, None, TEXT_ON), Paint(HOVER, None, TEXT_ON), Paint(HOVER, None, TEXT_ON),
             Paint(DISABLED, None, TEXT_OFF))


def menu_look(bg: RGB = BUTTON_BG, fg: RGB = WHITE, border: RGB | None = None) -> Look:
    """The menus' look on ``bg``: hovered lighter and outlined, light while pressed, grey when disabled.

    The outline keeps its width in every state, so a hovered button never changes size or moves its text.
    """
    lighter = (min(255, bg[0] + 30), min(255, bg[1] + 30), min(255, bg[2] + 30))
    return Look(
        normal=Paint(rgba(bg), rgba(border) if border else None, rgba(fg)),
        hover=Paint(rgba(lighter), (230, 230, 230, 255), rgba(fg)),
        press=Paint((236, 240, 241, 255), None, (20, 20, 20, 255)),
        disabled=Paint((80, 92, 92, 255), None, (200, 200, 200, 255)),
        border_width=3 if border else 2,
    )


class Button:
    """A clickable rectangle with a label, called ``name``; a click on it is ``OnButton(name, enabled)``.

    Its sprites go into the owning part's SpriteList (``sprites``; ``sprite`` is its background), its
    label into the part's text batch.
    """

    def __init__(self, name: str, text: str, texture: arcade.Texture, batch: Batch, size: float = 12,
                 look: Look = TABLE) -> None:
        self.name = name
        self.key: Hashable = name  # what its owner calls it (a ButtonSet's key)
        self.look = look
        self.sprite = arcade.Sprite(texture)
        #: An outlined look's outline, drawn as a ring of its colour with the background again inside it.
        self.ring = arcade.Sprite(texture) if look.border_width else None
        self.inner = arcade.Sprite(texture) if look.border_width else None
        self.label = arcade.Text(text, 0, 0, look.normal.fg, size, font_name=FONT, anchor_x="left",
                                 anchor_y="bottom", batch=batch)
        self.rect = Rect(-1000, -1000, 10, 10)
        #: The label's size when it fits; a label wider than its button is drawn smaller (never below 8 pt).
        self.points = float(size)
        self._disabled = False
        self._visible = True
        self._hovered = False
        self._pressed = False
        self._paint()

    @property
    def sprites(self) -> tuple[arcade.Sprite, ...]:
        """Its sprites, back to front."""
        return tuple(s for s in (self.sprite, self.ring, self.inner) if s is not None)

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
        self._place_label()

    def _place_label(self) -> None:
        # Centred on whole pixels, as the text of an arcade.gui button is (its box is the text's width + 2).
        r, label = self.rect, self.label
        label.position = (round(r.left + (r.width - (label.content_width + 2)) / 2),
                          round(r.bottom + (r.height - label.content_height) / 2))

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
            for sprite in self.sprites:
                sprite.visible = value
            self.label.visible = value

    def place(self, left: float, bottom: float, width: float, height: float) -> None:
        """Put the button at this rectangle (window pixels)."""
        rect = Rect(left, bottom, width, height)
        if rect == self.rect:
            return
        self.rect = rect
        self.sprite.position = rect.cx, rect.cy
        self.sprite.width, self.sprite.height = width, height
        if self.ring is not None and self.inner is not None:
            # The outline is drawn as arcade.gui draws it: ``border_width`` wide, centred on a line that
            # far inside the edge.
            w = self.look.border_width
            self.ring.position = self.inner.position = rect.cx, rect.cy
            self.ring.width, self.ring.height = width - w, height - w
            self.inner.width, self.inner.height = width - 3 * w, height - 3 * w
        self.fit()

    def hover(self, x: float, y: float) -> None:
        """Light up while the pointer is over it."""
        hovered = self._visible and self.rect.contains(x, y)
        if hovered != self._hovered:
            self._hovered = hovered
            self._paint()

    def press(self, pressed: bool) -> None:
        """Shown pressed (between a press on it and the release)."""
        if pressed != self._pressed:
            self._pressed = pressed
            self._paint()

    def target_at(self, x: float, y: float) -> OnButton | None:
        """A click at (x, y) on this button (a disabled one swallows it), or None if it lands elsewhere."""
        if not self._visible or not self.rect.contains(x, y):
            return None
        return OnButton(self.name, enabled=not self._disabled)

    def _paint(self) -> None:
        look = self.look
        paint = (look.disabled if self._disabled else look.press if self._pressed
                 else look.hover if self._hovered else look.normal)
        self.sprite.color = paint.bg
        if self.ring is not None and self.inner is not None:
            self.ring.color = paint.border or paint.bg
            self.inner.color = paint.bg
        self.label.color = paint.fg


class ButtonSet:
    """The buttons of a screen without parts: drawn in one batch, each running its action when clicked.

    A click is a press and a release on the same enabled button, as with every other button a person knows.
    """

    def __init__(self, texture: arcade.Texture) -> None:
        self.texture = texture
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.batch = Batch()
        self.by_name: dict[Hashable, Button] = {}  # by the key each was added with
        self.actions: dict[Hashable, Callable[[], object]] = {}
        self._pressed: Button | None = None

    def clear(self) -> None:
        """Take every button away."""
        self.batch = Batch()  # the old labels go with their batch
        self.sprites.clear()
        self.by_name, self.actions, self._pressed = {}, {}, None

    def add(self, name: Hashable, text: str, action: Callable[[], object], left: float, bottom: float, width: float,
            height: float, *, size: float = 12, bg: RGB = BUTTON_BG, fg: RGB = WHITE, chosen: bool = False,
            outlined: bool = False, disabled: bool = False) -> Button:
        """A button called ``name`` at this rectangle (window pixels) that runs ``action`` when clicked.

        ``chosen`` marks the picked option of a row (green, outlined); ``outlined`` only outlines it (a colour
        button). Its text is ``size`` points rounded to whole points.
        """
        look = menu_look(CHOSEN if chosen else bg, fg, border=WHITE if chosen or outlined else None)
        button = Button(str(name), text, self.texture, self.batch, size=max(6, round(size)), look=look)
        button.key = name
        button.place(left, bottom, width, height)
        button.disabled = disabled
        if name in self.by_name:
            old = self.by_name.pop(name)
            for sprite in old.sprites:
                self.sprites.remove(sprite)
            old.label.visible = False
        self.by_name[name] = button
        self.actions[name] = action
        self.sprites.extend(button.sprites)
        return button

    def at(self, x: float, y: float) -> Button | None:
        """The button under (x, y), if any (disabled ones too)."""
        return next((b for b in self.by_name.values() if b.visible and b.rect.contains(x, y)), None)

    def hover(self, x: float, y: float) -> None:
        """Light the button under the pointer."""
        for button in self.by_name.values():
            button.hover(x, y)

    def press(self, x: float, y: float) -> bool:
        """A press: True if it landed on a button (an enabled one shows pressed)."""
        button = self.at(x, y)
        if button is None:
            return False
        if not button.disabled:
            self._pressed = button
            button.press(True)
        return True

    def release(self, x: float, y: float) -> bool:
        """A release: the pressed button's action runs if the pointer is still on it. True if one was pressed."""
        button, self._pressed = self._pressed, None
        if button is None:
            return False
        button.press(False)
        if button.visible and not button.disabled and button.rect.contains(x, y) \
                and self.by_name.get(button.key) is button:
            self.actions[button.key]()
        return True

    def draw(self) -> None:
        """Draw every button."""
        self.sprites.draw()
        self.batch.draw()
