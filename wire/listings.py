"""What the lobby's lists carry: the leaderboard, finished games, a player's history, tournaments.

The server builds these and sends ``to_data()``; a client reads them back with
``from_data()``, which checks the fields it uses and ignores the rest (docs/protocol.md, *Data*).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from board99.kinds import DEFAULT


def _map(where: str, data: object) -> dict:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a map")
    return data


def _get(where: str, data: dict, name: str, kinds: tuple[type, ...], nil: bool = False) -> Any:
    value = data.get(name)
    if value is None and nil:
        return None
    if type(value) not in kinds:
        raise ValueError(f"{where}.{name}: expected {' or '.join(k.__name__ for k in kinds)}, got {value!r}"[:200])
    return value


def _names(where: str, data: dict, name: str) -> tuple[str | None, ...]:
    value = _get(where, data, name, (list, tuple))
    if any(n is not None and type(n) is not str for n in value):
        raise ValueError(f"{where}.{name}: expected names")
    return tuple(value)


class Rating(NamedTuple):
    """One line of the leaderboard: a player (or a bot, whose rating is fixed) and their rating."""

    name: str
    rating: int  # what the lobby shows: the model's mean skill, rounded
    spread: int  # how unsure it still is: two standard deviations, rounded
    games: int  # rated games played
    wins: int
    bot: bool = False

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        return self._asdict()

    @classmethod
    def from_data(cls, data: object) -> Rating:
        """Read one entry; ValueError names a bad field."""
        d = _map("rating", data)
        return cls(_get("rating", d, "name", (str,)), _get("rating", d, "rating", (int,)),
                   _get("rating", d, "spread", (int,)), _get("rating", d, "games", (int,)),
                   _get("rating", d, "wins", (int,)), bool(d.get("bot", False)))


class RecordEntry(NamedTuple):
    """A finished game the server keeps: where and when it was played, who sat where, how it ended."""

    table: str
    game: int
    table_name: str
    players: int
    mode: str
    winner: int  # a side in first place (``ranking`` says whether it shared it)
    finished: float  # Unix time
    names: tuple[str | None, ...]  # per seat
    match: bool  # the game was part of a match (fetch_record with match=true gives all of it)
    rated: bool = False
    kind: str = DEFAULT  # the game kind (``board99.kinds``)
    ranking: tuple[int, ...] = ()  # each side's place, 0 the best; tied sides share one
    summary: str = ""  # the result in the kind's words, one line

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        return {**self._asdict(), "names": list(self.names), "ranking": list(self.ranking)}

    @classmethod
    def from_data(cls, data: object) -> RecordEntry:
        """Read one entry; ValueError names a bad field."""
        d = _map("record", data)
        g = "record"
        return cls(_get(g, d, "table", (str,)), _get(g, d, "game", (int,)), _get(g, d, "table_name", (str,)),
                   _get(g, d, "players", (int,)), _get(g, d, "mode", (str,)), _get(g, d, "winner", (int,)),
                   float(_get(g, d, "finished", (int, float))), _names(g, d, "names"),
                   bool(d.get("match", False)), bool(d.get("rated", False)),
                   _get(g, d, "kind", (str,)) if "kind" in d else DEFAULT, _places(g, d), str(d.get("summary", "")))


def _places(where: str, data: dict) -> tuple[int, ...]:
    value = data.get("ranking", [])
    if not isinstance(value, list | tuple) or any(type(p) is not int for p in value):
        raise ValueError(f"{where}.ranking: expected places")
    return tuple(value)


class Met(NamedTuple):
    """Someone a player has played with or against, and how those games went."""

    name: str
    games: int
    wins: int  # the player's wins in those games


class PlayerHistory(NamedTuple):
    """A player's record on one server: their rating, whom they played with and against, their games."""

    rating: Rating
    partners: tuple[Met, ...]
    opponents: tuple[Met, ...]
    games: tuple[RecordEntry, ...]  # newest first, at most a page

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        return {"rating": self.rating.to_data(), "partners": [m._asdict() for m in self.partners],
                "opponents": [m._asdict() for m in self.opponents], "games": [g.to_data() for g in self.games]}

    @classmethod
    def from_data(cls, data: object) -> PlayerHistory:
        """Read a history; ValueError names a bad field."""
        d = _map("player", data)

        def met(items: object, where: str) -> tuple[Met, ...]:
            if not isinstance(items, list | tuple):
                raise ValueError(f"player.{where}: expected a list")
            out = []
            for m in items:
                e = _map(f"player.{where}[]", m)
                out.append(Met(_get(where, e, "name", (str,)), _get(where, e, "games", (int,)),
                               _get(where, e, "wins", (int,))))
            return tuple(out)

        games = d.get("games")
        if not isinstance(games, list | tuple):
            raise ValueError("player.games: expected a list")
        return cls(Rating.from_data(d.get("rating")), met(d.get("partners"), "partners"),
                   met(d.get("opponents"), "opponents"), tuple(RecordEntry.from_data(g) for g in games))


class Standing(NamedTuple):
    """One row of a tournament's standings (the tie-breaks in the order they decide: docs/tournaments.md)."""

    place: int
    side: int  # the entrant's number
    names: tuple[str, ...]
    played: int
    points: float
    buchholz: float
    sonneborn_berger: float
    game_diff: int
    games_won: int


class Pairing(NamedTuple):
    """One match of a tournament round: its table, the two entrants, and the games each has won so far."""

    round: int
    table: str | None  # None for a bye
    a: int
    b: int | None  # None: a bye for a
    games_a: int
    games_b: int
    over: bool


class TournamentInfo(NamedTuple):
    """A tournament: its entrants, format, the rounds so far and the standings."""

    id: str
    name: str
    players: int  # per table: 2 (individuals) or 4 (partnerships)
    format: str  # "round-robin" or "swiss"
    match: str  # e.g. "first to 3"
    rounds: int
    round: int  # the round being played (0: not started)
    state: str  # "waiting" (between rounds), "playing", "over"
    entrants: tuple[tuple[str, ...], ...]
    pairings: tuple[Pairing, ...]
    standings: tuple[Standing, ...]
    kind: str = DEFAULT  # the game kind its matches are of

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        data = self._asdict()
        data["entrants"] = [list(e) for e in self.entrants]
        data["pairings"] = [p._asdict() for p in self.pairings]
        data["standings"] = [{**s._asdict(), "names": list(s.names)} for s in self.standings]
        return data

    @classmethod
    def from_data(cls, data: object) -> TournamentInfo:
        """Read a tournament; ValueError names a bad field."""
        d = _map("tournament", data)
        g = "tournament"
        try:
            pairings = tuple(Pairing(**_map("tournament.pairings[]", p)) for p in d["pairings"])
            standings = tuple(Standing(**{**_map("tournament.standings[]", s), "names": tuple(s["names"])})
                              for s in d["standings"])
            entrants = tuple(tuple(e) for e in d["entrants"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"tournament: {exc}") from None
        return cls(_get(g, d, "id", (str,)), _get(g, d, "name", (str,)), _get(g, d, "players", (int,)),
                   _get(g, d, "format", (str,)), _get(g, d, "match", (str,)), _get(g, d, "rounds", (int,)),
                   _get(g, d, "round", (int,)), _get(g, d, "state", (str,)), entrants, pairings, standings,
                   _get(g, d, "kind", (str,)) if "kind" in d else DEFAULT)
