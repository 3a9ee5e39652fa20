"""The wire protocol: version, ports, limits, message types, error codes and request checking.

Every message is one msgpack map in one ZeroMQ frame. A request carries
``type`` and a client-chosen ``id`` that the reply echoes; see docs/protocol.md.
Checking here is about shape and types only: whether an action is allowed is
always the game kind's decision, and the settings that are rules (player
counts, modes, a kind's options) are checked by the kind (``board99.kinds``).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from typing import Any

import msgpack

from board99 import kinds
from board99.match_format import MatchFormat
from board99.quote import quote

#: Bumped whenever a message or field changes meaning. 2: game kinds (``create_table``'s ``game`` and
#: ``options``, the table's ``kind``, results as rankings). 3: the peg-board view's board as 100 bytes.
PROTOCOL_VERSION = 3
DEFAULT_PORT = 9099
#: Side colours a seat may pick; no two sides alike.
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
#: Inbound limit: zmq.MAXMSGSIZE on the server socket (a peer sending more is disconnected).
MAX_MESSAGE_SIZE = 64 * 1024
#: msgpack limits for what the server decodes (the library defaults are 100 MiB).
#: (The frame's size is checked against MAX_MESSAGE_SIZE before decoding: unpackb's buffer limit.)
UNPACK_LIMITS = {
    "max_str_len": 4096,
    "max_bin_len": 0,
    "max_array_len": 256,
    "max_map_len": 32,
    "max_ext_len": 0,
}
_STR_MOST, _BIN_MOST, _ARRAY_MOST, _MAP_MOST, _EXT_MOST = (
    UNPACK_LIMITS[k] for k in ("max_str_len", "max_bin_len", "max_array_len", "max_map_len", "max_ext_len"))
#: What a client decodes from a server: generous, but bounded (a record can be long).
CLIENT_MAX_MESSAGE = 16 << 20
CLIENT_UNPACK_LIMITS = {"max_str_len": 8 << 20, "max_bin_len": 1 << 20,
                        "max_array_len": 1 << 16, "max_map_len": 1 << 10, "max_ext_len": 0}
NAME_MAX = 40
#: The name of a connection that chose none: a placeholder, never registered to a player key.
DEFAULT_NAME = "player"
TOKEN_BYTES = 16  # 128 random bits, sent as 32 hex digits
#: A player key: 256 random bits the player's own machine keeps, sent as 64 hex digits.
PLAYER_KEY_BYTES = 32
#: Most entrants (sides) one tournament takes, and most rounds.
TOURNAMENT_SIDES_MAX = 16
TOURNAMENT_ROUNDS_MAX = 10
#: Most entries one page of the leaderboard, the records list or a player's history carries.
LIST_MAX = 100
CLOCK_RANGE = (0.2, 3600.0)  # seconds per turn
GRACE_RANGE = (0.0, 3600.0)  # seconds a lost player's seat is held before a bot plays it
DEFAULT_GRACE = 30.0
#: How fast a table's server bots move, chosen at creation: "quick" (the server's own pause, 0.6 s
#: under `board99 serve`) or "person" (about as long as a person thinks, so a person at the table
#: can act out of turn, as at a real table; practice tables use it). docs/server.md has the seconds.
BOT_PACES = ("quick", "person")
#: Most tables one `list_tables` reply carries (a page); the default page is PAGE_DEFAULT.
PAGE_MAX = 50
PAGE_DEFAULT = 20

#: Server error codes (each game kind's own refusal codes, ``board99.kinds.refusal_codes()``, pass
#: through unchanged).
ERRORS: dict[str, str] = {
    "bad-message": "the frame is not a msgpack map with a text 'type' (or is over the size limits)",
    "bad-identity": "the connection set its own ZeroMQ routing id; the server names connections itself",
    "unknown-type": "the message type is not one the server handles",
    "bad-field": "a field is missing, has the wrong type, or is out of range; the message names it",
    "bad-version": "the client speaks another protocol version",
    "rate-limited": "too many messages from this connection; some were dropped",
    "no-such-table": "there is no table with that id",
    "no-such-seat": "the seat number is not at that table",
    "seat-taken": "someone already sits in that seat",
    "colour-taken": "another side already plays that colour, or the partner's side has another",
    "already-seated": "this connection already holds a seat; leave it first",
    "not-seated": "this connection holds no seat (or no table) for this request",
    "not-your-seat": "this connection holds another seat; it can act only for its own",
    "bad-token": "the seat token is not the one issued for that seat",
    "not-started": "the table is still waiting for players",
    "not-over": "the game at that table is still being played",
    "stale": "the action was chosen on an older position (its 'ply' is not the game's): look again",
    "no-record": "that table has no finished game with that number",
    "no-such-bot": "there is no bot by that name",
    "name-taken": "another player (another player key) has that name on this server",
    "name-bound": "this player key already has another name on this server; a key never takes another name",
    "one-seat": "a rated, match or tournament table seats each player key once, and only in that player's seat",
    "too-many-players": "the server knows as many players as it allows, or this machine made new ones too often",
    "rated-table": "a rated table seats only people who hold a player key: no bots, no guests",
    "seat-reserved": "a tournament keeps that seat for a named player",
    "no-such-player": "no player of that name on this server",
    "no-such-tournament": "there is no tournament with that id",
    "round-unfinished": "the tournament's current round still has matches being played",
    "tournament-over": "the tournament has played all its rounds",
    "match-over": "that tournament match is decided; no more games are played at its table",
    "hints-off": "the coach gives no hints at rated tables and match tables (tournaments' too)",
    "too-many-tables": "the server holds as many tables as it allows, or this connection as many as it may open",
    "too-many-offences": "this seat has committed as many offences as one turn (or one deal) allows",
    "too-often": "this request was made more often than the server allows; the message says when to try again",
    "server-full": "the server serves as many connections as it allows; this one is not served",
    "internal": "the server failed to handle the request; it was logged",
    # Raised by the client library only, never sent by the server:
    "timeout": "(client) no reply within the client's timeout",
    "disconnected": "(client) the server is not reachable right now",
    "bad-server-key": "(client) the server's CURVE key differs from the one expected",
    "no-server": "(client) LAN discovery heard no server (or not the one named)",
    "bad-reply": "(client) the server's reply breaks its schema (wire.replies); the message names the field",
}


def error_codes() -> dict[str, str]:
    """Every code an error reply may carry: the server's and client's (ERRORS), then each installed kind's."""
    return {**ERRORS, **{code: why for code, why in kinds.refusal_codes().items() if code not in ERRORS}}


