"""The browser test kit: Debian's Chromium driven by Playwright, the page's files served on 127.0.0.1.

No browser is downloaded (never `playwright install`): Playwright launches /usr/bin/chromium (`make test`
installs it, `make web-deps`). Two ways to put something behind the page:

- ``open_page``: the page's WebSocket is answered by the test itself (`FakeServer`, through Playwright's
  ``page.route_web_socket``), so a test sends the exact scenes it wants and reads every frame the page
  sends; the static files come from a small ``http.server`` thread with the gateway's policy.
- ``open_live_page``: a real server (``gateway``: ZeroMQ and its web table, run_in_thread) serves the page
  and its socket, so the page meets the gateway's files, Origin check and policy, the real WebSeat and core.
  A ``Tap`` passes the page's socket through to the gateway unchanged (the socket is still opened by the
  page, with its own Origin) and records every frame each way; the test may close the page's socket.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from board99.web.seat import patched

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
CHROMIUM = "/usr/bin/chromium"
#: New headless mode, no sandbox (root in a container), and nothing that talks to the internet.
FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: The sizes the page is held to: a phone upright and on its side, and a desktop window.
VIEWPORTS: dict[str, tuple[int, int]] = {"phone": (375, 667), "landscape": (667, 375), "desktop": (1280, 800)}
PHONES = ("phone", "landscape")
WAIT = 5.0  # seconds a test waits for the page before failing


def chromium() -> str:
    """The system Chromium's path; skips without it, except under CI=true where a missing browser fails."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    found = shutil.which("chromium")
    if found:
        return found
    if os.environ.get("CI", "").lower() == "true":
        raise RuntimeError("CI=true: /usr/bin/chromium is missing; `make web-deps` installs it (Debian chromium)")
    pytest.skip("no /usr/bin/chromium: run `make web-deps` (or apt-get install chromium) for the browser tests")


#: The Content-Security-Policy the gateway sends with the page (web/gateway.py), so a test sees what a
#: guest's browser would refuse: no inline script or style, nothing from another origin.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "media-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")


class _Quiet(SimpleHTTPRequestHandler):
    """Serves web/static with the gateway's security headers, without a line per request on stderr."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class StaticServer:
    """web/static over HTTP on 127.0.0.1 (an ephemeral port), in a daemon thread."""

    def __init__(self, root: Path = STATIC) -> None:
        handler = functools.partial(_Quiet, directory=str(root))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="web-static", daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop serving and free the port."""
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def until(page: Any, expression: str, arg: Any = None, seconds: float = WAIT) -> None:
    """Wait until a JavaScript function of `arg` holds on the page.

    Polled from here with ``page.evaluate`` rather than ``page.wait_for_function``: Playwright's in-page
    polling evaluates a string, which the gateway's Content-Security-Policy (no 'unsafe-eval') refuses.
    """
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression, arg):
        assert time.monotonic() < deadline, f"the page did not reach {expression} within {seconds} s"
        page.wait_for_timeout(25)


@dataclass
class FakeServer:
    """The server's end of the page's /ws, played by the test: it records frames and sends what it is told."""

    page: Any
    connections: list[Any] = field(default_factory=list)
    received: list[tuple[int, dict]] = field(default_factory=list)  # (connection number, frame)
    refuse: int = 0  # close this many of the next connections at once (a server that is down)

    def attach(self) -> None:
        """Answer every WebSocket the page opens to /ws (no real server behind it)."""
        self.page.route_web_socket(re.compile(r"/ws$"), self._accept)

    def _accept(self, route: Any) -> None:
        number = len(self.connections)
        self.connections.append(route)
        if self.refuse > 0:
            self.refuse -= 1
            route.close(code=1013, reason="try again later")
            return
        route.on_message(lambda text: self.received.append((number, json.loads(text))))

    def send(self, message: dict) -> None:
        """Send one JSON frame to the page on its newest connection."""
        self.connections[-1].send(json.dumps(message))

    def scene(self, scene: dict) -> None:
        """Send a whole scene and wait until the page has drawn it (its title is the scene's)."""
        self.send({"scene": scene})
        until(self.page, "t => document.title === t", scene.get("title", "board99"))

    def drop(self, code: int = 1001, reason: str = "going away") -> None:
        """Close the newest connection from the server's side (with 1001 the page must reconnect)."""
        self.connections[-1].close(code=code, reason=reason)

    def frames(self, kind: str) -> list[dict]:
        """The frames of one kind ("hello", "press", "key") the page has sent, oldest first."""
        return [frame for _, frame in self.received if kind in frame]

    def wait_for(self, done: Callable[[], bool], what: str, seconds: float = WAIT) -> None:
        """Let the page run until done() holds; fail naming `what` after `seconds`."""
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"the page did not {what} within {seconds} s"
            self.page.wait_for_timeout(25)

    def wait_frame(self, kind: str, count: int = 1) -> dict:
        """The page's `count`-th frame of this kind, waiting for it."""
        self.wait_for(lambda: len(self.frames(kind)) >= count, f"send {count} {kind!r} frame(s)")
        return self.frames(kind)[count - 1]


