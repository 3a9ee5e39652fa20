"""What shows above everything: the banner across the board and the penalty-mode warning with its buttons."""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99.layout import POSITION

from . import wording
from .buttons import Button
from .drawing import TONE_COLOURS, Part, make_text, set_text
from .geometry import TableGeometry
from .table_intents import Target
from .table_state import TableState
from .textures import Textures

BANNER_BACK = (10, 10, 10, 225)
WARNING_BACK = (60, 30, 10, 245)


class OverlayPart(Part):
    """The banner (announcements, "reconnecting…") and the warning box, drawn only while one shows."""

    def __init__(self, tx: Textures) -> None:
        self.geo: TableGeometry | None = None
        self.over_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()  # the banner's and the warning's backgrounds
        self.banner_back = arcade.Sprite(tx.white)
        self.banner_back.color = BANNER_BACK
        self.warn_back = arcade.Sprite(tx.white)
        self.warn_back.color = WARNING_BACK
        self.over_list.extend([self.banner_back, self.warn_back])
        self.batch = Batch()
        self.t_banner = make_text(self.batch, 17, bold=True, multiline=True, align="center")
        self.t_warn = make_text(self.batch, 14, multiline=True)
        self.button_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()  # the warning's buttons, above its box
        self.b_confirm = Button("confirm", "Do it anyway (Enter)", tx.white, self.batch)
        self.b_back = Button("back", "Cancel (Esc)", tx.white, self.batch)
        self.buttons = [self.b_confirm, self.b_back]
        for b in self.buttons:
            b.visible = False
            self.button_list.append(b.sprite)
        self._line: tuple[int, ...] = ()  # the winning line the banner keeps clear of

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Place the banner across the top of the board and the warning box in its middle."""
        self.geo = geo
        b, w = geo.board, geo.width
        banner_w = max(b.width * 0.94, min(geo.panel.left - 40, 640))
        self.t_banner.position = b.cx - banner_w / 2 + 12, b.top - 24
        self.t_banner.width = int(banner_w - 24)
        self.t_banner.text = ""  # set again (and placed) by refresh
        self._fit_banner()
        self.warn_back.position = b.cx, b.cy
        self.warn_back.width, self.warn_back.height = min(w - 40, 640), 250
        self.t_warn.position = self.warn_back.left + 20, self.warn_back.top - 18
        self.t_warn.width = self.warn_back.width - 40
        self.b_confirm.place(self.warn_back.left + 20, self.warn_back.bottom + 16, 260, 38)
        self.b_back.place(self.warn_back.right - 200, self.warn_back.bottom + 16, 180, 38)

    def refresh(self, state: TableState) -> None:
        """Show or hide the warning; show the banner of the moment."""
        warn = state.warning is not None
        self.warn_back.visible = warn
        for b in self.buttons:
            b.visible = warn
        set_text(self.t_warn, wording.warning_box(state.warning.text) if state.warning is not None else "")
        line = (state.view.line if state.view is not None else None) or ()
        if line != self._line:
            self._line = line
            self._fit_banner()
        self._refresh_banner(state)

    def tick(self, state: TableState) -> None:
        """A banner runs out."""
        if self.banner_back.visible:
            self._refresh_banner(state)

    def _refresh_banner(self, state: TableState) -> None:
        banner, tone = state.banner_now()
        self.banner_back.visible = bool(banner)
        if self.t_banner.text != banner:
            set_text(self.t_banner, banner)
            self._fit_banner()
        set_text(self.t_banner, banner, TONE_COLOURS[tone])

    def _fit_banner(self) -> None:
        # The banner's dark box grows with its (wrapped) text.
        # It sits at the top of the board, or at the bottom when the winning line is in the top half.
        assert self.geo is not None
        b = self.geo.board
        height = (self.t_banner.content_height if self.t_banner.text else 0) + 24
        line = self._line
        low = bool(line) and sum(POSITION[sq][0] for sq in line) / len(line) < 5
        top = b.bottom + 12 + height if low else b.top - 12
        self.banner_back.width, self.banner_back.height = (self.t_banner.width or 0) + 24, height
        self.banner_back.position = b.cx, top - height / 2
        if self.t_banner.y != top - 12:
            self.t_banner.y = top - 12

    @property
    def shown(self) -> bool:
        """True while the banner or the warning is on screen."""
        return self.banner_back.visible or self.warn_back.visible

    def hover(self, x: float, y: float) -> None:
        """Light the warning's button under the pointer."""
        for b in self.buttons:
            b.hover(x, y)

    def target_at(self, x: float, y: float) -> Target | None:
        """The warning's button under (x, y)."""
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
