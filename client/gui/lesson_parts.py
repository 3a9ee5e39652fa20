"""What a lesson adds to the table screen: its task in the panel, the question's choices, the explanation box.

``LessonPanelPart`` is the table's panel with the lesson's area under the
buttons (the lesson's number and title, the task or question, the choices,
a note), the panel's own texts flowing on below it; its Rematch and Lobby
buttons read "Start again" and "Lessons". ``ExplanationPart`` is the box
over the board after a wrong answer or at the end, with the rulebook's
words. Both only read ``LessonState``.
"""

from __future__ import annotations

import arcade
from pyglet.graphics import Batch

from board99.layout import POSITION

from .buttons import Button
from .drawing import TONE_COLOURS, Part, make_text, rescale, scale_button, set_text, show_only
from .geometry import Rect, TableGeometry
from .lesson_state import LOOK, LessonState
from .palette import TEXT, TEXT_DIM, WARN
from .table_intents import OnButton, Target
from .table_panel import PanelPart
from .table_state import TableState
from .textures import Textures

CHOICE_BACK = (44, 62, 80, 255)
CHOICE_HOVER = (64, 90, 116, 255)
CHOICE_PICKED = (120, 96, 30, 255)  # the answer given, while what follows it is shown
CHOICE_RIGHT = (30, 110, 60, 255)  # the answer given, once it was right
BOX_BACK = (14, 36, 52, 255)
QUOTE = (236, 222, 176)  # the rulebook's words: the colour of old paper
MAX_CHOICES = 4
BOX_BUTTONS = 3
WIDER = 1.45  # the explanation box may be this much wider than the board
#: The lesson's words in the panel may shrink to these shares of the panel's font size, in turn, to fit;
#: below the last the area scrolls instead (fonts never go below drawing.MIN_POINTS, the board never shrinks).
SHRINK = (1.0, 0.92, 0.85, 0.8)
#: Room kept at the panel's bottom, at scale 1.
FLOOR = 6
#: The line under a lesson's area that scrolls.
MORE = "more: scroll or PgUp/PgDn"
#: Pixels per wheel notch or key press, at scale 1.
SCROLL_STEP = 48


