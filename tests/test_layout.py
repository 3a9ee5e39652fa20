"""Five-in-a-line detection against a brute-force scan of all 192 lines."""

from __future__ import annotations

import random

import pytest

from board99.layout import BIT, LINES, SQUARES, has_five, has_five_scan, mask, squares_of, winning_run


def brute_force_five(squares: set[int]) -> bool:
    return any(all(sq in squares for sq in line) for line in LINES)


@pytest.mark.slow
def test_bitboard_five_check_matches_brute_force_on_random_boards():
    rng = random.Random(99)
    hits = 0
    for _ in range(20_000):
        squares = set(rng.sample(range(100), rng.randint(0, 60)))
        expected = brute_force_five(squares)
        hits += expected
        board = mask(squares)
        assert has_five(board) == expected == has_five_scan(board), sorted(squares)
    assert 2_000 < hits < 18_000  # both answers well represented


def test_every_single_line_is_found_and_four_of_it_is_not():
    for line in LINES:
        assert has_five(mask(line))
        for missing in line:
            assert not has_five(mask(set(line) - {missing}))


def test_no_wrap_round_the_edges():
    # A row's end and the next row's start are not adjacent.
    wrap = {77, 78, 79, 69, 56}  # (0,7) (0,8) (0,9) then (1,0) (1,1)
    assert not has_five(mask(wrap))


def test_winning_run_is_the_whole_run_through_the_square():
    rng = random.Random(5)
    for line in rng.sample(LINES, 50):
        board = mask(line)
        for sq in line:
            assert set(winning_run(board, sq)) == set(line)
    assert winning_run(BIT[0], 0) is None


def test_squares_of_reads_back_what_mask_set():
    rng = random.Random(11)
    for _ in range(200):
        squares = sorted(rng.sample(SQUARES, rng.randint(0, 100)))
        assert squares_of(mask(squares)) == squares
