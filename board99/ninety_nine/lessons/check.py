"""Is each Ninety-Nine lesson right? Its answers legal and its wrong answers wrong, on the engine (pure, no I/O).

``check_lesson`` plays a lesson's own solution step by step and at each task:

- the solution is one the engine takes (not refused, unless a goal asks for
  that refusal) and the step's goals accept;
- every ``[[step.wrong]]`` example is one the goals do not accept, and the
  words the learner gets for it are that entry's;
- every proper action the learner has there (``view.legal_actions()``) is
  accepted, or gets words (a ``[[step.wrong]]`` or the step's ``miss``);
- at a strategy step (a ``hint:`` lesson's task, a *choice*, unless it says
  ``weigh = false``: one player's taste, shown as such), every proper
  move the lesson calls wrong is weighed against the solution by playouts
  (``weigh``): on the same guesses at the hidden cards (the strong bot's,
  ``search.SearchBot._world``: the learner's own view, the others' hands read
  from their plays), each move is played out by the sound policy for every
  seat until the learner fails or the round ends, scoring the share of the
  others who failed first (``SearchBot._playout``). No move called wrong may
  be better than the solution by more than ``MARGIN`` beyond ``SURE_Z``
  standard errors.

A question's answer is checked by playing it (its ``then`` through the
engine). ``other_answers`` plays every other right answer of a task: every later
step must still have a right answer after it. docs/lessons.md gives the last figures (``bench`` runs none: the
suite's test runs this check).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..actions import Action
from ..search import SearchBot, _base_game
from .model import Lesson, PlayStep, QuizStep
from .run import LessonRun, matches

#: A move the lesson calls wrong may beat the solution by at most this share of the others' failures ...
MARGIN = 0.05
#: ... beyond this many standard errors of the difference, over ``GUESSES`` guesses.
SURE_Z = 2.0
GUESSES = 160

Kind = Literal["choice", "exercise", "offence", "question"]


class Weighed(NamedTuple):
    """One move against the solution: its mean score and the mean difference (solution - move) with its SE."""

    action: Action
    score: float
    diff: float
    se: float


class StepCheck(NamedTuple):
    """One step of one lesson, checked."""

    lesson: str
    step: int  # 1-based
    kind: Kind
    score: float | None  # the solution's, at a choice
    weighed: tuple[Weighed, ...]  # the moves called wrong, at a choice
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when nothing is wrong with the step."""
        return not self.problems

    def line(self) -> str:
        """The step in one line, for the test's message and the docs."""
        head = f"{self.lesson} step {self.step} ({self.kind})"
        if self.score is not None:
            worst = min(self.weighed, key=lambda w: w.diff, default=None)
            head += f": solution {self.score:.2f}"
            if worst is not None:
                head += (f"; closest move called wrong {worst.action.text()} {worst.score:.2f} "
                         f"({worst.diff * 100:+.1f} points behind, se {worst.se * 100:.1f})")
        return head + ("" if self.ok else "  FAILS: " + "; ".join(self.problems))


def step_kind(lesson: Lesson, step: PlayStep | QuizStep) -> Kind:
    """What a step asks: a choice of play (a strategy lesson's task), a rules exercise, an offence, or a question."""
    if isinstance(step, QuizStep):
        return "question"
    if any(g.offence is not None or g.refused is not None for g in step.goals):
        return "offence"
    return "choice" if lesson.topics[0].startswith("hint:") and step.weigh else "exercise"


