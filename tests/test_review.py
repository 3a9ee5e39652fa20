"""The review after a game: a planted blunder is the worst move, named with the block it missed; the estimate
counts the side's wins, is the same for the same seed, and never looks at a hidden card."""

from __future__ import annotations

from pathlib import Path

import pytest

from board99 import Discard, Draw, Game, Play, SeatView
from board99.arena import play_game
from board99.bots import make_bot
from board99.bots.rulebook import ranked_plays
from board99.bots.tally import LineTally
from board99.commands import main
from board99.layout import POSITION
from board99.record import Record
from board99.review import (
    HINTS,
    MARKS,
    WAIT,
    Options,
    PlayoutEstimator,
    candidate_moves,
    hint_broken,
    mark_for,
    review_move,
    review_record,
)
from tests.scenario import position, reshuffled_unseen

#: Few guesses: the tests check the machinery, docs/review.md the figures at the default effort.
QUICK = Options(guesses=16, second=64, most=256)


class Planter:
    """The rulebook bot, except that the first time it would block an opponent's four it plays elsewhere."""

    name = "planter"

    def __init__(self) -> None:
        self.inner = make_bot("rulebook")
        self.planted: tuple[int, Play | Draw, Play] | None = None  # (ply, the move made, the block it skipped)

    def choose(self, view: SeatView):
        act = self.inner.choose(view)
        if self.planted is None and type(act) is Play and act.square in view.threats_against():
            tally = LineTally(view.board, view.sides)
            live = [c for c in view.hand if c <= tally.free_top]
            elsewhere = [Play(c, q) for _, c, q in ranked_plays(tally, live, 10) if q not in view.threats_against()]
            planted = elsewhere[0] if elsewhere else Draw()
            self.planted = (view.ply + 1, planted, act)
            return planted
        return act


def planted_game(players: int, seed: int, first: int) -> tuple[Game, tuple[int, Play | Draw, Play]]:
    """An arena game of rulebook bots in which seat 0 leaves an opponent's four unblocked once."""
    planter = Planter()
    bots = [planter, *(make_bot("rulebook") for _ in range(players - 1))]
    game = play_game(Game(players, seed=seed, first=first), bots)
    assert planter.planted is not None, "this seed never gave the planter a four to leave unblocked"
    return game, planter.planted


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "first"), [(2, 15, 1), (4, 3, 0)])
def test_a_four_left_unblocked_is_the_worst_move_a_blunder_naming_the_block(players, seed, first):
    game, (ply, made, block) = planted_game(players, seed, first)
    review = review_record(Record.of(game), seat=0)  # the default effort, as a player gets it
    worst = review.worst()
    assert worst is not None and (worst.ply, worst.action) == (ply, made)
    assert worst.mark == "blunder" and worst.loss >= MARKS[0][1]
    assert worst.better == block and worst.hint == "block-threat"
    assert worst.before > worst.after
    assert review.side == 0 and review.counts()["blunder"] >= 1
    assert review.lines()[-1].startswith(review.summary().split(";")[0])


@pytest.mark.slow
def test_every_move_of_the_seat_is_weighed_in_order_and_only_its_own():
    game, _ = planted_game(2, 15, 1)
    review = review_record(Record.of(game), seat=1, options=QUICK)
    plies = [ply for ply, (seat, _, _) in enumerate(game.log, start=1) if seat == 1]
    assert [m.ply for m in review.moves] == plies
    assert [m.action for m in review.moves] == [a for s, a, _ in game.log if s == 1]
    for m in review.moves:
        assert 0.0 <= m.after <= m.before <= 1.0 and m.loss == pytest.approx(m.before - m.after)
        assert (m.mark is None) == (m.better is None) == (m.hint is None)
    assert review.moves[0].forced  # an empty hand can only draw


@pytest.mark.slow
def test_the_same_seed_gives_the_same_review_and_a_move_reviews_the_same_alone():
    game, (ply, made, _) = planted_game(2, 15, 1)
    record = Record.of(game)
    first = review_record(record, seat=0, options=QUICK)
    assert review_record(record, seat=0, options=QUICK) == first
    # Each move has its own seed: weighed alone it comes out as within the whole review.
    replay = Game(2, seed=game.seed, first=1)
    for seat, action, _ in game.log[:ply - 1]:
        replay.apply(seat, action)
    alone = review_move(replay.view(0), made, PlayoutEstimator(), QUICK, game=1, ply=ply, deal=1)
    assert alone == next(m for m in first.moves if m.ply == ply)
    assert review_record(record, seat=0, options=QUICK._replace(seed=1)) != first


