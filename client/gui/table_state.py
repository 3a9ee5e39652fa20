"""The table screen's state without a window: what is picked, warned, announced, logged and noticed.

``TableState`` takes the session's messages (``receive``) and the player's
input (``key``, ``click``: what it means, as an intent; ``perform``: what the
intent changes, and the commands it gives the window). It draws nothing and
owns no clock of its own (``clock`` is passed in), so every behaviour of the
table screen is testable with plain calls; the drawing parts only read it.
Every question about the rules goes to the view (``board99.SeatView``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Literal, NamedTuple

from board99 import PLAYER_COUNTS, Action, Discard, Draw, Play, SeatView, sides_for
from board99.wire.table_info import TableInfo

from . import wording
from .messages import Events, Failed, Message, Pushed, StateChanged
from .palette import COLOUR_RGB
from .table_intents import (
    AddBot,
    AskRematch,
    Attempt,
    Cancel,
    Command,
    Confirm,
    FillSeats,
    Hint,
    Intent,
    Leave,
    OnButton,
    OnCard,
    OnDeck,
    OnSquare,
    Pick,
    Rematch,
    Send,
    SetSound,
    Target,
    ToggleSound,
    ToLobby,
)

#: How a line is said: the parts pick its colour.
Tone = Literal["plain", "warn", "bad", "good"]
LOG_LINES = 200  # the log keeps this many lines
BANNER_SECONDS = 6.0  # how long an announcement shows
FOREVER = 1e9  # a win's banner stays until the rematch


class OffenceWarning(NamedTuple):
    """The action a penalty-mode warning holds back, and the warning in words."""

    action: Action
    text: str


class Received(NamedTuple):
    """What a session message asks of the window besides a refresh."""

    relayout: bool = False  # the seating changed: every part lays itself out again
    sounds: tuple[str, ...] = ()  # sounds.NAMES to play, in order


def side_colours(table: TableInfo | None, sides: int) -> list[str]:
    """The colour each side plays, from the table's seats; unpicked sides get the first free colour."""
    colours: list[str | None] = [None] * sides
    if table is not None:
        for side in range(min(sides, table.sides)):
            colour = table.side_colour(side)
            colours[side] = colour if colour in COLOUR_RGB else None
    free = [c for c in COLOUR_RGB if c not in colours]
    return [c if c is not None else free.pop(0) for c in colours]


