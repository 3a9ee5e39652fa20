"""Every palette keeps the sides apart for colour-blind players, and every side's peg has its own shape.

Colour vision deficiencies are simulated with colorspacious (Machado et al. 2009)
at severity 100 (dichromacy: the strongest form), and differences are measured in
CIEDE2000, the CIE's formula for how different two colours look.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from colorspacious import cspace_convert
from PIL import Image, ImageChops, ImageDraw

from board99.client.gui.palette import (
    COLOUR_RGB,
    MARKS,
    PALETTES,
    PANEL_BG,
    REVIEW_MARK_RGB,
    TABLE_BG,
    side_rgb,
)
from board99.client.gui.peg_art import SHAPES, peg_image
from tests.gui_harness import MAX_DIFFERENT, compare_golden

#: Two side colours must differ by at least this much (CIEDE2000) under every simulated vision.
#: A difference near 2 is just noticeable side by side; about 10 reads as "another colour" at a
#: glance; pegs are small and seen far apart on the board, so 15 leaves room for screens and light.
SIDES_APART = 15.0
#: A peg against the ground it stands on (the board's squares, the baize). Pegs also carry a dark
#: outline and a shadow, so colour alone need not do all the work: 10 is "clearly another colour".
GROUND_APART = 10.0
#: The board's square tints (tools/make_assets.py RING_TINTS, edge to centre) and the baize.
GROUNDS = {"edge square": (236, 214, 170), "centre square": (184, 146, 92), "baize": TABLE_BG}
VISIONS = (None, "deuteranomaly", "protanomaly", "tritanomaly")  # colorspacious' names; at 100: -anopia
WORDS = {None: "normal vision", "deuteranomaly": "deuteranopia", "protanomaly": "protanopia",
         "tritanomaly": "tritanopia"}


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> float:
    """CIEDE2000 colour difference of two CIELab colours (Sharma, Wu, Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    dl, dc, dhh = (l2 - l1) / s_l, (c2p - c1p) / s_c, d_big_h / s_h
    return math.sqrt(dl**2 + dc**2 + dhh**2 + r_t * dc * dhh)


def seen(rgb: tuple[int, int, int], vision: str | None) -> np.ndarray:
    """CIELab of ``rgb`` as a person with ``vision`` (None: normal) sees it."""
    x = np.array(rgb, dtype=float) / 255
    if vision is not None:
        x = np.clip(cspace_convert(x, {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}, "sRGB1"), 0, 1)
    return cspace_convert(x, "sRGB1", "CIELab")


def test_ciede2000_matches_sharmas_published_pairs():
    # Pairs 1, 7 and 17 of Sharma, Wu and Dalal's test data, with their published differences.
    assert ciede2000(np.array((50, 2.6772, -79.7751)), np.array((50, 0, -82.7485))) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000(np.array((50, 0, 0)), np.array((50, -1, 2))) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000(np.array((50, 2.5, 0)), np.array((73, 25, -18))) == pytest.approx(27.1492, abs=1e-4)


@pytest.mark.parametrize("palette", sorted(PALETTES))
@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_side_colours_stay_apart(palette, vision):
    colours = PALETTES[palette]
    assert set(colours) == set(COLOUR_RGB), "a palette changes the RGB only; the names stay the wire's"
    too_close = [(a, b, round(ciede2000(seen(colours[a], vision), seen(colours[b], vision)), 1))
                 for a, b in combinations(colours, 2)
                 if ciede2000(seen(colours[a], vision), seen(colours[b], vision)) < SIDES_APART]
    assert not too_close, f"{palette} under {vision or 'normal vision'}: {too_close}"


@pytest.mark.parametrize("palette", sorted(PALETTES))
@pytest.mark.parametrize("vision", VISIONS)
def test_every_peg_colour_stands_out_from_the_board_and_the_baize(palette, vision):
    too_close = [(c, ground, round(d, 1)) for c, rgb in PALETTES[palette].items()
                 for ground, g in GROUNDS.items()
                 if (d := ciede2000(seen(rgb, vision), seen(g, vision))) < GROUND_APART]
    assert not too_close, f"{palette} under {vision or 'normal vision'}: {too_close}"


#: The review's marks (inaccuracy, mistake, blunder) against each other and the panel and baize they are drawn on:
#: they also carry their symbols (?!, ? and ??) and, on the slider, their own heights, so colour is the third cue.
MARKS_APART = 20.0


@pytest.mark.parametrize("vision", VISIONS)
def test_the_reviews_marks_stay_apart_and_stand_out_from_the_panel_and_the_baize(vision):
    assert set(REVIEW_MARK_RGB) == {"inaccuracy", "mistake", "blunder"}
    pairs = [(a, b, ciede2000(seen(REVIEW_MARK_RGB[a], vision), seen(REVIEW_MARK_RGB[b], vision)))
             for a, b in combinations(REVIEW_MARK_RGB, 2)]
    grounds = [(a, g, ciede2000(seen(rgb, vision), seen(ground, vision)))
               for a, rgb in REVIEW_MARK_RGB.items() for g, ground in (("panel", PANEL_BG), ("baize", TABLE_BG))]
    too_close = [(a, b, round(d, 1)) for a, b, d in pairs + grounds if d < MARKS_APART]
    assert not too_close, f"under {WORDS[vision]}: {too_close}"


def test_red_and_green_no_longer_merge_for_a_deuteranope():
    # The old palette's red (214, 48, 49) and green (46, 160, 67) came out about 5 apart.
    assert ciede2000(seen(side_rgb("red"), "deuteranomaly"), seen(side_rgb("green"), "deuteranomaly")) >= SIDES_APART


def test_side_rgb_looks_a_colour_up_in_the_palette_and_falls_back_to_the_standard_one():
    for name, colours in PALETTES.items():
        assert side_rgb("blue", name) == colours["blue"]
    assert side_rgb("blue", "no such palette") == COLOUR_RGB["blue"]


def _mask(side: int) -> Image.Image:
    # The peg itself (opaque), without its soft shadow.
    return peg_image((128, 128, 128), side).getchannel("A").point(lambda a: 255 if a > 200 else 0)


def test_each_sides_peg_has_its_own_outline():
    masks = [_mask(side) for side in range(len(SHAPES))]
    for a, b in combinations(range(len(masks)), 2):
        differ = sum(ImageChops.difference(masks[a], masks[b]).histogram()[255:])
        shape_area = min(sum(masks[a].histogram()[255:]), sum(masks[b].histogram()[255:]))
        assert differ > 0.08 * shape_area, f"the {SHAPES[a]} and {SHAPES[b]} pegs look alike ({differ} pixels differ)"


def test_a_peg_is_drawn_in_its_palettes_colour():
    for palette, colours in PALETTES.items():
        for colour, rgb in colours.items():
            peg = peg_image(rgb, 0)
            assert peg.getpixel((60, 70))[:3] == rgb, (palette, colour)  # a point of the body clear of the mark


def palette_sheet(palette: str) -> Image.Image:
    """Every colour's pegs for sides 0-3 (rows), as seen with normal vision and the three deficiencies (blocks)."""
    size, gap = 48, 16
    colours = PALETTES[palette]
    block_w = size * len(MARKS)
    sheet = Image.new("RGB", (len(VISIONS) * (block_w + gap) + gap, len(colours) * size + 40), TABLE_BG)
    d = ImageDraw.Draw(sheet)
    for v, vision in enumerate(VISIONS):
        left = gap + v * (block_w + gap)
        d.text((left, 8), WORDS[vision], fill=(240, 236, 220))
        for row, rgb in enumerate(colours.values()):
            shown = rgb if vision is None else tuple(int(round(c * 255)) for c in np.clip(cspace_convert(
                np.array(rgb) / 255, {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}, "sRGB1"), 0, 1))
            for side in range(len(MARKS)):
                peg = peg_image(shown, side, size)  # type: ignore[arg-type]
                sheet.paste(peg, (left + side * size, 32 + row * size), peg)
    return sheet


def test_palette_golden_shows_every_peg_under_every_vision():
    # A person can look at tests/golden/palette.png and see the sides stay apart for everyone.
    assert compare_golden(palette_sheet("standard"), "palette.png") <= MAX_DIFFERENT
