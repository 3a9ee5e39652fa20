"""Events are typed on the client as in the engine: each kind reads its own events back from plain data, the client
core reads every event once (pushes and the act's reply), bad event data is a clear error, and nothing under
client/ dispatches on an event's ``"kind"`` string.
"""

from __future__ import annotations

import ast
import logging
import typing
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board99 import Draw, Game, kinds
from board99 import events as peg
from board99.bots import make_bot
from board99.client.core import ServerError
from board99.client.pushes import TableChange, Update
from board99.ninety_nine import events as nn
from board99.ninety_nine.bots import BOTS as NN_BOTS
from board99.ninety_nine.cards import CARDS
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.view import view_of
from board99.peg_kind import PEG_BOARD
from tests.aces_kind import ACES, AcesGame
from tests.aces_kind import Draw as AcesDraw
from tests.core_kit import Desk
from tests.test_client_core import Link, my_move, new_table, seated

ROOT = Path(__file__).resolve().parent.parent
SEATS = (None, 0, 1, 2, 3, 4, 5)

# -- every event class of both games, as hypothesis draws them -------------------------------------------------

seat = st.integers(0, 5)
peg_card, square = st.integers(0, 99), st.integers(0, 99)
PEG_BUILDS: dict[type, st.SearchStrategy] = {
    peg.Dealt: st.builds(peg.Dealt, st.integers(1, 50), st.none() | st.lists(peg_card, min_size=2, max_size=6)
                         .map(tuple), seat),
    peg.Drew: st.builds(peg.Drew, seat, peg_card),
    peg.Played: st.builds(peg.Played, seat, peg_card, square),
    peg.Discarded: st.builds(peg.Discarded, seat, peg_card),
    peg.Penalty: st.builds(peg.Penalty, seat, st.sampled_from(sorted(peg.PENALTY_RULES)), peg_card,
                           st.integers(-1, 99)),
    peg.Skipped: st.builds(peg.Skipped, seat),
    peg.Passed: st.builds(peg.Passed, seat),
    peg.Won: st.builds(peg.Won, st.integers(0, 2), seat, st.lists(square, min_size=5, max_size=5).map(tuple)),
    peg.Tied: st.builds(peg.Tied, st.integers(1, 50)),
}
card, total, value = st.sampled_from(sorted(CARDS)), st.integers(-20, 130), st.none() | st.integers(-10, 11)
reason = st.sampled_from(sorted(nn.REASONS))
NN_BUILDS: dict[type, st.SearchStrategy] = {
    nn.Dealt: st.builds(nn.Dealt, st.integers(1, 50), seat, st.integers(1, 10)),
    nn.TurnedUp: st.builds(nn.TurnedUp, seat, card, value, total),
    nn.Played: st.builds(nn.Played, seat, card, value, total),
    nn.Busted: st.builds(nn.Busted, seat, card, value, total),
    nn.Corrected: st.builds(nn.Corrected, seat, total, total),
    nn.Reversed: st.builds(nn.Reversed, st.sampled_from([1, -1])),
    nn.Skipped: st.builds(nn.Skipped, seat),
    nn.Owes: st.builds(nn.Owes, seat, st.integers(1, 4)),
    nn.Drew: st.builds(nn.Drew, seat, st.none() | card),
    nn.Forgot: st.builds(nn.Forgot, seat),
    nn.Rebuilt: st.builds(nn.Rebuilt, st.integers(0, 104), st.booleans()),
    nn.LostToken: st.builds(nn.LostToken, seat, reason, st.integers(0, 5)),
    nn.Out: st.builds(nn.Out, seat, reason, st.integers(0, 5)),
    nn.SatOut: st.builds(nn.SatOut, seat, reason),
    nn.RoundOver: st.builds(nn.RoundOver, st.integers(1, 50)),
    nn.Won: st.builds(nn.Won, seat),
}
PEG_EVENTS, NN_EVENTS = st.one_of(*PEG_BUILDS.values()), st.one_of(*NN_BUILDS.values())


