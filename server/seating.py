"""A table's seating: who sits in which seat, the sides' colours, the seat tokens, and who follows the table.

One of the three parts of a server table (``tables.Table``): this one knows
people, bots and tokens, never a game's rules; which side a seat plays for is
the game kind's (``GameKind.side_of``), asked once when the seats are made.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from board99.wire.protocol import COLOURS, TOKEN_BYTES, ProtocolError

from .players import Player, name_key
from .ratings import bot_ratings

if TYPE_CHECKING:
    from board99.kinds import GameKind, Settings

    from .tables import Table


def token_digest(token: str) -> bytes:
    """What the server keeps of a seat token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode()).digest()


class ProvedToken(NamedTuple):
    """A seat token one connection has proved: the table and seat, the digest it matched then, the token's bytes.

    A connection keeps the last one (``presence.Conn.proved``) so that its next ``act`` with the same
    token skips the SHA-256 (``Seating.check_token_again``). It proves nothing once the seat's digest
    has changed (a new token, the seat freed), and it dies with the connection.
    """

    table: str
    seat: int
    digest: bytes
    token: bytes


@dataclass
class Seat:
    """One seat at a table and who fills it."""

    seat: int
    side: int
    occupant: str | None = None  # "human", "bot" or None
    name: str | None = None
    bot: str | None = None  # the bot's name for a bot seat
    token_hash: bytes | None = None  # SHA-256 of the seat token, humans only
    conn: bytes | None = None  # the connection holding the seat; None while its person is away
    standin: bool = False  # a bot plays this person's turns until they come back
    vacated: bool = False  # the person left mid-game: a bot plays on; only they may take the seat back
    player: int | None = None  # the registered player sitting here (None: a guest, a bot, nobody)
    rating: int | None = None  # their rating as shown (a bot's fixed one); kept current by the core
    reserved: str | None = None  # a tournament keeps the seat for the player of this name

    @property
    def connected(self) -> bool:
        """A person is here and answering (bots are always here)."""
        return self.occupant == "bot" or self.conn is not None

    def played_by_bot(self) -> bool:
        """True if the server's bot chooses this seat's actions."""
        return self.occupant == "bot" or self.standin


def seats_for(kind: GameKind, settings: Settings) -> tuple[list[Seat], list[str | None]]:
    """A new table's empty seats (each on the side its kind says) and no colour for any side."""
    return [Seat(s, kind.side_of(settings, s)) for s in range(settings.players)], [None] * settings.sides


