"""The fastsearch bot and its compiled playouts: the rulebook's policy move for move, legal, view-only, reproducible."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from board99 import MODES, Discard, Draw, Game, Play
from board99.bots import RulebookBot, make_bot
from board99.bots.fast_search import FastSearchBot, engine, no_moves
from board99.bots.rulebook import decide
from board99.bots.tally import LineTally
from tests.scenario import fresh_playout, mid_game, play_legally, position, reshuffled_unseen

EXAMPLE_FOUR = (72, 58, 20, 14)
fastplay = engine()


def fast_search_bot(seed: int = 1, rollouts: int = 16) -> FastSearchBot:
    """A fastsearch bot that plays a fixed number of guesses per move, so its choices are reproducible."""
    return FastSearchBot(seed=seed, budget=None, rollouts=rollouts)


def state(tally: LineTally, hands: list[list[int]], deck: list[int]) -> tuple:
    """The compiled code's arrays for a position: tally arrays, hands, hand sizes, deck."""
    players = len(hands)
    held = np.zeros((players, 6), dtype=np.int64)
    sizes = np.zeros(players, dtype=np.int64)
    for s, hand in enumerate(hands):
        held[s, :len(hand)] = hand
        sizes[s] = len(hand)
    cards = np.zeros(100, dtype=np.int64)
    cards[:len(deck)] = deck
    return (*fastplay.arrays(tally), held, sizes, cards)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_fastsearch_only_returns_legal_actions(players, mode):
    rng = random.Random(players)
    game = Game(players, mode, seed=40 + players, first=players % 2)
    bots = [fast_search_bot(seat, 8) if seat % 2 == 0 else make_bot("rulebook") for seat in range(players)]
    for _ in play_legally(game, bots, 160, rng):
        pass


def test_fastsearch_wins_at_once_and_blocks_the_rulebooks_example():
    win = position(pegs={0: EXAMPLE_FOUR, 1: (70, 71)}, hands={0: (3, 50, 60), 1: (80,)})
    bot = fast_search_bot()
    assert bot.choose(win.view(0)) == Play(3, 4)
    assert bot.last_guesses == 0
    for players, threat_side in ((2, 1), (3, 2), (4, 1)):
        block = position(players, pegs={threat_side: EXAMPLE_FOUR, 0: (75, 76, 77)}, hands={0: (2, 40, 78, 90)})
        assert fast_search_bot().choose(block.view(0)) == Play(2, 4)


def test_fastsearch_decides_from_its_view_alone_and_leaves_it_unchanged():
    for players, plies in ((2, 30), (3, 40), (4, 30), (6, 50)):
        game = mid_game(players, plies, seed=players)
        seat = game.turn
        view = game.view(seat)
        kept = copy.deepcopy(view)
        other = reshuffled_unseen(game, seat, salt=9)
        assert other.view(seat) == view
        chosen = [fast_search_bot(seed=4).choose(g.view(seat)) for g in (game, other)]
        assert chosen[0] == chosen[1]
        assert view == kept


def test_fastsearch_is_reproducible_and_plays_the_rulebooks_choice_when_out_of_time():
    game = mid_game(2, 24, seed=5)
    view = game.view(game.turn)
    first, again = fast_search_bot(seed=8, rollouts=40), fast_search_bot(seed=8, rollouts=40)
    assert first.choose(view) == again.choose(view)
    assert first.last_guesses == again.last_guesses > 0
    hurried = FastSearchBot(seed=1, budget=1e-9)
    assert hurried.choose(view) == RulebookBot().choose(view)
    assert hurried.last_guesses == 0


def test_make_bot_builds_the_fastsearch_bot_with_a_budget():
    bot = make_bot("fastsearch", seed=1, budget=0.05)
    assert isinstance(bot, FastSearchBot) and bot.budget == 0.05 and bot.name == "fastsearch"
    assert make_bot("fastsearch").budget == 0.2
    with pytest.raises(ValueError, match="budget"):
        make_bot("fastsearch", budget=0)
    with pytest.raises(ValueError, match="rollouts"):
        FastSearchBot(budget=None, rollouts=None)


# -- the compiled playouts ---------------------------------------------------------------


def test_compiled_policy_is_the_rulebooks_decide_move_for_move():
    # Whole deals at every table size: at each turn the compiled policy and rulebook.decide agree.
    for seed in range(48):
        p = fresh_playout(seed)
        sides = p.sides
        for _ in range(400):
            seat = p.turn
            expected = decide(p.tally, p.hands[seat], seat % sides, len(p.deck))
            board, _, _, value, threat, held, sizes, _ = state(p.tally, p.hands, p.deck)
            card, square = fastplay._policy(seat, seat % sides, sides, board, value, threat, p.tally.free_top,
                                            held, sizes, len(p.deck), 0.0, np.ones(1, dtype=np.uint64),
                                            np.empty(6, dtype=np.int64))
            got = Draw() if card < 0 else Discard(card) if square < 0 else Play(card, square)
            assert got == expected, (seed, p.tally.board, p.hands[seat])
            if p.act(expected) is not None:
                break


