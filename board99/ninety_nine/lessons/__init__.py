"""Ninety-Nine's lessons: positions at a Ninety-Nine table with bots, a task or a question each, and the words of
the seed document whose rule or hint it teaches.

As with the peg-board lessons (``board99.lessons``) the lessons are data:
one TOML file each in ``board99/ninety_nine/lessons/data/``, shipped with the
package (docs/lessons.md describes the format). ``parse`` reads one file's
text (pure); ``load`` and ``catalogue`` read the package's own files (the
only reading done here, through ``importlib.resources``); ``LessonRun``
plays a lesson on the engine; ``check`` proves each lesson right on it.

>>> [lesson.id for lesson in catalogue()][:2]
['glengariff', 'convention']
"""

from __future__ import annotations

from ... import lesson_files
from .model import (
    DOCUMENTS,
    GAME,
    GROUPS,
    TOPICS,
    Goal,
    Lesson,
    LessonError,
    LessonTable,
    PlayStep,
    Position,
    QuizStep,
    Scripted,
    Step,
    Wrong,
    parse,
)
from .run import LessonRun, Move, Outcome, matches, solve


def names() -> list[str]:
    """The lesson files' names, in the order the list shows them (their number prefix)."""
    return lesson_files.names(__name__)


def load(name: str) -> Lesson:
    """The lesson in the package's file ``name`` (e.g. "01-glengariff.toml")."""
    return parse(lesson_files.read(__name__, name), name)


def catalogue() -> tuple[Lesson, ...]:
    """Every lesson, in order; LessonError if one cannot be read or two share an id."""
    return lesson_files.unique((load(name) for name in names()), LessonError)


__all__ = ["DOCUMENTS", "GAME", "GROUPS", "TOPICS", "Goal", "Lesson", "LessonError", "LessonRun", "LessonTable",
           "Move", "Outcome", "PlayStep", "Position", "QuizStep", "Scripted", "Step", "Wrong", "catalogue", "load",
           "matches", "names", "parse", "solve"]
