"""The lobby: find a server, see its tables and seats, create a table, sit, add bots, spectate."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

import arcade
import arcade.gui
from arcade.gui import UIBoxLayout, UIFlatButton, UIInputText, UILabel, UIWidget

from board99 import MODES, PLAYER_COUNTS
from board99.wire.table_info import SeatInfo, TableInfo

from .messages import Failed, Message, Pushed, Replied
from .palette import COLOUR_RGB, FONT, TABLE_BG, TEXT, TEXT_DIM, WARN
from .session import Session
from .textures import load_fonts

CLOCK_CHOICES = (None, 15.0, 30.0, 60.0)
MAX_TABLES_SHOWN = 6
REFRESH_SECONDS = 3.0  # the lobby asks for the table list this often, so friends' tables appear
BOT_CHOICES = ("rulebook", "search", "random")  # the server's bots (board99.bots), strongest usual first
#: Error codes that mean the server is not there (rather than that it said no).
UNREACHABLE = ("disconnected", "timeout", "bad-server-key", "connect")


RGB = tuple[int, int, int]


def _rgba(rgb: RGB) -> tuple[int, int, int, int]:
    return (*rgb, 255)


def button_style(bg: RGB = (44, 62, 80), fg: RGB = (255, 255, 255),
                 border: RGB | None = None) -> dict[str, UIFlatButton.UIStyle]:
    """A UIFlatButton style dict in the client's font and colours."""
    style = UIFlatButton.UIStyle
    lighter = (min(255, bg[0] + 30), min(255, bg[1] + 30), min(255, bg[2] + 30))
    return {
        "normal": style(font_name=FONT, font_size=12, font_color=_rgba(fg), bg=_rgba(bg),
                        border=None if border is None else _rgba(border), border_width=3 if border else 0),
        "hover": style(font_name=FONT, font_size=12, font_color=_rgba(fg), bg=_rgba(lighter),
                       border=(230, 230, 230, 255), border_width=2),
        "press": style(font_name=FONT, font_size=12, font_color=(20, 20, 20, 255), bg=(236, 240, 241, 255)),
        "disabled": style(font_name=FONT, font_size=12, font_color=(190, 190, 190, 255), bg=(90, 100, 100, 255)),
    }


CHOSEN = (39, 174, 96)  # the background of the chosen option in a row of choices


def on_click(button: UIFlatButton, action: Callable[[], object]) -> None:
    """Run ``action`` when ``button`` is clicked."""
    @button.event("on_click")
    def clicked(_event: object) -> None:
        action()


def label(text: str, size: int = 12, color=TEXT, bold: bool = False, width: int | None = None,
          multiline: bool = False) -> UILabel:
    """A text label in the client's font."""
    return UILabel(text=text, font_name=FONT, font_size=size, text_color=color, bold=bold,
                   width=width, multiline=multiline)


def table_summary(table: TableInfo) -> str:
    """One line describing a table: name, player count, mode, clock, state."""
    clock = f"turn clock {table.clock:g} s" if table.clock else "no clock"
    return f"{table.name} — {table.players} players · {table.mode} · {clock} · {table.state}"


def seat_text(seat: SeatInfo) -> str:
    """A seat's button text: who sits there, or that it is free."""
    if seat.free:
        return f"S{seat.seat}: free" + (f" ({seat.colour})" if seat.colour else "")
    who = seat.name or seat.occupant
    tag = " (bot)" if seat.bot else ("" if seat.connected else " (away)")
    return f"S{seat.seat}: {who}{tag}"


