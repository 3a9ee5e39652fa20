"""The Ninety-Nine replay screen: a finished game (or match) stepped through action by action, every hand face up.

The frames come from ``ninety_replay_model`` (the record replayed and checked
by the engine). The table is drawn by the Ninety-Nine table itself
(``NinetyTable``: the running total, the direction, the pile and the stock,
the seats with their tokens and who is out, this table's rules at a glance
and the log), seen as a spectator sees it; this screen only puts each seat's
hand face up under its box and, where the player's hand would be, the step:
where it stands in the record, the action, the record's line, what it
caused, and the buttons. Keys: Right/Left one action, Down/Up the next/
previous deal, Page Down/Page Up the next/previous game, Home/End, H this
table's rules, M sound, Esc back; F1 the rules page of this table.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import arcade
from pyglet.window.key import symbol_string

from board99.record_lines import RecordError

from .ninety_cards import CARD_H, CARD_W
from .ninety_replay_model import NinetyFrame, NinetyReplay, load
from .ninety_table import Box, Motion, NinetyTable
from .palette import BAD, GOOD, TEXT, TEXT_DIM, WARN
from .replay_model import Cursor
from .sounds import Sounds

#: The buttons along the bottom: (what it does, its label).
BUTTONS: tuple[tuple[str, str], ...] = (
    ("first", "|◀ First (Home)"), ("back", "◀ Back (←)"), ("forward", "Forward (→) ▶"), ("last", "Last (End) ▶|"),
    ("leave", "Leave (Esc)"),
)
#: The screen's keys, as (keys, what they do): the line along the bottom and the rules screen's list.
KEYS: tuple[tuple[str, str], ...] = (
    ("← →", "one action"), ("↑ ↓", "one deal"), ("PgUp PgDn", "one game"), ("Home End", "the start, the end"),
    ("H", "this table's rules"), ("M", "sound"), ("Esc", "leave"), ("F1", "help"))
KEYS_LINE = " · ".join(f"{keys}: {what}" for keys, what in KEYS)
BUTTON_FILL = (10, 30, 20, 240)
BUTTON_LINE = (150, 180, 160)


class NinetyReplayView(NinetyTable):
    """A Ninety-Nine record, one action at a time, forwards and back: the table as it stood, all hands shown."""

    OVER_KEYS = "Home: back to the start · ← a step back · Esc: leave"
    KEYS_LINE = KEYS_LINE  # F1's rules screen lists these

    def __init__(self, text: str, title: str, on_back: Callable[[], object], sounds: Sounds | None = None, *,
                 frames: NinetyReplay | None = None, review_seat: int | None = None,
                 review_now: bool = False) -> None:
        """``text`` is a game or match record (``frames``, when given, is it already loaded).

        ``review_seat`` and ``review_now`` are the peg-board viewer's (`board99 review --window`): this game has
        no review, so they change nothing here.
        """
        super().__init__(None, sounds)
        self.title_text = title
        self._on_back = on_back
        self.error = ""
        replay = frames
        if replay is None:
            try:
                replay = load(text)
            except RecordError as exc:  # a bad record is said on screen, not raised into the window
                self.error = f"This record cannot be shown: {exc}"
        self.replay = replay
        self.cursor: Cursor[NinetyFrame] = Cursor(replay.frames if replay is not None else ())
        self.shown_frames: list[int] = []  # every frame index shown, in order (tests follow the steps)
        self._take_frame()

    # -- the frame shown -----------------------------------------------------------------------

    @property
    def frame(self) -> NinetyFrame | None:
        """The frame on the screen (None: the record could not be read)."""
        return self.cursor.frame if self.cursor.frames else None

    def _take_frame(self) -> None:
        """Put the cursor's frame into the table's state, as the table keeps a live game's."""
        frame, st = self.frame, self.state
        if frame is None or self.replay is None:
            return
        st.view, st.table = frame.view, self.replay.table
        st.log = deque(frame.log, maxlen=st.log.maxlen)
        st.last = frame.last
        st.notice = ""

    def go(self, moved: bool, forward: bool = False) -> None:
        """After the cursor moved: show the new frame, with its sound (and, one step forward, the card moving)."""
        if not moved:
            return
        self.shown_frames.append(self.cursor.index)
        self.motions.clear()
        self._take_frame()
        self.refresh()
        frame = self.frame
        if frame is None:
            return
        card = frame.card
        if forward and card is not None and frame.actor in self.seat_xy:
            self.motions.append(Motion(card, *self.seat_xy[frame.actor], self.state.clock()))
        for name in frame.sounds or ("draw",):
            self.sounds.play(name)

    # -- drawing: the table's own, with the hands face up and the step at the bottom --------------------

    def refresh(self) -> None:
        """The table as it stood at this frame (or why the record cannot be shown)."""
        super().refresh()
        if self.frame is None:
            self.texts.clear()
            w, h = self.window.width, self.window.height
            area = w - self.panel_w
            self._text(self.title_text, area / 2, h / 2 + 60 * self.scale, 24, TEXT, bold=True, anchor_x="center")
            self._text(self.error, 40 * self.scale, h / 2 + 10 * self.scale, 14, BAD, anchor_y="top",
                       width=area - 80 * self.scale)
            self._buttons(area, self.scale, ("leave",))

    def _seat_cards(self, v: Any, seat: int, x: float, y: float, bw: float) -> float:
        """The seat's hand face up under its box (a replay after the game shows every hand)."""
        frame = self.frame
        hand = frame.hands[seat] if frame is not None else ()
        if not hand:
            return 0.0
        s = self.scale
        cw, ch = 56 * s, 56 * s * CARD_H / CARD_W
        step = min(cw + 3 * s, (bw - 8 * s - cw) / max(1, len(hand) - 1))
        for k, card in enumerate(hand):
            self.cards.append((card, x + 4 * s + cw / 2 + k * step, y - 6 * s - ch / 2, cw, ch, 255))
        return 6 * s + ch

    def _hand(self, v: Any, area: float, s: float, card_w: float, card_h: float) -> None:
        """Where a player's hand would be: the step shown, what it caused, and the buttons."""
        frame = self.frame
        if frame is None or self.replay is None:
            return
        x, top, right = 24 * s, 250 * s, 206 * s
        # The left column: where the record stands (a match's game on a line of its own), then the file and table.
        where = self._text(frame.position().replace(" · ", "\n"), x, top, 13, WARN, bold=True, anchor_y="top",
                           width=right - 10 * s)
        name = self.title_text if len(self.title_text) <= 24 else self.title_text[:23] + "…"  # one line
        self._text("\n".join((name, *self.replay.heading.split(" · "))), x, top - where.content_height - 6 * s,
                   10.5, TEXT_DIM, anchor_y="top", width=right - 14 * s)
        # The right column: the action, its record line, what it caused.
        head = self._text(frame.title, x + right, top, 14, GOOD if frame.actor is None else TEXT, bold=True,
                          anchor_y="top", width=area - right - 48 * s)
        y = top - head.content_height - 2 * s
        line = self._text(f"Record: {frame.line}", x + right, y, 10, TEXT_DIM, anchor_y="top")
        y -= line.content_height + 12 * s
        said = self._text("\n".join(frame.words), x + right, y, 11.5, TEXT, anchor_y="top",
                          width=area - right - 48 * s)
        while said.content_height > y - 70 * s and said.font_size > 7:  # many events (a new deal): keep clear
            said.font_size *= 0.9
        self._buttons(area, s, tuple(name for name, _ in BUTTONS))
        keys = self._text(KEYS_LINE, area / 2, 8 * s, 9.5, TEXT_DIM, anchor_x="center")
        while keys.content_width > area - 16 * s and keys.font_size > 6:  # a large scale: shrink it to fit
            keys.font_size = keys.font_size * 0.93

    def _buttons(self, area: float, s: float, names: tuple[str, ...]) -> None:
        """The buttons along the bottom (Box targets ("button", index in BUTTONS)); the ones that go nowhere dim."""
        gap, bh = 10 * s, 34 * s
        bw = min(170 * s, (area - 48 * s - gap * (len(BUTTONS) - 1)) / len(BUTTONS))
        c = self.cursor
        for i, (name, label) in enumerate(BUTTONS):
            if name not in names:
                continue
            bx, by = 24 * s + i * (bw + gap), 28 * s
            live = name == "leave" or (name in ("first", "back") and c.index > 0) or (
                name in ("forward", "last") and not c.at_end)
            self.shapes.append((bx, by, bw, bh, BUTTON_FILL, BUTTON_LINE if live else (70, 90, 80)))
            self._text(label, bx + bw / 2, by + bh / 2, 11.5, TEXT if live else TEXT_DIM, anchor_x="center",
                       anchor_y="center", bold=live)
            self.boxes.append(Box(bx, by, bw, bh, ("button", i)))

    # -- input ----------------------------------------------------------------------------------

    def press_button(self, name: str) -> None:
        """A button's action (the keys do the same)."""
        c = self.cursor
        if name == "leave":
            self._on_back()
        elif not c.frames:
            return
        elif name == "first":
            self.go(c.go(0))
        elif name == "back":
            self.go(c.step(-1))
        elif name == "forward":
            self.go(c.step(1), forward=True)
        elif name == "last":
            self.go(c.go(len(c.frames) - 1))

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:  # type: ignore[override]
        """Right/Left an action, Down/Up a deal, PgDn/PgUp a game, Home/End, H rules, M sound, Esc back."""
        k, c = arcade.key, self.cursor
        if symbol == k.ESCAPE:
            if self.state.help_shown:
                self.state.help_shown = False
                self.refresh()
            else:
                self._on_back()
        elif symbol == k.H and self.frame is not None:
            self.state.help_shown = not self.state.help_shown
            self.refresh()
        elif symbol == k.M:
            self.perform("mute")
        elif not c.frames:
            return None
        elif (moved := c.by_key(symbol_string(symbol))) is not None:
            self.go(moved, forward=symbol == k.RIGHT)
        else:
            return None  # F1, F11, Ctrl+Q … are the window's
        return True

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click on a button does what its key does."""
        for box in self.boxes:
            if box.target[0] == "button" and box.holds(x, y):
                self.press_button(BUTTONS[box.target[1]][0])
                return
