"""The motion part: draws the running motions (motion.py) over the true table, in window positions.

Cards travel between deck, hands, piles and squares; a peg drops into its
square; a penalised peg rises and fades; a shown card turns face up and slides
back into the deck; the winning line is drawn through; the winner's pegs burst
over the board for a moment. The state underneath is already the latest: this
part only decorates it, and draws nothing once the motions are over.
"""

from __future__ import annotations

import math

import arcade

from board99.layout import POSITION

from .drawing import Part
from .geometry import TableGeometry
from .motion import Motion, Place
from .palette import CARD_BACK
from .table_board import LINE_COLOUR, PEG_SHARE
from .table_state import TableState
from .textures import Textures, peg_texture

POOL = 8  # moving cards and pegs at once (a batch of events asks for a few)
CONFETTI = 30  # pegs in the winner's celebration
DROP_FROM = 1.9  # a dropping peg starts this many times its size, and shrinks into its square


class MotionPart(Part):
    """The moving sprites: only as many as motions run, and none when nothing moves."""

    def __init__(self, window: arcade.Window, tx: Textures) -> None:
        self.window = window
        self.tx = tx
        self.geo: TableGeometry | None = None
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.cards = [arcade.Sprite(tx.cards[CARD_BACK]) for _ in range(POOL)]
        self.pegs = [arcade.Sprite(peg_texture("red", 0)) for _ in range(POOL)]
        self.confetti = [arcade.Sprite(peg_texture("red", 0)) for _ in range(CONFETTI)]
        self.line = arcade.Sprite(tx.line)
        self.line.color = LINE_COLOUR
        self._state: TableState | None = None
        self._colours: list[str] = []

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Positions come from the geometry at every frame: just keep it."""
        self.geo = geo

    def refresh(self, state: TableState) -> None:
        """Keep the state (the motions live in it) and the side colours; wake the window while motions run."""
        self._state = state
        self._colours = state.colours()
        if state.motions.items:
            awake = getattr(self.window, "awake", None)
            if awake is not None:
                awake(max(0.1, state.motions.until - state.motions.clock()) + 0.1)
        self.tick(state)

    def _at(self, place: Place) -> tuple[float, float]:
        g = self.geo
        assert g is not None
        kind, n = place
        if kind == "deck":
            return g.deck.center
        if kind == "hand":
            return g.seat_hand(n)
        if kind == "pile":
            return g.seat_pile(n)
        return g.peg_centre(*POSITION[n])

    def tick(self, state: TableState) -> None:
        """Place every running motion's sprite for this instant."""
        self.sprite_list.clear()
        running = state.motions.running()
        if not running or self.geo is None:
            return
        now = state.motions.clock()
        cards, pegs = iter(self.cards), iter(self.pegs)
        for m in running:
            if not m.begun(now) and m.kind not in ("lift",):
                continue
            t = m.progress(now)
            if m.kind == "card":
                self._card(next(cards, None), m, t)
            elif m.kind == "shown":
                self._shown(next(cards, None), m, t)
            elif m.kind in ("drop", "lift"):
                self._peg(next(pegs, None), m, t)
            elif m.kind == "line":
                self._line(m, t)
            elif m.kind == "celebrate":
                self._celebrate(m, t)

    def _card(self, sprite: arcade.Sprite | None, m: Motion, t: float) -> None:
        if sprite is None:
            return
        g = self.geo
        assert g is not None
        (x0, y0), (x1, y1) = self._at(m.origin), self._at(m.target)
        sprite.texture = self.tx.cards[m.card if m.card is not None else CARD_BACK]
        big = m.origin[0] == "hand" and m.origin[1] == g.me or m.target[0] == "hand" and m.target[1] == g.me
        w = g.card_w if big else g.pile_w
        if m.target[0] == "square":
            w = w + (g.cell * 0.8 - w) * t  # shrinks onto its square
        sprite.width, sprite.height = w, w * 1.4
        sprite.position = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t + math.sin(math.pi * t) * 30 * g.scale
        sprite.alpha = 255 if m.target[0] != "square" else int(255 * (1 - t * 0.6))
        self.sprite_list.append(sprite)

    def _shown(self, sprite: arcade.Sprite | None, m: Motion, t: float) -> None:
        # Turned face up beside the deck for most of the motion, then slid back into it, face down.
        if sprite is None:
            return
        g = self.geo
        assert g is not None
        d = g.deck
        out = d.cx - d.width * 1.4
        w = d.width * 1.3
        if t < 0.25:  # turning: the card narrows, then widens face up
            k = t / 0.25
            face = k >= 0.5
            width = w * abs(1 - 2 * k)
            x = d.cx + (out - d.cx) * k
        elif t < 0.75:
            face, width, x = True, w, out
        else:
            k = (t - 0.75) / 0.25
            face, width, x = False, w * (1 - 0.25 * k), out + (d.cx - out) * k
        sprite.texture = self.tx.cards[m.card if face and m.card is not None else CARD_BACK]
        sprite.width, sprite.height = max(1.0, width), w * 1.4
        sprite.position = x, d.cy - d.height * 0.9
        sprite.alpha = 255
        self.sprite_list.append(sprite)

    def _peg(self, sprite: arcade.Sprite | None, m: Motion, t: float) -> None:
        if sprite is None or m.side is None:
            return
        g = self.geo
        assert g is not None
        side = m.side
        colour = self._colours[side] if side < len(self._colours) else "red"
        sprite.texture = peg_texture(colour, side, self.window.prefs.palette if hasattr(self.window, "prefs")
                                     else "standard")
        x, y = self._at(m.target)
        size = g.cell * PEG_SHARE
        if m.kind == "drop":
            k = DROP_FROM + (1 - DROP_FROM) * t
            sprite.width = sprite.height = size * k
            sprite.position = x, y + (1 - t) * g.cell * 0.6
            sprite.alpha = int(120 + 135 * t)
        else:  # shown in its square for a moment, then lifted off and gone
            lift = max(0.0, (t - 0.35) / 0.65)
            sprite.width = sprite.height = size * (1 + 0.4 * lift)
            sprite.position = x, y + lift * g.cell * 1.2
            sprite.alpha = int(255 * (1 - lift))
        self.sprite_list.append(sprite)

    def _line(self, m: Motion, t: float) -> None:
        g = self.geo
        assert g is not None and m.squares
        (x0, y0), (x1, y1) = self._at(("square", m.squares[0])), self._at(("square", m.squares[-1]))
        x1, y1 = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        self.line.position = (x0 + x1) / 2, (y0 + y1) / 2
        self.line.width = max(1.0, math.hypot(x1 - x0, y1 - y0) + g.cell * 0.6 * t)
        self.line.height = g.cell * 0.16
        self.line.angle = -math.degrees(math.atan2(y1 - y0, x1 - x0)) if (x1, y1) != (x0, y0) else 0
        self.sprite_list.append(self.line)

    def _celebrate(self, m: Motion, t: float) -> None:
        # The winner's pegs burst out of the line and fall away, fading: a moment, then the board is clear.
        g = self.geo
        assert g is not None and m.side is not None
        side = m.side
        colour = self._colours[side] if side < len(self._colours) else "red"
        texture = peg_texture(colour, side, self.window.prefs.palette if hasattr(self.window, "prefs")
                              else "standard")
        squares = m.squares or (0,)
        size = g.cell * PEG_SHARE * 0.7
        for i, sprite in enumerate(self.confetti):
            x0, y0 = self._at(("square", squares[i % len(squares)]))
            angle = (i * 137.5) % 360  # spread round the circle
            speed = g.cell * (2.5 + (i % 5) * 0.6)
            rad = math.radians(angle)
            sprite.texture = texture
            sprite.width = sprite.height = size
            sprite.position = (x0 + math.cos(rad) * speed * t,
                               y0 + math.sin(rad) * speed * t - g.cell * 3 * t * t)
            sprite.angle = angle + 360 * t
            sprite.alpha = int(255 * (1 - t))
            self.sprite_list.append(sprite)

    def draw(self) -> None:
        """The running motions, above everything but the question box."""
        if len(self.sprite_list):
            self.sprite_list.draw()
