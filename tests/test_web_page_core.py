"""The page in a real browser against a real server, through its gateway: a whole game of each game.

A real server in a thread (``gateway`` in tests/browser_kit.py: ZeroMQ and its web table on 127.0.0.1, a SQLite
journal, bots at once) serves the page and its socket, so the page meets the gateway's files, its Origin check
and policy, the real WebSeat and core. A guest names herself, makes a 2-player table with the page's form, sits,
fills the other seat with a bot and plays the whole game by tapping what the page shows; the test closes the
page's socket mid-game (a phone asleep) and the page comes back to its seat with its kept token and the same
hand. (tests/test_web_match.py plays 4-player matches with the window at the table; the gateway has its own
tests in tests/test_web_transport.py.)
"""
# ruff: noqa: F811 (pytest fixtures arrive as arguments named as the imported fixtures)

from __future__ import annotations

import json
import time

import pytest

from tests.browser_kit import (  # noqa: F401 (fixtures)
    GUESTS,
    browser,
    enter_lobby,
    gateway,
    make_table,
    open_live_page,
    press,
    until,
)

pytestmark = pytest.mark.slow

ROUNDS = 3000  # rounds of the loop that plays a two-player game, at most
SECONDS = 90  # and its time, at most
GAMES = [("phone", "peg-board"), ("desktop", "ninety-nine")]


@pytest.mark.parametrize(("size", "game"), GAMES)
def test_a_guest_plays_a_whole_game_against_a_bot_and_comes_back_after_a_drop(open_live_page, size, game):
    live = open_live_page(size)
    page, wire = live.page, live.tap
    assert wire is not None
    enter_lobby(live, "Zoe")
    assert page.evaluate("localStorage.getItem('board99.name')") == "Zoe"
    table = make_table(live, game, "Phone table", players="2")
    press(live, f'button[data-id="sit-{table}-0"]')
    until(page, "() => document.body.dataset.screen === 'table'")
    kept = json.loads(page.evaluate("localStorage.getItem('board99.seat')"))
    assert kept["table"] == table and kept["seat"] == 0 and kept["token"]
    press(live, 'button[data-id="bots"]')
    guest = GUESTS[game]()
    dropped = False
    turns = 0  # rounds in which it was the guest's turn
    started = time.monotonic()
    for _ in range(ROUNDS):
        assert time.monotonic() - started < SECONDS, f"no end in {SECONDS} s: {page.locator('#headline').inner_text()}"
        page.wait_for_timeout(10)
        if page.locator(".dialog").count():
            break
        # Read at once: a scene may come in between two calls (the bot moves at once).
        mine, title, mark = page.evaluate("[document.body.classList.contains('turn'), document.title, "
                                          "getComputedStyle(document.getElementById('turnmark')).display !== 'none']")
        if not mine:
            continue
        assert title.startswith("Your turn") and mark, (title, mark)
        turns += 1
        if turns == 1 and not dropped:  # at its first turn: a 2-player Ninety-Nine deal may end at its second
            # The phone sleeps: the test closes the page's socket; the page comes back by itself, to its seat.
            hand = page.locator('[data-part="hand"] .card').all_inner_texts()
            wire.drop()
            wire.wait_for(lambda: len(wire.routes) == 2, "open a new socket")
            wire.wait_for(lambda: any(n == 1 and "hello" in f for n, f in wire.sent), "say hello again")
            hello = next(f["hello"] for n, f in wire.sent if n == 1 and "hello" in f)
            assert hello["seat"] == kept and hello["name"] == "Zoe"
            wire.wait_for(lambda: any(n == 1 and "Welcome back" in json.dumps(f) for n, f in wire.heard),
                          "hear its welcome back")
            until(page, "n => document.body.classList.contains('turn') && document.getElementById('net').hidden"
                        " && document.querySelectorAll('[data-part=\"hand\"] .card').length === n", len(hand))
            again = [(f["scene"].get("screen"), f["scene"].get("turn"),
                      [len(p.get("items", ())) for p in f["scene"]["parts"] if p.get("id") == "hand"])
                     for n, f in wire.heard if n == 1 and "scene" in f]
            assert page.locator('[data-part="hand"] .card').all_inner_texts() == hand, again
            dropped = True
            continue
        guest.turn(live)
    else:
        pytest.fail(f"the game did not end in {ROUNDS} rounds")
    assert dropped, "the game ended before the drop"
    heading = page.get_by_role("dialog").get_by_role("heading").inner_text()
    assert heading.endswith(" won") or heading in ("You won!", "You lost"), heading
    if game == "peg-board":
        assert page.locator(".square.last").count() >= 5, "the winning line is marked on the board"
    else:
        assert page.locator(".total-value").count() == 1
    assert live.no_horizontal_scroll() and live.errors == []
    presses = wire.frames("press", heard=False)
    assert presses and all(set(frame) <= {"press", "fields"} for frame in presses)
