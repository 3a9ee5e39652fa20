"""A stopped server's finished games, read from its journal without writing to it (`board99 records --data`).

The journal is the server's (``journal.Journal``); this opens the same file read
only (SQLite's ``mode=ro``: no schema made or brought up to date, no folder made,
nothing checkpointed) and asks it the same questions the running server answers
over the wire: a page of finished games, and one game's or match's record. A
file that is damaged or another program's gets the server's own words for it,
and a journal a server is using is refused (ask that server instead).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import TracebackType

from board99.wire.listings import RecordEntry

from .journal import ADDED_COLUMNS, JOURNAL_FILE, Journal, JournalDamaged, damage_message

__all__ = ["Archive", "ArchiveError", "JournalDamaged", "JournalInUse", "JournalTooOld", "NoJournal"]


class ArchiveError(RuntimeError):
    """The folder's journal cannot be read now; the message says why and names the folder."""


class NoJournal(ArchiveError):
    """The folder holds no journal."""


class JournalInUse(ArchiveError):
    """A running server holds the journal (it keeps it locked while it runs)."""


class JournalTooOld(ArchiveError):
    """The journal was written by an older board99 and lacks columns the reads need (a server adds them)."""


class _Reader(Journal):
    """The journal's own reads over a read-only connection (its writes would fail: SQLite refuses them)."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path
        self._actions = db.cursor()  # the journal's kept cursor (unused here: Journal.close closes it)


class Archive:
    """The finished games in a stopped server's data folder, opened read only. Close it (or use ``with``)."""

    def __init__(self, data_dir: str | Path) -> None:
        path = Path(data_dir) / JOURNAL_FILE
        if not path.is_file():
            raise NoJournal(f"--data {data_dir}: no journal ({JOURNAL_FILE}) there")
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                             check_same_thread=False, timeout=1.0)
        try:
            _check(db, data_dir, str(path))
        except sqlite3.OperationalError as exc:
            db.close()
            raise JournalInUse(f"--data {data_dir}: the journal {path} is in use by another board99 server, "
                               f"or unreadable ({exc})") from None
        except sqlite3.DatabaseError as exc:
            db.close()
            raise JournalDamaged(damage_message(data_dir, str(path), str(exc))) from None
        except BaseException:
            db.close()
            raise
        self._journal = _Reader(db, str(path))

    def finished_games(self, limit: int, offset: int = 0) -> tuple[list[RecordEntry], int]:
        """A page of finished games, newest first, and how many the journal holds in all."""
        rows, total = self._journal.finished_games(offset, limit)
        return [RecordEntry(**row) for row in rows], total

    def record(self, table: str, game: int, whole_match: bool = False) -> str:
        """A finished game's record (with ``whole_match``: its match's); LookupError if the journal has none."""
        journal = self._journal
        text = journal.match_record(table, game) if whole_match else journal.record(table, game)
        if text is None:
            raise LookupError(f"no such finished game{' in a match' if whole_match else ''} in this journal")
        return text

    def close(self) -> None:
        """Close the file."""
        self._journal.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _check(db: sqlite3.Connection, data_dir: str | Path, path: str) -> None:
    """Read the whole file first, as the server does: damage or another program's database stops here."""
    problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        raise JournalDamaged(damage_message(data_dir, path, "; ".join(str(p) for p in problems)[:300]))
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not names:
        raise NoJournal(f"--data {data_dir}: the journal {path} is empty: no server has kept a game in it")
    if "tables" not in names:
        why = f"an SQLite database of another program: its tables are {', '.join(sorted(names)[:5])}"
        raise JournalDamaged(damage_message(data_dir, path, why))
    for table, columns in ADDED_COLUMNS.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not have >= set(columns):
            raise JournalTooOld(f"--data {data_dir}: the journal {path} was written by an older board99; "
                                f"`board99 serve --data {data_dir}` brings it up to date (then stop it and ask again)")
