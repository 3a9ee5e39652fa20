"""What the table says in words: event log lines, seat names, warnings and disabled-action reasons.

Nothing here decides a rule. Log lines and penalties come from the server's
events (the rule text is the server's); warnings and reasons put into words
what the view answers (``SeatView.ruling``, ``my_turn``, ``dead`` …), so the
player is told before acting, and the server still has the last word on
every action.
"""

from __future__ import annotations

import math

from board99 import HAND_LIMIT, MODES, PENALTY_RULES, PLAYER_COUNTS, Action, Draw, Play, SeatView
from board99.wire.table_info import TableInfo

from .palette import MARK_NAMES, MARKS

PICK_FIRST = "pick a card first (keys 1-5)"


def seat_name(seat: int, table: TableInfo | None) -> str:
    """'S2 Ann'; 'S2 (empty)' for a free seat; just 'S2' when the table does not say."""
    entry = table.seat_info(seat) if table is not None else None
    if entry is not None:
        if entry.name:
            return f"S{seat} {entry.name}"
        if entry.free:
            return f"S{seat} (empty)"
    return f"S{seat}"


def event_line(event: dict, table: TableInfo | None = None) -> str:
    """One log line for a server event (a board99.seen_by dict)."""
    kind = event.get("kind")
    who = seat_name(event["seat"], table) if "seat" in event else ""
    if kind == "dealt":
        cut = event.get("cut")
        cut_text = f", cut {' '.join(map(str, cut))}" if cut else ""
        return f"Deal {event['deal']} starts{cut_text}; {seat_name(event['first'], table)} plays first"
    if kind == "drew":
        card = event.get("card")
        return f"{who} drew {'a card' if card is None else f'card {card}'}"
    if kind == "played":
        return f"{who} pegged square {event['square']} with card {event['card']}"
    if kind == "discarded":
        return f"{who} discarded card {event['card']}"
    if kind == "penalty":
        rule = event.get("rule") or PENALTY_RULES.get(event.get("offence", ""), "")
        where = f" on square {event['square']}" if event.get("square", -1) >= 0 else ""
        return f"PENALTY {who}, card {event['card']}{where}. Rule: {rule}"
    if kind == "skipped":
        return f"{who} loses this turn (penalty)"
    if kind == "passed":
        return f"{who} passes: empty hand, empty deck"
    if kind == "won":
        line = " ".join(map(str, event.get("line", ())))
        return f"Side {side_label(event['side'])} wins! {who} completed the line {line}"
    if kind == "tied":
        return f"Tie in deal {event['deal']}: deck and hands are empty. The deal is replayed."
    return str(event.get("text") or event)


def game_start_line(view: SeatView, table: TableInfo) -> str:
    """The log line for a game the window sees begin (or joins under way), with its cut and opener."""
    cut = view.cut
    opener = f"; {seat_name(cut.index(min(cut)), table)} plays first" if cut else ""
    cut_text = f", cut {' '.join(map(str, cut))}" if cut else ""
    started = "starts" if view.ply == 0 else "is under way"
    return f"Game {table.game} {started} (deal {view.deal}{cut_text}){opener}"


def side_label(side: int) -> str:
    """'1 (O)': the side number and its mark."""
    return f"{side} ({MARKS[side % len(MARKS)]})"


def offence_warning(view: SeatView, action: Action) -> str | None:
    """In penalty mode: the warning to show before an action the view rules an offence, else None."""
    ruling = view.ruling(action)
    if ruling.penalty is None:
        return None  # proper, or refused in any mode: the server's answer says why
    if ruling.offence == "illegal-play":
        assert type(action) is Play
        what = f"Card {action.card} allows squares {action.card} to 99, not {action.square}."
    elif ruling.offence == "illegal-draw":
        what = f"You already hold {HAND_LIMIT} cards."
    else:  # one of the out-of-turn offences
        what = f"It is S{view.turn}'s turn, not yours."
    return f"{what} If you go on: {ruling.penalty}."


def not_now(view: SeatView | None) -> str | None:
    """Why the player cannot act at all now (guarded mode), or None."""
    if view is None:
        return "waiting for the game to start"
    if view.spectator:
        return "you are watching (spectator)"
    if view.over:
        return "the deal is over"
    if not view.my_turn:
        return f"not your turn: S{view.turn} plays"
    return None


def draw_disabled(view: SeatView | None) -> str | None:
    """Why DRAW is shown disabled in guarded mode, or None."""
    reason = not_now(view)
    if reason or view is None:
        return reason
    ruling = view.ruling(Draw())
    if ruling.offence == "illegal-draw":  # refused in guarded mode, punished in penalty mode
        return f"hand full ({HAND_LIMIT} cards): play or discard"
    if ruling.refused == "deck-empty":
        return "the deck is empty"
    return ruling.message or None


def play_disabled(view: SeatView | None, card: int | None) -> str | None:
    """Why playing the picked card is shown disabled in guarded mode, or None."""
    reason = not_now(view)
    if reason or view is None:
        return reason
    if card is None:
        return PICK_FIRST
    if view.dead(card):
        return f"card {card} is dead: squares {card}-99 are all taken; discard it"
    return None


def discard_disabled(view: SeatView | None, card: int | None) -> str | None:
    """Why DISCARD is shown disabled in guarded mode, or None."""
    reason = not_now(view)
    if reason:
        return reason
    return PICK_FIRST if card is None else None


