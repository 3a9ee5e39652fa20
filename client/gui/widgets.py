"""The `arcade.gui` pieces the lobby, settings and help screens share: styled buttons, labels, text fields.

Every size is given at scale 1.0 and multiplied by the screen's ``ui_scale``
(scale.py), so the screens read at 960x640 and are not tiny at 2560x1440.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
from arcade.gui import UIFlatButton, UIInputText, UILabel
from arcade.gui.events import UIEvent, UIKeyPressEvent, UIMousePressEvent, UIOnClickEvent

from .palette import FONT, RGB, TEXT

CHOSEN = (39, 174, 96)  # the background of the chosen option in a row of choices
BUTTON_BG = (44, 62, 80)
WHITE = (255, 255, 255)


def rgba(rgb: RGB) -> tuple[int, int, int, int]:
    """An opaque RGBA from an RGB."""
    return (*rgb, 255)


def text_on(rgb: RGB) -> RGB:
    """Dark text on a light background, white on a dark one."""
    r, g, b = (c / 255 for c in rgb)
    return (20, 20, 20) if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else WHITE


def button_style(bg: RGB = BUTTON_BG, fg: RGB = WHITE, border: RGB | None = None,
                 size: float = 12) -> dict[str, UIFlatButton.UIStyle]:
    """A UIFlatButton style dict in the client's font and colours, its text ``size`` points."""
    style = UIFlatButton.UIStyle
    points = max(6, round(size))  # a button's style takes whole points
    lighter = (min(255, bg[0] + 30), min(255, bg[1] + 30), min(255, bg[2] + 30))
    # The border keeps its width in every state, so a hovered button never changes size or moves its text.
    width = 3 if border else 2
    return {
        "normal": style(font_name=FONT, font_size=points, font_color=rgba(fg), bg=rgba(bg),
                        border=rgba(border) if border else rgba(bg), border_width=width),
        "hover": style(font_name=FONT, font_size=points, font_color=rgba(fg), bg=rgba(lighter),
                       border=(230, 230, 230, 255), border_width=width),
        "press": style(font_name=FONT, font_size=points, font_color=(20, 20, 20, 255), bg=(236, 240, 241, 255),
                       border=(236, 240, 241, 255), border_width=width),
        "disabled": style(font_name=FONT, font_size=points, font_color=(200, 200, 200, 255), bg=(80, 92, 92, 255),
                          border=(80, 92, 92, 255), border_width=width),
    }


def on_click(button: UIFlatButton, action: Callable[[], object]) -> None:
    """Run ``action`` when ``button`` is clicked."""
    @button.event("on_click")
    def clicked(_event: object) -> None:
        action()


def button(text: str, action: Callable[[], object], width: float, height: float, *, size: float = 12,
           bg: RGB = BUTTON_BG, fg: RGB = WHITE, chosen: bool = False, outlined: bool = False,
           disabled: bool = False) -> UIFlatButton:
    """A fixed-size button that runs ``action`` on a click.

    ``chosen`` marks the picked option of a row (green, outlined); ``outlined`` only outlines it (a colour button).
    """
    b = UIFlatButton(text=text, width=width, height=height,
                     style=button_style(CHOSEN if chosen else bg, fg, border=WHITE if chosen or outlined else None,
                                        size=size))
    on_click(b, action)
    b.disabled = disabled
    return b


def label(text: str, size: float = 12, color: RGB = TEXT, bold: bool = False, width: float | None = None,
          multiline: bool = False) -> UILabel:
    """A text label in the client's font."""
    return UILabel(text=text, font_name=FONT, font_size=size, text_color=color, bold=bold,
                   width=width, multiline=multiline)


#: Ctrl (Cmd on a Mac) held: Ctrl+A selects all, as in every other text field a person knows.
SELECT_ALL_MODIFIERS = arcade.key.MOD_CTRL | arcade.key.MOD_COMMAND


class TextField(UIInputText):
    """A text input whose caret goes where it is clicked, also on the click that activates it; Ctrl+A selects all.

    (arcade's own field activates on that click but leaves the caret at the start, and ignores Ctrl+A,
    so typing after it was appended to the old text.)
    """

    _active_at_press = False

    def on_event(self, event: UIEvent) -> bool | None:
        """Note whether the field already had the keyboard when a press landed on it; Ctrl+A selects the text."""
        if isinstance(event, UIMousePressEvent) and self.rect.point_in_rect(event.pos):
            self._active_at_press = self.active
        if (self.active and isinstance(event, UIKeyPressEvent) and event.symbol == arcade.key.A
                and event.modifiers & SELECT_ALL_MODIFIERS):
            self.select_all()
            return True
        return super().on_event(event)

    def select_all(self) -> None:
        """Select the whole text (the caret at its end): what is typed next replaces it."""
        self.caret.position = len(self.text)
        self.caret.mark = 0
        self.trigger_full_render()

    def on_click(self, event: UIOnClickEvent) -> None:
        """Activate, then put the caret under the pointer (after the last letter when past the end)."""
        if self._active_at_press:
            return  # an active field placed the caret on the press already; a second press would select a word
        self.activate()
        x = int(event.x - self.left - self.LAYOUT_OFFSET)
        y = int(event.y - self.bottom)
        self.caret.on_mouse_press(x, y, event.button, event.modifiers)
        self.trigger_full_render()
