"""What the table says in words: people's names, sides by colour, log lines, warnings, reasons and results.

Nothing here decides a rule. Log lines and penalties come from the server's
events (the rule text is the server's); warnings and reasons put into words
what the view answers (``SeatView.ruling``, ``my_turn``, ``dead`` …), so the
player is told before acting, and the server still has the last word on
every action. Codes (seat numbers, side numbers, refusal codes) stay on the
wire and in records: the player reads names, colours and plain sentences.
"""

from __future__ import annotations

import math
import re

from board99 import (
    HAND_LIMIT,
    MODES,
    PLAYER_COUNTS,
    Action,
    Discard,
    Draw,
    Play,
    Ruling,
    SeatView,
    label,
)
from board99.coach import Advice
from board99.events import Dealt, Discarded, Drew, Event, Passed, Penalty, Played, Skipped, Tied, Won
from board99.match import from_result
from board99.wire.table_info import TableInfo

PICK_FIRST = "pick a card first (keys 1-5)"
EMPTY_HAND = "your hand is empty: draw a card (D)"


def pick_first(view: SeatView) -> str:
    """Why a card action waits: no card picked, or none to pick (as the tip says).

    >>> from board99 import Game
    >>> game = Game(2, seed=1)  # nobody has drawn yet
    >>> pick_first(game.view(game.turn))
    'your hand is empty: draw a card (D)'
    """
    if view.hand:
        return PICK_FIRST
    return EMPTY_HAND if view.can_draw else "your hand is empty"
DASH = "–"  # between the squares of a line: "92–88–84"


# -- people and sides --------------------------------------------------------------------------------


def seat_name(seat: int, table: TableInfo | None) -> str:
    """The seat's player: 'Ann' ('rulebook 2' for a second 'rulebook'); 'Seat 3 (empty)'; 'Seat 3' when unknown."""
    entry = table.seat_info(seat) if table is not None else None
    if entry is not None:
        if entry.name:
            # Several bots of one kind share a name: number the later ones ("rulebook 2") so they differ.
            same = [s.seat for s in table.seats if s.name == entry.name] if table is not None else [seat]
            return entry.name if same.index(seat) == 0 else f"{entry.name} {same.index(seat) + 1}"
        if entry.free:
            return f"Seat {seat + 1} (empty)"
    return f"Seat {seat + 1}"


def who(seat: int, table: TableInfo | None, me: int | None) -> str:
    """'You' for the player's own seat, else the seat's name (a sentence's subject)."""
    return "You" if me is not None and seat == me else seat_name(seat, table)


def possessive(seat: int, table: TableInfo | None, me: int | None) -> str:
    """'your' or "Cy's"."""
    return "your" if me is not None and seat == me else f"{seat_name(seat, table)}'s"


def colour_word(colour: str) -> str:
    """'Red' for 'red'."""
    return colour.capitalize()


def side_members(side: int, view: SeatView | None, table: TableInfo | None, players: int) -> list[int]:
    """The seats that play for ``side`` (as the view says, else as the table's seats say; alone without either)."""
    if view is not None:
        return [seat for seat in range(players) if view.side_of(seat) == side]
    if table is not None:
        return [entry.seat for entry in table.seats if entry.side == side]
    return [side] if side < players else []


def side_name(side: int, colours: list[str], view: SeatView | None, table: TableInfo | None) -> str:
    """'Red: Ann & Cy' (a partnership) or 'Red: Ann' (one player)."""
    players = view.players if view is not None else (table.players if table is not None else len(colours))
    names = [seat_name(s, table) for s in side_members(side, view, table, players)]
    return f"{colour_word(colours[side])}: {' & '.join(names)}"


def line_words(line: list[int] | tuple[int, ...]) -> str:
    """'92–88–84–80–76'."""
    return DASH.join(map(str, line))


# -- the log -----------------------------------------------------------------------------------------