class ProtocolError(Exception):
    """A request the server answers with an error: a stable ``code`` and a plain ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# -- field checkers: each returns the value or raises ProtocolError naming the field --

Check = Callable[[str, Any], Any]


def _shown(value: Any) -> str:
    return quote(value, width=60)


#: Unicode categories a name may not hold: controls (NUL, newline, ANSI escapes), format characters
#: (zero-width joiners, right-to-left overrides), separators other than the space, and unassigned
#: or private code points. None of them can be shown safely to other players.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def name(limit: int = NAME_MAX) -> Check:
    """A name people see: text normalised to NFC, spaces collapsed, nothing that cannot be shown safely.

    >>> name()("name", "  Ann   Lee ")
    'Ann Lee'
    >>> name()("name", "Ann\u202eeL")
    Traceback (most recent call last):
    ...
    board99.wire.protocol.ProtocolError: name: U+202E cannot be shown safely in a name (a control or format character)
    """
    def check(field: str, value: Any) -> str:
        if type(value) is not str:
            raise _fail(field, f"text of 1-{limit} characters", value)
        text = unicodedata.normalize("NFC", value)
        for ch in text:
            if unicodedata.category(ch) in UNSAFE_CATEGORIES:
                raise ProtocolError("bad-field", f"{field}: U+{ord(ch):04X} cannot be shown safely in a name "
                                                 f"(a control or format character)")
        text = " ".join(text.split())
        if not text or len(text) > limit:
            raise _fail(field, f"text of 1-{limit} characters", value)
        return text
    return check


def _fail(field: str, want: str, value: Any) -> ProtocolError:
    return ProtocolError("bad-field", f"{field}: expected {want}, got {_shown(value)}")


def text(limit: int = NAME_MAX, empty: bool = False) -> Check:
    """A str of at most ``limit`` characters."""
    def check(field: str, value: Any) -> str:
        if type(value) is not str or len(value) > limit or (not empty and not value.strip()):
            raise _fail(field, f"text of 1-{limit} characters", value)
        return value
    return check


def whole(lo: int, hi: int) -> Check:
    """An int (not a bool) from lo to hi."""
    def check(field: str, value: Any) -> int:
        if type(value) is not int or not lo <= value <= hi:
            raise _fail(field, f"a whole number {lo}-{hi}", value)
        return value
    return check


def seconds(lo: float, hi: float) -> Check:
    """A number of seconds (int or float, not bool), finite, from lo to hi."""
    def check(field: str, value: Any) -> float:
        if type(value) not in (int, float) or not math.isfinite(value) or not lo <= value <= hi:
            raise _fail(field, f"seconds from {lo:g} to {hi:g}", value)
        return float(value)
    return check


def one_of(*choices: Any) -> Check:
    """One of ``choices``."""
    def check(field: str, value: Any) -> Any:
        if type(value) is not str or value not in choices:
            raise _fail(field, "one of " + ", ".join(map(repr, choices)), value)
        return value
    return check


def seat() -> Check:
    """A seat number: 0 up to the largest table of any installed game kind (``board99.kinds.most_players``)."""
    def check(field: str, value: Any) -> int:
        hi = kinds.most_players() - 1
        if type(value) is not int or not 0 <= value <= hi:
            raise _fail(field, f"a whole number 0-{hi}", value)
        return value
    return check


def game_kind() -> Check:
    """The name of an installed game kind (``board99.kinds.names``)."""
    def check(field: str, value: Any) -> str:
        if type(value) is not str or value not in kinds.names():
            raise ProtocolError("bad-field", f"{field}: {_shown(value)} is not a game on this server; "
                                             f"choose from {', '.join(kinds.names())}")
        return value
    return check


def options_map() -> Check:
    """A kind's options: a map of option names (text) to values; the kind checks what they may be."""
    def check(field: str, value: Any) -> dict:
        if type(value) is not dict or any(type(k) is not str for k in value):
            raise _fail(field, "a map of option names to values", value)
        return value
    return check


