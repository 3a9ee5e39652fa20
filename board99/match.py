"""Matches: a series of games at one table, its score, and the match record that keeps all of them.

A match is won by the first side to win ``N`` games (``first to 3``), or is a
fixed number of games (``4 games``: the side with most wins takes it, level is
a drawn match). A tied deal is replayed inside its game (docs/rules.md §6), so a game
always ends with a winner and a tie is never a game won.

A match record is a header naming the format, the seats and the score, a blank
line, then each game's record (``board99.record``) one after another::

    # GAME OF 99 match record, board99 format 1
    players: 2
    mode: guarded
    match: first to 1
    S0: Ann
    S1: rulebook (bot)
    score: 1 0
    winner: side 0

    # GAME OF 99 record, board99 format 1
    ...

Reading it back replays every game and checks that the header's score and
winner are what the games give, and that no game was played after the match
was decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .events import Won
from .game import Game
from .kinds import Result
from .match_format import FIRST_TO, MOST_GAMES, MatchFormat, score
from .record import MAGIC as GAME_MAGIC
from .record import Record, RecordError
from .settings import sides_for

MATCH_MAGIC = "# GAME OF 99 match record, board99 format 1"
#: What the header's winner line says of a match not yet decided.
UNDECIDED = "undecided"
LEVEL = "level"

__all__ = ["FIRST_TO", "LEVEL", "MATCH_MAGIC", "MOST_GAMES", "UNDECIDED", "GameResult", "MatchFormat", "MatchRecord",
           "is_match_record", "result_of", "score"]
class GameResult(NamedTuple):
    """How one game of a match ended: the side and seat that made the line, and how many deals it took."""

    game: int  # the table's game number
    side: int
    seat: int
    line: tuple[int, ...]
    deals: int  # 1, or more when tied deals were replayed


def from_result(result: Result) -> GameResult:
    """The peg-board result a house ``board99.kinds.Result`` of this game carries (its ``detail``).

    ValueError naming the field when the detail is not a peg-board result's.
    """
    detail = result.detail
    side, seat, line, deals = result.winner, detail.get("seat"), detail.get("line"), detail.get("deals")
    if side is None or type(seat) is not int or type(deals) is not int or not isinstance(line, list | tuple) \
            or any(type(q) is not int or not 0 <= q <= 99 for q in line) or not 5 <= len(line) <= 10:
        raise ValueError("result: not a GAME OF 99 result (a side, its seat, its line of 5-10 squares, deals)")
    return GameResult(result.game, side, seat, tuple(line), deals)


def to_result(result: GameResult, sides: int) -> Result:
    """The house's ``board99.kinds.Result`` of a peg-board result: the winning side first, the others second."""
    ranking = tuple(0 if side == result.side else 1 for side in range(sides))
    return Result(result.game, ranking, f"side {result.side} won with {'-'.join(map(str, result.line))}",
                  {"seat": result.seat, "line": list(result.line), "deals": result.deals})


def result_of(game: Game, game_no: int) -> GameResult:
    """The result of a finished game (ValueError if it is not over)."""
    if game.winner is None or game.winning_line is None:
        raise ValueError("the game is not over")
    won = next(e for _, _, events in reversed(game.log) for e in events if type(e) is Won)
    assert isinstance(won, Won)
    return GameResult(game_no, won.side, won.seat, tuple(game.winning_line), game.deal)


