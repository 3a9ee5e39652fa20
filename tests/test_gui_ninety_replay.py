"""The Ninety-Nine replay: its frames against the engine, the screen that steps through them in a real window
(keys, buttons, every hand face up, a golden), the records screen and `board99 replay --window` opening it, and
F1's rules page over a Ninety-Nine table."""

from __future__ import annotations

import arcade
import pytest

from board99 import kinds
from board99.client.gui import screens
from board99.client.gui.ninety_replay import BUTTONS, NinetyReplayView
from board99.client.gui.ninety_replay_model import load
from board99.client.gui.ninety_state import NinetyState
from board99.client.gui.replay_view import ReplayView
from board99.ninety_nine.bots import BOTS
from board99.ninety_nine.game import Game
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.record import NinetyRecord
from board99.ninety_nine.rules import HOUSE_OPTIONS, Table
from board99.ninety_nine.view import view_of
from board99.record_lines import RecordError
from tests.gui_harness import MAX_DIFFERENT, compare_golden, screenshot, step, window

pytestmark = pytest.mark.timeout(150)


def played(players: int = 4, rules: str = "tokens", mode: str = "guarded", seed: int = 5) -> Game:
    """A whole seeded game, the sound bot at every seat."""
    game = Game(players, mode, Table.build(players, {"rules": rules}), seed=seed)
    bots = [BOTS["sound"](seed=s) for s in range(players)]
    while not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, bots[seat].choose(view_of(game, seat)))
    return game


def record_of(game: Game) -> str:
    return NinetyRecord.of(game).dumps()


#: The golden's step: 4 players at the Tokens rules, two tokens lost, a 4 just reversed the play at 95.
GOLDEN_STEP = 44


# -- the frames, without a window ------------------------------------------------------------------------


def test_every_frame_is_the_game_as_the_engine_had_it_after_that_line():
    game = played(4, "convention", seed=7)
    replay = load(record_of(game))
    assert len(replay.frames) == 1 + game.ply and replay.frames[-1].done == replay.frames[-1].actions == game.ply
    again = Game(4, "guarded", Table.build(4, {"rules": "convention"}), seed=7)
    frames = iter(replay.frames)
    deal = next(frames)
    assert deal.actor is None and deal.deal_start and deal.view == view_of(again, None)
    assert deal.hands == tuple(again.hand(s) for s in range(4)) and all(len(h) == 7 for h in deal.hands)
    words = NinetyState()
    words.view = view_of(again, None)
    for (seat, action, events), frame in zip(game.log, frames):
        assert again.apply(seat, action) == events
        assert frame.actor == seat and frame.line == f"S{seat} {action.text()}"
        assert frame.view == view_of(again, None) and frame.view.hand is None  # a spectator's view...
        assert frame.hands == tuple(again.hand(s) for s in range(4))  # ...and every hand besides
        shown = [NINETY_NINE.event_from_data(NINETY_NINE.event_for(e, getattr(e, "seat", None))) for e in events]
        assert frame.words == tuple(w for w in map(words.event_words, shown) if w)
        assert frame.title.startswith(f"S{seat} plays the ") and frame.log[-len(frame.words):] == frame.words
    last = replay.frames[-1]
    assert last.result == f"S{game.winner} wins: the last player left" and last.view.winner == game.winner
    assert replay.heading == "4 players · guarded table · Convention rules (002)"


def test_every_drawn_card_is_named_in_the_replay():
    replay = load(record_of(played(3, "tokens", "penalty", seed=3)))
    drew = [w for f in replay.frames for w in f.words if " drew " in w]
    assert drew and all(w.split(" drew ")[1].startswith("the ") for w in drew)  # "S1 drew the 2 of spades"


def test_a_record_whose_line_was_changed_is_refused_at_that_line():
    text = record_of(played(4, "tokens", seed=5))
    lines = text.split("\n")
    no = next(i for i, line in enumerate(lines) if line.startswith("  S2 draws ")) + 1
    lines[no - 1] = "  S2 draws joker"
    with pytest.raises(RecordError) as err:
        load("\n".join(lines))
    assert err.value.line_no == no and "the rules give" in err.value.reason