def mapping() -> Check:
    """A map (the action; the game kind's action_from_data checks inside it)."""
    def check(field: str, value: Any) -> dict:
        if type(value) is not dict:
            raise _fail(field, "a map", value)
        return value
    return check


def flag() -> Check:
    """True or false."""
    def check(field: str, value: Any) -> bool:
        if type(value) is not bool:
            raise _fail(field, "true or false", value)
        return value
    return check


def hex_key(size: int) -> Check:
    """``size`` random bytes as 2 x ``size`` lowercase hex digits."""
    def check(field: str, value: Any) -> str:
        if type(value) is not str or len(value) != 2 * size or any(c not in "0123456789abcdef" for c in value):
            raise _fail(field, f"{2 * size} lowercase hex digits", value)
        return value
    return check


def match_format() -> Check:
    """A match length: ``{"kind": "first-to", "target": 1|3|5}`` or ``{"kind": "games", "target": 1-9}``."""
    def check(field: str, value: Any) -> MatchFormat:
        if type(value) is not dict or set(value) != {"kind", "target"} or type(value["target"]) is not int:
            raise _fail(field, "a map of 'kind' and 'target'", value)
        if type(value["kind"]) is not str:  # the format's text() would quote it whole, however deep
            raise _fail(field + ".kind", "'first-to' or 'games'", value["kind"])
        try:
            return MatchFormat(value["kind"], value["target"]).check()
        except ValueError as exc:
            raise ProtocolError("bad-field", f"{field}: {str(exc).removeprefix('match: ')}") from None
    return check


def entrants(players_per_side: int = 2) -> Check:
    """A tournament's sides: 2-16 lists of 1 or 2 names (a name, or 'bot:NAME' for a server bot)."""
    names = name()

    def check(field: str, value: Any) -> list[tuple[str, ...]]:
        if type(value) is not list or not 2 <= len(value) <= TOURNAMENT_SIDES_MAX:
            raise _fail(field, f"a list of 2-{TOURNAMENT_SIDES_MAX} sides", value)
        out = []
        for i, side in enumerate(value):
            if type(side) is not list or not 1 <= len(side) <= players_per_side:
                raise _fail(field, f"side {i} as a list of 1-{players_per_side} names", side)
            try:
                out.append(tuple(names(field, n) for n in side))
            except ProtocolError as exc:
                raise ProtocolError("bad-field", f"{field}: side {i}: {exc.message.removeprefix(field + ': ')}") from None
        return out
    return check


def optional(inner: Check) -> Check:
    """``inner`` or nil."""
    def check(field: str, value: Any) -> Any:
        return None if value is None else inner(field, value)
    return check


#: The longest table id, seat token and ply a request may carry.
TABLE_ID_MOST, TOKEN_MOST, PLY_MOST = 16, 64, 1 << 62
TABLE_ID = text(TABLE_ID_MOST)
TOKEN = text(TOKEN_MOST)
SEAT = seat()

