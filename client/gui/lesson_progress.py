"""Which lessons the player has done, kept between runs in ``lessons.toml`` beside the settings.

The file sits in the user's config folder next to ``settings.toml`` (so
``$BOARD99_CONFIG``, which names the settings file, moves it too). It lists
the lessons' ids (``board99.lessons``: the file name without its number), so
renumbering the lessons keeps the ticks. A missing or unreadable file is no
progress; an id no lesson has any more is kept, and ignored by the list.
"""

from __future__ import annotations

import logging
import os
import tomllib
from pathlib import Path

from . import preferences

log = logging.getLogger(__name__)
FILE = "lessons.toml"


def progress_path() -> Path:
    """Where the progress file lives: beside the settings file."""
    return preferences.config_path().with_name(FILE)


def load(path: Path | None = None) -> frozenset[str]:
    """The ids of the lessons done (never raises: an unreadable file is no progress, with a warning)."""
    path = path or progress_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return frozenset()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        log.warning("lessons: %s is unreadable (%s); starting with no lessons done", path, exc)
        return frozenset()
    done = data.get("done", [])
    if not isinstance(done, list):
        log.warning("lessons: %s: 'done' is not a list; starting with no lessons done", path)
        return frozenset()
    return frozenset(item for item in done if isinstance(item, str))


def save(done: frozenset[str] | set[str], path: Path | None = None) -> None:
    """Write the ids of the lessons done (the whole file replaced at once)."""
    path = path or progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    items = ", ".join('"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"' for item in sorted(done))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"# board99: the lessons you have done (the Learn screen writes this file)\ndone = [{items}]\n",
                   encoding="utf-8")
    os.replace(tmp, path)


def mark_done(lesson_id: str, path: Path | None = None) -> frozenset[str]:
    """Add a lesson to the ones done and save; the new set (a read-only home only logs a warning)."""
    done = load(path) | {lesson_id}
    try:
        save(done, path)
    except OSError as exc:
        log.warning("lessons: could not write %s (%s)", path or progress_path(), exc)
    return done
