"""What one seat may see of a game (docs/rules.md §8), and the questions a player's screen and a bot ask of it.

A ``SeatView`` is immutable plain data: ``Game.view(seat)`` makes one, the
server sends ``to_data()`` and a client reads it back with ``from_data()``.
Its questions (what is legal now, what offence an action would be and what
the rulebook does about it) are answered by the engine's own rules
(``board99.rulings``), so no screen or bot restates a rule.

>>> from board99 import Game, Draw
>>> view = Game(players=2, seed=1, first=0).view(0)
>>> view.my_turn, view.can_draw, view.ruling(Draw()).legal
(True, True, True)
>>> view.ruling(Draw()) == Ruling()
True
>>> SeatView.from_data(view.to_data()) == view
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import compress, repeat
from operator import is_
from typing import Any, NamedTuple

from .actions import Action, Discard, Draw, Play
from .cards import HAND_LIMIT, allowed
from .errors import Refused
from .events import PENALTY_RULES
from .layout import winning_squares
from .rulings import classify, guarded_refusal
from .settings import MODES, PLAYER_COUNTS, sides_for


class Ruling(NamedTuple):
    """What the rules make of one action from a view: proper, an offence, or refused (and why).

    ``refused`` is the code the engine would refuse it with (guarded mode
    refuses offences too); ``offence`` is the offence it is, in either mode.
    """

    refused: str | None = None
    offence: str | None = None
    message: str = ""

    @property
    def legal(self) -> bool:
        """True for a proper action: neither refused nor an offence."""
        return self.refused is None and self.offence is None

    @property
    def penalty(self) -> str | None:
        """The rule that punishes it, when it is carried out as an offence (penalty mode), else None."""
        if self.offence is None or self.refused is not None:
            return None
        return PENALTY_RULES[self.offence]


#: A free square's byte in the board's wire form (docs/protocol.md, *View*); a peg's byte is its side.
EMPTY = 255
EMPTY_BYTES = bytes([EMPTY]) * 100
#: Byte -> the square's occupant as a view holds it: a side 0-5, None for EMPTY, and False for a byte that is neither.
OCCUPANT: tuple[int | None | bool, ...] = tuple(range(6)) + (False,) * (EMPTY - 6) + (None,)


class Board(tuple[int | None, ...]):
    """A view's board: by square number, the side whose peg is there or None (a plain tuple in every way).

    It also carries ``packed``, the same board as the wire sends it: 100 bytes, one a square,
    the side's number or ``EMPTY``. The engine keeps that form as it places pegs and a client
    receives it, so neither end turns 100 items into bytes or back one by one when it need not.
    """

    packed: bytes

    @classmethod
    def of(cls, squares: Any, packed: bytes) -> Board:
        """The board ``squares`` (100 items), whose wire form is ``packed`` (the caller's word for it)."""
        board = cls(squares)
        board.packed = packed
        return board


def pack_board(board: tuple[int | None, ...]) -> bytes:
    """The board's wire form: one byte a square in square order, the side's number or EMPTY (255)."""
    packed: bytes | None = getattr(board, "packed", None)
    if packed is None:
        packed = bytes([EMPTY if side is None else side for side in board])
    return packed


def unpack_board(raw: object, sides: int) -> Board:
    """The board of a view's data: 100 bytes, each a side below ``sides`` or EMPTY; ValueError names the field."""
    if type(raw) is not bytes or len(raw) != 100:
        got = f"{len(raw)} bytes" if type(raw) is bytes else type(raw).__name__
        raise ValueError(f"view.board: expected 100 bytes (one a square: its side's number, or {EMPTY} for a free "
                         f"square), got {got}")
    stray = raw.translate(None, _ALLOWED[sides])
    if stray:
        square = raw.index(stray[0])
        raise ValueError(f"view.board: square {square} holds {stray[0]}, which is neither a side 0-{sides - 1} "
                         f"nor {EMPTY} (a free square)")
    return Board.of(map(OCCUPANT.__getitem__, raw), raw)


#: Sides -> the bytes a board of that many sides may hold.
_ALLOWED = {n: bytes(range(n)) + bytes([EMPTY]) for n in range(1, 7)}


class SeatView(NamedTuple):
    """One seat's view of the table (``seat`` None: a spectator's), as plain immutable data."""

    seat: int | None
    side: int | None
    players: int
    sides: int
    mode: str
    deal: int  # 1, 2, ... after ties; 0 before the first deal (the table waits for players)
    ply: int  # actions carried out so far in this game, across deals (refusals do not count)
    turn: int | None  # the seat to act; None before the deal and once it is won
    winner: int | None  # the side that won, or None
    line: tuple[int, ...] | None  # the winning squares
    cut: tuple[int, ...] | None  # this deal's cut, one card per seat (None if the opener was set)
    board: tuple[int | None, ...]  # by square number: the side whose peg is there, or None (a Board from the engine)
    hand: tuple[int, ...] | None  # this seat's cards (None for a spectator)
    hand_sizes: tuple[int, ...]
    discards: tuple[tuple[int, ...], ...]  # each seat's pile, oldest first
    deck_size: int
    skips: tuple[int, ...]  # turns each seat will still lose to penalties
    shown: tuple[int, ...]  # cards shown by draw penalties this turn and by the action ending the last (rules.md §10)

    # -- making and reading ------------------------------------------------------------

    @classmethod
    def before_deal(cls, players: int, mode: str, seat: int | None = None) -> SeatView:
        """The view of a table still waiting for players: nothing dealt, nobody to play, no cut."""
        sides = sides_for(players)
        return cls(seat, None if seat is None else seat % sides, players, sides, mode, 0, 0, None, None, None,
                   None, _NO_PEGS, None if seat is None else (), (0,) * players, ((),) * players, 100,
                   (0,) * players, ())

    def to_data(self) -> dict[str, Any]:
        """The view as plain data, ready for msgpack (tuples travel as arrays; the board as 100 bytes, ``pack_board``)."""
        (seat, side, players, sides, mode, deal, ply, turn, winner, line, cut, board, hand, hand_sizes, discards,
         deck_size, skips, shown) = self
        # A literal map, not _asdict(): every reply and push builds one (bench/act_parts.py counts it).
        return {"seat": seat, "side": side, "players": players, "sides": sides, "mode": mode, "deal": deal,
                "ply": ply, "turn": turn, "winner": winner, "line": line, "cut": cut, "board": pack_board(board),
                "hand": hand, "hand_sizes": hand_sizes, "discards": discards, "deck_size": deck_size,
                "skips": skips, "shown": shown}

    @classmethod
    def from_data(cls, data: object) -> SeatView:
        """The view described by plain data (as ``to_data`` gives, or msgpack returns); ValueError names the field."""
        if not isinstance(data, dict):
            raise ValueError("view: expected a map")
        missing = [name for name in cls._fields if name not in data]
        if missing:
            raise ValueError(f"view.{missing[0]}: missing")
        players = _whole(data, "players", choices=PLAYER_COUNTS)
        sides = _whole(data, "sides", choices=(sides_for(players),))
        mode = data["mode"]
        if mode not in MODES:
            raise ValueError(f"view.mode: expected one of {', '.join(MODES)}, got {mode!r}")
        seat = _seat(data, "seat", players, nil=True)
        side = _whole(data, "side", 0, sides - 1, nil=True)
        if (seat is None) != (side is None) or (seat is not None and side != seat % sides):
            raise ValueError(f"view.side: {side!r} is not the side of seat {seat!r}")
        card = _checker(0, 99)
        hand = _cards(data, "hand", nil=True, most=HAND_LIMIT)
        if (hand is None) != (seat is None):
            raise ValueError("view.hand: a seat's view has a hand, a spectator's has none")
        return cls(
            seat, side, players, sides, mode,
            _whole(data, "deal", 0, 1 << 62), _whole(data, "ply", 0, 1 << 62),
            _seat(data, "turn", players, nil=True), _whole(data, "winner", 0, sides - 1, nil=True),
            _cards(data, "line", nil=True, most=10), _cards(data, "cut", nil=True, most=players),
            unpack_board(data["board"], sides),
            hand,
            _list(data, "hand_sizes", _checker(0, HAND_LIMIT), exactly=players),
            _list(data, "discards", lambda f, v: _tuple(f, v, card, most=100), exactly=players),
            _whole(data, "deck_size", 0, 100),
            _list(data, "skips", _checker(0, 1 << 31), exactly=players),
            _tuple("shown", data["shown"], _checker(0, 99), most=100),
        )

    # -- who and when --------------------------------------------------------------------

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
        """True once a side has won."""
        return self.winner is not None

    @property
    def my_turn(self) -> bool:
        """True when this view's seat is the one to act."""
        return self.seat is not None and self.turn == self.seat and self.winner is None

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for (partners share one)."""
        return seat % self.sides

    def partners(self, side: int) -> tuple[int, ...]:
        """The seats of one side."""
        return tuple(range(side, self.players, self.sides))

    def partner(self, seat: int) -> int | None:
        """The seat opposite ``seat`` on its side, or None when the side is one player."""
        others = [s for s in self.partners(self.side_of(seat)) if s != seat]
        return others[0] if others else None

    # -- what the rules allow -----------------------------------------------------------

    @property
    def can_draw(self) -> bool:
        """True when this seat may draw without offence now."""
        return self.my_turn and self.hand is not None and len(self.hand) < HAND_LIMIT and self.deck_size > 0

    def free_squares(self, card: int) -> tuple[int, ...]:
        """The free squares ``card`` allows, in number order."""
        board = self.board
        allows = allowed(card)
        # The free ones at C speed: the bots, the window and the web seat ask for every card on every board.
        return tuple(compress(allows, map(is_, map(board.__getitem__, allows), repeat(None))))

    def threats(self) -> dict[int, tuple[int, ...]]:
        """Side -> the free squares where it would complete five (it holds four of a line): the squares to watch."""
        found = {side: winning_squares(self.board, side) for side in range(self.sides)}
        return {side: squares for side, squares in found.items() if squares}

    def threats_against(self) -> tuple[int, ...]:
        """The squares where another side than this view's would complete five: a threat to answer (or block)."""
        return tuple(sorted({sq for side, squares in self.threats().items() if side != self.side for sq in squares}))

    def dead(self, card: int) -> bool:
        """True if every square ``card`` allows is taken: it can only be discarded."""
        return not self.free_squares(card)

    def legal_actions(self) -> list[Action]:
        """Every action this seat may take without offence now (empty when it may not act)."""
        if not self.my_turn or self.hand is None:
            return []
        actions: list[Action] = [Play(card, sq) for card in self.hand for sq in self.free_squares(card)]
        if self.can_draw:
            actions.append(Draw())
        actions.extend(Discard(card) for card in self.hand)
        return actions

    def ruling(self, action: Action) -> Ruling:
        """What the engine would make of ``action`` from this seat now: proper, an offence, or refused."""
        if self.seat is None or self.hand is None:
            return Ruling("not-seated", None, "a spectator holds no seat, so cannot act")
        if not self.started:
            return Ruling("not-started", None, "the game has not begun: the table waits for players")
        if self.winner is not None:
            return Ruling("deal-over", None, f"side {self.winner} has won; the game is over")
        try:
            offence = classify(self.seat, self.turn, self.hand, self.board, self.deck_size, action)
        except Refused as exc:
            return Ruling(exc.code, None, exc.message)
        if offence is None:
            return Ruling()
        if self.mode == "guarded":
            refusal = guarded_refusal(offence, self.seat, self.turn, action)
            return Ruling(refusal.code, offence, refusal.message)
        return Ruling(None, offence, PENALTY_RULES[offence])


_NO_PEGS = Board.of((None,) * 100, EMPTY_BYTES)


# -- field checks for from_data: each names the field it rejects --------------------------------------

Check = Callable[[str, object], Any]


@functools.cache  # a view has some twenty fields and a client reads every one: each check made once
def _checker(lo: int, hi: int, nil: bool = False) -> Check:
    def check(field: str, value: object) -> int | None:
        if value is None and nil:
            return None
        # type() not isinstance(): True is an int and must not pass as 1
        if type(value) is not int or not lo <= value <= hi:
            raise ValueError(f"view.{field}: expected a whole number {lo}-{hi}, got {value!r}")
        return value
    check.bounds = (lo, hi, nil)  # type: ignore[attr-defined]  # lets _tuple check a whole list at once
    return check


def _whole(data: dict[str, Any], field: str, lo: int = 0, hi: int = 0, *, nil: bool = False,
           choices: tuple[int, ...] | None = None) -> Any:
    value = data[field]
    if choices is not None:
        if type(value) is not int or value not in choices:
            raise ValueError(f"view.{field}: expected one of {choices}, got {value!r}")
        return value
    return _checker(lo, hi, nil)(field, value)


def _seat(data: dict[str, Any], field: str, players: int, nil: bool = False) -> int | None:
    value: int | None = _whole(data, field, 0, players - 1, nil=nil)
    return value


_INT_TYPES = frozenset({int})
_INT_OR_NONE_TYPES = frozenset({int, type(None)})


def _tuple(field: str, value: object, item: Check, *, most: int | None = None,
           exactly: int | None = None) -> tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"view.{field}: expected a list, got {type(value).__name__}")
    if (exactly is not None and len(value) != exactly) or (most is not None and len(value) > most):
        want = f"exactly {exactly}" if exactly is not None else f"at most {most}"
        raise ValueError(f"view.{field}: expected {want} items, got {len(value)}")
    items = tuple(value)
    bounds: tuple[int, int, bool] | None = getattr(item, "bounds", None)
    if bounds is not None and items:
        # Every view a client receives passes through here: check whole lists at C speed
        # (types as a set, then the range), and name the bad item only when one fails.
        lo, hi, nil = bounds
        types = set(map(type, items))
        if types <= _INT_TYPES:
            if lo <= min(items) and max(items) <= hi:
                return items
        elif nil and types <= _INT_OR_NONE_TYPES:
            ints = [v for v in items if v is not None]
            if not ints or (lo <= min(ints) and max(ints) <= hi):
                return items
    return tuple(item(field, v) for v in items)


def _list(data: dict[str, Any], field: str, item: Check, *, exactly: int) -> tuple[Any, ...]:
    return _tuple(field, data[field], item, exactly=exactly)


def _cards(data: dict[str, Any], field: str, *, nil: bool = False, most: int) -> tuple[int, ...] | None:
    value = data[field]
    if value is None and nil:
        return None
    return _tuple(field, value, _checker(0, 99), most=most)
