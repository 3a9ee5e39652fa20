"""The infer bot: its memory tells the others' moves right, its odds mark hands that could not have made them,
its guesses follow the moves, and it plays legally from its own views."""

from __future__ import annotations

import random

import numpy as np
import pytest

from board99 import MODES, Draw, Game, Play
from board99.bots import InferenceBot, RulebookBot, make_bot
from board99.bots.fast_search import engine
from board99.bots.memory import DEPTH, DISCARD, DRAW, PLAY, Move, MoveMemory
from board99.bots.tally import LineTally
from tests.scenario import play_legally, position

fastplay = engine()
EXAMPLE_FOUR = (72, 58, 20, 14)


def true_move(game: Game, seat: int, action) -> Move:
    """The move ``seat`` is about to make, as the memory should remember it."""
    kind = PLAY if isinstance(action, Play) else DRAW if isinstance(action, Draw) else DISCARD
    card = -1 if isinstance(action, Draw) else action.card
    square = action.square if isinstance(action, Play) else -1
    return Move(seat, kind, card, square, game.view(None).board, game.deck_size)


def newest(moves: list[Move], depth: int = DEPTH) -> list[Move]:
    """The newest ``depth`` moves of each seat, in order."""
    count: dict[int, int] = {}
    kept = []
    for move in reversed(moves):
        count[move.seat] = count.get(move.seat, 0) + 1
        if count[move.seat] <= depth:
            kept.append(move)
    return kept[::-1]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_memory_tells_every_other_seats_moves_from_one_seats_views(players):
    watcher = 0
    for seed in range(3):
        game = Game(players, seed=100 + seed, first=seed % players)
        bot = RulebookBot()
        memory = MoveMemory()
        truth: list[Move] = []  # the others' moves since the watcher's first look at this deal
        deal = game.deal
        looked = False
        checked = 0
        while game.winner is None and game.ply < 400:
            if game.deal != deal:
                deal, truth, looked = game.deal, [], False
            seat = game.turn
            action = bot.choose(game.view(seat))
            if seat == watcher:
                view = game.view(seat)
                memory.observe(view)
                want = newest(truth)
                if players in (2, 3):  # every peg's side names its seat
                    assert memory.moves == want, game.ply
                else:  # partners may both peg between two looks: then only their cards are known
                    assert len(memory.moves) == len(want)
                    for got, real in zip(memory.moves, want):
                        assert (got.seat, got.card, got.deck_size) == (real.seat, real.card, real.deck_size)
                        if got.kind == PLAY:  # its board may lack a peg whose pegger was not known
                            assert got._replace(board=real.board) == real
                            assert all(g is None or g == r for g, r in zip(got.board, real.board))
                        else:
                            # A play whose square cannot be told is remembered by its card alone, as a discard.
                            assert got.kind == (DISCARD if real.kind == PLAY else real.kind)
                memory.acted(view, action)
                checked += 1
                looked = True
            elif looked:
                truth.append(true_move(game, seat, action))
            game.apply(seat, action)
        assert checked > 3


def test_memory_forgets_at_a_new_deal_and_after_an_offence():
    game = Game(2, "penalty", seed=3, first=0)
    memory = MoveMemory()
    bot = RulebookBot()
    for _ in range(6):
        seat = game.turn
        view = game.view(seat)
        action = bot.choose(view)
        if seat == 0:
            memory.observe(view)
            memory.acted(view, action)
        game.apply(seat, action)
    view = game.view(0)
    memory.observe(view)
    assert memory.moves, "the opponent's draws were seen"
    memory.acted(view, Draw())
    game.apply(0, Draw())
    game.apply(0, Draw())  # out of turn: a penalty, a skip for seat 0 and a shown card
    while game.turn != 0:
        game.apply(1, bot.choose(game.view(1)))
    view = game.view(0)
    memory.observe(view)
    assert memory.moves == []
    memory.acted(view, Draw())
    memory.observe(Game(2, seed=4, first=0).view(0))  # another deal altogether
    assert memory.moves == []


def likelihood(game: Game, seat: int, hand: list[int], action) -> float:
    """The odds ``fastplay`` gives a searching player holding ``hand`` of making ``action`` in ``game``."""
    view = game.view(seat)
    tally = LineTally(view.board, view.sides)
    board, _, _, value, threat = fastplay.arrays(tally)
    hands = np.zeros((view.players, 6), dtype=np.int64)
    sizes = np.zeros(view.players, dtype=np.int64)
    hands[seat, :len(hand)] = hand
    sizes[seat] = len(hand)
    move = true_move(game, seat, action)
    return fastplay._likelihood(move.kind, move.card, move.square, seat, view.side, view.sides, board, value,
                                threat, tally.free_top, view.deck_size, hands, sizes,
                                np.array([7], dtype=np.uint64), np.empty(6, dtype=np.int64))


