"""The lobby's new-table form, drawn on the lobby from its model (``lobby_model.NewTableForm``).

The rows the game decides (a game row when several are installed, players,
mode, the game's options) come from the form's ``rows()``; the fixed rows
below them (clock, bot pace, match, rated, create, the "+ bot" chooser) move
down for them. Every click is an intent on the model (``view.change``).
Sizes are design units from the content's top left, as everywhere in the lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from board99.match import MatchFormat
from board99.wire.protocol import BOT_PACES

from .lobby_cards import pace_words
from .lobby_lists import GAMES_CHOICES, MATCH_CHOICES, RATED_HINT
from .lobby_model import CLOCK_CHOICES, ROW_GAP, ROW_WIDTH, LobbyModel, Row
from .palette import BAD, GOOD, TEXT, TEXT_DIM

#: Where the rows' buttons start (their width and gap: ``lobby_model.ROW_WIDTH``, ``ROW_GAP``).
ROW_LEFT = 76
#: The room for the lines a game adds to players and mode (the game row, its options, the "House rules…"
#: row): 104 units; the lines share it, 40 apart at most.
EXTRA_ROOM = 104


class FormCanvas(Protocol):
    """What the form draws on and asks of the lobby (``LobbyView``)."""

    session: Any
    model: LobbyModel

    def label(self, text: str, x: float, y: float, w: float, h: float, size: float = 12,
              color: tuple[int, int, int] = TEXT, bold: bool = False, align: str = "left") -> object:
        """Words in this box."""

    def button(self, key: str, text: str, action: Any, x: float, y: float, w: float, h: float,
               size: float = 12, **style: Any) -> object:
        """A button in this box that runs ``action``."""

    def change(self, intent: Callable[[], object]) -> Callable[[], None]:
        """A callback that carries ``intent`` out on the model and shows the lobby after it."""

    def create(self) -> None:
        """Ask the server for the table the form describes."""


def build_form(view: FormCanvas) -> None:
    """The form's title, rows, Create button and bot chooser."""
    model = view.model
    form = model.form
    view.label("New table", 0, 192, 300, 30, 16, bold=True)
    # One row per choice, its title on the left: room for the match and rated rows in 640 pixels. Every
    # row the game decides, in its order, 40 units apart while they fit in the room of two more rows than
    # players and mode; more rows share that room.
    rows = form.rows()
    house = bool(form.groups())  # the game has options set on the "House rules…" panel
    lines = sum(row.lines for row in rows) + house
    pitch = min(40.0, (80 + EXTRA_ROOM) / lines)
    y = 268.0
    for row in rows:
        _choice_row(view, row, y, pitch)
        y += pitch * row.lines
    if house:
        _house_row(view, y, pitch - 6)
    down = pitch * lines - 80  # how far the rows below move (0 for players and mode alone)
    view.label("Clock", 0, 348 + down, 74, 34, 12, TEXT_DIM)
    for i, clock in enumerate(CLOCK_CHOICES):
        view.button(f"clock-{clock}", "off" if clock is None else f"{clock:g} s",
                    view.change(partial(form.choose, clock=clock)), 76 + i * 56, 348 + down, 50, 34,
                    chosen=clock == form.clock)
    view.label("Bot pace", 0, 388 + down, 74, 34, 12, TEXT_DIM)
    for (x, w), pace in zip(((76, 90), (172, 128)), BOT_PACES, strict=True):
        view.button(f"pace-{pace}", pace_words(pace), view.change(partial(form.choose, bot_pace=pace)), x,
                    388 + down, w, 34, chosen=pace == form.bot_pace)
    view.label("Match", 0, 428 + down, 300, 22, 12, TEXT_DIM)
    for i, (words, fmt) in enumerate(MATCH_CHOICES):
        view.button(f"match-{fmt.kind}-{fmt.target}" if fmt else "match-single", words,
                    view.change(partial(form.choose, match=fmt)), (0, 110, 206)[i], 450 + down,
                    (104, 90, 90)[i], 32, 10, chosen=fmt == form.match)
    # A fixed number of games: one button to choose it, fewer and more beside it (a row of eight
    # digits would repeat the players' "2 3 4 6" just above).
    games = MatchFormat("games", form.games)
    view.button("games-fewer", "−", view.change(partial(form.more_games, -1)), 0, 488 + down, 40, 30, 12,
                disabled=form.games <= GAMES_CHOICES[0])
    view.button("match-games", f"{form.games} games", view.change(partial(form.choose, match=games)), 46,
                488 + down, 110, 30, 10, chosen=games == form.match)
    view.button("games-more", "+", view.change(partial(form.more_games, +1)), 162, 488 + down, 40, 30, 12,
                disabled=form.games >= GAMES_CHOICES[-1])
    view.button("rated", "Rated: on" if form.rated else "Rated: off",
                view.change(partial(form.choose, rated=not form.rated)), 0, 528 + down, 110, 34, chosen=form.rated)
    for i, line in enumerate(RATED_HINT):
        view.label(line, 118, 526 + down + i * 19, 182, 19, 10, TEXT_DIM)
    view.button("create", "Create table", view.create, 0, 574 + down, 290, 40, 13, disabled=view.session is None)
    # The bot the cards' "+ bot" buttons ask for, in a row like the others.
    view.label("“+ bot”", 0, 626 + down, 74, 34, 12, TEXT_DIM)
    asked = model.bot_for(None)  # the chosen bot, or the chosen game's stand-in bot where it has not that one
    for i, bot in enumerate(model.bot_choices()):
        view.button(f"bot-{bot}", bot, view.change(partial(model.choose_bot, bot)), ROW_LEFT + i * 76, 626 + down,
                    70, 34, 10, chosen=bot == asked)
    if len(rows) == 2:  # the rows a game adds take this note's room
        view.label("A table starts when every seat is filled;", 0, 672, 300, 22, 11, TEXT_DIM)
        if form.partnered():
            view.label("partners sit opposite each other.", 0, 692, 300, 22, 11, TEXT_DIM)


def _choice_row(view: FormCanvas, row: Row, y: float, pitch: float) -> None:
    # A row of the form: its title, then its choices as buttons (narrower when many must fit its width; on
    # more lines when longer words would not be read).
    height = pitch - 6
    size: float = 12 if height >= 30 else 10
    view.label(row.title, 0, y, 74, height, size, TEXT_DIM)
    size = min(size, row.size, 11 if row.lines > 1 else 12)
    per = row.per_line
    for line in range(row.lines):
        choices = row.choices[line * per:(line + 1) * per]
        width = min(row.width, (ROW_WIDTH - ROW_GAP * (per - 1)) / per)
        for i, choice in enumerate(choices):
            view.button(choice.key, choice.words,
                        view.change(partial(view.model.form.choose_row, row.name, choice.value)),
                        ROW_LEFT + i * (width + ROW_GAP), y + line * pitch, width, height, size,
                        chosen=choice.chosen)


def _house_row(view: FormCanvas, y: float, height: float) -> None:
    # The game's further options: a button that opens their panel, and what they change (or why the game
    # refuses the settings chosen, in its own words).
    form = view.model.form
    view.button("house-rules", "House rules…", view.change(partial(form.open_house, not form.house_open)), 0, y,
                112, height, 10, chosen=form.house_open)
    refused = form.refusal()
    changed = form.changed()
    if refused:
        words, colour = refused, BAD
    elif changed:
        words, colour = ", ".join(changed), GOOD
    else:
        words, colour = "no house rules", TEXT_DIM
    view.label(words, 116, y, 184, height, 10, colour)

