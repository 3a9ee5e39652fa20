"""The Ninety-Nine table screen: the running total large in the middle, the seats around it, the player's hand
with the cards that fit marked, this table's card effects at a glance, the last play and the log.

``NinetyState`` (ninety_state.py) knows what is shown and what input means;
this view lays it out for the window's size and the player's scale, draws it,
moves a played card to the pile, plays the sounds, and passes the state's
actions to the session. Nothing here judges a card: the engine's view does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import arcade

from board99.kinds import Settings
from board99.ninety_nine.actions import Draw
from board99.ninety_nine.cards import JOKER, RANKS
from board99.ninety_nine.kind import NINETY_NINE

from . import wording
from .drawing import MIN_POINTS
from .help_view import HelpTopic, keys_of
from .messages import Message
from .ninety_cards import CARD_H, CARD_W, card_texture
from .ninety_state import NinetyState
from .palette import BAD, GOOD, PANEL_BG, TABLE_BG, TEXT, TEXT_DIM, WARN
from .preferences import ANIMATION_SPEEDS
from .scale import ui_scale
from .sounds import Sounds
from .textures import load_fonts

TITLE = "Ninety-Nine"
FONT = "DejaVu Sans"
#: Seconds a played card takes to reach the pile (times the player's animation setting).
MOTION_SECONDS = 0.35
#: The turn's outline: bright, and also said in words ("TO PLAY") so no one needs the colour.
TURN = (255, 214, 10)

KEY_NAMES: dict[int, str] = {
    **{getattr(arcade.key, f"KEY_{n}"): str(n) for n in range(1, 10)},
    **{getattr(arcade.key, f"NUM_{n}"): str(n) for n in range(1, 10)},
    arcade.key.D: "d", arcade.key.ESCAPE: "escape", arcade.key.UP: "up", arcade.key.DOWN: "down",
    arcade.key.R: "r", arcade.key.M: "m", arcade.key.H: "h", arcade.key.S: "s",
    # Saying the total at a penalty table: T, its digits, Enter.
    arcade.key.T: "t", arcade.key.KEY_0: "0", arcade.key.NUM_0: "0", arcade.key.ENTER: "enter",
    arcade.key.NUM_ENTER: "enter", arcade.key.MINUS: "minus", arcade.key.NUM_SUBTRACT: "minus",
}
KEYS_LINE = "1-9: play that card · Up/Down: an ace's or ten's value · D: draw · H: this table's rules · " \
            "M: sound · S: settings · Esc: lobby · F1: help"


class Box(NamedTuple):
    """A clickable place on the screen: what a click there means."""

    left: float
    bottom: float
    width: float
    height: float
    target: tuple[str, int]  # ("card", index) or ("value", 0 high / 1 low)

    def holds(self, x: float, y: float) -> bool:
        """True if (x, y) is inside."""
        return self.left <= x <= self.left + self.width and self.bottom <= y <= self.bottom + self.height


class Motion(NamedTuple):
    """A card on its way to the pile."""

    card: str
    x: float
    y: float
    start: float


class NinetyTable(arcade.View):
    """One Ninety-Nine table, seen from the player's seat (or as a spectator)."""

    #: What the keys do once the game is over (said under the result).
    OVER_KEYS = "R: a rematch · Esc: the lobby"
    #: The screen's keys in one line (along the bottom; F1's rules screen lists them).
    KEYS_LINE = KEYS_LINE

    def __init__(self, session: Any = None, sounds: Sounds | None = None,
                 on_lobby: Callable[[], object] | None = None, *,
                 on_help: Callable[[], object] | None = None, on_settings: Callable[[], object] | None = None,
                 on_quit: Callable[[], object] | None = None) -> None:
        super().__init__()
        load_fonts()
        self.sounds = sounds or Sounds(muted=True)
        self.state = NinetyState()
        self.session = session
        self.lobby_cb, self.help_cb, self.settings_cb = on_lobby, on_help, on_settings
        self.boxes: list[Box] = []
        self.texts: list[arcade.Text] = []
        self.motions: list[Motion] = []
        self.shapes: list[tuple[float, float, float, float, Any, Any]] = []
        self.top_shapes: list[tuple[float, float, float, float, Any, Any]] = []
        self.top_texts: list[arcade.Text] = []
        self.cards: list[tuple[str | None, float, float, float, float, float]] = []  # card, cx, cy, w, h, alpha
        self.drawn = False
        self.scale = 1.0
        self.pile_xy = (0.0, 0.0)
        self.seat_xy: dict[int, tuple[float, float]] = {}
        self.hand_xy: list[tuple[float, float]] = []
        self.batching = False  # messages are being taken in a batch: one layout after them (``on_update``)
        if session is not None and getattr(session, "latest_state", None) is not None:
            self.handle(session.latest_state)

    def help_topic(self) -> HelpTopic | None:
        """What the rules screen (F1) explains over this table: its rules and house options, and these keys."""
        v = self.state.view
        if v is None:
            return None
        return HelpTopic(NINETY_NINE.name, Settings(v.players, v.mode, v.options, v.players),
                         keys_of(self.KEYS_LINE))

    # -- messages and input ------------------------------------------------------------------

    def handle(self, msg: Message) -> None:
        """One message from the session: the state takes it, the sounds play, the screen follows (once for a
        batch: ``on_update``)."""
        before = self.state.view
        received = self.state.receive(msg)
        for seat, card in received.motions:
            self._move(seat, card, before)
        for name in received.sounds:
            self.sounds.play(name)
        if not self.batching:
            self.refresh()

    def _move(self, seat: int | None, card: str, before: Any) -> None:
        factor = ANIMATION_SPEEDS.get(self.window.prefs.animation, 1.0)
        if factor <= 0:
            return
        if before is not None and seat == before.seat and before.hand and card in before.hand:
            x, y = self.hand_xy[before.hand.index(card)] if len(self.hand_xy) > before.hand.index(card) else (0, 0)
        else:
            x, y = self.seat_xy.get(seat, self.pile_xy) if seat is not None else self.pile_xy
        self.motions.append(Motion(card, x, y, self.state.clock()))

    def send(self, actions: list) -> None:
        """Send the state's actions to the session (judged at the position on screen)."""
        view = self.state.view
        for action in actions:
            if self.session is not None:
                # A card is judged on the position on screen; a draw is owed for one's own card, whatever
                # moved on since (the position on screen may not yet show that card).
                ply = None if view is None or isinstance(action, Draw) else view.ply
                self.session.act(action, ply=ply)

    def perform(self, meaning: list | str) -> None:
        """Carry out what a key or click meant."""
        if isinstance(meaning, list):
            self.send(meaning)
        elif meaning == "lobby":
            if self.session is not None and hasattr(self.session, "leave"):
                self.session.leave()
            if self.lobby_cb is not None:
                self.lobby_cb()
        elif meaning == "rematch" and self.session is not None:
            self.session.rematch()
        elif meaning == "settings" and self.settings_cb is not None:
            self.settings_cb()  # the window's settings screen; on_show_view reads them again after
        elif meaning == "mute":
            self.sounds.muted = not self.sounds.muted
            self.state.tell("Sound off" if self.sounds.muted else "Sound on")
        self.refresh()

    # -- arcade callbacks --------------------------------------------------------------------------

    def on_show_view(self) -> None:
        """Read the player's settings (they may have changed) and lay out."""
        self.sounds.volume = self.window.prefs.volume
        self.sounds.muted = self.sounds.muted or self.window.prefs.muted
        self.refresh()

    def on_resize(self, width: int, height: int) -> None:
        """Lay everything out again for the new size."""
        self.refresh()

    def on_update(self, delta_time: float) -> None:
        """Take what the network thread has; keep drawing while a card moves."""
        if self.session is not None and hasattr(self.session, "drain"):
            # One layout for all that came since the last frame: a layout makes some sixty texts (a tenth of a
            # second or more), and quick bots send a whole round at once; laying out after each froze the window.
            messages = self.session.drain()
            self.batching = True
            try:
                for msg in messages:
                    self.handle(msg)
            finally:
                self.batching = False
            if messages:
                self.refresh()
        if self.motions:
            self.window.awake(0.3)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """1-9 a card, Up/Down its value, D draw, H rules, M sound, R rematch, Esc back."""
        name = KEY_NAMES.get(symbol)
        if name is not None:
            self.motions.clear()
            self.perform(self.state.key(name))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click on a card plays it (or picks it while its value is chosen); on a value, that value."""
        self.motions.clear()
        for box in reversed(self.boxes):
            if box.holds(x, y):
                what, index = box.target
                self.perform(self.state.pick(index) if what == "card" else self.state.choose(index == 0))
                return

    # -- layout -------------------------------------------------------------------------------

    def _text(self, value: str, x: float, y: float, size: float, color: Any = TEXT, *, bold: bool = False,
              anchor_x: str = "left", anchor_y: str = "baseline", width: float | None = None,
              align: str = "left", top: bool = False) -> arcade.Text:
        kw: dict[str, Any] = {"multiline": True, "width": int(width), "align": align} if width else {}
        # Never below the table's smallest size: at 960 x 640 a 10.5-point line scaled to 8 points
        # was drawn with letters missing ("acds").
        text = arcade.Text(value, x, y, color, round(max(MIN_POINTS, size * self.scale)), font_name=FONT,
                           bold=bold,
                           anchor_x=anchor_x,
                           anchor_y=anchor_y, **kw)
        (self.top_texts if top else self.texts).append(text)
        return text

    def refresh(self) -> None:
        """Lay the whole table out again from the state (a few dozen texts: cheap at a change of state)."""
        win = self.window
        w, h = win.width, win.height
        self.scale = s = ui_scale(w, h, win.prefs.ui_scale)
        self.texts, self.boxes, self.shapes = [], [], []
        self.top_shapes, self.top_texts = [], []  # drawn over everything: the help page, the result
        self.cards = []
        st, v = self.state, self.state.view
        win.set_caption(f"Your turn · {TITLE}" if st.my_turn else TITLE)
        win.awake()  # something changed: full frame rate for a moment, so the next reply is taken at once
        panel = 330 * s
        self.panel_w = panel
        area = w - panel
        if v is None or not v.started:
            self._text("Ninety-Nine", area / 2, h / 2 + 30 * s, 40, bold=True, anchor_x="center")
            self._text(st.prompt() if v is None or not v.started else "", area / 2, h / 2 - 20 * s, 16,
                       TEXT_DIM, anchor_x="center")
            self._panel(w, h, panel)
            return
        self._panel(w, h, panel)
        # The centre: the total large, the direction, the pile and the stock.
        cx, cy = area / 2, max(h * 0.56, 360 * s)  # clear of the prompt at a large scale
        card_w, card_h = 92 * s, 92 * s * CARD_H / CARD_W
        self._text("TOTAL", cx, cy + 62 * s, 14, TEXT_DIM, bold=True, anchor_x="center")
        total_colour = BAD if v.total >= 90 else WARN if v.total >= 75 else TEXT
        self._text(str(v.total), cx, cy - 10 * s, 64, total_colour, bold=True, anchor_x="center", anchor_y="center")
        arrow = "↻ clockwise" if v.direction == 1 else "↺ counter-clockwise"
        self._text(f"Play goes {arrow}", cx, cy - 62 * s, 13, TEXT, anchor_x="center")
        self.pile_xy = (cx + 190 * s, cy)  # clear of "Play goes ↺ counter-clockwise" under the total
        self.cards.append((v.top, *self.pile_xy, card_w, card_h, 255) if v.top else (None, 0, 0, 0, 0, 0))
        self._text(f"pile {v.pile_size}", self.pile_xy[0], cy - card_h / 2 - 18 * s, 11, TEXT_DIM, anchor_x="center")
        sx = cx - 190 * s
        if v.stock_size:
            self.cards.append((None, sx, cy, card_w, card_h, 255))
        self._text(f"stock {v.stock_size}", sx, cy - card_h / 2 - 18 * s, 11, TEXT_DIM, anchor_x="center")
        if st.last:
            self._text(st.last, cx, cy - 84 * s, 14, TEXT, anchor_x="center", anchor_y="top", width=area - 40 * s,
                       align="center")
        if v.chain and v.owed:
            who = st.name(v.turn or 0)
            owed = f"{who} {'owe' if who == 'You' else 'owes'} {v.owed} card{'' if v.owed == 1 else 's'}"
            self._text(f"Queens in a row: {v.chain} · {owed}", cx,
                       cy + 90 * s, 13, WARN, anchor_x="center", bold=True)
        self._seats(v, area, h, s)
        self._hand(v, area, s, card_w, card_h)
        if st.help_shown:
            self._help(v, area, h, s)
        if v.over:
            # At a match table the box says the match's score too, and its result once the match is decided.
            match = st.match_line()  # the box keeps its size (the last play above it, the prompt below)
            keys = self.OVER_KEYS
            if match and keys == NinetyTable.OVER_KEYS:
                keys = f"R: {wording.rematch_label(st.table).lower()} · Esc: the lobby"
            mid = (cy - 100 * s + 232 * s + 24 * s) / 2  # between the last play and the prompt
            self.top_shapes.append((area / 2 - 260 * s, mid - 40 * s, 520 * s, 80 * s, (0, 0, 0, 220), TURN))
            self._text(st.result_title(), area / 2, mid + (16 if match else 8) * s, 22 if match else 26, TURN,
                       bold=True, anchor_x="center", anchor_y="center", top=True)
            if match:
                self._text(match, area / 2, mid - 12 * s, 12, TEXT, anchor_x="center", top=True)
            self._text(keys, area / 2, mid - (32 if match else 24) * s, 12, TEXT, anchor_x="center", top=True)

    def _panel(self, w: float, h: float, panel: float, top: float | None = None, glance: bool = True) -> None:
        """The right-hand panel: the table's rules at a glance, then what happened (a lesson's screen puts its
        task above them, from ``top``, and may leave the glance to H)."""
        st, v, s = self.state, self.state.view, self.scale
        left = w - panel + 14 * s
        self.shapes.append((w - panel, 0, panel, h, PANEL_BG, None))
        y = h - 30 * s if top is None else top
        if v is None:
            return
        table = v.table
        rs = table.rule_set
        self._text(f"{rs.title} rules ({rs.source})", left, y, 15, TEXT, bold=True)
        y -= 20 * s
        tokens = (f"{table.tokens} token{'s' if table.tokens != 1 else ''} each" if table.tokens
                  else "no tokens: fail once, out")
        sub = self._text(f"{v.mode} table · {table.hand_size} cards · {tokens}", left, y, 10.5, TEXT_DIM,
                         anchor_y="top", width=panel - 28 * s)
        y -= sub.content_height + 14 * s
        plain = [r for r in RANKS if table.effect(r).name == "face"]
        for rank, effect in table.effects if glance else ():
            if rank in plain or (rank == JOKER and not table.jokers):
                continue
            self._text(f"{'Joker' if rank == JOKER else rank}", left, y, 12, WARN, bold=True)
            said = self._text(effect.words(), left + 58 * s, y, 10.5, TEXT, width=panel - 80 * s)
            y -= max(18 * s, said.content_height + 4 * s)
        if plain and glance:
            self._text(" ".join(plain), left, y, 12, WARN, bold=True, width=panel - 30 * s)
            y -= 16 * s * (1 + len(" ".join(plain)) // 18)
            courts = " ".join(r for r in plain if r in "JQK")
            self._text(f"add their face value ({courts}: 10)" if courts else "add their face value", left, y,
                       10.5, TEXT)
            y -= 18 * s
        if glance:
            self._text("The total may " + ("go below zero" if table.below_zero else "not go below zero")
                       + "; over 99 loses", left, y, 10.5, TEXT_DIM, width=panel - 30 * s)
            y -= 38 * s
        self._text("What happened (newest first)", left, y, 13, TEXT, bold=True)
        y -= 6 * s
        for line in reversed(list(st.log)):
            text = self._text(line, left, y, 10.5, TEXT_DIM, anchor_y="top", width=panel - 28 * s)
            y -= text.content_height + 4 * s
            if y < 40 * s:
                self.texts.remove(text)
                break

    def _seats(self, v: Any, area: float, h: float, s: float) -> None:
        """Every seat: name, tokens, cards in hand, out or sitting out, and the turn outlined and said in words."""
        others = [(v.seat + i) % v.players for i in range(1, v.players)] if v.seat is not None else \
            list(range(v.players))
        # Narrower boxes when many seats share the top at a large scale (six players at 1.3 times).
        bw, bh = min(190 * s, (area - 12 * s * (len(others) + 1)) / max(1, len(others))), 84 * s
        gap = (area - len(others) * bw) / (len(others) + 1)
        spots = {seat: (gap + i * (bw + gap), h - bh - 16 * s) for i, seat in enumerate(others)}
        if v.seat is not None:
            spots[v.seat] = (16 * s, 40 * s)
        for seat, (x, y) in spots.items():
            self.seat_xy[seat] = (x + bw / 2, y + bh / 2)
            turn = v.turn == seat and not v.over
            out = v.out[seat]
            self.shapes.append((x, y, bw, bh, (0, 0, 0, 110), TURN if turn else (90, 120, 100)))
            name = self.state.name(seat)
            self._text(name, x + 10 * s, y + bh - 6 * s, 14, TEXT_DIM if out else TEXT, bold=True,
                       anchor_y="top", width=bw - 20 * s)
            below = self._seat_cards(v, seat, x, y, bw) if seat != v.seat else 0.0
            if turn:  # beside the box (under a seat at the top, over the player's own), clear of the name
                mine = seat == v.seat
                self._text("▼ TO PLAY" if mine else "▲ TO PLAY", x + 10 * s,
                           y + bh + 8 * s if mine else y - below - 11 * s, 12, TURN, bold=True)  # under its cards
            if out:
                place = v.places.index(seat) if seat in v.places else None
                status = "OUT" + (f" · place {v.players - place}" if place is not None else "")
            elif v.sat_out[seat]:
                status = "sits this round out"
            elif v.winner == seat:
                status = "WINNER"
            else:
                status = f"{v.hand_sizes[seat]} card{'s' if v.hand_sizes[seat] != 1 else ''}"
            self._text(status, x + 10 * s, y + 36 * s, 12, BAD if out else TEXT)
            if v.table.tokens:
                marks = "●" * v.tokens[seat] + "○" * max(0, v.table.tokens - v.tokens[seat])
                self._text(f"tokens {marks} {v.tokens[seat]}", x + 10 * s, y + 12 * s, 12, TEXT)
            if v.dealer == seat:
                self._text("dealer", x + bw - 10 * s, y + 12 * s, 10, TEXT_DIM, anchor_x="right")
            if seat in v.pending:
                self._text("may draw", x + bw - 10 * s, y + 36 * s, 10, WARN, anchor_x="right")

    def _seat_cards(self, v: Any, seat: int, x: float, y: float, bw: float) -> float:
        """Another seat's cards under its box (their backs: its hand is secret); how far below the box they reach."""
        s = self.scale
        if v.out[seat]:
            return 0.0
        for k in range(min(v.hand_sizes[seat], 7)):
            self.cards.append((None, x + bw - 64 * s + k * 7 * s, y - 14 * s, 22 * s, 30 * s, 255))
        return 29 * s

    def _hand(self, v: Any, area: float, s: float, card_w: float, card_h: float) -> None:
        """The player's hand along the bottom: each card's key above it, the ones that fit raised and marked."""
        st = self.state
        prompt_y = 232 * s
        colour = TURN if st.my_turn or v.may_draw else TEXT
        self._text(st.prompt(), area / 2, prompt_y, 15, colour, bold=st.my_turn, anchor_x="center")
        if st.notice:
            self._text(st.notice, area / 2, prompt_y - 22 * s, 12, BAD if st.bad else GOOD, anchor_x="center",
                       width=area - 40 * s, align="center")  # under the prompt, not at the window's left edge
        keys = self._text(self.KEYS_LINE, area / 2, 8 * s, 9.5, TEXT_DIM, anchor_x="center")
        while keys.content_width > area - 16 * s and keys.font_size > 6:  # a large scale: shrink it to fit
            keys.font_size = keys.font_size * 0.93
        self.hand_xy = []
        hand = v.hand or ()
        if not hand:
            return
        fits = st.fitting()
        hw, hh = card_w * 1.05, card_h * 1.05
        # Side by side where they fit, else overlapping (a click goes to the card on top: the later one).
        step = min(hw + 14 * s, (area - 250 * s - hw) / max(1, len(hand) - 1))
        left = 240 * s + (area - 240 * s - (step * (len(hand) - 1) + hw)) / 2
        for i, card in enumerate(hand):
            cx = left + hw / 2 + i * step
            fit = card in fits and st.my_turn
            cy = 44 * s + hh / 2 + (16 * s if fit else 0)
            self.hand_xy.append((cx, cy))
            alpha = 255 if fit or not st.my_turn else 150
            picked = st.choice is not None and st.choice.card == card
            self.shapes.append((cx - hw / 2 - 4 * s, cy - hh / 2 - 4 * s, hw + 8 * s, hh + 8 * s, None,
                                TURN if picked else GOOD if fit else None))
            self.cards.append((card, cx, cy, hw, hh, alpha))
            self.boxes.append(Box(cx - hw / 2, cy - hh / 2, hw, hh, ("card", i)))
            self._text(str(i + 1), cx, cy + hh / 2 + 6 * s, 13, TURN if fit else TEXT_DIM, bold=True, anchor_x="center")
            if st.my_turn:
                self._text("fits" if fit else "does not fit", cx, 26 * s, 10, GOOD if fit else TEXT_DIM,
                           anchor_x="center")
        if st.choice is not None:
            cx = self.hand_xy[hand.index(st.choice.card)][0]
            for k, value in enumerate((st.choice.values[0], st.choice.values[-1])):
                bx, by = cx - 70 * s, prompt_y + 26 * s + (1 - k) * 40 * s  # above the prompt, which names the card
                self.shapes.append((bx, by, 140 * s, 34 * s, (10, 30, 20, 240), TURN))
                self._text(f"{'Up' if k == 0 else 'Down'}: {value:+d}", bx + 70 * s, by + 17 * s, 13, TURN,
                           bold=True, anchor_x="center", anchor_y="center")
                self.boxes.append(Box(bx, by, 140 * s, 34 * s, ("value", k)))

    def _help(self, v: Any, area: float, h: float, s: float) -> None:
        """H: this table's rules in full, from the engine's own words (``Table.describe``)."""
        lines = v.table.describe()
        self.top_shapes.append((30 * s, 60 * s, area - 60 * s, h - 120 * s, PANEL_BG, TEXT_DIM))
        y = h - 90 * s
        for line in lines:
            text = self._text(line, 50 * s, y, 12, TEXT, width=area - 100 * s, top=True)
            y -= text.content_height + 4 * s
        self._text("H or Esc: back to the table", 50 * s, 80 * s, 11, TEXT_DIM, top=True)

    # -- drawing -----------------------------------------------------------------------------

    def on_draw(self) -> None:
        """The baize, the boxes, the cards, the texts, then any card in motion."""
        self.clear(color=TABLE_BG)
        self._draw_shapes(self.shapes)
        moving = {m.card for m in self.motions}
        for card, cx, cy, cw, chh, alpha in self.cards:
            if cw and not (card is not None and card in moving and (cx, cy) == self.pile_xy):
                arcade.draw_texture_rect(card_texture(card), arcade.XYWH(cx, cy, cw, chh), alpha=alpha)
        for text in self.texts:
            text.draw()
        self._draw_motions()
        self._draw_shapes(self.top_shapes)
        for text in self.top_texts:
            text.draw()
        if self.state.view is not None:
            self.drawn = True

    def _draw_shapes(self, shapes: list[tuple[float, float, float, float, Any, Any]]) -> None:
        for left, bottom, width, height, fill, line in shapes:
            rect = arcade.LBWH(left, bottom, width, height)
            if fill is not None:
                arcade.draw_rect_filled(rect, fill)
            if line is not None:
                arcade.draw_rect_outline(rect, line, border_width=3 * self.scale)

    def _draw_motions(self) -> None:
        if not self.motions:
            return
        now = self.state.clock()
        factor = ANIMATION_SPEEDS.get(self.window.prefs.animation, 1.0) or 1.0
        s = self.scale
        cw, ch = 92 * s, 92 * s * CARD_H / CARD_W
        keep = []
        for m in self.motions:
            t = (now - m.start) / (MOTION_SECONDS * factor)
            if t >= 1:
                continue
            keep.append(m)
            t = 1 - (1 - t) ** 2
            x = m.x + (self.pile_xy[0] - m.x) * t
            y = m.y + (self.pile_xy[1] - m.y) * t
            arcade.draw_texture_rect(card_texture(m.card), arcade.XYWH(x, y, cw, ch))
        self.motions = keep