def test_odds_mark_the_hands_that_could_not_have_made_a_move():
    # The opponent (seat 1) holds four of 72, 58, 20, 14: seat 0 must block square 4.
    game = position(pegs={1: EXAMPLE_FOUR, 0: (70, 71)}, hands={0: (2, 40, 78), 1: (90,)})
    assert likelihood(game, 0, [2, 40, 78], Play(2, 4)) == 1.0  # the block, with the highest card that fits
    assert likelihood(game, 0, [3, 40, 78], Draw()) == fastplay.ODDS_NONE  # a block left undone
    assert likelihood(game, 0, [30, 40, 78], Draw()) > fastplay.ODDS_NONE  # nothing fits square 4: no block due
    # Away from any four: a card played is the highest in hand that fits its square.
    game = position(pegs={1: (70,), 0: (99,)}, hands={0: (10, 30, 60)})
    rulebook = RulebookBot().choose(game.view(0))
    assert isinstance(rulebook, Play)
    assert likelihood(game, 0, [10, 30, 60], rulebook) == fastplay.ODDS_CHOICE
    higher = rulebook.card + 1  # fits the square too, and it is higher: it would have been played
    assert rulebook.card < higher <= rulebook.square and higher not in (10, 30, 60)
    assert likelihood(game, 0, [10, 30, 60, higher], rulebook) == fastplay.ODDS_NONE


def hidden_hands(bot: InferenceBot, view, samples: int, seed: int, draws: int) -> list[list[int]]:
    """``draws`` guesses at the other seats' cards as the bot deals them, one list per guess."""
    moves, mboard, mvalue, mthreat, _ = bot.evidence(view)
    seen = set(view.hand) | {c for pile in view.discards for c in pile}
    pool = np.array([c for c in range(100) if c not in seen], dtype=np.int64)
    players = view.players
    hands = np.zeros((players, 6), dtype=np.int64)
    sizes = np.zeros(players, dtype=np.int64)
    need = sum(view.hand_sizes) - len(view.hand)
    scratch = (np.empty((samples, need), dtype=np.int64), np.empty(samples, dtype=np.float64),
               np.zeros((players, 6), dtype=np.int64), np.zeros(players, dtype=np.int64), np.empty(6, dtype=np.int64))
    rng = np.array([seed], dtype=np.uint64)
    out = []
    for _ in range(draws):
        fastplay.deal(view.seat, view.sides, players, np.array(view.hand, dtype=np.int64),
                      np.array(view.hand_sizes, dtype=np.int64), pool, 0, moves, mboard, mvalue, mthreat, samples,
                      rng, hands, sizes, *scratch)
        out.append([int(c) for c in pool[:need]])
    return out


def test_weighted_guesses_follow_an_unblocked_four():
    # Seat 0 holds four of the column 23, 24, 25, 26, 27 and needs square 25. Seat 1 draws instead of
    # blocking, so the three cards it held then were all above 25: of its four now, one at most is 25 or
    # less (the one it drew). Uniform guesses often give it two such cards; the infer bot's hardly ever.
    game = position(pegs={0: (23, 24, 26, 27), 1: (70, 71)}, hands={0: (92, 93), 1: (30, 45, 80)},
                    deck_top=(90, 91))
    assert LineTally(game.view(0).board, 2).threats[0] == {25}
    bot = InferenceBot(seed=1, budget=None, rollouts=4)
    view = game.view(0)
    bot.memory.observe(view)
    bot.memory.acted(view, Draw())
    game.apply(0, Draw())
    game.apply(1, Draw())
    view = game.view(0)
    bot.memory.observe(view)
    assert [m.kind for m in bot.memory.moves] == [DRAW]
    weighted = hidden_hands(bot, view, 32, 5, 400)
    uniform = hidden_hands(InferenceBot(seed=1, budget=None, rollouts=4), view, 32, 5, 400)
    two_low = [sum(sum(c <= 25 for c in h) >= 2 for h in guesses) for guesses in (weighted, uniform)]
    assert two_low[1] > 40 and two_low[0] * 4 < two_low[1], two_low


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_infer_bot_plays_legally_and_remembers(players, mode):
    rng = random.Random(players)
    game = Game(players, mode, seed=60 + players, first=players % 2)
    bots = [InferenceBot(seed=s, budget=None, rollouts=8) if s % 2 == 0 else make_bot("rulebook")
            for s in range(players)]
    remembered = 0
    for _ in play_legally(game, bots, 120, rng):
        remembered = max([remembered] + [len(b.memory.moves) for b in bots if isinstance(b, InferenceBot)])
    assert remembered > 0


def test_infer_bot_is_reproducible_from_its_seed():
    def run() -> list:
        game = Game(2, seed=8, first=0)
        bots = [InferenceBot(seed=3, budget=None, rollouts=12), make_bot("rulebook")]
        chosen = []
        while game.winner is None and game.ply < 60:
            seat = game.turn
            action = bots[seat].choose(game.view(seat))
            chosen.append(action)
            game.apply(seat, action)
        return chosen

    assert run() == run()


def test_make_bot_builds_the_infer_bot():
    bot = make_bot("infer", seed=1, budget=0.05)
    assert isinstance(bot, InferenceBot) and bot.budget == 0.05 and bot.name == "infer"