#: What each offence was, as a short phrase after the offender's name.
OFFENCES = {
    "play-out-of-turn": "played out of turn",
    "draw-out-of-turn": "drew out of turn",
    "discard-out-of-turn": "discarded out of turn",
    "illegal-play": "played a card below the square",
    "illegal-draw": "drew with a full hand",
}


def event_line(event: Event, table: TableInfo | None = None, me: int | None = None,
               colours: list[str] | None = None) -> str:
    """One log line for a server event (``board99.events``, as the player's seat sees it), in people's words."""
    seat = getattr(event, "seat", None)
    name = who(seat, table, me) if isinstance(seat, int) else ""
    match event:
        case Dealt(deal, cut, first):
            return deal_line(deal, cut, first, table, me)
        case Drew(_, card):
            return f"{name} drew {'a card' if card is None else f'card {card}'}"
        case Played(_, card, square):
            return f"{name} pegged square {square} with card {card}"
        case Discarded(_, card):
            return f"{name} discarded card {card}"
        case Penalty(_, offence, card, square):
            what = OFFENCES.get(offence, "broke a rule")
            where = f" on square {square}" if square >= 0 else ""
            return f"Penalty: {name} {what} (card {card}{where}). Rule: {event.rule}"
        case Skipped():
            return f"{name} {'lose' if name == 'You' else 'loses'} this turn (penalty)"
        case Passed():
            return f"{name} {'pass' if name == 'You' else 'passes'}: no cards left and the deck is empty"
        case Won(side, won_by, line):
            team = colour_word(colours[side]) if colours and side < len(colours) else "A side"
            return f"{team} wins! {seat_name(won_by, table)} completed {line_words(line)}"
        case Tied(deal):
            return f"Tie in deal {deal}: deck and hands are empty. The deal is replayed."
    # Another game's event (a table screen shows its own kind's): its record line, as the reader sees it.
    text = getattr(event, "text", None)
    return str(text()) if callable(text) else ""


def clock_line(event: Event, table: TableInfo | None, me: int | None) -> str:
    """The log line for a move the turn clock made: said as such, not as an ordinary move."""
    seat = getattr(event, "seat", 0)
    match event:
        case Drew():
            move = "a card was drawn"
        case Discarded(_, card):
            move = f"card {card} was discarded"
        case _:
            move = "a move was made"
    if me is not None and seat == me:
        return f"Time ran out: your turn was played for you ({move})"
    return f"Time ran out: {seat_name(seat, table)}'s turn was played for them ({move})"


def deal_line(deal: int, cut: list[int] | tuple[int, ...] | None, first: int, table: TableInfo | None,
              me: int | None) -> str:
    """'Deal 2: Cy drew the lowest card and starts' (no codes, no cut numbers)."""
    starter = who(first, table, me)
    ending = "" if starter == "You" else "s"
    if not cut:
        return f"Deal {deal}: {starter} start{ending}"
    return f"Deal {deal}: {starter} drew the lowest card and start{ending}"


def game_start_line(view: SeatView, table: TableInfo) -> str:
    """The log line for a game the window sees begin (or joins under way), with who starts."""
    started = "starts" if view.ply == 0 else "is under way"
    cut = view.cut
    if not cut:
        return f"Game {table.game} {started}"
    first = cut.index(min(cut))
    return f"Game {table.game} {started}. " + deal_line(view.deal, cut, first, table, view.seat)


def welcome_back_line(view: SeatView, table: TableInfo) -> str:
    """The log line for the player's own unfinished game picked up again: not a new game's start."""
    return f"Welcome back: your unfinished game goes on (game {table.game}, deal {view.deal})"


def since_line(event: Event, table: TableInfo | None) -> str | None:
    """The short line the "since your turn" list shows for another seat's event (None: not listed)."""
    name = seat_name(getattr(event, "seat", 0), table)
    match event:
        case Played(_, _, square):
            return f"{name}: square {square}"
        case Drew():
            return f"{name}: drew"
        case Discarded(_, card):
            return f"{name}: discarded {card}"
        case Penalty(_, offence):
            return f"{name}: penalty ({OFFENCES.get(offence, 'offence')})"
        case Skipped():
            return f"{name}: lost the turn"
    return None


