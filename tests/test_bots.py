"""The bots: legal actions only, nothing but their view, and the rulebook's hints."""

from __future__ import annotations

import copy
import random

import pytest

from board99 import MODES, Discard, Draw, Game, Play
from board99.bots import BOTS, RulebookBot, SearchBot, make_bot
from board99.bots.rulebook import decide
from board99.bots.search import PLAYOUT_PLIES
from board99.bots.tally import LineTally
from board99.commands import main
from tests.scenario import fresh_playout, mid_game, play_legally, position, reshuffled_unseen

# The rulebook's own example: 72, 58, 20 and 14 leave only square 4, for cards 0-4.
EXAMPLE_FOUR = (72, 58, 20, 14)


def fast_search(seed: int = 1, rollouts: int = 3) -> SearchBot:
    """A search bot that plays a fixed number of guesses per move, so its choices are reproducible."""
    return SearchBot(seed=seed, budget=None, rollouts=rollouts)


def bots_for(players: int, names: tuple[str, ...], seed: int) -> list:
    bots = []
    for seat in range(players):
        name = names[seat % len(names)]
        bots.append(fast_search(seed + seat, 2) if name == "search" else make_bot(name, seed=seed + seat))
    return bots


# -- legality ----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_bot_only_returns_legal_actions(players, mode):
    rng = random.Random(players * 10 + len(mode))
    lineups = [("rulebook", "random"), ("search", "rulebook", "random"), ("random", "search")]
    for game_no, names in enumerate(lineups):
        game = Game(players, mode, seed=game_no * 31 + players, first=game_no % players)
        bots = bots_for(players, names, seed=game_no)
        for _ in play_legally(game, bots, 150, rng):
            pass


def test_rulebook_plays_whole_games_legally_in_every_table_size():
    for players in (2, 3, 4, 6):
        game = Game(players, "guarded", seed=players, first=0)
        bot = RulebookBot()
        while game.winner is None and game.ply < 3000:
            seat = game.turn
            action = bot.choose(game.view(seat))
            assert action in game.legal_actions(seat)
            game.apply(seat, action)
        assert game.winner is not None


def test_rulebook_beats_random():
    wins = 0
    for i in range(20):
        game = Game(2, seed=500 + i, first=i % 2)
        bots = [RulebookBot(), make_bot("random", seed=i)] if i % 2 else [make_bot("random", seed=i), RulebookBot()]
        while game.winner is None:
            game.apply(game.turn, bots[game.turn].choose(game.view(game.turn)))
        wins += game.winner == (0 if i % 2 else 1)
    assert wins >= 18


# -- only the view ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["rulebook", "search"])
def test_a_bot_decides_from_its_view_alone(name):
    # The same view with different hidden cards behind it must give the same action.
    for players, plies in ((2, 30), (3, 40), (4, 30), (6, 50)):
        game = mid_game(players, plies, seed=players)
        seat = game.turn
        view = game.view(seat)
        other = reshuffled_unseen(game, seat, salt=9)
        assert other.view(seat) == view
        assert [other.hand(s) for s in range(players)] != [game.hand(s) for s in range(players)]

        chosen = []
        for g in (game, other):
            bot = fast_search(seed=4) if name == "search" else make_bot(name)
            chosen.append(bot.choose(g.view(seat)))
        assert chosen[0] == chosen[1]


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_does_not_change_the_view_it_is_given(name):
    game = mid_game(4, 40, seed=2)
    view = game.view(game.turn)
    kept = copy.deepcopy(view)
    bot = fast_search() if name == "search" else make_bot(name, seed=1)
    bot.choose(view)
    assert view == kept


# -- the rulebook's hints ------------------------------------------------------------


def test_rulebook_wins_at_once_when_it_can():
    game = position(pegs={0: EXAMPLE_FOUR, 1: (70, 71)}, hands={0: (3, 50, 60), 1: (80,)})
    assert RulebookBot().choose(game.view(0)) == Play(3, 4)


