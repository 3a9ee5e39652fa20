"""The lobby's other tabs: the leaderboard (and a player's history), finished games, tournaments.

Each tab fills the place of the table cards (design units from the content's
top left); its words come from ``lobby_lists`` and its state is
``lobby_model.Lists`` (both pure). It draws on the lobby through ``Canvas``
(what ``LobbyView`` offers), so it imports no view. What
the server is asked goes through the session's network thread
(``Session.call``), and the answers come back to ``Lists.take`` as ``Replied``.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Protocol

from board99.match import MatchRecord
from board99.wire.listings import PlayerHistory, RecordEntry, TournamentInfo

from .lobby_lists import (
    LEADERBOARD_COLUMNS,
    RECORD_COLUMNS,
    STANDING_COLUMNS,
    current_pairings,
    history_lines,
    is_me,
    leaderboard_cells,
    pairing_line,
    record_cells,
    record_stem,
    standing_cells,
    standings_csv,
    standings_stem,
    tournament_heading,
)
from .lobby_model import BOARD_ROWS, RECORD_ROWS, Lists
from .palette import GOOD, TEXT, TEXT_DIM, WARN
from .records import records_dir, shown_path, write_new

#: The tabs, by key, in the order they are shown, with their titles and widths (design units).
TABS = (("tables", "Tables", 86), ("leaderboard", "Leaderboard", 118), ("records", "Finished games", 140),
        ("tournaments", "Tournaments", 124))
LEFT, TOP, WIDTH = 320, 234, 920  # the tabs' area: where the table cards are
LINK = (150, 200, 255)  # a name one may click
MINE = (70, 96, 40)  # the band behind the player's own leaderboard line
HEAD = (34, 64, 46)  # the band behind a list's column titles


class Canvas(Protocol):
    """What a tab draws on and asks of the lobby (``LobbyView``), so this module needs no import of it."""

    session: Any
    open_record_cb: Any

    @property
    def lists(self) -> Lists:
        """The lists the server sent."""

    def my_name(self) -> str:
        """The name in the name box."""

    def label(self, text: str, x: float, y: float, w: float, h: float, size: float = 12,
              color: tuple[int, int, int] = TEXT, bold: bool = False, align: str = "left") -> object:
        """Words in this box (design units from the content's top left)."""

    def button(self, key: str, text: str, action: Any, x: float, y: float, w: float, h: float,
               size: float = 12, **style: Any) -> object:
        """A button in this box that runs ``action``."""

    def band(self, x: float, y: float, w: float, h: float, colour: tuple[int, int, int]) -> None:
        """A filled band under the widgets."""

    def link(self, key: str, x: float, y: float, w: float, h: float, action: Any) -> None:
        """Words at this place one may click."""

    def show_player(self, name: str) -> None:
        """Ask for a player's history."""

    def close_player(self) -> None:
        """Back from a player's history."""

    def fetch_record(self, entry: RecordEntry, how: str) -> None:
        """Fetch a finished game's record to open or save it."""

    def export_standings(self, tournament: TournamentInfo) -> None:
        """Write a tournament's standings to a file."""


# -- drawing the tabs -----------------------------------------------------------------------------


def build_tab(view: Canvas, tab: str) -> None:
    """Put ``tab``'s widgets in the cards' place."""
    lists = view.lists
    if view.session is None:
        view.label("Connect to a server first.", LEFT, TOP + 10, 600, 30, 13, TEXT_DIM)
    elif tab == "leaderboard":
        if lists.history is not None:
            _history(view, lists.history)
        else:
            _leaderboard(view)
    elif tab == "records":
        _records(view)
    elif tab == "tournaments":
        _tournament(view)


def _columns(view: Canvas, titles: tuple[str, ...], xs: tuple[int, ...], widths: tuple[int, ...],
             y: float) -> None:
    view.band(LEFT, y, WIDTH, 26, HEAD)
    for title, x, w in zip(titles, xs, widths):
        view.label(title, LEFT + x, y, w, 26, 11, TEXT_DIM, bold=True)


def _waiting(view: Canvas, tab: str, empty: str) -> None:
    words = "Asking the server…" if tab in view.lists.asked else empty
    view.label(words, LEFT, TOP + 40, 600, 30, 13, TEXT_DIM)


def _leaderboard(view: Canvas) -> None:
    lists = view.lists
    xs, widths = (8, 60, 420, 620, 740), (48, 350, 190, 110, 110)
    _columns(view, LEADERBOARD_COLUMNS, xs, widths, TOP)
    if not lists.ratings:
        _waiting(view, "leaderboard", "No rated games on this server yet.")
        return
    me = view.my_name()
    first = lists.board_page * BOARD_ROWS + 1
    for i, rating in enumerate(lists.ratings[:BOARD_ROWS]):
        y = TOP + 30 + i * 28
        mine = is_me(rating, me)
        if mine:
            view.band(LEFT, y, WIDTH, 28, MINE)
        for k, (cell, x, w) in enumerate(zip(leaderboard_cells(first + i, rating), xs, widths)):
            colour = (TEXT_DIM if rating.bot else LINK) if k == 1 else TEXT
            view.label(cell, LEFT + x, y, w, 28, 12, colour, bold=mine)
            if k == 1 and not rating.bot:
                view.link(f"player-{rating.name}", LEFT + x, y, w, 28, partial(view.show_player, rating.name))
    view.label("Click a name for that player's partners, opponents and latest games.",
                LEFT, TOP + 30 + BOARD_ROWS * 28 + 6, WIDTH, 24, 11, TEXT_DIM)


def _history(view: Canvas, history: PlayerHistory) -> None:
    view.button("history-back", "‹ Leaderboard", view.close_player, LEFT, TOP, 150, 30, 11)
    lines = history_lines(history.rating.name, history.rating, history.partners, history.opponents)
    view.label(lines[0], LEFT + 164, TOP, WIDTH - 164, 30, 14, bold=True)
    for i, line in enumerate(lines[1:]):
        view.label(line, LEFT, TOP + 40 + i * 26, WIDTH, 26, 12)
    y = TOP + 40 + (len(lines) - 1) * 26 + 14
    view.label("Latest games", LEFT, y, 300, 26, 13, bold=True)
    xs, widths = (8, 170, 232, 390, 640), (156, 56, 150, 244, 270)
    _columns(view, RECORD_COLUMNS[:5], xs, widths, y + 30)
    for i, entry in enumerate(history.games[:12]):
        for cell, x, w in zip(record_cells(entry), xs, widths):
            view.label(cell, LEFT + x, y + 60 + i * 26, w, 26, 11)
    if not history.games:
        view.label("No finished games yet.", LEFT, y + 60, 400, 26, 12, TEXT_DIM)


def _records(view: Canvas) -> None:
    lists = view.lists
    xs, widths = (8, 130, 188, 338, 548, 676), (118, 50, 146, 206, 124, 106)
    _columns(view, RECORD_COLUMNS, xs, widths, TOP)
    if not lists.records:
        _waiting(view, "records", "No finished games on this server yet.")
        return
    for i, entry in enumerate(lists.records[:RECORD_ROWS]):
        y = TOP + 32 + i * 34
        for cell, x, w in zip(record_cells(entry), xs, widths):
            view.label(cell, LEFT + x, y, w, 32, 11)
        key = f"{entry.table}-{entry.game}"
        if view.open_record_cb is not None:
            view.button(f"open-{key}", "Open", partial(view.fetch_record, entry, "open"),
                         LEFT + WIDTH - 136, y + 2, 64, 28, 11)
        view.button(f"save-{key}", "Save", partial(view.fetch_record, entry, "save"),
                     LEFT + WIDTH - 66, y + 2, 64, 28, 11)
    view.label(f"Save writes the record to {shown_path(records_dir())}", LEFT, TOP + 32 + RECORD_ROWS * 34 + 4,
                WIDTH, 24, 11, TEXT_DIM)


def _tournament(view: Canvas) -> None:
    lists = view.lists
    if not lists.tournaments:
        _waiting(view, "tournaments", "No tournaments on this server.")
        return
    t = lists.tournaments[lists.tournament]
    view.label(tournament_heading(t), LEFT, TOP, WIDTH - 140, 30, 14, bold=True)
    view.button("export", "Export CSV", partial(view.export_standings, t), LEFT + WIDTH - 130, TOP, 130, 30, 11)
    pairings = current_pairings(t)
    y = TOP + 38
    view.label("Where to sit" if t.state != "over" else "Last round", LEFT, y, 300, 24, 12, TEXT_DIM, bold=True)
    mine = view.my_name().casefold()
    for i, pairing in enumerate(pairings[:6]):
        line = pairing_line(t, pairing)
        me_here = any(mine == n.casefold() for e in (pairing.a, pairing.b) if e is not None
                      for n in t.entrants[e])
        view.label(line, LEFT + 12, y + 24 + i * 24, WIDTH - 12, 24, 12, WARN if me_here else TEXT, bold=me_here)
    y += 24 + max(1, min(6, len(pairings))) * 24 + 12
    xs, widths = (8, 62, 266, 340, 414, 518, 702, 806), (50, 200, 70, 70, 100, 180, 100, 110)
    _columns(view, STANDING_COLUMNS, xs, widths, y)
    rows = max(0, int((TOP + 520 - y - 30) // 24))  # as many as fit above the status line
    for i, standing in enumerate(t.standings[:rows]):
        for cell, x, w in zip(standing_cells(standing), xs, widths):
            view.label(cell, LEFT + x, y + 28 + i * 24, w, 24, 11, GOOD if standing.place == 1 else TEXT)
    if len(t.standings) > rows:
        view.label(f"… and {len(t.standings) - rows} more in the exported CSV", LEFT, y + 28 + rows * 24,
                    WIDTH, 24, 11, TEXT_DIM)


# -- saving ----------------------------------------------------------------------------------------


def save_record(entry: RecordEntry, text: str, folder: Path | None = None) -> Path:
    """Write a fetched record to the records folder (a new file); its path."""
    games = None
    if entry.match:  # named for the games it holds, as the table names it
        match = MatchRecord.loads(text)[0]
        games = match.first_game, match.first_game + len(match.games) - 1
    return write_new(text, record_stem(entry, games), folder)


def export_standings(tournament: TournamentInfo, folder: Path | None = None) -> Path:
    """Write the tournament's standings as CSV to the records folder (a new file); its path."""
    return write_new(standings_csv(tournament), standings_stem(tournament), folder, suffix=".csv")