def test_the_estimate_never_depends_on_a_hidden_card():
    game, (ply, made, _) = planted_game(2, 15, 1)
    replay = Game(2, seed=game.seed, first=1)
    for seat, action, _ in game.log[:ply - 1]:
        replay.apply(seat, action)
    other = reshuffled_unseen(replay, 0, salt=3)  # the opponent's hand and the deck dealt anew
    assert other.view(0) == replay.view(0) and other.hand(1) != replay.hand(1)
    assert review_move(other.view(0), made, PlayoutEstimator(), QUICK, ply=ply) == \
        review_move(replay.view(0), made, PlayoutEstimator(), QUICK, ply=ply)


def _endgame_view(seat: int) -> SeatView:
    """4 players, the deck empty: side 0 holds 99, 33, 32, 31 (the line 99-50-33-32-31 open at 50), and the
    only card not on a discard pile is card 7, in the hand of seat 2, whose turn it is."""
    board = [None] * 100
    for sq in (99, 33, 32, 31):
        board[sq] = 0
    for sq in (70, 71, 72, 73):  # side 1's pegs: no line of four
        board[sq] = 1
    cards = [c for c in range(100) if c != 7]
    piles = tuple(tuple(cards[i::4]) for i in range(4))
    base = SeatView.before_deal(4, "guarded", seat)
    return base._replace(deal=1, ply=190, turn=2, board=tuple(board), hand=(), hand_sizes=(0, 0, 1, 0),
                         discards=piles, deck_size=0)


def test_a_partner_s_win_is_the_side_s_win():
    estimator = PlayoutEstimator()
    # Seat 0 holds nothing and cannot act; its partner, seat 2, completes the side's line.
    assert estimator.outcomes(_endgame_view(0), [WAIT], 8, seed=1) == [[1.0] * 8]
    assert estimator.outcomes(_endgame_view(2)._replace(hand=(7,)), [WAIT], 8, seed=1) == [[1.0] * 8]
    # The same moment from an opponent's seat: a certain loss.
    assert estimator.outcomes(_endgame_view(1), [WAIT], 8, seed=1) == [[0.0] * 8]