def test_a_match_record_is_every_game_with_the_players_names():
    settings = NINETY_NINE.check_settings(3, "guarded", {"rules": "three-card"})
    games = [played(3, "three-card", seed=seed) for seed in (1, 2)]
    text = NINETY_NINE.match_record_text(settings, ("first-to", 3), ("Ann", "Bo", "Cy"),
                                         [record_of(g) for g in games], 4)
    replay = load(text)
    assert [f.game for f in replay.frames].count(2) == 1 + games[1].ply
    assert len(replay.frames) == 2 + games[0].ply + games[1].ply
    assert replay.heading.endswith("a match, first to 3")
    second = next(f for f in replay.frames if f.game == 2)
    assert second.title == "Game 2: the cards are dealt" and second.position() == f"Action {games[0].ply} of " \
        f"{games[0].ply + games[1].ply} · game 2 of 2"
    assert any(f.title.startswith(("Ann plays", "Bo plays", "Cy plays")) for f in replay.frames)
    assert replay.frames[-1].result is not None and replay.frames[-1].result.endswith("wins: the last player left")


def test_a_ninety_nine_record_opens_in_its_own_replay_screen():
    """Before: the peg-board viewer opened it, and said it could not show it."""
    text = record_of(played(2, "tokens", seed=2))
    assert screens.for_record(text).replay is NinetyReplayView and screens.for_kind("ninety-nine").load is load
    settings = NINETY_NINE.check_settings(2, "guarded", {"rules": "tokens"})
    match = NINETY_NINE.match_record_text(settings, ("first-to", 1), ("Ann", "Bo"), [text], 1)
    assert kinds.for_record(match) is NINETY_NINE and screens.for_record(match).replay is NinetyReplayView
    assert screens.for_kind("peg-board").replay is ReplayView


def test_the_kind_gives_its_rules_page_in_the_engines_words():
    settings = NINETY_NINE.check_settings(4, "penalty", {"rules": "tokens", "hand_size": 5})
    page = kinds.rules_page(NINETY_NINE, settings)
    assert page is not None
    rules, house, mode = page
    assert rules.title == "Tokens rules (003): this table"
    assert rules.paragraphs == tuple(NINETY_NINE.table(settings).describe()[1:])
    assert "3: adds 3, skips the next player" in rules.paragraphs and "5 cards each" in rules.paragraphs[0]
    label = next(o for o in HOUSE_OPTIONS if o.name == "hand_size")
    assert house.paragraphs == (f"{label.label}: 5 ({label.help})",)
    assert mode.title == "A penalty table" and any("loses a token" in p for p in mode.paragraphs)
    below = "• the total may not go below zero at this table"
    guarded = {rules: kinds.rules_page(NINETY_NINE, NINETY_NINE.check_settings(4, "guarded", {"rules": rules}))
               for rules in ("convention", "tokens")}
    assert below in guarded["tokens"][2].paragraphs  # type: ignore[index]
    assert below not in guarded["convention"][2].paragraphs  # type: ignore[index]  # 002: a ten may go below zero
    assert kinds.rules_page(kinds.get("peg-board"), kinds.get("peg-board").check_settings(2, "guarded")) is None


# -- the screen, in a real window -------------------------------------------------------------------------


@pytest.fixture
def viewer():
    win = window()
    back: list[bool] = []
    view = NinetyReplayView(record_of(played()), "den-game-3.txt", on_back=lambda: back.append(True),
                            sounds=win.sounds)
    view.back = back  # type: ignore[attr-defined]
    win.show_view(view)
    step(win, 2)
    yield view
    win.show_view(arcade.View())


def _texts(view: NinetyReplayView) -> list[str]:
    return [t.text for t in (*view.texts, *view.top_texts)]