class LessonPanelPart(PanelPart):
    """The table's panel, with the lesson's task (and a question's choices) under the buttons."""

    def __init__(self, window: arcade.Window, tx: Textures) -> None:
        super().__init__(window, tx)
        #: The lesson shown (the view sets it; None draws a plain panel).
        self.lesson: LessonState | None = None
        self.lesson_batch = Batch()
        b = self.lesson_batch
        self.t_lesson = make_text(b, 15, bold=True, color=WARN, multiline=True)
        self.t_task = make_text(b, 12, multiline=True)
        self.t_choices = [make_text(b, 11, multiline=True) for _ in range(MAX_CHOICES)]
        self.t_note = make_text(b, 11, multiline=True)
        self.lesson_texts = [self.t_lesson, self.t_task, *self.t_choices, self.t_note]
        self.choice_backs = [arcade.Sprite(tx.white) for _ in range(MAX_CHOICES)]
        for back in self.choice_backs:
            back.color = CHOICE_BACK
            back.visible = False
        self.choice_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._choices_shown: tuple[int, ...] = ()
        self.choice_rects: list[Rect] = []
        self._hovered: int | None = None
        self.lesson_top = 0.0
        #: Scrolling, when the lesson's words do not fit even at the smallest SHRINK: how far it is scrolled,
        #: how far it can be, and the area it is clipped to (None: it fits, no scrolling).
        self.scroll = 0.0
        self.overflow = 0.0
        self.clip: Rect | None = None
        self.more_batch = Batch()
        self._fitted: tuple[object, float] = (None, 1.0)  # what was fitted last, and the SHRINK factor found
        self.t_more = make_text(self.more_batch, 10, color=TEXT_DIM)

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """The panel's own places, then the lesson's area from under the buttons."""
        super().relayout(geo, ratio)
        s = geo.scale
        rescale([self.t_more], s)
        inner = int(geo.panel.width - 32 * s)
        for text in (self.t_lesson, self.t_task, self.t_note):
            text.width = inner
        for text in self.t_choices:
            text.width = int(inner - 20 * s)
        self.lesson_top = self.below_buttons

    def refresh(self, state: TableState) -> None:
        """The lesson's area first (the panel's texts flow on below it), then the panel, its buttons renamed."""
        self.toasts_cut = False
        self._lay_out_lesson()
        super().refresh(state)
        if self.lesson is not None:
            self.set_title(self.lesson.head())
            self.b_rematch.text, self.b_lobby.text = "Start again (R)", "Lessons (L)"
            self.b_rematch.disabled = False
            self._keep_inside(state)

    def tick(self, state: TableState) -> None:
        """The panel's tick; an announcement that comes or goes must still keep to the panel."""
        if len(state.toasts_now()) != self._toast_count:
            self.toasts_cut = False  # a new announcement: try it in the room there is
        super().tick(state)
        if self.lesson is not None:
            self._keep_inside(state)

    # -- the lesson's area: it shrinks its fonts a little, then scrolls; the board is never made smaller --------

    @property
    def floor(self) -> float:
        """The lowest a text in the panel may reach."""
        assert self.geo is not None
        return self.geo.panel.bottom + FLOOR * self.scale

    def _place(self, factor: float, top: float) -> float:
        """Put the lesson's texts and choices from ``top`` down at ``factor`` of the panel's font size; their height."""
        lesson, geo = self.lesson, self.geo
        assert lesson is not None and geo is not None
        s = self.scale
        g = s * factor  # gaps shrink with the fonts
        rescale(self.lesson_texts, s * factor)
        x, y = geo.panel.left + 16 * s, top
        for text in (self.t_lesson, self.t_task):
            text.position = x, y
            y -= text.content_height + 6 * g
        choices = lesson.choices()
        self.choice_rects = []
        for i, (text, back) in enumerate(zip(self.t_choices, self.choice_backs)):
            if i >= len(choices):
                continue
            pad = 5 * g
            text.position = x + 10 * s, y - pad
            height = text.content_height + 2 * pad
            rect = Rect(x, y - height, geo.panel.width - 32 * s, height)
            self.choice_rects.append(rect)
            back.position = rect.cx, rect.cy
            back.width, back.height = rect.width, rect.height
            y -= height + 5 * g
        self.t_note.position = x, y
        y -= (self.t_note.content_height + 6 * g) if self.t_note.text else 0
        return top - y

    def _lay_out_lesson(self) -> None:
        lesson, geo = self.lesson, self.geo
        if lesson is None or geo is None:
            return
        s = self.scale
        set_text(self.t_lesson, lesson.lesson.title)
        set_text(self.t_task, lesson.task())
        choices, chosen = lesson.choices(), lesson.chosen()
        for i, (text, back) in enumerate(zip(self.t_choices, self.choice_backs)):
            back.visible = i < len(choices)
            set_text(text, choices[i] if i < len(choices) else "")
            back.color = ((CHOICE_RIGHT if lesson.phase == "done" else CHOICE_PICKED) if i == chosen
                          else CHOICE_HOVER if i == self._hovered else CHOICE_BACK)
        words, tone = lesson.note()
        set_text(self.t_note, words, TONE_COLOURS[tone])
        top, floor = self.lesson_top, self.floor
        key = (tuple(t.text for t in self.lesson_texts), top, floor, self.t_task.width, s)
        if key == self._fitted[0]:  # the same words in the same room: the same size (re-fitting re-lays text out)
            height = self._place(self._fitted[1], top)
        else:
            for factor in SHRINK:  # the largest fonts at which the whole task fits
                height = self._place(factor, top)
                if height <= top - floor:
                    break
            self._fitted = (key, factor)
        set_text(self.t_more, MORE)
        more = self.t_more.content_height + 4 * s
        room = top - floor - more
        self.overflow = height - room if height > top - floor else 0.0
        if self.overflow:  # still too tall: the area scrolls (wheel, PgUp/PgDn), clipped under the buttons
            self.scroll = min(max(self.scroll, 0.0), self.overflow)
            self._place(self._fitted[1], top + self.scroll)
            self.clip = Rect(geo.panel.left, floor + more, geo.panel.width, room)
            arrows = ("▲ " if self.scroll > 0 else "") + ("▼ " if self.scroll < self.overflow else "")
            set_text(self.t_more, arrows + MORE)
            self.t_more.position = geo.panel.left + 16 * s, floor + more
            self.below_buttons = floor  # the panel's own texts: no room left (the log keeps them)
        else:
            self.scroll, self.clip = 0.0, None
            set_text(self.t_more, "")
            self.below_buttons = top - height - 4 * s
        self._choices_shown = show_only(self.choice_list, self.choice_backs, self._choices_shown)

    def scroll_by(self, dy: float) -> bool:
        """Scroll the lesson's area ``dy`` pixels down (negative: up); False when it does not scroll."""
        if not self.overflow:
            return False
        self.scroll = min(max(self.scroll + dy, 0.0), self.overflow)
        self._lay_out_lesson()
        return True

    def _keep_inside(self, state: TableState) -> None:
        # The panel's own texts flow on below the lesson's; one that would run off the bottom is left out, with
        # every one after it (the event log keeps what they said), so nothing is ever drawn half off the window.
        floor = self.floor
        flow = [self.t_result, self.t_result_line, self.t_toasts, self.t_notice, self.t_disabled,
                self.t_since_head, *self.t_since, self.t_log_head]
        cut = next((i for i, t in enumerate(flow) if t.text and t.y - t.content_height < floor), None)
        if cut is None:
            return
        for text in flow[cut:]:
            set_text(text, "")
        # The panel's flow fits its announcements to its own bottom and would bring them back: keep them out.
        self.toasts_cut = self.toasts_cut or self.t_toasts in flow[cut:]
        self._flow(state)
        self._refresh_log(state)

    def visible(self, rect: Rect) -> bool:
        """True when ``rect`` (a choice) is wholly in view: inside the scrolled area's clip, if it scrolls."""
        clip = self.clip
        return clip is None or (rect.bottom >= clip.bottom - 0.5 and rect.top <= clip.top + 0.5)

    def hover(self, x: float, y: float) -> None:
        """The panel's buttons, and the choice under the pointer."""
        super().hover(x, y)
        hovered = next((i for i, rect in enumerate(self.choice_rects) if rect.contains(x, y)
                        and (self.clip is None or self.clip.contains(x, y))), None)
        if hovered != self._hovered:
            self._hovered = hovered
            self._lay_out_lesson()

    def target_at(self, x: float, y: float) -> Target | None:
        """A choice (where it is in view), else what the panel has there."""
        for i, rect in enumerate(self.choice_rects):
            if rect.contains(x, y) and (self.clip is None or self.clip.contains(x, y)):
                return OnButton(f"choice-{i}")
        return super().target_at(x, y)

    def draw(self) -> None:
        """The panel, then the choices' backs and the lesson's texts (clipped to their area when it scrolls)."""
        super().draw()
        clip = self.clip
        ctx = self.window.ctx
        if clip is not None:
            r = self.ratio
            ctx.scissor = (round(clip.left * r), round(clip.bottom * r), round(clip.width * r), round(clip.height * r))
        try:
            self.choice_list.draw()
            self.lesson_batch.draw()
        finally:
            if clip is not None:
                ctx.scissor = None
        if self.t_more.text:
            self.more_batch.draw()


