"""The table screen: board, pegs, hands, piles, deck, turn, clock and the event log.

Everything is drawn through SpriteLists and prepared ``arcade.Text`` objects in
one pyglet batch (the square numbers are baked into the board texture), so a
full board costs about the same as an empty one. Input handlers only turn
clicks and keys into intents (``attempt``); what is legal is the server's word.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

import arcade
from pyglet.graphics import Batch

from board99 import Discard, Draw, Play, fits
from board99.layout import LAYOUT, POSITION

from . import wording
from .buttons import Button
from .geometry import TableGeometry
from .palette import (
    BAD,
    CARD_BACK,
    COLOUR_RGB,
    FONT,
    GOOD,
    PANEL_BG,
    TABLE_BG,
    TEXT,
    TEXT_DIM,
    WARN,
)
from .sounds import Sounds
from .textures import board_at, load_fonts, textures

DEFAULT_COLOURS = tuple(COLOUR_RGB)
FRAME = (92, 60, 30)  # the board's wooden frame
LOG_LINES = 200
BANNER_SECONDS = 6.0


def side_colours(table: dict | None, sides: int) -> list[str]:
    """The colour each side plays, from the table's seats; unpicked sides get the first free colour."""
    colours: list[str | None] = [None] * sides
    for entry in (table or {}).get("seats", ()):
        side, colour = entry.get("side"), entry.get("colour")
        if colour in COLOUR_RGB and side is not None and side < sides and colours[side] is None:
            colours[side] = colour
    free = [c for c in DEFAULT_COLOURS if c not in colours]
    return [c if c is not None else free.pop(0) for c in colours]