def _click(view: NinetyReplayView, name: str) -> None:
    box = next(b for b in view.boxes if b.target == ("button", [n for n, _ in BUTTONS].index(name)))
    view.window.click(box.left + box.width / 2, box.bottom + box.height / 2)
    step(view.window, 1)


@pytest.mark.slow
def test_keys_and_buttons_step_through_the_record(viewer):
    win, cursor = viewer.window, viewer.cursor
    last = len(cursor.frames) - 1
    for key in (arcade.key.RIGHT, arcade.key.RIGHT, arcade.key.RIGHT, arcade.key.LEFT, arcade.key.END,
                arcade.key.RIGHT, arcade.key.HOME, arcade.key.LEFT, arcade.key.DOWN):
        win.press(key)
        step(win, 1)
    second_deal = next(i for i, f in enumerate(cursor.frames) if i and f.deal_start)
    assert viewer.shown_frames == [1, 2, 3, 2, last, 0, second_deal]  # no move at the ends: nothing shown again
    for name, where in (("forward", second_deal + 1), ("last", last), ("back", last - 1), ("first", 0)):
        _click(viewer, name)
        assert cursor.index == where, name
    win.press(arcade.key.PAGEDOWN)  # one game only: to its end
    step(win, 1)
    assert cursor.at_end and f"{viewer.frame.view.winner}" in viewer.frame.result  # type: ignore[union-attr]
    assert f"S{viewer.frame.view.winner} won" in _texts(viewer)  # type: ignore[union-attr]
    _click(viewer, "leave")
    assert viewer.back == [True]


@pytest.mark.slow
def test_each_step_shows_every_hand_the_total_the_direction_the_tokens_and_what_happened(viewer):
    viewer.go(viewer.cursor.go(GOLDEN_STEP))
    frame = viewer.frame
    assert frame is not None
    shown_cards = [card for card, *_ in viewer.cards if card is not None]
    for hand in frame.hands:
        assert all(card in shown_cards for card in hand)  # face up, every seat's
    texts = _texts(viewer)
    assert str(frame.view.total) in texts and "Play goes ↺ counter-clockwise" in texts
    assert [t for t in texts if t.startswith("tokens ")] == [
        f"tokens {'●' * n}{'○' * (3 - n)} {n}" for n in frame.view.tokens]
    assert frame.position() in texts and frame.title in texts and f"Record: {frame.line}" in texts
    assert "\n".join(frame.words) in texts and frame.words[0] in texts  # and in the log, newest first


@pytest.mark.slow
def test_an_out_player_is_said_out_with_the_place(viewer):
    index = next(i for i, f in enumerate(viewer.cursor.frames) if any(f.view.out))
    viewer.go(viewer.cursor.go(index))
    out = viewer.frame.view.out.index(True)  # type: ignore[union-attr]
    assert viewer.frame.hands[out] == ()  # type: ignore[union-attr]
    assert any(t.startswith("OUT · place ") for t in _texts(viewer))


@pytest.mark.slow
def test_the_replay_at_a_mid_game_step_matches_golden(viewer):
    viewer.go(viewer.cursor.go(GOLDEN_STEP))
    viewer.motions.clear()
    step(viewer.window, 2)
    assert compare_golden(screenshot(viewer.window), "replay_ninety_4p.png") <= MAX_DIFFERENT


@pytest.mark.slow
def test_a_record_that_cannot_be_shown_says_why_and_leaves():
    win = window()
    back: list[bool] = []
    lines = record_of(played(2, "tokens", seed=2)).split("\n")
    no = next(i for i, line in enumerate(lines) if line.startswith("S")) + 1  # the first action's line
    seat = int(lines[no - 1][1])
    lines[no - 1] = f"S{1 - seat}{lines[no - 1][2:]}"  # played by the other seat, out of turn
    view = NinetyReplayView("\n".join(lines), "bad.txt", on_back=lambda: back.append(True), sounds=win.sounds)
    win.show_view(view)
    step(win, 1)
    said = [t for t in _texts(view) if t.startswith("This record cannot be shown: ")]
    assert view.frame is None and len(said) == 1 and f"line {no}: " in said[0] and "out-of-turn" in said[0]
    win.press(arcade.key.RIGHT)
    _click(view, "leave")
    assert back == [True]
    win.show_view(arcade.View())


