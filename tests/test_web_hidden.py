"""No hidden card reaches a seated web page: real pages on a real server with the web table on.

Four pages (the `websockets` client speaking the page's JSON, as web/static/app.js does: hello, presses of
the scene's controls) sit at one table and play a whole game from their scenes alone. The test plays in
lock step: one press, then every page reads until all are quiet, then the server's game is looked at (the
cards in every hand and in the stock). A card that was in another seat's hand or in the stock both before
and after that step cannot be known to a page then: it must appear in no frame the page received during
the step (scenes and notices), except in the lines that tell a card played face up, which may name a card
that the stock, rebuilt from the pile, has taken back since (tests/test_web_ninety.py reads scenes so too).
Every loop is bounded in count and time; everything talks to 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from board99.ninety_nine.cards import words
from board99.server.loop import ServerThread, run_in_thread
from board99.web.seat import patched
from tests.test_web_ninety import MOST_STEPS, page_move
from tests.web_seat_kit import Page as InProcessPage

pytestmark = pytest.mark.slow

#: A step is over when no page has heard anything for this long (and the page that pressed heard back).
QUIET = 0.025
NO_ANSWER = 0.5  # seconds of quiet after which a press is taken to have changed nothing
STEP_MOST = 8.0  # seconds a step may take
#: The words of a line that tells a card played, turned up or discarded face up, or the guest's own draw.
PUBLIC = (" played the ", " turned up the ", "You drew the ", "You played the ", " discarded card ")


class WsPage:
    """A browser page over a real WebSocket: what it was sent, in order; presses go through the table's step."""

    part = InProcessPage.part
    parts = InProcessPage.parts
    buttons = InProcessPage.buttons

    def __init__(self, table: Table, ws: ClientConnection, name: str) -> None:
        self.table, self.ws, self.name = table, ws, name
        self.scene: dict = {}
        self.notices: list[dict] = []
        self.fresh: list[str] = []  # frames since the last step's check
        self.seat: int | None = None

    def take(self, text: str) -> None:
        self.fresh.append(text)
        msg = json.loads(text)
        if "scene" in msg:
            self.scene = msg["scene"]
        elif "patch" in msg:
            self.scene = patched(self.scene, msg["patch"])
        elif "notice" in msg:
            self.notices.append(msg["notice"])

    def heard(self) -> list[str]:
        return [n["text"] for n in self.notices]

    def press(self, control: str, **fields: str) -> None:
        self.table.step(self, {"press": control, "fields": fields} if fields else {"press": control})


class Table:
    """Four pages at one table of a real server, and the check of what each received against the game."""

    def __init__(self, handle: ServerThread) -> None:
        self.handle = handle
        self.pages: list[WsPage] = []
        self.table_id: str | None = None
        self.hidden: dict[int, set[str]] = {}
        self.found: list[str] = []
        self.steps = 0
        self.frames = 0
        self.sockets = contextlib.ExitStack()
        self.heard: queue.Queue[tuple[WsPage, str]] = queue.Queue()  # every page's frames, as they come

    def open(self, name: str) -> WsPage:
        port = self.handle.server.web_port
        ws = self.sockets.enter_context(connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}",
                                                open_timeout=5, close_timeout=2))
        page = WsPage(self, ws, name)
        self.pages.append(page)
        threading.Thread(target=self.read, args=(page,), daemon=True).start()
        self.until(lambda: page.scene.get("screen") == "welcome")  # the server's first word, as a browser sees
        self.step(page, {"hello": {"name": name, "key": None, "seat": None}})
        self.until(lambda: page.scene.get("screen") == "lobby")
        return page

    def until(self, done: Callable[[], bool]) -> None:
        """Read every page's frames until ``done()`` (a slow machine may answer after a step's quiet)."""
        deadline = time.monotonic() + STEP_MOST
        while not done():
            remaining = deadline - time.monotonic()
            assert remaining > 0, [p.scene.get("screen") for p in self.pages]
            with contextlib.suppress(queue.Empty):
                page, text = self.heard.get(timeout=min(remaining, 0.1))
                page.take(text)
        self.check()

    def read(self, page: WsPage) -> None:
        """A page reads all the time, as a browser does (until its socket closes)."""
        with contextlib.suppress(ConnectionClosed):
            for text in page.ws:
                self.heard.put((page, str(text)))

    def close(self) -> None:
        self.sockets.close()

    def step(self, actor: WsPage, frame: dict) -> None:
        """``actor`` sends ``frame``; every page reads until all are quiet; what came is checked."""
        self.steps += 1
        assert self.steps < 4 * MOST_STEPS, "too many steps"
        before = len(actor.fresh)
        actor.ws.send(json.dumps(frame))
        deadline = time.monotonic() + STEP_MOST
        while time.monotonic() < deadline:
            try:
                page, text = self.heard.get(timeout=QUIET if len(actor.fresh) > before else NO_ANSWER)
            except queue.Empty:
                break  # quiet (a press that changes nothing, a refresh of the same tables, is answered with nothing)
            page.take(text)
        else:
            raise AssertionError(f"the pages were never quiet after {frame} from {actor.name}")
        self.check()

    def game(self) -> Any:
        if self.table_id is None:
            return None
        table = self.handle.server.lobby.tables.get(self.table_id)
        return None if table is None or table.state == "waiting" else table.game

    def check(self) -> None:
        """Every page's frames of this step against the cards hidden from its seat before and after it."""
        game = self.game()
        now = {} if game is None else {s: hidden_from(game, s) for s in range(game.players)}
        for page in self.pages:
            if page.seat is not None and page.seat in now:
                hidden = now[page.seat] & self.hidden.get(page.seat, now[page.seat])
                for text in page.fresh:
                    self.frames += 1
                    self.found += [f"{page.name} (S{page.seat}): {leak}" for leak in shown(text, hidden)]
            page.fresh.clear()
        self.hidden = now


