"""The replay viewer: frames from records (no window), and the viewer in a real window under Xvfb.

Goldens: replay_start.png, replay_penalty.png, replay_end.png (a 2-player penalty-mode game with an
illegal play), replay_match_small.png (docs/sample-match.txt at 1024x640).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import arcade
import pytest

from board99 import Game, Play
from board99.bots import make_bot
from board99.client.gui import replay_model
from board99.record import Record, RecordError
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, window

pytestmark = pytest.mark.timeout(180)
DOCS = Path(__file__).resolve().parents[1] / "docs"


def penalty_game() -> Game:
    """A finished 2-player penalty-mode game between rulebook bots; at ply 9 the seat to act plays below its card."""
    game = Game(2, "penalty", seed=4)
    bots = [make_bot("rulebook", seed=40 + s) for s in range(2)]
    while (seat := game.turn) is not None:
        if game.ply == 9:
            card = max(game.hand(seat))
            game.apply(seat, Play(card, next(sq for sq in range(card) if game.occupant(sq) is None)))
            continue
        game.apply(seat, bots[seat].choose(game.view(seat)))
    return game


def penalty_text() -> str:
    return Record.of(penalty_game()).dumps()


# -- the frames, without a window -------------------------------------------------------------------


def test_one_frame_per_action_plus_the_deal_with_every_hand_and_the_penalty_in_words():
    game = penalty_game()
    replay = replay_model.load(Record.of(game).dumps())
    frames = replay.frames
    assert len(frames) == len(game.log) + 1 and frames[0].actor is None and frames[0].done == 0
    assert frames[0].title == "Game 1: the cards are dealt" and frames[0].words[0].startswith("Deal 1: S")
    penalty = next(f for f in frames if f.penalty)
    assert penalty.done == 10 and penalty.line.startswith(f"S{penalty.actor} play ")
    assert penalty.words[0].startswith(f"Penalty: S{penalty.actor} played a card below the square")
    assert "Rule: illegal play" in penalty.words[0] and "the peg is removed" in penalty.words[0]
    last = frames[-1]
    assert last.view.line == game.winning_line and last.result is not None and "wins!" in last.result
    assert last.hands == tuple(game.hand(s) for s in range(2)) and last.view.hand is None  # a public view
    assert all(f.position() == f"Action {f.done} of {len(game.log)}" for f in frames)


def test_a_match_record_gives_every_game_with_names_from_its_header():
    replay = replay_model.load((DOCS / "sample-match.txt").read_text(encoding="utf-8"))
    starts = [f for f in replay.frames if f.actor is None]
    assert [f.game for f in starts] == [1, 2, 3, 4] and all(f.games == 4 for f in replay.frames)
    assert replay.table.seats[2].name == "Cy (rulebook)" and "first to 3" in replay.heading
    results = [f.result for f in replay.frames if f.result]
    assert len(results) == 4
    # Each game's end gives the score after it; the last says who won the match.
    assert results[0].endswith("\nRed 1 – Blue 0") and results[-1].endswith("\nRed won the match 3–1")
    assert replay.frames[-1].position() == f"Action {replay.frames[-1].actions} of {replay.frames[-1].actions}" \
        " · game 4 of 4"


def test_the_cursor_steps_jumps_and_seeks_within_the_frames():
    replay = replay_model.load((DOCS / "sample-match.txt").read_text(encoding="utf-8"))
    c = replay_model.Cursor(replay.frames)
    assert not c.step(-1) and c.index == 0
    c.jump(1, game=True)
    assert c.frame.game == 2 and c.frame.actor is None
    c.step(3)
    c.jump(-1, game=True)  # back from inside a game: its start first
    assert c.frame.game == 2 and c.frame.actor is None
    c.jump(-1, game=True)
    assert c.index == 0
    c.seek(1.0)
    assert c.at_end and c.share() == 1.0
    c.seek(0.5)
    assert c.index == round(0.5 * (len(replay.frames) - 1))


def test_a_broken_record_names_its_line():
    lines = penalty_text().split("\n")
    target = next(i for i, row in enumerate(lines) if row.startswith("S0 play"))
    lines[target] = "S0 play 99 on 0"
    with pytest.raises(RecordError):
        replay_model.load("\n".join(lines))


def test_a_live_games_public_history_gives_the_same_frames_without_hands():
    game = penalty_game()
    replayed = replay_model.load(Record.of(game).dumps()).frames
    # What the server's history gives: the public record lines and the public view after each action.
    again = Game(2, "penalty", seed=4)
    views = [again.view(None)]
    for seat, action, _ in game.log:
        again.apply(seat, action)
        views.append(again.view(None))
    lines = Record.of(game, reveal=False).lines
    live = replay_model.frames_from_history(lines, views, replay_model.names_table(2, "penalty"))
    assert len(live) == len(replayed)
    for a, b in zip(live, replayed):
        assert a.hands is None and a.view == b.view and a.actor == b.actor and a.penalty == b.penalty
        # the same words, except that a drawn card is not named in public
        assert [w.replace("drew a card", "drew") for w in a.words] == [
            w if "drew card" not in w else w.split(" drew card")[0] + " drew" for w in b.words]


def test_every_event_line_reads_back():
    for line in penalty_text().split("\n"):
        if line.startswith("  "):
            assert replay_model.event_data(line) is not None, line


# -- the command line ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sample-match.txt", "sample-game.txt"])
def test_the_sample_records_in_docs_replay(name):
    done = subprocess.run([sys.executable, "-m", "board99.commands", "replay", str(DOCS / name), "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "every line follows the rules" in done.stdout


def test_the_sample_game_holds_a_penalty():
    assert "penalty S" in (DOCS / "sample-game.txt").read_text(encoding="utf-8")


def test_a_bad_file_is_named_and_no_window_opens(tmp_path, monkeypatch, capsys):
    from board99.client.gui import app

    monkeypatch.setattr(app, "open_window", lambda *a: pytest.fail("a window opened for a bad record"))
    bad = tmp_path / "bad.txt"
    bad.write_text(penalty_text().replace("S0 draw", "S0 play 99 on 0", 1), encoding="utf-8")
    assert app.run_replay(bad) == 1
    assert "line" in capsys.readouterr().err


# -- the window ------------------------------------------------------------------------------------


@pytest.fixture
def viewer():
    from board99.client.gui.replay_view import ReplayView

    win = window()
    back = []
    view = ReplayView(penalty_text(), "den-game-1.txt", on_back=lambda: back.append(True))
    view.back = back  # type: ignore[attr-defined]
    win.show_view(view)
    step(win, 2)
    yield view
    win.set_size(1280, 800)
    step(win, 2)


def on_screen(view) -> tuple:
    """What the viewer shows: its words, the pegs on the board, the line, every seat's cards and pile."""
    seats = view.seats
    cards = tuple(tuple(id(c.texture) for c in row if c.visible) for row in seats.cards)
    return (view.t_position.text, view.t_action.text, view.t_words.text, view.t_result.text, view.t_state.text,
            tuple(i for i, p in enumerate(view.board.pegs) if p.visible), view.board.line.visible,
            tuple(t.text for t in seats.t_names), tuple(t.text for t in seats.t_details), cards,
            tuple(id(p.texture) for p in seats.piles if p.visible))


