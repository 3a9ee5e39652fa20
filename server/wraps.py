"""What wraps a table's games: the match and its rematches, the tournament it plays for, the coach's quota.

One of the three parts of a server table (``tables.Table``). A match counts
each game's result (a ranking of sides, ``board99.kinds.Result``): the side
alone in first place won that game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from board99.kinds import Result
from board99.match_format import MatchFormat, score
from board99.wire.protocol import ProtocolError

from .presence import Bucket

if TYPE_CHECKING:
    from .tables import Table


@dataclass(kw_only=True)
class Wraps:
    """A table's match, rematch votes, tournament, rating flag, and the coach's hints and quota."""

    match: MatchFormat | None = None  # None: single games with rematches
    match_first: int = 1  # the game number the current match began with
    results: list[Result] = field(default_factory=list)  # the current match's finished games
    rated: bool = False  # people with player keys only; each game moves their ratings
    tournament: str | None = None  # the tournament this table plays a match of
    votes: set[int] = field(default_factory=set)  # seats asking for a rematch
    #: Who sat in each seat (name, player id) when the last game ended, before its left seats were freed.
    played_by: list[tuple[str | None, int | None]] = field(default_factory=list)
    #: (seat, ply) of each hint asked for in the current game, in order (journaled; the record's `hints` line).
    hints: list[tuple[int, int]] = field(default_factory=list)
    #: seat -> ((game, ply), advice): the seat's last advice, given again without cost at the same position.
    advice: dict[int, tuple[tuple[int, int], Any]] = field(default_factory=dict)
    #: seat -> its hint quota (kept with the seat, not the connection: a reconnect does not refill it).
    hint_quota: dict[int, Bucket] = field(default_factory=dict)

    @property
    def _t(self) -> Table:
        """The whole table these games are played at (for its seats and game)."""
        return self  # type: ignore[return-value]  # (not typing.cast: a call on every act, for the checker only)

    def _stage_wraps(self, twin: Wraps) -> None:
        twin.votes = set(self.votes)
        twin.results = list(self.results)
        twin.hints = list(self.hints)
        twin.advice = dict(self.advice)

    @property
    def coach(self) -> bool:
        """True where the coach gives hints: casual tables, neither rated nor playing a match (docs/coach.md)."""
        return not self.rated and self.match is None

    @property
    def one_seat_each(self) -> bool:
        """True where a player key holds one seat at most: rated, match and tournament tables (docs/server.md)."""
        return self.rated or self.match is not None or self.tournament is not None

    def vote_rematch(self, seat: int, now: float) -> bool:
        """``seat`` asks for a rematch (in a match: the next game); True if that started a new game.

        A game starts once every person at the table asked and every seat is filled.
        """
        t = self._t
        if t.state != "over":
            raise ProtocolError("not-over", f"table {t.id}: a rematch is possible once the game is over")
        if self.tournament is not None and self.match_decided():
            raise ProtocolError("match-over", f"table {t.id}: this tournament match is decided; the tournament's "
                                              f"next round opens new tables")
        self.votes.add(seat)
        return self.start_rematch_if_ready(now)

    def match_decided(self) -> bool:
        """True if the table plays a match and it is decided."""
        return self.match is not None and self.match.over(score(self._t.sides, self.results))

    def start_rematch_if_ready(self, now: float) -> bool:
        """Start the next game with the same seats if every person asked and every seat is filled.

        A match table with no person left at it (bots in every seat) goes on by itself until the
        match is decided.
        """
        t = self._t
        humans = {s.seat for s in t.seats if s.occupant == "human"}
        if t.state != "over" or not humans <= self.votes or not t.full():
            return False
        if not humans and (self.match is None or self.match_decided()):
            return False
        if self.match_decided():
            if self.tournament is not None:
                return False
            self.match_first, self.results = t.game_no + 1, []  # a rematch after a match: a new match
        t.new_game(None, now)
        return True
