"""What shows above the board: the open question (an offence warning, or leaving the game) with its buttons.

Announcements no longer show here: they go to the panel, beside the board.
The question sits inside the board's square, so it never covers a seat's label,
and it follows the live state (TableState closes it when its words stop being true).
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from .buttons import Button
from .drawing import Part, make_text, rescale, scale_button, set_text
from .geometry import TableGeometry
from .table_intents import Target
from .table_state import TableState
from .textures import Textures

WARNING_BACK = (60, 30, 10, 245)
LEAVE_BACK = (20, 40, 60, 245)


class OverlayPart(Part):
    """The question box, drawn only while a question is open."""

    def __init__(self, tx: Textures) -> None:
        self.geo: TableGeometry | None = None
        self.over_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.warn_back = arcade.Sprite(tx.white)
        self.warn_back.color = WARNING_BACK
        self.warn_back.visible = False
        self.over_list.append(self.warn_back)
        self.batch = Batch()
        self.t_warn = make_text(self.batch, 14, multiline=True)
        self.button_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()  # the question's buttons
        self.b_confirm = Button("confirm", "Do it anyway (Enter)", tx.white, self.batch)
        self.b_back = Button("back", "Cancel (Esc)", tx.white, self.batch)
        self.buttons = [self.b_confirm, self.b_back]
        for b in self.buttons:
            b.visible = False
            self.button_list.append(b.sprite)

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """The box in the middle of the board, no wider than the board (the seats stay in view)."""
        self.geo = geo
        s = geo.scale
        rescale([self.t_warn], s)
        for button in self.buttons:
            scale_button(button, s)
        board = geo.board
        self.warn_back.position = board.cx, board.cy
        self.warn_back.width, self.warn_back.height = board.width - 16, min(board.height - 16, 250 * s)
        self.t_warn.position = self.warn_back.left + 16 * s, self.warn_back.top - 14 * s
        self.t_warn.width = int(self.warn_back.width - 32 * s)
        bw = (self.warn_back.width - 48 * s) / 2
        self.b_confirm.place(self.warn_back.left + 16 * s, self.warn_back.bottom + 14 * s, bw, 36 * s)
        self.b_back.place(self.warn_back.right - 16 * s - bw, self.warn_back.bottom + 14 * s, bw, 36 * s)

    def refresh(self, state: TableState) -> None:
        """Show, rewrite or hide the question as the state has it now."""
        question = state.dialog()
        shown = question is not None
        self.warn_back.visible = shown
        for b in self.buttons:
            b.visible = shown
        if question is None:
            set_text(self.t_warn, "")
            return
        text, yes, no = question
        set_text(self.t_warn, text)
        self.b_confirm.text, self.b_back.text = yes, no
        self.warn_back.color = WARNING_BACK if state.warning is not None else LEAVE_BACK

    @property
    def shown(self) -> bool:
        """True while a question is on screen."""
        return self.warn_back.visible

    def hover(self, x: float, y: float) -> None:
        """Light the question's button under the pointer."""
        for b in self.buttons:
            b.hover(x, y)

    def target_at(self, x: float, y: float) -> Target | None:
        """The question's button under (x, y)."""
        for b in self.buttons:
            target = b.target_at(x, y)
            if target is not None:
                return target
        return None

    def draw(self) -> None:
        """Only while something shows: hidden sprites still cost their pixels."""
        if self.shown:
            self.over_list.draw()
            self.button_list.draw()
            self.batch.draw()