def test_start_penalty_and_end_match_their_goldens(viewer):
    win = viewer.window
    assert compare_golden(screenshot(win), "replay_start.png") <= MAX_DIFFERENT
    penalty = next(i for i, f in enumerate(viewer.cursor.frames) if f.penalty)
    for _ in range(penalty):
        win.press(arcade.key.RIGHT)
    step(win, 2)
    assert viewer.frame.penalty and "Rule: illegal play" in viewer.t_words.text
    assert viewer.board.spot_mark.visible  # the penalised square is lit: its peg was removed
    assert compare_golden(screenshot(win), "replay_penalty.png") <= MAX_DIFFERENT
    win.press(arcade.key.END)
    step(win, 2)
    assert viewer.cursor.at_end and viewer.board.line.visible and "wins!" in viewer.t_result.text
    assert compare_golden(screenshot(win), "replay_end.png") <= MAX_DIFFERENT


@pytest.mark.slow
def test_forward_to_the_end_and_back_shows_the_same_frames(viewer):
    win = viewer.window
    forward = [on_screen(viewer)]
    while not viewer.cursor.at_end:
        win.press(arcade.key.RIGHT)
        forward.append(on_screen(viewer))
    backward = [on_screen(viewer)]
    while viewer.cursor.index > 0:
        win.press(arcade.key.LEFT)
        backward.append(on_screen(viewer))
    assert len(forward) == len(viewer.cursor.frames) and backward == forward[::-1]
    assert len(set(forward)) == len(forward)  # every frame shows something different


def test_keys_and_the_slider_move_and_esc_goes_back(viewer):
    win = viewer.window
    win.press(arcade.key.END)
    assert viewer.cursor.at_end
    win.press(arcade.key.HOME)
    assert viewer.cursor.index == 0
    win.press(arcade.key.DOWN)  # one deal: this game has one, so the end
    assert viewer.cursor.at_end
    win.press(arcade.key.UP)
    assert viewer.cursor.index == 0
    track = viewer.layout.track
    win.click(track.left + track.width / 2, track.cy)
    middle = viewer.cursor.index
    assert middle == round((len(viewer.cursor.frames) - 1) / 2)
    win.dispatch_event("on_mouse_press", int(track.left + 2), int(track.cy), arcade.MOUSE_BUTTON_LEFT, 0)
    win.dispatch_event("on_mouse_drag", int(track.right), int(track.cy), 10, 0, arcade.MOUSE_BUTTON_LEFT, 0)
    win.dispatch_event("on_mouse_release", int(track.right), int(track.cy), arcade.MOUSE_BUTTON_LEFT, 0)
    assert viewer.cursor.at_end
    win.press(arcade.key.ESCAPE)
    assert viewer.back == [True]


@pytest.mark.slow
def test_a_match_record_in_a_small_window_matches_its_golden():
    from board99.client.gui.replay_view import ReplayView

    win = window()
    try:
        win.set_size(1024, 640)
        step(win, 2)
        view = ReplayView((DOCS / "sample-match.txt").read_text(encoding="utf-8"), "sample-match.txt",
                          on_back=lambda: None)
        win.show_view(view)
        win.press(arcade.key.PAGEDOWN)
        for _ in range(30):
            win.press(arcade.key.RIGHT)
        step(win, 2)
        assert view.frame.game == 2 and "game 2 of 4" in view.t_position.text
        for label in view.seats.t_names[:4]:  # every seat's name inside the window, off the board
            assert label.x + label.content_width <= view.layout.panel.left and label.x >= view.layout.board.right
        assert compare_golden(screenshot(win), "replay_match_small.png") <= MAX_DIFFERENT
    finally:
        win.set_size(1280, 800)
        step(win, 2)


@pytest.mark.slow
def test_a_bad_record_is_said_on_screen():
    from board99.client.gui.replay_view import ReplayView

    win = window()
    view = ReplayView("not a record", "x.txt", on_back=lambda: None)
    win.show_view(view)
    step(win, 2)
    assert view.frame is None and view.t_action.text.startswith("This record cannot be shown")
    win.press(arcade.key.RIGHT)  # nothing to step through, and nothing breaks
