"""The replay viewer: a finished game or match stepped through action by action, every hand face up.

The frames come from ``replay_model`` (the record replayed and checked by the
engine); this view only shows one of them: the board (``BoardPart``, the
table's own drawing, with the winning line drawn through at a game's end),
each seat with its hand and discard pile, the action and what it caused in
words, the position, and a slider to jump anywhere. Keys: Right/Left one
action, Down/Up the next/previous deal, Page Down/Page Up the next/previous
game, Home/End, Esc back. A spectator's look back at a live game is the same
view over the public history (no hands, only their sizes), where Right at
the end or End goes back to the live table.

A finished record can be reviewed (R, or Review): one seat's moves weighed
by ``board99.review`` in a process of its own (``review_model.ReviewJob``)
while a progress bar fills; then each of that seat's moves shows its win
chance before and after and its mark, a marked move its better move (ringed
on the board) and the hint it broke, and the slider carries a tick at each
marked move (N/P step through them). Tab picks the seat reviewed.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
from pyglet.graphics import Batch
from pyglet.window.key import symbol_string

from board99 import Play, parse_action
from board99.record import RecordError
from board99.review import DEFAULT, MoveReview, Options, Review

from . import wording
from .buttons import Button
from .drawing import Part, make_text, rescale, scale_button, set_text, show_only
from .geometry import Rect, TableGeometry
from .palette import BAD, CARD_BACK, GOOD, PANEL_BG, TABLE_BG, TEXT, TEXT_DIM, WARN
from .replay_model import Cursor, Frame, Replay, load
from .replay_review import ReviewPart
from .review_model import ReviewJob, ReviewShown, frames_of_moves, marked_frames, records_of, shown_for
from .scale import ui_scale
from .sounds import Sounds
from .table_board import BoardPart
from .table_state import TableState
from .textures import Textures, load_fonts, peg_texture, textures

MOST_SEATS = 6
HAND = 5
KEY_HINT = "← → one action   ↑ ↓ one deal   PgUp PgDn one game   Home End   click or drag the bar   Esc back"
REVIEW_HINT = "← → one action   ↑ ↓ one deal   PgUp PgDn one game   N P marked moves   R review   Tab seat   Esc back"
LIVE_HINT = "← → one action   ↑ ↓ one deal   Home   End or → at the end: back to the live game   Esc back"
SEAT_BACK = (18, 52, 32, 255)
ACTOR_BACK = (70, 62, 24, 255)  # the seat that made the action shown
TRACK = (10, 30, 20, 255)
FILL = (200, 170, 60, 255)
KNOB = (255, 230, 120, 255)
MARK = (240, 236, 220, 255)
SLOT = (30, 64, 44, 255)


class ReplayLayout(TableGeometry):
    """Where the replay's things sit: the board on the left, the seats beside it, the panel, the slider below."""

    def __init__(self, width: int, height: int, players: int, scale: float) -> None:
        super().__init__(width, height, players, 0, scale)
        s = scale
        pad = 10 * s
        self.slider_h = 58 * s
        self.small_w = 36 * s  # a card in a seat's hand
        self.small_h = self.small_w * 1.4
        self.seat_w = HAND * self.small_w + 4 * 4 * s + 16 * s + self.small_w + 16 * s
        self.seat_h = 44 * s + self.small_h + 12 * s
        panel_w = max(260 * s, min(340 * s, width * 0.28))
        room_h = height - self.slider_h
        side = max(160.0, min(room_h - 2 * pad - 16, width - panel_w - self.seat_w - 3 * pad - 16))
        self.board = Rect(pad + 8, self.slider_h + (room_h - side) / 2, side, side)  # 8: the wooden frame
        self.cell = side / 10
        self.panel = Rect(width - panel_w, self.slider_h, panel_w, room_h)
        self.seats_left = self.board.right + pad + 8
        self.track = Rect(2 * pad, 14 * s, width - 4 * pad, 10 * s)

    def seat_box(self, index: int, count: int) -> Rect:
        """The ``index``-th of ``count`` seat boxes, top to bottom beside the board."""
        room = self.height - self.slider_h
        step = min(self.seat_h + 8 * self.scale, room / max(1, count))
        top = self.height - (room - step * count) / 2
        return Rect(self.seats_left, top - (index + 1) * step + 4 * self.scale, self.seat_w, step - 8 * self.scale)


