"""The coach's hint on screen: its squares ringed on the board, its cards framed in the hand, its words in the panel.

The hint is ``TableState.coach`` (a ``board99.coach.Advice``, asked for with H
or the Hint button). The applied hint's squares get a double ring and a wash, the
pegs it is about a thin ring, the other hints' squares a thin one too (while their
words show); the cards they name that the player holds get a frame. The words go in a box in the panel, in
the place of the "since your turn" list and the log (under the announcements and
notices, which it follows as they come and go); the list and the log come back when
the hint closes (Esc, H, or the game moving on). Nothing here answers a click.
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99.layout import POSITION

from . import wording
from .drawing import Part, make_text, rescale, set_text, show_only
from .geometry import TableGeometry
from .palette import TEXT, TEXT_DIM
from .table_hand import LIFT
from .table_panel import PanelPart
from .table_state import TableState
from .textures import Textures

COACH = (110, 205, 255)  # the coach's colour on the dark panel and round the cards: a sky blue no side plays
RING = (20, 105, 235)  # the same blue, deeper, for rings on the light board
WASH = (20, 105, 235, 70)  # over the squares to peg or block
BOX_BACK = (14, 36, 58, 255)  # opaque: the log it covers must not show through
MOST_RINGS = 24
MOST_WASHES = 4
MOST_FRAMES = 5
MIN_BOX = 0.3  # the box may rise over the panel's announcements only when the room under them is less than this share


class CoachPart(Part):
    """The shown hint's marks and words (nothing while no hint shows)."""

    def __init__(self, tx: Textures, panel: PanelPart | None = None) -> None:
        self.geo: TableGeometry | None = None
        #: The panel, whose "since your turn" heading marks where the room under its announcements begins.
        self.panel = panel
        self._room_top: float | None = None
        self.mark_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        # Each ring: an outline texture tinted; a square to peg or block gets two (outer and inner).
        self.rings = [arcade.Sprite(tx.hover) for _ in range(2 * MOST_RINGS)]
        self.frames = [arcade.Sprite(tx.hover) for _ in range(2 * MOST_FRAMES)]
        self.back = arcade.Sprite(tx.white)
        self.back.color = BOX_BACK
        self.edge = arcade.Sprite(tx.white)  # a bar along the box's top, in the coach's colour
        self.edge.color = (*COACH, 255)
        self.washes = [arcade.Sprite(tx.white) for _ in range(MOST_WASHES)]
        for wash in self.washes:
            wash.color = WASH
        self.sprites = [self.back, self.edge, *self.washes, *self.rings, *self.frames]
        for sprite in self.sprites:
            sprite.visible = False
        self._shown: tuple[int, ...] = ()
        self.batch = Batch()
        self.t_head = make_text(self.batch, 13, bold=True, color=COACH, multiline=True)
        self.t_main = make_text(self.batch, 11, multiline=True, color=TEXT)
        self.t_rule = make_text(self.batch, 10, multiline=True, color=TEXT_DIM)
        self.t_also = make_text(self.batch, 10, multiline=True, color=TEXT_DIM)
        self.t_close = make_text(self.batch, 9, color=TEXT_DIM)
        self.texts = [self.t_head, self.t_main, self.t_rule, self.t_also, self.t_close]

    @property
    def shown(self) -> bool:
        """True while a hint is on screen."""
        return self.back.visible

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """The texts' sizes and widths for the panel."""
        self.geo = geo
        rescale(self.texts, geo.scale)
        inner = int(geo.panel.width - 40 * geo.scale)
        for text in (self.t_head, self.t_main, self.t_rule, self.t_also):
            text.width = inner

    def refresh(self, state: TableState) -> None:
        """Ring the hint's squares, frame its cards, write its words; hide everything when no hint shows."""
        g, advice = self.geo, state.coach
        assert g is not None
        if advice is None or not advice.hints:
            for sprite in self.sprites:
                sprite.visible = False
            for text in self.texts:
                set_text(text, "")
            self._shown = show_only(self.mark_list, self.sprites, self._shown)
            return
        self._write(state)
        self._mark(state)

    def _mark(self, state: TableState) -> None:
        """Ring the squares and frame the cards of the applied hint, and of the others while their words show."""
        g, advice = self.geo, state.coach
        assert g is not None and advice is not None
        first = advice.hints[0]
        others = advice.hints[1:] if self.t_also.text else ()
        # (square, share of the cell, alpha): the applied hint's squares strongest, then its pegs, then the rest.
        rings: list[tuple[int, float, int]] = []
        seen: set[int] = set()
        for sq in first.squares:
            rings += [(sq, 1.0, 255), (sq, 0.84, 255)]
            seen.add(sq)
        for i, wash in enumerate(self.washes):
            wash.visible = i < len(first.squares)
            if wash.visible:
                wash.position = g.square_centre(*POSITION[first.squares[i]])
                wash.width = wash.height = g.cell * 0.96
        for sq in first.line:
            if sq not in seen:
                rings.append((sq, 0.9, 170))
                seen.add(sq)
        for hint in others:
            for sq in hint.squares:
                if sq not in seen:
                    rings.append((sq, 0.9, 150))
                    seen.add(sq)
        for i, sprite in enumerate(self.rings):
            if i < len(rings):
                sq, share, alpha = rings[i]
                sprite.position = g.square_centre(*POSITION[sq])
                sprite.width = sprite.height = g.cell * share
                sprite.color = (*RING, alpha)
                sprite.visible = True
            else:
                sprite.visible = False
        self._frame_cards(state, first.cards, {c for h in others for c in h.cards})
        self._shown = show_only(self.mark_list, self.sprites, self._shown)

    def _frame_cards(self, state: TableState, main: tuple[int, ...], other: set[int]) -> None:
        g = self.geo
        assert g is not None
        dy = LIFT * g.base if state.my_turn else 0
        framed = [(i, card in main) for i, card in enumerate(state.hand) if card in main or card in other]
        for k in range(MOST_FRAMES):
            outer, inner = self.frames[2 * k], self.frames[2 * k + 1]
            if k < len(framed):
                i, strong = framed[k]
                r = g.hand_card(i, raised=i == state.picked)
                for sprite, grow, alpha in ((outer, 12, 255 if strong else 150), (inner, 6, 255 if strong else 0)):
                    sprite.position = r.cx, r.cy + dy
                    sprite.width, sprite.height = r.width + grow * g.scale, r.height + grow * g.scale
                    sprite.color = (*COACH, alpha)
                    sprite.visible = alpha > 0
            else:
                outer.visible = inner.visible = False

    def room_top(self) -> float:
        """Where the room under the panel's announcements and notices begins (the box's highest top)."""
        g = self.geo
        assert g is not None
        if self.panel is not None:
            return float(self.panel.t_since_head.y) - 4 * g.scale
        return g.panel.height * 0.5

    def tick(self, state: TableState) -> None:
        """Announcements come and go above the box: it follows the room they leave."""
        if state.coach is not None and self.geo is not None and self.room_top() != self._room_top:
            self._write(state)
            self._mark(state)

    def _write(self, state: TableState) -> None:
        g, advice = self.geo, state.coach
        assert g is not None and advice is not None
        s = g.scale
        main, also = wording.coach_body(advice, state.table)
        words, _, rule = main.partition("\n")
        set_text(self.t_head, wording.coach_title(advice.hints[0].title, state.my_turn))
        set_text(self.t_main, words)
        set_text(self.t_rule, rule)
        set_text(self.t_also, also)
        set_text(self.t_close, wording.COACH_CLOSE)
        p = g.panel
        gap, pad, bottom = 5 * s, 10 * s, 8 * s
        self._room_top = top = self.room_top()
        room = max(top - bottom, p.height * MIN_BOX)
        if self.panel is not None:  # rising over the announcements, never over the panel's buttons
            shown = [b.rect.bottom for b in self.panel.buttons if b.visible]
            if shown:
                room = min(room, min(shown) - 6 * s - bottom)

        def height() -> float:
            shown = [t for t in self.texts if t.text]
            return sum(t.content_height for t in shown) + gap * (len(shown) - 1) + 2 * pad

        # What does not fit gives way, least needed first: the other hints, the rulebook's words, the closing line;
        # then the title and the advice get smaller (large text in a small panel).
        for text in (self.t_also, self.t_rule, self.t_close):
            if height() > room:
                set_text(text, "")
        rescale([self.t_head, self.t_main], s)
        while height() > room and self.t_main.font_size > 8:
            for text in (self.t_head, self.t_main):
                text.font_size = max(8.0, text.font_size - 0.5)
        total = max(height(), room)  # the box fills the room under the announcements: the log's place
        left = p.left + 8 * s
        self.back.position = p.cx, bottom + total / 2
        self.back.width, self.back.height = p.width - 16 * s, total
        self.edge.position = p.cx, bottom + total - 1.5 * s
        self.edge.width, self.edge.height = self.back.width, 3 * s
        self.back.visible = self.edge.visible = True
        y = bottom + total - pad
        for text in self.texts:
            if text.text:
                text.position = left + 10 * s, y
                y -= text.content_height + gap

    def draw(self) -> None:
        """The rings and frames, the box, then its words (only while a hint shows)."""
        if self._shown:
            self.mark_list.draw()
            self.batch.draw()
