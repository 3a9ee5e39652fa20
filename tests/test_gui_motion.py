"""The motion model with a fake clock: tweens run from start to end, are replaced, finished, scaled."""

from __future__ import annotations

import subprocess
import sys

import pytest

from board99.client.gui.motion import CARD_SECONDS, Motion, Motions, ease_out, plan
from board99.events import Drew, Penalty, Played, Won, shown_to
from tests.gui_harness import HandClock


def test_a_tween_goes_from_zero_to_one_over_its_length_after_its_delay():
    m = Motion("card", ("deck", 0), ("hand", 1), 0.4, delay=0.1, start=2.0)
    assert m.progress(2.05) == 0.0 and not m.begun(2.05)
    assert m.progress(2.3) == pytest.approx(ease_out(0.5))
    assert m.progress(2.5) == 1.0 and m.end == pytest.approx(2.5)
    assert ease_out(0) == 0 and ease_out(1) == 1 and ease_out(0.5) > 0.5  # fast start, gentle arrival


def test_motions_run_scaled_by_the_players_speed_and_end_on_their_own():
    clock = HandClock(10.0)
    motions = Motions(clock)
    motions.start(plan([shown_to(Drew(0, 5), 0)], me=0), factor=2.0)
    (m,) = motions.running()
    assert m.duration == pytest.approx(CARD_SECONDS * 2) and m.start == 10.0 and m.card == 5
    clock.now += CARD_SECONDS * 2 + 0.01
    assert motions.running() == [] and motions.until <= clock.now


def test_a_click_finishes_them_and_a_new_batch_replaces_them():
    clock = HandClock(10.0)
    motions = Motions(clock)
    motions.start(plan([shown_to(Played(1, 40, 55), 0)], me=0))
    assert motions.moving_squares("drop") == {55}
    motions.start(plan([shown_to(Drew(1, 3), 0)], me=0))
    assert [m.kind for m in motions.running()] == ["card"] and motions.running()[0].card is None  # others' draws stay hidden
    assert motions.finish() and motions.running() == [] and not motions.finish()


def test_factor_zero_means_no_motion():
    motions = Motions(HandClock(10.0))
    motions.start(plan([shown_to(Played(1, 40, 55), 0)], me=0), factor=0.0)
    assert motions.running() == []


def test_penalties_lift_the_peg_or_show_the_card_and_a_win_draws_its_line_and_celebrates():
    lifted = plan([shown_to(Penalty(1, "illegal-play", 60, 12), 0)], me=0, side_of=lambda seat: 1)
    assert [(m.kind, m.target) for m in lifted] == [("lift", ("square", 12)), ("card", ("pile", 1))]
    shown = plan([shown_to(Penalty(1, "illegal-draw", 60, -1), 0)], me=0)
    assert [(m.kind, m.card) for m in shown] == [("shown", 60)]
    won = plan([shown_to(Won(0, 0, (72, 58, 20, 14, 4)), 0)], me=0)
    assert [m.kind for m in won] == ["line", "celebrate"] and won[0].squares == (72, 58, 20, 14, 4)


def test_the_motion_model_needs_no_window():
    code = "import sys, board99.client.gui.motion; print('arcade' in sys.modules, 'pyglet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "False"], out.stderr
