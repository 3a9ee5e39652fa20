"""The lobby: find a server, see its tables as cards, create a table, sit, add bots, watch, take a seat back.

Everything sits at fixed places computed from the window size and the scale
(no flowing rows): a refresh, a hover or a new message never moves what the
pointer aims at. Cards hold a fixed number of tables per page; a periodic
refresh keeps every shown table in its place (``lobby_cards.keep_places``).
The words on the cards come from ``lobby_cards`` (pure).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from functools import partial

import arcade
import arcade.gui
from arcade.gui import UIFlatButton, UIInputText, UILabel, UIWidget

from board99 import MODES, PLAYER_COUNTS
from board99.client import player_key
from board99.client.net import LobbyPage
from board99.client.pushes import Notice
from board99.match import MatchFormat
from board99.wire.listings import RecordEntry, TournamentInfo
from board99.wire.protocol import BOT_PACES
from board99.wire.table_info import TableInfo

from . import wording
from .lobby_cards import (
    friends_line,
    joinable,
    keep_places,
    lobby_order,
    pace_words,
    port_open,
    setup_words,
    sides_of,
    state_words,
)
from .lobby_identity import identity_words, name_bound_words, own_key_words, same_name
from .lobby_lists import GAMES_CHOICES, MATCH_CHOICES, RATED_HINT, badges, name_taken_words, record_title
from .lobby_panels import TABS, Lists, build_tab, export_standings, save_record
from .messages import Failed, Message, Pushed, Replied
from .palette import BAD, COLOUR_RGB, FONT, GOOD, PANEL_BG, RGB, TABLE_BG, TEXT, TEXT_DIM, WARN, side_rgb
from .preferences import Preferences
from .records import shown_path
from .scale import ui_scale
from .session import Session
from .textures import load_fonts, peg_texture
from .widgets import CHOSEN, TextField, button, text_on

CLOCK_CHOICES = (None, 15.0, 30.0, 60.0)
PER_PAGE = 6  # table cards on one screen: 2 columns of 3
REFRESH_SECONDS = 3.0  # the lobby asks for the table list this often, so friends' tables appear
BOT_CHOICES = ("rulebook", "search", "random")  # the server's bots (board99.bots), strongest usual first
#: Servers found shown at once in the header's row (arrows scroll through the rest), and listed at most
#: (discovery keeps 32 strangers and 32 trusted servers: client.discovery).
SERVERS_SHOWN, SERVERS_LISTED = 2, 64
#: Error codes that mean the server is not there (rather than that it said no).
UNREACHABLE = ("disconnected", "timeout", "bad-server-key", "connect")
#: The lobby's design size (scale 1.0); scale.ui_scale grows and shrinks it with the window.
CONTENT_W, CONTENT_H = 1240, 790
CARD_W, CARD_H, CARD_GAP = 454, 168, 12
CARDS_LEFT, CARDS_TOP = 320, 234
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
RATED_BADGE = (196, 150, 40)  # the gold behind a card's "Rated" mark


@functools.lru_cache(maxsize=2048)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn in the client's font at ``size`` points."""
    return arcade.Text(text, 0, 0, font_size=size, font_name=FONT, bold=bold).content_width


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """``text``, shortened with an ellipsis so it fits ``width`` pixels (never clipped mid-letter)."""
    if text_width(text, size, bold) <= width:
        return text
    while len(text) > 1 and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


