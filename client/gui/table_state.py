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
from typing import NamedTuple

from board99 import PLAYER_COUNTS, Action, Discard, Draw, Play, SeatView, sides_for
from board99.client.pushes import Notice, Push, Restarted, SeatLost, TableChange
from board99.coach import Advice
from board99.events import Dealt, Discarded, Drew, Event, Penalty, Played, Tied, Won
from board99.wire.table_info import TableInfo

from . import wording
from .messages import Events, Failed, Message, Pushed, Replied, Resumed, StateChanged
from .motion import Motions, plan
from .palette import COLOUR_RGB
from .records import file_stem, shown_path
from .table_clock import TurnClock
from .table_endings import Endings, Result, match_decided
from .table_intents import (
    AddBot,
    AskCoach,
    AskRematch,
    Attempt,
    Cancel,
    Command,
    Confirm,
    Dismiss,
    FetchHint,
    FetchHistory,
    FetchRecord,
    FetchReview,
    FillSeats,
    Hint,
    HintsOff,
    Intent,
    Leave,
    LookBack,
    OnButton,
    OnCard,
    OnDeck,
    OnSquare,
    Open,
    OpenScreen,
    Pick,
    Rematch,
    ReviewGame,
    SaveHints,
    SaveRecord,
    Send,
    SetSound,
    Target,
    ToggleSound,
    ToLobby,
)
from .table_recent import Recent, Since
from .table_talk import Talk, Toast, Tone

#: How often a confirmed offence is sent again when the table moved on just before it arrived (``stale``).
RESEND_MAX = 3
MOTION_BATCH = 12  # a batch of more events than this is shown at once, without motion


class OffenceWarning(NamedTuple):
    """The action a penalty-mode warning holds back, the offence the engine rules it, and the warning in words."""

    action: Action
    text: str
    offence: str | None = None  # board99.rulings.OFFENCES: the warning holds while the action stays this offence