@dataclass
class WebPage:
    """One page at one size, with the fake server behind its socket."""

    page: Any
    server: FakeServer
    size: str
    errors: list[str]  # uncaught errors and console errors (a CSP refusal among them), as they come

    def show(self, scene: dict) -> None:
        """Draw this scene (the page has already said hello)."""
        self.server.scene(scene)

    def no_horizontal_scroll(self) -> bool:
        """Nothing sticks out sideways: the document is no wider than the viewport."""
        return bool(self.page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


class Tap:
    """The page's /ws passed through to the real gateway, every frame recorded each way.

    Playwright's WebSocket route with ``connect_to_server``: the page's own socket is opened to the gateway
    from inside the page (its Origin is the page's), and each frame goes through here on its way. Frames
    move while the test is inside a Playwright call (``page.wait_for_timeout`` and the like).
    """

    def __init__(self, page: Any) -> None:
        self.page = page
        self.routes: list[Any] = []
        self.sent: list[tuple[int, dict]] = []  # (connection number, frame) from the page
        self.heard: list[tuple[int, dict]] = []  # (connection number, frame) from the server

    def attach(self) -> None:
        """Pass every WebSocket the page opens to /ws through to the server it asked for."""
        self.page.route_web_socket(re.compile(r"/ws$"), self._connect)

    def _connect(self, route: Any) -> None:
        number = len(self.routes)
        self.routes.append(route)
        server = route.connect_to_server()

        def up(text: str | bytes) -> None:
            self.sent.append((number, json.loads(text)))
            server.send(text)

        def down(text: str | bytes) -> None:
            self.heard.append((number, json.loads(text)))
            route.send(text)

        route.on_message(up)
        server.on_message(down)

    def frames(self, kind: str, heard: bool = True) -> list[dict]:
        """The frames of one kind ("scene", "notice", "keep"; "hello", "press", "key" from the page), oldest first."""
        return [frame for _, frame in (self.heard if heard else self.sent) if kind in frame]

    def scenes(self) -> list[dict]:
        """Every scene the page drew, oldest first: each whole one, and each patch applied to the one before."""
        drawn: list[dict] = []
        for _, frame in self.heard:
            if "scene" in frame:
                drawn.append(frame["scene"])
            elif "patch" in frame:
                drawn.append(patched(drawn[-1] if drawn else {}, frame["patch"]))
        return drawn

    def scene(self) -> dict:
        """The last scene the server sent the page."""
        drawn = self.scenes()
        return drawn[-1] if drawn else {}

    def wait_for(self, done: Callable[[], bool], what: str, seconds: float = WAIT) -> None:
        """Let frames move until done() holds; fail naming `what` after `seconds`."""
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"the page did not {what} within {seconds} s"
            self.page.wait_for_timeout(20)

    def drop(self, code: int = 1001, reason: str = "going away") -> None:
        """Close the page's newest socket (a phone asleep, a network change); the gateway's side closes with it."""
        self.routes[-1].close(code=code, reason=reason)


@dataclass
class LivePage:
    """One page at one size, opened at a real server's web address."""

    page: Any
    tap: Tap | None
    size: str
    errors: list[str]
    url: str

    def no_horizontal_scroll(self) -> bool:
        """Nothing sticks out sideways: the document is no wider than the viewport."""
        return bool(self.page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


_browser: Any = None
_site: StaticServer | None = None


def _stop(playwright: Any, launched: Any) -> None:
    launched.close()
    playwright.stop()


@pytest.fixture
def browser() -> Any:
    """The one headless Chromium of the test process (each page gets a fresh context: no shared storage).

    One per process, not a session fixture: each test module imports the kit's fixtures, and two session
    fixtures of the same name would start Playwright twice (its sync API allows one at a time).
    """
    global _browser
    if _browser is None:
        path = chromium()
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        # Playwright gives the browser a fresh temporary user-data-dir of its own and removes it after.
        _browser = playwright.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        atexit.register(_stop, playwright, _browser)
    return _browser


@pytest.fixture
def static_site() -> StaticServer:
    """web/static served over loopback, once per test process."""
    global _site
    if _site is None:
        _site = StaticServer()
        atexit.register(_site.close)
    return _site


def new_page(browser: Any, size: str, storage: dict[str, str] | None, contexts: list[Any]) -> tuple[Any, list[str]]:
    """A page in a fresh context at a named size (kept in ``contexts`` to close), and the list its errors go to.

    ``storage``: what an earlier visit left in localStorage (a name, a key, a seat token).
    """
    width, height = VIEWPORTS[size]
    phone = size in PHONES
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                  is_mobile=phone, has_touch=phone, reduced_motion="reduce")
    contexts.append(context)
    if storage:
        context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(storage)}))"
            " if (localStorage.getItem(k) === null) localStorage.setItem(k, v);")
    page = context.new_page()
    page.set_default_timeout(WAIT * 1000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"error: {error}"))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return page, errors


