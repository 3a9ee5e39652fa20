"""A Ninety-Nine lesson's screen: the Ninety-Nine table on the engine in-process, with the lesson's panel and box.

The lesson's logic is the peg-board lessons' (lesson_state.py): a
``NinetyLessonSession`` is a ``LessonSession`` whose three game hooks
(``make_run``, ``make_table``, ``seen``) play a
``board99.ninety_nine.lessons.LessonRun``, and ``NinetyLessonState`` is a
``LessonState`` that names the seed document it quotes and tells a move in
the Ninety-Nine table's words. ``NinetyLessonView`` is the Ninety-Nine table
(ninety_table.py) with the lesson's task, choices and note at the top of its
panel (the table's own log below them) and the explanation box over the
play area. Keys and clicks go to the lesson first (R, L, Space, Enter on a
verdict, 1-4 on a question, Esc back to the list, its buttons), then to the
table while the lesson waits for an action there. A click or key while the
others' moves are shown shows them at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import arcade

from board99.ninety_nine.events import Event, shown_to
from board99.ninety_nine.lessons import Lesson, LessonRun
from board99.wire.table_info import SeatInfo, TableInfo

from .lesson_state import (
    LOOK,
    Answer,
    LessonIntent,
    LessonNews,
    LessonSession,
    LessonState,
    NextLesson,
    StartAgain,
    ToggleBox,
    ToList,
    TryAgain,
)
from .messages import Message
from .ninety_state import NinetyState
from .ninety_table import KEY_NAMES, TURN, NinetyTable
from .palette import BAD, GOOD, TEXT, TEXT_DIM, WARN
from .sounds import Sounds

#: The keys a lesson reads besides the table's (ninety_table.KEY_NAMES).
LESSON_KEYS: dict[int, str] = {arcade.key.L: "l", arcade.key.SPACE: "space", arcade.key.ENTER: "enter",
                               arcade.key.RETURN: "enter", arcade.key.NUM_ENTER: "enter"}
BACK_TO_STEP = "Back to the start of this step: try again."
TONES = {"plain": TEXT, "warn": WARN, "bad": BAD, "good": GOOD}
CHOICE_BACK, CHOICE_PICKED, CHOICE_RIGHT = (44, 62, 80, 255), (120, 96, 30, 255), (30, 110, 60, 255)
BOX_BACK = (14, 36, 52, 245)
QUOTE = (236, 222, 176)  # the document's words: the colour of old paper
BUTTON_BACK = (44, 62, 80, 255)


class NinetyLessonSession(LessonSession):
    """The session of a Ninety-Nine lesson's table: its engine here, the replies paced by the clock."""

    def make_run(self, lesson: Any) -> LessonRun:
        """The lesson on the Ninety-Nine engine."""
        return LessonRun(lesson)

    def make_table(self, lesson: Any, name: str) -> TableInfo:
        """The lesson's table: its seats' names (the learner's ``name``), bots, the rule set and options."""
        t = lesson.table
        seats = tuple(SeatInfo(seat, seat, None, "human" if seat == t.you else "bot",
                               name if seat == t.you else t.names[seat], True, False) for seat in range(t.players))
        return TableInfo(f"lesson-{lesson.id}", lesson.title, t.players, t.mode, None, 30.0, "playing", 1, (), None,
                         0, seats, kind="ninety-nine", options=t.build().options)

    def seen(self, event: Any) -> Event:
        """An event as the learner's seat sees it (Ninety-Nine's ``shown_to``: a drawn card only for its drawer)."""
        return shown_to(event, self.you)


class NinetyLessonState(LessonState):
    """What a Ninety-Nine lesson shows besides the table: the peg-board lessons' own, quoting its seed document."""

    #: Tells an event (as the seat sees it) in the table's words: the view sets its table state's.
    describe: Callable[[Event], str] = staticmethod(lambda e: "")

    def cite(self) -> str:
        """The seed document the quote comes from: 'The Convention rules (002):'."""
        return str(self.lesson.cite)

    def more(self) -> str:
        """Where else to read: the table's rules (H) and the rules page's section."""
        return f"More: H shows this table's rules; docs/ninety-nine.md, “{self.lesson.section}”."

    def focus(self) -> tuple[int, ...]:
        """No squares at a card table."""
        return ()

    def _what(self, news: Any) -> str:
        if news.choice is not None:
            step = self.lesson.steps[self.run.step_index]
            return f"You answered: {step.choices[news.choice]}"
        you = self.lesson.table.you
        mine = [m for m in news.moves if m.seat == you]
        if not mine:
            return ""
        lines = [self.describe(self.session.seen(e)) for e in mine[0].events]
        return "\n".join(line for line in lines if line)