class TableState:
    """One table as the window shows it, seen from the player's seat (or as a spectator)."""

    def __init__(self, *, muted: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.view: SeatView | None = None
        self.table: TableInfo | None = None
        self.connected = True
        #: True while there is a session to send to (the golden tests and the benchmark have none).
        self.online = False
        self.muted = muted
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        #: The latest Events message's events, and how many events came in all: a part that marks or
        #: animates what just happened compares the count with the one it last saw.
        self.recent_events: tuple[dict, ...] = ()
        self.events_seen = 0
        self.picked: int | None = None  # index into the hand
        self.warning: OffenceWarning | None = None
        self.notice = ""  # one line under the buttons: the last refusal or hint
        self.notice_tone: Tone = "plain"
        self.banner = ""
        self.banner_tone: Tone = "plain"
        self.banner_until = 0.0
        now = clock()
        self.turn_started = now  # when the seat to play last changed (the clock counts from it)
        self.table_at = now  # when the table description last came (its turn_left counts from it)
        self._last_turn: tuple | None = None
        self._game_seen: tuple | None = None

    # -- what the parts read -------------------------------------------------------------

    @property
    def hand(self) -> tuple[int, ...]:
        """The player's cards (none for a spectator or before the view comes)."""
        return (self.view.hand or ()) if self.view is not None else ()

    @property
    def picked_card(self) -> int | None:
        """The picked card's number, or None."""
        hand = self.hand
        return hand[self.picked] if self.picked is not None and self.picked < len(hand) else None

    @property
    def waiting(self) -> bool:
        """True while the table waits for players (the game has not started)."""
        return self.table is not None and self.table.state == "waiting"

    @property
    def players(self) -> int:
        """How many seats the table has (the fewest the game allows until the server says)."""
        described = self.view or self.table
        return described.players if described is not None else PLAYER_COUNTS[0]

    @property
    def sides(self) -> int:
        """How many sides play."""
        return self.view.sides if self.view is not None else sides_for(self.players)

    @property
    def seating(self) -> tuple[int | None, int | None]:
        """(players, seat) of the view: when it changes the table is laid out again."""
        return (self.view.players, self.view.seat) if self.view is not None else (None, None)

    @property
    def guarded(self) -> bool:
        """True at a guarded table (offences refused), False in penalty mode."""
        described = self.view or self.table
        return described is None or described.mode == "guarded"

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for: the view's word, else the table's."""
        if self.view is not None:
            return self.view.side_of(seat)
        entry = self.table.seat_info(seat) if self.table is not None else None
        # Before the server has said anything the screen shows the fewest players, each a side.
        return entry.side if entry is not None else seat

    def colours(self) -> list[str]:
        """The colour each side plays."""
        return side_colours(self.table, self.sides)

    def lit_squares(self) -> tuple[int, ...]:
        """The squares to highlight: the free squares the picked card allows."""
        card = self.picked_card
        return self.view.free_squares(card) if card is not None and self.view is not None else ()

    @property
    def hand_dimmed(self) -> bool:
        """True when the hand is shown dimmed: a guarded table where the player may not act now."""
        return self.view is not None and self.guarded and not self.view.my_turn

    def turn_lit(self, seat: int) -> bool:
        """True for the seat to play, while a game is on."""
        v = self.view
        return v is not None and v.turn == seat and not v.over and not self.waiting

    def reasons(self) -> dict[str, str | None]:
        """Why Draw, Play and Discard are disabled now (guarded mode), each None when possible."""
        playing = None if self.waiting else self.view  # before the start no action is possible at all
        card = self.picked_card
        return {
            "Draw": wording.draw_disabled(playing),
            "Play": wording.play_disabled(playing, card),
            "Discard": wording.discard_disabled(playing, card),
        }

    def disabled_buttons(self) -> frozenset[str]:
        """The panel's buttons shown disabled (clicks on them do nothing)."""
        off: set[str] = set()
        if self.guarded:
            reasons = self.reasons()
            off.update(name for name, key in (("draw", "Draw"), ("discard", "Discard")) if reasons[key])
        else:
            if self.view is None or self.view.spectator:
                off.add("draw")
            if self.picked_card is None:
                off.add("discard")
        if self.view is None or not self.view.over:
            off.add("rematch")
        return frozenset(off)

    @property
    def fill_seats_shown(self) -> bool:
        """True while the table waits for players and there is a server to ask for bots."""
        return self.waiting and self.online

    def clock_left(self) -> float | None:
        """Seconds left on the turn clock, or None when no clock runs."""
        t, v = self.table, self.view
        if t is None or not t.clock or v is None or self.waiting or v.over:
            return None
        # The server's own count when the table info carries it; else ours since the turn changed.
        if t.turn_left is not None:
            return max(0.0, t.turn_left - (self.clock() - self.table_at))
        return max(0.0, t.clock - (self.clock() - self.turn_started))

    def banner_now(self) -> tuple[str, Tone]:
        """The banner to show now and its tone ('' when none): an announcement, or the lost link."""
        if not self.connected:
            return wording.RECONNECTING, "bad"
        return (self.banner if self.clock() < self.banner_until else ""), self.banner_tone

    # -- what the session tells -----------------------------------------------------------

    def receive(self, msg: Message) -> Received:
        """Take one message from the session: new state, events, an error or another push."""
        match msg:
            case StateChanged(view, table, connected):
                return Received(relayout=self.show(view, table, connected))
            case Events(events):
                return Received(sounds=self.take_events(events))
            case Failed(_, code, message):
                self.tell(wording.refused(code, message), "bad")
            case Pushed(push):
                self._pushed(push)
        return Received()  # a reply: the state and events that follow it say what changed

    def show(self, view: SeatView | None, table: TableInfo | None = None, connected: bool = True) -> bool:
        """Take a new view and table description (None: keep the last); True when the seating changed."""
        now = self.clock()
        seating = self.seating
        old_hand = self.hand
        self.view = view
        if table is not None:
            self.table = table
            self.table_at = now
            self._note_start(view, table)
        self.connected = connected
        if self.picked is not None:
            # keep the same card picked if it is still held
            card = old_hand[self.picked] if self.picked < len(old_hand) else None
            self.picked = self.hand.index(card) if card in self.hand else None
        turn_key = None if view is None else (view.deal, view.ply, view.turn)
        if turn_key is not None and (self._last_turn is None or turn_key[2] != self._last_turn[2]
                                     or turn_key[0] != self._last_turn[0]):
            self.turn_started = now
        self._last_turn = turn_key
        return self.seating != seating

    def _note_start(self, view: SeatView | None, table: TableInfo) -> None:
        # A game's start is a table change (it carries the first deal's `dealt` event, which
        # take_events leaves to this line): log it once per game, with its cut, also when the
        # game was already under way when this window joined it.
        key = (table.id, table.game)
        if table.state != "playing" or view is None or key == self._game_seen:
            return
        first_seen = self._game_seen is None
        self._game_seen = key
        line = wording.game_start_line(view, table)
        self.log.append(line)
        if not first_seen:
            self.announce(line, "good")  # a rematch: the old game's banner gives way

    def take_events(self, events: tuple[dict, ...] | list[dict]) -> tuple[str, ...]:
        """Log what happened (every action, every penalty with its rule) and announce it; the sounds to play."""
        sounds = []
        self.recent_events = tuple(events)
        self.events_seen += len(events)
        for event in events:
            if event.get("kind") == "dealt" and event.get("deal") == 1:
                continue  # a game's first deal: the game's start line says it (_note_start)
            line = wording.event_line(event, self.table)
            self.log.append(line)
            kind = event.get("kind")
            if kind == "played":
                sounds.append("peg")
            elif kind == "drew":
                sounds.append("draw")
            elif kind == "penalty":
                sounds.append("penalty")
                self.announce(line, "bad")
            elif kind == "won":
                sounds.append("win")
                self.announce(wording.won_banner(line), "good", seconds=FOREVER)
            elif kind == "tied":
                self.announce(line, "warn")
            elif kind == "dealt" and event.get("deal", 1) > 1:
                self.announce(line, "warn")
        return tuple(sounds)

    def _pushed(self, push: dict) -> None:
        kind = push.get("type")
        if kind == "seat-lost":
            self.tell(wording.seat_lost(push.get("code"), push.get("message")), "bad")
        elif kind == "restarted":
            self.tell(wording.RESTARTED, "warn")
        elif kind == "error":
            self.tell(wording.server_says(push.get("message")), "bad")

    def announce(self, text: str, tone: Tone = "plain", seconds: float = BANNER_SECONDS) -> None:
        """Show a banner across the board for ``seconds``."""
        self.banner, self.banner_tone = text, tone
        self.banner_until = self.clock() + seconds

    def tell(self, text: str, tone: Tone = "plain") -> None:
        """Show one line under the buttons (a refusal, a hint)."""
        self.notice, self.notice_tone = text, tone

    # -- what input means ------------------------------------------------------------------

    def key(self, name: str) -> Intent | None:
        """What a key (table_intents.KEYS) means now: 1-5 pick, D draws, X discards, Esc, Enter, M."""
        if self.warning is not None:  # only the warning's own keys count while it is open
            return Confirm() if name == "enter" else Cancel() if name == "escape" else None
        if name in ("1", "2", "3", "4", "5"):
            return Pick(int(name) - 1)
        return {"d": Attempt(Draw()), "x": self._discard_picked(), "escape": Cancel(),
                "m": ToggleSound()}.get(name)

    def click(self, target: Target | None) -> Intent | None:
        """What a click on ``target`` means now (None: nothing, e.g. a disabled button)."""
        if self.warning is not None:  # the warning is modal: only its buttons answer
            match target:
                case OnButton("confirm"):
                    return Confirm()
                case OnButton("back"):
                    return Cancel()
            return None
        match target:
            case OnButton(_, False):
                return None
            case OnButton(name):
                return {"draw": Attempt(Draw()), "discard": self._discard_picked(), "cancel": Cancel(),
                        "mute": ToggleSound(), "rematch": Rematch(), "bots": FillSeats(),
                        "lobby": ToLobby()}.get(name)
            case OnCard(index):
                return Pick(index)
            case OnDeck():
                return Attempt(Draw())
            case OnSquare(square):
                card = self.picked_card
                if card is None:
                    return Hint(wording.pick_for_square(square))
                return Attempt(Play(card, square))
        return None

    def _discard_picked(self) -> Intent:
        card = self.picked_card
        return Hint(wording.PICK_TO_DISCARD) if card is None else Attempt(Discard(card))

    # -- carrying intents out -----------------------------------------------------------------

    def perform(self, intent: Intent) -> tuple[Command, ...]:
        """Carry ``intent`` out on the state; the commands the window must carry out for it."""
        match intent:
            case Pick(index):
                self._pick(index)
            case Attempt(action):
                return self._attempt(action)
            case Confirm() if self.warning is not None:
                action, self.warning = self.warning.action, None
                return self._send(action)
            case Cancel() if self.warning is not None:
                self.warning = None
                self.tell(wording.CANCELLED)
            case Cancel():
                self.picked = None
                self.tell("")
            case Hint(text):
                self.tell(text, "warn")
            case ToggleSound():
                self.muted = not self.muted
                return (SetSound(self.muted),)
            case Rematch() if self.online:
                self.banner_until = 0.0
                self.tell(wording.REMATCH_ASKED)
                return (AskRematch(),)
            case FillSeats() if self.online and self.table is not None:
                self.tell(wording.BOTS_ASKED)
                return tuple(AddBot(self.table.id, seat) for seat in self.table.free_seats())
            case ToLobby():
                return (Leave(),)
        return ()

    def _pick(self, index: int) -> None:
        hand = self.hand
        if index >= len(hand):
            self.tell(wording.no_such_card(len(hand), index), "warn")
            return
        self.picked = None if self.picked == index else index
        card = self.picked_card
        self.tell("" if card is None else wording.picked(card))

    def _attempt(self, action: Action) -> tuple[Command, ...]:
        # Guarded mode says why not before sending; penalty mode warns first; the server decides.
        v = None if self.waiting else self.view
        if v is None or v.spectator:
            self.tell(wording.not_possible(wording.not_now(v) or ""), "warn")
            return ()
        if self.guarded:
            # A play is sent whenever the player may act, so the server names what is wrong with the
            # square; draw and discard are held back while shown disabled.
            reason = wording.draw_disabled(v) if type(action) is Draw else wording.not_now(v)
            if reason:
                self.tell(wording.not_possible(reason), "warn")
                return ()
        else:
            warning = wording.offence_warning(v, action)
            if warning:
                self.warning = OffenceWarning(action, warning)
                return ()
        return self._send(action)

    def _send(self, action: Action) -> tuple[Command, ...]:
        self.picked = None
        if not self.online:
            self.tell(wording.NOT_CONNECTED, "bad")
            return ()
        self.tell(wording.sent(action))
        return (Send(action),)
