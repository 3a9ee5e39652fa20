"""What every game's text record shares: its error, and the check of its body line by line against the rules.

A record's body is action lines, each followed by the events the rules give for
it, indented. Replaying checks each line against what the game itself gives,
so a record that was edited, or written by other rules, fails at its first
wrong line. Game-neutral: each game's record module parses its own header and
action lines and hands them here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from .kinds import Refusal

#: How an event line is indented under its action line.
EVENT_INDENT = "  "


class RecordError(ValueError):
    """A record that cannot be read, or a line that breaks the rules."""

    def __init__(self, line_no: int, line: str, reason: str) -> None:
        super().__init__(f"line {line_no}: {line!r}: {reason}")
        self.line_no = line_no
        self.line = line
        self.reason = reason


class Replayable(Protocol):
    """A game as the line check drives it: its opening events, and actions applied."""

    @property
    def opening(self) -> tuple[Any, ...]:
        """The events that began the game (its first deal)."""

    def apply(self, seat: int, action: Any) -> tuple[Any, ...]:
        """Carry the action out; the events it caused (each with ``text()``)."""


G = TypeVar("G", bound=Replayable)


def check_lines(game: G, lines: Sequence[str], first: int,
                parse: Callable[[int, str], tuple[int, Any]]) -> Iterator[tuple[int, str, G]]:
    """Replay ``lines`` (the body, whose first line is line ``first`` of the file) on ``game`` line by line.

    Yields (line number, line, game after it); RecordError at the first line that is not what the
    rules give. ``parse(no, line)`` reads an action line into (seat, action), or raises RecordError.
    """
    expected = [EVENT_INDENT + e.text() for e in game.opening]
    pending = 0  # how many of ``expected`` are checked so far
    action_line = 0
    for offset, line in enumerate(lines):
        no = first + offset
        if line.startswith(EVENT_INDENT):
            if pending >= len(expected):
                raise RecordError(no, line, "the rules give no further event here")
            if line != expected[pending]:
                raise RecordError(no, line, f"the rules give {expected[pending].strip()!r} here")
            pending += 1
            yield no, line, game
            continue
        if pending < len(expected):
            raise RecordError(no, line, f"missing event {expected[pending].strip()!r} before this line")
        seat, action = parse(no, line)
        try:
            events = game.apply(seat, action)
        except Refusal as exc:
            raise RecordError(no, line, f"refused ({exc.code}): {exc.message}") from None
        expected = [EVENT_INDENT + e.text() for e in events]
        pending = 0
        action_line = no
        yield no, line, game
    if pending < len(expected):
        raise RecordError(first + len(lines), "",
                          f"record ends before event {expected[pending].strip()!r} of line {action_line}")
