"""The settings screen: sound, motion, palette, size, threat marks, hints and full screen.

The screen edits a copy of the window's ``Preferences``; "Save" hands the
copy to the app (which applies it, writes it with ``preferences.save()`` and
goes back), "Cancel" or Esc goes back with nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from functools import partial

import arcade
import arcade.gui
from arcade.gui import UIBoxLayout, UISpace, UIWidget

from .buttons import Button, ButtonSet
from .palette import MARKS, PALETTES, TABLE_BG, TEXT_DIM, WARN
from .preferences import ANIMATION_SPEEDS, THREAT_CHOICES, UI_SCALES, Preferences
from .scale import ui_scale
from .textures import load_fonts, peg_texture, white
from .widgets import label

VOLUMES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The threat-mark choices in words.
THREAT_WORDS = {"guarded": "guarded tables only", "always": "always", "never": "never"}
ROW_LABEL_W = 200  # at scale 1: every row's buttons start at the same x
SWATCH = ("red", "blue", "green", "yellow", "purple", "orange")


class SettingsView(arcade.View):
    """The player's settings as rows of choices; the chosen one of each row is lit."""

    def __init__(self, prefs: Preferences, on_done: Callable[[Preferences | None], object]) -> None:
        super().__init__()
        load_fonts()
        self.saved = prefs
        self.prefs = prefs  # the draft being edited
        self.done_cb = on_done
        self.ui = arcade.gui.UIManager()
        #: The buttons (buttons.py), each put where a space of its size sits in the rows' layout.
        self.button_set = ButtonSet(white())
        self._places: list[tuple[str, UIWidget, str, Callable[[], object], float, bool]] = []
        self._size: tuple[int, int, float] | None = None

    @property
    def scale(self) -> float:
        """The screen's scale: from the window size and the scale being chosen, so the choice shows at once."""
        return ui_scale(self.window.width, self.window.height, self.prefs.ui_scale)

    def choose(self, **changes: object) -> None:
        """Change the draft (nothing is applied until Save)."""
        self.prefs = replace(self.prefs, **changes).checked()  # type: ignore[arg-type]
        self.build()

    def save(self) -> None:
        """Apply and keep the draft, and go back."""
        self.done_cb(self.prefs)

    def cancel(self) -> None:
        """Go back with the settings as they were."""
        self.done_cb(None)

    def _row(self, title: str, options: list[tuple[str, dict, bool]], width: float) -> UIBoxLayout:
        s = self.scale
        row = UIBoxLayout(vertical=False, space_between=int(8 * s))
        title_label = label(title, 13 * s, TEXT_DIM, width=ROW_LABEL_W * s)
        title_label.size_hint_min = (ROW_LABEL_W * s, 36 * s)  # the box layout would shrink it to its text
        row.add(title_label)
        for text, change, chosen in options:
            key = "-".join(f"{field}-{value}" for field, value in change.items())
            row.add(self._place(key, text, partial(self.choose, **change), width * s, 36 * s, 12 * s, chosen))
        return row

    def _place(self, key: str, text: str, action: Callable[[], object], width: float, height: float, size: float,
               chosen: bool) -> UIWidget:
        # A space the layout places; the button goes there once the layout is done (``_place_buttons``).
        space = UISpace(width=width, height=height)
        self._places.append((key, space, text, action, size, chosen))
        return space

    def _place_buttons(self) -> None:
        self.ui.execute_layout()
        self.button_set.clear()
        for key, space, text, action, size, chosen in self._places:
            r = space.rect
            self.button_set.add(key, text, action, r.left, r.bottom, r.width, r.height, size=size, chosen=chosen)

    @property
    def buttons(self) -> dict[Hashable, Button]:
        """The buttons shown, by key ("muted-True", "volume-0.25", "save", "cancel")."""
        return self.button_set.by_name

    def build(self) -> None:
        """Lay the rows out for the draft and this window."""
        p, s = self.prefs, self.scale
        self._size = (self.window.width, self.window.height, s)
        self.ui.clear()
        self._places = []
        column = UIBoxLayout(vertical=True, align="left", space_between=int(14 * s))
        column.add(label("Settings", 22 * s, bold=True))
        rows: list[UIWidget] = [
            self._row("Sound", [("on", {"muted": False}, not p.muted), ("muted", {"muted": True}, p.muted)], 110),
            self._row("Volume", [(f"{round(v * 100)} %", {"volume": v}, abs(p.volume - v) < 0.01)
                                 for v in VOLUMES], 80),
            self._row("Animations", [(a, {"animation": a}, p.animation == a) for a in ANIMATION_SPEEDS], 110),
            self._row("Peg colours", [(name, {"palette": name}, p.palette == name) for name in PALETTES], 150),
            self._row("Text size", [(f"{round(u * 100)} %", {"ui_scale": u}, abs(p.ui_scale - u) < 0.001)
                                    for u in UI_SCALES], 80),
            self._row("Threat marks", [(THREAT_WORDS[t], {"threats": t}, p.threats == t)
                                       for t in THREAT_CHOICES], 200),
            self._row("First-game hint", [("shown", {"hints": True}, p.hints),
                                          ("hidden", {"hints": False}, not p.hints)], 110),
            self._row("Full screen", [("on", {"fullscreen": True}, p.fullscreen),
                                      ("off", {"fullscreen": False}, not p.fullscreen)], 110),
        ]
        for row in rows:
            column.add(row)
        column.add(label("Threat marks: squares where another side could complete five in a line. "
                         "Peg colours: every palette keeps the sides apart for colour-blind players,"
                         " and each side's pegs have their own shape.",
                         11 * s, TEXT_DIM, width=760 * s, multiline=True))
        end = UIBoxLayout(vertical=False, space_between=int(12 * s))
        end.add(self._place("save", "Save", self.save, 160 * s, 40 * s, 13 * s, True))
        end.add(self._place("cancel", "Cancel (Esc)", self.cancel, 160 * s, 40 * s, 13 * s, False))
        changed = "unsaved changes" if self.prefs != self.saved else " "
        end.add(label(changed, 12 * s, WARN, width=200 * s))
        column.add(end)
        self.ui.add(arcade.gui.UIAnchorLayout()).add(column, anchor_x="left", anchor_y="top",
                                                      align_x=28 * s, align_y=-20 * s)
        self._place_buttons()

    # -- arcade callbacks ---------------------------------------------------------------------

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Esc: back without saving; Enter: save."""
        if symbol == arcade.key.ESCAPE:
            self.cancel()
            return True
        if symbol in (arcade.key.ENTER, arcade.key.RETURN):
            self.save()
            return True
        return None

    def on_show_view(self) -> None:
        """Lay out and enable the buttons."""
        self.build()
        self.ui.enable()

    def on_hide_view(self) -> None:
        """Disable the widgets."""
        self.ui.disable()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Light the button under the pointer."""
        self.button_set.hover(x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A press on a button."""
        return True if self.button_set.press(x, y) else None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A click's end: the button pressed runs its action if the pointer is still on it."""
        return True if self.button_set.release(x, y) else None

    def on_draw(self) -> None:
        """The rows, and the chosen palette's pegs for every side (so the choice can be judged)."""
        if self._size != (self.window.width, self.window.height, self.scale):
            self.build()
        self.clear(color=TABLE_BG)
        self.button_set.draw()
        self.ui.draw()
        s = self.scale
        size = 34 * s
        x0 = self.window.width - (len(MARKS) * size + 24 * s)
        y0 = self.window.height - 90 * s
        for row, colour in enumerate(SWATCH):
            for side in range(len(MARKS)):
                arcade.draw_texture_rect(peg_texture(colour, side, self.prefs.palette),
                                         arcade.LBWH(x0 + side * size, y0 - row * size, size, size))