class SeatsColumn(Part):
    """Every seat: its peg, name and counts, its hand face up (or backs, when unknown) and its pile."""

    def __init__(self, tx: Textures, window: arcade.Window) -> None:
        self.tx, self.window = tx, window
        self.layout: ReplayLayout | None = None
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.backs = [arcade.Sprite(tx.white) for _ in range(MOST_SEATS)]
        self.pegs = [arcade.Sprite(peg_texture("red", 0)) for _ in range(MOST_SEATS)]
        self.cards = [[arcade.Sprite(tx.cards[0]) for _ in range(HAND)] for _ in range(MOST_SEATS)]
        self.piles = [arcade.Sprite(tx.white) for _ in range(MOST_SEATS)]
        self.sprites = [*self.backs, *self.pegs, *(c for row in self.cards for c in row), *self.piles]
        for sprite in self.sprites:
            sprite.visible = False
        self._shown: tuple[int, ...] = ()
        self.batch = Batch()
        self.t_names = [make_text(self.batch, 12, bold=True) for _ in range(MOST_SEATS)]
        self.t_details = [make_text(self.batch, 10, color=TEXT_DIM) for _ in range(MOST_SEATS)]
        self.t_piles = [make_text(self.batch, 9, color=TEXT_DIM) for _ in range(MOST_SEATS)]

    def relayout_for(self, layout: ReplayLayout) -> None:
        """Take the new layout (sizes follow in ``show``)."""
        self.layout = layout
        rescale([*self.t_names, *self.t_details, *self.t_piles], layout.scale)

    def show(self, frame: Frame | None, state: TableState) -> None:
        """Show ``frame``'s seats."""
        lay = self.layout
        assert lay is not None
        s = lay.scale
        view = frame.view if frame is not None else None
        players = view.players if view is not None else 0
        colours = state.colours()
        palette = getattr(getattr(self.window, "prefs", None), "palette", "standard")
        for seat in range(MOST_SEATS):
            back, peg, pile = self.backs[seat], self.pegs[seat], self.piles[seat]
            name, detail, count = self.t_names[seat], self.t_details[seat], self.t_piles[seat]
            if view is None or frame is None or seat >= players:
                for sprite in (back, peg, pile, *self.cards[seat]):
                    sprite.visible = False
                for text in (name, detail, count):
                    set_text(text, "")
                continue
            box = lay.seat_box(seat, players)
            side = view.side_of(seat)
            back.visible = True
            back.position, back.width, back.height = box.center, box.width, box.height
            back.color = ACTOR_BACK if seat == frame.actor else SEAT_BACK
            peg.texture = peg_texture(colours[side], side, palette)
            peg.width = peg.height = 20 * s
            peg.position = box.left + 14 * s, box.top - 14 * s
            peg.visible = True
            to_play = view.turn == seat and view.winner is None
            set_text(name, wording.seat_name(seat, state.table) + ("  ▶ to play" if to_play else ""),
                     WARN if to_play else TEXT)
            name.position = box.left + 30 * s, box.top - 5 * s
            held = view.hand_sizes[seat]
            words = [wording.colour_word(colours[side]), f"{held} card{'' if held == 1 else 's'}"]
            if view.skips[seat]:
                words.append(f"misses {view.skips[seat]} turn{'' if view.skips[seat] == 1 else 's'}")
            set_text(detail, " · ".join(words))
            detail.position = box.left + 30 * s, box.top - 23 * s
            hand = frame.hands[seat] if frame.hands is not None else (CARD_BACK,) * held
            y = box.bottom + 6 * s + lay.small_h / 2
            for i, card in enumerate(self.cards[seat]):
                card.visible = i < len(hand)
                if card.visible:
                    card.texture = self.tx.cards[hand[i]]
                    card.width, card.height = lay.small_w, lay.small_h
                    card.position = box.left + 8 * s + lay.small_w / 2 + i * (lay.small_w + 4 * s), y
            pile_x = box.right - 8 * s - lay.small_w / 2
            discards = view.discards[seat]
            pile.texture = self.tx.cards[discards[-1]] if discards else self.tx.white
            pile.color = (255, 255, 255, 255) if discards else SLOT
            pile.width, pile.height = lay.small_w, lay.small_h
            pile.position = pile_x, y
            pile.visible = True
            set_text(count, f"{len(discards)} out" if discards else "no discards")
            count.position = pile_x - lay.small_w / 2 - 4 * s - count.content_width, y + lay.small_h / 2
        self._shown = show_only(self.sprite_list, self.sprites, self._shown)

    def draw(self) -> None:
        """The boxes, pegs and cards, then the words."""
        self.sprite_list.draw()
        self.batch.draw()