class Received(NamedTuple):
    """What a session message asks of the window besides a refresh."""

    relayout: bool = False  # the seating changed: every part lays itself out again
    sounds: tuple[str, ...] = ()  # sounds.NAMES to play, in order
    commands: tuple[Command, ...] = ()  # for the window to carry out (a confirmed offence sent again)


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
        self._colours: tuple[TableInfo | None, int, list[str]] | None = None  # (table, sides, their colours)
        self.connected = True
        #: True while there is a session to send to (the golden tests and the benchmark have none).
        self.online = False
        #: Guarded mode says why not before sending (True); False sends every attempt and shows the
        #: engine's refusal instead (a lesson, where trying is the point).
        self.guard_first = True
        self.muted = muted
        #: What the table says: the log, the announcements, the notice line (table_talk.py).
        self.talk = Talk(clock)
        #: What just happened: the latest events, pegs, moves since the player's own (table_recent.py).
        self.recent = Recent()
        #: The turn clock's count and ticks (table_clock.py).
        self.turn_clock = TurnClock(clock)
        self.picked: int | None = None  # index into the hand
        self.warning: OffenceWarning | None = None
        self._vote_notice = ""  # the notice said when the player asked for the next game (cleared when it starts)
        #: The game's result and the match's, and their boxes (table_endings.py).
        self.endings = Endings()
        self.leaving = False  # the "leave this game?" question is open
        self.hints = True  # the player's "hints" setting (the view copies window.prefs.hints)
        self.threats_pref = "guarded"  # the player's "threats" setting (the view copies it)
        self.animation_factor = 1.0  # the player's motion speed (the view copies it; 0: none)
        self.motions = Motions(clock)
        self._last_sent: Action | None = None  # the action a refusal is about
        #: The confirmed warning whose action is on its way, and how often it was sent again after `stale`.
        self._confirmed: OffenceWarning | None = None
        self._resent = 0
        self._game_seen: tuple | None = None
        #: The player sat again in their own unfinished game (`board99 play` picked it up): its start line welcomes them back.
        self.resumed = False
        #: The current game's start line and the view it was told from, while a resume may still re-word it.
        self._started: tuple[str, SeatView] | None = None
        #: The coach's advice on screen (docs/coach.md), until closed or the position changes; None: no hint shown.
        self.coach: Advice | None = None
        self.coach_asking = False  # a hint was asked for and has not come yet

    # -- what the parts read -------------------------------------------------------------

    @property
    def log(self) -> deque[str]:
        """Every line said at this table, oldest first (``talk``'s)."""
        return self.talk.log

    @property
    def notice(self) -> str:
        """The line under the buttons (``talk``'s)."""
        return self.talk.notice

    @property
    def notice_tone(self) -> Tone:
        """How the notice is said."""
        return self.talk.notice_tone

    @property
    def toasts(self) -> list[Toast]:
        """The announcements, newest last, shown until their time (``talk``'s)."""
        return self.talk.toasts

    @property
    def result(self) -> Result | None:
        """The last game's result while it stands (``endings``')."""
        return self.endings.result

    @property
    def result_open(self) -> bool:
        """The end-of-game box and celebration are on screen."""
        return self.endings.result_open

    @property
    def match_open(self) -> bool:
        """The match result box is on screen."""
        return self.endings.match_open

    @property
    def since(self) -> deque[Since]:
        """Other seats' moves since the player's own (``recent``'s)."""
        return self.recent.since

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
        table, sides = self.table, self.sides
        known = self._colours
        # Worked out again only for another table description (one is immutable; most pushes keep it) or sides.
        if known is None or known[0] is not table or known[1] != sides:
            known = self._colours = (table, sides, side_colours(table, sides))
        return list(known[2])

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
        t = self.table
        why = wording.not_now(playing, t)
        if why:  # no action at all now (not this seat's turn, ...): each says so, as each would find first
            return {"Draw": why, "Play": why, "Discard": why}
        card = self.picked_card
        return {
            "Draw": wording.draw_disabled(playing, t),
            "Play": wording.play_disabled(playing, card, t),
            "Discard": wording.discard_disabled(playing, card, t),
        }

    def disabled_buttons(self, reasons: dict[str, str | None] | None = None) -> frozenset[str]:
        """The panel's buttons shown disabled (clicks on them do nothing); ``reasons``: ``reasons()`` if known."""
        off: set[str] = set()
        if self.guarded and self.guard_first:
            reasons = self.reasons() if reasons is None else reasons
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
        return self.turn_clock.left(self.view, self.table, self.waiting)

    def toasts_now(self) -> list[Toast]:
        """The announcements to show now, newest last; a lost link first, for as long as it lasts."""
        return self.talk.toasts_now(self.connected)

    def changes_at(self, now: float) -> float:
        """When what the table shows changes by time alone, past ``now`` (an announcement ending; inf: never).

        The turn clock's count is left out: it changes all the time, and a page counts it down itself."""
        return self.talk.changes_at(now)

    @property
    def my_turn(self) -> bool:
        """True while the game is on and the player is the one to act."""
        v = self.view
        return v is not None and v.my_turn and not v.over and not self.waiting

    def headline(self) -> str:
        """The panel's large line: whose turn it is."""
        return wording.turn_headline(self.view, self.table, self.waiting)

    def recent_pegs(self) -> list[tuple[int, int, float]]:
        """(square, side, strength 1..0): each seat's latest peg, fading over the next round of moves."""
        return self.recent.pegs(self.view, self.players)

    def threats(self) -> dict[int, tuple[int, ...]]:
        """Side -> squares where that side, an opponent's, would complete five (when the player shows them)."""
        v = self.view
        if v is None or v.over or self.waiting:
            return {}
        mode = v.mode
        shown = self.threats_pref == "always" or (self.threats_pref == "guarded" and mode == "guarded")
        if not shown:
            return {}
        return {side: squares for side, squares in v.threats().items() if side != v.side}

    @property
    def hint_shown(self) -> bool:
        """True while the first-game hint shows: hints on, seated, a game on."""
        v = self.view
        return self.hints and v is not None and not v.spectator and not v.over and not self.waiting

    @property
    def coach_shown(self) -> bool:
        """True while the Hint button shows: seated at a game under way at a table with the coach.

        At rated and match tables it is hidden (H says why: ``coach_off``).
        """
        return self.live_game and self.table is not None and self.table.coach

    @property
    def coach_off(self) -> str | None:
        """Why the coach gives no hints at this table (rated, a match), or None."""
        return wording.hint_off(self.table)

    @property
    def save_shown(self) -> bool:
        """True when a finished game's record can be saved: a game over at a table on a server."""
        v = self.view
        return self.online and self.table is not None and v is not None and v.over and not self.waiting

    @property
    def look_back_shown(self) -> bool:
        """True while a spectator watches a game under way (they may step back through it)."""
        v = self.view
        return self.online and v is not None and v.spectator and not self.waiting and v.deal > 0

    @property
    def match_decided(self) -> bool:
        """True at a match table whose match is decided."""
        return match_decided(self.table)

    def dialog(self) -> tuple[str, str, str] | None:
        """The open question (text, confirm label, back label): the offence warning or leaving; else None."""
        if self.warning is not None:
            return wording.warning_box(self.warning.text), "Do it anyway (Enter)", "Cancel (Esc)"
        if self.leaving:
            return wording.LEAVE_QUESTION, "Leave (Enter)", "Stay (Esc)"
        return None

    @property
    def live_game(self) -> bool:
        """True while a game the player is seated in is on (leaving then hands the seat to a bot)."""
        v = self.view
        return v is not None and not v.spectator and not v.over and not self.waiting

    def clock_tick(self) -> bool:
        """True once per second in the turn clock's last seconds of the player's own turn."""
        return self.turn_clock.tick(self.clock_left(), self.my_turn)

    # -- what the session tells -----------------------------------------------------------

    def receive(self, msg: Message) -> Received:
        """Take one message from the session: new state, events, an error or another push."""
        match msg:
            case StateChanged(view, table, connected):
                was_mine = self.my_turn
                relayout = self.show(view, table, connected)
                return Received(relayout=relayout, sounds=("turn",) if self.my_turn and not was_mine else ())
            case Events(events, clock):
                return Received(sounds=self.take_events(events, clock=clock))
            case Failed("save_record", _, message):
                self.tell(wording.not_saved(message), "bad")
            case Failed("hint", code, message):
                self.coach_asking = False
                self.tell(wording.hint_refused(code, message), "warn")
            case Failed("review_record", _, message):
                self.tell(wording.not_reviewed(message), "bad")
            case Failed("act", "stale", _) if self._confirmed is not None:
                return Received(commands=self._confirmed_again())
            case Failed(_, code, message):
                self.tell(wording.refused(code, message, self._last_sent), "bad")
            case Replied("save_record", path):
                self.tell("")
                self.announce(wording.saved(shown_path(path)), "good")
            case Replied(_, Resumed(table)):
                self._resumed(table)
            case Replied("hint", advice) if isinstance(advice, Advice):
                self.coach_asking = False
                v = self.view
                if v is not None and (advice.deal, advice.ply) == (v.deal, v.ply) and advice.hints:
                    self.coach = advice
                    self.tell(self._pick_suggested(advice))
            case Replied("act", _):
                self._confirmed = None
                # The action went through: its events say what happened, so "Drawing a card…" goes.
                if self._last_sent is not None and self.notice == wording.sent(self._last_sent):
                    self.tell("")
            case Pushed(push):
                self._pushed(push)
        return Received()  # a reply: the state and events that follow it say what changed

    def show(self, view: SeatView | None, table: TableInfo | None = None, connected: bool = True) -> bool:
        """Take a new view and table description (None: keep the last); True when the seating changed."""
        seating = self.seating
        old_hand = self.hand
        self.view = view
        if table is not None:
            self.table = table
            self.turn_clock.described()
            self._note_start(view, table)
        self.connected = connected
        if self.picked is not None:
            # keep the same card picked if it is still held
            card = old_hand[self.picked] if self.picked < len(old_hand) else None
            self.picked = self.hand.index(card) if card in self.hand else None
        if self.turn_clock.viewed(view):
            self.recent.last_peg.clear()  # a new deal: an empty board
        self.endings.viewed(view, self.table)
        self._recheck_dialogs()
        if self.coach is not None and (view is None or view.over or (view.deal, view.ply) != (self.coach.deal,
                                                                                              self.coach.ply)):
            self.coach = None  # the advice was about a position that is gone
        return self.seating != seating

    def _recheck_dialogs(self) -> None:
        # A question on screen must stay true: when the game moves on behind it, it is asked again
        # from the new view. An offence warning stays open while the engine still rules its action
        # the same offence (a bot moving on does not change an out-of-turn draw), its words brought
        # up to date; it closes, nothing done, when the action would now be something else.
        if self.warning is not None:
            self.warning = self._still(self.warning)
        if self.leaving and not self.live_game:
            self.leaving = False  # the game ended behind the question: leaving no longer hands a seat over

    def _still(self, warning: OffenceWarning) -> OffenceWarning | None:
        # The warning as the current view words it, or None (closed, and the player told why).
        v = None if self.waiting else self.view
        ruling = None if v is None or v.spectator or v.over else v.ruling(warning.action)
        if v is None or ruling is None or ruling.penalty is None or ruling.offence != warning.offence:
            self.tell(wording.warning_withdrawn(ruling), "warn")
            return None
        text = wording.offence_warning(v, warning.action, self.table)
        return warning if text is None or text == warning.text else warning._replace(text=text)

    def _confirmed_again(self) -> tuple[Command, ...]:
        # The server answered `stale` to a confirmed offence: the table moved on between the view the
        # player confirmed on and the server. The session shows the new view first; if the engine
        # still rules the action the very offence the player confirmed, it goes again (the player
        # agreed to exactly that), a few times at most; else nothing is done and the player is told.
        confirmed, self._confirmed = self._confirmed, None
        if confirmed is None:
            return ()
        still = self._still(confirmed)
        if still is None:
            return ()
        if self._resent >= RESEND_MAX:
            self.tell(wording.refused("stale", "", confirmed.action), "bad")
            return ()
        self._resent += 1
        commands = self._send(still.action)
        self._confirmed = still if commands else None
        return commands

    def _resumed(self, table: TableInfo) -> None:
        # The player sat again in their own unfinished game. Usually this comes before the game's
        # first view; if the view came first (the table screen read the session's latest state
        # before its queue), the start line already logged is put right.
        started = self._started
        if self._game_seen != (table.id, table.game) or started is None:
            self.resumed = True  # the game this window shows next is the player's own, going on
            return
        old, view = started
        self.talk.reword(old, wording.welcome_back_line(view, table))
        self._started = None

    def _note_start(self, view: SeatView | None, table: TableInfo) -> None:
        # A game's start is a table change (it carries the first deal's `dealt` event, which
        # take_events leaves to this line): log it once per game, with its cut, also when the
        # game was already under way when this window joined it.
        key = (table.id, table.game)
        if table.state != "playing" or view is None or key == self._game_seen:
            return
        self._game_seen = key
        # A new game: the last one's "since your turn" moves and its rematch notice are history now.
        self.recent.since.clear()
        if self.notice == self._vote_notice:
            self.tell("")
        resumed, self.resumed = self.resumed, False
        line = wording.welcome_back_line(view, table) if resumed else wording.game_start_line(view, table)
        self._started = None if resumed else (line, view)
        self.log.append(line)
        self.announce(line, "good")

    def take_events(self, events: tuple[Event, ...] | list[Event], clock: bool = False) -> tuple[str, ...]:
        """Log what happened (every move, every penalty with its rule), announce it, set its motions; the sounds."""
        sounds = []
        self.recent.came(tuple(events))
        me = self.view.seat if self.view is not None else None
        colours = self.colours()
        clock_told = False
        for event in events:
            if isinstance(event, Dealt) and event.deal == 1:
                continue  # a game's first deal: the game's start line says it (_note_start)
            if clock and not clock_told and isinstance(event, Drew | Discarded):
                # The turn clock made this move: say so, not as an ordinary draw or discard.
                clock_told = True
                line = wording.clock_line(event, self.table, me)
                self.announce(line, "warn")
            else:
                line = wording.event_line(event, self.table, me, colours)
            self.log.append(line)
            self.recent.note_move(event, me, self.table, self.side_of)
            match event:
                case Played():
                    sounds.append("peg")
                case Drew():
                    sounds.append("draw")
                case Penalty():
                    sounds.append("penalty")
                    self.announce(line, "bad")
                case Won():
                    sounds.append("win")
                    self.endings.won(self.view, self.table, colours, event)
                case Tied():
                    self.announce(line, "warn")
                case Dealt(deal) if deal > 1:
                    self.announce(line, "warn")
        # A long batch is a catch-up (joining a game under way), not a move to watch: no motion.
        # None planned at all without motion (factor 0: a web page's table, which draws none; start keeps none).
        batch = plan(events, me, self.side_of) if len(events) <= MOTION_BATCH and self.animation_factor > 0 else ()
        self.motions.start(batch, self.animation_factor)
        return tuple(sounds)

    def _pushed(self, push: Push) -> None:
        match push:
            case SeatLost(code, message):
                self.tell(wording.seat_lost(code, message), "bad")
            case Restarted():
                self.tell(wording.RESTARTED, "warn")
            case Notice(_, message):
                self.tell(wording.server_says(message), "bad")
            case TableChange(change="hint", by=int(by)):
                me = self.view.seat if self.view is not None else None
                if by != me:  # the player's own ask is answered, not announced
                    line = wording.coach_asked(by, self.table)
                    self.log.append(line)
                    self.announce(line)

    def announce(self, text: str, tone: Tone = "plain") -> None:
        """Show an announcement in the panel for a while (``talk``)."""
        self.talk.announce(text, tone)

    def tell(self, text: str, tone: Tone = "plain") -> None:
        """Show one line under the buttons (a refusal, a hint)."""
        self.talk.tell(text, tone)

    # -- what input means ------------------------------------------------------------------

    def key(self, name: str) -> Intent | None:
        """What a key (table_intents.KEYS) means now: 1-5 pick, D draws, X discards, Esc, Enter, M."""
        if self.dialog() is not None:  # only the question's own keys count while it is open
            return Confirm() if name == "enter" else Cancel() if name == "escape" else None
        if name == "escape" and self.endings.any_open:
            return Dismiss()
        if name == "left":
            return LookBack()
        if name == "h":
            return AskCoach()
        if name == "r":
            return ReviewGame()
        if name in ("1", "2", "3", "4", "5"):
            return Pick(int(name) - 1)
        return {"d": Attempt(Draw()), "x": self._discard_picked(), "escape": Cancel(),
                "m": ToggleSound()}.get(name)

    def click(self, target: Target | None) -> Intent | None:
        """What a click on ``target`` means now (None: nothing, e.g. a disabled button)."""
        if self.dialog() is not None:  # the question is modal: only its buttons answer
            match target:
                case OnButton("confirm"):
                    return Confirm()
                case OnButton("back"):
                    return Cancel()
            return None
        if self.endings.any_open and not isinstance(target, OnButton):
            return Dismiss()  # a click anywhere closes the end-of-game box; buttons still work
        match target:
            case OnButton(_, False):
                return None
            case OnButton(name):
                return {"draw": Attempt(Draw()), "discard": self._discard_picked(), "cancel": Cancel(),
                        "mute": ToggleSound(), "rematch": Rematch(), "bots": FillSeats(),
                        "lobby": ToLobby(), "hint-off": HintsOff(), "rules": Open("rules"),
                        "settings": Open("settings"), "quit": Open("quit"), "save": SaveRecord(),
                        "look-back": LookBack(), "close": Dismiss(), "coach": AskCoach(),
                        "review": ReviewGame()}.get(name)
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
        if not isinstance(intent, Hint):
            # Whatever the player does next, the boxes give way; the match box stays while its record is saved.
            self.endings.give_way(keep_match=isinstance(intent, SaveRecord))
        match intent:
            case Pick(index):
                self._pick(index)
            case Attempt(action):
                return self._attempt(action)
            case Confirm() if self.warning is not None:
                # Judged again now, from the view on screen: the player confirms what the box says.
                warning, self.warning = self._still(self.warning), None
                if warning is None:
                    return ()
                commands = self._send(warning.action)
                self._confirmed, self._resent = (warning if commands else None), 0
                return commands
            case Cancel() if self.warning is not None:
                self.warning = None
                self.tell(wording.CANCELLED)
            case Confirm() if self.leaving:
                self.leaving = False
                return (Leave(),)
            case Cancel() if self.leaving:
                self.leaving = False
            case Cancel() if self.coach is not None:
                self.coach = None
            case Cancel():
                self.picked = None
                self.tell("")
            case Hint(text):
                self.tell(text, "warn")
            case ToggleSound():
                self.muted = not self.muted
                return (SetSound(self.muted),)
            case Rematch() if self.online:
                self._vote_notice = wording.rematch_asked(self.table)
                self.tell(self._vote_notice)
                return (AskRematch(),)
            case FillSeats() if self.online and self.table is not None:
                self.tell(wording.BOTS_ASKED)
                return tuple(AddBot(self.table.id, seat) for seat in self.table.free_seats())
            case ToLobby() if self.live_game and self.online:
                self.leaving = True  # ask first: a bot takes the seat over
            case ToLobby():
                return (Leave(),)
            case Dismiss():
                self.motions.finish()
            case HintsOff():
                self.hints = False
                return (SaveHints(False),)
            case Open(name):
                return (OpenScreen(name),)
            case SaveRecord() if self.save_shown and self.table is not None:
                t = self.table
                self.tell(wording.SAVING)
                first = t.match.first_game if t.match is not None else None
                return (FetchRecord(t.id, t.game, t.match is not None, file_stem(t.name, t.game, first)),)
            case LookBack() if self.look_back_shown:
                return (FetchHistory(),)
            case LookBack():
                self.tell(wording.LOOK_BACK_NOT_NOW, "warn")
            case AskCoach():
                return self._ask_coach()
            case ReviewGame() if self.save_shown and self.table is not None and self.view is not None:
                self.tell(wording.REVIEW_FETCHING)
                seat = self.view.seat if self.view.seat is not None else 0
                return (FetchReview(self.table.id, self.table.game, seat),)
            case ReviewGame():
                self.tell(wording.REVIEW_NOT_NOW, "warn")
        return ()

    def _ask_coach(self) -> tuple[Command, ...]:
        if self.coach is not None:
            self.coach = None  # H again closes the hint
            return ()
        off = self.coach_off
        if not self.live_game or off is not None:
            self.tell(off if off is not None and self.live_game else wording.COACH_NOT_NOW, "warn")
            return ()
        if not self.online:
            self.tell(wording.NOT_CONNECTED, "bad")
            return ()
        self.coach_asking = True
        self.tell(wording.ASKING_COACH)
        return (FetchHint(),)

    def _pick_suggested(self, advice: Advice) -> str:
        # The framed card is picked for real on the player's turn, so a click on the ringed square
        # plays it (and X discards it): what the hint shows is what the next click does.
        action = advice.action
        if not self.my_turn or not isinstance(action, Play | Discard) or action.card not in self.hand:
            return ""
        self.picked = self.hand.index(action.card)
        return wording.coach_picked(action)

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
            self.tell(wording.not_possible(wording.not_now(v, self.table) or ""), "warn")
            return ()
        if self.guarded and self.guard_first:
            # A play is sent whenever the player may act, so the server names what is wrong with the
            # square; draw and discard are held back while shown disabled.
            reason = wording.draw_disabled(v, self.table) if type(action) is Draw else wording.not_now(v, self.table)
            if reason:
                self.tell(wording.not_possible(reason), "warn")
                return ()
        else:
            warning = wording.offence_warning(v, action, self.table)
            if warning:
                self.warning = OffenceWarning(action, warning, v.ruling(action).offence)
                return ()
        return self._send(action)

    def _send(self, action: Action) -> tuple[Command, ...]:
        self._confirmed = None  # a new action: whatever was confirmed before has had its answer
        self.picked = None
        if not self.online:
            self.tell(wording.NOT_CONNECTED, "bad")
            return ()
        self._last_sent = action
        self.tell(wording.sent(action))
        return (Send(action),)
