"""Refusals: an action the Ninety-Nine rules will not carry out, with a stable code and the rule in words."""

from __future__ import annotations

from ..kinds import Refusal

#: Every refusal code, with when it is raised. Stable: clients switch on them.
CODES: dict[str, str] = {
    "game-over": "the game has been won; no action is possible",
    "no-such-seat": "the seat is not at this table",
    "seat-out": "the player is out of the game",
    "bad-action": "the action is not a Play or a Draw",
    "out-of-turn": "it is another player's turn to play",
    "not-in-hand": "the player does not hold that card",
    "bad-value": "the value given is not one the card allows",
    "below-zero": "the total may not go below zero at this table",
    "over-99": "the card would take the total over 99 (guarded tables)",
    "wrong-total": "the total announced is not the new total (guarded tables)",
    "say-total": "at a penalty table the player says the new total with the card",
    "no-draw-owed": "the player has no draw to make now",
    "draw-automatic": "at a guarded table the draw comes with the card played",
}


class Refused(Refusal):
    """An action the rules do not allow here; nothing about the game changed (a ``board99.kinds.Refusal``)."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(code, message)
