"""Is each lesson right about play? Every step weighed the way the review weighs a move (pure, no I/O).

At each task step the learner is on turn for, every legal move (or, in a quick
check, the moves worth comparing: the search bot's candidates, the solution
and the lesson's wrong examples) is scored by the review's estimator
(``review.PlayoutEstimator``: the learner's own view, the hidden cards dealt
at random, the deal played out by the search bot's playouts), all on the same
guessed futures. Then:

- the lesson's solution must be within ``BEST_MARGIN`` of the best move found;
- at a *choice* step (a playing-hint lesson: the lesson says which move is
  better) every move the lesson calls wrong must be at least ``WRONG_MARGIN``
  worse than the solution.

A move whose comparison is still in doubt (its difference within two
standard errors of the margin) gets a second look on fresh guesses, doubled
up to ``Options.most``, as the review does. Other steps are not choices of
play: an *exercise* (a rules lesson's task, "draw", "peg a centre square")
holds the solution to ``BEST_MARGIN`` but calls a move wrong only for not
being the task, and its words say so; an *offence* step (commit a penalty, or
meet a refusal, on purpose) and a question are rules shown, not play, and are
listed without a verdict. docs/lessons.md states the margins and the last
measured results (``bench/lesson_check.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, NamedTuple

from ..actions import Action
from ..review import Estimator, PlayoutEstimator, candidate_moves
from .model import Lesson, PlayStep, QuizStep
from .run import LessonRun, matches

#: The solution may trail the best move found by less than this (points of win chance, 0-1): the review's
#: inaccuracy threshold, so the review would never mark the lesson's own solution.
BEST_MARGIN = 0.05
#: At a choice step a move the lesson calls wrong trails the solution by at least this: the review would mark it.
WRONG_MARGIN = 0.05
#: A comparison is settled when its difference is this many standard errors away from its margin.
SURE_Z = 2.0
#: The moves furthest ahead of the solution on the first look that get a second look when they may beat it.
LOOK_AGAIN = 4

Kind = Literal["choice", "exercise", "offence", "question"]


class Options(NamedTuple):
    """How hard the check looks."""

    guesses: int = 64  # first look: every move weighed, on the same guesses
    second: int = 256  # a comparison in doubt: the two moves again on this many fresh guesses ...
    most: int = 2048  # ... doubled up to this many
    every: bool = True  # every legal move (the bench); False: the candidates, solution and examples (the suite)
    seed: int = 0


#: The bench's effort: every legal move (the suite's quick check passes its own Options).
DEFAULT = Options()


class Weighed(NamedTuple):
    """One move against the solution: its score, the difference (solution - move) and that difference's SE."""

    action: Action
    right: bool  # the lesson accepts it
    score: float
    diff: float
    se: float
    guesses: int


class StepCheck(NamedTuple):
    """One step of one lesson, checked."""

    lesson: str  # the file name
    step: int  # 1-based
    kind: Kind
    solution: Action | None
    score: float | None  # the solution's score
    best: Weighed | None  # the best move found (may be the solution itself: diff 0)
    moves: tuple[Weighed, ...]  # every move weighed, best first
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when the step meets its margins."""
        return not self.problems

    def line(self) -> str:
        """The step in one line, for the bench and the test's message."""
        head = f"{self.lesson} step {self.step} ({self.kind})"
        if self.score is None or self.solution is None or self.best is None:
            return f"{head}: not weighed (a rule shown, not a choice of play)"
        wrong = [w for w in self.moves if not w.right]
        closest = min(wrong, key=lambda w: w.diff, default=None)
        said = (f"{head}: {self.solution.text()} {self.score:.0%}; best {self.best.action.text()} "
                f"({-self.best.diff * 100:+.1f} points); {len(self.moves)} moves")
        if closest is not None:
            said += (f"; closest wrong {closest.action.text()} {closest.diff * 100:.1f} behind "
                     f"(se {closest.se * 100:.1f}, {closest.guesses} guesses)")
        return said + ("" if self.ok else "  FAILS: " + "; ".join(self.problems))


def step_kind(lesson: Lesson, step: PlayStep | QuizStep, on_turn: bool) -> Kind:
    """What a step asks: a choice of play, a rules exercise, an offence or refusal on purpose, or a question."""
    if isinstance(step, QuizStep):
        return "question"
    if not on_turn or any(g.offence is not None or g.refused is not None for g in step.goals):
        return "offence"
    return "choice" if lesson.topics[0].startswith("hint:") else "exercise"


