"""One browser connection's session on the server: its ClientCore, its screens, what it owes the page and the core.

A ``WebSeat`` is to a web guest what the window's ``Session`` and views are to
a player at the window: it says hello with the page's name and player key,
takes back the kept seat with its token, lists the lobby, creates tables, sits,
watches, adds bots, leaves and asks for rematches, each as the ClientCore
request client/calls.py builds for the window's own client too. What the core
reports (pushes, replies) becomes the typed records of client/gui/messages.py,
which the table's screen (web/screens/, the window's TableState for the
peg-board) turns into scenes. It is sans-IO like the core: the gateway
(web/gateway.py) hands it the page's text frames and the core's frames with the
time, and sends what ``to_core`` and ``to_page`` give. Nothing from the page is
trusted: every frame is checked, and a bad one is answered with a notice naming
the field (docs/web.md, *Scenes*). The core's frames are: they come from the
server core in this very process, so the seat's ClientCore reads them without
field checks (``trusted``; docs/web.md, *What the seat trusts*).
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import deque
from collections.abc import Callable
from itertools import compress, repeat
from operator import is_not
from typing import Any, NamedTuple

import orjson

from board99 import kinds
from board99.client import calls
from board99.client.core import ClientCore, Pending, ServerError
from board99.client.gui.lobby_model import PER_PAGE, REFUSAL_WORDS, REQUEST_WORDS, CreateRequest
from board99.client.gui.messages import Events, Failed, Message, Pushed, Replied, Resumed, StateChanged
from board99.client.gui.palette import COLOUR_RGB
from board99.client.gui.session import KeptSeat, events_of
from board99.client.gui.wording import rating_words
from board99.client.pushes import Completed, Notice, SeatLost, Snapshot, TableChange, Update
from board99.wire.protocol import NAME_MAX
from board99.wire.table_info import TableInfo

from .screens import Command, NoScreen, TableScreen, parts, screen_for, welcome
from .screens.lobby import Lobby

log = logging.getLogger("board99.web")

#: A text frame longer than this is refused (the gateway closes at 16 KiB; this holds without it).
FRAME_MAX = 16 * 1024
#: Requests on their way at once for one page: more are refused until answers come.
PENDING_MAX = 16
NOTICES_MAX = 16  # notices queued for the page (the oldest go first)
KEPT_MAX = 8  # seats left during a game that this connection remembers
LOBBY_EVERY = 3.0  # seconds between the lobby's refreshes while it is shown
#: Bounds on a press: its control id, how many fields, a field's id and its text.
CONTROL_MAX, FIELDS_MAX, FIELD_ID_MAX, FIELD_MAX = 64, 24, 40, 200
KEY_MAX = 16
PLAYER_KEY = re.compile(r"[0-9a-f]{64}")
TOKEN_MAX, TABLE_MAX = 64, 16
#: The page's colours: the window's standard palette (client/gui/palette.py), as CSS.
COLOURS = {name: "#{:02x}{:02x}{:02x}".format(*rgb) for name, rgb in COLOUR_RGB.items()}
PARTS_KNOWN = 64  # parts whose controls are kept read (a scene has a score of parts; the lobby's ids change)
#: Ops whose answers go to the table's screen (as the window's Session posts them).
TABLE_OPS = ("act", "rematch", "add_bot")


class BadFrame(ValueError):
    """A frame from the page that is not what the contract allows: the words name the field."""


class Asked(NamedTuple):
    """A request on its way: its op and what the answer needs to know (the table a resume is for)."""

    op: str
    about: Any = None


class WebSeat:
    """One browser connection: its ClientCore, its screens, what it owes the page and the core."""

    def __init__(self, ident: bytes, host: str, now: float) -> None:
        self.ident, self.host = ident, host
        self._now = now
        #: The connection's protocol state (made at the page's hello, with its name and key).
        self.core: ClientCore | None = None
        self.name = ""
        self.key: str | None = None
        self.lobby = Lobby()
        #: The table's screen while the guest sits at or watches a table.
        self.table: TableScreen | None = None
        self.rules_open = False
        self.kept: dict[str, KeptSeat] = {}  # seats left during a game, by table id (the window's take_back)
        self._asked: dict[Pending, Asked] = {}
        self._latest: StateChanged | None = None
        self._notices: deque[dict] = deque(maxlen=NOTICES_MAX)
        self._keep: dict | None = None  # what the page must store next
        self._welcome_why = ""
        self._hello_ok = False  # the server took the guest's name (and key)
        self._resume: tuple[str, int, str] | None = None  # the page's kept seat, taken back once hello is done
        self._listed_at = -math.inf
        self._sent_parts: dict[str, dict] | None = None  # the parts of the page's scene by id (None: none yet)
        self._sent_head: dict = {}  # ... and its other fields (title, turn, headline, keys, colours)
        #: The last scene sent: what a press or a key may name, looked up in it when one comes (``_control``).
        self._shown: dict | None = None
        #: Each part's own controls by id, with the very part they were read from (a part the screen gave
        #: again is not read again), and each grid's cells' places by id (a board's ids stay as its squares).
        self._part_controls: dict[str, tuple[dict, dict[str, dict]]] = {}
        self._grid_places: dict[str, dict[str, int]] = {}
        #: Whether anything a scene reads may have changed since the last one was built (a frame from the page,
        #: a message from the core), and when the table's scene next changes by time alone (an announcement
        #: ending): until then ``to_page`` builds no scene (docs/web.md, *Scenes*).
        self._dirty = True
        self._due = math.inf
        self._closed = False

    # -- what the gateway calls ------------------------------------------------------------------

    def from_page(self, text: str, now: float) -> None:
        """One JSON text frame from the page (hostile: anything wrong is answered with a notice, never raised)."""
        if self._closed:
            return
        self._now = now
        self._dirty = True
        try:
            self._from_page(text, now)
        except BadFrame as exc:
            self._notice(str(exc), "bad")
        except Exception:  # a fault here must not take the server's loop down with it
            log.exception("event=web-seat-failed host=%s", self.host)
            self._notice("The server could not handle that; it was logged", "bad")

    def from_core(self, frame: bytes | dict, now: float) -> None:
        """One message the core sent to this connection: its frame, or the core's map itself, not packed.

        The loop hands a web connection the map (server/outbox.py keeps it for them): the core in this very
        process made it, so it needs no msgpack round trip (docs/web.md, *What the seat trusts*). It may hold
        tuples where a frame read back holds lists, and it may be shared: the seat reads it, never changes it.
        """
        if self._closed or self.core is None:
            return
        self._now = now
        if type(frame) is dict:
            self.core.receive_message(frame, now)
        else:
            self.core.receive(frame, now)  # type: ignore[arg-type]
        self._guarded(self._drain)

    def tick(self, now: float) -> None:
        """Heartbeats and request deadlines (the core's own), and the lobby's refresh."""
        if self._closed:
            return
        self._now = now
        if self.core is None:
            return
        self.core.tick(now)
        if self._lobby_shown() and now - self._listed_at >= LOBBY_EVERY:
            self._dirty = True
            self._guarded(self._list)
        self._guarded(self._drain)

    def _guarded(self, step: Callable[[], None]) -> None:
        # A fault in a screen must not take the server's loop down: it is logged and the guest told.
        try:
            step()
        except Exception:
            log.exception("event=web-seat-failed host=%s", self.host)
            self._notice("The server could not handle that; it was logged", "bad")

    def next_tick(self) -> float:
        """When ``tick`` is next due."""
        if self._closed or self.core is None:
            return math.inf
        due = self.core.next_tick()
        if self._lobby_shown():
            due = min(due, self._listed_at + LOBBY_EVERY)
        if math.isfinite(self._due):
            # The scene changes by time then (an announcement ends): the gateway ticks the seat, and flushes it.
            # Never sooner than a tenth of a second on: a screen that kept saying "now" must not spin the loop.
            due = min(due, max(self._due, self._now + 0.1))
        return due

    def to_core(self) -> list[bytes]:
        """The frames to hand to the core now (drained)."""
        if self.core is None or self._closed:
            return []
        return [out.frame for out in self.core.outgoing()]

    def to_page(self) -> list[str]:
        """The JSON texts to send to the page now (drained): notices, what to keep, then the scene if it changed."""
        if self._closed:
            return []
        out = [json.dumps({"notice": n}) for n in self._notices]
        self._notices.clear()
        if self._keep is not None:
            out.append(json.dumps({"keep": self._keep}))
            self._keep = None
        if not self._dirty and self._now < self._due:
            return out  # nothing the scene reads changed: the page shows it already
        try:
            scene = self.scene()
        except Exception:  # a screen's fault: the page keeps its last scene, and the fault is logged
            log.exception("event=web-scene-failed host=%s", self.host)
            return out
        self._dirty, self._due = False, self._changes_at()
        text = self._scene_text(scene)
        if text is not None:
            self._shown = scene
            out.append(text)
        return out

    def _scene_text(self, scene: dict) -> str | None:
        """What the page needs of this scene: nothing if it shows the same, else its changes, or it whole.

        The page keeps the last scene it drew. A ``patch`` names the head fields that changed and lists
        every part in order, an unchanged one by its id alone (a scene is mostly the board, which an act
        changes in one or two squares, and the log and the seats, which it changes not at all); a grid
        whose cells are as many as before sends ``null`` for each cell as it was (``cells_kept``). A clock
        part always goes whole: the page counts down from its seconds. The first scene, or one whose
        parts' ids are not all distinct, goes whole (docs/web.md, *Scenes*).
        """
        now_parts: list[dict] = scene["parts"]
        head = scene.copy()
        del head["parts"]
        ids = list(map(dict.get, now_parts, repeat("id")))
        last = self._sent_parts
        changed = last is None or list(last) != ids
        # The ids as the last scene's (most scenes) were found distinct and all text then.
        if last is None or self._sent_head.keys() != head.keys() or (changed and (
                len(set(ids)) != len(ids) or not all(isinstance(i, str) for i in ids))):
            self._sent_parts, self._sent_head = dict(zip(ids, now_parts)), head  # type: ignore[arg-type]
            return _encode({"scene": scene})
        listed: list[dict | str] = []
        for part_id, part in zip(ids, now_parts):
            before = last.get(part_id)  # type: ignore[arg-type]
            if part.get("type") == "clock":
                # The count changes every moment and alone sends nothing; with anything else the clock goes
                # whole, even the very part given before: the page counts down from what it is sent last.
                changed = changed or before is None or {**before, "seconds": None} != {**part, "seconds": None}
                listed.append(part)
            elif before is part or before == part:  # the very part given before (a screen keeps what did not
                listed.append(part_id)  # type: ignore[arg-type]  # change) is found at a glance, before the compare
            else:
                changed = True
                listed.append(_changed_cells(before, part) if part.get("type") == "grid" else part)
        heads = {key: value for key, value in head.items() if self._sent_head[key] != value}
        if not changed and not heads:
            return None
        self._sent_parts, self._sent_head = dict(zip(ids, now_parts)), head  # type: ignore[arg-type]
        return _encode({"patch": {**heads, "parts": listed}})

    def _control(self, control: str) -> dict | None:
        """The last scene's control of this id (a later part's of the same id wins), or None.

        Only the parts with controls are read, from the last one back, until one holds it: a square is
        found at its place in the board's cells, a button among its own row's (docs/web.md, *Scenes*)."""
        scene = self._shown
        if scene is None:
            return None
        with_controls = parts.WITH_CONTROLS
        known = self._part_controls
        for part in reversed(scene["parts"]):
            kind = part.get("type")
            if kind not in with_controls:
                continue  # text, lists, seats, the clock: nothing to press
            if kind == "grid":
                item = self._cell_of(part, control)
            else:
                part_id = part.get("id")
                was = known.get(part_id)
                if was is not None and was[0] is part:
                    own = was[1]
                else:
                    own = parts.controls((part,))
                    if isinstance(part_id, str):
                        _keep(known, part_id, (part, own))
                item = own.get(control)
            if item is not None:
                return item
        return None

    def _cell_of(self, grid: dict, control: str) -> dict | None:
        # A grid's cell of this id (the last of that id, as in a map of them): its place as the grid's cells
        # were last read, checked, else the cells read again (a new grid, or one whose cells moved).
        cells = grid["cells"]
        grid_id = grid.get("id")
        places = self._grid_places.get(grid_id)  # type: ignore[arg-type]
        if places is not None:
            place = places.get(control)
            if place is not None and place < len(cells) and cells[place]["id"] == control:
                return cells[place]
        places = {cell["id"]: place for place, cell in enumerate(cells)}
        if isinstance(grid_id, str):
            _keep(self._grid_places, grid_id, places)
        place = places.get(control)
        return None if place is None else cells[place]

    def closed(self, now: float) -> None:
        """The page went away: nothing more is sent or asked (the server keeps the seat for its token)."""
        self._closed = True
        self._notices.clear()
        self._asked.clear()

    # -- the scene -------------------------------------------------------------------------------------

    def scene(self, now: float | None = None) -> dict:
        """The whole screen now: the welcome, the lobby, the table or its rules page."""
        now = self._now if now is None else now
        if not self._hello_ok and self.table is None:
            scene = welcome.scene(self.name, self._welcome_why)
        elif self.table is not None and self.rules_open:
            title, rules = self.table.rules()
            scene = {"screen": "rules", "title": f"Rules · {APP}", "turn": False,
                     "headline": {"text": title, "tone": "plain"},
                     "keys": [{"key": "escape", "label": "Back to the table"}],
                     "parts": [parts.buttons("rules-nav", "Rules", [parts.button("back", "Back to the table",
                                                                                 primary=True)]), *rules]}
        elif self.table is not None:
            scene = {"screen": "table", **self.table.scene(now)}
        else:
            player = self.core.player if self.core is not None else None
            rating = player.get("rating") if isinstance(player, dict) else None
            scene = self.lobby.scene(self.name, rating_words(rating) if isinstance(rating, int) else None,
                                     self.kept)
        scene["colours"] = COLOURS
        return scene

    def _changes_at(self) -> float:
        # When the scene just built changes by time alone: the table's own say (its announcements' ends); a
        # screen that cannot say is asked every time, as are the welcome, the lobby and the rules page never.
        table = self.table
        if table is None or self.rules_open:
            return math.inf
        changes_at: Callable[[float], float] | None = getattr(table, "changes_at", None)
        return -math.inf if changes_at is None else changes_at(self._now)

    def _lobby_shown(self) -> bool:
        return self._hello_ok and self.table is None

    # -- the page's frames -----------------------------------------------------------------------------

    def _from_page(self, text: str, now: float) -> None:
        if not isinstance(text, str):
            raise BadFrame("frame: the page sends JSON text")
        if len(text) > FRAME_MAX:
            raise BadFrame(f"frame: {len(text)} characters, more than {FRAME_MAX}")
        try:
            msg = orjson.loads(text)  # native: a press is read in a fifth of the standard library's time
        except (ValueError, RecursionError) as exc:
            raise BadFrame(f"frame: not JSON ({str(exc)[:80]})") from None
        if not isinstance(msg, dict):
            raise BadFrame("frame: a JSON object is expected, like {\"press\": \"draw\"}")
        if "hello" in msg:
            _only(msg, ("hello",), "frame")
            self._hello(msg["hello"], now)
        elif "press" in msg:
            _only(msg, ("press", "fields"), "frame")
            control = _text(msg["press"], "press", CONTROL_MAX)
            self._press(control, _fields(msg.get("fields", {})), now)
        elif "key" in msg:
            _only(msg, ("key",), "frame")
            self._key(_text(msg["key"], "key", KEY_MAX), now)
        else:
            named = ", ".join(repr(k)[:40] for k in list(msg)[:4]) or "nothing"
            raise BadFrame(f"frame: expected 'hello', 'press' or 'key', got {named}")

    def _hello(self, hello: object, now: float) -> None:
        if self.core is not None:
            raise BadFrame("hello: this page said hello already (reload the page to start again)")
        if not isinstance(hello, dict):
            raise BadFrame("hello: an object with name, key and seat is expected")
        _only(hello, ("name", "key", "seat"), "hello")
        name = _text(hello.get("name") or "", "hello.name", NAME_MAX).strip()
        key = hello.get("key")
        if key is not None and (not isinstance(key, str) or not PLAYER_KEY.fullmatch(key)):
            raise BadFrame("hello.key: a player key is 64 hex digits (0-9, a-f), or null")
        seat = hello.get("seat")
        self.key = key
        self.core = _core(name or "player", key, now)
        if seat is not None:
            if not isinstance(seat, dict):
                raise BadFrame("hello.seat: an object with table, seat and token is expected, or null")
            _only(seat, ("table", "seat", "token"), "hello.seat")
            number = seat.get("seat")
            if type(number) is not int or not 0 <= number < kinds.most_players():
                raise BadFrame(f"hello.seat.seat: a seat number from 0 to {kinds.most_players() - 1}")
            self._resume = (_text(seat.get("table"), "hello.seat.table", TABLE_MAX), number,
                            _text(seat.get("token"), "hello.seat.token", TOKEN_MAX))
        self.name = name
        if name:
            self._say_hello(now)
        # else the welcome screen asks for a name, and the hello goes with it

    def _say_hello(self, now: float) -> None:
        assert self.core is not None
        self.core.name = self.name
        self._asked[self.core.hello(now, op="hello")] = Asked("hello")

    def _press(self, control: str, fields: dict[str, str], now: float) -> None:
        item = self._control(control)
        if item is None:
            raise BadFrame(f"press: {control!r} is not a control on this screen")
        shown = self._shown
        assert shown is not None
        form = next((f for f in shown["parts"] if f.get("type") == "form" and f["submit"]["id"] == control), None)
        if form is not None:
            _check_form(form, fields)
        elif fields:
            raise BadFrame(f"fields: {control!r} is not a form's button, so it takes no fields")
        if not item.get("enabled", True):
            self._notice(item.get("why") or "Not now", "warn")
            return
        if not self._hello_ok and control == welcome.SUBMIT:
            self._welcome(fields, now)
        elif self.table is not None and self.rules_open:
            self.rules_open = control != "back"
        elif self.table is not None:
            self._carry_out(self.table.press(control, fields, now))
        else:
            self._carry_out(self.lobby.press(control, fields))
        self._after_screen()

    def _key(self, name: str, now: float) -> None:
        shown = self._shown
        if shown is None or not any(k["key"] == name for k in shown["keys"]):
            raise BadFrame(f"key: {name!r} is not a key of this screen")
        if self.table is not None and self.rules_open:
            self.rules_open = name != "escape"
        elif self.table is not None:
            self._carry_out(self.table.key(name, now))
        self._after_screen()

    def _welcome(self, fields: dict[str, str], now: float) -> None:
        name = fields.get(welcome.NAME, "").strip()
        if not name:
            self._welcome_why = "Type a name first"
            self._notice(self._welcome_why, "warn")
            return
        if self.core is None:
            self.core = _core(name, self.key, now)
        self.name = name
        self._welcome_why = ""
        self._say_hello(now)

    # -- carrying out what a screen asked -----------------------------------------------------------

    def _carry_out(self, commands: list[Command]) -> None:
        core = self.core
        if core is None:
            return
        for what, arg in commands:
            try:
                self._command(core, what, arg)
            except ServerError as exc:
                self._notice(exc.message, "bad")

    def _command(self, core: ClientCore, what: str, arg: Any) -> None:
        match what:
            case "notice":
                self._notice(*arg)
            case "list":
                self._list()
            case "create" if isinstance(arg, CreateRequest):
                self._ask(calls.create_table(arg.name, arg.players, arg.mode, arg.clock, None, arg.match,
                                             arg.rated, arg.bot_pace, arg.game, arg.options or None),
                          "create_table")
                self.lobby.say(f"Creating the table {arg.name!r}…")
            case "sit":
                table, seat, colour = arg
                self._ask(calls.take_seat(core, table, seat, colour), "take_seat")
            case "watch":
                self._ask(calls.spectate(core, arg), "spectate")
            case "take_back":
                kept = self.kept.get(arg)
                if kept is None:
                    self._notice("No seat of yours is kept at that table", "warn")
                else:
                    self._ask(calls.resume(core, kept.table, kept.seat, kept.token), "resume", kept.table)
            case "add_bot" if self.table is None:
                table, seat, bot = arg
                self._ask(calls.add_bot(core, table, seat, bot), "add_bot")
            case "add_bot":
                info = core.table
                if info is not None:
                    self._ask(calls.add_bot(core, info.id, arg, self.lobby.model.bot_for(info)), "add_bot")
            case "act":
                view = core.view
                self._ask(calls.act(core, arg, None if view is None else view.ply), "act")
            case "rematch":
                self._ask(calls.rematch(core), "rematch")
            case "rules":
                self.rules_open = True
            case "leave":
                self._leave(core)

    def _leave(self, core: ClientCore) -> None:
        table, seat, token = core.table, core.seat, core.token
        if table is not None and table.state == "playing" and seat is not None and token is not None:
            # The server holds the seat (a bot plays it) until this game ends: the lobby offers it back.
            self.kept[table.id] = KeptSeat(table.id, seat, token, table.game)
            while len(self.kept) > KEPT_MAX:
                del self.kept[next(iter(self.kept))]
        if core.table_id is not None:
            self._ask(calls.leave(core), "leave")
        self.table, self.rules_open, self._latest = None, False, None
        self._keep_seat(None)
        self._list()

    def _ask(self, call: calls.Call, op: str, about: Any = None) -> None:
        core = self.core
        assert core is not None
        if len(self._asked) >= PENDING_MAX:
            self._notice("Too many requests on their way: wait for the answers", "warn")
            return
        pending = core.request(call.kind, call.fields, self._now, call.finish, after=call.after, op=op)
        on_fail = call.on_fail
        if on_fail is not None:
            pending.on_fail = lambda: on_fail(pending)
        self._asked[pending] = Asked(op, about)
        self._drain()

    def _list(self) -> None:
        if self.core is None:
            return
        self._listed_at = self._now
        if any(a.op == "list_tables" for a in self._asked.values()):
            return  # one listing on its way at a time
        self._ask(calls.list_tables(self.lobby.model.page * PER_PAGE, PER_PAGE), "list_tables")

    # -- what the core reports -----------------------------------------------------------------------

    def _drain(self) -> None:
        core = self.core
        if core is None:
            return
        messages = core.messages()
        if messages:
            self._dirty = True  # a heartbeat's pong says nothing: the scene stays as built
        for msg in messages:
            if isinstance(msg, Completed):
                self._completed(msg)
                continue
            if isinstance(msg, SeatLost):
                self._keep_seat(None)
            if self.table is None:
                if isinstance(msg, Notice) and self._hello_ok:
                    self._notice(f"The server says: {msg.message}", "bad")
                continue
            # Each push's own view first, so the screen sees the table in the order it changed (Session's order).
            if isinstance(msg, Update | TableChange | Snapshot) and msg.view is not None:
                latest = self._latest.table if self._latest is not None else None
                self._state(msg.view, msg.info or latest, core.connected)
            events = events_of(msg)
            clock = isinstance(msg, Update) and msg.clock
            self._give(Events(events, clock=clock) if events else Pushed(msg))
        self._after_screen()

    def _completed(self, done: Completed) -> None:
        asked = self._asked.pop(done.pending, None) if done.pending is not None else None
        op = asked.op if asked is not None else done.op
        error = done.error
        if error is not None:
            self._failed(op, asked, getattr(error, "code", type(error).__name__),
                         getattr(error, "message", str(error)))
            return
        result = done.result
        if op == "hello":
            assert self.core is not None
            self._hello_ok, self._welcome_why = True, ""
            self.name = self.core.name
            if self._resume is not None:
                table, seat, token = self._resume
                self._resume = None
                self._ask(calls.resume(self.core, table, seat, token), "resume", "hello")
            elif self.table is None:
                self._list()
            # The seat is not said here: a resume with the page's token may be on its way.
            self._keep = {"key": self.key, "name": self.name}
        elif op == "list_tables":
            page: calls.LobbyPage = result
            self._forget_ended(page.tables)
            if self.lobby.shown(list(page.tables), page.total, self.kept):
                self._list()
        elif op == "create_table":
            self.lobby.say(f"Table {result.name!r} created: take a seat, or put bots in the seats", "good")
            self._list()
        elif op in ("take_seat", "spectate", "resume"):
            self._opened(result, op, asked)
        elif op == "leave":
            self._list()
        elif op in TABLE_OPS and self.table is not None:
            self._state(done.view, done.table, done.connected)
            if op == "act" and result:
                self._give(Events(tuple(result)))  # the server does not push an action back to its actor
            self._give(Replied(op, result))
        elif op == "add_bot":
            self.lobby.say("The bot sits down", "good")
            self._list()

    def _failed(self, op: str, asked: Asked | None, code: str, message: str) -> None:
        if op == "hello":
            self._welcome_why = f"The server refused the name: {message}"
            self.name = ""
            self._notice(self._welcome_why, "bad")
            return
        if op == "resume" and asked is not None and asked.about == "hello":
            self._keep_seat(None)
            self._notice(f"Your seat could not be taken back: {message}", "warn")
            return
        if op in TABLE_OPS and self.table is not None:
            self._give(Failed(op, code, message))
            return
        if op == "list_tables" and code in ("timeout", "rate-limited"):
            return  # the next refresh asks again
        words = REFUSAL_WORDS.get(code, message)
        said = f"The server refused {REQUEST_WORDS.get(op, op)}: {words}"
        self.lobby.say(said, "bad")
        self._notice(said, "bad")

    def _opened(self, info: TableInfo, op: str, asked: Asked | None) -> None:
        core = self.core
        assert core is not None
        try:
            screen = screen_for(info.kind)
        except NoScreen as exc:
            self._notice(str(exc), "bad")
            if core.table_id is not None:
                self._ask(calls.leave(core), "leave")
            return
        self.table = screen(kinds.get(info.kind), self.name, clock=self._clock)
        self.rules_open, self._latest = False, None
        if op == "resume":
            about = asked.about if asked is not None else None
            self.kept.pop(info.id if about == "hello" else str(about), None)
        self._state(core.view, core.table or info, core.connected)
        if op == "resume":
            self._give(Replied("resume", Resumed(info)))
        self._keep_seat(core)

    def _state(self, view: Any, table: TableInfo | None, connected: bool) -> None:
        state = StateChanged(view, table, connected)
        if state != self._latest:
            self._latest = state
            self._give(state)

    def _give(self, msg: Message) -> None:
        if self.table is not None:
            self.table.take(msg)

    def _after_screen(self) -> None:
        # What the table said (notices) and asked (a confirmed offence sent again) since it was last asked.
        table = self.table
        if table is None:
            return
        for text, tone in table.notices():
            self._notice(text, tone)
        queued: Callable[[], list[Command]] | None = getattr(table, "queued", None)
        if queued is not None:
            commands = queued()
            if commands:
                self._carry_out(commands)

    def _forget_ended(self, tables: tuple[TableInfo, ...]) -> None:
        for table in tables:
            kept = self.kept.get(table.id)
            if kept is not None and kept.ended(table):
                del self.kept[table.id]

    # -- what the page keeps and hears ------------------------------------------------------------------

    def _seat_kept(self) -> dict | None:
        core = self.core
        if core is None or core.table_id is None or core.seat is None or core.token is None:
            return None
        return {"table": core.table_id, "seat": core.seat, "token": core.token}

    def _keep_seat(self, core: ClientCore | None) -> None:
        self._keep = {"key": self.key, "name": self.name, "seat": self._seat_kept() if core is not None else None}

    def _notice(self, text: str, tone: str = "plain") -> None:
        if text:
            self._notices.append({"text": text, "tone": tone if tone in parts.TONES else "plain"})

    def _clock(self) -> float:
        return self._now


APP = "board99"


def _core(name: str, key: str | None, now: float) -> ClientCore:
    # Trusted: every frame this core receives was made by the server core in this very process (the gateway
    # hands a seat only what the core addressed to its connection, never anything from the page), so its
    # replies and views are read without the field checks a client of a distant server needs (docs/web.md,
    # *What the seat trusts*). What the page sends is still checked, field by field, above.
    return ClientCore(name=name, key=key, now=now, endpoint="the server", trusted=True)


# -- checking what the page sent ----------------------------------------------------------------------


def _only(msg: dict, allowed: tuple[str, ...], where: str) -> None:
    unknown = [k for k in msg if k not in allowed]
    if unknown:
        named = ", ".join(repr(str(k)[:40]) for k in unknown[:4])
        raise BadFrame(f"{where}: unknown field {named} (allowed: {', '.join(allowed)})")


def _text(value: object, field: str, most: int) -> str:
    if not isinstance(value, str):
        raise BadFrame(f"{field}: text is expected, not {_type_words(value)}")
    if len(value) > most:
        raise BadFrame(f"{field}: {len(value)} characters, at most {most}")
    return value


def _fields(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        raise BadFrame(f"fields: an object of field id to text is expected, not {_type_words(value)}")
    if len(value) > FIELDS_MAX:
        raise BadFrame(f"fields: {len(value)} fields, at most {FIELDS_MAX}")
    out = {}
    for key, text in value.items():
        field = _text(key, "fields", FIELD_ID_MAX)
        out[field] = _text(text, f"fields.{field}", FIELD_MAX)
    return out


def _check_form(form: dict, fields: dict[str, str]) -> None:
    known = {f["id"]: f for f in form["fields"]}
    for field, text in fields.items():
        spec = known.get(field)
        if spec is None:
            raise BadFrame(f"fields: {field!r} is not a field of the form {form['label']!r}")
        if spec["kind"] == "text" and spec["max"] is not None and len(text) > spec["max"]:
            raise BadFrame(f"fields.{field}: {len(text)} characters, at most {spec['max']} ({spec['label']})")
        if spec["kind"] == "select" and text not in {c["value"] for c in spec["choices"]}:
            offered = ", ".join(c["value"] for c in spec["choices"])
            raise BadFrame(f"fields.{field}: {text[:40]!r} is not one of the choices ({offered})")


def _type_words(value: object) -> str:
    return {bool: "true or false", int: "a number", float: "a number", list: "a list", dict: "an object",
            type(None): "null"}.get(type(value), type(value).__name__)


def _changed_cells(before: dict | None, part: dict) -> dict:
    # A grid whose cells are as many as before: each cell as it was goes as null (an act changes a few squares).
    if part.get("type") != "grid" or before is None or before.get("type") != "grid":
        return part
    cells, was = part["cells"], before["cells"]
    if len(cells) != len(was):
        return part
    # Most cells are the very ones sent before (the screen keeps a square's cell while its look stays): they
    # are found at C speed, and only the few others are compared.
    listed: list[dict | None] = [None] * len(cells)
    for place in compress(range(len(cells)), map(is_not, cells, was)):
        now = cells[place]
        if now != was[place]:
            listed[place] = now
    return {**part, "cells": listed, "cells_kept": True}


def patched(scene: dict, patch: dict) -> dict:
    """The scene a page draws after ``patch`` (what web/static/app.js does; tests and benches read scenes so)."""
    parts_by_id = {part.get("id"): part for part in scene.get("parts", ())}

    def part_of(part: dict | str) -> dict:
        if isinstance(part, str):
            return parts_by_id[part]
        if part.get("cells_kept"):
            was = parts_by_id[part["id"]]["cells"]
            part = {key: value for key, value in part.items() if key != "cells_kept"}
            part["cells"] = [then if now is None else now for now, then in zip(part["cells"], was)]
        return part

    return {**scene, **patch, "parts": [part_of(part) for part in patch["parts"]]}


def _keep(cache: dict[str, Any], key: str, value: Any) -> None:
    """``cache[key] = value``, the oldest entry dropped beyond PARTS_KNOWN (the read caches a page's ids can grow)."""
    cache[key] = value
    if len(cache) > PARTS_KNOWN:
        del cache[next(iter(cache))]


def _encode(message: dict) -> str:
    """The page's JSON, compact (orjson: a whole scene in a sixth of the standard library's time)."""
    return orjson.dumps(message).decode()
