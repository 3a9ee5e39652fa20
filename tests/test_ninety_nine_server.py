"""Ninety-Nine through the house: a real server and the client library play it, journal it, restore it after a
restart, record it, list it and replay it, with the kind installed by the test and nothing in the house naming it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from board99 import kinds
from board99.client.net import GameClient, ServerError
from board99.ninety_nine.actions import Draw
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.view import NinetyView
from board99.server.loop import run_in_thread

pytestmark = pytest.mark.slow


@pytest.fixture
def installed() -> Iterator[kinds.GameKind]:
    """The kind as the registry installs it (board99.kinds.GAMES)."""
    yield kinds.get(NINETY_NINE.name)


def play_until(client: GameClient, done: Callable[[], bool], seconds: float = 30.0) -> None:
    """The client plays soundly on its turns until ``done()`` (bounded in time)."""
    bot = NINETY_NINE.bots["sound"](seed=1)
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        client.poll(0.01)
        if client.my_turn() and isinstance(client.view, NinetyView):
            try:
                client.act(bot.choose(client.view))
            except ServerError as exc:
                # stale: a push was on its way; not-your-seat: just after a restart, before the client resumed
                assert exc.code in ("stale", "not-your-seat"), exc


@pytest.mark.parametrize("rules, mode", [("glengariff", "guarded"), ("three-card", "penalty")])
def test_a_game_is_played_restored_after_a_restart_recorded_and_replayed(installed: kinds.GameKind, tmp_path,
                                                                          rules: str, mode: str) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)
    ann = None
    try:
        ann = GameClient(server.endpoint, name="Ann")
        with pytest.raises(ServerError) as refused:
            ann.create_table("two", 2, mode=mode, game="ninety-nine", options={"rules": "three-card"})
        assert refused.value.code == "bad-field" and "Three-card rules (004) are for 3 to 6" in refused.value.message
        info = ann.create_table("ours", 3, mode=mode, game="ninety-nine", options={"rules": rules})
        assert (info.kind, info.mode, info.sides, dict(info.options)["rules"]) == ("ninety-nine", mode, 3, rules)
        ann.take_seat(info.id, 0)
        ann.add_bot(info.id, 1, "sound")
        ann.add_bot(info.id, 2, "random")
        # (a short Glengariff game may end before its eighth action: then the restart finds it over)
        play_until(ann, lambda: ann.view is not None and (ann.view.ply >= 8 or ann.table.state == "over"))
        ply = ann.view.ply
        hand = ann.view.hand
        server.stop()  # mid-game: the journal has every action
        server = run_in_thread(port=int(server.endpoint.rsplit(":", 1)[1]), data_dir=tmp_path, bot_delay=0.01)
        table = server.server.lobby.tables[info.id]
        assert table.kind is NINETY_NINE and table.game.ply >= ply
        if table.game.ply == ply:
            assert table.game.hand(0) == hand  # the same deal, from the seed and the actions
        deadline = time.monotonic() + 20
        while not any(m["type"] == "snapshot" for m in ann.poll(0.1)):  # Ann's client takes her seat back
            assert time.monotonic() < deadline, "the client did not come back after the restart"
        play_until(ann, lambda: ann.table is not None and ann.table.state == "over", seconds=60)
        record = ann.fetch_record(info.id)
        assert kinds.for_record(record) is NINETY_NINE
        *_, (_, _, replayed) = NINETY_NINE.replay_record(record)
        assert replayed.over and replayed.ply == table.game.ply
        (entry,), total = ann.list_records()
        assert entry.kind == "ninety-nine" and entry.ranking == NINETY_NINE.ranking(replayed)
        assert entry.summary == NINETY_NINE.summary(replayed)
        lines, views = ann.history()
        drawn = [line for line in lines if " draws " in line]
        assert drawn and all(line.endswith("draws a card") for line in drawn)  # history is public
        assert all(isinstance(v, NinetyView) and v.hand is None for v in views)
    finally:
        if ann is not None:
            ann.close()
        server.stop()


def test_a_late_draw_out_of_turn_goes_through_the_server(installed: kinds.GameKind, tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=1.0)  # the bot waits: the draw is still owed
    try:
        with GameClient(server.endpoint, name="Ann") as ann:
            info = ann.create_table("two", 2, mode="penalty", game="ninety-nine", options={"rules": "convention"})
            ann.take_seat(info.id, 0)
            ann.add_bot(info.id, 1, "sound")
            deadline = time.monotonic() + 20
            while not (isinstance(ann.view, NinetyView) and ann.view.started and ann.my_turn()):
                assert time.monotonic() < deadline
                ann.poll(0.05)
            ann.act(NINETY_NINE.bots["sound"]().choose(ann.view)._replace(draw=False))
            assert ann.view.pending == (0,) and len(ann.view.hand) == 6 and ann.view.turn == 1
            ann.act(Draw())  # out of turn: S1 is to play
            assert ann.view.pending == () and len(ann.view.hand) == 7
    finally:
        server.stop()


def test_records_out_of_a_server_and_its_data_folder_round_trip_through_replay(tmp_path, capsys) -> None:
    from board99.commands import main

    data = tmp_path / "data"
    server = run_in_thread(data_dir=data, bot_delay=0.0)
    try:
        with GameClient(server.endpoint, name="Ann") as ann:
            info = ann.create_table("bots", 4, "penalty", game="ninety-nine", options={"rules": "tokens"})
            for seat in range(4):
                ann.add_bot(info.id, seat, "random" if seat % 2 else "sound")
            deadline = time.monotonic() + 60
            while not ann.list_records()[0]:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            fetched = ann.fetch_record(info.id, game=1)
        address = server.endpoint.removeprefix("tcp://")
        assert main(["records", "--server", address]) == 0
        assert f"{info.id}:1" in capsys.readouterr().out
        assert main(["records", "--server", address, "--get", f"{info.id}:1", "--out", str(tmp_path / "a")]) == 0
    finally:
        server.stop()
    path = tmp_path / "a" / f"{info.id}-game-1.txt"
    assert path.read_text() == fetched and kinds.for_record(fetched) is NINETY_NINE
    # Out of the stopped server's data folder: the same record.
    assert main(["records", "--data", str(data), "--get", f"{info.id}:1", "--out", str(tmp_path / "b")]) == 0
    assert (tmp_path / "b" / path.name).read_text() == fetched
    capsys.readouterr()
    # `board99 replay` checks it line by line and shows the table after each action.
    assert main(["replay", str(path)]) == 0
    shown = capsys.readouterr().out
    *_, (_, _, game) = NINETY_NINE.replay_record(fetched)
    assert shown.rstrip().endswith("every line follows the rules") and f"S{game.winner} has won" in shown
    assert main(["replay", "--quiet", str(path)]) == 0
    # A line changed is refused, and the command says which.
    lines = fetched.split("\n")
    no = next(i for i, line in enumerate(lines) if line.startswith("S") and " play " in line)
    card = lines[no].split(" play ")[1].split()[0]
    other = "joker" if card != "joker" else "AS"
    lines[no] = lines[no].replace(f" play {card}", f" play {other}", 1)
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join(lines))
    capsys.readouterr()
    assert main(["replay", "--quiet", str(broken)]) == 1
    assert f"line {no + 1}:" in capsys.readouterr().err


#: Seeds whose 2-player Glengariff deal decides the game: the turned-up card makes 99 and S1 can play nothing.
DECIDED_AT_DEAL = 163


class Seeds:
    """Stands in for ``secrets`` in the game's module: the seeds given, in turn, then fresh ones."""

    def __init__(self, *seeds: int) -> None:
        self.seeds = list(seeds)

    def randbits(self, bits: int) -> int:
        import secrets

        return self.seeds.pop(0) if self.seeds else secrets.randbits(bits)


