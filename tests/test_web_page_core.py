"""The page in a real browser against a real web seat and server core (in-process, tests/web_seat_kit.py).

The page's WebSocket is answered by a ``WebSeat`` on a real ``Core`` over a real SQLite journal, so
the scenes are the server's own and every press the page sends is carried out: a guest on a phone
names herself, makes a table, sits, fills it with bots and plays a whole game of each game by tapping
what the page shows; the socket is dropped mid-game and the page comes back to its seat with its kept token.
(The gateway, web/gateway.py, has its own tests; this one is about the page and the seat.)
"""
# ruff: noqa: F811 (pytest fixtures arrive as arguments named as the imported fixtures)

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_kit import FakeServer, browser, open_page, static_site, until  # noqa: F401 (fixtures)
from tests.web_seat_kit import Page, Room

pytestmark = pytest.mark.slow

MOVES_MAX = 300  # a two-player game takes far fewer of the guest's moves
#: (size, game) played: Ninety-Nine once its web table screen (web/screens/ninety.py) is in the checkout.
GAMES = [("phone", "peg-board")] + (
    [("desktop", "ninety-nine")] if importlib.util.find_spec("board99.web.screens.ninety") else [])


class CoreBehind(FakeServer):
    """The page's /ws answered by a WebSeat per connection on a real core (a new seat for each socket)."""

    def __init__(self, page: Any, room: Room) -> None:
        super().__init__(page)
        self.room = room
        self.seats: list[tuple[Page, Any]] = []  # (the kit's view of the seat, the page's socket)
        self.forwarded: dict[int, int] = {}

    def _accept(self, route: Any) -> None:
        number = len(self.connections)
        self.connections.append(route)
        seat = Page(self.room, f"browser-{number}")
        self.seats.append((seat, route))
        self.forwarded[number] = 0

        def heard(text: str) -> None:
            self.received.append((number, json.loads(text)))
            seat.send(text)  # to the seat, then the core, and back (the kit pumps until quiet)
            self.forward()

        route.on_message(heard)

    def forward(self) -> None:
        """Send each open socket what its seat has for the page."""
        for number, (seat, route) in enumerate(self.seats):
            if seat.ident not in self.room.pages:
                continue
            for text in seat.texts[self.forwarded[number]:]:
                route.send(text)
            self.forwarded[number] = len(seat.texts)

    def advance(self, seconds: float) -> None:
        """Time passes on the core's clock (bots, heartbeats), and what it brings goes to the page."""
        self.room.advance(seconds)
        self.forward()

    def drop(self, code: int = 1001, reason: str = "going away") -> None:
        """The socket goes (a phone asleep): the gateway tells the seat, which keeps the seat's token."""
        seat, route = self.seats[-1]
        route.close(code=code, reason=reason)
        seat.seat.closed(self.room.now)
        del self.room.pages[seat.ident]


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    r = Room(tmp_path)
    yield r
    r.close()


def screen(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.screen || ''"))


def play_my_turn(page: Any, game: str) -> None:
    """A move found by looking at the page only (what is enabled is the server's word)."""
    if game == "ninety-nine":  # a value asked for, else the draw owed, else a card that fits
        for selector in ('[data-part="choice"] button:not(.disabled)', 'button[data-id="draw"]:not(.disabled)',
                         '[data-part="hand"] .card:not(.disabled)'):
            if page.locator(selector).count():
                page.locator(selector).first.click()
                return
        raise AssertionError(f"nothing to press: {page.locator('#headline').inner_text()}")
    # GAME OF 99: a card with a lit square goes there; else draw; else discard.
    cards = page.locator(".hand .card:not(.disabled)")
    for index in range(cards.count()):
        cards.nth(index).click()
        lit = page.locator(".square.lit:not(.disabled)")
        if lit.count():
            lit.first.click()
            return
        cards.nth(index).click()  # put it back
    draw = page.locator('button[data-id="draw"]:not(.disabled)')
    if draw.count():
        draw.click()
        return
    cards.first.click()
    page.locator('button[data-id="discard"]').click()


@pytest.mark.parametrize(("size", "game"), GAMES)
def test_a_guest_plays_a_whole_game_against_a_bot_and_comes_back_after_a_drop(open_page, room, size, game):
    web = open_page(size, server=functools.partial(CoreBehind, room=room))
    page, behind = web.page, web.server
    assert isinstance(behind, CoreBehind)
    until(page, "() => document.body.dataset.screen === 'welcome'")
    page.get_by_role("textbox").fill("Zoe")
    page.locator("form button[type=submit]").click()
    until(page, "() => document.body.dataset.screen === 'lobby'")
    assert page.evaluate("localStorage.getItem('board99.name')") == "Zoe"
    page.locator(f'button[data-id="game-{game}"]').click()
    page.locator("input[name=name]").fill("Phone table")
    page.locator("select[name=players]").select_option("2")
    page.locator("form button[type=submit]").click()
    card = page.locator(".table-card").filter(has_text="Phone table")
    until(page, "() => [...document.querySelectorAll('.table-card')].some(c => c.textContent.includes('Phone'))")
    card.locator('button[data-id$="-0"]').first.click()  # sit in the first seat
    until(page, "() => document.body.dataset.screen === 'table'")
    kept = json.loads(page.evaluate("localStorage.getItem('board99.seat')"))
    assert kept["seat"] == 0 and kept["token"]
    page.locator('button[data-id="bots"]').click()
    dropped = False
    turns = 0  # the guest's turns so far
    for _ in range(MOVES_MAX):
        behind.advance(0.5)
        if page.locator('.dialog').count():
            break
        if not page.evaluate("document.body.classList.contains('turn')"):
            continue
        assert page.title().startswith("Your turn") and page.locator("#turnmark").is_visible()
        turns += 1
        if turns == 2:
            # The phone sleeps: the socket goes; the page comes back by itself, to its seat.
            hand = page.locator('[data-part="hand"] .card').all_inner_texts()
            behind.drop()
            behind.wait_for(lambda: len(behind.connections) == 2, "reconnect")
            hello = behind.wait_frame("hello", 2)["hello"]
            assert hello["seat"] == kept and hello["name"] == "Zoe"
            until(page, "() => document.body.classList.contains('turn') && document.getElementById('net').hidden")
            assert page.locator('[data-part="hand"] .card').all_inner_texts() == hand, "the same hand after coming back"
            dropped = True
        play_my_turn(page, game)
    else:
        pytest.fail("the game did not end")
    assert dropped, "the game ended before the drop"
    dialog = page.get_by_role("dialog")
    assert dialog.get_by_role("heading").inner_text().endswith(" won") or dialog.get_by_role("heading").inner_text() \
        == "You lost"
    if game == "peg-board":
        assert page.locator(".square.last").count() >= 5, "the winning line is marked on the board"
    else:
        assert page.locator(".total-value").count() == 1
    assert web.no_horizontal_scroll() and web.errors == []
    presses = behind.frames("press")
    assert presses and all(set(frame) == {"press", "fields"} for frame in presses)
