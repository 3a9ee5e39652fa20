"""What the table says in words: event log lines, seat names, warnings and disabled-action reasons.

Nothing here decides a rule. Log lines and penalties come from the server's
events (the rule text is the server's); warnings and reasons read the facts
the server's view carries (whose turn, hand sizes, the deck) so the player is
told before acting, and the server still has the last word on every action.
"""

from __future__ import annotations

import math

from board99 import HAND_LIMIT, PENALTY_RULES, Discard, Draw, Play, fits

from .palette import MARK_NAMES, MARKS


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


def seat_label(seat: int, side: int, view: dict | None, table: dict | None, colour: str) -> str:
    """A seat's three label lines: name (and 'you'), colour and mark, hand size and skips."""
    name = seat_name(seat, table)
    if view is not None and seat == view.get("seat"):
        name += " (you)"
    detail = ""
    if view is not None:
        n = view["hand_sizes"][seat]
        detail = f"{n} card{'' if n == 1 else 's'}"
        if view["skips"][seat]:
            detail += f" · skips {view['skips'][seat]}"
    return f"{name}\n{colour} {MARK_NAMES[MARKS[side % len(MARKS)]]}\n{detail}"


def status_lines(view: dict | None, table: dict, connected: bool, clock_left: float | None) -> list[str]:
    """The panel's status: players and mode, connection, whose turn, skips, shown cards, the clock."""
    mode = (view or {}).get("mode") or table.get("mode") or "guarded"
    players = (view or {}).get("players") or table.get("players") or 2
    lines = [f"{players} players · {mode} mode"]
    if not connected:
        lines.append("reconnecting… (the server is not answering)")
    if table.get("state") == "over" and table.get("votes"):
        lines.append("Rematch asked by " + ", ".join(f"S{s}" for s in table["votes"]))
    if view is None or table.get("state") == "waiting":
        empty = [s["seat"] for s in table.get("seats", ()) if not s.get("occupant")]
        lines.append("Waiting for players" + (f": seats {', '.join(map(str, empty))} empty" if empty else ""))
        return lines
    if view.get("winner") is not None:
        lines.append(f"Deal {view['deal']} · side {side_label(view['winner'])} won")
    elif view.get("turn") is not None:
        who = seat_name(view["turn"], table)
        lines.append(f"Deal {view['deal']} · " + ("your turn" if view["turn"] == view.get("seat") else f"{who} to play"))
    skips = [f"S{s}: {n}" for s, n in enumerate(view["skips"]) if n]
    if skips:
        lines.append("Skips pending: " + ", ".join(skips))
    if view.get("shown"):
        lines.append("Cards shown by penalties: " + " ".join(map(str, view["shown"])))
    if clock_left is not None:
        lines.append(f"Turn clock: {math.ceil(clock_left)} s of {table['clock']:g}")
    return lines
