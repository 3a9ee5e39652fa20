"""Matches: the format, the score, and match records that replay every game and check the score."""

from __future__ import annotations

import pytest

from board99 import Game
from board99.bots import make_bot
from board99.match import MatchFormat, MatchRecord, is_match_record, result_of, score
from board99.record import Record, RecordError


def bot_game(players: int, seed: int) -> Game:
    """A finished game between rulebook bots."""
    game = Game(players, seed=seed)
    bots = [make_bot("rulebook", seed=s) for s in range(players)]
    while (seat := game.turn) is not None:
        game.apply(seat, bots[seat].choose(game.view(seat)))
    return game


def played_match(players: int, fmt: MatchFormat, seed: int = 1) -> tuple[MatchRecord, list]:
    """Games until ``fmt`` decides, as a match record and its results."""
    names = tuple(f"P{s}" for s in range(players))
    record, results = MatchRecord(players, "guarded", fmt, names), []
    while not fmt.over(score(record_sides(players), results)):
        game = bot_game(players, seed + len(results))
        results.append(result_of(game, len(results) + 1))
        record.games.append(Record.of(game))
    return record, results


def record_sides(players: int) -> int:
    return Game(players, seed=0).sides


def test_formats_and_their_limits() -> None:
    assert MatchFormat.parse("first to 3") == ("first-to", 3)
    assert MatchFormat.parse("4 games") == ("games", 4) and MatchFormat("games", 1).text() == "1 game"
    for bad in (("first-to", 2), ("games", 0), ("games", 10), ("best-of", 3)):
        with pytest.raises(ValueError, match="not offered"):
            MatchFormat(*bad).check()
    assert MatchFormat("games", 4).winner((2, 2)) is None and MatchFormat("games", 4).over((2, 2))
    assert MatchFormat("first-to", 3).winner((1, 3)) == 1


@pytest.mark.parametrize("players, fmt", [(4, MatchFormat("first-to", 3)), (2, MatchFormat("games", 3)),
                                          (3, MatchFormat("first-to", 1))])
def test_a_match_record_round_trips_and_replays(players: int, fmt: MatchFormat) -> None:
    record, results = played_match(players, fmt)
    text = record.dumps(results)
    assert is_match_record(text) and not is_match_record(record.games[0].dumps())
    again, checked = MatchRecord.loads(text)
    assert checked == results and again.names == record.names and again.format == fmt
    assert again.dumps(checked) == text


def test_a_wrong_score_or_an_extra_game_is_named() -> None:
    record, results = played_match(2, MatchFormat("first-to", 1))
    text = record.dumps(results)
    won = " ".join(map(str, score(2, results)))
    with pytest.raises(RecordError, match="the games give the score"):
        MatchRecord.loads(text.replace(f"score: {won}", "score: 5 5"))
    record.games.append(record.games[0])  # a game after the match was decided
    with pytest.raises(RecordError, match="already decided before this game"):
        MatchRecord.loads(record.dumps(results + results))


def test_a_broken_game_inside_is_named_by_its_line_in_the_match_file() -> None:
    record, results = played_match(2, MatchFormat("first-to", 1))
    lines = record.dumps(results).split("\n")
    target = next(i for i, row in enumerate(lines) if row.startswith("S0 play"))
    lines[target] = "S0 play 99 on 0"
    with pytest.raises(RecordError) as caught:
        MatchRecord.loads("\n".join(lines))
    assert caught.value.line_no == target + 1 and "game 1" in caught.value.reason
