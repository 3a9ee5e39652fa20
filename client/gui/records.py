"""Where the window saves game and match records: a records folder, new files only.

The folder is ``$BOARD99_RECORDS`` when set (the tests set it), else
``board99`` in the user's documents folder (platformdirs). A file is never
overwritten: a name already taken gets ``-copy-2``, ``-copy-3`` … before its
``.txt`` (a bare ``-2`` after ``game-1`` would read like "games 1-2").
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
    """'den-game-2'; for a match's record (``game`` its last game) the games it holds: 'den-match-games-1-to-3'.

    >>> file_stem("Den", 2), file_stem("Friday match", 2, 1), file_stem("Den", 4, 4)
    ('den-game-2', 'friday-match-match-games-1-to-2', 'den-match-game-4')
    """
    stem = slug(table_name)
    return f"{stem}-game-{game}" if match_first is None else f"{stem}-{match_name(match_first, game)}"


def match_name(first: int, last: int) -> str:
    """The part of a match record's file name that says which games it holds: 'match-games-1-to-3'."""
    return f"match-game-{last}" if last <= first else f"match-games-{first}-to-{last}"


def write_new(text: str, stem: str, folder: Path | None = None, suffix: str = ".txt") -> Path:
    """Write ``text`` to ``stem``.txt in the records folder, or ``stem``-copy-2.txt … if taken; the path written."""
    folder = records_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, MOST_TRIES + 1):
        path = folder / (f"{stem}{suffix}" if n == 1 else f"{stem}-copy-{n}{suffix}")
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
