"""What a table's card in the lobby says: its state, sides, seats and partners in a player's words (pure).

No arcade here: lobby_view.py draws these words; the tests read them directly.

>>> ann = SeatInfo(0, 0, "red", "human", "Ann", True, False)
>>> free = [SeatInfo(i, i % 2, None, None, None, False, False) for i in (1, 2, 3)]
>>> t = TableInfo("t1", "Friday four", 4, "guarded", None, 30.0, "waiting", 1, (), None, 0, (ann, *free))
>>> [side.title for side in sides_of(t)]
['Red: Ann & (free)', 'Side 2: (free) & (free)']
>>> state_words(t)
'Open · 3 seats free'
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import NamedTuple

from board99.wire.table_info import SeatInfo, TableInfo

from .lobby_lists import match_words
from .wording import rating_words


class SeatSlot(NamedTuple):
    """One seat on a card: who is there (or that it is free), and whether a player may sit there now."""

    seat: int
    who: str  # "Ann", "rulebook bot", "(free)"
    sit_text: str | None  # the button's words for a free seat one may take ("Sit with Ann"), else None


class SideRow(NamedTuple):
    """One side on a card: its colour (None until one of its seats chose one) and its seats (partners)."""

    side: int
    colour: str | None
    title: str  # "Red: Ann & (free)"
    seats: tuple[SeatSlot, ...]


def plural(n: int, word: str) -> str:
    """'1 player', '3 players'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def who_sits(seat: SeatInfo) -> str:
    """A seat's occupant in words: a name (and rating), a bot, someone away or gone, a kept seat, or (free)."""
    if seat.free:
        return f"kept for {seat.reserved} (tournament)" if seat.reserved else "(free)"
    name = seat.name or ("bot" if seat.bot else "a player")
    if seat.bot:
        name = name if name.endswith("bot") else f"{name} bot"
    if seat.rating is not None:
        name = f"{name} · {rating_words(seat.rating)}"  # beside the name, so a rated table shows who is favoured
    if seat.bot:
        return name
    if seat.left:
        return f"{name} (left)"  # a bot plays the seat until the game ends
    if seat.standin:
        return f"{name} (away)"
    return name if seat.connected else f"{name} (away)"


def state_words(table: TableInfo) -> str:
    """The table's state as a player says it."""
    if table.state == "waiting":
        return f"Open · {plural(len(table.free_seats()), 'seat')} free"
    if table.state == "playing":
        game = f"Playing game {table.game}" if table.game > 1 else "Playing"
        return game  # a kept seat shows in the card's colour and its "Take my seat back" button
    return "Finished"


#: How the lobby names each bot pace (wire.protocol.BOT_PACES): on the new-table form's buttons, and on a
#: card. A card says nothing of the quick pace, every table's before paces existed: its line is full already.
PACE_WORDS = {"quick": ("quick", ""), "person": ("like a person", "person-paced bots")}


def pace_words(pace: str, on_card: bool = False) -> str:
    """A bot pace in words: the form's button ("like a person"), or a card's ("person-paced bots"; quick: "")."""
    button, card = PACE_WORDS.get(pace, (pace, f"{pace} bots"))
    return card if on_card else button


def setup_words(table: TableInfo, alone: bool = True) -> str:
    """Players, partnerships, mode, clock and (where bots may sit) their pace in one line.

    ``alone`` False: the game has no partners at any count, so "alone" would say nothing ("4 players").
    """
    # A rated table seats no bots, so its pace says nothing.
    pace = "" if table.rated or not pace_words(table.bot_pace, True) else " · " + pace_words(table.bot_pace, True)
    if table.sides == table.players:
        who = f"{table.players} players alone" if alone else f"{table.players} players"
    else:
        who = f"{table.players} players in {table.sides} teams of two"
    clock = f"{table.clock:g} s a turn" if table.clock else "no clock"
    watching = f" · {table.spectators} watching" if table.spectators else ""
    if table.match is not None:
        # The match and its score lead the line; the rest is said shorter to leave them room.
        who = f"{table.players} alone" if table.sides == table.players else f"{table.players} in pairs"
        clock = f"{table.clock:g} s" if table.clock else "no clock"
        return f"{match_words(table)} · {who} · {table.mode} · {clock}{pace}{watching}"
    return f"{who} · {table.mode} · {clock}{pace}{watching}"


def joinable(table: TableInfo) -> bool:
    """A player may sit here now: the table waits for players and has a free seat."""
    return table.state == "waiting" and bool(table.free_seats())


