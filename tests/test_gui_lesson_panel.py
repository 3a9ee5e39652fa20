"""Every lesson's panel and box keep to the window: at 960 x 640, with text at 150 %, and at 1280 x 800 (measured).

At every step of every lesson (its start, each step solved, and a wrong answer's note) every text drawn in
the panel lies inside it, under the buttons; a task too tall for its area scrolls (the wheel, PgUp/PgDn)
and every line of it can be brought into view. Goldens at 150 % show each lesson's tallest panel and its
explanation box at the end."""

from __future__ import annotations

import dataclasses

import arcade
import pytest

from board99 import Discard, Play
from board99.client.gui.geometry import TableGeometry
from board99.client.gui.lesson_state import Answer
from board99.client.gui.scale import ui_scale
from board99.client.gui.table_intents import Attempt, Confirm, Pick
from board99.lessons import PlayStep, QuizStep, catalogue
from tests.gui_harness import MAX_DIFFERENT, HandClock, screenshot, step, window
from tests.test_gui_lessons import compare_small, index_of

pytestmark = pytest.mark.timeout(600)
LESSONS = catalogue()
#: (width, height, the player's text size)
SIZES = {"960x640": (960, 640, 1.0), "960x640-150": (960, 640, 1.5), "1280x800": (1280, 800, 1.0)}


