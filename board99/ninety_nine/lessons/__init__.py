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

from importlib import resources

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

#: The package folder the lesson files are in.
DATA = "data"


def names() -> list[str]:
    """The lesson files' names, in the order the list shows them (their number prefix)."""
    folder = resources.files(__name__).joinpath(DATA)
    return sorted(item.name for item in folder.iterdir() if item.name.endswith(".toml"))


def load(name: str) -> Lesson:
    """The lesson in the package's file ``name`` (e.g. "01-glengariff.toml")."""
    text = resources.files(__name__).joinpath(DATA, name).read_text(encoding="utf-8")
    return parse(text, name)


def catalogue() -> tuple[Lesson, ...]:
    """Every lesson, in order; LessonError if one cannot be read or two share an id."""
    lessons = tuple(load(name) for name in names())
    seen: dict[str, str] = {}
    for lesson in lessons:
        if lesson.id in seen:
            raise LessonError(lesson.name, "id", f"{lesson.id!r} is also the id of {seen[lesson.id]}")
        seen[lesson.id] = lesson.name
    return lessons


__all__ = ["DOCUMENTS", "GAME", "GROUPS", "TOPICS", "Goal", "Lesson", "LessonError", "LessonRun", "LessonTable",
           "Move", "Outcome", "PlayStep", "Position", "QuizStep", "Scripted", "Step", "Wrong", "catalogue", "load",
           "matches", "names", "parse", "solve"]
