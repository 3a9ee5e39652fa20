"""The lobby as a web guest sees it: the tables of every game as cards, and the new-table form.

The cards' words are the window's (client/gui/lobby_cards.py), the form's
choices come from the installed game kinds through the window's own form model
(client/gui/lobby_model.py ``NewTableForm``): nothing is restated here. A press
becomes a command for the seat (web/seat.py) to send.

Controls: ``sit-T-S`` (sit at table T in seat S), ``bot-T-S`` (a bot there),
``watch-T``, ``back-T`` (take back the seat kept for you at T), ``game-NAME``
(the form's game), ``create`` (the form's submit), ``refresh``, ``prev``, ``next``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from board99 import kinds
from board99.client.gui import lobby_cards
from board99.client.gui.lobby_lists import MATCH_CHOICES
from board99.client.gui.lobby_model import (
    CLOCK_CHOICES,
    PER_PAGE,
    LobbyModel,
    changed_words,
    face_options,
    face_words,
    kind_of,
    partners_at_some_count,
    several_kinds,
)
from board99.match_format import MatchFormat
from board99.wire.protocol import BOT_PACES, NAME_MAX
from board99.wire.table_info import TableInfo

from . import Command, parts

#: The form's fields beyond the game's own (players, mode, its face options): their ids.
NAME, PLAYERS, MODE, CLOCK, MATCH, PACE, RATED = "name", "players", "mode", "clock", "match", "pace", "rated"
#: The form's choices of a fixed number of games, beside first-to matches (board99.match allows 2-9).
GAMES = (3, 5)
NO_CLOCK = "none"


def clock_value(clock: float | None) -> str:
    """A clock choice as the form's value ('none', '30')."""
    return NO_CLOCK if clock is None else f"{clock:g}"


def match_value(match: MatchFormat | None) -> str:
    """A match choice as the form's value ('single', 'first-to-3', 'games-5')."""
    return "single" if match is None else f"{match.kind}-{match.target}"


def match_choices() -> tuple[tuple[str, str, MatchFormat | None], ...]:
    """(value, words, format) of every match length the form offers: the window's, and fixed lengths."""
    offered = [(match_value(fmt), words, fmt) for words, fmt in MATCH_CHOICES]
    offered += [(match_value(MatchFormat("games", n)), f"{n} games", MatchFormat("games", n)) for n in GAMES]
    return tuple(offered)


