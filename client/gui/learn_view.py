"""The Learn screen: both games' lessons, a tab per game, each game's lessons in columns by group, ticks for those done.

A tab per game (the peg-board GAME OF 99, Ninety-Nine) shows that game's
lessons in its groups' columns (the rules, the penalties, the playing hints;
the four rule sets, the rules of play, 002's strategy). Every lesson is a
button (a click or Enter opens it) with its summary under it; the arrows
choose one (Up/Down in the list's order, Left/Right to the next group, on
into the other game's tab), Esc goes back. A lesson's number is its place in
the whole list (``board99 learn --list``). Places are fixed, scaled from a
1240 x 790 design like the lobby's, so 960 x 640 shows every lesson.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any

import arcade
import arcade.gui
from arcade.gui import UILabel, UIWidget

from board99.lessons.games import TITLES, games_of

from .buttons import Button, ButtonSet
from .palette import FONT, GOOD, RGB, TABLE_BG, TEXT, TEXT_DIM
from .preferences import Preferences
from .scale import ui_scale
from .textures import load_fonts, white

CONTENT_W, CONTENT_H = 1240, 790
COLUMN_W, COLUMN_GAP = 400, 20
ROW_H = 62  # a lesson's button and its summary
DONE_BG = (32, 104, 60)  # a lesson done
TAB_BG, TAB_ON = (36, 50, 64), (70, 100, 130)  # a game's tab, and the tab shown
INTRO = ("Short lessons at a table with bots: each sets up a position, gives you a task or asks a question, then "
         "explains it in its source's own words.")
KEYS_LINE = "Click a lesson or press Enter · arrows choose · Esc goes back · F1 the rules"


def done_words(done: int, total: int) -> str:
    """'5 of 18 lessons done'."""
    return f"{done} of {total} lessons done" if done < total else f"All {total} lessons done"


def lesson_label(number: int, lesson: Any, done: bool) -> str:
    """A lesson's button: '✓ 3. Your turn: play, draw or discard'."""
    return f"{'✓' if done else '  '} {number}. {lesson.title}"


