"""Ninety-Nine records: plain text a person can read, that saves, loads and replays exactly.

A record is a header (its first line names the game), a blank line, the first
deal's events indented two spaces, then one line per action (``S1 play 10H as
-10 says 89``) each followed by the events it caused. Replaying applies each
action to a fresh game from the header and checks that the rules give exactly
the recorded events, line by line.

>>> from board99.ninety_nine.game import Game
>>> from board99.ninety_nine.rules import Table
>>> g = Game(2, "guarded", Table.build(2, {"rules": "tokens"}), seed=9)
>>> text = NinetyRecord.of(g).dumps()
>>> text.splitlines()[:5]
['# NINETY-NINE record, board99 format 1', 'players: 2', 'mode: guarded', 'options: rules=tokens', 'seed: 9']
>>> NinetyRecord.loads(text).dumps() == text, NinetyRecord.loads(text).replay().total == g.total
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..record_lines import EVENT_INDENT, RecordError, check_lines
from .actions import Action, parse_action
from .game import Game
from .rules import HOUSE_OPTIONS, Table

MAGIC = "# NINETY-NINE record, board99 format 1"
#: The first line of a match's record: a header (the match's length, the names), then each game's record.
MATCH_MAGIC = "# NINETY-NINE match record, board99 format 1"
HIDDEN = "hidden"
_ACTION_LINE = re.compile(r"S(\d) (.+)")
_HEADER = ("players", "mode", "options", "seed", "dealer")
_FIRST_BODY = len(_HEADER) + 3  # 1-based line number of the first body line


def _value(name: str, text: str) -> Any:
    """Option ``name``'s value as the header writes it: the choice it names ('-10' is a rank's effect, '3' a
    number of tokens); an unknown text stays text, for the rules' check to refuse by name."""
    for option in HOUSE_OPTIONS:
        if option.name == name:
            return next((c for c in option.choices if str(c) == text), text)
    return text


@dataclass
class NinetyRecord:
    """A game record: how the game was set up and every line that followed."""

    players: int
    mode: str
    options: tuple[tuple[str, Any], ...]  # the options that differ from their defaults (the rule set always)
    seed: int | None  # None: not revealed yet, and then draws are not named either
    dealer: int | None = None  # a set first dealer; None: drawn from the seed
    lines: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game, reveal: bool = True) -> NinetyRecord:
        """The record of ``game`` so far; without ``reveal`` the seed and the cards drawn stay hidden."""
        lines = [EVENT_INDENT + e.text(reveal) for e in game.opening]
        for seat, action, events in game.log:
            lines.append(f"S{seat} {action.text()}")
            lines.extend(EVENT_INDENT + e.text(reveal) for e in events)
        return cls(game.players, game.mode, game.table.changed(), game.seed if reveal else None,
                   game.start_dealer, lines)

    def dumps(self) -> str:
        """The record as text."""
        head = [
            MAGIC,
            f"players: {self.players}",
            f"mode: {self.mode}",
            "options: " + ", ".join(f"{k}={v}" for k, v in self.options),
            f"seed: {HIDDEN if self.seed is None else self.seed}",
            f"dealer: {'drawn' if self.dealer is None else f'S{self.dealer}'}",
        ]
        return "\n".join(head + [""] + self.lines) + "\n"

    @classmethod
    def loads(cls, text: str) -> NinetyRecord:
        """Read a record from text; RecordError names the first line that is not one."""
        rows = text.lstrip("\ufeff").split("\n")
        if rows and rows[-1] == "":
            rows.pop()
        if not rows or rows[0] != MAGIC:
            raise RecordError(1, rows[0] if rows else "", f"a record starts with {MAGIC!r}")
        fields: dict[str, str] = {}
        for no, name in enumerate(_HEADER, start=2):
            row = rows[no - 1] if no - 1 < len(rows) else ""
            key, sep, value = row.partition(": ")
            if key != name or not sep:
                raise RecordError(no, row, f"expected the header field '{name}: ...'")
            fields[name] = value
        blank = len(_HEADER) + 1
        if len(rows) <= blank or rows[blank] != "":
            raise RecordError(blank + 1, rows[blank] if len(rows) > blank else "",
                              "expected a blank line after the header")
        try:
            players = int(fields["players"])
            seed = None if fields["seed"] == HIDDEN else int(fields["seed"])
            dealer = None if fields["dealer"] == "drawn" else int(fields["dealer"].removeprefix("S"))
            options = tuple((k, _value(k, v)) for k, _, v in
                            (item.partition("=") for item in fields["options"].split(", ") if item))
        except ValueError as exc:
            raise RecordError(2, "", f"header: {exc}") from None
        known = {o.name for o in HOUSE_OPTIONS}
        for name, _ in options:
            if name not in known:
                raise RecordError(4, "options: " + fields["options"], f"no option {name!r}")
        return cls(players, fields["mode"], options, seed, dealer, rows[blank + 1:])

    def new_game(self) -> Game:
        """The game the header describes, before its first action; RecordError when it cannot be."""
        if self.seed is None:
            raise RecordError(5, "seed: hidden", "the seed is not revealed, so draws cannot be checked")
        try:
            return Game(self.players, self.mode, Table.build(self.players, dict(self.options)), seed=self.seed,
                        dealer=self.dealer)
        except ValueError as exc:
            raise RecordError(2, "", f"header: {exc}") from None

    def steps(self) -> Iterator[tuple[int, str, Game]]:
        """Replay the record line by line, yielding (line number, line, game after it).

        Raises RecordError at the first line that is not what the rules give.
        """
        yield from check_lines(self.new_game(), self.lines, _FIRST_BODY, self._parse_action)

    def replay(self) -> Game:
        """The game at the record's end, every line checked; RecordError otherwise."""
        last = None
        for _, _, step in self.steps():
            last = step
        return self.new_game() if last is None else last

    @staticmethod
    def _parse_action(no: int, line: str) -> tuple[int, Action]:
        m = _ACTION_LINE.fullmatch(line)
        if not m:
            raise RecordError(no, line, "expected an action 'S<seat> play <card> [as N] [says N] | draw'")
        try:
            return int(m[1]), parse_action(m[2])
        except ValueError as exc:
            raise RecordError(no, line, str(exc)) from None