class Lobby:
    """The lobby's model (the window's) and what a press on the lobby means."""

    def __init__(self) -> None:
        self.model = LobbyModel()
        self.table_name = ""  # what the guest typed in the form's name field, kept over refreshes
        self.said = ""  # the status line (the last answer), shown on the scene
        self.said_tone = "plain"

    def say(self, text: str, tone: str = "plain") -> None:
        """The lobby's status line."""
        self.said, self.said_tone = text, tone

    # -- the scene ---------------------------------------------------------------------------------

    def scene(self, me: str, rating: str | None, kept: Collection[str]) -> dict:
        """The lobby's scene for the guest called ``me`` with seats kept at ``kept`` tables."""
        intro = f"You play as {me}" + (f" · rating {rating}" if rating else "")
        out = [parts.text("me", intro, role="para"),
               parts.tables("tables", [self._card(t, me, kept) for t in self.model.tables]),
               self._pager()]
        if not self.model.tables:
            out.insert(1, parts.text("empty", "No tables yet: make one below.", role="para"))
        out.append(parts.text("status", self.said, self.said_tone, "status"))
        if several_kinds():
            out.append(parts.buttons("games", "Game of the new table", [
                parts.button(f"game-{name}", kinds.get(name).title, f"New table: {kinds.get(name).title}",
                             primary=name == self.model.form.game) for name in kinds.names()], side=True))
        out.append(self._form())
        return {"screen": "lobby", "title": "Lobby · board99", "turn": False,
                "headline": {"text": "Lobby", "tone": "plain"}, "keys": [], "parts": out}

    def _card(self, table: TableInfo, me: str, kept: Collection[str]) -> dict:
        kind = kind_of(table)
        title = f"{table.name} · {kind.title}" if several_kinds() else table.name
        options = dict(table.options)
        lines = [lobby_cards.state_words(table),
                 lobby_cards.setup_words(table, alone=partners_at_some_count(kind)),
                 " · ".join([*face_words(kind, options), *changed_words(kind, options)])]
        lines = [line for line in lines if line]
        if table.rated:
            lines.append("Rated: people with a player key only")
        rows = lobby_cards.sides_of(table, self.model.my_colour_for(table), me)
        lines.extend(row.title for row in rows)
        items = []
        if table.id in kept:
            items.append(parts.button(f"back-{table.id}", "Take my seat back",
                                      f"Take my seat back at {table.name}", primary=True))
        for row in rows:
            for slot in row.seats:
                if slot.sit_text is not None:
                    items.append(parts.button(f"sit-{table.id}-{slot.seat}", slot.sit_text,
                                              f"{slot.sit_text} at {table.name}, seat {slot.seat + 1}"))
        if lobby_cards.joinable(table) and not table.rated:
            bot = self.model.bot_for(table)
            for seat in table.free_seats():
                items.append(parts.button(f"bot-{table.id}-{seat}", f"+ {bot} bot",
                                          f"Put a {bot} bot in seat {seat + 1} at {table.name}"))
        items.append(parts.button(f"watch-{table.id}", "Watch", f"Watch {table.name}"))
        return parts.table_card(f"t-{table.id}", title, lines, items)

    def _pager(self) -> dict:
        words, back, on = self.model.pager()
        return parts.buttons("pages", words.strip() or "Tables", [
            parts.button("prev", "Previous", "Previous tables", back, "this is the first page"),
            parts.button("next", "Next", "More tables", on, "this is the last page"),
            parts.button("refresh", "Refresh", "Ask for the tables again")])

    def _form(self) -> dict:
        form = self.model.form
        kind = form.kind
        fields = [parts.entry(NAME, "Table name", self.table_name, NAME_MAX),
                  parts.select(PLAYERS, "Players", str(form.players),
                               [parts.choice(str(n), str(n)) for n in kind.player_counts]),
                  parts.select(MODE, "Mode", form.mode, [parts.choice(m, m) for m in kind.modes])]
        for option in face_options(kind):
            fields.append(parts.select(f"option-{option.name}", option.label,
                                       _option_value(form.options.get(option.name, option.default)),
                                       [parts.choice(_option_value(v), option.choice_words(v))
                                        for v in option.choices]))
        fields.append(parts.select(CLOCK, "Turn clock", clock_value(form.clock),
                                   [parts.choice(clock_value(c), "no clock" if c is None else f"{c:g} s a turn")
                                    for c in CLOCK_CHOICES]))
        fields.append(parts.select(MATCH, "Match", match_value(form.match),
                                   [parts.choice(value, words) for value, words, _ in match_choices()]))
        fields.append(parts.select(PACE, "Bots play", form.bot_pace,
                                   [parts.choice(p, lobby_cards.pace_words(p)) for p in BOT_PACES]))
        fields.append(parts.select(RATED, "Rated", "yes" if form.rated else "no",
                                   [parts.choice("no", "not rated"),
                                    parts.choice("yes", "rated: people with a player key only")]))
        return parts.form("new-table", f"New table: {kind.title}", fields,
                          parts.button("create", "Create the table", f"Create a {kind.title} table", primary=True))

    # -- presses --------------------------------------------------------------------------------------

    def press(self, control: str, fields: dict[str, str]) -> list[Command]:
        """What a press on the lobby means (the seat checked the control is on the scene)."""
        model = self.model
        if control == "refresh":
            model.asked_tables(sort=True)
            return [("list", None)]
        if control in ("prev", "next"):
            model.page = max(0, model.page + (1 if control == "next" else -1))
            return [("list", None)]
        if control.startswith("game-"):
            model.form.choose_game(control.removeprefix("game-"))
            return []
        if control == "create":
            return self._create(fields)
        verb, _, rest = control.partition("-")
        table_id, _, seat_text = rest.rpartition("-") if verb in ("sit", "bot") else (rest, "", "")
        table = next((t for t in model.tables if t.id == table_id), None)
        if table is None:
            return [("notice", ("That table is no longer in the lobby", "warn"))]
        if verb == "sit":
            seat = int(seat_text)
            return [("sit", (table.id, seat, model.colour_at(table, seat)))]
        if verb == "bot":
            return [("add_bot", (table.id, int(seat_text), model.bot_for(table)))]
        if verb == "watch":
            return [("watch", table.id)]
        if verb == "back":
            return [("take_back", table.id)]
        return []

    def _create(self, fields: dict[str, str]) -> list[Command]:
        form = self.model.form
        kind = form.kind
        name = fields.get(NAME, "").strip()
        self.table_name = name
        chosen: dict[str, Any] = {}
        try:
            chosen["players"] = _pick(fields, PLAYERS, {str(n): n for n in kind.player_counts}, form.players)
            chosen["mode"] = _pick(fields, MODE, {m: m for m in kind.modes}, form.mode)
            options = {}
            for option in face_options(kind):
                field = f"option-{option.name}"
                options[option.name] = _pick(fields, field, {_option_value(v): v for v in option.choices},
                                             form.options.get(option.name, option.default))
            chosen["clock"] = _pick(fields, CLOCK, {clock_value(c): c for c in CLOCK_CHOICES}, form.clock)
            chosen["match"] = _pick(fields, MATCH, {v: fmt for v, _, fmt in match_choices()}, form.match)
            chosen["bot_pace"] = _pick(fields, PACE, {p: p for p in BOT_PACES}, form.bot_pace)
            chosen["rated"] = _pick(fields, RATED, {"no": False, "yes": True}, form.rated)
        except ValueError as exc:
            return [("notice", (str(exc), "bad"))]
        pace_chosen = form.pace_chosen or chosen["bot_pace"] != form.bot_pace
        form.choose(**chosen)
        form.pace_chosen = pace_chosen
        form.options.update(options)
        refused = form.refusal()
        if refused:  # the game's own words for what it does not allow; nothing is sent
            return [("notice", (f"This table cannot be made: {refused}", "bad"))]
        return [("create", form.request(name or "Table"))]

    def shown(self, tables: list[TableInfo], total: int, kept: Collection[str]) -> bool:
        """A page of tables came; True when the page emptied and the last one must be asked for."""
        if self.model.page_emptied(len(tables), total):
            return True
        self.model.tables_came()
        self.model.show_tables(tables[:PER_PAGE], set(kept))
        return False


def _option_value(value: Any) -> str:
    """An option's value as the form's string ('rule', '3', 'True')."""
    return str(value)


def _pick(fields: dict[str, str], field: str, offered: dict[str, Any], default: Any) -> Any:
    """The value chosen in ``field`` (absent: ``default``); ValueError naming the field and its choices."""
    if field not in fields:
        return default
    text = fields[field]
    if text not in offered:
        choices = ", ".join(offered)
        raise ValueError(f"{field}: {text[:40]!r} is not one of the choices ({choices})")
    return offered[text]
