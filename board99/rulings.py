"""What the rules make of an action before it happens: impossible, an offence, or proper (docs/rules.md §7).

``classify`` is the one statement of these checks: ``Game.apply`` asks it
before carrying an action out, and ``SeatView.ruling`` asks it so that a
player's screen can warn or explain before anything is sent.

>>> classify(0, 1, (40, 7), [None] * 100, 60, Play(40, 12))
'play-out-of-turn'
>>> classify(1, 1, (40, 7), [None] * 100, 60, Play(40, 12))
'illegal-play'
>>> classify(1, 1, (40, 7), [None] * 100, 60, Play(40, 55)) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Discard, Draw, Play
from .cards import HAND_LIMIT, fits
from .errors import Refused

#: Offence -> the refusal code guarded mode answers it with (docs/rules.md §7).
GUARDED_CODES: dict[str, str] = {
    "play-out-of-turn": "out-of-turn",
    "discard-out-of-turn": "out-of-turn",
    "draw-out-of-turn": "out-of-turn",
    "illegal-play": "below-card",
    "illegal-draw": "hand-full",
}
#: The offences of docs/rules.md §7, in the rulebook's order.
OFFENCES: tuple[str, ...] = tuple(GUARDED_CODES)


def check_card(card: object) -> int:
    """The card number, or Refused('no-such-card')."""
    # type() not isinstance(): True is an int and must not pass as card 1
    if type(card) is not int or not 0 <= card <= 99:
        raise Refused("no-such-card", f"card {card!r}: a card is a whole number from 0 to 99")
    return card


def check_square(square: object) -> int:
    """The square number, or Refused('no-such-square')."""
    if type(square) is not int or not 0 <= square <= 99:
        raise Refused("no-such-square", f"square {square!r}: squares are numbered 0 to 99")
    return square


def classify(
    seat: int,
    turn: int | None,
    hand: Sequence[int],
    board: Sequence[int | None],
    deck_size: int,
    action: Action,
) -> str | None:
    """The offence ``action`` by ``seat`` would be (None: a proper action), whatever the table's mode.

    Raises Refused for what cannot happen at a real table in either mode: a
    card not held, an occupied square, a number outside 0-99, a draw from an
    empty deck, something that is not an action. Checks run in that order, so
    the first fault found is the one named.
    """
    if type(action) is Play:
        card, square = check_card(action.card), check_square(action.square)
        if card not in hand:
            raise Refused("not-in-hand", f"S{seat} does not hold card {card}")
        if board[square] is not None:
            raise Refused("occupied", f"square {square} already holds a peg of side {board[square]}")
        if seat != turn:
            return "play-out-of-turn"  # also when the square is below the card: one offence
        return None if fits(card, square) else "illegal-play"
    if type(action) is Draw:
        if not deck_size:
            raise Refused("deck-empty", "the deck is empty; play or discard instead")
        if seat != turn:
            return "draw-out-of-turn"
        return "illegal-draw" if len(hand) >= HAND_LIMIT else None
    if type(action) is Discard:
        card = check_card(action.card)
        if card not in hand:
            raise Refused("not-in-hand", f"S{seat} does not hold card {card}")
        return "discard-out-of-turn" if seat != turn else None
    raise Refused("bad-action", f"{action!r} is not a Play, Draw or Discard")


def guarded_refusal(offence: str, seat: int, turn: int | None, action: Action) -> Refused:
    """How guarded mode refuses ``offence``: the code of GUARDED_CODES and the reason in words."""
    code = GUARDED_CODES[offence]
    if code == "out-of-turn":
        message = f"it is S{turn}'s turn, not S{seat}'s"
    elif code == "below-card":
        assert type(action) is Play
        message = f"card {action.card} allows squares {action.card} to 99, not square {action.square}"
    else:
        message = f"S{seat} already holds {HAND_LIMIT} cards; play or discard"
    return Refused(code, message)