class NinetyLessonView(NinetyTable):
    """One Ninety-Nine lesson at its table; ``on_list`` goes back to the lessons, ``on_done(id)`` keeps progress."""

    #: The lesson's keys along the bottom (and in F1's rules screen): Esc goes back to the lessons, not a lobby.
    KEYS_LINE = ("1-9: play that card · Up/Down: an ace's or ten's value · D: draw · 1-4: answer · Enter: go on · "
                 "R: start again · L or Esc: the lessons · H: this table's rules · F1: help")
    OVER_KEYS = "R: start again · L: the lessons"

    def __init__(self, lessons: Sequence[Lesson], index: int, *, sounds: Sounds | None = None, name: str = "You",
                 on_list: Callable[[], object] | None = None, on_done: Callable[[str], object] | None = None,
                 on_help: Callable[[], object] | None = None, clock: Callable[[], float] = time.monotonic,
                 first: int = 1, count: int | None = None) -> None:
        super().__init__(None, sounds, None, on_help=on_help)
        self.lessons, self.index = list(lessons), index
        self.first, self.count = first, len(self.lessons) if count is None else count
        self.name = name
        self.list_cb, self.done_cb = on_list, on_done
        self.clock = clock
        #: The lesson's clickable places: (left, bottom, width, height, button name).
        self.lesson_boxes: list[tuple[float, float, float, float, str]] = []
        self.start()

    # -- the lesson -----------------------------------------------------------------------------------

    @property
    def lesson_session(self) -> NinetyLessonSession:
        """The lesson's session (the table's ``session``)."""
        assert isinstance(self.session, NinetyLessonSession)
        return self.session

    def start(self) -> None:
        """Lay the current lesson's position out afresh: a new run, a new table state, step 1."""
        lesson = self.lessons[self.index]
        pace = self.window.prefs.animation_factor or 0.6
        session = NinetyLessonSession(lesson, name=self.name, clock=self.clock, pace=pace)
        self.lesson = NinetyLessonState(lesson, self.first + self.index, self.count, session,
                                        last=self.index + 1 >= len(self.lessons))
        self.state = NinetyState(clock=self.clock)
        self.lesson.describe = self.state.event_words
        self.session = session
        for msg in session.opening():
            self.state.receive(msg)  # the position is where the lesson starts, not moves to watch
        self.motions = []
        self.refresh()

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
                # The step's start is an earlier position, which the table takes for a new game and clears its
                # log: the log keeps what happened, as at the peg-board lessons' table.
                kept = list(self.state.log)
                for msg in self.lesson_session.drain():
                    self.handle(msg)
                self.state.log.clear()
                self.state.log.extend(kept)
                self.state.choice = None
                self.state.tell(BACK_TO_STEP)
                self.state.log.append("(back to the start of the step)")
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
        busy = self.lesson_session.busy or bool(self.motions)
        self.lesson_session.flush()
        self.motions.clear()
        return busy

    def perform(self, meaning: list | str) -> None:
        """The table's meanings, in a lesson: actions only while it waits for one; the lobby is the list."""
        if isinstance(meaning, list):
            if self.lesson.table_input:
                self.send(meaning)
            self.refresh()
        elif meaning == "lobby":
            self.do(ToList())
        elif meaning == "rematch":
            self.do(StartAgain())
        else:
            super().perform(meaning)

    # -- input ----------------------------------------------------------------------------------------------

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """The lesson's keys first, then the table's while the lesson waits for an action at the table."""
        name = LESSON_KEYS.get(symbol) or KEY_NAMES.get(symbol)
        if name is None:
            return  # F1, F11, Ctrl+Q … are the window's
        if self.lesson.phase == "busy" and self.hurry():
            return
        if name == "escape" and self.lesson.phase in ("task", "quiz") and self.state.choice is None \
                and not self.state.help_shown:
            self.do(ToList())  # no game to leave: Esc goes back to the lessons
            return
        intent = self.lesson.key(name)
        if intent is not None:
            self.do(intent)
        elif self.lesson.table_input or name in ("m", "h", "s") or (name == "escape" and self.state.help_shown):
            super().on_key_press(symbol, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """The lesson's buttons and choices first, then the table while the lesson waits for an action there."""
        if self.lesson.phase == "busy" and self.hurry():
            return
        for left, bottom, width, height, name in self.lesson_boxes:
            if left <= x <= left + width and bottom <= y <= bottom + height:
                intent = self.lesson.button(name)
                if intent is not None:
                    self.do(intent)
                return
        if self.lesson.table_input:
            super().on_mouse_press(x, y, button, modifiers)

    def on_update(self, delta_time: float) -> None:
        """The table's update; the window stays awake while moves are still to be shown."""
        super().on_update(delta_time)
        if self.lesson_session.busy:
            self.window.awake(0.3)

    # -- layout -----------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """The table, the lesson's area at the top of the panel, then the box over the play area."""
        if not hasattr(self, "lesson"):
            return  # the table's own constructor lays out before the lesson is there
        self.lesson_boxes = []
        super().refresh()
        self._box()

    def _panel(self, w: float, h: float, panel: float, top: float | None = None, glance: bool = True) -> None:
        """The lesson's area (its head, title, task, choices, note, buttons), then the table's panel below it."""
        s, lesson = self.scale, self.lesson
        left, inner = w - panel + 14 * s, panel - 28 * s
        own: list[tuple[float, float, float, float, Any, Any]] = []
        y = h - 16 * s
        for text, size, colour, bold in ((lesson.head(), 10.5, TEXT_DIM, False),
                                         (lesson.lesson.title, 14, WARN, True), (lesson.task(), 11.5, TEXT, False)):
            made = self._text(text, left, y, size, colour, bold=bold, anchor_y="top", width=inner)
            y -= made.content_height + 6 * s
        chosen, phase = lesson.chosen(), lesson.phase
        for i, choice in enumerate(lesson.choices()):
            made = self._text(choice, left + 8 * s, y - 5 * s, 10.5, TEXT, anchor_y="top", width=inner - 16 * s)
            height = made.content_height + 10 * s
            back = (CHOICE_RIGHT if phase == "done" else CHOICE_PICKED) if i == chosen else CHOICE_BACK
            own.append((left, y - height, inner, height, back, None))
            self.lesson_boxes.append((left, y - height, inner, height, f"choice-{i}"))
            y -= height + 5 * s
        words, tone = lesson.note()
        if words:
            made = self._text(words, left, y, 10.5, TONES[tone], anchor_y="top", width=inner)
            y -= made.content_height + 6 * s
        bw = (inner - 8 * s) / 2
        for k, (name, label) in enumerate((("again", "Start again (R)"), ("list", "Lessons (L)"))):
            bx = left + k * (bw + 8 * s)
            own.append((bx, y - 26 * s, bw, 26 * s, BUTTON_BACK, TEXT_DIM))
            self._text(label, bx + bw / 2, y - 13 * s, 10.5, TEXT, anchor_x="center", anchor_y="center")
            self.lesson_boxes.append((bx, y - 26 * s, bw, 26 * s, name))
        y -= 26 * s + 28 * s  # the panel's heading stands on its baseline: room for its height
        # The rules at a glance only where they leave room for the log (H shows them in full at any time).
        super()._panel(w, h, panel, top=y, glance=y > h * 0.62)
        self.shapes += own  # over the panel's background

    def _box(self) -> None:
        """The explanation over the play area: after a wrong answer, or when the lesson is done."""
        box = self.lesson.box()
        if box is None:
            return
        s = self.scale
        w, h = self.window.width, self.window.height
        area = w - self.panel_w
        width = min(area - 40 * s, 640 * s)
        x0, pad = (area - width) / 2, 16 * s
        texts = [(box.title, 20, TONES[box.tone], True), (box.what, 10.5, TEXT_DIM, False),
                 (box.words, 12, TEXT, False), (box.cite, 10.5, TEXT_DIM, True), (box.quote, 11.5, QUOTE, False),
                 (box.more, 10, TEXT_DIM, False), (LOOK, 9.5, TEXT_DIM, False)]
        made = []
        y = h - 20 * s - pad
        for text, size, colour, bold in texts:
            if not text:
                continue
            t = self._text(text, x0 + pad, y, size, colour, bold=bold, anchor_y="top", width=width - 2 * pad,
                           top=True)
            made.append(t)
            y -= t.content_height + 8 * s
        buttons = box.buttons
        bw = (width - 2 * pad - 10 * s * (len(buttons) - 1)) / max(1, len(buttons))
        by = y - 34 * s
        for k, (name, label) in enumerate(buttons):
            bx = x0 + pad + k * (bw + 10 * s)
            self._text(label, bx + bw / 2, by + 17 * s, 11, TURN if k == 0 else TEXT, bold=k == 0,
                       anchor_x="center", anchor_y="center", top=True)
            self.lesson_boxes.append((bx, by, bw, 34 * s, name))
        top = h - 20 * s
        bottom = by - pad
        back = [(x0, bottom, width, top - bottom, BOX_BACK, TONES[box.tone])]
        back += [(x0 + pad + k * (bw + 10 * s), by, bw, 34 * s, BUTTON_BACK, TURN if k == 0 else TEXT_DIM)
                 for k in range(len(buttons))]
        self.top_shapes = back + self.top_shapes
        # A click elsewhere in the box lands on the box (it covers the table): nothing under it is played.
        self.lesson_boxes.append((x0, bottom, width, top - bottom, "box"))


__all__ = ["NinetyLessonSession", "NinetyLessonState", "NinetyLessonView"]