class MatchGames(NamedTuple):
    """A file's game records: one for a game's record, each game's for a match's (with its header's facts)."""

    games: tuple[tuple[int, str], ...]  # (the line of the file its first line is, the game's record)
    names: tuple[str, ...] | None  # per seat, from a match's header (a game's record names nobody)
    length: str  # a match's length ('first to 3'); '' for a single game


def split_match(text: str) -> MatchGames:
    """The game records a file holds: itself when it is a game's record, each of a match's games otherwise.

    >>> m = split_match(f"{MATCH_MAGIC}\\nmatch: first to 3\\nS0: Ann\\nS1: Bo\\n\\n{MAGIC}\\nplayers: 2\\n")
    >>> m.games, m.names, m.length
    (((6, '# NINETY-NINE record, board99 format 1\\nplayers: 2\\n'),), ('Ann', 'Bo'), 'first to 3')
    """
    rows = text.lstrip("\ufeff").split("\n")
    if rows[0] != MATCH_MAGIC:
        return MatchGames(((1, text),), None, "")
    starts = [i for i, row in enumerate(rows) if row == MAGIC]
    if not starts:
        raise RecordError(2, rows[1] if len(rows) > 1 else "", f"a match record holds games' records ({MAGIC!r})")
    head = rows[:starts[0]]
    names = tuple(value for key, _, value in (row.partition(": ") for row in head)
                  if key[:1] == "S" and key[1:].isdigit())
    length = next((row.partition(": ")[2] for row in head if row.startswith("match: ")), "")
    ends = [*starts[1:], len(rows)]
    games = tuple((a + 1, "\n".join(rows[a:b]).rstrip("\n") + "\n") for a, b in zip(starts, ends))
    return MatchGames(games, names or None, length)


def replay_file(text: str) -> Iterator[tuple[int, str, Game]]:
    """Replay a game's or a match's record line by line: (line of the file, line, game after it).

    RecordError names the first line of the file that is not what the rules give.
    """
    for first, game_text in split_match(text).games:
        try:
            for no, line, game in NinetyRecord.loads(game_text).steps():
                yield no + first - 1, line, game
        except RecordError as exc:
            raise RecordError(exc.line_no + first - 1, exc.line, exc.reason) from None
