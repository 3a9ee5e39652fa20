"""The web page in a real browser (Debian's Chromium): every part drawn, presses sent, phones, keyboard, names.

The scenes are fed by the test through the page's own WebSocket (tests/browser_kit.py), so each test says
exactly what the server would send and reads exactly what the page sends back.
"""
# ruff: noqa: F811 (pytest fixtures arrive as arguments named as the imported fixtures)

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from tests import web_scenes
from tests.browser_kit import PHONES, VIEWPORTS, WebPage, browser, open_page, static_site, until  # noqa: F401 (fixtures)
from tests.gui_harness import MAX_DIFFERENT, compare_golden

#: Each test opens a real browser page: seconds, not milliseconds (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

SIZES = list(VIEWPORTS)
SCENES = {"lobby": web_scenes.lobby, "peg": web_scenes.peg_table, "ninety": web_scenes.ninety_table,
          "end": web_scenes.game_over}
T0 = 1_800_000_000_000  # the fixed instant (ms) the clock tests and goldens start from


def boxes(web: WebPage, selector: str) -> list[dict]:
    """Each visible element's name (aria-label or text) and size in CSS pixels."""
    return web.page.eval_on_selector_all(selector, """nodes => nodes
        .filter(n => n.offsetParent !== null || getComputedStyle(n).position === 'fixed')
        .map(n => { const r = n.getBoundingClientRect();
                    return {name: n.getAttribute('aria-label') || n.textContent.trim(),
                            cls: n.className, width: r.width, height: r.height, right: r.right}; })""")


def presses(web: WebPage) -> list[dict]:
    """The press frames the page has sent so far."""
    return web.server.frames("press")


# ---- the hello, the kept seat, reconnecting ----


def test_first_hello_sends_a_new_player_key_kept_in_the_browser(open_page):
    web = open_page("phone")
    hello = web.server.frames("hello")[0]["hello"]
    assert hello["name"] == "" and hello["seat"] is None
    assert re.fullmatch(r"[0-9a-f]{64}", hello["key"])
    assert web.page.evaluate("localStorage.getItem('board99.key')") == hello["key"]


def test_keep_is_stored_and_a_reconnect_sends_the_kept_seat_token(open_page):
    web = open_page("phone")
    key = "ab" * 32
    seat = {"table": "t1", "seat": 2, "token": "s3cr3t-token"}
    web.server.send({"keep": {"key": key, "name": "Zoe", "seat": seat}})
    web.show(web_scenes.peg_table())
    web.server.drop()
    until(web.page, "() => document.getElementById('net').textContent.includes('Connection lost')")
    again = web.server.wait_frame("hello", 2)["hello"]
    assert again == {"name": "Zoe", "key": key, "seat": seat}
    assert web.server.received[-1][0] == 1, "the second hello came on a new connection"
    assert web.page.locator("#net").is_hidden(), "the lost-connection line goes when the socket is back"


def test_a_page_opened_again_comes_back_to_its_seat(open_page):
    seat = {"table": "t9", "seat": 0, "token": "tok"}
    web = open_page("landscape", storage={"board99.name": "Ann", "board99.key": "cd" * 32,
                                          "board99.seat": json.dumps(seat)})
    assert web.server.frames("hello")[0]["hello"] == {"name": "Ann", "key": "cd" * 32, "seat": seat}


def test_retries_back_off_and_the_network_coming_back_reconnects_at_once(open_page):
    web = open_page("phone", clock_at=T0)  # the page's timers run only when the test says
    page, server = web.page, web.server
    server.refuse = 2  # the server is down for two tries
    server.drop()
    page.clock.run_for(600)  # the first wait: 0.5 s (give or take a fifth)
    server.wait_for(lambda: len(server.connections) == 2, "retry after the first wait")
    page.clock.run_for(1200)  # the second: 1 s
    server.wait_for(lambda: len(server.connections) == 3, "retry after the second wait")
    assert re.search(r"trying again in [23] s", page.locator("#net").inner_text())  # 2 s, give or take a fifth
    page.wait_for_timeout(300)
    assert len(server.connections) == 3, "the third wait (2 s) has not passed on the page's clock"
    page.evaluate("() => window.dispatchEvent(new Event('online'))")  # the network is back: no waiting
    assert server.wait_frame("hello", 2) and len(server.connections) == 4


