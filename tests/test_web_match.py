"""Done means (issue 22): on one real server, a guest in a phone-sized browser and a player in the window finish
a 4-player match of each game with two bots.

One real server in a thread (``gateway``: ZeroMQ on 127.0.0.1 and its web table, a SQLite journal, bots at
once); the guest is Debian's Chromium at 375x667 on the gateway's own address (tests/browser_kit.py), tapping
only what its page shows (the controls the scene enables); the other person is the arcade window under Xvfb
(tests/gui_harness.py), taking its seat from its lobby with a click and playing with its own keys and clicks.
The guest makes the table with the page's form (a match of 3 games, quick bots), puts bots in two seats and
sits; the window sits in the last seat. Along the way the test closes the page's socket (the page comes back
to its seat by itself and the match goes on), and a second page watches the table and is sent no hand.
Every loop is bounded in count and time.
"""
# ruff: noqa: F811 (pytest fixtures arrive as arguments named as the imported fixtures)

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import arcade
import pytest

from board99.bots import make_bot
from board99.client.net import GameClient
from board99.ninety_nine.actions import Play
from board99.ninety_nine.bots import BOTS
from tests.browser_kit import (  # noqa: F401 (fixtures)
    GUESTS,
    LivePage,
    browser,
    enabled,
    enter_lobby,
    gateway,
    make_table,
    open_live_page,
    press,
    until,
)
from tests.gui_harness import screenshot, step, window

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

SECONDS = 200  # the most a whole match may take here (a loaded 2-core machine)
ROUNDS = 20_000  # and the most rounds of the loop that plays it
SHOTS = Path("/tmp")


def window_table(app: Any, live: LivePage, table: str, seat: int) -> Any:
    """The window's player takes ``seat`` from its lobby with a click; its table view."""
    from board99.client.gui.lobby_view import LobbyView

    win = app.window
    lobby = app.lobby
    assert isinstance(win.current_view, LobbyView)
    key = f"sit-{table}-{seat}"
    run_both(win, live, lambda: key in lobby.buttons, 15, "the table's card in the window's lobby")
    button = lobby.buttons[key]
    win.click(button.rect.center_x, button.rect.center_y)
    run_both(win, live, lambda: app.table is not None and win.current_view is app.table, 15, "the window's table")
    return app.table


def run_both(win: Any, live: LivePage, done: Callable[[], bool], seconds: float, what: str) -> None:
    """Step the window and let the page's frames move until ``done()``; fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"timed out after {seconds} s waiting for {what}"
        win.step()
        live.page.wait_for_timeout(10)


# -- the window's player: the window's own keys and clicks -----------------------------------------------------


class PegWindow:
    """The window's turn as a person enters it (keys 1-5, D, X, a click on the square), a bot's choice."""

    def __init__(self) -> None:
        self.bot = make_bot("rulebook", seed=7)
        self.acted: tuple[int, int] | None = None

    def playing(self, tv: Any) -> bool:
        v, table = tv.state.view, tv.state.table
        return v is not None and table is not None and table.state == "playing" and v.seat is not None

    def turn(self, tv: Any) -> None:
        from tests.test_gui_play import do

        v = tv.state.view
        if self.playing(tv) and v.turn == v.seat and v.winner is None and self.acted != (tv.state.table.game, v.ply):
            self.acted = (tv.state.table.game, v.ply)
            do(tv.window, tv, self.bot.choose(v))

    def over(self, tv: Any) -> bool:
        table = tv.state.table
        return table is not None and table.state == "over"

    def vote(self, tv: Any) -> None:
        """A click on the panel's "Next game" button."""
        win = tv.window
        step(win, 2)  # lay the widgets out first
        found = [w for w in [*tv.panel.buttons, *tv.overlays.buttons]
                 if w.text in ("Next game", "Rematch") and w.visible and not w.disabled]
        if found:
            win.click(*found[0].rect.center)

    def match_shown(self, tv: Any) -> bool:
        """The match's result box is on the window's table."""
        return bool(tv.match.box_shown and "match" in tv.match.t_title.text)


