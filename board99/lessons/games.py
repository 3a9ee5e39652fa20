"""Both games' lessons in one list: the peg-board game's (``board99.lessons``) then Ninety-Nine's
(``board99.ninety_nine.lessons``), in the order the Learn screen and ``board99 learn --list`` show them.

Each lesson says its game (``lesson.game``); the list is grouped by it, and a
lesson's number is its place in the whole list, so ``board99 learn N`` and
the screen agree. Ids are unique across both games: the progress file
(client/gui/lesson_progress.py) keeps them in one list.

>>> lessons = every_lesson()
>>> [lessons[0].game, lessons[-1].game], games_of(lessons)
(['peg-board', 'ninety-nine'], ['peg-board', 'ninety-nine'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .model import LessonError

#: Each game's name in the lesson list, by its kind's name (board99.kinds).
TITLES: dict[str, str] = {"peg-board": "The GAME OF 99 (peg board)", "ninety-nine": "Ninety-Nine (cards)"}


def every_lesson() -> tuple[Any, ...]:
    """Every lesson of both games, the peg-board game's first; LessonError if two share an id."""
    from ..ninety_nine import lessons as ninety
    from . import catalogue

    lessons: tuple[Any, ...] = (*catalogue(), *ninety.catalogue())
    seen: dict[str, str] = {}
    for lesson in lessons:
        if lesson.id in seen:
            raise LessonError(lesson.name, "id", f"{lesson.id!r} is also the id of {seen[lesson.id]}")
        seen[lesson.id] = f"{lesson.game}'s {lesson.name}"
    return lessons


def games_of(lessons: Sequence[Any]) -> list[str]:
    """The games the lessons are for, in their order."""
    return list(dict.fromkeys(lesson.game for lesson in lessons))


__all__ = ["TITLES", "every_lesson", "games_of"]