#: Request type -> {field: (checker, required)}. Every request may also carry 'id' (an int).
REQUESTS: dict[str, dict[str, tuple[Check, bool]]] = {
    "hello": {"version": (whole(0, 1 << 31), True), "name": (name(), False),
              "key": (hex_key(PLAYER_KEY_BYTES), False)},
    "ping": {},
    "list_tables": {"offset": (whole(0, 1 << 31), False), "limit": (whole(1, PAGE_MAX), False)},
    "create_table": {
        "name": (name(), True),
        "game": (game_kind(), False),
        "players": (whole(0, 1 << 10), True),  # the count is the kind's to allow (its words say which)
        "mode": (text(20), False),
        "options": (options_map(), False),
        "clock": (optional(seconds(*CLOCK_RANGE)), False),
        "grace": (optional(seconds(*GRACE_RANGE)), False),
        "match": (optional(match_format()), False),
        "rated": (flag(), False),
        "bot_pace": (one_of(*BOT_PACES), False),
    },
    "take_seat": {"table": (TABLE_ID, True), "seat": (SEAT, True), "colour": (optional(one_of(*COLOURS)), False)},
    "add_bot": {"table": (TABLE_ID, True), "seat": (SEAT, True), "token": (TOKEN, False), "bot": (text(20), False)},
    "spectate": {"table": (TABLE_ID, True)},
    "resume": {"table": (TABLE_ID, True), "seat": (SEAT, True), "token": (TOKEN, True)},
    # A seated connection carries its seat token on these too ("every request for a seat carries it").
    "leave": {"token": (TOKEN, False)},
    "rematch": {"token": (TOKEN, False)},
    "snapshot": {"token": (TOKEN, False)},
    "act": {"table": (TABLE_ID, True), "seat": (SEAT, True), "token": (TOKEN, True), "action": (mapping(), True),
            "ply": (whole(0, PLY_MOST), True)},
    "fetch_record": {"table": (TABLE_ID, True), "game": (optional(whole(1, 1 << 31)), False),
                     "whole_match": (flag(), False)},
    "history": {},
    "list_records": {"offset": (whole(0, 1 << 31), False), "limit": (whole(1, LIST_MAX), False),
                     "player": (optional(name()), False)},
    "leaderboard": {"offset": (whole(0, 1 << 31), False), "limit": (whole(1, LIST_MAX), False),
                    "game": (game_kind(), False)},
    "player": {"name": (name(), True), "game": (game_kind(), False)},
    "create_tournament": {"name": (name(), True), "game": (game_kind(), False), "players": (whole(1, 1 << 10), True),
                          "entrants": (entrants(), True), "rounds": (whole(1, TOURNAMENT_ROUNDS_MAX), True),
                          "match": (match_format(), True)},
    "next_round": {"tournament": (TABLE_ID, True), "token": (TOKEN, True)},
    "list_tournaments": {"offset": (whole(0, 1 << 31), False), "limit": (whole(1, PAGE_MAX), False)},
    "hint": {"token": (TOKEN, True)},
}

#: Messages the server sends: replies ('reply', 'error') and pushes ('update', 'table').
SERVER_MESSAGES = ("reply", "error", "update", "table")
#: What a 'table' push says changed.
CHANGES = ("seat-taken", "bot-seated", "started", "seat-left", "presence", "takeover",
           "rematch", "rematch-vote", "closed", "hint")


#: A field's absence, told from a field sent as nil.
_ABSENT: Any = object()


def check_request(msg: Any) -> tuple[str, dict]:
    """(type, fields) of a decoded request; ProtocolError naming what is wrong otherwise.

    The checks run in the order docs/protocol.md gives (*Which error wins*): the message's
    shape, its ``id``, its ``type``, then each field in the order the request lists them.

    >>> check_request({"type": "ping", "id": 7})
    ('ping', {})
    >>> check_request({"type": "ping"})
    Traceback (most recent call last):
    ...
    board99.wire.protocol.ProtocolError: id: missing; every request carries a whole-number id
    """
    if type(msg) is not dict:
        raise ProtocolError("bad-message", "a message is a msgpack map with a 'type' field")
    kind = msg.get("type")
    if type(kind) is not str:
        raise ProtocolError("bad-message", "type: expected the message type as text")
    rid = msg.get("id", _ABSENT)
    if rid is _ABSENT:
        raise ProtocolError("bad-field", "id: missing; every request carries a whole-number id")
    if type(rid) is not int or not -(1 << 63) <= rid < (1 << 64):  # request_id's test, inline: every request
        raise ProtocolError("bad-field", f"id: expected a whole number (64 bits), got {_shown(rid)}")
    if kind == "act":
        quick = _act_at_once(msg)
        if quick is not None:
            return kind, quick
    spec = REQUESTS.get(kind)
    if spec is None:
        raise ProtocolError("unknown-type", f"type: {kind[:40]!r} is not a message type this server handles "
                                            f"(see docs/protocol.md)")
    fields: dict[str, Any] = {}
    for name, (check, required) in spec.items():
        value = msg.get(name, _ABSENT)  # one look-up, not `in` then [] (nil is a value a field may have)
        if value is _ABSENT:
            if required:
                raise ProtocolError("bad-field", f"{name}: missing from '{kind}'")
            continue
        fields[name] = check(name, value)
    if len(msg) != len(fields) + 2:  # 'type', 'id' and the fields read: anything more is no field of the request
        for name in msg:
            if name not in spec and name not in ("type", "id"):
                raise ProtocolError("bad-field", f"{str(name)[:40]}: not a field of '{kind}'")
    settled = SETTINGS_CHECKS.get(kind)
    if settled is not None:
        settled(fields)
    return kind, fields


