"""The panel region on the right: whose turn, status, deck, buttons, announcements, result, "since your turn", log.

Everything the table announces shows here, beside the board, so nothing ever
covers a square or a seat.
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from . import wording
from .buttons import Button
from .drawing import TONE_COLOURS, Part, fit_width, make_text, rescale, scale_button, set_text, show_only
from .geometry import Rect, TableGeometry
from .palette import BAD, CARD_BACK, PANEL_BG, TEXT, TEXT_DIM
from .table_intents import OnDeck, Target
from .table_recent import SINCE_SHOWN
from .table_state import TableState
from .textures import Textures

LOG_SHOWN = 12  # the newest log lines that may show; fewer when they do not fit
ROW = 40  # one row of buttons, with its gap (at scale 1)
TOAST_BACK = (8, 28, 18, 255)  # behind the announcements
RESULT_BACK = {"good": (30, 84, 40, 255), "bad": (96, 36, 30, 255), "plain": (8, 28, 18, 255),
               "warn": (90, 70, 20, 255)}
TURN_GLOW = (255, 200, 60, 255)  # behind the headline on the player's turn
TURN_INK = (40, 26, 0)


class PanelPart(Part):
    """Status, deck, buttons, announcements and log in a cleared rectangle; texts stack as tall as they are."""

    def __init__(self, window: arcade.Window, tx: Textures) -> None:
        self.window = window
        self.geo: TableGeometry | None = None
        self.ratio = 1.0
        self.scale = 1.0
        self.batch = Batch()
        t = self.batch
        self.t_title = make_text(t, 13, bold=True, color=TEXT_DIM)
        self.t_turn = make_text(t, 24, bold=True)
        self.t_status = make_text(t, 11, multiline=True)
        self.t_deck = make_text(t, 11, multiline=True)
        self.t_toasts = make_text(t, 12, multiline=True)
        self.t_result = make_text(t, 22, bold=True)
        self.t_result_line = make_text(t, 12, multiline=True)
        self.t_disabled = make_text(t, 11, color=TEXT_DIM, multiline=True)
        self.t_notice = make_text(t, 12, multiline=True)
        self.t_since_head = make_text(t, 12, bold=True, color=TEXT_DIM)
        self.t_since = [make_text(t, 11) for _ in range(SINCE_SHOWN)]
        self.t_log_head = make_text(t, 12, bold=True, color=TEXT_DIM)
        self.t_log = make_text(t, 10, multiline=True, color=TEXT_DIM)
        self.texts = [self.t_title, self.t_turn, self.t_status, self.t_deck, self.t_toasts, self.t_result,
                      self.t_result_line, self.t_disabled, self.t_notice, self.t_since_head, *self.t_since,
                      self.t_log_head, self.t_log]
        self.turn_back = arcade.Sprite(tx.white)
        self.turn_back.color = TURN_GLOW
        self.toast_back = arcade.Sprite(tx.white)
        self.toast_back.color = TOAST_BACK
        self.deck = arcade.Sprite(tx.cards[CARD_BACK])
        self.b_draw = Button("draw", "Draw (D)", tx.white, t)
        self.b_discard = Button("discard", "Discard (X)", tx.white, t)
        self.b_cancel = Button("cancel", "Cancel (Esc)", tx.white, t)
        self.b_mute = Button("mute", wording.mute_label(False), tx.white, t)
        self.b_rematch = Button("rematch", "Rematch", tx.white, t)
        self.b_lobby = Button("lobby", "Lobby", tx.white, t)
        self.b_bots = Button("bots", "Fill seats with bots", tx.white, t)
        self.b_bots.visible = False
        # The end-of-game box's "Save record", and a spectator's look back (in the bots' row: never both).
        self.b_save = Button("save", wording.SAVE_LABEL, tx.white, t)
        self.b_save.visible = False
        self.b_review = Button("review", wording.REVIEW_LABEL, tx.white, t)
        self.b_review.visible = False
        self.b_look = Button("look-back", wording.LOOK_BACK, tx.white, t)
        self.b_look.visible = False
        # A seated player's Hint (the coach), in the same row: while a game is on at a casual table.
        self.b_coach = Button("coach", wording.HINT_LABEL, tx.white, t)
        self.b_coach.visible = False
        self.b_rules = Button("rules", "Rules (F1)", tx.white, t)
        self.b_settings = Button("settings", "Settings", tx.white, t)
        self.b_quit = Button("quit", "Quit", tx.white, t)
        self.small = [self.b_rules, self.b_settings, self.b_quit]
        self.buttons = [self.b_draw, self.b_discard, self.b_cancel, self.b_mute, self.b_rematch, self.b_lobby,
                        self.b_bots, *self.small, self.b_save, self.b_look, self.b_coach, self.b_review]
        # sprite_list holds the shown ones of these, in this order (see show_only)
        self.sprites = [self.turn_back, self.toast_back, self.deck, *(b.sprite for b in self.buttons)]
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._shown: tuple[int, ...] = ()
        self.below_buttons = 0.0  # where the texts under the buttons start
        self._deck_home: Rect | None = None  # where the deck goes when the status leaves it room
        self._controls_below: float | None = None  # the buttons' bottom as last placed
        self.log_bottom = 12
        #: The "since your turn" entries' squares, in the order shown (hovering one lights its square).
        self._since_squares: list[int | None] = []
        self.hovered_square: int | None = None

    def show_screen_buttons(self, rules: bool, settings: bool, quit_: bool) -> None:
        """Show only the Rules/Settings/Quit buttons the app gave a callback for."""
        for button, shown in zip(self.small, (rules, settings, quit_)):
            button.visible = shown

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Place the deck, the buttons (two columns under the deck) and the texts' widths, all scaled."""
        self.geo, self.ratio = geo, ratio
        s = self.scale = geo.scale
        rescale(self.texts, s)
        for b in self.buttons:
            scale_button(b, s, 10.5 if b in self.small else 12)
        p, h = geo.panel, geo.height
        pad = 16 * s
        inner = int(p.width - 2 * pad)
        self._deck_home = geo.deck
        self._controls_below = None  # a new layout: the texts start under the buttons again
        self.t_title.position = p.left + pad, h - 6 * s
        self.t_turn.position = p.left + pad, h - 37 * s
        self.turn_back.position = p.cx, h - 55 * s
        self.turn_back.width, self.turn_back.height = p.width - 12 * s, 40 * s
        self.t_status.position = p.left + pad, h - 82 * s
        for text in (self.t_title, self.t_turn, self.t_status, self.t_toasts, self.t_result_line, self.t_disabled,
                     self.t_notice, self.t_log):
            text.width = inner
        self._place_controls(geo.deck)

    def _place_controls(self, d: Rect) -> None:
        # The deck at ``d``, its lines beside it, the buttons under it (two columns, then the small row).
        geo = self.geo
        assert geo is not None
        s, p = self.scale, geo.panel
        pad = 16 * s
        deck = self.deck
        deck.width, deck.height = d.width, d.height
        deck.position = d.cx, d.cy
        geo.deck = d  # the motions fly cards to and from where the deck is drawn
        if (self.t_deck.x, self.t_deck.y) != (deck.right + 14 * s, deck.top):
            self.t_deck.position = deck.right + 14 * s, deck.top
        width = int(p.right - deck.right - 14 * s - pad)
        if self.t_deck.width != width:
            self.t_deck.width = width
        # The buttons under the deck, and under its lines when they run longer than the deck is tall.
        top = min(d.bottom, deck.top - self.t_deck.content_height) - 8 * s
        row, bh = ROW * s, 34 * s
        grid = [(self.b_draw, self.b_discard), (self.b_cancel, self.b_mute), (self.b_rematch, self.b_lobby)]
        bw = (p.width - 2 * pad - 12 * s) / 2
        for r, pair in enumerate(grid):
            for k, button in enumerate(pair):
                button.place(p.left + pad + k * (bw + 12 * s), top - (r + 1) * row, bw, bh)
        sw = (p.width - 2 * pad - 16 * s) / 3
        for k, button in enumerate(self.small):
            button.place(p.left + pad + k * (sw + 8 * s), top - 3 * row - 30 * s, sw, 26 * s)
        self.b_bots.place(p.left + pad, top - 4 * row - 30 * s, p.width - 2 * pad, bh)
        self.b_look.place(p.left + pad, top - 4 * row - 30 * s, p.width - 2 * pad, bh)
        self.b_coach.place(p.left + pad, top - 4 * row - 30 * s, p.width - 2 * pad, bh)
        below = top - 3 * row - 40 * s
        if below != self._controls_below:
            # The texts under the buttons move with them (a lesson's panel has put its own texts there first).
            self.below_buttons = below if self._controls_below is None else self.below_buttons + below - self._controls_below
            self._controls_below = below

    def set_title(self, words: str) -> None:
        """The panel's title line, smaller rather than past the panel's edge (large text, a narrow panel)."""
        set_text(self.t_title, words)
        if self.geo is not None:
            fit_width(self.t_title, self.geo.panel.width - 32 * self.scale, self.scale)

    def refresh(self, state: TableState) -> None:
        """Headline, status, deck, which buttons work and why not, announcements, the result, the lists."""
        view = state.view
        self.set_title((state.table.name if state.table is not None else "GAME OF 99")[:36])
        mine = state.my_turn
        set_text(self.t_turn, state.headline(), TURN_INK if mine else TEXT)
        self.turn_back.visible = mine
        self._refresh_status(state)
        self.deck.visible = bool(view is not None and view.deck_size)
        off = state.disabled_buttons()
        for button in self.buttons:
            button.disabled = button.name in off
        self.b_mute.text = wording.mute_label(state.muted)
        if state.guarded:
            set_text(self.t_disabled, wording.disabled_line(state.reasons()) if view is not None else "")
        else:
            set_text(self.t_disabled, wording.PENALTY_MODE_NOTE if view is not None else "")
        self.b_bots.visible = state.fill_seats_shown
        self.b_look.visible = state.look_back_shown and not self.b_bots.visible
        self.b_coach.visible = state.coach_shown and not self.b_bots.visible and not self.b_look.visible
        self.b_save.visible = state.save_shown and state.result is not None
        self.b_review.visible = self.b_save.visible
        self.b_rematch.text = wording.rematch_label(state.table)
        self._refresh_toasts(state)
        result = state.result
        set_text(self.t_result, result.title if result is not None else "", TONE_COLOURS[result.tone]
                 if result is not None else TEXT)
        big = result is not None and state.result_open
        self.t_result.font_size = round((26 if big else 18) * self.scale, 1)
        set_text(self.t_result_line, "" if result is None else result.line + ("\n" + wording.DISMISS if big else ""))
        set_text(self.t_notice, state.notice, TONE_COLOURS[state.notice_tone])
        me = view.seat if view is not None else None
        since = list(state.since) if me is not None else []
        set_text(self.t_since_head, wording.SINCE_HEAD if since else "")
        self._since_squares = [e.square for e in since]
        colours = state.colours()
        from .palette import side_rgb

        palette = self.window.prefs.palette if hasattr(self.window, "prefs") else "standard"
        for i, text in enumerate(self.t_since):
            if i < len(since):
                entry = since[i]
                set_text(text, entry.text, side_rgb(colours[entry.side % len(colours)], palette))
            else:
                set_text(text, "")
        set_text(self.t_log_head, wording.LOG_HEAD)
        self._flow(state)
        self._refresh_log(state)

    def tick(self, state: TableState) -> None:
        """The turn clock counts down and announcements run out between messages."""
        if state.table is not None and state.table.clock:
            self._refresh_status(state)
        shown = tuple(state.toasts_now())
        if len(shown) != self._toast_count:
            self._refresh_toasts(state)
            self._flow(state)
            self._refresh_log(state)

    _toast_count = 0
    _toasts_fit = 0  # while not 0: only this many newest announcements fit above the panel's bottom

    #: Set by a panel whose own area left no room for the announcements (a lesson's): they stay out until cleared.
    toasts_cut = False

    def _refresh_toasts(self, state: TableState) -> None:
        toasts = state.toasts_now()
        self._toast_count = len(toasts)
        if self.toasts_cut:
            set_text(self.t_toasts, "")
            return
        toasts = toasts[-self._toasts_fit:] if self._toasts_fit else toasts
        # One text for all: the newest last, each in its tone's colour would need a text each;
        # the worst tone colours the lot (a penalty reads as bad).
        worst = next((t.tone for t in reversed(toasts) if t.tone == "bad"), toasts[-1].tone if toasts else "plain")
        set_text(self.t_toasts, "\n".join(t.text for t in toasts), TONE_COLOURS[worst])

    def _refresh_status(self, state: TableState) -> None:
        left = state.clock_left()
        lines = wording.status_lines(state.view, state.table, state.connected, left, state.colours())
        set_text(self.t_status, "\n".join(lines), BAD if not state.connected else TEXT)
        set_text(self.t_deck, "\n".join(wording.deck_lines(state.view, state.table, left)))
        # A status taller than its room (many sides, large text) pushes the deck and the buttons down.
        home = self._deck_home
        if home is not None:
            room_top = min(home.top, self.t_status.y - self.t_status.content_height - 10 * self.scale)
            if self.geo is not None:
                self._place_controls(home._replace(bottom=room_top - home.height))

    def _flow(self, state: TableState) -> None:
        # The panel's texts stack under the buttons, each as tall as its wrapped content.
        assert self.geo is not None
        s = self.scale
        x = self.geo.panel.left + 16 * s
        # The status block may be taller than the room left above the deck: push the deck's row down never,
        # the status wraps within its width and keeps to the top.
        y = self.below_buttons - (ROW * s if self.b_bots.visible or self.b_look.visible or self.b_coach.visible else 0)
        box_top = y
        # Announcements never run off the panel's bottom: the oldest give way (large text, a small window).
        self._toasts_fit = 0
        self._refresh_toasts(state)
        taken = sum(t.content_height + 12 * s for t in (self.t_result, self.t_result_line) if t.text)
        taken += 38 * s if self.b_save.visible else 0
        after = sum(t.content_height + 8 * s for t in (self.t_notice, self.t_disabled) if t.text) + 10 * s

        def overflows() -> bool:
            return y - taken - self.t_toasts.content_height - after < self.log_bottom

        shown = len(state.toasts_now())
        while shown > 1 and overflows():
            shown -= 1
            self._toasts_fit = shown
            self._refresh_toasts(state)
        if overflows() and self.t_disabled.text:  # then the standing note (why buttons are off, the mode's note)
            after -= self.t_disabled.content_height + 8 * s
            set_text(self.t_disabled, "")
        for text, gap in ((self.t_result, 4), (self.t_result_line, 8), (self.t_toasts, 8)):
            if (text.x, text.y) != (x, y):
                text.position = x, y
            y -= (text.content_height if text.text else 0) + (gap * s if text.text else 0)
            if text is self.t_result_line and self.b_save.visible:
                # "Save record" sits in the end-of-game box, under who completed which line.
                inner = self.geo.panel.width - 32 * s
                self.b_save.place(x, y - 30 * s, inner * 0.55 - 4 * s, 30 * s)
                self.b_review.place(x + inner * 0.55 + 4 * s, y - 30 * s, inner * 0.45 - 4 * s, 30 * s)
                y -= 38 * s
        back = self.toast_back
        back.visible = y < box_top
        if back.visible:
            p = self.geo.panel
            back.width, back.height = p.width - 12 * s, box_top - y + 8 * s
            back.position = p.cx, (box_top + y) / 2 + 2 * s
            tone = state.result.tone if state.result is not None else "plain"
            back.color = RESULT_BACK[tone] if state.result is not None else TOAST_BACK
            y -= 10 * s
        line_h = 17 * s
        for text, gap in ((self.t_notice, 8), (self.t_disabled, 8), (self.t_since_head, 3)):
            if text is self.t_since_head and y - text.content_height - line_h < self.log_bottom:
                set_text(text, "")  # not even one entry fits: the list and its heading give way
                for entry in self.t_since:
                    set_text(entry, "")
            if (text.x, text.y) != (x, y):
                text.position = x, y
            y -= (text.content_height if text.text else 0) + (gap * s if text.text else 0)
        for text in self.t_since:
            if text.text and y - text.content_height < self.log_bottom:
                set_text(text, "")  # no room left under the panel's other texts (large text, a small window)
            if text.text:
                if (text.x, text.y) != (x + 8 * s, y):
                    text.position = x + 8 * s, y
                y -= max(line_h, text.content_height)
        y -= 6 * s
        if y - self.t_log_head.content_height - line_h - 20 < self.log_bottom:
            set_text(self.t_log_head, "")  # no room for a line of the log: no heading either
        for text, gap in ((self.t_log_head, 3), (self.t_log, 0)):
            if (text.x, text.y) != (x, y):
                text.position = x, y
            y -= (text.content_height if text.text else 0) + gap * s
        self._shown = show_only(self.sprite_list, self.sprites, self._shown)

    def _refresh_log(self, state: TableState) -> None:
        room = self.t_log.y - self.log_bottom
        lines = list(state.log)[-LOG_SHOWN:]
        while True:
            set_text(self.t_log, "\n".join(lines) if room > 20 else "")
            if self.t_log.content_height <= room or len(lines) <= 1:
                break
            lines = lines[1:]
        if self.t_log.content_height > room:
            set_text(self.t_log, "")

    def hover(self, x: float, y: float) -> None:
        """Light the button under the pointer; note the "since your turn" entry's square under it."""
        for b in self.buttons:
            b.hover(x, y)
        self.hovered_square = None
        for text, square in zip(self.t_since, self._since_squares):
            if text.text and square is not None:
                rect = Rect(text.x, text.y - text.content_height, max(text.content_width, 1), text.content_height)
                if rect.contains(x, y):
                    self.hovered_square = square

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
