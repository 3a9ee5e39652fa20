"""Helpers for the server tests: drive several clients through full games from one thread, check leaks.

Every loop here is bounded in time; nothing talks to anything but 127.0.0.1.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import pytest

from board99 import HAND_LIMIT, Action, Discard, Draw, Play
from board99.bots import make_bot
from board99.client.net import GameClient, ServerError
from board99.events import Penalty
from board99.record import Record

#: The shortest time between two acts of one client in ``drive`` (150 a second at most).
ACT_INTERVAL = 1 / 150
OFFENCES = ("play-out-of-turn", "discard-out-of-turn", "draw-out-of-turn", "illegal-play", "illegal-draw")


@dataclass
class Seated:
    """A table of clients, one per seat, plus what each received."""

    table: str
    clients: list[GameClient]
    spectator: GameClient | None = None
    received: dict[int | None, list[dict]] = field(default_factory=dict)  # seat (None: spectator) -> messages
    pushed: dict[int | None, list[dict]] = field(default_factory=dict)  # what poll() returned

    def everyone(self) -> list[tuple[int | None, GameClient]]:
        """(seat, client) for every player and the spectator."""
        out: list[tuple[int | None, GameClient]] = list(enumerate(self.clients))
        if self.spectator is not None:
            out.append((None, self.spectator))
        return out

    def poll_all(self, wait: float = 0.0) -> None:
        """Drain every client once."""
        for seat, c in self.everyone():
            self.pushed.setdefault(seat, []).extend(c.poll(wait))

    def close(self) -> None:
        """Close every client."""
        for _, c in self.everyone():
            c.close()


def seat_table(endpoint: str, players: int, mode: str, *, spectate: bool = True, capture: bool = True,
               timeout: float = 5.0, **table: object) -> Seated:
    """Create a table and fill every seat with its own client connection (the game starts)."""
    owner = GameClient(endpoint, name="S0", timeout=timeout)
    info = owner.create_table(f"{players}p {mode}", players, mode, **table)
    clients = [owner] + [GameClient(endpoint, name=f"S{s}", timeout=timeout) for s in range(1, players)]
    seated = Seated(info.id, clients)
    spectator = GameClient(endpoint, name="watcher", timeout=timeout) if spectate else None
    if capture:
        for seat, c in enumerate(clients):
            c.on_receive = seated.received.setdefault(seat, []).append
        if spectator is not None:
            spectator.on_receive = seated.received.setdefault(None, []).append
    if spectator is not None:
        spectator.spectate(info.id)
        seated.spectator = spectator
    for seat, c in enumerate(clients):
        c.take_seat(info.id, seat)
    return seated


def settle(seated: Seated, seconds: float = 5.0) -> None:
    """Poll until every client (the spectator too) has heard of the same latest action."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seated.poll_all(0.01)
        plies = {c.view.ply for _, c in seated.everyone()}
        seqs = {c.seq for _, c in seated.everyone()}
        if len(plies) == 1 and len(seqs) == 1:
            return
    raise AssertionError(f"table {seated.table}: the clients did not catch up in {seconds} s")


class Offender:
    """Commits each offence of docs/rules.md §7 once, when its conditions hold (penalty mode)."""

    def __init__(self, offences: Iterable[str] = OFFENCES, after_ply: int = 6) -> None:
        self.pending = list(offences)
        self.after_ply = after_ply
        self.done: dict[str, tuple] = {}  # offence -> the events the act returned

    def pick(self, seat: int, view: dict) -> Action | None:
        """An offending action for ``seat`` now, or None."""
        if not self.pending or view.ply < self.after_ply or view.winner is not None:
            return None
        offence = self.pending[0]
        hand, board, mine = view.hand, view.board, view.turn == seat
        if offence == "play-out-of-turn" and not mine and hand:
            free = [sq for sq in range(hand[0], 100) if board[sq] is None]
            if free:
                return Play(hand[0], free[-1])
        if offence == "discard-out-of-turn" and not mine and hand:
            return Discard(hand[0])
        if offence == "draw-out-of-turn" and not mine and view.deck_size > 0:
            return Draw()
        if offence == "illegal-play" and mine:
            for card in sorted(hand, reverse=True):
                low = [sq for sq in range(card) if board[sq] is None]
                if low:
                    return Play(card, low[0])
        if offence == "illegal-draw" and mine and view.deck_size > 0:
            # Draw legally up to a full hand, then once more.
            return Draw()
        return None

    def record(self, action: Action, events: tuple) -> None:
        """Note which offence (if any) the engine found in what was just done (``act``'s events, read)."""
        for e in events:
            if isinstance(e, Penalty) and e.offence in self.pending:
                self.pending.remove(e.offence)
                self.done[e.offence] = events