def test_a_game_its_deal_decides_is_over_at_once_recorded_and_rematched(installed: kinds.GameKind, tmp_path,
                                                                        monkeypatch) -> None:
    from board99.ninety_nine import game as game_module
    from board99.ninety_nine.game import Game
    from board99.ninety_nine.rules import Table

    assert Game(2, "guarded", Table.build(2, {"rules": "glengariff"}), seed=DECIDED_AT_DEAL).over
    monkeypatch.setattr(game_module, "secrets", Seeds(DECIDED_AT_DEAL))
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.0)
    try:
        with GameClient(server.endpoint, name="Ann") as ann:
            info = ann.create_table("short", 2, "guarded", game="ninety-nine", options={"rules": "glengariff"})
            ann.take_seat(info.id, 0)
            seated = ann.add_bot(info.id, 1, "sound")
            # The change that filled the last seat starts the game and ends it: the table is over, not stuck.
            assert seated.state == "over" and seated.game == 1
            deadline = time.monotonic() + 10
            while ann.table.state != "over":
                assert time.monotonic() < deadline, "the table never heard that its game was over"
                ann.poll(0.05)
            assert ann.view.winner == 0 and ann.view.ply == 0 and ann.view.out == (False, True)
            record = ann.fetch_record(info.id)
            assert "S1 is out of the game (cannot-play): place 2" in record
            (entry,), _ = ann.list_records()
            assert entry.ranking == (0, 1) and entry.summary == "S0 won; then S1"
            again = ann.rematch()  # the next game, with a fresh seed
            assert again.game == 2
    finally:
        server.stop()