class LearnView(arcade.View):
    """The list of lessons; ``on_open(index)`` opens one, ``on_back`` leaves."""

    def __init__(self, lessons: Sequence[Any], done: frozenset[str] | set[str], *,
                 on_open: Callable[[int], object], on_back: Callable[[], object] | None = None,
                 prefs: Preferences | None = None, selected: int | None = None) -> None:
        super().__init__()
        load_fonts()
        self.lessons = list(lessons)
        self.done = frozenset(done)
        self.open_cb, self.back_cb = on_open, on_back
        self.prefs = prefs or Preferences()
        first_open = next((i for i, lesson in enumerate(self.lessons) if lesson.id not in self.done), 0)
        self.selected = first_open if selected is None else max(0, min(len(self.lessons) - 1, selected))
        self.games = games_of(self.lessons)
        #: Every (game, group) in the list's order: the columns of each game's tab.
        self.groups: list[tuple[str, str]] = list(dict.fromkeys((lesson.game, lesson.group)
                                                                for lesson in self.lessons))
        self.ui = arcade.gui.UIManager()
        self.widgets: list[UIWidget] = []
        #: The buttons: the lessons' by index (tests click them), and the others by name.
        self.button_set = ButtonSet(white())
        self._layout_key: tuple[int, int, float] | None = None

    @property
    def scale(self) -> float:
        """Text and widget scale for this window and the player's setting."""
        return ui_scale(self.window.width, self.window.height, self.prefs.ui_scale)

    def box(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) in window pixels of a box given at scale 1 from the content's top left."""
        s = self.scale
        left = (self.window.width - CONTENT_W * s) / 2
        top = self.window.height - max(0.0, (self.window.height - CONTENT_H * s) / 2)
        return left + x * s, top - (y + h) * s, w * s, h * s

    def _label(self, text: str, x: float, y: float, w: float, h: float, size: float = 12, color: RGB = TEXT,
               bold: bool = False, multiline: bool = False) -> UILabel:
        s = self.scale
        left, bottom, width, height = self.box(x, y, w, h)
        widget = UILabel(x=left, y=bottom, width=width, height=height, text=text, font_name=FONT,
                         font_size=size * s, text_color=color, bold=bold, multiline=multiline)
        self.widgets.append(self.ui.add(widget))
        return widget

    @property
    def buttons(self) -> dict[Hashable, Button]:
        """The buttons shown: the lessons' by index, the others by name."""
        return self.button_set.by_name

    def _button(self, key: int | str, text: str, action: Callable[[], object], x: float, y: float, w: float,
                h: float, size: float = 12, **style: object) -> Button:
        s = self.scale
        left, bottom, width, height = self.box(x, y, w, h)
        return self.button_set.add(key, text, action, left, bottom, width, height, size=size * s,
                                   **style)  # type: ignore[arg-type]

    def build(self) -> None:
        """Every widget at its place (cheap: a few dozen)."""
        if self.window is None:
            return
        from .lobby_view import fit  # the lobby's shortening, in the same font

        for widget in self.widgets:
            self.ui.remove(widget)
        self.widgets = []
        self.button_set.clear()
        s = self.scale
        self._layout_key = (self.window.width, self.window.height, s)
        done = sum(1 for lesson in self.lessons if lesson.id in self.done)
        self._label("Learn to play", 0, 0, 400, 44, 24, bold=True)
        self._label(done_words(done, len(self.lessons)), 420, 8, 400, 34, 14, GOOD if done else TEXT_DIM)
        self._button("back", "Back (Esc)", self._back, CONTENT_W - 140, 4, 140, 36)
        shown = self.game
        tab_w = (CONTENT_W - 20 * (len(self.games) - 1)) / max(1, len(self.games))
        for t, game in enumerate(self.games):
            of_game = [lesson for lesson in self.lessons if lesson.game == game]
            ticks = sum(1 for lesson in of_game if lesson.id in self.done)
            self._button(f"game-{game}", f"{TITLES.get(game, game)}  ·  {ticks} of {len(of_game)} done",
                         partial(self.show_game, game), t * (tab_w + 20), 50, tab_w, 36, 13,
                         bg=TAB_ON if game == shown else TAB_BG, outlined=game == shown)
        self._label(INTRO, 0, 92, CONTENT_W, 24, 11, TEXT_DIM)
        columns = [group for game, group in self.groups if game == shown]
        for g, group in enumerate(columns):
            x = g * (COLUMN_W + COLUMN_GAP)
            self._label(group, x, 118, COLUMN_W, 30, 16, bold=True)
            row = 0
            for i, lesson in enumerate(self.lessons):
                if lesson.game != shown or lesson.group != group:
                    continue
                y = 152 + row * ROW_H
                mine = lesson.id in self.done
                text = fit(lesson_label(i + 1, lesson, mine), (COLUMN_W - 20) * s, 12 * s)
                self._button(i, text, partial(self.open, i), x, y, COLUMN_W, 34, 12,
                             bg=DONE_BG if mine else (44, 62, 80), outlined=i == self.selected)
                self._label(fit(lesson.summary, (COLUMN_W - 12) * s, 10.5 * s), x + 6, y + 36, COLUMN_W - 6, 22,
                            10.5, TEXT_DIM)
                row += 1
        self._label(KEYS_LINE, 0, CONTENT_H - 28, CONTENT_W, 26, 11, TEXT_DIM)

    # -- intents ----------------------------------------------------------------------------------------

    def open(self, index: int) -> None:
        """Open lesson ``index``."""
        self.selected = index
        self.open_cb(index)

    def _back(self) -> None:
        if self.back_cb is not None:
            self.back_cb()

    def move(self, step: int) -> None:
        """Choose the lesson ``step`` places on in the list's order."""
        self.selected = max(0, min(len(self.lessons) - 1, self.selected + step))
        self.build()

    @property
    def game(self) -> str:
        """The game whose tab is shown: the chosen lesson's."""
        return str(self.lessons[self.selected].game) if self.lessons else ""

    def show_game(self, game: str) -> None:
        """Show ``game``'s tab, its first lesson not done chosen (else its first)."""
        mine = [i for i, lesson in enumerate(self.lessons) if lesson.game == game]
        if mine:
            self.selected = next((i for i in mine if self.lessons[i].id not in self.done), mine[0])
            self.build()

    def jump(self, step: int) -> None:
        """Choose the first lesson of the next (or previous) group, on into the other game's tab."""
        lesson = self.lessons[self.selected]
        group = self.groups.index((lesson.game, lesson.group))
        target = self.groups[max(0, min(len(self.groups) - 1, group + step))]
        self.selected = next(i for i, lesson in enumerate(self.lessons) if (lesson.game, lesson.group) == target)
        self.build()

    # -- arcade callbacks -------------------------------------------------------------------------------

    def on_show_view(self) -> None:
        """Enable the widgets."""
        self.prefs = getattr(self.window, "prefs", self.prefs)
        self.build()
        self.ui.enable()

    def on_hide_view(self) -> None:
        """Disable the widgets."""
        self.ui.disable()

    def on_resize(self, width: int, height: int) -> None:
        """Everything at its place for the new size."""
        self.build()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Arrows choose, Enter opens, Esc goes back."""
        keys = arcade.key
        if symbol in (keys.DOWN, keys.TAB):
            self.move(+1)
        elif symbol == keys.UP:
            self.move(-1)
        elif symbol == keys.RIGHT:
            self.jump(+1)
        elif symbol == keys.LEFT:
            self.jump(-1)
        elif symbol in (keys.ENTER, keys.RETURN, keys.NUM_ENTER, keys.SPACE):
            self.open(self.selected)
        elif symbol == keys.ESCAPE:
            self._back()
        else:
            return None
        return True

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
        """The baize, the buttons, then the labels."""
        if self._layout_key != (self.window.width, self.window.height, self.scale):
            self.build()
        self.clear(color=TABLE_BG)
        self.button_set.draw()
        self.ui.draw()
