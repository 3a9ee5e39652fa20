"""Where the window saves game and match records: a records folder, new files only.

The folder is ``$BOARD99_RECORDS`` when set (the tests set it), else
``board99`` in the user's documents folder (platformdirs). A file is never
overwritten: a name already taken gets ``-2``, ``-3`` … before its ``.txt``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

ENV = "BOARD99_RECORDS"
MOST_TRIES = 1000


def records_dir() -> Path:
    """The folder records are saved in."""
    chosen = os.environ.get(ENV)
    return Path(chosen) if chosen else Path(platformdirs.user_documents_dir()) / "board99"


def slug(name: str) -> str:
    """A safe, readable file-name part from any name: 'Den  #2' -> 'den-2' ('table' if nothing is left)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "table"


def file_stem(table_name: str, game: int, match_first: int | None = None) -> str:
    """'den-game-2', or 'den-match-from-game-1' for a match's record."""
    stem = slug(table_name)
    return f"{stem}-match-from-game-{match_first}" if match_first is not None else f"{stem}-game-{game}"


def write_new(text: str, stem: str, folder: Path | None = None, suffix: str = ".txt") -> Path:
    """Write ``text`` to ``stem``.txt in the records folder, or ``stem``-2.txt … if taken; the path written."""
    folder = records_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, MOST_TRIES + 1):
        path = folder / (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}")
        try:
            # "x" creates the file or fails: no check-then-write race with another window saving too.
            with open(path, "x", encoding="utf-8", newline="") as f:  # the text exactly: CSV brings its own line ends
                f.write(text)
            return path
        except FileExistsError:
            continue
    raise FileExistsError(f"{folder}: {stem}{suffix} and {MOST_TRIES - 1} numbered copies exist already")


def shown_path(path: Path) -> str:
    """The path as a person reads it: the home folder as ``~``."""
    home = Path.home()
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)
