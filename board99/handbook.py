"""The rules as a player reads them in the game's help screen: ordered sections of plain text (docs/rules.md).

The numbers (hand limit, player counts, sides, lines) come from the engine's
own constants and the penalty table from ``rulings.OFFENCES`` with the wording
``events.PENALTY_RULES`` announces at the table, so the help never disagrees
with what the game does.

>>> [s.title for s in SECTIONS][:3]
['The board', 'The cards', 'Players and sides']
>>> [row.offence for row in penalty_table()] == [o.replace("-", " ") for o in OFFENCES]
True
>>> penalty_table()[0].penalty
"the peg is removed, the card stays in the discard pile, the player's next turn is skipped"
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import HAND_LIMIT
from .events import PENALTY_RULES
from .layout import LINES, RUN
from .rulings import GUARDED_CODES, OFFENCES
from .settings import MODES, PLAYER_COUNTS, sides_for


class Section(NamedTuple):
    """One titled part of the rules: paragraphs of plain text, in reading order."""

    title: str
    paragraphs: tuple[str, ...]


class PenaltyRow(NamedTuple):
    """One offence and what penalty mode does about it."""

    code: str  # the offence as rulings.OFFENCES names it
    offence: str  # in words, e.g. "play out of turn"
    penalty: str  # what happens, as the table's announcement says it


#: What guarded mode answers an offence with, in words (keys: rulings.GUARDED_CODES' values).
GUARDED_REASONS: dict[str, str] = {
    "out-of-turn": "it is not your turn",
    "below-card": "the square's number is below the card's",
    "hand-full": f"your hand already holds {HAND_LIMIT} cards",
}


def penalty_table() -> tuple[PenaltyRow, ...]:
    """The offences of docs/rules.md §7 in the rulebook's order, each with its penalty as announced at the table."""
    rows = []
    for code in OFFENCES:
        name, _, penalty = PENALTY_RULES[code].partition(": ")
        rows.append(PenaltyRow(code, name, penalty))
    return tuple(rows)


def _partnerships() -> str:
    alone = [n for n in PLAYER_COUNTS if sides_for(n) == n]
    teams = [n for n in PLAYER_COUNTS if sides_for(n) != n]
    words = " or ".join(map(str, alone)), " or ".join(map(str, teams))
    sides = " or ".join(str(sides_for(n)) for n in teams)
    return (f"{words[0]} players play alone. {words[1]} players play as {sides} sides of two partners, "
            "who sit opposite each other, so turns alternate between the sides. Partners' pegs count "
            "together. Partners may not show or tell each other their cards, nor say where to play.")


SECTIONS: tuple[Section, ...] = (
    Section("The board", (
        "The board has 100 squares, numbered 0 to 99. The low numbers sit in the centre and the numbers "
        "grow ring by ring towards the edge, so the centre squares are the hardest to reach.",
        f"The aim: be the first side with {RUN} of its pegs next to one another in a row, a column or a "
        f"diagonal ({len(LINES)} such lines on the board).",
    )),
    Section("The cards", (
        "There are 100 cards, one for each number 0 to 99, each marked \"N to 99\". Card N lets you peg any "
        "free square numbered N or more: card 0 fits every square, card 99 only square 99.",
        "A card whose every fitting square is taken is dead: it can only be discarded.",
    )),
    Section("Players and sides", (
        _partnerships(),
        "Each side has one peg colour; a player alone is a side of one. The lowest card shown at the start "
        "takes the first turn; hands start empty, so the first round is everyone drawing. "
        "Play passes to the left.",
    )),
    Section("Your turn", (
        "On your turn do exactly one of these:",
        "PLAY a card from your hand and peg one free square it allows; the card goes face up on your "
        "discard pile.",
        f"DRAW the top card of the deck, if you hold fewer than {HAND_LIMIT} cards and the deck is not empty.",
        "DISCARD a card from your hand, face up on your discard pile.",
        f"With {HAND_LIMIT} cards you must play or discard. There is no passing: only a player who can do "
        "nothing at all (no cards, empty deck) is passed by the game.",
    )),
    Section("Winning and ties", (
        f"The play that gives a side {RUN} pegs in a line wins at once ({RUN + 1} or more in a line wins too).",
        "A tie: the deck is used up, every hand is empty and nobody has won. Then the deal is played again: "
        "the pegs come off, the deck is shuffled, and a new cut decides who starts. Discards never go back "
        "into the deck.",
    )),
    Section("Table modes", (
        f"Every table is created in one of the modes {', '.join(MODES)}.",
        "guarded (casual play): an offence below is refused with the reason, and nothing changes.",
        "penalty (the rulebook): the offence happens and is punished as in the table below, and the penalty "
        "is announced to the whole table with the rule that applied. Skips add up: two offences cost two turns.",
    )),
)
#: The rulebook's playing hints (1963), for a beginner.
HINTS: Section = Section("Playing hints", (
    "Do not waste the low cards. The low-numbered squares are in the centre, and you will get few cards "
    "that reach them: don't spend those on high squares. Play high cards on high squares.",
    "Make your opponent waste low cards. With 72, 58, 20 and 14 in a line, only card 0 to 4 can block "
    "you on square 4: forcing that block costs them a precious low card.",
    "Keep more than one way to win: build in blocks that can grow in more than one direction.",
    "Don't run out of cards. Avoid playing your last two cards unless they win: with an empty hand you "
    "cannot block.",
))


def guarded_reason(code: str) -> str:
    """How guarded mode explains refusing an offence (``code`` from rulings.OFFENCES).

    >>> guarded_reason("illegal-draw")
    'your hand already holds 5 cards'
    """
    return GUARDED_REASONS[GUARDED_CODES[code]]
