"""What the Ninety-Nine table screen knows and what input means there: no drawing, no network.

``NinetyState`` takes the session's messages (messages.py) and keeps the seat's
view (``board99.ninety_nine.view.NinetyView``), the table's description, the
log of what happened in words, the last play and what it did, and the card the
player picked while a value is chosen. ``key`` and ``pick`` turn input into the
actions to send; every rule question is the engine's (``NinetyView.playable``,
the table's ``Effect``), so the screen never judges a card itself.

>>> from board99.ninety_nine.game import Game
>>> from board99.ninety_nine.rules import Table
>>> from board99.ninety_nine.view import view_of
>>> s = NinetyState()
>>> _ = s.receive(StateChanged(view_of(Game(2, "guarded", Table.build(2, {"rules": "tokens"}), seed=3), 1), None, True))
>>> s.view.hand, s.prompt()
(('QH', '5H', '5C', '7S'), 'Your turn: press 1-4 for a card (the marked ones fit)')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

from board99.ninety_nine.actions import Action, Draw, Play
from board99.ninety_nine.cards import Card, rank_of, words
from board99.ninety_nine.events import (
    REASONS,
    Busted,
    Corrected,
    Dealt,
    Drew,
    Event,
    Forgot,
    LostToken,
    Out,
    Owes,
    Played,
    Rebuilt,
    Reversed,
    RoundOver,
    SatOut,
    Skipped,
    TurnedUp,
    Won,
)
from board99.ninety_nine.rules import Effect
from board99.ninety_nine.view import NinetyView

from .messages import Events, Failed, Message, Replied, StateChanged
from .wording import match_game, rematch_label

#: Lines of the log kept (what happened, newest last).
LOG_LINES = 60


class Choice(NamedTuple):
    """A picked card that gives a choice (an ace, a ten): the values that fit now, highest first."""

    card: Card
    values: tuple[int, ...]


class Received(NamedTuple):
    """What a message did: the sounds to play and the cards to move (seat, card; seat None: the turned-up card)."""

    sounds: tuple[str, ...] = ()
    motions: tuple[tuple[int | None, Card], ...] = ()


def effect_words(effect: Effect, value: int | None) -> str:
    """What one card did, short: '+7, reverses', 'makes it 99', '-10'."""
    if effect.to99:
        head = "makes it 99"
    else:
        amount = effect.values[0] if value is None else value
        head = f"{amount:+d}"
    tail = [w for flag, w in ((effect.reverse, "reverses"), (effect.skip, "skips the next"),
                              (effect.queen, "no draw for the next")) if flag]
    return ", ".join([head, *tail])


class NinetyState:
    """The Ninety-Nine table as the window shows it, and what each key or click means."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        import time

        self.clock = clock or time.monotonic
        self.view: NinetyView | None = None
        self.table: Any = None  # board99.wire.table_info.TableInfo
        self.connected = True
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.last = ""  # the last play and what it did, in words
        self.notice = ""  # a line for the player: a refusal, a correction
        self.bad = False  # the notice is a refusal
        self.choice: Choice | None = None
        self.help_shown = False
        self.leaving = False  # Esc was pressed once during the game: a second one leaves
        self.sent_at_ply: int | None = None  # the ply an action was sent at (no second send until it moved on)
        #: At a penalty table the player may say the total themselves (T, digits, Enter): the digits typed so
        #: far (None: not typing), and the total said with the next card (None: the table counts for them).
        self.saying: str | None = None
        self.to_say: int | None = None

    # -- names ---------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """A seat's player: 'You' for the player's own, else the name at the table (or 'S2')."""
        if self.view is not None and seat == self.view.seat:
            return "You"
        seats = self.table.seats if self.table is not None else ()
        if seat < len(seats) and seats[seat].name:
            name = str(seats[seat].name)
            # Bots of one kind share a name: their seat number tells them apart ("sound 2", "sound 3").
            return f"{name} {seat + 1}" if sum(s.name == name for s in seats) > 1 else name
        return f"S{seat}"

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return self.view is not None and self.view.over

    @property
    def my_turn(self) -> bool:
        """True when the player is to play."""
        return self.view is not None and self.view.my_turn

    # -- the session's messages ------------------------------------------------------------

    def receive(self, msg: Message) -> Received:
        """Take one message from the session."""
        if isinstance(msg, StateChanged):
            return self._state(msg)
        if isinstance(msg, Events):
            return self._events(msg.events)
        if isinstance(msg, Failed):
            self.sent_at_ply = None
            if msg.code == "game-over":
                # A key pressed as the game ended (D after the last card): the result box says who won, in
                # names; the engine's refusal would say it again in seat numbers ("S1 has won").
                self.tell("" if self.over else "The game is over")
                return Received()
            self.tell(f"Refused: {msg.message}", bad=True)
            return Received(("penalty",))
        if isinstance(msg, Replied) and msg.op == "act":
            return Received()
        return Received()

    def _state(self, msg: StateChanged) -> Received:
        before = self.view
        view = msg.view if isinstance(msg.view, NinetyView) else None
        self.view, self.table, self.connected = view, msg.table, msg.connected
        if view is None:
            return Received()
        if before is None or view.ply != before.ply or view.deal != before.deal:
            self.choice = None
            self.sent_at_ply = None
        if before is not None and before.deal and view.deal == 1 and before.deal > 1 or (
                before is not None and view.ply < before.ply):
            self.log.clear()  # a rematch: a new game
            self.last = ""
        became_mine = view.my_turn and not (before is not None and before.my_turn and before.ply == view.ply)
        return Received(("turn",) if became_mine and before is not None else ())

    def _events(self, events: tuple[Event, ...]) -> Received:
        sounds: list[str] = []
        motions: list[tuple[int | None, Card]] = []
        for event in events:
            line = self.event_words(event)
            if line:
                self.log.append(line)
            match event:
                case TurnedUp(_, card) | Played(_, card) | Busted(_, card):
                    motions.append((None if isinstance(event, TurnedUp) else event.seat, card))
                    sounds.append("draw")
                    self.last = line
                case Reversed() | Skipped() | Owes() if self.last:
                    self.last += "; " + line
                case LostToken() | Out() | SatOut() | Corrected() | Forgot():
                    sounds.append("penalty")
                    self.last = (self.last + "; " if self.last else "") + line
                    if isinstance(event, Corrected):
                        self.tell(line, bad=True)
                case Won():
                    sounds.append("win")
                    self.last = line
        return Received(tuple(dict.fromkeys(sounds)), tuple(motions))

    def event_words(self, e: Event) -> str:
        """One event in words for a person, the rule named where it costs something."""
        seat = getattr(e, "seat", None)
        who = self.name(seat) if isinstance(seat, int) else ""
        match e:
            case Dealt(deal, dealer, hand_size):
                return f"Deal {deal}: {self.name(dealer)} dealt {hand_size} cards each"
            case TurnedUp(dealer, card, value, total):
                return f"{self.name(dealer)} turned up the {words(card)}{self._as(value)}: total {total}"
            case Played(_, card, value, total):
                return f"{who} played the {words(card)}{self._does(card, value)}: total {total}"
            case Busted(_, card, value, total):
                return f"{who} played the {words(card)}{self._does(card, value)}: {total} is over 99"
            case Corrected(_, said, total):
                return f"{who} said {said}: corrected, the total is {total}"
            case Reversed(direction):
                return "play reverses: now " + ("clockwise" if direction == 1 else "counter-clockwise")
            case Skipped():
                return f"{who} {'are' if who == 'You' else 'is'} skipped"
            case Owes(_, n):
                cards = "1 card" if n == 1 else f"{n} cards"
                return f"{who} must answer {'a queen' if n == 1 else f'{n} queens'}: a queen, or {cards}, no draws"
            case Drew(drawer, card):
                if card is None and drawer == (self.view.seat if self.view else None):
                    return ""
                return f"{who} drew {'a card' if card is None else 'the ' + words(card)}"
            case Forgot():
                return f"{who} forgot to draw: that draw is lost (002, 003, 004)"
            case Rebuilt(cards, shuffled):
                how = "shuffled" if shuffled else "turned over unshuffled"
                return f"The stock is rebuilt from the pile: {cards} cards, {how}"
            case LostToken(_, reason, left):
                return f"{who} lost a token: {self._why(reason)}; {left} left"
            case Out(_, reason):
                return f"{who} {'are' if who == 'You' else 'is'} out of the game: {self._why(reason)}"
            case SatOut(_, reason):
                return f"{who} {'sit' if who == 'You' else 'sits'} this round out: {self._why(reason)}"
            case RoundOver(deal):
                return f"Deal {deal} is over"
            case Won():
                return f"{who} {'win' if who == 'You' else 'wins'}: the last player left"
        return ""

    @staticmethod
    def _as(value: object) -> str:
        return f" as {value:+d}" if isinstance(value, int) else ""

    def _does(self, card: object, value: object) -> str:
        if self.view is None or not isinstance(card, str):
            return ""
        return f" ({effect_words(self.view.table.effect(rank_of(card)), value if isinstance(value, int) else None)})"

    @staticmethod
    def _why(reason: str) -> str:
        return REASONS.get(reason, reason)

    def tell(self, text: str, bad: bool = False) -> None:
        """Show ``text`` to the player (a refusal when ``bad``)."""
        self.notice, self.bad = text, bad

    # -- what the player may do -------------------------------------------------------------

    def fitting(self) -> dict[Card, tuple[int | None, ...]]:
        """Each card of the hand that keeps the total fit now, with the values that do (the engine's answer)."""
        found: dict[Card, tuple[int | None, ...]] = {}
        if self.view is None:
            return found
        for card, value in self.view.playable():
            found[card] = (*found.get(card, ()), value)
        return found

    def result_title(self) -> str:
        """The result box's title once the game is over: its winner, or the match's once the match is decided."""
        v, table = self.view, self.table
        winner = v.winner if v is not None and v.winner is not None else 0
        title = "You won!" if v is not None and winner == v.seat else f"{self.name(winner)} won"
        match = getattr(table, "match", None)
        if match is not None and match.over(table.sides):
            side = match.winner(table.sides)
            seat_of = {s.side: s.seat for s in table.seats}
            title = ("The match is level" if side is None else
                     "You won the match" if v is not None and v.seat is not None and seat_of.get(side) == v.seat
                     else f"{self.name(seat_of.get(side, 0))} won the match")
        return title

    def match_line(self) -> str | None:
        """'3 games · game 2: You 1 · Bo 0': a match's length and each player's games won (None: no match)."""
        table = self.table
        match = getattr(table, "match", None)
        if match is None:
            return None
        won = match.score(table.sides)
        head = match.format.text()
        scores = " · ".join(f"{self.name(s.seat)} {won[s.side]}" for s in table.seats)
        return f"{head[:1].upper()}{head[1:]} · game {match_game(table)}: {scores}"

    def prompt(self) -> str:
        """What the player may do now, in one line."""
        v = self.view
        if v is None or not v.started:
            return "Waiting for players"
        if v.over:
            again = "a rematch" if getattr(self.table, "match", None) is None else \
                rematch_label(self.table).lower()  # in a match: the next game, or a new match
            return f"{self.name(v.winner or 0)} {'win' if v.winner == v.seat else 'wins'} · R: {again}, Esc: the lobby"
        if v.seat is None:
            return f"Watching: {self.name(v.turn or 0)} to play" if v.turn is not None else "Watching"
        if v.out[v.seat]:
            return "You are out of the game: watch to the end, or Esc for the lobby"
        draw = " · D: draw" if v.may_draw else ""
        if self.saying is not None:
            return f"Say the total: {self.saying or '_'} · Enter: say it with your next card · Esc: let the table count"
        if self.choice is not None:
            return f"The {words(self.choice.card)}: Up for {self.choice.values[0]:+d}, Down for " \
                   f"{self.choice.values[-1]:+d}, Esc to pick again"
        if v.my_turn:
            n = len(v.hand or ())
            owed = f" ({v.owed} cards owed to the queens)" if v.owed > 1 else ""
            if self.to_say is not None:
                owed += f", saying {self.to_say}"
            elif v.mode == "penalty":
                draw += " · T: say the total yourself"
            if not self.fitting():
                return f"Your turn{owed}: no card fits; press 1-{n} to play one anyway" + draw
            return f"Your turn{owed}: press 1-{n} for a card (the marked ones fit)" + draw
        if v.may_draw:
            return "Press D to draw for the card you played, before the next player plays"
        return f"{self.name(v.turn)} to play" if v.turn is not None else "Between deals"

    def pick(self, index: int) -> list[Action]:
        """The player chose card ``index`` (0-based) of the hand: the action to send, or none while a value waits."""
        v = self.view
        if v is None or v.hand is None or not 0 <= index < len(v.hand) or self.over:
            return []
        if not v.my_turn:
            self.tell(f"It is {self.name(v.turn)}'s turn, not yours" if v.turn is not None else "Not your turn",
                      bad=True)
            return []
        card = v.hand[index]
        effect = v.table.effect(rank_of(card))
        fits = self.fitting().get(card)
        if effect.choice:
            values = tuple(x for x in (fits or ()) if x is not None) or effect.values
            values = tuple(sorted(values, reverse=True))
            if len(values) > 1:
                self.choice = Choice(card, values)
                self.tell("")
                return []
            return self._play(card, values[0], effect)
        return self._play(card, None, effect)

    def choose(self, high: bool) -> list[Action]:
        """Up (``high``) or Down while a card with a choice is picked: its action."""
        if self.choice is None or self.view is None:
            return []
        card, values = self.choice
        self.choice = None
        return self._play(card, values[0] if high else values[-1], self.view.table.effect(rank_of(card)))

    def _play(self, card: Card, value: int | None, effect: Effect) -> list[Action]:
        v = self.view
        assert v is not None
        if self.sent_at_ply == v.ply:
            return []
        say = v.table.after(v.total, effect, value)
        if self.to_say is not None:  # the total the player said (a penalty table corrects a wrong one)
            say, self.to_say = self.to_say, None
        self.sent_at_ply = v.ply
        self.tell("")
        # A penalty table makes drawing a step of its own (the player presses D); a guarded one draws with the card.
        return [Play(card, value, say, draw=v.mode != "penalty")]

    def draw(self) -> list[Action]:
        """D: a draw, at a penalty table (the engine judges whether one is owed: the key may come before the
        view that shows the card just played, and a draw must not wait for it)."""
        v = self.view
        if v is None or v.seat is None or v.over:
            return []
        if v.mode != "penalty":
            self.tell("At a guarded table the draw comes with the card you play", bad=True)
            return []
        return [Draw()]

    def start_saying(self) -> list[Action]:
        """T: the player will say the total with their next card (a penalty table, where saying it is the rule)."""
        v = self.view
        if v is None or v.seat is None or v.over:
            return []
        if v.mode != "penalty":
            self.tell("At a guarded table the total is said for you", bad=True)
            return []
        self.saying, self.to_say = "", None
        self.tell("")
        return []

    def say_key(self, name: str) -> list[Action]:
        """A key while the player types the total: a digit, a minus, Enter to keep it, Esc to give it up."""
        assert self.saying is not None
        if name.isdigit() and len(self.saying.lstrip("-")) < 3:
            self.saying += name
        elif name == "minus" and not self.saying:
            self.saying = "-"  # a ten may take the total below zero at some tables (002)
        elif name == "enter":
            said = self.saying
            self.saying = None
            if said.lstrip("-"):
                self.to_say = int(said)
                self.tell(f"You will say {self.to_say} with your next card")
        elif name == "escape":
            self.saying = None
            self.tell("The table says the total for you")
        return []

    def key(self, name: str) -> list[Action] | str:
        """A key's meaning: actions to send, or the name of a screen command ('lobby', 'rematch', 'mute', 'help')."""
        if name != "escape" and self.leaving:
            self.leaving = False
            self.tell("")
        if self.saying is not None and name not in ("d", "up", "down"):
            return self.say_key(name)
        if name == "t":
            return self.start_saying()
        if name.isdigit():
            return self.pick(int(name) - 1)
        if name in ("up", "down"):
            return self.choose(name == "up")
        if name == "d":
            return self.draw()
        if name == "escape":
            if self.choice is not None:
                self.choice = None
                return []
            if self.help_shown:
                self.help_shown = False
                return []
            v = self.view
            playing = v is not None and v.seat is not None and v.started and not v.over and not v.out[v.seat]
            if playing and not self.leaving:
                # Leaving mid-game is one key away from a card: ask once more.
                self.leaving = True
                self.tell("Esc again leaves the table; a bot plays your seat until you take it back", bad=True)
                return []
            return "lobby"
        if name == "r" and self.over:
            return "rematch"
        if name == "m":
            return "mute"
        if name == "s":
            return "settings"
        if name == "h":
            self.help_shown = not self.help_shown
            return []
        return []
