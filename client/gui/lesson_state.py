"""A lesson at the table, without a window: the engine in-process as the table's session, and what the lesson shows.

``LessonSession`` stands where a table's ``Session`` stands: it plays a
``board99.lessons.LessonRun`` on this machine (no server) and hands the
table the same typed messages a server's session would (``StateChanged``,
``Events``, ``Failed``), the others' replies one by one as the clock passes,
then a ``LessonNews`` with the verdict. ``LessonState`` is what the lesson's
own parts show (the task, the question's choices, the note under them, the
explanation box) and what a key or a button means in the lesson. Neither
draws; the clock is passed in.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from board99 import Action
from board99.events import Discarded, Drew, Penalty, Played, Won, shown_to
from board99.lessons import Lesson, LessonRun, Move, Outcome, QuizStep
from board99.peg_kind import PEG_BOARD
from board99.wire.table_info import SeatInfo, TableInfo

from . import wording
from .messages import Events, Failed, Message, Replied, StateChanged
from .table_state import TableState

#: Seconds between the moves that follow the learner's (times the player's motion speed; at least a little).
REPLY_SECONDS = 1.0
#: Seconds from the last move to the explanation, so the move is seen first.
VERDICT_SECONDS = 0.9
KEY_CHOICES = ("1", "2", "3", "4")

Tone = Literal["plain", "warn", "bad", "good"]
Phase = Literal["task", "quiz", "busy", "wrong", "done"]


class LessonNews(NamedTuple):
    """The verdict on the learner's action or answer, once what it caused has been shown."""

    outcome: Outcome


def lesson_table(lesson: Lesson, name: str = "You") -> TableInfo:
    """The table description of a lesson: its seats' names (the learner's ``name``), bots, colours, playing."""
    t = lesson.table
    settings = PEG_BOARD.check_settings(t.players, t.mode)
    sides = [PEG_BOARD.side_of(settings, seat) for seat in range(t.players)]
    seats = tuple(
        SeatInfo(seat, sides[seat], t.colours[sides[seat]], "human" if seat == t.you else "bot",
                 name if seat == t.you else t.names[seat], True, False)
        for seat in range(t.players))
    return TableInfo(f"lesson-{lesson.id}", lesson.title, t.players, t.mode, None, 30.0, "playing", 1, (), None, 0,
                     seats)


