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
from collections.abc import Callable, Hashable
from functools import partial

import arcade
import arcade.gui
from arcade.gui import UIInputText, UILabel, UIWidget

from board99 import kinds
from board99.client import player_key
from board99.client.net import LobbyPage
from board99.client.pushes import Notice
from board99.wire.listings import RecordEntry, TournamentInfo
from board99.wire.table_info import TableInfo

from . import wording
from .buttons import CHOSEN, Button, ButtonSet, text_on
from .lobby_cards import friends_line, joinable, port_open, setup_words, sides_of, state_words
from .lobby_form import build_form
from .lobby_house import build_house
from .lobby_identity import identity_words, name_bound_words, own_key_words, same_name
from .lobby_lists import badges, name_taken_words, record_title
from .lobby_model import (
    PER_PAGE,
    REFUSAL_WORDS,
    REQUEST_WORDS,
    SERVERS_SHOWN,
    CreateRequest,
    Lists,
    LobbyModel,
    changed_words,
    face_words,
    kind_of,
    partners_at_some_count,
    several_kinds,
)
from .lobby_panels import TABS, build_tab, export_standings, save_record
from .messages import Failed, Message, Pushed, Replied
from .palette import BAD, COLOUR_RGB, FONT, GOOD, PANEL_BG, RGB, TABLE_BG, TEXT, TEXT_DIM, WARN, side_rgb
from .preferences import Preferences
from .records import shown_path
from .scale import ui_scale
from .session import Session
from .textures import load_fonts, peg_texture, white
from .widgets import TextField

