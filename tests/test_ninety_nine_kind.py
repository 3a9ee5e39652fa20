"""Ninety-Nine through the seam: the kind implements board99.kinds.GameKind, and a whole game is played through the
kind's methods only (settings, views and actions as plain data both ways, events cut per seat, the result, the
record and its replay)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Iterator

import pytest

import board99.ninety_nine
from board99 import kinds
from board99.kinds import GameKind, GameState, SettingsError
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.rules import RULE_SETS


@pytest.fixture
def installed() -> Iterator[GameKind]:
    """The kind as the registry installs it (board99.kinds.GAMES)."""
    yield kinds.get("ninety-nine")


def test_the_kind_implements_the_game_kind_protocol() -> None:
    assert isinstance(NINETY_NINE, GameKind)
    settings = NINETY_NINE.check_settings(3, "penalty", {"rules": "tokens"})
    assert isinstance(NINETY_NINE.new_game(settings, seed=1), GameState)


def test_the_kind_is_in_the_default_registry_after_the_peg_board_game() -> None:
    assert kinds.names()[:2] == ("peg-board", "ninety-nine") and kinds.get("ninety-nine") is NINETY_NINE


def test_registered_it_is_found_by_name_and_by_its_records(installed: GameKind) -> None:
    assert "ninety-nine" in kinds.names() and kinds.names()[0] == "peg-board"
    settings = installed.check_settings(2, "guarded")
    text = installed.record_text(installed.new_game(settings, seed=3))
    assert kinds.for_record(text) is installed


@pytest.mark.parametrize("players, mode, options, field", [
    ("4", "guarded", None, "players"),
    (7, "guarded", None, "players"),
    (True, "guarded", None, "players"),
    (4, "reckless", None, "mode"),
    (2, "guarded", {"rules": "three-card"}, "players"),
    (4, "guarded", {"tokens": "3"}, "tokens"),
    (4, "guarded", ["rules"], "options"),
    (4, "guarded", {1: "tokens"}, "options"),
])
def test_settings_are_checked_with_the_field_named(players: object, mode: object, options: object,
                                                   field: str) -> None:
    with pytest.raises(SettingsError) as err:
        NINETY_NINE.check_settings(players, mode, options)  # type: ignore[arg-type]
    assert err.value.field == field and err.value.why


def test_settings_hold_every_option_in_order_and_each_seat_plays_alone() -> None:
    settings = NINETY_NINE.check_settings(5, "guarded", {"rules": "three-card", "hand_size": 4})
    assert [name for name, _ in settings.options] == [o.name for o in NINETY_NINE.options]
    assert settings.option("hand_size") == 4 and settings.sides == 5
    assert [NINETY_NINE.side_of(settings, s) for s in range(5)] == [0, 1, 2, 3, 4]


def play_through_the_kind(kind: GameKind, players: int, mode: str, rules: str, seed: int) -> None:
    """A whole game driven only by the kind's methods, every view and action crossing as plain data."""
    settings = kind.check_settings(players, mode, {"rules": rules})
    game = kind.new_game(settings, seed=seed)
    bots = {seat: kind.bots["sound" if seat % 2 else "random"](seed=seed + seat) for seat in range(players)}
    waiting = kind.view(None, settings, 0)
    assert kind.view_from_data(kind.view_to_data(waiting)) == waiting
    for _ in range(5000):
        if game.over:
            break
        seat = game.turn
        assert seat is not None
        view = kind.view_from_data(kind.view_to_data(kind.view(game, settings, seat)))
        action = kind.action_from_data(kind.action_to_data(bots[seat].choose(view)))
        assert game.check(seat, action) is None
        assert kind.parse_action(action.text()) == action
        ply = game.ply
        events = game.apply(seat, action)
        assert game.ply == ply + 1
        for event in events:
            for viewer in [None, *range(players)]:
                data = kind.event_for(event, viewer)
                assert data["kind"] == event.kind
                if event.kind == "drew" and viewer != event.seat:
                    assert data["card"] is None
    assert game.over
    ranking = kind.ranking(game)
    assert sorted(ranking) == list(range(players))
    winner = ranking.index(0)
    assert kind.summary(game).startswith(f"S{winner} won; then ")
    text = kind.record_text(game)
    steps = list(kind.replay_record(text))
    last = steps[-1][2] if steps else None
    assert last is not None and last.over and kind.ranking(last) == ranking
    assert kind.view(last, settings, None) == kind.view(game, settings, None)


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("mode", ["guarded", "penalty"])
def test_a_whole_game_through_the_kinds_methods_only(installed: GameKind, rules: str, mode: str) -> None:
    play_through_the_kind(installed, 4, mode, rules, seed=len(rules))