def hidden_from(game: Any, seat: int) -> set[str]:
    """The cards ``seat`` may not know now: every other seat's hand and the stock (names as the scenes spell them).

    The stock is the engine's own (``_stock``, ``_deck``): no view holds it, which is the point."""
    others = {c for s in range(game.players) if s != seat for c in game.hand(seat=s)}
    stock = getattr(game, "_stock", None)
    if stock is None:  # the peg-board game: numbered cards, its deck
        return {str(c) for c in others | set(game._deck)}
    return {str(c) for c in others | set(stock)} - set(game.hand(seat))  # two decks: a pair may be split


def shown(text: str, hidden: set[str]) -> list[str]:
    """Where one frame names a card of ``hidden``."""
    msg = json.loads(text)
    found = []
    if "scene" in msg or "patch" in msg:
        scene = msg.get("scene") or msg["patch"]
        for p in scene.get("parts", ()):
            if isinstance(p, dict) and p.get("type") == "cards":  # a patch names an unchanged part by its id
                for item in p["items"]:
                    code = item["id"].removeprefix("card-").split("-")[0]  # "8S", "8S-2"; a peg card: its index
                    face = item["label"] if code.isdigit() else code
                    if face in hidden:
                        found.append(f"card {face} in the {p['id']} part")
        rest = json.dumps({**scene, "keys": [], "parts": [_without_public(p) for p in scene.get("parts", ())
                                                          if isinstance(p, dict)]})
    elif "notice" in msg:
        words_ = msg["notice"]["text"]
        rest = "" if any(w in words_ for w in PUBLIC) else words_
    else:
        return found
    for m in re.finditer(r"\bcard (\d+)\b", rest, re.I):  # a peg card is a number: named as "card 71"
        if m[1] in hidden:
            found.append(f"card {m[1]} named: {rest[max(0, m.start() - 60):m.end()]}")
    for card in (c for c in hidden if not c.isdigit()):
        if f'"{card}"' in rest or f"card-{card}" in rest or words(card) in rest:
            found.append(f"card {card} ({words(card)}) named")
    return found


def _without_public(p: dict) -> dict:
    if p.get("type") == "list":
        return {**p, "items": [i for i in p["items"] if not (isinstance(i, str) and any(w in i for w in PUBLIC))]}
    if p.get("id") in ("last", "keys") or p.get("type") == "cards":
        return {}  # the last card played (face up), the keys ("Pick card 1"); cards parts are checked item by item
    if p.get("type") == "text" and any(w in str(p.get("text")) for w in PUBLIC):
        return {}  # a status line telling the card on the pile ("pile 7: Hal played the 6 of hearts")
    return p


@pytest.fixture
def handle(tmp_path: Path) -> Iterator[ServerThread]:
    h = run_in_thread(data_dir=tmp_path / "data", web_port=0, lost_after=30.0)
    yield h
    h.stop()


