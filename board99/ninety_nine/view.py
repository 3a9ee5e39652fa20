"""What one seat (or a spectator) may see of a Ninety-Nine game: every other hand and the stock hidden.

A ``NinetyView`` is immutable plain data: ``view_of(game, seat)`` makes one,
the server sends ``to_data()`` and a client reads it back with ``from_data()``,
which checks every field (a client checks what it gets). Its questions (what
may I play now) are answered by the table's own rules (``rules.Table``).

>>> from board99.ninety_nine.game import Game
>>> from board99.ninety_nine.rules import Table
>>> g = Game(3, "guarded", Table.build(3, {"rules": "tokens"}), seed=2)
>>> v = view_of(g, 1)
>>> len(v.hand), v.hand_sizes, v.stock_size, NinetyView.from_data(v.to_data()) == v
(4, (4, 4, 4), 40, True)
>>> view_of(g, None).hand is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from .actions import Action, Draw, Play
from .cards import Card, is_card, rank_of
from .game import MODES, Game
from .rules import Table

_MOST_CARDS = 2 * 54  # two decks, two jokers each


@lru_cache(maxsize=64)
def _table(players: int, options: tuple[tuple[str, Any], ...]) -> Table:
    return Table.build(players, dict(options))


class NinetyView(NamedTuple):
    """One seat's view of the table (``seat`` None: a spectator's), as plain immutable data."""

    seat: int | None
    players: int
    mode: str
    options: tuple[tuple[str, Any], ...]  # the table's house options (the rule set first), as chosen
    deal: int  # 1, 2, ...; 0 before the first deal (the table waits for players)
    ply: int  # actions carried out so far (refusals do not count)
    turn: int | None  # the seat to play; None before the deal and once the game is won
    dealer: int | None
    direction: int  # 1: clockwise (to the left), -1: counter-clockwise
    total: int
    top: Card | None  # the played pile's top card
    pile_size: int
    stock_size: int
    hand: tuple[Card, ...] | None  # this seat's cards (None for a spectator)
    hand_sizes: tuple[int, ...]
    tokens: tuple[int, ...]  # each seat's tokens (all 0 at a table without tokens)
    out: tuple[bool, ...]  # each seat: out of the game
    sat_out: tuple[bool, ...]  # each seat: out of this round only, back at the next deal
    places: tuple[int, ...]  # seats in the order they went out
    winner: int | None
    chain: int  # queens in a row the seat to play answers (000)
    owed: int  # cards the seat to play must still play this turn
    pending: tuple[int, ...]  # seats that may still draw for a card they played (penalty tables)

    # -- making and reading --------------------------------------------------------------

    @classmethod
    def before_deal(cls, players: int, mode: str, table: Table, seat: int | None = None) -> NinetyView:
        """The view of a table still waiting for players: nothing dealt, nobody to play."""
        return cls(seat, players, mode, table.options, 0, 0, None, None, 1, 0, None, 0, 0,
                   None if seat is None else (), (0,) * players, (table.tokens,) * players, (False,) * players,
                   (False,) * players, (), None, 0, 1, ())

    @property
    def table(self) -> Table:
        """The rules this table plays by."""
        return _table(self.players, self.options)

    def to_data(self) -> dict[str, Any]:
        """The view as plain data, ready for msgpack (tuples travel as arrays)."""
        data = self._asdict()
        data["options"] = [list(pair) for pair in self.options]
        return data

    @classmethod
    def from_data(cls, data: object) -> NinetyView:
        """The view plain data describes (as ``to_data`` gives, or msgpack returns); ValueError names the field."""
        if not isinstance(data, dict):
            raise ValueError("view: expected a map")
        missing = [name for name in cls._fields if name not in data]
        if missing:
            raise ValueError(f"view.{missing[0]}: missing")
        players = _int(data, "players", 2, 6)
        mode = data["mode"]
        if mode not in MODES:
            raise ValueError(f"view.mode: expected one of {', '.join(MODES)}, got {mode!r}")
        raw = data["options"]
        if not isinstance(raw, (list, tuple)) or len(raw) > 64 or not all(
                isinstance(p, (list, tuple)) and len(p) == 2 and type(p[0]) is str for p in raw):
            raise ValueError("view.options: expected a list of [name, value] pairs")
        options = tuple((p[0], p[1]) for p in raw)
        try:
            table = _table(players, options)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"view.options: {exc}") from None
        if table.options != options:
            raise ValueError("view.options: every option of the game, in its order")
        seat = _int(data, "seat", 0, players - 1, nil=True)
        hand = _cards(data, "hand", nil=True)
        if (hand is None) != (seat is None):
            raise ValueError("view.hand: a seat's view has a hand, a spectator's has none")
        sizes = _list(data, "hand_sizes", lambda f, v: _check_int(f, v, 0, _MOST_CARDS), exactly=players)
        if seat is not None and hand is not None and len(hand) != sizes[seat]:
            raise ValueError(f"view.hand: {len(hand)} cards, but hand_sizes gives seat {seat} {sizes[seat]}")
        places = _list(data, "places", lambda f, v: _check_int(f, v, 0, players - 1), most=players)
        if len(set(places)) != len(places):
            raise ValueError("view.places: a seat goes out once")
        direction = data["direction"]
        if type(direction) is not int or direction not in (1, -1):
            raise ValueError(f"view.direction: expected 1 or -1, got {direction!r}")
        top = data["top"]
        if top is not None and not is_card(top):
            raise ValueError(f"view.top: expected a card or nothing, got {top!r}")
        return cls(
            seat, players, mode, options, _int(data, "deal", 0, 1 << 62), _int(data, "ply", 0, 1 << 62),
            _int(data, "turn", 0, players - 1, nil=True), _int(data, "dealer", 0, players - 1, nil=True),
            direction, _int(data, "total", -1000, 1000), top, _int(data, "pile_size", 0, _MOST_CARDS),
            _int(data, "stock_size", 0, _MOST_CARDS), hand,
            sizes,
            _list(data, "tokens", lambda f, v: _check_int(f, v, 0, 99), exactly=players),
            _list(data, "out", _check_bool, exactly=players), _list(data, "sat_out", _check_bool, exactly=players),
            places,
            _int(data, "winner", 0, players - 1, nil=True), _int(data, "chain", 0, _MOST_CARDS),
            _int(data, "owed", 0, _MOST_CARDS),
            _list(data, "pending", lambda f, v: _check_int(f, v, 0, players - 1), most=_MOST_CARDS),
        )

    # -- who and when ------------------------------------------------------------------

    @property
    def spectator(self) -> bool:
        """True for a spectator's view (no seat, no hand)."""
        return self.seat is None

    @property
    def started(self) -> bool:
        """True once the first deal has begun."""
        return self.deal > 0

    @property
    def over(self) -> bool:
        """True once one player is left."""
        return self.winner is not None

    @property
    def my_turn(self) -> bool:
        """True when this view's seat is the one to play."""
        return self.seat is not None and self.turn == self.seat and self.winner is None

    @property
    def may_draw(self) -> bool:
        """True when this seat still may draw for a card it played (penalty tables)."""
        return self.seat is not None and self.seat in self.pending and self.winner is None

    def text(self) -> str:
        """The table in lines of words, as a terminal shows it (``board99 replay``).

        >>> from board99.ninety_nine.game import Game
        >>> from board99.ninety_nine.rules import Table
        >>> print(view_of(Game(2, "guarded", Table.build(2, {"rules": "tokens"}), seed=2, dealer=0), None).text())
        deal 1, total 0, clockwise, S1 to play; stock 44, no card played yet
        S0: 4 cards, 3 tokens, deals
        S1: 4 cards, 3 tokens, to play
        """
        way = "clockwise" if self.direction == 1 else "counter-clockwise"
        who = f"S{self.winner} has won" if self.winner is not None else (
            "waiting for players" if self.turn is None else f"S{self.turn} to play")
        pile = f"pile {self.pile_size} (top {self.top})" if self.top is not None else "no card played yet"
        lines = [f"deal {self.deal}, total {self.total}, {way}, {who}; stock {self.stock_size}, {pile}"]
        for seat in range(self.players):
            if self.out[seat]:
                lines.append(f"S{seat}: out (place {self.players - self.places.index(seat)})")
                continue
            parts = [f"{self.hand_sizes[seat]} cards"]
            if self.table.tokens:
                parts.append(f"{self.tokens[seat]} token{'s' if self.tokens[seat] != 1 else ''}")
            if self.sat_out[seat]:
                parts.append("out of this round")
            if seat == self.dealer:
                parts.append("deals")
            if seat == self.turn and self.winner is None:
                parts.append("to play" + (f", answering {self.chain} queen(s)" if self.chain else ""))
            if seat in self.pending:
                parts.append("may still draw")
            lines.append(f"S{seat}: " + ", ".join(parts))
        return "\n".join(lines)

    def playable(self) -> list[tuple[Card, int | None]]:
        """Each (card, value) this seat may play now keeping the total fit (empty when not its turn)."""
        if not self.my_turn or self.hand is None:
            return []
        return self.table.playable(self.hand, self.total)

    def legal_actions(self) -> list[Action]:
        """Every action this seat may take now without refusal or offence (the total said, the draw taken)."""
        table = self.table
        actions: list[Action] = []
        for card, value in self.playable():
            actions.append(Play(card, value, table.after(self.total, table.effect(rank_of(card)), value)))
        if self.may_draw:
            actions.append(Draw())
        return actions


