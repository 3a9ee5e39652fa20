"""The hand region: the player's cards (the picked one raised and lit), the empty places, the caption."""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99 import HAND_LIMIT

from . import wording
from .buttons import Button
from .drawing import Part, make_text, rescale, scale_button, set_text, show_only
from .geometry import RAISE, TableGeometry
from .palette import TEXT_DIM, WARN
from .table_intents import OnCard, Target
from .table_state import TableState
from .textures import Textures

SLOT = (18, 52, 32, 255)  # an empty place in the hand
GLOW = (255, 220, 60, 255)  # around the picked card
DIMMED = (150, 150, 150, 255)  # the cards while the player may not act (guarded mode)
PLAIN = (255, 255, 255, 255)
TURN_GLOW = (255, 214, 90, 46)  # behind the whole hand on the player's turn
LIFT = 6  # how far the hand rises on the player's turn (at scale 1)


class HandPart(Part):
    """Up to five cards along the bottom; a click on one picks it."""

    def __init__(self, tx: Textures) -> None:
        self.tx = tx
        self.geo: TableGeometry | None = None
        self.card_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.slots = [arcade.Sprite(tx.white) for _ in range(HAND_LIMIT)]  # where the hand's cards go
        for slot in self.slots:
            slot.color = SLOT
        self.glow = arcade.Sprite(tx.white)
        self.glow.color = GLOW
        self.glow.visible = False
        self.turn_glow = arcade.Sprite(tx.white)  # the whole hand glows on the player's turn
        self.turn_glow.color = TURN_GLOW
        self.turn_glow.visible = False
        self.lifted = False
        self.cards = [arcade.Sprite(tx.cards[0]) for _ in range(HAND_LIMIT)]
        # card_list holds the shown ones of these, in this order (see show_only)
        self.sprites = [self.turn_glow, *self.slots, self.glow, *self.cards]
        self._shown: tuple[int, ...] = ()
        self.batch = Batch()
        self.t_hand = make_text(self.batch, 12, color=TEXT_DIM)
        # The first-game hint, under the cards, with its own "don't show again".
        self.t_hint = make_text(self.batch, 10, color=WARN, multiline=True)
        self.b_hint_off = Button("hint-off", "Don't show again", tx.white, self.batch, size=10)
        self.b_hint_off.visible = False
        self.button_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.button_list.append(self.b_hint_off.sprite)
        self._held = 0
        self._picked: int | None = None

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Put each card and empty place in its spot."""
        self.geo = geo
        s = geo.scale
        rescale([self.t_hand, self.t_hint], s)
        scale_button(self.b_hint_off, s, 10)
        first, last = geo.hand_card(0), geo.hand_card(4)
        # The tip has the row under the cards to itself (two lines), its button at the row's right end.
        row = geo.tip_row()
        self.b_hint_off.label.font_size = self.b_hint_off.points  # measured at its own size, then placed to fit it
        bw, bh = max(140 * s, self.b_hint_off.label.content_width + 16 * s), round(22 * s)
        self.b_hint_off.place(row.right - bw, row.top - bh, bw, bh)
        self.t_hint.width = int(max(120, row.width - bw - 10 * s))
        self.t_hint.position = row.left, row.top
        self.t_hand.position = row.left, row.top
        # Behind the cards on the player's turn: from just under them (the tip's row stays clear) to over the raised one.
        b = geo.base
        low, high = first.bottom - 2 * b, first.top + (RAISE + LIFT + 6) * b
        self.turn_glow.position = (first.left + last.right) / 2, (low + high) / 2
        self.turn_glow.width, self.turn_glow.height = last.right - first.left + 24 * b, high - low
        for i, (card, slot) in enumerate(zip(self.cards, self.slots)):
            r = geo.hand_card(i)
            card.position = slot.position = r.cx, r.cy
            card.width, card.height = r.width, r.height
            slot.width, slot.height = r.width, r.height

    def refresh(self, state: TableState) -> None:
        """Show the held cards (the picked one raised and lit), the empty places and the caption."""
        g, view, hand, picked = self.geo, state.view, state.hand, state.picked
        assert g is not None
        self._held, self._picked = len(hand), picked
        seated = view is not None and not view.spectator
        for i, slot in enumerate(self.slots):
            slot.visible = seated and i >= len(hand)
        tint = DIMMED if state.hand_dimmed else PLAIN
        # On the player's turn the hand rises a little and glows: it cannot be missed.
        self.lifted = lift = state.my_turn
        self.turn_glow.visible = lift
        dy = LIFT * g.base if lift else 0
        for i, sprite in enumerate(self.cards):
            if i < len(hand):
                sprite.texture = self.tx.cards[hand[i]]
                r = g.hand_card(i, raised=i == picked)
                sprite.position = r.cx, r.cy + dy
                sprite.width, sprite.height = r.width, r.height
                sprite.color = tint
                sprite.visible = True
            else:
                sprite.visible = False
        if picked is not None:
            r = g.hand_card(picked, raised=True)
            self.glow.position = r.cx, r.cy + dy
            self.glow.width, self.glow.height = r.width + 10, r.height + 10
            self.glow.visible = True
        else:
            self.glow.visible = False
        self._shown = show_only(self.card_list, self.sprites, self._shown)
        hint = state.hint_shown
        set_text(self.t_hint, wording.turn_tip(view) if hint else "")
        self.b_hint_off.visible = hint
        set_text(self.t_hand, "" if hint else wording.hand_label(view))

    def target_at(self, x: float, y: float) -> Target | None:
        """The held card under (x, y)."""
        if self.geo is None:
            return None
        for i in range(self._held):
            r = self.geo.hand_card(i, raised=i == self._picked)
            dy = LIFT * self.geo.base if self.lifted else 0
            if r._replace(bottom=r.bottom + dy).contains(x, y):
                return OnCard(i)
        return self.b_hint_off.target_at(x, y)

    def hover(self, x: float, y: float) -> None:
        """Light the hint's button under the pointer."""
        self.b_hint_off.hover(x, y)

    def draw(self) -> None:
        """The cards, then the caption."""
        self.card_list.draw()
        if self.b_hint_off.visible:
            self.button_list.draw()
        self.batch.draw()