def test_a_game_its_deal_decided_is_finished_by_a_restart_that_finds_it_unfinished(installed: kinds.GameKind,
                                                                                  tmp_path, monkeypatch) -> None:
    # The deal was journaled, but the game's end could not be (the disk refused it): a restart finishes it.
    from board99.ninety_nine import game as game_module
    from board99.server.journal import Journal

    def refused(self, *args) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(game_module, "secrets", Seeds(DECIDED_AT_DEAL))
    monkeypatch.setattr(Journal, "save_finished", refused)
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.0)
    try:
        with GameClient(server.endpoint, name="Ann") as ann:
            info = ann.create_table("short", 2, "guarded", game="ninety-nine", options={"rules": "glengariff"})
            ann.take_seat(info.id, 0)
            ann.add_bot(info.id, 1, "sound")
        assert server.server.lobby.tables[info.id].state == "over"  # over in memory, its record not kept
    finally:
        server.stop()
    monkeypatch.undo()
    server = run_in_thread(data_dir=tmp_path)
    try:
        t = server.server.lobby.tables[info.id]
        assert t.state == "over" and t.game.over
        with GameClient(server.endpoint, name="Bo") as bo:
            assert "S0 wins" in bo.fetch_record(info.id)
    finally:
        server.stop()


def test_a_tournament_game_its_deal_decides_counts_for_the_round(installed: kinds.GameKind, tmp_path,
                                                                 monkeypatch) -> None:
    # Tournaments play a kind's default rules (Convention, where the deal decides nothing): here the kind's
    # default is Glengariff's, and every game's deal decides it.
    from board99.match import MatchFormat
    from board99.ninety_nine import game as game_module

    plain = type(NINETY_NINE).check_settings
    monkeypatch.setattr(NINETY_NINE, "check_settings", lambda players, mode, options=None: plain(
        NINETY_NINE, players, mode, options if options is not None else {"rules": "glengariff"}))
    monkeypatch.setattr(game_module, "secrets", Seeds(*[DECIDED_AT_DEAL] * 6))
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.0)
    try:
        with GameClient(server.endpoint, name="Host") as host:
            info, token = host.create_tournament("Deal", 2, [["bot:sound"], ["bot:random"]], 1,
                                                 MatchFormat("first-to", 3), game="ninety-nine")
            info = host.next_round(info.id, token)
            deadline = time.monotonic() + 20
            while info.state != "over":
                assert time.monotonic() < deadline, f"the round never finished: {info}"
                time.sleep(0.05)
                info = next(t for t in host.tournaments() if t.id == info.id)
            (pairing,) = info.pairings
            assert pairing.over and sorted((pairing.games_a, pairing.games_b)) == [0, 3]
    finally:
        server.stop()