def test_compiled_playout_ends_deals_as_the_python_playout_does():
    for seed in range(60):
        players = (2, 3, 4, 6)[seed % 4]
        python = fresh_playout(seed, [1 if seed % 5 == 0 else 0] + [0] * (players - 1))
        sides = python.sides
        deck = python.deck[:]
        board, count, owner, value, threat, held, sizes, cards = state(python.tally, python.hands, deck)
        skips = np.array(python.skips, dtype=np.int64)
        compiled = fastplay.playout(seed % players, sides, players, board, count, owner, value, threat, held,
                                    sizes, cards, len(deck), skips, 0.0, 1, 400, fastplay.LINE_SQUARES,
                                    fastplay.THROUGH, fastplay.WEIGHT)
        assert compiled == python.run(random.Random(1), noise=0.0)
        assert [None if b < 0 else int(b) for b in board] == python.tally.board


def test_compiled_arrays_hold_the_tallys_threats():
    game = position(pegs={0: EXAMPLE_FOUR, 1: (74, 75, 76, 77)}, hands={0: (3,), 1: (80,)})
    tally = LineTally(game.view(0).board, 2)
    _, _, _, _, threat = fastplay.arrays(tally)
    for side in (0, 1):
        assert {q for q in range(100) if threat[side, q] > 0} == tally.threats[side]
    assert tally.threats[0] == {4} and tally.threats[1] == {73, 78}


def test_compiled_guesses_share_each_guess_and_score_a_won_deal():
    # Candidate 0 wins on the spot, so every guess scores it for side 0; candidate 1 (a draw)
    # is played out, and skipping candidate 1 leaves its column marked "not played".
    game = position(pegs={0: EXAMPLE_FOUR, 1: (70, 71)}, hands={0: (3, 50, 60), 1: (80, 81)})
    view = game.view(0)
    tally = LineTally(view.board, 2)
    board, count, owner, value, threat = fastplay.arrays(tally)
    unseen = np.array([c for c in range(100) if c not in view.hand and c not in sum(view.discards, ())],
                      dtype=np.int64)
    args = (0, 2, 2, board, count, owner, value, threat, np.array(view.hand, dtype=np.int64), unseen,
            np.array(view.hand_sizes, dtype=np.int64), np.zeros(2, dtype=np.int64),
            np.array([3, -1], dtype=np.int64), np.array([4, -1], dtype=np.int64))
    tail = (0, *no_moves(2), fastplay.LINE_SQUARES, fastplay.THROUGH, fastplay.WEIGHT)  # known = 0: all shuffled
    out = fastplay.guesses(*args, np.ones(2, dtype=np.bool_), 30, 3.0, 7, *tail)
    assert out.shape == (30, 2) and (out[:, 0] == 0).all()
    assert set(out[:, 1]) <= {0, 1, fastplay.TIE}
    assert (fastplay.guesses(*args, np.ones(2, dtype=np.bool_), 30, 3.0, 7, *tail) == out).all()
    alone = fastplay.guesses(*args, np.array([True, False]), 5, 3.0, 7, *tail)
    assert (alone[:, 1] == -3).all()
    # The arrays passed in are the position's, and stay so.
    assert [None if b < 0 else int(b) for b in board] == list(view.board)


def test_compiled_guesses_can_be_told_the_other_hands():
    # Side 1 holds four of 7, 6, 27, 40, 85 and needs square 40; seat 0 cannot block (60, 70).
    # Told that seat 1 holds 10 and 20, every guess has it win at once after seat 0's draw;
    # with the hands shuffled, some guesses give it only cards above 40.
    game = position(pegs={1: (7, 6, 27, 85), 0: (70, 71)}, hands={0: (60, 70), 1: (10, 20)})
    view = game.view(0)
    tally = LineTally(view.board, 2)
    assert tally.threats[1] == {40}
    rest = [c for c in range(100) if c not in (60, 70, 10, 20) and c not in sum(view.discards, ())]
    unseen = np.array([10, 20, *rest], dtype=np.int64)
    args = (0, 2, 2, *fastplay.arrays(tally), np.array(view.hand, dtype=np.int64), unseen,
            np.array(view.hand_sizes, dtype=np.int64), np.zeros(2, dtype=np.int64),
            np.array([-1], dtype=np.int64), np.array([-1], dtype=np.int64), np.ones(1, dtype=np.bool_), 40, 3.0, 3)
    tail = (*no_moves(2), fastplay.LINE_SQUARES, fastplay.THROUGH, fastplay.WEIGHT)
    assert (fastplay.guesses(*args, 2, *tail)[:, 0] == 1).all()
    assert (fastplay.guesses(*args, 0, *tail)[:, 0] != 1).any()