class LobbyView(arcade.View):
    """Servers, tables and seats; everything asked of the server goes through the session."""

    def __init__(self, session: Session | None = None, *, address: str = "",
                 on_connect: Callable[[str], object] | None = None, on_table: Callable[[], object] | None = None,
                 discover: Callable[[], list[dict]] | None = None, name: str = "player",
                 on_help: Callable[[], object] | None = None, on_settings: Callable[[], object] | None = None,
                 on_quit: Callable[[], object] | None = None, prefs: Preferences | None = None,
                 local_only: bool = False, on_open_record: Callable[[str, str], object] | None = None,
                 on_learn: Callable[[], object] | None = None,
                 on_reached: Callable[[str], object] | None = None,
                 on_switch: Callable[[str], str | None] | None = None,
                 on_known: Callable[[str], object] | None = None) -> None:
        super().__init__()
        #: Told the endpoint once the server answers (the window remembers servers used: known_servers).
        self.reached_cb = on_reached
        self._reached = False
        #: Plays as another name with that name's own key (the app reconnects); returns why not, or None.
        self.switch_cb = on_switch
        #: Told the name the server knows this window's key by, once per session.
        self.known_cb = on_known
        #: How the lobby asks whether the server answers at this machine's LAN address (tests replace it).
        self.probe: Callable[[str, int], bool] = port_open
        self._friends_for: tuple[str, tuple[str, bool]] | None = None
        #: What the server said of this player at hello (the session's ``player``), as last shown.
        self.me: dict | None = None
        #: Opens the lessons (the Learn screen); None hides the "Learn" button.
        self.learn_cb = on_learn
        #: Shows a fetched record (its text and a title); None hides the finished games' "Open".
        self.open_record_cb = on_open_record
        #: The session's server is `board99 play`'s own, listening on this machine only.
        self.local_only = local_only
        load_fonts()
        self.session = session
        self.connect_cb, self.table_cb, self.discover_fn = on_connect, on_table, discover
        self.help_cb, self.settings_cb, self.quit_cb = on_help, on_settings, on_quit
        self.prefs = prefs or Preferences()
        self.tables: list[TableInfo] = []  # the cards of this page, in their places
        self.total = 0  # tables on the server in all
        self.page = 0
        self.servers: list[dict] = []  # found on the LAN, the trusted first (known_servers.arrange)
        self.server_first = 0  # the first of them shown: the row scrolls through them all
        self.players, self.mode, self.clock = PLAYER_COUNTS[0], MODES[0], None
        self.colour = "red"
        self.match: MatchFormat | None = None  # a new table plays single games unless a match is chosen
        self.rated = False
        #: How fast the new table's server bots move: quick, as tables always were, unless chosen.
        self.bot_pace = BOT_PACES[0]
        self.games = 3  # the fixed-length match the "N games" button offers (board99.match: 1-9)
        self.tab = "tables"  # which of TABS fills the cards' place
        self.lists = Lists()
        self.name_taken = False  # the server refused our name: the status line offers "Use name"
        self.bot_name = BOT_CHOICES[0]
        self.status = ""
        self.status_bad = False
        self._found: list[dict] | None = None
        self._since_refresh = 0.0
        self._asked_order = True  # the next table list shown is sorted afresh (else places are kept)
        # Replies come back in the order asked: the number of the reply the player's own request gets.
        self._sent = self._got = 0
        self._order_at: int | None = None
        self._layout_key: tuple[int, int, float] | None = None
        self.ui = arcade.gui.UIManager()
        self.address = TextField(text=address, font_name=FONT, font_size=13)
        self.name_input = TextField(text=name, font_name=FONT, font_size=13)
        self.table_name = TextField(text="Table", font_name=FONT, font_size=13)
        for field in self.fields:
            self.ui.add(field)
        self.dynamic: list[UIWidget] = []
        #: (left, bottom, width, height, table) of each card drawn, for on_draw and the tests.
        self.card_rects: list[tuple[float, float, float, float, TableInfo]] = []
        self.buttons: dict[str, UIFlatButton] = {}  # by a stable key, for tests and tools
        #: Bands drawn under the widgets ((left, bottom, width, height, colour)): list heads, the player's line.
        self.bands: list[tuple[float, float, float, float, RGB]] = []
        #: Words one may click that are not buttons (a leaderboard name), by key: (rect, action).
        self.links: dict[str, tuple[arcade.Rect, Callable[[], object]]] = {}

    @property
    def fields(self) -> tuple[UIInputText, ...]:
        """The three text fields (never rebuilt, so typing survives every refresh)."""
        return (self.address, self.name_input, self.table_name)

    @property
    def typing(self) -> bool:
        """A text field has the keyboard (so '?' is a letter, not the rules key)."""
        return any(field.active for field in self.fields)

    # -- geometry -------------------------------------------------------------------------

    @property
    def scale(self) -> float:
        """Text and widget scale for this window and the player's setting."""
        return ui_scale(self.window.width, self.window.height, self.prefs.ui_scale)

    def box(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) in window pixels of a box given at scale 1 from the content's top left."""
        s = self.scale
        left = (self.window.width - CONTENT_W * s) / 2
        top = self.window.height - max(0.0, (self.window.height - CONTENT_H * s) / 2)
        return left + x * s, top - (y + h) * s, w * s, h * s

    def _label(self, text: str, x: float, y: float, w: float, h: float, size: float = 12, color: RGB = TEXT,
               bold: bool = False, align: str = "left") -> UILabel:
        s = self.scale
        line = size * 1.6  # one line of text, centred in the box like a button's
        left, bottom, width, height = self.box(x, y + max(0.0, (h - line) / 2), w, min(h, line))
        widget = UILabel(x=left, y=bottom, width=width, height=height, text=fit(text, width, size * s, bold),
                         font_name=FONT, font_size=size * s, text_color=color, bold=bold, align=align)
        self.dynamic.append(self.ui.add(widget))
        return widget

    def _button(self, key: str, text: str, action: Callable[[], object], x: float, y: float, w: float, h: float,
                size: float = 12, **style: object) -> UIFlatButton:
        s = self.scale
        left, bottom, width, height = self.box(x, y, w, h)
        b = button(fit(text, width - 12 * s, size * s), action, width, height, size=size * s, **style)  # type: ignore[arg-type]
        b.rect = arcade.LBWH(left, bottom, width, height)
        self.dynamic.append(self.ui.add(b))
        self.buttons[key] = b
        return b

    def _place_fields(self) -> None:
        s = self.scale
        for field, (x, y, w) in zip(self.fields, ((70, 56, 260), (100, 140, 150), (0, 226, 290))):
            field.rect = arcade.LBWH(*self.box(x, y, w, 34))
            field.layout.font_size = 13 * s  # type: ignore[attr-defined]
            field.trigger_full_render()

    # -- building -------------------------------------------------------------------------

    def build(self) -> None:
        """Put every widget at its place for the lobby's state (cheap: a hundred widgets at most)."""
        if self.window is None:
            return
        for widget in self.dynamic:
            self.ui.remove(widget)
        self.dynamic, self.buttons, self.card_rects, self.bands, self.links = [], {}, [], [], {}
        self._layout_key = (self.window.width, self.window.height, self.scale)
        self._place_fields()
        self._build_header()
        self._build_you()
        self._build_new_table()
        self._build_tabs()
        if self.tab == "tables":
            self._build_tables()
        else:
            build_tab(self, self.tab)
        self._build_status()

    def band(self, x: float, y: float, w: float, h: float, colour: RGB) -> None:
        """A filled band under the widgets, given at scale 1 like every widget."""
        self.bands.append((*self.box(x, y, w, h), colour))

    def link(self, key: str, x: float, y: float, w: float, h: float, action: Callable[[], object]) -> None:
        """Make the words at this place clickable (their label is drawn separately)."""
        self.links[key] = (arcade.LBWH(*self.box(x, y, w, h)), action)

    def _build_header(self) -> None:
        self._label("GAME OF 99", 0, 0, 220, 44, 24, bold=True)
        if self.session is not None:
            words, known = identity_words(self.me, getattr(self.session, "key", "") is not None)
            self._label(words, 228, 0, 490, 44, 12, GOOD if known else TEXT_DIM)
        if self.learn_cb is not None:
            self._button("learn", "Learn to play", self._call(self.learn_cb), 1240 - 90 - 8 - 120 - 8 - 130 - 8 - 150,
                         4, 150, 36, bg=CHOSEN)
        self._button("rules", "Rules (F1)", self._call(self.help_cb), 1240 - 90 - 8 - 120 - 8 - 130, 4, 130, 36)
        self._button("settings", "Settings", self._call(self.settings_cb), 1240 - 90 - 8 - 120, 4, 120, 36)
        self._button("quit", "Quit", self._call(self.quit_cb), 1240 - 90, 4, 90, 36)
        self._label("Server", 0, 56, 66, 34, 13, TEXT_DIM)
        self._button("connect", "Connect", self.connect, 340, 56, 110, 34)
        self._button("find", "Find servers", self.find_servers, 458, 56, 140, 34)
        if self.session is None:
            where, colour = "Not connected: type an address, or find servers on your network", TEXT_DIM
        else:
            where, colour = f"Connected to {self.session.endpoint.split('://')[-1]}", GOOD
        self._label(where, 612, 56, 628, 34, 12, colour)
        if self.session is not None and self.local_only:
            # The practice server listens on 127.0.0.1 only: an address for friends would not answer.
            self._label("Practice server, on this machine only. To play with friends: board99 serve",
                        0, 98, 600, 30, 12, TEXT_DIM)
        elif self.session is not None:
            words, reachable = self._friends()
            self._label(words, 0, 98, 600, 30, 12, TEXT if reachable else TEXT_DIM)
        self._build_servers()

    def _build_servers(self) -> None:
        """The servers found, SERVERS_SHOWN at a time with arrows to scroll through every one."""
        if not self.servers:
            return
        first = self.server_first = max(0, min(self.server_first, len(self.servers) - SERVERS_SHOWN))
        arrows = len(self.servers) > SERVERS_SHOWN  # only when there are more than the row shows
        left, width, gap = (648, 277, 6) if arrows else (620, 304, 8)
        for i, info in enumerate(self.servers[first:first + SERVERS_SHOWN]):
            addr = f"{info['host']}:{info['port']}"
            trusted = info.get("mark") is not None
            self._button(f"server{first + i}", f"{'★ ' if trusted else ''}{info.get('name', 'server')} · {addr}",
                         partial(self.connect, addr), left + i * (width + gap), 96, width, 32, 11, outlined=trusted)
        if arrows:
            self._button("servers-back", "‹", partial(self.scroll_servers, -SERVERS_SHOWN), 612, 96, 30, 32, 13,
                         disabled=first == 0)
            self._button("servers-ahead", "›", partial(self.scroll_servers, +SERVERS_SHOWN), 1210, 96, 30, 32,
                         13, disabled=first + SERVERS_SHOWN >= len(self.servers))

    def scroll_servers(self, step: int) -> None:
        """Show the next (or previous) servers found."""
        self.server_first = max(0, min(self.server_first + step, len(self.servers) - SERVERS_SHOWN))
        self.say(self._servers_words())

    def _servers_words(self) -> str:
        n, first = len(self.servers), self.server_first
        shown = f"{first + 1}–{min(n, first + SERVERS_SHOWN)} of {n}" if n > SERVERS_SHOWN else f"{n}"
        trusted = sum(1 for s in self.servers if s.get("mark") is not None)
        why = (f"; ★ {trusted}: a server you played on before, or whose key you gave, listed first"
               if trusted else "")
        more = "; ‹ › for the others" if n > SERVERS_SHOWN else ""
        return f"Servers found: {shown}{why}{more}. Click one to join"

    def _build_you(self) -> None:
        self._label("Your name", 0, 140, 96, 34, 12, TEXT_DIM)
        # Another person at this machine plays under their own name with their own key.
        self._button("play-as", "Play as", self.switch, 256, 140, 72, 34, 11)
        self._label("Your colour", 336, 140, 110, 34, 12, TEXT_DIM)
        for i, colour in enumerate(COLOUR_RGB):
            rgb = side_rgb(colour, self.prefs.palette)
            chosen = colour == self.colour
            self._button(f"colour-{colour}", ("✓ " if chosen else "") + colour, partial(self._choose, colour=colour),
                         452 + i * 100, 140, 92, 34, bg=rgb, fg=text_on(rgb), outlined=chosen)

    def _build_new_table(self) -> None:
        connected = self.session is not None
        self._label("New table", 0, 192, 300, 30, 16, bold=True)
        # One row per choice, its title on the left: room for the match and rated rows in 640 pixels.
        self._label("Players", 0, 268, 74, 34, 12, TEXT_DIM)
        for i, n in enumerate(PLAYER_COUNTS):
            self._button(f"players-{n}", str(n), partial(self._choose, players=n), 76 + i * 56, 268, 50, 34,
                         chosen=n == self.players)
        self._label("Mode", 0, 308, 74, 34, 12, TEXT_DIM)
        for i, mode in enumerate(MODES):
            self._button(f"mode-{mode}", mode, partial(self._choose, mode=mode), 76 + i * 112, 308, 106, 34,
                         chosen=mode == self.mode)
        self._label("Clock", 0, 348, 74, 34, 12, TEXT_DIM)
        for i, clock in enumerate(CLOCK_CHOICES):
            self._button(f"clock-{clock}", "off" if clock is None else f"{clock:g} s",
                         partial(self._choose, clock=clock), 76 + i * 56, 348, 50, 34, chosen=clock == self.clock)
        self._label("Bot pace", 0, 388, 74, 34, 12, TEXT_DIM)
        for (x, w), pace in zip(((76, 90), (172, 128)), BOT_PACES, strict=True):
            self._button(f"pace-{pace}", pace_words(pace), partial(self._choose, bot_pace=pace), x, 388, w, 34,
                         chosen=pace == self.bot_pace)
        self._label("Match", 0, 428, 300, 22, 12, TEXT_DIM)
        for i, (words, fmt) in enumerate(MATCH_CHOICES):
            self._button(f"match-{fmt.kind}-{fmt.target}" if fmt else "match-single", words,
                         partial(self._choose, match=fmt), (0, 110, 206)[i], 450, (104, 90, 90)[i], 32, 10,
                         chosen=fmt == self.match)
        # A fixed number of games: one button to choose it, fewer and more beside it (a row of eight
        # digits would repeat the players' "2 3 4 6" just above).
        games = MatchFormat("games", self.games)
        self._button("games-fewer", "−", partial(self._more_games, -1), 0, 488, 40, 30, 12,
                     disabled=self.games <= GAMES_CHOICES[0])
        self._button("match-games", f"{self.games} games", partial(self._choose, match=games), 46, 488, 110, 30,
                     10, chosen=games == self.match)
        self._button("games-more", "+", partial(self._more_games, +1), 162, 488, 40, 30, 12,
                     disabled=self.games >= GAMES_CHOICES[-1])
        self._button("rated", "Rated: on" if self.rated else "Rated: off", partial(self._choose, rated=not self.rated),
                     0, 528, 110, 34, chosen=self.rated)
        for i, line in enumerate(RATED_HINT):
            self._label(line, 118, 526 + i * 19, 182, 19, 10, TEXT_DIM)
        self._button("create", "Create table", self.create, 0, 574, 290, 40, 13, disabled=not connected)
        self._label("Bots for the “+ bot” buttons", 0, 626, 300, 24, 12, TEXT_DIM)
        for i, bot in enumerate(BOT_CHOICES):
            self._button(f"bot-{bot}", bot, partial(self._choose, bot_name=bot), i * 98, 650, 92, 34,
                         chosen=bot == self.bot_name)
        self._label("A table starts when every seat is filled;", 0, 696, 300, 22, 11, TEXT_DIM)
        self._label("partners sit opposite each other.", 0, 716, 300, 22, 11, TEXT_DIM)

    def _build_tabs(self) -> None:
        connected = self.session is not None
        x = CARDS_LEFT
        for key, title, width in TABS:
            self._button(f"tab-{key}", title, partial(self.show_tab, key), x, 192, width, 32, 12,
                         chosen=key == self.tab)
            x += width + 6
        if self.tab == "tables":
            pages = max(1, -(-self.total // PER_PAGE))
            first = self.page * PER_PAGE + 1
            words = f"{first}–{first + len(self.tables) - 1} of {self.total}" if self.tables else " "
            back, ahead = self.page > 0, self.page + 1 < pages
        else:
            words, back, ahead = self.lists.pager(self.tab)
        self._label(words, 1240 - 100 - 6 - 82 - 6 - 104 - 6 - 114, 192, 114, 32, 11, TEXT_DIM, align="right")
        self._button("previous", "‹ Previous", self.previous_page, 1240 - 100 - 6 - 82 - 6 - 104, 192, 104, 32,
                     disabled=not back)
        self._button("next", "Next ›", self.next_page, 1240 - 100 - 6 - 82, 192, 82, 32, disabled=not ahead)
        self._button("refresh", "Refresh", self.refresh_now, 1240 - 100, 192, 100, 32, disabled=not connected)

    def _build_tables(self) -> None:
        connected = self.session is not None
        if not self.tables:
            self._label("No tables yet: create one on the left." if connected else "Connect to a server first.",
                        CARDS_LEFT, CARDS_TOP + 10, 600, 30, 13, TEXT_DIM)
        kept = self._kept()
        for i, table in enumerate(self.tables[:PER_PAGE]):
            x = CARDS_LEFT + (i % 2) * (CARD_W + CARD_GAP)
            y = CARDS_TOP + (i // 2) * (CARD_H + CARD_GAP)
            self._build_card(table, x, y, table.id in kept)

    def _build_card(self, table: TableInfo, x: float, y: float, mine_kept: bool) -> None:
        self.card_rects.append((*self.box(x, y, CARD_W, CARD_H), table))
        open_ = joinable(table)
        state_colour = WARN if mine_kept else GOOD if open_ else TEXT if table.state == "playing" else TEXT_DIM
        marks = badges(table)
        name_w = 260 - 76 * len(marks)  # each mark takes its place from the name, which is shortened
        self._label(table.name, x + 10, y + 6, name_w, 26, 15, bold=True)
        for k, mark in enumerate(marks):
            bx = x + 10 + name_w + 4 + k * 76
            self.band(bx, y + 9, 70, 20, RATED_BADGE if mark == "Rated" else (60, 90, 130))
            self._label(mark, bx, y + 9, 70, 20, 10, (20, 20, 20) if mark == "Rated" else TEXT, bold=True,
                        align="center")
        self._label(state_words(table), x + 274, y + 6, 170, 26, 12, state_colour, align="right")
        self._label(setup_words(table), x + 10, y + 32, CARD_W - 20, 22, 11, TEXT_DIM)
        partnered = table.sides != table.players
        for r, side in enumerate(sides_of(table, self._my_colour_for(table), self.my_name())):
            row_y = y + 58 + r * 28
            self._label(side.colour.capitalize() if side.colour else f"Side {side.side + 1}",
                        x + 40, row_y, 72, 26, 12, bold=True)
            slot_w = 158 if partnered else 330
            for k, slot in enumerate(side.seats):
                sx = x + 114 + k * (slot_w + 16)
                if k:
                    self._label("&", sx - 14, row_y, 14, 26, 12, TEXT_DIM, align="center")
                if slot.sit_text is None:
                    self._label(slot.who, sx + 4, row_y, slot_w - 4, 26, 12,
                                TEXT_DIM if slot.who == "(free)" else TEXT)
                    continue
                # A rated table seats people only, and a kept seat waits for its player: no "+ bot" there.
                people_only = table.rated or bool(table.seats[slot.seat].reserved)
                self._button(f"sit-{table.id}-{slot.seat}", slot.sit_text, partial(self.sit, table.id, slot.seat),
                             sx, row_y + 1, slot_w - (0 if people_only else 60), 25, 11, bg=CHOSEN)
                if people_only:
                    continue
                self._button(f"bot-{table.id}-{slot.seat}", "+ bot", partial(self.bot, table.id, slot.seat),
                             sx + slot_w - 56, row_y + 1, 56, 25, 10)
        command = f"id {table.id}  ·  board99 bot --table {table.id} --seat N"
        self._label(command, x + 10, y + CARD_H - 28, 270, 22, 10, TEXT_DIM)
        if mine_kept:
            self._button(f"back-{table.id}", "Take my seat back", partial(self.take_back, table.id),
                         x + CARD_W - 176, y + CARD_H - 32, 168, 28, 12, bg=CHOSEN)
        else:
            self._button(f"watch-{table.id}", "Watch", partial(self.spectate, table.id),
                         x + CARD_W - 96, y + CARD_H - 32, 88, 28, 11)

    def _build_status(self) -> None:
        kept = self._kept()
        shown = {t.id for t in self.tables}
        elsewhere = [t for t in kept if t not in shown]
        text = self.status
        if not text and kept:
            text = "You left a game while it was on: your seat is kept for you until that game ends."
        button = self.name_taken or bool(elsewhere)
        self._label(text or " ", 0, 770, 1030 if button else 1240, 26, 13, BAD if self.status_bad else WARN)
        if self.name_taken:
            self._button("use-name", "Use name", self.use_name, 1240 - 200, 766, 200, 30, 12, bg=CHOSEN)
        elif elsewhere:
            self._button("back-elsewhere", "Take my seat back", partial(self.take_back, elsewhere[0]),
                         1240 - 200, 766, 200, 30, 12, bg=CHOSEN)

    def _friends(self) -> tuple[str, bool]:
        # Asked once per server (a connect to this machine's own LAN address answers at once).
        assert self.session is not None
        endpoint = self.session.endpoint
        if self._friends_for is None or self._friends_for[0] != endpoint:
            self._friends_for = (endpoint, friends_line(endpoint, self.probe))
        return self._friends_for[1]

    def _call(self, callback: Callable[[], object] | None) -> Callable[[], None]:
        def run() -> None:
            if callback is not None:
                callback()
        return run

    def _kept(self) -> set[str]:
        return set(self.session.kept()) if self.session is not None and hasattr(self.session, "kept") else set()

    def _my_colour_for(self, table: TableInfo) -> str | None:
        # My chosen colour, unless another side of this table already plays it (the server then picks one).
        taken = {s.colour for s in table.seats if s.colour}
        return self.colour if self.colour not in taken else None

    def _more_games(self, step: int) -> None:
        # Fewer or more games, and that fixed-length match chosen.
        self.games = max(GAMES_CHOICES[0], min(GAMES_CHOICES[-1], self.games + step))
        self._choose(match=MatchFormat("games", self.games))

    def _choose(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self, key, value)
        self.build()

    # -- intents ----------------------------------------------------------------------------

    def say(self, text: str, bad: bool = False) -> None:
        """Show one status line at the bottom of the lobby (red when something was refused)."""
        self.status, self.status_bad = text, bad
        self.build()

    def connect(self, address: str | None = None) -> None:
        """Connect to the typed (or a found) server."""
        address = (address or self.address.text).strip()
        if not address:
            self.say("Type the server's address first (host or host:port), or use Find servers", bad=True)
            return
        if self.connect_cb is not None:
            self.connect_cb(address)

    def find_servers(self) -> None:
        """Listen for LAN servers in the background (discovery takes about a second)."""
        if self.discover_fn is None:
            self.say("Finding servers is not available here: type the server's address", bad=True)
            return
        self.say("Looking for servers on your network…")
        found_fn = self.discover_fn

        def listen() -> None:
            try:
                self._found = found_fn()
            except Exception as exc:
                self._found = []
                self.status = f"Finding servers failed: {exc}"

        threading.Thread(target=listen, name="board99-discover", daemon=True).start()

    def refresh(self) -> None:
        """Ask the server for this page of tables (the cards keep their places)."""
        self._since_refresh = 0.0
        if self.session is None:
            return
        self._sent += 1
        if hasattr(self.session, "lobby_page"):
            self.session.lobby_page(self.page * PER_PAGE, PER_PAGE)
        else:
            self.session.list_tables()

    def refresh_now(self) -> None:
        """Ask for the tables and sort them afresh (joinable first) when that reply comes; and the tab's list."""
        self.refresh()
        self._order_at = self._sent
        if self.tab != "tables":
            self.lists.ask(self.session, self.tab)
            self.build()

    def next_page(self) -> None:
        """The next page of tables (or of the tab's list)."""
        if self.tab != "tables":
            self.lists.turn(self.session, self.tab, +1)
            self.build()
            return
        self.page += 1
        self.refresh_now()

    def previous_page(self) -> None:
        """The previous page of tables (or of the tab's list)."""
        if self.tab != "tables":
            self.lists.turn(self.session, self.tab, -1)
            self.build()
            return
        self.page = max(0, self.page - 1)
        self.refresh_now()

    def show_tab(self, tab: str) -> None:
        """Show the tables, the leaderboard, the finished games or the tournaments (asking for them afresh)."""
        self.tab = tab
        self.lists.history = None
        self.refresh_now()
        self.build()

    def my_name(self) -> str:
        """The name the player plays under: the one in the name box."""
        return self.name_input.text.strip()

    def show_player(self, name: str) -> None:
        """Ask for a player's history (rating, partners, opponents, latest games)."""
        if self.session is not None:
            self.session.call("player_history", lambda client: client.player_history(name))
            self.say(f"Asking for {name}'s games…")

    def close_player(self) -> None:
        """Back from a player's history to the leaderboard."""
        self.lists.history = None
        self.build()

    def fetch_record(self, entry: RecordEntry, how: str) -> None:
        """Fetch a finished game's record (a whole match's for a match game), then open ('open') or save it."""
        if self.session is None:
            return

        def run(client: object) -> tuple[RecordEntry, str]:
            return entry, client.fetch_record(entry.table, entry.game, match=entry.match)  # type: ignore[attr-defined]

        self.session.call(f"{how}_record", run)
        self.say(f"Fetching the record of {record_title(entry)}…")

    def export_standings(self, tournament: TournamentInfo) -> None:
        """Write the tournament's standings to a new CSV file in the records folder, and say where."""
        try:
            path = export_standings(tournament)
        except OSError as exc:
            self.say(f"Could not write the standings: {exc}", bad=True)
            return
        self.say(f"Standings saved to {path}")

    def use_name(self) -> None:
        """Say the name in the box to the server again (after 'name-taken'); the reply says if it is free."""
        name = self.my_name()
        if self.session is None or not name:
            self.say("Type a name under “Your name” first", bad=True)
            return

        def run(client: object) -> str:
            old = client.name  # type: ignore[attr-defined]
            client.name = name  # type: ignore[attr-defined]
            try:
                client.hello()  # type: ignore[attr-defined]
            except Exception:
                client.name = old  # type: ignore[attr-defined]
                raise
            return name

        self.session.call("rename", run)
        self.say(f"Asking the server for the name {name}…")

    def switch(self) -> None:
        """Play as the name in the box, with that name's own key (another person at this machine)."""
        name = self.my_name()
        if not name:
            self.say("Type the name to play as under “Your name” first", bad=True)
            return
        if self.me is not None and same_name(name, str(self.me.get("name", ""))):
            self.say(f"You already play as {self.me.get('name')} here")
            return
        if self.switch_cb is None:
            self.say("Start the window with  board99 join --as NAME  to play as another name", bad=True)
            return
        why = self.switch_cb(name)
        if why:
            self.say(why, bad=True)

    def create(self) -> None:
        """Create a table with the chosen players, mode and clock."""
        if self.session is None:
            self.say("Connect to a server first", bad=True)
            return
        name = self.table_name.text.strip() or "Table"
        if self.match is None and not self.rated and self.bot_pace == BOT_PACES[0]:
            self.session.create_table(name, self.players, self.mode, self.clock)
        else:
            self.session.create_table(name, self.players, self.mode, self.clock, match=self.match,
                                      rated=self.rated, bot_pace=self.bot_pace)
        self.say(f"Creating the table {name!r}…")

    def sit(self, table_id: str, seat: int) -> None:
        """Take ``seat`` at ``table_id``: the side's colour if it has one, else the chosen colour if free."""
        if self.session is None:
            return
        table = next((t for t in self.tables if t.id == table_id), None)
        side_colour = table.side_colour(table.seats[seat].side) if table is not None else None
        colour = side_colour or (self._my_colour_for(table) if table is not None else self.colour)
        self.session.take_seat(table_id, seat, colour, self.name_input.text.strip() or None)  # type: ignore[arg-type]
        name = table.name if table is not None else table_id
        self.say(f"Asking for a seat at {name!r}…")

    def bot(self, table_id: str, seat: int) -> None:
        """Put a bot of the chosen kind in ``seat``."""
        if self.session is None:
            return
        self.session.add_bot(table_id, seat, self.bot_name)
        self.say(f"Asking for a {self.bot_name} bot…")

    def spectate(self, table: str) -> None:
        """Watch a table."""
        if self.session is not None:
            self.session.spectate(table)

    def take_back(self, table: str) -> None:
        """Take back the seat this player left at ``table`` during its game."""
        if self.session is not None:
            self.session.take_back(table)
            self.say("Taking your seat back…")

    # -- messages ---------------------------------------------------------------------------

    def show_page(self, page: LobbyPage) -> None:
        """Show one page of the server's tables."""
        if not page.tables and page.total and self.page > 0:
            self.page = max(0, (page.total - 1) // PER_PAGE)  # the page emptied: show the last one
            self.refresh_now()
            return
        self.total = page.total
        self.show_tables(list(page.tables))

    def show_tables(self, tables: list[TableInfo]) -> None:
        """Show these tables: in the lobby's order when the player asked, else each in the place it had."""
        tables = list(tables)[:PER_PAGE]
        if self.session is not None and hasattr(self.session, "forget_ended"):
            self.session.forget_ended(tables)
        self.total = max(self.total, self.page * PER_PAGE + len(tables))
        if self._asked_order:
            arranged = lobby_order(tables, self._kept())
            self._asked_order = False
        else:
            arranged = keep_places([t.id for t in self.tables], tables)
        if arranged == self.tables:
            return  # nothing new: keep the widgets (and the pointer's hover)
        self.tables = arranged
        self.build()

    def handle(self, msg: Message) -> None:
        """One message from the session."""
        if isinstance(msg, Replied) and msg.op in ("lobby_page", "list_tables"):
            self._got += 1
            if self._order_at is not None and self._got >= self._order_at:
                self._asked_order, self._order_at = True, None
        if isinstance(msg, Replied) and msg.op in ("lobby_page", "list_tables") and not self._reached:
            self._reached = True  # the server answers: the window may remember it
            if self.reached_cb is not None and self.session is not None:
                self.reached_cb(self.session.endpoint)
        match msg:
            case Replied("lobby_page", page):
                self.show_page(page)
            case Replied("list_tables", tables):
                self.show_tables(tables)
            case Replied("create_table", table):
                self.say(f"Table {table.name!r} created: take a seat, or put bots in the seats")
                self.refresh_now()
            case Replied("add_bot"):
                self.say("The bot sits down")
                self.refresh()
            case Replied("take_seat" | "spectate" | "resume") if self.table_cb is not None:
                self.table_cb()
            case Replied(op, result) if self.lists.take(op, result):
                self.status = "" if op == "player_history" else self.status
                self.build()
            case Replied("open_record", (entry, text)) if self.open_record_cb is not None:
                self.say(" ")
                self.open_record_cb(text, record_title(entry))
            case Replied("save_record", (entry, text)):
                try:
                    self.say(wording.saved(shown_path(save_record(entry, text))))
                except OSError as exc:
                    self.say(f"Could not save the record: {exc}", bad=True)
            case Replied("rename", name):
                self.name_taken = False
                if self.session is not None:
                    self.session.name = name  # later refusals name the name now in use
                self.say(f"You play as {name} on this server")
            case Failed(_, "name-bound", _) | Pushed(Notice("name-bound")):
                self.say(name_bound_words(self._refused_name(msg)), bad=True)
            case Failed(_, "name-taken", _) | Pushed(Notice("name-taken")):
                self.name_taken = True
                refused = self._refused_name(msg)
                # Taken by this very machine's key of that name: switching is the answer, not a new name.
                mine = self.switch_cb is not None and player_key.has_key_here(refused)
                self.say(own_key_words(refused) if mine else name_taken_words(refused), bad=True)
            case Failed(_, code, message) if code in UNREACHABLE:
                self.say(f"Cannot reach the server: {message}", bad=True)
            case Failed(op, code, message):
                words = REFUSAL_WORDS.get(code, message)
                self.say(f"The server refused {REQUEST_WORDS.get(op, op)}: {words}", bad=True)
            case Pushed(Notice(_, message)):
                self.say(f"The server says: {message}", bad=True)  # e.g. too-many-players at hello
            case Pushed():
                self.refresh()

    def _know(self, player: dict | None) -> None:
        # The server told who this window is (at hello, or after a new name): show it, and put the
        # name in the box if the box still holds the placeholder.
        if player == self.me:
            return
        self.me = player
        if isinstance(player, dict) and isinstance(player.get("name"), str):
            if self.my_name() in ("", "player"):
                self.name_input.text = player["name"]
            if self.known_cb is not None:
                self.known_cb(player["name"])
        self.build()

    def _refused_name(self, msg: Message) -> str:
        # A name refused when we sat or renamed is the one in the box; at hello, the session's.
        if isinstance(msg, Failed) and msg.op in ("take_seat", "rename") and self.my_name():
            return self.my_name()
        return getattr(self.session, "name", "") or self.my_name()

    # -- arcade callbacks -------------------------------------------------------------------

    def on_show_view(self) -> None:
        """Enable the widgets and ask for the tables."""
        self.prefs = getattr(self.window, "prefs", self.prefs)
        self.build()
        self.ui.enable()
        self.refresh_now()

    def on_hide_view(self) -> None:
        """Disable the widgets."""
        self.ui.disable()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A click on clickable words (a leaderboard name)."""
        for rect, action in self.links.values():
            if rect.point_in_rect((x, y)):
                action()
                return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        """The wheel over the servers found scrolls through them."""
        left, bottom, width, height = self.box(612, 96, 628, 32)
        if self.servers and left <= x <= left + width and bottom <= y <= bottom + height and (scroll_x or scroll_y):
            self.scroll_servers(-1 if (scroll_y or -scroll_x) > 0 else 1)
            return True
        return None

    def on_resize(self, width: int, height: int) -> None:
        """Put everything at its place for the new size."""
        self.build()

    def on_update(self, delta_time: float) -> None:
        """Take the session's messages and the discovery result; ask for the tables now and then."""
        self._since_refresh += delta_time
        if self._since_refresh >= REFRESH_SECONDS:
            self.refresh()
        if self.session is not None:
            for msg in self.session.drain():
                self.handle(msg)
            self._know(getattr(self.session, "player", None))
        if self._found is not None:
            self.servers, self._found, self.server_first = self._found[:SERVERS_LISTED], None, 0
            self.say(self._servers_words() if self.servers else
                     (self.status if self.status.startswith("Finding servers failed") else
                      "No servers answered: type the address your friend's window shows"))

    def on_draw(self) -> None:
        """The baize, the panels under the cards, each side's peg, then the widgets."""
        if self._layout_key != (self.window.width, self.window.height, self.scale):
            self.build()
        self.clear(color=TABLE_BG)
        s = self.scale
        kept = self._kept()
        for left, bottom, width, height, table in self.card_rects:
            border = WARN if table.id in kept else GOOD if joinable(table) else (60, 90, 70)
            arcade.draw_lrbt_rectangle_filled(left, left + width, bottom, bottom + height, PANEL_BG)
            arcade.draw_lrbt_rectangle_outline(left, left + width, bottom, bottom + height, border, 2 * s)
            top = bottom + height
            for r in range(table.sides):
                colour = table.side_colour(r)
                cy = top - (58 + r * 28 + 13) * s
                if colour is None:
                    arcade.draw_circle_outline(left + 24 * s, cy, 9 * s, TEXT_DIM, 2 * s)
                else:
                    arcade.draw_texture_rect(peg_texture(colour, r, self.prefs.palette),
                                             arcade.LBWH(left + 12 * s, cy - 12 * s, 24 * s, 24 * s))
        for left, bottom, width, height, rgb in self.bands:
            arcade.draw_lrbt_rectangle_filled(left, left + width, bottom, bottom + height, rgb)
        self.ui.draw()
