"""A Ninety-Nine lesson being played: the engine's game at the lesson's position, the learner judged step by step.

``LessonRun`` stages the position (``position.stage``), carries out the
setup's scripted actions through the engine (one the engine refuses is a
``LessonError``: the engine decides what is legal, not the lesson), then
takes the learner's actions (``act``) or answers (``answer``) and says what
they were (an ``Outcome``, the same shape as the peg-board lessons'). After
a right action the other seats' replies are carried out, scripted or chosen
by the table's bot. Pure: no I/O, no clock.

>>> from board99.ninety_nine.lessons import load
>>> run = LessonRun(load("04-three-card.toml"))
>>> run.view.total, run.view.my_turn
(97, True)
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..actions import Action, Play
from ..bots import BOTS
from ..cards import rank_of
from ..errors import Refused
from ..events import Event
from ..game import Game
from ..view import NinetyView, view_of
from .model import Goal, Lesson, LessonError, PlayStep, QuizStep, Scripted, Step, kind_of
from .position import stage

Verdict = Literal["refused", "wrong", "next", "done"]


class Move(NamedTuple):
    """One action carried out: who, what, what it caused, and the learner's view after it."""

    seat: int
    action: Action
    events: tuple[Event, ...]
    view: NinetyView


class Outcome(NamedTuple):
    """What the learner's action or answer was (``board99.lessons.Outcome``'s meaning, for this game)."""

    verdict: Verdict
    moves: tuple[Move, ...] = ()
    refusal: Refused | None = None
    why: str = ""
    choice: int | None = None

    @property
    def right(self) -> bool:
        """True when the action or answer did what the step asked."""
        return self.verdict in ("next", "done")


def matches(goal: Goal, game: Game, action: Action, events: tuple[Event, ...], refusal: Refused | None,
            offence: str | None) -> bool:
    """True when ``action`` (refused with ``refusal``, or with ``offence`` causing ``events``) is what ``goal``
    asks for. ``game`` is the position it was tried on. A refused action matches only a goal naming that refusal,
    and one that cost something at a penalty table only a goal naming that offence: the default is proper play."""
    if goal.actions and kind_of(action) not in goal.actions:
        return False
    card = action.card if type(action) is Play else None
    if goal.cards and card not in goal.cards:
        return False
    if goal.ranks and (card is None or rank_of(card) not in goal.ranks):
        return False
    if goal.values and not (type(action) is Play and action.value in goal.values):
        return False
    if goal.draw is not None and not (type(action) is Play and action.draw == goal.draw):
        return False
    if refusal is not None:
        return goal.refused == refusal.code
    if goal.refused is not None or goal.offence != offence:
        return False
    if goal.totals and not (type(action) is Play and game.table.after(
            game.total, game.effect(action.card), action.value) in goal.totals):
        return False
    kinds = {e.kind for e in events}
    return all(kind in kinds for kind in goal.events)