# -- results -----------------------------------------------------------------------------------------


def result_title(view: SeatView | None, winner: int) -> str:
    """'You won', 'Your side won' or 'You lost' (a spectator: '<Colour> won' is said by the line)."""
    if view is None or view.side is None:
        return "Game over"
    if view.side != winner:
        return "You lost"
    partners = sum(1 for s in range(view.players) if view.side_of(s) == winner) > 1
    return "Your side won" if partners else "You won"


def result_line(view: SeatView | None, table: TableInfo | None, colours: list[str], event: Won) -> str:
    """The result's second line: who completed which line, and for which side."""
    maker = who(event.seat, table, view.seat if view is not None else None)
    return f"{maker} completed {line_words(event.line)} ({side_name(event.side, colours, view, table)})"


# -- warnings and reasons ----------------------------------------------------------------------------


def offence_warning(view: SeatView, action: Action, table: TableInfo | None = None) -> str | None:
    """In penalty mode: the warning to show before an action the view rules an offence, else None."""
    ruling = view.ruling(action)
    if ruling.penalty is None:
        return None  # proper, or refused in any mode: the server's answer says why
    if ruling.offence == "illegal-play":
        assert type(action) is Play
        what = f"Card {action.card} allows squares {label(action.card)}, not {action.square}."
    elif ruling.offence == "illegal-draw":
        what = f"You already hold {HAND_LIMIT} cards."
    else:  # one of the out-of-turn offences
        turn = view.turn if view.turn is not None else 0
        what = f"It is {seat_name(turn, table)}'s turn, not yours."
    return f"{what} If you go on: {ruling.penalty}."


def warning_withdrawn(ruling: Ruling | None) -> str:
    """Why an offence warning closed itself: the engine now rules its action something else (None: no game)."""
    return WARNING_NO_OFFENCE if ruling is not None and ruling.legal else WARNING_WITHDRAWN


def not_now(view: SeatView | None, table: TableInfo | None = None) -> str | None:
    """Why the player cannot act at all now (guarded mode), or None."""
    if view is None:
        return "waiting for the game to start"
    if view.spectator:
        return "you are watching"
    if view.over:
        return "the game is over"
    if not view.my_turn:
        return f"it is {seat_name(view.turn if view.turn is not None else 0, table)}'s turn"
    return None


def draw_disabled(view: SeatView | None, table: TableInfo | None = None) -> str | None:
    """Why DRAW is shown disabled in guarded mode, or None."""
    reason = not_now(view, table)
    if reason or view is None:
        return reason
    ruling = view.ruling(Draw())
    if ruling.offence == "illegal-draw":  # refused in guarded mode, punished in penalty mode
        return f"your hand is full ({HAND_LIMIT} cards): play or discard"
    if ruling.refused == "deck-empty":
        return "the deck is empty"
    return ruling.message or None


def play_disabled(view: SeatView | None, card: int | None, table: TableInfo | None = None) -> str | None:
    """Why playing the picked card is shown disabled in guarded mode, or None."""
    reason = not_now(view, table)
    if reason or view is None:
        return reason
    if card is None:
        return pick_first(view)
    if view.dead(card):
        return f"card {card} is dead: squares {card}-99 are all taken; discard it"
    return None


def discard_disabled(view: SeatView | None, card: int | None, table: TableInfo | None = None) -> str | None:
    """Why DISCARD is shown disabled in guarded mode, or None."""
    reason = not_now(view, table)
    if reason or view is None:
        return reason
    return pick_first(view) if card is None else None


def disabled_line(reasons: dict[str, str | None]) -> str:
    """'Draw, Play, Discard: not now — <reason>' (actions sharing a reason are named together)."""
    grouped: dict[str, list[str]] = {}
    for what, reason in reasons.items():
        if reason:
            grouped.setdefault(reason, []).append(what)
    return "; ".join(f"{', '.join(whats)}: {reason}" for reason, whats in grouped.items())


