"""Ninety-Nine's search bot, its memory of the deal, and the arena: real games, views only, fixed seeds."""

from __future__ import annotations

import pytest

from board99.commands import main
from board99.ninety_nine.actions import Play
from board99.ninety_nine.arena import run_arena, seat_bots
from board99.ninety_nine.bots import SoundBot
from board99.ninety_nine.game import Game
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.memory import PlayMemory, Seen
from board99.ninety_nine.rules import RULE_SETS, Table
from board99.ninety_nine.search import SearchBot, refused_ranks
from board99.ninety_nine.view import NinetyView, view_of


def wire_view(game: Game, seat: int) -> NinetyView:
    """The seat's view as a bot at the server gets it: plain data, read back; nothing else of the game."""
    return NinetyView.from_data(view_of(game, seat).to_data())


@pytest.mark.parametrize("mode", ["guarded", "penalty"])
@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_the_search_bot_plays_only_legal_actions_to_the_end_of_a_game(rules: str, mode: str) -> None:
    game = Game(3, mode, Table.build(3, {"rules": rules}), seed=21)
    bots = [SearchBot(seed=s, samples=3, budget=None) for s in range(3)]
    while not game.over:
        assert game.ply < 2000
        seat = game.pending[0] if game.pending else game.turn
        assert seat is not None
        action = bots[seat].choose(wire_view(game, seat))
        assert action in game.legal_actions(seat), (rules, mode, action)
        for event in game.apply(seat, action):
            assert type(event).__name__ not in ("Busted", "Corrected", "Forgot")  # no offence, ever
    assert game.winner is not None


def test_the_search_bot_chooses_the_same_whatever_the_hidden_cards_are() -> None:
    """Two games that differ only in what seat 0 cannot see (the other hands and the stock) look the same to it,
    and it plays the same in both: it reads nothing but its view."""
    game = Game(3, "guarded", Table.build(3, {"rules": "convention"}), seed=8)
    other = game.copy()
    hidden = other._hands[1] + other._hands[2] + other._stock
    hidden.reverse()
    other._hands[1], other._hands[2] = hidden[:7], hidden[7:14]
    other._stock = hidden[14:]
    assert other.hand(1) != game.hand(1)
    seat = game.turn
    assert seat is not None
    for g in (game, other):
        g._turn = 0
    assert view_of(game, 0) == view_of(other, 0)
    picks = {SearchBot(seed=4, budget=None).choose(wire_view(g, 0)) for g in (game, other)}
    assert len(picks) == 1


def test_the_memory_holds_only_cards_its_seat_saw() -> None:
    """Every card the memory places in the pile was a top card one of the seat's views showed, or its own play;
    the plays it read are the others'."""
    game = Game(3, "guarded", Table.build(3, {"rules": "tokens"}), seed=3)
    bots = [SearchBot(seed=s, samples=2, budget=None) for s in range(3)]
    shown: set[str] = set()
    while not game.over and game.ply < 300:
        seat = game.turn
        assert seat is not None
        view = wire_view(game, seat)
        action = bots[seat].choose(view)
        if seat == 0:
            if view.top is not None:
                shown.add(view.top)
            assert isinstance(action, Play)
            shown.add(action.card)
            assert set(bots[0].memory.pile) <= shown
            assert all(m.seat != 0 for m in bots[0].memory.seen)
        game.apply(seat, action)


def test_the_memory_reads_the_other_players_card_and_the_total_it_was_played_on_at_two_players() -> None:
    game = Game(2, "guarded", Table.build(2, {"rules": "convention"}), seed=12)
    memory = PlayMemory()
    bots = [SoundBot(), SoundBot()]
    while True:
        seat = game.turn
        assert seat is not None
        view = view_of(game, seat)
        action = bots[seat].choose(view)
        if seat == 0:
            memory.observe(view)
            memory.acted(view, action)
            if memory.seen:
                break
        game.apply(seat, action)
    _, theirs, _ = [entry for entry in game.log if entry[0] == 1][-1]
    _, _, mine = [entry for entry in game.log if entry[0] == 0][-1]
    last = memory.seen[-1]
    assert (last.seat, last.card) == (1, theirs.card)
    assert last.before == mine[0].total  # seat 1 played on the total seat 0 left
    assert last.drawn_since == 1


def test_a_low_card_played_on_a_low_total_says_no_higher_plain_card_was_held() -> None:
    """At 50 a sound player plays its highest plain card that fits: a 2 played says it held no 3-8, no court card
    and (a plain card first) none of the specials; a 9 making 99 at 95 says it held nothing else that fits."""
    table = Table.build(3, {"rules": "convention"})
    assert refused_ranks(table, Seen(1, "2H", None, 50, 1)) == {"3", "5", "6", "7", "8", "J", "Q"}
    assert refused_ranks(table, Seen(1, "9H", None, 95, 1)) == {"A", "2", "3", "4", "K"}


def test_seat_bots_fills_the_rest_with_the_last_bot_and_names_a_bad_one() -> None:
    assert seat_bots(["search", "sound"], 4) == ["search", "sound", "sound", "sound"]
    with pytest.raises(ValueError, match="'nosuch' is not a Ninety-Nine bot; choose from random, search, sound"):
        seat_bots(["nosuch"], 3)


def test_the_kind_offers_the_search_bot_and_thinks_it_in_the_bot_worker() -> None:
    assert {"random", "sound", "search"} <= set(NINETY_NINE.bots)
    assert "search" in NINETY_NINE.slow_bots and NINETY_NINE.bots["search"](seed=1).budget > 0


def test_the_arena_counts_every_game_and_rotates_the_seats() -> None:
    result = run_arena(["sound", "random"], players=4, games=40, seed=2, options={"rules": "glengariff"})
    assert result.games == 40 and sum(result.wins) == 40
    assert result.bots == ["sound", "random", "random", "random"]
    assert result.wins[0] > 10  # a fair share would be 10: sound play beats random play
    lo, hi = result.interval(0)
    assert lo < result.rate(0) < hi


def test_arena_command_plays_ninety_nine_and_prints_rates_with_intervals(capsys) -> None:
    assert main(["arena", "--game", "ninety-nine", "--rules", "three-card", "--players", "5",
                 "--bots", "sound,random", "--games", "10", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "10 games of Ninety-Nine, three-card rules, 5 players" in out
    assert out.count("95% interval") == 5 and "seat 0 sound" in out and "seat 4 random" in out


def test_arena_command_refuses_rules_the_table_does_not_allow(capsys) -> None:
    assert main(["arena", "--game", "ninety-nine", "--rules", "three-card", "--players", "2",
                 "--bots", "sound", "--games", "1"]) == 2
    assert "the Three-card rules (004) are for 3 to 6 players, not 2" in capsys.readouterr().err
    assert main(["arena", "--rules", "tokens", "--games", "1"]) == 2
    assert "--rules" in capsys.readouterr().err


@pytest.mark.slow
def test_the_search_bot_wins_more_than_the_sound_bots_it_sits_with_at_three_players() -> None:
    """A modest fixed-seed match (Tokens rules; the first 30 games of docs/benchmarks.md's 150, where search won
    46% against a fair share of 33%): search against two sound bots, the seats rotating, each bot seeing its own
    view only. Over 30 games it wins more than its fair share and more than the sound seats on average."""
    result = run_arena(["search", "sound", "sound"], players=3, games=30, seed=1, options={"rules": "tokens"},
                       bot_options={"budget": None})
    assert result.games == 30
    assert result.wins[0] > 30 / 3, result.wins
    assert result.wins[0] > (result.wins[1] + result.wins[2]) / 2, result.wins
