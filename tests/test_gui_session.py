"""The window's Session against a real server: typed calls in, typed records out, in the order things happened.

A real server runs in a thread on 127.0.0.1; the Session runs its own network
thread, as in the window. No display is needed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from board99 import Draw, SeatView
from board99.client.gui.messages import Events, Failed, Message, Pushed, Replied, StateChanged
from board99.client.gui.session import Session, events_of
from board99.events import Drew
from board99.wire.table_info import TableInfo

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def session(tmp_path):
    from board99.server.loop import run_in_thread

    handle = run_in_thread(port=0, data_dir=tmp_path, bot_delay=0.0)
    session = Session(handle.endpoint, name="Ann")
    yield session
    session.close()
    handle.stop()


def drain_until(session: Session, seen: list[Message], done: Callable[[], bool], what: str,
                seconds: float = 10.0) -> None:
    """Collect the session's messages into ``seen`` until ``done()``; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"timed out after {seconds} s waiting for {what}"
        seen.extend(session.drain())
        time.sleep(0.01)


def replies(seen: list[Message], op: str) -> list[object]:
    return [m.result for m in seen if type(m) is Replied and m.op == op]


def test_the_session_speaks_in_typed_records_and_shows_our_action_before_its_events(session):
    seen: list[Message] = []
    session.create_table("Den", 2, "guarded", None)
    drain_until(session, seen, lambda: replies(seen, "create_table"), "the new table")
    (table,) = replies(seen, "create_table")
    assert type(table) is TableInfo and table.name == "Den"
    session.take_seat(table.id, 0, "red")
    session.add_bot(table.id, 1, "random")

    def my_turn() -> bool:
        state = session.latest_state
        return state is not None and state.view is not None and state.view.my_turn

    drain_until(session, seen, my_turn, "our first turn")
    assert all(type(m) in (StateChanged, Events, Replied, Failed, Pushed) for m in seen)
    assert all(type(m.view) is SeatView for m in seen if type(m) is StateChanged and m.view is not None)
    ply = session.latest_state.view.ply
    mark = len(seen)
    session.act(Draw())
    drain_until(session, seen, lambda: replies(seen, "act"), "the act's reply")
    after = seen[mark:]
    ours = next(i for i, m in enumerate(after) if type(m) is Events and getattr(m.events[0], "seat", None) == 0)
    assert after[ours].events[0].kind == "drew" and type(after[ours].events[0].card) is int
    # The board as the action left it comes first, so the log never runs ahead of the board.
    assert any(type(m) is StateChanged and m.view.ply == ply + 1 for m in after[:ours])


def test_a_refused_request_comes_back_as_failed_with_the_servers_code(session):
    seen: list[Message] = []
    session.take_seat("nonesuch", 0, "red")
    drain_until(session, seen, lambda: any(type(m) is Failed for m in seen), "the refusal")
    failed = next(m for m in seen if type(m) is Failed)
    assert (failed.op, failed.code) == ("take_seat", "no-such-table")


def test_only_an_updates_events_list_counts_as_events():
    assert events_of({"type": "update", "events": [{"kind": "drew", "seat": 1, "card": None}]}) == (
        Drew(1, None),)
    assert events_of({"type": "table", "change": "presence", "view": {}}) == ()
    assert events_of({"type": "connection", "connected": False}) == ()


@pytest.mark.slow
def test_a_move_the_turn_clock_made_reaches_the_window_marked_as_such(session):
    seen: list[Message] = []
    session.create_table("Clocked", 2, "guarded", 0.5)
    drain_until(session, seen, lambda: replies(seen, "create_table"), "the new table")
    table = replies(seen, "create_table")[0]
    session.take_seat(table.id, 0, "red")
    drain_until(session, seen, lambda: replies(seen, "take_seat"), "the seat")
    session.add_bot(table.id, 1, "random")
    # Nobody at seat 0 acts: each of its turns runs out and the server draws (or discards) for it.
    drain_until(session, seen, lambda: any(type(m) is Events and m.clock for m in seen),
                "an update the turn clock made", seconds=20.0)
    by_clock = [m for m in seen if type(m) is Events and m.clock]
    assert all(e.seat == 0 for m in by_clock for e in m.events if hasattr(e, "seat"))


def test_an_action_goes_with_the_ply_the_window_judged_it_on_and_an_older_one_is_refused_stale(session):
    # The window judges an action on the view on screen; the network thread may already hold a newer
    # one. The action carries the window's ply, so the server never carries it out on another position.
    seen: list[Message] = []
    session.create_table("Den", 2, "penalty", None)
    drain_until(session, seen, lambda: replies(seen, "create_table"), "the new table")
    (table,) = replies(seen, "create_table")
    session.take_seat(table.id, 0, "red")
    session.add_bot(table.id, 1, "random")

    def my_turn() -> bool:
        state = session.latest_state
        return state is not None and state.view is not None and state.view.my_turn

    drain_until(session, seen, my_turn, "our turn")
    if session.latest_state.view.ply == 0:  # we open: draw, so that the bot has moved before our next turn
        session.act(Draw(), ply=0)
        drain_until(session, seen, lambda: my_turn() and session.latest_state.view.ply > 1, "our next turn")
        seen.clear()
    view = session.latest_state.view
    session.act(Draw(), ply=view.ply - 1)  # judged on the position before the bot's move
    drain_until(session, seen, lambda: any(type(m) is Failed for m in seen), "the refusal")
    failed = next(m for m in seen if type(m) is Failed)
    assert (failed.op, failed.code) == ("act", "stale")
    assert session.latest_state.view.ply == view.ply and session.latest_state.view.hand == view.hand
    session.act(Draw(), ply=view.ply)
    drain_until(session, seen, lambda: replies(seen, "act"), "the act's reply")
