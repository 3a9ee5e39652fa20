"""The lobby and its tables: seats, sides and colours, seat tokens, bots in seats, rematches.

No sockets and no clock here: the core passes the time in and turns what
these objects do into replies and pushes. Every rule of play is the engine's
(``board99.Game``); a table only decides who sits where and whether the game
has started.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from board99 import Action, Discard, Draw, Event, Game, SeatView, sides_for
from board99.bots import BOTS, Bot, make_bot
from board99.coach import Advice
from board99.match import GameResult, MatchFormat, score
from board99.wire.protocol import COLOURS, DEFAULT_GRACE, TOKEN_BYTES, ProtocolError
from board99.wire.table_info import MatchInfo, SeatInfo, TableInfo

from .players import Player, name_key
from .presence import Bucket
from .ratings import BOT_RATINGS

#: A seat may commit at most this many offences while one turn lasts, and this many in one deal
#: (penalty mode): each is the rulebook's, but an endless stream of them would grow the game's
#: record and every message about it without bound.
MAX_TURN_OFFENCES = 3
MAX_DEAL_OFFENCES = 30


def standin_bot() -> str:
    """The bot that plays for a lost or departed person: the rulebook bot if installed."""
    return "rulebook" if "rulebook" in BOTS else "random"


def token_digest(token: str) -> bytes:
    """What the server keeps of a seat token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode()).digest()


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