@pytest.mark.parametrize("players, threat_side", [(2, 1), (3, 1), (3, 2), (4, 1), (6, 2)])
def test_rulebook_blocks_an_opponents_four(players, threat_side):
    # In 4 and 6 player games the four belongs to a side of two partners.
    game = position(players, pegs={threat_side: EXAMPLE_FOUR, 0: (75, 76, 77)}, hands={0: (2, 40, 78, 90)})
    assert RulebookBot().choose(game.view(0)) == Play(2, 4)


def test_rulebook_counts_partners_pegs_together():
    # Seats 1 and 3 are partners: two pegs each make side 1's four.
    game = Game(4, seed=3, first=0)
    view = game.view(None)
    board = [None] * 100
    for sq in EXAMPLE_FOUR:
        board[sq] = 1
    view = view._replace(board=tuple(board), discards=((), (72, 20), (), (58, 14)), hand_sizes=(3, 0, 0, 0),
                         turn=0)
    deck = [c for c in range(100) if c not in (1, 50, 90, 72, 20, 58, 14)]
    game = Game.from_view(view, [[1, 50, 90], [], [], []], deck)
    assert RulebookBot().choose(game.view(0)) == Play(1, 4)


def test_rulebook_wins_rather_than_blocks():
    game = position(pegs={0: (75, 76, 77, 78), 1: EXAMPLE_FOUR}, hands={0: (2, 70)})
    assert RulebookBot().choose(game.view(0)) == Play(70, 79)


def test_rulebook_saves_low_cards_when_a_high_card_fits():
    # Square 79 extends side 0's row 75-78 on the top edge; card 70 fits it as well as card 1.
    game = position(pegs={0: (76, 77, 78)}, hands={0: (1, 70, 95)})
    action = RulebookBot().choose(game.view(0))
    assert action == Play(70, 75)  # card 70, not 1; on 75 the four 75-78 is won at 74 or 79 (76-79 only at 75)


def test_rulebook_always_plays_the_highest_card_that_fits():
    for seed in range(6):
        game = Game(2, seed=seed, first=0)
        bot = RulebookBot()
        while game.winner is None:
            seat = game.turn
            hand = game.hand(seat)
            action = bot.choose(game.view(seat))
            if type(action) is Play:
                assert not [c for c in hand if action.card < c <= action.square], (hand, action)
            game.apply(seat, action)


def test_rulebook_keeps_two_cards_rather_than_play_them():
    game = position(pegs={0: (75, 76)}, hands={0: (30, 74)})
    assert RulebookBot().choose(game.view(0)) == Draw()


def test_rulebook_plays_its_last_cards_when_the_deck_is_empty():
    game = position(pegs={0: (75, 76)}, hands={0: (30, 74)})
    view = game.view(0)
    view = view._replace(deck_size=0)
    assert type(RulebookBot().choose(view)) is Play


def test_rulebook_discards_a_dead_card_to_make_room():
    # Every square from 90 up is taken, so cards 91-99 are dead; three dead cards leave only two live.
    game = position(pegs={0: range(90, 100, 2), 1: range(91, 100, 2)}, hands={0: (10, 20, 91, 93, 97)})
    assert RulebookBot().choose(game.view(0)) == Discard(97)


# -- the search bot ----------------------------------------------------------------


def test_search_takes_an_immediate_win():
    game = position(pegs={0: EXAMPLE_FOUR, 1: (70, 71)}, hands={0: (3, 50, 60), 1: (80,)})
    bot = fast_search()
    assert bot.choose(game.view(0)) == Play(3, 4)
    assert bot.last_guesses == 0  # a win needs no search


@pytest.mark.parametrize("players, threat_side", [(2, 1), (3, 2), (4, 1)])
def test_search_blocks_an_opponents_four(players, threat_side):
    game = position(players, pegs={threat_side: EXAMPLE_FOUR, 0: (75, 76, 77)}, hands={0: (2, 40, 78, 90)})
    assert fast_search().choose(game.view(0)) == Play(2, 4)