# -- seats and the panel -----------------------------------------------------------------------------

#: The lowest rating shown as a number (docs/ratings.md): below it a rating reads "< 100". The random bot's
#: fixed figure is only a bound (at least 1,951 below the rulebook bot, i.e. -451 or lower), and a number
#: under zero reads as a mistake rather than as "very weak".
RATING_FLOOR = 100


def rating_words(rating: int) -> str:
    """A rating as a person reads it: the number, or "< 100" below the floor.

    >>> rating_words(1612), rating_words(100), rating_words(-451)
    ('1612', '100', '< 100')
    """
    return str(rating) if rating >= RATING_FLOOR else f"< {RATING_FLOOR}"



def seat_label(seat: int, side: int, view: SeatView | None, table: TableInfo | None, colour: str) -> str:
    """A seat's label lines: name ('You' / 'partner'), side colour, hand size and skips."""
    me = view.seat if view is not None else None
    name = seat_name(seat, table)
    entry = table.seat_info(seat) if table is not None else None
    if entry is not None and entry.rating is not None:
        name = f"{name} · {rating_words(entry.rating)}"  # a rated table shows each player's rating by the name
    if me is not None and seat == me:
        name = name if name == "You" else f"{name} (you)"
    elif me is not None and view is not None and view.partner(me) == seat:
        name = f"{name} · your partner"
    detail = colour_word(colour)
    if view is not None:
        n = view.hand_sizes[seat]
        detail += f" · {n} card{'' if n == 1 else 's'}"
        if view.skips[seat]:
            detail += f" · misses {view.skips[seat]} turn{'' if view.skips[seat] == 1 else 's'}"
    if entry is not None and entry.hints:
        detail += f" · {entry.hints} hint{'' if entry.hints == 1 else 's'}"  # asking the coach is no secret
    return f"{name}\n{detail}"


def turn_headline(view: SeatView | None, table: TableInfo | None, waiting: bool) -> str:
    """The panel's large line: 'Your turn', "Cy's turn", 'Waiting for players', 'Game over'."""
    if view is None or waiting:
        return "Waiting for players"
    if view.over or view.turn is None:
        return "Game over"
    if view.turn == view.seat:
        return "Your turn"
    return f"{seat_name(view.turn, table)}'s turn"


def status_lines(view: SeatView | None, table: TableInfo | None, connected: bool,
                 clock_left: float | None, colours: list[str] | None = None) -> list[str]:
    """The panel's status: players and mode, connection, rematch votes, the sides by colour and players."""
    described = view or table
    mode = described.mode if described is not None else MODES[0]
    players = described.players if described is not None else PLAYER_COUNTS[0]
    lines = [f"{players} players · {mode} mode" + (" · Rated" if table is not None and table.rated else "")
             + (f" · deal {view.deal}" if view is not None and view.deal > 1 else "")]
    if not connected:
        lines.append("Reconnecting… (the server is not answering)")
    if table is not None and table.state == "over" and table.votes:
        lines.append(f"{rematch_label(table)} asked by " + ", ".join(seat_name(s, table) for s in table.votes))
    if view is None or (table is not None and table.state == "waiting"):
        empty = table.free_seats() if table is not None else ()
        if empty:
            lines.append(f"{len(empty)} empty seat{'' if len(empty) == 1 else 's'}")
        return lines
    if colours and view.sides > 1:
        lines.extend(side_name(side, colours, view, table) for side in range(view.sides))
    return lines


def deck_lines(view: SeatView | None, table: TableInfo | None, clock_left: float | None) -> list[str]:
    """Beside the deck: its size, the turn clock, skipped turns to come and cards shown by penalties."""
    if view is None:
        return ["Deck"]
    lines = [f"Deck: {view.deck_size}"]
    if clock_left is not None and table is not None and table.clock:
        lines.append(f"Turn clock: {math.ceil(clock_left)} s of {table.clock:g}")
    me = view.seat
    skips = [f"{who(s, table, me)} {'miss' if s == me else 'misses'} {n}" for s, n in enumerate(view.skips) if n]
    if skips:
        lines.append("Skipped turns: " + ", ".join(skips))
    if view.shown:
        lines.append("Shown by penalties: " + " ".join(map(str, view.shown)))
    return lines


