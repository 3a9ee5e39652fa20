"""Lessons in the window: the lesson's session and state (no window), the progress file, the Learn screen,
a lesson played with keys and clicks, and golden screenshots of every lesson's start and explanation."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import arcade
import pytest
from PIL import Image, ImageChops

from board99 import Discard, Draw, Play
from board99.client.gui import lesson_progress
from board99.client.gui.lesson_state import (
    Answer,
    LessonNews,
    LessonSession,
    LessonState,
    StartAgain,
    ToggleBox,
    ToList,
    TryAgain,
)
from board99.client.gui.messages import Events, Failed, StateChanged
from board99.client.gui.table_intents import Attempt, Confirm, Pick
from board99.events import Drew, Played
from board99.layout import POSITION
from board99.lessons import PlayStep, QuizStep, catalogue
from tests.gui_harness import GOLDEN, MAX_DIFFERENT, PIXEL_SLACK, HandClock, screenshot, step, window

pytestmark = pytest.mark.timeout(300)
LESSONS = catalogue()
BY_ID = {lesson.id: lesson for lesson in LESSONS}
#: The lessons' goldens: 960 x 640 (the smallest window), kept as 256-colour PNGs to stay small.
LESSON_GOLDEN = GOLDEN / "lessons"
SMALL = (960, 640)


def index_of(lesson_id: str) -> int:
    return next(i for i, lesson in enumerate(LESSONS) if lesson.id == lesson_id)


# -- the session and the state, without a window -----------------------------------------------------------


def session_of(lesson_id: str, clock: HandClock | None = None) -> tuple[LessonSession, LessonState, HandClock]:
    clock = clock or HandClock()
    session = LessonSession(BY_ID[lesson_id], name="Ann", clock=clock)
    return session, LessonState(BY_ID[lesson_id], index_of(lesson_id) + 1, len(LESSONS), session), clock


def test_the_opening_is_the_position_and_what_led_to_it_as_a_server_would_say_it() -> None:
    session, state, _ = session_of("cards")
    changed, events = session.opening()
    assert isinstance(changed, StateChanged) and isinstance(events, Events)
    assert changed.view.hand == (40,) and changed.view.my_turn and changed.table.seats[0].name == "Ann"
    assert changed.table.seats[1].bot and changed.table.seats[1].name == "Bo"
    assert [e.kind for e in events.events][:3] == ["dealt", "drew", "drew"]
    assert all(e.card is None for e in events.events if isinstance(e, Drew) and e.seat == 1)  # hidden
    assert state.phase == "task" and state.table_input and state.head() == f"Lesson 2 of {len(LESSONS)}"


def test_the_others_replies_come_one_by_one_then_the_verdict() -> None:
    session, state, clock = session_of("block-low")
    session.opening()
    session.act(Play(14, 14))
    first = session.drain()
    assert [type(m).__name__ for m in first] == ["StateChanged", "Events", "Replied"]  # the learner's move, at once
    assert first[1].events[0] == Played(0, 14, 14)
    assert session.busy and state.phase == "busy" and not state.table_input
    session.act(Draw())  # ignored while the moves are shown
    clock.now += 0.5
    assert session.drain() == []
    clock.now += 0.6
    reply = session.drain()
    assert reply[1].events[0] == Played(1, 3, 4)
    clock.now += 1.0
    (news,) = session.drain()
    assert isinstance(news, LessonNews) and news.outcome.verdict == "done" and not session.busy
    assert state.take(news) and state.phase == "done" and state.box_open
    box = state.box()
    assert box is not None and box.title == "Well done" and box.buttons[0] == ("next", "Next lesson (Enter)")
    assert "72, 58, 20, and 14" in box.quote and box.cite == "The 1963 rulebook, under SOME PLAYING HINTS:"
    assert state.focus() == (14, 4)  # the squares the box keeps in view if it can


def test_a_refusal_is_said_at_once_and_the_learner_tries_again_in_place() -> None:
    session, state, _ = session_of("cards")
    session.opening()
    session.act(Play(40, 38))
    failed, news = session.drain()
    assert failed == Failed("act", "below-card", "card 40 allows squares 40 to 99, not square 38")
    state.take(news)
    assert state.phase == "task" and not state.box_open
    assert state.note() == ("Not quite. Square 38 is below 40: card 40 allows squares 40 to 99 only.", "warn")
    session.act(Play(40, 41))
    session.flush()
    assert isinstance(session.drain()[-1], LessonNews)


def test_a_wrong_action_shows_why_and_try_again_goes_back_to_the_steps_start() -> None:
    session, state, _ = session_of("low-cards")
    start = session.opening()[0].view
    session.act(Play(2, 75))
    session.flush()
    *_, news = session.drain()
    state.take(news)
    box = state.box()
    assert state.phase == "wrong" and box is not None and box.title == "Not quite"
    assert box.what == "You pegged square 75 with card 2" and box.words.startswith("Card 2 blocks 75 too")
    assert "you are left with 70." in box.words  # the words name the hand the move left
    assert box.buttons == (("retry", "Try again (Enter)"), ("list", "Lessons (L)"))
    assert state.key("enter") == TryAgain() and state.key("space") == ToggleBox() and state.key("1") is None
    session.retry()
    state.reset()
    (back,) = session.drain()
    assert back.view == start and state.phase == "task"


def test_a_question_answers_with_keys_and_shows_what_follows_either_way() -> None:
    session, state, clock = session_of("play-out-of-turn")
    session.opening()
    session.act(Play(80, 80))
    session.flush()
    *_, news = session.drain()
    state.take(news)
    assert state.phase == "quiz" and state.note() == ("✓ Step 1 done.", "good")
    assert len(state.choices()) == 3 and state.choices()[1].startswith("2   The peg comes out")
    assert state.key("2") == Answer(1) and state.key("4") is None and state.button("choice-0") == Answer(0)
    session.answer(0)
    assert state.chosen() == 0 and state.phase == "busy"
    clock.now += 5
    *moves, news = session.drain()
    assert [e.kind for e in moves[1].events] == ["penalty"]  # Bo's play out of turn happens anyway
    state.take(news)
    box = state.box()
    assert box is not None and box.what.startswith("You answered: The peg stays")
    assert box.words.startswith("Nothing played out of turn stays on the board")


def test_the_lessons_keys_and_buttons() -> None:
    session, state, _ = session_of("turn")
    session.opening()
    assert state.key("r") == StartAgain() and state.key("l") == ToList() and state.key("enter") is None
    assert state.button("rematch") == StartAgain() and state.button("lobby") == ToList()
    assert state.button("draw") is None  # the table's own
    last = LessonState(LESSONS[-1], len(LESSONS), len(LESSONS), LessonSession(LESSONS[-1]))
    assert last.button("next") == ToList()


# -- progress ------------------------------------------------------------------------------------------------------


def test_progress_is_kept_beside_the_settings_and_survives_a_bad_file(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "cfg" / "settings.toml"))
    assert lesson_progress.progress_path() == tmp_path / "cfg" / "lessons.toml"
    assert lesson_progress.load() == frozenset()
    assert lesson_progress.mark_done("cards") == {"cards"}
    assert lesson_progress.mark_done("board") == {"board", "cards"}
    assert lesson_progress.load() == {"board", "cards"}
    assert 'done = ["board", "cards"]' in (tmp_path / "cfg" / "lessons.toml").read_text()
    (tmp_path / "cfg" / "lessons.toml").write_text("done = 3")
    assert lesson_progress.load() == frozenset()
    (tmp_path / "cfg" / "lessons.toml").write_text("not toml [")
    assert lesson_progress.load() == frozenset()


# -- in the window ------------------------------------------------------------------------------------------------


@pytest.fixture
def small():
    win = window()
    win.set_size(*SMALL)
    step(win, 2)
    yield win
    win.set_size(1280, 800)
    step(win, 2)


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    return tmp_path


def compare_small(image: Image.Image, name: str) -> float:
    """The share of pixels that differ from tests/golden/lessons/<name> (256 colours); UPDATE rewrites it."""
    path = LESSON_GOLDEN / name
    if os.environ.get("BOARD99_UPDATE_GOLDEN") == "1":
        LESSON_GOLDEN.mkdir(parents=True, exist_ok=True)
        image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    assert path.exists(), f"{path} is missing; make it with BOARD99_UPDATE_GOLDEN=1 and look at it"
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"{name}: window {image.size} but golden {golden.size}"
    image.save(Path(tempfile.gettempdir()) / f"board99_last_lesson_{name}")
    r, g, b = ImageChops.difference(image, golden).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    return sum(worst[PIXEL_SLACK + 1:]) / (image.width * image.height)


def open_lesson(win, index: int, clock: HandClock, done: list[str] | None = None):
    from board99.client.gui.lesson_view import LessonView

    view = LessonView(LESSONS, index, sounds=win.sounds, name="You", clock=clock,
                      on_done=(done.append if done is not None else None))
    win.show_view(view)
    step(win, 3)
    return view


def settle(win, view) -> None:
    """Show at once what is still to be shown (the clock stays, so announcements stay), then frames."""
    for _ in range(4):
        view.lesson_session.flush()
        step(win, 1)
        view.state.motions.finish()
    step(win, 2)


def square_at(view, square: int) -> tuple[float, float]:
    return view.geo.square_centre(*POSITION[square])


@pytest.mark.slow
def test_the_learn_screen_lists_every_lesson_with_ticks_and_opens_one_by_keys(small, config) -> None:
    from board99.client.gui.learn_view import LearnView, done_words

    opened: list[int] = []
    back: list[bool] = []
    view = LearnView(LESSONS, {"board", "cards", "play-out-of-turn"}, on_open=opened.append,
                     on_back=lambda: back.append(True))
    small.show_view(view)
    step(small, 3)
    assert compare_small(screenshot(small), "learn.png") <= MAX_DIFFERENT
    assert view.selected == 2 and set(range(len(LESSONS))) <= set(view.buttons)
    assert view.buttons[0].text.startswith("✓ 1.") and not view.buttons[2].text.startswith("✓")
    assert done_words(3, 18) == "3 of 18 lessons done" and done_words(18, 18) == "All 18 lessons done"
    for key in (arcade.key.DOWN, arcade.key.RIGHT, arcade.key.UP, arcade.key.ENTER):
        small.press(key)
    assert opened == [index_of("play-out-of-turn") - 1] and view.selected == opened[0]
    button = view.buttons[5]
    small.click(button.rect.center_x, button.rect.center_y)
    step(small, 1)
    assert opened[-1] == 5
    small.press(arcade.key.ESCAPE)
    assert back == [True]


@pytest.mark.slow
def test_a_penalty_lesson_played_with_keys_and_clicks_keeps_its_progress(small, config) -> None:
    clock = HandClock()
    done: list[str] = []
    view = open_lesson(small, index_of("play-out-of-turn"), clock, done)
    assert view.state.view.turn == 1  # Bo's turn: the task is an offence
    small.press(arcade.key.KEY_1)  # card 80
    small.click(*square_at(view, 80))
    assert view.state.warning is not None and "If you go on: play out of turn" in view.state.warning.text
    small.press(arcade.key.ENTER)  # do it anyway
    step(small, 1)
    assert view.lesson.phase == "busy"
    assert any(line.startswith("Penalty: You played out of turn") for line in view.state.log)
    small.click(10, 10)  # a click shows the rest at once
    settle(small, view)
    assert "You lose this turn (penalty)" in view.state.log and view.lesson.phase == "quiz"
    assert view.panel.choice_rects and view.panel.t_task.text.startswith("It is your turn now")
    rect = view.panel.choice_rects[1]
    small.click(rect.cx, rect.cy)  # the right answer
    settle(small, view)
    assert view.lesson.phase == "done" and view.explanation.shown and done == ["play-out-of-turn"]
    assert view.state.view.skips[1] == 1 and view.explanation.t_title.text == "Right!"
    small.press(arcade.key.SPACE)
    assert not view.explanation.shown
    small.press(arcade.key.SPACE)
    assert view.explanation.shown
    small.press(arcade.key.ENTER)  # the next lesson
    step(small, 2)
    assert view.lesson.lesson.id == "discard-out-of-turn" and view.lesson.phase == "task"
    assert view.panel.t_title.text.startswith(f"Lesson {index_of('discard-out-of-turn') + 1} of")


@pytest.mark.slow
def test_a_refused_square_and_a_wrong_card_are_explained_and_tried_again(small, config) -> None:
    clock = HandClock()
    view = open_lesson(small, index_of("cards"), clock)
    small.press(arcade.key.KEY_1)
    small.click(*square_at(view, 38))
    settle(small, view)
    assert view.lesson.phase == "task" and not view.explanation.shown  # nothing changed: try in place
    assert view.state.notice == "Card 40 cannot go on square 38: it allows 40 to 99"
    assert view.panel.t_note.text.startswith("Not quite. Square 38 is below 40")
    small.press(arcade.key.KEY_1)
    small.click(*square_at(view, 41))
    settle(small, view)
    assert view.lesson.phase == "done"
    low = open_lesson(small, index_of("low-cards"), clock)
    small.press(arcade.key.KEY_1)  # card 2
    small.click(*square_at(low, 75))
    settle(small, low)
    assert low.lesson.phase == "wrong" and low.explanation.shown
    assert low.explanation.t_what.text == "You pegged square 75 with card 2"
    small.press(arcade.key.ENTER)  # try again
    step(small, 2)
    assert low.lesson.phase == "task" and low.state.view.board[75] is None and low.state.view.hand == (2, 70)
    small.press(arcade.key.KEY_2)
    small.click(*square_at(low, 75))
    settle(small, low)
    assert low.lesson.phase == "task" and low.lesson.run.step_index == 1  # Bo pegged 19: block 20 with the 2
    small.press(arcade.key.KEY_1)
    small.click(*square_at(low, 20))
    settle(small, low)
    assert low.lesson.phase == "done"


def test_in_a_guarded_lesson_a_draw_with_five_cards_reaches_the_engine(small, config) -> None:
    view = open_lesson(small, index_of("hand-limit"), HandClock())
    assert not view.panel.b_draw.disabled  # the lesson lets the learner try
    small.press(arcade.key.D)
    settle(small, view)
    assert view.state.notice == "Your hand is full: play or discard first"
    assert view.lesson.run.step_index == 1 and view.panel.t_note.text == "✓ Step 1 done."


@pytest.mark.slow
def test_a_key_pressed_once_the_replies_are_due_is_taken_not_used_up_hurrying(small, config) -> None:
    # A key pressed after the replies were due, before a frame took them, answered nothing: it hurried them.
    clock = HandClock()
    view = open_lesson(small, index_of("play-out-of-turn"), clock)
    small.press(arcade.key.KEY_1)  # card 80, on Bo's turn
    small.click(*square_at(view, 80))
    small.press(arcade.key.ENTER)  # do it anyway: the replies and the verdict are queued
    clock.now += 30  # all due, none taken yet
    assert view.lesson_session.busy
    small.press(arcade.key.KEY_2)  # the question's answer
    settle(small, view)
    assert view.lesson.phase == "done" and view.lesson.session.answered == 1


@pytest.mark.slow
def test_the_app_opens_the_lessons_from_the_lobby_and_goes_back(small, config) -> None:
    from board99.client.gui.app import App
    from board99.client.gui.learn_view import LearnView
    from board99.client.gui.lesson_view import LessonView

    app = App(small, name="Ann", discover=None)
    try:
        lobby = app.show_lobby()
        step(small, 2)
        learn = lobby.buttons["learn"]
        small.click(learn.rect.center_x, learn.rect.center_y)
        step(small, 2)
        assert isinstance(small.current_view, LearnView)
        small.press(arcade.key.ENTER)
        step(small, 2)
        lesson = small.current_view
        assert isinstance(lesson, LessonView) and lesson.lesson.lesson.id == "board"
        assert lesson.state.table.seats[0].name == "Ann"
        small.press(arcade.key.KEY_1)
        small.click(*square_at(lesson, 0))
        settle(small, lesson)
        assert lesson_progress.load() == {"board"}
        small.press(arcade.key.L)
        step(small, 2)
        listing = small.current_view
        assert isinstance(listing, LearnView) and listing.buttons[0].text.startswith("✓")
        small.press(arcade.key.ESCAPE)
        step(small, 2)
        assert small.current_view is app.lobby
    finally:
        app.detach()
        app.shutdown()


# -- every lesson's start and explanation ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_every_lessons_start_and_explanation_match_their_goldens(small, config, lesson) -> None:
    clock = HandClock()
    view = open_lesson(small, index_of(lesson.id), clock)
    stem = lesson.name.removesuffix(".toml")
    assert compare_small(screenshot(small), f"{stem}-start.png") <= MAX_DIFFERENT
    for i, step_ in enumerate(lesson.steps):
        if isinstance(step_, QuizStep):
            view.do(Answer(step_.answer))
        else:
            assert isinstance(step_, PlayStep)
            action = step_.solution
            if isinstance(action, Play | Discard):
                view.perform(Pick(view.state.hand.index(action.card)))
            view.perform(Attempt(action))
            if view.state.warning is not None:  # penalty mode warns before an offence
                view.perform(Confirm())
        settle(small, view)
        assert view.lesson.run.step_index == i + 1, (lesson.name, i, view.lesson.news)
    assert view.lesson.phase == "done" and view.explanation.shown
    assert compare_small(screenshot(small), f"{stem}-end.png") <= MAX_DIFFERENT
    view.do(StartAgain())
    step(small, 1)
    assert view.lesson.phase == ("quiz" if isinstance(lesson.steps[0], QuizStep) else "task")
    assert view.lesson.run.step_index == 0


# -- the command --------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_board99_learn_lists_the_lessons_and_opens_one_in_the_window_without_a_server(tmp_path) -> None:
    import subprocess
    import sys
    import time

    from tests.gui_harness import display

    def board99(*args: str, env: dict) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "board99.commands", "learn", *args], env=env, capture_output=True,
                              text=True, timeout=90)

    env = dict(os.environ, BOARD99_CONFIG=str(tmp_path / "settings.toml"))
    listed = board99("--list", env=env)
    lines = listed.stdout.splitlines()
    assert listed.returncode == 0 and lines[0] == "The GAME OF 99 (peg board)"
    assert lines[2].startswith(" 2. Which squares a card allows")
    # Both games' lessons, numbered through the list, under a line naming each game (and a blank line between).
    from board99.lessons.games import every_lesson

    assert [line for line in lines if line[:3].strip().rstrip(".").isdigit()] == [
        f"{n:2}. {lesson.title}  ({lesson.id}: {lesson.summary})" for n, lesson in enumerate(every_lesson(), 1)]
    assert "Ninety-Nine (cards)" in lines and len(lines) == len(every_lesson()) + 3
    wrong = board99("chess", env=env)
    assert wrong.returncode == 2 and "'chess' is not a lesson" in wrong.stderr
    display()
    marker = tmp_path / "first_frame"
    env = dict(os.environ, BOARD99_CONFIG=str(tmp_path / "settings.toml"), BOARD99_T0=repr(time.time()),
               BOARD99_FIRST_FRAME_FILE=str(marker))  # after display(): its $DISPLAY
    out = board99("cards", "--mute", env=env)
    assert out.returncode == 0, out.stderr
    assert 0 < float(marker.read_text()) < 60  # the lesson's table was drawn