@pytest.fixture
def sized(request, tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    width, height, text = SIZES[request.param]
    win = window()
    prefs = win.prefs
    win.prefs = dataclasses.replace(prefs, ui_scale=text)
    win.set_size(width, height)
    step(win, 2)
    yield win
    win.prefs = prefs
    win.set_size(1280, 800)
    step(win, 2)


def open_lesson(win, index: int):
    from board99.client.gui.lesson_view import LessonView

    view = LessonView(LESSONS, index, sounds=win.sounds, name="You", clock=HandClock())
    win.show_view(view)
    step(win, 1)
    return view


def settle(win, view) -> None:
    """Carry out what is still to be shown and lay the screen out, without drawing frames (layout is measured)."""
    for _ in range(4):
        view.lesson_session.flush()
        view.on_update(0.0)
        view.state.motions.finish()
    view.on_update(0.0)


def solve_step(win, view, step_) -> None:
    if isinstance(step_, QuizStep):
        view.do(Answer(step_.answer))
    else:
        action = step_.solution
        if isinstance(action, Play | Discard):
            view.perform(Pick(view.state.hand.index(action.card)))
        view.perform(Attempt(action))
        if view.state.warning is not None:
            view.perform(Confirm())
    settle(win, view)


def bottom(text) -> float:
    return text.y - text.content_height


def assert_panel_fits(view, where: str) -> None:
    """Every text the panel draws is inside it; the lesson's area is under the buttons; all of it can be seen."""
    panel = view.panel
    p = view.geo.panel
    floor = p.bottom
    drawn = [t for t in panel.texts if t.text]
    for text in drawn:  # the panel's own texts (title, status, announcements, the log)
        assert bottom(text) >= floor - 0.5 and text.y <= p.top + 0.5, (where, text.text[:40], bottom(text))
        assert text.x >= p.left and text.x + text.content_width <= p.right + 1, (where, text.text[:40])
    lesson = [t for t in panel.lesson_texts if t.text]
    assert lesson and lesson[0].y <= panel.lesson_top + 0.5 + panel.scroll, where  # under the buttons
    for text in lesson:
        assert text.x >= p.left and text.x + text.content_width <= p.right + 1, (where, text.text[:40])
    if panel.clip is None:
        for text in lesson:
            assert bottom(text) >= floor - 0.5, (where, text.text[:40], bottom(text))
        return
    # It scrolls: the clip is inside the panel, under the buttons, and scrolling shows the first and last line.
    clip = panel.clip
    assert clip.bottom >= floor and clip.top <= panel.lesson_top + 0.5 and panel.t_more.text, where
    view.scroll_task(1e6)
    last = min(lesson, key=bottom)
    assert bottom(last) >= clip.bottom - 0.5, (where, "the last line cannot be scrolled into view")
    assert all(panel.visible(rect) for rect in panel.choice_rects[-1:]), where
    view.scroll_task(-1e6)
    assert panel.scroll == 0 and lesson[0].y <= clip.top + 0.5, where


def assert_box_fits(view, where: str) -> None:
    """The explanation box, when shown: inside the window, its words above its buttons and inside it."""
    box = view.explanation
    if not box.shown:
        return
    back = box.back
    assert back.left >= 0 and back.bottom >= 0 and back.right <= view.geo.panel.left + 0.5, where
    assert back.top <= view.window.height + 0.5, where
    buttons = [b for b in box.buttons if b.visible]
    floor = max(b.rect.top for b in buttons)
    for text in (t for t in box.texts if t.text):
        assert bottom(text) >= floor - 0.5 and text.y <= back.top + 0.5, (where, text.text[:40], bottom(text), floor)
        assert text.x + text.content_width <= back.right + 1, (where, text.text[:40])
    assert all(b.rect.bottom >= back.bottom - 0.5 for b in buttons), where


@pytest.mark.slow
@pytest.mark.parametrize("sized", ["960x640", "960x640-150"], indirect=True)
def test_every_lesson_panel_fits_at_every_step(sized) -> None:
    win = sized
    for index, lesson in enumerate(LESSONS):
        view = open_lesson(win, index)
        # The board is the table's own, whatever the words: text never shrinks it.
        geo = TableGeometry(win.width, win.height, lesson.table.players, lesson.table.you,
                            ui_scale(win.width, win.height, win.prefs.ui_scale), base=ui_scale(win.width, win.height))
        assert view.geo.board == geo.board
        assert_panel_fits(view, f"{lesson.name} start")
        for i, step_ in enumerate(lesson.steps):
            if isinstance(step_, PlayStep) and step_.wrong and step_.wrong[0].example is not None:
                wrong = step_.wrong[0].example  # a wrong answer's note, then back to the step
                if isinstance(wrong, Play | Discard) and wrong.card in view.state.hand:
                    view.perform(Pick(view.state.hand.index(wrong.card)))
                view.perform(Attempt(wrong))
                if view.state.warning is not None:
                    view.perform(Confirm())
                settle(win, view)
                assert_panel_fits(view, f"{lesson.name} step {i + 1} wrong")
                assert_box_fits(view, f"{lesson.name} step {i + 1} wrong")
                if view.lesson.phase == "wrong":
                    view.do(view.lesson.key("enter"))
                    settle(win, view)
            solve_step(win, view, step_)
            assert view.lesson.run.step_index == i + 1, (lesson.name, i)
            assert_panel_fits(view, f"{lesson.name} after step {i + 1}")
        assert view.explanation.shown
        assert_box_fits(view, f"{lesson.name} done")


@pytest.mark.slow
def test_the_issues_lesson_11_fits_at_1280x800_with_its_penalty_announced(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    win = window()
    view = open_lesson(win, index_of("draw-out-of-turn"))
    solve_step(win, view, LESSONS[index_of("draw-out-of-turn")].steps[0])
    assert view.lesson.phase == "quiz"
    assert_panel_fits(view, "lesson 11's question at 1280x800")
    assert view.panel.clip is None  # it fits without scrolling


@pytest.mark.slow
@pytest.mark.parametrize("sized", ["960x640-150"], indirect=True)
def test_a_task_that_scrolls_answers_the_wheel_and_the_keys_and_its_choices_click_only_in_view(sized) -> None:
    win = sized
    lesson = LESSONS[index_of("draw-out-of-turn")]
    view = open_lesson(win, index_of("draw-out-of-turn"))
    solve_step(win, view, lesson.steps[0])
    panel = view.panel
    assert panel.clip is not None and panel.overflow > 0 and panel.scroll == 0
    hidden = panel.choice_rects[-1]
    assert not panel.visible(hidden) and panel.target_at(hidden.cx, hidden.cy) is None
    win.press(arcade.key.PAGEDOWN)
    assert panel.scroll > 0
    win.press(arcade.key.PAGEUP)
    assert panel.scroll == 0
    win.dispatch_event("on_mouse_scroll", int(panel.clip.cx), int(panel.clip.cy), 0, -20)  # the wheel, to the end
    assert panel.scroll == panel.overflow and panel.visible(panel.choice_rects[-1])
    for _ in range(20):  # back up until the right answer (choice 2) is wholly in view
        if panel.visible(panel.choice_rects[1]):
            break
        win.press(arcade.key.PAGEUP)
    rect = panel.choice_rects[1]
    assert panel.visible(rect)
    win.click(rect.cx, rect.cy)
    settle(win, view)
    assert view.lesson.phase == "done"


def tallest(lesson) -> int:
    """The steps to solve before the lesson's panel is tallest: its first question, else its start."""
    return next((i for i, s in enumerate(lesson.steps) if isinstance(s, QuizStep)), 0)


@pytest.mark.slow
@pytest.mark.parametrize("sized", ["960x640-150"], indirect=True)
def test_every_lessons_panel_at_150_percent_matches_its_golden(sized) -> None:
    win = sized
    failed = []
    for index, lesson in enumerate(LESSONS):
        view = open_lesson(win, index)
        for step_ in lesson.steps[:tallest(lesson)]:
            solve_step(win, view, step_)
        stem = lesson.name.removesuffix(".toml")
        if compare_small(screenshot(win), f"{stem}-150.png") > MAX_DIFFERENT:
            failed.append(f"{stem}-150.png")
        for step_ in lesson.steps[tallest(lesson):]:  # then the explanation box at the end
            solve_step(win, view, step_)
        step(win, 1)
        if compare_small(screenshot(win), f"{stem}-150-end.png") > MAX_DIFFERENT:
            failed.append(f"{stem}-150-end.png")
    assert not failed, f"differ from their goldens: {failed}"
