"""A club's tournaments: entrants, rounds of match tables, results and standings (docs/tournaments.md).

Who meets whom and how the standings are ordered is ``pairing.py``'s (pure);
this module opens each round's tables, keeps each seat for its entrant's
player, takes each match's result when it is decided, and journals the
tournament's state (small: at most 16 entrants and 10 rounds) after every
change, before it is taken into memory.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from board99 import kinds
from board99.match_format import MatchFormat, score
from board99.wire.listings import Pairing, Standing, TournamentInfo
from board99.wire.protocol import NAME_MAX, ProtocolError

from .pairing import Result, formats, pairings, standings
from .tables import Table

log = logging.getLogger("board99.server")

#: Tournaments not yet over that one server keeps at once.
MAX_LIVE = 20
BOT_PREFIX = "bot:"


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


@dataclass
class Round:
    """One round's matches: (table id or None for a bye, entrant a, entrant b or None)."""

    number: int
    matches: list[tuple[str | None, int, int | None]] = field(default_factory=list)


@dataclass
class Tournament:
    """A tournament's entrants, format and progress."""

    id: str
    name: str
    players: int  # per table: 2 or 4
    entrants: list[tuple[str, ...]]
    rounds: int
    match: MatchFormat
    token_hash: bytes
    played: list[Round] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    kind: str = kinds.DEFAULT  # the game kind its matches are of (a journal from before kinds: the default)

    @property
    def game(self) -> kinds.GameKind:
        """The game kind its matches are of."""
        return kinds.get(self.kind)

    @property
    def settings(self) -> kinds.Settings:
        """Its tables' settings: ``players`` a table, the kind's first mode (guarded for the peg-board game)."""
        game = self.game
        return game.check_settings(self.players, game.modes[0])

    @property
    def round(self) -> int:
        """The round being played or last played (0 before the first)."""
        return len(self.played)

    def round_done(self) -> bool:
        """True if every match of the current round has its result (or no round has begun)."""
        done = {(r.round, r.a) for r in self.results}
        return all((self.round, a) in done for _, a, _ in (self.played[-1].matches if self.played else []))

    @property
    def state(self) -> str:
        """'playing' while a round's matches last, 'over' after the last round, else 'waiting'."""
        if not self.round_done():
            return "playing"
        return "over" if self.round >= self.rounds else "waiting"

    def to_data(self) -> dict[str, Any]:
        """What the journal keeps (JSON)."""
        return {"id": self.id, "name": self.name, "players": self.players, "entrants": [list(e) for e in self.entrants],
                "rounds": self.rounds, "match": list(self.match), "token_hash": self.token_hash.hex(),
                "played": [[r.number, [list(m) for m in r.matches]] for r in self.played],
                "results": [list(r) for r in self.results], "kind": self.kind}

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> Tournament:
        """Back from the journal."""
        return cls(d["id"], d["name"], d["players"], [tuple(e) for e in d["entrants"]], d["rounds"],
                   MatchFormat(*d["match"]), bytes.fromhex(d["token_hash"]),
                   [Round(n, [(m[0], m[1], m[2]) for m in ms]) for n, ms in d["played"]],
                   [Result(*r) for r in d["results"]], d.get("kind", kinds.DEFAULT))

    def info(self, tables: dict[str, Table]) -> TournamentInfo:
        """The tournament as the lobby shows it: pairings with their scores so far, and the standings."""
        decided = {(r.round, r.a): r for r in self.results}
        rows = []
        for rnd in self.played:
            for table_id, a, b in rnd.matches:
                result = decided.get((rnd.number, a))
                if result is not None:
                    won = (result.games_a, result.games_b)
                else:
                    t = tables.get(table_id or "")
                    won = (0, 0) if t is None else _games(t)
                rows.append(Pairing(rnd.number, table_id, a, b, won[0], won[1], result is not None))
        table = standings(len(self.entrants), self.results)
        shown = tuple(Standing(s.place, s.entrant, self.entrants[s.entrant], s.played, s.points, s.buchholz,
                               s.sonneborn_berger, s.game_diff, s.games_won) for s in table)
        return TournamentInfo(self.id, self.name, self.players, formats(len(self.entrants), self.rounds),
                              self.match.text(), self.rounds, self.round, self.state, tuple(self.entrants),
                              tuple(rows), shown, self.kind)


def table_name(tournament: str, number: int, a: tuple[str, ...], b: tuple[str, ...]) -> str:
    """A match table's name, the round first: a name cut short (the lobby's cards, ``NAME_MAX``) still tells
    round 1's tables from round 2's, where "Club night R..." could not.

    >>> table_name("Club night", 2, ("Ann", "Bo"), ("Cy", "Di"))
    'Round 2 · Club night: Ann & Bo v Cy & Di'
    >>> len(table_name("A club name of thirty-five letters", 10, ("Ann",), ("Bo",))) == NAME_MAX
    True
    """
    name = f"Round {number} · {tournament}: {' & '.join(a)} v {' & '.join(b)}"
    return name if len(name) <= NAME_MAX else name[:NAME_MAX - 1].rstrip() + "…"


def _games(t: Table) -> tuple[int, int]:
    """Games each side has won in the table's match (tournament tables have two sides)."""
    a, b = score(2, t.results)
    return a, b