@pytest.fixture
def open_page(browser: Any, static_site: StaticServer) -> Iterator[Callable[..., WebPage]]:
    """Open the page at a named size ("phone", "landscape", "desktop"); it has said hello when returned.

    ``server`` makes what answers the page's WebSocket (given the page): ``FakeServer`` by default.
    """
    contexts: list[Any] = []

    def open_at(size: str = "phone", storage: dict[str, str] | None = None, clock_at: float | None = None,
                server: Callable[[Any], FakeServer] = FakeServer) -> WebPage:
        page, errors = new_page(browser, size, storage, contexts)
        if clock_at is not None:
            # The page's clock stands still at clock_at (ms) until the test runs it (page.clock.run_for).
            page.clock.install(time=clock_at)
            page.clock.pause_at(clock_at + 1000)
        behind = server(page)  # what answers the page's socket: the test's FakeServer, or a subclass
        behind.attach()
        page.goto(static_site.url)
        behind.wait_frame("hello")
        return WebPage(page, behind, size, errors)

    try:
        yield open_at
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[Any]:
    """A real server in a thread (ZeroMQ and its web table on free ports of 127.0.0.1, a SQLite journal in
    tmp_path), whose bots move at once; the package's own page and WebSeat. Stopped after the test."""
    from board99.server.loop import run_in_thread

    handle = run_in_thread(port=0, data_dir=tmp_path / "server", web_port=0, bot_delay=0.0)
    try:
        yield handle
    finally:
        handle.stop()


@pytest.fixture
def open_live_page(browser: Any, gateway: Any) -> Iterator[Callable[..., LivePage]]:
    """Open the page at the gateway's address at a named size; it has had its first scene when returned.

    ``tap`` (default True) passes its socket through a ``Tap``; ``storage`` is what an earlier visit left in
    localStorage. Each page gets a fresh context (no shared storage), closed after the test.
    """
    contexts: list[Any] = []

    def open_at(size: str = "phone", storage: dict[str, str] | None = None, tap: bool = True) -> LivePage:
        page, errors = new_page(browser, size, storage, contexts)
        tapped = Tap(page) if tap else None
        if tapped is not None:
            tapped.attach()
        url = f"http://127.0.0.1:{gateway.server.web_port}/"
        answer = page.goto(url)
        assert answer is not None and answer.status == 200, f"the gateway did not serve {url}"
        until(page, "() => Boolean(document.body.dataset.screen)")  # the first scene, from the real seat
        return LivePage(page, tapped, size, errors, url)

    try:
        yield open_at
    finally:
        for context in contexts:
            context.close()


