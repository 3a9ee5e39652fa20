"""The review in the window: computed in a process of its own while the replay viewer stays live, then each move's
estimate, its mark, and a marked move's better move on the board; from the end-of-game box at the table.

Golden: replay_review.png (the planted blunder of tests/test_review.py, reviewed at the default effort).
"""

from __future__ import annotations

import os
import time

import arcade
import pytest

from board99 import Draw, Play
from board99.client.gui import review_model
from board99.client.gui.messages import Events, Failed, Replied, StateChanged
from board99.client.gui.table_intents import FetchReview, OnButton, ReviewGame
from board99.client.gui.table_state import TableState
from board99.events import shown_to
from board99.record import Record
from board99.review import HINTS, Options, review_record
from tests.gui_harness import MAX_DIFFERENT, compare_golden, run_until, screenshot, step, table_info, window
from tests.test_review import QUICK, planted_game

pytestmark = pytest.mark.timeout(240)


def planted_text() -> tuple[str, int, Play | Draw, Play]:
    game, (ply, made, block) = planted_game(2, 15, 1)
    return Record.of(game).dumps(), ply, made, block


# -- without a window ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_each_reviewed_move_sits_on_its_own_frame_and_says_its_mark_chance_better_move_and_hint():
    from board99.client.gui.replay_model import load

    text, ply, made, block = planted_text()
    replay = load(text)
    review = review_record(Record.loads(text), 0, options=QUICK)
    moves = review_model.frames_of_moves(replay.frames, review)
    assert len(moves) == len(review.moves)
    for index, move in moves.items():
        frame = replay.frames[index]
        assert frame.actor == 0 and frame.line == f"S0 {move.action.text()}"
    planted = next(i for i, m in moves.items() if m.ply == ply)
    assert planted in review_model.marked_frames(moves)
    move = moves[planted]
    assert review_model.mark_words(move) == "?? Blunder"
    assert review_model.chance_line(move).startswith(f"Win chance {move.before:.0%} → {move.after:.0%} (−")
    better, hint = review_model.detail_lines(move, replay.table)
    assert better == f"Better: play card {block.card} on square {block.square} (ringed on the board)."
    assert hint == f"Hint: {HINTS['block-threat']}"
    assert review_model.summary_line(review, replay.table).startswith("S0: ")


@pytest.mark.slow
def test_a_review_job_works_in_a_process_of_its_own_and_stops_when_cancelled():
    text, *_ = planted_text()
    records = review_model.records_of(text)
    job = review_model.ReviewJob(records, 0, QUICK)  # a thread relays a spawned process's progress
    run_until_true(lambda: job.worker_pid is not None, 30)
    assert job.worker_pid != os.getpid()  # a process of its own
    job.thread.join(60)
    with pytest.raises(ProcessLookupError):  # ended and reaped once the review is in
        os.kill(job.worker_pid, 0)
    assert job.error is None and job.review == review_record(records[0], 0, options=QUICK)  # the same review
    assert job.done == job.total == len(job.review.moves)
    long = review_model.ReviewJob(records, 1, Options(guesses=4000, second=0))
    run_until_true(lambda: long.done >= 1 or long.finished, 60)
    long.cancel()
    long.thread.join(10)
    assert not long.thread.is_alive() and long.review is None and long.error is None
    stopped = review_model.ReviewJob(records, 1, Options(guesses=400, second=0), start=False, elsewhere=False)
    stopped.cancel()
    stopped.run()  # on this thread: it stops after its first move
    assert stopped.review is None and stopped.error is None and stopped.done == 1 and not stopped.finished