@dataclass(kw_only=True)
class Seating:
    """Seats, colours and followers of one table; the seat tokens' digests are kept in the seats."""

    seats: list[Seat] = field(default_factory=list)
    colours: list[str | None] = field(default_factory=list)  # per side
    spectators: set[bytes] = field(default_factory=set)
    if TYPE_CHECKING:  # the table's, read straight where every act reads it (``_t`` is a call); no field here
        id: str

    @property
    def _t(self) -> Table:
        """The whole table this is the seating of (for what the other parts hold: its id, state, kind)."""
        return self  # type: ignore[return-value]  # (not typing.cast: a call on every act, for the checker only)

    def _stage_seating(self, twin: Seating) -> None:
        twin.seats = [copy.copy(s) for s in self.seats]
        twin.colours = list(self.colours)
        twin.spectators = set(self.spectators)

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return len(self.seats)

    def seat(self, seat: int) -> Seat:
        """The seat, or ProtocolError('no-such-seat')."""
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no-such-seat", f"seat: {seat} is not at table {self._t.id} "
                                                f"(seats 0-{len(self.seats) - 1})")
        return self.seats[seat]

    def members(self) -> list[tuple[bytes, int | None]]:
        """Every connection following the table: (identity, seat) for players, (identity, None) for spectators."""
        out: list[tuple[bytes, int | None]] = []
        for s in self.seats:  # (a loop, not a comprehension, which is a call of its own: every push asks)
            if s.conn is not None:
                out.append((s.conn, s.seat))
        if self.spectators:  # (no generator made for a table nobody watches: every push asks)
            out.extend((ident, None) for ident in self.spectators)
        return out

    def followed_by_others(self, exclude: bytes | None) -> bool:
        """True if a connection other than ``exclude`` follows the table: a push would reach someone."""
        spectators = self.spectators
        if spectators and (len(spectators) > 1 or exclude not in spectators):
            return True
        for s in self.seats:  # (a loop, not any() over a generator: this runs on every action)
            if s.conn is not None and s.conn != exclude:
                return True
        return False

    def check_one_seat(self, seat: int, player: int | None, name: str) -> None:
        """ProtocolError('one-seat') if player ``player`` (``name``) may not hold ``seat`` here besides what it holds.

        At a rated, match or tournament table a player's key holds one seat, and a connection
        that proved one player's key does not play another player's seat (even with its token).
        A casual table lets one person play several seats (hot-seat play).
        """
        if player is None or not self._t.one_seat_each:
            return
        s = self.seat(seat)
        if s.player is not None and s.player != player:
            raise ProtocolError("one-seat", f"seat: S{seat} at table {self._t.id} is {s.name}'s, and this connection "
                                            f"is {name}'s; at a rated, match or tournament table each player "
                                            f"plays their own seat only")
        held = next((o for o in self.seats if o.seat != seat and o.occupant == "human" and o.player == player), None)
        if held is not None:
            raise ProtocolError("one-seat", f"seat: {name} already holds S{held.seat} at table {self._t.id}; a rated, "
                                            f"match or tournament table seats each player once (one player key, "
                                            f"one seat): this seat is for someone else")

    def unlink_second_seats(self) -> list[int]:
        """Seats past a player's first at a one-seat-each table lose their player link (a journal from before
        the rule): their person plays on under the name shown, and no game there moves a rating. Which seats."""
        if not self._t.one_seat_each:
            return []
        seen: set[int] = set()
        unlinked = []
        for s in self.seats:
            if s.player is not None and s.player in seen:
                s.player = None
                unlinked.append(s.seat)
            elif s.player is not None:
                seen.add(s.player)
        return unlinked

    def _pick_colour(self, side: int, colour: str | None) -> str:
        own = self.colours[side]
        others = {c for i, c in enumerate(self.colours) if i != side and c is not None}
        if own is not None:
            if colour is not None and colour != own:
                raise ProtocolError("colour-taken", f"colour: side {side} already plays {own}; "
                                                    f"partners share one colour")
            return own
        if colour is None:
            return next(c for c in COLOURS if c not in others)
        if colour in others:
            raise ProtocolError("colour-taken", f"colour: {colour} is another side's; no two sides alike")
        return colour

    def _free_for_taking(self, s: Seat) -> None:
        if s.vacated:
            # Nobody but the player who left sees this seat's hand during the deal (docs/rules.md §8).
            raise ProtocolError("seat-taken", f"seat: S{s.seat} at table {self._t.id} is kept for {s.name}, who left, "
                                              f"until this game ends; a bot plays it meanwhile")
        if s.occupant is not None:
            who = s.name or s.bot or s.occupant
            raise ProtocolError("seat-taken", f"seat: S{s.seat} at table {self._t.id} is taken by {who}")

    def take(self, seat: int, colour: str | None, name: str, conn: bytes, player: Player | None = None) -> str:
        """Seat a person (``player`` if they proved a player key); return the secret seat token (only its digest is kept)."""
        s = self.seat(seat)
        self._free_for_taking(s)
        if s.reserved is not None and (player is None or name_key(player.name) != name_key(s.reserved)):
            raise ProtocolError("seat-reserved", f"seat: S{seat} at table {self._t.id} is kept for {s.reserved} "
                                                 f"by the tournament")
        if self._t.rated and player is None:
            raise ProtocolError("rated-table", f"table {self._t.id} is rated: it seats players who hold a player key "
                                               f"(the window makes one), not guests")
        if player is not None:
            self.check_one_seat(seat, player.id, player.name)
        self.colours[s.side] = self._pick_colour(s.side, colour)
        token = secrets.token_hex(TOKEN_BYTES)
        s.occupant, s.name, s.bot = "human", name, None
        s.token_hash, s.conn = token_digest(token), conn
        s.standin = s.vacated = False
        s.player = None if player is None else player.id
        s.rating = None if player is None else player.standing(self._t.kind.name).skill.shown
        self._t.bots.pop(seat, None)
        self.spectators.discard(conn)
        return token

    def add_bot(self, seat: int, bot: str) -> None:
        """Put a server-side bot (one of the table's game kind's) in an empty seat."""
        if bot not in self._t.kind.bots:
            raise ProtocolError("no-such-bot", f"bot: {bot!r} is not a bot of {self._t.kind.title}; choose from "
                                               f"{', '.join(sorted(self._t.kind.bots))}")
        s = self.seat(seat)
        self._free_for_taking(s)
        if self._t.rated:
            raise ProtocolError("rated-table", f"table {self._t.id} is rated: its seats are for people, not bots "
                                               f"(the bots' ratings are fixed)")
        if s.reserved is not None and s.reserved != f"bot:{bot}":
            raise ProtocolError("seat-reserved", f"seat: S{seat} at table {self._t.id} is kept for {s.reserved} "
                                                 f"by the tournament")
        self.colours[s.side] = self._pick_colour(s.side, None)
        s.occupant, s.name, s.bot = "bot", bot, bot
        s.token_hash, s.conn, s.standin, s.vacated = None, None, False, False
        fixed = bot_ratings(self._t.kind, self._t.settings).get(bot)
        s.player, s.rating = None, None if fixed is None else fixed.shown
        self._t.bots.pop(seat, None)

    def check_token(self, seat: int, token: str) -> Seat:
        """The seat if ``token`` is its token; ProtocolError('bad-token') otherwise."""
        s = self.seat(seat)
        if s.token_hash is None or not hmac.compare_digest(s.token_hash, token_digest(token)):
            raise ProtocolError("bad-token", f"token: not the token of S{seat} at table {self._t.id}")
        return s

    def check_token_again(self, seat: int, token: str, proved: ProvedToken | None) -> ProvedToken:
        """``check_token`` for a connection that may have proved this token before (``proved``): what to keep now.

        The same answers in the same order (``no-such-seat``, then ``bad-token``); the SHA-256 is
        skipped only when ``proved`` is this table's and seat's, was matched against the digest the
        seat holds now, and its token equals ``token`` (compared in constant time).
        """
        s = self.seat(seat)
        raw = token.encode()
        if (proved is not None and proved.digest == s.token_hash and proved.seat == seat
                and proved.table == self.id and hmac.compare_digest(proved.token, raw)):
            return proved
        if s.token_hash is None or not hmac.compare_digest(s.token_hash, hashlib.sha256(raw).digest()):
            raise ProtocolError("bad-token", f"token: not the token of S{seat} at table {self._t.id}")
        return ProvedToken(self._t.id, seat, s.token_hash, raw)

    def resume(self, seat: int, token: str, conn: bytes) -> Seat:
        """A person comes back with their token (also after leaving mid-game): the seat follows the connection."""
        s = self.check_token(seat, token)
        s.conn, s.standin, s.vacated = conn, False, False
        self._t.bots.pop(seat, None)
        self.spectators.discard(conn)
        return s

    def leave(self, s: Seat) -> None:
        """The person in ``s`` leaves: the seat is freed, or during play a bot plays on until the game ends.

        Left during a game, the seat stays theirs: they may take it back with its token while the
        game lasts, and nobody else may take it (nobody sees two hands of one deal).
        """
        s.conn = None
        self._t.votes.discard(s.seat)
        if self._t.state == "playing":
            s.standin, s.vacated = True, True
            return
        s.token_hash = None
        s.occupant = s.name = s.bot = None
        s.player = s.rating = None
        s.standin = s.vacated = False
        self._t.bots.pop(s.seat, None)
        partners = [o for o in self.seats if o.side == s.side and o.occupant is not None]
        if not partners:
            self.colours[s.side] = None

    def full(self) -> bool:
        """Every seat is filled."""
        return all(s.occupant is not None for s in self.seats)

    def free_vacated(self) -> None:
        """The game is over: seats their people left are free again (for a rematch, or anyone)."""
        for s in self.seats:
            if s.vacated:
                s.occupant = s.name = s.bot = s.token_hash = s.conn = None
                s.player = s.rating = None
                s.vacated = s.standin = False
                self._t.bots.pop(s.seat, None)

    def people(self) -> list[Seat]:
        """The seats a person holds (present, away, or kept after leaving mid-game)."""
        return [s for s in self.seats if s.occupant == "human"]