class Tournaments:
    """Every tournament on the server, by id."""

    def __init__(self) -> None:
        self.by_id: dict[str, Tournament] = {}

    def get(self, tournament_id: str) -> Tournament:
        """The tournament, or ProtocolError('no-such-tournament')."""
        found = self.by_id.get(tournament_id)
        if found is None:
            raise ProtocolError("no-such-tournament", f"tournament: there is no tournament {tournament_id!r} here")
        return found

    def new(self, name: str, players: int, entrants: list[tuple[str, ...]], rounds: int, match: MatchFormat,
            known: Any, kind: kinds.GameKind | None = None) -> tuple[Tournament, str]:
        """A new tournament (not yet kept: journal it, then ``add``) and its steering token.

        ``known(name)``: True if a player of that name is registered on this server. ``kind``: its game
        (default ``board99.kinds.DEFAULT``), one whose games at ``players`` a table are between two sides.
        """
        kind = kind or kinds.get(kinds.DEFAULT)
        try:
            settings = kind.check_settings(players, kind.modes[0])
        except kinds.SettingsError as exc:
            raise ProtocolError("bad-field", f"{exc.field}: {exc.why}") from None
        if settings.sides != 2:
            raise ProtocolError("bad-field", f"players: a tournament's matches are between two sides, and "
                                             f"{kind.title} at {players} players has {settings.sides}")
        if sum(1 for t in self.by_id.values() if t.state != "over") >= MAX_LIVE:
            raise ProtocolError("too-many-tables", f"the server runs {MAX_LIVE} tournaments, its limit; "
                                                   f"wait until one is over")
        per_side = players // settings.sides
        seen: set[str] = set()
        for i, side in enumerate(entrants):
            if len(side) != per_side:
                raise ProtocolError("bad-field", f"entrants[{i}]: a side at {players}-player tables is "
                                                 f"{per_side} name{'s' if per_side > 1 else ''}, not {len(side)}")
            for who in side:
                if who.startswith(BOT_PREFIX):
                    if who[len(BOT_PREFIX):] not in kind.bots:
                        raise ProtocolError("no-such-bot", f"entrants[{i}]: {who!r} is not a bot; write bot:NAME "
                                                           f"with one of {', '.join(sorted(kind.bots))}")
                    continue
                if who.casefold() in seen:
                    raise ProtocolError("bad-field", f"entrants[{i}]: {who} is already in another side")
                seen.add(who.casefold())
                if not known(who):
                    raise ProtocolError("no-such-player", f"entrants[{i}]: no player called {who!r} on this server; "
                                                          f"each must have connected once with their player key")
        try:
            formats(len(entrants), rounds)
            if formats(len(entrants), rounds) == "round-robin":
                pairings(len(entrants), rounds, [], 1)
        except ValueError as exc:
            raise ProtocolError("bad-field", f"rounds: {exc}") from None
        while (tid := secrets.token_hex(4)) in self.by_id:
            pass
        token = secrets.token_hex(16)
        return Tournament(tid, name, players, entrants, rounds, match, _digest(token), kind=kind.name), token

    def check_token(self, t: Tournament, token: str) -> None:
        """ProtocolError('bad-token') unless ``token`` steers ``t``."""
        if not hmac.compare_digest(t.token_hash, _digest(token)):
            raise ProtocolError("bad-token", f"token: not the token of tournament {t.id}")

    def next_pairings(self, t: Tournament) -> list[tuple[int, int | None]]:
        """The next round's pairings; ProtocolError if the round is unfinished or the last has been played."""
        if not t.round_done():
            raise ProtocolError("round-unfinished", f"tournament {t.id}: round {t.round} still has matches "
                                                    f"being played")
        if t.round >= t.rounds:
            raise ProtocolError("tournament-over", f"tournament {t.id} has played all its {t.rounds} rounds")
        return [(p.a, p.b) for p in pairings(len(t.entrants), t.rounds, t.results, t.round + 1)]

    def with_round(self, t: Tournament, matches: list[tuple[str | None, int, int | None]]) -> Tournament:
        """``t`` with a new round of ``matches`` (byes score at once: a bye is a match won)."""
        number = t.round + 1
        byes = [Result(number, a, None, 0, 0) for table, a, b in matches if b is None]
        return replace(t, played=[*t.played, Round(number, matches)], results=[*t.results, *byes])

    def with_result(self, t: Tournament, table: Table) -> Tournament | None:
        """``t`` with the decided match at ``table`` counted, or None if it is not one of its open matches."""
        for rnd in t.played:
            for table_id, a, b in rnd.matches:
                if table_id == table.id and not any(r.round == rnd.number and r.a == a for r in t.results):
                    won = _games(table)
                    return replace(t, results=[*t.results, Result(rnd.number, a, b, won[0], won[1])])
        return None

    def seats_for(self, t: Tournament, a: int, b: int) -> list[str]:
        """Who sits where at a match of ``a`` (side 0) against ``b`` (side 1): a name or 'bot:NAME' per seat.

        Each side's names take that side's seats (the kind's ``side_of``) in seat order.
        """
        sides = [list(t.entrants[a]), list(t.entrants[b])]
        game, settings = t.game, t.settings
        return [sides[game.side_of(settings, seat)].pop(0) for seat in range(t.players)]