class ReplayView(arcade.View):
    """A record stepped through, one action at a time, forwards and back."""

    def __init__(self, text: str, title: str, on_back: Callable[[], None], sounds: Sounds | None = None, *,
                 frames: Replay | None = None, on_live: Callable[[], None] | None = None,
                 review_seat: int | None = None, review_now: bool = False,
                 review_options: Options = DEFAULT) -> None:
        """``text`` is a game or match record; ``frames`` (a live game's history) stands in for it when given.

        ``on_live``: the look back at a live game; Right at the end and End call it to return to the table.
        ``review_seat``: the seat a review weighs (default seat 0); ``review_now`` starts it at once.
        """
        super().__init__()
        load_fonts()
        self.title = title
        self._on_back = on_back
        self.text = text
        self.on_live = on_live
        self.sounds = sounds or Sounds(muted=True)
        self.error = ""
        replay = frames
        if replay is None:
            try:
                replay = load(text)
            except RecordError as exc:  # a bad record is said on screen, not raised into the window
                self.error = f"This record cannot be shown: {exc}"
        self.replay = replay
        self.cursor = Cursor(replay.frames if replay is not None else ())
        if on_live is not None and replay is not None:
            self.cursor.go(len(replay.frames) - 1)  # the look back starts from the live position
        self.state = TableState(muted=True)
        self.state.threats_pref = "never"  # a replay shows what was, not hints
        self.state.table = replay.table if replay is not None else None
        tx = textures()
        self.board = BoardPart(self.window, tx)
        self.seats = SeatsColumn(tx, self.window)
        self.panel_back = arcade.Sprite(tx.white)
        self.panel_back.color = (*PANEL_BG, 255)
        self.track = arcade.Sprite(tx.white)
        self.track.color = TRACK
        self.fill = arcade.Sprite(tx.white)
        self.fill.color = FILL
        self.knob = arcade.Sprite(tx.white)
        self.knob.color = KNOB
        self.marks = [arcade.Sprite(tx.white) for _ in range(16)]
        for m in self.marks:
            m.color = MARK
        self.ui_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.batch = Batch()
        b = self.batch
        self.t_title = make_text(b, 13, bold=True, color=TEXT_DIM)
        self.t_heading = make_text(b, 11, multiline=True)
        self.t_position = make_text(b, 15, bold=True, color=WARN, multiline=True)
        self.t_action = make_text(b, 17, bold=True, multiline=True)
        self.t_line = make_text(b, 10, color=TEXT_DIM)
        self.t_words = make_text(b, 13, multiline=True)
        self.t_state = make_text(b, 11, multiline=True, color=TEXT_DIM)
        self.t_result = make_text(b, 15, bold=True, color=GOOD, multiline=True)
        self.t_hint = make_text(b, 10, color=TEXT_DIM)
        self.texts = [self.t_title, self.t_heading, self.t_position, self.t_action, self.t_line, self.t_words,
                      self.t_state, self.t_result, self.t_hint]
        self.b_back = Button("back", "Back to the table (Esc)" if on_live else "Back (Esc)", tx.white, b)
        self.b_review = Button("review", "Review (R)", tx.white, b)
        self.b_seat = Button("seat", "S0 ▸ (Tab)", tx.white, b)
        # -- the review: only of a finished record (a live game's history is neither whole nor revealed)
        self.reviewable = bool(text) and on_live is None and replay is not None
        self.b_review.visible = self.b_seat.visible = self.reviewable
        self.review_options = review_options
        players = replay.frames[0].view.players if replay is not None and replay.frames else 2
        self.review_seat = review_seat if review_seat is not None and 0 <= review_seat < players else 0
        self.job: ReviewJob | None = None
        self.job_shown: tuple[int, bool] | None = None  # the job's (done, finished) last shown
        self.review: Review | None = None
        self.review_moves: dict[int, MoveReview] = {}  # frame index -> the reviewed move it shows
        self.marked: list[int] = []  # frame indices of the marked moves
        self.review_part = ReviewPart(tx)
        #: The review works in a process of its own (False: on a thread here; bench/review_window.py compares).
        self.review_elsewhere = True
        self.dragging = False
        self.layout: ReplayLayout | None = None
        self.shown_frames: list[int] = []  # every frame index shown, in order (tests compare both ways)
        self.relayout()
        if review_now and self.reviewable:
            self.start_review()

    # -- layout and showing ---------------------------------------------------------------------

    @property
    def frame(self) -> Frame | None:
        """The frame on screen (None: the record could not be read)."""
        return self.cursor.frame if self.cursor.frames else None

    def relayout(self) -> None:
        """Place everything for the window's size, then show the current frame."""
        w, h = self.window.width, self.window.height
        s = ui_scale(w, h, self.window.prefs.ui_scale)
        frame = self.frame
        players = frame.view.players if frame is not None else 2
        lay = self.layout = ReplayLayout(w, h, players, s)
        self.board.relayout(lay, self.window.get_pixel_ratio())
        self.seats.relayout_for(lay)
        rescale(self.texts, s)
        for button in (self.b_back, self.b_review, self.b_seat):
            scale_button(button, s)
        p, pad = lay.panel, 16 * s
        self.panel_back.position, self.panel_back.width, self.panel_back.height = p.center, p.width, p.height
        inner = int(p.width - 2 * pad)
        for text in self.texts:
            if text.multiline:
                text.width = inner
        self.b_back.place(p.left + pad, p.bottom + 12 * s, p.width - 2 * pad, 34 * s)
        half = (p.width - 2 * pad - 10 * s) / 2
        self.b_review.place(p.left + pad, p.bottom + 54 * s, half, 34 * s)
        self.b_seat.place(p.left + pad + half + 10 * s, p.bottom + 54 * s, half, 34 * s)
        self.review_part.relayout(lay, inner)
        t = lay.track
        self.track.position, self.track.width, self.track.height = t.center, t.width, t.height
        self.t_hint.position = t.left, lay.slider_h - 6 * s
        self.show()

    def show(self, wake: bool = True) -> None:
        """Bring the screen in line with the cursor's frame (``wake``: at the full frame rate for a moment)."""
        lay = self.layout
        assert lay is not None
        frame = self.frame
        s = lay.scale
        st = self.state
        st.view = frame.view if frame is not None else None
        st.recent.last_peg.clear()
        square = frame_square(frame)
        owner = frame.view.board[square] if frame is not None and square is not None else None
        if square is not None and owner is not None:
            st.recent.last_peg[0] = (square, owner, st.recent.moves)  # outlined as the newest peg
        self.board.refresh(st)
        # A penalised play leaves no peg: its square is lit instead, so the eye finds where it happened.
        self.board.spot(square if frame is not None and frame.penalty else None)
        self.seats.show(frame, st)
        p, pad = lay.panel, 16 * s
        x = p.left + pad
        set_text(self.t_title, self.title[:40])
        replay = self.replay
        heading = replay.heading if replay is not None else ""
        if frame is not None and frame.view.sides > 1 and replay is not None:
            colours = st.colours()
            sides = [wording.side_name(side, colours, frame.view, replay.table) for side in range(frame.view.sides)]
            heading += "\n" + "\n".join(sides)
        set_text(self.t_heading, heading)
        if frame is None:
            set_text(self.t_position, "")
            set_text(self.t_action, self.error, BAD)
            for text in (self.t_line, self.t_words, self.t_state, self.t_result):
                set_text(text, "")
        else:
            set_text(self.t_position, frame.position())
            set_text(self.t_action, frame.title, BAD if frame.penalty else GOOD if frame.actor is None else TEXT)
            set_text(self.t_line, f"Record: {frame.line}")
            shown = [w for w in frame.words if w != frame.result]
            set_text(self.t_words, "\n".join(shown))
            set_text(self.t_state, "\n".join(self._state_lines(frame)))
            set_text(self.t_result, frame.result or "")
        y = p.top - 8 * s
        for text, gap in ((self.t_title, 6), (self.t_heading, 14), (self.t_position, 12), (self.t_action, 4),
                          (self.t_line, 12), (self.t_words, 12), (self.t_result, 12), (self.t_state, 0)):
            text.position = x, y
            y -= (text.content_height if text.text else 0) + (gap * s if text.text else 0)
        set_text(self.t_hint, LIVE_HINT if self.on_live else REVIEW_HINT if self.reviewable else KEY_HINT)
        self._show_review(x, y - 14 * s)
        self._slider()
        if wake:
            self.window.awake()

    def _show_review(self, x: float, top: float) -> None:
        """The review's block under the frame's words, the better move on the board, the seat button."""
        index = self.cursor.index if self.cursor.frames else -1
        move = self.review_moves.get(index)
        table = self.state.table
        job = self.job
        shown = shown_for(job, self.review, move, table) if self.reviewable else None
        if shown is None and self.reviewable and job is None:
            name = wording.seat_name(self.review_seat, table)
            shown = ReviewShown(f"R: review {name}'s moves (Tab: another seat)", None, ())
        running = job is not None and not job.finished
        self.review_part.show(shown, x, top, job.share() if running and job is not None else None)
        frame = self.frame
        better = move.better if move is not None and move.mark is not None else None
        if type(better) is Play and frame is not None:
            side = frame.view.side_of(move.seat)  # type: ignore[union-attr]
            palette = getattr(self.window.prefs, "palette", "standard")
            self.review_part.show_better(better.square, self.state.colours()[side], side, palette)
        else:
            self.review_part.show_better(None, "red", 0, "standard")
        name = wording.seat_name(self.review_seat, table)
        self.b_seat.text = f"{name if len(name) <= 10 else name[:9] + '…'} ▸ (Tab)"
        self.b_review.text = "Reviewing…" if running else "Review (R)"

    # -- the review -------------------------------------------------------------------------------

    def start_review(self, seat: int | None = None) -> None:
        """Weigh ``seat``'s moves (default: the seat chosen) away from the window; the screen follows its progress."""
        if not self.reviewable:
            return
        if seat is not None:
            self.review_seat = seat
        if self.job is not None:
            self.job.cancel()
        try:
            records = records_of(self.text)
        except RecordError as exc:  # load() read it, so this cannot happen; say it if it does
            self.error = str(exc)
            return
        self.review, self.review_moves, self.marked = None, {}, []
        self.job = ReviewJob(records, self.review_seat, self.review_options, elsewhere=self.review_elsewhere)
        self.job_shown = None
        self.show()

    def next_seat(self) -> None:
        """Review the next seat (the one after the seat chosen); a review under way gives way to it."""
        frame = self.frame
        players = frame.view.players if frame is not None else 2
        seat = (self.review_seat + 1) % players
        if self.job is not None:
            self.start_review(seat)
        else:
            self.review_seat = seat
            self.show()

    def take_review(self) -> None:
        """Once an update: show the progress when a move more is weighed, and the review once it is there.

        Only then: the screen laid out again every frame, at the full frame rate, took the CPU the review's
        own process needed (on a busy machine a review in the window took up to three times as long as
        `board99 review`; bench/review_speed.py, docs/benchmarks.md).
        """
        job = self.job
        if job is None:
            return
        if job.review is not None and self.review is not job.review:
            self.review = job.review
            frames = self.cursor.frames
            self.review_moves = frames_of_moves(frames, job.review)
            self.marked = marked_frames(self.review_moves)
            self.show()
        elif (job.done, job.finished) != self.job_shown and (not job.finished or self.review is None):
            self.job_shown = (job.done, job.finished)
            self.show(wake=job.finished)  # the progress bar: the idle frame rate draws it, twice a second

    def to_marked(self, by: int) -> bool:
        """To the next (1) or previous (-1) marked move; False when there is none that way."""
        here = self.cursor.index
        ahead = [i for i in self.marked if (i > here if by > 0 else i < here)]
        if not ahead:
            return False
        return self.cursor.go(ahead[0] if by > 0 else ahead[-1])

    def on_back(self) -> None:
        """Leave the viewer: a review under way is stopped."""
        if self.job is not None:
            self.job.cancel()
        self._on_back()

    def _state_lines(self, frame: Frame) -> list[str]:
        view, table = frame.view, self.state.table
        lines = [f"Deck: {view.deck_size} card{'' if view.deck_size == 1 else 's'}"
                 + (f" · deal {view.deal}" if view.deal > 1 else "")]
        if view.winner is None and view.turn is not None:
            lines.append(f"Next: {wording.seat_name(view.turn, table)}")
        if view.shown:
            lines.append("Shown by penalties: " + " ".join(map(str, view.shown)))
        return lines

    def _slider(self) -> None:
        lay = self.layout
        assert lay is not None
        t, s = lay.track, lay.scale
        share = self.cursor.share() if self.cursor.frames else 0.0
        x = t.left + share * t.width
        self.fill.width, self.fill.height = max(1.0, x - t.left), t.height
        self.fill.position = t.left + self.fill.width / 2, t.cy
        self.knob.width, self.knob.height = 12 * s, 24 * s
        self.knob.position = x, t.cy
        marks = self.cursor.game_marks() if self.cursor.frames else []
        for i, mark in enumerate(self.marks):
            mark.visible = i < len(marks)
            if mark.visible:
                mark.width, mark.height = 3 * s, t.height + 10 * s
                mark.position = t.left + marks[i] * t.width, t.cy
        frames = len(self.cursor.frames)
        last = max(1, frames - 1)
        ticks = [(i / last, m.mark) for i, m in sorted(self.review_moves.items()) if m.mark is not None]
        self.review_part.show_ticks(ticks, t.left, t.width, t.cy, t.height)
        self.ui_list.clear()
        self.ui_list.extend([self.panel_back, self.track, self.fill, *(m for m in self.marks if m.visible),
                             self.knob, self.b_back.sprite,
                             *(b.sprite for b in (self.b_review, self.b_seat) if b.visible)])

    def go(self, moved: bool) -> None:
        """After the cursor moved: show the new frame (with its sound)."""
        if not moved:
            return
        self.shown_frames.append(self.cursor.index)
        self.show()
        frame = self.frame
        if frame is not None:
            self.sounds.play("win" if frame.result else "penalty" if frame.penalty else
                             "peg" if frame_square(frame) is not None else "draw")

    # -- arcade callbacks -------------------------------------------------------------------------

    def on_show_view(self) -> None:
        """Lay out for the window as it is now."""
        self.relayout()

    def on_resize(self, width: int, height: int) -> None:
        """Lay out again."""
        self.relayout()

    def on_draw(self) -> None:
        """The baize, the board, the seats, the panel and the slider."""
        self.clear(color=TABLE_BG)
        self.ui_list.draw()
        if self.frame is not None:
            self.board.draw()
            self.review_part.draw_board()
        self.seats.draw()
        self.review_part.draw()
        self.batch.draw()

    def on_update(self, delta_time: float) -> None:
        """Follow a review under way."""
        if self.job is not None:
            self.take_review()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Right/Left an action, Down/Up a deal, PgDn/PgUp a game, Home/End, Esc back."""
        k, c = arcade.key, self.cursor
        if symbol == k.ESCAPE:
            self.on_back()
        elif self.on_live is not None and (symbol == k.END or (symbol == k.RIGHT and c.at_end)):
            self.on_live()
        elif not c.frames:
            return None
        elif (moved := c.by_key(symbol_string(symbol))) is not None:
            self.go(moved)
        elif symbol == k.R and self.reviewable:
            self.start_review()
        elif symbol == k.TAB and self.reviewable:
            self.next_seat()
        elif symbol == k.N:
            self.go(self.to_marked(1))
        elif symbol == k.P:
            self.go(self.to_marked(-1))
        else:
            return None  # F1, F11, Ctrl+Q … are the window's
        return True

    def _on_track(self, x: float, y: float) -> bool:
        lay = self.layout
        if lay is None:
            return False
        t = lay.track
        return t.left - 8 <= x <= t.right + 8 and t.bottom - 14 * lay.scale <= y <= t.top + 14 * lay.scale

    def _seek(self, x: float) -> None:
        lay = self.layout
        if lay is not None and self.cursor.frames:
            self.go(self.cursor.seek((x - lay.track.left) / lay.track.width))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """The slider jumps to where it is clicked (and follows a drag); the back button goes back."""
        if self.b_back.target_at(x, y) is not None:
            self.on_back()
        elif self.b_review.target_at(x, y) is not None:
            self.start_review()
        elif self.b_seat.target_at(x, y) is not None:
            self.next_seat()
        elif self._on_track(x, y):
            self.dragging = True
            self._seek(x)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        """Dragging the slider moves through the frames."""
        if self.dragging:
            self._seek(x)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """The drag ends."""
        self.dragging = False

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Light the button under the pointer."""
        for button in (self.b_back, self.b_review, self.b_seat):
            button.hover(x, y)


def frame_square(frame: Frame | None) -> int | None:
    """The square the frame's action pegged (or was penalised on), or None."""
    if frame is None or frame.actor is None:
        return None
    try:
        action = parse_action(frame.line.partition(" ")[2])
    except ValueError:
        return None
    return action.square if type(action) is Play else None
