"""Matches, player keys, ratings, finished games and tournaments, against a real server on 127.0.0.1."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence

import pytest

from board99.bots import make_bot
from board99.client.net import GameClient, ServerError
from board99.commands import main
from board99.match import MatchFormat, MatchRecord, from_result
from board99.server.journal import JOURNAL_FILE
from board99.server.loop import run_in_thread
from board99.server.pairing import Result, standings
from board99.server.ratings import MU
from tests.server_kit import error_of, key

pytestmark = pytest.mark.timeout(240)


def play_until(clients: Sequence[GameClient], done, seconds: float = 60.0) -> None:
    """Each client plays its seat with the rulebook bot until ``done()``; bounded in time."""
    bots = [make_bot("rulebook") for _ in clients]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for c in clients:
            c.poll(0.005)
        if done():
            return
        for c, bot in zip(clients, bots):
            if c.my_turn() and c.view is not None:
                try:
                    c.act(bot.choose(c.view))
                except ServerError as exc:
                    if exc.code not in ("stale", "out-of-turn", "timeout", "disconnected", "not-your-seat"):
                        raise
                    c.poll(0.2)  # the view was old, or the link is being re-made: listen before trying again
            time.sleep(0.002)
    raise AssertionError("the games did not end in time")


def test_player_keys_keep_names_unique_and_the_server_keeps_only_their_hash(tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path)
    try:
        ann = GameClient(server.endpoint, name="Ann", key=key(1))
        assert ann.hello()["player"]["name"] == "Ann"
        impostor = GameClient(server.endpoint, name="ann", key=key(2))
        assert error_of(impostor.hello).code == "name-taken"
        guest = GameClient(server.endpoint, name="ANN")
        assert error_of(guest.hello).code == "name-taken"
        assert error_of(GameClient(server.endpoint, name="rulebook").hello).code == "name-taken"
        # Every bot's name is reserved, unrated bots' too.
        assert error_of(GameClient(server.endpoint, name="Fastsearch", key=key(3)).hello).code == "name-taken"
        # The key finds Ann again; it keeps her name (tests/test_server_seats.py: another name is refused).
        again = GameClient(server.endpoint, name="Ann", key=key(1))
        assert again.hello()["player"]["name"] == "Ann"
        assert error_of(GameClient(server.endpoint, name="Ann", key=key(2)).hello).code == "name-taken"
        for c in (ann, impostor, guest, again):
            c.close()
    finally:
        server.stop()
    raw = b"".join(f.read_bytes() for f in tmp_path.glob(JOURNAL_FILE + "*"))
    assert key(1).encode() not in raw and bytes.fromhex(key(1)) not in raw
    assert oct((tmp_path / JOURNAL_FILE).stat().st_mode & 0o777) == "0o600"


def test_one_machine_cannot_register_names_without_end(tmp_path) -> None:
    server = run_in_thread(data_dir=None)
    try:
        codes = []
        for n in range(12):
            c = GameClient(server.endpoint, name=f"P{n}", key=key(n + 10))
            try:
                c.hello()
                codes.append("ok")
            except ServerError as exc:
                codes.append(exc.code)
            c.close()
        assert codes == ["ok"] * 10 + ["too-many-players"] * 2
    finally:
        server.stop()


@pytest.mark.slow
def test_a_four_player_match_to_three_survives_a_restart_and_its_record_replays(tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path)
    port = server.port
    ann = GameClient(server.endpoint, name="Ann", key=key(1))
    bo = GameClient(server.endpoint, name="Bo", key=key(2))
    info = ann.create_table("club", 4, match=MatchFormat("first-to", 3))
    ann.take_seat(info.id, 0)
    bo.take_seat(info.id, 1)
    ann.add_bot(info.id, 2)
    ann.add_bot(info.id, 3)

    def games_done(n: int):
        return lambda: ann.table is not None and ann.table.match is not None and len(ann.table.match.results) >= n \
            and ann.table.state == "over"

    def next_game():
        ann.rematch()
        return bo.rematch()  # the second vote starts the game: its reply is the new state

    play_until([ann, bo], games_done(1))
    next_game()
    play_until([ann, bo], lambda: ann.view is not None and ann.view.ply >= 6)
    server.stop()  # a restart in the middle of game 2
    server = run_in_thread(port=port, data_dir=tmp_path)
    try:
        while not ann.table.match.over(2):
            n = len(ann.table.match.results) + 1
            play_until([ann, bo], games_done(n))
            if not ann.table.match.over(2):
                next_game()
        match = ann.table.match
        won = match.score(2)
        assert max(won) == 3 and sum(won) == len(match.results) and match.first_game == 1
        assert [r.game for r in match.results] == list(range(1, len(match.results) + 1))
        text = ann.fetch_record(info.id, match=True)
        record, results = MatchRecord.loads(text)
        assert list(results) == [from_result(r) for r in match.results] and record.names[:2] == ("Ann", "Bo")
        # `records --get --match` names the file for the games it holds, as the window does, whichever game was asked.
        address = server.endpoint.removeprefix("tcp://")
        assert main(["records", "--server", address, "--get", f"{info.id}:2", "--match", "--out",
                     str(tmp_path / "m")]) == 0
        last = len(match.results)
        assert [p.name for p in (tmp_path / "m").iterdir()] == [f"{info.id}-match-games-1-to-{last}.txt"]
        # A rematch after the match starts a new match, 0-0.
        fresh = next_game().match
        assert fresh.first_game == len(match.results) + 1 and fresh.results == ()
        # The finished games are listed, Ann's too, and each is fetched as a record.
        entries, total = ann.list_records(player="Ann")
        assert total == len(match.results) and all(e.match and e.names[0] == "Ann" for e in entries)
        history = ann.player_history("Bo")
        assert history.opponents[0].games == len(match.results) and {m.name for m in history.partners} == {"rulebook"}
    finally:
        ann.close()
        bo.close()
        server.stop()


@pytest.mark.slow
def test_a_rated_game_moves_both_ratings_and_the_leaderboard_shows_them(tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path)
    try:
        ann = GameClient(server.endpoint, name="Ann", key=key(1))
        bo = GameClient(server.endpoint, name="Bo", key=key(2))
        info = ann.create_table("rated", 2, rated=True)
        assert info.rated
        assert error_of(lambda: ann.add_bot(info.id, 1)).code == "rated-table"
        guest = GameClient(server.endpoint, name="Guest")
        assert error_of(lambda: guest.take_seat(info.id, 1)).code == "rated-table"
        ann.take_seat(info.id, 0)
        bo.take_seat(info.id, 1)
        assert [s.rating for s in bo.table.seats] == [round(MU), round(MU)]  # the reply that seated Bo
        play_until([ann, bo], lambda: ann.table.state == "over")
        winner = ann.view.winner
        board, total = ann.leaderboard()
        people = {r.name: r for r in board if not r.bot}
        assert set(people) == {"Ann", "Bo"} and total == 2 + 3
        won, lost = (people["Ann"], people["Bo"]) if winner == 0 else (people["Bo"], people["Ann"])
        assert won.rating > MU > lost.rating and won.wins == 1 and lost.games == 1
        assert {r.name for r in board if r.bot} == {"random", "rulebook", "search"}
        ann.poll(0.2)
        assert [s.rating for s in ann.table.seats] == [people["Ann"].rating, people["Bo"].rating]
        for c in (ann, bo, guest):
            c.close()
    finally:
        server.stop()
    # The ratings are kept: a restarted server shows the same leaderboard.
    server = run_in_thread(data_dir=tmp_path)
    try:
        with GameClient(server.endpoint, name="Cy") as cy:
            assert {r.name: r.rating for r in cy.leaderboard()[0] if not r.bot} == {
                n: r.rating for n, r in people.items()}
    finally:
        server.stop()


def hand_standings(entrants: int, results: list[Result]) -> list[tuple[int, float, float]]:
    """(entrant, points, Buchholz) by the definitions in docs/tournaments.md, written out again here."""
    points = [0.0] * entrants
    met: list[list[int]] = [[] for _ in range(entrants)]
    for r in results:
        if r.b is None:
            points[r.a] += 1
            continue
        share = 1.0 if r.games_a > r.games_b else 0.5 if r.games_a == r.games_b else 0.0
        points[r.a] += share
        points[r.b] += 1 - share
        met[r.a].append(r.b)
        met[r.b].append(r.a)
    return [(e, points[e], sum(points[o] for o in met[e])) for e in range(entrants)]


@pytest.mark.slow
def test_a_swiss_tournament_of_six_bot_sides_runs_four_rounds_with_the_right_standings(tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.01)  # a round lasts a second or two: it can be caught open
    try:
        host = GameClient(server.endpoint, name="Host")
        sides = [["bot:rulebook"], ["bot:random"]] * 3
        info, token = host.create_tournament("Friday", 2, sides, 4, MatchFormat("first-to", 1))
        tid = info.id
        assert info.format == "swiss" and info.state == "waiting"
        assert error_of(lambda: host.next_round(tid, "0" * 32)).code == "bad-token"
        for number in range(1, 5):
            info = host.next_round(info.id, token)
            assert info.round == number and len([p for p in info.pairings if p.round == number]) == 3
            if number == 1:
                assert error_of(lambda: host.next_round(tid, token)).code == "round-unfinished"
            deadline = time.monotonic() + 60
            while info.state == "playing" and time.monotonic() < deadline:
                time.sleep(0.05)
                info = next(t for t in host.tournaments() if t.id == info.id)
        assert info.state == "over"
        assert error_of(lambda: host.next_round(tid, token)).code == "tournament-over"
        results = [Result(p.round, p.a, p.b, p.games_a, p.games_b) for p in info.pairings]
        assert all(p.over and p.games_a + p.games_b == 1 for p in info.pairings)
        # No pair met twice in a round, every side played every round.
        for number in range(1, 5):
            seen = [e for p in info.pairings if p.round == number for e in (p.a, p.b)]
            assert sorted(seen) == list(range(6))
        by_hand = {e: (pts, bh) for e, pts, bh in hand_standings(6, results)}
        for row in info.standings:
            assert (row.points, row.buchholz) == by_hand[row.side]
        assert [s.side for s in info.standings] == [s.entrant for s in standings(6, results)]
        assert sum(s.points for s in info.standings) == 12  # three matches a round, four rounds
        host.close()
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:  # the tournament is journaled
        assert db.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 1


@pytest.mark.slow
def test_the_records_and_tournament_commands_get_games_out_of_a_server_and_a_data_folder(tmp_path, capsys) -> None:
    from board99.commands import main

    data = tmp_path / "data"
    server = run_in_thread(data_dir=data)
    try:
        with GameClient(server.endpoint, name="Ann", key=key(1)) as ann:
            info = ann.create_table("bots", 2)
            ann.add_bot(info.id, 0)
            ann.add_bot(info.id, 1)
            deadline = time.monotonic() + 30
            while not ann.list_records()[0] and time.monotonic() < deadline:
                time.sleep(0.05)
        address = server.endpoint.removeprefix("tcp://")
        assert main(["records", "--server", address]) == 0
        assert f"{info.id}:1" in capsys.readouterr().out
        assert main(["records", "--server", address, "--get", f"{info.id}:1", "--out", str(tmp_path / "a")]) == 0
        assert main(["replay", "--quiet", str(tmp_path / "a" / f"{info.id}-game-1.txt")]) == 0
        assert main(["records", "--server", address, "--get", f"{info.id}:9", "--out", str(tmp_path)]) == 1
        capsys.readouterr()
        assert main(["tournament", "new", "--server", address, "--players", "2", "--side", "Ann",
                     "--side", "bot:random", "--rounds", "1", "--first-to", "1"]) == 0
        printed = capsys.readouterr().out
        tid, token = printed.split()[1], printed.split("token ")[1].split()[0]
        assert main(["tournament", "next", tid, "--server", address, "--token", token]) == 0
        assert main(["tournament", "show", tid, "--server", address, "--csv", str(tmp_path / "s.csv")]) == 0
        assert (tmp_path / "s.csv").read_text().startswith("place,side,played,points,buchholz,sonneborn-berger")
        # The data folder is the journal's: in use while the server runs ...
        assert main(["records", "--data", str(data)]) == 2
    finally:
        server.stop()
    # ... and readable once it has stopped.
    assert main(["records", "--data", str(data), "--get", f"{info.id}:1", "--out", str(tmp_path / "b")]) == 0
    assert (tmp_path / "b" / f"{info.id}-game-1.txt").read_text() == (tmp_path / "a" / f"{info.id}-game-1.txt").read_text()
