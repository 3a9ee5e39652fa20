"""The server's core on a fake clock: turn clocks, grace periods, takeovers and lost connections, without sleeping."""

from __future__ import annotations

import pytest

from board99 import to_data
from board99.bots import make_bot
from tests.core_kit import CoreError, Desk, Peer


@pytest.fixture
def desk(tmp_path):
    d = Desk(tmp_path, heartbeat=0.1, lost_after=0.4)
    yield d
    d.close()


def seat_two(desk: Desk, mode: str = "guarded", **table: object) -> tuple[Peer, Peer, Peer]:
    """A 2-player table with a person in each seat and a spectator; the game has started."""
    s0, s1, watcher = desk.peer("S0"), desk.peer("S1"), desk.peer("watcher")
    table_id = s0.ask("create_table", name="t", players=2, mode=mode, **table)["table"]["id"]
    watcher.ask("spectate", table=table_id)
    s0.sit(table_id, 0)
    s1.sit(table_id, 1)
    return s0, s1, watcher


def play_until(desk: Desk, peers: list[Peer], ply: int) -> None:
    """Each peer acts on its turn with a random bot until the game reaches ``ply`` actions."""
    bots = [make_bot("random", seed=i) for i in range(len(peers))]
    for _ in range(1000):
        if peers[0].view.ply >= ply:
            return
        for i, p in enumerate(peers):
            if p.view.my_turn:
                p.act(to_data(bots[i].choose(p.view)))
                break
        desk.advance(0.01)
    raise AssertionError(f"the game did not reach ply {ply}")


def test_a_lost_client_is_played_by_a_bot_after_the_grace_period_until_it_returns(desk) -> None:
    present, silent, _ = seat_two(desk, grace=0.3)
    play_until(desk, [present, silent], 4)
    bot = make_bot("random", seed=5)
    ply = present.view.ply
    heard_from = len(present.received)
    silent.silent = True  # S1 goes silent (no messages, no pings); S0 plays on, S1's turns are played for it
    for _ in range(2000):
        if present.view.ply >= ply + 12:
            break
        if present.view.my_turn:
            present.act(to_data(bot.choose(present.view)))
        desk.advance(0.02)
    heard = present.received[heard_from:]
    changes = [m.get("change") for m in heard if m["type"] == "table"]
    assert "presence" in changes and "takeover" in changes
    by_bot = [m for m in heard if m["type"] == "update" and m["by"] == 1]
    assert len(by_bot) >= 4
    info = present.pushes("table")[-1]["info"]
    assert info["seats"][1]["standin"] is True and info["seats"][1]["connected"] is False
    # The takeover came after the grace period, not before: lost after 0.4 s of silence, then 0.3 s.
    lost_at = next(i for i, m in enumerate(heard) if m.get("change") == "presence")
    took_at = next(i for i, m in enumerate(heard) if m.get("change") == "takeover")
    assert lost_at < took_at
    # S1 speaks again: the server no longer links its connection to the seat, so it resumes with the token.
    silent.silent = False
    assert silent.ask("ping")["table"] is None
    silent.ask("resume", table=silent.table, seat=1, token=silent.token)
    desk.advance(0.05)
    assert silent.view == present.view._replace(seat=1, side=1, hand=silent.view.hand)
    seat1 = present.pushes("table")[-1]["info"]["seats"][1]
    assert seat1["standin"] is False and seat1["connected"] is True


def test_the_turn_clock_draws_when_it_can_and_then_discards_the_highest_card(desk) -> None:
    _, _, watcher = seat_two(desk, clock=0.2)
    for _ in range(400):
        if len(watcher.pushes("update")) >= 12:
            break
        desk.advance(0.05)
    updates = watcher.pushes("update")
    assert len(updates) >= 12
    assert [u["action"] for u in updates[:10]] == [{"type": "draw"}] * 10  # nobody acted: the clock drew
    assert all(0 <= u["turn_left"] <= 0.2 for u in updates)  # what the GUI's countdown shows
    eleventh = updates[10]
    assert eleventh["action"]["type"] == "discard"
    assert all(u["clock"] is True for u in updates)  # each says the clock ran out, not that a player drew
    # Which card went: the highest of the five that seat drew.
    game = desk.core.lobby.tables[watcher.ask("ping")["table"]].game
    seat, action, _ = game.log[10]
    drawn = [e.card for s, _, events in game.log[:10] for e in events if e.kind == "drew" and e.seat == seat]
    assert len(drawn) == 5 and action.card == max(drawn)


