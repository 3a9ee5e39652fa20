"""Game records: plain text a person can read, that saves, loads and replays exactly.

A record is a header, a blank line, then one line per action (``S1 play 12 on
57``) each followed by the events it caused, indented two spaces (``  S1
pegged 57 with 12``). Every deal opens with its cut line (``  deal 1 cut 40 7
first S1``). Replaying a record applies each action to a fresh game and checks
that the rules give exactly the recorded events.

A game in which players asked the coach for hints (``board99.coach``) says so
in one more header line, after ``deck``: ``hints: S1 at ply 12, S0 at ply
30`` (who asked, and how many actions had been carried out then). Records
without it -- every game without hints, and every record written before hints
existed -- read as before. Replaying ignores it: the coach's advice is a
function of the seat's view, so a review can ask the coach again at that ply.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .actions import Action, parse_action
from .game import Game
from .record_lines import EVENT_INDENT, check_lines
from .record_lines import RecordError as RecordError  # people and the window import it from here

MAGIC = "# GAME OF 99 record, board99 format 1"
#: A header value kept secret until the game is over.
HIDDEN = "hidden"
_ACTION_LINE = re.compile(r"S(\d+) (.+)")
#: The optional header line naming the hints asked for (after ``deck``).
HINTS_FIELD = "hints"
_HINT_ITEM = re.compile(r"S(\d+) at ply (\d+)")


def why_unreadable(exc: OSError | UnicodeDecodeError) -> str:
    """Why a record file could not be read, in a person's words (not Python's ``[Errno 2] ...``).

    >>> why_unreadable(FileNotFoundError(2, "No such file or directory", "game.txt"))
    'no such file'
    >>> why_unreadable(UnicodeDecodeError("utf-8", b"\\xff", 0, 1, "invalid start byte"))
    'not a game record (not UTF-8 text)'
    """
    if isinstance(exc, UnicodeDecodeError):
        return "not a game record (not UTF-8 text)"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "a folder, not a record file"
    if isinstance(exc, PermissionError):
        return "not allowed to read it (permission denied)"
    return f"cannot read it ({exc.strerror or exc})"


@dataclass
class Record:
    """A game record: how the game was set up and every line that followed."""

    players: int
    mode: str
    seed: int | None  # None: not revealed yet, and then draws are not named either
    first: int | None = None
    deck: tuple[int, ...] | None = None  # a set deck order, top first (practice); None: shuffled
    lines: list[str] = field(default_factory=list)
    #: True when a set deck order exists but is kept secret (``deck: hidden``) while the deal is played.
    deck_hidden: bool = False
    #: (seat, ply) of each hint a player asked the coach for, in order: the ``hints`` header line.
    hints: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, game: Game, reveal: bool = True, hints: tuple[tuple[int, int], ...] = ()) -> Record:
        """The record of ``game`` so far; without ``reveal`` the seed, a set deck order and drawn cards stay hidden.

        ``hints``: (seat, ply) of each hint asked for (the server keeps them; the game does not).

        >>> from board99 import Game
        >>> Record.of(Game(2, seed=3, deck=range(100)), reveal=False).dumps().splitlines()[3:6]
        ['seed: hidden', 'first: cut', 'deck: hidden']
        """
        lines = [EVENT_INDENT + e.text(reveal) for e in game.opening]
        add = lines.append
        # Plain loops, not a generator for each action: the server writes every finished game's record.
        for seat, action, events in game.log:
            add(f"S{seat} {action.text()}")
            for e in events:
                add(EVENT_INDENT + e.text(reveal))
        hidden = not reveal and game.start_deck is not None
        return cls(
            game.players, game.mode, game.seed if reveal else None,
            game.start_first, None if hidden else game.start_deck, lines, deck_hidden=hidden, hints=tuple(hints),
        )

    def dumps(self) -> str:
        """The record as text."""
        head = [
            MAGIC,
            f"players: {self.players}",
            f"mode: {self.mode}",
            f"seed: {'hidden' if self.seed is None else self.seed}",
            f"first: {'cut' if self.first is None else f'S{self.first}'}",
            f"deck: {self._deck_text()}",
        ]
        if self.hints:
            head.append(f"{HINTS_FIELD}: " + ", ".join(f"S{seat} at ply {ply}" for seat, ply in self.hints))
        return "\n".join(head + [""] + self.lines) + "\n"

    def _deck_text(self) -> str:
        if self.deck_hidden:
            return HIDDEN
        return "shuffled" if self.deck is None else " ".join(map(str, self.deck))

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from text; RecordError names the first line that is not one."""
        rows = text.split("\n")
        if rows and rows[-1] == "":
            rows.pop()
        if not rows or rows[0] != MAGIC:
            raise RecordError(1, rows[0] if rows else "", f"a record starts with {MAGIC!r}")
        fields: dict[str, str] = {}
        names = ("players", "mode", "seed", "first", "deck")
        for i, name in enumerate(names, start=2):
            row = rows[i - 1] if i - 1 < len(rows) else ""
            key, sep, value = row.partition(": ")
            if key != name or not sep:
                raise RecordError(i, row, f"expected the header field '{name}: ...'")
            fields[name] = value
        blank = len(names) + 1
        hints_row = rows[blank] if len(rows) > blank and rows[blank].startswith(HINTS_FIELD + ": ") else None
        if hints_row is not None:
            blank += 1
        if len(rows) <= blank or rows[blank] != "":
            raise RecordError(blank + 1, rows[blank] if len(rows) > blank else "", "expected a blank line after the header")
        try:
            players = int(fields["players"])
            seed = None if fields["seed"] == HIDDEN else int(fields["seed"])
            first = None if fields["first"] == "cut" else int(fields["first"].removeprefix("S"))
            deck = None if fields["deck"] in ("shuffled", HIDDEN) else tuple(int(x) for x in fields["deck"].split())
        except ValueError as exc:
            raise RecordError(2, "", f"header: {exc}") from None
        hints = () if hints_row is None else cls._parse_hints(blank, hints_row, players)
        return cls(players, fields["mode"], seed, first, deck, rows[blank + 1:], deck_hidden=fields["deck"] == HIDDEN,
                   hints=hints)

    @staticmethod
    def _parse_hints(no: int, row: str, players: int) -> tuple[tuple[int, int], ...]:
        """The ``hints`` header line (line ``no``): 'S<seat> at ply <n>' items, comma-separated."""
        found = []
        for item in row.removeprefix(HINTS_FIELD + ": ").split(", "):
            m = _HINT_ITEM.fullmatch(item)
            if m is None or not int(m[1]) < players:
                raise RecordError(no, row, f"hints: expected 'S<seat> at ply <n>' for a seat 0-{players - 1}, "
                                           f"got {item!r}")
            found.append((int(m[1]), int(m[2])))
        return tuple(found)

    def steps(self) -> Iterator[tuple[int, str, Game]]:
        """Replay the record line by line, yielding (line number, line, game after it).

        Raises RecordError at the first line that is not what the rules give.
        """
        if self.seed is None:
            raise RecordError(4, "seed: hidden", "the seed is not revealed, so draws cannot be checked")
        if self.deck_hidden:
            raise RecordError(6, "deck: hidden", "the deck order is not revealed, so draws cannot be checked")
        try:
            game = Game(self.players, self.mode, seed=self.seed, deck=self.deck, first=self.first)
        except ValueError as exc:
            raise RecordError(2, "", f"header: {exc}") from None
        first_body = 8 + bool(self.hints)  # 1-based line number of the first body line
        yield from check_lines(game, self.lines, first_body, self._parse_action)

    def replay(self) -> Game:
        """The game at the record's end, every line checked; RecordError otherwise."""
        game = None
        for _, _, step_game in self.steps():
            game = step_game
        assert game is not None  # steps() raises on a record without its deal line
        return game

    @staticmethod
    def _parse_action(no: int, line: str) -> tuple[int, Action]:
        m = _ACTION_LINE.fullmatch(line)
        if not m:
            raise RecordError(no, line, "expected an action 'S<seat> play N on S | draw | discard N'")
        try:
            return int(m[1]), parse_action(m[2])
        except ValueError as exc:
            raise RecordError(no, line, str(exc)) from None
