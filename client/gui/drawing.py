"""What every drawing part of the table shares: the ``Part`` base, prepared texts and shown-only sprite lists.

A part is one region of the table screen (board, hand, seats, panel,
overlays) with its own sprites and texts. ``TableView`` lays the parts out,
refreshes them from the ``TableState`` when it changes, ticks them once a
frame, draws them in order and asks them, topmost first, what a click hit;
a new region or animation is a new part and touches no other.
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from .geometry import TableGeometry
from .palette import BAD, FONT, GOOD, TEXT, WARN
from .table_intents import Target
from .table_state import TableState
from .table_talk import Tone

#: The colour of each tone a state's line is said in.
TONE_COLOURS: dict[Tone, tuple[int, int, int]] = {"plain": TEXT, "warn": WARN, "bad": BAD, "good": GOOD}

MIN_POINTS = 9.0  # the smallest text the table draws

#: An RGB or RGBA colour, 0-255 each.
Colour = tuple[int, int, int] | tuple[int, int, int, int]


class Part:
    """One region of the table screen; the defaults do nothing, so a part defines only what it needs."""

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Place the part's sprites and texts for a new window size or seating (``ratio``: pixels per unit)."""

    def refresh(self, state: TableState) -> None:
        """Bring the sprites and texts in line with ``state`` (it changed)."""

    def tick(self, state: TableState) -> None:
        """Once a frame: whatever changes with time alone (the turn clock, a banner running out)."""

    def hover(self, x: float, y: float) -> None:
        """The pointer moved to (x, y)."""

    def target_at(self, x: float, y: float) -> Target | None:
        """What of this part a click at (x, y) lands on, or None."""
        return None

    def draw(self) -> None:
        """Draw the part (its sprite lists, then its texts)."""


def make_text(batch: Batch, size: float, *, bold: bool = False, color: Colour = TEXT, multiline: bool = False,
              align: str = "left") -> arcade.Text:
    """An empty text in the client's font, top-anchored, drawn with ``batch``; ``size`` is its size at scale 1."""
    text = arcade.Text("", 0, 0, color, size, width=300 if multiline else None, align=align,
                       font_name=FONT, bold=bold, multiline=multiline, anchor_y="top", batch=batch)
    text.base_size = size  # type: ignore[attr-defined]  # what rescale() multiplies
    return text


def rescale(texts: list[arcade.Text], scale: float) -> None:
    """Set each text's font size to its size at scale 1 (make_text's ``size``) times ``scale``, never below 9 pt."""
    for text in texts:
        base = getattr(text, "base_size", text.font_size)
        size = round(max(min(base, MIN_POINTS), base * scale), 1)  # smaller is unreadable under software GL
        if text.font_size != size:
            text.font_size = size


def fit_width(text: arcade.Text, width: float, scale: float) -> None:
    """A text at its size for ``scale`` (as rescale), or smaller while a word is wider than ``width`` (never below 8 pt)."""
    rescale([text], scale)
    size = text.font_size
    while text.content_width > width and size > 8:
        size = max(8.0, min(size - 0.5, int(size * width / text.content_width * 2) / 2))
        text.font_size = size


def fit_height(text: arcade.Text, height: float) -> None:
    """Make a wrapped text smaller while it is taller than ``height`` (never below 8 pt); call after fit_width."""
    size = text.font_size
    while text.content_height > height and size > 8:
        size = max(8.0, size - 0.5)
        text.font_size = size


def scale_button(button: object, scale: float, size: float = 12) -> None:
    """A table button's label at ``size`` times ``scale`` (never below 9 pt)."""
    points = round(max(min(size, MIN_POINTS), size * scale), 1)
    if button.points != points:  # type: ignore[attr-defined]
        button.points = points  # type: ignore[attr-defined]
        button.fit()  # type: ignore[attr-defined]


def set_text(text: arcade.Text, value: str, color: Colour | None = None) -> None:
    """Change a text's content and colour, touching it only when they changed (a change re-lays it out)."""
    if text.text != value:
        text.text = value
    if color is not None and tuple(text.color)[:3] != tuple(color)[:3]:
        text.color = color


def show_only(sprite_list: arcade.SpriteList, sprites: list[arcade.Sprite], before: tuple[int, ...]) -> tuple[int, ...]:
    """Make ``sprite_list`` hold exactly the visible ``sprites``, in order; returns their indices.

    A hidden sprite in a list still costs its quad in the software rasteriser, so lists hold only
    what is shown; they are rebuilt only when that changes (``before`` is the last answer).
    """
    now = tuple(i for i, s in enumerate(sprites) if s.visible)
    if now != before:
        sprite_list.clear()
        sprite_list.extend(sprites[i] for i in now)
    return now