class NinetyWindow:
    """The window's Ninety-Nine turn as the sound bot would choose, entered with the card's key or a click."""

    def __init__(self) -> None:
        self.bot = BOTS["sound"](seed=1)
        self.acted: tuple[int, int, str] | None = None
        self.played = 0

    def playing(self, tv: Any) -> bool:
        v, table = tv.state.view, tv.state.table
        return v is not None and v.started and not v.over and table is not None and table.state == "playing"

    def turn(self, tv: Any) -> None:
        from tests.test_gui_ninety_games import enter

        v, win = tv.state.view, tv.window
        if not self.playing(tv):
            return
        game = tv.state.table.game
        if v.may_draw and self.acted != (game, v.ply, "draw"):
            self.acted = (game, v.ply, "draw")
            win.press(arcade.key.D)
        elif v.my_turn and self.acted != (game, v.ply, "play"):
            self.acted = (game, v.ply, "play")
            action = self.bot.choose(v)
            if not isinstance(action, Play):
                action = next(a for a in v.legal_actions() if isinstance(a, Play))
            enter(tv, action, click=self.played % 2 == 1)
            self.played += 1

    def over(self, tv: Any) -> bool:
        table = tv.state.table
        return table is not None and table.state == "over"

    def vote(self, tv: Any) -> None:
        """R: the next game."""
        tv.window.press(arcade.key.R)

    def match_shown(self, tv: Any) -> bool:
        """The match's result is on the window's table."""
        return any("won the match" in t.text or "match is level" in t.text for t in tv.top_texts)


GAMES: dict[str, tuple[type[PegWindow] | type[NinetyWindow], dict[str, str]]] = {
    "peg-board": (PegWindow, {}),  # 4 players: two partnerships
    "ninety-nine": (NinetyWindow, {"option-rules": "glengariff"}),  # 4 players, each alone
}


@pytest.fixture
def app(gateway):
    """The arcade window's app (a real window under Xvfb) in the real server's lobby, as 'Wendy'."""
    from board99.client.gui.app import App

    win = window()
    application = App(win, name="Wendy", discover=None)
    application.connect(gateway.endpoint)
    yield application
    application.shutdown()
    application.detach()
    step(win, 1)
    win.show_view(arcade.View())


def progress(tv: Any) -> str:
    """Where the match stands, as the window knows it (for a failure's message)."""
    table = tv.state.table
    if table is None:
        return "no table"
    score = table.match.score(table.sides) if table.match is not None else None
    return f"game {table.game} {table.state}, score {score}, votes {getattr(table, 'votes', None)}"


def page_match_over(live: LivePage) -> str | None:
    """The match's result as the page shows it (the result dialog's heading), once the match is decided."""
    dialog = live.page.locator("[role=dialog]")
    if not dialog.count():
        return None
    heading = dialog.first.get_by_role("heading").inner_text()
    return heading if "match" in heading.lower() else None


