"""Game records: save and load exactly, replay checks every line."""

from __future__ import annotations

import random

import pytest

from board99 import Game
from board99.arena import play_game
from board99.bots import make_bot
from board99.commands import main
from board99.record import Record, RecordError


def random_game(players: int, mode: str, seed: int) -> Game:
    bots = [make_bot("random", seed=seed * 10 + s) for s in range(players)]
    return play_game(Game(players, mode, seed=seed), bots)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_records_of_random_games_round_trip_and_replay(players):
    for seed in range(15):
        game = random_game(players, "penalty" if seed % 2 else "guarded", seed)
        text = Record.of(game).dumps()
        again = Record.loads(text)
        assert again.dumps() == text
        replayed = again.replay()
        assert replayed.view(None) == game.view(None) and replayed.winner == game.winner


def test_a_record_is_readable_by_a_person():
    text = Record.of(random_game(2, "guarded", 1)).dumps()
    lines = text.splitlines()
    assert lines[:7] == [
        "# GAME OF 99 record, board99 format 1", "players: 2", "mode: guarded", "seed: 1",
        "first: cut", "deck: shuffled", "",
    ]
    assert lines[7].startswith("  deal 1 cut ")
    assert any(line.startswith("S") and " play " in line for line in lines)
    assert lines[-1].startswith("  side ") and " wins by S" in lines[-1]


def test_a_record_with_an_explicit_deck_and_opener_replays():
    deck = list(range(100))
    random.Random(3).shuffle(deck)
    game = play_game(Game(4, "guarded", seed=8, deck=deck, first=2), [make_bot("random", s) for s in range(4)])
    record = Record.loads(Record.of(game).dumps())
    assert record.deck == tuple(deck) and record.first == 2
    assert record.replay().view(None) == game.view(None)


def test_the_hidden_record_names_no_drawn_card_and_no_seed():
    game = random_game(2, "guarded", 4)
    text = Record.of(game, reveal=False).dumps()
    assert "seed: hidden" in text and " drew a card" in text
    assert not any(line.strip().split(" drew ")[-1].isdigit() for line in text.splitlines() if " drew " in line)
    with pytest.raises(RecordError, match="seed is not revealed"):
        Record.loads(text).replay()


def test_replay_stops_at_the_first_line_that_breaks_a_rule():
    lines = Record.of(random_game(2, "guarded", 2)).dumps().splitlines()
    first_play = next(i for i, line in enumerate(lines) if " play " in line and line.startswith("S"))
    seat, _, card, _, square = lines[first_play].split()
    lines[first_play] = f"{seat} play {card} on {int(card) - 1}" if int(card) > 0 else f"{seat} discard 99"
    with pytest.raises(RecordError) as exc:
        Record.loads("\n".join(lines) + "\n").replay()
    assert exc.value.line_no == first_play + 1
    assert "refused" in exc.value.reason


def test_replay_notices_a_changed_event_line():
    lines = Record.of(random_game(3, "penalty", 5)).dumps().splitlines()
    drew = next(i for i, line in enumerate(lines) if " drew " in line)
    seat, _, card = lines[drew].split()
    lines[drew] = f"  {seat} drew {(int(card) + 1) % 100}"
    with pytest.raises(RecordError) as exc:
        Record.loads("\n".join(lines)).replay()
    assert exc.value.line_no == drew + 1 and "the rules give" in exc.value.reason


def test_the_replay_command_prints_the_game_or_the_first_broken_line(tmp_path, capsys):
    path = tmp_path / "game.txt"
    text = Record.of(random_game(2, "penalty", 3)).dumps()
    path.write_text(text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "every line follows the rules" in out and " wins" in out
    path.write_text(text.replace("players: 2", "players: 5"))
    assert main(["replay", str(path)]) == 1
    assert "2, 3, 4 or 6" in capsys.readouterr().err


def test_loading_garbage_names_the_line():
    with pytest.raises(RecordError) as exc:
        Record.loads("hello\n")
    assert exc.value.line_no == 1