class LessonTableState(TableState):
    """The table's state at a lesson: the engine judges every try, and there is no record to save or look back at."""

    def __init__(self, *, muted: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(muted=muted, clock=clock)
        self.guard_first = False  # trying is the point: the engine says why not

    @property
    def save_shown(self) -> bool:
        """No Save record: a lesson is not a game anyone keeps."""
        return False

    @property
    def look_back_shown(self) -> bool:
        """No look back: the learner is seated, and the log tells what led to the position."""
        return False


class LessonSession:
    """The session of a lesson's table: the engine here, the replies paced by ``clock``."""

    def __init__(self, lesson: Any, *, name: str = "You", clock: Callable[[], float] = time.monotonic,
                 pace: float = 1.0) -> None:
        self.lesson = lesson
        self.run = self.make_run(lesson)
        self.table = self.make_table(lesson, name)
        self.clock = clock
        self.pace = max(0.25, pace)  # the player's motion speed; never so fast that the moves blur
        self.you = lesson.table.you
        self._queue: list[tuple[float, Message | LessonNews]] = []
        #: The TableView reads this when it is made; the lesson's view hands it the opening instead.
        self.latest_state: StateChanged | None = None
        self.endpoint = "lesson"
        #: The answer last given to a question (shown picked while what follows is shown, and after).
        self.answered: int | None = None

    # -- the game's hooks: a lesson of another game overrides these three (lesson_ninety.py) ---------------

    def make_run(self, lesson: Any) -> Any:
        """The lesson played on its game's engine (a ``board99.lessons.LessonRun`` here)."""
        return LessonRun(lesson)

    def make_table(self, lesson: Any, name: str) -> TableInfo:
        """The table description the table screen is given."""
        return lesson_table(lesson, name)

    def seen(self, event: Any) -> Any:
        """An event as the learner's seat sees it (the engine's ``shown_to``: typed, as a client reads events)."""
        return shown_to(event, self.you)

    @staticmethod
    def is_quiz(step: object) -> bool:
        """True when ``step`` is a question (a task otherwise): both games' steps have ``question`` only there."""
        return isinstance(step, QuizStep) or hasattr(step, "choices")

    # -- what the table is told ------------------------------------------------------------------

    def opening(self) -> list[Message]:
        """The position the lesson starts from, and everything that led to it (the setup's events)."""
        self._queue.clear()
        view = self.run.view
        return [StateChanged(view, self.table, True),
                Events(tuple(self.seen(e) for e in self.run.setup_events))]

    @property
    def busy(self) -> bool:
        """True while moves or the verdict are still to be shown."""
        return bool(self._queue)

    def drain(self) -> list[Message | LessonNews]:
        """What is due now, oldest first."""
        now = self.clock()
        due = [msg for at, msg in self._queue if at <= now]
        self._queue = [(at, msg) for at, msg in self._queue if at > now]
        return due

    def flush(self) -> None:
        """Make everything still to be shown due at once (a click or key hurries the lesson on)."""
        now = self.clock()
        self._queue = [(min(at, now), msg) for at, msg in self._queue]

    def _show(self, moves: tuple[Move, ...], outcome: Outcome, first_delay: float = 0.0) -> None:
        at = self.clock() + first_delay * self.pace
        for i, move in enumerate(moves):
            if i:
                at += REPLY_SECONDS * self.pace
            self._queue.append((at, StateChanged(move.view, self.table, True)))
            events = tuple(self.seen(e) for e in move.events)
            self._queue.append((at, Events(events)))
            if i == 0 and move.seat == self.you and not first_delay:
                self._queue.append((at, Replied("act", events)))  # as a server's reply: "Pegging …" goes
        self._queue.append((at + (VERDICT_SECONDS * self.pace if moves else 0.0), LessonNews(outcome)))

    # -- what the learner does ------------------------------------------------------------------------

    def act(self, action: Action, ply: int | None = None) -> None:
        """The learner's action at the table (the table's ``Send``); ignored while the lesson is not waiting for one.

        ``ply`` (the position the table chose it on) means nothing here: nothing moves while the learner acts.
        """
        if self.busy or self.run.failed or self.run.step is None or self.is_quiz(self.run.step):
            return
        outcome = self.run.act(action)
        if outcome.refusal is not None:
            now = self.clock()
            self._queue.append((now, Failed("act", outcome.refusal.code, outcome.refusal.message)))
        self._show(outcome.moves, outcome)

    def answer(self, choice: int) -> None:
        """The learner's answer to the question; what follows it is then shown, then the verdict."""
        if self.busy or self.run.failed or not self.is_quiz(self.run.step):
            return
        self.answered = choice
        outcome = self.run.answer(choice)
        self._show(outcome.moves, outcome, first_delay=0.3)

    def retry(self) -> None:
        """Back to the start of the step (after a wrong action or answer)."""
        self._queue.clear()
        self.answered = None
        self._queue.append((self.clock(), StateChanged(self.run.retry(), self.table, True)))

    # The table's other requests mean nothing at a lesson's table.
    def rematch(self) -> None:
        """Not at a lesson (the lesson's own Start again restarts it)."""

    def leave(self) -> None:
        """Nothing to leave: the lesson's view goes back to the list itself."""

    def close(self) -> None:
        """Nothing to close."""


# -- what the lesson shows, and what input means in it -------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """Answer the question with choice ``choice`` (from 0)."""

    choice: int


@dataclass(frozen=True)
class NextLesson:
    """Go on to the next lesson (the list after the last)."""


@dataclass(frozen=True)
class TryAgain:
    """Back to the start of the step, after a wrong answer."""


@dataclass(frozen=True)
class StartAgain:
    """The whole lesson again, from its first step."""


@dataclass(frozen=True)
class ToList:
    """Back to the list of lessons."""


@dataclass(frozen=True)
class ToggleBox:
    """Hide the explanation to look at the board, or show it again."""


LessonIntent = Answer | NextLesson | TryAgain | StartAgain | ToList | ToggleBox


class Box(NamedTuple):
    """The explanation over the board: after a wrong answer, or when the lesson is done."""

    title: str
    tone: Tone
    what: str  # what happened, in the table's words ("" for none)
    words: str  # the lesson's: why it is wrong, or the explanation
    cite: str  # where the rulebook says it
    quote: str  # the rulebook's own words
    more: str  # where else to read
    buttons: tuple[tuple[str, str], ...]  # (name, label), the first is Enter's


#: The lesson's buttons (panel, question and box), by name -> what a click means.
BUTTON_INTENTS: dict[str, LessonIntent] = {
    "rematch": StartAgain(), "lobby": ToList(), "next": NextLesson(), "retry": TryAgain(), "again": StartAgain(),
    "list": ToList(), "hide": ToggleBox(),
}
RULES_MORE = "More in the rules (F1), section {section} of the project's rules page."
LOOK = "Space or Esc: look at the board"


class LessonState:
    """What a lesson shows besides the table, and what a key or a lesson button means."""

    def __init__(self, lesson: Any, number: int, total: int, session: LessonSession, *,
                 last: bool | None = None) -> None:
        self.lesson = lesson
        self.number, self.total = number, total
        #: The last lesson of its list: Enter goes back to the list (both games' lessons count in ``total``).
        self.last = number >= total if last is None else last
        self.session = session
        self.news: Outcome | None = None  # the latest verdict
        self.box_open = False

    # -- reading -------------------------------------------------------------------------------------

    @property
    def run(self) -> LessonRun:
        """The lesson being played."""
        return self.session.run

    @property
    def phase(self) -> Phase:
        """What the lesson waits for: a task at the table, an answer, the moves being shown, or a verdict read."""
        if self.session.busy:
            return "busy"
        if self.run.failed:
            return "wrong"
        step = self.run.step
        if step is None:
            return "done"
        return "quiz" if self.session.is_quiz(step) else "task"

    @property
    def table_input(self) -> bool:
        """True while the learner acts at the table (keys and clicks go to it)."""
        return self.phase == "task" and not self.box_open

    def head(self) -> str:
        """'Lesson 9 of 18 · step 1 of 2'."""
        steps = len(self.lesson.steps)
        at = min(self.run.step_index + 1, steps)
        return f"Lesson {self.number} of {self.total}" + (f" · step {at} of {steps}" if steps > 1 else "")

    def task(self) -> str:
        """The step's task or question (the last one once the lesson is done)."""
        steps = self.lesson.steps
        step = steps[min(self.run.step_index, len(steps) - 1)]
        return step.question if self.session.is_quiz(step) else step.task

    def choices(self) -> tuple[str, ...]:
        """The question's answers, numbered for their keys (none at a task)."""
        steps = self.lesson.steps
        step = steps[min(self.run.step_index, len(steps) - 1)]
        if not self.session.is_quiz(step):
            return ()
        return tuple(f"{i + 1}   {choice}" for i, choice in enumerate(step.choices))

    def chosen(self) -> int | None:
        """The answer given to the question on screen, if any."""
        return self.session.answered if self.choices() and self.phase in ("busy", "wrong", "done") else None

    def note(self) -> tuple[str, Tone]:
        """The line under the task: what the last try was, or what to do next."""
        phase, news = self.phase, self.news
        if phase == "busy":
            return "Watch the table…", "plain"
        if phase == "wrong":
            return ("" if self.box_open else "Not quite. Enter: try again · Space: read why"), "warn"
        if phase == "done":
            return ("" if self.box_open else "✓ Lesson done. Enter: next lesson · Space: the explanation"), "good"
        if news is not None and news.verdict == "refused":
            return "Not quite. " + (news.why or "The game refused that: see below."), "warn"
        if news is not None and news.verdict == "next":
            return f"✓ Step {self.run.step_index} done.", "good"
        if phase == "quiz":
            return "Answer with a click, or keys 1 to " + str(len(self.choices())) + ".", "plain"
        return "", "plain"

    def box(self) -> Box | None:
        """The explanation to show over the board, or None."""
        if not self.box_open or self.news is None:
            return None
        lesson, news = self.lesson, self.news
        cite, more = self.cite(), self.more()
        quote = f"“{lesson.quote}”"
        if self.phase == "done":
            buttons: tuple[tuple[str, str], ...] = (
                ("next", "Next lesson (Enter)"), ("again", "Start again (R)"), ("list", "Lessons (L)"))
            if self.last:  # the last lesson: Enter goes back to the list
                buttons = (("list", "Lessons (Enter)"), ("again", "Start again (R)"))
            title = "Right!" if news.choice is not None else "Well done"
            return Box(title, "good", "", lesson.explain, cite, quote, more, buttons)
        if self.phase == "wrong":
            return Box("Not quite", "warn", self._what(news), news.why, cite, quote, "",
                       (("retry", "Try again (Enter)"), ("list", "Lessons (L)")))
        return None

    def cite(self) -> str:
        """Where the quote comes from (a hook: a Ninety-Nine lesson names its seed document)."""
        return f"The 1963 rulebook, under {self.lesson.heading}:"

    def more(self) -> str:
        """Where else to read (a hook: a Ninety-Nine lesson names its section of docs/ninety-nine.md)."""
        return RULES_MORE.format(section=self.lesson.rules)

    def focus(self) -> tuple[int, ...]:
        """The squares the latest moves were about (pegs placed or penalised, the winning line): keep them in view."""
        squares = [e.square for m in (self.news.moves if self.news is not None else ())
                   for e in m.events if isinstance(e, Played | Penalty) and e.square >= 0]
        return tuple(dict.fromkeys(squares + list(self.run.game.winning_line or ())))

    def _what(self, news: Outcome) -> str:
        # What the wrong action did, in the table's own words (the penalty with its rule, the peg …).
        if news.choice is not None:
            step = self.lesson.steps[self.run.step_index]
            assert self.session.is_quiz(step)
            return f"You answered: {step.choices[news.choice]}"
        you = self.lesson.table.you
        mine = [m for m in news.moves if m.seat == you]
        if not mine:
            return ""
        colours = list(self.lesson.table.colours)
        lines = [wording.event_line(shown_to(e, you), self.session.table, you, colours) for e in mine[0].events
                 if isinstance(e, Played | Drew | Discarded | Penalty | Won)]
        return "\n".join(lines)

    # -- changes ---------------------------------------------------------------------------------------

    def take(self, news: LessonNews) -> bool:
        """The verdict is in; True when the lesson was just done (its progress to be kept)."""
        self.news = news.outcome
        self.box_open = news.outcome.verdict in ("wrong", "done")
        return news.outcome.verdict == "done"

    def reset(self) -> None:
        """A new try (the step's, or the whole lesson's): no verdict on screen."""
        self.news = None
        self.box_open = False

    # -- input ---------------------------------------------------------------------------------------

    def key(self, name: str) -> LessonIntent | None:
        """What a key means in the lesson (None: the table may have it, when its input is on)."""
        phase = self.phase
        if name == "r":
            return StartAgain()
        if name == "l":
            return ToList()
        if phase in ("wrong", "done"):
            if name in ("space", "escape") and (name == "space" or self.box_open):
                return ToggleBox()
            if name == "enter":
                return NextLesson() if phase == "done" else TryAgain()
        if phase == "quiz" and name in KEY_CHOICES[:len(self.choices())]:
            return Answer(KEY_CHOICES.index(name))
        return None

    def button(self, name: str) -> LessonIntent | None:
        """What a click on the lesson's button ``name`` means ("choice-2", "next" …)."""
        if name.startswith("choice-"):
            return Answer(int(name.removeprefix("choice-"))) if self.phase == "quiz" else None
        if name == "next" and self.last:
            return ToList()
        return BUTTON_INTENTS.get(name)
