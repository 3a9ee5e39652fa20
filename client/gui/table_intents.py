"""The table's input as data: where a click landed, what the player means, and what the window must do.

Clicks and keys go to ``TableState``, which reads them as intents (``Pick``,
``Attempt`` …); carrying an intent out changes the state and may give
commands for the world outside it (``Send`` an action, ``AddBot`` …), which
``TableView`` hands to the session, the sounds or the app. All are frozen
dataclasses, so two different intents never compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass

from board99 import Action

# -- where a click landed (the drawing parts know what is where) ------------------------------------


@dataclass(frozen=True)
class OnButton:
    """A click on the button called ``name`` (one of BUTTONS); a disabled button swallows it."""

    name: str
    enabled: bool = True


@dataclass(frozen=True)
class OnCard:
    """A click on the hand's ``index``-th card."""

    index: int


@dataclass(frozen=True)
class OnDeck:
    """A click on the deck."""


@dataclass(frozen=True)
class OnSquare:
    """A click on the board square numbered ``square``."""

    square: int


#: Where a click landed.
Target = OnButton | OnCard | OnDeck | OnSquare

#: The table's buttons by name: the panel's, then the warning's.
BUTTONS = ("draw", "discard", "cancel", "mute", "rematch", "lobby", "bots", "rules", "settings", "quit",
           "hint-off", "confirm", "back", "save", "look-back", "close", "coach", "review")
#: The keys the table answers to, by name (the view maps arcade's key codes to these).
KEYS = ("1", "2", "3", "4", "5", "d", "x", "escape", "enter", "m", "left", "h", "r")


# -- what the player means ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pick:
    """Pick the hand's ``index``-th card (0-4); the picked card again puts it back."""

    index: int


@dataclass(frozen=True)
class Attempt:
    """Play, draw or discard: sent, or first warned about (penalty mode) or explained (guarded mode)."""

    action: Action


@dataclass(frozen=True)
class Confirm:
    """Carry out the action the warning is about."""


@dataclass(frozen=True)
class Cancel:
    """Close the warning, else put the picked card back."""


@dataclass(frozen=True)
class Hint:
    """Input that means nothing yet (a square with no card picked): tell the player what to do."""

    text: str


@dataclass(frozen=True)
class ToggleSound:
    """Sound on or off."""


@dataclass(frozen=True)
class Rematch:
    """Ask for another game with the same seats."""


@dataclass(frozen=True)
class FillSeats:
    """Put a bot in every empty seat."""


@dataclass(frozen=True)
class ToLobby:
    """Leave the table for the lobby."""


@dataclass(frozen=True)
class Dismiss:
    """Close the end-of-game box (the final board stays, with its line)."""


@dataclass(frozen=True)
class HintsOff:
    """Stop showing the first-game hint, now and in later games."""


@dataclass(frozen=True)
class Open:
    """Open another screen: ``name`` is "rules", "settings" or "quit"."""

    name: str


@dataclass(frozen=True)
class SaveRecord:
    """Save the finished game's record (the match's, at a match table) to the records folder."""


@dataclass(frozen=True)
class LookBack:
    """A spectator steps back through the live game's public history."""


@dataclass(frozen=True)
class AskCoach:
    """Ask the coach for a hint (H, or the Hint button); again while one shows: close it."""


@dataclass(frozen=True)
class ReviewGame:
    """Review the finished game: each of the player's moves weighed, in the replay viewer (docs/review.md)."""


#: What the player means.
Intent = (Pick | Attempt | Confirm | Cancel | Hint | ToggleSound | Rematch | FillSeats | ToLobby | Dismiss
          | HintsOff | Open | SaveRecord | LookBack | AskCoach | ReviewGame)


# -- what the window must do for the state ----------------------------------------------------------


@dataclass(frozen=True)
class Send:
    """Send ``action`` to the server."""

    action: Action


@dataclass(frozen=True)
class AskRematch:
    """Ask the server for a rematch."""


@dataclass(frozen=True)
class AddBot:
    """Ask the server for a bot in ``seat`` of ``table``."""

    table: str
    seat: int


@dataclass(frozen=True)
class Leave:
    """Give up the seat and show the lobby."""


@dataclass(frozen=True)
class SetSound:
    """Mute or unmute the window's sounds."""

    muted: bool


@dataclass(frozen=True)
class SaveHints:
    """Save the player's hints setting (the hint's own "don't show again")."""

    shown: bool


@dataclass(frozen=True)
class OpenScreen:
    """Call the app's callback for ``name`` ("rules", "settings", "quit")."""

    name: str


@dataclass(frozen=True)
class FetchRecord:
    """Fetch game ``game``'s record of ``table`` (its match's record with ``match``) and save it as ``stem``.txt."""

    table: str
    game: int
    match: bool
    stem: str  # the file's name without .txt (records.file_stem)


@dataclass(frozen=True)
class FetchHistory:
    """Fetch the live game's public history and open the look back over it."""


@dataclass(frozen=True)
class FetchHint:
    """Ask the server for the coach's advice for the player's seat."""


@dataclass(frozen=True)
class FetchReview:
    """Fetch game ``game``'s record of ``table`` and open the replay viewer reviewing ``seat``'s moves."""

    table: str
    game: int
    seat: int


#: What the window must do for the state.
Command = (Send | AskRematch | AddBot | Leave | SetSound | SaveHints | OpenScreen | FetchRecord | FetchHistory
           | FetchHint | FetchReview)