def run_until_true(done, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_the_end_of_game_box_offers_the_review_of_the_players_own_seat():
    text, *_ = planted_text()
    game = Record.loads(text).replay()
    state = TableState()
    state.online = True
    seats = [{"colour": "red", "occupant": "human", "name": "Ann", "connected": True},
             {"colour": "blue", "occupant": "bot", "name": "rulebook", "connected": True}]
    state.show(game.view(1), table_info(seats, id="t", name="Den", state="over"))
    assert state.click(OnButton("review")) == ReviewGame() and state.key("r") == ReviewGame()
    assert state.perform(ReviewGame()) == (FetchReview("t", 1, 1),)
    assert state.notice == "Fetching the game for its review…"
    state.receive(Failed("review_record", "no-record", "gone"))
    assert state.notice == "The game could not be fetched for its review: gone"
    live = TableState()
    live.online = True
    live.show(game.view(0)._replace(winner=None, turn=0), table_info(seats, id="t", name="Den"))
    assert live.perform(ReviewGame()) == () and live.notice.startswith("A review is possible once")


# -- the window --------------------------------------------------------------------------------------------


@pytest.fixture
def viewer():
    from board99.client.gui.replay_view import ReplayView

    text, ply, made, block = planted_text()
    win = window()
    back: list[bool] = []
    view = ReplayView(text, "planted.txt", on_back=lambda: back.append(True), review_seat=0, review_now=True)
    view.back = back  # type: ignore[attr-defined]
    view.planted = (ply, made, block)  # type: ignore[attr-defined]
    win.show_view(view)
    yield view
    if view.job is not None:
        view.job.cancel()
    win.set_size(1280, 800)
    step(win, 2)


@pytest.mark.slow
def test_the_window_stays_live_while_the_review_runs_then_shows_the_blunder_with_the_block(viewer):
    win = viewer.window
    step(win, 2)
    assert viewer.review_part.t_head.text.startswith("Reviewing S0's moves…")
    assert viewer.review_part.bar_fill.visible
    win.press(arcade.key.RIGHT)  # the viewer answers while the thread weighs moves
    assert viewer.cursor.index == 1
    started = time.monotonic()
    run_until(win, lambda: viewer.review is not None, 120, "the review")
    took = time.monotonic() - started
    assert took < 60, f"a 27-action game took {took:.0f} s to review"
    ply, made, block = viewer.planted
    win.press(arcade.key.HOME)
    while viewer.frame is not None and viewer.frame.line != f"S0 {made.text()}":
        assert viewer.to_marked(1), "the planted move is not among the marked ones"
        viewer.go(True)
    step(win, 2)
    move = viewer.review_moves[viewer.cursor.index]
    assert (move.ply, move.mark, move.better, move.hint) == (ply, "blunder", block, "block-threat")
    assert viewer.review_part.t_mark.text == "?? Blunder"
    assert f"play card {block.card} on square {block.square}" in viewer.review_part.t_lines.text
    assert viewer.review_part.ring_light.visible and viewer.review_part.ghost.visible
    ticks = [t for t in viewer.review_part.ticks if t.visible]
    assert len(ticks) == len(viewer.marked) >= 1
    assert compare_golden(screenshot(win), "replay_review.png") <= MAX_DIFFERENT
    win.press(arcade.key.RIGHT)  # the opponent's move: the summary, no ring
    step(win)
    assert not viewer.review_part.ring_light.visible and viewer.review_part.t_head.text.startswith("S0: ")


def test_tab_reviews_the_other_seat_and_esc_stops_the_review(viewer):
    win = viewer.window
    step(win)
    win.press(arcade.key.TAB)
    step(win)
    assert viewer.review_seat == 1 and viewer.job is not None and viewer.job.seat == 1
    assert viewer.review_part.t_head.text.startswith("Reviewing S1's moves…")
    job = viewer.job
    win.press(arcade.key.ESCAPE)
    assert viewer.back == [True]
    job.thread.join(30)
    assert not job.thread.is_alive() and job.review is None  # cancelled, not finished


def test_a_finished_game_at_the_table_opens_its_review_and_esc_comes_back():
    from board99.client.gui.replay_view import ReplayView
    from board99.client.gui.table_view import TableView

    text, *_ = planted_text()
    game = Record.loads(text).replay()

    class Inline:
        """Runs each call at once on a stand-in client; its reply comes back on the next drain."""

        endpoint = "tcp://127.0.0.1:1"

        def __init__(self) -> None:
            self.out: list = []
            self.latest_state = None

        def call(self, op, run) -> None:
            class Client:
                def fetch_record(self, table, game=None, match=False):
                    assert (table, game, match) == ("t", 1, False)
                    return text
            self.out.append(Replied(op, run(Client())))

        def submit(self, op, run, then=None) -> None:
            self.call(op, run if then is None else (lambda client: then(run(client))))

        def drain(self) -> list:
            out, self.out = self.out, []
            return out

    win = window()
    tv = TableView(sounds=win.sounds)
    win.show_view(tv)
    tv.session = Inline()
    seats = [{"colour": "red", "occupant": "human", "name": "Ann", "connected": True},
             {"colour": "blue", "occupant": "bot", "name": "rulebook", "connected": True}]
    tv.handle(StateChanged(game.view(0), table_info(seats, id="t", name="Den", state="over"), True))
    tv.handle(Events(tuple(shown_to(e, 0) for e in game.log[-1][2])))
    step(win, 2)
    assert tv.panel.b_review.visible and tv.panel.b_save.visible
    assert tv.panel.b_review.rect.right <= tv.geo.panel.right
    win.click(*tv.panel.b_review.rect.center)
    step(win, 2)
    review = win.current_view
    assert isinstance(review, ReplayView) and tv.reviewing is review
    assert review.review_seat == 0 and review.job is not None and review.title == "Den: game 1"
    assert review.seats.t_names[0].text.startswith("Ann")
    review.job.cancel()
    win.press(arcade.key.ESCAPE)
    step(win)
    assert win.current_view is tv and tv.reviewing is None


def test_board99_review_window_opens_the_viewer_reviewing_that_seat(tmp_path, monkeypatch):
    from board99.client.gui import app
    from board99.commands import main

    text, *_ = planted_text()
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    calls = []
    monkeypatch.setattr(app, "run_replay", lambda *a, **k: calls.append((a, k)) or 0)
    assert main(["review", str(path), "--seat", "1", "--window"]) == 0
    assert calls == [((str(path),), {"review_seat": 1})]
    assert main(["review", str(path), "--seat", "2", "--window"]) == 2 and len(calls) == 1  # no such seat


def test_the_progress_says_about_how_long_the_review_has_left():
    text, *_ = planted_text()
    job = review_model.ReviewJob(review_model.records_of(text), 0, QUICK, start=False, elsewhere=False)
    assert review_model.shown_for(job, None, None, None).head == f"Reviewing Seat 1's moves… 0 of {job.total}"
    job.done, job.total, job.first_at = 5, 15, time.monotonic() - 8  # 2 s a move since the first, 10 to go
    assert review_model.shown_for(job, None, None, None).head == "Reviewing Seat 1's moves… 5 of 15, about 20 s left"


@pytest.mark.slow
def test_while_the_review_runs_the_window_lays_out_again_only_when_a_move_more_is_weighed(viewer):
    # Laying the screen out again every frame at the full frame rate took the CPU the review's process needed.
    win = viewer.window
    step(win, 2)
    viewer.job.cancel()
    text, *_ = planted_text()
    job = review_model.ReviewJob(review_model.records_of(text), 0, QUICK, start=False, elsewhere=False)
    viewer.job, viewer.job_shown = job, None
    shows: list[bool] = []
    real = viewer.show
    viewer.show = lambda wake=True: (shows.append(wake), real(wake))[1]
    step(win, 30)
    assert shows == [False]  # the progress at 0 of N once, not on each of 30 frames, and not waking the window
    job.done = 1
    step(win, 5)
    assert shows == [False, False] and viewer.review_part.t_head.text.startswith("Reviewing S0's moves… 1 of ")
