"""The review drawn in the replay viewer: its block in the panel, the better move on the board, marks on the slider.

What it says comes from ``review_model`` (pure); this part only places it:
the review's heading and the shown move's mark (symbol and colour), win
chance before and after, the better move and the hint, or the progress bar
while the review is computed; the better move's square ringed (a dark and a
white ring, readable on every square) with a faint peg of the side in it;
and a tick above the slider at each marked move, in the mark's colour and
taller the worse the mark, so the marks differ without colour too.
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99.layout import POSITION

from .drawing import make_text, rescale, set_text, show_only
from .geometry import TableGeometry
from .palette import REVIEW_MARK_RGB, TEXT, TEXT_DIM
from .review_model import ReviewShown
from .textures import Textures, peg_texture

MOST_TICKS = 120
#: How far a tick stands out of the slider's track, above and below together, by mark (at scale 1).
TICK_HEIGHT = {"inaccuracy": 6, "mistake": 12, "blunder": 18}
RING_DARK = (25, 25, 25, 255)
RING_LIGHT = (255, 255, 255, 255)
GHOST_ALPHA = 150
BAR_BACK = (10, 30, 20, 255)
BAR_FILL = (120, 200, 255, 255)


class ReviewPart:
    """The review's texts, progress bar, ring and ghost peg, and slider ticks (nothing before a review)."""

    def __init__(self, tx: Textures) -> None:
        self.tx = tx
        self.geo: TableGeometry | None = None
        self.batch = Batch()
        self.t_head = make_text(self.batch, 11, bold=True, color=TEXT_DIM, multiline=True)
        self.t_mark = make_text(self.batch, 17, bold=True)
        self.t_lines = make_text(self.batch, 11, multiline=True)
        self.texts = [self.t_head, self.t_mark, self.t_lines]
        self.bar_back = arcade.Sprite(tx.white)
        self.bar_back.color = BAR_BACK
        self.bar_fill = arcade.Sprite(tx.white)
        self.bar_fill.color = BAR_FILL
        self.ring_dark = arcade.Sprite(tx.hover)
        self.ring_dark.color = RING_DARK
        self.ring_light = arcade.Sprite(tx.hover)
        self.ring_light.color = RING_LIGHT
        self.ghost = arcade.Sprite(peg_texture("red", 0))
        self.ghost.alpha = GHOST_ALPHA
        self.ticks = [arcade.Sprite(tx.white) for _ in range(MOST_TICKS)]
        self.sprites = [self.bar_back, self.bar_fill, *self.ticks]
        self.board_sprites = [self.ghost, self.ring_dark, self.ring_light]
        for sprite in (*self.sprites, *self.board_sprites):
            sprite.visible = False
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.board_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._shown: tuple[int, ...] = ()
        self._board_shown: tuple[int, ...] = ()
        self.height = 0.0  # how tall the block in the panel came out

    def relayout(self, geo: TableGeometry, width: float) -> None:
        """Fonts for this scale, the block's text width."""
        self.geo = geo
        rescale(self.texts, geo.scale)
        for text in (self.t_head, self.t_lines):
            text.width = int(width)

    def show(self, shown: ReviewShown | None, x: float, top: float, progress: float | None) -> float:
        """The block at (x, top) in the panel; ``progress`` (0..1) while computing. Returns the block's height."""
        g = self.geo
        assert g is not None
        s = g.scale
        if shown is None:
            for text in self.texts:
                set_text(text, "")
            self.bar_back.visible = self.bar_fill.visible = False
            self._shown = show_only(self.sprite_list, self.sprites, self._shown)
            self.height = 0.0
            return 0.0
        set_text(self.t_head, shown.head)
        y = top
        self.t_head.position = x, y
        y -= self.t_head.content_height + 6 * s
        width = float(self.t_head.width or 200)
        if progress is not None:
            self.bar_back.visible = self.bar_fill.visible = True
            self.bar_back.width, self.bar_back.height = width, 10 * s
            self.bar_back.position = x + width / 2, y - 5 * s
            self.bar_fill.width, self.bar_fill.height = max(1.0, width * progress), 10 * s
            self.bar_fill.position = x + self.bar_fill.width / 2, y - 5 * s
            y -= 18 * s
        else:
            self.bar_back.visible = self.bar_fill.visible = False
        self._shown = show_only(self.sprite_list, self.sprites, self._shown)
        first, rest = (shown.lines[0], shown.lines[1:]) if shown.mark is not None and shown.lines else ("", shown.lines)
        colour = REVIEW_MARK_RGB[shown.mark] if shown.mark is not None else TEXT
        set_text(self.t_mark, first, colour)
        if first:
            self.t_mark.position = x, y
            y -= self.t_mark.content_height + 4 * s
        set_text(self.t_lines, "\n".join(rest))
        if rest:
            self.t_lines.position = x, y
            y -= self.t_lines.content_height
        self.height = top - y
        return self.height

    def show_better(self, square: int | None, colour: str, side: int, palette: str) -> None:
        """Ring ``square`` (the better move's) and stand a faint peg of ``side`` in it; None hides both."""
        g = self.geo
        assert g is not None
        for sprite in self.board_sprites:
            sprite.visible = square is not None
        if square is not None:
            centre = g.square_centre(*POSITION[square])
            for sprite, share in ((self.ring_dark, 1.0), (self.ring_light, 0.86)):
                sprite.position = centre
                sprite.width = sprite.height = g.cell * share
            self.ghost.texture = peg_texture(colour, side, palette)
            self.ghost.position = g.peg_centre(*POSITION[square])
            self.ghost.width = self.ghost.height = g.cell * 0.56
            self.ghost.alpha = GHOST_ALPHA
        self._board_shown = show_only(self.board_list, self.board_sprites, self._board_shown)

    def show_ticks(self, ticks: list[tuple[float, str]], left: float, width: float, cy: float,
                   track_h: float) -> None:
        """A tick for each (share along the slider, mark), centred on the track."""
        g = self.geo
        assert g is not None
        s = g.scale
        for i, tick in enumerate(self.ticks):
            tick.visible = i < len(ticks)
            if tick.visible:
                share, mark = ticks[i]
                tick.color = (*REVIEW_MARK_RGB[mark], 255)
                tick.width, tick.height = 4 * s, track_h + TICK_HEIGHT[mark] * s
                tick.position = left + share * width, cy
        self._shown = show_only(self.sprite_list, self.sprites, self._shown)

    def draw_board(self) -> None:
        """The ring and the ghost peg (over the board's pegs)."""
        self.board_list.draw()

    def draw(self) -> None:
        """The progress bar, the ticks and the texts."""
        self.sprite_list.draw()
        self.batch.draw()
