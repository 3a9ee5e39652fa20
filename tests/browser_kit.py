"""The browser test kit: Debian's Chromium driven by Playwright, the page's files served on 127.0.0.1.

No browser is downloaded (never `playwright install`): Playwright launches /usr/bin/chromium (`make test`
installs it, `make web-deps`). The page's WebSocket is answered by the test itself (`FakeServer`, through
Playwright's ``page.route_web_socket``), so a test sends the exact scenes it wants and reads every frame the
page sends. The static files are served by a small ``http.server`` thread until the gateway (web/gateway.py)
serves them; only the WebSocket is routed, every other request is real HTTP over loopback.
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


@pytest.fixture
def open_page(browser: Any, static_site: StaticServer) -> Iterator[Callable[..., WebPage]]:
    """Open the page at a named size ("phone", "landscape", "desktop"); it has said hello when returned.

    ``server`` makes what answers the page's WebSocket (given the page): ``FakeServer`` by default.
    """
    contexts: list[Any] = []

    def open_at(size: str = "phone", storage: dict[str, str] | None = None, clock_at: float | None = None,
                server: Callable[[Any], FakeServer] = FakeServer) -> WebPage:
        width, height = VIEWPORTS[size]
        phone = size in PHONES
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                      is_mobile=phone, has_touch=phone, reduced_motion="reduce")
        contexts.append(context)
        if storage:
            # What an earlier visit left in localStorage (a name, a key, a seat token).
            context.add_init_script(
                f"for (const [k, v] of Object.entries({json.dumps(storage)}))"
                " if (localStorage.getItem(k) === null) localStorage.setItem(k, v);")
        page = context.new_page()
        page.set_default_timeout(WAIT * 1000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(f"error: {error}"))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
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