def sides_of(table: TableInfo, my_colour: str | None = None, me: str | None = None) -> tuple[SideRow, ...]:
    """The table's sides in seat order, each with its seats (partners sit opposite: seats s and s + sides).

    A seat a tournament keeps is offered only to the player it is kept for (``me``, compared as the
    server compares names: case does not matter).
    """
    rows = []
    for side in range(table.sides):
        seats = [s for s in table.seats if s.side == side]
        colour = table.side_colour(side)
        name = colour.capitalize() if colour else f"Side {side + 1}"
        slots = []
        for seat in seats:
            sit = None
            if seat.reserved and seat.free and joinable(table):
                mine = me is not None and seat.reserved.casefold() == me.strip().casefold()
                sit = "Sit here (kept for you)" if mine else None
            elif seat.free and joinable(table):
                partners = [p.name or who_sits(p) for p in seats if p is not seat and not p.free]
                if partners:
                    sit = f"Sit with {partners[0]}"
                elif len(seats) > 1:
                    sit = "Sit here"  # the side's row names its colour; a new side's colour is yours or the server's
                else:
                    sit = f"Sit here ({colour or my_colour or 'a free colour'})"
            slots.append(SeatSlot(seat.seat, who_sits(seat), sit))
        rows.append(SideRow(side, colour, f"{name}: " + " & ".join(s.who for s in slots), tuple(slots)))
    return tuple(rows)


def lobby_order(tables: list[TableInfo], kept: set[str]) -> list[TableInfo]:
    """Tables where the player's seat is kept first, then joinable ones, then the rest (the server's order within)."""
    def rank(t: TableInfo) -> int:
        return 0 if t.id in kept else 1 if joinable(t) else 2 if t.state == "playing" else 3
    return sorted(tables, key=rank)


def keep_places(shown: list[str], tables: list[TableInfo]) -> list[TableInfo]:
    """``tables`` arranged so each one already ``shown`` keeps its place; new ones fill gaps, then follow.

    A periodic refresh uses this, so a card never slides from under the pointer.

    >>> seats = tuple(SeatInfo(i, i, None, None, None, False, False) for i in (0, 1))
    >>> a, b, c = (TableInfo(i, i, 2, "guarded", None, 30.0, "waiting", 1, (), None, 0, seats) for i in "abc")
    >>> [t.id for t in keep_places(["a", "b"], [c, b])]
    ['c', 'b']
    """
    by_id = {t.id: t for t in tables}
    new = [t for t in tables if t.id not in shown]
    out: list[TableInfo] = []
    for table_id in shown:
        if table_id in by_id:
            out.append(by_id[table_id])
        elif new:
            out.append(new.pop(0))
    return out + new


def friends_address(endpoint: str) -> str:
    """What friends type after `board99 join` to reach the server at ``endpoint``.

    A server on this machine (a loopback endpoint) is reached through this machine's LAN address.

    >>> friends_address("tcp://192.168.1.20:9099")
    '192.168.1.20:9099'
    """
    hostport = endpoint.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":")
    if _is_loopback(host):
        host = lan_address() or host
    return f"{host}:{port}"


def port_open(host: str, port: int, timeout: float = 0.3) -> bool:
    """Whether something accepts TCP connections at ``host``:``port`` (a connect, closed at once; nothing sent)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def friends_line(endpoint: str, probe: Callable[[str, int], bool] = port_open) -> tuple[str, bool]:
    """The lobby's line for friends, and whether it is an address they can use.

    A server reached through this machine's loopback is offered at this machine's LAN address only
    if it answers there: a server started with ``--bind 127.0.0.1`` listens on this machine alone.

    >>> friends_line("tcp://192.168.1.20:9099")
    ('Friends join with:  board99 join 192.168.1.20:9099', True)
    >>> friends_line("tcp://127.0.0.1:9099", probe=lambda host, port: False)[0]
    'Friends cannot join: this server listens on this machine only'
    """
    host, _, port = endpoint.split("://", 1)[-1].rpartition(":")
    address = friends_address(endpoint)
    lan = address.rpartition(":")[0]
    if _is_loopback(host) and (_is_loopback(lan) or not (port.isdigit() and probe(lan, int(port)))):
        return "Friends cannot join: this server listens on this machine only", False
    return f"Friends join with:  board99 join {address}", True


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def lan_address() -> str | None:
    """This machine's address on its LAN (the one its default route uses), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 9))  # a UDP connect sends nothing; it only picks a route
            return probe.getsockname()[0]
        except OSError:
            return None
