"""The web page's palette passes the window's colour-vision checks: every pair a player must tell apart stays apart.

The colours are read from what the browser gets: web/static/app.css (its
variables and rules) and the scenes' ``colours`` (web/seat.py). Each pair is
compared as tests/test_gui_palette.py compares the window's: CIEDE2000 after
colorspacious' simulation of each dichromacy at full severity, with the
window's thresholds (docs/web-page.md, "Colours").
"""

from __future__ import annotations

import re
from itertools import combinations

import pytest

from board99.client.gui.palette import COLOUR_RGB
from board99.web.files import package_static
from board99.web.seat import COLOURS
from tests.test_gui_palette import GROUND_APART, MARKS_APART, SIDES_APART, VISIONS, WORDS, ciede2000, seen

RGB = tuple[int, int, int]
#: Tones (plain, good, warn, bad) always come with their words ("Penalty: …"), so colour is their second cue:
#: the window's "clearly another colour" (a peg against its ground) is asked of them, and of a disabled
#: button against an enabled one (which also says why it is off when pressed).
TONES_APART = GROUND_APART
CONTROLS_APART = GROUND_APART


def _css() -> str:
    text = (package_static() / "app.css").read_text(encoding="utf-8")
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


CSS = _css()
VARIABLES = dict(re.findall(r"--([\w-]+):\s*([^;]+);", re.search(r":root\s*\{(.*?)\}", CSS, re.S).group(1)))


def rule(selector: str, prop: str) -> str:
    """The value of ``prop`` in the rule whose selector list holds exactly ``selector`` (var() resolved)."""
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", CSS):
        if selector in (s.strip() for s in selectors.split(",")):
            found = re.search(rf"(?:^|;)\s*{re.escape(prop)}\s*:\s*([^;]+)", body)
            if found:
                return re.sub(r"var\(--([\w-]+)\)", lambda m: VARIABLES.get(m.group(1), m.group(0)), found.group(1).strip())
    raise AssertionError(f"app.css has no {prop} for {selector}")


def hex_rgb(value: str) -> RGB:
    """The (last) #rrggbb or #rgb colour in a CSS value."""
    found = re.findall(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b", value)
    assert found, f"no colour in {value!r}"
    h = found[-1] if len(found[-1]) == 6 else "".join(c * 2 for c in found[-1])
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def var(name: str) -> RGB:
    return hex_rgb(VARIABLES[name])


def apart(pairs: list[tuple[str, RGB, str, RGB]], vision: str | None, least: float) -> list:
    """The pairs closer than ``least`` under ``vision``: (a, b, difference)."""
    out = []
    for a, rgb_a, b, rgb_b in pairs:
        d = ciede2000(seen(rgb_a, vision), seen(rgb_b, vision))
        if d < least:
            out.append((a, b, round(d, 1)))
    return out


def pegs() -> dict[str, RGB]:
    return {name: hex_rgb(css) for name, css in COLOURS.items()}


def test_the_scenes_colours_are_the_windows_standard_palette_and_the_css_reads_its_parts():
    assert pegs() == COLOUR_RGB
    assert rule(".btn.disabled", "background") == "#424642"  # the parser finds rules as the browser does
    assert var("square") == (0xEC, 0xDC, 0xB4)


@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_peg_colours_stay_apart(vision):
    pairs = [(a, pegs()[a], b, pegs()[b]) for a, b in combinations(pegs(), 2)]
    assert not apart(pairs, vision, SIDES_APART), WORDS[vision]


@pytest.mark.parametrize("vision", VISIONS)
def test_every_peg_stands_out_from_the_square_it_is_on_and_the_seat_chip(vision):
    grounds = {"square": var("square"), "panel (seat chips)": var("panel"), "baize": var("baize")}
    pairs = [(c, rgb, g, ground) for c, rgb in pegs().items() for g, ground in grounds.items()]
    assert not apart(pairs, vision, GROUND_APART), WORDS[vision]


@pytest.mark.parametrize("vision", VISIONS)
def test_the_tones_stay_apart(vision):
    tones = {"plain": var("text"), "good": var("good"), "warn": var("warn"), "bad": var("bad")}
    pairs = [(a, tones[a], b, tones[b]) for a, b in combinations(tones, 2)]
    assert not apart(pairs, vision, TONES_APART), WORDS[vision]


@pytest.mark.parametrize("vision", VISIONS)
def test_the_turn_mark_stands_out_from_the_bar_and_the_seats(vision):
    gold = var("gold")
    assert hex_rgb(rule(".turnmark", "background")) == gold == hex_rgb(rule(".seat.turn", "border-color"))
    assert hex_rgb(rule("body.turn .headline", "background")) == gold
    pairs = [("turn mark", gold, "bar", var("panel")), ("turn mark", gold, "baize", var("baize")),
             ("turn mark", gold, "seat chip", var("panel-line"))]
    assert not apart(pairs, vision, MARKS_APART), WORDS[vision]


@pytest.mark.parametrize("vision", VISIONS)
def test_enabled_and_disabled_buttons_stay_apart(vision):
    enabled, disabled = hex_rgb(rule(".btn", "background")), hex_rgb(rule(".btn.disabled", "background"))
    primary = hex_rgb(rule(".btn.primary", "background"))
    pairs = [("enabled", enabled, "disabled", disabled), ("primary", primary, "disabled", disabled),
             ("primary", primary, "enabled", enabled)]
    assert not apart(pairs, vision, CONTROLS_APART), WORDS[vision]


@pytest.mark.parametrize("vision", VISIONS)
def test_lit_squares_and_the_last_move_mark_stand_out(vision):
    square, lit = var("square"), var("lit")
    frame = hex_rgb(rule(".square.lit", "box-shadow"))  # a lit square's gold inner frame
    edge = hex_rgb(rule(".square", "border"))
    last = var("last")
    assert hex_rgb(rule(".square.last", "outline")) == last
    pairs = [("lit frame", frame, "square", square), ("lit frame", frame, "square edge", edge),
             ("lit frame", frame, "lit square", lit)]
    assert not apart(pairs, vision, GROUND_APART), WORDS[vision]
    card_edge = hex_rgb(rule(".card-face", "border"))
    selected = hex_rgb(rule(".card.selected .card-face", "border-color"))
    pairs = [("selected card's edge", selected, "card's edge", card_edge), ("selected card's edge", selected, "card", var("card"))]
    assert not apart(pairs, vision, GROUND_APART), WORDS[vision]
    marks = [("last-move mark", last, "square", square), ("last-move mark", last, "lit square", lit),
             ("last-move mark", last, "lit frame", frame), ("last-move mark", last, "square edge", edge)]
    assert not apart(marks, vision, MARKS_APART), WORDS[vision]