@pytest.mark.parametrize(("module", "builds"), [(peg, PEG_BUILDS), (nn, NN_BUILDS)], ids=["peg-board", "ninety-nine"])
def test_every_event_class_has_its_kind_and_a_generator(module, builds) -> None:
    classes = set(typing.get_args(module.Event))
    assert set(module.KINDS.values()) == classes == set(builds) and len(module.KINDS) == len(classes)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_each_class_is_filed_under_the_kind_it_travels_as(data: st.DataObject) -> None:
    for module, builds in ((peg, PEG_BUILDS), (nn, NN_BUILDS)):
        for kind, cls in module.KINDS.items():
            assert data.draw(builds[cls]).kind == kind


@settings(max_examples=300, deadline=None)
@given(PEG_EVENTS, st.sampled_from(SEATS))
def test_a_peg_board_event_round_trips_through_its_data(event: peg.Event, reader: int | None) -> None:
    assert peg.from_data(peg.to_data(event)) == event
    assert peg.from_data(msgpack.unpackb(msgpack.packb(peg.to_data(event)))) == event  # lists come back
    seen = peg.from_data(peg.seen_by(event, reader))
    assert seen == peg.shown_to(event, reader) and type(seen) is type(event)
    assert PEG_BOARD.event_from_data(PEG_BOARD.event_for(event, reader)) == seen


@settings(max_examples=300, deadline=None)
@given(NN_EVENTS, st.sampled_from(SEATS))
def test_a_ninety_nine_event_round_trips_through_its_data(event: nn.Event, reader: int | None) -> None:
    assert nn.from_data(nn.to_data(event)) == event
    seen = nn.from_data(nn.seen_by(event, reader))
    assert seen == nn.shown_to(event, reader) and type(seen) is type(event)
    assert NINETY_NINE.event_from_data(NINETY_NINE.event_for(event, reader)) == seen


def test_a_drawn_card_is_hidden_from_the_others_and_named_to_its_drawer() -> None:
    assert peg.shown_to(peg.Drew(1, 42), 0) == peg.Drew(1, None) and peg.shown_to(peg.Drew(1, 42), 1).card == 42
    assert nn.shown_to(nn.Drew(1, "7H"), None) == nn.Drew(1, None) and nn.shown_to(nn.Drew(1, "7H"), 1).card == "7H"
    assert peg.shown_to(peg.Played(1, 40, 55), 0) == peg.Played(1, 40, 55)  # nothing else is secret


def test_every_event_of_real_games_reads_back_through_its_kind_for_every_reader() -> None:
    game = Game(4, "penalty", seed=3)
    bots = [make_bot("random", seed=s) for s in range(4)]
    events = list(game.opening)
    while game.winner is None and game.ply < 400:
        events += game.apply(game.turn, bots[game.turn].choose(game.view(game.turn)))
        if game.ply == 10:  # an offence: its penalty and the skipped turn it costs
            events += game.apply((game.turn + 1) % 4, Draw())
    settings_ = NINETY_NINE.check_settings(4, "penalty", {"rules": "tokens"})
    cards = NINETY_NINE.new_game(settings_, seed=5)
    sound = [NN_BOTS["sound"](seed=s) for s in range(4)]
    nn_events = list(cards.opening)
    while cards.turn is not None and cards.ply < 400:
        nn_events += cards.apply(cards.turn, sound[cards.turn].choose(view_of(cards, cards.turn)))
    for kind, shown_to, batch in ((PEG_BOARD, peg.shown_to, events), (NINETY_NINE, nn.shown_to, nn_events)):
        assert len({type(e) for e in batch}) >= 6, (kind.name, {type(e).__name__ for e in batch})
        for event in batch:
            for reader in (None, 0, 1):
                assert kind.event_from_data(kind.event_for(event, reader)) == shown_to(event, reader)


