"""The SQLite journal (WAL): every table, seat and accepted action, committed before anyone is told.

A restart rebuilds each table by replaying its game kind from the game's seed
and its journaled actions, so a table is back exactly at its last acknowledged
action. Each table row names its kind and options; a journal from before kinds
opens with every table a peg-board one (``board99.kinds.DEFAULT``). Finished
games are kept as records in their kind's record format, with their result as a
ranking of the sides.

Commits use ``synchronous=NORMAL``: in WAL mode a committed transaction
survives the server process being killed (SIGKILL) at any instant; only a
power cut or OS crash can lose the latest commits. ``fsync=True`` makes every
commit wait for the disk as well.

The journal holds running games' secret seeds and the seats' token digests:
its folder is made readable by the server's user only (0700) and its files
0600.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from board99 import kinds
from board99.kinds import Refusal, Result
from board99.match_format import MatchFormat
from board99.wire.protocol import BOT_PACES, COLOURS

from .players import Player, Standing, name_key
from .ratings import Skill
from .seating import Seat
from .tables import Table

log = logging.getLogger("board99.server")

JOURNAL_FILE = "board99.sqlite"
#: A table's row state once it is closed: kept for its records, never restored.
ARCHIVED = "archived"
#: A new journal's page size, in bytes (an existing file keeps its own).
PAGE_SIZE = 1024

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
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, key_hash BLOB NOT NULL UNIQUE,
    mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    table_id TEXT NOT NULL, game_no INTEGER NOT NULL, seat INTEGER NOT NULL, side INTEGER NOT NULL,
    player INTEGER, name TEXT, won INTEGER NOT NULL,
    PRIMARY KEY (table_id, game_no, seat)
);
CREATE INDEX IF NOT EXISTS results_by_player ON results (player);
CREATE TABLE IF NOT EXISTS ratings (
    player INTEGER NOT NULL, kind TEXT NOT NULL,
    mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL,
    PRIMARY KEY (player, kind)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY, created REAL NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hints (
    table_id TEXT NOT NULL, game_no INTEGER NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, game_no, ply, seat)
);
"""

#: Columns added since the first schema: a journal written by an older server gets them on opening.
ADDED_COLUMNS = {
    "tables": {"match_kind": "TEXT", "match_target": "INTEGER", "match_first": "INTEGER NOT NULL DEFAULT 1",
               "rated": "INTEGER NOT NULL DEFAULT 0", "tournament": "TEXT", "table_name": "TEXT",
               "bot_pace": "TEXT NOT NULL DEFAULT 'quick'",
               # Game kinds: every table of a journal from before them is of the default kind.
               "kind": f"TEXT NOT NULL DEFAULT '{kinds.DEFAULT}'", "options": "TEXT NOT NULL DEFAULT '[]'"},
    "seats": {"player": "INTEGER", "reserved": "TEXT"},
    "records": {"seat": "INTEGER", "line": "TEXT", "deals": "INTEGER", "names": "TEXT",
                "match_first": "INTEGER", "rated": "INTEGER NOT NULL DEFAULT 0", "players": "INTEGER",
                "mode": "TEXT", "table_name": "TEXT",
                # The result as a ranking of sides, the kind's summary and detail (JSON); NULL in a journal
                # from before kinds until the opening fills them in by replaying the record (``_rank_old``).
                "kind": f"TEXT NOT NULL DEFAULT '{kinds.DEFAULT}'", "ranking": "TEXT", "summary": "TEXT",
                "detail": "TEXT"},
    "results": {"place": "INTEGER"},
}


SEAT_ROW = "INSERT OR REPLACE INTO seats VALUES (?,?,?,?,?,?,?,?,?)"


class SetAside(NamedTuple):
    """A table the journal holds but that could not be restored (or, while running, saved), and why."""

    table: str
    reason: str


class JournalDamaged(RuntimeError):
    """The journal file is damaged, or is not a board99 journal: the server does not start, and writes nothing to it."""