# -- the app: the records screen, `board99 replay --window`, F1 ---------------------------------------------


@pytest.fixture
def app(tmp_path, monkeypatch):
    from board99.client.gui.app import App

    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    win = window()
    app = App(win, name="Ann", discover=None)
    app.show_lobby()
    step(win, 2)
    yield app
    app.detach()
    win.show_view(arcade.View())


@pytest.mark.slow
def test_the_records_screen_opens_a_ninety_nine_record_in_its_replay_and_esc_comes_back(app):
    lobby = app.window.current_view
    view = app.show_record(record_of(played(3, "tokens", "penalty", seed=3)), "t7-game-1.txt")
    step(app.window, 1)
    assert isinstance(app.window.current_view, NinetyReplayView) and view.frame is not None
    app.window.press(arcade.key.ESCAPE)
    step(app.window, 1)
    assert app.window.current_view is lobby


@pytest.mark.slow
def test_board99_replay_window_opens_a_ninety_nine_record(tmp_path, monkeypatch):
    from board99.client.gui import app as app_module

    path = tmp_path / "den-game-3.txt"
    path.write_text(record_of(played()), encoding="utf-8")
    win = window()
    apps, shown = [], []

    class Kept(app_module.App):
        def __init__(self, *args, **kw) -> None:
            super().__init__(*args, **kw)
            apps.append(self)

    monkeypatch.setattr(app_module, "App", Kept)
    monkeypatch.setattr(app_module, "open_window", lambda *a: win)
    monkeypatch.setattr(app_module.arcade, "run", lambda: shown.append(win.current_view))
    monkeypatch.setattr(win, "close", lambda: None)  # the test process keeps its one window
    try:
        assert app_module.run_replay(path) == 0
    finally:
        for made in apps:
            made.detach()
    (view,) = shown
    assert isinstance(view, NinetyReplayView) and view.title_text == "den-game-3.txt" and len(view.cursor.frames) > 1
    win.show_view(arcade.View())


@pytest.mark.slow
def test_f1_over_a_ninety_nine_table_shows_its_rules_page_and_matches_golden(app):
    from board99.client.gui.help_view import HelpView
    from tests.test_gui_ninety_table import shown

    table = shown(4, "tokens", "penalty")
    win = app.window
    win.press(arcade.key.F1)
    step(win, 2)
    help_view = win.current_view
    assert isinstance(help_view, HelpView)
    text = help_view.all_text()
    v = table.state.view
    assert all(line in text for line in v.table.describe()[1:])  # every rule, the engine's words
    assert "House options at this table" in text and "A penalty table" in text
    assert "draw" in text and "an ace's or ten's value" in text  # this table's keys, not the peg-board's
    assert "click a square" not in text
    assert compare_golden(screenshot(win), "help_ninety.png") <= MAX_DIFFERENT
    win.press(arcade.key.ESCAPE)
    step(win, 1)
    assert win.current_view is table


@pytest.mark.slow
def test_f1_over_a_ninety_nine_replay_shows_that_records_rules(app):
    from board99.client.gui.help_view import HelpView

    game = Game(3, "guarded", Table.build(3, {"rules": "glengariff", "rank_7": "face"}), seed=4)
    while not game.over:
        assert game.turn is not None
        game.apply(game.turn, NINETY_NINE.clock_action(game))
    view = app.show_record(record_of(game), "glen.txt")
    step(app.window, 1)
    app.window.press(arcade.key.F1)
    step(app.window, 1)
    help_view = app.window.current_view
    assert isinstance(help_view, HelpView)
    text = help_view.all_text()
    assert "Glengariff rules (000): this table" in text and "7: adds 7" in text and "7 does: face" in text
    assert "one action" in text  # the replay's keys
    app.window.press(arcade.key.ESCAPE)
    step(app.window, 1)
    assert app.window.current_view is view
