"""Lesson files shipped as package data, for any game's lessons: listed, read, and their ids checked unique.

Each game's lessons package (``board99.lessons``, ``board99.ninety_nine.lessons``)
keeps its TOML files in its own ``data/`` folder and its own parser; this module
is the one place that reads such a folder (through ``importlib.resources``, so a
wheel works as a checkout does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import resources
from typing import Protocol, TypeVar

#: The folder, inside a lessons package, that holds its lesson files.
DATA = "data"


class Named(Protocol):
    """What the id check needs of a lesson: its id and the file it came from."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


L = TypeVar("L", bound=Named)


def names(package: str) -> list[str]:
    """The lesson files' names in ``package``'s data folder, in the order the list shows them (their number prefix)."""
    folder = resources.files(package).joinpath(DATA)
    return sorted(item.name for item in folder.iterdir() if item.name.endswith(".toml"))


def read(package: str, name: str) -> str:
    """The text of the lesson file ``name`` in ``package``'s data folder."""
    return resources.files(package).joinpath(DATA, name).read_text(encoding="utf-8")


def unique(lessons: Iterable[L], error: Callable[[str, str, str], Exception]) -> tuple[L, ...]:
    """``lessons`` as a tuple, or ``error(file, "id", why)`` raised for the first id two of them share."""
    kept = tuple(lessons)
    seen: dict[str, str] = {}
    for lesson in kept:
        if lesson.id in seen:
            raise error(lesson.name, "id", f"{lesson.id!r} is also the id of {seen[lesson.id]}")
        seen[lesson.id] = lesson.name
    return kept