def weigh(run: LessonRun, moves: list[Action], guesses: int = GUESSES, seed: int = 0) -> list[list[float]]:
    """Per move, per guess at the hidden cards: its playout's score from the learner's view (the same guesses)."""
    view = run.view
    bot = SearchBot(seed=seed, samples=guesses, budget=None)
    bot.memory.observe(view)
    base = _base_game(view)
    scores: list[list[float]] = [[] for _ in moves]
    for _ in range(guesses):
        world = bot._world(view, base)
        for i, move in enumerate(moves):
            scores[i].append(bot._playout(world.copy(), view, move))  # type: ignore[arg-type]
    return scores


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    m = sum(d) / n
    var = sum((x - m) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    return m, (var / n) ** 0.5


def check_step(run: LessonRun, guesses: int = GUESSES) -> StepCheck:
    """Check the step ``run`` is at (see the module's words)."""
    lesson, index = run.lesson, run.step_index
    step = lesson.steps[index]
    kind = step_kind(lesson, step)
    if isinstance(step, QuizStep):
        return StepCheck(lesson.name, index + 1, kind, None, (), ())
    problems: list[str] = []
    refusal, _ = run.judge(step.solution)
    if refusal is not None and not any(g.refused == refusal.code for g in step.goals):
        problems.append(f"the engine refuses the solution {step.solution.text()}: {refusal.message}")
    if not run.accepted(step.solution):
        problems.append(f"the goals do not accept the solution {step.solution.text()}")
    for wrong in step.wrong:
        if wrong.example is None:
            continue
        if run.accepted(wrong.example):
            problems.append(f"the wrong example {wrong.example.text()} is accepted as right")
        elif _words(run, step, wrong.example) != wrong.why:
            problems.append(f"the wrong example {wrong.example.text()} gets another entry's words")
    view = run.view
    called_wrong = [a for a in view.legal_actions() if not run.accepted(a)]
    for action in called_wrong:
        if not _words(run, step, action):
            problems.append(f"{action.text()} is called wrong with no words (add a [[step.wrong]] or a miss)")
    weighed: list[Weighed] = []
    score = None
    if kind == "choice" and called_wrong and view.my_turn:
        moves = [step.solution, *called_wrong]
        scores = weigh(run, moves, guesses, seed=index)
        score = sum(scores[0]) / len(scores[0])
        for move, theirs in zip(called_wrong, scores[1:]):
            diff, se = _paired(scores[0], theirs)
            weighed.append(Weighed(move, sum(theirs) / len(theirs), diff, se))
            if diff < -MARGIN - SURE_Z * se:
                problems.append(f"{move.text()} is called wrong but scores {-diff * 100:.1f} points better than "
                                f"the solution (se {se * 100:.1f})")
    return StepCheck(lesson.name, index + 1, kind, score, tuple(weighed), tuple(problems))


def _words(run: LessonRun, step: PlayStep, action: Action) -> str:
    """The words the learner would get for ``action`` (tried on a copy)."""
    refusal, offence = run.judge(action)
    before = run.game
    events = () if refusal is not None else before.copy().apply(run.you, action)
    for wrong in step.wrong:
        if matches(wrong.goal, before, action, events, refusal, offence):
            return wrong.why
    return "" if refusal is not None else step.miss


def other_answers(lesson: Lesson) -> list[str]:
    """Problems with the right answers other than the solutions: after each, every later step must still have a
    right answer (its solution, else another proper action its goals take)."""
    problems = []
    run = LessonRun(lesson)
    for index, step in enumerate(lesson.steps):
        if isinstance(step, PlayStep) and run.view.my_turn:
            for action in run.view.legal_actions():
                if action == step.solution or not run.accepted(action):
                    continue
                other = LessonRun(lesson)
                for earlier in lesson.steps[:index]:
                    other.act(earlier.solution) if isinstance(earlier, PlayStep) else other.answer(earlier.answer)
                outcome = other.act(action)
                while outcome.right and (later := other.step) is not None:
                    if isinstance(later, QuizStep):
                        outcome = other.answer(later.answer)
                        continue
                    moves = [later.solution, *other.view.legal_actions()]
                    right = next((m for m in moves if other.judge(m)[0] is None and other.accepted(m)), None)
                    if right is None:
                        break
                    outcome = other.act(right)
                if other.step is not None:
                    problems.append(f"{lesson.name}: after {action.text()} at step {index + 1}, step "
                                    f"{other.step_index + 1} has no right answer left")
        outcome = run.act(step.solution) if isinstance(step, PlayStep) else run.answer(step.answer)
    return problems


def check_lesson(lesson: Lesson, guesses: int = GUESSES) -> list[StepCheck]:
    """Every step of ``lesson`` checked, its solution played between them."""
    run = LessonRun(lesson)
    checks = []
    while (step := run.step) is not None:
        checks.append(check_step(run, guesses))
        outcome = run.act(step.solution) if isinstance(step, PlayStep) else run.answer(step.answer)
        if not outcome.right:
            checks.append(StepCheck(lesson.name, run.step_index + 1, step_kind(lesson, step), None, (),
                                    ("the step's own solution is not right",)))
            break
    return checks


__all__ = ["GUESSES", "MARGIN", "SURE_Z", "StepCheck", "Weighed", "check_lesson", "check_step", "other_answers",
           "step_kind", "weigh"]
