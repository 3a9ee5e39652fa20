"""Carrying out an action: through the table's game kind, into the journal, then the reply and the pushes.

Every action takes this one path, whoever chose it: a person's ``act``, a
server bot's move, a slow bot's answer from the worker, or the turn clock.
The action, its events and the views are the kind's (``board99.kinds``): this
module reads them only through the kind's codecs.
"""

from __future__ import annotations

import logging
from typing import Any

from board99.kinds import Refusal
from board99.wire.protocol import ProtocolError

from .finish import finish_game, next_game_by_itself
from .outbox import Thought
from .presence import Conn
from .state import DAMAGED, JournalFailed, State
from .tables import Table

log = logging.getLogger("board99.server")


def act_reply(t: Table, seat: int, events: tuple[Any, ...], rid: int | None, now: float) -> dict[str, Any]:
    """The reply to an accepted ``act``: the actor's view of its events and of the table after them."""
    event_for = t.kind.event_for
    reply = {"type": "reply", "id": rid, "events": [event_for(e, seat) for e in events],
             "seq": t.seq, "view": t.view_data(seat), "state": t.state, "turn_left": t.turn_left(now)}
    if t.state == "over":
        reply["table"] = t.describe(now)
    return reply


def carry_out(state: State, t: Table, seat: int, action: Any, actor: Conn | None = None,
              by_clock: bool = False) -> tuple[Any, ...]:
    """Check an action, journal it, carry it out through the engine, then tell the table.

    Memory changes only after the journal has the action: ``Table.check`` (the kind's own
    judgement) says first whether it will be accepted (its Refusal or ProtocolError propagate, and
    nothing changed); then the journal commits it; then the kind's game applies it, which cannot fail
    now. ``actor``, a person's connection, gets its reply before anyone's push, so its round trip
    does not wait for the table's pushes; it gets no push of its own action.
    """
    offence = t.check(seat, action)
    state.journaled("action", state.journal.save_action, t, seat, action, table=t,
                    refusal="the action could not be saved, so it did not happen")
    events = t.apply(seat, action, state.now, offence)
    t.seq += 1
    if t.state == "over" and not finish_game(state, t) and state.lobby.tables.get(t.id) is not t:
        raise JournalFailed(DAMAGED)  # the game's end met damage in the journal: the table was set aside
    if actor is not None:
        state.out.send(actor.ident, act_reply(t, seat, events, actor.rid, state.now))
    if offence:
        # An offence the kind carried out (penalty mode); its code only: the events may hold secrets.
        log.info("event=penalty table=%s seat=%d offence=%s", t.id, seat, offence)
    kind = t.kind
    extra: dict[str, Any] = {"by": seat, "action": kind.action_to_data(action), "state": t.state,
                             "turn_left": t.turn_left(state.now), "clock": by_clock}
    if t.state == "over":
        # The game's end travels with the winning action (the seats may have changed: vacated
        # seats are freed), so the actor's reply and everyone's push stay one seq each.
        extra["info"] = t.describe(state.now)
        log.info("event=game-over table=%s game=%d result=%r plies=%d deals=%d",
                 t.id, t.game_no, kind.summary(t.game), t.game.ply, t.game.deal)
    state.out.push(t, "update", extra, exclude=None if actor is None else actor.ident,
                   per_seat=lambda s: {"events": [kind.event_for(e, s) for e in events]})
    state.schedule(t)
    if t.state == "over":
        next_game_by_itself(state, t)
    return events


def act(state: State, conn: Conn, f: dict[str, Any]) -> None:
    """The ``act`` request: a person plays, draws or discards for the seat this connection holds."""
    t = state.lobby.get(f["table"])
    seat = f["seat"]
    t.check_token(seat, f["token"])
    if conn.table != t.id or conn.seat != seat:
        raise ProtocolError("not-your-seat", f"this connection does not hold S{seat} at table {t.id}; "
                                             f"resume with the seat's token first")
    try:
        action = t.kind.action_from_data(f["action"])
    except ValueError as exc:
        raise ProtocolError("bad-field", str(exc)) from None
    ply = f.get("ply")
    if ply is not None and ply != t.game.ply and t.state == "playing":
        # Chosen on a position that has since changed (a push still on its way, the clock, a bot).
        raise ProtocolError("stale", f"ply: the game is at action {t.game.ply}, not {ply}; "
                                     f"the table moved on, so look again")
    carry_out(state, t, seat, action, actor=conn)


# -- moves nobody sent: server bots and the turn clock ---------------------------------------------


def run_timers(state: State) -> None:
    """Make every bot move and clock expiry that is due (at most ``timers_max`` in one call)."""
    for timer in state.timers.due(state.now, state.settings.timers_max):
        t = state.lobby.tables.get(timer.table)
        if t is None or t.state != "playing" or t.game_no != timer.game_no or t.game.ply != timer.ply:
            continue  # stale: the table moved on
        seat = t.game.turn
        assert seat is not None
        if timer.kind == "bot":
            if t.bot_turn() is None:
                continue
            if t.slow_bot(seat):
                state.out.think((t.id, t.game_no, t.game.ply, seat), t.bot_for(seat), t.view(seat))
                continue
            try:
                action = t.bot_for(seat).choose(t.view(seat))
            except Exception:
                log.exception("event=bot-error table=%s seat=%d", t.id, seat)
                action = t.clock_action()
            move_for(state, t, seat, action)
        elif t.turn_since + (t.clock or 0.0) > state.now:
            state.schedule(t)  # the turn changed hands since this timer was set
        else:
            action = t.clock_action()
            log.info("event=clock-expired table=%s seat=%d action=%r", t.id, seat, action.text())
            move_for(state, t, seat, action, by_clock=True)


def thought(state: State, key: Any, result: Thought | Exception) -> None:
    """A slow bot's answer came back from the worker: play it if the table is still where it was."""
    table_id, game_no, ply, seat = key
    t = state.lobby.tables.get(table_id)
    if t is None or (t.game_no, t.game.ply) != (game_no, ply) or t.bot_turn() != seat:
        return  # the table moved on while the bot thought
    if isinstance(result, Exception):
        log.error("event=bot-error table=%s seat=%d error=%r", t.id, seat, result)
        action = t.clock_action()
    else:
        if t.seats[seat].bot == result.bot.name:
            t.bots[seat] = result.bot  # with what it learnt from this view, for its next move
        action = result.action
    move_for(state, t, seat, action)


#: After a journal failure a table's next server move waits this long, doubling up to RETRY_MAX.
RETRY_FIRST, RETRY_MAX = 0.5, 30.0


def move_for(state: State, t: Table, seat: int, action: Any, by_clock: bool = False) -> None:
    """Carry out a move the server chose for a seat.

    If the kind refuses it (a bot's bug), the clock's move is made instead; if the journal
    fails, nothing happened and the move is tried again later (never as anything else: a move
    made on a position that has not changed is the same move).
    """
    try:
        try:
            carry_out(state, t, seat, action, by_clock=by_clock)
        except Refusal as exc:
            log.error("event=bot-refused table=%s seat=%d action=%r code=%s", t.id, seat, action.text(), exc.code)
            carry_out(state, t, seat, t.clock_action(), by_clock=by_clock)
        t.retry_after = 0.0
    except JournalFailed:
        t.retry_after = min(RETRY_MAX, max(RETRY_FIRST, t.retry_after * 2))
        state.timers.retry(t, state.now + t.retry_after)
