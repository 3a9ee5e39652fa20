"""The lobby's state and the player's intents on it, without arcade (as ``TableState`` is the table's).

lobby_view.py draws this model and turns clicks into its intents; what is
asked of the server stays the view's (through the session). The new-table
form's rows come from the game kinds installed (``board99.kinds``): a second
game shows up here with no change to the lobby (docs/client.md, *Lobby*).

>>> form = NewTableForm()
>>> [row.name for row in form.rows()], form.players, form.mode
(['game', 'players', 'mode'], 2, 'guarded')
>>> form.choose(players=4); form.request("den")[:4]
('den', 'peg-board', 4, 'guarded')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from board99 import kinds
from board99.match import MatchFormat
from board99.wire.listings import PlayerHistory, Rating, RecordEntry, TournamentInfo
from board99.wire.protocol import BOT_PACES
from board99.wire.table_info import TableInfo

from .lobby_cards import keep_places, lobby_order
from .lobby_lists import GAMES_CHOICES

#: What each request is called in a refusal shown to the player.
REQUEST_WORDS = {"take_seat": "taking the seat", "add_bot": "adding a bot", "create_table": "creating the table",
                 "spectate": "watching", "resume": "taking your seat back", "lobby_page": "listing the tables",
                 "list_tables": "listing the tables", "leaderboard": "the leaderboard",
                 "player_history": "that player's history", "list_records": "listing finished games",
                 "tournaments": "listing tournaments", "open_record": "the record", "save_record": "the record",
                 "rename": "the new name", "switch": "playing as that name"}
#: Refusals said in the lobby's own words rather than the server's (the code is stable, the words may vary).
REFUSAL_WORDS = {"rated-table": "A rated table seats people with a player key only: no bots, no guests",
                 "seat-reserved": "A tournament keeps that seat for another player",
                 "one-seat": "You hold a seat there already: a rated or match table seats each player once"}
#: The turn clocks a new table may have (None: no clock).
CLOCK_CHOICES = (None, 15.0, 30.0, 60.0)
PER_PAGE = 6  # table cards on one screen: 2 columns of 3
#: The bots offered for the "+ bot" buttons, strongest usual first, where the chosen game has them; a game
#: without these offers its stand-in bot and then its others (``bot_choices``).
BOT_CHOICES = ("rulebook", "search", "random")
#: Servers found shown at once in the header's row (arrows scroll through the rest), and listed at most
#: (discovery keeps 32 strangers and 32 trusted servers: client.discovery).
SERVERS_SHOWN, SERVERS_LISTED = 2, 64
#: The tabs' list rows a page.
BOARD_ROWS = 16  # leaderboard lines a page
RECORD_ROWS = 12  # finished games a page


def several_kinds() -> bool:
    """More than one game is installed: the form offers a game row and every card names its game."""
    return len(kinds.names()) > 1


def kind_of(table: TableInfo) -> kinds.GameKind:
    """The game kind a table plays (the default kind's for a game this window does not have)."""
    try:
        return kinds.get(table.kind)
    except kinds.UnknownKind:
        return kinds.get(kinds.DEFAULT)


class Choice(NamedTuple):
    """One button of a row of choices: its key (for tests and tools), its words, its value, whether chosen."""

    key: str
    words: str
    value: Any
    chosen: bool


class Row(NamedTuple):
    """A row of the new-table form that depends on the game: its name, title and choices."""

    name: str  # "game", "players", "mode" or "option-NAME"
    title: str
    choices: tuple[Choice, ...]
    width: float  # each button's width when the row has room (design units)
    help: str = ""  # an option's one line of help
    size: float = 12  # its words' size (points at scale 1)

    @property
    def per_line(self) -> int:
        """How many of its buttons share a line: short words squeeze, longer ones keep room to be read."""
        narrowest = ROW_NARROWEST if self.width <= 50 else ROW_READABLE
        return max(1, int((ROW_WIDTH + ROW_GAP) // (narrowest + ROW_GAP)))

    @property
    def lines(self) -> int:
        """The lines of buttons it takes (a rule set's four names take two)."""
        return -(-len(self.choices) // self.per_line)


#: A form row's width for its buttons and the gap between them (design units); the narrowest a button of short
#: words ("2", "off") may be squeezed to, and of longer words ("Convention").
ROW_WIDTH, ROW_GAP, ROW_NARROWEST, ROW_READABLE = 224, 6, 36, 100
#: The heading of the panel's options when a kind does not group them.
MORE = "More settings"


class CreateRequest(NamedTuple):
    """What the form asks the server for (``GameClient.create_table``'s arguments)."""

    name: str
    game: str
    players: int
    mode: str
    clock: float | None
    options: dict[str, Any]
    match: MatchFormat | None
    rated: bool
    bot_pace: str

    @property
    def plain(self) -> bool:
        """Only what every server knows was chosen (sent without the newer fields, so an older server answers)."""
        return self.match is None and not self.rated and self.bot_pace == BOT_PACES[0]

    @property
    def default_game(self) -> bool:
        """The default game with its default options: the request need not name the game."""
        kind = kinds.get(self.game)
        return self.game == kinds.DEFAULT and all(self.options.get(o.name, o.default) == o.default
                                                  for o in kind.options)


#: The option rows the form's face has room for: a kind's options without a group (``OptionSpec.group``), at
#: most this many; the others are set on the form's "House rules…" panel (``NewTableForm.groups``).
FORM_OPTIONS = 2


def partners_at_some_count(kind: kinds.GameKind) -> bool:
    """Whether partners play together at some player count of ``kind`` (with its first mode, default options)."""
    return any(kind.check_settings(n, kind.modes[0]).sides < n for n in kind.player_counts)


def face_options(kind: kinds.GameKind) -> tuple[kinds.OptionSpec, ...]:
    """The options the form shows on its face: those the kind put in no group, the first FORM_OPTIONS of them."""
    return tuple(o for o in kind.options if not o.group)[:FORM_OPTIONS]


def option_groups(kind: kinds.GameKind) -> tuple[tuple[str, tuple[kinds.OptionSpec, ...]], ...]:
    """The options set on the panel, under their headings in the kind's order (ungrouped ones under MORE)."""
    face = face_options(kind)
    groups: dict[str, list[kinds.OptionSpec]] = {}
    for option in kind.options:
        if option not in face:
            groups.setdefault(option.group or MORE, []).append(option)
    return tuple((heading, tuple(options)) for heading, options in groups.items())


def changed_words(kind: kinds.GameKind, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The panel's options these choices change from what the rule set (or the kind) says, each in a few words:
    ('hand 5', 'tokens 4'): what a table card and the form say of a table's house rules."""
    face = face_options(kind)
    words = []
    for option in kind.options:
        value = options.get(option.name, option.default)
        if option not in face and option.changes(value, options):
            words.append(f"{option.short or option.label} {option.choice_words(value)}")
    return tuple(words)


def face_words(kind: kinds.GameKind, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The face options' values in words for a table card ('Convention'; 'Lives 2' where a choice has no words)."""
    shown = []
    for option in face_options(kind):
        if option.name in options:
            value = options[option.name]
            said = option.choice_words(value)
            shown.append(said if option.words else f"{option.label} {said}")
    return tuple(shown)


def refusal_words(kind: kinds.GameKind, players: int, mode: str, options: Mapping[str, Any]) -> str | None:
    """Why the kind refuses these settings, in its own words headed by the setting's name; None if it allows them."""
    try:
        kind.check_settings(players, mode, dict(options))
    except kinds.SettingsError as exc:
        label = next((o.label for o in kind.options if o.name == exc.field), exc.field.replace("_", " ").capitalize())
        return f"{label}: {exc.why}"
    return None


class NewTableForm:
    """The new-table form's choices: game, players, mode, the game's options, clock, bot pace, match, rated."""

    def __init__(self) -> None:
        self.game = kinds.DEFAULT
        kind = self.kind
        self.players, self.mode = kind.player_counts[0], kind.modes[0]
        self.options: dict[str, Any] = {o.name: o.default for o in kind.options}
        self.clock: float | None = None
        self.match: MatchFormat | None = None  # single games unless a match is chosen
        self.rated = False
        #: How fast the new table's server bots move: quick, as tables always were, unless chosen; a
        #: penalty table's bots move at a person's pace until the host picks a pace (``pace_chosen``):
        #: penalty practice needs time to act out of turn, or to make a draw before the next player plays.
        self.bot_pace = BOT_PACES[0]
        self.pace_chosen = False
        self.games = 3  # the fixed-length match the "N games" button offers (board99.match: 1-9)
        #: The "House rules…" panel is open (in the table cards' place), and the option whose menu is open there.
        self.house_open = False
        self.menu: str | None = None
        self.house_page = 0

    @property
    def kind(self) -> kinds.GameKind:
        """The chosen game (the default one again if the chosen one was taken out since)."""
        if self.game not in kinds.names():
            self.choose_game(kinds.DEFAULT)
        return kinds.get(self.game)

    def rows(self) -> tuple[Row, ...]:
        """The rows the chosen game decides, top to bottom: the game (only when there is a choice), players,
        mode, then each of its options."""
        kind, rows = self.kind, []
        if several_kinds():
            rows.append(Row("game", "Game", tuple(Choice(f"game-{name}", kinds.get(name).title, name,
                                                        name == self.game) for name in kinds.names()), 106, size=10))
        rows.append(Row("players", "Players", tuple(Choice(f"players-{n}", str(n), n, n == self.players)
                                                    for n in kind.player_counts), 50))
        rows.append(Row("mode", "Mode", tuple(Choice(f"mode-{m}", m, m, m == self.mode) for m in kind.modes), 106))
        for option in face_options(kind):
            words = [option.choice_words(v) for v in option.choices]
            width = 50 if max(map(len, words)) <= 3 else 106
            rows.append(Row(f"option-{option.name}", option.label,
                            tuple(Choice(f"option-{option.name}-{w}", w, v, v == self.options.get(option.name))
                                  for w, v in zip(words, option.choices)), width, option.help))
        return tuple(rows)

    def groups(self) -> tuple[tuple[str, tuple[kinds.OptionSpec, ...]], ...]:
        """The chosen game's options set on the "House rules…" panel, under their headings (none: no panel)."""
        return option_groups(self.kind)

    def changed(self) -> tuple[str, ...]:
        """The panel's options chosen differently from the rule set, in a few words each ('hand 5')."""
        return changed_words(self.kind, self.options)

    def refusal(self) -> str | None:
        """Why the chosen game refuses these settings (its SettingsError in words), or None."""
        return refusal_words(self.kind, self.players, self.mode, self.options)

    def open_house(self, shown: bool = True) -> None:
        """Open (or close) the "House rules…" panel; any menu on it closes."""
        self.house_open, self.menu, self.house_page = shown and bool(self.groups()), None, 0

    def open_menu(self, name: str | None) -> None:
        """Open the menu of the panel's option ``name`` (None: close it)."""
        self.menu = name

    def reset_house(self) -> None:
        """Every panel option back to its default (what the rule set says); the face's choices stay."""
        for _, options in self.groups():
            for option in options:
                self.options[option.name] = option.default
        self.menu = None

    def partnered(self) -> bool:
        """Whether partners play together at some player count of the chosen game (the form says where they sit)."""
        kind = self.kind
        return any(kind.check_settings(n, self.mode, self.options).sides < n for n in kind.player_counts)

    # -- intents ---------------------------------------------------------------------------------

    def choose_game(self, name: str) -> None:
        """Another game: its players and mode kept where it allows them, its options at their defaults."""
        kind = kinds.get(name)
        self.game = name
        self.players = self.players if self.players in kind.player_counts else kind.player_counts[0]
        self.mode = self.mode if self.mode in kind.modes else kind.modes[0]
        if not self.pace_chosen:
            self.bot_pace = "person" if self.mode == "penalty" else BOT_PACES[0]
        self.options = {o.name: o.default for o in kind.options}
        self.open_house(self.house_open)

    def choose_row(self, row: str, value: Any) -> None:
        """The choice ``value`` in the row called ``row`` (as ``rows`` names it)."""
        if row == "game":
            self.choose_game(value)
        elif row.startswith("option-"):
            self.options[row.removeprefix("option-")] = value
            self.menu = None
        else:
            self.choose(**{row: value})

    def choose(self, **changes: Any) -> None:
        """Set the form's fields (players, mode, clock, match, rated, bot_pace)."""
        for key, value in changes.items():
            if key not in ("players", "mode", "clock", "match", "rated", "bot_pace", "games"):
                raise AttributeError(f"the new-table form has no field {key!r}")
            setattr(self, key, value)
            if key == "bot_pace":
                self.pace_chosen = True
            elif key == "mode" and not self.pace_chosen:
                self.bot_pace = "person" if value == "penalty" else BOT_PACES[0]

    def more_games(self, step: int) -> None:
        """Fewer or more games, and that fixed-length match chosen."""
        self.games = max(GAMES_CHOICES[0], min(GAMES_CHOICES[-1], self.games + step))
        self.match = MatchFormat("games", self.games)

    def request(self, name: str) -> CreateRequest:
        """The request for a table called ``name`` (the kind checks the settings; the server checks them again)."""
        return CreateRequest(name, self.game, self.players, self.mode, self.clock, dict(self.options), self.match,
                             self.rated, self.bot_pace)


def bot_choices(kind: kinds.GameKind) -> tuple[str, ...]:
    """The three bots the "+ bot" chooser offers for ``kind``."""
    preferred = [b for b in BOT_CHOICES if b in kind.bots]
    others = [kind.standin_bot, *sorted(kind.bots)]
    return tuple(dict.fromkeys([*preferred, *others]))[:3]


class Lists:
    """What the lobby's list tabs show: the server's answers, the page of each, the history opened."""

    def __init__(self) -> None:
        self.ratings: tuple[Rating, ...] = ()
        self.ratings_total = 0
        self.board_page = 0
        self.history: PlayerHistory | None = None
        self.records: tuple[RecordEntry, ...] = ()
        self.records_total = 0
        self.records_page = 0
        self.tournaments: tuple[TournamentInfo, ...] = ()
        self.tournament = 0  # which tournament is shown
        self.asked: set[str] = set()  # tabs whose answer has not come yet ("Loading…")

    # -- asking the server ------------------------------------------------------------------

    def ask(self, session: Any, tab: str) -> None:
        """Ask the server for ``tab``'s current page (through the session's network thread)."""
        if session is None or not hasattr(session, "call"):
            return
        self.asked.add(tab)
        if tab == "leaderboard":
            offset = self.board_page * BOARD_ROWS
            session.call("leaderboard", lambda client: client.leaderboard(offset, BOARD_ROWS))
        elif tab == "records":
            offset = self.records_page * RECORD_ROWS
            session.call("list_records", lambda client: client.list_records(offset, RECORD_ROWS))
        elif tab == "tournaments":
            session.call("tournaments", lambda client: client.tournaments())

    def take(self, op: str, result: Any) -> bool:
        """Keep a list the server sent; False if ``op`` is not one of the lists'."""
        if op == "leaderboard":
            self.ratings, self.ratings_total = result
            self.asked.discard("leaderboard")
        elif op == "player_history":
            self.history = result
        elif op == "list_records":
            self.records, self.records_total = result
            self.asked.discard("records")
        elif op == "tournaments":
            self.tournaments = tuple(result)
            self.tournament = min(self.tournament, max(0, len(self.tournaments) - 1))
            self.asked.discard("tournaments")
        else:
            return False
        return True

    # -- the pager -----------------------------------------------------------------------------

    def pager(self, tab: str) -> tuple[str, bool, bool]:
        """The pager's words for ``tab`` and whether Previous and Next may be pressed."""
        if tab == "leaderboard":
            return _span(self.board_page, BOARD_ROWS, len(self.ratings), self.ratings_total)
        if tab == "records":
            return _span(self.records_page, RECORD_ROWS, len(self.records), self.records_total)
        n = len(self.tournaments)
        words = f"{self.tournament + 1} of {n}" if n else " "
        return words, self.tournament > 0, self.tournament + 1 < n

    def turn(self, session: Any, tab: str, step: int) -> None:
        """Show the previous (-1) or next (+1) page of ``tab``."""
        if tab == "leaderboard":
            self.board_page = max(0, self.board_page + step)
            self.history = None
        elif tab == "records":
            self.records_page = max(0, self.records_page + step)
        elif tab == "tournaments":
            self.tournament = max(0, min(len(self.tournaments) - 1, self.tournament + step))
            return  # every tournament came in one answer
        self.ask(session, tab)


def _span(page: int, rows: int, shown: int, total: int) -> tuple[str, bool, bool]:
    first = page * rows + 1
    words = f"{first}–{first + shown - 1} of {total}" if shown else " "
    return words, page > 0, first - 1 + shown < total


class LobbyModel:
    """Everything the lobby shows and the player chose, and what each intent does to it."""

    def __init__(self) -> None:
        self.form = NewTableForm()
        self.colour = "red"
        self.bot_name = BOT_CHOICES[0]
        self.tables: list[TableInfo] = []  # the cards of this page, in their places
        self.total = 0  # tables on the server in all
        self.page = 0
        self.servers: list[dict] = []  # found on the LAN, the trusted first (known_servers.arrange)
        self.server_first = 0  # the first of them shown: the row scrolls through them all
        self.tab = "tables"  # which of lobby_panels.TABS fills the cards' place
        self.lists = Lists()
        self.name_taken = False  # the server refused our name: the status line offers "Use name"
        self.status = ""
        self.status_bad = False
        #: What the server said of this player at hello (the session's ``player``), as last shown.
        self.me: dict | None = None
        self._asked_order = True  # the next table list shown is sorted afresh (else places are kept)
        # Replies come back in the order asked: the number of the reply the player's own request gets.
        self._sent = self._got = 0
        self._order_at: int | None = None

    # -- the status line --------------------------------------------------------------------

    def say(self, text: str, bad: bool = False) -> None:
        """One status line at the bottom of the lobby (red when something was refused)."""
        self.status, self.status_bad = text, bad

    # -- the tables' pages ------------------------------------------------------------------

    def asked_tables(self, sort: bool = False) -> None:
        """A request for this page of tables went out; ``sort``: its answer is shown sorted afresh."""
        self._sent += 1
        if sort:
            self._order_at = self._sent

    def tables_came(self) -> None:
        """An answer with the tables came (they answer in the order asked)."""
        self._got += 1
        if self._order_at is not None and self._got >= self._order_at:
            self._asked_order, self._order_at = True, None

    def show_tables(self, tables: Iterable[TableInfo], kept: set[str]) -> bool:
        """Take a page of tables: sorted when the player asked, else each in the place it had. True if changed."""
        tables = list(tables)[:PER_PAGE]
        self.total = max(self.total, self.page * PER_PAGE + len(tables))
        if self._asked_order:
            arranged = lobby_order(tables, kept)
            self._asked_order = False
        else:
            arranged = keep_places([t.id for t in self.tables], tables)
        if arranged == self.tables:
            return False
        self.tables = arranged
        return True

    def page_emptied(self, shown: int, total: int) -> bool:
        """The page asked for has no tables left but others do: go to the last page (True: ask again)."""
        if not shown and total and self.page > 0:
            self.page = max(0, (total - 1) // PER_PAGE)
            return True
        self.total = total
        return False

    def pager(self) -> tuple[str, bool, bool]:
        """The pager's words for the tab shown and whether Previous and Next may be pressed."""
        if self.tab != "tables":
            return self.lists.pager(self.tab)
        pages = max(1, -(-self.total // PER_PAGE))
        first = self.page * PER_PAGE + 1
        words = f"{first}–{first + len(self.tables) - 1} of {self.total}" if self.tables else " "
        return words, self.page > 0, self.page + 1 < pages

    def show_tab(self, tab: str) -> None:
        """Show the tables, the leaderboard, the finished games or the tournaments."""
        self.tab = tab
        self.lists.history = None

    # -- the servers found --------------------------------------------------------------------

    def found(self, servers: list[dict]) -> None:
        """The servers discovery heard, the first of them shown."""
        self.servers, self.server_first = servers[:SERVERS_LISTED], 0

    def servers_shown(self) -> tuple[int, list[dict]]:
        """The index of the first server shown and the servers shown (SERVERS_SHOWN at most)."""
        first = self.server_first = max(0, min(self.server_first, len(self.servers) - SERVERS_SHOWN))
        return first, self.servers[first:first + SERVERS_SHOWN]

    def scroll_servers(self, step: int) -> None:
        """Show the next (or previous) servers found, and say which."""
        self.server_first = max(0, min(self.server_first + step, len(self.servers) - SERVERS_SHOWN))
        self.say(self.servers_words())

    def servers_words(self) -> str:
        """The status line about the servers found."""
        n, first = len(self.servers), self.server_first
        shown = f"{first + 1}–{min(n, first + SERVERS_SHOWN)} of {n}" if n > SERVERS_SHOWN else f"{n}"
        trusted = sum(1 for s in self.servers if s.get("mark") is not None)
        why = (f"; ★ {trusted}: a server you played on before, or whose key you gave, listed first"
               if trusted else "")
        more = "; ‹ › for the others" if n > SERVERS_SHOWN else ""
        return f"Servers found: {shown}{why}{more}. Click one to join"

    # -- seats and bots -------------------------------------------------------------------------

    def choose_colour(self, colour: str) -> None:
        """The colour the player asks for when sitting at a side that has none yet."""
        self.colour = colour

    def choose_bot(self, bot: str) -> None:
        """The bot the cards' "+ bot" buttons ask for."""
        self.bot_name = bot

    def my_colour_for(self, table: TableInfo) -> str | None:
        """My chosen colour, unless another side of this table already plays it (the server then picks one)."""
        taken = {s.colour for s in table.seats if s.colour}
        return self.colour if self.colour not in taken else None

    def colour_at(self, table: TableInfo | None, seat: int) -> str | None:
        """The colour to ask for at ``seat``: its side's if it has one, else mine if free there (None: any)."""
        if table is None:
            return self.colour
        return table.side_colour(table.seats[seat].side) or self.my_colour_for(table)

    def bot_choices(self) -> tuple[str, ...]:
        """The bots the chooser offers: the chosen game's."""
        return bot_choices(self.form.kind)

    def bot_for(self, table: TableInfo | None) -> str:
        """The bot to ask for at ``table``: the chosen one if its game has it, else that game's stand-in bot."""
        kind = kind_of(table) if table is not None else self.form.kind
        return self.bot_name if self.bot_name in kind.bots else kind.standin_bot
