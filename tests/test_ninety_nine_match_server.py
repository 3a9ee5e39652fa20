"""Ninety-Nine matches, ratings and leaderboards through a real server on 127.0.0.1 (real SQLite journal)."""

from __future__ import annotations

import pytest

from board99.client.net import GameClient
from board99.match import MatchFormat
from board99.ninety_nine.kind import NINETY_NINE
from board99.server.loop import run_in_thread
from board99.server.ratings import MU, bot_ratings
from tests.ninety_server_kit import over, play_until
from tests.server_kit import error_of, key

pytestmark = pytest.mark.timeout(240)


def test_a_client_reads_a_four_sided_match_to_three_of_nine_games_and_no_more() -> None:
    # Four sides, first to 3: each may win twice before one wins its third, so nine games at most.
    from board99.kinds import Result
    from board99.wire.table_info import MatchInfo

    results = [Result(g, tuple((g + s) % 4 for s in range(4)), f"S{-g % 4} won") for g in range(1, 10)]
    data = MatchInfo("first-to", 3, 1, tuple(results)).to_data()
    assert sorted(MatchInfo.from_data(data, 4).score(4)) == [2, 2, 2, 3]
    with pytest.raises(ValueError, match="at most 9 results"):
        MatchInfo.from_data({**data, "results": data["results"] + data["results"][:1]}, 4)
    with pytest.raises(ValueError, match="at most 5 results"):
        MatchInfo.from_data({**data, "results": data["results"][:6]}, 2)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_a_finishing_order_of_newcomers_rates_each_place_above_the_next(players: int) -> None:
    # docs/ninety-nine.md, *On the server*: every seat its own place, the winner first, the first out last.
    from board99.kinds import Settings
    from board99.ninety_nine.game import Game
    from board99.server.ratings import Skill, rate

    game = Game(players, "guarded", NINETY_NINE.table(NINETY_NINE.check_settings(players, "guarded")), seed=4)
    while not game.over:
        game.apply(game.turn, NINETY_NINE.clock_action(game))
    ranking = NINETY_NINE.ranking(game)
    assert sorted(ranking) == list(range(players)) and isinstance(NINETY_NINE.check_settings(players, "guarded"),
                                                                  Settings)
    new = rate([[Skill()] for _ in range(players)], ranking)
    by_place = [new[seat][0].mu for seat in sorted(range(players), key=lambda seat: ranking[seat])]
    assert by_place == sorted(by_place, reverse=True) and len(set(by_place)) == players
    assert by_place[0] > MU > by_place[-1]


@pytest.mark.slow
@pytest.mark.parametrize("players, rules", [(2, "convention"), (4, "tokens")])
def test_a_match_first_to_three_at_a_ninety_nine_table_is_scored_and_ends(tmp_path, players: int, rules: str) -> None:
    server = run_in_thread(data_dir=tmp_path, bot_delay=0.0)
    ann = GameClient(server.endpoint, name="Ann", key=key(1))
    bo = GameClient(server.endpoint, name="Bo", key=key(2))
    try:
        info = ann.create_table("club", players, "penalty", match=MatchFormat("first-to", 3), game="ninety-nine",
                                options={"rules": rules})
        assert info.match is not None and info.sides == players
        ann.take_seat(info.id, 0)
        bo.take_seat(info.id, 1)
        for seat in range(2, players):
            ann.add_bot(info.id, seat, "sound")
        people = [ann, bo]

        def games_done(n: int):
            return lambda: (ann.table is not None and ann.table.match is not None
                            and len(ann.table.match.results) >= n and ann.table.state == "over")

        for n in range(1, 3 * players):
            play_until(people, games_done(n), seconds=90)
            match = ann.table.match
            assert len(match.results) == n and [r.game for r in match.results] == list(range(1, n + 1))
            last = match.results[-1]
            # The result is a finishing order of every seat: one winner, each other seat its own place.
            assert sorted(last.ranking) == list(range(players)) and last.winner is not None
            assert last.summary.startswith(f"S{last.winner} won; then ")
            assert match.score(players)[last.winner] == sum(r.winner == last.winner for r in match.results)
            if match.over(players):
                break
            ann.rematch()
            bo.rematch()  # the second vote starts the next game
        match = ann.table.match
        score = match.score(players)
        assert match.over(players) and max(score) == 3 and sum(score) == len(match.results)
        assert match.winner(players) == score.index(3)
        for _ in range(100):  # Bo's client may still be reading the last game's push (at most 5 s)
            if bo.table is not None and bo.table.match == match:
                break
            bo.poll(0.05)
        assert bo.table.match == match  # everyone at the table sees the same score
        # The match is over: its record holds every game, and its results are the games' own.
        text = ann.fetch_record(info.id, match=True)
        head, *games = text.split(NINETY_NINE.record_magic + "\n")
        assert head.startswith("# NINETY-NINE match record") and "match: first to 3\n" in head
        assert "S0: Ann\nS1: Bo\n" in head and len(games) == len(match.results)
        for r, game_text in zip(match.results, games):
            assert game_text.rstrip("\n") == ann.fetch_record(info.id, game=r.game).split("\n", 1)[1].rstrip("\n")
            *_, (_, _, game) = NINETY_NINE.replay_record(NINETY_NINE.record_magic + "\n" + game_text.rstrip("\n") + "\n")
            assert NINETY_NINE.ranking(game) == r.ranking and NINETY_NINE.summary(game) == r.summary
        # `board99 replay` checks the whole match record, every game line by line.
        from board99.commands import main

        (tmp_path / "match.txt").write_text(text)
        assert main(["replay", "--quiet", str(tmp_path / "match.txt")]) == 0
        # A rematch after the match starts a new one, 0-0.
        ann.rematch()
        fresh = bo.rematch().match
        assert fresh is not None and fresh.first_game == len(match.results) + 1 and fresh.results == ()
    finally:
        ann.close()
        bo.close()
        server.stop()