@dataclass
class Table:
    """A table in the lobby: its settings, seats, current game and followers."""

    id: str
    name: str
    players: int
    mode: str = "guarded"
    clock: float | None = None
    grace: float = DEFAULT_GRACE
    seed: int | None = None
    game_no: int = 1
    state: str = "waiting"
    seq: int = 0
    seats: list[Seat] = field(default_factory=list)
    colours: list[str | None] = field(default_factory=list)  # per side
    votes: set[int] = field(default_factory=set)  # seats asking for a rematch
    spectators: set[bytes] = field(default_factory=set)
    game: Game = field(init=False)
    bots: dict[int, Bot] = field(default_factory=dict)  # seat -> bot instance
    turn_since: float = 0.0  # when (the core's clock) the current turn began, for the turn clock
    creator: bytes | None = None  # the connection that created it (while it waits for players)
    creator_host: str = ""  # and the machine it came from
    idle_since: float | None = None  # since when nobody it waits for is here (see sweep.housekeeping)
    retry_after: float = 0.0  # seconds the last failed server move waited (doubles while the journal fails)
    turn_offences: dict[int, int] = field(default_factory=dict)  # seat -> offences this turn
    deal_offences: dict[int, int] = field(default_factory=dict)  # seat -> offences this deal
    match: MatchFormat | None = None  # None: single games with rematches
    match_first: int = 1  # the game number the current match began with
    results: list[GameResult] = field(default_factory=list)  # the current match's finished games
    rated: bool = False  # people with player keys only; each game moves their ratings
    tournament: str | None = None  # the tournament this table plays a match of
    bot_pace: str = "quick"  # how fast its server bots move (BOT_PACES; the seconds are Settings')
    #: Who sat in each seat (name, player id) when the last game ended, before its left seats were freed.
    played_by: list[tuple[str | None, int | None]] = field(default_factory=list)
    unfinished: bool = False  # restored with its game over but the game's bookkeeping not journaled
    #: (seat, ply) of each hint asked for in the current game, in order (journaled; the record's `hints` line).
    hints: list[tuple[int, int]] = field(default_factory=list)
    #: seat -> ((game, ply), advice): the seat's last advice, given again without cost at the same position.
    advice: dict[int, tuple[tuple[int, int], Advice]] = field(default_factory=dict)
    #: seat -> its hint quota (kept with the seat, not the connection: a reconnect does not refill it).
    hint_quota: dict[int, Bucket] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.seats:
            sides = sides_for(self.players)
            self.seats = [Seat(s, s % sides) for s in range(self.players)]
            self.colours = [None] * sides
        self.game = Game(self.players, self.mode, seed=self.seed)
        self.seed = self.game.seed

    # -- changes are staged, journaled, then adopted --------------------------------------

    def staged(self) -> Table:
        """A copy to make a change on: the core journals the copy, and only then adopts it (``adopt``)."""
        twin = copy.copy(self)
        twin.seats = [copy.copy(s) for s in self.seats]
        twin.colours = list(self.colours)
        twin.votes = set(self.votes)
        twin.spectators = set(self.spectators)
        twin.bots = dict(self.bots)
        twin.results = list(self.results)
        twin.hints = list(self.hints)
        twin.advice = dict(self.advice)
        return twin

    def adopt(self, staged: Table) -> None:
        """Take on the state of ``staged``, a copy of this table that the journal now has."""
        self.__dict__.update(staged.__dict__)

    # -- what everyone may know ------------------------------------------------

    def info(self, now: float) -> TableInfo:
        """The table as the lobby lists it (no tokens, no cards)."""
        return TableInfo(
            self.id, self.name, self.players, self.mode, self.clock, self.grace, self.state, self.game_no,
            tuple(sorted(self.votes)), self.turn_left(now), len(self.spectators),
            tuple(SeatInfo(s.seat, s.side, self.colours[s.side], s.occupant, s.name, s.connected, s.standin,
                           s.vacated, s.rating, s.reserved, sum(1 for seat, _ in self.hints if seat == s.seat))
                  for s in self.seats),
            self.rated,
            None if self.match is None else MatchInfo(self.match.kind, self.match.target, self.match_first,
                                                      tuple(self.results)),
            self.tournament,
            self.coach,
            self.bot_pace,
        )

    @property
    def coach(self) -> bool:
        """True where the coach gives hints: casual tables, neither rated nor playing a match (docs/coach.md)."""
        return not self.rated and self.match is None

    @property
    def one_seat_each(self) -> bool:
        """True where a player key holds one seat at most: rated, match and tournament tables (docs/server.md)."""
        return self.rated or self.match is not None or self.tournament is not None

    def check_one_seat(self, seat: int, player: int | None, name: str) -> None:
        """ProtocolError('one-seat') if player ``player`` (``name``) may not hold ``seat`` here besides what it holds.

        At a rated, match or tournament table a player's key holds one seat, and a connection
        that proved one player's key does not play another player's seat (even with its token).
        A casual table lets one person play several seats (hot-seat play).
        """
        if player is None or not self.one_seat_each:
            return
        s = self.seat(seat)
        if s.player is not None and s.player != player:
            raise ProtocolError("one-seat", f"seat: S{seat} at table {self.id} is {s.name}'s, and this connection "
                                            f"is {name}'s; at a rated, match or tournament table each player "
                                            f"plays their own seat only")
        held = next((o for o in self.seats if o.seat != seat and o.occupant == "human" and o.player == player), None)
        if held is not None:
            raise ProtocolError("one-seat", f"seat: {name} already holds S{held.seat} at table {self.id}; a rated, "
                                            f"match or tournament table seats each player once (one player key, "
                                            f"one seat): this seat is for someone else")

    def unlink_second_seats(self) -> list[int]:
        """Seats past a player's first at a one-seat-each table lose their player link (a journal from before
        the rule): their person plays on under the name shown, and no game there moves a rating. Which seats."""
        if not self.one_seat_each:
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

    def describe(self, now: float) -> dict:
        """The table description as plain data, ready for msgpack."""
        return self.info(now).to_data()

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` (None: a spectator) may see: nothing dealt while the table waits for players."""
        if self.state == "waiting":
            return SeatView.before_deal(self.players, self.mode, seat)
        return self.game.view(seat)

    def turn_left(self, now: float) -> float | None:
        """Seconds left on the turn clock at ``now``, or None when no clock runs."""
        if self.clock is None or self.state != "playing":
            return None
        return round(max(0.0, self.turn_since + self.clock - now), 3)

    def seat(self, seat: int) -> Seat:
        """The seat, or ProtocolError('no-such-seat')."""
        if not 0 <= seat < self.players:
            raise ProtocolError("no-such-seat", f"seat: {seat} is not at table {self.id} (seats 0-{self.players - 1})")
        return self.seats[seat]

    def members(self) -> list[tuple[bytes, int | None]]:
        """Every connection following the table: (identity, seat) for players, (identity, None) for spectators."""
        out: list[tuple[bytes, int | None]] = [(s.conn, s.seat) for s in self.seats if s.conn is not None]
        out.extend((ident, None) for ident in self.spectators)
        return out

    # -- seats -------------------------------------------------------------------

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
            raise ProtocolError("seat-taken", f"seat: S{s.seat} at table {self.id} is kept for {s.name}, who left, "
                                              f"until this game ends; a bot plays it meanwhile")
        if s.occupant is not None:
            who = s.name or s.bot or s.occupant
            raise ProtocolError("seat-taken", f"seat: S{s.seat} at table {self.id} is taken by {who}")

    def take(self, seat: int, colour: str | None, name: str, conn: bytes, player: Player | None = None) -> str:
        """Seat a person (``player`` if they proved a player key); return the secret seat token (only its digest is kept)."""
        s = self.seat(seat)
        self._free_for_taking(s)
        if s.reserved is not None and (player is None or name_key(player.name) != name_key(s.reserved)):
            raise ProtocolError("seat-reserved", f"seat: S{seat} at table {self.id} is kept for {s.reserved} "
                                                 f"by the tournament")
        if self.rated and player is None:
            raise ProtocolError("rated-table", f"table {self.id} is rated: it seats players who hold a player key "
                                               f"(the window makes one), not guests")
        if player is not None:
            self.check_one_seat(seat, player.id, player.name)
        self.colours[s.side] = self._pick_colour(s.side, colour)
        token = secrets.token_hex(TOKEN_BYTES)
        s.occupant, s.name, s.bot = "human", name, None
        s.token_hash, s.conn = token_digest(token), conn
        s.standin = s.vacated = False
        s.player = None if player is None else player.id
        s.rating = None if player is None else player.skill.shown
        self.bots.pop(seat, None)
        self.spectators.discard(conn)
        return token

    def add_bot(self, seat: int, bot: str) -> None:
        """Put a server-side bot in an empty seat."""
        if bot not in BOTS:
            raise ProtocolError("no-such-bot", f"bot: {bot!r} is not a bot; choose from {', '.join(sorted(BOTS))}")
        s = self.seat(seat)
        self._free_for_taking(s)
        if self.rated:
            raise ProtocolError("rated-table", f"table {self.id} is rated: its seats are for people, not bots "
                                               f"(the bots' ratings are fixed)")
        if s.reserved is not None and s.reserved != f"bot:{bot}":
            raise ProtocolError("seat-reserved", f"seat: S{seat} at table {self.id} is kept for {s.reserved} "
                                                 f"by the tournament")
        self.colours[s.side] = self._pick_colour(s.side, None)
        s.occupant, s.name, s.bot = "bot", bot, bot
        s.token_hash, s.conn, s.standin, s.vacated = None, None, False, False
        s.player, s.rating = None, BOT_RATINGS[bot].shown if bot in BOT_RATINGS else None
        self.bots.pop(seat, None)

    def check_token(self, seat: int, token: str) -> Seat:
        """The seat if ``token`` is its token; ProtocolError('bad-token') otherwise."""
        s = self.seat(seat)
        if s.token_hash is None or not hmac.compare_digest(s.token_hash, token_digest(token)):
            raise ProtocolError("bad-token", f"token: not the token of S{seat} at table {self.id}")
        return s

    def resume(self, seat: int, token: str, conn: bytes) -> Seat:
        """A person comes back with their token (also after leaving mid-game): the seat follows the connection."""
        s = self.check_token(seat, token)
        s.conn, s.standin, s.vacated = conn, False, False
        self.bots.pop(seat, None)
        self.spectators.discard(conn)
        return s

    def leave(self, s: Seat) -> None:
        """The person in ``s`` leaves: the seat is freed, or during play a bot plays on until the game ends.

        Left during a game, the seat stays theirs: they may take it back with its token while the
        game lasts, and nobody else may take it (nobody sees two hands of one deal).
        """
        s.conn = None
        self.votes.discard(s.seat)
        if self.state == "playing":
            s.standin, s.vacated = True, True
            return
        s.token_hash = None
        s.occupant = s.name = s.bot = None
        s.player = s.rating = None
        s.standin = s.vacated = False
        self.bots.pop(s.seat, None)
        partners = [o for o in self.seats if o.side == s.side and o.occupant is not None]
        if not partners:
            self.colours[s.side] = None

    def full(self) -> bool:
        """Every seat is filled."""
        return all(s.occupant is not None for s in self.seats)

    def start_if_full(self, now: float) -> bool:
        """Start the game once every seat is filled; True if it started now."""
        if self.state == "waiting" and self.full():
            self.state = "playing"
            self.turn_since = now
            return True
        return False

    # -- play ----------------------------------------------------------------------

    def check(self, seat: int, action: Action) -> str | None:
        """What ``apply`` would do, changing nothing: ProtocolError or Refused, else the offence (or None)."""
        if self.state == "waiting":
            raise ProtocolError("not-started", f"table {self.id} is waiting for players; the game has not begun")
        offence = self.game.check(seat, action)
        if offence is not None:
            if self.turn_offences.get(seat, 0) >= MAX_TURN_OFFENCES:
                raise ProtocolError("too-many-offences", f"S{seat} has committed {MAX_TURN_OFFENCES} offences this "
                                                         f"turn, the most one turn allows; wait for the turn to pass")
            if self.deal_offences.get(seat, 0) >= MAX_DEAL_OFFENCES:
                raise ProtocolError("too-many-offences", f"S{seat} has committed {MAX_DEAL_OFFENCES} offences this "
                                                         f"deal, the most one deal allows; play on properly")
        return offence

    def apply(self, seat: int, action: Action, now: float, offence: str | None | bool = False) -> tuple[Event, ...]:
        """Hand an action to the engine; what it caused. ``offence``: what ``check`` said, if it was asked."""
        if offence is False:
            offence = self.check(seat, action)
        turn, ply, deal = self.game.turn, self.game.ply, self.game.deal
        events = self.game.apply(seat, action)
        if isinstance(offence, str):
            self.turn_offences[seat] = self.turn_offences.get(seat, 0) + 1
            self.deal_offences[seat] = self.deal_offences.get(seat, 0) + 1
        # The clock restarts when a turn ends (even if the same seat moves again after skips).
        if self.game.ply != ply and (seat == turn or self.game.turn != turn):
            self.turn_since = now
            self.turn_offences.clear()
        if self.game.deal != deal:
            self.deal_offences.clear()
        if self.game.winner is not None:
            self.state = "over"
            self.votes.clear()
            self.played_by = [(s.name, s.player) for s in self.seats]
            self.free_vacated()
        return events

    def free_vacated(self) -> None:
        """The game is over: seats their people left are free again (for a rematch, or anyone)."""
        for s in self.seats:
            if s.vacated:
                s.occupant = s.name = s.bot = s.token_hash = s.conn = None
                s.player = s.rating = None
                s.vacated = s.standin = False
                self.bots.pop(s.seat, None)

    def bot_for(self, seat: int) -> Bot:
        """The bot instance that plays ``seat`` (made on first use)."""
        bot = self.bots.get(seat)
        if bot is None:
            s = self.seats[seat]
            bot = self.bots[seat] = make_bot(s.bot or standin_bot(), seed=secrets.randbits(32))
        return bot

    def bot_turn(self) -> int | None:
        """The seat to move if the server's bot plays it, else None."""
        turn = self.game.turn
        if self.state != "playing" or turn is None or not self.seats[turn].played_by_bot():
            return None
        return turn

    def clock_action(self) -> Action:
        """What the turn clock does for a seat out of time: a draw if allowed, else discard the highest card."""
        seat = self.game.turn
        assert seat is not None
        if self.game.view(seat).can_draw:
            return Draw()
        return Discard(max(self.game.hand(seat)))

    # -- rematch ---------------------------------------------------------------------

    def vote_rematch(self, seat: int, now: float) -> bool:
        """``seat`` asks for a rematch (in a match: the next game); True if that started a new game.

        A game starts once every person at the table asked and every seat is filled.
        """
        if self.state != "over":
            raise ProtocolError("not-over", f"table {self.id}: a rematch is possible once the game is over")
        if self.tournament is not None and self.match_decided():
            raise ProtocolError("match-over", f"table {self.id}: this tournament match is decided; the tournament's "
                                              f"next round opens new tables")
        self.votes.add(seat)
        return self.start_rematch_if_ready(now)

    def match_decided(self) -> bool:
        """True if the table plays a match and it is decided."""
        return self.match is not None and self.match.over(score(sides_for(self.players), self.results))

    def start_rematch_if_ready(self, now: float) -> bool:
        """Start the next game with the same seats if every person asked and every seat is filled.

        A match table with no person left at it (bots in every seat) goes on by itself until the
        match is decided.
        """
        humans = {s.seat for s in self.seats if s.occupant == "human"}
        if self.state != "over" or not humans <= self.votes or not self.full():
            return False
        if not humans and (self.match is None or self.match_decided()):
            return False
        if self.match_decided():
            if self.tournament is not None:
                return False
            self.match_first, self.results = self.game_no + 1, []  # a rematch after a match: a new match
        self.new_game(None, now)
        return True

    def new_game(self, seed: int | None, now: float) -> None:
        """The next game at this table, same seats (a fresh secret seed unless restoring)."""
        self.game_no += 1
        self.game = Game(self.players, self.mode, seed=seed)
        self.seed = self.game.seed
        self.state = "playing"
        self.votes.clear()
        self.bots.clear()
        self.turn_offences.clear()
        self.deal_offences.clear()
        self.turn_since = now
        self.hints, self.advice = [], {}  # new objects: a staged copy shares the old ones until adopted

    def people(self) -> list[Seat]:
        """The seats a person holds (present, away, or kept after leaving mid-game)."""
        return [s for s in self.seats if s.occupant == "human"]


class Lobby:
    """Every table on the server, by id."""

    def __init__(self, max_tables: int = 5000) -> None:
        self.tables: dict[str, Table] = {}
        self.max_tables = max_tables

    def create(self, name: str, players: int, mode: str, clock: float | None, grace: float | None,
               creator: bytes | None = None, per_creator: int | None = None, host: str = "",
               per_host: int | None = None, match: MatchFormat | None = None, rated: bool = False,
               bot_pace: str = "quick") -> Table:
        """A new empty table with a fresh id (not yet in the lobby: ``add`` it once it is journaled).

        ``per_creator``: how many tables still waiting for players one connection may have opened.
        """
        if len(self.tables) >= self.max_tables:
            raise ProtocolError("too-many-tables", f"the server holds {self.max_tables} tables, its limit; "
                                                   f"try again when a game ends")
        if per_creator is not None and creator is not None:
            mine = sum(1 for t in self.tables.values() if t.creator == creator and t.state == "waiting")
            if mine >= per_creator:
                raise ProtocolError("too-many-tables", f"this connection has {mine} tables waiting for players, the "
                                                       f"most one may open; sit at one or wait until one starts")
        if per_host is not None and host:
            ours = sum(1 for t in self.tables.values() if t.creator_host == host and t.state == "waiting")
            if ours >= per_host:
                raise ProtocolError("too-many-tables", f"{host} has {ours} tables waiting for players, the most one "
                                                       f"machine may open; sit at one or wait until one starts")
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self.tables:
                break
        table = Table(table_id, name, players, mode, clock, DEFAULT_GRACE if grace is None else grace)
        table.creator, table.creator_host = creator, host
        table.match, table.rated, table.bot_pace = match, rated, bot_pace
        return table

    def add(self, table: Table) -> None:
        """Put a table in the lobby."""
        self.tables[table.id] = table

    def remove(self, table: Table) -> None:
        """Take a table out of the lobby (closed: its records stay in the journal)."""
        self.tables.pop(table.id, None)

    def in_order(self) -> list[Table]:
        """The tables as the lobby lists them: waiting first, then playing, then over; newest first in each."""
        rank = {"waiting": 0, "playing": 1, "over": 2}
        return sorted(reversed(list(self.tables.values())), key=lambda t: rank.get(t.state, 3))

    def get(self, table_id: str) -> Table:
        """The table, or ProtocolError('no-such-table')."""
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no-such-table", f"table: there is no table {table_id!r} on this server")
        return table
