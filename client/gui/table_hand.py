"""The hand region: the player's cards (the picked one raised and lit), the empty places, the caption."""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99 import HAND_LIMIT

from . import wording
from .drawing import Part, make_text, set_text, show_only
from .geometry import TableGeometry
from .palette import TEXT_DIM
from .table_intents import OnCard, Target
from .table_state import TableState
from .textures import Textures

SLOT = (18, 52, 32, 255)  # an empty place in the hand
GLOW = (255, 220, 60, 255)  # around the picked card
DIMMED = (150, 150, 150, 255)  # the cards while the player may not act (guarded mode)
PLAIN = (255, 255, 255, 255)


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
        self.cards = [arcade.Sprite(tx.cards[0]) for _ in range(HAND_LIMIT)]
        # card_list holds the shown ones of these, in this order (see show_only)
        self.sprites = [*self.slots, self.glow, *self.cards]
        self._shown: tuple[int, ...] = ()
        self.batch = Batch()
        self.t_hand = make_text(self.batch, 12, color=TEXT_DIM)
        self._held = 0
        self._picked: int | None = None

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Put each card and empty place in its spot."""
        self.geo = geo
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
        for i, sprite in enumerate(self.cards):
            if i < len(hand):
                sprite.texture = self.tx.cards[hand[i]]
                r = g.hand_card(i, raised=i == picked)
                sprite.position = r.cx, r.cy
                sprite.width, sprite.height = r.width, r.height
                sprite.color = tint
                sprite.visible = True
            else:
                sprite.visible = False
        if picked is not None:
            r = g.hand_card(picked, raised=True)
            self.glow.position = r.cx, r.cy
            self.glow.width, self.glow.height = r.width + 10, r.height + 10
            self.glow.visible = True
        else:
            self.glow.visible = False
        self._shown = show_only(self.card_list, self.sprites, self._shown)
        set_text(self.t_hand, wording.hand_label(view))
        self.t_hand.position = g.hand_card(0).left, 24

    def target_at(self, x: float, y: float) -> Target | None:
        """The held card under (x, y)."""
        if self.geo is None:
            return None
        for i in range(self._held):
            if self.geo.hand_card(i, raised=i == self._picked).contains(x, y):
                return OnCard(i)
        return None

    def draw(self) -> None:
        """The cards, then the caption."""
        self.card_list.draw()
        self.batch.draw()