class LobbyView(arcade.View):
    """Servers, tables and seats; everything asked of the server goes through the session."""

    def __init__(self, session: Session | None = None, *, address: str = "",
                 on_connect: Callable[[str], object] | None = None, on_table: Callable[[], object] | None = None,
                 discover: Callable[[], list[dict]] | None = None, name: str = "player") -> None:
        super().__init__()
        load_fonts()
        self.session = session
        self.connect_cb = on_connect
        self.table_cb = on_table
        self.discover_fn = discover
        self.tables: list[TableInfo] = []
        self.servers: list[dict] = []
        self.players, self.mode, self.clock = PLAYER_COUNTS[0], MODES[0], None
        self.colour = "red"
        self.bot_name = BOT_CHOICES[0]
        self.selected: tuple[str, int] | None = None
        self.status = ""
        self._found: list[dict] | None = None
        self._since_refresh = 0.0
        self.ui = arcade.gui.UIManager()
        self.root = UIBoxLayout(vertical=True, align="left", space_between=12)
        self.ui.add(arcade.gui.UIAnchorLayout()).add(self.root, anchor_x="left", anchor_y="top",
                                                      align_x=20, align_y=-16)
        self.address = UIInputText(text=address, width=320, height=32, font_name=FONT, font_size=13)
        self.name_input = UIInputText(text=name, width=200, height=32, font_name=FONT, font_size=13)
        self.table_name = UIInputText(text="Table", width=200, height=32, font_name=FONT, font_size=13)
        self.build()

    # -- building the widget tree ---------------------------------------------------------

    def _button(self, text: str, action: Callable[[], None], width: int = 150, bg: RGB = (44, 62, 80),
                chosen: bool = False, disabled: bool = False, fg: RGB = (255, 255, 255)) -> UIFlatButton:
        b = UIFlatButton(text=text, width=width, height=32,
                         style=button_style(CHOSEN if chosen else bg, fg, border=(255, 255, 255) if chosen else None))
        on_click(b, action)
        b.disabled = disabled
        return b

    def _row(self, *children) -> UIBoxLayout:
        row = UIBoxLayout(vertical=False, space_between=8)
        for c in children:
            row.add(c)
        return row

    def _layout(self) -> None:
        # Fixed rows hold the text inputs (they must never be removed and re-added);
        # the boxes between them are rebuilt by build() whenever the lobby changes.
        box = self._box
        root = self.root
        root.add(label("GAME OF 99 — lobby", 22, bold=True))
        self.server_box = root.add(box())
        self.found_box = root.add(box())
        self.you_box = root.add(box())
        root.add(label("Create a table", 15, bold=True))
        self.options_box = root.add(box())
        self.create_box = root.add(box())
        self.tables_box = root.add(UIBoxLayout(vertical=True, align="left", space_between=6))
        self.pick_box = root.add(box())
        self.status_box = root.add(box())

    @staticmethod
    def _box() -> UIBoxLayout:
        return UIBoxLayout(vertical=False, space_between=8)

    def _fill(self, box: UIBoxLayout, *children) -> None:
        # Inputs are taken out of the old row before clear(), then put back in the new one.
        for child in list(box.children):
            box.remove(child)
        for child in children:
            box.add(child)

    def build(self) -> None:
        """Rebuild the changing widgets from the lobby's state (cheap: a few dozen widgets)."""
        if not hasattr(self, "server_box"):
            self._layout()
        connected = self.session is not None
        server = self.session.endpoint if self.session is not None else "not connected"
        self._fill(self.server_box, label("Server", 13, TEXT_DIM, width=70), self.address,
                   self._button("Connect", self.connect, 110),
                   self._button("Find servers", self.find_servers, 140),
                   label(f"now: {server}", 12, TEXT_DIM))
        found: list[UIWidget] = []
        if self.servers:
            found.append(label("Found on the LAN:", 12, TEXT_DIM))
            for server_info in self.servers[:4]:
                addr = f"{server_info['host']}:{server_info['port']}"
                found.append(self._button(f"{server_info.get('name', 'server')} {addr}",
                                          partial(self.connect, addr), 320))
        self._fill(self.found_box, *found)
        row: list[UIWidget] = [label("Your name", 13, TEXT_DIM, width=96), self.name_input,
                               label("  Your colour", 13, TEXT_DIM)]
        for colour, rgb in COLOUR_RGB.items():
            fg = (20, 20, 20) if sum(rgb) > 450 else (255, 255, 255)
            row.append(self._colour_button(colour, rgb, fg))
        self._fill(self.you_box, *row)
        choices: list[UIWidget] = [label("Players", 12, TEXT_DIM, width=60)]
        choices += [self._button(str(n), partial(self._choose, players=n), 44, chosen=n == self.players)
                    for n in PLAYER_COUNTS]
        choices.append(label("  Mode", 12, TEXT_DIM, width=50))
        choices += [self._button(m, partial(self._choose, mode=m), 100, chosen=m == self.mode)
                    for m in MODES]
        choices.append(label("  Turn clock", 12, TEXT_DIM, width=100))
        choices += [self._button("off" if c is None else f"{c:g} s", partial(self._choose, clock=c), 64,
                                 chosen=c == self.clock) for c in CLOCK_CHOICES]
        self._fill(self.options_box, *choices)
        self._fill(self.create_box, label("Name", 12, TEXT_DIM, width=60), self.table_name,
                   self._button("Create table", self.create, 160, disabled=not connected))
        rows: list[UIWidget] = [self._row(label("Tables", 15, bold=True),
                          self._button("Refresh", self.refresh, 110, disabled=not connected))]
        if not self.tables:
            rows.append(label("No tables yet: create one above." if connected else "Connect to a server first.",
                              12, TEXT_DIM))
        for table in self.tables[:MAX_TABLES_SHOWN]:
            rows.append(label(table_summary(table), 13, TEXT))
            seats: list[UIWidget] = []
            for seat in table.seats:
                pick = (table.id, seat.seat)
                seats.append(self._button(seat_text(seat), partial(self._select, pick), 150,
                                          chosen=pick == self.selected, disabled=not seat.free))
            seats.append(self._button("Spectate", partial(self.spectate, table.id), 110))
            rows.append(self._row(*seats))
        if len(self.tables) > MAX_TABLES_SHOWN:
            rows.append(label(f"... and {len(self.tables) - MAX_TABLES_SHOWN} more tables", 12, TEXT_DIM))
        self.tables_box.clear()
        for r in rows:
            self.tables_box.add(r)
        names = {t.id: t.name or t.id for t in self.tables}
        picked = (f"Seat S{self.selected[1]} at {names.get(self.selected[0], self.selected[0])!r} picked"
                  if self.selected else "Pick a free seat above")
        self._fill(self.pick_box, label(picked, 13, WARN, width=340),
                   self._button("Sit here", self.sit, 140, disabled=self.selected is None),
                   self._button("Put a bot here", self.bot, 160, disabled=self.selected is None),
                   label("  bot:", 12, TEXT_DIM),
                   *[self._button(b, partial(self._choose, bot_name=b), 96, chosen=b == self.bot_name)
                     for b in BOT_CHOICES])
        self._fill(self.status_box, label(self.status or " ", 13, WARN, width=1100, multiline=True))

    def _colour_button(self, colour: str, rgb: RGB, fg: RGB) -> UIFlatButton:
        chosen = colour == self.colour
        b = UIFlatButton(text=("✓ " if chosen else "") + colour, width=92, height=32,
                         style=button_style(rgb, fg, border=(255, 255, 255) if chosen else None))
        on_click(b, lambda: self._choose(colour=colour))
        return b

    def _choose(self, **changes) -> None:
        for key, value in changes.items():
            setattr(self, key, value)
        self.build()

    def _select(self, pick: tuple[str, int]) -> None:
        self.selected = pick
        self.build()

    # -- intents ----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Show one status line at the bottom of the lobby."""
        self.status = text
        self.build()

    def connect(self, address: str | None = None) -> None:
        """Connect to the typed (or a found) server."""
        address = (address or self.address.text).strip()
        if not address:
            self.say("Type a server address (host or host:port) first")
            return
        if self.connect_cb is not None:
            self.connect_cb(address)

    def find_servers(self) -> None:
        """Listen for LAN servers in the background (discovery takes about a second)."""
        if self.discover_fn is None:
            self.say("Discovery is not available here")
            return
        self.say("Looking for servers on the LAN…")
        found_fn = self.discover_fn

        def listen() -> None:
            try:
                self._found = found_fn()
            except Exception as exc:
                self._found = []
                self.status = f"Discovery failed: {exc}"

        threading.Thread(target=listen, name="board99-discover", daemon=True).start()

    def refresh(self) -> None:
        """Ask the server for its tables."""
        self._since_refresh = 0.0
        if self.session is not None:
            self.session.list_tables()

    def create(self) -> None:
        """Create a table with the chosen players, mode and clock."""
        if self.session is None:
            self.say("Connect to a server first")
            return
        name = self.table_name.text.strip() or "Table"
        self.session.create_table(name, self.players, self.mode, self.clock)
        self.say(f"Creating table {name!r}…")

    def sit(self) -> None:
        """Take the picked seat with the chosen colour."""
        if self.session is None or self.selected is None:
            return
        table_id, seat = self.selected
        side_colour = next((t.seats[seat].colour for t in self.tables if t.id == table_id), None)
        # Partners share one colour: a side that already has one keeps it (the server insists).
        colour = side_colour or self.colour
        self.session.take_seat(table_id, seat, colour, self.name_input.text.strip() or None)
        note = f" (your side already plays {colour})" if side_colour and side_colour != self.colour else ""
        self.say(f"Asking for seat S{seat}…{note}")

    def bot(self) -> None:
        """Put a bot in the picked seat."""
        if self.session is None or self.selected is None:
            return
        self.session.add_bot(self.selected[0], self.selected[1], self.bot_name)
        self.selected = None
        self.say(f"Asking for a {self.bot_name} bot…")

    def spectate(self, table: str) -> None:
        """Watch a table."""
        if self.session is not None:
            self.session.spectate(table)

    # -- messages ---------------------------------------------------------------------------

    def show_tables(self, tables: list[TableInfo]) -> None:
        """Show the server's tables (a list_tables reply, already in the lobby's order: joinable first, newest first)."""
        tables = list(tables)
        if tables == self.tables:
            return  # the periodic refresh found nothing new: keep the widgets
        self.tables = tables
        if self.selected and not any(t.id == self.selected[0] for t in self.tables):
            self.selected = None
        self.build()

    def handle(self, msg: Message) -> None:
        """One message from the session."""
        match msg:
            case Replied("list_tables", tables):
                self.show_tables(tables)
            case Replied("create_table", table):
                self.say(f"Table {table.name!r} created: pick a seat")
                self.refresh()
            case Replied("add_bot"):
                self.say("Bot seated")
                self.refresh()
            case Replied("take_seat" | "spectate") if self.table_cb is not None:
                self.table_cb()
            case Failed(_, code, message) if code in UNREACHABLE:
                self.say(f"Cannot reach the server ({code}): {message}")
            case Failed(op, code, message):
                self.say(f"Server refused {op} ({code}): {message}")
            case Pushed():
                self.refresh()

    # -- arcade callbacks -------------------------------------------------------------------

    def on_show_view(self) -> None:
        """Enable the widgets and ask for the tables."""
        self.ui.enable()
        self.refresh()

    def on_hide_view(self) -> None:
        """Disable the widgets."""
        self.ui.disable()

    def on_update(self, delta_time: float) -> None:
        """Take the session's messages and the discovery result; ask for the tables now and then."""
        self._since_refresh += delta_time
        if self._since_refresh >= REFRESH_SECONDS:
            self.refresh()
        if self.session is not None:
            for msg in self.session.drain():
                self.handle(msg)
        if self._found is not None:
            self.servers, self._found = self._found, None
            self.say(f"{len(self.servers)} server(s) found" if self.servers else
                     (self.status if self.status.startswith("Discovery failed") else "No servers answered"))

    def on_draw(self) -> None:
        """Draw the widgets on the baize."""
        self.clear(color=TABLE_BG)
        self.ui.draw()
