"""The rules screen (F1 or ?): board99.handbook's sections, the penalty table, the playing hints and the keys.

Every rule shown comes from the engine: ``board99.handbook`` for the peg-board
game (its own numbers and penalty wording), or the game kind's own rules page
(``board99.kinds.rules_page``) when the screen under it shows a table of
another game and says which (its ``help_topic()``: the kind, the table's
settings and that screen's keys). This module only lays the text out and
scrolls it. The keys are the window's own, so they are listed here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple

import arcade
from pyglet.graphics import Batch

from board99 import kinds
from board99.handbook import HINTS, SECTIONS, guarded_reason, penalty_table

from .buttons import Button, ButtonSet
from .palette import FONT, PANEL_BG, TABLE_BG, TEXT, TEXT_DIM, WARN
from .preferences import Preferences
from .scale import ui_scale
from .textures import load_fonts, white

#: The keys, as (keys, what they do): everywhere, then at the table.
KEYS: tuple[tuple[str, str], ...] = (
    ("F1 or ?", "these rules (Esc or F1 goes back)"),
    ("F11", "full screen on or off"),
    ("Ctrl+Q", "quit the game"),
    ("1 to 5", "at the table: pick the card in that place of your hand"),
    ("click a square", "play the picked card there"),
    ("D", "draw a card"),
    ("X", "discard the picked card"),
    ("Enter", "confirm when the game warns you (penalty mode)"),
    ("Esc", "cancel the picked card or the warning"),
    ("H", "a hint from the coach (casual tables only; the table is told you asked)"),
    ("←", "while you watch a game: look back through what has happened"),
    ("M", "sound on or off"),
)
#: The keys that work on every screen (the first of ``KEYS``).
WINDOW_KEYS = KEYS[:3]
MAX_TEXT_WIDTH = 860  # at scale 1: lines longer than this read badly


class HelpTopic(NamedTuple):
    """What the rules screen explains over a table of a game other than the peg-board: its rules and keys."""

    kind: str  # the game kind's name (``board99.kinds``)
    settings: kinds.Settings  # the table's settings: the rules page is this table's
    keys: tuple[tuple[str, str], ...]  # that screen's keys, as (keys, what they do)


def keys_of(line: str) -> tuple[tuple[str, str], ...]:
    """A screen's line of keys ('D: draw · M: sound') as (keys, what they do) pairs, F1 left out (the window's).

    >>> keys_of("D: draw · M: sound · F1: help")
    (('D', 'draw'), ('M', 'sound'))
    """
    pairs = (part.partition(": ") for part in line.split(" · "))
    return tuple((keys, what) for keys, _, what in pairs if what and keys != "F1")


class HelpView(arcade.View):
    """The rules, scrollable with the wheel, the arrow keys and Page Up/Down; Esc, F1 or Back return."""

    def __init__(self, on_back: Callable[[], object], prefs: Preferences | None = None,
                 on_learn: Callable[[], object] | None = None, topic: HelpTopic | None = None) -> None:
        super().__init__()
        #: None: the peg-board game's rules (the handbook); else the rules of that table's game.
        self.topic = topic
        load_fonts()
        self.back_cb = on_back
        #: Opens the lessons (L): the rules screen is where a new player at a table looks first.
        self.learn_cb = on_learn
        self.prefs = prefs or Preferences()
        self.scroll = 0.0
        self.content_height = 0.0
        self.texts: list[tuple[arcade.Text, float]] = []  # (text, its top's distance below the content's top)
        self.batch = Batch()
        self.button_set = ButtonSet(white())
        self._size: tuple[int, int, float] | None = None

    # -- layout -------------------------------------------------------------------------------

    @property
    def scale(self) -> float:
        """The text scale for this window size and the player's setting."""
        return ui_scale(self.window.width, self.window.height, self.prefs.ui_scale)

    def _text(self, text: str, x: float, top: float, size: float, width: float, color=TEXT,
              bold: bool = False) -> float:
        t = arcade.Text(text, x, 0, color, size, width=int(width), multiline=True, font_name=FONT, bold=bold,
                        anchor_y="top", batch=self.batch)
        self.texts.append((t, top))
        return t.content_height

    def build(self) -> None:
        """Lay the whole text out for this window size (again after a resize or a new scale)."""
        w, h, s = self.window.width, self.window.height, self.scale
        self._size = (w, h, s)
        self.batch = Batch()
        self.texts = []
        width = min(w - 80 * s, MAX_TEXT_WIDTH * s)
        left = (w - width) / 2
        body, head, gap = 12.5 * s, 16 * s, 10 * s
        topic = self.topic
        page = None if topic is None else kinds.rules_page(kinds.get(topic.kind), topic.settings)
        if topic is not None and page is not None:
            self._build_page(kinds.get(topic.kind).title, page, topic.keys, left, width)
            return
        y = 0.0
        y += self._text("GAME OF 99 — the rules", left, y, 22 * s, width, bold=True) + 2 * gap
        for section in SECTIONS:
            y += self._text(section.title, left, y, head, width, WARN, bold=True) + gap * 0.6
            for paragraph in section.paragraphs:
                y += self._text(paragraph, left, y, body, width) + gap * 0.6
            y += gap
        y += self._text("Offences and penalties", left, y, head, width, WARN, bold=True) + gap * 0.6
        first = width * 0.27
        for row in penalty_table():
            tall = self._text(row.offence, left, y, body, first - 10 * s, bold=True)
            tall = max(tall, self._text(
                f"penalty mode: {row.penalty}\nguarded mode: refused, {guarded_reason(row.code)}",
                left + first, y, body, width - first))
            y += tall + gap * 0.8
        y += gap
        for title, paragraphs in ((HINTS.title, HINTS.paragraphs),):
            y += self._text(title + " (from the 1963 rulebook)", left, y, head, width, WARN, bold=True) + gap * 0.6
            for paragraph in paragraphs:
                y += self._text("• " + paragraph, left, y, body, width) + gap * 0.6
        y += gap
        y += self._text("Keys", left, y, head, width, WARN, bold=True) + gap * 0.6
        for keys, what in KEYS:
            tall = self._text(keys, left, y, body, first - 10 * s, bold=True)
            y += max(tall, self._text(what, left + first, y, body, width - first)) + gap * 0.4
        self.content_height = y + 3 * gap
        self._build_buttons(s)
        self.scroll_to(self.scroll)

    def _build_page(self, title: str, page: tuple[kinds.RulesSection, ...], keys: tuple[tuple[str, str], ...],
                    left: float, width: float) -> None:
        """A game's own rules page (its kind's words), then the keys of the screen under it and the window's."""
        s = self.scale
        body, head, gap = 12.5 * s, 16 * s, 10 * s
        y = self._text(f"{title} — the rules", left, 0.0, 22 * s, width, bold=True) + 2 * gap
        for section in page:
            y += self._text(section.title, left, y, head, width, WARN, bold=True) + gap * 0.6
            for paragraph in section.paragraphs:
                y += self._text(paragraph, left, y, body, width) + gap * 0.4
            y += gap
        y += self._text("Keys", left, y, head, width, WARN, bold=True) + gap * 0.6
        first = width * 0.27
        for key, what in (*WINDOW_KEYS, *keys):
            tall = self._text(key, left, y, body, first - 10 * s, bold=True)
            y += max(tall, self._text(what, left + first, y, body, width - first)) + gap * 0.4
        self.content_height = y + 3 * gap
        self._build_buttons(s)
        self.scroll_to(self.scroll)

    def _build_buttons(self, s: float) -> None:
        # At the top right: Back, and under it Learn to play.
        self.button_set.clear()
        left, top = self.window.width - (16 + 150) * s, self.window.height
        self.button_set.add("back", "Back (Esc)", self.back, left, top - (12 + 36) * s, 150 * s, 36 * s, size=12 * s)
        if self.learn_cb is not None:
            self.button_set.add("learn", "Learn to play (L)", self.learn, left, top - (56 + 36) * s, 150 * s, 36 * s,
                                size=12 * s)

    @property
    def buttons(self) -> dict[Hashable, Button]:
        """The buttons shown, by name ("back", "learn")."""
        return self.button_set.by_name

    @property
    def page(self) -> float:
        """How much of the text one screen shows (the height between the top and bottom margins)."""
        return self.window.height - 2 * self.margin

    @property
    def margin(self) -> float:
        """The space kept clear above and below the text."""
        return 24 * self.scale

    def scroll_to(self, offset: float) -> None:
        """Show the text from ``offset`` pixels below its top (clamped to the text)."""
        self.scroll = max(0.0, min(offset, max(0.0, self.content_height - self.page)))
        top = self.window.height - self.margin + self.scroll
        for text, y in self.texts:
            text.y = top - y

    def all_text(self) -> str:
        """Everything the screen says, top to bottom (for tests and screen readers' sake)."""
        return "\n".join(t.text for t, _ in self.texts)

    # -- input --------------------------------------------------------------------------------

    def back(self) -> None:
        """Return to where the player was."""
        self.back_cb()

    def learn(self) -> None:
        """Open the lessons, if the app gave a way to them."""
        if self.learn_cb is not None:
            self.learn_cb()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Esc, F1 or Backspace: back; L: the lessons; arrows, Page Up/Down, Home and End: scroll."""
        if symbol in (arcade.key.ESCAPE, arcade.key.F1, arcade.key.BACKSPACE):
            self.back()
            return True
        if symbol == arcade.key.L and self.learn_cb is not None:
            self.learn()
            return True
        steps = {arcade.key.DOWN: 40 * self.scale, arcade.key.UP: -40 * self.scale,
                 arcade.key.PAGEDOWN: self.page * 0.9, arcade.key.SPACE: self.page * 0.9,
                 arcade.key.PAGEUP: -self.page * 0.9}
        if symbol in steps:
            self.scroll_to(self.scroll + steps[symbol])
            return True
        if symbol in (arcade.key.HOME, arcade.key.END):
            self.scroll_to(0.0 if symbol == arcade.key.HOME else self.content_height)
            return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """The wheel scrolls three lines a notch."""
        self.scroll_to(self.scroll - scroll_y * 48 * self.scale)

    # -- arcade callbacks -----------------------------------------------------------------------

    def on_show_view(self) -> None:
        """Lay out for the window."""
        self.prefs = getattr(self.window, "prefs", self.prefs)
        self.build()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Light the button under the pointer."""
        self.button_set.hover(x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A press on a button."""
        return True if self.button_set.press(x, y) else None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A click's end: the button pressed runs its action if the pointer is still on it."""
        return True if self.button_set.release(x, y) else None

    def on_resize(self, width: int, height: int) -> None:
        """Lay out again for the new size."""
        self.build()

    def on_draw(self) -> None:
        """The text on a dark panel, a scroll bar when it does not fit, and the Back button."""
        if self._size != (self.window.width, self.window.height, self.scale):
            self.build()
        self.clear(color=TABLE_BG)
        w, h = self.window.width, self.window.height
        width = min(w - 80 * self.scale, MAX_TEXT_WIDTH * self.scale)
        pad = 20 * self.scale
        arcade.draw_lrbt_rectangle_filled((w - width) / 2 - pad, (w + width) / 2 + pad, 0, h, PANEL_BG)
        self.batch.draw()
        if self.content_height > self.page:
            shown = self.page / self.content_height
            bar_h = max(30.0, (h - 2 * self.margin) * shown)
            room = h - 2 * self.margin - bar_h
            frac = self.scroll / max(1.0, self.content_height - self.page)
            x = (w + width) / 2 + pad + 6 * self.scale
            top = h - self.margin - room * frac
            arcade.draw_lrbt_rectangle_filled(x, x + 6 * self.scale, top - bar_h, top, TEXT_DIM)
        self.button_set.draw()
