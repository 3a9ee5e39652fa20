"""The table description, as the lobby lists it and every table change carries it (docs/protocol.md, *Data*).

The server builds a ``TableInfo`` and sends ``to_data()``; a client reads it
back with ``from_data()``, which checks every field and ignores fields it does
not know (so an older client survives a newer server). No tokens and no cards
are ever part of it.

>>> ann = SeatInfo(0, 0, "red", "human", "Ann", True, False)
>>> free = SeatInfo(1, 1, None, None, None, False, False)
>>> info = TableInfo("0034d728", "den", 2, "guarded", None, 30.0, "waiting", 1, (), None, 0, (ann, free))
>>> info.free_seats(), info.side_colour(0), info.kind, info.sides
((1,), 'red', 'peg-board', 2)
>>> TableInfo.from_data(info.to_data()) == info
True
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from board99.kinds import DEFAULT, Result
from board99.match_format import MatchFormat, score
from board99.wire.protocol import BOT_PACES, NAME_MAX

#: Table states, in the order a table goes through them (a rematch goes back to "playing").
STATES = ("waiting", "playing", "over")
#: Who may fill a seat.
OCCUPANTS = ("human", "bot")


class SeatInfo(NamedTuple):
    """One seat as everyone may see it: who sits there and whether they are here."""

    seat: int
    side: int
    colour: str | None  # the side's colour, once a seat of that side has chosen one
    occupant: str | None  # "human", "bot" or None (free)
    name: str | None
    connected: bool  # a bot, or a person whose connection answers
    standin: bool  # a bot plays this person's turns until they come back
    left: bool = False  # the person left during this game: a bot plays on; only they may come back
    rating: int | None = None  # the seated player's rating (a bot's fixed one), None for a guest
    reserved: str | None = None  # a tournament keeps this free seat for the player of this name
    hints: int = 0  # hints this seat's player asked the coach for in this game (no secret: board99.coach)

    @property
    def free(self) -> bool:
        """Nobody sits here."""
        return self.occupant is None

    @property
    def bot(self) -> bool:
        """A server bot sits here (not a person's stand-in)."""
        return self.occupant == "bot"


class MatchInfo(NamedTuple):
    """A table's match: its format, the number of its first game, and each finished game's result.

    >>> m = MatchInfo("first-to", 3, 1, (Result(1, (0, 1), "side 0 won"),))
    >>> m.score(2), m.over(2), m.format.text()
    ((1, 0), False, 'first to 3')
    """

    kind: str
    target: int
    first_game: int
    results: tuple[Result, ...]  # each game's ranking of the sides, and its kind's summary

    @property
    def format(self) -> MatchFormat:
        """The match's length (the rules of when it is decided are ``board99.match``'s)."""
        return MatchFormat(self.kind, self.target)

    def score(self, sides: int) -> tuple[int, ...]:
        """Games won per side so far."""
        return score(sides, self.results)

    def over(self, sides: int) -> bool:
        """True once the match is decided."""
        return self.format.over(self.score(sides))

    def winner(self, sides: int) -> int | None:
        """The side that won the match; None while it lasts, or for a level fixed-games match."""
        return self.format.winner(self.score(sides))

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        return {"kind": self.kind, "target": self.target, "first_game": self.first_game,
                "results": [r.to_data() for r in self.results]}

    @classmethod
    def from_data(cls, data: object, sides: int) -> MatchInfo:
        """The match in plain data; ValueError names the first bad field."""
        if not isinstance(data, dict):
            raise ValueError("table.match: expected a map")
        get = _Fields("table.match", data)
        kind, target = get.choice("kind", ("first-to", "games")), get.whole("target", 1, 99)
        try:
            MatchFormat(kind, target).check()
        except ValueError as exc:
            raise ValueError(f"table.{exc}") from None
        results_data = get.value("results")
        # A first-to match among more than two sides lasts longer than among two (4 sides, first to 3: 9 games).
        most = MatchFormat(kind, target).most_games(sides)
        if not isinstance(results_data, list | tuple) or len(results_data) > most:
            raise ValueError(f"table.match.results: expected at most {most} results")
        results = []
        for i, entry in enumerate(results_data):
            if not isinstance(entry, dict):
                raise ValueError(f"table.match.results[{i}]: expected a map")
            results.append(result_from_data(f"table.match.results[{i}]", entry, sides))
        return cls(kind, target, get.whole("first_game", 1, 1 << 62), tuple(results))


def result_from_data(where: str, data: dict, sides: int) -> Result:
    """A game's result in plain data: its number, each side's place (0-based, ``sides`` of them), a summary."""
    r = _Fields(where, data)
    ranking = r.value("ranking")
    if not isinstance(ranking, list | tuple) or len(ranking) != sides or any(
            type(p) is not int or not 0 <= p < sides for p in ranking):
        raise ValueError(f"{where}.ranking: expected a place 0-{sides - 1} for each of {sides} sides")
    summary = r.text("summary")
    detail = data.get("detail", {})
    if not isinstance(detail, dict):
        raise ValueError(f"{where}.detail: expected a map")
    return Result(r.whole("game", 1, 1 << 62), tuple(ranking), summary[:500], detail)


class TableInfo(NamedTuple):
    """One table: its settings, state and seats."""

    id: str
    name: str
    players: int
    mode: str
    clock: float | None  # seconds per turn, or None
    grace: float  # seconds a lost person's seat is held before a bot plays it
    state: str  # one of STATES
    game: int  # 1, 2, ... with each rematch
    votes: tuple[int, ...]  # seats asking for a rematch
    turn_left: float | None  # seconds left on the turn clock when the message was made
    spectators: int
    seats: tuple[SeatInfo, ...]
    rated: bool = False  # every seat a person with a player key; each game moves their ratings
    match: MatchInfo | None = None  # None: single games with rematches
    tournament: str | None = None  # the tournament whose match this table plays
    coach: bool = False  # the coach answers `hint` here: casual tables (not rated, no match)
    bot_pace: str = "quick"  # how fast its server bots move (BOT_PACES); an older server's are quick
    kind: str = DEFAULT  # the game kind's name (``board99.kinds``): the game the table plays
    options: tuple[tuple[str, Any], ...] = ()  # the kind's options: (name, value), in the kind's order

    @property
    def sides(self) -> int:
        """How many sides play at this table (each seat's ``side`` says which it plays for)."""
        return 1 + max((s.side for s in self.seats), default=0)

    def seat_info(self, seat: int) -> SeatInfo | None:
        """The seat's entry, or None if the table has no such seat."""
        return self.seats[seat] if 0 <= seat < len(self.seats) else None

    def free_seats(self) -> tuple[int, ...]:
        """The seats nobody sits in."""
        return tuple(s.seat for s in self.seats if s.free)

    def side_colour(self, side: int) -> str | None:
        """The colour a side plays, once one of its seats chose it."""
        return next((s.colour for s in self.seats if s.side == side and s.colour), None)

    def moved_on(self, data: dict) -> TableInfo:
        """This table with the ``state`` and ``turn_left`` a reply or push carries, checked as ``from_data`` checks them."""
        get = _Fields("table", data)
        state = get.choice("state", STATES)
        left = get.seconds("turn_left", nil=True) if "turn_left" in data else None
        return self._moved(state, left)

    def moved_on_trusted(self, data: dict) -> TableInfo:
        """``moved_on`` without its checks: only for what the server core in this very process made (the web
        seat's trusted ClientCore; docs/web.md, *What the seat trusts*). The same table for the same fields."""
        state = data["state"]
        left = data.get("turn_left")
        return self._moved(state, None if left is None else float(left))

    def _moved(self, state: str, left: float | None) -> TableInfo:
        # This table, or one with the new state and turn clock (the same object while neither changed).
        if state == self.state and left == self.turn_left:
            return self
        return self._replace(state=state, turn_left=left)

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        data = self._asdict()
        data["seats"] = [s._asdict() for s in self.seats]
        data["match"] = None if self.match is None else self.match.to_data()
        data["options"] = [list(pair) for pair in self.options]
        return data

    @classmethod
    def from_data(cls, data: object) -> TableInfo:
        """The description in plain data; ValueError names the first bad field. Unknown fields are ignored."""
        if not isinstance(data, dict):
            raise ValueError("table: expected a map")
        get = _Fields("table", data)
        players = get.whole("players", 1, 1 << 10)
        seats_data = get.value("seats")
        if not isinstance(seats_data, list | tuple) or len(seats_data) != players:
            raise ValueError(f"table.seats: expected {players} seats")
        seats = []
        for i, entry in enumerate(seats_data):
            if not isinstance(entry, dict):
                raise ValueError(f"table.seats[{i}]: expected a map")
            s = _Fields(f"table.seats[{i}]", entry)
            seats.append(SeatInfo(
                s.whole("seat", i, i), s.whole("side", 0, players - 1), s.text("colour", nil=True),
                s.choice("occupant", OCCUPANTS, nil=True), s.text("name", nil=True), s.flag("connected"),
                s.flag("standin"), s.flag("left", default=False), s.optional_whole("rating", -(1 << 30), 1 << 30),
                s.optional_text("reserved"), s.optional_whole("hints", 0, 1 << 30) or 0,
            ))
        votes = get.value("votes")
        if not isinstance(votes, list | tuple) or any(type(v) is not int or not 0 <= v < players for v in votes):
            raise ValueError(f"table.votes: expected seats 0-{players - 1}, got {votes!r}")
        sides = 1 + max(s.side for s in seats)
        if set(s.side for s in seats) != set(range(sides)):
            raise ValueError(f"table.seats: the seats' sides are not 0-{sides - 1}, each played by a seat")
        options_data = data.get("options", [])
        if not isinstance(options_data, list | tuple) or any(
                not isinstance(o, list | tuple) or len(o) != 2 or type(o[0]) is not str for o in options_data):
            raise ValueError("table.options: expected (name, value) pairs")
        kind = get.text("kind") if "kind" in data else DEFAULT
        if not kind or len(kind) > NAME_MAX:
            raise ValueError(f"table.kind: expected a game's name, got {kind!r}"[:200])
        return cls(
            get.text("id"), get.text("name"), players, get.text("mode"), get.seconds("clock", nil=True),
            get.seconds("grace"), get.choice("state", STATES), get.whole("game", 1, 1 << 62), tuple(votes),
            get.seconds("turn_left", nil=True), get.whole("spectators", 0, 1 << 62), tuple(seats),
            get.flag("rated", default=False),
            None if data.get("match") is None else MatchInfo.from_data(data["match"], sides),
            get.optional_text("tournament"), get.flag("coach", default=False),
            get.choice("bot_pace", BOT_PACES) if "bot_pace" in data else "quick",
            kind, tuple((str(o[0]), o[1]) for o in options_data),
        )


class _Fields:
    """Reads typed fields out of one map, naming the field it rejects."""

    def __init__(self, where: str, data: dict) -> None:
        self.where, self.data = where, data

    def value(self, name: str) -> Any:
        if name not in self.data:
            raise ValueError(f"{self.where}.{name}: missing")
        return self.data[name]

    def _bad(self, name: str, want: str, value: Any) -> ValueError:
        return ValueError(f"{self.where}.{name}: expected {want}, got {value!r}"[:200])

    def whole(self, name: str, lo: int, hi: int) -> int:
        value = self.value(name)
        if type(value) is not int or not lo <= value <= hi:
            raise self._bad(name, f"a whole number {lo}-{hi}", value)
        return value

    def choice(self, name: str, choices: tuple, nil: bool = False) -> Any:
        value = self.value(name)
        if (value is None and nil) or (value in choices and type(value) is type(choices[0])):
            return value
        raise self._bad(name, "one of " + ", ".join(map(str, choices)), value)

    def text(self, name: str, nil: bool = False) -> Any:
        value = self.value(name)
        if (value is None and nil) or type(value) is str:
            return value
        raise self._bad(name, "text", value)

    def optional_whole(self, name: str, lo: int, hi: int) -> int | None:
        return None if self.data.get(name) is None else self.whole(name, lo, hi)

    def optional_text(self, name: str) -> str | None:
        return None if self.data.get(name) is None else self.text(name)

    def flag(self, name: str, default: bool | None = None) -> bool:
        if default is not None and name not in self.data:
            return default
        value = self.value(name)
        if type(value) is not bool:
            raise self._bad(name, "true or false", value)
        return value

    def seconds(self, name: str, nil: bool = False) -> Any:
        value = self.value(name)
        if value is None and nil:
            return None
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
            raise self._bad(name, "seconds", value)
        return float(value)