def test_the_clock_plays_what_the_stand_in_would_a_proper_card() -> None:
    # Not the card that keeps the total lowest: a 5-player Convention table of players who all let their
    # clocks run then never ended (tests/test_ninety_nine_seats_server.py).
    from board99.ninety_nine.view import view_of

    settings = NINETY_NINE.check_settings(3, "penalty", {"rules": "glengariff"})
    game = NINETY_NINE.new_game(settings, seed=21)
    for _ in range(200):
        if game.over:
            break
        action = NINETY_NINE.clock_action(game)
        assert game.turn is not None and game.check(game.turn, action) is None
        assert action == NINETY_NINE.bots[NINETY_NINE.standin_bot]().choose(view_of(game, game.turn))
        game.apply(game.turn, action)
    assert game.over


def test_the_standin_bot_is_one_of_its_bots_and_none_is_slow() -> None:
    assert NINETY_NINE.standin_bot in NINETY_NINE.bots and NINETY_NINE.slow_bots <= set(NINETY_NINE.bots)


def _modules() -> list[str]:
    path = board99.ninety_nine.__path__
    return sorted(f"board99.ninety_nine.{m.name}" for m in pkgutil.iter_modules(path))


@pytest.mark.parametrize("name", _modules())
def test_the_examples_in_the_docstrings_run(name: str) -> None:
    failed, tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)[:2]
    assert failed == 0


def test_the_sound_bot_beats_the_random_bot() -> None:
    """Sound play (high cards early, specials kept for a high total) wins more than its share against random."""
    wins = 0
    games = 80  # sound won 809 of 1,000 (docs/ninety-nine.md): 48 of 80 is more than 4 deviations below
    for seed in range(games):
        settings = NINETY_NINE.check_settings(2, "guarded", {"rules": "convention"})
        game = NINETY_NINE.new_game(settings, seed=seed)
        sound = seed % 2
        bots = {sound: NINETY_NINE.bots["sound"](seed=seed), 1 - sound: NINETY_NINE.bots["random"](seed=seed)}
        while not game.over:
            seat = game.turn
            assert seat is not None
            game.apply(seat, bots[seat].choose(NINETY_NINE.view(game, settings, seat)))
        wins += game.winner == sound
    assert wins > games * 0.6, wins


def test_result_detail_action_text_match_record_coach_refusals_and_bot_strengths() -> None:
    """The rest of GameKind: the result's detail, actions as text, a match's record, no coach, the refusal codes,
    the bots' strengths."""
    kind = NINETY_NINE
    settings = kind.check_settings(3, "guarded", {"rules": "three-card"})
    records = []
    for seed in (1, 2):
        game = kind.new_game(settings, seed=seed)
        while not game.over:
            assert game.turn is not None
            action = kind.clock_action(game)
            assert kind.parse_action(kind.action_text(action)) == action
            game.apply(game.turn, action)
        detail = kind.result_detail(game)
        assert detail["order"][0] == game.winner and sorted(detail["order"]) == [0, 1, 2]
        assert [kind.ranking(game)[seat] for seat in detail["order"]] == [0, 1, 2]
        records.append(kind.record_text(game))
    text = kind.match_record_text(settings, ("first-to", 3), ("ann", "bob", "cy"), records, 4)
    assert text.startswith("# NINETY-NINE match record, board99 format 1\nmatch: first to 3\n")
    assert "S1: bob" in text and "first game: 4" in text and all(r in text for r in records)
    assert kind.advise(kind.view(game, settings, 0)) is None
    with pytest.raises(ValueError, match="no coach"):
        kind.advice_from_data({})
    assert set(kind.refusals) >= {"over-99", "wrong-total", "say-total", "out-of-turn"}
    assert kind.bot_strengths[kind.standin_bot] == 0.5 and set(kind.bot_strengths) == set(kind.bots)


