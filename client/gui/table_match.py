"""A match at the table: the score strip everyone sees, and the match result box once the match is decided.

The strip sits at the top right of the play area, clear of every seat's
label; the box sits inside the board's square (as the table's questions do),
with Save record, Lobby, New match and Close. Esc or a click elsewhere closes
it; the final board stays.
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from . import wording
from .buttons import Button
from .drawing import Part, make_text, rescale, scale_button, set_text, show_only
from .geometry import TableGeometry
from .palette import BAD, GOOD, TEXT, WARN
from .table_intents import Target
from .table_state import TableState
from .textures import Textures

STRIP_BACK = (10, 34, 22, 235)
BOX_BACK = (16, 40, 60, 248)


class MatchPart(Part):
    """The match's score strip and result box (nothing at a table that plays single games)."""

    def __init__(self, tx: Textures) -> None:
        self.geo: TableGeometry | None = None
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.strip_back = arcade.Sprite(tx.white)
        self.strip_back.color = STRIP_BACK
        self.box_back = arcade.Sprite(tx.white)
        self.box_back.color = BOX_BACK
        self.batch = Batch()
        self.t_strip_head = make_text(self.batch, 11, color=TEXT)
        self.t_strip_score = make_text(self.batch, 14, bold=True, color=WARN)
        self.box_batch = Batch()
        self.t_title = make_text(self.box_batch, 22, bold=True, color=GOOD)
        self.t_lines = make_text(self.box_batch, 12, multiline=True)
        self.b_save = Button("save", wording.SAVE_LABEL, tx.white, self.box_batch)
        self.b_lobby = Button("lobby", "Lobby", tx.white, self.box_batch)
        self.b_rematch = Button("rematch", "New match", tx.white, self.box_batch)
        self.b_close = Button("close", "Close (Esc)", tx.white, self.box_batch)
        self.buttons = [self.b_save, self.b_lobby, self.b_rematch, self.b_close]
        self.sprites = [self.strip_back, self.box_back, *(b.sprite for b in self.buttons)]
        for sprite in self.sprites:
            sprite.visible = False
        self._shown: tuple[int, ...] = ()
        self.box_shown = False

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Fonts and the box's size for this window."""
        self.geo = geo
        s = geo.scale
        rescale([self.t_strip_head, self.t_strip_score, self.t_title, self.t_lines], s)
        for b in self.buttons:
            scale_button(b, s)
        board = geo.board
        box = self.box_back
        box.width, box.height = board.width - 24 * s, board.height - 24 * s
        box.position = board.cx, board.cy
        self.t_title.position = box.left + 20 * s, box.top - 16 * s
        self.t_lines.position = box.left + 20 * s, box.top - 60 * s
        self.t_lines.width = int(box.width - 40 * s)
        bw = (box.width - 40 * s - 3 * 10 * s) / 4
        for i, b in enumerate(self.buttons):
            b.place(box.left + 20 * s + i * (bw + 10 * s), box.bottom + 16 * s, bw, 34 * s)

    def refresh(self, state: TableState) -> None:
        """The strip at a match table; the box while the decided match's result is open."""
        g = self.geo
        assert g is not None
        s = g.scale
        colours = state.colours()
        strip = wording.match_strip(state.table, colours)
        if strip is None:
            set_text(self.t_strip_head, "")
            set_text(self.t_strip_score, "")
            self.strip_back.visible = False
        else:
            set_text(self.t_strip_head, strip[0])
            set_text(self.t_strip_score, strip[1])
            width = max(self.t_strip_head.content_width, self.t_strip_score.content_width) + 20 * s
            height = self.t_strip_head.content_height + self.t_strip_score.content_height + 14 * s
            right, top = g.panel.left - 10 * s, g.height - 8 * s
            self.strip_back.width, self.strip_back.height = width, height
            self.strip_back.position = right - width / 2, top - height / 2
            self.t_strip_head.position = right - width + 10 * s, top - 5 * s
            self.t_strip_score.position = right - width + 10 * s, top - 7 * s - self.t_strip_head.content_height
            self.strip_back.visible = True
        table = state.table
        self.box_shown = state.match_open and table is not None and table.match is not None
        self.box_back.visible = self.box_shown
        for b in self.buttons:
            b.visible = self.box_shown
        if self.box_shown and table is not None:
            title, lines = wording.match_result(table, state.view, colours)
            tone = WARN if title == "The match is level" else BAD if title == "You lost the match" else GOOD
            set_text(self.t_title, title, tone)
            set_text(self.t_lines, "\n".join(lines))
            self.b_save.visible = state.save_shown
            self.b_rematch.visible = self.b_lobby.visible = state.online
        self._shown = show_only(self.sprite_list, self.sprites, self._shown)

    def hover(self, x: float, y: float) -> None:
        """Light the box's button under the pointer."""
        for b in self.buttons:
            b.hover(x, y)

    def target_at(self, x: float, y: float) -> Target | None:
        """The box's button under (x, y)."""
        for b in self.buttons:
            target = b.target_at(x, y)
            if target is not None:
                return target
        return None

    def draw(self) -> None:
        """The strip, then the box when open."""
        self.sprite_list.draw()
        self.batch.draw()
        if self.box_shown:
            self.box_batch.draw()