def test_search_blocks_one_of_two_winning_squares():
    # Side 1 holds 72-75 on the top row: 71 and 76 both complete a five.
    game = position(pegs={1: (72, 73, 74, 75), 0: (40, 41)}, hands={0: (5, 60, 70)})
    action = fast_search(rollouts=4).choose(game.view(0))
    # 76: blocking the higher square leaves side 1 only the cards up to 71 to win with; card 70 keeps the 5 and 60.
    assert action == Play(70, 76)


def test_search_is_reproducible_from_its_seed():
    game = mid_game(2, 24, seed=5)
    view = game.view(game.turn)
    assert fast_search(seed=8, rollouts=6).choose(view) == fast_search(seed=8, rollouts=6).choose(view)


def test_search_out_of_time_plays_the_rulebooks_choice():
    game = mid_game(2, 24, seed=6)
    view = game.view(game.turn)
    bot = SearchBot(seed=1, budget=1e-9)
    assert bot.choose(view) == RulebookBot().choose(view)
    assert bot.last_guesses == 0


def test_make_bot_knows_every_bot_and_names_a_bad_budget():
    assert make_bot("rulebook", seed=1).name == "rulebook"
    assert make_bot("search", seed=1).budget == 0.2
    assert make_bot("search", seed=1, budget=0.05).budget == 0.05
    assert make_bot("random", seed=1, budget=0.05).name == "random"
    with pytest.raises(ValueError, match="budget"):
        make_bot("search", budget=0)
    with pytest.raises(ValueError, match="rollouts"):
        SearchBot(budget=None, rollouts=None)


def test_arena_command_takes_a_search_budget(capsys):
    assert main(["arena", "--bots", "search,rulebook", "--games", "2", "--budget", "0.002"]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out and "search bots' budget 0.002 s/move" in out


def test_arena_command_refuses_a_budget_of_zero(capsys):
    assert main(["arena", "--bots", "search,rulebook", "--games", "1", "--budget", "0"]) == 2
    assert "budget" in capsys.readouterr().err


# -- the line tally --------------------------------------------------------------


def test_line_tally_updated_peg_by_peg_equals_one_counted_afresh():
    rng = random.Random(5)
    for trial in range(60):
        sides = 2 + trial % 2
        tally = LineTally([None] * 100, sides)
        board: list[int | None] = [None] * 100
        for _ in range(rng.randrange(1, 90)):
            sq = rng.choice([q for q in range(100) if board[q] is None])
            side = rng.randrange(sides)
            board[sq] = side
            tally.place(sq, side)
        fresh = LineTally(board, sides)
        assert (tally.count, tally.owner, tally.threats, tally.free_top) == (
            fresh.count, fresh.owner, fresh.threats, fresh.free_top)
        free = [sq for sq in range(100) if board[sq] is None]
        assert [round(tally.value[sq], 6) for sq in free] == [round(fresh.value[sq], 6) for sq in free]
        assert max(tally.value[sq] for sq in range(100) if board[sq] is not None) < -1e8


def test_playout_policy_is_the_rulebooks_decide():
    # Playout.run writes rulebook.decide out in line for speed; played side by side they must agree.
    for seed in range(40):
        start = fresh_playout(seed)
        fast, slow = copy.deepcopy(start), copy.deepcopy(start)
        fast_result = fast.run(random.Random(seed), noise=3.0)
        policy_rng = random.Random(seed)
        for _ in range(PLAYOUT_PLIES):
            seat = slow.turn
            action = decide(slow.tally, slow.hands[seat], seat % slow.sides, len(slow.deck), policy_rng, 3.0)
            slow_result = slow.act(action)
            if slow_result is not None:
                break
        assert fast_result == slow_result
        assert fast.tally.board == slow.tally.board and fast.hands == slow.hands and fast.deck == slow.deck
