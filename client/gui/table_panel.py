"""The panel region on the right: table name and status, the deck, the buttons, the reasons, the notice, the log."""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from . import wording
from .buttons import Button
from .drawing import TONE_COLOURS, Part, make_text, set_text, show_only
from .geometry import TableGeometry
from .palette import BAD, CARD_BACK, PANEL_BG, TEXT, TEXT_DIM
from .table_intents import OnDeck, Target
from .table_state import TableState
from .textures import Textures

LOG_SHOWN = 14  # the newest log lines that may show; fewer when they do not fit
ROW = 40  # one row of buttons, with its gap


class PanelPart(Part):
    """Status, deck, buttons and log, in a cleared rectangle; texts stack under the buttons as tall as they are."""

    def __init__(self, window: arcade.Window, tx: Textures) -> None:
        self.window = window
        self.geo: TableGeometry | None = None
        self.ratio = 1.0
        self.batch = Batch()
        t = self.batch
        self.t_title = make_text(t, 16, bold=True)
        self.t_status = make_text(t, 13, multiline=True)
        self.t_deck = make_text(t, 13, bold=True)
        self.t_disabled = make_text(t, 11, color=TEXT_DIM, multiline=True)
        self.t_notice = make_text(t, 12, multiline=True)
        self.t_log_head = make_text(t, 12, bold=True, color=TEXT_DIM)
        self.t_log = make_text(t, 11, multiline=True)
        self.deck = arcade.Sprite(tx.cards[CARD_BACK])
        self.b_draw = Button("draw", "Draw (D)", tx.white, t)
        self.b_discard = Button("discard", "Discard (X)", tx.white, t)
        self.b_cancel = Button("cancel", "Cancel (Esc)", tx.white, t)
        self.b_mute = Button("mute", wording.mute_label(False), tx.white, t)
        self.b_rematch = Button("rematch", "Rematch", tx.white, t)
        self.b_lobby = Button("lobby", "Lobby", tx.white, t)
        self.b_bots = Button("bots", "Fill seats with bots", tx.white, t)
        self.b_bots.visible = False
        self.buttons = [self.b_draw, self.b_discard, self.b_cancel, self.b_mute, self.b_rematch, self.b_lobby,
                        self.b_bots]
        # sprite_list holds the shown ones of these, in this order (see show_only)
        self.sprites = [self.deck, *(b.sprite for b in self.buttons)]
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._shown: tuple[int, ...] = ()
        self.below_buttons = 0.0  # where the texts under the buttons start
        self.log_bottom = 12

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Place the deck, the buttons (two columns under the deck) and the texts' widths."""
        self.geo, self.ratio = geo, ratio
        p, h = geo.panel, geo.height
        deck = self.deck
        deck.width, deck.height = geo.pile_w * 1.25, geo.pile_h * 1.25
        deck.position = p.left + 24 + deck.width / 2, h - 150 - deck.height / 2
        self.t_title.position = p.left + 16, h - 14
        self.t_title.width = int(p.width - 32)
        self.t_status.position = p.left + 16, h - 44
        self.t_status.width = int(p.width - 32)
        self.t_deck.position = deck.right + 14, deck.center_y + 10
        top = deck.bottom - 12
        grid = [(self.b_draw, self.b_discard), (self.b_cancel, self.b_mute), (self.b_rematch, self.b_lobby)]
        bw = (p.width - 44) / 2
        for r, pair in enumerate(grid):
            for k, button in enumerate(pair):
                button.place(p.left + 16 + k * (bw + 12), top - (r + 1) * ROW, bw, 34)
        self.b_bots.place(p.left + 16, top - 4 * ROW, p.width - 32, 34)
        self.below_buttons = top - 3 * ROW - 8  # the "fill seats" button, when shown, takes one row more
        for text in (self.t_disabled, self.t_notice, self.t_log):
            text.width = int(p.width - 32)

    def refresh(self, state: TableState) -> None:
        """Title, status, deck, which buttons work and why not, the notice and the log's newest lines."""
        view = state.view
        set_text(self.t_title, (state.table.name if state.table is not None else "GAME OF 99")[:28])
        self._refresh_status(state)
        set_text(self.t_deck, wording.deck_label(view))
        self.deck.visible = bool(view is not None and view.deck_size)
        off = state.disabled_buttons()
        for button in self.buttons:
            button.disabled = button.name in off
        self.b_mute.text = wording.mute_label(state.muted)
        if state.guarded:
            set_text(self.t_disabled, wording.disabled_line(state.reasons()))
        else:
            set_text(self.t_disabled, wording.PENALTY_MODE_NOTE if view is not None else "")
        self.b_bots.visible = state.fill_seats_shown
        self._shown = show_only(self.sprite_list, self.sprites, self._shown)
        set_text(self.t_notice, state.notice, TONE_COLOURS[state.notice_tone])
        set_text(self.t_log_head, wording.LOG_HEAD)
        self._flow()
        self._refresh_log(state)

    def tick(self, state: TableState) -> None:
        """The turn clock counts down between messages."""
        if state.table is not None and state.table.clock:
            self._refresh_status(state)

    def _refresh_status(self, state: TableState) -> None:
        lines = wording.status_lines(state.view, state.table, state.connected, state.clock_left())
        set_text(self.t_status, "\n".join(lines), BAD if not state.connected else TEXT)

    def _flow(self) -> None:
        # The panel's texts stack under the buttons, each as tall as its wrapped content.
        assert self.geo is not None
        x = self.geo.panel.left + 16
        y = self.below_buttons - (ROW if self.b_bots.visible else 0)
        for text, gap in ((self.t_disabled, 6), (self.t_notice, 10), (self.t_log_head, 4), (self.t_log, 0)):
            if (text.x, text.y) != (x, y):
                text.position = x, y
            if text is not self.t_log:
                y -= (text.content_height if text.text else 0) + gap

    def _refresh_log(self, state: TableState) -> None:
        room = self.t_log.y - self.log_bottom
        lines = list(state.log)[-LOG_SHOWN:]
        while True:
            set_text(self.t_log, "\n".join(lines))
            if self.t_log.content_height <= room or len(lines) <= 1:
                break
            lines = lines[1:]

    def hover(self, x: float, y: float) -> None:
        """Light the button under the pointer."""
        for b in self.buttons:
            b.hover(x, y)

    def target_at(self, x: float, y: float) -> Target | None:
        """The button or the deck under (x, y)."""
        for b in self.buttons:
            target = b.target_at(x, y)
            if target is not None:
                return target
        if self.deck.visible and self.deck.collides_with_point((x, y)):
            return OnDeck()
        return None

    def draw(self) -> None:
        """The panel's background (a cleared rectangle), the deck and buttons, then the texts."""
        assert self.geo is not None
        p, r = self.geo.panel, self.ratio
        self.window.clear(color=PANEL_BG, viewport=(round(p.left * r), round(p.bottom * r),
                                                    round(p.width * r), round(p.height * r)))
        self.sprite_list.draw()
        self.batch.draw()