# -- a guest at a live page: taps only what the page shows, as the scene enables it ------------------------------


def press(live: LivePage, selector: str) -> None:
    """Tap one control and let the server answer (a scene or a notice), waiting a few seconds at most; nothing if
    the control went away first (the caller reads the page again)."""
    assert live.tap is not None
    heard = len(live.tap.heard)
    from playwright.sync_api import TimeoutError as Gone

    try:
        live.page.locator(selector).first.click(timeout=2000)
    except Gone:  # the scene moved on under the finger (a bot's move, the game's end): the caller looks again
        return
    deadline = time.monotonic() + WAIT
    while len(live.tap.heard) == heard and time.monotonic() < deadline:
        live.page.wait_for_timeout(15)


def enabled(live: LivePage, selector: str) -> Any:
    """The controls matching ``selector`` that the scene enables."""
    return live.page.locator(f"{selector}:not(.disabled)")


def enter_lobby(live: LivePage, name: str) -> None:
    """The welcome screen: a name, Enter; the lobby."""
    until(live.page, "() => document.body.dataset.screen === 'welcome'")
    live.page.get_by_role("textbox").fill(name)
    live.page.locator("form button[type=submit]").click()
    until(live.page, "() => document.body.dataset.screen === 'lobby'")


def make_table(live: LivePage, game: str, title: str, players: str = "4", match: str = "single",
               options: dict[str, str] | None = None) -> str:
    """The lobby's new-table form: this game, players, match length, quick bots, the game's options; the new
    table's id (read from its card's first "Sit" button)."""
    page = live.page
    press(live, f'button[data-id="game-{game}"]')
    page.locator("input[name=name]").fill(title)
    page.locator("select[name=players]").select_option(players)
    page.locator("select[name=match]").select_option(match)
    page.locator("select[name=pace]").select_option("quick")
    for name, value in (options or {}).items():
        page.locator(f"select[name={name}]").select_option(value)
    page.locator("form button[type=submit]").click()
    until(page, "t => [...document.querySelectorAll('.table-card')].some(c => c.textContent.includes(t))", title)
    card = page.locator(".table-card").filter(has_text=title)
    sit = str(card.locator('button[data-id^="sit-"]').first.get_attribute("data-id"))
    return sit.split("-")[1]


class PegGuest:
    """A GAME OF 99 turn on the page, one tap at a time: a lit square; else a card not yet tried (the server
    lights its squares); else draw; else discard the picked card."""

    def __init__(self) -> None:
        self.tried: set[str] = set()

    def turn(self, live: LivePage) -> None:
        """One tap of the guest's turn."""
        if enabled(live, ".square.lit").count():
            press(live, ".square.lit:not(.disabled)")
            self.tried.clear()
            return
        picked = live.page.locator('.hand .card[aria-pressed="true"]')
        if picked.count():
            self.tried.add(str(picked.first.get_attribute("data-id")))
        cards = enabled(live, ".hand .card")
        for index in range(cards.count()):
            card = str(cards.nth(index).get_attribute("data-id"))
            if card not in self.tried:
                press(live, f'.hand .card[data-id="{card}"]')
                return
        self.tried.clear()
        if enabled(live, 'button[data-id="draw"]').count():
            press(live, 'button[data-id="draw"]:not(.disabled)')
        elif picked.count() and enabled(live, 'button[data-id="discard"]').count():
            press(live, 'button[data-id="discard"]:not(.disabled)')
        elif cards.count():
            press(live, ".hand .card:not(.disabled)")  # a card picked, to discard next time


class NinetyGuest:
    """A Ninety-Nine turn on the page, one tap at a time: a value asked for, else a draw owed, else a card
    that fits (the ones the scene enables)."""

    def turn(self, live: LivePage) -> None:
        """One tap of the guest's turn."""
        for selector in ('[data-part="choice"] button', 'button[data-id="draw"]', '[data-part="hand"] .card'):
            if enabled(live, selector).count():
                press(live, f"{selector}:not(.disabled)")
                return


#: How a guest plays each game on the page.
GUESTS: dict[str, Callable[[], PegGuest | NinetyGuest]] = {"peg-board": PegGuest, "ninety-nine": NinetyGuest}
