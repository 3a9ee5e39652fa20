"""The web seat's ClientCore reads the core's frames as trusted: the same views, without the field checks.

The seat's frames come from the server core in its own process (docs/web.md, *What the seat trusts*), so its
ClientCore is ``trusted``: a kind's ``view_from_trusted`` builds the view straight from the fields. These tests
hold that it builds exactly the view ``view_from_data`` does (item types too), for every view a game and a
web-seat game give; that a kind without the method still reads views (checked); and that a core is trusted only
when asked (GameClient's and the window's check everything: tests/test_client_hostile.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from board99 import kinds
from board99.client.core import ClientCore
from board99.view import SeatView
from board99.web.seat import WebSeat
from tests.test_web_seat import over, play_turn, seated_pair
from tests.web_seat_kit import Room


def _wire(kind: kinds.GameKind, view: Any) -> dict:
    # What the view's data is once it has crossed msgpack (lists, bytes), as the seat's core receives it.
    data: dict = msgpack.unpackb(msgpack.packb(kind.view_to_data(view), use_bin_type=True), raw=False)
    return data


def _same(a: Any, b: Any) -> bool:
    # Equal, and of the same types all the way down (a list is not a tuple to a screen that hashes it).
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _views(kind_name: str, players: int, mode: str, options: dict | None, seed: int) -> Iterator[Any]:
    kind = kinds.get(kind_name)
    settings = kind.check_settings(players, mode, options)
    yield kind.view(None, settings, 0)
    game = kind.new_game(settings, seed)
    bot = kind.bots[kind.standin_bot](seed=seed)
    for _ in range(400):
        for seat in (*range(players), None):
            yield kind.view(game, settings, seat)
        if game.over:
            return
        seat = game.turn
        assert seat is not None
        game.apply(seat, bot.choose(kind.view(game, settings, seat)))


@pytest.mark.parametrize(("kind_name", "players", "mode", "options"), [
    ("peg-board", 2, "guarded", None), ("peg-board", 4, "penalty", None), ("peg-board", 3, "guarded", None),
    ("ninety-nine", 3, "guarded", {"rules": "tokens"}), ("ninety-nine", 4, "penalty", None),
])
def test_a_trusted_view_is_the_checked_view_for_every_view_of_a_game(kind_name: str, players: int, mode: str,
                                                                      options: dict | None) -> None:
    kind = kinds.get(kind_name)
    assert hasattr(kind, "view_from_trusted")
    count = 0
    for view in _views(kind_name, players, mode, options, seed=7):
        data = _wire(kind, view)
        trusted = kinds.view_from_trusted(kind, data)
        assert _same(trusted, kind.view_from_data(data)), (count, data)
        assert trusted == view
        count += 1
    assert count > 20
    if kind_name == "peg-board":
        assert isinstance(trusted, SeatView) and trusted.board.packed == data["board"]


def test_a_kind_without_a_trusted_reader_has_its_views_checked() -> None:
    class Checked:
        def view_from_data(self, data: object) -> str:
            if data != {"ok": 1}:
                raise ValueError("view: not ok")
            return "read"

    kind: Any = Checked()
    assert kinds.view_from_trusted(kind, {"ok": 1}) == "read"
    with pytest.raises(ValueError, match="not ok"):
        kinds.view_from_trusted(kind, {"ok": 2})


def test_only_the_web_seats_core_is_trusted(room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not ClientCore().trusted  # GameClient and the window build theirs so: every field is checked
    seen: list[bytes] = []
    from_core = WebSeat.from_core

    def recording(self: WebSeat, frame: bytes | dict, now: float) -> None:
        seen.append(frame)
        from_core(self, frame, now)

    monkeypatch.setattr(WebSeat, "from_core", recording)
    ann, bo, _ = seated_pair(room)
    assert ann.seat.core is not None and ann.seat.core.trusted
    for _ in range(60):
        if over(ann) and over(bo):
            break
        play_turn(ann if ann.scene["turn"] else bo)
    kind = kinds.get("peg-board")
    assert all(type(f) is dict for f in seen)  # the core's own messages, not packed (server/outbox.py)
    views = [msg["view"] for msg in (msgpack.unpackb(msgpack.packb(f), raw=False) for f in seen)
             if msg.get("view") is not None]
    assert len(views) > 30
    for data in views:  # every view the seats were sent reads the same both ways
        assert _same(kinds.view_from_trusted(kind, data), kind.view_from_data(data))
    # ... and the seat's own copy is the one the checked reader makes of the last it was sent
    core = ann.seat.core
    assert core.view is not None and _same(core.view, core.view.from_data(core.view.to_data()))


@pytest.mark.parametrize("fields", [
    {"state": "playing"}, {"state": "waiting"}, {"state": "playing", "turn_left": None},
    {"state": "playing", "turn_left": 12}, {"state": "over", "turn_left": 7.5}, {"state": "waiting", "turn_left": 0},
])
def test_a_trusted_core_moves_a_table_on_as_the_checked_reader_does(fields: dict) -> None:
    # The web seat's core reads a reply's state and turn clock without the checks (TableInfo.moved_on_trusted):
    # the same table, field for field and type for type, and the very same object when nothing moved.
    from tests.gui_harness import table_info

    for table in (table_info([{}, {}]), table_info([{}, {}], state="playing", turn_left=12.0)):
        msg = {"type": "reply", "seq": 3, **fields}
        checked, trusted = table.moved_on(msg), table.moved_on_trusted(msg)
        assert _same(tuple(trusted), tuple(checked))
        assert (trusted is table) == (checked is table)