# -- the table's notices, toasts and labels ----------------------------------------------------------

RECONNECTING = "Reconnecting…"
CANCELLED = "Cancelled: nothing was done"
PICK_TO_DISCARD = "Pick a card to discard first (keys 1-5)"
NOT_CONNECTED = "Not connected to a server"
BOTS_ASKED = "Bots asked for the empty seats"
RESTARTED = "The server restarted; taking the seat back…"
LOG_HEAD = "Event log"
SINCE_HEAD = "Since your turn"
PENALTY_MODE_NOTE = "Penalty mode: offences are allowed, warned about first and penalised after."
WARNING_WITHDRAWN = "The game moved on, so the warning was closed: nothing was done"
WARNING_NO_OFFENCE = "It is your turn now, so that is no offence any more: the warning was closed and nothing was done"
LEAVE_QUESTION = ("Leave this game?\n\nA bot will play your seat; you can take it back from the lobby "
                  "while the game lasts.")
FIRST_GAME_HINT = "Tip: pick a card (1-5), then click a lit square. Or draw (D), or discard the picked card (X)."
TIP_WAIT = "Tip: not your turn yet: your hand rises and glows when it is."


def turn_tip(view: SeatView | None) -> str:
    """The first-game tip: what the player may do now, from the view's own legal actions (no rule said twice).

    >>> from board99 import SeatView
    >>> view = SeatView.before_deal(2, "guarded", 0)._replace(deal=1, turn=0, hand=(), deck_size=80)
    >>> turn_tip(view)
    'Tip: your hand is empty: draw a card (D).'
    """
    legal = view.legal_actions() if view is not None else []
    if not legal:
        return TIP_WAIT
    play = any(type(a) is Play for a in legal)
    draw = any(type(a) is Draw for a in legal)
    discard = any(type(a) is Discard for a in legal)
    if play and draw and discard:
        return FIRST_GAME_HINT
    if play:
        return "Tip: pick a card (1-5), then click a lit square" + (", or draw (D)." if draw else
                                                                    ", or discard the picked card (X)."
                                                                    if discard else ".")
    if draw and not discard:
        return f"Tip: {EMPTY_HAND}."
    if draw:
        return "Tip: no card you hold fits a free square: draw (D), or pick a card (1-5) and discard it (X)."
    return "Tip: no card you hold fits a free square: pick one (1-5) and discard it (X)."
HINT_OFF = "Don't show again"
DISMISS = "Esc or click: close"


def coach_picked(action: Play | Discard) -> str:
    """The notice when the coach's hint picks the card it suggests (Esc puts it back)."""
    if type(action) is Play:
        return f"Coach picked your {action.card}: click square {action.square}"
    return f"Coach picked your {action.card}: X discards it"


def picked(card: int) -> str:
    """The notice for a picked card: which squares it reaches."""
    return f"Card {card} picked: it allows squares {label(card)}. Click a square."


def no_such_card(held: int, index: int) -> str:
    """The notice for a pick past the end of the hand (``index`` counts from 0)."""
    return f"You hold {held} card{'' if held == 1 else 's'}; there is no card {index + 1}"


def pick_for_square(square: int) -> str:
    """The notice for a click on a square with no card picked."""
    return f"Square {square}: pick a card first (click it or press 1-5)"


def not_possible(reason: str) -> str:
    """The notice for an action held back in guarded mode."""
    return f"Not possible now: {reason}"


def sent(action: Action) -> str:
    """The notice for an action handed to the server."""
    if type(action) is Play:
        return f"Pegging square {action.square} with card {action.card}…"
    if type(action) is Discard:
        return f"Discarding card {action.card}…"
    return "Drawing a card…"


