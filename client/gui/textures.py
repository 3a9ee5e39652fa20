"""The client's textures and font, loaded once per process from the asset files."""

from __future__ import annotations

import functools
from typing import NamedTuple

import arcade

from .assets import asset
from .palette import CARD_BACK, CARD_SIZE, CELL, COLOUR_RGB, FONT_FILES, MARKS, PEG_SIZE, side_rgb
from .peg_art import peg_image


class Textures(NamedTuple):
    """Every texture the table draws."""

    board: arcade.Texture
    cards: list[arcade.Texture]  # 0-99 faces, CARD_BACK the back
    pegs: dict[tuple[str, int], arcade.Texture]  # (colour, side) -> peg_texture(colour, side) in the standard palette
    highlight: arcade.Texture
    hover: arcade.Texture
    line: arcade.Texture
    white: arcade.Texture


@functools.cache
def load_fonts() -> None:
    """Register DejaVu Sans (free licence, shipped in assets/) with the text renderer."""
    for name in FONT_FILES:
        arcade.load_font(asset(name))


@functools.lru_cache(maxsize=4)
def board_at(pixels: int) -> arcade.Texture:
    """The board texture resampled to exactly ``pixels`` square (crisp numbers, cheap nearest sampling)."""
    from PIL import Image

    image = Image.open(asset("board.png")).convert("RGBA")
    if pixels != image.width:
        image = image.resize((pixels, pixels), Image.Resampling.LANCZOS)
    return arcade.Texture(image, hash=f"board99-board-{pixels}")


@functools.cache
def textures() -> Textures:
    """Load (once) and return every texture."""
    cards = arcade.load_spritesheet(asset("cards.png")).get_texture_grid(
        size=CARD_SIZE, columns=10, count=CARD_BACK + 1)
    pegs = {(colour, side): peg_texture(colour, side) for colour in COLOUR_RGB for side in range(len(MARKS))}
    board = arcade.load_texture(asset("board.png"))
    assert board.width == CELL * 10
    return Textures(
        board=board,
        cards=cards,
        pegs=pegs,
        highlight=arcade.load_texture(asset("highlight.png")),
        hover=arcade.load_texture(asset("hover.png")),
        line=arcade.load_texture(asset("line.png")),
        white=white(),
    )


@functools.lru_cache(maxsize=1)
def white() -> arcade.Texture:
    """A white texture to tint: every button's background (loaded once)."""
    return arcade.load_texture(asset("white.png"))


@functools.lru_cache(maxsize=256)
def peg_texture(colour: str, side: int, palette: str = "standard") -> arcade.Texture:
    """The peg of ``side`` (its own outline and mark) in ``colour`` as drawn under ``palette`` (drawn once, cached)."""
    rgb = side_rgb(colour, palette)
    return arcade.Texture(peg_image(rgb, side, PEG_SIZE), hash=f"board99-peg-{rgb}-{side % len(MARKS)}")