def test_the_turn_clock_waits_its_full_time_and_no_longer(desk) -> None:
    _, _, watcher = seat_two(desk, clock=5.0)
    opener = watcher.view.turn
    desk.advance(4.9)
    assert watcher.pushes("update") == []  # 4.9 s of a 5 s clock: nothing yet
    desk.advance(0.2)
    (update,) = watcher.pushes("update")
    assert update["action"] == {"type": "draw"} and update["by"] == opener


def test_a_waiting_table_frees_the_seat_of_someone_lost_past_the_grace_period(desk) -> None:
    host, gone = desk.peer("host"), desk.peer("gone")
    table = host.ask("create_table", name="waiting", players=3, grace=0.2)["table"]["id"]
    host.sit(table, 0)
    gone.sit(table, 1)
    gone.silent = True  # went away before the game began
    desk.advance(1.0)
    changes = [m.get("change") for m in host.pushes("table")]
    assert changes[-3:] == ["seat-taken", "presence", "seat-left"]
    info = host.pushes("table")[-1]["info"]
    assert info["seats"][1]["occupant"] is None and info["state"] == "waiting"
    host.ask("add_bot", table=table, seat=1, bot="random", token=host.token)
    assert host.ask("add_bot", table=table, seat=2, bot="random", token=host.token)["table"]["state"] == "playing"


def test_a_connection_claiming_a_departed_players_identity_learns_nothing(desk) -> None:
    victim = desk.peer("victim-id")
    table = victim.ask("create_table", name="t", players=2)["table"]["id"]
    seat = victim.sit(table, 0)
    victim.ask("add_bot", table=table, seat=1, bot="random", token=victim.token)
    assert seat["view"]["hand"] is not None
    victim.silent = True
    desk.advance(0.8)  # the core counts the connection lost and unbinds the seat from it
    spoof = desk.peer("victim-id")  # another socket with the same routing id
    before = len(spoof.received)
    with pytest.raises(CoreError) as caught:
        spoof.ask("snapshot")
    assert caught.value.code == "not-seated"
    assert spoof.ask("leave") == {"type": "reply", "id": spoof._ids}
    desk.advance(0.5)
    assert not [m for m in spoof.received[before:] if m["type"] in ("update", "table")]


def test_a_resume_with_nobody_lost_is_not_a_presence_change(desk) -> None:
    s0, s1, watcher = seat_two(desk)
    seq = watcher.pushes()[-1]["seq"]
    s1.ask("resume", table=s1.table, seat=1, token=s1.token)  # the same connection, never lost
    desk.advance(0.1)
    assert watcher.pushes()[-1]["seq"] == seq
    s1.silent = True
    desk.advance(0.6)
    assert watcher.pushes("table")[-1]["change"] == "presence"
    s1.silent = False
    s1.ask("resume", table=s1.table, seat=1, token=s1.token)
    assert watcher.pushes("table")[-1]["change"] == "presence"
    assert watcher.pushes("table")[-1]["info"]["seats"][1]["connected"] is True


def test_a_waiting_tables_view_has_no_deal_no_turn_and_no_cut(desk) -> None:
    host = desk.peer("host")
    table = host.ask("create_table", name="t", players=2)["table"]["id"]
    view = host.sit(table, 0)["view"]
    assert (view["deal"], view["turn"], view["cut"], view["hand"], view["deck_size"]) == (0, None, None, [], 100)
    # Filling the last seat is one `started` change; it carries the first deal's `dealt` event.
    guest = desk.peer("guest")
    reply = guest.sit(table, 1)
    assert [e["kind"] for e in reply["events"]] == ["dealt"] and reply["view"]["turn"] is not None
    (started,) = [m for m in host.pushes("table") if m["change"] == "started"]
    assert started["events"] == reply["events"] and started["view"]["cut"] == reply["view"]["cut"]
    assert [m["change"] for m in host.pushes("table")] == ["started"]
