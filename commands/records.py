"""`board99 records`: the finished games a server keeps, or a stopped server's data folder holds; listed, and
those asked for written to files."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Protocol

from board99 import kinds
from board99.client.gui.records import match_name
from board99.client.net import GameClient, ServerError
from board99.match import MatchRecord
from board99.server.archive import Archive, ArchiveError, JournalDamaged, JournalInUse
from board99.wire.listings import RecordEntry

from .remote import reachable


class Source(Protocol):
    """Where the records come from: a running server, or a stopped one's journal (``server.archive.Archive``)."""

    def finished_games(self, limit: int, offset: int = 0) -> tuple[list[RecordEntry], int]:
        """A page of finished games, newest first, and how many in all."""

    def record(self, table: str, game: int, whole_match: bool = False) -> str:
        """A game's (or its match's) record; LookupError, in the keeper's words, if there is none."""

    def close(self) -> None:
        """Let go of the server or the file."""


class ServerRecords:
    """A running server's records, over the client library."""

    def __init__(self, client: GameClient) -> None:
        self.client = client

    def finished_games(self, limit: int, offset: int = 0) -> tuple[list[RecordEntry], int]:
        """A page of finished games, newest first, and how many in all."""
        entries, total = self.client.list_records(offset=offset, limit=limit)
        return list(entries), total

    def record(self, table: str, game: int, whole_match: bool = False) -> str:
        """The server's record of the game (or its match); LookupError with the server's words otherwise."""
        try:
            return str(self.client.fetch_record(table, game, match=whole_match))
        except ServerError as exc:
            raise LookupError(exc.message) from None

    def close(self) -> None:
        """Close the connection."""
        self.client.close()


def records(args: argparse.Namespace) -> int:
    """`board99 records`: list a server's (or a data folder's) finished games; write those asked for."""
    source: Source
    if args.data is not None:
        try:
            source = Archive(args.data)  # read only: the server's own code reads its journal
        except JournalInUse as exc:
            print(f"board99 records: {exc}; while the server runs, ask it with --server", file=sys.stderr)
            return 2
        except (ArchiveError, JournalDamaged) as exc:
            print(f"board99 records: {exc}", file=sys.stderr)
            return 2
    else:
        endpoint = reachable("records", args.server or "127.0.0.1", args.key)
        if endpoint is None:
            return 2
        source = ServerRecords(GameClient(endpoint, server_key=args.key, name="records"))
    try:
        entries, total = source.finished_games(args.limit)
        if not args.get:
            print(f"{total} finished game{'s' if total != 1 else ''}" + (f"; the {len(entries)} newest:"
                                                                        if total > len(entries) else ":"))
            for e in entries:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.finished))
                names = ", ".join(n or "-" for n in e.names)
                notes = [k for k, on in (("a match game", e.match), ("rated", e.rated)) if on]
                if e.kind != kinds.DEFAULT:  # the game, where it is not the peg-board one every older entry is
                    notes.insert(0, kinds.get(e.kind).title if e.kind in kinds.names() else e.kind)
                marks = f" ({', '.join(notes)})" if notes else ""
                # The game's own words for its result (an older server's entry has none: the winning side then).
                result = e.summary or f"side {e.winner} won"
                print(f"  {e.table}:{e.game:<3} {when}  {e.table_name or '(no name)'}: {names}; {result}" + marks)
            return 0
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        status = 0
        for wanted in args.get:
            table, _, game_text = wanted.partition(":")
            if not game_text.isdigit():
                print(f"board99 records: --get {wanted}: write TABLE:GAME as the list shows it", file=sys.stderr)
                return 2
            try:
                text = source.record(table, int(game_text), args.match)
            except LookupError as exc:  # said once, in the words of whoever keeps the records
                print(f"board99 records: {wanted}: {exc}", file=sys.stderr)
                status = 1
                continue
            # A match's file is named for the games it holds, as the window names it, whichever game was asked.
            name = f"game-{game_text}"
            if args.match:
                match = MatchRecord.loads(text)[0]
                name = match_name(match.first_game, match.first_game + len(match.games) - 1)
            path = out / f"{table}-{name}.txt"
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return status
    finally:
        source.close()