def test_a_phone_that_slept_reconnects_on_waking(open_page):
    web = open_page("phone", clock_at=T0)
    page = web.page
    hide = "h => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => h});" \
           " document.dispatchEvent(new Event('visibilitychange')); }"
    page.evaluate(hide, True)
    page.clock.run_for(5000)
    page.evaluate(hide, False)
    page.wait_for_timeout(300)
    assert len(web.server.frames("hello")) == 1, "a short look away keeps the socket"
    page.evaluate(hide, True)
    page.clock.run_for(30000)  # asleep long enough that the socket may be dead without the page knowing
    page.evaluate(hide, False)
    web.server.wait_frame("hello", 2)
    assert len(web.server.connections) == 2


def test_a_connection_sent_away_on_purpose_waits_for_the_guest(open_page):
    web = open_page("phone", clock_at=T0)
    page = web.page
    web.server.drop(code=4001, reason="This seat is now open in another tab")
    until(page, "() => document.getElementById('net').textContent.includes('another tab')")
    page.clock.run_for(30000)  # past every backoff step: no retry fights the other tab
    page.wait_for_timeout(200)
    assert len(web.server.connections) == 1
    page.get_by_role("button", name="Reconnect").click()
    web.server.wait_frame("hello", 2)


def test_a_seat_let_go_is_forgotten(open_page):
    web = open_page("phone", storage={"board99.seat": json.dumps({"table": "t", "seat": 1, "token": "x"})})
    web.server.send({"keep": {"key": None, "name": "Ann", "seat": None}})
    until(web.page, "() => localStorage.getItem('board99.seat') === null")
    assert re.fullmatch(r"[0-9a-f]{64}", web.page.evaluate("localStorage.getItem('board99.key')")), \
        "a keep without a key leaves the player key alone"


def test_the_welcome_asks_for_a_name_with_the_keyboard_ready(open_page):
    web = open_page("phone")
    web.show(web_scenes.welcome())
    page = web.page
    assert page.evaluate("document.activeElement.name") == "name", "the name field has the focus"
    assert page.get_by_role("textbox", name="Name").get_attribute("maxlength") == "40"
    page.keyboard.type("Zoe")
    page.keyboard.press("Enter")
    assert web.server.wait_frame("press") == {"press": "enter", "fields": {"name": "Zoe"}}


# ---- every part type, at every size ----


def test_every_part_type_is_drawn(open_page):
    web = open_page("desktop")
    page = web.page
    web.show(web_scenes.lobby())
    assert page.locator(".table-card").count() == 4
    assert page.locator("form select").count() == 2 and page.locator("form input[type=text]").count() == 1
    assert page.get_by_role("button", name="Sit at Pub rules").is_visible()
    assert page.locator("p.text").first.inner_text() == "Hello, Zoe. 5 players here."
    web.show(web_scenes.peg_table())
    assert page.locator(".board .square").count() == 100
    assert page.locator(".square.lit").count() == sum(1 for c in _cells() if c["lit"])
    assert page.locator(".square.last").count() == 1
    assert page.locator(".square .peg").count() == len(web_scenes.GREEN | web_scenes.PURPLE)
    assert page.locator(".hand .card").count() == 3
    assert page.locator(".seats .seat").count() == 4 and page.locator(".seat.turn").count() == 1
    assert page.locator(".lines li").count() == 4
    assert page.locator(".clock .clock-face").inner_text() in ("0:27", "0:26")
    assert page.locator("[role=status].text").inner_text().startswith("Card 44 picked")
    web.show(web_scenes.ninety_table())
    assert page.locator(".total-value").inner_text() == "92"
    assert page.get_by_role("group", name="Total 92").is_visible()
    assert page.locator(".card.playing.red").count() == 2
    web.show(web_scenes.game_over())
    dialog = page.get_by_role("dialog", name="Green wins!")
    assert dialog.is_visible() and "Green 1 · Purple 0" in dialog.inner_text()
    assert page.evaluate("document.getElementById('main').inert"), "the table behind a dialog takes no input"


def _cells() -> list[dict]:
    return next(p for p in web_scenes.peg_table()["parts"] if p["type"] == "grid")["cells"]


@pytest.mark.parametrize("size", SIZES)
def test_no_horizontal_scroll_and_touch_targets(open_page, size):
    web = open_page(size)
    width = VIEWPORTS[size][0]
    for which, scene in SCENES.items():
        web.show(scene())
        assert web.no_horizontal_scroll(), f"{which} at {size} scrolls sideways"
        controls = boxes(web, "button, select, input")
        assert len(controls) >= 4
        for box in controls:
            assert box["right"] <= width + 0.5, f"{which}: {box['name']} sticks out at {size}"
            if size not in PHONES:
                continue
            if "square" in box["cls"] and size == "phone":
                # Ten squares across 375 px cannot be 44 px each: the board fits the width (docs/web.md).
                assert box["width"] >= 35 and box["height"] >= 35, box
                continue
            assert box["width"] >= 44 and box["height"] >= 44, \
                f"{which}: {box['name']} is {box['width']}x{box['height']} at {size}"