def test_a_game_is_deterministic_from_its_seed() -> None:
    settings = NINETY_NINE.check_settings(4, "penalty", {"rules": "glengariff"})

    def played(seed: int) -> str:
        game = NINETY_NINE.new_game(settings, seed=seed)
        for _ in range(40):
            if game.over:
                break
            assert game.turn is not None
            game.apply(game.turn, NINETY_NINE.clock_action(game))
        return NINETY_NINE.record_text(game)

    assert played(5) == played(5)
    assert played(5) != played(6)


def test_a_seat_sees_its_own_hand_only_and_a_spectator_none() -> None:
    settings = NINETY_NINE.check_settings(3, "guarded", {"rules": "tokens"})
    game = NINETY_NINE.new_game(settings, seed=13)
    spectator = NINETY_NINE.view_to_data(NINETY_NINE.view(game, settings, None))
    assert spectator["hand"] is None and spectator["hand_sizes"] == (4, 4, 4)
    for seat in range(3):
        data = NINETY_NINE.view_to_data(NINETY_NINE.view(game, settings, seat))
        assert data["hand"] == game.hand(seat)
        assert {k: v for k, v in data.items() if k not in ("seat", "hand")} == {
            k: v for k, v in spectator.items() if k not in ("seat", "hand")}


def test_a_view_whose_hand_disagrees_with_its_hand_sizes_is_refused() -> None:
    settings = NINETY_NINE.check_settings(3, "guarded", {"rules": "tokens"})
    data = NINETY_NINE.view_to_data(NINETY_NINE.view(NINETY_NINE.new_game(settings, seed=2), settings, 1))
    data["hand"] = data["hand"][:-1]
    with pytest.raises(ValueError, match="view.hand: 3 cards, but hand_sizes gives seat 1 4"):
        NINETY_NINE.view_from_data(data)


def test_board99_replay_shows_a_ninety_nine_record_with_the_table_after_each_action(installed: GameKind,
                                                                                      capsys) -> None:
    from board99.commands.replay import show_game

    settings = installed.check_settings(3, "guarded", {"rules": "tokens"})
    game = installed.new_game(settings, seed=4)
    for _ in range(3):
        assert game.turn is not None
        game.apply(game.turn, installed.clock_action(game))
    show_game(installed.record_text(game), quiet=False)
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["8", "deal", "1:"] and out[0].endswith("deals 4 cards each")
    assert sum(line.startswith("deal 1, total ") for line in out) == 3  # the table after each of 3 actions
    assert any(line.startswith("S0: 4 cards, 3 tokens") for line in out)


def test_a_refusal_is_the_houses_refusal_with_one_of_the_kinds_codes() -> None:
    settings = NINETY_NINE.check_settings(2, "guarded", {"rules": "convention"})
    game = NINETY_NINE.new_game(settings, seed=3)
    assert game.turn is not None
    with pytest.raises(kinds.Refusal) as err:
        game.check(1 - game.turn, NINETY_NINE.clock_action(game))
    assert err.value.code == "out-of-turn" and err.value.code in NINETY_NINE.refusals


def test_the_default_game_stays_first_whichever_games_module_is_imported_first() -> None:
    # Importing the peg-board kind's module directly (as `board99 replay` does) registered Ninety-Nine first.
    for first in ("board99.peg_kind", "board99.ninety_nine.kind"):
        out = subprocess.run([sys.executable, "-c", f"import {first}; from board99 import kinds; print(kinds.names())"],
                             capture_output=True, text=True, timeout=60, check=True).stdout
        assert out.strip() == "('peg-board', 'ninety-nine')", first
