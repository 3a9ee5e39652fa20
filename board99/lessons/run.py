"""A lesson being played: the engine's game at the prepared position, the learner's actions judged step by step.

``LessonRun`` builds the ``Game`` the lesson's table describes (players,
mode, the deck in the lesson's order, the first seat), carries out the
scripted actions that reach the position through the engine (an action the
engine refuses is a ``LessonError``: the engine decides what is legal, not
the lesson), then takes the learner's actions (``act``) or answers
(``answer``) and says what they were (``Outcome``). After a right action the
other seats' replies are carried out (scripted, or chosen by the table's
bot) so the learner sees what follows. Pure: no I/O, no clock.

>>> from board99.lessons import load
>>> run = LessonRun(load("02-cards.toml"))
>>> run.view.hand, run.view.my_turn
((40,), True)
>>> from board99 import Play
>>> run.act(Play(40, 38)).verdict, run.act(Play(40, 41)).verdict
('refused', 'done')
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..actions import Action, Discard, Draw, Play
from ..bots import make_bot
from ..errors import Refused
from ..events import Drew, Event, Penalty
from ..game import Game
from ..view import SeatView
from .model import Goal, Lesson, LessonError, PlayStep, QuizStep, Scripted, Step, kind_of, said

Verdict = Literal["refused", "wrong", "next", "done"]


class Move(NamedTuple):
    """One action carried out: who, what, what it caused, and the learner's view after it."""

    seat: int
    action: Action
    events: tuple[Event, ...]
    view: SeatView


class Outcome(NamedTuple):
    """What the learner's action or answer was.

    ``verdict``: "refused" (the engine refused it and nothing changed: try again at once), "wrong"
    (it happened, but it is not the task: ``retry`` goes back to the step's start), "next" (right:
    the next step begins) or "done" (right, and the lesson is done). ``moves`` are the actions
    carried out, in order: the learner's own, then the replies (or a question's ``then``).
    """

    verdict: Verdict
    moves: tuple[Move, ...] = ()
    refusal: Refused | None = None  # the engine's refusal, when the action met one
    why: str = ""  # the lesson's words on a wrong (or refused) answer
    choice: int | None = None  # the answer given, for a question

    @property
    def right(self) -> bool:
        """True when the action or answer did what the step asked."""
        return self.verdict in ("next", "done")


def matches(goal: Goal, action: Action, events: tuple[Event, ...], refusal: Refused | None, you: int) -> bool:
    """True when ``action`` (refused with ``refusal``, or causing ``events``) is what ``goal`` asks for.

    An action that caused a penalty of the learner's matches only a goal naming that offence, and a
    refused one only a goal naming that refusal: the quiet default is a proper action.
    """
    if goal.actions and kind_of(action) not in goal.actions:
        return False
    card = action.card if isinstance(action, Play | Discard) else None
    if goal.cards and card not in goal.cards:
        return False
    if goal.squares and not (type(action) is Play and action.square in goal.squares):
        return False
    if refusal is not None:
        return goal.refused == refusal.code
    if goal.refused is not None:
        return False
    offence = next((e.offence for e in events if type(e) is Penalty and e.seat == you), None)
    if goal.offence != offence:
        return False
    kinds = {e.kind for e in events}
    return all(kind in kinds for kind in goal.events)


class LessonRun:
    """One lesson from its prepared position to its last step."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.you = lesson.table.you
        self.restart()

    # -- state ---------------------------------------------------------------------------------

    def restart(self) -> SeatView:
        """Back to the lesson's start: a new game, the setup carried out again, step 1."""
        t = self.lesson.table
        self.game = Game(t.players, t.mode, seed=t.seed, deck=t.deck, first=t.first)
        self.step_index = 0
        self.failed = False  # a wrong action happened: only retry() or restart() go on
        moves = self._script(self.lesson.setup, "table.setup")
        #: Everything that led to the position: the deal, then each setup action's events.
        self.setup_events: tuple[Event, ...] = self.game.opening + tuple(e for m in moves for e in m.events)
        self.setup_moves = moves
        self._snapshot = self.game.copy()
        return self.view

    def retry(self) -> SeatView:
        """Back to the start of the current step (after a wrong action), the earlier steps kept."""
        self.game = self._snapshot.copy()
        self.failed = False
        return self.view

    @property
    def view(self) -> SeatView:
        """What the learner sees now."""
        return self.game.view(self.you)

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

    def act(self, action: Action) -> Outcome:
        """The learner does ``action`` at the table (a task step): judged by the engine, then by the step's goal."""
        step = self._current(PlayStep)
        assert isinstance(step, PlayStep)
        you = self.you
        try:
            self.game.check(you, action)
        except Refused as refusal:
            if any(matches(g, action, (), refusal, you) for g in step.goals):
                return self._advance(step, (), refusal)
            return Outcome("refused", (), refusal, self._why(step, action, (), refusal))
        events = self.game.apply(you, action)
        move = Move(you, action, events, self.view)
        if any(matches(g, action, events, None, you) for g in step.goals):
            return self._advance(step, (move,))
        self.failed = True
        return Outcome("wrong", (move,), None, self._why(step, action, events, None))

    def answer(self, choice: int) -> Outcome:
        """The learner answers a question with choice ``choice`` (from 0); what follows it is carried out either way."""
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

    def _why(self, step: PlayStep, action: Action, events: tuple[Event, ...], refusal: Refused | None) -> str:
        # The words are filled in from the move made and the hand it left (model.said), so they fit it.
        hand = self.game.hand(self.you)
        for wrong in step.wrong:
            if matches(wrong.goal, action, events, refusal, self.you):
                return said(wrong.why, action, hand)
        return "" if refusal is not None else said(step.miss, action, hand)

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
            action = self._resolve(item, where)
            try:
                events = self.game.apply(item.seat, action)
            except Refused as exc:
                raise LessonError(self.lesson.name, where, f"the engine refuses it: {exc.message}") from None
            if item.expect is not None:
                drawn = next((e.card for e in events if isinstance(e, Drew | Penalty)), None)
                if drawn != item.expect:
                    raise LessonError(self.lesson.name, where, f"the deck gave card {drawn}, not {item.expect}")
            moves.append(Move(item.seat, action, events, self.view))
        return tuple(moves)

    def _resolve(self, item: Scripted, where: str) -> Action:
        game = self.game
        if item.kind == "bot":
            if game.turn != item.seat:
                raise LessonError(self.lesson.name, where, f"a bot moves on its own turn; it is S{game.turn}'s")
            t = self.lesson.table
            return make_bot(t.bot, seed=t.seed + game.ply).choose(game.view(item.seat))
        card = item.card
        if item.last:
            hand = game.hand(item.seat)
            if not hand:
                raise LessonError(self.lesson.name, where, f"S{item.seat} holds no card")
            card = hand[-1]
        if item.kind == "draw":
            return Draw()
        assert card is not None
        if item.kind == "discard":
            return Discard(card)
        assert item.square is not None
        return Play(card, item.square)


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
