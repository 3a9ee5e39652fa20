"""A second game through the seam: the test-only aces kind is created, played, journaled, restored after a
restart, recorded and replayed through a real server and the client library, with no change to the house."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from board99 import kinds
from board99.client.net import GameClient, ServerError
from board99.server.journal import JOURNAL_FILE
from board99.server.loop import run_in_thread
from board99.wire.protocol import ProtocolError, check_request
from tests.aces_kind import ACES, Aces, AcesView, Draw
from tests.core_kit import CoreError, Desk

DATA = Path(__file__).parent / "data"


@pytest.fixture
def aces() -> Iterator[kinds.GameKind]:
    kinds.register(ACES)
    try:
        yield ACES
    finally:
        kinds.unregister(ACES.name)


def play_until(clients: list[GameClient], done, seconds: float = 20.0) -> None:
    """Each client draws whenever it is its turn, until ``done()`` (bounded in time)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        for c in clients:
            c.poll(0.01)
            if done():
                return  # what it waited for came with that message: act no further
            if c.my_turn():
                try:
                    c.act(Draw())
                except ServerError as exc:
                    # not-your-seat: the server restarted and this client has not resumed its seat yet
                    # (it does by itself once it sees the new epoch).
                    assert exc.code in ("stale", "not-your-turn", "not-your-seat"), exc