def drive(seated: Seated, bots: Sequence | None = None, *, seconds: float = 30.0,
          offender: Offender | None = None, bot: str = "random",
          stop: Callable[[Seated], bool] | None = None) -> dict:
    """Play the table to the end: each seat's client acts on its turn (bots choose); returns the final view."""
    clients = seated.clients
    bots = bots or [make_bot(bot, seed=seat) for seat in range(len(clients))]
    deadline = time.monotonic() + seconds
    # Each client stays under the server's default rate limit (200 messages a second per
    # connection; beyond it messages are dropped): these tests play games, not floods.
    last_act = [0.0] * len(clients)
    while time.monotonic() < deadline:
        seated.poll_all()
        if stop is not None and stop(seated):
            return clients[0].view
        views = [c.view for c in clients]
        if all(c.table and c.table.state == "over" for c in clients):
            return views[0]
        ply = max(v.ply for v in views)
        acted = False
        for seat, c in enumerate(clients):
            v = c.view
            if v.ply != ply or c.table.state != "playing":
                continue  # this client has not heard of the latest action yet
            action = offender.pick(seat, v) if offender else None
            if action is None and v.turn == seat:
                if offender and offender.pending and offender.pending[0] == "illegal-draw" \
                        and len(v.hand) < HAND_LIMIT and v.deck_size > 1 and v.ply >= offender.after_ply:
                    action = Draw()  # filling the hand on the way to an illegal draw
                else:
                    action = bots[seat].choose(v)
            if action is None:
                continue
            wait = last_act[seat] + ACT_INTERVAL - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            last_act[seat] = time.monotonic()
            events = c.act(action)
            if offender:
                offender.record(action, events)
            acted = True
            break
        if not acted:  # wait a moment for the next push (kept, like every poll's result)
            seated.pushed.setdefault(0, []).extend(seated.clients[0].poll(0.002))
    raise AssertionError(f"table {seated.table} did not finish in {seconds} s")


# -- hidden information ------------------------------------------------------------------

#: Fields whose whole numbers are card numbers, checked against what the recipient may know.
CARD_FIELDS = frozenset({"hand", "card", "discards"})
#: Card fields that are public by the rules: the cut, and cards shown by a draw penalty.
SHOWN_FIELDS = frozenset({"cut", "shown"})
#: Fields whose numbers are not cards (seats, squares, sizes, counters, settings).
OTHER_FIELDS = frozenset({
    "seat", "side", "players", "sides", "deal", "ply", "turn", "winner", "line", "board", "hand_sizes",
    "deck_size", "skips", "seq", "id", "square", "first", "version", "game", "by", "votes", "heartbeat",
    "lost_after", "clock", "grace", "seats", "spectators", "hints",
})


def card_locations(record_text: str) -> dict[int, tuple[list[set[int]], set[int]]]:
    """ply -> (each seat's hand, the deck's cards) after that many actions, by replaying the record."""
    record = Record.loads(record_text)
    states: dict[int, tuple[list[set[int]], set[int]]] = {}

    def note(game) -> None:
        hands = [set(game.hand(s)) for s in range(game.players)]
        public = {c for s in range(game.players) for c in game.discards(s)}
        deck = set(range(100)) - public - set().union(*hands)
        states[game.ply] = (hands, deck)

    for _, line, game in record.steps():
        if game.ply not in states or not line.startswith(" "):
            note(game)
    return states


def leaks(messages: list[dict], seat: int | None, states: dict, seed: int) -> list[str]:
    """Every place in ``messages`` (received by ``seat``) that shows a card it may not know, or the seed."""
    found: list[str] = []
    ply = 0

    def walk(value: object, path: str, key: str, hidden: set[int], shown_draw: bool) -> None:
        if isinstance(value, dict):
            draw_penalty = value.get("kind") == "penalty" and "draw" in str(value.get("offence"))
            for k, v in value.items():
                if k in ("deck", "seed", "order"):
                    found.append(f"{path}.{k}: a field named {k!r} is sent")
                walk(v, f"{path}.{k}", k, hidden, draw_penalty)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]", key, hidden, shown_draw)
        elif type(value) is int:
            if value == seed:
                found.append(f"{path}: the game's seed")
            if key in SHOWN_FIELDS or (key == "card" and shown_draw):
                return
            if key in CARD_FIELDS:
                if value in hidden:
                    found.append(f"{path}: card {value} is in another hand or the deck at ply {ply}")
            elif key not in OTHER_FIELDS:
                found.append(f"{path}: unclassified number field {key!r}")

    for i, msg in enumerate(messages):
        view = msg.get("view")
        if isinstance(view, dict) and type(view.get("ply")) is int:
            ply = view["ply"]
        if "record" in msg:
            continue  # a finished game's record, fetched after the end: everything is public then
        hands, deck = states[ply]
        hidden = set(deck).union(*(h for s, h in enumerate(hands) if s != seat))
        events = msg.get("events")
        if isinstance(events, list) and any(isinstance(e, dict) and e.get("kind") == "tied" for e in events):
            # The action ended a tied deal: its events speak of the old deal, which ended with
            # deck and hands empty (nothing hidden); the view is already the new deal's.
            rest = {k: v for k, v in msg.items() if k not in ("events", "action")}
            walk({k: msg[k] for k in ("events", "action") if k in msg}, f"msg{i}", "", set(), False)
            walk(rest, f"msg{i}", "", hidden, False)
            continue
        walk(msg, f"msg{i}", "", hidden, False)
    return found


def key(n: int) -> str:
    """A fixed player key per test player (a real one is random: client/player_key.py)."""
    return f"{n:02x}" * 32


def error_of(call: Callable[[], object]) -> ServerError:
    """The ServerError that ``call()`` raises (the test fails if it raises none)."""
    with pytest.raises(ServerError) as caught:
        call()
    return caught.value