def seat_four(handle: ServerThread, game: str, **fields: str) -> tuple[Table, list[WsPage]]:
    """Four pages: the first makes a table of ``game`` from the lobby's form; each sits at its own seat."""
    t = Table(handle)
    pages = [t.open(name) for name in ("Ann", "Bo", "Cy", "Di")]
    ann = pages[0]
    chosen = ann.buttons().get(f"game-{game}")
    if chosen is not None and not chosen["primary"]:  # the form's game already: pressing it changes nothing
        ann.press(f"game-{game}")
    ann.press("create", name="Hidden", players="4", **fields)
    (t.table_id,) = handle.server.lobby.tables
    for seat, page in enumerate(pages):
        sit = f"sit-{t.table_id}-{seat}"
        page.press("refresh")
        t.until(lambda p=page, s=sit: s in p.buttons())  # type: ignore[misc]
        page.press(sit)
        t.until(lambda p=page: p.scene["screen"] == "table")  # type: ignore[misc]
        page.seat = seat
    return t, pages


def ninety_move(page: WsPage, rng: random.Random) -> bool:
    """tests/test_web_ninety.py's move from the scene; False also while the turn's cards are not yet pressable."""
    hand = page.part("hand")
    if page.part("choice") is None and page.scene.get("turn") and not (hand and any(c["enabled"] for c in hand["items"])):
        actions = page.part("actions")
        if not (actions and any(b["id"] == "draw" and b["enabled"] for b in actions["items"])):
            return False
    return page_move(page, rng)


def play(t: Table, pages: list[WsPage], move: Callable[[WsPage], bool], over: Callable[[WsPage], bool]) -> None:
    for _ in range(MOST_STEPS):
        if all(over(p) for p in pages):
            return
        if not any(move(p) for p in pages if not over(p)):
            t.step(pages[0], {"press": "no-such-control"})  # nobody to move yet: listen a step
    raise AssertionError(f"the game did not end: {[(p.scene.get('headline'), sorted(p.buttons())) for p in pages]}")


@pytest.mark.parametrize(("mode", "rules"), [("guarded", "glengariff"), ("penalty", "tokens")])
def test_no_seated_page_of_a_ninety_nine_game_sees_another_hand_or_the_stock(handle, mode, rules) -> None:
    t, pages = seat_four(handle, "ninety-nine", mode=mode, **{"option-rules": rules})
    try:
        rng = random.Random(f"{mode}-{rules}")
        play(t, pages, lambda p: ninety_move(p, rng), lambda p: p.part("result") is not None)
        # The pages read the whole game: a game's length is the deal's (80-110 frames most often, 39 seen once).
        assert t.frames > 20, t.frames
        assert not t.found, t.found[:5]
    finally:
        t.close()


def test_no_seated_page_of_a_peg_board_game_sees_another_hand_or_the_deck(handle) -> None:
    t, pages = seat_four(handle, "peg-board", mode="guarded")

    def move(page: WsPage) -> bool:
        """tests/test_web_seat.py's turn, from the scene alone: a card with a lit square there, else draw, else discard."""
        if not page.scene.get("turn"):
            return False
        if "cancel" in page.buttons():
            page.press("cancel")  # a card still picked from before: start from none
        hand = page.part("hand")
        for card in hand["items"] if hand else []:
            page.press(card["id"])  # pick it: the squares it may go to light up
            board = page.part("board")
            lit = [cell for cell in board["cells"] if cell["lit"]] if board else []
            if lit:
                page.press(lit[0]["id"])
                return True
            now = page.part("hand")
            if not page.scene.get("turn") or now is None or card["id"] not in {c["id"] for c in now["items"]}:
                return True  # the scene moved on meanwhile
            page.press(card["id"])  # put it back
        draw = page.buttons().get("draw")
        if draw is not None and draw["enabled"]:
            page.press("draw")
        elif page.part("hand") and page.part("hand")["items"]:
            page.press(page.part("hand")["items"][0]["id"])
            if "discard" in page.buttons():
                page.press("discard")
        return True

    try:
        play(t, pages, move, lambda p: p.part("game-over") is not None or "rematch" in p.buttons())
        assert t.frames > 100, t.frames
        assert not t.found, t.found[:5]
    finally:
        t.close()


def test_the_check_finds_a_card_of_another_hand_in_a_scene() -> None:
    # The check itself: another hand's card in a hand part, in words, or as a peg card's number, is found.
    scene = {"scene": {"parts": [{"type": "cards", "id": "hand", "items": [
        {"id": "card-8S", "label": "8", "suit": "spades"}]}, {"type": "list", "id": "log", "items": [
            "Bo holds the queen of hearts", "Cy played the king of clubs (+0): total 40"]}]}}
    assert sorted(shown(json.dumps(scene), {"8S", "QH", "KC"})) == ["card 8S in the hand part",
                                                                   "card QH (queen of hearts) named"]
    peg = {"notice": {"text": "Penalty: Bo drew out of turn (card 71)", "tone": "bad"}}
    assert [leak.split(":")[0] for leak in shown(json.dumps(peg), {"71"})] == ["card 71 named"]