@pytest.mark.parametrize("game", list(GAMES))
def test_a_phone_guest_and_a_window_player_finish_a_four_player_match_with_two_bots(
        game, gateway, open_live_page, app) -> None:
    window_kind, options = GAMES[game]
    guest, player = GUESTS[game](), window_kind()
    live = open_live_page("phone")
    page, wire = live.page, live.tap
    assert wire is not None
    enter_lobby(live, "Zoe")
    table = make_table(live, game, "LAN match", "4", "games-3", options)
    for seat in (2, 3):  # bots in two seats, from the lobby's card
        press(live, f'button[data-id="bot-{table}-{seat}"]')
        until(page, "id => !document.querySelector(`button[data-id='${id}']`)", f"bot-{table}-{seat}")
    press(live, f'button[data-id="sit-{table}-0"]')
    until(page, "() => document.body.dataset.screen === 'table'")
    kept = json.loads(page.evaluate("localStorage.getItem('board99.seat')"))
    assert kept["table"] == table and kept["seat"] == 0 and kept["token"]
    tv = window_table(app, live, table, 1)
    win = app.window

    watcher: LivePage | None = None
    dropped = False
    guest_turns = 0
    voted: set[tuple[str, int]] = set()
    started = time.monotonic()
    for _ in range(ROUNDS):
        assert time.monotonic() - started < SECONDS, (
            f"the match did not end in {SECONDS} s: page {page.locator('#headline').inner_text()!r}, "
            f"window {progress(tv)}")
        win.step()
        page.wait_for_timeout(5)
        shown = page_match_over(live)
        if shown is not None and player.match_shown(tv):
            break
        if watcher is None and player.playing(tv):
            # A second guest opens the page and watches the table: it is sent no hand, ever.
            watcher = open_live_page("desktop")
            enter_lobby(watcher, "Sam")
            press(watcher, f'button[data-id="watch-{table}"]')
            until(watcher.page, "() => document.body.dataset.screen === 'table'")
        # The window: its turn, or its vote for the next game.
        player.turn(tv)
        game_no = tv.state.table.game if tv.state.table is not None else 0
        if player.over(tv) and not player.match_shown(tv) and ("window", game_no) not in voted:
            voted.add(("window", game_no))
            player.vote(tv)
        # The guest: the next game when its page offers it, else its turn.
        rematch = enabled(live, '[role=dialog] button[data-id="rematch"]')
        if rematch.count() and shown is None:
            if ("page", game_no) not in voted:
                voted.add(("page", game_no))
                press(live, '[role=dialog] button[data-id="rematch"]:not(.disabled)')
            continue
        if not page.evaluate("document.body.classList.contains('turn')"):
            continue
        guest_turns += 1
        if guest_turns == 3 and not dropped:
            # The phone sleeps (the test closes the page's socket): the page comes back to its seat by itself.
            hand = page.locator('[data-part="hand"] .card').all_inner_texts()
            wire.drop()
            wire.wait_for(lambda: len(wire.routes) == 2, "open a new socket")
            wire.wait_for(lambda: any(n == 1 and "hello" in f for n, f in wire.sent), "say hello again")
            hello = [frame["hello"] for number, frame in wire.sent if number == 1 and "hello" in frame]
            assert hello[0]["seat"] == kept and hello[0]["name"] == "Zoe"
            wire.wait_for(lambda: any(n == 1 and "Welcome back" in json.dumps(f) for n, f in wire.heard),
                          "hear its welcome back")
            until(page, "n => document.body.dataset.screen === 'table' && document.getElementById('net').hidden"
                        " && document.querySelectorAll('[data-part=\"hand\"] .card').length === n", len(hand))
            assert page.locator('[data-part="hand"] .card').all_inner_texts() == hand, "the same hand after coming back"
            dropped = True
            continue
        guest.turn(live)
    else:
        pytest.fail(f"the match did not end in {ROUNDS} rounds")

    # Both sides show the match's result.
    assert dropped, "the match ended before the page's socket was dropped"
    info = tv.state.table
    assert info is not None and info.match is not None and info.match.over(info.sides)
    names = [s.name for s in info.seats]
    assert len(names) == 4 and "Zoe" in names and "Wendy" in names and all(names), names
    shown = page_match_over(live)
    assert shown is not None, "the page shows the match's result"
    winner = info.match.winner(info.sides)  # a side; at a 4-player Ninety-Nine table each seat is its own
    if winner is None:
        assert shown == "The match is level"
    elif winner == info.seats[0].side:
        assert shown == "You won the match"
    else:
        assert shown == "You lost the match" or shown.endswith(" won the match") and not shown.startswith("You")
    # Both ends as a person sees them, kept for a person to look at (the deals are random: no golden).
    step(win, 3)
    page.screenshot(path=str(SHOTS / f"board99_web_match_{game}_page.png"))
    screenshot(win).save(SHOTS / f"board99_web_match_{game}_window.png")
    if shutil.which("import"):  # the whole X display, as `import -window root` sees it
        subprocess.run(["import", "-window", "root", str(SHOTS / f"board99_web_match_{game}_display.png")],
                       timeout=30, check=False)
    assert live.no_horizontal_scroll() and live.errors == []
    # The spectator's page: never a hand card, in any scene it was sent or on its screen.
    assert watcher is not None and watcher.tap is not None
    assert watcher.page.evaluate("document.body.dataset.screen") == "table"
    assert watcher.page.locator('[data-part="seats"] li.seat').count() == 4, "the watcher sees the four seats"
    assert watcher.page.locator('[data-part="hand"] .card').count() == 0
    assert len(watcher.tap.scenes()) > 3
    for drawn in watcher.tap.scenes():
        hands = [p for p in drawn.get("parts", ()) if p.get("id") == "hand" and p.get("items")]
        assert hands == [], hands
    assert watcher.errors == []
    # The server's record of the match holds all four players.
    with GameClient(gateway.endpoint, name="auditor", timeout=10) as client:
        record = client.fetch_record(table, match=True)
    for name in names:
        assert name in record, (name, record[:400])