def damaged(exc: BaseException) -> bool:
    """True if ``exc`` is SQLite finding the journal file damaged or not a database (not a full disk or a lock)."""
    return isinstance(exc, sqlite3.DatabaseError) and getattr(exc, "sqlite_errorname", "") in (
        "SQLITE_CORRUPT", "SQLITE_NOTADB")


def damage_message(data_dir: str | Path, path: str, why: str) -> str:
    """What an operator reads when the journal cannot be used: which file, what is wrong, what to do."""
    return (f"--data {data_dir}: the journal {path} is damaged or is not a board99 journal ({why}). "
            f"It was left exactly as it is. To start afresh, move it away "
            f"with its -wal file if there is one (for example: mv {path} {path}.damaged); to try to save its "
            f"games first, `sqlite3 {path} .recover > saved.sql`, or restore it from a backup.")


def _csv(items: Any) -> str:
    return ",".join("" if x is None else str(x) for x in items)


@contextlib.contextmanager
def _private_files() -> Iterator[None]:
    # Files SQLite creates (the database, its -wal and -shm) are born readable by this user only.
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


class Journal:
    """The server's durable state in one SQLite file (or in memory when ``data_dir`` is None)."""

    def __init__(self, data_dir: str | Path | None, fsync: bool = False) -> None:
        if data_dir is None:
            self.path = ":memory:"
        else:
            folder = Path(data_dir)
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            folder.chmod(0o700)  # also a folder made before, by hand or by an older server
            self.path = str(folder / JOURNAL_FILE)
        with _private_files():
            # isolation_level=None: we open and commit transactions ourselves.
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=1.0)
            try:
                self._check()
                self._open(fsync)
            except sqlite3.OperationalError as exc:
                self.db.close()
                raise RuntimeError(f"--data {data_dir}: the journal {self.path} is in use by another board99 "
                                   f"server, or unreadable ({exc})") from None
            except (sqlite3.DatabaseError, JournalDamaged) as exc:
                self.db.close()
                raise JournalDamaged(damage_message(data_dir or "", self.path, str(exc))) from None
        # One cursor kept for the actions' INSERTs: Connection.execute makes and drops a cursor each call.
        self._actions = self.db.cursor()
        if data_dir is not None:
            for name in (JOURNAL_FILE, JOURNAL_FILE + "-wal", JOURNAL_FILE + "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    (Path(data_dir) / name).chmod(0o600)

    def _check(self) -> None:
        """Read the whole file before writing anything to it: damage or another program's database stops here.

        ``PRAGMA quick_check`` reads every page (about a second for a few hundred megabytes); what
        it finds is raised as JournalDamaged, and the file is left as it was.
        """
        # Exclusive from the first read on: the check and the server's run see the same file.
        self.db.execute("PRAGMA locking_mode=EXCLUSIVE")
        problems = [row[0] for row in self.db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise JournalDamaged("; ".join(str(p) for p in problems)[:300])
        names = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if names and "tables" not in names:
            raise JournalDamaged(f"an SQLite database of another program: its tables are "
                                 f"{', '.join(sorted(names)[:5])}")

    def _open(self, fsync: bool) -> None:
        # The server is the journal's only user: an exclusive lock skips the shared-memory index
        # (and makes a second server on the same --data fail at once instead of corrupting it).
        self.db.execute("PRAGMA locking_mode=EXCLUSIVE")
        # A new journal's pages are 1 KiB, not 4: a commit appends one WAL frame a page it changed,
        # and SQLite copies and checksums every byte of it (an action's INSERT: about a third less
        # time). Only a file with no pages yet takes it (before WAL mode); an older journal keeps
        # its page size (docs/server.md, "The journal").
        self.db.execute(f"PRAGMA page_size={PAGE_SIZE}")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA wal_autocheckpoint=10000")  # every 10,000 pages (~10 MB), not every 1,000
        self.db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
        self.db.executescript(SCHEMA)
        for table, columns in ADDED_COLUMNS.items():
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            for column, kind in columns.items():
                if column not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        self.db.execute("BEGIN IMMEDIATE")  # take the exclusive lock now, and hold it while we run
        self.db.execute("COMMIT")
        self._rank_old()

    def _rank_old(self) -> None:
        """Records from before kinds get their ranking, summary and detail: each replayed through its kind.

        A record that does not replay keeps NULLs (it is still fetchable; lists show its winner only).
        """
        rows = self.db.execute("SELECT table_id, game_no, kind, record FROM records WHERE ranking IS NULL").fetchall()
        if not rows:
            return
        done = []
        for table_id, game_no, kind_name, text in rows:
            try:
                kind = kinds.get(kind_name)
                steps = list(kind.replay_record(text))
                game = steps[-1][2] if steps else None
                if game is None or not game.over:
                    raise ValueError("the record ends before the game does")
                done.append((json.dumps(list(kind.ranking(game))), kind.summary(game),
                             json.dumps(kind.result_detail(game)), table_id, game_no))
            except Exception as exc:  # one bad record must not stop the others, nor the server
                log.warning("event=record-unranked table=%s game=%s reason=%r", table_id, game_no, str(exc)[:200])
        with self._transaction() as db:
            db.executemany("UPDATE records SET ranking=?, summary=?, detail=? WHERE table_id=? AND game_no=?", done)
        log.info("event=records-ranked count=%d", len(done))

    def close(self) -> None:
        """Close the database (everything is already committed)."""
        # The kept cursor first: while it holds a statement (one that failed keeps it), SQLite
        # defers the close, and the WAL's last checkpoint into the file, until it is collected.
        self._actions.close()
        self.db.close()

    # -- writes: each is one committed transaction, or nothing --------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self.db
        db.execute("BEGIN")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def _table_row(self, t: Table) -> tuple[Any, ...]:
        kind, target = (None, None) if t.match is None else t.match
        return (t.name, t.players, t.mode, t.clock, t.grace, t.game_no, t.seed, t.state, t.seq,
                _csv(t.colours), _csv(sorted(t.votes)), kind, target, t.match_first, int(t.rated), t.tournament,
                t.bot_pace, t.kind.name, json.dumps([list(o) for o in t.settings.options]), t.id)

    def _seat_rows(self, t: Table) -> list[tuple[Any, ...]]:
        return [(t.id, s.seat, s.occupant, s.name, s.bot, s.token_hash, int(s.vacated), s.player, s.reserved)
                for s in t.seats]

    def save_table(self, t: Table, created: bool = False) -> None:
        """Write the table's settings, state and seats (a new table, a seat change, a rematch)."""
        with self._transaction() as db:
            if created:
                db.execute(
                    "INSERT INTO tables (name, players, mode, clock, grace, game_no, seed, state, seq, colours,"
                    " votes, match_kind, match_target, match_first, rated, tournament, bot_pace, kind, options, id,"
                    " created) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*self._table_row(t), time.time()),
                )
            else:
                db.execute(
                    "UPDATE tables SET name=?, players=?, mode=?, clock=?, grace=?, game_no=?, seed=?, state=?,"
                    " seq=?, colours=?, votes=?, match_kind=?, match_target=?, match_first=?, rated=?, tournament=?,"
                    " bot_pace=?, kind=?, options=? WHERE id=?",
                    self._table_row(t),
                )
            db.executemany(SEAT_ROW, self._seat_rows(t))

    def save_seq(self, t: Table) -> None:
        """Keep the table's sequence number (a change nobody journals otherwise, e.g. presence)."""
        self.db.execute("UPDATE tables SET seq=? WHERE id=?", (t.seq, t.id))

    def save_action(self, t: Table, seat: int, action: Any) -> None:
        """Journal an action about to be carried out at ``t``: it becomes the game's ply ``ply + 1``.

        One statement is its own transaction: the cheapest durable write (the table's seq is not
        saved per action; a restore moves it past every replayed action).
        """
        self._actions.execute("INSERT INTO actions VALUES (?,?,?,?,?,?)",
                              (t.id, t.game_no, t.game.ply + 1, seat, t.kind.action_text(action), time.time()))

    def save_actions(self, actions: Sequence[tuple[Table, int, Any]]) -> None:
        """Journal several actions, each ``(table, seat, action)`` at a different table, in one transaction."""
        now = time.time()
        with self._transaction() as db:
            db.executemany("INSERT INTO actions VALUES (?,?,?,?,?,?)",
                           [(t.id, t.game_no, t.game.ply + 1, seat, t.kind.action_text(action), now)
                            for t, seat, action in actions])

    def save_hint(self, t: Table, seat: int, seq: int) -> None:
        """``seat`` asked the coach for a hint at the game's current ply; the table's next seq, ``seq``, with it."""
        with self._transaction() as db:
            db.execute("INSERT OR IGNORE INTO hints VALUES (?,?,?,?,?)",
                       (t.id, t.game_no, t.game.ply, seat, time.time()))
            db.execute("UPDATE tables SET seq=? WHERE id=?", (seq, t.id))

    def hints(self, table_id: str, game_no: int) -> list[tuple[int, int]]:
        """(seat, ply) of each hint asked for in one game, in the order asked."""
        return self.db.execute("SELECT seat, ply FROM hints WHERE table_id=? AND game_no=? ORDER BY ply, at",
                               (table_id, game_no)).fetchall()

    def save_finished(self, t: Table, record: str, rated: Sequence[Player] = ()) -> None:
        """The game at ``t`` is over: its record and result, who played it, the players' new ratings,
        the table's state and the seats freed at the end: one transaction.
        """
        result = t.result()
        played_by = t.played_by or [(s.name, s.player) for s in t.seats]
        names = [name for name, _ in played_by]
        first = min(range(len(result.ranking)), key=lambda side: result.ranking[side])  # a side placed first
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO records (table_id, game_no, winner, record, finished, names,"
                       " match_first, rated, players, mode, table_name, kind, ranking, summary, detail)"
                       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       (t.id, t.game_no, first, record, time.time(), json.dumps(names),
                        None if t.match is None else t.match_first, int(t.rated), t.players, t.mode, t.name,
                        t.kind.name, json.dumps(list(result.ranking)), result.summary,
                        json.dumps(dict(result.detail))))
            db.executemany("INSERT OR REPLACE INTO results (table_id, game_no, seat, side, player, name, won, place)"
                           " VALUES (?,?,?,?,?,?,?,?)",
                           [(t.id, t.game_no, seat, t.seats[seat].side, player, names[seat],
                             int(result.ranking[t.seats[seat].side] == 0), result.ranking[t.seats[seat].side])
                            for seat, (_, player) in enumerate(played_by)])
            # A player's rating in the default kind lives in their row (as before kinds); in any other, in ratings.
            game = t.kind.name
            if game == kinds.DEFAULT:
                db.executemany("UPDATE players SET mu=?, sigma=?, games=?, wins=? WHERE id=?",
                               [(p.skill.mu, p.skill.sigma, p.games, p.wins, p.id) for p in rated])
            else:
                db.executemany("INSERT OR REPLACE INTO ratings VALUES (?,?,?,?,?,?)",
                               [(p.id, game, s.skill.mu, s.skill.sigma, s.games, s.wins)
                                for p in rated for s in [p.standing(game)]])
            db.execute("UPDATE tables SET seq=?, state=?, votes='' WHERE id=?", (t.seq, t.state, t.id))
            db.executemany(SEAT_ROW, self._seat_rows(t))

    def save_player(self, p: Player) -> None:
        """A new player, or a new name for a known one."""
        with self._transaction() as db:
            db.execute("INSERT INTO players VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET"
                       " name=excluded.name, name_key=excluded.name_key",
                       (p.id, p.name, name_key(p.name), p.key_hash, p.skill.mu, p.skill.sigma, p.games, p.wins,
                        time.time()))

    def players(self) -> list[Player]:
        """Every registered player."""
        elsewhere: dict[int, dict[str, Standing]] = {}
        for pid, kind, mu, sigma, games, wins in self.db.execute(
                "SELECT player, kind, mu, sigma, games, wins FROM ratings ORDER BY player, kind"):
            elsewhere.setdefault(pid, {})[kind] = Standing(Skill(mu, sigma), games, wins)
        rows = self.db.execute("SELECT id, name, key_hash, mu, sigma, games, wins FROM players ORDER BY id")
        return [Player(i, n, bytes(k), Skill(mu, sigma), g, w, elsewhere.get(i, {}))
                for i, n, k, mu, sigma, g, w in rows]

    def next_player_id(self) -> int:
        """The id the next registered player gets."""
        return int(self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM players").fetchone()[0])

    def save_tournament(self, tournament_id: str, data: dict[str, Any]) -> None:
        """A tournament's state, whole (it is small: at most 16 entrants and 10 rounds)."""
        self.db.execute("INSERT INTO tournaments VALUES (?,?,?) ON CONFLICT(id) DO UPDATE SET data=excluded.data",
                        (tournament_id, time.time(), json.dumps(data)))

    def tournaments(self) -> list[dict[str, Any]]:
        """Every tournament's saved state, oldest first."""
        return [json.loads(row[0]) for row in self.db.execute("SELECT data FROM tournaments ORDER BY created")]

    def delete_table(self, table_id: str) -> None:
        """Forget a table that never had a game (nobody sat down): its rows go."""
        with self._transaction() as db:
            db.execute("DELETE FROM seats WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM actions WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM hints WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM tables WHERE id=?", (table_id,))

    def archive_table(self, table_id: str) -> None:
        """Close a table whose games are over: it is no longer restored; its records stay fetchable."""
        with self._transaction() as db:
            db.execute("UPDATE tables SET state=? WHERE id=?", (ARCHIVED, table_id))
            db.execute("DELETE FROM seats WHERE table_id=?", (table_id,))  # the token digests go too

    # -- reads ----------------------------------------------------------------------

    def match_results(self, table_id: str, first_game: int) -> list[Result]:
        """The finished games of the match that began with game ``first_game`` at the table."""
        rows = self.db.execute("SELECT game_no, ranking, summary, detail FROM records WHERE table_id=? AND"
                               " match_first=? ORDER BY game_no", (table_id, first_game)).fetchall()
        return [Result(g, tuple(json.loads(ranking)), summary, json.loads(detail or "{}"))
                for g, ranking, summary, detail in rows]

    def match_record(self, table_id: str, game_no: int | None) -> str | None:
        """The match record of the match game ``game_no`` (default: the latest finished) belongs to."""
        query = ("SELECT match_first FROM records WHERE table_id=? AND match_first IS NOT NULL"
                 + (" AND game_no=?" if game_no is not None else " ORDER BY game_no DESC LIMIT 1"))
        row = self.db.execute(query, (table_id, game_no) if game_no is not None else (table_id,)).fetchone()
        if row is None:
            return None
        first = row[0]
        spec = self.db.execute("SELECT match_kind, match_target, kind, options FROM tables WHERE id=?",
                               (table_id,)).fetchone()
        games = self.db.execute("SELECT record, names, players, mode FROM records WHERE table_id=? AND"
                                " match_first=? ORDER BY game_no", (table_id, first)).fetchall()
        if spec is None or spec[0] is None or not games:
            return None
        names = tuple(n or "(nobody)" for n in json.loads(games[0][1]))
        kind = kinds.get(spec[2])
        settings = kind.check_settings(games[0][2], games[0][3], dict(json.loads(spec[3])))
        return kind.match_record_text(settings, MatchFormat(spec[0], spec[1]), names, [g[0] for g in games], first)

    def finished_games(self, offset: int, limit: int, player: int | None = None) -> tuple[list[dict[str, Any]], int]:
        """A page of finished games, newest first (only those ``player`` played, if given), and how many in all."""
        where, args = ("", ()) if player is None else (
            " WHERE EXISTS (SELECT 1 FROM results r WHERE r.table_id=records.table_id AND r.game_no=records.game_no"
            " AND r.player=?)", (player,))
        total = self.db.execute("SELECT COUNT(*) FROM records" + where, args).fetchone()[0]
        rows = self.db.execute(
            "SELECT table_id, game_no, COALESCE(table_name, ''), COALESCE(players, 0), COALESCE(mode, ''), winner,"
            " finished, COALESCE(names, '[]'), match_first IS NOT NULL, rated, kind, COALESCE(ranking, '[]'),"
            " COALESCE(summary, '') FROM records" + where
            + " ORDER BY finished DESC LIMIT ? OFFSET ?", (*args, limit, offset)).fetchall()
        keys = ("table", "game", "table_name", "players", "mode", "winner", "finished", "names", "match", "rated",
                "kind", "ranking", "summary")
        out = []
        for row in rows:
            entry = dict(zip(keys, row))
            entry["names"], entry["match"], entry["rated"] = json.loads(entry["names"]), bool(row[8]), bool(row[9])
            entry["ranking"] = tuple(json.loads(entry["ranking"]))
            out.append(entry)
        return out, int(total)

    def met(self, player: int) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
        """Whom ``player`` played with (partners) and against (opponents): (name, games, their wins) each."""
        def query(same_side: bool) -> list[tuple[str, int, int]]:
            rows = self.db.execute(
                "SELECT o.name, COUNT(*), SUM(me.won) FROM results me JOIN results o ON o.table_id=me.table_id"
                " AND o.game_no=me.game_no AND o.seat != me.seat AND (o.side = me.side) = ?"
                " WHERE me.player=? AND o.name IS NOT NULL GROUP BY o.name ORDER BY COUNT(*) DESC, o.name LIMIT 50",
                (int(same_side), player)).fetchall()
            return [(str(n), int(g), int(w or 0)) for n, g, w in rows]
        return query(True), query(False)
    def record(self, table_id: str, game_no: int | None) -> str | None:
        """A finished game's record text (the latest finished game when ``game_no`` is None)."""
        if game_no is None:
            row = self.db.execute("SELECT record FROM records WHERE table_id=? ORDER BY game_no DESC LIMIT 1",
                                  (table_id,)).fetchone()
        else:
            row = self.db.execute("SELECT record FROM records WHERE table_id=? AND game_no=?",
                                  (table_id, game_no)).fetchone()
        return None if row is None else str(row[0])

    def actions(self, table_id: str, game_no: int) -> list[tuple[int, str]]:
        """The journaled (seat, action text) of one game, in order."""
        return self.db.execute("SELECT seat, action FROM actions WHERE table_id=? AND game_no=? ORDER BY ply",
                               (table_id, game_no)).fetchall()

    def table_ids(self) -> list[str]:
        """Every live table's id, oldest first."""
        rows = self.db.execute("SELECT id FROM tables WHERE state != ? ORDER BY created", (ARCHIVED,))
        return [r[0] for r in rows]

    def restore(self) -> tuple[list[Table], list[SetAside]]:
        """Every table, rebuilt, and those that could not be (a damaged row must not cost the others)."""
        tables, aside = [], []
        for table_id in self.table_ids():
            try:
                tables.append(self.restore_table(table_id))
            except Exception as exc:  # whatever a damaged row raises, this table alone is set aside
                reason = f"{type(exc).__name__}: {exc}"[:200]
                log.error("event=table-set-aside table=%s reason=%r", table_id, reason)
                aside.append(SetAside(table_id, reason))
        return tables, aside

    def restore_table(self, table_id: str) -> Table:
        """One table, rebuilt: the engine replays its current game from the seed and the journaled actions."""
        row = self.db.execute(
            "SELECT id, name, players, mode, clock, grace, game_no, seed, state, seq, colours, votes,"
            " match_kind, match_target, match_first, rated, tournament, bot_pace, kind, options FROM tables"
            " WHERE id=?", (table_id,)).fetchone()
        if row is None:
            raise LookupError(f"no table {table_id}")
        (tid, name, players, mode, clock, grace, game_no, seed, state, seq, colours, votes,
         match_kind, match_target, match_first, rated, tournament, bot_pace, kind_name, options) = row
        kind = kinds.get(kind_name)  # UnknownKind: a game not installed here; the table is set aside
        try:
            settings = kind.check_settings(players, mode, dict(json.loads(options)))
        except kinds.SettingsError as exc:
            raise ValueError(f"players {players!r}, mode {mode!r}, options {options!r}: {exc}") from None
        if state not in ("waiting", "playing", "over"):
            raise ValueError(f"state {state!r}: not a table's")
        if bot_pace not in BOT_PACES:
            raise ValueError(f"bot pace {bot_pace!r}: not one of {', '.join(BOT_PACES)}")
        t = Table(tid, name, grace, kind=kind, settings=settings, clock=clock, seed=seed, game_no=game_no,
                  state=state, seq=seq)
        sides = settings.sides
        t.colours = [c or None for c in colours.split(",")]
        if len(t.colours) != sides or any(c not in COLOURS for c in t.colours if c):
            raise ValueError(f"colours {colours!r}: not one colour (or none) for each of {sides} sides")
        t.votes = {int(v) for v in votes.split(",") if v}
        t.rated, t.tournament, t.match_first, t.bot_pace = bool(rated), tournament, match_first, bot_pace
        if match_kind is not None:
            t.match = MatchFormat(match_kind, match_target).check()
            t.results = self.match_results(tid, match_first)
        for seat, occupant, sname, bot, token_hash, vacated, player, reserved in self.db.execute(
                "SELECT seat, occupant, name, bot, token_hash, vacated, player, reserved FROM seats"
                " WHERE table_id=? ORDER BY seat", (tid,)):
            if type(seat) is not int or not 0 <= seat < players or occupant not in ("human", "bot", None):
                raise ValueError(f"seat row {seat!r} ({occupant!r}): not a seat of a {players}-player table")
            t.seats[seat] = Seat(seat, kind.side_of(settings, seat), occupant, sname, bot, token_hash,
                                 vacated=bool(vacated), player=player, reserved=reserved)
        for seat in t.unlink_second_seats():
            log.warning("event=second-seat-unlinked table=%s seat=%d why=one-player-two-seats", tid, seat)
        for seat, text in self.actions(tid, game_no):
            try:
                t.game.apply(seat, kind.parse_action(text))
            except (Refusal, ValueError) as exc:
                raise ValueError(f"game {game_no}, action {text!r} by S{seat}: {exc}") from None
            t.seq += 1  # never behind what clients were told, so no push looks old to them
        t.hints = [(seat, ply) for seat, ply in self.hints(tid, game_no) if 0 <= seat < players]
        if t.game.over and t.state != "over":
            # The last action ended the game, but its bookkeeping did not reach the disk: the core
            # finishes it (record, result, ratings) as it would have (server/finish.py).
            t.unfinished = True
        return t


def finished_record(t: Table) -> str:
    """The record text of the table's finished game, seed revealed (its kind's record format)."""
    return t.kind.record_text(t.game, reveal=True, hints=tuple(t.hints))
