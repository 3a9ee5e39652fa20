"""What the table says in words: event log lines, seat names, warnings and disabled-action reasons.

Nothing here decides a rule. Log lines and penalties come from the server's
events (the rule text is the server's); warnings and reasons read the facts
the server's view carries (whose turn, hand sizes, the deck) so the player is
told before acting, and the server still has the last word on every action.
"""

from __future__ import annotations

from board99 import HAND_LIMIT, PENALTY_RULES, Discard, Draw, Play, fits

from .palette import MARKS


def seat_name(seat: int, table: dict | None) -> str:
    """'S2 Ann'; 'S2 (empty)' for a free seat; just 'S2' when the table does not say."""
    for entry in (table or {}).get("seats", ()):
        if entry.get("seat") == seat:
            if entry.get("name"):
                return f"S{seat} {entry['name']}"
            if "occupant" in entry and not entry["occupant"]:
                return f"S{seat} (empty)"
    return f"S{seat}"


def event_line(event: dict, table: dict | None = None) -> str:
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


def side_label(side: int) -> str:
    """'1 (O)': the side number and its mark."""
    return f"{side} ({MARKS[side % len(MARKS)]})"


def offence_warning(view: dict, action: Play | Draw | Discard) -> str | None:
    """In penalty mode: the warning to show before an action the view says is an offence, else None."""
    seat, turn = view.get("seat"), view.get("turn")
    if seat is None or view.get("winner") is not None:
        return None
    if seat != turn:
        offence = {Play: "play-out-of-turn", Draw: "draw-out-of-turn", Discard: "discard-out-of-turn"}[type(action)]
        return f"It is S{turn}'s turn, not yours. If you go on: {PENALTY_RULES[offence]}."
    if type(action) is Play and not fits(action.card, action.square):
        return (f"Card {action.card} allows squares {action.card} to 99, not {action.square}. "
                f"If you go on: {PENALTY_RULES['illegal-play']}.")
    if type(action) is Draw and len(view.get("hand") or ()) >= HAND_LIMIT:
        return f"You already hold {HAND_LIMIT} cards. If you go on: {PENALTY_RULES['illegal-draw']}."
    return None


def not_now(view: dict | None) -> str | None:
    """Why the player cannot act at all now (guarded mode), or None."""
    if not view:
        return "waiting for the game to start"
    if view.get("seat") is None:
        return "you are watching (spectator)"
    if view.get("winner") is not None:
        return "the deal is over"
    if view.get("turn") != view.get("seat"):
        return f"not your turn: S{view.get('turn')} plays"
    return None


def draw_disabled(view: dict | None) -> str | None:
    """Why DRAW is shown disabled in guarded mode, or None."""
    reason = not_now(view)
    if reason:
        return reason
    assert view is not None
    if len(view.get("hand") or ()) >= HAND_LIMIT:
        return f"hand full ({HAND_LIMIT} cards): play or discard"
    if not view.get("deck_size"):
        return "the deck is empty"
    return None


def play_disabled(view: dict | None, card: int | None) -> str | None:
    """Why playing the picked card is shown disabled in guarded mode, or None."""
    reason = not_now(view)
    if reason:
        return reason
    assert view is not None
    if card is None:
        return "pick a card first (keys 1-5)"
    if all(view["board"][sq] is not None for sq in range(card, 100)):
        return f"card {card} is dead: squares {card}-99 are all taken; discard it"
    return None


def discard_disabled(view: dict | None, card: int | None) -> str | None:
    """Why DISCARD is shown disabled in guarded mode, or None."""
    reason = not_now(view)
    if reason:
        return reason
    return "pick a card first (keys 1-5)" if card is None else None
