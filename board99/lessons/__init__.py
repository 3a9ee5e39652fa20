"""Lessons: prepared positions at a table with bots, a task or a question each, and the rulebook's words.

The lessons are data: one TOML file each in ``board99/lessons/data/``, shipped
with the package (docs/lessons.md describes the format). ``parse`` reads one
file's text (pure); ``load`` and ``catalogue`` read the package's own files
(the only reading done here, through ``importlib.resources``); ``LessonRun``
plays a lesson on the engine.

>>> [lesson.id for lesson in catalogue()][:3]
['board', 'cards', 'turn']
"""

from __future__ import annotations

from .. import lesson_files
from .model import (
    GROUPS,
    TOPICS,
    Goal,
    Lesson,
    LessonError,
    PlayStep,
    QuizStep,
    Scripted,
    Step,
    Table,
    Wrong,
    parse,
)
from .run import LessonRun, Move, Outcome, matches, solve


def names() -> list[str]:
    """The lesson files' names, in the order the list shows them (their number prefix)."""
    return lesson_files.names(__name__)


def load(name: str) -> Lesson:
    """The lesson in the package's file ``name`` (e.g. "02-cards.toml")."""
    return parse(lesson_files.read(__name__, name), name)


def catalogue() -> tuple[Lesson, ...]:
    """Every lesson, in order; LessonError if one cannot be read or two share an id."""
    return lesson_files.unique((load(name) for name in names()), LessonError)


__all__ = ["GROUPS", "TOPICS", "Goal", "Lesson", "LessonError", "LessonRun", "Move", "Outcome", "PlayStep",
           "QuizStep", "Scripted", "Step", "Table", "Wrong", "catalogue", "load", "matches", "names", "parse",
           "solve"]