class ExplanationPart(Part):
    """The box over the board: "Well done" or "Not quite", what happened, why, and the rulebook's words.

    It is as tall as its words, at the board's top, or at its bottom when the squares the lesson is about
    lie in the top half; wider than the board where the play area has room. It covers no panel.
    """

    def __init__(self, tx: Textures) -> None:
        self.geo: TableGeometry | None = None
        self.lesson: LessonState | None = None
        self.back = arcade.Sprite(tx.white)
        self.back.color = BOX_BACK
        self.back.alpha = BOX_BACK[3]
        self.back.visible = False
        self.batch = Batch()
        b = self.batch
        self.t_title = make_text(b, 22, bold=True)
        self.t_what = make_text(b, 11, multiline=True, color=TEXT_DIM)
        self.t_words = make_text(b, 12.5, multiline=True, color=TEXT)
        self.t_cite = make_text(b, 11, bold=True, multiline=True, color=TEXT_DIM)
        self.t_quote = make_text(b, 12.5, multiline=True, color=QUOTE)
        self.t_more = make_text(b, 10.5, multiline=True, color=TEXT_DIM)
        self.t_look = make_text(b, 10, color=TEXT_DIM)
        self.texts = [self.t_title, self.t_what, self.t_words, self.t_cite, self.t_quote, self.t_more, self.t_look]
        self.buttons = [Button(f"box-{i}", "", tx.white, b) for i in range(BOX_BUTTONS)]
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.sprites = [self.back, *(button.sprite for button in self.buttons)]
        for button in self.buttons:
            button.visible = False
        self._shown: tuple[int, ...] = ()
        self.shown = False
        self.scale = 1.0

    def relayout(self, geo: TableGeometry, ratio: float) -> None:
        """Fonts and buttons for the window's scale (the box's size follows its words, in refresh)."""
        self.geo = geo
        self.scale = geo.scale
        for button in self.buttons:
            scale_button(button, geo.scale)

    def refresh(self, state: TableState) -> None:
        """Show, fill and fit the box as the lesson has it now, or hide it."""
        box = self.lesson.box() if self.lesson is not None else None
        self.shown = box is not None and self.geo is not None
        self.back.visible = self.shown
        for button in self.buttons:
            button.visible = False
        if box is None or self.geo is None or self.lesson is None:
            self._shown = show_only(self.sprite_list, self.sprites, self._shown)
            return
        set_text(self.t_title, box.title, TONE_COLOURS[box.tone])
        set_text(self.t_what, box.what)
        set_text(self.t_words, box.words)
        set_text(self.t_cite, box.cite)
        set_text(self.t_quote, box.quote)
        set_text(self.t_more, box.more)
        set_text(self.t_look, LOOK)
        for button, (name, label) in zip(self.buttons, box.buttons):
            button.name, button.text, button.visible = name, label, True
        self._fit(self.lesson.focus())
        self._shown = show_only(self.sprite_list, self.sprites, self._shown)

    def _gap(self, text: arcade.Text) -> float:
        return (14 if text in (self.t_title, self.t_what, self.t_words) else 6) * self.scale

    def _fit(self, focus: tuple[int, ...]) -> None:
        # The box is as tall as its words (shrunk, never below 9 pt, until they fit), at the board's top or its
        # bottom, whichever covers fewer of the squares the lesson is about (the top when it is all the same).
        # Words that do not fit over the board even shrunk (large text on a small window) get the whole play
        # area: the box is over the board either way, and the board is never made smaller for them.
        assert self.geo is not None
        geo = self.geo
        board, s = geo.board, self.scale
        pad, edge = 16 * s, 6
        buttons = 34 * s + pad
        # Wider than the board where the play area has room (fewer lines, so more of the board stays in view).
        rooms = ((min(geo.panel.left - 24 * s, board.width * WIDER) - 2 * edge, board.height - 2 * edge),
                 (geo.panel.left - 2 * edge, geo.height - 2 * edge))
        for width, tallest in rooms:
            for factor in (1.0, 0.92, 0.85, 0.78, 0.72, 0.66):
                rescale(self.texts, s * factor)
                for text in self.texts:
                    text.width = int(width - 2 * pad)
                used = sum(t.content_height + self._gap(t) for t in self.texts if t.text)
                if used + buttons + 2 * pad <= tallest:
                    break
            else:
                continue
            break
        height = min(tallest, used + buttons + 2 * pad)
        big = tallest > board.height

        def covered(top: float) -> int:
            centres = [geo.square_centre(*POSITION[sq])[1] for sq in focus]
            return len([y for y in centres if top - height - geo.cell / 2 < y < top + geo.cell / 2])

        high, low = board.top - edge, board.bottom + edge + height
        top = low if covered(low) < covered(high) else high
        if big:  # centred on the board, inside the window
            top = min(geo.height - edge, max(edge + height, board.cy + height / 2))
        back = self.back
        back.width, back.height = width, height
        cx = min(board.cx, geo.panel.left - edge - width / 2) if big else board.cx
        back.position = cx, top - height / 2
        x, y = cx - width / 2 + pad, top - pad
        for text in self.texts:
            if text.text:
                text.position = x, y
                y -= text.content_height + self._gap(text)
        shown = [b for b in self.buttons if b.visible]
        gap = 10 * s
        total = width - 2 * pad
        # The first button (Enter's) is the widest: half the row; the others share the rest.
        widths = [total] if len(shown) == 1 else [total / 2 - gap / 2] + [
            (total / 2 - gap / 2 - gap * (len(shown) - 2)) / (len(shown) - 1)] * (len(shown) - 1)
        bx = x
        for button, w in zip(shown, widths):
            button.place(bx, top - height + pad, w, 34 * s)
            bx += w + gap

    def hover(self, x: float, y: float) -> None:
        """Light the box's button under the pointer."""
        for button in self.buttons:
            button.hover(x, y)

    def target_at(self, x: float, y: float) -> Target | None:
        """The box's buttons; a click elsewhere in the box lands on the box (it covers the board)."""
        if not self.shown:
            return None
        for button in self.buttons:
            target = button.target_at(x, y)
            if target is not None:
                return target
        b = self.back
        if b.left <= x < b.right and b.bottom <= y < b.top:
            return OnButton("box", enabled=False)
        return None

    def draw(self) -> None:
        """Only while the box shows."""
        if self.shown:
            self.sprite_list.draw()
            self.batch.draw()