def accepted(run: LessonRun, step: PlayStep, action: Action) -> bool:
    """True when the step would take ``action`` as right (played on a copy: the run is unchanged)."""
    game = run.game.copy()
    events = game.apply(run.you, action)
    return any(matches(goal, action, events, None, run.you) for goal in step.goals)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """mean(a - b) and its standard error, guess by guess."""
    d = [x - y for x, y in zip(a, b)]
    m = _mean(d)
    n = len(d)
    var = sum((x - m) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    return m, (var / n) ** 0.5


def check_step(run: LessonRun, estimator: Estimator | None = None, options: Options = DEFAULT) -> StepCheck:
    """Check the step ``run`` is at (a task the learner is on turn for is weighed; see the module's words)."""
    lesson, index = run.lesson, run.step_index
    step = lesson.steps[index]
    view = run.view
    kind = step_kind(lesson, step, view.my_turn)
    if kind in ("offence", "question"):
        return StepCheck(lesson.name, index + 1, kind, None, None, None, (), ())
    assert isinstance(step, PlayStep)
    estimator = estimator or PlayoutEstimator()
    solution = step.solution
    if options.every:
        moves = view.legal_actions()
    else:
        moves = [m for m in candidate_moves(view) if m is not None]
        moves += [w.example for w in step.wrong if w.example is not None and view.ruling(w.example).legal]
    moves = [solution] + [m for m in dict.fromkeys(moves) if m != solution]
    seed = random.Random(f"board99-lesson-check/{options.seed}/{lesson.name}/{index}").getrandbits(64)
    scores = estimator.outcomes(view, moves, options.guesses, seed)
    right = [accepted(run, step, m) for m in moves]
    weighed: list[Weighed] = []
    for i, move in enumerate(moves):
        diff, se = _paired(scores[0], scores[i]) if i else (0.0, 0.0)
        weighed.append(Weighed(move, right[i], _mean(scores[i]), diff, se, options.guesses))
    # A second look, on fresh guesses, where the first one leaves a verdict in doubt: the few moves that may
    # be ahead of the solution by the margin, and at a choice the wrong moves that may not be behind by it.
    def in_doubt(w: Weighed, margin: float) -> bool:
        return abs(w.diff - margin) < SURE_Z * w.se + 1e-9

    def margins(w: Weighed) -> list[float]:
        return [-BEST_MARGIN] + ([WRONG_MARGIN] if kind == "choice" and not w.right else [])

    ahead = sorted(range(1, len(weighed)), key=lambda i: weighed[i].diff)[:LOOK_AGAIN]
    doubt = sorted({i for i in ahead if weighed[i].diff <= -BEST_MARGIN or in_doubt(weighed[i], -BEST_MARGIN)}
                   | {i for i in range(1, len(weighed)) if kind == "choice" and not weighed[i].right
                      and (weighed[i].diff < WRONG_MARGIN or in_doubt(weighed[i], WRONG_MARGIN))})
    pairs: dict[int, tuple[list[float], list[float]]] = {i: ([], []) for i in doubt}
    batch, look = options.second, 1
    while doubt:
        look += 1
        more = estimator.outcomes(view, [solution] + [moves[i] for i in doubt], batch, seed + look)
        still = []
        for k, i in enumerate(doubt, start=1):
            mine, theirs = pairs[i]
            mine += more[0]
            theirs += more[k]
            diff, se = _paired(mine, theirs)
            n = len(mine)
            weighed[i] = weighed[i]._replace(score=_mean(theirs), diff=diff, se=se, guesses=n)
            if any(in_doubt(weighed[i], m) for m in margins(weighed[i])) and n + n <= options.most:
                still.append(i)
        doubt, batch = still, batch + batch
    sol = weighed[0]
    ordered = sorted(weighed, key=lambda w: (w.diff, w is not sol))  # best first: the most ahead of the solution
    best = ordered[0]
    problems: list[str] = []
    if best.diff <= -BEST_MARGIN:
        problems.append(f"{best.action.text()} is {-best.diff * 100:.1f} points better than the solution "
                        f"{solution.text()} (margin {BEST_MARGIN * 100:.0f})")
    if kind == "choice":
        for w in ordered:
            if not w.right and w.diff < WRONG_MARGIN:
                problems.append(f"{w.action.text()} is called wrong but only {w.diff * 100:.1f} points worse "
                                f"(margin {WRONG_MARGIN * 100:.0f})")
    return StepCheck(lesson.name, index + 1, kind, solution, sol.score, best, tuple(ordered), tuple(problems))


def check_lesson(lesson: Lesson, estimator: Estimator | None = None, options: Options = DEFAULT) -> list[StepCheck]:
    """Every step of ``lesson`` checked, its solution played between them."""
    run = LessonRun(lesson)
    checks = []
    while (step := run.step) is not None:
        checks.append(check_step(run, estimator, options))
        outcome = run.act(step.solution) if isinstance(step, PlayStep) else run.answer(step.answer)
        if not outcome.right:
            raise ValueError(f"{lesson.name}: step {run.step_index + 1}'s own solution is not right")
    return checks


__all__ = ["BEST_MARGIN", "DEFAULT", "SURE_Z", "WRONG_MARGIN", "Options", "StepCheck", "Weighed", "accepted", "check_lesson",
           "check_step", "step_kind"]