def test_a_second_game_kind_plays_through_a_real_server_restarts_and_replays(aces, tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    ann = bo = None
    try:
        ann = GameClient(server.endpoint, name="Ann")
        with pytest.raises(ServerError) as refused:
            ann.create_table("too many", 5, game="aces")
        assert refused.value.code == "bad-field" and refused.value.message.startswith("players: 5 is not allowed")
        with pytest.raises(ServerError) as refused:
            ann.create_table("bad option", 3, game="aces", options={"target": 4})
        assert refused.value.message.startswith("options.target: 4")
        info = ann.create_table("three aces", 3, game="aces", options={"target": 3})
        assert (info.kind, info.options, info.mode, info.sides) == ("aces", (("target", 3),), "plain", 3)
        ann.take_seat(info.id, 0)
        bo = GameClient(server.endpoint, name="Bo")
        bo.take_seat(info.id, 1)
        bo.add_bot(info.id, 2, "drawer")  # the kind's own bot plays seat 2
        play_until([ann], lambda: ann.table is not None and ann.table.state == "playing", seconds=5)
        assert isinstance(ann.view, AcesView) and ann.view.seat == 0 and ann.view.aces == (0, 0, 0)

        play_until([ann, bo], lambda: ann.view is not None and ann.view.ply >= 6)
        hand_before = ann.view.hand
        ply_before = ann.view.ply
        server.stop()  # mid-game: the journal has every action
        server = run_in_thread(port=int(server.endpoint.rsplit(":", 1)[1]), data_dir=tmp_path, bot_delay=0.01)
        table = server.server.lobby.tables[info.id]
        assert table.kind is ACES and table.game.ply >= ply_before
        assert tuple(table.game.hands[0]) == hand_before  # the same deal, from the seed and the actions

        play_until([ann, bo], lambda: ann.table is not None and ann.table.state == "over", seconds=30)
        record = ann.fetch_record(info.id)
        assert record.splitlines()[0] == ACES.record_magic and kinds.for_record(record) is ACES
        *_, (_, _, replayed) = ACES.replay_record(record)
        assert replayed.over and replayed.ply == table.game.ply
        ranking = ACES.ranking(replayed)
        assert sorted(ranking)[0] == 0 and len(ranking) == 3
        (entry,), total = ann.list_records()
        assert total == 1 and entry.kind == "aces" and entry.ranking == ranking
        assert entry.summary == ACES.summary(replayed) and entry.winner == ranking.index(0)
    finally:
        for c in (ann, bo):
            if c is not None:
                c.close()
        server.stop()


def test_history_of_a_second_kind_is_its_public_record_and_views(aces, tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    try:
        with GameClient(server.endpoint, name="Cy") as cy:
            info = cy.create_table("two", 2, game="aces", options={"target": 2})
            cy.take_seat(info.id, 0)
            cy.add_bot(info.id, 1, "drawer")
            with pytest.raises(ServerError) as refused:  # seat 0 is to act: the game waits for Cy
                cy.hint()
            assert refused.value.code == "hints-off" and "has no coach" in refused.value.message
            play_until([cy], lambda: cy.view is not None and cy.view.ply >= 4)
            lines, views = cy.history()
            assert lines[0] == "  shuffled" and all(isinstance(v, AcesView) and v.hand is None for v in views)
            assert [v.ply for v in views] == list(range(len(views)))
            # Only aces are shown to everyone: no other drawn card is named in the public lines.
            assert all(line.endswith(("a card", "passed", "shuffled", "draw", "pass", "won")) or line[-2] == "A"
                       for line in lines)
    finally:
        server.stop()


def test_a_journal_from_before_kinds_opens_and_restores_every_table_as_the_peg_board_game(tmp_path) -> None:
    # tests/data/journal-before-kinds.sqlite was written by the server before game kinds (fe4158f): a 2-player
    # match table, first to 3, whose game 1 is finished (a record with only a winner and a line) and whose
    # game 2 is in play at ply 6.
    shutil.copy(DATA / "journal-before-kinds.sqlite", tmp_path / JOURNAL_FILE)
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    try:
        (table,) = server.server.lobby.tables.values()
        assert table.kind is kinds.get("peg-board") and table.settings == kinds.get("peg-board").check_settings(
            2, "guarded") and table.game_no == 2 and table.game.ply == 6 and table.state == "playing"
        (first,) = table.results  # the old record's result, ranked by replaying it through its kind
        assert first.ranking in ((0, 1), (1, 0)) and first.summary.startswith(f"side {first.winner} won with ")
        assert [s.side for s in table.seats] == [0, 1]
        with GameClient(server.endpoint, name="Ann") as watcher:
            (entry,), _ = watcher.list_records()
            assert entry.kind == "peg-board" and entry.ranking == first.ranking and entry.winner == first.winner
            info = watcher.spectate(table.id)
            assert info.kind == "peg-board" and info.match is not None and info.match.results == (first,)
            match_record = watcher.fetch_record(table.id, 1, match=True)
            assert match_record.startswith("# GAME OF 99 match record") and "score: " in match_record
    finally:
        server.stop()


def test_a_rated_free_for_all_rates_each_place_in_its_own_kind_and_leaderboard(aces, tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    people = [GameClient(server.endpoint, name=n, key=f"{i + 1:02x}" * 32) for i, n in enumerate(("Ann", "Bo", "Cy"))]
    try:
        for p in people:
            p.hello()
        info = people[0].create_table("rated aces", 3, game="aces", rated=True)
        for seat, p in enumerate(people):
            p.take_seat(info.id, seat)
        play_until(people, lambda: all(p.table is not None and p.table.state == "over" for p in people), seconds=30)
        (entry,), _ = people[0].list_records()
        ranking = entry.ranking
        board, total = people[0].leaderboard(game="aces")
        rated = {r.name: r for r in board if not r.bot}
        assert total == 4 and {r.name for r in board if r.bot} == {"drawer"} and set(rated) == {"Ann", "Bo", "Cy"}
        assert all(r.games == 1 for r in rated.values())
        by_place = sorted(zip(ranking, ("Ann", "Bo", "Cy")))
        # A better place never rates lower (tied places may rate alike); the winner gained, the last lost.
        assert all(rated[a].rating >= rated[b].rating for (pa, a), (pb, b) in zip(by_place, by_place[1:]))
        assert rated[by_place[0][1]].rating > 1500 > rated[by_place[-1][1]].rating
        assert rated[by_place[0][1]].wins == 1
        # Their peg-board ratings did not move: each game kind has its own.
        peg_board, _ = people[0].leaderboard()
        assert not [r for r in peg_board if not r.bot]
        assert people[0].player_history("Ann", game="aces").rating == rated["Ann"]
    finally:
        for p in people:
            p.close()
        server.stop()
    # After a restart the kind's ratings are read back from the journal.
    server = run_in_thread(data_dir=tmp_path)
    try:
        with GameClient(server.endpoint, name="watcher") as w:
            again, _ = w.leaderboard(game="aces")
            assert {r.name: r for r in again if not r.bot} == rated
    finally:
        server.stop()


def test_a_tournament_takes_a_kind_whose_games_are_between_two_sides(aces, tmp_path) -> None:
    desk = Desk(tmp_path)
    host = desk.peer("host")
    fields = {"name": "cup", "rounds": 1, "match": {"kind": "first-to", "target": 1}}
    with pytest.raises(CoreError) as refused:
        host.ask("create_tournament", game="aces", players=3, entrants=[["bot:drawer"], ["bot:drawer"]], **fields)
    assert refused.value.code == "bad-field" and refused.value.message == (
        "players: a tournament's matches are between two sides, and FIRST TO 3 ACES at 3 players has 3")
    with pytest.raises(CoreError) as refused:
        host.ask("create_tournament", game="aces", players=2, entrants=[["bot:random"], ["bot:drawer"]], **fields)
    assert refused.value.code == "no-such-bot"  # the kind's bots, not another kind's
    reply = host.ask("create_tournament", game="aces", players=2, entrants=[["bot:drawer"], ["bot:drawer"]], **fields)
    assert reply["tournament"]["kind"] == "aces"
    (table,) = host.ask("next_round", tournament=reply["tournament"]["id"], token=reply["token"])["tournament"][
        "pairings"]
    assert desk.core.lobby.tables[table["table"]].kind is ACES
    desk.close()


def test_a_seat_number_is_bounded_by_the_largest_table_of_any_installed_kind() -> None:
    seat_7 = {"type": "take_seat", "id": 1, "table": "t", "seat": 7}
    with pytest.raises(ProtocolError) as refused:
        check_request(seat_7)
    assert refused.value.message.startswith("seat: expected a whole number 0-5")  # the peg-board game's 6 seats

    class Eights(Aces):
        name, player_counts = "eights", (2, 8)

    kinds.register(Eights())
    try:
        assert check_request(seat_7) == ("take_seat", {"table": "t", "seat": 7})
    finally:
        kinds.unregister("eights")
    with pytest.raises(ProtocolError):
        check_request(seat_7)


def test_the_turn_clock_and_a_stand_in_move_by_the_kind(aces, tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    try:
        with GameClient(server.endpoint, name="Di") as di, GameClient(server.endpoint, name="Ed") as ed:
            info = di.create_table("clocked", 2, game="aces", clock=0.3, grace=0.0)
            di.take_seat(info.id, 0)
            ed.take_seat(info.id, 1)
            by_clock: list[dict] = []
            deadline = time.monotonic() + 10
            while len(by_clock) < 2 and time.monotonic() < deadline:  # nobody acts: the clock draws for each
                by_clock += [m for m in di.poll(0.05) if m.get("type") == "update" and m.get("clock")]
            assert [m["action"] for m in by_clock[:2]] == [{"type": "draw"}, {"type": "draw"}]
            assert [m["by"] for m in by_clock[:2]] == [0, 1]
            ed.leave()  # mid-game: the kind's stand-in bot plays Ed's seat on
            play_until([di], lambda: di.table is not None and di.table.state == "over", seconds=30)
            assert di.table is not None and di.table.state == "over"
    finally:
        server.stop()


def test_a_table_of_a_kind_not_installed_is_set_aside_and_comes_back_with_its_kind(tmp_path) -> None:
    kinds.register(ACES)
    try:
        server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
        try:
            with GameClient(server.endpoint, name="Fay") as fay:
                info = fay.create_table("kept", 2, game="aces")
                fay.take_seat(info.id, 0)
                fay.add_bot(info.id, 1, "drawer")
                play_until([fay], lambda: fay.view is not None and fay.view.ply >= 2)
                ply = server.server.lobby.tables[info.id].game.ply
        finally:
            server.stop()
    finally:
        kinds.unregister(ACES.name)
    server = run_in_thread(data_dir=tmp_path)  # this server has no aces
    try:
        assert info.id not in server.server.lobby.tables
        (aside,) = server.server.core.set_aside
        assert aside.table == info.id and "'aces' is not a game here" in aside.reason
    finally:
        server.stop()
    kinds.register(ACES)
    try:
        server = run_in_thread(data_dir=tmp_path)  # nothing was lost: with the kind back, so is the game
        try:
            assert server.server.lobby.tables[info.id].game.ply == ply
        finally:
            server.stop()
    finally:
        kinds.unregister(ACES.name)