REFRESH_SECONDS = 3.0  # the lobby asks for the table list this often, so friends' tables appear
#: Error codes that mean the server is not there (rather than that it said no).
UNREACHABLE = ("disconnected", "timeout", "bad-server-key", "connect")
#: The lobby's design size (scale 1.0); scale.ui_scale grows and shrinks it with the window.
CONTENT_W, CONTENT_H = 1240, 790
CARD_W, CARD_H, CARD_GAP = 454, 168, 12
CARDS_LEFT, CARDS_TOP = 320, 234
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
                 on_connect: Callable[[str], object] | None = None, on_table: Callable[[str], object] | None = None,
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
        #: Everything shown and chosen, and what each intent does to it (pure: lobby_model.py).
        self.model = LobbyModel()
        self._found: list[dict] | None = None
        self._since_refresh = 0.0
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
        #: (left, bottom, colour, side) of each side's peg on the cards (window pixels; colour None: an empty ring).
        self.pegs: list[tuple[float, float, str | None, int]] = []
        #: The buttons (buttons.py), drawn over the bands and under the labels; ``buttons`` names them.
        self.button_set = ButtonSet(white())
        #: Bands drawn under the widgets ((left, bottom, width, height, colour)): list heads, the player's line.
        self.bands: list[tuple[float, float, float, float, RGB]] = []
        #: Words one may click that are not buttons (a leaderboard name), by key: (rect, action).
        self.links: dict[str, tuple[arcade.Rect, Callable[[], object]]] = {}

    @property
    def fields(self) -> tuple[UIInputText, ...]:
        """The three text fields (never rebuilt, so typing survives every refresh)."""
        return (self.address, self.name_input, self.table_name)

    @property
    def lists(self) -> Lists:
        """The lists the server sent for the other tabs (the model's)."""
        return self.model.lists

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

    def label(self, text: str, x: float, y: float, w: float, h: float, size: float = 12, color: RGB = TEXT,
               bold: bool = False, align: str = "left") -> UILabel:
        """Words in a box given at scale 1 from the content's top left, shortened to fit."""
        s = self.scale
        line = size * 1.6  # one line of text, centred in the box like a button's
        left, bottom, width, height = self.box(x, y + max(0.0, (h - line) / 2), w, min(h, line))
        widget = UILabel(x=left, y=bottom, width=width, height=height, text=fit(text, width, size * s, bold),
                         font_name=FONT, font_size=size * s, text_color=color, bold=bold, align=align)
        self.dynamic.append(self.ui.add(widget))
        return widget

    @property
    def buttons(self) -> dict[Hashable, Button]:
        """The buttons shown, by a stable key (for tests and tools)."""
        return self.button_set.by_name

    def button(self, key: str, text: str, action: Callable[[], object], x: float, y: float, w: float, h: float,
               size: float = 12, **style: object) -> Button:
        """A button called ``key`` in a box given at scale 1 that runs ``action`` (``ButtonSet.add``'s styles)."""
        s = self.scale
        left, bottom, width, height = self.box(x, y, w, h)
        return self.button_set.add(key, fit(text, width - 12 * s, size * s), action, left, bottom, width, height,
                                   size=size * s, **style)  # type: ignore[arg-type]

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
        self.button_set.clear()
        self.dynamic, self.card_rects, self.bands, self.links, self.pegs = [], [], [], {}, []
        self._layout_key = (self.window.width, self.window.height, self.scale)
        self._place_fields()
        self._build_header()
        self._build_you()
        build_form(self)
        self._build_tabs()
        if self.model.form.house_open:
            build_house(self)  # the game's further options, in the cards' place until Done
        elif self.model.tab == "tables":
            self._build_tables()
        else:
            build_tab(self, self.model.tab)
        self._build_status()

    def band(self, x: float, y: float, w: float, h: float, colour: RGB) -> None:
        """A filled band under the widgets, given at scale 1 like every widget."""
        self.bands.append((*self.box(x, y, w, h), colour))

    def link(self, key: str, x: float, y: float, w: float, h: float, action: Callable[[], object]) -> None:
        """Make the words at this place clickable (their label is drawn separately)."""
        self.links[key] = (arcade.LBWH(*self.box(x, y, w, h)), action)

    def _build_header(self) -> None:
        # The one game's title; the house's name once there is more than one game to choose.
        if several_kinds():
            self.label("GAMES OF 99", 0, 0, 220, 44, 20, bold=True)
        else:
            self.label(kinds.get(kinds.DEFAULT).title, 0, 0, 220, 44, 24, bold=True)
        if self.session is not None:
            words, known = identity_words(self.model.me, getattr(self.session, "key", "") is not None)
            self.label(words, 228, 0, 490, 44, 12, GOOD if known else TEXT_DIM)
        if self.learn_cb is not None:
            self.button("learn", "Learn to play", self._call(self.learn_cb), 1240 - 90 - 8 - 120 - 8 - 130 - 8 - 150,
                         4, 150, 36, bg=CHOSEN)
        self.button("rules", "Rules (F1)", self._call(self.help_cb), 1240 - 90 - 8 - 120 - 8 - 130, 4, 130, 36)
        self.button("settings", "Settings", self._call(self.settings_cb), 1240 - 90 - 8 - 120, 4, 120, 36)
        self.button("quit", "Quit", self._call(self.quit_cb), 1240 - 90, 4, 90, 36)
        self.label("Server", 0, 56, 66, 34, 13, TEXT_DIM)
        self.button("connect", "Connect", self.connect, 340, 56, 110, 34)
        self.button("find", "Find servers", self.find_servers, 458, 56, 140, 34)
        if self.session is None:
            where, colour = "Not connected: type an address, or find servers on your network", TEXT_DIM
        else:
            where, colour = f"Connected to {self.session.endpoint.split('://')[-1]}", GOOD
        self.label(where, 612, 56, 628, 34, 12, colour)
        if self.session is not None and self.local_only:
            # The practice server listens on 127.0.0.1 only: an address for friends would not answer.
            self.label("Practice server, on this machine only. To play with friends: board99 serve",
                        0, 98, 600, 30, 12, TEXT_DIM)
        elif self.session is not None:
            words, reachable = self._friends()
            self.label(words, 0, 98, 600, 30, 12, TEXT if reachable else TEXT_DIM)
        self._build_servers()

    def _build_servers(self) -> None:
        """The servers found, SERVERS_SHOWN at a time with arrows to scroll through every one."""
        servers = self.model.servers
        if not servers:
            return
        first, shown = self.model.servers_shown()
        arrows = len(servers) > SERVERS_SHOWN  # only when there are more than the row shows
        left, width, gap = (648, 277, 6) if arrows else (620, 304, 8)
        for i, info in enumerate(shown):
            addr = f"{info['host']}:{info['port']}"
            trusted = info.get("mark") is not None
            self.button(f"server{first + i}", f"{'★ ' if trusted else ''}{info.get('name', 'server')} · {addr}",
                         partial(self.connect, addr), left + i * (width + gap), 96, width, 32, 11, outlined=trusted)
        if arrows:
            self.button("servers-back", "‹", partial(self.scroll_servers, -SERVERS_SHOWN), 612, 96, 30, 32, 13,
                         disabled=first == 0)
            self.button("servers-ahead", "›", partial(self.scroll_servers, +SERVERS_SHOWN), 1210, 96, 30, 32,
                         13, disabled=first + SERVERS_SHOWN >= len(servers))

    def scroll_servers(self, step: int) -> None:
        """Show the next (or previous) servers found."""
        self.model.scroll_servers(step)
        self.build()

    def _build_you(self) -> None:
        self.label("Your name", 0, 140, 96, 34, 12, TEXT_DIM)
        # Another person at this machine plays under their own name with their own key.
        self.button("play-as", "Play as", self.switch, 256, 140, 72, 34, 11)
        self.label("Your colour", 336, 140, 110, 34, 12, TEXT_DIM)
        for i, colour in enumerate(COLOUR_RGB):
            rgb = side_rgb(colour, self.prefs.palette)
            chosen = colour == self.model.colour
            self.button(f"colour-{colour}", ("✓ " if chosen else "") + colour, self.change(partial(self.model.choose_colour, colour)),
                         452 + i * 100, 140, 92, 34, bg=rgb, fg=text_on(rgb), outlined=chosen)


    def _build_tabs(self) -> None:
        connected = self.session is not None
        x = CARDS_LEFT
        for key, title, width in TABS:
            self.button(f"tab-{key}", title, partial(self.show_tab, key), x, 192, width, 32, 12,
                         chosen=key == self.model.tab)
            x += width + 6
        words, back, ahead = self.model.pager()
        self.label(words, 1240 - 100 - 6 - 82 - 6 - 104 - 6 - 114, 192, 114, 32, 11, TEXT_DIM, align="right")
        self.button("previous", "‹ Previous", self.previous_page, 1240 - 100 - 6 - 82 - 6 - 104, 192, 104, 32,
                     disabled=not back)
        self.button("next", "Next ›", self.next_page, 1240 - 100 - 6 - 82, 192, 82, 32, disabled=not ahead)
        self.button("refresh", "Refresh", self.refresh_now, 1240 - 100, 192, 100, 32, disabled=not connected)

    def _build_tables(self) -> None:
        connected = self.session is not None
        if not self.model.tables:
            self.label("No tables yet: create one on the left." if connected else "Connect to a server first.",
                        CARDS_LEFT, CARDS_TOP + 10, 600, 30, 13, TEXT_DIM)
        kept = self._kept()
        for i, table in enumerate(self.model.tables[:PER_PAGE]):
            x = CARDS_LEFT + (i % 2) * (CARD_W + CARD_GAP)
            y = CARDS_TOP + (i // 2) * (CARD_H + CARD_GAP)
            self._build_card(table, x, y, table.id in kept)

    def _build_card(self, table: TableInfo, x: float, y: float, mine_kept: bool) -> None:
        self.card_rects.append((*self.box(x, y, CARD_W, CARD_H), table))
        open_ = joinable(table)
        state_colour = WARN if mine_kept else GOOD if open_ else TEXT if table.state == "playing" else TEXT_DIM
        marks = badges(table)
        name_w = 260 - 76 * len(marks)  # each mark takes its place from the name, which is shortened
        self.label(table.name, x + 10, y + 6, name_w, 26, 15, bold=True)
        for k, mark in enumerate(marks):
            bx = x + 10 + name_w + 4 + k * 76
            self.band(bx, y + 9, 70, 20, RATED_BADGE if mark == "Rated" else (60, 90, 130))
            self.label(mark, bx, y + 9, 70, 20, 10, (20, 20, 20) if mark == "Rated" else TEXT, bold=True,
                        align="center")
        self.label(state_words(table), x + 274, y + 6, 170, 26, 12, state_colour, align="right")
        kind = kind_of(table)
        setup = setup_words(table, alone=partners_at_some_count(kind))
        options = dict(table.options)
        if several_kinds():  # which game, when there is more than one, and its main options (a rule set)
            setup = " · ".join([kind.title, *face_words(kind, options), setup])
        self.label(setup, x + 10, y + 32, CARD_W - 20, 22, 11, TEXT_DIM)
        # The options changed from what the rule set says, for everyone to see before sitting down.
        house = changed_words(kind, options) if table.options else ()
        partnered = table.sides != table.players
        rows = sides_of(table, self.model.my_colour_for(table), self.my_name())
        # More sides than three lines hold (a card game's players each alone): two to a line, narrower.
        across = 2 if len(rows) > 3 else 1
        for r, side in enumerate(rows):
            line, column = divmod(r, across)
            row_y = y + 58 + line * 28
            left = x + column * (CARD_W // 2)
            self.pegs.append((*self.box(left + 12, row_y, 24, 24)[:2], side.colour, side.side))
            self.label(side.colour.capitalize() if side.colour else f"Side {side.side + 1}",
                        left + 40, row_y, 72 if across == 1 else 56, 26, 12 if across == 1 else 11, bold=True)
            slot_w = 158 if partnered else 330 if across == 1 else 120
            for k, slot in enumerate(side.seats):
                sx = left + (114 if across == 1 else 98) + k * (slot_w + 16)
                if across > 1 and slot.sit_text is not None and slot.sit_text.startswith("Sit here ("):
                    slot = slot._replace(sit_text="Sit")  # the side and its colour are named beside it
                if k:
                    self.label("&", sx - 14, row_y, 14, 26, 12, TEXT_DIM, align="center")
                if slot.sit_text is None:
                    self.label(slot.who, sx + 4, row_y, slot_w - 4, 26, 12,
                                TEXT_DIM if slot.who == "(free)" else TEXT)
                    continue
                # A rated table seats people only, and a kept seat waits for its player: no "+ bot" there.
                people_only = table.rated or bool(table.seats[slot.seat].reserved)
                bot_w = 56 if across == 1 else 50
                self.button(f"sit-{table.id}-{slot.seat}", slot.sit_text, partial(self.sit, table.id, slot.seat),
                             sx, row_y + 1, slot_w - (0 if people_only else bot_w + 4), 25, 11 if across == 1 else 10,
                             bg=CHOSEN)
                if people_only:
                    continue
                self.button(f"bot-{table.id}-{slot.seat}", "+ bot", partial(self.bot, table.id, slot.seat),
                             sx + slot_w - bot_w, row_y + 1, bot_w, 25, 10 if across == 1 else 9)
        if house:
            self.label("house rules: " + ", ".join(house), x + 10, y + CARD_H - 28, CARD_W - 124, 22, 10, WARN)
        else:
            command = f"id {table.id}  ·  board99 bot --table {table.id} --seat N"
            self.label(command, x + 10, y + CARD_H - 28, 270, 22, 10, TEXT_DIM)
        if mine_kept:
            self.button(f"back-{table.id}", "Take my seat back", partial(self.take_back, table.id),
                         x + CARD_W - 176, y + CARD_H - 32, 168, 28, 12, bg=CHOSEN)
        else:
            self.button(f"watch-{table.id}", "Watch", partial(self.spectate, table.id),
                         x + CARD_W - 96, y + CARD_H - 32, 88, 28, 11)

    def _build_status(self) -> None:
        kept = self._kept()
        shown = {t.id for t in self.model.tables}
        elsewhere = [t for t in kept if t not in shown]
        text = self.model.status
        if not text and kept:
            text = "You left a game while it was on: your seat is kept for you until that game ends."
        button = self.model.name_taken or bool(elsewhere)
        self.label(text or " ", 0, 770, 1030 if button else 1240, 26, 13, BAD if self.model.status_bad else WARN)
        if self.model.name_taken:
            self.button("use-name", "Use name", self.use_name, 1240 - 200, 766, 200, 30, 12, bg=CHOSEN)
        elif elsewhere:
            self.button("back-elsewhere", "Take my seat back", partial(self.take_back, elsewhere[0]),
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

    def change(self, intent: Callable[[], object]) -> Callable[[], None]:
        """A click's callback that carries ``intent`` out on the model, then shows the lobby as it is after it."""
        def run() -> None:
            intent()
            self.build()
        return run

    # -- intents ----------------------------------------------------------------------------

    def say(self, text: str, bad: bool = False) -> None:
        """Show one status line at the bottom of the lobby (red when something was refused)."""
        self.model.say(text, bad)
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
                self.model.status = f"Finding servers failed: {exc}"

        threading.Thread(target=listen, name="board99-discover", daemon=True).start()

    def refresh(self) -> None:
        """Ask the server for this page of tables (the cards keep their places)."""
        self._since_refresh = 0.0
        if self.session is None:
            return
        self.model.asked_tables()
        if hasattr(self.session, "lobby_page"):
            self.session.lobby_page(self.model.page * PER_PAGE, PER_PAGE)
        else:
            self.session.list_tables()

    def refresh_now(self) -> None:
        """Ask for the tables and sort them afresh (joinable first) when that reply comes; and the tab's list."""
        self.refresh()
        self.model.asked_tables(sort=True)
        if self.model.tab != "tables":
            self.model.lists.ask(self.session, self.model.tab)
            self.build()

    def next_page(self) -> None:
        """The next page of tables (or of the tab's list)."""
        if self.model.tab != "tables":
            self.model.lists.turn(self.session, self.model.tab, +1)
            self.build()
            return
        self.model.page += 1
        self.refresh_now()

    def previous_page(self) -> None:
        """The previous page of tables (or of the tab's list)."""
        if self.model.tab != "tables":
            self.model.lists.turn(self.session, self.model.tab, -1)
            self.build()
            return
        self.model.page = max(0, self.model.page - 1)
        self.refresh_now()

    def show_tab(self, tab: str) -> None:
        """Show the tables, the leaderboard, the finished games or the tournaments (asking for them afresh)."""
        self.model.show_tab(tab)
        self.model.form.open_house(False)
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
        self.model.lists.history = None
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
        me = self.model.me
        if me is not None and same_name(name, str(me.get("name", ""))):
            self.say(f"You already play as {me.get('name')} here")
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
        refused = self.model.form.refusal()
        if refused:  # the game's own words for what it does not allow; nothing is sent
            self.say(f"This table cannot be made: {refused}", bad=True)
            return
        request = self.model.form.request(self.table_name.text.strip() or "Table")
        self._send_create(request)
        self.say(f"Creating the table {request.name!r}…")

    def _send_create(self, r: CreateRequest) -> None:
        # Only what was chosen beyond every server's fields is sent, so an older server still answers.
        assert self.session is not None
        if not r.default_game:
            game, options = r.game, r.options

            def run(client: object) -> object:
                return client.create_table(r.name, r.players, r.mode, r.clock, match=r.match,  # type: ignore[attr-defined]
                                           rated=r.rated, bot_pace=r.bot_pace, game=game, options=options)

            self.session.call("create_table", run)
        elif r.plain:
            self.session.create_table(r.name, r.players, r.mode, r.clock)
        else:
            self.session.create_table(r.name, r.players, r.mode, r.clock, match=r.match, rated=r.rated,
                                      bot_pace=r.bot_pace)

    def sit(self, table_id: str, seat: int) -> None:
        """Take ``seat`` at ``table_id``: the side's colour if it has one, else the chosen colour if free."""
        if self.session is None:
            return
        table = next((t for t in self.model.tables if t.id == table_id), None)
        colour = self.model.colour_at(table, seat)
        self.session.take_seat(table_id, seat, colour, self.name_input.text.strip() or None)  # type: ignore[arg-type]
        name = table.name if table is not None else table_id
        self.say(f"Asking for a seat at {name!r}…")

    def bot(self, table_id: str, seat: int) -> None:
        """Put a bot of the chosen kind in ``seat``."""
        if self.session is None:
            return
        bot = self.model.bot_for(next((t for t in self.model.tables if t.id == table_id), None))
        self.session.add_bot(table_id, seat, bot)
        self.say(f"Asking for a {bot} bot…")

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
        if self.model.page_emptied(len(page.tables), page.total):
            self.refresh_now()  # the page emptied: show the last one
            return
        self.show_tables(list(page.tables))

    def show_tables(self, tables: list[TableInfo]) -> None:
        """Show these tables: in the lobby's order when the player asked, else each in the place it had."""
        tables = list(tables)[:PER_PAGE]
        if self.session is not None and hasattr(self.session, "forget_ended"):
            self.session.forget_ended(tables)
        if self.model.show_tables(tables, self._kept()):
            self.build()  # (nothing new: the widgets stay, and the pointer's hover)

    def handle(self, msg: Message) -> None:
        """One message from the session."""
        if isinstance(msg, Replied) and msg.op in ("lobby_page", "list_tables"):
            self.model.tables_came()
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
            case Replied("take_seat" | "spectate" | "resume", table) if self.table_cb is not None:
                # The table's own screen (screens.py): the game it plays decides which.
                self.table_cb(kind_of(table).name if isinstance(table, TableInfo) else kinds.DEFAULT)
            case Replied(op, result) if self.model.lists.take(op, result):
                if op == "player_history":
                    self.model.status = ""
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
                self.model.name_taken = False
                if self.session is not None:
                    self.session.name = name  # later refusals name the name now in use
                self.say(f"You play as {name} on this server")
            case Failed(_, "name-bound", _) | Pushed(Notice("name-bound")):
                self.say(name_bound_words(self._refused_name(msg)), bad=True)
            case Failed(_, "name-taken", _) | Pushed(Notice("name-taken")):
                self.model.name_taken = True
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
        if player == self.model.me:
            return
        self.model.me = player
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

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Light the button under the pointer."""
        self.button_set.hover(x, y)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A click's end: the button pressed runs its action if the pointer is still on it."""
        return True if self.button_set.release(x, y) else None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A press on a button, or a click on clickable words (a leaderboard name)."""
        if self.button_set.press(x, y):
            return True
        for rect, action in self.links.values():
            if rect.point_in_rect((x, y)):
                action()
                return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        """The wheel over the servers found scrolls through them."""
        left, bottom, width, height = self.box(612, 96, 628, 32)
        if self.model.servers and left <= x <= left + width and bottom <= y <= bottom + height and (scroll_x or scroll_y):
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
            self.model.found(self._found)
            self._found = None
            status = self.model.status
            self.say(self.model.servers_words() if self.model.servers else
                     (status if status.startswith("Finding servers failed") else
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
        for left, bottom, colour, side in self.pegs:
            cy = bottom + 11 * s  # centred on its row's words, as the peg sat before
            if colour is None:
                arcade.draw_circle_outline(left + 12 * s, cy, 9 * s, TEXT_DIM, 2 * s)
            else:
                arcade.draw_texture_rect(peg_texture(colour, side, self.prefs.palette),
                                         arcade.LBWH(left, cy - 12 * s, 24 * s, 24 * s))
        for left, bottom, width, height, rgb in self.bands:
            arcade.draw_lrbt_rectangle_filled(left, left + width, bottom, bottom + height, rgb)
        self.button_set.draw()
        self.ui.draw()
