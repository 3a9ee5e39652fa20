"""Helpers for the Ninety-Nine server tests: clients that play their seats soundly, bounded in time.

Every loop here is bounded in count and time; nothing talks to anything but 127.0.0.1.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence

from board99.client.net import GameClient, ServerError
from board99.ninety_nine.cards import is_card
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.view import NinetyView

#: Refusals a client may meet in the ordinary course of a game over the wire: a push on its way (stale), a
#: server that has just restarted and not yet seen the client's resume (not-your-seat), a link being re-made, a
#: game that ended while a late draw was on its way (game-over).
PASSING = ("stale", "not-your-seat", "out-of-turn", "no-draw-owed", "game-over", "timeout", "disconnected")


#: What a ``choose`` gives for "not now": the seat does nothing this time round (a draw it owes it may forget).
WAIT = object()


def to_act(client: GameClient) -> bool:
    """True when ``client``'s seat has something to do: its turn to play, or a draw it still owes."""
    view = client.view
    return (isinstance(view, NinetyView) and client.table is not None and client.table.state == "playing"
            and view.seat is not None and (view.my_turn or view.may_draw))


def play_until(clients: Sequence[GameClient], done: Callable[[], bool], seconds: float = 60.0,
               bot: str = "sound", choose: Callable[[GameClient, NinetyView], object | None] | None = None,
               idle: Sequence[GameClient] = ()) -> None:
    """Each client plays its seat with ``bot`` (``choose`` first, where it gives an action or ``WAIT``) until ``done()``;
    the ``idle`` clients only listen (they answer the server's pings but never act)."""
    bots = [NINETY_NINE.bots[bot](seed=n) for n in range(len(clients))]
    deadline = time.monotonic() + seconds
    while True:
        for c in (*clients, *idle):
            c.poll(0.003)
        if done():
            return
        assert time.monotonic() < deadline, "the game did not get there in time"
        for c, b in zip(clients, bots):
            if not to_act(c):
                continue
            view = c.view
            assert isinstance(view, NinetyView)
            action = choose(c, view) if choose is not None else None
            if action is WAIT:
                continue
            try:
                c.act(action if action is not None else b.choose(view))
            except ServerError as exc:
                assert exc.code in PASSING, exc
                c.poll(0.05)  # an old view: listen before trying again


def wait_for(clients: Sequence[GameClient], done: Callable[[], bool], seconds: float = 20.0) -> None:
    """Poll every client until ``done()`` (bounded in time); nobody acts."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "it did not happen in time"
        for c in clients:
            c.poll(0.01)


def over(client: GameClient) -> Callable[[], bool]:
    """A ``done`` for ``play_until``: the client's table has finished its game."""
    return lambda: client.table is not None and client.table.state == "over"


# -- hidden information -----------------------------------------------------------------

#: Fields that may hold a card: a view's hand and top card, an event's card (checked by the event's kind).
_DRAW_LINE = re.compile(r"S(\d) draws (\S+)")
#: Events whose card was played face up for everyone to see.
_FACE_UP = frozenset({"played", "turned-up", "busted"})
#: Field names that would carry the deal's secrets.
_SECRET_FIELDS = frozenset({"seed", "stock", "deck", "hands"})


def hands_by_ply(record_text: str) -> dict[int, list[list[str]]]:
    """ply -> every seat's hand after that many actions (the state after the action's last line), by replay."""
    hands: dict[int, list[list[str]]] = {}
    for _, _, game in NINETY_NINE.replay_record(record_text):
        hands[game.ply] = [sorted(game.hand(s)) for s in range(game.players)]
    return hands


def ninety_leaks(messages: Sequence[dict], seat: int | None, hands: dict[int, list[list[str]]],
                 seed: int) -> list[str]:
    """Every place in ``messages`` (received by ``seat``; None a spectator) that shows a card ``seat`` may not
    know: a hand not its own, a drawn card not its own, a card in any field that is not a face-up card; or the
    seed, or a field named for the stock or the deck."""
    found: list[str] = []

    def walk(value: object, path: str, key: str) -> None:
        if isinstance(value, dict):
            for k in value:
                if k in _SECRET_FIELDS:
                    found.append(f"{path}.{k}: a field named {k!r} is sent")
            if type(value.get("ply")) is int and "hand" in value:  # a view
                ply, hand = value["ply"], value["hand"]
                if seat is None or value.get("seat") != seat:
                    if hand is not None:
                        found.append(f"{path}.hand: a hand shown to {'a spectator' if seat is None else f'S{seat}'}")
                elif value.get("deal") == 0:  # the table waits for players: nothing dealt
                    if hand != []:
                        found.append(f"{path}.hand: {hand} before the deal")
                elif ply in hands and (not isinstance(hand, list | tuple) or sorted(hand) != hands[ply][seat]):
                    found.append(f"{path}.hand: {hand} is not S{seat}'s hand at ply {ply} ({hands[ply][seat]})")
            kind = value.get("kind")
            for k, v in value.items():
                if k == "card" and (kind in _FACE_UP or (key == "action" and value.get("type") == "play")):
                    continue  # played face up (an action carried out is told to everyone with its events)
                if k == "card" and kind == "drew":
                    if v is not None and value.get("seat") != seat:
                        found.append(f"{path}.card: S{value.get('seat')}'s drawn card {v} shown")
                    continue
                if k in ("hand", "top") and type(value.get("ply")) is int:
                    continue  # a view's: checked above (the top card of the pile is face up)
                walk(v, f"{path}.{k}", k)
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]", key)
        elif type(value) is int and value == seed:
            found.append(f"{path}: the game's seed")
        elif isinstance(value, str):
            if is_card(value):
                found.append(f"{path}: card {value} in a field {key!r} that holds no face-up card")
            for m in _DRAW_LINE.finditer(value):
                if is_card(m[2]) and int(m[1]) != seat:
                    found.append(f"{path}: S{m[1]}'s drawn card {m[2]} named in {value!r}")

    for i, msg in enumerate(messages):
        if "record" in msg:
            continue  # a finished game's record, fetched after the end: everything is public then
        walk(msg, f"msg{i}", "")
    return found
