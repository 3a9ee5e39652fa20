"""The `arcade.gui` pieces the lobby and settings screens share: labels and text fields.

(Their buttons are the window's one kind, buttons.py.) Every size is given
at scale 1.0 and multiplied by the screen's ``ui_scale`` (scale.py), so the
screens read at 960x640 and are not tiny at 2560x1440.
"""

from __future__ import annotations

import arcade
from arcade.gui import UIInputText, UILabel
from arcade.gui.events import UIEvent, UIKeyPressEvent, UIMousePressEvent, UIOnClickEvent

from .palette import FONT, RGB, TEXT


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