class LessonRun:
    """One lesson from its position to its last step."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.you = lesson.table.you
        self.restart()

    # -- state ---------------------------------------------------------------------------------

    def restart(self) -> NinetyView:
        """Back to the lesson's start: the position staged again, the setup carried out, step 1."""
        self.game = stage(self.lesson)
        self.step_index = 0
        self.failed = False
        moves = self._script(self.lesson.setup, "position.setup")
        #: Everything that led to the position: the deal's events (a dealt position), then the setup's.
        self.setup_events: tuple[Event, ...] = self.game.opening + tuple(e for m in moves for e in m.events)
        self.setup_moves = moves
        self._snapshot = self.game.copy()
        return self.view

    def retry(self) -> NinetyView:
        """Back to the start of the current step (after a wrong action), the earlier steps kept."""
        self.game = self._snapshot.copy()
        self.failed = False
        return self.view

    @property
    def view(self) -> NinetyView:
        """What the learner sees now."""
        return view_of(self.game, self.you)

    @property
    def step(self) -> Step | None:
        """The step being played, or None once the lesson is done."""
        steps = self.lesson.steps
        return steps[self.step_index] if self.step_index < len(steps) else None

    @property
    def done(self) -> bool:
        """True once every step was done."""
        return self.step_index >= len(self.lesson.steps)

    # -- the learner ---------------------------------------------------------------------------

    def judge(self, action: Action) -> tuple[Refused | None, str | None]:
        """The engine's word on ``action`` now, changing nothing: its refusal, or the offence it would be."""
        try:
            return None, self.game.check(self.you, action)
        except Refused as refusal:
            return refusal, None

    def accepted(self, action: Action) -> bool:
        """True when the current task would take ``action`` as right (tried on a copy: the run is unchanged)."""
        step = self.step
        if not isinstance(step, PlayStep):
            return False
        refusal, offence = self.judge(action)
        game = self.game.copy()
        events = () if refusal is not None else game.apply(self.you, action)
        return any(matches(g, self.game, action, events, refusal, offence) for g in step.goals)

    def act(self, action: Action) -> Outcome:
        """The learner does ``action`` at the table (a task step): judged by the engine, then by the step's goals."""
        step = self._current(PlayStep)
        assert isinstance(step, PlayStep)
        before = self.game.copy()
        refusal, offence = self.judge(action)
        if refusal is not None:
            if any(matches(g, before, action, (), refusal, None) for g in step.goals):
                return self._advance(step, (), refusal)
            return Outcome("refused", (), refusal, self._why(step, before, action, (), refusal, None))
        events = self.game.apply(self.you, action)
        move = Move(self.you, action, events, self.view)
        if any(matches(g, before, action, events, None, offence) for g in step.goals):
            return self._advance(step, (move,))
        self.failed = True
        return Outcome("wrong", (move,), None, self._why(step, before, action, events, None, offence))

    def answer(self, choice: int) -> Outcome:
        """The learner answers a question with choice ``choice`` (from 0); what follows is carried out either way."""
        step = self._current(QuizStep)
        assert isinstance(step, QuizStep)
        if not 0 <= choice < len(step.choices):
            raise ValueError(f"choice: {choice!r} is not one of 0-{len(step.choices) - 1}")
        moves = self._script(step.then, f"step[{self.step_index + 1}].then")
        if choice == step.answer:
            return self._advance(step, moves, choice=choice)
        self.failed = True
        return Outcome("wrong", moves, None, step.why[choice], choice)

    def _current(self, kind: type) -> Step:
        step = self.step
        if step is None:
            raise ValueError("the lesson is done: restart() it to play it again")
        if self.failed:
            raise ValueError("a wrong action happened: retry() the step first")
        if not isinstance(step, kind):
            raise ValueError(f"step {self.step_index + 1} is {'a question' if isinstance(step, QuizStep) else 'a task'}")
        return step

    def _why(self, step: PlayStep, before: Game, action: Action, events: tuple[Event, ...],
             refusal: Refused | None, offence: str | None) -> str:
        for wrong in step.wrong:
            if matches(wrong.goal, before, action, events, refusal, offence):
                return wrong.why
        return "" if refusal is not None else step.miss

    def _advance(self, step: Step, moves: tuple[Move, ...], refusal: Refused | None = None,
                 choice: int | None = None) -> Outcome:
        if isinstance(step, PlayStep):
            moves += self._script(step.reply, f"step[{self.step_index + 1}].reply")
        self.step_index += 1
        self._snapshot = self.game.copy()
        return Outcome("done" if self.done else "next", moves, refusal, "", choice)

    # -- scripted actions ------------------------------------------------------------------------

    def _script(self, script: tuple[Scripted, ...], field: str) -> tuple[Move, ...]:
        moves = []
        for i, item in enumerate(script):
            where = f"{field}[{i + 1}] {item.text!r}"
            action = item.action
            if action is None:
                if self.game.turn != item.seat:
                    raise LessonError(self.lesson.name, where, f"a bot plays on its own turn; it is "
                                                               f"S{self.game.turn}'s")
                t = self.lesson.table
                action = BOTS[t.bot](seed=t.seed + self.game.ply).choose(view_of(self.game, item.seat))
            try:
                events = self.game.apply(item.seat, action)
            except Refused as exc:
                raise LessonError(self.lesson.name, where, f"the engine refuses it: {exc.message}") from None
            moves.append(Move(item.seat, action, events, self.view))
        return tuple(moves)


def solve(lesson: Lesson) -> tuple[LessonRun, list[Outcome]]:
    """Play ``lesson``'s own solution (each task's ``solution``, each question's answer); the run and outcomes."""
    run = LessonRun(lesson)
    outcomes = []
    while (step := run.step) is not None:
        outcome = run.act(step.solution) if isinstance(step, PlayStep) else run.answer(step.answer)
        outcomes.append(outcome)
        if not outcome.right:
            break
    return run, outcomes


__all__ = ["LessonRun", "Move", "Outcome", "Verdict", "matches", "solve"]
