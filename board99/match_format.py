"""A match's length and score, for any game kind: ``first to N`` wins, or a fixed number of games.

Game-neutral (the house's server, wire and client use it for every kind); a
kind's own match records live with the kind (``board99.match`` for the peg-board game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

#: The match lengths a table may be created with: first to 1, 3 or 5 wins, or 1 to 9 games.
FIRST_TO = (1, 3, 5)
MOST_GAMES = 9


class MatchFormat(NamedTuple):
    """How long a match lasts: ``first-to`` N wins, or a fixed number of ``games``."""

    kind: str  # "first-to" or "games"
    target: int

    def check(self) -> MatchFormat:
        """This format, or ValueError naming what is wrong.

        >>> MatchFormat("first-to", 2).check()
        Traceback (most recent call last):
        ...
        ValueError: match: first to 2 is not offered; a match is first to 1, 3 or 5 wins, or 1-9 games
        """
        allowed = (self.kind == "first-to" and self.target in FIRST_TO) or (
            self.kind == "games" and type(self.target) is int and 1 <= self.target <= MOST_GAMES)
        if not allowed:
            raise ValueError(f"match: {self.text()} is not offered; a match is first to "
                             f"{', '.join(map(str, FIRST_TO[:-1]))} or {FIRST_TO[-1]} wins, or 1-{MOST_GAMES} games")
        return self

    def text(self) -> str:
        """``first to 3`` or ``4 games``."""
        if self.kind == "first-to":
            return f"first to {self.target}"
        return f"{self.target} game{'s' if self.target != 1 else ''}" if self.kind == "games" else self.kind

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """The format ``text()`` wrote; ValueError otherwise."""
        words = text.split()
        if len(words) == 3 and words[:2] == ["first", "to"] and words[2].isdigit():
            return cls("first-to", int(words[2])).check()
        if len(words) == 2 and words[0].isdigit() and words[1] in ("game", "games"):
            return cls("games", int(words[0])).check()
        raise ValueError(f"match: {text!r} is neither 'first to N' nor 'N games'")

    def over(self, score: Sequence[int]) -> bool:
        """True once ``score`` (games won per side) decides the match.

        >>> MatchFormat("first-to", 3).over((3, 1)), MatchFormat("games", 4).over((2, 1))
        (True, False)
        """
        if self.kind == "first-to":
            return max(score, default=0) >= self.target
        return sum(score) >= self.target

    def most_games(self, sides: int) -> int:
        """The most games a match among ``sides`` sides can last (every game has one winner).

        First to N: each side may win N - 1 before one wins its N-th.

        >>> MatchFormat("first-to", 3).most_games(2), MatchFormat("first-to", 3).most_games(4)
        (5, 9)
        """
        if self.kind == "first-to":
            return max(sides, 1) * (self.target - 1) + 1
        return self.target

    def winner(self, score: Sequence[int]) -> int | None:
        """The side that won the match, or None (not decided yet, or level after a fixed number of games)."""
        if not self.over(score):
            return None
        best = max(score)
        leaders = [side for side, won in enumerate(score) if won == best]
        return leaders[0] if len(leaders) == 1 else None


def score(sides: int, results: Sequence[Any]) -> tuple[int, ...]:
    """Games won per side: each result's ``side`` (None, a game nobody won alone, counts for nobody)."""
    won = [0] * sides
    for r in results:
        if r.side is not None:
            won[r.side] += 1
    return tuple(won)
