"""A table's game in play: its kind and settings, the game itself, the offence caps, the turn clock, its bots.

One of the three parts of a server table (``tables.Table``). Every rule is the
game kind's (``board99.kinds.GameKind``): this part asks it for a new game, a
check, an action carried out, a seat's view, the clock's move and the bots;
what it adds is the house's: how many offences a seat may commit, when a turn
began, and which bot instance plays which seat.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from board99.kinds import GameKind, GameState, Result, Settings, view_data
from board99.wire.protocol import ProtocolError

if TYPE_CHECKING:
    from .seating import Seat
    from .tables import Table

#: A seat may commit at most this many offences while one turn lasts, and this many in one deal
#: (penalty mode): each is the rules' own, but an endless stream of them would grow the game's
#: record and every message about it without bound.
MAX_TURN_OFFENCES = 3
MAX_DEAL_OFFENCES = 30


@dataclass(kw_only=True)
class InPlay:
    """The game a table plays now, and what the house keeps about it while it lasts."""

    kind: GameKind
    settings: Settings
    clock: float | None = None  # seconds per turn, or None
    seed: int | None = None  # the current game's seed (secret until it ends)
    game_no: int = 1
    state: str = "waiting"  # "waiting", "playing" or "over"
    game: GameState = field(init=False)
    bots: dict[int, Any] = field(default_factory=dict)  # seat -> bot instance
    turn_since: float = 0.0  # when (the core's clock) the current turn began, for the turn clock
    retry_after: float = 0.0  # seconds the last failed server move waited (doubles while the journal fails)
    turn_offences: dict[int, int] = field(default_factory=dict)  # seat -> offences this turn
    deal_offences: dict[int, int] = field(default_factory=dict)  # seat -> offences this deal
    if TYPE_CHECKING:  # the seating's, read straight on every action (``_t`` is a call); no field here
        seats: list[Seat]

    @property
    def _t(self) -> Table:
        """The whole table this is the game of (for its seats, votes and id)."""
        return self  # type: ignore[return-value]  # (not typing.cast: a call on every act, for the checker only)

    def _deal_new(self, seed: int | None) -> None:
        self.game = self.kind.new_game(self.settings, seed)
        self.seed = self.game.seed

    def _stage_play(self, twin: InPlay) -> None:
        twin.bots = dict(self.bots)

    @property
    def mode(self) -> str:
        """The table's mode (the kind's: ``guarded`` or ``penalty`` for the peg-board game)."""
        return self.settings.mode

    @property
    def sides(self) -> int:
        """How many sides play."""
        return self.settings.sides

    def view(self, seat: int | None) -> Any:
        """What ``seat`` (None: a spectator) may see: nothing dealt while the table waits for players."""
        return self.kind.view(None if self.state == "waiting" else self.game, self.settings, seat)

    def view_data(self, seat: int | None) -> dict[str, Any]:
        """``view`` as plain data (what replies and pushes carry): ``board99.kinds.view_data``, which a kind with
        ``view_data(game, settings, seat)`` answers without making the view."""
        return view_data(self.kind, None if self.state == "waiting" else self.game, self.settings, seat)

    def turn_left(self, now: float) -> float | None:
        """Seconds left on the turn clock at ``now``, or None when no clock runs."""
        if self.clock is None or self.state != "playing":
            return None
        return round(max(0.0, self.turn_since + self.clock - now), 3)

    def start_if_full(self, now: float) -> bool:
        """Start the game once every seat is filled; True if it started now."""
        if self.state == "waiting" and self._t.full():
            self.state = "playing"
            self.turn_since = now
            return True
        return False

    def check(self, seat: int, action: Any) -> str | None:
        """What ``apply`` would do, changing nothing: ProtocolError or the kind's Refusal, else the offence (or None)."""
        if self.state == "waiting":
            raise ProtocolError("not-started", f"table {self._t.id} is waiting for players; the game has not begun")
        offence = self.game.check(seat, action)
        if offence is not None:
            if self.turn_offences.get(seat, 0) >= MAX_TURN_OFFENCES:
                raise ProtocolError("too-many-offences", f"S{seat} has committed {MAX_TURN_OFFENCES} offences this "
                                                         f"turn, the most one turn allows; wait for the turn to pass")
            if self.deal_offences.get(seat, 0) >= MAX_DEAL_OFFENCES:
                raise ProtocolError("too-many-offences", f"S{seat} has committed {MAX_DEAL_OFFENCES} offences this "
                                                         f"deal, the most one deal allows; play on properly")
        return offence

    def apply(self, seat: int, action: Any, now: float, offence: str | None | bool = False) -> tuple[Any, ...]:
        """Hand an action to the kind's game; what it caused. ``offence``: what ``check`` said, if it was asked."""
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
        if self.game.over:
            self.end_game()
        return events

    def end_game(self) -> None:
        """The game is over (by an action, or by its deal alone): the table's state, who played it, seats freed."""
        t = self._t
        self.state = "over"
        t.votes.clear()
        t.played_by = [(s.name, s.player) for s in t.seats]
        t.free_vacated()

    def result(self) -> Result:
        """The finished game's result: the kind's ranking of the sides, its summary and its own detail."""
        game, kind = self.game, self.kind
        return Result(self.game_no, tuple(kind.ranking(game)), kind.summary(game), kind.result_detail(game))

    def standin_bot(self) -> str:
        """The bot that plays for a lost or departed person: the kind's stand-in."""
        return self.kind.standin_bot

    def bot_name(self, seat: int) -> str:
        """The bot that plays ``seat``: its own, or the stand-in for a person away."""
        return self._t.seats[seat].bot or self.standin_bot()

    def slow_bot(self, seat: int) -> bool:
        """True if ``seat``'s own bot thinks too long for the loop (the kind's ``slow_bots``)."""
        s = self.seats[seat]
        return (s.bot or "") in self.kind.slow_bots and not s.standin

    def bot_for(self, seat: int) -> Any:
        """The bot instance that plays ``seat`` (made on first use)."""
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = self.kind.bots[self.bot_name(seat)](seed=secrets.randbits(32))
        return bot

    def bot_turn(self) -> int | None:
        """The seat to move if the server's bot plays it, else None."""
        turn = self.game.turn
        if self.state != "playing" or turn is None or not self.seats[turn].played_by_bot():
            return None
        return turn

    def clock_action(self) -> Any:
        """What the turn clock does for a seat out of time: the kind's ``clock_action``."""
        return self.kind.clock_action(self.game)

    def new_game(self, seed: int | None, now: float) -> None:
        """The next game at this table, same seats (a fresh secret seed unless restoring)."""
        t = self._t
        self.game_no += 1
        self._deal_new(seed)
        self.state = "playing"
        t.votes.clear()
        self.bots.clear()
        self.turn_offences.clear()
        self.deal_offences.clear()
        self.turn_since = now
        t.hints, t.advice = [], {}  # new objects: a staged copy shares the old ones until adopted