def _act_at_once(msg: dict) -> dict[str, Any] | None:
    """``act``'s fields when each is as ``REQUESTS["act"]`` wants it, checked in one step; else None.

    Every move a person makes is an ``act``: this is ``check_request``'s answer for a well-formed
    one without a call for each field. Anything it does not accept (a field missing, extra or of
    the wrong type or range) goes through the field-by-field check, whose refusal names the field.
    """
    if len(msg) != 7:  # 'type', 'id' and the five fields
        return None
    table, seat, token, action, ply = (msg.get("table"), msg.get("seat"), msg.get("token"), msg.get("action"),
                                       msg.get("ply"))
    # As text(): text of 1 to the most characters, not only spaces (str.strip() empty <=> "" or isspace()).
    if (type(table) is str and 0 < len(table) <= TABLE_ID_MOST and not table.isspace()
            and type(seat) is int and 0 <= seat < kinds.most_players()
            and type(token) is str and 0 < len(token) <= TOKEN_MOST and not token.isspace()
            and type(action) is dict and type(ply) is int and 0 <= ply <= PLY_MOST):
        return {"table": table, "seat": seat, "token": token, "action": action, "ply": ply}
    return None


#: The longest option name and reason a settings refusal repeats (a kind's own are far shorter).
FIELD_NAME_MOST, REASON_MOST = 40, 240


def table_settings(fields: dict[str, Any]) -> None:
    """``create_table``'s game settings as its kind checks them: ``fields`` gains ``kind`` and ``settings``.

    The game (default ``board99.kinds.DEFAULT``), then the kind's own check of ``players``, ``mode``
    (default: the kind's first mode) and ``options``; a refusal names the field and why.
    """
    kind = kinds.get(fields.get("game", kinds.DEFAULT))
    try:
        settings = kind.check_settings(fields["players"], fields.get("mode", kind.modes[0]), fields.get("options"))
    except kinds.SettingsError as exc:
        # The kind's words, kept short whatever the client sent: an option's name or value may be its own.
        name = exc.field if len(exc.field) <= FIELD_NAME_MOST else "options"
        field = name if name in ("players", "mode", "options") else f"options.{name}"
        why = exc.why if len(exc.why) <= REASON_MOST else exc.why[:REASON_MOST - 3] + "..."
        raise ProtocolError("bad-field", f"{field}: {why}") from None
    fields["kind"], fields["settings"] = kind, settings


#: Request type -> the check of its settings as a whole, after each field's own (``check_request``).
SETTINGS_CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "create_table": table_settings,
}


def request_id(msg: Any) -> int | None:
    """The request's 'id' if it is a usable int, else None."""
    if type(msg) is dict:
        rid = msg.get("id")
        if type(rid) is int and -(1 << 63) <= rid < (1 << 64):
            return rid
    return None


def decode(frame: bytes) -> Any:
    """Decode one inbound frame within the limits; ProtocolError('bad-message') on any fault."""
    if len(frame) > MAX_MESSAGE_SIZE:
        raise ProtocolError("bad-message", f"message of {len(frame)} bytes; the limit is {MAX_MESSAGE_SIZE}")
    try:
        # The limits by name, not **UNPACK_LIMITS: a splat costs a third as much again as the decoding.
        return msgpack.unpackb(frame, raw=False, strict_map_key=True, max_str_len=_STR_MOST, max_bin_len=_BIN_MOST,
                               max_array_len=_ARRAY_MOST, max_map_len=_MAP_MOST, max_ext_len=_EXT_MOST)
    except Exception as exc:  # msgpack raises ValueError, ExtraData, FormatError, StackError, TypeError...
        raise ProtocolError("bad-message", f"not one msgpack value ({type(exc).__name__})") from None


def encode(msg: dict) -> bytes:
    """Encode one outbound message."""
    return msgpack.packb(msg, use_bin_type=True)
