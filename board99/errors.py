"""Refusals: an action the engine will not carry out, with a stable code."""

from __future__ import annotations

from .kinds import Refusal

#: Every refusal code, with when it is raised. Stable: clients switch on them.
CODES: dict[str, str] = {
    "deal-over": "the deal has ended (a side has won); no action is possible",
    "no-such-seat": "the seat is not at this table",
    "bad-action": "the action is not a Play, Draw or Discard",
    "no-such-card": "a card number must be a whole number from 0 to 99",
    "no-such-square": "a square number must be a whole number from 0 to 99",
    "not-in-hand": "the player does not hold that card",
    "occupied": "the square already holds a peg",
    "deck-empty": "the deck is empty, so nothing can be drawn",
    "out-of-turn": "it is another player's turn (guarded mode refuses offences)",
    "below-card": "the square's number is below the card's (guarded mode refuses offences)",
    "hand-full": "the hand already holds 5 cards (guarded mode refuses offences)",
}


class Refused(Refusal):
    """An action the rules do not allow here; nothing about the game changed (a ``board99.kinds.Refusal``)."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(code, message)
