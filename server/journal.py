"""The SQLite journal (WAL): every table, seat and accepted action, committed before anyone is told.

A restart rebuilds each table by replaying the engine from the game's seed
and its journaled actions, so a table is back exactly at its last
acknowledged action. Finished games are kept as records in the engine's
record format.

Commits use ``synchronous=NORMAL``: in WAL mode a committed transaction
survives the server process being killed (SIGKILL) at any instant; only a
power cut or OS crash can lose the latest commits. ``fsync=True`` makes every
commit wait for the disk as well.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from board99 import Action, parse_action
from board99.record import Record

from .tables import Seat, Table

JOURNAL_FILE = "board99.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, players INTEGER NOT NULL, mode TEXT NOT NULL,
    clock REAL, grace REAL NOT NULL, created REAL NOT NULL,
    game_no INTEGER NOT NULL, seed INTEGER NOT NULL, state TEXT NOT NULL, seq INTEGER NOT NULL,
    colours TEXT NOT NULL, votes TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, occupant TEXT, name TEXT, bot TEXT,
    token_hash BLOB, vacated INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL, game_no INTEGER NOT NULL, ply INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (table_id, game_no, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL, game_no INTEGER NOT NULL, winner INTEGER NOT NULL,
    record TEXT NOT NULL, finished REAL NOT NULL,
    PRIMARY KEY (table_id, game_no)
);
"""


def _csv(items) -> str:
    return ",".join("" if x is None else str(x) for x in items)


class Journal:
    """The server's durable state in one SQLite file (or in memory when ``data_dir`` is None)."""

    def __init__(self, data_dir: str | Path | None, fsync: bool = False) -> None:
        if data_dir is None:
            self.path = ":memory:"
        else:
            folder = Path(data_dir)
            folder.mkdir(parents=True, exist_ok=True)
            self.path = str(folder / JOURNAL_FILE)
        # isolation_level=None: we open and commit transactions ourselves.
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=1.0)
        try:
            self._open(fsync)
        except sqlite3.OperationalError as exc:
            self.db.close()
            raise RuntimeError(f"--data {data_dir}: the journal {self.path} is in use by another board99 "
                               f"server, or unreadable ({exc})") from None

    def _open(self, fsync: bool) -> None:
        # The server is the journal's only user: an exclusive lock skips the shared-memory index
        # (and makes a second server on the same --data fail at once instead of corrupting it).
        self.db.execute("PRAGMA locking_mode=EXCLUSIVE")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA wal_autocheckpoint=10000")  # checkpoints every ~40 MB, not every 4 MB
        self.db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
        self.db.executescript(SCHEMA)
        self.db.execute("BEGIN IMMEDIATE")  # take the exclusive lock now, and hold it while we run
        self.db.execute("COMMIT")

    def close(self) -> None:
        """Close the database (everything is already committed)."""
        self.db.close()

    # -- writes: each is one committed transaction --------------------------------

    def _table_row(self, t: Table) -> tuple:
        return (t.name, t.players, t.mode, t.clock, t.grace, t.game_no, t.seed, t.state, t.seq,
                _csv(t.colours), _csv(sorted(t.votes)), t.id)

    def _seat_rows(self, t: Table) -> list[tuple]:
        return [(t.id, s.seat, s.occupant, s.name, s.bot, s.token_hash, int(s.vacated)) for s in t.seats]

    def save_table(self, t: Table, created: bool = False) -> None:
        """Write the table's settings, state and seats (a new table, a seat change, a rematch)."""
        db = self.db
        db.execute("BEGIN")
        try:
            if created:
                db.execute(
                    "INSERT INTO tables (name, players, mode, clock, grace, game_no, seed, state, seq, colours,"
                    " votes, id, created) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*self._table_row(t), time.time()),
                )
            else:
                db.execute(
                    "UPDATE tables SET name=?, players=?, mode=?, clock=?, grace=?, game_no=?, seed=?, state=?,"
                    " seq=?, colours=?, votes=? WHERE id=?",
                    self._table_row(t),
                )
            db.executemany("INSERT OR REPLACE INTO seats VALUES (?,?,?,?,?,?,?)", self._seat_rows(t))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def save_action(self, t: Table, seat: int, action: Action, finished: str | None = None) -> None:
        """Journal one accepted action (and, if it ended the game, the record and the table's state)."""
        db = self.db
        row = (t.id, t.game_no, t.game.ply, seat, action.text(), time.time())
        if finished is None:
            # One statement is its own transaction: the cheapest durable write (the table's seq is
            # not saved per action; a restore moves it past every replayed action).
            db.execute("INSERT INTO actions VALUES (?,?,?,?,?,?)", row)
            return
        db.execute("BEGIN")
        try:
            db.execute("INSERT INTO actions VALUES (?,?,?,?,?,?)", row)
            db.execute("INSERT OR REPLACE INTO records VALUES (?,?,?,?,?)",
                       (t.id, t.game_no, t.game.winner, finished, time.time()))
            db.execute("UPDATE tables SET seq=?, state=?, votes='' WHERE id=?", (t.seq, t.state, t.id))
            db.executemany("INSERT OR REPLACE INTO seats VALUES (?,?,?,?,?,?,?)", self._seat_rows(t))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # -- reads ----------------------------------------------------------------------

    def record(self, table_id: str, game_no: int | None) -> str | None:
        """A finished game's record text (the latest finished game when ``game_no`` is None)."""
        if game_no is None:
            row = self.db.execute("SELECT record FROM records WHERE table_id=? ORDER BY game_no DESC LIMIT 1",
                                  (table_id,)).fetchone()
        else:
            row = self.db.execute("SELECT record FROM records WHERE table_id=? AND game_no=?",
                                  (table_id, game_no)).fetchone()
        return None if row is None else row[0]

    def actions(self, table_id: str, game_no: int) -> list[tuple[int, str]]:
        """The journaled (seat, action text) of one game, in order."""
        return self.db.execute("SELECT seat, action FROM actions WHERE table_id=? AND game_no=? ORDER BY ply",
                               (table_id, game_no)).fetchall()

    def restore(self) -> list[Table]:
        """Every table, rebuilt: the engine replays each game from its seed and journaled actions."""
        tables = []
        rows = self.db.execute(
            "SELECT id, name, players, mode, clock, grace, game_no, seed, state, seq, colours, votes"
            " FROM tables ORDER BY created").fetchall()
        for (tid, name, players, mode, clock, grace, game_no, seed, state, seq, colours, votes) in rows:
            t = Table(tid, name, players, mode, clock, grace, seed=seed, game_no=game_no, state=state, seq=seq)
            t.colours = [c or None for c in colours.split(",")]
            t.votes = {int(v) for v in votes.split(",") if v}
            for seat, occupant, sname, bot, token_hash, vacated in self.db.execute(
                    "SELECT seat, occupant, name, bot, token_hash, vacated FROM seats WHERE table_id=?"
                    " ORDER BY seat", (tid,)):
                t.seats[seat] = Seat(seat, seat % t.game.sides, occupant, sname, bot, token_hash,
                                     vacated=bool(vacated))
            for seat, text in self.actions(tid, game_no):
                t.game.apply(seat, parse_action(text))
                t.seq += 1  # never behind what clients were told, so no push looks old to them
            tables.append(t)
        return tables


def finished_record(t: Table) -> str:
    """The record text of the table's finished game, seed revealed."""
    return Record.of(t.game, reveal=True).dumps()
