"""A web seat reads the core's messages as the core made them (no msgpack round trip), and the page sees the same.

server/outbox.py keeps a web connection's messages as maps and the loop hands the map to the seat
(``WebSeat.from_core``, ``ClientCore.receive_message``): the long way packed each one and read it back.
Here every page of a room has a twin seat fed the same page frames, ticks and the same messages as
packed frames (the long way): at every step the two must send the page the very same texts and the
core the very same frames, over whole games of both kinds, a spectator, a dropped page coming back and
the lobby (docs/web.md, *What the seat trusts*).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
import pytest

from board99.client.core import ClientCore
from board99.server.outbox import Outbox, packer
from board99.web.seat import WebSeat
from tests import test_web_seat as games
from tests.web_seat_kit import HOST, Page, Room


class Twin:
    """A page's seat (the map) and its twin (the packed frame): every answer of the two compared."""

    def __init__(self, seat: WebSeat, now: float) -> None:
        self.seat = seat
        self.twin = WebSeat(seat.ident, HOST, now)
        self.twin.to_page()  # the page read the seat's first scene as it was made
        self.maps = 0
        self._pack = packer()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.seat, name)

    def from_page(self, text: str, now: float) -> None:
        self.seat.from_page(text, now)
        self.twin.from_page(text, now)

    def from_core(self, frame: bytes | dict, now: float) -> None:
        assert type(frame) is dict, "the Outbox keeps a web connection's message as the core made it"
        self.maps += 1
        packed = self._pack(frame)  # what the core sent before (the same encoder)
        self.seat.from_core(frame, now)
        self.twin.from_core(packed, now)
        assert self._pack(frame) == packed, "the seat changed the core's message"

    def tick(self, now: float) -> None:
        self.seat.tick(now)
        self.twin.tick(now)

    def next_tick(self) -> float:
        due = self.seat.next_tick()
        assert due == self.twin.next_tick()
        return due

    def to_core(self) -> list[bytes]:
        out = self.seat.to_core()
        assert out == self.twin.to_core()
        return out

    def to_page(self) -> list[str]:
        out = self.seat.to_page()
        assert out == self.twin.to_page()
        return out

    def closed(self, now: float) -> None:
        self.seat.closed(now)
        self.twin.closed(now)


class TwinRoom(Room):
    """A room whose every page has a twin seat reading the long way."""

    def page(self, name: str) -> Page:
        made = super().page(name)
        made.seat = Twin(made.seat, self.now)  # type: ignore[assignment]
        return made


@pytest.fixture
def twins(tmp_path: Path):
    r = TwinRoom(tmp_path)
    yield r
    r.close()


@pytest.mark.parametrize("play", [
    games.test_two_guests_play_a_whole_game_to_a_win_from_the_scenes_then_a_rematch,
    games.test_an_out_of_turn_draw_earns_the_rulebooks_penalty_in_words_at_a_penalty_table,
    games.test_a_spectators_scenes_hold_no_card_of_any_hand,
    games.test_a_dropped_page_comes_back_to_its_seat_with_its_token,
    games.test_a_stale_token_is_refused_in_words_and_the_guest_lands_in_the_lobby,
    games.test_leaving_during_a_game_keeps_the_seat_to_take_back_from_the_lobby,
    games.test_bots_fill_a_table_from_the_lobby_and_the_rules_page_opens_and_closes,
    games.test_a_ninety_nine_tables_card_names_its_game_and_rule_set,
    games.test_the_turn_clock_counts_and_its_move_is_said,
    games.test_a_match_ends_with_its_box_in_the_windows_words_and_offers_a_new_match,
    games.test_heartbeats_keep_a_quiet_web_guest_at_the_table,
], ids=lambda f: f.__name__.removeprefix("test_")[:40])
def test_a_seat_handed_the_cores_maps_shows_the_page_what_the_packed_frames_showed(twins: TwinRoom, play) -> None:
    play(twins)
    seats = [p.seat for p in twins.pages.values()]
    assert seats and sum(s.maps for s in seats) >= 4  # type: ignore[attr-defined]


def test_a_ninety_nine_game_reads_the_same_both_ways(twins: TwinRoom) -> None:
    ann = twins.page("ann")
    ann.hello("Ann")
    ann.press("game-ninety-nine")
    table = games.new_table(ann, name="Cards", players="2")
    ann.press(f"bot-{table}-1")
    ann.press(f"sit-{table}-0")
    assert ann.scene["screen"] == "table"
    presses = 0
    for _ in range(300):  # the first enabled card, else a dialog's first button, until the game's end
        if ann.parts("dialog") and any(p["id"] == "result" for p in ann.parts("dialog")):
            break
        if not ann.scene["turn"]:
            twins.advance(1.0)  # the bot's move (the twin ticks too)
            continue
        enabled = [c["id"] for p in ann.parts("cards") for c in p["items"] if c.get("enabled")]
        enabled += [b["id"] for p in ann.parts("dialog") for b in p["buttons"] if b.get("enabled", True)]
        assert enabled, ann.scene
        ann.press(enabled[0])
        presses += 1
    assert any(p["id"] == "result" for p in ann.parts("dialog")), "the game ends"
    ann.press("rematch")
    twins.advance(2.0)
    assert presses >= 3 and ann.seat.maps > 10  # type: ignore[attr-defined]


def test_the_outbox_keeps_only_a_web_connections_message_and_packs_every_other() -> None:
    box = Outbox(packer())
    web, zmq_peer = b"w" + bytes(8), b"\x00abcd"
    msg = {"type": "reply", "id": 1, "seats": (1, 2)}
    box.send(web, msg)
    box.send(zmq_peer, msg)
    assert box.sends[0] == (web, msg) and box.sends[0][1] is msg
    assert box.sends[1] == (zmq_peer, msgpack.packb(msg, use_bin_type=True))


def test_only_a_trusted_core_takes_a_message_unpacked() -> None:
    with pytest.raises(ValueError, match="trusted"):
        ClientCore().receive_message({"type": "reply", "id": 1}, 0.0)


class _Watched:
    """A table's stand-in for Outbox.push: its followers (all spectators) and the view each gets."""

    id, seq = "t1", 7

    def __init__(self, members: list[bytes]) -> None:
        self._members = members
        self.views = 0

    def members(self) -> list[tuple[bytes, int | None]]:
        return [(ident, None) for ident in self._members]

    def view_data(self, seat: int | None) -> dict:
        self.views += 1
        return {"seat": seat, "hand": (1, 2)}


def test_a_push_to_web_and_zeromq_spectators_gives_each_web_one_the_map_and_each_other_the_bytes() -> None:
    web1, web2, zmq1, zmq2 = b"w" + bytes(8), b"w" + bytes([1] * 8), b"\x00abcd", b"\x00abce"
    sent: list[tuple[bytes, bytes]] = []
    box = Outbox(packer(), lambda ident, frame: sent.append((ident, frame)) is None)  # a sink sending all
    table = _Watched([zmq1, web1, zmq2, web2])
    box.push(table, "update", {"by": 0, "events": ()})  # type: ignore[arg-type]
    maps = dict(box.sends)
    assert list(maps) == [web1, web2] and maps[web1] is maps[web2]  # one map for every web spectator
    assert [ident for ident, _ in sent] == [zmq1, zmq2] and sent[0][1] is sent[1][1]
    assert packer()(maps[web1]) == sent[0][1]  # the same message both ways
    assert table.views == 2  # made once for each way, not once per spectator
