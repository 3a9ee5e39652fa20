"""A lesson's screen: the table (board, seats, hand, panel) on the engine in-process, with the lesson's task and box.

``LessonView`` is a ``TableView`` whose session is a ``LessonSession`` (no
server: the engine runs here), whose panel carries the lesson's task and
choices (``LessonPanelPart``), with the explanation box over the board
(``ExplanationPart``). Keys and clicks go to the lesson first (R, L, Space,
Enter on a verdict, 1-4 on a question, its buttons), then to the table while
the lesson waits for an action there. A click or key while the others'
moves are being shown shows them at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import cast

import arcade

from board99.lessons import Lesson

from .lesson_parts import SCROLL_STEP, ExplanationPart, LessonPanelPart
from .lesson_state import (
    Answer,
    LessonIntent,
    LessonNews,
    LessonSession,
    LessonState,
    LessonTableState,
    NextLesson,
    StartAgain,
    ToggleBox,
    ToList,
    TryAgain,
)
from .messages import Message
from .session import Session
from .sounds import Sounds
from .table_intents import OnButton
from .table_view import KEY_NAMES, TableView
from .textures import textures

#: The keys a lesson reads besides the table's (table_view.KEY_NAMES).
LESSON_KEYS: dict[int, str] = {arcade.key.R: "r", arcade.key.L: "l", arcade.key.SPACE: "space"}
#: The table's buttons that work whatever the lesson waits for.
ALWAYS = ("mute", "rules")
BACK_TO_STEP = "Back to the start of this step: try again."
BACK_IN_LOG = "(back to the start of the step)"


class LessonView(TableView):
    """One lesson at its table; ``on_list`` goes back to the lessons, ``on_done(id)`` keeps the progress."""

    panel_part = LessonPanelPart
    panel: LessonPanelPart

    def __init__(self, lessons: Sequence[Lesson], index: int, *, sounds: Sounds | None = None, name: str = "You",
                 on_list: Callable[[], object] | None = None, on_done: Callable[[str], object] | None = None,
                 on_help: Callable[[], object] | None = None, clock: Callable[[], float] = time.monotonic,
                 first: int = 1, count: int | None = None) -> None:
        super().__init__(None, sounds, on_help=on_help)
        self.lessons, self.index = list(lessons), index
        #: The list's number of ``lessons[0]`` and how many lessons the list has (both games' lessons count).
        self.first, self.count = first, len(self.lessons) if count is None else count
        self.name = name
        self.list_cb, self.done_cb = on_list, on_done
        self.clock = clock
        self.explanation = ExplanationPart(textures())
        self.parts.append(self.explanation)
        self.start()

    # -- the lesson -----------------------------------------------------------------------------------

    @property
    def lesson_session(self) -> LessonSession:
        """The lesson's session (the table's ``session``, seen as what it is)."""
        return cast(LessonSession, self.session)

    def start(self) -> None:
        """Lay the current lesson's position out afresh: a new run, a new table state, step 1."""
        lesson = self.lessons[self.index]
        pace = self.window.prefs.animation_factor or 0.6
        session = LessonSession(lesson, name=self.name, clock=self.clock, pace=pace)
        self.lesson = LessonState(lesson, self.first + self.index, self.count, session,
                                  last=self.index + 1 >= len(self.lessons))
        self.state = LessonTableState(muted=self.sounds.muted, clock=self.clock)
        self._read_prefs()
        self.session = cast(Session, session)
        self.panel.lesson = self.lesson
        self.explanation.lesson = self.lesson
        for msg in session.opening():
            self.state.receive(msg)
        self.state.motions.finish()  # the position is where the lesson starts, not a move to watch
        self.state.toasts.clear()
        self.relayout()

    def refresh(self) -> None:
        """The table's refresh; the how-to hint under the hand only while the lesson waits for an action there."""
        lesson = getattr(self, "lesson", None)
        if lesson is not None:
            self.state.hints = self.window.prefs.hints and lesson.table_input
        super().refresh()

    def handle(self, msg: Message | LessonNews) -> None:
        """A verdict goes to the lesson (and the progress); everything else to the table, as from a server."""
        if isinstance(msg, LessonNews):
            if self.lesson.take(msg) and self.done_cb is not None:
                self.done_cb(self.lesson.lesson.id)
            if self.state.notice == BACK_TO_STEP:
                self.state.tell("")
            self.refresh()
            return
        super().handle(msg)

    def do(self, intent: LessonIntent) -> None:
        """Carry out what the learner means in the lesson."""
        match intent:
            case Answer(choice):
                self.lesson.news = None
                self.lesson_session.answer(choice)
            case NextLesson() if self.index + 1 < len(self.lessons):
                self.index += 1
                self.start()
            case NextLesson() | ToList():
                if self.list_cb is not None:
                    self.list_cb()
                return
            case TryAgain():
                self.lesson_session.retry()
                self.lesson.reset()
                self.state.warning, self.state.picked = None, None
                self.state.tell(BACK_TO_STEP, "warn")
                self.state.log.append(BACK_IN_LOG)
            case StartAgain():
                self.start()
            case ToggleBox():
                self.lesson.box_open = not self.lesson.box_open
        self.refresh()

    def hurry(self) -> bool:
        """Show at once what is still to be shown; True if there was something.

        What is already due is taken first, so a key pressed after the moves were due (an idle window takes them
        a few times a second) is not used up hurrying what needed no hurry."""
        for msg in self.lesson_session.drain():
            self.handle(msg)
        if not self.lesson_session.busy:
            return False
        busy = self.lesson_session.busy or bool(self.state.motions.items)
        self.lesson_session.flush()
        self.state.motions.finish()
        return busy

    # -- input ----------------------------------------------------------------------------------------------

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """The lesson's keys first, then the table's while the lesson waits for an action at the table."""
        if symbol in (arcade.key.PAGEUP, arcade.key.PAGEDOWN):  # the task's area, when it scrolls
            self.scroll_task(SCROLL_STEP * 4 * (1 if symbol == arcade.key.PAGEDOWN else -1))
            return
        name = LESSON_KEYS.get(symbol) or KEY_NAMES.get(symbol)
        if name is None:
            return  # F1, F11, Ctrl+Q … are the window's
        if self.lesson.phase == "busy" and self.hurry():
            return
        intent = self.lesson.key(name)
        if intent is not None:
            self.do(intent)
        elif self.lesson.table_input or name == "m":
            super().on_key_press(symbol, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """The lesson's buttons and choices first, then the table while the lesson waits for an action there."""
        if self.lesson.phase == "busy" and self.hurry():
            return
        self.state.motions.finish()
        target = next((t for part in reversed(self.parts) if (t := part.target_at(x, y)) is not None), None)
        if isinstance(target, OnButton):
            intent = self.lesson.button(target.name)
            if intent is not None:
                self.do(intent)
                return
            if target.name in ALWAYS:
                self.perform(self.state.click(target))
                return
        if self.lesson.table_input:
            self.perform(self.state.click(target))

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """The wheel over the panel scrolls the task's area, when it does not fit."""
        if x >= self.geo.panel.left:
            self.scroll_task(-scroll_y * SCROLL_STEP)

    def scroll_task(self, dy: float) -> None:
        """Scroll the panel's lesson area by ``dy`` pixels at scale 1 (down when positive)."""
        if self.panel.scroll_by(dy * self.geo.scale):
            self.refresh()

    def on_update(self, delta_time: float) -> None:
        """The table's update; the window stays awake while moves are still to be shown."""
        super().on_update(delta_time)
        if self.lesson_session.busy:
            self.window.awake(0.3)