def test_a_tied_deal_counts_one_over_the_sides():
    # Three players, the deck empty, every square but 99 pegged without a five (two sides' pegs in
    # alternating pairs of rows): the last card discarded ends the deal tied, which each side wins a third of.
    board: list[int | None] = [(r // 2 + c) % 2 for r, c in (POSITION[sq] for sq in range(100))]
    board[99] = None
    cards = list(range(99))
    base = SeatView.before_deal(3, "guarded", 0)
    view = base._replace(deal=1, ply=199, turn=0, board=tuple(board), hand=(99,), hand_sizes=(1, 0, 0),
                         discards=(tuple(cards[:33]), tuple(cards[33:66]), tuple(cards[66:])), deck_size=0)
    assert PlayoutEstimator().outcomes(view, [Discard(99)], 4, seed=0) == [[1 / 3] * 4]


# -- the hints ------------------------------------------------------------------------------------


def test_missing_a_win_breaks_win_now():
    game = position(2, pegs={0: (72, 58, 20, 14), 1: (70, 71)}, hands={0: (3, 60), 1: (80,)})
    view = game.view(0)
    assert hint_broken(view, Play(60, 60), Play(3, 4)) == "win-now"


def test_not_blocking_breaks_block_a_four():
    # The rulebook's example from the other side: the opponent holds 72, 58, 20, 14.
    game = position(2, pegs={1: (72, 58, 20, 14), 0: (70,)}, hands={0: (2, 60), 1: (80,)})
    view = game.view(0)
    assert candidate_moves(view) == [Play(2, 4)]
    assert hint_broken(view, Play(60, 60), Play(2, 4)) == "block-threat"
    assert hint_broken(view, Draw(), Play(2, 4)) == "block-threat"


def test_a_low_card_on_a_square_a_high_card_fits_breaks_high_cards_on_high_squares():
    game = position(2, pegs={0: (40,), 1: (70,)}, hands={0: (3, 45, 80, 81), 1: (90,)})
    view = game.view(0)
    assert hint_broken(view, Play(3, 50), Play(45, 50)) == "high-card-high-square"
    assert hint_broken(view, Play(3, 60), Play(45, 50)) == "keep-low-card"


def test_playing_the_last_live_cards_breaks_dont_run_out_of_cards():
    game = position(2, pegs={0: (40,), 1: (70,)}, hands={0: (30, 45), 1: (90,)})
    view = game.view(0)
    assert hint_broken(view, Play(45, 50), Draw()) == "dont-run-out"


def test_an_offence_breaks_the_rules_and_waiting_is_what_an_out_of_turn_seat_should_do():
    game = position(2, "penalty", pegs={0: (40,), 1: (70,)}, hands={0: (30, 45), 1: (90, 91)}, turn=1)
    view = game.view(0)
    assert candidate_moves(view) == [WAIT]
    move = review_move(view, Play(45, 50), PlayoutEstimator(), QUICK)
    assert move.offence == "play-out-of-turn" and move.before >= move.after
    assert hint_broken(view, Play(45, 50), WAIT) == "offence"
    illegal = position(2, "penalty", hands={0: (60, 45)}).view(0)
    assert review_move(illegal, Play(60, 50), PlayoutEstimator(), QUICK).offence == "illegal-play"


def test_every_hint_kind_has_words_and_the_marks_their_thresholds():
    assert set(HINTS) >= {"win-now", "block-threat", "keep-low-card", "high-card-high-square", "make-opponent-waste", "two-way-build",
                          "dont-run-out"}
    assert [name for name, _ in MARKS] == ["blunder", "mistake", "inaccuracy"]
    assert mark_for(0.30, 0.01) == "blunder" and mark_for(0.15, 0.01) == "mistake"
    assert mark_for(0.07, 0.01) == "inaccuracy" and mark_for(0.04, 0.0) is None
    assert mark_for(0.30, 0.2) is None  # a loss within two standard errors of nothing earns no mark


def test_the_sample_blunder_in_docs_is_this_planted_game():
    # docs/review.md shows its review; tools/make_samples.py writes it with a planter of its own.
    game, _ = planted_game(2, 15, 1)
    assert (Path(__file__).parents[1] / "docs" / "sample-blunder.txt").read_text(encoding="utf-8") == \
        Record.of(game).dumps()


# -- the command ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_board99_review_prints_the_table(capsys, tmp_path):
    game, (ply, made, block) = planted_game(2, 15, 1)
    path = tmp_path / "game.txt"
    path.write_text(Record.of(game).dumps(), encoding="utf-8")
    assert main(["review", str(path), "--seat", "0", "--guesses", "16"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.split()[:2] == ["1", str(ply)])
    assert "?? blunder" in row and block.text() in row and "Block the threat" in row
    assert "worst: game 1 action" in out
    assert main(["review", str(path), "--seat", "5"]) == 2
    assert "seats 0-1" in capsys.readouterr().err


def test_a_mark_follows_the_loss_as_shown_and_the_legend_states_the_same_thresholds():
    # A loss of 9.7 points shows as "10": the legend says a mistake starts at 10, so it is a mistake.
    from board99.client.gui.review_model import chance_line, thresholds_line
    from board99.review import legend, points

    assert mark_for(0.097, 0.0) == "mistake"
    assert mark_for(0.0951, 0.0) == "mistake" and mark_for(0.0949, 0.0) == "inaccuracy"
    steps = {name: int(at) for name, _symbol, at in
             (part.split(" ") for part in legend().replace("from ", "").split(", "))}
    assert steps == {"inaccuracy": 5, "mistake": 10, "blunder": 20}
    assert "?! 5, ? 10, ?? 20" in thresholds_line()
    for tenth in range(0, 3000):
        loss = tenth / 10000 + 0.00004
        shown = points(loss)
        expected = next((name for name, at in sorted(steps.items(), key=lambda kv: -kv[1]) if shown >= at), None)
        assert mark_for(loss, 0.0) == expected, (loss, shown)
    move = review_move_like(0.097)
    assert "(−10 points)" in chance_line(move)


def review_move_like(loss: float):
    from board99.review import MoveReview

    return MoveReview(1, 1, 1, 0, Draw(), 0.5, 0.5 - loss, loss, 0.0, mark_for(loss, 0.0), None, None, False,
                      None, 8)
