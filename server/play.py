"""Carrying out an action: through the table's game kind, into the journal, then the reply and the pushes.

Every action takes this one path, whoever chose it: a person's ``act``, a
server bot's move, a slow bot's answer from the worker, or the turn clock.
The action, its events and the views are the kind's (``board99.kinds``): this
module reads them only through the kind's codecs.
"""

from __future__ import annotations

import logging
from itertools import repeat
from typing import Any

from board99.kinds import Refusal
from board99.wire.protocol import ProtocolError

from .finish import finish_game, next_game_by_itself
from .outbox import Thought
from .presence import Conn
from .state import DAMAGED, Held, JournalFailed, State
from .tables import Table

log = logging.getLogger("board99.server")
_new = tuple.__new__


def act_reply(t: Table, seat: int, events: tuple[Any, ...], rid: int | None, now: float) -> dict[str, Any]:
    """The reply to an accepted ``act``: the actor's view of its events and of the table after them."""
    # map(), not a comprehension (a call of its own in this Python); no turn_left call without a clock.
    reply = {"type": "reply", "id": rid, "events": list(map(t.kind.event_for, events, repeat(seat))),
             "seq": t.seq, "view": t.view_data(seat), "state": t.state,
             "turn_left": None if t.clock is None else t.turn_left(now)}
    if t.state == "over":
        reply["table"] = t.describe(now)
    return reply


#: What a person is told when the journal could not take their action.
NOT_SAVED = "the action could not be saved, so it did not happen"


def carry_out(state: State, t: Table, seat: int, action: Any, actor: Conn | None = None,
              by_clock: bool = False) -> None:
    """Check an action, journal it, carry it out through the engine, then tell the table.

    Memory changes only after the journal has the action: ``Table.check`` (the kind's own
    judgement) says first whether it will be accepted (its Refusal or ProtocolError propagate, and
    nothing changed); then the journal takes it; then the kind's game applies it, which cannot fail
    now. ``actor``, a person's connection, gets its reply before anyone's push, so its round trip
    does not wait for the table's pushes; it gets no push of its own action.

    While the state is grouping (``Core.receive_many``, ``Core.tick``), the checked action is held:
    ``settle`` journals the group in one transaction, then carries out each.
    """
    if t.id in state.held_tables:
        settle(state)  # one action a table at a time: the next is checked on the position after it
    offence = t.check(seat, action)
    # tuple.__new__ is what Held(...) does, less a Python call (every action makes one).
    held = _new(Held, (t, seat, action, offence, actor, None if actor is None else actor.rid, by_clock))
    if state.grouping:
        _hold(state, held)
    else:
        state.journaled("action", state.journal.save_action, t, seat, action, table=t, refusal=NOT_SAVED)
        _carried_out(state, held)


def _hold(state: State, held: Held) -> None:
    # Checked, not yet journaled: the group's settle writes it with the others.
    state.held.append(held)
    state.held_tables.add(held.table.id)


def settle(state: State) -> None:
    """Journal the group's held actions in one transaction, then carry out and tell each, in order.

    A lone action is journaled as without a group (one statement). If a group's transaction
    fails, none of it is kept, and each action is then journaled on its own: the ones the journal
    takes are carried out, and each failure meets its own table only (refused, or its server move
    tried again later), as without a group.
    """
    held = state.held
    if not held:
        return
    state.held, state.held_tables = [], set()
    if len(held) > 1:
        try:
            state.journaled("group", state.journal.save_actions, [(h.table, h.seat, h.action) for h in held],
                            refusal=NOT_SAVED, quiet=True)
        except JournalFailed:
            pass
        else:
            for h in held:
                _finish(state, h)
            return
    for h in held:
        try:
            state.journaled("action", state.journal.save_action, h.table, h.seat, h.action, table=h.table,
                            refusal=NOT_SAVED)
        except JournalFailed as exc:
            _refused(state, h, exc)
            continue
        _finish(state, h)


