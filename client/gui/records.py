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


def file_stem(table_name: str, game: int, match_first: int | None = None) -> str:
    """'den-game-2', or 'den-match-from-game-1' for a match's record (a safe, readable file name)."""
    slug = re.sub(r"[^a-z0-9]+", "-", table_name.lower()).strip("-")[:40] or "table"
    return f"{slug}-match-from-game-{match_first}" if match_first is not None else f"{slug}-game-{game}"


def write_new(text: str, stem: str, folder: Path | None = None) -> Path:
    """Write ``text`` to ``stem``.txt in the records folder, or ``stem``-2.txt … if taken; the path written."""
    folder = records_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, MOST_TRIES + 1):
        path = folder / (f"{stem}.txt" if n == 1 else f"{stem}-{n}.txt")
        try:
            # "x" creates the file or fails: no check-then-write race with another window saving too.
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
            return path
        except FileExistsError:
            continue
    raise FileExistsError(f"{folder}: {stem}.txt and {MOST_TRIES - 1} numbered copies exist already")


def shown_path(path: Path) -> str:
    """The path as a person reads it: the home folder as ``~``."""
    home = Path.home()
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)
