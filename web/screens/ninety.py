"""The Ninety-Nine table as a web guest sees it: scenes (plain JSON) built from the window's own view model.

``NinetyScreen`` keeps a ``NinetyState`` (client/gui/ninety_state.py), the very
state the window's table keeps, and turns it into a scene for the page: the
running total, the seats with their tokens, the played pile and the stock, the
guest's hand with each card saying what it would make the total (enabled only
if the engine says it fits), the choice of a card's two values, the draw owed at
a penalty table, the total said by hand where players say it, the turn clock,
what happened since the guest's turn, and the end of a game or match. Every rule
question is the engine's (``NinetyView.playable``, ``Table.after``, ``Effect``);
every word of an event is the state's (``NinetyState.event_words``). A press
comes back as an id the scene gave; anything else is refused in words.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from itertools import islice
from typing import Any

from board99 import kinds
from board99.client.gui import wording
from board99.client.gui.messages import Events, Failed, Message, Replied, StateChanged
from board99.client.gui.ninety_state import NinetyState, effect_words
from board99.client.gui.table_clock import TurnClock
from board99.kinds import GameKind
from board99.ninety_nine.actions import LIMIT, Action
from board99.ninety_nine.cards import JOKER, Card, rank_of, words
from board99.ninety_nine.events import (
    Busted,
    Corrected,
    Drew,
    Event,
    Forgot,
    LostToken,
    Out,
    Played,
    SatOut,
    Won,
)
from board99.ninety_nine.view import NinetyView

from . import Command, parts

TITLE = "Ninety-Nine"
#: Lines of the "since your turn" list (other seats' plays since the guest's own).
SINCE_SHOWN = 8
#: Lines of the table's log a scene carries (newest first): the state keeps more, a phone shows a few.
LOG_SHOWN = 12
#: The longest total a guest may type (the engine's own bound on a number an action carries).
SAY_MAX = len(str(-LIMIT))
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: Keys passed on to ``NinetyState.key`` and what the keys part calls them (digits are added per hand).
_KEY_LABELS = {"up": "The higher value", "down": "The lower value", "d": "Draw", "t": "Say the total",
               "h": "This table's rules", "r": "Rematch", "escape": "Back, or leave (twice)", "enter": "Say it",
               "minus": "Minus"}
#: A screen command from ``NinetyState.key`` -> what the seat does with it (mute and settings are the window's).
_COMMANDS = {"lobby": "leave", "rematch": "rematch"}
#: Events that cost someone something (or end the game): said as notices too, as the window plays a sound.
_PENALTIES = (LostToken, Out, SatOut, Corrected, Forgot, Won)


def _card_id(hand: tuple[Card, ...], index: int) -> str:
    """A stable id for a card of the hand: its name, and which copy when two decks give a pair."""
    card = hand[index]
    copy = hand[:index].count(card)
    return f"card-{card}" if copy == 0 else f"card-{card}-{copy + 1}"


def _face(card: Card) -> tuple[str, str | None, str]:
    """A card's rank, its suit's name and a short label ('Q♥'): what the page draws."""
    rank = rank_of(card)
    if rank == JOKER:
        return "Joker", None, "Joker"
    return rank, _SUIT_NAMES[card[-1]], rank + _SUIT_MARKS[card[-1]]


class NinetyScreen:
    """One guest's view of a Ninety-Nine table (a seat's or a spectator's): scenes out, presses and keys in."""

    def __init__(self, kind: GameKind, name: str, clock: Callable[[], float] | None = None) -> None:
        self.kind = kind
        self.guest = name
        self.clock = clock or time.monotonic
        self.state = NinetyState(clock=self.clock)
        self.turn_clock = TurnClock(self.clock)
        self.since: deque[str] = deque(maxlen=SINCE_SHOWN)
        self.result_open = True  # the end-of-game dialog shows until the guest closes it
        self.leaving = False  # Lobby was pressed during the game: the question is open
        self._notices: list[tuple[str, str]] = []
        self._log_part: tuple[tuple[str, ...], dict] | None = None  # the log's part and the lines it shows

    # -- what the session says -----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game on screen has a winner."""
        return self.state.over

    @property
    def view(self) -> NinetyView | None:
        """The guest's view of the table (None before the first state)."""
        return self.state.view

    def take(self, msg: Message) -> None:
        """One record from the client (client/gui/messages.py): the state takes it; the screen notes the rest."""
        before = self.state.view
        self.state.receive(msg)
        if isinstance(msg, StateChanged):
            if msg.table is not None:
                self.turn_clock.described()
            self.turn_clock.viewed(self.state.view)  # type: ignore[arg-type]  # deal, ply, turn, over: its fields
            view = self.state.view
            if view is not None and (before is None or view.deal < before.deal or view.ply < before.ply):
                self.since.clear()  # a new game (a rematch): nothing happened since yet
                if before is not None and before.over and msg.table is not None:
                    self._notices.append((f"Game {wording.match_game(msg.table)} starts", "good"))
            if view is not None and not view.over:
                self.result_open = True
        elif isinstance(msg, Events):
            self._since(msg.events)
            me = self.view.seat if self.view is not None else None
            if msg.clock and any(isinstance(e, (Played, Busted)) and e.seat == me for e in msg.events):
                self._notices.append(("Your time ran out: the table played a card for you", "bad"))
            for event in msg.events:
                if isinstance(event, _PENALTIES):
                    line = self.state.event_words(event)
                    mine = getattr(event, "seat", None) == me
                    tone = "good" if isinstance(event, Won) and mine else "bad" if mine else "plain"
                    self._notices.append((line, tone))
        elif isinstance(msg, Failed) and self.state.notice:
            self._notices.append((self.state.notice, "bad"))
        elif isinstance(msg, Replied) and msg.op == "rematch" and self.over:
            self._notices.append((wording.rematch_asked(self.state.table), "good"))
        elif isinstance(msg, Replied) and msg.op == "resume" and self.view is not None and self.state.table:
            # The guest's own seat taken back (a phone that slept, a page reloaded): the game goes on.
            self._notices.append((wording.welcome_back_line(self.view, self.state.table), "good"))  # type: ignore[arg-type]

    def _since(self, events: tuple[Event, ...]) -> None:
        me = self.view.seat if self.view is not None else None
        for event in events:
            if isinstance(event, (Played, Busted, Drew)) and event.seat == me:
                self.since.clear()  # the guest's own move: the list starts again
                continue
            line = self.state.event_words(event)
            if line:
                self.since.append(line)

    def notices(self) -> list[tuple[str, str]]:
        """What the table said since last asked that the guest must hear: (text, tone) of the server's refusals,
        the penalties, a corrected total, the end of the game."""
        out, self._notices = self._notices, []
        return out

    # -- input ----------------------------------------------------------------------------------

    def press(self, control: str, fields: dict, now: float) -> list[Command]:
        """A control the page pressed (an id a scene gave): the seat's commands; a refusal goes out as a notice."""
        v = self.view
        if not isinstance(control, str):
            return self._refuse("A press names a control of the table")
        if control != "leave":
            self.leaving = False  # anything else answers the question "Leave this game?" with no
        if control.startswith("card-") and v is not None and v.hand:
            index = next((i for i in range(len(v.hand)) if _card_id(v.hand, i) == control), None)
            if index is None:
                return self._refuse("You no longer hold that card")
            why = self._card_why(v, index)
            if why is not None:
                return self._refuse(why)
            return self._acts(lambda: self.state.pick(index))
        if control in ("value-high", "value-low"):
            if self.state.choice is None:
                return self._refuse("Pick the card first")
            return self._acts(lambda: self.state.choose(control == "value-high"))
        if control == "value-cancel":
            self.state.choice = None
            return []
        if control == "draw":
            if v is None or not v.may_draw:
                return self._refuse(self._draw_why(v) or "No draw is owed now")
            return self._acts(self.state.draw)
        if control == "say":
            return self._say(fields)
        if control == "say-clear":
            self.state.to_say = None
            self.state.tell("The table says the total for you")
            return []
        if control == "rules":
            return [("rules", None)]
        if control == "result-close":
            self.result_open = False
            return []
        if control == "rematch":
            if v is None or not v.over:
                return self._refuse("A rematch is possible once the game is over")
            if self._voted():
                return self._refuse(wording.rematch_asked(self.state.table))
            return [("rematch", None)]
        if control == "leave":
            if self._live(v) and not self.leaving:
                self.leaving = True  # ask first: a bot takes the seat over
                return []
            return [("leave", None)]
        if control == "stay":
            self.leaving = False
            return []
        if control == "bots":
            table = self.state.table
            if table is None or not table.free_seats() or table.rated or (v is not None and v.started):
                return self._refuse("No empty seat for a bot here")
            self.state.tell(wording.BOTS_ASKED)
            return [("add_bot", seat) for seat in table.free_seats()]
        return self._refuse(f"Nothing called {control[:40]!r} is on this table")

    def key(self, name: str, now: float) -> list[Command]:
        """A key the page passed on: only the keys the scene lists mean anything (``NinetyState.key``)."""
        if not isinstance(name, str) or name not in {k["key"] for k in self._keys()}:
            return self._refuse(f"The key {str(name)[:20]!r} does nothing here")
        if name == "h":
            return [("rules", None)]
        before = self.state.notice
        meaning = self.state.key(name)
        if isinstance(meaning, str):
            command = _COMMANDS.get(meaning)
            if command == "rematch" and self._voted():
                return self._refuse(wording.rematch_asked(self.state.table))
            return [(command, None)] if command is not None else []
        return [("act", a) for a in meaning] + self._told(before)

    def _acts(self, actions: Callable[[], list[Action]]) -> list[Command]:
        """The state's actions for a press, as the seat's commands (a refusal the state words goes out too)."""
        before = self.state.notice
        done: list[Command] = [("act", a) for a in actions()]
        return done + self._told(before)

    def _told(self, before: str) -> list[Command]:
        """A refusal the state just told the guest (its notice line changed), as a notice command."""
        st = self.state
        return [("notice", (st.notice, "warn"))] if st.notice and st.bad and st.notice != before else []

    def _refuse(self, text: str) -> list[Command]:
        """Nothing to send: the words why, on the table's notice line and as a notice."""
        self.state.tell(text, bad=True)
        return [("notice", (text, "warn"))]

    def _say(self, fields: dict) -> list[Command]:
        """The say-the-total form: the total the guest will say with the next card (the table corrects a wrong
        one, as the window's T does)."""
        v = self.view
        if v is None or v.seat is None or v.over or not self._says(v):
            return self._refuse("At a guarded table the total is said for you")
        raw = fields.get("say-total") if isinstance(fields, dict) else None
        text = raw.strip() if isinstance(raw, str) else ""
        digits = text.removeprefix("-")
        if not digits or not digits.isascii() or not digits.isdigit() or len(text) > SAY_MAX:
            return self._refuse("say-total: type the new total as a whole number, such as 57")
        self.state.saying = None
        self.state.to_say = int(text)
        self.state.tell(f"You will say {self.state.to_say} with your next card")
        return []

    # -- what the guest may do ------------------------------------------------------------------

    @staticmethod
    def _live(v: NinetyView | None) -> bool:
        """True while the guest plays a seat in a game under way (leaving hands it to a bot)."""
        return v is not None and v.seat is not None and v.started and not v.over and not v.out[v.seat]

    @staticmethod
    def _says(v: NinetyView) -> bool:
        """True at a table where the players say the total themselves (a penalty table)."""
        return v.mode == "penalty"

    def _voted(self) -> bool:
        table, v = self.state.table, self.view
        return table is not None and v is not None and v.seat is not None and v.seat in table.votes

    @staticmethod
    def _makes(v: NinetyView, card: Card, values: tuple[int | None, ...], totals: bool) -> str:
        """What ``card`` does played as each of ``values`` ('+7, reverses'), and with ``totals`` what it would
        make the total now ('+7, reverses → 52')."""
        table = v.table
        effect = table.effect(rank_of(card))
        if effect.to99:
            return effect_words(effect, None)
        if not totals:
            return " or ".join(effect_words(effect, x) for x in values)
        return " or ".join(f"{effect_words(effect, x)} → {table.after(v.total, effect, x)}" for x in values)

    def _card_why(self, v: NinetyView, index: int) -> str | None:
        """Why card ``index`` cannot be played now, in words (None: it can)."""
        st = self.state
        if v.over:
            return "The game is over"
        if not v.my_turn:
            if v.seat is not None and v.out[v.seat]:
                return "You are out of the game"
            return f"It is {st.name(v.turn)}'s turn, not yours" if v.turn is not None else "Not your turn"
        if st.sent_at_ply == v.ply:
            return "Your card is on its way"
        card = v.hand[index] if v.hand else ""
        # A penalty table takes a card that does not fit (the engine's over-99 offence: the player busts),
        # as the window does: practising that penalty is what such a table is for.
        if card not in st.fitting() and v.mode != "penalty":
            effect = v.table.effect(rank_of(card))
            totals = " or ".join(str(v.table.after(v.total, effect, x)) for x in effect.values)
            return f"The {words(card)} would make the total {totals}: it does not fit"
        return None

    def _draw_why(self, v: NinetyView | None) -> str | None:
        if v is None or v.seat is None or v.over:
            return "Nothing to draw for"
        if v.may_draw:
            return None
        return "You draw once you have played a card, before the next player plays"

    def _keys(self) -> list[dict[str, str]]:
        """The keys the page passes on, for what the table shows now."""
        st, v = self.state, self.view
        if v is None:
            return []
        names: list[str] = []
        if st.saying is not None:
            names += [str(n) for n in range(10)] + ["minus", "enter", "escape"]
        elif v.seat is not None and not v.over and not v.out[v.seat]:
            names += [str(n) for n in range(1, min(9, len(v.hand or ())) + 1)]
            if st.choice is not None:
                names += ["up", "down"]
            if self._says(v):
                names += ["d", "t"]
        names += ["h"]
        if v.over and v.seat is not None:
            names += ["r"]
        if "escape" not in names:
            names.append("escape")
        return [{"key": n, "label": f"Card {n}" if n.isdigit() and st.saying is None else
                 _KEY_LABELS.get(n, n)} for n in names]

    # -- the scene ---------------------------------------------------------------------------------

    def changes_at(self, now: float) -> float:
        """Never by time alone: only the turn clock's count moves, and the page counts it down itself."""
        return math.inf

    def scene(self, now: float) -> dict:
        """The table for the page: title, turn, headline, keys and the parts, in the contract's shapes."""
        st, v = self.state, self.view
        table = st.table
        base = f"{TITLE} · {table.name}" if table is not None and table.name else TITLE
        title = f"Your turn · {TITLE}" if st.my_turn else base
        out: list[dict[str, Any]] = []
        if v is None or not v.started:
            out.append(parts.text("waiting", "Waiting for players", role="status"))
            if v is not None:
                out.append(self._seats(v))
            if st.notice:
                out.append(parts.text("notice", st.notice, "bad" if st.bad else "good", "status"))
            items = []
            if table is not None and table.free_seats() and not table.rated and v is not None and v.seat is not None:
                items.append(parts.button("bots", "Fill empty seats with bots", primary=True))
            items += [parts.button("rules", "Rules (H)", "The rules of this table"),
                      parts.button("leave", "Lobby", "Leave the table for the lobby")]
            out.append(parts.buttons("actions", "Table", items))
            return {"title": title, "turn": False, "headline": {"text": "Waiting for players", "tone": "plain"},
                    "keys": self._keys(), "parts": out}
        out.append(parts.total("total", v.total, self._direction(v)))
        out.append(self._middle(v))
        if st.last:
            out.append(parts.text("last", st.last))
        if st.notice:
            out.append(parts.text("notice", st.notice, "bad" if st.bad else "good", "status"))
        clock = self._clock(v)
        if clock is not None:
            out.append(clock)
        if v.hand is not None:
            out.append(self._hand(v))
        if st.choice is not None:
            out.append(self._choice(v))
        out.append(self._actions(v))
        if self._says(v) and v.seat is not None and not v.over and not v.out[v.seat]:
            out.append(self._say_form())
        out.append(self._seats(v))
        if v.seat is not None:
            out.append(parts.listing("since", wording.SINCE_HEAD, self.since, side=True))
        # The newest lines alone, not the whole log reversed (it keeps many more than a scene shows).
        shown = tuple(islice(reversed(st.log), LOG_SHOWN))
        log = self._log_part
        if log is None or log[0] != shown:  # the same part while the lines stay: the seat finds it at a glance
            log = self._log_part = (shown, parts.listing("log", "What happened (newest first)", shown, side=True))
        out.append(log[1])
        match = self._match_line()
        if match is not None:
            out.append(parts.text("match", match, role="status", side=True))
        if self.leaving and self._live(v):
            title, _, rest = wording.LEAVE_QUESTION.partition("\n\n")
            out.append(parts.dialog("question", title, rest, [
                parts.button("leave", "Leave", "Leave the table: a bot plays your seat", primary=True),
                parts.button("stay", "Stay", "Stay at the table")]))
        elif v.over and self.result_open:
            out.append(self._result(v))
        return {"title": title, "turn": st.my_turn, "headline": self._headline(v), "keys": self._keys(),
                "parts": out}

    def _headline(self, v: NinetyView) -> dict[str, str]:
        """Whose turn it is and what the guest may do, in a line."""
        st = self.state
        if v.over:
            who = st.name(v.winner or 0)
            return {"text": "You win!" if v.winner == v.seat else f"{who} wins", "tone": "good"}
        if v.seat is None:
            return {"text": f"Watching: {st.name(v.turn)} to play" if v.turn is not None else "Watching",
                    "tone": "plain"}
        if v.out[v.seat]:
            return {"text": "You are out of the game: watch to the end, or leave for the lobby", "tone": "bad"}
        if st.saying is not None:
            return {"text": st.prompt(), "tone": "good"}  # T, digits, Enter: the window's own words
        if st.choice is not None:
            return {"text": f"The {words(st.choice.card)}: choose its value", "tone": "good"}
        if v.my_turn:
            owed = f" ({v.owed} cards owed to the queens)" if v.owed > 1 else ""
            said = f", saying {st.to_say}" if st.to_say is not None else ""
            return {"text": f"Your turn{owed}{said}: play a card (the ones that fit are marked)", "tone": "good"}
        if v.may_draw:
            return {"text": "Draw for the card you played, before the next player plays", "tone": "warn"}
        if v.turn is not None:
            return {"text": f"{st.name(v.turn)} to play", "tone": "plain"}
        return {"text": "Between deals", "tone": "plain"}

    @staticmethod
    def _direction(v: NinetyView) -> str:
        return "Total · play goes " + ("↻ clockwise" if v.direction == 1 else "↺ counter-clockwise")

    def _middle(self, v: NinetyView) -> dict[str, Any]:
        """The played pile's top card (the turned-up card, at first) and the stock, as a row of cards."""
        items: list[dict[str, Any]] = []
        if v.top is not None:
            rank, suit, label = _face(v.top)
            items.append(parts.card("pile", label, f"Top of the played pile: {words(v.top)}", rank, suit,
                                    enabled=False, why="The played pile: the last card played",
                                    detail=f"pile {v.pile_size}"))
        # The stock's face is its count: its cards are face down.
        items.append(parts.card("stock", "Stock", f"The stock: {v.stock_size} cards face down", str(v.stock_size),
                                enabled=False, why="The stock: cards are drawn from it", detail="stock"))
        label = "Played pile and stock"
        if v.chain and v.owed and v.turn is not None:
            who = self.state.name(v.turn)
            label += f" · queens in a row: {v.chain} · {who} {'owe' if who == 'You' else 'owes'} {v.owed}"
        return parts.cards("middle", label, items)

    def _hand(self, v: NinetyView) -> dict[str, Any]:
        """The guest's cards: each says what it would make the total; enabled only if it fits now."""
        st = self.state
        hand = v.hand or ()
        fits = st.fitting()
        items = []
        for i, card in enumerate(hand):
            rank, suit, label = _face(card)
            why = self._card_why(v, i)
            # On the guest's turn: what it would make the total now; else what it does (the total will move).
            makes = self._makes(v, card, fits.get(card) or v.table.effect(rank_of(card)).values, v.my_turn)
            fit = card in fits and v.my_turn
            name = f"{words(card)}: {makes}" + ("" if not v.my_turn else (", fits" if fit else ", does not fit"))
            items.append(parts.card(_card_id(hand, i), label, name, rank, suit,
                                    st.choice is not None and st.choice.card == card, why is None, why, makes))
        label = "Your hand" + (": the cards that fit are marked" if v.my_turn else "")
        return parts.cards("hand", label, items)

    def _choice(self, v: NinetyView) -> dict[str, Any]:
        """An ace's or a ten's values that fit now, highest first (the state's ``Choice``)."""
        choice = self.state.choice
        assert choice is not None
        effect = v.table.effect(rank_of(choice.card))
        items = []
        for control, value in (("value-high", choice.values[0]), ("value-low", choice.values[-1])):
            after = v.table.after(v.total, effect, value)
            items.append(parts.button(control, f"{value:+d} (total {after})",
                                      f"Play the {words(choice.card)} as {value:+d}: total {after}", primary=True))
        items.append(parts.button("value-cancel", "Pick again", "Pick another card"))
        return parts.buttons("choice", f"The {words(choice.card)}: which value?", items)

    def _actions(self, v: NinetyView) -> dict[str, Any]:
        """Draw (penalty tables), the rules, the lobby."""
        items = []
        if v.seat is not None and self._says(v) and not v.over and not v.out[v.seat]:
            why = self._draw_why(v)
            items.append(parts.button("draw", "Draw (D)", "Draw a card for the card you played", why is None,
                                      why, primary=why is None))
            if self.state.to_say is not None:
                items.append(parts.button("say-clear", "Let the table count",
                                          f"Take back the total {self.state.to_say}: the table says it for you"))
        items.append(parts.button("rules", "Rules (H)", "The rules of this table"))
        away = "; a bot plays your seat until you take it back" if v.seat is not None and not v.over else ""
        items.append(parts.button("leave", "Lobby", "Leave the table for the lobby" + away))
        return parts.buttons("actions", "Table", items)

    def _say_form(self) -> dict[str, Any]:
        """Where players say the total: the total the guest will say with the next card."""
        said = self.state.to_say
        label = (f"You will say {said} with your next card" if said is not None
                 else "Say the new total with your next card (else the table says it for you)")
        return parts.form("say", label, [parts.entry("say-total", "New total", "" if said is None else str(said),
                                                     SAY_MAX)], parts.button("say", "Say it"))

    def _seats(self, v: NinetyView) -> dict[str, Any]:
        """Every seat: name, cards, tokens, out or sitting out, the dealer, a draw still owed, the turn."""
        st, table = self.state, self.state.table
        items = []
        for seat in range(v.players):
            info = table.seat_info(seat) if table is not None else None
            bits: list[str] = []
            if v.out[seat]:
                place = v.places.index(seat) if seat in v.places else None
                bits.append("out" + (f" · place {v.players - place}" if place is not None else ""))
            elif v.sat_out[seat]:
                bits.append("sits this round out")
            elif v.winner == seat:
                bits.append("winner")
            else:
                n = v.hand_sizes[seat]
                bits.append(f"{n} card{'s' if n != 1 else ''}")
            if v.table.tokens:
                marks = "●" * v.tokens[seat] + "○" * max(0, v.table.tokens - v.tokens[seat])
                bits.append(f"tokens {marks} {v.tokens[seat]}")
            if v.dealer == seat:
                bits.append("dealer")
            if seat in v.pending:
                bits.append("may draw")
            if info is not None and info.occupant == "bot":
                bits.append("bot")
            elif info is not None and info.occupant and (info.standin or not info.connected):
                bits.append("away: a bot plays for now")
            turn = v.turn == seat and not v.over  # the page says "to play" for it
            items.append(parts.seat(st.name(seat), info.colour if info is not None else None, turn,
                                    seat == v.seat, " · ".join(bits)))
        return parts.seats("seats", items)

    def _clock(self, v: NinetyView) -> dict[str, Any] | None:
        """The turn clock (the window's ``TurnClock``: the server's count when the table carries it)."""
        left = self.turn_clock.left(v, self.state.table, not v.started)  # type: ignore[arg-type]
        if left is None or v.turn is None:
            return None
        who = self.state.name(v.turn)
        return parts.clock("clock", left, "Your turn clock" if who == "You" else f"{who}'s turn clock")

    def _match_line(self) -> str | None:
        """'First to 3 · game 2: You 1 · Bo 0': the match's length and each player's games won."""
        table = self.state.table
        if table is None or table.match is None:
            return None
        won = table.match.score(table.sides)
        head = table.match.format.text()
        scores = " · ".join(f"{self.state.name(s.seat)} {won[s.side]}" for s in table.seats)
        return f"{head[:1].upper()}{head[1:]} · game {wording.match_game(table)}: {scores}"

    def _result(self, v: NinetyView) -> dict[str, Any]:
        """The end of the game (and of the match, once decided): who won, the places, a rematch."""
        st, table = self.state, self.state.table
        title = "You won!" if v.winner == v.seat else f"{st.name(v.winner or 0)} won"
        places = ", ".join(f"{place}. {st.name(seat)}" for place, seat in
                           enumerate([v.winner or 0, *reversed(v.places)], start=1))
        lines = [f"Places: {places}"]
        if table is not None and table.match is not None:
            if table.match.over(table.sides):
                winner = table.match.winner(table.sides)
                seat_of = {s.side: s.seat for s in table.seats}
                title = ("The match is level" if winner is None else
                         "You won the match" if v.seat is not None and seat_of.get(winner) == v.seat
                         else f"{st.name(seat_of.get(winner, 0))} won the match")
            line = self._match_line()
            if line is not None:
                lines.insert(0, line)
        label = wording.rematch_label(table)
        voted = self._voted()
        items = []
        if v.seat is not None:
            items.append(parts.button("rematch", label, f"{label}: ask the table for another game", not voted,
                                      wording.rematch_asked(table), primary=True))
        items += [parts.button("leave", "Lobby", "Back to the lobby"),
                  parts.button("result-close", "See the table", "Close this and look at the table")]
        # One line of sentences: a scene's text holds no line breaks (the page lays text out itself).
        return parts.dialog("result", title, " · ".join(lines), items)

    # -- the rules page ---------------------------------------------------------------------------------

    def rules(self) -> tuple[str, list[dict]]:
        """This table's rules page, in the engine's words (the kind's ``rules_page``), then this screen's keys."""
        v = self.view
        out: list[dict] = []
        if v is not None:
            page = kinds.rules_page(self.kind, kinds.Settings(v.players, v.mode, v.options, v.players)) or ()
            for number, section in enumerate(page):
                out.append(parts.text(f"rules-{number}", section.title, role="heading"))
                out.append(parts.listing(f"rules-{number}-lines", section.title, section.paragraphs))
        keys = [("1 to 9", "play that card of your hand (the ones that fit are marked)"),
                ("Up, Down", "an ace's or a ten's higher or lower value"),
                ("D", "draw for the card you played (penalty tables)"),
                ("T, digits, Enter", "say the total with your next card (penalty tables)"),
                ("H", "these rules"), ("Esc", "back; twice during a game: leave the table")]
        out.append(parts.listing("keys", "Keys", [f"{key}: {what}" for key, what in keys]))
        return f"{self.kind.title} — the rules", out