#: The server's refusal codes in words (the square or card comes from the action refused).
REFUSALS = {
    "deal-over": "The game is over",
    "out-of-turn": "It is not your turn",
    "deck-empty": "The deck is empty",
    "hand-full": "Your hand is full: play or discard first",
    "not-in-hand": "You do not hold that card",
    "not-seated": "You are not seated at this table",
    "rate-limited": "Too many requests: wait a moment",
}


def refused(code: str, message: str, action: Action | None = None) -> str:
    """The notice for a request the server refused, in words (no codes)."""
    if code == "occupied" and type(action) is Play:
        return f"Square {action.square} is taken"
    if code == "below-card" and type(action) is Play:
        return f"Card {action.card} cannot go on square {action.square}: it allows {label(action.card)}"
    if code in REFUSALS:
        return REFUSALS[code]
    return f"Not done: {message}" if message else "Not done"


def seat_lost(code: object, message: object) -> str:
    """The notice for a seat the client library could not take back after a reconnect."""
    return f"Your seat could not be taken back: {message}"


def server_says(message: object) -> str:
    """The notice for an error the server sent unasked (e.g. rate-limited)."""
    return f"Server: {message}"


def warning_box(text: str) -> str:
    """The warning box's text before an offence (penalty mode)."""
    return f"This is an offence\n\n{text}"


def hand_label(view: SeatView | None) -> str:
    """The line under the hand: how many cards, or that this is a spectator."""
    if view is None:
        return ""
    if view.spectator:
        return "You are watching"
    return f"Your hand: {len(view.hand or ())} of {HAND_LIMIT} cards"


def deck_label(view: SeatView | None) -> str:
    """The deck's caption: how many cards are left."""
    return f"Deck: {view.deck_size}" if view is not None else "Deck"


def pile_label(cards: int) -> str:
    """The caption under a discard pile."""
    return f"{cards} discarded" if cards else "no discards"


def mute_label(muted: bool) -> str:
    """The sound button's text."""
    return "Sound off (M)" if muted else "Sound on (M)"


def window_title(my_turn: bool, base: str) -> str:
    """The window's title: 'Your turn — GAME OF 99' while it is the player's turn."""
    return f"Your turn — {base}" if my_turn else base


# -- records and matches -----------------------------------------------------------------------------

SAVING = "Saving the record…"
SAVE_LABEL = "Save record"
REVIEW_LABEL = "Review (R)"
REVIEW_FETCHING = "Fetching the game for its review…"
REVIEW_NOT_NOW = "A review is possible once the game is over"


def not_reviewed(message: str) -> str:
    """The notice when the finished game's record could not be fetched for its review."""
    return f"The game could not be fetched for its review: {message}" if message else \
        "The game could not be fetched for its review"

LOOK_BACK = "◀ Look back (←)"
LOOK_BACK_NOT_NOW = "Looking back works while you watch a game"


def saved(where: str) -> str:
    """The toast after a record was written, with spaces where a narrow panel may wrap the path.

    >>> saved("~/Documents/board99/den-game-2.txt")
    'Saved as den-game-2.txt in ~/Documents/board99'
    """
    folder, _, name = where.rpartition("/")
    return f"Saved as {name} in {folder}" if folder else f"Saved as {name}"


def not_saved(message: str) -> str:
    """The notice when a record could not be fetched or written."""
    return f"The record was not saved: {message}" if message else "The record was not saved"


def match_game(table: TableInfo) -> int:
    """Which game of its match the table plays (1 for the match's first)."""
    return table.game - table.match.first_game + 1 if table.match is not None else table.game


def score_words(table: TableInfo, colours: list[str]) -> str:
    """'Red 2 – Blue 1': games won by each side, by colour."""
    assert table.match is not None
    won = table.match.score(table.sides)
    return f" {DASH} ".join(f"{colour_word(colours[side])} {won[side]}" for side in range(table.sides))