@dataclass
class MatchRecord:
    """A match's games, its seats' names and its format, as one file."""

    players: int
    mode: str
    format: MatchFormat
    names: tuple[str, ...]  # per seat, as shown at the table
    games: list[Record] = field(default_factory=list)
    first_game: int = 1  # the table's number of the match's first game

    def dumps(self, results: Sequence[GameResult]) -> str:
        """The match record as text; ``results`` are the games' results (``check`` gives them)."""
        won = score(sides_for(self.players), results)
        winner = self.format.winner(won)
        decided = "side " + str(winner) if winner is not None else LEVEL if self.format.over(won) else UNDECIDED
        head = [MATCH_MAGIC, f"players: {self.players}", f"mode: {self.mode}", f"match: {self.format.text()}"]
        head += [f"S{seat}: {name}" for seat, name in enumerate(self.names)]
        head += [f"score: {' '.join(map(str, won))}", f"winner: {decided}", ""]
        return "\n".join(head) + "\n" + "".join(g.dumps() for g in self.games)

    @classmethod
    def loads(cls, text: str) -> tuple[MatchRecord, list[GameResult]]:
        """Read a match record and replay every game; RecordError names the first line that is wrong."""
        rows = text.split("\n")
        if not rows or rows[0] != MATCH_MAGIC:
            raise RecordError(1, rows[0] if rows else "", f"a match record starts with {MATCH_MAGIC!r}")
        fixed = ("players", "mode", "match")
        values: dict[str, str] = {}
        for no, name in enumerate(fixed, start=2):
            values[name] = _field(rows, no, name)
        try:
            players = int(values["players"])
            sides = sides_for(players)
            fmt = MatchFormat.parse(values["match"])
        except ValueError as exc:
            raise RecordError(2, rows[1], f"header: {exc}") from None
        names = tuple(_field(rows, 5 + seat, f"S{seat}") for seat in range(players))
        score_no = 5 + players
        declared = _field(rows, score_no, "score")
        declared_winner = _field(rows, score_no + 1, "winner")
        if len(rows) <= score_no + 1 or rows[score_no + 1] != "":
            raise RecordError(score_no + 2, rows[score_no + 1] if len(rows) > score_no + 1 else "",
                              "expected a blank line after the header")
        record = cls(players, values["mode"], fmt, names)
        results = record._read_games(rows, score_no + 2, sides)
        won = score(sides, results)
        if declared != " ".join(map(str, won)):
            raise RecordError(score_no, f"score: {declared}", f"the games give the score {' '.join(map(str, won))}")
        winner = fmt.winner(won)
        expected = f"side {winner}" if winner is not None else LEVEL if fmt.over(won) else UNDECIDED
        if declared_winner != expected:
            raise RecordError(score_no + 1, f"winner: {declared_winner}", f"the games give 'winner: {expected}'")
        return record, results

    def _read_games(self, rows: list[str], start: int, sides: int) -> list[GameResult]:
        """Each game's record from line ``start`` (0-based), replayed; their results in order."""
        body = rows[start:]
        if body and body[-1] == "":
            body.pop()
        if not body:
            raise RecordError(start + 1, "", "a match record holds at least one game's record")
        starts = [i for i, row in enumerate(body) if row == GAME_MAGIC]
        if not starts or starts[0] != 0:
            raise RecordError(start + 1, body[0], f"expected a game record starting {GAME_MAGIC!r}")
        results: list[GameResult] = []
        for n, (begin, end) in enumerate(zip(starts, starts[1:] + [len(body)])):
            offset = start + begin  # 0-based row of this game's first line in the whole file
            if self.format.over(score(sides, results)):
                raise RecordError(offset + 1, body[begin], "the match was already decided before this game")
            try:
                game_record = Record.loads("\n".join(body[begin:end]) + "\n")
                if (game_record.players, game_record.mode) != (self.players, self.mode):
                    raise RecordError(2, "", f"the game is for {game_record.players} players in "
                                             f"{game_record.mode} mode, not the match's")
                game = game_record.replay()
            except RecordError as exc:  # renumbered to the match file's lines
                raise RecordError(offset + exc.line_no, exc.line, f"game {n + 1}: {exc.reason}") from None
            if game.winner is None:
                raise RecordError(offset + end - begin, body[end - 1], f"game {n + 1} ends before a side has won")
            results.append(result_of(game, self.first_game + n))
            self.games.append(game_record)
        return results


def _field(rows: list[str], no: int, name: str) -> str:
    """The value of header line ``no`` (1-based), which must be ``name: value``."""
    row = rows[no - 1] if no - 1 < len(rows) else ""
    key, sep, value = row.partition(": ")
    if key != name or not sep:
        raise RecordError(no, row, f"expected the header field '{name}: ...'")
    return value


def is_match_record(text: str) -> bool:
    """True if ``text`` starts like a match record (rather than one game's)."""
    return text.startswith(MATCH_MAGIC + "\n")