@pytest.mark.parametrize("size", PHONES)
def test_the_board_fits_the_phone_width(open_page, size):
    web = open_page(size)
    web.show(web_scenes.peg_table())
    board = web.page.locator(".board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= VIEWPORTS[size][0]
    assert board["width"] >= min(VIEWPORTS[size][0] - 16, 440)


def test_desktop_puts_side_parts_in_a_side_column(open_page):
    web = open_page("desktop")
    web.show(web_scenes.peg_table())
    page = web.page
    assert page.locator("#col-side .seats").is_visible() and page.locator("#col-side .lines").is_visible()
    assert page.locator("#col-main .board").is_visible() and page.locator("#col-main .hand").is_visible()
    side = page.locator("#col-side").bounding_box()
    main = page.locator("#col-main").bounding_box()
    assert side["x"] >= main["x"] + main["width"]
    assert page.locator(".board").bounding_box()["y"] + 100 < 800, "the board starts in the first screen"
    assert page.locator(".hand").bounding_box()["y"] + page.locator(".hand").bounding_box()["height"] <= 800, \
        "board and hand fit a 1280x800 window"


def test_phones_draw_one_column_in_the_scenes_order(open_page):
    web = open_page("phone")
    web.show(web_scenes.peg_table())
    page = web.page
    assert page.locator("#col-side").inner_html() == ""
    order = page.eval_on_selector_all("#col-main > [data-part]", "ns => ns.map(n => n.dataset.part)")
    assert order == [p["id"] for p in web_scenes.peg_table()["parts"]]


# ---- presses ----


def test_presses_send_the_controls_ids(open_page):
    web = open_page("phone")
    page = web.page
    web.show(web_scenes.peg_table())
    page.get_by_role("button", name="Square 45, free").click()
    page.get_by_role("button", name="Card 91").click()
    page.get_by_role("button", name="Draw a card").click()
    web.server.wait_frame("press", 3)
    assert presses(web) == [{"press": "sq:45", "fields": {}}, {"press": "card:0", "fields": {}},
                            {"press": "draw", "fields": {}}]


def test_the_form_sends_its_fields_and_keeps_what_was_typed_across_redraws(open_page):
    web = open_page("desktop")
    page = web.page
    web.show(web_scenes.lobby())
    page.get_by_label("Game").select_option("peg-board")
    page.get_by_label("Table name").fill("Late night")
    web.show(web_scenes.variant(web_scenes.lobby(), title="Lobby (6 here) · board99"))  # a redraw
    assert page.get_by_label("Table name").input_value() == "Late night"
    assert page.get_by_label("Table name").evaluate("n => n === document.activeElement"), "focus stays"
    page.get_by_role("button", name="Create table").click()
    assert web.server.wait_frame("press") == {
        "press": "create", "fields": {"game": "peg-board", "players": "4", "name": "Late night"}}
    page.get_by_role("button", name="Sit at Friday four").click()
    assert web.server.wait_frame("press", 2) == {"press": "sit:t1", "fields": {}}


def test_a_disabled_control_says_why_and_sends_nothing(open_page):
    web = open_page("phone")
    page = web.page
    web.show(web_scenes.peg_table())
    square = page.get_by_role("button", name="Square 12, free")
    assert square.get_attribute("aria-disabled") == "true"
    square.click(force=True)  # Playwright waits for aria-disabled controls to enable; a guest just taps
    until(page, "() => document.getElementById('live').textContent.includes('allows squares 44')")
    assert page.locator(".toast").last.inner_text() == "Card 44 allows squares 44 to 99"
    rematch = page.get_by_role("button", name="Rematch")
    rematch.focus()
    assert page.locator("#why").inner_text() == "The game is still on"
    assert rematch.evaluate("n => document.getElementById(n.getAttribute('aria-describedby')).textContent") \
        == "The game is still on"
    rematch.click(force=True)
    page.wait_for_timeout(100)
    assert presses(web) == []
    page.get_by_role("button", name="Draw a card").focus()
    assert page.locator("#why").is_hidden(), "an enabled control has no reason to show"


def test_a_dialog_takes_the_focus_and_its_buttons_press(open_page):
    web = open_page("phone")
    web.show(web_scenes.game_over())
    page = web.page
    assert page.evaluate("document.activeElement.textContent") == "Rematch"
    page.keyboard.press("Enter")
    assert web.server.wait_frame("press") == {"press": "rematch", "fields": {}}


# ---- keyboard ----


def test_arrow_keys_move_on_the_board_and_enter_presses(open_page):
    web = open_page("desktop")
    page = web.page
    web.show(web_scenes.peg_table())
    page.get_by_role("button", name="Draw a card").focus()
    page.keyboard.press("Shift+Tab")  # back past the hand's cards onto the board's one tab stop
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
    focused = lambda: page.evaluate("document.activeElement.dataset.id")  # noqa: E731
    assert focused() == "sq:71", "the board's tab stop is its first lit square"
    page.keyboard.press("ArrowRight")
    assert focused() == "sq:72"
    page.keyboard.press("ArrowDown")
    assert focused() == "sq:57"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert focused() == "sq:69", "left stops at the row's first square"
    page.keyboard.press("End")
    assert focused() == "sq:80"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert focused() == "sq:79", "up stops at the top row"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Home")
    assert focused() == "sq:68"
    page.keyboard.press("Enter")
    assert web.server.wait_frame("press") == {"press": "sq:68", "fields": {}}
    web.show(web_scenes.variant(web_scenes.peg_table(), title="Redrawn · board99"))
    assert focused() == "sq:68", "a redraw keeps the focused square"
    assert [b for b in boxes(web, ".square") if b["name"].startswith("Square 68")]
    assert page.evaluate("[...document.querySelectorAll('.square')].filter(s => s.tabIndex === 0).length") == 1


def test_the_scenes_keys_pass_through_but_not_from_a_text_field(open_page):
    web = open_page("desktop")
    page = web.page
    web.show(web_scenes.peg_table())
    page.locator("body").press("d")
    page.keyboard.press("Shift+D")  # either case
    page.keyboard.press("Escape")  # the scene spells it "escape": sent as the scene spells it
    page.keyboard.press("q")  # not a key of this scene
    web.server.wait_frame("key", 3)
    assert web.server.frames("key") == [{"key": "d"}, {"key": "d"}, {"key": "escape"}]
    assert page.locator(".keys kbd").all_inner_texts() == ["D", "X", "Esc"]
    web.show(web_scenes.lobby())
    page.get_by_label("Table name").fill("")
    page.get_by_label("Table name").press("n")
    page.wait_for_timeout(100)
    assert len(web.server.frames("key")) == 3


# ---- names for a screen reader ----


def test_controls_have_accessible_names(open_page):
    web = open_page("phone")
    page = web.page
    web.show(web_scenes.peg_table())
    assert page.get_by_role("group", name="Board").get_by_role("button").count() == 100
    assert page.get_by_role("button", name="Square 64, green peg, last move").is_visible()
    assert page.get_by_role("button", name="Card 44, picked").get_attribute("aria-pressed") == "true"
    assert page.get_by_role("button", name="Card 44, picked").evaluate("n => n.tagName") == "BUTTON"
    web.show(web_scenes.ninety_table())
    assert page.get_by_role("button", name="A of hearts: +1 or +11").is_visible()
    assert page.get_by_role("button", name=re.compile("8 of diamonds")).get_attribute("aria-disabled") == "true"
    assert page.get_by_role("timer", name="No turn clock").is_visible()
    snapshot = page.locator("#col-main").aria_snapshot()
    assert 'button "10 of spades: +10 or −10"' in snapshot


# ---- the turn: title, mark, sound; notices; the clock; colours ----


def test_turn_sets_the_title_the_mark_and_chimes_after_a_first_tap(open_page):
    web = open_page("phone")
    page = web.page
    web.show(web_scenes.peg_table(turn=False))
    assert page.title() == "Friday four · board99" and page.locator("#turnmark").is_hidden()
    web.show(web_scenes.peg_table(turn=True))
    assert page.title() == "Your turn · board99" and page.locator("#turnmark").is_visible()
    assert page.evaluate("window.__board99Chimes || 0") == 0, "no sound before the guest has tapped"
    page.locator("#brand").click()  # the first tap allows sound
    web.show(web_scenes.peg_table(turn=False))
    web.show(web_scenes.peg_table(turn=True))
    assert page.evaluate("window.__board99Chimes") == 1
    assert page.locator("body.turn .headline").evaluate("n => getComputedStyle(n).backgroundColor") \
        == "rgb(255, 200, 60)"


def test_notices_are_announced_and_shown(open_page):
    web = open_page("phone")
    page = web.page
    web.show(web_scenes.peg_table())
    web.server.send({"notice": {"text": "Warning: drawing with five cards is an offence", "tone": "warn"}})
    until(page, "() => document.getElementById('live').textContent.startsWith('Warning: drawing')")
    assert page.locator("#live").get_attribute("aria-live") == "polite"
    toast = page.locator(".toast.tone-warn")
    assert toast.inner_text() == "Warning: drawing with five cards is an offence" and toast.is_visible()


def test_the_clock_counts_down(open_page):
    web = open_page("desktop", clock_at=T0)
    web.show(web_scenes.peg_table())
    page = web.page
    assert page.locator(".clock-face").inner_text() == "0:27"
    page.clock.run_for(5000)
    assert page.locator(".clock-face").inner_text() == "0:22"
    page.clock.run_for(20000)
    assert page.locator(".clock.low .clock-face").inner_text() == "0:02"


def test_colours_come_from_the_scene(open_page):
    web = open_page("desktop")
    scene = web_scenes.peg_table()
    scene["colours"] = dict(scene["colours"], green="#00ff00")
    web.show(scene)
    peg = web.page.locator(".square .peg-green").first
    assert peg.evaluate("n => getComputedStyle(n).backgroundColor") == "rgb(0, 255, 0)"


CONTRAST = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92
      : ((v + 0.055) / 1.055) ** 2.4; }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const backdrop = n => { for (; n; n = n.parentElement) { const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length === 3 || c[3] > 0.5) return c.slice(0, 3); } return [255, 255, 255]; };
  const bad = [];
  for (const n of document.querySelectorAll('body *')) {
    if (![...n.childNodes].some(c => c.nodeType === 3 && c.textContent.trim())) continue;
    if (n.closest('.sr-only, [aria-disabled=true], .disabled') || !n.getClientRects().length) continue;
    const style = getComputedStyle(n);
    if (style.visibility === 'hidden' || style.opacity === '0') continue;
    const [a, b] = [lum(rgb(style.color).slice(0, 3)), lum(backdrop(n))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && style.fontWeight >= 700);
    // A peg's mark is a shape cue, not words (aria-hidden): WCAG 1.4.11 asks 3:1 of graphics.
    const graphic = n.closest('[aria-hidden=true]') !== null;
    if (ratio < (large || graphic ? 3 : 4.5)) bad.push(`${n.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
  }
  return bad;
}"""


def test_text_contrast_meets_wcag_aa(open_page):
    web = open_page("desktop")
    for which, scene in SCENES.items():
        web.show(scene())
        for tone in ("plain", "good", "warn", "bad"):
            web.server.send({"notice": {"text": f"A {tone} notice", "tone": tone}})
        until(web.page, "() => document.querySelectorAll('.toast').length === 3")
        assert web.page.evaluate(CONTRAST) == [], which
        web.page.evaluate("document.getElementById('toasts').replaceChildren()")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_error_and_nothing_the_gateways_policy_refuses(open_page, size):
    web = open_page(size)
    for scene in SCENES.values():
        web.show(scene())
        web.server.send({"notice": {"text": "A notice", "tone": "warn"}})
    web.page.get_by_role("dialog").get_by_role("button", name="Rematch").click()
    web.server.wait_frame("press")
    assert web.errors == []


def test_the_page_loads_nothing_from_elsewhere(browser, static_site):
    context = browser.new_context()
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.route_web_socket(re.compile(r"/ws$"), lambda ws: None)
    page.goto(static_site.url)
    page.wait_for_load_state("networkidle")
    context.close()
    assert asked and all(url.startswith(static_site.url) or url.startswith("data:") for url in asked), asked


# ---- golden screenshots (BOARD99_UPDATE_GOLDEN=1 remakes them; look at each) ----


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_matches_golden(open_page, size):
    web = open_page(size, clock_at=T0)  # the clock stands still: the turn clock shows 0:27 in every shot
    differ = {}
    for which in ("lobby", "peg", "ninety"):
        web.show(SCENES[which]())
        web.page.evaluate("document.fonts.ready")
        shot = web.page.screenshot(full_page=size in PHONES, animations="disabled", caret="hide")
        differ[which] = compare_golden(Image.open(io.BytesIO(shot)).convert("RGB"), f"web/{which}_{size}.png")
    assert all(share <= MAX_DIFFERENT for share in differ.values()), differ
