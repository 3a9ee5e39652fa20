"""The page restates no rule (issue 22): legality, totals and squares come from the server, never from app.js.

Each check names the shape a restated rule would have to take, so a rule copied into the page trips it:
- the number 99 (the board's top square, the highest card, the total's ceiling) is in every rule of both
  games: a page that checked a card against a square or a total against its limit would hold it;
- card ranks (ace, king, queen, jack, joker; "A", "K", "Q", "J" as strings): a table of card values must name
  them, while the page draws a card's face and suit as the strings the server sends;
- board maths: the spiral layout (rows such as 70, 71, 72 ...), a run of five, or a row/column worked out with
  a literal 10 (``% 10``, ``/ 10``): the page lays the grid out by the scene's own ``cols``;
- arithmetic on what the server counted (the total's value, a card's face): the page only prints them.
And, in the browser, the page follows the server's word even where the word breaks the rules: a square the
server enables is pressed though no rule would allow it, a total the server sends is drawn as sent.
"""
# ruff: noqa: F811 (pytest fixtures arrive as arguments named as the imported fixtures)

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import web_scenes
from tests.browser_kit import STATIC, browser, open_page, static_site, until  # noqa: F401 (fixtures)

SCRIPTS = sorted(STATIC.glob("*.js"))


def code(path: Path) -> str:
    """A script without its comments (a comment may say "99" to explain; code may not use it)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    return re.sub(r"(?m)(^|[^:\"'`])//.*$", r"\1", text)


def test_the_page_has_scripts_to_check():
    assert [p.name for p in SCRIPTS] == ["app.js"]
    assert all(p.suffix in {".html", ".js", ".css"} for p in STATIC.iterdir()), "no build output, no bundles"


def test_no_number_99():
    for path in SCRIPTS:
        assert not re.search(r"(?<![\w.])99(?![\w])", code(path)), f"{path.name} holds the number 99"


def test_no_card_ranks():
    for path in SCRIPTS:
        text = code(path)
        # A rank word as a word or an identifier's part (kingValue, ACE_HIGH), not inside "place" or "replace".
        words = r"(?<![A-Za-z])(?:[Aa]ce|[Kk]ing|[Qq]ueen|[Jj]ack|[Jj]oker)(?![a-z])|(?:ACE|KING|QUEEN|JACK|JOKER)(?![A-Z])"
        assert not re.search(words, text), f"{path.name} names a card rank"
        assert not re.search(r"""["'`](A|K|Q|J|10)["'`]""", text), f"{path.name} names a rank as a string"


def test_no_board_maths():
    for path in SCRIPTS:
        text = code(path)
        assert not re.search(r"[%*/]\s*10\b", text), f"{path.name} works out rows or columns with 10"
        assert not re.search(r"\b(70\s*,\s*71|69\s*,\s*56|0\s*,\s*1\s*,\s*4)\b", text), "the spiral layout"
        numbers = re.findall(r"\[\s*(?:\d+\s*,\s*){4,}\d+\s*\]", text)
        assert not numbers, f"{path.name} holds a table of numbers: {numbers}"
        assert not re.search(r"\b(five|RUN)\b", text), f"{path.name} speaks of a run of five"


def test_no_arithmetic_on_what_the_server_counted():
    for path in SCRIPTS:
        text = code(path)
        for field in ("value", "face", "label"):
            assert not re.search(rf"\.{field}\s*[-+*/<>]=?\s*[\w(]", text), f"{path.name} computes with .{field}"
        assert not re.search(r"parseInt|Number\(\s*(?:item|part|cell)\.(?:face|label|value)", text), path.name


@pytest.mark.slow
def test_the_page_follows_the_servers_word_even_against_the_rules(open_page):
    web = open_page("phone")
    page = web.page
    scene = web_scenes.peg_table()
    grid = next(p for p in scene["parts"] if p["type"] == "grid")
    for cell in grid["cells"]:
        if cell["id"] == "sq:12":  # below card 44: no rule allows it, but the server says it may be pressed
            cell.update(lit=True, enabled=True, why=None)
        if cell["id"] == "sq:45":  # allowed by card 44, but the server says no
            cell.update(lit=False, enabled=False, why="The server says no")
    web.show(scene)
    page.get_by_role("button", name="Square 12, free").click()
    assert web.server.wait_frame("press") == {"press": "sq:12", "fields": {}}
    page.get_by_role("button", name="Square 45, free").click(force=True)
    until(page, "() => document.getElementById('live').textContent === 'The server says no'")
    assert len(web.server.frames("press")) == 1
    ninety = web_scenes.ninety_table()
    for part in ninety["parts"]:
        if part["type"] == "total":
            part["value"] = 250  # no rule set reaches it; the page prints what it is given
    web.show(ninety)
    assert page.locator(".total-value").inner_text() == "250"