def test_the_test_only_aces_kind_reads_its_own_events_too() -> None:
    game = AcesGame(2, 2, seed=9)
    events = list(game.opening)
    while not game.over:
        events += game.apply(game.turn, AcesDraw())
    for event in events:
        for reader in (None, 0, 1):
            seen = ACES.event_from_data(ACES.event_for(event, reader))
            assert seen.kind == event.kind and seen.seat == event.seat
            assert seen.text() == ACES.event_for(event, reader)["text"]  # what the reader was told in words


# -- bad event data: a clear error naming the field ------------------------------------------------------------

BAD = [
    ("not a map", "event: expected a map with a 'kind' field"),
    ({"seat": 1}, "event.kind: None is not an event of the GAME OF 99 (dealt, drew, played"),
    ({"kind": "flew", "seat": 1}, "event.kind: 'flew' is not an event of the GAME OF 99"),
    ({"kind": ["drew"], "seat": 1}, "event.kind: ['drew'] is not an event"),
    ({"kind": "played", "seat": 1, "card": 40}, "event.square: missing (a 'played' event)"),
    ({"kind": "played", "seat": 1, "card": "40", "square": 55}, "event.card: expected a whole number 0-99, got '40'"),
    ({"kind": "played", "seat": 1, "card": True, "square": 55}, "event.card: expected a whole number 0-99, got True"),
    ({"kind": "played", "seat": 9, "card": 40, "square": 55}, "event.seat: expected a whole number 0-5, got 9"),
    ({"kind": "played", "seat": 1, "card": None, "square": 55}, "event.card: expected a whole number 0-99, got None"),
    ({"kind": "penalty", "seat": 1, "offence": "cheating", "card": 4, "square": -1},
     "event.offence: expected an offence of docs/rules.md (play-out-of-turn"),
    ({"kind": "won", "side": 0, "seat": 0, "line": [1, 2, "x"]}, "event.line: expected a list of at most 10"),
    ({"kind": "won", "side": 0, "seat": 0, "line": list(range(50))}, "event.line: expected a list of at most 10"),
]


@pytest.mark.parametrize(("data", "words"), BAD, ids=[w.split(":")[0] + f"-{n}" for n, (_, w) in enumerate(BAD)])
def test_bad_peg_board_event_data_is_refused_naming_the_field(data: object, words: str) -> None:
    with pytest.raises(ValueError) as refused:
        PEG_BOARD.event_from_data(data)
    assert words in str(refused.value)


def test_bad_ninety_nine_event_data_is_refused_naming_the_field() -> None:
    with pytest.raises(ValueError, match=r"event.card: expected a card \('AS', '10H', 'QD', 'joker'\), got '1H'"):
        NINETY_NINE.event_from_data({"kind": "played", "seat": 0, "card": "1H", "value": None, "total": 9})
    with pytest.raises(ValueError, match="event.kind: 'pegged' is not an event of the Ninety-Nine"):
        NINETY_NINE.event_from_data({"kind": "pegged", "seat": 0})
    with pytest.raises(ValueError, match=r"event.direction: expected 1 \(clockwise\) or -1"):
        NINETY_NINE.event_from_data({"kind": "reversed", "direction": 0})
    with pytest.raises(ValueError, match="event.shuffled: expected true or false, got 1"):
        NINETY_NINE.event_from_data({"kind": "rebuilt", "cards": 30, "shuffled": 1})
    # A peg-board event is no Ninety-Nine event of the same name: each kind reads only its own.
    with pytest.raises(ValueError, match=r"event.card: expected a card \('AS'.*got 40 \(a 'played' event\)"):
        NINETY_NINE.event_from_data(peg.to_data(peg.Played(1, 40, 55)))


def test_every_kind_installed_reads_events() -> None:
    for name in kinds.names():
        assert callable(getattr(kinds.get(name), "event_from_data", None)), name


# -- the client core reads them once -----------------------------------------------------------------------------


