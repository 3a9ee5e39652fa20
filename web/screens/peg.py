"""The peg-board table (GAME OF 99) as a web guest sees it: scenes from the window's own ``TableState``.

The reference table screen (web/screens/__init__.py ``TableScreen``): the
window's view model (client/gui/table_state.py) takes the same records the
window's does, and this module only lays its answers out as scene parts
(docs/web.md, *Scenes*) and maps presses and keys onto its ``click`` and ``key``.
Every rule and every word comes from there (wording.py, the engine's view):
what is lit, why a button is disabled, the penalty-mode warning, the penalty
lines, the end of a game and of a match.

Controls: ``sq-N`` the square numbered N, ``card-I`` the I-th card of the hand,
``draw``, ``discard``, ``cancel``, ``bots``, ``rematch``, ``leave``, ``rules``,
and in a box ``confirm``, ``back``, ``close``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from itertools import compress, islice
from operator import attrgetter, ne
from typing import Any, TypeVar

from board99.client.gui import wording
from board99.client.gui.messages import Message
from board99.client.gui.table_intents import (
    AddBot,
    AskRematch,
    Intent,
    Leave,
    OnButton,
    OnCard,
    OnSquare,
    OpenScreen,
    Send,
)
from board99.client.gui.table_intents import Command as Intended
from board99.client.gui.table_state import TableState
from board99.client.gui.table_talk import Toast
from board99.handbook import HINTS, SECTIONS, guarded_reason, penalty_table
from board99.kinds import GameKind
from board99.layout import LAYOUT
from board99.view import SeatView

from . import Command, parts

#: The keys the table passes on (TableState.key's names), with what each does.
KEYS: tuple[tuple[str, str], ...] = (
    *((str(n), f"Pick card {n}") for n in range(1, 6)),
    ("d", "Draw"),
    ("x", "Discard the picked card"),
    ("enter", "Confirm"),
    ("escape", "Cancel or close"),
    ("f1", "Rules"),
)
#: ... as the scene lists them (one list for every scene: the seat finds it unchanged at a glance).
SCENE_KEYS: list[dict[str, str]] = [{"key": key, "label": label} for key, label in KEYS]
KEPT_SLOTS = 3  # the scenes back a part's last makings are kept for (``_kept``)
LOG_SHOWN = 12  # the log's newest lines on the scene (the window keeps 200; the page shows a few)
APP = "board99"
T = TypeVar("T")
_TEXT = attrgetter("text")
#: The squares in the board's order (row by row from the top), and each square's place in it.
SQUARES: tuple[int, ...] = tuple(square for row in LAYOUT for square in row)
PLACE: dict[int, int] = {square: place for place, square in enumerate(SQUARES)}


def page_title(my_turn: bool, base: str) -> str:
    """The page's title: 'Your turn · board99' while it is the guest's turn."""
    return f"Your turn · {APP}" if my_turn else f"{base} · {APP}"


class PegScreen:
    """One peg-board table for one web guest: the window's TableState, laid out as scenes."""

    def __init__(self, kind: GameKind, name: str, clock: Callable[[], float] | None = None) -> None:
        self.kind = kind
        self.name = name
        self.state = TableState(clock=clock or time.monotonic)
        self.state.online = True  # presses become requests through the seat
        self.state.animation_factor = 0.0  # the page draws no motions: none are planned (the window's own work)
        self._told = ""  # the notice line last passed on
        self._toasts: list[Toast] = []  # the announcements already passed on
        self._queued: list[Command] = []  # what the records asked for (``queued``)
        self._cells: tuple[tuple, dict[tuple, dict]] = ((), {})  # (colours, live, why): squares' cells by look
        self._free_for: tuple[tuple | None, dict[int, tuple[int, ...]]] = (None, {})  # (board, card -> free squares)
        self._deads_for: tuple[tuple, tuple[int, ...], tuple[bool, ...]] | None = None  # (board, hand, deads)
        self._cards: dict[tuple[int, int, bool, bool], dict] = {}  # a hand card's item by its look (``_hand``)
        self._labels: dict[int, tuple[tuple, tuple[str, str]]] = {}  # by seat: (what its label read, (name, detail))
        self._made: dict[str, list[tuple[tuple, Any]]] = {}  # (key, what it made), newest first, by name (``_kept``)
        self._lit_for: tuple[int | None, tuple | None, frozenset[int]] | None = None  # (card, board, its squares)

    # -- what happened ---------------------------------------------------------------------------

    def take(self, msg: Message) -> None:
        """One record of what happened at the table; a stale confirmed offence may be sent again."""
        self._queued.extend(self._commands(self.state.receive(msg).commands))

    def queued(self) -> list[Command]:
        """Commands the records asked for (a confirmed offence sent again after ``stale``), once."""
        out, self._queued = self._queued, []
        return out

    def notices(self) -> list[tuple[str, str]]:
        """New announcements (penalties, deals, the start, the end) and a new warning or refusal, as notices."""
        said: list[tuple[str, str]] = []
        for toast in self.state.talk.toasts:
            if toast not in self._toasts:
                said.append((toast.text, toast.tone))
        self._toasts = list(self.state.talk.toasts)
        notice = self.state.notice
        if notice != self._told:
            self._told = notice
            # A plain line ("Card 42 picked", "Drawing a card…") stays on the scene's status line only.
            if notice and self.state.notice_tone != "plain":
                said.append((notice, self.state.notice_tone))
        return said

    # -- input -----------------------------------------------------------------------------------------

    def press(self, control: str, fields: dict[str, str], now: float) -> list[Command]:
        """A press of a control of the scene (the seat checked it is one): what TableState makes of it."""
        state = self.state
        if control == "rules":
            return [("rules", None)]
        if control.startswith("sq-"):
            intent = state.click(OnSquare(int(control[3:])))
        elif control.startswith("card-"):
            intent = state.click(OnCard(int(control[5:])))
        elif control == "leave":
            intent = state.click(OnButton("lobby"))
        else:
            intent = state.click(OnButton(control, self._enabled(control)))
            if intent is None and not self._enabled(control):
                return [("notice", (self._why(control) or "not now", "warn"))]
        return self._perform(intent)

    def key(self, name: str, now: float) -> list[Command]:
        """A key the scene listed: what TableState.key makes of it."""
        if name == "f1":
            return [("rules", None)]
        return self._perform(self.state.key(name))

    def _perform(self, intent: Intent | None) -> list[Command]:
        if intent is None:
            return []
        return self._commands(self.state.perform(intent))

    def _commands(self, intended: tuple[Intended, ...]) -> list[Command]:
        out: list[Command] = []
        for command in intended:
            match command:
                case Send(action):
                    out.append(("act", action))
                case AskRematch():
                    out.append(("rematch", None))
                case AddBot(_, seat):
                    out.append(("add_bot", seat))
                case Leave():
                    out.append(("leave", None))
                case OpenScreen("rules"):
                    out.append(("rules", None))
        return out

    def _enabled(self, control: str) -> bool:
        return control not in self.state.disabled_buttons(self._reasons())

    def _reasons(self) -> dict[str, str | None]:
        # TableState.reasons, made again only when what it reads changed (the scene and a press both ask it).
        state = self.state
        return self._kept("reasons", (state.view, state.table, state.picked_card, state.waiting), state.reasons)

    def _why(self, control: str) -> str | None:
        reasons = self._reasons()
        return {"draw": reasons["Draw"], "discard": reasons["Discard"]}.get(control)

    # -- the scene ----------------------------------------------------------------------------------------

    def changes_at(self, now: float) -> float:
        """When the scene changes by time alone: the newest announcements' ends (the clock's count aside)."""
        return self.state.changes_at(now)

    def scene(self, now: float) -> dict:
        """The table's scene: whose turn, the board, the hand, the buttons, the seats, the boxes."""
        state = self.state
        # Worked out once a scene: each part below reads them (they are the view model's own answers).
        view, table = state.view, state.table
        waiting, my_turn, guarded, picked = state.waiting, state.my_turn, state.guarded, state.picked
        headline, tone = state.headline(), "good" if my_turn else "plain"
        result = state.result
        if result is not None and view is not None and view.over:
            headline, tone = result.title, result.tone
        colours = state.colours()  # kept by TableState until the table description or the sides change
        reasons = self._reasons()
        hues = tuple(colours)
        kept = self._kept
        # A part is made again only when what it reads changed; else one made before goes again (the same
        # object, which the seat compares and reads for controls at once).
        # Keys hold only the view's fields a part reads (a new view each move mostly keeps the status and deck).
        seen = None if view is None else (view.seat, view.players, view.sides, view.turn, view.winner,
                                          view.hand_sizes, view.skips)
        out = [kept("seats", (seen, table, hues, waiting), lambda: self._seats(colours))]
        if table is not None and table.clock:
            out.append(parts.clock("clock", state.clock_left(), "Turn clock"))
        # The panel's lines, each a sentence of its own on one line of the page.
        connected = state.connected
        described = None if view is None else (view.players, view.sides, view.mode, view.deal)
        out.append(kept("status", (described, table, connected, hues), lambda: parts.text("status", " · ".join(
            wording.status_lines(view, table, connected, None, colours)), side=True)))
        # The deck's lines but the turn clock's (the clock part counts it): the count does not change them.
        deck = None if view is None else (view.seat, view.deck_size, view.skips, view.shown)
        out.append(kept("deck", (deck, table), lambda: parts.text("deck", " · ".join(
            wording.deck_lines(view, table, None)), side=True)))
        strip = kept("match", (table, hues), lambda: wording.match_strip(table, colours))
        if strip is not None:
            out.append(parts.text("match", f"{strip[0]}: {strip[1]}", role="status", side=True))
        now_said = state.toasts_now()
        if now_said:  # the newest announcement (each was a notice as it came)
            said = now_said[-1]
            out.append(kept("news", (said.text, said.tone), lambda: parts.text("news", said.text, said.tone,
                                                                             "status")))
        out.append(self._board(colours))
        # The hand reads its cards, the pick, whether it is dimmed, and each card's deadness on this board.
        hand = state.hand
        dimmed = view is not None and guarded and not view.my_turn  # TableState.hand_dimmed
        if view is None:
            key: tuple = (hand, picked, dimmed, None)
        else:
            key = (hand, picked, dimmed, view.spectator, self._deads(view, hand))
        out.append(kept("hand", key, self._hand))
        # The buttons read the reasons, what is off (TableState.disabled_buttons: the mode, the pick and the
        # reasons), and a few of the view's and table's answers.
        over = view is not None and view.over
        key = (reasons, None if view is None else view.spectator, waiting, over, not hand, my_turn, picked is None,
               guarded, state.guard_first, state.picked_card is None, state.fill_seats_shown,
               None if table is None else table.rated, wording.rematch_label(table) if over else None)
        out.append(kept("actions", key, lambda: self._buttons(reasons, state.disabled_buttons(reasons))))
        talk = state.talk
        notice, notice_tone = talk.notice, talk.notice_tone
        out.append(kept("notice", (notice, notice_tone), lambda: parts.text("notice", notice, notice_tone,
                                                                           "status")))
        if guarded and not waiting and view is not None and not view.spectator and not view.over:
            line, part = kept("reasons-line", (reasons,), lambda: self._reasons_line(reasons))
            if line:
                out.append(part)
        if view is not None and not view.spectator:
            since = tuple(map(_TEXT, state.since))
            out.append(kept("since", since, lambda: parts.listing("since", wording.SINCE_HEAD, since, side=True)))
        log = talk.log
        shown = tuple(islice(log, max(0, len(log) - LOG_SHOWN), None))
        out.append(kept("log", shown, lambda: parts.listing("log", wording.LOG_HEAD, shown, side=True)))
        box = self._box()
        if box is not None:
            out.append(box)
        return {"title": page_title(my_turn, self.kind.title), "turn": my_turn,
                "headline": {"text": headline, "tone": tone},
                "keys": SCENE_KEYS, "parts": out}

    def _kept(self, what: str, key: tuple, make: Callable[[], T]) -> T:
        # What ``make`` gave when ``key`` was as now in one of the last few scenes, else made again (each part
        # reads only what its key holds). A few, not one: a press of a square puts the pick back as it was
        # two scenes before (the card and its lit squares go), and the move's reply follows it.
        slots = self._made.get(what)
        if slots is None:
            slots = self._made[what] = []
        elif slots[0][0] == key:  # most parts are as in the last scene
            return slots[0][1]
        else:
            for place in range(1, len(slots)):
                was = slots[place]
                if was[0] == key:
                    slots.insert(0, slots.pop(place))
                    return was[1]
        made = make()
        slots.insert(0, (key, made))
        del slots[KEPT_SLOTS:]
        return made

    @staticmethod
    def _reasons_line(reasons: dict[str, str | None]) -> tuple[str, dict]:
        # The line that says why the actions are off, and its part (shown when the line says anything).
        line = wording.disabled_line(reasons)
        return line, parts.text("reasons", line, "plain", "para")

    def _seats(self, colours: list[str]) -> dict:
        state = self.state
        view, table = state.view, state.table
        labels = self._labels
        items = []
        for seat in range(state.players):
            side = state.side_of(seat)
            colour = colours[side]
            # A seat's label reads the table, the seat's side and colour, whose seat the view is, the sides
            # (a partner), and the seat's own hand size and skips: a move changes one seat's at most.
            said = None if view is None else (view.seat, view.players, view.sides, view.hand_sizes[seat],
                                              view.skips[seat])
            key = (side, colour, said, table)
            was = labels.get(seat)
            if was is not None and was[0] == key:
                label = was[1]
            else:
                name, _, detail = wording.seat_label(seat, side, view, table, colour).partition("\n")
                label = (name, detail)
                labels[seat] = (key, label)
            you = view is not None and view.seat == seat
            items.append(parts.seat(label[0], colour, state.turn_lit(seat), you, label[1]))
        return parts.seats("seats", items)

    def _board(self, colours: list[str]) -> dict:
        state = self.state
        view = state.view
        board = view.board if view is not None else None
        lit = self._lit(board)
        last = frozenset([peg[0] for peg in state.recent_pegs() if peg[2] > 0])
        won = frozenset(view.line or ()) if view is not None else frozenset()
        live = view is not None and not view.spectator and not view.over and not state.waiting
        why = None if live else wording.not_now(None if state.waiting else view, state.table)
        # The board's 100 squares are most of a scene's building; they change only with what this key holds.
        key = (board, tuple(colours), lit, last, won, live, why)
        return self._kept("board", key, lambda: self._built_board(key, colours))

    def _built_board(self, key: tuple, colours: list[str]) -> dict:
        # The board part for ``key`` (``_board``'s), made from the newest board part kept: its squares again,
        # but those whose look changed.
        board, _, lit, last, won, live, why = key
        slots = self._made.get("board")
        built = slots[0] if slots else None
        # A square's cell is made once per look (its peg, lit, a latest move, the winning line) while the
        # colours and whether the board takes presses stay; at most 100 squares x 5 sides x 8 looks are kept.
        if self._cells[0] != key[1] + (live, why):
            self._cells = (key[1] + (live, why), {})
            built = None  # every cell looks otherwise
        made = self._cells[1]

        was = built[0][0] if built is not None else None
        if built is None or board is None or was is None or len(was) != len(board):
            cells: list[dict] = [{}] * len(SQUARES)
            changed: Iterable[int] = SQUARES
        else:
            # The last board's cells again, but for the squares whose peg or marks changed (an act: a few; a
            # picked card lights a score of squares, and the next move puts them out).
            _, _, was_lit, was_last, was_won, _, _ = built[0]
            changed = set(compress(range(len(board)), map(ne, board, was)))
            changed |= lit ^ was_lit
            changed |= last ^ was_last
            changed |= won ^ was_won
            cells = list(built[1]["cells"])
        # Inline, not a function per square: a pick or a move changes many squares' looks at once.
        find = made.get
        for square in changed:
            place = PLACE.get(square)
            if place is None:
                continue
            side = board[square] if board is not None else None
            look = (square, side, square in lit, square in last, square in won)
            found = find(look)
            if found is None:
                found = made[look] = self._cell(square, colours[side] if side is not None else None, *look[2:],
                                                live, why)
            cells[place] = found
        return parts.grid("board", "The board", cells, len(LAYOUT[0]))

    def _lit(self, board: tuple | None) -> frozenset[int]:
        # The squares the picked card may go to (TableState.lit_squares), again only when the card or board changed.
        card = self.state.picked_card
        if self._lit_for is not None and self._lit_for[0] == card and self._lit_for[1] == board:
            return self._lit_for[2]
        view = self.state.view
        lit = frozenset(self._free(view, card) if card is not None and view is not None else ())
        self._lit_for = (card, board, lit)
        return lit

    def _free(self, view: SeatView, card: int) -> tuple[int, ...]:
        # The view's free_squares(card), asked once a board for each card (the lit squares and the dead cards).
        board = view.board
        known, free = self._free_for
        if known is not board and known != board:
            known, free = self._free_for = (board, {})
        found = free.get(card)
        if found is None:
            found = free[card] = view.free_squares(card)
        return found

    @staticmethod
    def _cell(square: int, peg: str | None, lit: bool, last: bool, won: bool, live: bool, why: str | None) -> dict:
        words = [f"Square {square}"]
        if peg is not None:
            words.append(f"{wording.colour_word(peg)} peg")
        if lit:
            words.append("the picked card may go here")
        if last:
            words.append("a latest move")
        if won:
            words.append("the winning line")
        return parts.cell(f"sq-{square}", str(square), ", ".join(words), peg, lit, last or won, live, why)

    def _hand(self) -> dict:
        state = self.state
        items = []
        dimmed = state.hand_dimmed
        cards = self._cards
        seen = state.view is not None
        for index, number in enumerate(state.hand):
            picked = state.picked == index
            dead = seen and self._dead(number)
            # A card's item is made once per look (its place, number, pick and deadness): at most 5 x 100 x 4.
            look = (index, number, picked, dead)
            item = cards.get(look)
            if item is None:
                name = f"Card {number}" + (", picked" if picked else "")
                detail = "dead: no free square for it" if dead else None
                item = cards[look] = parts.card(f"card-{index}", str(number), name, str(number), None, picked, True,
                                                None, detail)
            items.append(item)
        label = wording.hand_label(state.view)
        if dimmed and items:
            label = f"{label} (not your turn)"
        return parts.cards("hand", label, items)

    def _deads(self, view: SeatView, hand: tuple[int, ...]) -> tuple[bool, ...]:
        # Whether each card of the hand is dead on the view's board: again only for another board or hand.
        board = view.board
        was = self._deads_for
        if was is not None and was[0] is board and was[1] == hand:
            return was[2]
        free = self._free
        deads = tuple([not free(view, number) for number in hand])
        self._deads_for = (board, hand, deads)
        return deads

    def _dead(self, number: int) -> bool:
        # Whether every square the card allows is taken (the view's ``dead``): asked again only for a new board.
        view = self.state.view
        assert view is not None
        return not self._free(view, number)

    def _buttons(self, reasons: dict[str, str | None], off: frozenset[str]) -> dict:
        state = self.state
        view = state.view
        items = []
        if view is not None and not view.spectator and not state.waiting and not view.over:
            items.append(parts.button("draw", "Draw (D)", "Draw a card", "draw" not in off, reasons["Draw"],
                                      primary=not state.hand and state.my_turn))
            items.append(parts.button("discard", "Discard (X)", "Discard the picked card", "discard" not in off,
                                      reasons["Discard"]))
            if state.picked is not None:
                items.append(parts.button("cancel", "Cancel (Esc)", "Put the picked card back"))
        if state.fill_seats_shown and state.table is not None and not state.table.rated:
            items.append(parts.button("bots", "Fill empty seats with bots", primary=True))
        if view is not None and view.over:
            items.append(parts.button("rematch", wording.rematch_label(state.table), primary=True))
        items.append(parts.button("rules", "Rules (F1)", "The rules of the game"))
        items.append(parts.button("leave", "Lobby", "Leave this table for the lobby"))
        return parts.buttons("actions", "Actions", items)

    def _box(self) -> dict | None:
        state = self.state
        asked = state.dialog()
        if asked is not None:
            words, confirm, back = asked
            title, _, rest = words.partition("\n\n")
            return parts.dialog("question", title, rest, [parts.button("confirm", confirm, primary=True),
                                                          parts.button("back", back)])
        table = state.table
        if state.match_open and table is not None and table.match is not None:
            title, lines = wording.match_result(table, state.view, state.colours())
            # One line of sentences: a scene's text holds no line breaks (the page lays text out itself).
            return parts.dialog("match-over", title, " · ".join(line for line in lines if line), self._end_buttons())
        if state.result_open and state.result is not None:
            return parts.dialog("game-over", state.result.title, state.result.line, self._end_buttons())
        return None

    def _end_buttons(self) -> list[dict]:
        return [parts.button("rematch", wording.rematch_label(self.state.table), primary=True),
                parts.button("leave", "Lobby", "Leave this table for the lobby"),
                parts.button("close", "Close (Esc)", "Close this box and look at the board")]

    # -- the rules page --------------------------------------------------------------------------------

    def rules(self) -> tuple[str, list[dict]]:
        """The GAME OF 99 rules page: the handbook's sections, the penalties, the hints, this table's keys."""
        out: list[dict] = []
        for number, section in enumerate(SECTIONS):
            out.append(parts.text(f"rules-{number}", section.title, role="heading"))
            out.extend(parts.text(f"rules-{number}-{n}", p) for n, p in enumerate(section.paragraphs))
        out.append(parts.text("penalties", "Offences and penalties", role="heading"))
        out.append(parts.listing("penalty-table", "Offences and penalties", [
            f"{row.offence}: penalty mode: {row.penalty}; guarded mode: refused, {guarded_reason(row.code)}"
            for row in penalty_table()]))
        out.append(parts.text("hints", HINTS.title + " (from the 1963 rulebook)", role="heading"))
        out.append(parts.listing("hint-list", HINTS.title, HINTS.paragraphs))
        out.append(parts.listing("keys", "Keys", [f"{key.upper() if len(key) == 1 else key.capitalize()}: {what}"
                                                  for key, what in KEYS]))
        return f"{self.kind.title} — the rules", out