def disabled_line(reasons: dict[str, str | None]) -> str:
    """'Disabled — Draw, Play: <reason>; Discard: <reason>' (actions sharing a reason are named together)."""
    grouped: dict[str, list[str]] = {}
    for what, reason in reasons.items():
        if reason:
            grouped.setdefault(reason, []).append(what)
    shown = [f"{', '.join(whats)}: {reason}" for reason, whats in grouped.items()]
    return "Disabled — " + "; ".join(shown) if shown else ""


def seat_label(seat: int, side: int, view: SeatView | None, table: TableInfo | None, colour: str) -> str:
    """A seat's three label lines: name (and 'you'), colour and mark, hand size and skips."""
    name = seat_name(seat, table)
    if view is not None and seat == view.seat:
        name += " (you)"
    detail = ""
    if view is not None:
        n = view.hand_sizes[seat]
        detail = f"{n} card{'' if n == 1 else 's'}"
        if view.skips[seat]:
            detail += f" · skips {view.skips[seat]}"
    return f"{name}\n{colour} {MARK_NAMES[MARKS[side % len(MARKS)]]}\n{detail}"


def status_lines(view: SeatView | None, table: TableInfo | None, connected: bool,
                 clock_left: float | None) -> list[str]:
    """The panel's status: players and mode, connection, whose turn, skips, shown cards, the clock."""
    described = view or table
    mode = described.mode if described is not None else MODES[0]
    players = described.players if described is not None else PLAYER_COUNTS[0]
    lines = [f"{players} players · {mode} mode"]
    if not connected:
        lines.append("reconnecting… (the server is not answering)")
    if table is not None and table.state == "over" and table.votes:
        lines.append("Rematch asked by " + ", ".join(f"S{s}" for s in table.votes))
    if view is None or (table is not None and table.state == "waiting"):
        empty = table.free_seats() if table is not None else ()
        lines.append("Waiting for players" + (f": seats {', '.join(map(str, empty))} empty" if empty else ""))
        return lines
    if view.winner is not None:
        lines.append(f"Deal {view.deal} · side {side_label(view.winner)} won")
    elif view.turn is not None:
        who = seat_name(view.turn, table)
        lines.append(f"Deal {view.deal} · " + ("your turn" if view.turn == view.seat else f"{who} to play"))
    skips = [f"S{s}: {n}" for s, n in enumerate(view.skips) if n]
    if skips:
        lines.append("Skips pending: " + ", ".join(skips))
    if view.shown:
        lines.append("Cards shown by penalties: " + " ".join(map(str, view.shown)))
    if clock_left is not None and table is not None and table.clock:
        lines.append(f"Turn clock: {math.ceil(clock_left)} s of {table.clock:g}")
    return lines


# -- the table's notices, banners and labels --------------------------------------------------------

RECONNECTING = "reconnecting…"
CANCELLED = "Cancelled: nothing was done"
PICK_TO_DISCARD = "Pick a card to discard first (keys 1-5)"
NOT_CONNECTED = "not connected to a server"
REMATCH_ASKED = "Rematch asked for"
BOTS_ASKED = "Bots asked for the empty seats"
RESTARTED = "The server restarted; taking the seat back…"
LOG_HEAD = "Event log"
PENALTY_MODE_NOTE = ("Penalty mode: you may act out of turn or illegally; "
                     "you are warned first and penalised after.")


def picked(card: int) -> str:
    """The notice for a picked card: which squares it reaches."""
    return f"Card {card} picked: it allows squares {card} to 99. Click a square."


def no_such_card(held: int, index: int) -> str:
    """The notice for a pick past the end of the hand (``index`` counts from 0)."""
    return f"You hold {held} card(s); there is no card {index + 1}"


def pick_for_square(square: int) -> str:
    """The notice for a click on a square with no card picked."""
    return f"Square {square}: pick a card first (click it or press 1-5)"


def not_possible(reason: str) -> str:
    """The notice for an action held back in guarded mode."""
    return f"Not possible now: {reason}"


def sent(action: Action) -> str:
    """The notice for an action handed to the server."""
    return f"Sent: {action.text()}"


def refused(code: str, message: str) -> str:
    """The notice for a request the server refused."""
    return f"Server refused ({code}): {message}"


def seat_lost(code: object, message: object) -> str:
    """The notice for a seat the client library could not take back after a reconnect."""
    return f"Your seat could not be taken back ({code}): {message}"


def server_says(message: object) -> str:
    """The notice for an error the server sent unasked (e.g. rate-limited)."""
    return f"Server: {message}"


def warning_box(text: str) -> str:
    """The warning box's text before an offence (penalty mode)."""
    return f"WARNING — this is an offence\n\n{text}"


def won_banner(line: str) -> str:
    """The banner for a win: the log line and what to do next."""
    return line + "\nPress Rematch to play again."


def hand_label(view: SeatView | None) -> str:
    """The line under the hand: how to play, or that this is a spectator."""
    if view is None:
        return ""
    if view.spectator:
        return "Spectating"
    return f"Your hand, {len(view.hand or ())} of {HAND_LIMIT}: click a card (or 1-5), then a square"


def deck_label(view: SeatView | None) -> str:
    """The deck's caption: how many cards are left."""
    return f"Deck: {view.deck_size} cards" if view is not None else "Deck"


def pile_label(cards: int) -> str:
    """The caption under a discard pile."""
    return f"{cards} discarded" if cards else "no discards"


def mute_label(muted: bool) -> str:
    """The sound button's text."""
    return "Unmute (M)" if muted else "Mute (M)"