@pytest.fixture
def desk(tmp_path: Path):
    d = Desk(tmp_path, epoch="first")
    yield d
    d.close()


def _to_bos_turn(link: Link, table: str) -> None:
    while link.core.view.turn != 1:  # play our turns so Bo's comes
        link.wait(link.call("act", {"table": table, "seat": 0, "token": link.core.token,
                                    "action": my_move(link.core.view), "ply": link.core.view.ply},
                            link.core.take_moved))
        link.core.messages()


def test_an_updates_events_are_the_engines_classes_read_by_the_tables_kind(desk) -> None:
    link, bo = Link(desk), desk.peer("bo")
    table = new_table(link)
    seated(link, table, 0)
    bo.sit(table, 1)
    link.core.messages()
    _to_bos_turn(link, table)
    bo.act({"type": "draw"} if bo.view.can_draw else my_move(bo.view))
    (update,) = link.core.messages()
    assert type(update) is Update and update.events
    assert all(type(e) in peg.KINDS.values() for e in update.events)
    assert update.events == tuple(peg.from_data(d) for d in update.as_dict()["events"])  # poll()'s maps as sent
    drew = [e for e in update.events if isinstance(e, peg.Drew)]
    assert all(e.card is None for e in drew)  # Bo's card is Bo's


def test_a_ninety_nine_tables_events_are_read_by_its_own_kind(desk) -> None:
    link, bo = Link(desk), Link(desk, "bo")
    reply = link.wait(link.call("create_table", {"name": "cards", "players": 2, "mode": "guarded",
                                                 "game": "ninety-nine", "options": {"rules": "tokens"}}))
    table = reply["table"]["id"]
    seated(link, table, 0)
    seated(bo, table, 1)  # the game starts: the change carries its first deal
    started = [m for m in link.core.messages() if type(m) is TableChange and m.events]
    assert started and all(type(e) in nn.KINDS.values() for m in started for e in m.events)
    assert any(isinstance(e, nn.Dealt) for m in started for e in m.events)


def test_an_update_with_an_event_the_client_cannot_read_is_dropped_and_logged(desk, caplog) -> None:
    link, bo = Link(desk), desk.peer("bo")
    table = new_table(link)
    seated(link, table, 0)
    bo.sit(table, 1)
    link.core.messages()
    view, seq = link.core.view, link.core.seq
    caplog.set_level(logging.WARNING, "board99.client")
    good_view = PEG_BOARD.view_to_data(view)
    for events in ([{"kind": "flew", "seat": 1}], [{"kind": "drew", "seat": 1, "card": "seven"}], [3]):
        link.core.receive(msgpack.packb({"type": "update", "table": table, "seq": seq + 1, "by": 1, "clock": False,
                                         "action": {"type": "draw"}, "events": events, "state": "playing",
                                         "turn_left": None, "view": good_view}), desk.now)
    assert link.core.messages() == [] and (link.core.view, link.core.seq) == (view, seq)  # nothing kept
    assert "events[0]: event.kind: 'flew' is not an event of the GAME OF 99" in caplog.text
    assert "events[0]: event.card: expected a whole number 0-99 or none, got 'seven'" in caplog.text
    assert "events: item 0: expected an event (a map with a text 'kind'), got 3" in caplog.text  # the wire's check
    # The real pushes go on as before: nothing was lost.
    _to_bos_turn(link, table)
    bo.act(my_move(bo.view))
    assert any(type(m) is Update for m in link.core.messages())