def match_strip(table: TableInfo | None, colours: list[str]) -> tuple[str, str] | None:
    """The score strip at a match table: ('First to 3 · game 4', 'Red 2 – Blue 1'); None without a match."""
    if table is None or table.match is None:
        return None
    head = table.match.format.text()
    return f"{head[:1].upper()}{head[1:]} · game {match_game(table)}", score_words(table, colours)


def rematch_asked(table: TableInfo | None) -> str:
    """The notice after the player voted, in the button's own words: 'Rematch asked for', 'Next game asked for'."""
    return f"{rematch_label(table)} asked for"


def rematch_label(table: TableInfo | None) -> str:
    """The rematch button: 'Next game' while a match is undecided, 'New match' once decided, else 'Rematch'."""
    if table is None or table.match is None:
        return "Rematch"
    return "New match" if table.match.over(table.sides) else "Next game"


def match_result(table: TableInfo, view: SeatView | None, colours: list[str]) -> tuple[str, list[str]]:
    """The match result box: its title and lines (the score, each game's winner and line, who played what)."""
    match = table.match
    assert match is not None
    winner = match.winner(table.sides)
    if winner is None:
        title = "The match is level"
    elif view is not None and view.side is not None:
        # The loser reads about themselves, as the game's own result box says "You lost".
        title = "You won the match" if view.side == winner else "You lost the match"
    else:
        title = f"{colour_word(colours[winner])} won the match"
    lines = [f"{match.format.text().capitalize()}: {score_words(table, colours)}", ""]
    for n, result in enumerate(match.results, start=1):
        r = from_result(result)  # the peg-board game's own facts of the result (its winning line)
        deals = f" ({r.deals} deals)" if r.deals > 1 else ""
        lines.append(f"Game {n}: {colour_word(colours[r.side])}. {seat_name(r.seat, table)} completed "
                     f"{line_words(r.line)}{deals}")
    lines.append("")
    lines.extend(side_name(side, colours, view, table) for side in range(table.sides))
    return title, lines


# -- the coach (board99.coach, docs/coach.md) ----------------------------------------------------------

HINT_LABEL = "Hint (H)"
ASKING_COACH = "Asking the coach…"
COACH_CLOSE = "Esc or H: close the hint"
COACH_NOT_NOW = "The coach gives hints while you play a game"


def hint_off(table: TableInfo | None) -> str | None:
    """Why the coach gives no hints at this table (rated and match tables), or None where it does."""
    if table is None or table.coach:
        return None
    if table.rated:
        return "Hints are off at rated tables"
    return "Hints are off at match tables" if table.match is not None else "This server gives no hints"


def coach_asked(seat: int, table: TableInfo | None) -> str:
    """The log line and announcement when another player asks the coach: 'Cy asked the coach for a hint'."""
    return f"{seat_name(seat, table)} asked the coach for a hint"


def coach_words(text: str, table: TableInfo | None) -> str:
    """The coach's words with seats as names: 'S1 and S3 hold …' -> 'Ben and Di hold …'."""
    return re.sub(r"\bS(\d)\b", lambda m: seat_name(int(m[1]), table), text)


def coach_title(kind_title: str, my_turn: bool = True) -> str:
    """The hint box's heading: 'Coach: Block the threat' ('… (for your turn)' while another seat plays)."""
    return f"Coach: {kind_title}" + ("" if my_turn else " (for your turn)")


def coach_body(advice: Advice, table: TableInfo | None) -> tuple[str, str]:
    """The hint box's text under its heading: the applied hint's words and the rulebook's; then the others."""
    first, rest = advice.hints[0], advice.hints[1:]
    main = f"{coach_words(first.words, table)}\nRulebook: \u201c{first.rule}\u201d"
    also = "\n".join(f"Also \u2013 {h.title}: {coach_words(h.words, table)}" for h in rest)
    return main, also


def hint_refused(code: str, message: str) -> str:
    """The notice when the server gives no hint."""
    if code == "hints-off":
        return "No hint: the coach is off at rated and match tables"
    if code == "too-often":
        return "No hint now: " + message.partition(": ")[2].split("; ")[-1]
    return refused(code, message)