def view_of(game: Game, seat: int | None) -> NinetyView:
    """What ``seat`` (None: a spectator) may see of ``game``."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.players):
        raise ValueError(f"seat: {seat!r} is not a seat 0-{game.players - 1}")
    pile = game.pile
    return NinetyView(
        seat, game.players, game.mode, game.table.options, game.deal, game.ply, game.turn, game.dealer,
        game.direction, game.total, pile[-1] if pile else None, len(pile), game.stock_size,
        None if seat is None else game.hand(seat), tuple(len(game.hand(s)) for s in range(game.players)),
        tuple(game.tokens), tuple(game.out), game.sat_out, tuple(game.places), game.winner, game.chain, game.owed, game.pending,
    )


# -- field checks for from_data: each names the field it rejects --------------------------------------

Check = Callable[[str, object], Any]


def _check_int(field: str, value: object, lo: int, hi: int) -> int:
    # type() not isinstance(): True is an int and must not pass as 1
    if type(value) is not int or not lo <= value <= hi:
        raise ValueError(f"view.{field}: expected a whole number {lo}-{hi}, got {value!r}")
    return value


def _check_bool(field: str, value: object) -> bool:
    if type(value) is not bool:
        raise ValueError(f"view.{field}: expected true or false, got {value!r}")
    return value


def _int(data: dict[str, Any], field: str, lo: int, hi: int, *, nil: bool = False) -> Any:
    value = data[field]
    if value is None and nil:
        return None
    return _check_int(field, value, lo, hi)


def _list(data: dict[str, Any], field: str, item: Check, *, exactly: int | None = None,
          most: int | None = None) -> tuple[Any, ...]:
    value = data[field]
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"view.{field}: expected a list, got {type(value).__name__}")
    if (exactly is not None and len(value) != exactly) or (most is not None and len(value) > most):
        want = f"exactly {exactly}" if exactly is not None else f"at most {most}"
        raise ValueError(f"view.{field}: expected {want} items, got {len(value)}")
    return tuple(item(field, v) for v in value)


def _cards(data: dict[str, Any], field: str, *, nil: bool = False) -> tuple[Card, ...] | None:
    value = data[field]
    if value is None and nil:
        return None

    def card(f: str, v: object) -> Card:
        if not is_card(v):
            raise ValueError(f"view.{f}: expected cards such as 'AS', '10H' or 'joker', got {v!r}")
        assert isinstance(v, str)
        return v
    return _list(data, field, card, most=_MOST_CARDS)