def _finish(state: State, h: Held) -> None:
    # A journaled action carried out; a failure after the journal took it (the game's end meeting
    # damage) is told as carry_out would have raised it; a bug is logged, and the table resyncs.
    grouping, state.grouping = state.grouping, False  # what follows an action journals on its own
    try:
        _carried_out(state, h)
    except JournalFailed as exc:
        _refused(state, h, exc)
    except Exception:
        log.exception("event=internal-error table=%s seat=%d", h.table.id, h.seat)
    finally:
        state.grouping = grouping


def _refused(state: State, h: Held, exc: JournalFailed) -> None:
    # A person hears why; a server move is tried again later.
    if h.actor is not None:
        state.out.error(h.actor.ident, h.rid, exc.code, exc.message)
    else:
        retry_later(state, h.table)


def _carried_out(state: State, h: Held) -> None:
    """The journal has ``h``: the kind's game applies it, and the actor and the table are told."""
    t, seat, action, actor = h.table, h.seat, h.action, h.actor
    events = t.apply(seat, action, state.now, h.offence)
    t.seq += 1
    if actor is None:
        t.retry_after = 0.0  # a server move made: the next failure backs off from the start
    if t.state == "over" and not finish_game(state, t) and state.lobby.tables.get(t.id) is not t:
        raise JournalFailed(DAMAGED)  # the game's end met damage in the journal: the table was set aside
    if actor is not None:
        state.out.send(actor.ident, act_reply(t, seat, events, h.rid, state.now))
    if h.offence:
        # An offence the kind carried out (penalty mode); its code only: the events may hold secrets.
        log.info("event=penalty table=%s seat=%d offence=%s", t.id, seat, h.offence)
    kind = t.kind
    if t.state == "over":
        log.info("event=game-over table=%s game=%d result=%r plies=%d deals=%d",
                 t.id, t.game_no, kind.summary(t.game), t.game.ply, t.game.deal)
    exclude = None if actor is None else actor.ident
    if t.followed_by_others(exclude):  # (a table of one person and bots has nobody else to tell)
        extra: dict[str, Any] = {"by": seat, "action": kind.action_to_data(action), "state": t.state,
                                 "turn_left": None if t.clock is None else t.turn_left(state.now),
                                 "clock": h.by_clock}
        if t.state == "over":
            # The game's end travels with the winning action (the seats may have changed: vacated
            # seats are freed), so the actor's reply and everyone's push stay one seq each.
            extra["info"] = t.describe(state.now)
        state.out.push(t, "update", extra, exclude=exclude,
                       per_seat=lambda s: {"events": list(map(kind.event_for, events, repeat(s)))})
    state.schedule(t)
    if t.state == "over":
        next_game_by_itself(state, t)


def act(state: State, conn: Conn, f: dict[str, Any]) -> None:
    """The ``act`` request: a person plays, draws or discards for the seat this connection holds."""
    t = state.lobby.get(f["table"])
    if t.id in state.held_tables:
        settle(state)  # this table's held action first: the checks below read the position after it
    seat = f["seat"]
    # The token proves the seat; a connection acting again with the token it proved skips the SHA-256.
    conn.proved = t.check_token_again(seat, f["token"], conn.proved)
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


def run_timers(state: State, limit: int) -> int:
    """Make every bot move and clock expiry that is due, at most ``limit`` of them; how many were due."""
    done = 0
    for timer in state.timers.due(state.now, limit):
        done += 1
        t = state.lobby.tables.get(timer.table)
        if t is not None and t.id in state.held_tables:
            settle(state)  # the table's held move first: is this timer stale after it?
        if t is None or t.state != "playing" or t.game_no != timer.game_no or t.game.ply != timer.ply:
            continue  # stale: the table moved on
        if timer.kind == "bot":
            seat = t.bot_turn()  # the seat to move, if the server's bot plays it
            if seat is None:
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
            seat = t.game.turn
            assert seat is not None
            action = t.clock_action()
            log.info("event=clock-expired table=%s seat=%d action=%r", t.id, seat, action.text())
            move_for(state, t, seat, action, by_clock=True)
    return done


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
    except JournalFailed:
        retry_later(state, t)


def retry_later(state: State, t: Table) -> None:
    """The journal could not take a server move at ``t``: try it again later, backing off."""
    t.retry_after = min(RETRY_MAX, max(RETRY_FIRST, t.retry_after * 2))
    state.timers.retry(t, state.now + t.retry_after)