@pytest.mark.slow
def test_a_rated_four_player_game_rates_the_finishing_order_on_its_own_leaderboard(tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path)
    names = ["Ann", "Bo", "Cy", "Di"]
    clients = [GameClient(server.endpoint, name=n, key=key(i + 1)) for i, n in enumerate(names)]
    try:
        info = clients[0].create_table("rated", 4, "guarded", rated=True, game="ninety-nine",
                                       options={"rules": "convention"})
        assert info.rated and info.kind == "ninety-nine"
        assert error_of(lambda: clients[0].add_bot(info.id, 1, "sound")).code == "rated-table"
        for seat, c in enumerate(clients):
            c.take_seat(info.id, seat)
        play_until(clients, over(clients[0]), seconds=90)
        (entry,), _ = clients[0].list_records()
        ranking = entry.ranking
        order = sorted(range(4), key=lambda seat: ranking[seat])  # winner first, the first out last
        board, total = clients[0].leaderboard(game="ninety-nine")
        people = {r.name: r for r in board if not r.bot}
        assert set(people) == set(names) and total == 4 + len(NINETY_NINE.bots)
        assert {r.name: r.rating for r in board if r.bot} == {
            name: skill.shown for name, skill in bot_ratings(NINETY_NINE).items()}
        by_place = [people[names[seat]] for seat in order]
        # Each place rates above the next: the winner gains most, the first out loses most.
        assert [r.rating for r in by_place] == sorted((r.rating for r in by_place), reverse=True)
        assert by_place[0].rating > MU > by_place[-1].rating and len({r.rating for r in by_place}) == 4
        assert [r.wins for r in by_place] == [1, 0, 0, 0] and all(r.games == 1 for r in by_place)
        # The peg-board leaderboard does not move: nobody has played it.
        peg, _ = clients[0].leaderboard()
        assert not [r for r in peg if not r.bot]
        assert clients[0].player_history("Ann").rating.games == 0
        assert clients[0].player_history("Ann", game="ninety-nine").rating == people["Ann"]
        clients[0].poll(0.2)
        assert [s.rating for s in clients[0].table.seats] == [people[n].rating for n in names]
    finally:
        for c in clients:
            c.close()
        server.stop()
    # The ratings are kept per game: a restarted server shows the same leaderboards.
    server = run_in_thread(data_dir=tmp_path)
    try:
        with GameClient(server.endpoint, name="Eve") as eve:
            again = {r.name: r for r in eve.leaderboard(game="ninety-nine")[0] if not r.bot}
            assert again == people
            assert not [r for r in eve.leaderboard()[0] if not r.bot]
    finally:
        server.stop()


@pytest.mark.slow
def test_a_peg_board_rated_game_does_not_move_a_ninety_nine_rating(tmp_path) -> None:
    server = run_in_thread(data_dir=tmp_path)
    ann = GameClient(server.endpoint, name="Ann", key=key(1))
    bo = GameClient(server.endpoint, name="Bo", key=key(2))
    try:
        nn = ann.create_table("nn", 2, "guarded", rated=True, game="ninety-nine", options={"rules": "convention"})
        ann.take_seat(nn.id, 0)
        bo.take_seat(nn.id, 1)
        play_until([ann, bo], over(ann), seconds=60)
        before = {r.name: r for r in ann.leaderboard(game="ninety-nine")[0] if not r.bot}
        ann.leave()
        bo.leave()
        from tests.test_server_matches import play_until as play_peg

        peg = ann.create_table("peg", 2, rated=True)
        ann.take_seat(peg.id, 0)
        bo.take_seat(peg.id, 1)
        play_peg([ann, bo], lambda: ann.table.state == "over")
        assert {r.name: r for r in ann.leaderboard(game="ninety-nine")[0] if not r.bot} == before
        pegs = {r.name: r for r in ann.leaderboard()[0] if not r.bot}
        assert set(pegs) == {"Ann", "Bo"} and all(r.games == 1 for r in pegs.values())
        assert all(r.games == 1 for r in before.values())
    finally:
        ann.close()
        bo.close()
        server.stop()