class TableView(arcade.View):
    """One table, seen from the player's seat (or as a spectator)."""

    def __init__(
        self,
        session=None,
        sounds: Sounds | None = None,
        on_lobby: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        load_fonts()
        self.session = session
        self.sounds = sounds or Sounds(muted=True)
        self.lobby_cb = on_lobby
        self.view_data: dict | None = None
        self.table: dict | None = None
        self.connected = True
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.picked: int | None = None  # index into the hand
        self.warning: tuple[Play | Draw | Discard, str] | None = None
        self.notice = ""  # one line under the buttons: the last refusal or hint
        self.notice_colour = TEXT
        self.banner = ""
        self.banner_colour = TEXT
        self.banner_until = 0.0
        self.turn_started = time.monotonic()
        self._table_at = time.monotonic()
        self._last_turn: tuple | None = None
        self.drawn = False  # True once a frame with a game in it has been drawn
        self._game_seen: tuple | None = None
        self.geo = TableGeometry(self.window.width, self.window.height, 2, 0)
        self._build()
        self.relayout()
        if session is not None and getattr(session, "latest_state", None):
            self.handle(session.latest_state)  # the lobby may have drained it before this view existed

    # -- building ----------------------------------------------------------------

    def _build(self) -> None:
        tx = textures()
        self.tx = tx
        self.back_list = arcade.SpriteList()
        # The panel and the board's frame are cleared rectangles, not sprites: under software
        # GL a clear is far cheaper than shading the same pixels.
        self.board_sprite = arcade.Sprite(tx.board)
        self.back_list.append(self.board_sprite)
        self.back_list.blend = False  # the board is opaque

        self.mark_list = arcade.SpriteList()  # highlights and hover, under the pegs
        self.highlights = [arcade.Sprite(tx.highlight) for _ in range(100)]
        for s in self.highlights:
            s.visible = False
        self.hover = arcade.Sprite(tx.hover)
        self.hover.visible = False
        # mark_list and peg_list hold only the sprites shown: a hidden sprite in a list still
        # costs its quad in the software rasteriser.
        self._lit: tuple[int, ...] = ()
        self._pegged: tuple[int, ...] = ()

        self.peg_list = arcade.SpriteList()
        self.pegs = [arcade.Sprite(tx.pegs[("red", 0)]) for _ in range(100)]
        for s in self.pegs:
            s.visible = False
        self.line_list = arcade.SpriteList()
        self.line = arcade.Sprite(tx.line)
        self.line.color = (255, 215, 0, 230)
        self.line.visible = False
        self.line_list.extend([self.hover, self.line])

        self.card_list = arcade.SpriteList()
        self.glow = arcade.Sprite(tx.white)
        self.glow.color = (255, 220, 60, 255)
        self.glow.visible = False
        self.hand_cards = [arcade.Sprite(tx.cards[0]) for _ in range(5)]
        self.slots = [arcade.Sprite(tx.white) for _ in range(5)]  # where the hand's cards go
        for slot in self.slots:
            slot.color = (18, 52, 32, 255)
        self.deck = arcade.Sprite(tx.cards[CARD_BACK])
        self.piles = [arcade.Sprite(tx.cards[0]) for _ in range(6)]
        self.seat_pegs = [arcade.Sprite(tx.pegs[("red", 0)]) for _ in range(6)]
        self.turn_marks = [arcade.Sprite(tx.white) for _ in range(6)]
        for s in self.turn_marks:
            s.color = WARN
        # card_list holds the shown ones of these, in this order (see _show_only)
        self.card_sprites = [*self.slots, self.glow, *self.turn_marks, *self.hand_cards, self.deck, *self.piles,
                             *self.seat_pegs]
        self._cards_shown: tuple[int, ...] = ()

        self.over_list = arcade.SpriteList()  # banner and warning backgrounds, above everything
        self.banner_back = arcade.Sprite(tx.white)
        self.banner_back.color = (10, 10, 10, 225)
        self.warn_back = arcade.Sprite(tx.white)
        self.warn_back.color = (60, 30, 10, 245)
        self.over_list.extend([self.banner_back, self.warn_back])

        self.batch = Batch()
        self.over_batch = Batch()
        t = self._text
        self.t_title = t(16, bold=True)
        self.t_status = t(13, multiline=True)
        self.t_deck = t(13, bold=True)
        self.t_disabled = t(11, color=TEXT_DIM, multiline=True)
        self.t_notice = t(12, multiline=True)
        self.t_log_head = t(12, bold=True, color=TEXT_DIM)
        self.t_log = t(11, multiline=True)
        self.t_hand = t(12, color=TEXT_DIM)
        self.t_seats = [t(12, bold=True, multiline=True) for _ in range(6)]
        self.t_piles = [t(10, color=TEXT_DIM) for _ in range(6)]
        self.t_banner = t(17, bold=True, multiline=True, align="center", batch=self.over_batch)
        self.t_warn = t(14, multiline=True, batch=self.over_batch)

        self.buttons: list[Button] = []
        self.button_list = arcade.SpriteList()
        self.over_button_list = arcade.SpriteList()  # the warning's buttons, above its box
        btn = self._button
        self.b_draw = btn("Draw (D)", lambda: self.attempt(Draw()))
        self.b_discard = btn("Discard (X)", self._discard_picked)
        self.b_cancel = btn("Cancel (Esc)", self.cancel)
        self.b_mute = btn("Unmute (M)" if self.sounds.muted else "Mute (M)", self.toggle_mute)
        self.b_rematch = btn("Rematch", self._rematch)
        self.b_bots = btn("Fill seats with bots", self._fill_bots)
        self.b_lobby = btn("Lobby", self._to_lobby)
        self.b_confirm = btn("Do it anyway (Enter)", self._confirm_warning, over=True)
        self.b_back = btn("Cancel (Esc)", self.cancel, over=True)
        for b in (self.b_confirm, self.b_back, self.b_bots):
            b.visible = False

    def _text(self, size: float, *, bold: bool = False, color=TEXT, multiline: bool = False,
              align: str = "left", batch: Batch | None = None) -> arcade.Text:
        return arcade.Text("", 0, 0, color, size, width=300 if multiline else None, align=align,
                           font_name=FONT, bold=bold, multiline=multiline, anchor_y="top",
                           batch=batch or self.batch)

    def _button(self, label: str, action: Callable[[], None], over: bool = False) -> Button:
        b = Button(label, action, self.tx.white, self.over_button_list if over else self.button_list,
                   self.over_batch if over else self.batch)
        self.buttons.append(b)
        return b

    # -- layout ----------------------------------------------------------------

    def relayout(self) -> None:
        """Place everything for the current window size and seating."""
        w, h = self.window.width, self.window.height
        v = self.view_data
        players = v["players"] if v else (self.table or {}).get("players", 2)
        g = self.geo = TableGeometry(w, h, players, v.get("seat") if v else None)
        b, c = g.board, g.cell
        # The board texture is resampled to the board's size on screen and drawn without
        # filtering: crisper numbers than the GPU's minification, and cheaper under llvmpipe.
        pixels = max(16, round(b.width * self.window.get_pixel_ratio()))
        self.board_sprite.texture = board_at(pixels)
        self.board_sprite.position = b.cx, b.cy
        self.board_sprite.width = self.board_sprite.height = b.width
        for sq in range(100):
            row, col = POSITION[sq]
            x, y = g.square_centre(row, col)
            hl = self.highlights[sq]
            hl.position = x, y
            hl.width = hl.height = c
            peg = self.pegs[sq]
            peg.position = g.peg_centre(row, col)
            peg.width = peg.height = c * 0.56
        self.hover.width = self.hover.height = c
        for i, (card, slot) in enumerate(zip(self.hand_cards, self.slots)):
            r = g.hand_card(i)
            card.position = slot.position = r.cx, r.cy
            card.width, card.height = r.width, r.height
            slot.width, slot.height = r.width, r.height
        for pile, peg in zip(self.piles, self.seat_pegs):
            pile.width, pile.height = g.pile_w, g.pile_h
            peg.width = peg.height = 26
        self.deck.width, self.deck.height = g.pile_w * 1.25, g.pile_h * 1.25
        p = g.panel
        self.deck.position = p.left + 24 + self.deck.width / 2, h - 150 - self.deck.height / 2
        self.t_title.position = p.left + 16, h - 14
        self.t_title.width = p.width - 32
        self.t_status.position = p.left + 16, h - 44
        self.t_status.width = p.width - 32
        self.t_deck.position = self.deck.right + 14, self.deck.center_y + 10
        # buttons: two columns under the deck
        top = self.deck.bottom - 12
        grid = [(self.b_draw, self.b_discard), (self.b_cancel, self.b_mute),
                (self.b_rematch, self.b_lobby)]
        bw = (p.width - 44) / 2
        for r, pair in enumerate(grid):
            for k, button in enumerate(pair):
                button.place(p.left + 16 + k * (bw + 12), top - (r + 1) * 40, bw, 34)
        self.b_bots.place(p.left + 16, top - 4 * 40, p.width - 32, 34)
        self.below_buttons = top - 3 * 40 - 8  # the "fill seats" button, when shown, takes 40 more
        for text in (self.t_disabled, self.t_notice, self.t_log):
            text.width = p.width - 32
        self.log_bottom = 12
        banner_w = max(b.width * 0.94, min(g.panel.left - 40, 640))
        self.t_banner.position = b.cx - banner_w / 2 + 12, b.top - 24
        self.t_banner.width = banner_w - 24
        self.t_banner.text = ""  # set again (and placed) by refresh
        self._fit_banner()
        self.warn_back.position = b.cx, b.cy
        self.warn_back.width, self.warn_back.height = min(w - 40, 640), 250
        self.t_warn.position = self.warn_back.left + 20, self.warn_back.top - 18
        self.t_warn.width = self.warn_back.width - 40
        self.b_confirm.place(self.warn_back.left + 20, self.warn_back.bottom + 16, 260, 38)
        self.b_back.place(self.warn_back.right - 200, self.warn_back.bottom + 16, 180, 38)
        self.refresh()

    # -- state from the server ---------------------------------------------------------

    def show(self, view: dict | None, table: dict | None = None, connected: bool = True) -> None:
        """Take a new view (Game.view data) and table description from the server, and redraw."""
        seating_changed = (
            (view or {}).get("players") != (self.view_data or {}).get("players")
            or (view or {}).get("seat") != (self.view_data or {}).get("seat")
        )
        old_hand = (self.view_data or {}).get("hand") or []
        self.view_data = view
        if table is not None:
            self.table = table
            self._table_at = time.monotonic()
            self._note_start(view, table)
        self.connected = connected
        hand = (view or {}).get("hand") or []
        if self.picked is not None:
            # keep the same card picked if it is still held
            card = old_hand[self.picked] if self.picked < len(old_hand) else None
            self.picked = hand.index(card) if card in hand else None
        turn_key = None if view is None else (view.get("deal"), view.get("ply"), view.get("turn"))
        if view is not None and (self._last_turn is None or turn_key[2] != self._last_turn[2]
                                 or turn_key[0] != self._last_turn[0]):
            self.turn_started = time.monotonic()
        self._last_turn = turn_key
        if seating_changed:
            self.relayout()
        else:
            self.refresh()

    def _note_start(self, view: dict | None, table: dict) -> None:
        # A game's start is a table change, not an event (and the server does not echo it to
        # the connection whose request started it): log it once per game, with its cut.
        key = (table.get("id"), table.get("game"))
        if table.get("state") != "playing" or view is None or key == self._game_seen:
            return
        first_seen = self._game_seen is None
        self._game_seen = key
        cut = view.get("cut")
        opener = f"; {wording.seat_name(cut.index(min(cut)), table)} plays first" if cut else ""
        cut_text = f", cut {' '.join(map(str, cut))}" if cut else ""
        started = "starts" if view.get("ply", 0) == 0 else "is under way"
        line = f"Game {table.get('game', 1)} {started} (deal {view.get('deal')}{cut_text}){opener}"
        self.log.append(line)
        if not first_seen:
            self.announce(line, GOOD)  # a rematch: the old game's banner gives way

    def add_events(self, events: list[dict]) -> None:
        """Log what happened (every action and every penalty with its rule); sound and announce it."""
        for event in events:
            line = wording.event_line(event, self.table)
            self.log.append(line)
            kind = event.get("kind")
            if kind == "played":
                self.sounds.play("peg")
            elif kind == "drew":
                self.sounds.play("draw")
            elif kind == "penalty":
                self.sounds.play("penalty")
                self.announce(line, BAD)
            elif kind == "won":
                self.sounds.play("win")
                self.announce(line + "\nPress Rematch to play again.", GOOD, seconds=1e9)
            elif kind == "tied":
                self.announce(line, WARN)
            elif kind == "dealt" and event.get("deal", 1) > 1:
                self.announce(f"{line}", WARN)
        self.refresh()

    def announce(self, text: str, colour=TEXT, seconds: float = BANNER_SECONDS) -> None:
        """Show a banner across the top of the board."""
        self.banner, self.banner_colour = text, colour
        self.banner_until = time.monotonic() + seconds

    def tell(self, text: str, colour=TEXT) -> None:
        """Show one line under the buttons (a refusal, a hint)."""
        self.notice, self.notice_colour = text, colour
        self.refresh()

    # -- drawing state ------------------------------------------------------------------

    def _set(self, text: arcade.Text, value: str, color=None) -> None:
        # Changing an arcade.Text re-lays it out: only touch it when it changed.
        if text.text != value:
            text.text = value
        if color is not None and tuple(text.color)[:3] != tuple(color)[:3]:
            text.color = color

    def refresh(self) -> None:
        """Bring every sprite and text in line with the current view."""
        v, g, tx = self.view_data, self.geo, self.tx
        players = v["players"] if v else (self.table or {}).get("players", 2)
        sides = v["sides"] if v else (players if players <= 3 else players // 2)
        colours = side_colours(self.table, sides)
        board = v["board"] if v else [None] * 100
        for sq, peg in enumerate(self.pegs):
            side = board[sq]
            if side is None:
                peg.visible = False
            else:
                peg.texture = tx.pegs[(colours[side], side)]
                peg.width = peg.height = g.cell * 0.56
                peg.visible = True
        self._pegged = self._show_only(self.peg_list, self.pegs, self._pegged)
        hand = (v or {}).get("hand") or []
        if self.picked is not None and self.picked >= len(hand):
            self.picked = None
        picked_card = hand[self.picked] if self.picked is not None else None
        # Highlight: the free squares the picked card allows (board99.fits on the server's board).
        for sq, hl in enumerate(self.highlights):
            hl.visible = picked_card is not None and board[sq] is None and fits(picked_card, sq)
        self._lit = self._show_only(self.mark_list, self.highlights, self._lit)
        self._refresh_hand(hand, v)
        self._refresh_seats(v, colours, players)
        self._refresh_line(v)
        self._refresh_panel(v, picked_card)
        self._cards_shown = self._show_only(self.card_list, self.card_sprites, self._cards_shown)

    @staticmethod
    def _show_only(sprite_list: arcade.SpriteList, sprites: list[arcade.Sprite], before: tuple) -> tuple:
        """Make ``sprite_list`` hold exactly the visible ``sprites``; returns their indices."""
        now = tuple(i for i, s in enumerate(sprites) if s.visible)
        if now != before:
            sprite_list.clear()
            sprite_list.extend(sprites[i] for i in now)
        return now

    def _refresh_hand(self, hand: list[int], v: dict | None) -> None:
        g, tx = self.geo, self.tx
        dim = v is not None and v.get("mode") == "guarded" and wording.not_now(v) is not None
        seated = v is not None and v.get("seat") is not None
        for i, slot in enumerate(self.slots):
            slot.visible = seated and i >= len(hand)
        for i, sprite in enumerate(self.hand_cards):
            if i < len(hand):
                sprite.texture = tx.cards[hand[i]]
                r = g.hand_card(i, raised=i == self.picked)
                sprite.position = r.cx, r.cy
                sprite.width, sprite.height = r.width, r.height
                sprite.color = (150, 150, 150, 255) if dim else (255, 255, 255, 255)
                sprite.visible = True
            else:
                sprite.visible = False
        if self.picked is not None:
            r = g.hand_card(self.picked, raised=True)
            self.glow.position = r.cx, r.cy
            self.glow.width, self.glow.height = r.width + 10, r.height + 10
            self.glow.visible = True
        else:
            self.glow.visible = False
        if v is None or v.get("seat") is None:
            label = "Spectating" if v is not None else ""
        else:
            label = f"Your hand, {len(hand)} of 5: click a card (or 1-5), then a square"
        self._set(self.t_hand, label)
        self.t_hand.position = g.hand_card(0).left, 24

    def _refresh_seats(self, v: dict | None, colours: list[str], players: int) -> None:
        g, tx = self.geo, self.tx
        sides = len(colours)
        for seat in range(6):
            pile, peg, label, count, mark = (self.piles[seat], self.seat_pegs[seat], self.t_seats[seat],
                                             self.t_piles[seat], self.turn_marks[seat])
            if seat >= players:
                pile.visible = peg.visible = mark.visible = False
                self._set(label, "")
                self._set(count, "")
                continue
            spot = g.seat_spot(seat)
            side = seat % sides
            discards = v["discards"][seat] if v else []
            # An empty pile shows its place on the table, so the turn mark frames something.
            pile.visible = True
            pile.texture = tx.cards[discards[-1]] if discards else tx.white
            pile.color = (255, 255, 255, 255) if discards else (18, 52, 32, 255)
            pile.position = spot.pile_x, spot.pile_y
            pile.width, pile.height = g.pile_w, g.pile_h
            self._set(count, f"{len(discards)} discarded" if discards else "no discards")
            count.position = spot.count_x, spot.count_y
            text = wording.seat_label(seat, side, v, self.table, colours[side])
            label.width = max(60, int(spot.label_width - 30))
            label.position = spot.label_left + 30, spot.label_top
            peg.texture = tx.pegs[(colours[side], side)]
            peg.width = peg.height = 24
            peg.visible = True
            peg.position = spot.label_left + 12, spot.label_top - 10
            is_turn = (v is not None and v.get("turn") == seat and v.get("winner") is None
                       and not self.waiting)
            mark.visible = is_turn
            if is_turn:
                mark.position = spot.pile_x, spot.pile_y
                mark.width, mark.height = g.pile_w + 12, g.pile_h + 12
            self._set(label, text, WARN if is_turn else TEXT)

    def _refresh_line(self, v: dict | None) -> None:
        line = (v or {}).get("line")
        if not line:
            self.line.visible = False
            return
        g = self.geo
        (r0, c0), (r1, c1) = POSITION[line[0]], POSITION[line[-1]]
        x0, y0 = g.peg_centre(r0, c0)
        x1, y1 = g.peg_centre(r1, c1)
        self.line.position = (x0 + x1) / 2, (y0 + y1) / 2
        self.line.width = math.hypot(x1 - x0, y1 - y0) + g.cell * 0.6
        self.line.height = g.cell * 0.16
        self.line.angle = -math.degrees(math.atan2(y1 - y0, x1 - x0))
        self.line.visible = True
        self._fit_banner()  # keep the announcement off the line

    def _refresh_panel(self, v: dict | None, picked_card: int | None) -> None:
        t = self.table or {}
        mode = (v or {}).get("mode") or t.get("mode") or "guarded"
        self._set(self.t_title, str(t.get("name", "GAME OF 99"))[:28])
        waiting = v is None or t.get("state") == "waiting"
        left = None
        clock = t.get("clock")
        if clock and not waiting and v.get("winner") is None:
            # The server's own count when the table info carries it; else ours since the turn changed.
            if t.get("turn_left") is not None:
                left = max(0.0, t["turn_left"] - (time.monotonic() - self._table_at))
            else:
                left = max(0.0, clock - (time.monotonic() - self.turn_started))
        lines = wording.status_lines(v, t, self.connected, left)
        self._set(self.t_status, "\n".join(lines), BAD if not self.connected else TEXT)
        self._set(self.t_deck, f"Deck: {v['deck_size']} cards" if v else "Deck")
        self.deck.visible = bool(v and v["deck_size"])
        guarded = mode == "guarded"
        playing = None if waiting else v  # before the start no action is possible at all
        reasons = {
            "Draw": wording.draw_disabled(playing),
            "Play": wording.play_disabled(playing, picked_card),
            "Discard": wording.discard_disabled(playing, picked_card),
        }
        if guarded:
            self.b_draw.disabled = reasons["Draw"] is not None
            self.b_discard.disabled = reasons["Discard"] is not None
            grouped: dict[str, list[str]] = {}
            for what, reason in reasons.items():
                if reason:
                    grouped.setdefault(reason, []).append(what)
            shown = [f"{', '.join(whats)}: {reason}" for reason, whats in grouped.items()]
            self._set(self.t_disabled, "Disabled — " + "; ".join(shown) if shown else "")
        else:
            self.b_draw.disabled = v is None or v.get("seat") is None
            self.b_discard.disabled = picked_card is None
            self._set(self.t_disabled, "Penalty mode: you may act out of turn or illegally; "
                                        "you are warned first and penalised after." if v else "")
        over = v is not None and v.get("winner") is not None
        self.b_rematch.disabled = not over
        self.b_bots.visible = waiting and self.session is not None
        self._set(self.t_notice, self.notice, self.notice_colour)
        self._set(self.t_log_head, "Event log")
        self._flow()
        self._refresh_log()
        warn = self.warning is not None
        self.warn_back.visible = warn
        self.b_confirm.visible = self.b_back.visible = warn
        self._set(self.t_warn, f"WARNING — this is an offence\n\n{self.warning[1]}" if warn else "")
        banner = self.banner if time.monotonic() < self.banner_until else ""
        if not self.connected:
            banner = "reconnecting…"
        self.banner_back.visible = bool(banner)
        if self.t_banner.text != banner:
            self._set(self.t_banner, banner)
            self._fit_banner()
        self._set(self.t_banner, banner, BAD if not self.connected else self.banner_colour)

    def _fit_banner(self) -> None:
        # The banner's dark box grows with its (wrapped) text.
        # It sits at the top of the board, or at the bottom when the winning line is in the top half.
        b = self.geo.board
        height = (self.t_banner.content_height if self.t_banner.text else 0) + 24
        line = (self.view_data or {}).get("line") or ()
        low = bool(line) and sum(POSITION[sq][0] for sq in line) / len(line) < 5
        top = b.bottom + 12 + height if low else b.top - 12
        self.banner_back.width, self.banner_back.height = self.t_banner.width + 24, height
        self.banner_back.position = b.cx, top - height / 2
        if self.t_banner.y != top - 12:
            self.t_banner.y = top - 12

    def _flow(self) -> None:
        # The panel's texts stack under the buttons, each as tall as its wrapped content.
        x = self.geo.panel.left + 16
        y = self.below_buttons - (40 if self.b_bots.visible else 0)
        for text, gap in ((self.t_disabled, 6), (self.t_notice, 10), (self.t_log_head, 4), (self.t_log, 0)):
            if (text.x, text.y) != (x, y):
                text.position = x, y
            if text is not self.t_log:
                y -= (text.content_height if text.text else 0) + gap

    def _refresh_log(self) -> None:
        room = self.t_log.y - self.log_bottom
        lines = list(self.log)[-14:]
        while True:
            self._set(self.t_log, "\n".join(lines))
            if self.t_log.content_height <= room or len(lines) <= 1:
                break
            lines = lines[1:]

    # -- arcade callbacks -----------------------------------------------------------

    def on_show_view(self) -> None:
        """Lay out for the window the view is shown in."""
        self.relayout()

    def on_resize(self, width: int, height: int) -> None:
        """Lay everything out again for the new size."""
        self.relayout()

    def on_update(self, delta_time: float) -> None:
        """Take what the network thread has for us; tick the clock and the banner."""
        if self.session is not None:
            for msg in self.session.drain():
                self.handle(msg)
        clock_or_banner = (self.table or {}).get("clock") or self.banner_back.visible
        if clock_or_banner:
            self._refresh_panel(self.view_data, self._picked_card())

    def on_draw(self) -> None:
        """Draw the table: sprite lists, one text batch, the buttons."""
        g, ratio = self.geo, self.window.get_pixel_ratio()

        def px(left: float, bottom: float, width: float, height: float) -> tuple[int, int, int, int]:
            return round(left * ratio), round(bottom * ratio), round(width * ratio), round(height * ratio)

        self.clear(color=TABLE_BG)
        self.clear(color=PANEL_BG, viewport=px(*g.panel))
        b = g.board
        self.clear(color=FRAME, viewport=px(b.left - 8, b.bottom - 8, b.width + 16, b.height + 16))
        self.back_list.draw(pixelated=True)
        self.mark_list.draw()
        self.peg_list.draw()
        self.line_list.draw()
        self.card_list.draw()
        self.button_list.draw()
        self.batch.draw()
        if self.banner_back.visible or self.warn_back.visible:  # hidden sprites still cost their pixels
            self.over_list.draw()
            self.over_button_list.draw()
            self.over_batch.draw()
        if self.view_data is not None:
            self.drawn = True

    # -- messages from the network thread -------------------------------------------------

    def handle(self, msg: dict) -> None:
        """One message from the session: new state, events, a reply or an error."""
        kind = msg.get("type")
        if kind == "state":
            self.show(msg.get("view"), msg.get("table"), msg.get("connected", True))
        elif kind == "events":
            self.add_events(msg["events"])
        elif kind == "error":
            self.tell(f"Server refused ({msg.get('code')}): {msg.get('message')}", BAD)
        elif kind == "push":
            push = msg.get("push") or {}
            if push.get("type") == "seat-lost":
                self.tell(f"Your seat could not be taken back ({push.get('code')}): {push.get('message')}", BAD)
            elif push.get("type") == "restarted":
                self.tell("The server restarted; taking the seat back…", WARN)
            elif push.get("type") == "error":
                self.tell(f"Server: {push.get('message')}", BAD)

    # -- input: clicks and keys become intents ---------------------------------------------

    @property
    def waiting(self) -> bool:
        """True while the table waits for players (the game has not started)."""
        return (self.table or {}).get("state") == "waiting"

    def _picked_card(self) -> int | None:
        hand = (self.view_data or {}).get("hand") or []
        return hand[self.picked] if self.picked is not None and self.picked < len(hand) else None

    def pick(self, index: int) -> None:
        """Pick the hand's ``index``-th card (0-4); picking it again puts it back."""
        hand = (self.view_data or {}).get("hand") or []
        if index >= len(hand):
            self.tell(f"You hold {len(hand)} card(s); there is no card {index + 1}", WARN)
            return
        self.picked = None if self.picked == index else index
        card = self._picked_card()
        self.tell("" if card is None else f"Card {card} picked: it allows squares {card} to 99. Click a square.")

    def cancel(self) -> None:
        """Esc: close a warning, else put the picked card back."""
        if self.warning is not None:
            self.warning = None
            self.tell("Cancelled: nothing was done")
        else:
            self.picked = None
            self.tell("")

    def toggle_mute(self) -> None:
        """M: sound on or off."""
        muted = self.sounds.toggle()
        self.b_mute.text = "Unmute (M)" if muted else "Mute (M)"
        self.refresh()

    def _discard_picked(self) -> None:
        card = self._picked_card()
        if card is None:
            self.tell("Pick a card to discard first (keys 1-5)", WARN)
            return
        self.attempt(Discard(card))

    def attempt(self, action: Play | Draw | Discard) -> None:
        """The player asks for an action: guarded shows why not, penalty warns, then the server decides."""
        v = None if self.waiting else self.view_data
        if v is None or v.get("seat") is None:
            self.tell(f"Not possible now: {wording.not_now(v) or 'you hold no seat'}", WARN)
            return
        if v.get("mode") == "guarded":
            reason = {Draw: wording.draw_disabled, Discard: lambda view: wording.discard_disabled(view, 0),
                      Play: lambda view: wording.not_now(view)}[type(action)](v)
            if reason:
                self.tell(f"Not possible now: {reason}", WARN)
                return
        else:
            warning = wording.offence_warning(v, action)
            if warning:
                self.warning = (action, warning)
                self.refresh()
                return
        self.send(action)

    def _confirm_warning(self) -> None:
        if self.warning is None:
            return
        action = self.warning[0]
        self.warning = None
        self.send(action)

    def send(self, action: Play | Draw | Discard) -> None:
        """Hand the action to the network thread; the server's answer comes back as messages."""
        self.picked = None
        if self.session is None:
            self.tell("not connected to a server", BAD)
            return
        self.session.act(action)
        self.tell(f"Sent: {action.text()}")

    def _rematch(self) -> None:
        if self.session is not None:
            self.session.rematch()
            self.banner_until = 0.0
            self.tell("Rematch asked for")

    def _fill_bots(self) -> None:
        if self.session is None or self.table is None:
            return
        for entry in self.table.get("seats", ()):
            if not entry.get("occupant"):
                self.session.add_bot(self.table["id"], entry["seat"])
        self.tell("Bots asked for the empty seats")

    def _to_lobby(self) -> None:
        if self.session is not None:
            self.session.leave()
        if self.lobby_cb is not None:
            self.lobby_cb()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Outline the square under the pointer; light the button under it."""
        for b in self.buttons:
            b.hover(x, y)
        cell = self.geo.cell_at(x, y)
        if cell is None:
            self.hover.visible = False
            return
        sx, sy = self.geo.square_centre(*cell)
        self.hover.position = sx, sy
        self.hover.visible = True

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click on a button presses it; on a card picks it; on a square plays the picked card there."""
        if self.warning is not None:
            self.b_confirm.click(x, y) or self.b_back.click(x, y)
            return
        for b in self.buttons:
            if b.click(x, y):
                return
        hand = (self.view_data or {}).get("hand") or []
        for i in range(len(hand)):
            if self.geo.hand_card(i, raised=i == self.picked).contains(x, y):
                self.pick(i)
                return
        if self.deck.visible and self.deck.collides_with_point((x, y)):
            self.attempt(Draw())
            return
        cell = self.geo.cell_at(x, y)
        if cell is not None:
            card = self._picked_card()
            square = LAYOUT[cell[0]][cell[1]]
            if card is None:
                self.tell(f"Square {square}: pick a card first (click it or press 1-5)", WARN)
                return
            self.attempt(Play(card, square))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """1-5 pick a card, D draws, X discards the picked card, Esc cancels, M mutes, Enter confirms."""
        k = arcade.key
        if self.warning is not None:
            if symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
                self._confirm_warning()
            elif symbol == k.ESCAPE:
                self.cancel()
            return
        digits = {k.KEY_1: 0, k.KEY_2: 1, k.KEY_3: 2, k.KEY_4: 3, k.KEY_5: 4,
                  k.NUM_1: 0, k.NUM_2: 1, k.NUM_3: 2, k.NUM_4: 3, k.NUM_5: 4}
        if symbol in digits:
            self.pick(digits[symbol])
        elif symbol == k.D:
            self.attempt(Draw())
        elif symbol == k.X:
            self._discard_picked()
        elif symbol == k.ESCAPE:
            self.cancel()
        elif symbol == k.M:
            self.toggle_mute()