def test_the_acts_reply_is_read_too_and_an_unreadable_one_is_a_bad_reply() -> None:
    import zmq

    from tests.test_client_hostile import ask

    game = Game(2, "guarded", seed=1)
    table = {"id": "t1", "name": "den", "players": 2, "mode": "guarded", "clock": None, "grace": 30.0,
             "state": "playing", "game": 1, "votes": [], "turn_left": None, "spectators": 0,
             "seats": [{"seat": s, "side": s, "colour": "red", "occupant": "human", "name": "x", "connected": True,
                        "standin": False} for s in (0, 1)]}
    view = PEG_BOARD.view_to_data(game.view(game.turn))

    def answers(events: list) -> dict[str, Any]:
        return {"take_seat": lambda m: {"token": "ab" * 16, "table": table, "seat": game.turn, "seq": 1,
                                        "view": view},
                "act": lambda m: {"events": events, "seq": 2, "view": view, "state": "playing", "turn_left": None}}

    def sit_and_draw(client: Any) -> Any:
        client.take_seat("t1", game.turn)
        return client.act(Draw())

    ctx = zmq.Context()
    try:
        drew = peg.Drew(game.turn, 17)
        got, _ = ask(ctx, answers([peg.to_data(drew)]), sit_and_draw)
        assert got == (drew,)
        got, client = ask(ctx, answers([{"kind": "drew", "seat": game.turn}]), sit_and_draw)
        assert isinstance(got, ServerError) and got.code == "bad-reply", got
        assert "events[0]: event.card: missing (a 'drew' event)" in got.message
        assert client.seq == 1  # the reply moved nothing on
    finally:
        ctx.destroy(linger=0)


# -- structure: no "kind" string dispatch on events under client/ -----------------------------------------------

#: Every event kind of every installed game, as the wire names them.
EVENT_KINDS = frozenset(peg.KINDS) | frozenset(nn.KINDS)


def _kind_strings(node: ast.AST) -> set[str]:
    """The event kind names a constant (or a tuple, list or set of constants) holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & EVENT_KINDS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_kind_strings(e) for e in node.elts)) if node.elts else set()
    return set()


def _about_kind(node: ast.AST) -> bool:
    """True for ``kind``, ``x.kind`` or ``x.get("kind")``."""
    return ((isinstance(node, ast.Name) and node.id == "kind") or (isinstance(node, ast.Attribute) and node.attr == "kind")
            or (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind"))


def kind_dispatch(path: Path) -> list[str]:
    """Where a module reads an event's ``"kind"`` string or compares a kind with an event kind's name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        where = f"{path.parent.name}/{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "kind":
            found.append(f"{where}: [\"kind\"]")
        elif _about_kind(node) and isinstance(node, ast.Call):
            found.append(f"{where}: .get(\"kind\")")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_about_kind(s) for s in sides) and any(_kind_strings(s) for s in sides):
                found.append(f"{where}: a kind compared with {sorted(set().union(*map(_kind_strings, sides)))}")
        elif isinstance(node, ast.Match) and _about_kind(node.subject):
            found.append(f"{where}: match on a kind")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and len(node.elts) > 1 \
                and all(isinstance(e, ast.Constant) and _kind_strings(e) for e in node.elts):
            found.append(f"{where}: a collection of event kinds {sorted(_kind_strings(node))}")
    return found


def test_nothing_under_client_dispatches_on_an_events_kind_string() -> None:
    modules = sorted((ROOT / "client").rglob("*.py"))
    assert len(modules) > 40
    found = [hit for path in modules for hit in kind_dispatch(path)]
    assert found == [], "\n".join(found)


def test_the_structure_check_finds_kind_string_dispatch(tmp_path: Path) -> None:
    # What the client did before its events were typed, each caught.
    sample = tmp_path / "sample_dispatch.py"
    sample.write_text('ACTIONS = ("played", "drew")\n'
                      'def f(event, m):\n'
                      '    kind = event.get("kind")\n'
                      '    if kind in ("played", "penalty"):\n'
                      '        return event["kind"]\n'
                      '    return m.kind == "line" or event.kind == "won"\n', encoding="utf-8")
    found = kind_dispatch(sample)
    # The tuple, .get, the comparison (and its tuple), the subscript, .kind == "won" (not the motion's "line").
    assert sorted(int(hit.split(":")[1]) for hit in found) == [1, 3, 4, 4, 5, 6], found
