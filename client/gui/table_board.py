"""The board region: the numbered board in its frame, the highlighted squares, the pegs, the winning line."""

from __future__ import annotations

import math

import arcade

from board99.layout import LAYOUT, POSITION

from .drawing import Part, show_only
from .geometry import TableGeometry
from .palette import side_rgb
from .table_intents import OnSquare, Target
from .table_state import TableState
from .textures import Textures, board_at, peg_texture

FRAME = (92, 60, 30)  # the board's wooden frame
LINE_COLOUR = (255, 215, 0, 230)
PEG_SHARE = 0.56  # a peg's size as a share of its cell
#: A square the picked card allows: a gold outline, no wash over the number (it stays readable).
LIT = (255, 200, 0, 255)
SPOT = (255, 255, 255, 255)  # the square a "since your turn" entry points at
MOST_MARKS = 6  # one recent-peg mark per seat
MOST_THREATS = 24


class BoardPart(Part):
    """The board with its pegs; lights the free squares the picked card allows and outlines the pointed one."""

    def __init__(self, window: arcade.Window, tx: Textures) -> None:
        self.window = window
        self.tx = tx
        self.geo: TableGeometry | None = None
        self.ratio = 1.0
        self.back_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        # The board's frame is a cleared rectangle, not a sprite: under software GL a clear is far
        # cheaper than shading the same pixels.
        self.board_sprite = arcade.Sprite(tx.board)
        self.back_list.append(self.board_sprite)
        self.back_list.blend = False  # the board is opaque

        # mark_list and peg_list hold only the sprites shown: a hidden sprite in a list still
        # costs its quad in the software rasteriser.
        self.mark_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()  # highlights, under the pegs
        self.highlights = [arcade.Sprite(tx.hover) for _ in range(100)]
        for s in self.highlights:
            s.visible = False
            s.color = LIT
        # each seat's latest peg (an outline in its side's colour, fading) and the threats (a double outline)
        # a thick outline (two white outlines, tinted: a tint multiplies, so the texture must be white), fading
        self.recent = [arcade.Sprite(tx.hover) for _ in range(2 * MOST_MARKS)]
        self.threat_outer = [arcade.Sprite(tx.hover) for _ in range(MOST_THREATS)]
        self.threat_inner = [arcade.Sprite(tx.hover) for _ in range(MOST_THREATS)]
        self.marks = [*self.highlights, *self.recent, *self.threat_outer, *self.threat_inner]
        for m in self.marks:
            m.visible = False
        self._lit: tuple[int, ...] = ()
        self._hidden: set[int] = set()  # squares whose peg a running drop motion stands in for
        self._line_hidden = False
        self._spot_square: int | None = None

        self.peg_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.pegs = [arcade.Sprite(peg_texture("red", 0)) for _ in range(100)]
        for s in self.pegs:
            s.visible = False
        self._pegged: tuple[int, ...] = ()

        self.line_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()  # the pointer's square and the winning line, above the pegs
        self.hover_mark = arcade.Sprite(tx.hover)
        self.hover_mark.visible = False
        self.spot_mark = arcade.Sprite(tx.highlight)  # lit from the "since your turn" list
        self.spot_mark.color = SPOT
        self.spot_mark.visible = False
        self.line = arcade.Sprite(tx.line)
        self.line.color = LINE_COLOUR
        self.line.visible = False
        self.line_list.extend([self.hover_mark, self.spot_mark, self.line])
        self._state: TableState | None = None

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Size the board texture and put every cell's highlight and peg in place."""
        self.geo, self.ratio = geo, ratio
        b, c = geo.board, geo.cell
        # The board texture is resampled to the board's size on screen and drawn without
        # filtering: crisper numbers than the GPU's minification, and cheaper under llvmpipe.
        pixels = max(16, round(b.width * ratio))
        self.board_sprite.texture = board_at(pixels)
        self.board_sprite.position = b.cx, b.cy
        self.board_sprite.width = self.board_sprite.height = b.width
        for sq in range(100):
            row, col = POSITION[sq]
            hl = self.highlights[sq]
            hl.position = geo.square_centre(row, col)
            hl.width = hl.height = c
            peg = self.pegs[sq]
            peg.position = geo.peg_centre(row, col)
            peg.width = peg.height = c * PEG_SHARE
        self.hover_mark.width = self.hover_mark.height = c
        self.spot_mark.width = self.spot_mark.height = c

    def refresh(self, state: TableState) -> None:
        """Pegs in their side's colour and mark, the picked card's squares lit, recent pegs, threats, the line."""
        assert self.geo is not None
        self._state = state
        view, colours = state.view, state.colours()
        palette = self.window.prefs.palette
        board = view.board if view is not None else (None,) * 100
        size = self.geo.cell * PEG_SHARE
        self._hidden = state.motions.moving_squares("drop")
        for sq, peg in enumerate(self.pegs):
            side = board[sq]
            if side is None or sq in self._hidden:
                peg.visible = False
            else:
                peg.texture = peg_texture(colours[side], side, palette)
                peg.width = peg.height = size
                peg.visible = True
        self._pegged = show_only(self.peg_list, self.pegs, self._pegged)
        lit = set(state.lit_squares())
        for sq, hl in enumerate(self.highlights):
            hl.visible = sq in lit
            if sq in lit:
                hl.width = hl.height = self.geo.cell * 0.96
        self._refresh_recent(state, colours, palette)
        self._refresh_threats(state, colours, palette)
        self._lit = show_only(self.mark_list, self.marks, self._lit)
        self._line_hidden = any(m.kind == "line" for m in state.motions.running())
        self._refresh_line(view.line if view is not None and not self._line_hidden else None)

    def _refresh_recent(self, state: TableState, colours: list[str], palette: str) -> None:
        g = self.geo
        assert g is not None
        marks = state.recent_pegs()
        for i, sprite in enumerate(self.recent):
            if i // 2 < len(marks):
                square, side, strength = marks[i // 2]
                sprite.position = g.square_centre(*POSITION[square])
                sprite.width = sprite.height = g.cell * (1.0 if i % 2 == 0 else 0.9)
                sprite.color = (*side_rgb(colours[side], palette), int(60 + 195 * strength))
                sprite.visible = True
            else:
                sprite.visible = False

    def _refresh_threats(self, state: TableState, colours: list[str], palette: str) -> None:
        g = self.geo
        assert g is not None
        squares = [(sq, side) for side, sqs in sorted(state.threats().items()) for sq in sqs][:MOST_THREATS]
        for i, (outer, inner) in enumerate(zip(self.threat_outer, self.threat_inner)):
            if i < len(squares):
                sq, side = squares[i]
                rgb = side_rgb(colours[side], palette)
                for sprite, share in ((outer, 1.0), (inner, 0.72)):
                    sprite.position = g.square_centre(*POSITION[sq])
                    sprite.width = sprite.height = g.cell * share
                    sprite.color = (*rgb, 255)
                    sprite.visible = True
            else:
                outer.visible = inner.visible = False

    def tick(self, state: TableState) -> None:
        """While motions run: a dropping peg's own peg stays hidden, the line waits for its motion."""
        hidden = state.motions.moving_squares("drop")
        line_hidden = any(m.kind == "line" for m in state.motions.running())
        if hidden != self._hidden or line_hidden != self._line_hidden:
            self.refresh(state)

    def spot(self, square: int | None) -> None:
        """Light ``square`` (a "since your turn" entry under the pointer), or nothing."""
        if square == self._spot_square or self.geo is None:
            return
        self._spot_square = square
        self.spot_mark.visible = square is not None
        if square is not None:
            self.spot_mark.position = self.geo.square_centre(*POSITION[square])

    def _refresh_line(self, line: tuple[int, ...] | None) -> None:
        if not line:
            self.line.visible = False
            return
        g = self.geo
        assert g is not None
        (r0, c0), (r1, c1) = POSITION[line[0]], POSITION[line[-1]]
        x0, y0 = g.peg_centre(r0, c0)
        x1, y1 = g.peg_centre(r1, c1)
        self.line.position = (x0 + x1) / 2, (y0 + y1) / 2
        self.line.width = math.hypot(x1 - x0, y1 - y0) + g.cell * 0.6
        self.line.height = g.cell * 0.16
        self.line.angle = -math.degrees(math.atan2(y1 - y0, x1 - x0))
        self.line.visible = True

    def hover(self, x: float, y: float) -> None:
        """Outline the square under the pointer."""
        geo = self.geo
        cell = geo.cell_at(x, y) if geo is not None else None
        if geo is None or cell is None:
            self.hover_mark.visible = False
            return
        self.hover_mark.position = geo.square_centre(*cell)
        self.hover_mark.visible = True

    def target_at(self, x: float, y: float) -> Target | None:
        """The square under (x, y)."""
        cell = self.geo.cell_at(x, y) if self.geo is not None else None
        return None if cell is None else OnSquare(LAYOUT[cell[0]][cell[1]])

    def draw(self) -> None:
        """The frame (a cleared rectangle), the board, the highlights, the pegs, the pointer and the line."""
        assert self.geo is not None
        b, r = self.geo.board, self.ratio
        self.window.clear(color=FRAME, viewport=(round((b.left - 8) * r), round((b.bottom - 8) * r),
                                                 round((b.width + 16) * r), round((b.height + 16) * r)))
        self.back_list.draw(pixelated=True)
        self.mark_list.draw()
        self.peg_list.draw()
        self.line_list.draw()
